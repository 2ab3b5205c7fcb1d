"""A tuned decision threshold of two-class data, honestly estimated.

LIBSVM predicts the positive class where its decision value is above 0 (with ``-b 1``, where
its probability is the larger). Moving that threshold trades precision for recall; choosing it
on the cross-validation's own scores and reporting the figures at it is optimistic, as a grid
search's best rate is. :func:`tune_threshold` reports three operating points:

* **LIBSVM's own**: the labels LIBSVM predicts (``svm-train -v k``'s predictions);
* **tuned (optimistic)**: the threshold chosen on the pooled CV scores, and the figures there
  (the same scores that chose it);
* **nested (honest)**: for each outer fold (the folds of ``svmeval -v k --seed S``), a threshold
  chosen on the cross-validation of that fold's training rows alone (inner folds drawn from
  those rows in LIBSVM's order after ``srand(S)``, as :func:`~svmeval.workflows.nested.nested_cv`
  draws them) and applied to the outer fold's test rows' scores: scikit-learn's
  ``TunedThresholdClassifierCV`` inside an outer cross-validation.

The score is the positive class's: its decision value (``d`` towards LIBSVM's first class,
``-d`` towards the other), or its probability with ``-b 1``. A sample is predicted positive
when its score is at least the threshold (scikit-learn's rule). The candidate thresholds are
the midpoints ``(a + b) / 2`` of every two adjacent distinct scores, ``-inf`` (every sample
positive) and ``inf`` (none); the chosen one has the best criterion value, and among equal
values the one nearest LIBSVM's own threshold (0 for decision values, 0.5 for probabilities),
then the lower.

Criteria (``criterion``): ``f1`` (F1 of the positive class; ``f1:LABEL`` makes class LABEL the
positive one), ``mcc``, ``balanced_accuracy`` (each 0 where 0/0, as scikit-learn's), and
``cost:FP,FN`` (minimise FP x #false positives + FN x #false negatives).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from svmeval._args import checked
from svmeval._classes import class_code
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.collect.results import CVResult
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import ArgumentError, DataFormatError, SvmevalError, show_label
from svmeval.io.data import DataSource
from svmeval.params import Configuration, LinearParams, SvmParams, linear_configuration
from svmeval.preprocess import ScaleLike
from svmeval.store import StoreLike
from svmeval.workflows.threshold_result import OuterThreshold, TunedThreshold, positive_scores
from svmeval.workflows.threshold_rules import (
    CRITERIA,
    FIGURE_NAMES,
    ThresholdCriterion,
    choose_threshold,
    operating_figures,
    parse_criterion,
)

__all__ = [
    "CRITERIA",
    "FIGURE_NAMES",
    "ThresholdCriterion",
    "TunedThreshold",
    "choose_threshold",
    "parse_criterion",
    "tune_threshold",
]


def _check_classes(dataset, config, criterion: ThresholdCriterion, pos_label):
    """(positive, negative) of two-class classification data, or an ArgumentError."""
    from svmeval.cv.plan import checks
    from svmeval.metrics.two_class import positive_label

    if not isinstance(config, LinearParams) and config.svm_type == 2:
        raise ArgumentError(
            "params", "a one-class SVM (-s 2) has no classes to move a decision threshold between"
        )
    if config.is_regression:
        raise ArgumentError("params", "a regression (-s 3, -s 4) has no decision threshold")
    y = checks.single_label(dataset, "a threshold tuning")
    labels = np.unique(y)
    if len(labels) != 2:
        raise ArgumentError(
            "data", f"a decision threshold needs two classes; the data have {len(labels)}"
        )
    fractional = np.flatnonzero(y != np.trunc(y))
    if len(fractional):  # LIBSVM's classes, and its scores' columns, are (int)label
        row = int(fractional[0])
        raise DataFormatError(
            dataset.name,
            row + 1,
            f"label {show_label(y[row])} is not a whole number: LIBSVM classifies by "
            "(int)label, so a decision threshold needs whole-number labels",
        )
    pos_label = class_code(pos_label, dataset.classes)
    if criterion.label is not None and dataset.classes is not None:
        label = class_code(criterion.label, dataset.classes, "criterion")
        criterion = replace(criterion, label=label)
    if criterion.label is not None:
        if criterion.label not in labels:
            shown = ", ".join(show_label(v) for v in labels)
            raise ArgumentError(
                "criterion",
                f"class {show_label(criterion.label)} is not one of the labels ({shown})",
            )
        if pos_label is not None and float(pos_label) != criterion.label:
            raise ArgumentError(
                "pos_label",
                f"{show_label(pos_label)} differs from the class of criterion {criterion.text!r}",
            )
        pos_label = criterion.label
    positive = positive_label(labels, pos_label)
    return positive, float(labels[labels != positive][0])


@recorded
@checked(skip=("criterion",))  # parse_criterion: f1, f1:LABEL, mcc, ... (a figure's name is not)
def tune_threshold(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    criterion: str = "f1",
    inner_folds: int = 5,
    seed: int = 1,
    repeat: int = 1,
    pos_label: float | None = None,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | None = None,
) -> TunedThreshold:
    """Tune the decision threshold of two-class data, and estimate the tuned model honestly.

    Cross-validates the data (``svm-train -v folds``' folds after ``srand(seed)``), chooses
    the threshold of the positive class's CV scores that is best for ``criterion``, and
    cross-validates the choice itself: each outer fold's threshold is chosen on the
    cross-validation of its training rows only and applied to its test rows. See the module
    notes for the candidates and ties.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        Two-class data, as :func:`cross_validate` takes them.
    params : SvmParams or str or LinearParams, optional
        A classifier's configuration (C-SVC or nu-SVC); with ``-b 1`` the threshold moves on
        the positive class's probability, else on its decision value. A LIBLINEAR
        classifier (:class:`LinearParams`) moves it on LIBLINEAR's decision value, trained
        fold by fold on svmeval's folds (each cross-validation one task with ``client``).
    folds : int, default 5
        The outer folds (those of ``svmeval -v folds``).
    criterion : str, default "f1"
        ``"f1"`` (of the positive class; ``"f1:LABEL"`` makes LABEL the positive class),
        ``"mcc"``, ``"balanced_accuracy"`` or ``"cost:FP,FN"`` (the threshold that minimises
        FP x false positives + FN x false negatives; two numbers >= 0).
    groups : array-like or str or os.PathLike, optional
        Each row's group, as :func:`cross_validate` takes them: the outer folds and each
        outer training set's inner folds keep every group whole.
    given_folds : array-like or iterable or str or os.PathLike, optional
        The outer folds, as :func:`cross_validate` takes them (the inner folds are
        LIBSVM's, drawn from each outer training set).
    inner_folds : int, default 5
        The folds of each outer training set's cross-validation.
    seed : int, default 1
        C ``srand``'s seed of the outer folds and of every inner cross-validation.
    repeat : int, default 1
        R repetitions of the whole estimate, with seeds ``seed``, ``seed + 1``, ... (as
        :func:`cross_validate`'s): repetition r draws its outer folds and every inner
        cross-validation's after ``srand`` of its own seed and chooses its own thresholds.
        The result is the first repetition's, the others in ``repeat_results``;
        :meth:`TunedThreshold.spread` gives the mean, sd, min and max over them.
    pos_label : float, optional
        The positive class (default 1 where present, else the larger label).
    jobs : int, optional
        Folds trained at once on this machine (default: the cores); results identical.
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address (``tcp://host:8786``, ``local[:N]``; connected
        once): the folds of the outer and of every inner cross-validation run as tasks on
        that cluster, with results identical to a local run.
    progress : callable, optional
        ``progress(done, total)`` as cross-validations end (each repetition's outer one,
        then each inner one).
    store : str or os.PathLike or Store, optional
        A results store: the folds it holds are reused, the others written as they end.
    scale, select : optional
        Preprocessing learned inside the folds, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): the outer cross-validation and
        every inner one learn it on each of their folds' training rows alone
        (:doc:`/guide/preprocessing`).

    Returns
    -------
    TunedThreshold
        LIBSVM's operating point, the tuned threshold with its optimistic figures, and the
        honest (nested) estimate, with each outer fold's threshold.

    Raises
    ------
    ArgumentError
        Data of one or more than two classes, a regression or one-class configuration, an
        unknown criterion, a cost that is not two numbers >= 0, a class not in the data.
    DataFormatError
        A label that is not a whole number (LIBSVM's classes are ``(int)label``): the file
        and the first such line.

    Examples
    --------
    >>> from svmeval import tune_threshold
    >>> t = tune_threshold("data/breast_cancer.scale", "-c 2", criterion="cost:1,5")
    >>> t.libsvm["fn"] >= t.tuned["fn"]
    True
    """
    parsed = parse_criterion(criterion)
    arguments = dict(locals())
    from svmeval.cv import engine
    from svmeval.cv.run.store_session import opened

    with contextlib.ExitStack() as stack:  # a cluster connected once for every CV
        counts = stack.enter_context(
            opened(arguments.pop("store"), "tune_threshold", (tune_threshold, dict(arguments)))
        )
        return engine.c_state(_tune)(counts=counts, _stack=stack, **arguments)


def _tune(
    data,
    params,
    folds,
    *,
    groups,
    given_folds,
    criterion,
    parsed,
    inner_folds,
    seed,
    repeat,
    pos_label,
    jobs,
    client,
    progress,
    counts,
    _stack,
    scale,
    select,
) -> TunedThreshold:
    from svmeval.cv.engine import preprocessing_of, run_cv
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.cv_plan import repetition_seeds
    from svmeval.params import given_configuration

    run = checks.check_run(
        folds, seed, repeat=repeat, inner_folds=inner_folds, jobs=jobs, client=client
    )
    linear = isinstance(params, LinearParams)
    config: SvmParams | LinearParams
    if linear:
        config = _linear_config(params)
        dataset = checks.classes_for(checks.as_dataset(data, "data"), data, [config])
    else:
        dataset, (config,) = checks.as_dataset_and_params(data, "a threshold tuning", params=params)
    positive, negative = _check_classes(dataset, config, parsed, pos_label)
    if linear:
        from svmeval.cv.run.linear_folds import check_linear

        check_linear(dataset, config)  # LIBLINEAR's check_parameter, before any fold
    if linear:  # learned inside LIBSVM's folds only, as cross_validate says
        from svmeval.workflows.permutation import _no_preprocessing

        _no_preprocessing(scale, select)
    preprocessing = None if linear else preprocessing_of(scale, select, dataset, [config])
    if client is not None:  # connected (its workers checked) once every argument is checked
        from svmeval.cv.run import cluster

        client = _stack.enter_context(cluster.client_for(client))
    from svmeval.cv.run.linear_cluster import entered

    on_cluster = entered(_stack, client) if linear else None
    if isinstance(config, LinearParams):
        configuration = linear_configuration(config)
    else:
        configuration = given_configuration(params, config)
    warned = [False]  # LIBSVM's leave-one-out warning: once a run, not once a CV
    from svmeval.cv.plan.given import fold_source

    source = fold_source(groups, given_folds, dataset.n_samples)

    def cv_of(rows, k: int, s: int, train=None) -> CVResult:
        """The CV of ``rows`` (the outer one: ``train`` None; an inner one: the outer
        training rows ``train``, their groups kept whole)."""
        if train is None:
            folds_from = source
        elif source is not None and source.grouped:
            from svmeval.cv.plan.given import groups_source

            folds_from = groups_source(source.codes[train])
        else:
            folds_from = None
        if linear:  # svmeval's folds, LIBLINEAR trained fold by fold on them
            from svmeval.cv.run.linear_folds import linear_seeded_on

            return linear_seeded_on(on_cluster, rows, config, k, s, folds_from)
        result = run_cv(
            rows,
            config,
            k,
            seed=s,
            jobs=jobs,
            client=client,
            store=counts,
            warn_folds=not warned[0],
            fold_source=folds_from,
            preprocessing=preprocessing,
        )
        warned[0] = warned[0] or k > result.n_samples
        return result

    count = _Count(progress, run.repeat)
    repetitions = [
        _repetition(dataset, cv_of, run, s, parsed, positive, negative, configuration, count)
        for s in repetition_seeds(run.seed, run.repeat)
    ]
    from dataclasses import replace

    return replace(repetitions[0], repeat_results=tuple(repetitions[1:]))


def _linear_config(params: LinearParams) -> LinearParams:
    """A LIBLINEAR configuration for a threshold tuning: checked, a classifier."""
    params.check()
    if params.solver_type == 21:
        raise ArgumentError(
            "params",
            "a one-class SVM (-s 21) has no classes to move a decision threshold between",
        )
    if params.is_regression:
        raise ArgumentError(
            "params", "a regression (-s 11, -s 12, -s 13) has no decision threshold"
        )
    return params


class _Count:
    """``progress(done, total)`` over every repetition's cross-validations (the total known
    once the first outer one tells its folds)."""

    def __init__(self, progress, repeat: int):
        self.progress, self.repeat = progress, repeat
        self.done, self.total = 0, 0

    def add(self, n_folds: int) -> None:
        self.total = self.total or self.repeat * (1 + n_folds)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


def _repetition(
    dataset, cv_of, run, seed: int, parsed, positive, negative, configuration, count
) -> TunedThreshold:
    """The three operating points of the folds of ``seed``: the outer cross-validation, its
    pooled threshold, and each outer fold's threshold chosen on its inner cross-validation
    (``cv_of(rows, k, seed)`` runs each)."""
    from svmeval.io.data import rows_of

    cv = _named(cv_of(dataset, run.folds, seed), configuration, dataset)
    count.add(cv.n_folds)
    default = 0.5 if cv.probabilities is not None else 0.0
    y = cv.y_true
    scores = positive_scores(cv, positive)
    threshold, value = choose_threshold(y == positive, scores, parsed, default)
    honest_pred = np.empty_like(y)
    outer = []
    for i in range(cv.n_folds):
        train, test = cv.folds.train(i), cv.folds.test(i)
        _check_both_classes(y[train], i, positive, negative)
        _check_test_rows(test, i)
        inner = cv_of(rows_of(dataset, train), run.inner_folds, seed, train)
        t, v = choose_threshold(
            inner.y_true == positive, positive_scores(inner, positive), parsed, default
        )
        honest_pred[test] = np.where(scores[test] >= t, positive, negative)
        figures = operating_figures(y[test], honest_pred[test], positive, parsed)
        outer.append(OuterThreshold(i, t, v, train, test, figures))
        count.add(cv.n_folds)
    tuned_pred = np.where(scores >= threshold, positive, negative)
    return TunedThreshold(
        criterion=parsed.text,
        greater_is_better=parsed.greater_is_better,
        positive=positive,
        negative=negative,
        score_source="probabilities" if cv.probabilities is not None else "decision values",
        default_threshold=default,
        threshold=threshold,
        value=value,
        libsvm=operating_figures(y, cv.y_pred, positive, parsed),
        tuned=operating_figures(y, tuned_pred, positive, parsed),
        honest=operating_figures(y, honest_pred, positive, parsed),
        folds=tuple(outer),
        cv=cv,
        honest_pred=honest_pred,
        inner_folds=int(run.inner_folds or run.folds),
    )


def _check_test_rows(test, fold: int) -> None:
    """An outer fold must test some rows: its threshold's figures are measured on them (LIBSVM's
    stratified draw leaves a fold empty where a class has fewer rows than folds)."""
    if not len(test):
        raise SvmevalError(
            f"outer fold {fold + 1} has no test rows (the fold draw left it empty): the nested "
            "estimate measures each fold's threshold on its test rows (give fewer folds or "
            "more samples)"
        )


def _check_both_classes(y_train, fold: int, positive: float, negative: float) -> None:
    """An outer fold's training rows must hold both classes: a threshold is chosen between
    them."""
    for label in (positive, negative):
        if not np.any(y_train == label):
            raise SvmevalError(
                f"outer fold {fold + 1}'s training rows hold no sample of class "
                f"{show_label(label)}: the nested estimate chooses a threshold on them (give "
                "fewer folds or more samples of that class)"
            )


def _named(cv: CVResult, configuration: str, dataset) -> CVResult:
    from dataclasses import replace

    return replace(
        cv,
        configuration=configuration,
        data_name=getattr(dataset, "name", ""),
        classes=getattr(dataset, "classes", None),
    )

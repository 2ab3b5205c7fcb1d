"""The results of a cross-validation: plain data, with their figures as tables.

:class:`CVResult` (single-label: classification, regression, one-class) and
:class:`MultilabelCVResult` (binary relevance) hold every per-sample prediction, score and
fold; ``to_dict()`` gives them as JSON types and ``to_frame()`` one row per fold with that
fold's figures (computed by :mod:`svmeval.metrics.run_figures`, as the summaries compute them).
This module imports no part of the engine: a result can be read, scored and tabled without
loading LIBSVM.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from svmeval import _tables as tables
from svmeval._args import checked
from svmeval._classes import class_code, named
from svmeval._repr import brief_repr
from svmeval.errors import SvmevalError
from svmeval.params import LinearParams, SvmParams, params_flags

if TYPE_CHECKING:
    from svmeval.cv.collect.provenance import Provenance
    from svmeval.metrics.classification import ConfusionCounts
    from svmeval.metrics.figures import Figure
    from svmeval.metrics.regression import RegressionReport
    from svmeval.metrics.scores import ClassRanking

__all__ = ["CVResult", "ComparisonRuns", "MultilabelCVResult", "Repetition"]


@dataclass(frozen=True)
class Folds:
    """``perm`` and ``fold_start`` as svm_cross_validation builds them.

    Fold ``i`` tests samples ``perm[fold_start[i]:fold_start[i+1]]`` and trains on
    ``perm[:fold_start[i]]`` followed by ``perm[fold_start[i+1]:]``, in that order.
    """

    perm: np.ndarray
    fold_start: np.ndarray
    stratified: bool
    #: where folds that are not LIBSVM's come from (a :class:`~svmeval.cv.plan.given.FoldSource`;
    #: None: LIBSVM's seeded draw). Such folds train on their rows in ascending row order.
    source: object = None

    @property
    def n_folds(self) -> int:
        return len(self.fold_start) - 1

    def test(self, i: int) -> np.ndarray:
        return self.perm[self.fold_start[i] : self.fold_start[i + 1]]

    def train(self, i: int) -> np.ndarray:
        rows = np.concatenate(
            (self.perm[: self.fold_start[i]], self.perm[self.fold_start[i + 1] :])
        )
        return rows if self.source is None else np.sort(rows)

    def fold_of(self) -> np.ndarray:
        """The fold that tests each sample (input order)."""
        fold = np.empty(len(self.perm), dtype=np.int64)
        for i in range(self.n_folds):
            fold[self.test(i)] = i
        return fold


@dataclass(frozen=True, eq=False)
class CVResult:
    """One cross-validation run (the first of them with ``repeat`` > 1).

    ``y_true``/``y_pred``: per sample, input order. ``fold``: the fold that tested it.
    ``labels``: the classes in LIBSVM's order for the whole data set (first appearance, +1
    before -1), the order of ``scores``' and ``probabilities``' columns and of the one-vs-one
    pairs of ``decision_values`` (pair (i, j), i < j, positive towards ``labels[i]``), whatever
    order a fold's own model had. Regression and one-class: one decision value per sample;
    ``labels`` empty.

    ``scores``: per sample and class, the score the ranking figures use: for two classes the
    decision value towards each class (``d``, ``-d``); for more, one-vs-rest scores from the
    one-vs-one values (:func:`~svmeval.metrics.scores.ovr_scores_from_ovo`); None for regression.
    ``decision_values``: kept for two classes, regression and one-class (one column), and for
    more classes only with ``keep_decision_values=True`` (n x k(k-1)/2 values), else None.
    ``repeats``: with ``repeat`` > 1, one :class:`Repetition` per further repetition (its
    counts and ranking figures, not its per-sample arrays); ``repeat_results``: those
    repetitions' whole results, kept only with ``keep_repeats=True``. ``data_name``: the data
    set's name (its file). ``configuration``: the configuration as given (svm-train's
    options, or the flags of the SvmParams given); ``params`` holds it resolved.
    ``provenance``: how the result was made (versions, call, when, how
    long, the data's digest), a ``Provenance``. ``classes``: the user's labels where the data's
    were not numbers (the ``classes`` of their :class:`~svmeval.io.data.Dataset`):
    ``labels``, ``y_true`` and ``y_pred`` then hold positions among them (0.0 .. k-1),
    ``true_classes`` and ``predicted_classes`` the user's labels, and every report,
    ``to_dict`` and ``to_frame`` name the classes by them.

    Examples
    --------
    >>> from svmeval import cross_validate
    >>> result = cross_validate("data/wine.scale", folds=3)
    >>> result.labels.tolist(), result.scores.shape, result.n_folds
    ([1.0, 2.0, 3.0], (178, 3), 3)
    >>> result.to_frame().shape  # one row per fold: its keys, then its figures
    (3, 18)
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.summary:CV_RESULT"

    __repr__ = brief_repr

    y_true: np.ndarray
    y_pred: np.ndarray
    fold: np.ndarray
    decision_values: np.ndarray | None
    probabilities: np.ndarray | None
    labels: np.ndarray
    params: SvmParams | LinearParams
    n_folds: int
    seed: int
    folds: Folds = field(repr=False)
    scores: np.ndarray | None = None
    repeats: tuple = ()
    repeat_results: tuple = ()
    data_name: str = ""
    configuration: str = ""
    provenance: Provenance | None = field(default=None, repr=False)
    classes: tuple | None = None
    #: what each fold learned on its training rows: "" (nothing), else the preprocessing's
    #: svm-scale options and the K selected (``scale -l -1 -u 1; select 10``)
    preprocessing: str = ""
    #: with ``select``: each fold's selected features (ascending indices), fold by fold
    selected: tuple | None = field(default=None, repr=False)

    @property
    def n_samples(self) -> int:
        return len(self.y_true)

    @property
    def selection_frequency(self) -> dict:
        """With ``select``: each feature selected by some fold -> the fraction of folds that
        selected it, most often selected first (ties by index); else an empty dict."""
        if not self.selected:
            return {}
        counts: dict = {}
        for features in self.selected:
            for f in np.asarray(features).tolist():
                counts[f] = counts.get(f, 0) + 1
        n = len(self.selected)
        return {f: counts[f] / n for f in sorted(counts, key=lambda f: (-counts[f], f))}

    @property
    def true_classes(self) -> np.ndarray:
        """Each sample's label as the user gave it (``y_true`` where the labels are numbers)."""
        return _named_array(self.y_true, self.classes)

    @property
    def predicted_classes(self) -> np.ndarray:
        """Each sample's prediction as one of the user's labels (``y_pred`` where the labels
        are numbers)."""
        return _named_array(self.y_pred, self.classes)

    @property
    def repeat(self) -> int:
        """R, the repetitions run (the ``repeat`` the run was given)."""
        return 1 + len(self.repeats)

    @property
    def n_repeats(self) -> int:
        """Deprecated name of :attr:`repeat`."""
        return self.repeat

    def to_dict(self) -> dict:
        """The run and its per-sample arrays as plain JSON types (NaN as None); ``labels``,
        ``y_true`` and ``y_pred`` as the user's labels (``classes``)."""
        out = _cv_dict(
            self,
            ("labels", "y_true", "y_pred", "fold", "scores", "decision_values", "probabilities"),
        )
        if self.classes is not None:
            for key in ("labels", "y_true", "y_pred"):
                out[key] = tables.plain(named(getattr(self, key), self.classes, json=True))
        if self.preprocessing:  # learned inside the folds (a run without it: no such keys)
            out["preprocessing"] = self.preprocessing
        if self.selected:
            out["selected"] = [np.asarray(f).tolist() for f in self.selected]
        return out

    @checked
    def to_frame(self, *, pos_label=None, zero_division=0.0):
        """A pandas DataFrame, one row per (repetition, fold): ``dataset``,
        ``configuration`` (as given), ``options`` (svm-train's flags, resolved),
        ``repetition``, ``seed``, ``fold``, ``n_test``, then that fold's
        figures by registry name (repetitions beyond the first need ``keep_repeats=True``)."""
        from svmeval.metrics.two_class import positive_and_negative

        tables.pandas()
        pos_label = class_code(pos_label, self.classes)
        rows = []
        for r, run in enumerate(_runs(self)):
            positive = None
            if not run.params.is_regression:
                labels = np.union1d(run.y_true, run.y_pred)
                positive = positive_and_negative(labels, pos_label)[0]
            rows += _fold_rows(run, r, _fold_figures(run, positive, zero_division), self.data_name)
        return tables.frame(rows)


@dataclass(frozen=True, eq=False)
class Repetition:
    """What the figures of one further repetition need: its seed, its predictions' confusion
    counts (``labels`` ascending, rows true) or regression figures, and its scores' ranking
    figures (per class, ascending labels); of its per-sample arrays only the predictions
    (``y_pred``, input order: a bootstrap resample carries each sample's prediction in every
    repetition), not the scores; ``probability``: the figures of its ``-b 1`` class
    probabilities by positive class (each class of two-class data; None for more classes),
    None without probabilities."""

    __repr__ = brief_repr

    seed: int
    confusion: ConfusionCounts | None
    regression: RegressionReport | None
    ranking: ClassRanking | None
    probability: dict | None = None
    y_pred: np.ndarray | None = field(default=None, repr=False)

    def probability_figures(self, positive) -> dict:
        """The figures of this repetition's class probabilities with ``positive`` the positive
        class (None for more than two classes); empty without probabilities."""
        return dict((self.probability or {}).get(positive, {}))


@dataclass(frozen=True, eq=False)
class MultilabelCVResult:
    """One binary-relevance cross-validation.

    ``label_names``: float64, the labels seen in the file, ascending (the columns of every
    matrix). ``Y_true`` / ``Y_pred``: int8 indicator matrices n_samples x n_labels (input order).
    ``scores``: float64, each label's decision value (positive = "has the label"; +1.0 / -1.0
    where ``constant``). ``probabilities``: P(has the label) with ``-b 1``, else None.
    ``constant``: bool, True where the label's model for that sample's fold was trained on one
    class only (it predicts that class always). ``fold``: the fold that tested each sample.
    ``params``: the LIBSVM parameters used (gamma resolved). ``provenance``: how the result
    was made (``Provenance``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import cross_validate_multilabel
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "sets.txt"
    >>> _ = path.write_text("1,2 1:0.1\\n2 1:0.3\\n1 1:0.9\\n1,2 1:0.2\\n2 1:0.4\\n1 1:0.8\\n" * 2)
    >>> result = cross_validate_multilabel(path, folds=2)
    >>> result.n_samples, result.n_labels, result.Y_pred.shape
    (12, 2, (12, 2))
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.summary:MULTILABEL_CV_RESULT"

    __repr__ = brief_repr

    label_names: np.ndarray
    Y_true: np.ndarray
    Y_pred: np.ndarray
    scores: np.ndarray
    fold: np.ndarray
    n_folds: int
    seed: int
    params: SvmParams | LinearParams
    probabilities: np.ndarray | None = None
    constant: np.ndarray | None = None
    folds: Folds | None = field(default=None, repr=False)
    data_name: str = ""
    configuration: str = ""
    provenance: Provenance | None = field(default=None, repr=False)

    @property
    def n_samples(self) -> int:
        return self.Y_true.shape[0]

    @property
    def n_labels(self) -> int:
        return self.Y_true.shape[1]

    @property
    def ranking_scores(self) -> np.ndarray:
        """The scores the ranking figures use: probabilities with ``-b 1``, else ``scores``."""
        return self.scores if self.probabilities is None else self.probabilities

    def to_dict(self) -> dict:
        """The run and its per-sample matrices as plain JSON types (NaN as None)."""
        return _cv_dict(
            self, ("label_names", "Y_true", "Y_pred", "fold", "scores", "probabilities")
        )

    @checked
    def to_frame(self, *, zero_division=0.0):
        """A pandas DataFrame, one row per fold: ``dataset``, ``configuration`` (as given),
        ``options`` (svm-train's flags, resolved), ``repetition``, ``seed``, ``fold``,
        ``n_test``, then the multi-label figures of that
        fold by registry name."""
        from svmeval.metrics.measures import parse_zero_division
        from svmeval.metrics.run_figures import multilabel_fold_figures

        tables.pandas()
        z = parse_zero_division(zero_division)
        T, P = self.Y_true.astype(bool), self.Y_pred.astype(bool)
        scores = np.asarray(self.ranking_scores, dtype=np.float64)
        figures = multilabel_fold_figures(
            T, P, scores if np.isfinite(scores).all() else None, self.fold, self.n_folds, z
        )
        return tables.frame(_fold_rows(self, 0, figures, self.data_name))


def repetition(result: CVResult) -> Repetition:
    """What the figures of ``result`` need when it is a further repetition: its counts and
    its scores' ranking figures (:class:`Repetition`)."""
    from svmeval.metrics.classification import ConfusionCounts
    from svmeval.metrics.regression import regression_report
    from svmeval.metrics.scores import class_ranking

    if result.params.is_regression:
        return Repetition(
            seed=result.seed,
            confusion=None,
            regression=regression_report(result.y_true, result.y_pred),
            ranking=None,
            y_pred=result.y_pred,
        )
    counts = ConfusionCounts().update(result.y_true, result.y_pred)
    scored, source = _ranking_scores(result)
    return Repetition(
        seed=result.seed,
        confusion=counts,
        regression=None,
        ranking=class_ranking(result.y_true, scored, result.labels, source=source),
        y_pred=result.y_pred,
        probability=_probability_figures(result),
    )


def _probability_figures(result: CVResult) -> dict | None:
    """The figures of a repetition's -b 1 probabilities, for each class as the positive one
    (two classes) or for None (more)."""
    from svmeval.metrics.probabilities import probability_figures

    if result.probabilities is None or not result.params.is_classification:
        return None
    labels = result.labels
    positives = list(labels) if len(labels) == 2 else [None]
    out = {}
    for positive in positives:
        key = None if positive is None else float(positive)
        out[key] = probability_figures(result.y_true, result.probabilities, labels, key)
    return out if all(out.values()) else None


def _ranking_scores(result: CVResult):
    """(class scores in LIBSVM's label order, their source): probabilities with -b 1."""
    if result.probabilities is not None:
        return result.probabilities, "probabilities"
    return result.scores, "decision values"


def _named_array(values: np.ndarray, classes: tuple | None) -> np.ndarray:
    if classes is None:
        return values
    out = np.empty(len(values), dtype=object)
    out[:] = named(values, classes)
    return out


def _runs(result) -> list:
    if len(getattr(result, "repeats", ())) and not result.repeat_results:
        raise SvmevalError(
            "to_frame() of a repeated cross-validation needs every "
            "repetition's predictions: cross_validate(..., keep_repeats=True)"
        )
    return [result, *getattr(result, "repeat_results", ())]


def _fold_figures(run: CVResult, positive, zero_division) -> list[dict]:
    # the figures' modules, imported by what uses them (a run that prints svm-train's lines
    # only needs none of them)
    from svmeval.metrics.measures import parse_zero_division
    from svmeval.metrics.probabilities import probability_figures
    from svmeval.metrics.run_figures import classification_fold_figures, regression_fold_figures
    from svmeval.metrics.scores import class_ranking

    z = parse_zero_division(zero_division)
    if run.params.is_regression:
        return regression_fold_figures(run.y_true, run.y_pred, run.fold, run.n_folds)
    scores, source = (
        (run.probabilities, "probabilities")
        if run.probabilities is not None
        else (run.scores, "decision values")
    )
    if class_ranking(run.y_true, scores, run.labels, source=source) is None:
        scores = None  # as the summary: no ranking figures where the pooled scores have none
    proba = run.probabilities if run.params.is_classification else None
    if not probability_figures(run.y_true, proba, run.labels, positive):
        proba = None  # as the summary: none where the pooled probabilities have none
    return classification_fold_figures(
        run.y_true,
        run.y_pred,
        run.fold,
        run.n_folds,
        positive=positive,
        scores=scores,
        score_labels=run.labels,
        source=source,
        zero_division=z,
        probabilities=proba,
    )


def _fold_rows(run, repetition: int, figures: list[dict], dataset: str) -> list[dict]:
    sizes = np.bincount(run.fold, minlength=run.n_folds)
    options = params_flags(run.params.as_dict())
    head = {
        "dataset": dataset,
        "configuration": run.configuration,  # as given: "" for svm-train's defaults
        "options": options,
        "repetition": repetition,
        "seed": run.seed,
    }
    return [{**head, "fold": i, "n_test": int(sizes[i]), **f} for i, f in enumerate(figures)]


def _cv_dict(result, names: tuple) -> dict:
    """A cross-validation result's arrays and run as plain JSON types (NaN as None)."""
    out = {
        "data_file": result.data_name,
        "n_folds": result.n_folds,
        "seed": result.seed,
        "seeds": [result.seed] + [r.seed for r in getattr(result, "repeats", ())],
        "parameters": result.params.as_dict(),
    }
    for name in names:
        out[name] = getattr(result, name)
    return tables.plain(out)


@dataclass(frozen=True)
class ComparisonRuns:
    """What a comparison's tests take: both sides' runs (repetition-major, fold j of
    repetition r the same samples on both sides), the criterion's figure, the positive class
    as the runs code it, the data's name and each side's options as shown."""

    runs_a: list
    runs_b: list
    figure: Figure
    pos_label: object
    data_name: str
    options_a: str
    options_b: str

"""Multi-label data: binary-relevance cross-validation, its figures, and label-set predictions.

Binary relevance trains one SVM per label ("has this label" = +1 against "has not" = -1) and
predicts, for each sample, the set of labels whose SVM says +1.

Folds. Every label uses the *same* k folds: C ``rand()`` is seeded with ``srand(seed)`` and the
folds are drawn as LIBSVM's non-stratified shuffle (``svm_cross_validation`` for a type it does
not stratify). LIBSVM itself would stratify each label's C-SVC folds by that label, giving each
label other folds; one common split is what makes per-sample figures (samples F1, subset
accuracy, the ranking figures) the figures of one cross-validation. Within a fold, each label's
training set is ``perm[:begin] + perm[end:]`` (LIBSVM's order), trained and predicted as in
:class:`svmeval.engine.CVPlan`.

Scores. A sample's score for a label is its SVM's decision value. For a {-1,+1} problem LIBSVM
orders the classes +1 first whatever order they appear in, and CVPlan keeps the decision values
in that order, so a positive value means "has the label" (the prediction is +1 exactly when the
decision value is > 0). When a fold's training set holds one class only (every training sample
has the label, or none has), LIBSVM trains a one-class model that predicts that class always and
has no decision value; its score is then the finite constant +1.0 (always "has") or -1.0
(always "has not"): the value of the margin on that side, so the score's sign agrees with the
prediction and the ranking figures stay defined. ``MultilabelCVResult.constant`` marks these
entries.

``-b 1``: each label's SVM is trained with probability estimates, predictions are
svm_predict_probability's (as in LIBSVM's cross-validation) and ``probabilities`` holds each
label's P(has the label). The ranking figures then use these probabilities, which Platt scaling
puts on one scale for every label, instead of decision values. Probability training draws from
C ``rand()`` (its inner 5-fold CV), so with ``-b 1`` the label x fold tasks run one after another
(labels in ascending order, folds in order), whatever ``jobs`` says, and results are identical
from run to run. Without ``-b 1`` the tasks run ``jobs`` at once and results do not depend on
``jobs``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import _libsvm
from .engine import CVPlan, prepare
from .errors import ParameterError, SvmevalError
from .folds import Folds, libsvm_folds
from .metrics.measures import parse_zero_division
from .metrics.multilabel import (
    MultilabelReport,
    evaluate_multilabel,
    label_sets_to_indicator,
)
from .metrics.ranking import (
    coverage_error,
    label_ranking_average_precision,
    label_ranking_loss,
    per_label_average_precision,
)
from .params import SVM_TYPES, SvmParams
from .schedule import run_tasks
from .summary import spread

__all__ = [
    "FOLD_FIGURES",
    "MultilabelCVResult",
    "MultilabelSummary",
    "RankingFigures",
    "cross_validate_multilabel",
    "dataset_indicator",
    "dataset_label_sets",
    "score_label_sets",
    "summarize_multilabel",
]

#: the figures computed on each fold's samples alone, in report order
FOLD_FIGURES = ("samples_f1", "macro_f1", "micro_f1", "subset_accuracy", "hamming_loss", "lrap")

#: a label in a predictions file: a decimal number as C strtod reads one (no NaN or infinity)

#: the constant score of a label x fold whose training set held one class only
CONSTANT_SCORE = 1.0


# --------------------------------------------------------------------------------------------
# Label sets of a data set
# --------------------------------------------------------------------------------------------


def _check_multilabel(dataset) -> None:
    if not getattr(dataset, "is_multilabel", False):
        raise SvmevalError(f"{dataset.name}: not read as multi-label data "
                           "(read_dataset(path, multilabel=True))")


def dataset_indicator(dataset, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """``(Y, label_names)`` of a multi-label :class:`~svmeval.data.Dataset`.

    ``label_names``: float64, ascending, the labels seen in the file (or ``labels``, which must
    hold them all); ``Y``: int8 n_samples x n_labels, ``Y[i, j] = 1`` iff sample i has
    ``label_names[j]`` (a label repeated on a line counts once).
    """
    _check_multilabel(dataset)
    values = np.asarray(dataset.label_values, dtype=np.float64)
    names = np.unique(values) if labels is None else np.unique(np.asarray(labels, np.float64))
    missing = np.setdiff1d(np.unique(values), names)
    if missing.size:
        raise SvmevalError(f"{dataset.name}: label {missing[0]:g} is not among the labels given")
    n = dataset.n_samples
    rows = np.repeat(np.arange(n), np.diff(np.asarray(dataset.label_indptr)))
    Y = np.zeros((n, len(names)), dtype=np.int8)
    Y[rows, np.searchsorted(names, values)] = 1
    return Y, names


def dataset_label_sets(dataset) -> list[tuple]:
    """Each sample's labels as a sorted tuple of floats (duplicates removed)."""
    _check_multilabel(dataset)
    ip, v = dataset.label_indptr, dataset.label_values
    return [tuple(sorted(set(v[ip[i]:ip[i + 1]].tolist()))) for i in range(dataset.n_samples)]


# --------------------------------------------------------------------------------------------
# Cross-validation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MultilabelCVResult:
    """One binary-relevance cross-validation.

    ``label_names``: float64, the labels seen in the file, ascending (the columns of every
    matrix). ``Y_true`` / ``Y_pred``: int8 indicator matrices n_samples x n_labels (input order).
    ``scores``: float64, each label's decision value (positive = "has the label"; +1.0 / -1.0
    where ``constant``). ``probabilities``: P(has the label) with ``-b 1``, else None.
    ``constant``: bool, True where the label's model for that sample's fold was trained on one
    class only (it predicts that class always). ``fold``: the fold that tested each sample.
    ``params``: the LIBSVM parameters used (gamma resolved).
    """

    label_names: np.ndarray
    Y_true: np.ndarray
    Y_pred: np.ndarray
    scores: np.ndarray
    fold: np.ndarray
    n_folds: int
    seed: int
    params: SvmParams
    probabilities: np.ndarray | None = None
    constant: np.ndarray | None = None
    folds: Folds | None = field(default=None, repr=False)

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


def _check_type(params: SvmParams) -> None:
    if not params.is_classification:
        name = SVM_TYPES[params.svm_type] if 0 <= params.svm_type < len(SVM_TYPES) else "?"
        raise SvmevalError(
            f"--multilabel: binary relevance trains one classifier per label; -s "
            f"{params.svm_type} ({name}) is not a classifier (use -s 0 C-SVC or -s 1 nu-SVC)")


def cross_validate_multilabel(dataset, params: SvmParams, nr_fold: int, *, seed: int = 1,
                              jobs: int | None = None, quiet: bool = True,
                              progress: Callable[[int, int], None] | None = None
                              ) -> MultilabelCVResult:
    """Binary-relevance k-fold cross-validation of a multi-label data set.

    One SVM of type ``params.svm_type`` (C-SVC or nu-SVC; other types raise
    :class:`SvmevalError`) per label, "has it" (+1) against "has not" (-1), all labels on the
    same folds: ``libsvm_folds(..., stratified=False)`` drawn right after ``srand(seed)``.
    ``params`` as given on the command line (gamma 0 = 1/num_features). ``-w1`` / ``-w-1``
    weigh the "has" / "has not" side of every label.

    ``jobs``: label x fold tasks trained at once (default: the cores); results are identical for
    every value. With ``-b 1`` the tasks run one at a time, in order (see the module notes).
    ``progress(done, total)`` is called as tasks end (total = labels x folds).
    Raises :class:`ParameterError` (prefixed with the label) when LIBSVM rejects the parameters
    for a label's problem, e.g. an infeasible nu.
    """
    _check_multilabel(dataset)
    _check_type(params)
    if nr_fold < 2:
        raise SvmevalError("n-fold cross validation: n must >= 2")
    Y_true, names = dataset_indicator(dataset)
    if not len(names):
        raise SvmevalError(f"{dataset.name}: no sample has a label: nothing to learn")
    n = dataset.n_samples

    base = _libsvm.make_problem(dataset, np.zeros(n))
    plans: list[CVPlan] = []
    resolved = params
    _libsvm.srand(seed)
    folds = libsvm_folds(np.zeros(n), nr_fold, stratified=False, rand=_libsvm.rand)
    for j, label in enumerate(names):
        y = np.where(Y_true[:, j] == 1, 1.0, -1.0)
        try:
            problem, resolved = prepare(dataset, params, y=y, quiet=quiet, problem=base)
        except ParameterError as exc:
            raise ParameterError(f"label {label:g}: {exc}") from None
        plans.append(CVPlan(problem, resolved, folds, seed))
    tasks = [task for plan in plans for task in plan.tasks]
    run_tasks(tasks, jobs=1 if resolved.probability else jobs, progress=progress)

    fold_of = folds.fold_of()
    L = len(names)
    Y_pred = np.zeros((n, L), dtype=np.int8)
    scores = np.empty((n, L), dtype=np.float64)
    constant = np.zeros((n, L), dtype=bool)
    probabilities = np.empty((n, L), dtype=np.float64) if resolved.probability else None
    for j, plan in enumerate(plans):
        pred = plan.y_pred == 1.0
        Y_pred[:, j] = pred
        # decision values in LIBSVM's label order, +1 first: positive means "has the label";
        # no column when every sample has the label (a one-class problem)
        dec = plan.decision_values[:, 0] if plan.decision_values.shape[1] else np.full(n, np.nan)
        for i in range(folds.n_folds):
            train_y = plan.problem.y[folds.train(i)]
            if np.all(train_y == train_y[0]):
                constant[folds.test(i), j] = True
        scores[:, j] = np.where(constant[:, j], np.where(pred, CONSTANT_SCORE, -CONSTANT_SCORE),
                                dec)
        if probabilities is not None:
            k = np.flatnonzero(plan.labels == 1.0)
            p = plan.probabilities[:, k[0]] if k.size else np.zeros(n)
            probabilities[:, j] = np.where(constant[:, j], pred.astype(np.float64), p)
    return MultilabelCVResult(label_names=names, Y_true=Y_true, Y_pred=Y_pred, scores=scores,
                              fold=fold_of, n_folds=folds.n_folds, seed=seed, params=resolved,
                              probabilities=probabilities, constant=constant, folds=folds)


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingFigures:
    """Threshold-free figures of per-label scores (see :mod:`svmeval.metrics.ranking`).

    ``lrap``: label ranking average precision (the "MAP" of multi-label papers; 1 is best);
    ``coverage_error`` (best: the mean number of true labels a sample); ``ranking_loss``
    (0 is best); ``average_precision``: per label (NaN for a label no sample has);
    ``mean_average_precision``: their mean over labels with a defined value.
    ``source``: "decision_values" or "probabilities".
    """

    lrap: float
    coverage_error: float
    ranking_loss: float
    average_precision: np.ndarray
    mean_average_precision: float
    source: str


@dataclass(frozen=True, eq=False)
class MultilabelSummary:
    """Every figure of a multi-label prediction; reporters format it and compute nothing.

    ``report``: the set figures (per label, averages, subset accuracy, Hamming loss).
    ``ranking``: None without scores. ``folds``: one dict per fold (``fold``, ``n_samples`` and
    the :data:`FOLD_FIGURES`), empty without fold information; ``fold_mean`` / ``fold_sd``:
    their mean and sample standard deviation (ddof = 1) over the folds with a defined value.
    ``empty_samples``: samples with no true and no predicted label (their samples-F1 follows
    ``zero_division``). ``meta``: where the predictions came from (mode "cv" or "score", ...).
    """

    n_samples: int
    label_names: np.ndarray
    report: MultilabelReport
    ranking: RankingFigures | None
    folds: tuple
    fold_mean: Mapping[str, float]
    fold_sd: Mapping[str, float]
    empty_samples: int
    zero_division: float
    meta: dict = field(default_factory=dict)

    kind = "multilabel"

    @property
    def subset_accuracy_percent(self) -> float:
        return 100.0 * self.report.subset_accuracy

    @property
    def exact_matches(self) -> int:
        return round(self.report.subset_accuracy * self.n_samples) if self.n_samples else 0


def _ranking(Y_true, scores, source: str) -> RankingFigures:
    ap = per_label_average_precision(Y_true, scores)
    defined = ap[~np.isnan(ap)]
    return RankingFigures(
        lrap=label_ranking_average_precision(Y_true, scores),
        coverage_error=coverage_error(Y_true, scores),
        ranking_loss=label_ranking_loss(Y_true, scores),
        average_precision=ap,
        mean_average_precision=float(defined.mean()) if defined.size else math.nan,
        source=source,
    )


def _fold_figures(Y_true, Y_pred, scores, fold, n_folds, z) -> list[dict]:
    out = []
    for i in range(n_folds):
        rows = fold == i
        rep = evaluate_multilabel(Y_true[rows], Y_pred[rows], zero_division=z)
        figures = {
            "samples_f1": rep.averages["samples"].f1,
            "macro_f1": rep.averages["macro"].f1,
            "micro_f1": rep.averages["micro"].f1,
            "subset_accuracy": rep.subset_accuracy,
            "hamming_loss": rep.hamming_loss,
            "lrap": (label_ranking_average_precision(Y_true[rows], scores[rows])
                     if scores is not None else math.nan),
        }
        out.append({"fold": i, "n_samples": int(rows.sum()), **figures})
    return out


def _mean_sd(folds: list[dict]) -> tuple[dict, dict]:
    pairs = spread([{name: f[name] for name in FOLD_FIGURES} for f in folds])
    nan = (math.nan, math.nan)
    return ({name: pairs.get(name, nan)[0] for name in FOLD_FIGURES},
            {name: pairs.get(name, nan)[1] for name in FOLD_FIGURES})


def summarize_multilabel(result_or_arrays, *, zero_division=0, meta: dict | None = None,
                         label_names=None) -> MultilabelSummary:
    """Every figure of a multi-label prediction.

    ``result_or_arrays``: a :class:`MultilabelCVResult` (figures per fold too), or a tuple
    ``(Y_true, Y_pred)`` / ``(Y_true, Y_pred, scores)`` of indicator matrices and per-label
    scores (None: no ranking figures); ``label_names`` names the columns of a tuple (default
    0, 1, ...). ``meta`` is kept for the reports; for a result it starts as ``mode`` "cv",
    ``n_folds``, ``seed`` and ``parameters``, which ``meta`` may override. ``zero_division``: 0, 1 or "nan", how undefined per-label and per-sample values
    enter the averages (a sample with no true and no predicted label has undefined F1; default
    0, as scikit-learn). Raises ValueError for malformed matrices.
    """
    z = parse_zero_division(zero_division)
    meta = dict(meta or {})
    fold = None
    n_folds = 0
    if isinstance(result_or_arrays, MultilabelCVResult):
        r = result_or_arrays
        Y_true, Y_pred, scores = r.Y_true, r.Y_pred, r.ranking_scores
        names = r.label_names
        source = "decision_values" if r.probabilities is None else "probabilities"
        fold, n_folds = r.fold, r.n_folds
        meta = {"mode": "cv", "n_folds": r.n_folds, "seed": r.seed,
                "parameters": r.params.as_dict(), **meta}
    else:
        parts = tuple(result_or_arrays)
        if len(parts) not in (2, 3):
            raise ValueError("expected a MultilabelCVResult or (Y_true, Y_pred[, scores])")
        Y_true, Y_pred = parts[0], parts[1]
        scores = parts[2] if len(parts) == 3 else None
        source = "scores"
        Y_true = np.asarray(Y_true)
        names = (np.arange(Y_true.shape[1] if Y_true.ndim == 2 else 0, dtype=np.float64)
                 if label_names is None else np.asarray(label_names, dtype=np.float64))
    report = evaluate_multilabel(Y_true, Y_pred, label_names=names.tolist(), zero_division=z)
    T = np.asarray(Y_true).astype(bool)
    P = np.asarray(Y_pred).astype(bool)
    ranking = None
    if scores is not None:
        scores = np.asarray(scores, dtype=np.float64)
        ranking = _ranking(T, scores, source)
    folds = _fold_figures(T, P, scores, fold, n_folds, z) if fold is not None else []
    mean, sd = _mean_sd(folds) if folds else ({}, {})
    empty = int(np.count_nonzero(~T.any(axis=1) & ~P.any(axis=1)))
    return MultilabelSummary(n_samples=T.shape[0], label_names=np.asarray(names, np.float64),
                             report=report, ranking=ranking, folds=tuple(folds),
                             fold_mean=mean, fold_sd=sd, empty_samples=empty,
                             zero_division=z, meta=meta)


def score_label_sets(dataset, predicted: Sequence, *, zero_division=0,
                     meta: dict | None = None) -> MultilabelSummary:
    """--score for multi-label data: the figures of ``predicted`` label sets (one per sample,
    e.g. from :func:`read_label_set_predictions`) against ``dataset``'s label sets.

    The columns are every label seen in the data or the predictions (a label only predicted
    has support 0). No scores, so no ranking figures.
    """
    _check_multilabel(dataset)
    if len(predicted) != dataset.n_samples:
        raise SvmevalError(f"{len(predicted)} predicted label sets for the "
                           f"{dataset.n_samples} samples of {dataset.name}")
    seen = np.unique(np.concatenate([np.asarray(dataset.label_values, np.float64)]
                                    + [np.asarray(s, np.float64).reshape(-1) for s in predicted]))
    Y_true, names = dataset_indicator(dataset, seen)
    Y_pred, _ = label_sets_to_indicator(predicted, labels=names)
    return summarize_multilabel((Y_true, Y_pred), zero_division=zero_division, meta=meta,
                                label_names=names)

"""The figures of a multi-label run (binary relevance, :mod:`svmeval.cv.multilabel`), or of an
existing multi-label predictions file: set figures, ranking figures from the scores, and each
fold's figures with their mean ± sd. Reporters format a :class:`MultilabelSummary`; they compute
nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import SvmevalError
from ..metrics.measures import parse_zero_division
from ..metrics.multilabel import (
    MultilabelReport,
    evaluate_multilabel,
    label_sets_to_indicator,
)
from ..metrics.ranking import (
    coverage_error,
    label_ranking_average_precision,
    label_ranking_loss,
    per_label_average_precision,
)
from ..cv.multilabel import MultilabelCVResult, _check_multilabel, dataset_indicator
from .single import spread

__all__ = [
    "FOLD_FIGURES",
    "MultilabelSummary",
    "RankingFigures",
    "score_label_sets",
    "summarize_multilabel",
]

#: the figures computed on each fold's samples alone, in report order
FOLD_FIGURES = ("samples_f1", "macro_f1", "micro_f1", "subset_accuracy", "hamming_loss", "lrap")




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

"""The figures of a multi-label run (binary relevance, :mod:`svmeval.cv.multilabel`), or of an
existing multi-label predictions file: set figures, ranking figures from the scores, and each
fold's figures with their mean ± sd. Reporters format its
:class:`~svmeval.summary.Summary`; they compute nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from svmeval.cv.collect.results import MultilabelCVResult
from svmeval.errors import SvmevalError
from svmeval.io.label_sets import check_multilabel as _check_multilabel
from svmeval.io.label_sets import dataset_indicator
from svmeval.metrics.measures import parse_zero_division
from svmeval.metrics.multilabel import evaluate_multilabel, label_sets_to_indicator
from svmeval.metrics.ranking import (
    coverage,
    label_ranking_average_precision,
    per_label_average_precision,
    ranking_loss,
)
from svmeval.metrics.run_figures import multilabel_figures, multilabel_fold_figures
from svmeval.summary.core import LabelRanking, Summary, spread

__all__ = ["LabelRanking", "score_label_sets", "summarize_multilabel"]


def _ranking(Y_true, scores, source: str) -> LabelRanking:
    ap = per_label_average_precision(Y_true, scores)
    defined = ap[~np.isnan(ap)]
    return LabelRanking(
        lrap=label_ranking_average_precision(Y_true, scores),
        coverage_error=coverage(Y_true, scores),
        ranking_loss=ranking_loss(Y_true, scores),
        average_precision=ap,
        mean_average_precision=float(defined.mean()) if defined.size else math.nan,
        source=source,
    )


def _fold_source_meta(r) -> dict:
    """``{"fold_source": {...}}`` of a run on grouped or given folds (as a single-label
    run's, each fold's counts being the rows that have each label); ``{}`` for LIBSVM's."""
    source = getattr(getattr(r, "folds", None), "source", None)
    if source is None:
        return {}
    counts = [[int(v) for v in r.Y_true[r.fold == f].sum(axis=0)] for f in range(r.n_folds)]
    return {
        "fold_source": {
            "kind": "grouped" if source.grouped else "given",
            "source": source.origin,
            "n_groups": source.n_groups,
            "labels": [float(v) for v in r.label_names],
            "fold_class_counts": counts,
        }
    }


def summarize_multilabel(
    result_or_arrays, *, zero_division=0, meta: dict | None = None, label_names=None
) -> Summary:
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
    fold: np.ndarray | None = None
    n_folds = 0
    scores: np.ndarray | None
    if isinstance(result_or_arrays, MultilabelCVResult):
        r = result_or_arrays
        Y_true, Y_pred, scores = r.Y_true, r.Y_pred, r.ranking_scores
        names = r.label_names
        source = "decision_values" if r.probabilities is None else "probabilities"
        fold, n_folds = r.fold, r.n_folds
        meta = {
            "mode": "cv",
            "n_folds": r.n_folds,
            "seed": r.seed,
            "parameters": r.params.as_dict(),
            **_fold_source_meta(r),
            **meta,
        }
        if r.data_name and "data_file" not in meta:
            meta["data_file"] = r.data_name
    else:
        parts = tuple(result_or_arrays)
        if len(parts) not in (2, 3):
            raise ValueError("expected a MultilabelCVResult or (Y_true, Y_pred[, scores])")
        Y_true, Y_pred = parts[0], parts[1]
        scores = parts[2] if len(parts) == 3 else None
        source = "scores"
        Y_true = np.asarray(Y_true)
        names = (
            np.arange(Y_true.shape[1] if Y_true.ndim == 2 else 0, dtype=np.float64)
            if label_names is None
            else np.asarray(label_names, dtype=np.float64)
        )
    report = evaluate_multilabel(Y_true, Y_pred, label_names=names.tolist(), zero_division=z)
    T = np.asarray(Y_true).astype(bool)
    P = np.asarray(Y_pred).astype(bool)
    ranking = None
    if scores is not None:
        scores = np.asarray(scores, dtype=np.float64)
        if not np.isfinite(scores).all():
            scores = None  # an overflowing kernel: no ranking of the labels to report
        else:
            ranking = _ranking(T, scores, source)
    folds: list = []
    sizes: tuple[int, ...] = ()
    if fold is not None:
        folds = multilabel_fold_figures(T, P, scores, fold, n_folds, z)
        if folds:
            sizes = tuple(int(v) for v in np.bincount(fold, minlength=n_folds))
    empty = int(np.count_nonzero(~T.any(axis=1) & ~P.any(axis=1)))
    figures = multilabel_figures(report, ranking.lrap if ranking is not None else None)
    return Summary(
        kind="multilabel",
        n_samples=T.shape[0],
        label_names=np.asarray(names, np.float64),
        multilabel=report,
        ranking=ranking,
        figures=figures,
        fold_figures=folds,
        fold_spread=spread(folds),
        fold_sizes=sizes,
        empty_samples=empty,
        zero_division=z,
        meta=meta,
    )


def score_label_sets(
    dataset, predicted: Sequence, *, zero_division=0, meta: dict | None = None
) -> Summary:
    """--score for multi-label data: the figures of ``predicted`` label sets (one per sample,
    e.g. from :func:`read_label_set_predictions`) against ``dataset``'s label sets.

    The columns are every label seen in the data or the predictions (a label only predicted
    has support 0). No scores, so no ranking figures.
    """
    _check_multilabel(dataset)
    if len(predicted) != dataset.n_samples:
        raise SvmevalError(
            f"{len(predicted)} predicted label sets for the "
            f"{dataset.n_samples} samples of {dataset.name}"
        )
    seen = np.unique(
        np.concatenate(
            [np.asarray(dataset.label_values, np.float64)]
            + [np.asarray(s, np.float64).reshape(-1) for s in predicted]
        )
    )
    Y_true, names = dataset_indicator(dataset, seen)
    Y_pred, _ = label_sets_to_indicator(predicted, labels=names)
    return summarize_multilabel(
        (Y_true, Y_pred), zero_division=zero_division, meta=meta, label_names=names
    )

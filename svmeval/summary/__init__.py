"""From a CV result (or predictions) to every figure a report shows: one :class:`Summary`.

``summarize(result)`` takes any cross-validation result, single- or multi-label;
``summarize_predictions(y_true, y_pred)`` takes predictions from anywhere. Each figure is named
in :data:`svmeval.metrics.FIGURES`; reporters format a Summary and compute nothing.
"""

from __future__ import annotations

from svmeval.summary.core import Summary, spread
from svmeval.summary.multilabel import score_label_sets, summarize_multilabel
from svmeval.summary.single import positive_label, summarize_cv, summarize_predictions

__all__ = ["Summary", "positive_label", "score_label_sets", "spread", "summarize",
           "summarize_multilabel", "summarize_predictions"]


def summarize(result, *, pos_label=None, zero_division=0.0, meta: dict | None = None,
              per_fold: bool = True) -> Summary:
    """Every figure of a cross-validation result: a :class:`~svmeval.cv.CVResult` (kind
    "classification" or "regression") or a :class:`~svmeval.cv.MultilabelCVResult` (kind
    "multilabel"). ``pos_label``: the positive class of two-class data (default 1 if present,
    else the larger label); ``zero_division``: 0 (default), 1 or "nan", how undefined ratios
    enter averages and figures; ``meta`` adds to the run's description; ``per_fold=False``
    leaves out the per-fold figures (single-label results)."""
    if getattr(result, "Y_true", None) is not None:
        if pos_label is not None:
            raise ValueError("pos_label does not apply to multi-label results")
        return summarize_multilabel(result, zero_division=zero_division, meta=meta)
    return summarize_cv(result, pos_label=pos_label, zero_division=zero_division, meta=meta,
                        per_fold=per_fold)

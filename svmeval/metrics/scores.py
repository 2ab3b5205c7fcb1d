"""Class scores of an SVM and the ranking figures they give, independent of the positive class.

* :func:`ovr_scores_from_ovo`: one score per class from LIBSVM's one-vs-one decision values
  (votes plus a confidence term, scikit-learn's ``decision_function_shape="ovr"``);
* :func:`class_ranking`: ROC AUC and average precision of every class one-vs-rest, and, for
  more than two classes, their macro means and the label ranking average precision.

A :class:`ClassRanking` holds every class's figures, so the summary picks the positive class's
afterwards: a repeated cross-validation keeps one per repetition instead of its scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval._repr import brief_repr
from svmeval.metrics.ranking import (
    label_ranking_average_precision,
    ovr_average_precision,
    ovr_roc_auc,
)

__all__ = ["ClassRanking", "class_ranking", "ovr_scores_from_ovo"]


def ovr_scores_from_ovo(decision_values: np.ndarray, n_classes: int) -> np.ndarray:
    """Per-class scores from LIBSVM's one-vs-one decision values (pairs (i, j), i < j, in
    LIBSVM's label order, positive towards class i).

    score_c = votes_c + s_c / (3(|s_c| + 1)), where votes_c counts the pairs class c wins as
    LIBSVM's vote does (dec > 0 votes i, otherwise j) and s_c sums the decision values in
    c's favour; the second term lies in (-1/3, 1/3), so it only orders classes with equal votes.
    The arg-max is LIBSVM's predicted class. This is scikit-learn's ``_ovr_decision_function``
    (used by ``SVC(decision_function_shape="ovr")``). A NaN decision value (a fold trained
    without one of the pair's classes) makes the scores of its rows NaN. Computed in C, any
    number of classes in n x k memory: :func:`svmeval.metrics.ovo.class_scores`.
    """
    from svmeval.metrics.ovo import class_scores  # the C pass; loaded on first use

    dec = np.asarray(decision_values, dtype=np.float64)
    return class_scores(dec, np.arange(n_classes), n_classes)


@dataclass(frozen=True, eq=False)
class ClassRanking:
    """Threshold-free figures of class scores, every class one-vs-rest.

    ``labels`` ascending; ``roc_auc`` / ``average_precision`` per class in that order (NaN for
    a class without true samples); ``overall``: for more than two classes ``macro_roc_auc``,
    ``macro_average_precision`` and ``label_ranking_average_precision`` (empty for two, where
    the positive class's values are the overall figures: :meth:`overall_for`).
    ``source``: "decision values" or "probabilities".
    """

    __repr__ = brief_repr

    labels: np.ndarray
    roc_auc: np.ndarray
    average_precision: np.ndarray
    overall: dict
    source: str

    def overall_for(self, positive: float | None) -> dict:
        """The overall ranking figures; for two classes those of the class ``positive``."""
        if len(self.labels) == 2 and positive is not None:
            k = int(np.flatnonzero(self.labels == positive)[0])
            return {
                "roc_auc": float(self.roc_auc[k]),
                "average_precision": float(self.average_precision[k]),
            }
        return dict(self.overall)


def _plain_mean(values: np.ndarray) -> float:
    return math.nan if np.isnan(values).any() else float(values.mean())


def class_ranking(y_true, scores, score_labels, *, source: str = "") -> ClassRanking | None:
    """The :class:`ClassRanking` of ``scores`` (columns following ``score_labels``), or None
    when there are none to compute: fewer than two classes, a true label without a score
    column, or a score that is not finite (NaN from a fold that lacked a class, or an
    overflowing kernel)."""
    if scores is None:
        return None
    y_true = np.asarray(y_true, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    score_labels = np.asarray(score_labels, dtype=np.float64)
    if (
        len(score_labels) < 2
        or not np.isin(y_true, score_labels).all()
        or not np.isfinite(scores).all()
    ):
        return None
    order = np.argsort(score_labels)
    labels = score_labels[order]
    scores = scores[:, order]
    auc = ovr_roc_auc(y_true, scores, labels)
    ap = ovr_average_precision(y_true, scores, labels)
    overall = {}
    if len(labels) > 2:
        indicator = (y_true[:, None] == labels[None, :]).astype(np.int8)
        overall = {
            "macro_roc_auc": _plain_mean(auc),
            "macro_average_precision": _plain_mean(ap),
            "label_ranking_average_precision": label_ranking_average_precision(indicator, scores),
        }
    return ClassRanking(
        labels=labels, roc_auc=auc, average_precision=ap, overall=overall, source=source
    )

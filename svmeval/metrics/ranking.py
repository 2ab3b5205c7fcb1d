"""Threshold-free metrics computed from scores (decision values or probabilities).

Pure numpy: nothing here knows LIBSVM or scikit-learn, so the functions work on scores from
anywhere. Names follow scikit-learn (``y_true`` first, then ``y_score``); options are keyword-only.

Every metric is computed from one pass over the scores sorted in descending order, with equal
scores grouped into one threshold (as scikit-learn's ``_binary_clf_curve`` groups them): a sort,
cumulative sums, no Python loop per sample. Columns (or rows, for the multi-label ranking
metrics) are processed side by side in blocks, so memory stays bounded for large inputs.

Degenerate inputs give ``nan`` (undefined), never an exception: a ROC AUC needs both classes, an
average precision needs at least one positive. Malformed inputs (wrong shapes, length mismatch,
NaN scores, labels that do not fit) raise ``ValueError``.

These are svmeval's own figures (undefined stays NaN); the functions with scikit-learn's names
and contract are in :mod:`~svmeval.metrics.areas`, :mod:`~svmeval.metrics.curves` and
:mod:`~svmeval.metrics.label_ranking`.

Binary functions
    ``roc_auc``, ``average_precision``.
One-vs-rest (multiclass)
    ``ovr_roc_auc``, ``ovr_average_precision`` (per class), ``macro_roc_auc``,
    ``macro_average_precision`` (one number).
Multi-label
    ``per_label_average_precision``, ``label_ranking_average_precision``, ``coverage``,
    ``ranking_loss``.
"""

from __future__ import annotations

import numpy as np

from svmeval.metrics.rankstats import RankStats as _RankStats
from svmeval.metrics.rankstats import (
    ap_from_stats as _ap_from_stats,
)
from svmeval.metrics.rankstats import (
    as_labels_1d as _as_labels_1d,
)
from svmeval.metrics.rankstats import (
    as_scores as _as_scores,
)
from svmeval.metrics.rankstats import (
    auc_from_stats as _auc_from_stats,
)
from svmeval.metrics.rankstats import (
    binary_positives as _binary_positives,
)
from svmeval.metrics.rankstats import (
    check_same_length as _check_same_length,
)
from svmeval.metrics.rankstats import (
    rank_stats as _rank_stats,
)

__all__ = [
    "roc_auc",
    "average_precision",
    "ovr_roc_auc",
    "ovr_average_precision",
    "macro_roc_auc",
    "macro_average_precision",
    "per_label_average_precision",
    "label_ranking_average_precision",
    "coverage",
    "ranking_loss",
]

# --------------------------------------------------------------------------------------------
# Binary
# --------------------------------------------------------------------------------------------


def roc_auc(y_true, y_score, *, pos_label=None) -> float:
    """Area under the ROC curve of a binary problem.

    ``AUC = (#{(i, j): s_i > s_j} + 0.5 * #{(i, j): s_i = s_j}) / (P * N)`` over pairs of a
    positive i and a negative j; P, N are the numbers of positives and negatives. This is the
    trapezoidal area under the ROC curve with tied scores forming one threshold (one diagonal
    segment), and equals the Mann-Whitney U statistic / (P * N) with ties counted 1/2. Higher
    scores mean "more positive". Computed exactly in integers, then divided once.

    Positive class: ``pos_label`` if given; otherwise the label 1 (or True) when y_true holds it,
    else the larger of the two labels. So {0,1}, {-1,+1}, {1,2} and booleans all take 1 (True)
    as positive; {2,3} takes 3; {"no","yes"} takes "yes".

    Undefined (``nan``): when y_true holds only one class (or no samples), whatever pos_label
    says. Raises ValueError on: y_true not 1-D or with more than two distinct labels, y_score not
    1-D or containing NaN, a length mismatch, a pos_label that is not one of two present labels.
    ±inf scores are allowed (only their order matters).

    Reference: Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27 (2006);
    Hanley & McNeil, Radiology 143 (1982) for the Mann-Whitney equivalence.
    """
    pos = _binary_positives(y_true, pos_label)
    s = _as_scores(y_score, 1)
    _check_same_length(np.asarray(y_true), s)
    if pos is None:
        return float("nan")
    return float(_auc_from_stats(_rank_stats(pos[None, :], s[None, :]))[0])


def average_precision(y_true, y_score, *, pos_label=None) -> float:
    """Average precision of a binary problem, as scikit-learn >= 0.19 defines it.

    ``AP = sum_n (R_n - R_{n-1}) * P_n`` over the distinct score thresholds in decreasing order,
    where P_n and R_n are the precision and recall when every sample scored >= the n-th
    threshold is called positive (R_0 = 0). No interpolation. Equal scores form one threshold,
    so a tied group counts with the precision reached at the end of the group. Equivalently,
    the mean over the positives of the precision at each positive's threshold.

    Positive class: ``pos_label`` if given; otherwise the label 1 (or True) when y_true holds it,
    else the larger of the two labels. So {0,1}, {-1,+1}, {1,2} and booleans all take 1 (True)
    as positive; {2,3} takes 3; {"no","yes"} takes "yes".

    Undefined (``nan``): when there is no positive (0/0 recall); also when y_true holds a single
    label and pos_label is None, since then which class is positive is unknown. With an explicit
    pos_label and only positives present, AP = 1.0 (every precision is 1). Raises ValueError as
    ``roc_auc`` does.

    Reference: scikit-learn ``average_precision_score``; Manning, Raghavan & Schuetze,
    "Introduction to Information Retrieval" (2008), section 8.4.
    """
    pos = _binary_positives(y_true, pos_label)
    s = _as_scores(y_score, 1)
    _check_same_length(np.asarray(y_true), s)
    if pos is None:
        return float("nan")
    return float(_ap_from_stats(_rank_stats(pos[None, :], s[None, :]))[0])


# --------------------------------------------------------------------------------------------
# Multiclass, one-vs-rest
# --------------------------------------------------------------------------------------------


def _ovr_inputs(y_true, y_score, labels) -> tuple[np.ndarray, np.ndarray]:
    y = _as_labels_1d(y_true)
    s = _as_scores(y_score, 2)
    _check_same_length(y, s)
    lab = _as_labels_1d(labels, "labels")
    if lab.size != np.unique(lab).size:
        raise ValueError("labels must be distinct")
    if lab.size != s.shape[1]:
        raise ValueError(
            f"y_score has {s.shape[1]} columns but {lab.size} labels were given; "
            "column j must score labels[j]"
        )
    pos = y[:, None] == lab[None, :]
    unknown = ~pos.any(axis=1)
    if unknown.any():
        bad = np.unique(y[unknown]).tolist()
        raise ValueError(f"y_true contains labels not in labels: {bad}")
    return pos, s


def ovr_roc_auc(y_true, y_score, labels) -> np.ndarray:
    """One-vs-rest ROC AUC of each class: float array of shape (n_classes,), in labels order.

    Each entry is ``roc_auc_score(y_true == labels[j], y_score[:, j])``; ``nan`` for a class
    that is absent from y_true or is the only class present.

    ``y_score`` is (n_samples, n_classes) and column j scores class ``labels[j]`` (higher means
    more likely that class); ``labels`` is required because LIBSVM orders its decision-value and
    probability columns by first appearance in the training data, not numerically. Class j's
    value is the binary metric of "y_true == labels[j]" against column j.
    Raises ValueError when: y_true is not 1-D, y_score is not 2-D or contains NaN, the numbers of
    samples differ, labels are not distinct, the number of labels differs from the number of
    columns, or y_true holds a label that is not in labels.
    """
    pos, s = _ovr_inputs(y_true, y_score, labels)
    return _auc_from_stats(_rank_stats(pos.T, s.T))


def ovr_average_precision(y_true, y_score, labels) -> np.ndarray:
    """One-vs-rest average precision of each class: float array (n_classes,), in labels order.

    Each entry is ``average_precision_score(y_true == labels[j], y_score[:, j], pos_label=True)``;
    ``nan`` for a class absent from y_true (no positive), 1.0 for a class that is the only one
    present.

    ``y_score`` is (n_samples, n_classes) and column j scores class ``labels[j]`` (higher means
    more likely that class); ``labels`` is required because LIBSVM orders its decision-value and
    probability columns by first appearance in the training data, not numerically. Class j's
    value is the binary metric of "y_true == labels[j]" against column j.
    Raises ValueError when: y_true is not 1-D, y_score is not 2-D or contains NaN, the numbers of
    samples differ, labels are not distinct, the number of labels differs from the number of
    columns, or y_true holds a label that is not in labels.
    """
    pos, s = _ovr_inputs(y_true, y_score, labels)
    return _ap_from_stats(_rank_stats(pos.T, s.T))


def _plain_mean(values: np.ndarray) -> float:
    # np.mean propagates nan: one undefined class makes the macro average undefined.
    return float(np.mean(values)) if values.size else float("nan")


def macro_roc_auc(y_true, y_score, labels) -> float:
    """Macro one-vs-rest ROC AUC: the plain mean of ``ovr_roc_auc`` over the classes.

    ``nan`` if any class is undefined (absent from y_true): no class is silently dropped. When
    every class is present this equals scikit-learn's
    ``roc_auc_score(y_true, y_score, multi_class="ovr", average="macro")`` (which additionally
    requires rows summing to 1; this function does not). Same input checks as ``ovr_roc_auc``.

    Reference: Fawcett (2006), section 10; scikit-learn ``roc_auc_score``.
    """
    return _plain_mean(ovr_roc_auc(y_true, y_score, labels))


def macro_average_precision(y_true, y_score, labels) -> float:
    """Macro one-vs-rest average precision: the plain mean of ``ovr_average_precision``.

    ``nan`` if any class is undefined (absent from y_true). Same input checks as
    ``ovr_average_precision``.

    Reference: scikit-learn ``average_precision_score(average="macro")`` on binarised labels.
    """
    return _plain_mean(ovr_average_precision(y_true, y_score, labels))


# --------------------------------------------------------------------------------------------
# Multi-label
# --------------------------------------------------------------------------------------------


def _multilabel_inputs(Y_true, Y_score) -> tuple[np.ndarray, np.ndarray]:
    Y = np.asarray(Y_true)
    if Y.ndim != 2:
        raise ValueError(
            f"Y_true must be a 2-D indicator matrix (n_samples, n_labels); got shape {Y.shape}"
        )
    if Y.dtype != bool:
        if Y.dtype.kind not in "iuf":
            raise ValueError("Y_true must hold 0/1 (or booleans)")
        if not ((Y == 0) | (Y == 1)).all():
            raise ValueError("Y_true must hold only 0 and 1 (an indicator matrix)")
        Y = Y == 1
    S = _as_scores(Y_score, 2, "Y_score")
    if S.shape != Y.shape:
        raise ValueError(f"Y_true and Y_score have different shapes: {Y.shape} != {S.shape}")
    return Y, S


def per_label_average_precision(Y_true, Y_score) -> np.ndarray:
    """Average precision of each label (column): float array of shape (n_labels,).

    Column k is ``average_precision_score(Y_true[:, k], Y_score[:, k], pos_label=1)``: the mean,
    over the samples holding label k, of the precision at their score's threshold (ties form
    one threshold). ``nan`` for a column with no positive; 1.0 for a column of all ones.
    Raises ValueError when Y_true is not a 2-D 0/1 matrix, Y_score has another shape, or
    Y_score contains NaN.

    Reference: scikit-learn ``average_precision_score(..., average=None)``.
    """
    Y, S = _multilabel_inputs(Y_true, Y_score)
    return _ap_from_stats(_rank_stats(Y.T, S.T))


def _row_stats(Y: np.ndarray, S: np.ndarray) -> _RankStats:
    # Ranking within each sample: every row is one ranking problem.
    return _rank_stats(Y, S)


def label_ranking_average_precision(Y_true, Y_score) -> float:
    """Label ranking average precision (LRAP), exactly as scikit-learn defines it.

    ``LRAP = 1/n sum_i 1/|Y_i| sum_{j in Y_i} |{k in Y_i: s_ik >= s_ij}| / |{k: s_ik >= s_ij}|``
    where Y_i is the set of true labels of sample i. Ties count against: a label tied with
    others is ranked below all of them. A sample with no true label, or with every label true,
    scores 1.0 (scikit-learn's rule: the ranking has no meaning there). ``nan`` when there are
    no samples. Raises ValueError as ``per_label_average_precision`` does.

    Reference: Tsoumakas, Katakis & Vlahavas, "Mining Multi-label Data", Data Mining and
    Knowledge Discovery Handbook (2010); scikit-learn ``label_ranking_average_precision_score``.
    """
    Y, S = _multilabel_inputs(Y_true, Y_score)
    if Y.shape[0] == 0:
        return float("nan")
    st = _row_stats(Y, S)
    n_labels = Y.shape[1]
    trivial = (st.n_pos == 0) | (st.n_pos == n_labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_sample = np.where(trivial, 1.0, st.precision_sum / st.n_pos)
    return float(np.mean(per_sample))


def coverage(Y_true, Y_score) -> float:
    """Coverage error: how far down the ranking one must go, on average, to cover all true labels.

    ``coverage = 1/n sum_i |{k: s_ik >= min_{j in Y_i} s_ij}|``; a sample with no true label
    counts 0 (as scikit-learn). Ties count against (all tied labels are included). The best
    value is the mean number of true labels per sample. ``nan`` when there are no samples.
    Raises ValueError as ``per_label_average_precision`` does.

    Reference: Schapire & Singer, "BoosTexter", Machine Learning 39 (2000);
    scikit-learn ``coverage_error``.
    """
    Y, S = _multilabel_inputs(Y_true, Y_score)
    if Y.shape[0] == 0:
        return float("nan")
    return float(np.mean(_row_stats(Y, S).worst_rank))


def ranking_loss(Y_true, Y_score) -> float:
    """Ranking loss: the mean fraction of wrongly ordered (true, false) label pairs per sample.

    ``loss = 1/n sum_i |{(k, l) in Y_i x notY_i: s_ik <= s_il}| / (|Y_i| * |notY_i|)``. A tie
    counts as a full error (as scikit-learn). A sample with no true label or with every label
    true contributes 0. ``nan`` when there are no samples. Raises ValueError as
    ``per_label_average_precision`` does.

    Reference: Schapire & Singer (2000); Tsoumakas et al. (2010);
    scikit-learn ``label_ranking_loss``.
    """
    Y, S = _multilabel_inputs(Y_true, Y_score)
    if Y.shape[0] == 0:
        return float("nan")
    st = _row_stats(Y, S)
    pairs = st.n_pos * st.n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        per_sample = np.where(pairs == 0, 0.0, (pairs - st.pairs_above) / pairs)
    return float(np.mean(per_sample))

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

Binary functions
    ``roc_auc_score``, ``average_precision_score``.
One-vs-rest (multiclass)
    ``ovr_roc_auc``, ``ovr_average_precision`` (per class), ``macro_roc_auc``,
    ``macro_average_precision`` (one number).
Multi-label
    ``per_label_average_precision``, ``label_ranking_average_precision``, ``coverage_error``,
    ``label_ranking_loss``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "roc_auc_score",
    "average_precision_score",
    "ovr_roc_auc",
    "ovr_average_precision",
    "macro_roc_auc",
    "macro_average_precision",
    "per_label_average_precision",
    "label_ranking_average_precision",
    "coverage_error",
    "label_ranking_loss",
]

# Upper bound on the elements of one block handed to the vectorised core (about 10 temporary
# arrays of 8 bytes each are alive at once, so a block costs roughly 80 MB at most).
_BLOCK_ELEMENTS = 1 << 20


# --------------------------------------------------------------------------------------------
# The core: per-column rank statistics with tie groups
# --------------------------------------------------------------------------------------------


class _RankStats(NamedTuple):
    """Statistics of each of m independent ranking problems, all shaped (m,).

    n_pos, n_neg: int counts of positives and negatives.
    pairs_above: number of (positive, negative) pairs with the positive scored strictly higher.
    pairs_tied: number of (positive, negative) pairs with equal scores.
    precision_sum: sum over positives of the precision at the threshold of its tie group
        (true positives / predicted positives when every score >= its score is called positive).
    worst_rank: largest, over positives, of the number of scores >= that positive's score
        (0 when the problem has no positive).
    """

    n_pos: np.ndarray
    n_neg: np.ndarray
    pairs_above: np.ndarray
    pairs_tied: np.ndarray
    precision_sum: np.ndarray
    worst_rank: np.ndarray


def _rank_stats_block(pos: np.ndarray, score: np.ndarray) -> _RankStats:
    m, n = score.shape
    if n == 0:
        zi = np.zeros(m, dtype=np.int64)
        return _RankStats(zi, zi.copy(), zi.copy(), zi.copy(), np.zeros(m), zi.copy())
    # Descending order; the order inside a tie group is irrelevant since groups are handled whole.
    order = np.argsort(score, axis=1, kind="stable")[:, ::-1]
    s = np.take_along_axis(score, order, axis=1)
    p = np.take_along_axis(pos, order, axis=1)
    del order
    tp_cum = np.cumsum(p, axis=1, dtype=np.int64)  # positives at or above each position

    idx = np.arange(n, dtype=np.int64)
    starts = np.ones((m, n), dtype=bool)
    starts[:, 1:] = s[:, 1:] != s[:, :-1]
    ends = np.ones((m, n), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    del s
    # First and last position of each element's tie group.
    first = np.maximum.accumulate(np.where(starts, idx, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, idx, n)[:, ::-1], axis=1)[:, ::-1]
    del starts, ends

    tp_through = np.take_along_axis(tp_cum, last, axis=1)  # positives scored >= this score
    tp_above = np.take_along_axis(tp_cum, first, axis=1) - np.take_along_axis(p, first, axis=1)
    del first

    n_pos = tp_cum[:, -1].copy()
    n_neg = n - n_pos
    neg = ~p
    pairs_above = np.where(neg, tp_above, 0).sum(axis=1)
    pairs_tied = np.where(neg, tp_through - tp_above, 0).sum(axis=1)
    n_at_or_above = last + 1
    # Contiguous rows: numpy sums each row pairwise, the same way whatever the block size.
    precision_sum = np.where(p, tp_through / n_at_or_above, 0.0).sum(axis=1)
    worst_rank = np.where(p, n_at_or_above, 0).max(axis=1)
    return _RankStats(n_pos, n_neg, pairs_above, pairs_tied, precision_sum, worst_rank)


def _rank_stats(pos: np.ndarray, score: np.ndarray) -> _RankStats:
    """Rank statistics of each row of ``score`` (m, n) against the boolean ``pos`` (m, n).

    Each row is one ranking problem (a class or label column, or a sample's label scores).
    Rows are processed in blocks of about ``_BLOCK_ELEMENTS`` elements to bound memory.
    """
    m, n = score.shape
    step = max(1, _BLOCK_ELEMENTS // max(n, 1))
    if m <= step:
        return _rank_stats_block(pos, score)
    blocks = [_rank_stats_block(pos[i : i + step], score[i : i + step]) for i in range(0, m, step)]
    return _RankStats(*(np.concatenate(parts) for parts in zip(*blocks)))


def _auc_from_stats(st: _RankStats) -> np.ndarray:
    """(pairs above + half the tied pairs) / (positives * negatives); nan without both classes."""
    denom = 2.0 * st.n_pos.astype(np.float64) * st.n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = (2 * st.pairs_above + st.pairs_tied) / denom
    auc[denom == 0] = np.nan
    return auc


def _ap_from_stats(st: _RankStats) -> np.ndarray:
    """Mean precision over the positives; nan without a positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = st.precision_sum / st.n_pos
    ap[st.n_pos == 0] = np.nan
    return ap


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _as_labels_1d(y_true, name: str = "y_true") -> np.ndarray:
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per sample); got shape {y.shape}")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"{name} contains NaN")
    if y.dtype.kind == "O":
        raise ValueError(f"{name} must be an array of numbers, booleans or strings, not objects")
    return y


def _as_scores(y_score, ndim: int, name: str = "y_score") -> np.ndarray:
    try:
        s = np.asarray(y_score, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from None
    if s.ndim != ndim:
        want = "1-D (n_samples,)" if ndim == 1 else "2-D (n_samples, n_columns)"
        raise ValueError(f"{name} must be {want}; got shape {s.shape}")
    if np.isnan(s).any():
        raise ValueError(f"{name} contains NaN")
    return s


def _check_same_length(y: np.ndarray, s: np.ndarray, s_name: str = "y_score") -> None:
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"y_true and {s_name} have different numbers of samples: {y.shape[0]} != {s.shape[0]}"
        )


def _binary_positives(y_true, pos_label) -> np.ndarray | None:
    """Boolean positive mask, or None when which class is positive cannot be told."""
    y = _as_labels_1d(y_true)
    classes = np.unique(y)
    if classes.size > 2:
        raise ValueError(
            f"y_true has {classes.size} distinct labels; a binary metric needs at most 2 "
            "(use the ovr_* functions for multiclass problems)"
        )
    present = classes.tolist()
    if pos_label is None:
        if len(present) < 2:
            return None
        pos_label = 1 if any(c == 1 for c in present) else present[-1]
    elif len(present) == 2 and not any(c == pos_label for c in present):
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels in y_true {present}")
    return y == pos_label


# --------------------------------------------------------------------------------------------
# Binary
# --------------------------------------------------------------------------------------------

def roc_auc_score(y_true, y_score, *, pos_label=None) -> float:
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


def average_precision_score(y_true, y_score, *, pos_label=None) -> float:
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
    ``roc_auc_score`` does.

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
        raise ValueError(f"Y_true must be a 2-D indicator matrix (n_samples, n_labels); got shape {Y.shape}")
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


def coverage_error(Y_true, Y_score) -> float:
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


def label_ranking_loss(Y_true, Y_score) -> float:
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

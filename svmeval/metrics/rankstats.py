"""The core of the threshold-free figures: rank statistics of many ranking problems at once.

Each row of a score matrix is one ranking problem (a class or label column, or a sample's label
scores).  One pass over the scores sorted in descending order, with equal scores grouped into one
threshold (as scikit-learn's ``_binary_clf_curve`` groups them): a sort, cumulative sums, no
Python loop per sample.  Rows are processed in blocks, so memory stays bounded.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "RankStats",
    "rank_stats",
    "auc_from_stats",
    "ap_from_stats",
    "as_scores",
    "as_labels_1d",
    "binary_positives",
    "check_same_length",
]

# Upper bound on the elements of one block handed to the vectorised core (about 10 temporary
# arrays of 8 bytes each are alive at once, so a block costs roughly 80 MB at most).
_BLOCK_ELEMENTS = 1 << 20


# --------------------------------------------------------------------------------------------
# The core: per-column rank statistics with tie groups
# --------------------------------------------------------------------------------------------


class RankStats(NamedTuple):
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


def _block(pos: np.ndarray, score: np.ndarray) -> RankStats:
    m, n = score.shape
    if n == 0:
        zi = np.zeros(m, dtype=np.int64)
        return RankStats(zi, zi.copy(), zi.copy(), zi.copy(), np.zeros(m), zi.copy())
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
    return RankStats(n_pos, n_neg, pairs_above, pairs_tied, precision_sum, worst_rank)


def rank_stats(pos: np.ndarray, score: np.ndarray) -> RankStats:
    """Rank statistics of each row of ``score`` (m, n) against the boolean ``pos`` (m, n).

    Each row is one ranking problem (a class or label column, or a sample's label scores).
    Rows are processed in blocks of about ``_BLOCK_ELEMENTS`` elements to bound memory.
    """
    m, n = score.shape
    step = max(1, _BLOCK_ELEMENTS // max(n, 1))
    if m <= step:
        return _block(pos, score)
    blocks = [_block(pos[i : i + step], score[i : i + step]) for i in range(0, m, step)]
    return RankStats(*(np.concatenate(parts) for parts in zip(*blocks)))


def auc_from_stats(st: RankStats) -> np.ndarray:
    """(pairs above + half the tied pairs) / (positives * negatives); nan without both classes."""
    denom = 2.0 * st.n_pos.astype(np.float64) * st.n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = (2 * st.pairs_above + st.pairs_tied) / denom
    auc[denom == 0] = np.nan
    return auc


def ap_from_stats(st: RankStats) -> np.ndarray:
    """Mean precision over the positives; nan without a positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = st.precision_sum / st.n_pos
    ap[st.n_pos == 0] = np.nan
    return ap


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def as_labels_1d(y_true, name: str = "y_true") -> np.ndarray:
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per sample); got shape {y.shape}")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"{name} contains NaN")
    if y.dtype.kind == "O":
        raise ValueError(f"{name} must be an array of numbers, booleans or strings, not objects")
    return y


def as_scores(y_score, ndim: int, name: str = "y_score") -> np.ndarray:
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


def check_same_length(y: np.ndarray, s: np.ndarray, s_name: str = "y_score") -> None:
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"y_true and {s_name} have different numbers of samples: {y.shape[0]} != {s.shape[0]}"
        )


def binary_positives(y_true, pos_label) -> np.ndarray | None:
    """Boolean positive mask, or None when which class is positive cannot be told."""
    y = as_labels_1d(y_true)
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

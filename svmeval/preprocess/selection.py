"""Feature selection by F-score, as LIBSVM's ``tools/fselect.py`` computes it (Chen and Lin).

For feature j over the rows (a feature absent from a row counts as 0 there), with n rows,
n_c of class c, sums s = sum of x_j, s_c over class c's rows and q_c = sum of x_j^2 over
them::

    SB = sum over classes c of n_c * (s_c / n_c - s / n)^2
    SW = 1e-12 + sum over classes c of (q_c - s_c^2 / n_c)
    F_j = SB / SW

the classes in their order of first appearance, features 1 to the largest index of the rows
(``fselect.py``'s ``cal_Fscore``; its ``1e-12`` keeps a feature constant within each class
from dividing by zero). ``fselect.py`` is meant for two classes; its formula is a sum over
the classes and is used as it stands for k classes (between-class over within-class
scatter). The ranking is by F-score, descending, ties broken by feature index ascending
(``fselect.py`` sorts the features, in index order, with Python's stable sort); the top K
are kept (every feature where K is more than the features scored).
"""

from __future__ import annotations

import numpy as np

from svmeval.errors import InvalidParameterError

__all__ = [
    "EPSILON",
    "FSELECT",
    "FSELECT_FLOOR",
    "check_select",
    "check_sizes",
    "f_scores",
    "fselect_sizes",
    "keep_features",
    "ranked",
    "select_top",
]

#: fselect.py's ``eps``, added to the within-class scatter
EPSILON = 1e-12

#: the word for fselect.py's own list of sizes (:func:`fselect_sizes`)
FSELECT = "fselect"

#: fselect.py's ``feat_num_try``: the features ranked before the first F-score below this
FSELECT_FLOOR = 1e-20

#: fselect.py tries at most this many sizes
FSELECT_MAX_SIZES = 8

#: why a search cannot take fselect.py's list of sizes of some data
EMPTY_FSELECT = (
    "fselect: fselect.py's list of sizes is empty (fewer than 2 features of the data have "
    "an F-score of 1e-20 or more)"
)


def check_select(value) -> int | None:
    """``select=`` as the run functions take it: None (no selection) or K, a positive
    integer (the features kept)."""
    if value is None:
        return None
    if isinstance(value, str) or _is_sequence(value):
        raise InvalidParameterError(
            "select",
            f"{value!r}: a list of sizes is searched by grid_search, nested_cv and "
            "leak_check; give one K here",
        )
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidParameterError("select", f"must be a positive integer, got {value!r}")
    if int(value) < 1:
        raise InvalidParameterError("select", f"must be at least 1, got {int(value)}")
    return int(value)


def _is_sequence(value) -> bool:
    return isinstance(value, (list, tuple, np.ndarray, range))


def check_sizes(value) -> int | tuple[int, ...] | str | None:
    """``select=`` as a search takes it: None (no selection), K (one size, as every run takes
    it), a sequence of distinct sizes K1, K2, ... (a search axis: each size a cell's, in the
    given order) or :data:`FSELECT` (fselect.py's own list, :func:`fselect_sizes`)."""
    if isinstance(value, str):
        if value != FSELECT:
            raise InvalidParameterError(
                "select", f"must be K, a list of sizes or {FSELECT!r}, got {value!r}"
            )
        return value
    if not _is_sequence(value):
        return check_select(value)
    sizes = tuple(value)
    if not sizes:
        raise InvalidParameterError("select", "an empty list of sizes")
    for k in sizes:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise InvalidParameterError("select", f"sizes must be positive integers, got {k!r}")
        if int(k) < 1:
            raise InvalidParameterError("select", f"sizes must be at least 1, got {int(k)}")
    sizes = tuple(int(k) for k in sizes)
    twice = sorted({k for k in sizes if sizes.count(k) > 1})
    if twice:
        raise InvalidParameterError("select", f"size {twice[0]} is given twice")
    return sizes


def fselect_sizes(scores: np.ndarray | None) -> tuple[int, ...]:
    """fselect.py's sizes (``feat_num_try``) from the F-scores ``scores`` (by feature index):
    n, the features ranked before the first one whose F-score is below 1e-20 (every feature
    where none is), then n halved (integer division) while above 1: at most the first 8
    (``n = 50``: 50, 25, 12, 6, 3). Empty where n is 1 or 0, as fselect.py's list is (and
    where there are no scores)."""
    if scores is None:
        return ()
    ordered = scores[ranked(scores)]
    below = np.flatnonzero(ordered < FSELECT_FLOOR)
    n = int(below[0]) if len(below) else len(ordered)
    sizes = []
    while n > 1:
        sizes.append(n)
        n //= 2
    return tuple(sizes[:FSELECT_MAX_SIZES])


def f_scores(indptr, indices, values, y) -> np.ndarray:
    """Each feature's F-score over the CSR rows with labels ``y``: an array indexed by
    feature (entry 0 unused, NaN; length the largest index + 1)."""
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = len(y)
    width = int(indices.max()) + 1 if len(indices) else 1
    row_class = _first_appearance_codes(y)
    k = int(row_class.max()) + 1 if n else 0
    n_c = np.bincount(row_class, minlength=k).astype(np.float64)
    entry_class = np.repeat(row_class, np.diff(indptr))
    total = np.bincount(indices, weights=values, minlength=width)
    sb = np.zeros(width)
    sw = np.full(width, EPSILON)
    for c in range(k):
        mine = entry_class == c
        s_c = np.bincount(indices[mine], weights=values[mine], minlength=width)
        q_c = np.bincount(indices[mine], weights=values[mine] ** 2, minlength=width)
        sb += n_c[c] * (s_c / n_c[c] - total / n) ** 2
        sw += q_c - s_c**2 / n_c[c]
    scores = sb / sw
    scores[0] = np.nan
    return scores


def _first_appearance_codes(y: np.ndarray) -> np.ndarray:
    """Each row's class number, classes numbered in order of first appearance."""
    _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.reshape(-1)]


def ranked(scores: np.ndarray) -> np.ndarray:
    """Feature indices by F-score descending, ties by index ascending."""
    features = np.arange(1, len(scores))
    order = np.argsort(-scores[1:], kind="stable")
    return features[order]


def select_top(scores: np.ndarray, k: int) -> np.ndarray:
    """The top ``k`` features of :func:`ranked`, in ascending index order."""
    return np.sort(ranked(scores)[:k])


def keep_features(indptr, indices, values, features: np.ndarray):
    """The CSR rows with only ``features`` (ascending indices) kept."""
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices)
    values = np.asarray(values, dtype=np.float64)
    wanted = np.zeros(max(int(indices.max()) + 1 if len(indices) else 1, 1), dtype=bool)
    inside = features[features < len(wanted)]
    wanted[inside] = True
    mask = wanted[indices]
    n = len(indptr) - 1
    row_of = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    counts = np.bincount(row_of[mask], minlength=n)
    out_indptr = np.zeros(len(indptr), dtype=np.int64)
    np.cumsum(counts, out=out_indptr[1:])
    return out_indptr, indices[mask].astype(np.int32), values[mask]

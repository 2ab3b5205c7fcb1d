"""Labels to codes, fast: the distinct labels of a 1-D array (ascending, as ``np.unique``) and
each sample's index among them, without sorting the samples where that can be avoided.

* integral numbers of a small span: one ``bincount`` finds them, a table lookup encodes them;
* fixed-width strings: each string is hashed to 64 bits (its characters read as integers), the
  few distinct hashes are found by sorting integers (far faster than sorting strings) and
  numbered by a collision-free modulus table; every sample is then checked equal to its
  class's first string, so a hash collision can never merge two labels (it falls back to
  ``np.unique``);
* anything else: ``np.unique(..., return_inverse=True)``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["distinct", "factorize"]

#: Integral labels spanning at most this many values are found by one bincount.
_TABLE_SPAN = 1 << 16
_PRIME = np.uint64(1_000_003)


def distinct(y: np.ndarray) -> np.ndarray:
    """The distinct values of y, ascending; TypeError for objects that do not order (strings
    and numbers mixed in one array, as ``np.unique`` and scikit-learn say)."""
    return np.unique(y)


def _integral_span(y: np.ndarray):
    """(offsets from lo as int64, lo, span) for integral numeric 1-D y of small span, or None."""
    if y.dtype.kind not in "biuf" or y.ndim != 1 or y.size == 0:
        return None
    if y.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            ints = y.astype(np.int64)
        if not np.array_equal(ints, y):
            return None
    else:
        ints = y.astype(np.int64, copy=False)
    lo, hi = int(ints.min()), int(ints.max())
    if hi - lo >= _TABLE_SPAN:
        return None
    return ints - lo, lo, hi - lo + 1


def _by_table(found, dtype):
    offsets, lo, span = found
    present = np.flatnonzero(np.bincount(offsets, minlength=span))
    if present.size == span:  # every value of the span occurs: the offsets are the codes
        return (present + lo).astype(dtype), offsets
    table = np.zeros(span, dtype=np.int64)
    table[present] = np.arange(present.size)
    return (present + lo).astype(dtype), table[offsets]


def _hash(y: np.ndarray) -> np.ndarray:
    width = 8 if y.dtype.itemsize % 8 == 0 else 4
    words = np.ascontiguousarray(y).view(np.uint64 if width == 8 else np.uint32)
    words = words.reshape(y.size, -1)
    acc = np.zeros(y.size, dtype=np.uint64)
    for j in range(words.shape[1]):
        acc *= _PRIME
        acc += words[:, j]
    return acc


def _modulus_codes(keys: np.ndarray, values: np.ndarray):
    """Index of each value among the sorted distinct keys, by a modulus table without
    collisions among the keys; None if none small enough is found."""
    k = keys.size
    for m in range(2 * k + 1, 64 * k + 64):
        slots = keys % np.uint64(m)
        if np.unique(slots).size == k:
            table = np.zeros(m, dtype=np.int64)
            table[slots.astype(np.int64)] = np.arange(k)
            return table[(values % np.uint64(m)).astype(np.int64)]
    return None


def _by_hash(y: np.ndarray):
    h = _hash(y)
    ordered = np.sort(h)
    keys = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    codes = _modulus_codes(keys, h) if keys.size <= 4096 else None
    if codes is None:
        return None
    first = np.empty(keys.size, dtype=np.int64)
    first[codes[::-1]] = np.arange(y.size - 1, -1, -1)
    representatives = y[first]
    if not np.array_equal(y, representatives[codes]):
        return None  # two labels share a hash
    order = np.argsort(representatives, kind="stable")
    rank = np.empty(keys.size, dtype=np.int64)
    rank[order] = np.arange(keys.size)
    return representatives[order], rank[codes]


def factorize(y: np.ndarray):
    """(distinct values ascending, index of each y among them) of a 1-D array."""
    found = _integral_span(y)
    if found is not None:
        return _by_table(found, y.dtype)
    if y.dtype.kind in "US" and y.size > 1024:
        done = _by_hash(y)
        if done is not None:
            return done
    values, codes = np.unique(y, return_inverse=True)  # TypeError: objects that do not order
    return values, codes.reshape(-1)

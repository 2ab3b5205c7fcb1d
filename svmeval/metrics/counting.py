"""Weighted counts behind the scikit-learn-named functions: the confusion matrix of two label
vectors, and per-label true positives / predicted / true counts (one-vs-rest, as scikit-learn's
``multilabel_confusion_matrix``), each with optional sample weights.

Integral labels of a small span are encoded by a table lookup and counted by one ``bincount``;
other labels (wide or fractional numbers, strings) by a search among the sorted labels.
"""

from __future__ import annotations

import numpy as np

from svmeval.metrics.targets import encode, unique_labels

__all__ = ["confusion_counts", "label_counts"]


def confusion_counts(t: np.ndarray, p: np.ndarray, w, labels: np.ndarray) -> np.ndarray:
    """Matrix C[i, j] = total weight of samples (t = labels[i], p = labels[j]); samples whose
    label is not in ``labels`` are left out.  int64 without weights (or integer weights),
    float64 otherwise."""
    return _bordered(t, p, w, labels)[:-1, :-1]


def _bordered(t, p, w, labels):
    """The confusion matrix with one more row and column: "a label not in labels"."""
    k = labels.shape[0]
    sorted_labels = unique_labels(labels) if k else labels
    order_ok = k == sorted_labels.shape[0] and np.array_equal(sorted_labels, labels)
    everything = unique_labels(t, p)
    extra = np.setdiff1d(everything, sorted_labels) if k else everything
    if extra.size:
        known = unique_labels(sorted_labels, extra) if k else extra
        pos = np.full(known.shape[0], k, dtype=np.int64)  # k: not one of labels
        pos[np.searchsorted(known, sorted_labels)] = _positions(sorted_labels, labels, order_ok)
    else:
        known, pos = sorted_labels, _positions(sorted_labels, labels, order_ok)
    ti, pi = pos[encode(t, known)], pos[encode(p, known)]
    codes = ti * (k + 1) + pi
    return _weighted_bincount(codes, w, (k + 1) * (k + 1)).reshape(k + 1, k + 1)


def _weighted_bincount(codes, w, size):
    """Counts (int64) or total weights per code: int64 sums (wrapping as int64 does) for integer
    weights, float64 for others."""
    if w is None:
        return np.bincount(codes, minlength=size).astype(np.int64, copy=False)
    if w.dtype.kind not in "biu":
        return np.bincount(codes, weights=w, minlength=size)
    w = w.astype(np.int64)
    if np.abs(w).sum(dtype=np.float64) < 2.0**53:  # float sums are exact
        return np.bincount(codes, weights=w, minlength=size).astype(np.int64)
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, w)
    return out


def _positions(sorted_labels, labels, order_ok):
    """For each sorted label, its index in ``labels`` (which may be in any order)."""
    if order_ok:
        return np.arange(labels.shape[0])
    out = np.empty(labels.shape[0], dtype=np.int64)
    out[np.searchsorted(sorted_labels, labels)] = np.arange(labels.shape[0])
    return out


def _check_indicator_labels(labels, present):
    if labels.size == 0:
        return
    if labels.shape == present.shape and np.array_equal(labels, present):
        return
    if labels.max() > present.max():
        raise ValueError(f"All labels must be in [0, n labels) for multilabel targets. "
                         f"Got {labels.max()} > {present.max()}")
    if labels.min() < 0:
        raise ValueError(f"All labels must be in [0, n labels) for multilabel targets. "
                         f"Got {labels.min()} < 0")


def _indicator_counts(t, p, w, labels, samplewise):
    labels = np.asarray(labels)
    T, P = t[:, labels] != 0, p[:, labels] != 0
    axis = 1 if samplewise else 0
    counts = [np.count_nonzero(a, axis=axis) for a in (T & P, P, T)]
    if w is None:
        return tuple(c.astype(np.int64) for c in counts)
    if samplewise:
        return tuple(c * w for c in counts)
    return tuple(w @ a.astype(np.float64) for a in (T & P, P, T))


def label_counts(kind, present, t, p, w, labels, samplewise: bool):
    """(tp, predicted, true) per label: the labels of ``labels`` in its order (all the labels
    seen, ascending, when None); per sample when ``samplewise`` (multi-label only)."""
    if kind == "multilabel-indicator":
        if labels is None:
            chosen = present
        else:
            chosen = np.asarray(labels)
            _check_indicator_labels(chosen, present)
            chosen = chosen.astype(np.int64)
        return _indicator_counts(t, p, w, chosen, samplewise)
    if samplewise:
        raise ValueError("Samplewise metrics are not available outside of multilabel "
                         "classification.")
    if labels is None:
        chosen = present
    else:
        chosen = np.asarray(labels)
        if chosen.dtype.kind == "O" or present.dtype.kind == "O":
            chosen = np.asarray(labels, dtype=object)
    full = _bordered(t, p, w, chosen)
    k = chosen.shape[0]
    tp = np.diagonal(full)[:k].copy()
    return tp, full.sum(axis=0)[:k], full.sum(axis=1)[:k]

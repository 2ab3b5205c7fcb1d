"""Weighted counts behind the scikit-learn-named functions: the confusion matrix of two label
vectors, and per-label true positives / predicted / true counts (one-vs-rest, as scikit-learn's
``multilabel_confusion_matrix``), each with optional sample weights.

Integral labels of a small span are encoded by a table lookup and counted by one ``bincount``;
other labels (wide or fractional numbers, strings) by a search among the sorted labels.
"""

from __future__ import annotations

import numpy as np

from svmeval.metrics.target_types import Targets

__all__ = ["confusion_counts", "label_counts"]


def confusion_counts(targets: Targets, labels: np.ndarray) -> np.ndarray:
    """Matrix C[i, j] = total weight of samples (true labels[i], predicted labels[j]); samples
    of a label not in ``labels`` are left out.  int64 without weights (or with integer
    weights), float64 otherwise."""
    return _bordered(targets, labels)[:-1, :-1]


def _positions(present: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """For each label seen, its index in ``labels`` (any order), or len(labels) if not in it."""
    k = labels.shape[0]
    pos = np.full(present.shape[0] + 1, k, dtype=np.int64)
    if k == 0 or present.size == 0:
        return pos
    try:
        at = np.searchsorted(present, labels)
    except TypeError:  # labels of another type than those seen: none of them is seen
        return pos
    hit = at < present.size
    hit[hit] = present[at[hit]] == labels[hit]
    pos[at[hit][::-1]] = np.flatnonzero(hit)[::-1]  # a repeated label: its first place
    return pos


def _bordered(targets: Targets, labels: np.ndarray) -> np.ndarray:
    """The confusion matrix with one more row and column: "a label not in labels"."""
    k = labels.shape[0]
    pos = _positions(targets.labels, labels)
    if k == targets.labels.shape[0] and np.array_equal(pos[:-1], np.arange(k)):
        ti, pi = targets.true_codes, targets.pred_codes
    else:
        ti, pi = pos[targets.true_codes], pos[targets.pred_codes]
    codes = ti * (k + 1)
    codes += pi
    return _weighted_bincount(codes, targets.sample_weight, (k + 1) * (k + 1)).reshape(k + 1, k + 1)


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


def _check_indicator_labels(labels, present):
    if labels.size == 0:
        return
    if labels.shape == present.shape and np.array_equal(labels, present):
        return
    if labels.max() > present.max():
        raise ValueError(
            f"All labels must be in [0, n labels) for multilabel targets. "
            f"Got {labels.max()} > {present.max()}"
        )
    if labels.min() < 0:
        raise ValueError(
            f"All labels must be in [0, n labels) for multilabel targets. Got {labels.min()} < 0"
        )


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


def label_counts(targets: Targets, labels, samplewise: bool):
    """(tp, predicted, true) per label: the labels of ``labels`` in its order (all the labels
    seen, ascending, when None); per sample when ``samplewise`` (multi-label only)."""
    kind, present, t, p, w = targets[:5]
    if kind == "multilabel-indicator":
        if labels is None:
            chosen = present
        else:
            chosen = np.asarray(labels)
            _check_indicator_labels(chosen, present)
            chosen = chosen.astype(np.int64)
        return _indicator_counts(t, p, w, chosen, samplewise)
    if samplewise:
        raise ValueError(
            "Samplewise metrics are not available outside of multilabel classification."
        )
    if labels is None:
        chosen = present
    else:
        chosen = np.asarray(labels)
        if chosen.dtype.kind == "O" or present.dtype.kind == "O":
            chosen = np.asarray(labels, dtype=object)
    full = _bordered(targets, chosen)
    k = chosen.shape[0]
    tp = np.diagonal(full)[:k].copy()
    return tp, full.sum(axis=0)[:k], full.sum(axis=1)[:k]

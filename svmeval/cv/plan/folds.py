"""LIBSVM's fold assignment, reproduced exactly (svm.cpp: svm_group_classes, svm_cross_validation).

Pure numpy plus a source of C ``rand()`` draws: with the same seed, the same permutation and fold
boundaries as ``svm_cross_validation``, so every prediction can be bit-identical to LIBSVM's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from svmeval._args.checks import check_folds  # the argument's own check, declared once
from svmeval.cv.collect.results import Folds
from svmeval.errors import SvmevalError, show_label
from svmeval.params import INT_MAX, INT_MIN  # C int, the type LIBSVM casts class labels to


def group_classes(y: np.ndarray):
    """svm_group_classes: classes by ``(int)y`` in order of first appearance, except that a
    two-class problem whose first label is -1 and second +1 is swapped to put +1 first.

    Returns ``(labels, start, count, perm)``: ``perm`` lists the samples grouped by class,
    each group in input order. A run asks again and again for the same labels (each seed's
    folds, each unit's class order): the grouping of the last labels grouped is kept, with a
    copy of their values, and given again (copies) for labels of the same values.
    """
    global _LAST_GROUPED
    last = _LAST_GROUPED  # one tuple, replaced whole: a thread reads one call's parts
    if last is not None and np.array_equal(last[0], y):
        return tuple(a.copy() for a in last[1])
    grouped = _group_classes(y)
    _LAST_GROUPED = (np.array(y, dtype=np.float64), tuple(a.copy() for a in grouped))
    return grouped


#: (the values of the last labels grouped, their grouping)
_LAST_GROUPED: tuple | None = None


def _group_classes(y: np.ndarray):
    keys = np.trunc(np.asarray(y, dtype=np.float64))  # C's (int) cast, where it is defined
    outside = ~((keys >= INT_MIN) & (keys <= INT_MAX))  # NaN included
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise SvmevalError(
            f"label {show_label(y[i])} (sample {i + 1}) does not fit a C int: "
            "LIBSVM groups classes by (int)label"
        )
    keys = keys.astype(np.int64)
    labels, first, inverse, count = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    order = np.argsort(first, kind="stable")  # classes in order of first appearance
    labels, count = labels[order], count[order]
    if len(labels) == 2 and labels[0] == -1 and labels[1] == 1:
        order, labels, count = order[::-1], labels[::-1], count[::-1]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    data_label = rank[inverse.reshape(-1)]
    perm = np.argsort(data_label, kind="stable")
    start = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.int64)
    return labels, start, count.astype(np.int64), perm


def check_samples(l: int) -> None:
    """Cross-validation needs two samples: with one, LIBSVM would use 1 fold and train it on no
    sample at all."""
    if l < 2:
        raise SvmevalError(f"cross-validation needs at least 2 samples; the data have {l}")


def libsvm_folds(
    y: np.ndarray,
    folds: int,
    *,
    stratified: bool,
    rand: Callable[[], int],
    shuffle: Callable[[np.ndarray], None] | None = None,
) -> Folds:
    """The folds svm_cross_validation draws, consuming ``rand()`` exactly as it does.

    ``stratified``: C-SVC or nu-SVC. LIBSVM stratifies only when ``folds < l``; with
    ``folds > l`` it runs leave-one-out, after a warning of its own that
    :func:`svmeval.cv.plan.cv_plan.seeded_folds` gives. ``shuffle``: LIBSVM's shuffle of an
    int64 array in place, drawing from ``rand`` (one call for a class's samples instead of a
    call of ``rand`` a sample: :func:`svmeval.cv._libsvm.shuffle`); None: the loop here.
    """
    l = len(y)
    folds = check_folds(folds)
    check_samples(l)
    folds = min(folds, l)
    if shuffle is None:
        shuffle = functools.partial(_shuffle, rand=rand)
    if stratified and folds < l:
        labels, start, count, perm = group_classes(y)
        index = np.array(perm, dtype=np.int64)
        for c in range(len(labels)):
            s, n = int(start[c]), int(count[c])
            shuffle(index[s : s + n])
        fold_count = [
            sum((i + 1) * int(n) // folds - i * int(n) // folds for n in count)
            for i in range(folds)
        ]
        fold_start = np.concatenate(([0], np.cumsum(fold_count))).astype(np.int64)
        out = np.empty(l, dtype=np.int64)
        pos = fold_start[:-1].copy()
        for c in range(len(labels)):
            s, n = int(start[c]), int(count[c])
            for i in range(folds):
                begin, end = s + i * n // folds, s + (i + 1) * n // folds
                out[pos[i] : pos[i] + end - begin] = index[begin:end]
                pos[i] += end - begin
        return Folds(out, fold_start, True)
    perm = np.arange(l, dtype=np.int64)
    shuffle(perm)
    fold_start = np.array([i * l // folds for i in range(folds + 1)], dtype=np.int64)
    return Folds(perm, fold_start, False)


def _shuffle(index: np.ndarray, *, rand: Callable[[], int]) -> None:
    """LIBSVM's shuffle of ``index`` in place: for i = 0 .. n-1, swap i and i + rand() % (n - i)."""
    n = len(index)
    values = index.tolist()
    for i in range(n):
        j = i + rand() % (n - i)
        values[i], values[j] = values[j], values[i]
    index[:] = values

"""The folds a run draws, and the seeds it draws them with.

LIBSVM draws a cross-validation's folds with C ``rand()`` right after ``srand(seed)``
(:func:`seeded_folds`; :func:`draw_folds` for a configuration, or the folds given or grouped
instead); repetition r of a repeated run draws after the seed :func:`repetition_seeds` gives it.
"""

from __future__ import annotations

import sys

import numpy as np

from svmeval._args.checks import check_folds
from svmeval.cv import _libsvm
from svmeval.cv.collect.results import Folds
from svmeval.cv.plan.folds import check_samples, libsvm_folds
from svmeval.params import SvmParams


def draw_folds(
    y: np.ndarray, folds: int, seed: int, params: SvmParams, *, warn=None, source=None
) -> Folds:
    """The folds svm_cross_validation draws after ``srand(seed)`` (C ``rand()`` left where
    LIBSVM leaves it: ``-b 1`` training goes on drawing from it); ``warn`` as
    :func:`seeded_folds`'; ``source``: a :class:`~svmeval.cv.plan.given.FoldSource` whose folds are
    used instead (C ``rand()`` seeded all the same)."""
    if source is not None:
        _libsvm.srand(seed)
        assignment = source.folds(y, folds, seed, params.is_classification)
        source.check_training(y, params.is_classification, assignment)
        return assignment
    return seeded_folds(y, folds, seed, stratified=params.is_classification, warn=warn)


def seeded_folds(y: np.ndarray, folds: int, seed: int, *, stratified: bool, warn=None) -> Folds:
    """LIBSVM's folds of labels ``y`` after ``srand(seed)`` (:func:`libsvm_folds`).

    With more folds than samples LIBSVM runs leave-one-out and says so first: its own text
    (:func:`~svmeval.cv._libsvm.folds_warning`, asked before seeding) goes to ``warn`` (a
    function of one string; None: standard error; False: it is not asked for, a run that
    gave it already).
    """
    folds = check_folds(folds)
    check_samples(len(y))
    if folds > len(y) and warn is not False:
        text = _libsvm.folds_warning(folds, len(y))
        (sys.stderr.write if warn is None else warn)(text)
    _libsvm.srand(seed)
    return libsvm_folds(
        y, folds, stratified=stratified, rand=_libsvm.rand_function(), shuffle=_libsvm.shuffle
    )


def repetition_seeds(seed: int, repeat: int) -> list[int]:
    """The C ``srand`` seeds of ``repeat`` repetitions starting at ``seed`` (svm-train's folds
    for the first).

    Repetition r uses ``seed + r`` modulo 2^32 (C ``srand`` takes an unsigned int), skipping a
    value that seeds ``rand()`` as one already used: glibc's ``srand(0)`` is ``srand(1)``, so
    ``--seed 0 --repeat 3`` uses 0, 2, 3. Every repetition thus draws different folds.
    """
    seeds: list[int] = []
    used: set[int] = set()
    s = seed
    while len(seeds) < repeat:
        c = s % 2**32
        if (c or 1) not in used:
            used.add(c or 1)
            seeds.append(c)
        s += 1
    return seeds

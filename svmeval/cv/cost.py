"""The cost model behind the threads a run gets, in plain numbers (no import beyond Python's
own): whether a training's OpenMP threads pay, and which cross-validations are small enough to
run on the calling thread with one OpenMP thread. :mod:`svmeval.cv.schedule` runs tasks by it;
:mod:`svmeval.cv.run.light` takes by it the runs it serves.

A small run takes milliseconds. A worker thread per fold and an OpenMP team per fold cost about
as much as the folds themselves, and where the command is one of many processes started by a
script (grid.py runs several at once, a shell loop one after another on a busy machine) the
other cores are busy anyway: a second thread would wait for a core rather than help. So a run
whose every kernel column is cheap (:func:`one_thread`) and whose folds together train on at
most :data:`INLINE_ROWS` rows runs on the calling thread, one OpenMP thread, whatever the cores.
"""

from __future__ import annotations

import os

__all__ = [
    "INLINE_ROWS",
    "LINEAR_LIGHT_ROWS",
    "LINEAR_NS_PER_NONZERO",
    "LINEAR_START_SAVED",
    "linear_light",
    "machine_cores",
    "one_thread",
    "small_run",
]

# OpenMP: LIBSVM computes each kernel column in an OpenMP loop that ends at a barrier. A second
# thread pays only where a column takes long against that barrier (a few microseconds, more
# when the machine is busy): on 8-13 dense features, a fold of a few hundred rows computes a
# column in about 5 us and runs slower on two threads than on one (scripts/bench_grid.py).
#: nanoseconds of one kernel value: a lookup in a shared matrix, or a feature-space value
LOOKUP_NS, VALUE_NS, VALUE_NS_PER_NONZERO = 8.0, 8.0, 2.0
#: a column must take this many microseconds for LIBSVM's OpenMP threads to pay
OPENMP_COLUMN_US = 50.0


#: the training rows, all tasks together, up to which a run of small tasks stays on the calling
#: thread (five folds of 500 rows: some tens of milliseconds of LIBSVM in all)
INLINE_ROWS = 2500


def one_thread(train_rows: int, nonzeros_per_row: float, *, lookup: bool = False) -> bool:
    """Whether a training on ``train_rows`` rows puts one OpenMP thread to use and no more (a
    kernel column costs less than a team's barrier). ``nonzeros_per_row``: the data's mean
    features a row; ``lookup``: kernel values looked up (a precomputed kernel) rather than
    computed."""
    value_ns = LOOKUP_NS if lookup else VALUE_NS + VALUE_NS_PER_NONZERO * nonzeros_per_row
    return train_rows * value_ns < OPENMP_COLUMN_US * 1000


def small_run(n_samples: int, folds: int, nonzeros_per_row: float) -> bool:
    """Whether a k-fold cross-validation of ``n_samples`` rows is one that runs on the calling
    thread with one OpenMP thread (:func:`svmeval.cv.schedule.runs_inline` of its folds): no fold trains on more
    rows than there are, and the folds together train on (k - 1) x n rows."""
    drawn = min(folds, n_samples)
    return one_thread(n_samples, nonzeros_per_row) and (drawn - 1) * n_samples <= INLINE_ROWS


def machine_cores() -> int:
    """The cores this process may use (its CPU affinity)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# svmeval-linear's light path (svmeval.cv.run.linear_light) starts without numpy and the full
# command's modules: a whole svmeval-linear -q -s 2 -v 5 of heart_scale took 0.041-0.048 s
# against the full path's 0.13-0.17 (medians of 7 to 15, the 2-core machine). It handles each
# row in Python (its label, its prediction, its count; the nodes are laid out in C): about
# 1 us a row (a9a's 32,561 rows: 0.03 s; since made C-speed, less than half), so it pays up to
# some 80,000 rows (the bound kept as measured then). LIBLINEAR's primal
# Newton solvers (-s 0, 2, 11) draw nothing from rand(): the full path trains their folds on the
# cores (svmeval.cv.run.linear_threads). On a9a (451,592 nonzeros, -v 5: the folds train on
# 1,806,368), -s 2 and -s 0 at C = 1 take 0.15-0.22 s in one call: at most 120 ns a nonzero of
# a fold's training rows. Measured whole (scripts/bench_linear.py, taking turns), a9a -s 2 -v 5
# and -s 0 -v 5 in one call were 0.10 s faster than the full path on two threads, -v 10 0.01 s
# slower.
#: the rows up to which the light path's work a row leaves it faster than the full path's start
LINEAR_LIGHT_ROWS = 80_000
#: nanoseconds of ``-s 0`` or ``-s 2`` training a nonzero of a fold's rows, at C <= 1 and
#: ``train``'s tolerance
LINEAR_NS_PER_NONZERO = 120.0
#: seconds the full path's start takes more than the light path's (measured 0.09-0.115)
LINEAR_START_SAVED = 0.1


def linear_light(
    rows: int, nonzeros: int, folds: int, cores: int, *, threaded: bool, C: float, tighter: bool
) -> bool:
    """Whether svmeval-linear's light path, LIBLINEAR's folds one after another in its one
    call, ends no later than the full path on a k-fold cross-validation of ``rows`` rows and
    ``nonzeros`` nonzeros (the bias feature's included): at most :data:`LINEAR_LIGHT_ROWS`
    rows; for a ``threaded`` solver (``-s 0``, ``-s 2``: the full path trains their folds on
    ``cores`` threads), the time the threads could save (the folds' time, but for the rounds
    of ``cores`` folds left) at most :data:`LINEAR_START_SAVED`, at C <= 1 (the largest of C
    and C times a class's weight: a larger C takes more Newton steps) and a tolerance no
    ``tighter`` than ``train``'s default, or on one core."""
    if rows > LINEAR_LIGHT_ROWS:
        return False
    cores = min(cores, folds)
    if not threaded or cores < 2:
        return True
    if C > 1 or tighter:
        return False
    seconds = nonzeros * (folds - 1) * LINEAR_NS_PER_NONZERO * 1e-9
    rounds = -(-folds // cores)  # the folds' rounds on the cores
    return seconds * (1 - rounds / folds) <= LINEAR_START_SAVED

"""A kernel computed once and shared by every fold and every C of a grid, and by every fold of
every repetition of a plain cross-validation (LIBSVM's ``-t 4``).

Every cell and fold of a grid with the same kernel parameters (gamma, degree, coef0) evaluates
the same K(x_i, x_j) again and again, and so do the k folds (R x k with ``--repeat R``) of
``svmeval -v k`` (:func:`~svmeval.cv.engine.cross_validate`). :class:`SharedKernel` computes the
whole matrix once, in C with LIBSVM's own arithmetic (``_kernel.c``), laid out as LIBSVM's
precomputed kernel: row i is ``{0: i+1} {1: K(i,0)} ... {n: K(i,n-1)} {-1}``. Because LIBSVM
finds K(i, j) through row j's serial number (node 0), one matrix serves every fold's training
subset: a fold's problem is just row pointers into it, in LIBSVM's fold order. Test rows are
predicted from a second matrix computed with LIBSVM's prediction arithmetic (``k_function``; it
differs from training only for the RBF kernel, so other kernels use one matrix for both).

Training on these matrices with ``-t 4`` gives the same models, predictions and decision values,
bit for bit, as training on the features (tests/cv/test_grid_kernel.py proves it per kernel and svm
type for the grid, tests/cv/test_engine_shared.py for plain cross-validation). :func:`plan_sharing`
says when it pays (a cost model) and fits the memory budget.
"""

from __future__ import annotations

import ctypes
import threading
from ctypes import c_double, c_int, c_long, c_void_p
from dataclasses import dataclass, replace

import numpy as np

from svmeval.cv import _kernel
from svmeval.cv._libsvm import NODE, Problem
from svmeval.cv.bounded_waits import join
from svmeval.cv.schedule import (
    LOOKUP_NS,
    OPENMP_COLUMN_US,
    VALUE_NS,
    VALUE_NS_PER_NONZERO,
    available_cores,
)
from svmeval.params import LINEAR, POLY, PRECOMPUTED, RBF, SIGMOID, SvmParams

_lib = ctypes.CDLL(_kernel.__file__)
_fill = _lib.svmeval_kernel_fill
_fill.restype = None
_fill.argtypes = [
    c_void_p,
    c_long,
    c_int,
    c_int,
    c_double,
    c_double,
    c_void_p,
    c_int,
    c_void_p,
    c_long,
    c_long,
]
_x_square = _lib.svmeval_x_square
_x_square.restype = None
_x_square.argtypes = [c_void_p, c_long, c_void_p]
_value = _lib.svmeval_kernel_value
_value.restype = c_double
_value.argtypes = [c_void_p, c_void_p, c_int, c_int, c_double, c_double, c_int]

_fold_distances = _lib.svmeval_fold_distances
_fold_distances.restype = c_int
_fold_distances.argtypes = [
    c_void_p,
    c_long,
    c_void_p,
    c_long,
    c_void_p,
    c_long,
    c_void_p,
    c_void_p,
    c_void_p,
]
_fold_fill = _lib.svmeval_fold_fill
_fold_fill.restype = c_int
_fold_fill.argtypes = [
    c_long,
    c_void_p,
    c_void_p,
    c_long,
    c_void_p,
    c_long,
    c_void_p,
    c_void_p,
    c_double,
    c_void_p,
]


def fold_distances(rows: Problem, train: np.ndarray, test: np.ndarray) -> tuple:
    """``(dtrain, dpred)`` of a fold (``_kernel.c``'s ``svmeval_fold_distances``): the RBF
    training arithmetic's ``x_square[i] + x_square[j] - 2 dot`` of every two ``train`` rows
    and the prediction arithmetic's squared distance of every ``test`` row to every ``train``
    row, computed from ``rows`` (every row's features)."""
    n, n_train, n_test = rows.n_samples, len(train), len(test)
    x_square = np.empty(n, dtype=np.float64)
    _x_square(rows.rows.ctypes.data, n, x_square.ctypes.data)
    dtrain = np.empty((n_train, n_train), dtype=np.float64)
    dpred = np.empty((n_test, n_train), dtype=np.float64)
    done = _fold_distances(
        rows.rows.ctypes.data,
        n,
        train.ctypes.data,
        n_train,
        test.ctypes.data,
        n_test,
        x_square.ctypes.data,
        dtrain.ctypes.data,
        dpred.ctypes.data,
    )
    if not done:
        raise MemoryError("no memory for a fold's scattered rows")
    return dtrain, dpred


def fold_fill(distances, gamma: float, out: np.ndarray | None = None) -> np.ndarray:
    """One gamma's precomputed-kernel matrix of a fold from its distances
    (:class:`~svmeval.cv.run.preprocessed.FoldDistances`; ``_kernel.c``'s ``svmeval_fold_fill``).

    ``out``: the matrix of another gamma of the same fold (the same rows, the same training
    rows), refilled instead of a new one: the fill writes the same nodes whatever gamma is,
    and no other, so the refilled matrix holds the bits a new one would, its never-written
    nodes zero in both (fresh pages cost more than the fill itself on large folds)."""
    n = distances.rows.n_samples
    if out is None:
        nodes = np.zeros(n * (n + 2), dtype=NODE)
    elif out.dtype != NODE or out.shape != (n * (n + 2),) or not out.flags.c_contiguous:
        raise ValueError(f"a fold's matrix of {n} rows has {n * (n + 2)} contiguous nodes")
    else:
        nodes = out
    train, test = distances.train, distances.test
    by_row = np.argsort(train, kind="stable").astype(np.int64)
    done = _fold_fill(
        n,
        train.ctypes.data,
        by_row.ctypes.data,
        len(train),
        test.ctypes.data,
        len(test),
        distances.dtrain.ctypes.data,
        distances.dpred.ctypes.data,
        gamma,
        nodes.ctypes.data,
    )
    if not done:
        raise MemoryError("no memory for a fold's kernel values")
    return nodes


#: kernels the shared matrix reproduces (everything but an already precomputed kernel)
SHAREABLE = (LINEAR, POLY, RBF, SIGMOID)

#: default memory budget for shared kernel matrices, in MB (--kernel-memory)
DEFAULT_MEMORY_MB = 2048


def kernel_value(
    problem: Problem, i: int, j: int, params: SvmParams, *, prediction: bool = False
) -> float:
    """K(x_i, x_j) with LIBSVM's training (or, ``prediction=True``, k_function's) arithmetic."""
    return _value(
        int(problem.rows[i]),
        int(problem.rows[j]),
        params.kernel_type,
        params.degree,
        params.gamma,
        params.coef0,
        int(prediction),
    )


def matrix_bytes(n: int, kernel_type: int) -> int:
    """Memory of the shared matrices for ``n`` rows: n x (n+2) 16-byte nodes, twice for RBF."""
    return (2 if kernel_type == RBF else 1) * n * (n + 2) * NODE.itemsize


def kernel_key(params: SvmParams) -> tuple:
    """The parameters a kernel matrix depends on (not C, nu, epsilon, ...)."""
    if params.kernel_type == LINEAR:
        return (LINEAR,)
    if params.kernel_type == RBF:
        return (RBF, params.gamma)
    return (params.kernel_type, params.gamma, params.coef0, params.degree)


#: a matrix is filled in ranges of consecutive rows holding about 1/FILL_PARTS of its values
#: each: the units of work that the threads needing the kernel claim, the costliest first
FILL_PARTS = 64


class SharedKernel:
    """The kernel matrices of one problem for one set of kernel parameters.

    ``problem``: the training matrix as a LIBSVM problem over every row, input order (use
    ``problem.subset(rows)`` for a fold); ``test_rows``: node addresses of each row of the
    prediction matrix; :meth:`train_params` turns a cell's parameters into the ``-t 4`` ones.
    A cross-validation on it: ``CVPlan(kernel.cv_problem, kernel.train_params(params), ...)``,
    whose result carries the ``-t 4`` parameters (:meth:`restore` puts the cell's back).

    ``lazy=True``: nothing is computed until a task calls :meth:`ensure`; every task that
    calls it while the matrices are being filled takes blocks of rows too (the threads of the
    tasks that need the kernel compute it together), and :meth:`release` frees the matrices
    once their last task is done.
    """

    def __init__(
        self,
        features: Problem,
        params: SvmParams,
        *,
        threads: int | None = None,
        lazy: bool = False,
        budget=None,
    ):
        if params.kernel_type not in SHAREABLE:
            raise ValueError("only linear, polynomial, RBF and sigmoid kernels can be shared")
        self.params = params
        self.n = features.n_samples
        self._features = features  # the rows the matrices are computed from stay alive
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._blocks: list = []  # (matrix, first row) still to fill
        self._pending = 0  # blocks claimed or to claim, not yet filled
        self._train: np.ndarray | None = None  # the matrices, once started
        self._test: np.ndarray | None = None
        self._x_square: np.ndarray | None = None
        #: the training matrix as a LIBSVM problem and the prediction matrix's row pointers,
        #: once computed (None again once released)
        self.problem: Problem | None = None
        self.test_rows: np.ndarray | None = None
        self._budget = budget  # take(nbytes) before computing, give(nbytes) on release
        #: what :class:`~svmeval.cv.plan.cv_plan.CVPlan` takes as its problem (with
        #: :meth:`train_params`): folds train on the training matrix, predict from the other
        self.cv_problem = _CVProblem(self, features.y)
        if not lazy:
            # the main thread only waits (WAIT_STEP at a time): a Ctrl-C is acted on meanwhile,
            # not when a part of the matrix is done
            main = threading.current_thread() is threading.main_thread()
            threads = max(1, min(threads or available_cores(), self.n or 1))
            helpers = [
                threading.Thread(target=self.ensure, name="svmeval-kernel")
                for _ in range(0 if main else 1, threads)
            ]
            for h in helpers:
                h.start()
            if not main:
                self.ensure()
            for h in helpers:
                join(h)

    def _start(self) -> None:
        """Allocate the matrices and list their blocks of rows (under the lock)."""
        n, params = self.n, self.params
        if self._budget is not None:
            self._budget.take(self.nbytes)
        x = self._features.rows  # uintp addresses: a C array of svm_node pointers
        self._x_square = None
        if params.kernel_type == RBF:
            self._x_square = np.empty(n, dtype=np.float64)
            _x_square(x.ctypes.data, n, self._x_square.ctypes.data)
        new = np.empty if self._budget is None else self._budget.array
        self._train = new(n * (n + 2), NODE)
        self._test = new(n * (n + 2), NODE) if params.kernel_type == RBF else self._train
        matrices = [self._train] + ([self._test] if params.kernel_type == RBF else [])
        self._blocks = [(m, rows) for rows in fill_ranges(n, FILL_PARTS) for m in matrices]
        self._blocks.reverse()  # popped from the end: the costliest (first rows) first
        self._pending = len(self._blocks)

    def ensure(self) -> None:
        """Make sure the matrices are computed: fill blocks of rows while some are left, then
        wait for the ones other threads are filling."""
        from svmeval.cv.schedule import check_cancelled

        if self._ready.is_set():
            return
        while True:
            with self._lock:
                if self._train is None:
                    self._start()
                if not self._blocks:
                    break
                nodes, rows = self._blocks.pop()
            self._fill(nodes, rows, prediction=nodes is not self._train)
            with self._lock:
                self._pending -= 1
                if self._pending == 0:
                    self._finish()
        while not self._ready.wait(0.05):
            check_cancelled()

    def computed(self) -> tuple[Problem, np.ndarray]:
        """``(problem, test_rows)`` once the matrices are computed (:meth:`ensure`)."""
        self.ensure()
        problem, test_rows = self.problem, self.test_rows
        if problem is None or test_rows is None:
            raise RuntimeError("the shared kernel's matrices were released")
        return problem, test_rows

    def _fill(self, nodes, rows: tuple, *, prediction: bool) -> None:
        p = self.params
        sq = 0 if self._x_square is None or prediction else self._x_square.ctypes.data
        _fill(
            self._features.rows.ctypes.data,
            self.n,
            p.kernel_type,
            p.degree,
            p.gamma,
            p.coef0,
            sq,
            int(prediction),
            nodes.ctypes.data,
            rows[0],
            rows[1],
        )

    def _finish(self) -> None:
        train, test = self._train, self._test
        if train is None or test is None:  # allocated by _start, released only after use
            raise RuntimeError("the shared kernel's matrices were released before use")
        self.problem = Problem(self._features.y, self._rows(train), train)
        self.test_rows = self._rows(test)
        self._ready.set()

    def release(self) -> None:
        """Free the matrices (every task that used them is done)."""
        with self._lock:
            arrays = (self._train,) + ((self._test,) if self._test is not self._train else ())
            self._train = self._test = self.problem = self.test_rows = None
        if arrays[0] is not None and self._budget is not None:
            self._budget.give(self.nbytes, arrays)

    def _rows(self, nodes) -> np.ndarray:
        width = (self.n + 2) * NODE.itemsize
        return np.uintp(nodes.ctypes.data) + np.arange(self.n, dtype=np.uintp) * np.uintp(width)

    @staticmethod
    def train_params(params: SvmParams) -> SvmParams:
        """A cell's parameters with LIBSVM's precomputed kernel."""
        return replace(params, kernel_type=PRECOMPUTED)

    @staticmethod
    def restore(result, params: SvmParams):
        """A CV result of the precomputed kernel, with the cell's own parameters."""
        return replace(result, params=params)

    @property
    def nbytes(self) -> int:
        return matrix_bytes(self.n, self.params.kernel_type)


def fill_ranges(n: int, parts: int) -> list:
    """Ranges of consecutive rows (first, last) of an n-row triangle (row i holds n - i values),
    each about 1/parts of the values, in row order."""
    ranges, first, total = [], 0, n * (n + 1) / 2
    target = max(1.0, total / max(1, parts))
    while first < n:
        last, values = first, 0.0
        while last < n and (values < target or last == first):
            values += n - last
            last += 1
        ranges.append((first, last))
        first = last
    return ranges


class _CVProblem:
    """A problem as CVPlan uses one: ``y``, ``subset(rows)`` to train a fold (rows of the
    training matrix) and ``rows`` to predict its test rows (rows of the prediction matrix);
    a lazy kernel is computed on first use."""

    def __init__(self, kernel: SharedKernel, y: np.ndarray):
        self._kernel = kernel
        self.y = y

    @property
    def n_samples(self) -> int:
        return len(self.y)

    @property
    def rows(self) -> np.ndarray:
        return self._kernel.computed()[1]

    def subset(self, order: np.ndarray, y: np.ndarray | None = None) -> Problem:
        return self._kernel.computed()[0].subset(order, y)


@dataclass(frozen=True)
class SharingPlan:
    """Whether a grid or a cross-validation shares its kernels, and why (for --help-style
    explanations and tests)."""

    share: bool
    reason: str
    matrix_mb: float = 0.0


# Cost model, in units of one kernel-value lookup in a precomputed matrix (two dependent loads).
# Measured with scripts/bench_grid.py on two cores: a feature-space kernel value costs about
# one lookup plus a fraction per stored feature of the two rows (the sparse merge) and exp.
_EVAL_BASE = 1.0
_EVAL_PER_NONZERO = 0.12


def value_cost(per_row: float) -> float:
    """A feature-space kernel value of rows with ``per_row`` stored features each, in lookups."""
    return _EVAL_BASE + _EVAL_PER_NONZERO * 2 * per_row


#: the matrices' values against LIBSVM's own (``_kernel.c`` skips the sparse merge): a dot
#: with row i scattered, and RBF's prediction sum over every index on dense enough rows.
#: Measured per value on one thread: a9a 27 ns against the merge's 112 (0.24), mushrooms 59
#: against 132 (0.45), dna 130 and 230 (dense prediction sum) against 700.
_FILL_SCATTERED, _FILL_DENSE_SUM = 0.45, 0.35
#: the prediction sum runs over every index where that is at most this many times a row's
#: stored features (plus one): DENSE_FACTOR in _kernel.c
_DENSE_FACTOR = 4


def fill_cost(per_row: float, n_features: int, kernel_type: int) -> float:
    """Computing one entry of each shared matrix (two for RBF), in :func:`value_cost`'s units."""
    cost = _FILL_SCATTERED * value_cost(per_row)
    if kernel_type == RBF:
        dense = n_features <= _DENSE_FACTOR * (per_row + 1)
        cost += (_FILL_DENSE_SUM if dense else 1.0) * value_cost(per_row)
    return cost


#: the fraction of a fold's training rows whose kernel column LIBSVM computes (and of its rows
#: that become support vectors): a cautious figure, for it varies with the data and with C.
#: At C = 1 it is about 0.35 on a9a and svmguide1 but 0.06 on mushrooms, an easy problem with
#: few support vectors; a small C (many support vectors at the bound) raises it. Sharing gains
#: at most 1.4x on one 5-fold RBF cross-validation and can lose far more, so the model assumes
#: few columns. Measured with it (two cores, wall seconds on the features / on a shared
#: kernel), it shares none of heart_scale -v 5 (0.014 / 0.015), a9a's first 2,000 rows -v 5
#: (0.48 / 0.49), svmguide1 -v 5 (1.2 / 1.4), mushrooms -v 5 (2.3 / 6.7) and -v 10 (4.0 /
#: 7.6); it shares a9a's 2,000 rows -v 5 --repeat 3 (1.4 / 0.7), dna -v 5 --repeat 3 (6.8 /
#: 1.6), grids of three small C on a9a's 2,000 rows (3 gammas: 6.0 / 2.5) and mushrooms (one
#: gamma: 16.5 / 10.7), and, as before, every default grid of scripts/bench_grid.py. It gives
#: up a9a's 2,000 rows -v 10 (1.06 / 0.57) and svmguide1's grid -log2c -5,-1,2 -log2g -1,-5,-2
#: (8.9 / 7.5), and still errs on easy problems: mushrooms -t 0 -v 10 is shared (estimated
#: 1.6x, measured 1.6 / 3.4). What the prior cannot know a run measures: a cross-validation on
#: the features switches to a shared kernel after its first training where the support
#: vectors say it pays (:mod:`svmeval.cv.run.probe`). These figures predate the matrices' faster
#: fill (:func:`fill_cost`), which this prior leaves out: a cautious side.
_COLUMNS_FRACTION = 0.12


def plan_sharing(
    n_rows: int,
    nonzeros: int,
    params: SvmParams,
    trainings_per_kernel: int,
    n_folds: int,
    *,
    memory_mb: float = DEFAULT_MEMORY_MB,
    probability: bool = False,
    n_features: int | None = None,
) -> SharingPlan:
    """Decide whether computing each kernel once pays for ``trainings_per_kernel`` trainings
    (cells x folds that share one kernel in a grid, repetitions x folds in a cross-validation)
    on ``n_rows`` rows with ``nonzeros`` stored features.

    Sharing replaces every feature-space kernel value (a sparse merge of two rows, and exp for
    RBF) by a lookup, at the price of computing the n x n matrix (two for RBF) up front. It pays
    when the trainings would compute many more values than the matrix holds, and when each value
    costs clearly more than a lookup (many nonzeros per row).
    """
    if params.kernel_type not in SHAREABLE:
        return SharingPlan(False, "the kernel is already precomputed")
    if probability:
        return SharingPlan(False, "-b 1: folds train one at a time, drawing from rand()")
    if n_rows < 2:
        return SharingPlan(False, "too few rows")
    mb = matrix_bytes(n_rows, params.kernel_type) / 2**20
    if mb > memory_mb:
        return SharingPlan(
            False, f"the kernel needs {mb:.0f} MB, over the {memory_mb:g} MB budget", mb
        )
    per_row = nonzeros / n_rows
    if n_features and not lookup_pays(n_rows, per_row, n_features, params.kernel_type):
        return SharingPlan(
            False,
            "on so few features a kernel value costs about as much as "
            "looking it up in a matrix this size",
            mb,
        )
    eval_cost = value_cost(per_row)
    n_train = n_rows * (n_folds - 1) / n_folds
    # LIBSVM's own kernel: each training computes some columns of its Q matrix, and each fold's
    # test rows are predicted against the support vectors (both feature-space evaluations)
    own = (
        trainings_per_kernel
        * (_COLUMNS_FRACTION * n_train * n_train + _COLUMNS_FRACTION * n_train * n_rows / n_folds)
        * eval_cost
    )
    # shared: the matrices (a triangle each), then every one of those values is a lookup
    matrices = 2 if params.kernel_type == RBF else 1
    shared = matrices * n_rows * n_rows / 2 * eval_cost + own / eval_cost
    if shared < own:
        return SharingPlan(True, f"estimated {own / shared:.1f}x fewer kernel operations", mb)
    return SharingPlan(False, "computing each kernel value stays as cheap as looking it up", mb)


# A lookup in a shared matrix is two dependent loads (row j's serial number, then K(i, j)), a
# cache miss each once the matrix outgrows the caches; a feature-space value is a merge of two
# rows (a step per feature of a dense row, about two per stored feature of a sparse one) and,
# for RBF and sigmoid, exp or tanh. Profiled on the default grid (two cores): on dense rows of
# 4-13 features (svmguide1, breast-cancer_scale, an 8-feature 768-row set) the lookups saved
# next to nothing, while the matrices cost their computation and fresh memory; on sparse rows
# (a9a: 14 stored of 123, dna: 46 of 180) a lookup is 3-11x cheaper (measured per training).
_LOOKUP_NS_L2, _LOOKUP_NS_CACHED, _LOOKUP_NS_MEMORY = 5.0, 20.0, 40.0
_STEP_NS_DENSE, _STEP_NS_SPARSE, _TRANSCENDENTAL_NS = 1.5, 2.5, 15.0
#: sharing needs a lookup at least this many times cheaper than a value
_LOOKUP_GAIN = 2.0


def lookup_pays(n_rows: int, per_row: float, n_features: int, kernel_type: int) -> bool:
    """Whether a lookup in the shared matrix is clearly cheaper than a feature-space value."""
    dense = per_row >= 0.5 * max(1, n_features)
    steps = per_row * (1 if dense else 2)
    value = (
        2.0
        + steps * (_STEP_NS_DENSE if dense else _STEP_NS_SPARSE)
        + (_TRANSCENDENTAL_NS if kernel_type in (RBF, SIGMOID) else 0.0)
    )
    size = n_rows * (n_rows + 2) * NODE.itemsize
    lookup = (
        _LOOKUP_NS_L2
        if size <= 2 * 2**20
        else _LOOKUP_NS_CACHED
        if size <= 32 * 2**20
        else _LOOKUP_NS_MEMORY
    )
    return value >= _LOOKUP_GAIN * lookup


#: the kernel's cost model for OpenMP threads (svmeval.cv.schedule.column_threads)
_LOOKUP_NS, _VALUE_NS, _VALUE_NS_PER_NONZERO = LOOKUP_NS, VALUE_NS, VALUE_NS_PER_NONZERO
_OPENMP_COLUMN_US = OPENMP_COLUMN_US

"""The one place that knows LIBSVM (the official bindings' shared library) and ctypes.

Problems are built over numpy memory: one array of ``svm_node`` records for the whole data set
(each row's features followed by its ``index = -1`` terminator) and an array of row pointers into
it. A fold's training problem is a fancy-indexed copy of the pointer array, so no feature is
copied or touched from Python. Every C entry point is declared here with ``c_void_p`` arguments on
function objects of our own, so the bindings' module-level prototypes are left as they are.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_void_p

import numpy as np

# LIBSVM's OpenMP loops end at a barrier per kernel row (and per predicted row). GOMP's default
# spins about 300000 times there, which collapses when another process takes the other core;
# passive waiting (no spin) is 5x slower on problems with many small loops (letter: 26 classes).
# A short spin before sleeping is as fast as either where it is fast (scripts/bench_cv.py).
# libgomp reads this once, when the bindings load it; a user's own setting wins.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = "10000"  # schedule.wide_tail() reads it too

from libsvm import svm as _svm  # noqa: E402  the official bindings: the only libsvm import

from ..io import _reader  # noqa: E402  svmeval's C extension, for its no-op print function
from ..errors import ParameterError, SvmevalError
from ..io.output import atomic_path
from ..params import C_SVC, NU_SVC, SvmParams

_lib = _svm.libsvm

#: one ``struct svm_node {int index; double value;}``, padded as the C compiler pads it
NODE = np.dtype([("index", np.int32), ("value", np.float64)], align=True)
if NODE.itemsize != ctypes.sizeof(_svm.svm_node):  # pragma: no cover - platform guard
    raise ImportError("svm_node layout differs from numpy's view of it")


def _fn(name: str, restype, argtypes):
    f = _lib[name]  # a fresh function object: the bindings' own prototypes stay untouched
    f.restype = restype
    f.argtypes = argtypes
    return f


_train = _fn("svm_train", c_void_p, [c_void_p, c_void_p])
_check_parameter = _fn("svm_check_parameter", c_char_p, [c_void_p, c_void_p])
_predict_values = _fn("svm_predict_values", c_double, [c_void_p, c_void_p, c_void_p])
_predict_probability = _fn("svm_predict_probability", c_double, [c_void_p, c_void_p, c_void_p])
_get_nr_class = _fn("svm_get_nr_class", c_int, [c_void_p])
_get_labels = _fn("svm_get_labels", None, [c_void_p, c_void_p])
_save_model = _fn("svm_save_model", c_int, [c_char_p, c_void_p])
_free_model = _fn("svm_free_and_destroy_model", None, [c_void_p])
_set_print = _fn("svm_set_print_string_function", None, [_svm.PRINT_STRING_FUN])

# The C runtime LIBSVM draws its folds (and -b 1's inner folds) from: the process's rand().
_libc = ctypes.CDLL(None)
_srand = _libc.srand
_srand.argtypes = [ctypes.c_uint]
_srand.restype = None
_rand = _libc.rand
_rand.argtypes = []
_rand.restype = c_int


def srand(seed: int) -> None:
    """Seed C ``rand()`` as svm-train's process starts (``srand(1)`` is its implicit state)."""
    _srand(seed)


def rand() -> int:
    """One draw of C ``rand()``, the generator LIBSVM's fold assignment uses."""
    return _rand()


# --- OpenMP threads of LIBSVM's kernel loops ----------------------------------------------
try:
    _gomp = ctypes.CDLL("libgomp.so.1")
    _omp_set_num_threads = _gomp.omp_set_num_threads
    _omp_set_num_threads.argtypes = [c_int]
    _omp_set_num_threads.restype = None
except (OSError, AttributeError):  # pragma: no cover - a build without OpenMP
    _omp_set_num_threads = None


def set_omp_threads(n: int) -> None:
    """Set the OpenMP threads LIBSVM uses in the calling thread (no-op without OpenMP)."""
    if _omp_set_num_threads is not None:
        _omp_set_num_threads(max(1, int(n)))


# --- LIBSVM's messages ---------------------------------------------------------------------
def _to_stderr(message: bytes) -> None:
    sys.stderr.write(message.decode("utf-8", "replace"))
    sys.stderr.flush()


_PRINT_STDERR = _svm.PRINT_STRING_FUN(_to_stderr)
_PRINT_NULL = ctypes.cast(ctypes.CDLL(_reader.__file__).svmeval_print_nothing, _svm.PRINT_STRING_FUN)


def set_quiet(quiet: bool) -> None:
    """LIBSVM's training messages: to stderr, or nowhere with -q. Never to stdout."""
    _set_print(_PRINT_NULL if quiet else _PRINT_STDERR)


set_quiet(False)  # LIBSVM's default writes to stdout, where only the report belongs


# --- problems and parameters ---------------------------------------------------------------
class Problem:
    """A LIBSVM ``svm_problem`` over numpy arrays (kept alive as long as the problem is).

    ``rows`` holds each sample's address of its first ``svm_node``; :meth:`subset` gives the
    problem of some rows, in the order given, sharing the node memory.
    """

    def __init__(self, y: np.ndarray, rows: np.ndarray, nodes: np.ndarray):
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.rows = np.ascontiguousarray(rows, dtype=np.uintp)
        self._nodes = nodes
        self._struct = _svm.svm_problem.__new__(_svm.svm_problem)
        self._struct.l = len(self.y)
        self._struct.y = self.y.ctypes.data_as(POINTER(c_double))
        self._struct.x = ctypes.cast(self.rows.ctypes.data, POINTER(POINTER(_svm.svm_node)))

    @classmethod
    def from_csr(cls, y, indptr, indices, values) -> "Problem":
        """Lay out CSR arrays as LIBSVM's node rows, each closed by ``index = -1``."""
        indptr = np.asarray(indptr, dtype=np.int64)
        n = len(indptr) - 1
        nodes = np.empty(len(indices) + n, dtype=NODE)
        # row i's terminator sits after its features, shifted by the i terminators before it;
        # a one-byte mask places the features without a per-feature index array
        ends = indptr[1:] + np.arange(n, dtype=np.int64)
        is_end = np.zeros(len(nodes), dtype=bool)
        is_end[ends] = True
        index, value = nodes["index"], nodes["value"]
        index[is_end] = -1
        value[is_end] = 0.0
        np.logical_not(is_end, out=is_end)
        index[is_end] = indices
        value[is_end] = values
        del is_end
        starts = indptr[:-1] + np.arange(n, dtype=np.int64)
        rows = np.uintp(nodes.ctypes.data) + starts.astype(np.uintp) * np.uintp(NODE.itemsize)
        return cls(y, rows, nodes)

    def subset(self, order: np.ndarray, y: np.ndarray | None = None) -> "Problem":
        """The problem made of rows ``order`` (in that order), optionally with other labels."""
        return Problem(self.y[order] if y is None else y, self.rows[order], self._nodes)

    @property
    def n_samples(self) -> int:
        return len(self.y)

    @property
    def address(self) -> int:
        return ctypes.addressof(self._struct)


def make_problem(dataset, y: np.ndarray | None = None) -> Problem:
    """The LIBSVM problem of a :class:`~svmeval.io.data.Dataset` (labels ``y`` if given)."""
    labels = dataset.y if y is None else y
    return Problem.from_csr(labels, dataset.indptr, dataset.indices, dataset.values)


class Parameter:
    """A LIBSVM ``svm_parameter`` filled from :class:`SvmParams` (gamma already resolved)."""

    def __init__(self, params: SvmParams):
        p = _svm.svm_parameter.__new__(_svm.svm_parameter)
        for name in ("svm_type", "kernel_type", "degree", "gamma", "coef0", "cache_size",
                     "eps", "C", "nu", "p", "shrinking", "probability"):
            setattr(p, name, getattr(params, name))
        n = len(params.weight)
        self._labels = (c_int * n)(*[label for label, _ in params.weight])
        self._weights = (c_double * n)(*[w for _, w in params.weight])
        p.nr_weight = n
        p.weight_label = ctypes.cast(self._labels, POINTER(c_int))
        p.weight = ctypes.cast(self._weights, POINTER(c_double))
        self._struct = p
        self.params = params

    @property
    def address(self) -> int:
        return ctypes.addressof(self._struct)


def check_parameter(problem: Problem, params: SvmParams) -> None:
    """Raise :class:`ParameterError` with LIBSVM's own message if svm_check_parameter objects."""
    param = Parameter(params)  # kept alive for the call
    message = _check_parameter(problem.address, param.address)
    if message:
        raise ParameterError(message.decode())


# --- models ---------------------------------------------------------------------------------
class Model:
    """A trained LIBSVM model; frees itself. Holds its problem, whose rows its SVs point into."""

    def __init__(self, problem: Problem, params: SvmParams):
        self._problem = problem
        self._param = Parameter(params)
        self.params = params
        self._ptr = _train(problem.address, self._param.address)
        if not self._ptr:  # pragma: no cover - LIBSVM returns NULL only on allocation failure
            raise SvmevalError("LIBSVM could not train a model (out of memory?)")
        self.nr_class = _get_nr_class(self._ptr)
        labels = (c_int * max(self.nr_class, 1))()
        _get_labels(self._ptr, labels)
        #: the model's class labels in LIBSVM's order (classification models only)
        self.labels = np.array(labels[: self.nr_class], dtype=np.float64)

    def __del__(self):
        ptr = getattr(self, "_ptr", None)
        if ptr:
            _free_model(byref(c_void_p(ptr)))
            self._ptr = None

    @property
    def n_decision_values(self) -> int:
        if self.params.svm_type in (C_SVC, NU_SVC):
            return self.nr_class * (self.nr_class - 1) // 2
        return 1

    def predict(self, rows: np.ndarray, *, probability: bool = False):
        """Predict rows (node addresses) as svm_predict does, keeping the decision values.

        Returns ``(labels, decision_values, probabilities)``; probabilities (in the model's
        label order) only with ``probability=True`` for C-SVC / nu-SVC, where the label is
        svm_predict_probability's, as in LIBSVM's cross-validation.
        """
        n = len(rows)
        pred = np.empty(n, dtype=np.float64)
        dec = np.empty((n, self.n_decision_values), dtype=np.float64)
        probs = np.empty((n, self.nr_class), dtype=np.float64) if probability else None
        model = self._ptr
        for i, row in enumerate(rows.tolist()):
            label = _predict_values(model, row, dec[i].ctypes.data)
            if probability:
                label = _predict_probability(model, row, probs[i].ctypes.data)
            pred[i] = label
        return pred, dec, probs

    def predict_parallel(self, rows: np.ndarray, threads: int, *, probability: bool = False):
        """:meth:`predict` on one OpenMP thread, the rows split among ``threads`` threads
        (each row's result is the same whichever thread predicts it)."""
        if threads <= 1 or len(rows) < 2 * threads:
            set_omp_threads(1)
            return self.predict(rows, probability=probability)
        chunks = np.array_split(np.arange(len(rows)), threads)
        parts = [None] * len(chunks)

        def work(k):
            set_omp_threads(1)
            parts[k] = self.predict(rows[chunks[k]], probability=probability)

        workers = [threading.Thread(target=work, args=(k,)) for k in range(1, len(chunks))]
        for t in workers:
            t.start()
        work(0)
        for t in workers:
            t.join()
        pred = np.concatenate([p[0] for p in parts])
        dec = np.concatenate([p[1] for p in parts])
        probs = np.concatenate([p[2] for p in parts]) if probability else None
        return pred, dec, probs

    def save(self, path: str) -> None:
        """Write the model as svm-train does, atomically (a temporary file, then rename)."""
        with atomic_path(path, "the model file") as tmp:
            if _save_model(os.fsencode(tmp), self._ptr) != 0:
                raise SvmevalError(f"{path}: cannot save model file")

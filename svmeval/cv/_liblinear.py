"""LIBLINEAR's C library through ctypes: the library the official bindings
(``liblinear-official``) load, its structures, its entry points, and problems over numpy memory.

Where the file is found, C ``srand``/``rand`` and the print hook that prints nothing are the
core's (:mod:`svmeval.cv.c_library`), shared with LIBSVM: both libraries draw from the one C
``rand()``. The bindings' Python module is not imported (it imports SciPy and numba when
loaded); the file it loads is loaded here, once. C's global state (``rand()``, the print hook)
is held by one lock for a whole run (:data:`STATE_LOCK`).
"""

from __future__ import annotations

import ctypes
import threading
from ctypes import POINTER, c_char_p, c_double, c_int, c_void_p
from types import SimpleNamespace

import numpy as np

from svmeval.cv import c_library
from svmeval.errors import SvmevalError

__all__ = [
    "NODE",
    "STATE_LOCK",
    "LinearProblem",
    "Model",
    "Parameter",
    "make_parameter",
    "library",
    "missing_message",
]

#: one ``struct feature_node {int index; double value;}``, padded as the C compiler pads it
NODE = np.dtype([("index", np.int32), ("value", np.float64)], align=True)

#: C's global state (rand(), LIBLINEAR's print hook): held for a whole run
STATE_LOCK = threading.RLock()
_LOAD_LOCK = threading.Lock()
_C: list = []


def missing_message() -> str:
    """The line that says LIBLINEAR's bindings are missing and how to install them."""
    from svmeval._extras import install_command

    return (
        "LIBLINEAR's official bindings (liblinear-official) are not installed: "
        f"{install_command('linear')}"
    )


class Problem(ctypes.Structure):
    """``struct problem {int l, n; double *y; struct feature_node **x; double bias;}``"""

    _fields_ = [
        ("l", c_int),
        ("n", c_int),
        ("y", POINTER(c_double)),
        ("x", c_void_p),
        ("bias", c_double),
    ]


class Parameter(ctypes.Structure):
    """``struct parameter``, in LIBLINEAR 2.50's order."""

    _fields_ = [
        ("solver_type", c_int),
        ("eps", c_double),
        ("C", c_double),
        ("nr_weight", c_int),
        ("weight_label", POINTER(c_int)),
        ("weight", POINTER(c_double)),
        ("p", c_double),
        ("nu", c_double),
        ("init_sol", POINTER(c_double)),
        ("regularize_bias", c_int),
        ("w_recalc", ctypes.c_bool),
    ]


class Model(ctypes.Structure):
    """``struct model``, in LIBLINEAR 2.50's order (read for its classes and weights)."""

    _fields_ = [
        ("param", Parameter),
        ("nr_class", c_int),
        ("nr_feature", c_int),
        ("w", POINTER(c_double)),
        ("label", POINTER(c_int)),
        ("bias", c_double),
        ("rho", c_double),
    ]


def make_parameter(params) -> tuple[Parameter, tuple]:
    """``(struct, kept)``: the ``struct parameter`` of a
    :class:`~svmeval.cv.run.linear.LinearParams` and the weight arrays it points into."""
    n = len(params.weight)
    labels = (c_int * n)(*[label for label, _ in params.weight])
    factors = (c_double * n)(*[w for _, w in params.weight])
    struct = Parameter(
        solver_type=params.solver_type,
        eps=params.resolved_eps,
        C=params.C,
        nr_weight=n,
        weight_label=ctypes.cast(labels, POINTER(c_int)),
        weight=ctypes.cast(factors, POINTER(c_double)),
        p=params.p,
        nu=params.nu,
        init_sol=None,
        regularize_bias=params.regularize_bias,
        w_recalc=False,
    )
    return struct, (labels, factors)


def _load() -> SimpleNamespace:
    path = c_library.library_file("liblinear")
    if path is None:
        raise SvmevalError(missing_message())
    lib = ctypes.CDLL(path)

    def fn(name: str, restype, argtypes):
        f = lib[name]  # a fresh function object: the bindings' prototypes stay untouched
        f.restype = restype
        f.argtypes = argtypes
        return f

    from svmeval.cv import _kernel  # svmeval's C loop over many rows' predict_values

    rows = ctypes.CDLL(_kernel.__file__).svmeval_predict_rows
    rows.restype = None
    rows.argtypes = [c_void_p, c_void_p, c_void_p, ctypes.c_long, c_void_p, ctypes.c_long, c_void_p]
    shuffle = ctypes.CDLL(_kernel.__file__).svmeval_shuffle  # the folds' shuffle, rand() inside
    shuffle.restype, shuffle.argtypes = None, [c_void_p, ctypes.c_int64]
    runtime = c_library.c_runtime()
    c = SimpleNamespace(
        lib=lib,
        path=path,
        check_parameter=fn("check_parameter", c_char_p, [c_void_p, c_void_p]),
        cross_validation=fn("cross_validation", None, [c_void_p, c_void_p, c_int, c_void_p]),
        find_parameters=fn(
            "find_parameters",
            None,
            [c_void_p, c_void_p, c_int, c_double, c_double, c_void_p, c_void_p, c_void_p],
        ),
        set_print=fn("set_print_string_function", None, [c_library.PRINT]),
        train=fn("train", POINTER(Model), [c_void_p, c_void_p]),
        predict=fn("predict", c_double, [POINTER(Model), c_void_p]),
        predict_values=fn("predict_values", c_double, [POINTER(Model), c_void_p, c_void_p]),
        free_model=fn("free_and_destroy_model", None, [POINTER(POINTER(Model))]),
        predict_rows=rows,
        predict_values_address=ctypes.cast(lib["predict_values"], c_void_p).value,
        shuffle=lambda index: shuffle(index.ctypes.data, len(index)) if len(index) else None,
        srand=runtime.srand,
        rand=runtime.rand,
        print_null=c_library.print_nothing(),
        print_stderr=c_library.PRINT(_to_stderr),
    )
    try:
        c.version = int(c_int.in_dll(lib, "liblinear_version").value)
    except (AttributeError, ValueError):  # pragma: no cover - a build without the symbol
        c.version = 0
    return c


def _to_stderr(message: bytes) -> None:
    c_library.write_message(message)


def library() -> SimpleNamespace:
    """LIBLINEAR's entry points, C ``srand``/``rand`` and the print hooks (loaded on first
    use); :class:`~svmeval.errors.SvmevalError` with how to install it where it is missing."""
    if not _C:
        with _LOAD_LOCK:
            if not _C:
                _C.append(_load())
    return _C[0]


class LinearProblem:
    """A LIBLINEAR ``struct problem`` over numpy arrays (kept alive as long as it is): each
    row's features, then the bias feature (index ``n``, value ``bias``) where ``bias >= 0``,
    then the ``index = -1`` terminator, as LIBLINEAR's ``train`` lays out a file it reads."""

    def __init__(self, dataset, bias: float):
        indptr = np.asarray(dataset.indptr, dtype=np.int64)
        l = len(indptr) - 1
        extra = 2 if bias >= 0 else 1
        n = dataset.n_features + 1 if bias >= 0 else dataset.n_features
        nodes = np.zeros(len(dataset.indices) + extra * l, dtype=NODE)
        counts = np.diff(indptr)
        starts = indptr[:-1] + extra * np.arange(l, dtype=np.int64)
        owner = np.repeat(np.arange(l, dtype=np.int64), counts)
        place = np.arange(len(dataset.indices), dtype=np.int64) + extra * owner
        nodes["index"][place] = dataset.indices
        nodes["value"][place] = dataset.values
        ends = starts + counts
        if bias >= 0:
            nodes["index"][ends] = n
            nodes["value"][ends] = bias
            ends = ends + 1
        nodes["index"][ends] = -1
        self.y = np.ascontiguousarray(dataset.y, dtype=np.float64)
        self.rows = np.uintp(nodes.ctypes.data) + starts.astype(np.uintp) * np.uintp(NODE.itemsize)
        self._nodes = nodes
        self.struct = Problem(
            l, n, self.y.ctypes.data_as(POINTER(c_double)), self.rows.ctypes.data, float(bias)
        )

    @property
    def n_samples(self) -> int:
        return len(self.y)

    address = property(lambda self: ctypes.addressof(self.struct))

    def subset(self, order: np.ndarray) -> SubProblem:
        """The problem of rows ``order``, in that order, sharing this one's nodes."""
        return SubProblem(self, order)


class SubProblem:
    """Some rows of a :class:`LinearProblem` as a ``struct problem`` of their own."""

    def __init__(self, whole: LinearProblem, order: np.ndarray):
        self.whole = whole  # keeps the nodes alive
        self.y = np.ascontiguousarray(whole.y[order])
        self.rows = np.ascontiguousarray(whole.rows[order])
        self.struct = Problem(
            len(order),
            whole.struct.n,
            self.y.ctypes.data_as(POINTER(c_double)),
            self.rows.ctypes.data,
            whole.struct.bias,
        )

    address = property(lambda self: ctypes.addressof(self.struct))

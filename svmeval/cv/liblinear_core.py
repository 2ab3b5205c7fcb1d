"""LIBLINEAR's C library through ctypes, without numpy: the one core under svmeval-linear's
full path (:mod:`svmeval.cv._liblinear`, problems over numpy memory) and its light path
(:mod:`svmeval.cv.run.linear_light`).

Here, once: the library the official bindings (``liblinear-official``) load, found by the
LIBSVM core's :func:`~svmeval.cv.c_library.library_file` and loaded once; its structures
(``problem``, ``parameter``, ``model``), its C entry points declared on function objects of
svmeval's own, C ``srand``/``rand`` and the print hooks (the core's: both libraries draw from
the one C ``rand()``), and the lock C's global state is held by for a whole run
(:data:`STATE_LOCK`). The bindings' Python module is not imported (it imports SciPy and numba
when loaded). Standard library, ctypes and svmeval's small C extensions only.
"""

from __future__ import annotations

import ctypes
import threading
from ctypes import POINTER, c_char_p, c_double, c_int, c_void_p
from types import SimpleNamespace

from svmeval.cv import c_library
from svmeval.errors import SvmevalError

__all__ = [
    "STATE_LOCK",
    "THREADED_SOLVERS",
    "Model",
    "Parameter",
    "Problem",
    "library",
    "make_parameter",
    "missing_message",
    "parameter",
]

#: the solvers whose training draws nothing from C ``rand()`` (the primal Newton solvers): their
#: folds may train side by side (:mod:`svmeval.cv.run.linear_threads`)
THREADED_SOLVERS = (0, 2, 11)

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


def parameter(fields: dict, weight=()) -> tuple[Parameter, tuple]:
    """``(struct, kept)``: a ``struct parameter`` with ``fields`` (``solver_type``, ``eps``,
    ``C``, ``p``, ``nu``, ``regularize_bias``) and the ``(label, factor)`` pairs of ``weight``;
    ``kept`` holds the weight arrays the struct points into (keep it alive as long as the
    struct)."""
    n = len(weight)
    labels = (c_int * n)(*[label for label, _ in weight])
    factors = (c_double * n)(*[w for _, w in weight])
    struct = Parameter(
        **fields,
        nr_weight=n,
        weight_label=ctypes.cast(labels, POINTER(c_int)),
        weight=ctypes.cast(factors, POINTER(c_double)),
        init_sol=None,
        w_recalc=False,
    )
    return struct, (labels, factors)


def make_parameter(params) -> tuple[Parameter, tuple]:
    """``(struct, kept)``: the ``struct parameter`` of a
    :class:`~svmeval.cv.run.linear.LinearParams` and the weight arrays it points into."""
    fields = {
        "solver_type": params.solver_type,
        "eps": params.resolved_eps,
        "C": params.C,
        "p": params.p,
        "nu": params.nu,
        "regularize_bias": params.regularize_bias,
    }
    return parameter(fields, params.weight)


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

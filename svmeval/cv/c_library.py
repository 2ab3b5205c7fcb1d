"""LIBSVM's C library through ctypes, without numpy: the one core under the engine
(:mod:`svmeval.cv._libsvm`) and the drop-in's light mode (:mod:`svmeval.cv.run.light`).

Here, once: where LIBSVM's shared library is (the file the official bindings load), its
structures (``svm_node``, ``svm_problem``, ``svm_parameter``) and print-hook type, its C entry
points declared on function objects of svmeval's own, C ``srand``/``rand``, the print hook that
prints nothing (a C function of svmeval's extension), and the writer of LIBSVM's messages on
standard error (one block at a time, never on a progress bar's line, nothing once a Ctrl-C was
seen). Standard library, ctypes and svmeval's small C extension only: the light mode imports it
at every drop-in call.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import POINTER, c_char_p, c_double, c_int, c_void_p
from types import SimpleNamespace

__all__ = [
    "PRINT",
    "Node",
    "Parameter",
    "Problem",
    "c_runtime",
    "entry_points",
    "library_file",
    "open_library",
    "parameter",
    "print_nothing",
    "rows_nodes",
    "write_message",
]


class Node(ctypes.Structure):
    """``struct svm_node {int index; double value;}``"""

    _fields_ = [("index", c_int), ("value", c_double)]


class Problem(ctypes.Structure):
    """``struct svm_problem {int l; double *y; struct svm_node **x;}``"""

    _fields_ = [("l", c_int), ("y", POINTER(c_double)), ("x", POINTER(POINTER(Node)))]


class Parameter(ctypes.Structure):
    """``struct svm_parameter``, in LIBSVM's order."""

    _fields_ = [
        ("svm_type", c_int),
        ("kernel_type", c_int),
        ("degree", c_int),
        ("gamma", c_double),
        ("coef0", c_double),
        ("cache_size", c_double),
        ("eps", c_double),
        ("C", c_double),
        ("nr_weight", c_int),
        ("weight_label", POINTER(c_int)),
        ("weight", POINTER(c_double)),
        ("nu", c_double),
        ("p", c_double),
        ("shrinking", c_int),
        ("probability", c_int),
    ]


#: ``void (*print_func)(const char *)``: LIBSVM's print hook
PRINT = ctypes.CFUNCTYPE(None, c_char_p)


def parameter(fields: dict, weight=()) -> tuple[Parameter, tuple]:
    """``(struct, kept)``: an ``svm_parameter`` with ``fields`` (the scalar fields by name) and
    the ``(label, factor)`` pairs of ``weight``; ``kept`` holds the weight arrays the struct
    points into (keep it alive as long as the struct)."""
    n = len(weight)
    labels = (c_int * n)(*[label for label, _ in weight])
    factors = (c_double * n)(*[w for _, w in weight])
    struct = Parameter(**fields)
    struct.nr_weight = n
    struct.weight_label = ctypes.cast(labels, POINTER(c_int))
    struct.weight = ctypes.cast(factors, POINTER(c_double))
    return struct, (labels, factors)


def library_file(package: str = "libsvm") -> str | None:
    """The shared library the official bindings load (``libsvm/clib.cp*``, in the first
    ``libsvm`` package on ``sys.path``; ``package="liblinear"``: LIBLINEAR's, as
    ``liblinear-official`` loads it), or None where it is not found so."""
    for entry in sys.path:
        folder = os.path.join(entry or os.curdir, package)
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            continue
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith("clib.cp"))
        except OSError:
            return None
        return os.path.join(folder, names[0]) if names else None
    return None


def open_library() -> SimpleNamespace | None:
    """The entry points (:func:`entry_points`) of the library the official bindings load,
    loaded here without them (:func:`library_file`), or None where that file is not found.
    Loaded twice in one process (here and by the bindings), it is one library: the system
    loader gives the same handle."""
    path = library_file()
    return None if path is None else entry_points(ctypes.CDLL(path))


def entry_points(lib) -> SimpleNamespace:
    """LIBSVM's C entry points in the loaded library ``lib`` (a ``ctypes.CDLL``: the
    bindings' own, or :func:`library_file` loaded), each declared on a fresh function object
    (the bindings' prototypes stay untouched); ``omp_set_num_threads`` and
    ``omp_get_max_threads`` are None in a build without OpenMP."""

    def fn(name: str, restype, argtypes):
        f = lib[name]  # a fresh function object
        f.restype = restype
        f.argtypes = argtypes
        return f

    try:  # through LIBSVM's own handle: dlsym searches the libraries it linked (libgomp)
        omp_set_num_threads = fn("omp_set_num_threads", None, [c_int])
        omp_get_max_threads = fn("omp_get_max_threads", c_int, [])
    except AttributeError:  # pragma: no cover - a build without OpenMP
        omp_set_num_threads = omp_get_max_threads = None
    return SimpleNamespace(
        lib=lib,
        train=fn("svm_train", c_void_p, [c_void_p, c_void_p]),
        check_parameter=fn("svm_check_parameter", c_char_p, [c_void_p, c_void_p]),
        predict_values=fn("svm_predict_values", c_double, [c_void_p, c_void_p, c_void_p]),
        predict_probability=fn("svm_predict_probability", c_double, [c_void_p, c_void_p, c_void_p]),
        get_nr_class=fn("svm_get_nr_class", c_int, [c_void_p]),
        get_labels=fn("svm_get_labels", None, [c_void_p, c_void_p]),
        get_nr_sv=fn("svm_get_nr_sv", c_int, [c_void_p]),
        cross_validation=fn("svm_cross_validation", None, [c_void_p, c_void_p, c_int, c_void_p]),
        save_model=fn("svm_save_model", c_int, [c_char_p, c_void_p]),
        free_model=fn("svm_free_and_destroy_model", None, [c_void_p]),
        set_print=fn("svm_set_print_string_function", None, [PRINT]),
        omp_set_num_threads=omp_set_num_threads,
        omp_get_max_threads=omp_get_max_threads,
    )


def c_runtime() -> SimpleNamespace:
    """C's ``srand`` and ``rand``: the generator LIBSVM draws its folds from (a fresh
    svm-train process draws as after ``srand(1)``)."""
    libc = ctypes.CDLL(None)
    srand, rand = libc.srand, libc.rand
    srand.argtypes, srand.restype = [ctypes.c_uint], None
    rand.argtypes, rand.restype = [], c_int
    return SimpleNamespace(srand=srand, rand=rand)


def print_nothing():
    """The print hook of a quiet LIBSVM: ``svmeval_print_nothing``, a C function of svmeval's
    extension (LIBSVM's messages never reach Python)."""
    from svmeval.io.native import extension_path

    return ctypes.cast(ctypes.CDLL(extension_path()).svmeval_print_nothing, PRINT)


_ROWS: list = []  # svmeval_rows_nodes, declared once


def rows_nodes():
    """``svmeval_rows_nodes(indptr, indices, values, n, extra_index, extra_value, nodes,
    rows)``, a C function of svmeval's extension: the reader's arrays laid out as ``svm_node``
    rows (a last ``(extra_index, extra_value)`` node a row where ``extra_index > 0``, then the
    terminator) into ``nodes``, each row's address into ``rows``; None in an extension built
    before it (the light paths then leave the call to the full command)."""
    if not _ROWS:
        from svmeval.io.native import extension_path

        try:
            f = ctypes.CDLL(extension_path()).svmeval_rows_nodes
        except AttributeError:  # pragma: no cover - an extension built from older sources
            return None
        f.restype = None
        f.argtypes = [c_void_p, c_void_p, c_void_p, ctypes.c_int64, c_int, c_double]
        f.argtypes += [c_void_p, c_void_p]
        _ROWS.append(f)
    return _ROWS[0]


def write_message(message: bytes, interrupts=()) -> None:
    """Write ``message`` (LIBSVM's text) to standard error: a closed or full stderr is ignored,
    nothing once a Ctrl-C was seen (``interrupts`` non-empty), never on a progress bar's line
    (the bar's line is blanked first, under the lock the bar draws under)."""
    from svmeval import progress
    from svmeval.io.stderr_lock import STDERR_LOCK

    with STDERR_LOCK:
        if interrupts:
            return
        try:
            progress.clear_line()
            sys.stderr.write(message.decode("utf-8", "replace"))
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass

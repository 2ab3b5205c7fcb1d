"""The engine's light mode: a small, plain cross-validation as LIBSVM's own, without numpy.

A script that calls svmeval once per configuration (LIBSVM's ``tools/grid.py``, a shell loop)
pays a process start each time; for a small data set the start is most of the call. This mode
serves the calls whose answer is LIBSVM's own cross-validation and nothing more: C-SVC or
nu-SVC, kernels 0 to 3, one repetition of svm-train's folds (seed 1), the predictions alone
(no decision values, no store, no cluster), on a run small enough to take one thread
(:func:`svmeval.cv.cost.small_run`: the rule by which the full engine runs the same folds
on the calling thread with one OpenMP thread). It loads LIBSVM's shared library (the file the
official bindings load) with ctypes, lays the parser's arrays out as ``svm_node`` rows and calls
LIBSVM's ``svm_cross_validation`` after ``srand(1)``: the predictions are LIBSVM's, which the
full engine reproduces bit for bit (:mod:`svmeval.cv.engine`).

:func:`cross_validate_plain` decides: it returns None for every call it does not serve (another
type or kernel, a weight, a larger run, a value LIBSVM's ``svm_check_parameter`` objects to,
labels that are not integers), and the caller then runs the full engine, which reports whatever
is wrong in its own words. A Ctrl-C is acted on when LIBSVM returns (a small run: milliseconds).

It serves a command's one run: it takes no lock on C's global state (``rand()``, LIBSVM's print
hook), which the full engine holds for each of its runs (:func:`svmeval.cv.engine.c_state`) and
sets again when it starts one.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import POINTER, c_char_p, c_double, c_int, c_void_p

from svmeval.cv.cost import small_run

__all__ = ["DEFAULTS", "cross_validate_plain"]

#: svm-train's defaults of ``struct svm_parameter`` (gamma 0: 1/num_features)
DEFAULTS = {
    "svm_type": 0,
    "kernel_type": 2,
    "degree": 3,
    "gamma": 0.0,
    "coef0": 0.0,
    "cache_size": 100.0,
    "eps": 1e-3,
    "C": 1.0,
    "nu": 0.5,
    "p": 0.1,
    "shrinking": 1,
    "probability": 0,
}
SERVED_TYPES = (0, 1)  # C-SVC, nu-SVC
SERVED_KERNELS = (0, 1, 2, 3)  # linear, polynomial, RBF, sigmoid (not precomputed)
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


class _Node(ctypes.Structure):
    _fields_ = [("index", c_int), ("value", c_double)]


class _Problem(ctypes.Structure):
    _fields_ = [("l", c_int), ("y", POINTER(c_double)), ("x", POINTER(POINTER(_Node)))]


class _Parameter(ctypes.Structure):
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


_PRINT = ctypes.CFUNCTYPE(None, c_char_p)


def library_file() -> str | None:
    """The shared library the official bindings load (``libsvm/clib.cp*``, in the first
    ``libsvm`` package on ``sys.path``), or None where it is not found so."""
    for entry in sys.path:
        folder = os.path.join(entry or os.curdir, "libsvm")
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            continue
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith("clib.cp"))
        except OSError:
            return None
        return os.path.join(folder, names[0]) if names else None
    return None


def _library(path: str):
    lib = ctypes.CDLL(path)
    lib.svm_check_parameter.restype = c_char_p
    lib.svm_check_parameter.argtypes = [c_void_p, c_void_p]
    lib.svm_cross_validation.restype = None
    lib.svm_cross_validation.argtypes = [c_void_p, c_void_p, c_int, c_void_p]
    lib.svm_set_print_string_function.restype = None
    lib.svm_set_print_string_function.argtypes = [_PRINT]
    return lib


def _labels(raw) -> list[float] | None:
    """The labels, where each is an integer that fits a C int (LIBSVM's classes)."""
    y = raw.y
    if y is None:
        return None
    labels: list[float] = memoryview(y).cast("d").tolist()  # type: ignore[assignment]
    for v in labels:
        if v != int(v) or not _INT_MIN <= v <= _INT_MAX:  # NaN, inf: the reader refuses them
            return None
    return labels


def _nodes(raw):
    """``(nodes, rows)``: every row's features then its ``index = -1`` terminator, in one
    array of ``svm_node``, and the address of each row's first node."""
    indptr = memoryview(raw.indptr).cast("q")
    indices = memoryview(raw.indices).cast("i")
    values = memoryview(raw.values).cast("d")
    n = len(indptr) - 1
    size = ctypes.sizeof(_Node)
    if size != 16:  # pragma: no cover - a platform that pads svm_node otherwise
        return None
    memory = bytearray((len(indices) + n) * size)
    index = memoryview(memory).cast("i")  # four ints a node: the index first
    value = memoryview(memory).cast("d")  # two doubles a node: the value second
    for i in range(n):
        s, e = indptr[i], indptr[i + 1]
        first = s + i
        if e > s:
            index[4 * first : 4 * (first + e - s) : 4] = indices[s:e]
            value[2 * first + 1 : 2 * (first + e - s) + 1 : 2] = values[s:e]
        index[4 * (first + e - s)] = -1
    nodes = (_Node * (len(indices) + n)).from_buffer(memory)
    base = ctypes.addressof(nodes)
    rows = (c_void_p * n)(*[base + (indptr[i] + i) * size for i in range(n)])
    return nodes, rows


class _Messages:
    """LIBSVM's training messages on standard error, one block a fold headed ``fold i/k:``, as
    the full engine writes them (:mod:`svmeval.cv.messages`): a fold's training ends with its
    ``Total nSV`` line; the progress bar's line is blanked before a block and the bar drawn
    again after it; nothing is written once a Ctrl-C was seen (``interrupts``)."""

    def __init__(self, n_folds: int, progress=None, interrupts=()):
        self.n_folds, self.fold = n_folds, 0
        self.progress, self.interrupts = progress, interrupts
        self.kept: list[bytes] = []

    def __call__(self, message: bytes) -> None:
        self.kept.append(message)
        if message.startswith(b"Total nSV"):
            self.flush()

    def flush(self) -> None:
        if not self.kept:
            return
        from svmeval import progress
        from svmeval.io.stderr_lock import STDERR_LOCK

        self.fold += 1
        text = b"".join(self.kept)
        self.kept = []
        block = f"fold {self.fold}/{self.n_folds}:\n".encode() + text
        block += b"" if text.endswith(b"\n") else b"\n"
        with STDERR_LOCK:
            if self.interrupts:
                return
            try:
                progress.clear_line()
                sys.stderr.write(block.decode("utf-8", "replace"))
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):
                pass
        if self.progress is not None:
            self.progress(self.fold, self.n_folds)


def cross_validate_plain(
    raw, params: dict, nr_fold: int, *, quiet: bool = True, progress=None, interrupts=()
):
    """LIBSVM's own k-fold cross-validation of ``raw`` (:class:`svmeval.io.raw.RawArrays`)
    with ``params`` (``struct svm_parameter``'s fields: :data:`DEFAULTS` updated; gamma 0 is
    1/num_features as in svm-train), folds drawn after ``srand(1)``: ``(y_true, y_pred)`` as
    lists, or None where this mode does not serve the call (the full engine does).

    ``quiet``: LIBSVM's messages nowhere; else on standard error, one block a fold (a run with
    ``probability`` is then not served: its inner cross-validation prints more blocks, nor one
    of more folds than rows). More folds than rows (with ``quiet``): LIBSVM's leave-one-out,
    after the warning it prints on standard error itself, as svm-train's.
    ``progress``: a function called once the run is served, just before the folds, giving the
    ``progress(done, total)`` callback or None (a bar made then draws ``0/k`` only for a run
    this mode serves); it is called after each fold's block. ``interrupts``: non-empty once a
    Ctrl-C was seen, after which no block is written."""
    if set(params) - set(DEFAULTS):
        return None
    p = dict(DEFAULTS, **params)
    if p["svm_type"] not in SERVED_TYPES or p["kernel_type"] not in SERVED_KERNELS:
        return None
    if p["probability"] and not quiet:
        return None
    n = raw.n_samples
    if nr_fold < 2 or (nr_fold > n and not quiet):  # LIBSVM warns on stderr: no bar there
        return None
    if not small_run(n, nr_fold, len(raw.indices) / 4 / n):
        return None
    y = _labels(raw)
    if y is None or len(set(y)) < 2:
        return None
    path = library_file()
    if path is None:
        return None
    lib = _library(path)
    built = _nodes(raw)
    if built is None:  # pragma: no cover
        return None
    nodes, rows = built
    labels = (c_double * n)(*y)
    problem = _Problem(n, labels, ctypes.cast(rows, POINTER(POINTER(_Node))))
    if p["gamma"] == 0 and raw.max_index > 0:
        p["gamma"] = 1.0 / raw.max_index
    parameter = _Parameter(nr_weight=0, **p)
    if lib.svm_check_parameter(ctypes.addressof(problem), ctypes.addressof(parameter)):
        return None  # the full engine says what LIBSVM objects to
    try:  # through LIBSVM's own handle: dlsym finds the OpenMP runtime it links
        lib.omp_set_num_threads.argtypes = [c_int]
        lib.omp_set_num_threads(1)  # a small run: one thread (svmeval.cv.cost.small_run)
    except AttributeError:  # pragma: no cover - a build without OpenMP
        pass
    messages = None
    if quiet:
        from svmeval.io.native import extension_path

        hook = ctypes.cast(ctypes.CDLL(extension_path()).svmeval_print_nothing, _PRINT)
    else:
        bar = progress() if progress is not None else None
        messages = _Messages(nr_fold, bar, interrupts)
        hook = _PRINT(messages)
    lib.svm_set_print_string_function(hook)
    libc = ctypes.CDLL(None)
    libc.srand.argtypes, libc.srand.restype = [ctypes.c_uint], None
    libc.srand(1)  # svm-train's folds: a fresh process draws as after srand(1)
    target = (c_double * n)()
    lib.svm_cross_validation(
        ctypes.addressof(problem), ctypes.addressof(parameter), nr_fold, ctypes.addressof(target)
    )
    if messages is not None:
        messages.flush()
    del nodes  # the rows point into it until here
    return y, list(target)

"""The engine's light mode: a small, plain cross-validation as LIBSVM's own, without numpy.

A script that calls svmeval once per configuration (LIBSVM's ``tools/grid.py``, a shell loop)
pays a process start each time; for a small data set the start is most of the call. This mode
serves the calls whose answer is LIBSVM's own cross-validation and nothing more: C-SVC or
nu-SVC, kernels 0 to 3, one repetition of svm-train's folds (seed 1), the predictions alone
(no decision values, no store, no cluster), on a run small enough to take one thread
(:func:`svmeval.cv.cost.small_run`: the rule by which the full engine runs the same folds
on the calling thread with one OpenMP thread). It lays the parser's arrays out as ``svm_node``
rows and calls LIBSVM's ``svm_cross_validation`` after ``srand(1)``: the predictions are
LIBSVM's, which the full engine reproduces bit for bit (:mod:`svmeval.cv.engine`). What it does
with LIBSVM is the engine's own core (:mod:`svmeval.cv.c_library`: the library file, the
structures, the entry points, ``srand``, the print hooks, the message writer), as its option
values and defaults are svm-train's syntax's (:mod:`svmeval.io.svm_train_syntax`): this module
only decides whether to serve a call, and nothing it does is written a second time.

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
from ctypes import POINTER, c_double, c_void_p

from svmeval.cv import c_library
from svmeval.cv.c_library import PRINT, Node
from svmeval.cv.cost import small_run
from svmeval.io.svm_train_syntax import DEFAULTS, INT_MAX, INT_MIN

__all__ = ["DEFAULTS", "c_labels", "cross_validate_plain", "doubles", "int_labels", "rows_of"]

SERVED_TYPES = (0, 1)  # C-SVC, nu-SVC
SERVED_KERNELS = (0, 1, 2, 3)  # linear, polynomial, RBF, sigmoid (not precomputed)


def int_labels(raw) -> list[float] | None:
    """The labels, where each is an integer that fits a C int (LIBSVM's classes)."""
    y = raw.y
    if y is None:
        return None
    labels: list[float] = memoryview(y).cast("d").tolist()  # type: ignore[assignment]
    if not labels or not all(map(float.is_integer, labels)):  # whole numbers (not NaN, inf)
        return None
    if not (INT_MIN <= min(labels) and max(labels) <= INT_MAX):
        return None
    return labels


def c_labels(raw):
    """The labels as a C array of doubles (``struct svm_problem``'s and LIBLINEAR's ``y``):
    the reader's own doubles, copied."""
    return (c_double * raw.n_samples).from_buffer_copy(raw.y)


def doubles(array) -> list[float]:
    """A C array of doubles (the predictions ``cross_validation`` wrote) as a list."""
    return memoryview(array).cast("B").cast("d").tolist()  # type: ignore[return-value]


def rows_of(raw, extra: tuple[int, float] | None = None):
    """``(nodes, rows)``: every row's features, then ``extra`` (a last ``(index, value)`` node
    of every row: LIBLINEAR's bias feature, index > 0), then its ``index = -1`` terminator, in
    one array of ``svm_node`` (LIBLINEAR's ``feature_node`` is the same struct), and the
    address of each row's first node; laid out in C (the core's
    :func:`~svmeval.cv.c_library.rows_nodes`), or None where that function is missing."""
    n = raw.n_samples
    size = ctypes.sizeof(Node)
    lay_out = c_library.rows_nodes()
    if size != 16 or lay_out is None:  # pragma: no cover - another padding, an older build
        return None
    more = 1 if extra is None else 2  # nodes a row besides its features
    nodes = (Node * (len(raw.indices) // 4 + more * n))()
    rows = (c_void_p * n)()
    index, value = extra if extra is not None else (0, 0.0)
    address = [_address(a) for a in (raw.indptr, raw.indices, raw.values)]
    lay_out(*address, n, index, value, ctypes.addressof(nodes), ctypes.addressof(rows))
    return nodes, rows


def _address(data: bytearray):
    """The address of a bytearray's memory (None where it is empty: nothing is read there)."""
    return ctypes.addressof((ctypes.c_char * len(data)).from_buffer(data)) if data else None


class _Messages:
    """LIBSVM's training messages on standard error, one block a fold headed ``fold i/k:``, as
    the full engine writes them (:mod:`svmeval.cv.messages`): a fold's training ends with its
    ``Total nSV`` line; each block is written by the engine's writer
    (:func:`svmeval.cv.c_library.write_message`) and the progress bar drawn again after it;
    nothing is written once a Ctrl-C was seen (``interrupts``)."""

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
        self.fold += 1
        text = b"".join(self.kept)
        self.kept = []
        block = f"fold {self.fold}/{self.n_folds}:\n".encode() + text
        c_library.write_message(block + (b"" if text.endswith(b"\n") else b"\n"), self.interrupts)
        if self.progress is not None:
            self.progress(self.fold, self.n_folds)


def cross_validate_plain(
    raw, params: dict, folds: int, *, quiet: bool = True, progress=None, interrupts=()
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
    if folds < 2 or (folds > n and not quiet):  # LIBSVM warns on stderr: no bar there
        return None
    if not small_run(n, folds, len(raw.indices) / 4 / n):
        return None
    y = int_labels(raw)
    if y is None or len(set(y)) < 2:
        return None
    c = c_library.open_library()
    if c is None:
        return None
    built = rows_of(raw)
    if built is None:  # pragma: no cover
        return None
    nodes, rows = built
    labels = c_labels(raw)
    problem = c_library.Problem(n, labels, ctypes.cast(rows, POINTER(POINTER(Node))))
    if p["gamma"] == 0 and raw.max_index > 0:
        p["gamma"] = 1.0 / raw.max_index
    parameter, _kept = c_library.parameter(p)
    if c.check_parameter(ctypes.addressof(problem), ctypes.addressof(parameter)):
        return None  # the full engine says what LIBSVM objects to
    if c.omp_set_num_threads is not None:
        c.omp_set_num_threads(1)  # a small run: one thread (svmeval.cv.cost.small_run)
    messages = None
    if quiet:
        hook = c_library.print_nothing()
    else:
        bar = progress() if progress is not None else None
        messages = _Messages(folds, bar, interrupts)
        hook = PRINT(messages)
    c.set_print(hook)
    c_library.c_runtime().srand(1)  # svm-train's folds: a fresh process draws as after srand(1)
    target = (c_double * n)()
    c.cross_validation(
        ctypes.addressof(problem), ctypes.addressof(parameter), folds, ctypes.addressof(target)
    )
    if messages is not None:
        messages.flush()
    del nodes  # the rows point into it until here
    return y, doubles(target)

"""The engine's LIBSVM: problems over numpy memory, and C's global state behind one lock.

Problems are built over numpy memory: one array of ``svm_node`` records for the whole data set
(each row's features, then its ``index = -1`` terminator) and an array of row pointers into it;
a fold's training problem is a fancy-indexed copy of the pointer array. LIBSVM's structures,
its C entry points (declared on function objects of svmeval's own: the bindings' prototypes are
left as they are), ``srand`` and the print hooks are the core's (:mod:`svmeval.cv.c_library`,
which the drop-in's light mode uses too), on the library the official bindings load.

C's global state lives here, behind one lock: LIBSVM and its OpenMP runtime are loaded on first
use (never at import), C ``rand()`` is seeded and drawn, the print hook and OpenMP spin setting
are set. :func:`c_state` holds the lock for a whole run, so two runs in one process (threads,
or a run started while an interrupted one's folds are still inside LIBSVM) never share
``rand()`` or the print hook.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import threading
from ctypes import POINTER, c_double, c_void_p
from types import SimpleNamespace

import numpy as np

from svmeval.cv import _bindings, bounded_waits, c_library, messages, schedule
from svmeval.errors import ParameterError, SvmevalError
from svmeval.params import DEFAULTS, SvmParams

#: one ``struct svm_node {int index; double value;}``, padded as the C compiler pads it
NODE = np.dtype([("index", np.int32), ("value", np.float64)], align=True)

# LIBSVM's OpenMP loops end at a barrier per kernel row (and per predicted row). GOMP's default
# spins about 300000 times there, which collapses when another process takes the other core;
# passive waiting (no spin) is 5x slower on problems with many small loops (letter: 26 classes).
# A short spin before sleeping is as fast as either where it is fast (scripts/bench_cv.py).
# libgomp reads it once, when it is loaded; a user's own setting wins.
SHORT_SPIN = {"GOMP_SPINCOUNT": "10000"}
OPENMP_WAIT_VARIABLES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")

_LOAD_LOCK = threading.Lock()
_C = None  # the loaded library's entry points (a SimpleNamespace), see _c()
#: LIBSVM's library opened (its file, with svmeval's OpenMP setting), before the bindings'
#: module is imported: ``(handle, loaded_here, environment)``, see _opened()
_OPENED = None
_OPENED_ENTRIES = None  # LIBSVM's entry points on that library, see _entries()
_RUNTIME = None  # C's srand and rand (c_library.c_runtime()), see _runtime()

#: C's global state (rand(), the print hook, the OpenMP setting): held for a whole run
_STATE_LOCK = threading.RLock()


def _mapped_files() -> set[str] | None:
    """The files mapped into this process (Linux), or None where that cannot be known."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            return {line.split(None, 5)[5].strip() for line in fh if len(line.split(None, 5)) == 6}
    except OSError:  # pragma: no cover - not Linux
        return None


def _open(load):
    """``(load(), loaded_here, environment)``: ``load`` run with svmeval's OpenMP spin setting
    in the environment, for the OpenMP runtime LIBSVM links to read as it is loaded; whether
    it was loaded by that call, and the wait settings it read."""
    before = _mapped_files()
    user_chose = any(v in os.environ for v in OPENMP_WAIT_VARIABLES)
    applied = {} if user_chose else dict(SHORT_SPIN)
    for key, value in applied.items():
        os.environ[key] = value
    try:
        loaded = load()
    finally:  # libgomp has read its environment: leave the process's as it was
        for key in applied:
            os.environ.pop(key, None)
    after = _mapped_files()
    loaded_here = (
        before is not None
        and after is not None
        and any("gomp" in os.path.basename(f) for f in after - before)
    )
    if not loaded_here:  # libgomp was there before (or is unknown): it read what it read
        applied = {}
    seen = {v: os.environ[v] for v in OPENMP_WAIT_VARIABLES if v in os.environ}
    seen.update(applied)
    return loaded, loaded_here, seen


def _opened():
    """LIBSVM's library file, the one the official bindings load
    (:func:`~svmeval.cv.c_library.library_file`), opened without importing them: what a run
    whose every fold is in a results store needs of LIBSVM (its version, for the store's
    keys). None where that file is not found (the bindings load the library then)."""
    global _OPENED
    if _OPENED is None:
        with _LOAD_LOCK:
            if _OPENED is None and _C is None:
                path = c_library.library_file()
                try:
                    _OPENED = None if path is None else _open(lambda: ctypes.CDLL(path))
                except OSError:  # not a library here: the bindings load theirs as they can
                    _OPENED = None
    return _OPENED


def _load():
    """Load LIBSVM (and the OpenMP runtime it links) with svmeval's OpenMP spin setting: the
    official bindings' module, on the library :func:`_opened` opened where it did (the
    system's loader gives the bindings that one)."""
    if _OPENED is not None:
        svm = _bindings.import_bindings()
        return _entry_points(svm, _OPENED[1], _OPENED[2])
    svm, loaded_here, seen = _open(_bindings.import_bindings)
    return _entry_points(svm, loaded_here, seen)


def _entry_points(svm, loaded_here: bool, seen: dict):
    """LIBSVM's C entry points (:func:`svmeval.cv.c_library.entry_points`, on the bindings'
    handle), C's ``srand``/``rand``, the print hooks and the OpenMP state."""
    if NODE.itemsize != ctypes.sizeof(c_library.Node):  # pragma: no cover - platform guard
        raise SvmevalError("LIBSVM's svm_node layout differs from svmeval's view of it")
    c = c_library.entry_points(svm.libsvm)
    # a thread's OpenMP setting before svmeval sets it (1 in a build without OpenMP)
    initial_threads = 1 if c.omp_get_max_threads is None else c.omp_get_max_threads()
    runtime = _runtime()  # the C runtime whose rand() LIBSVM draws folds from
    c.svm = svm
    c.srand, c.rand = runtime.srand, runtime.rand
    c.print_stderr = c_library.PRINT(_to_stderr)
    c.print_null = c_library.print_nothing()
    c.openmp = SimpleNamespace(
        available=c.omp_set_num_threads is not None,
        loaded_here=loaded_here,
        environment=seen,
        initial_threads=initial_threads,
    )
    # the C function's own address, for svmeval's loop over rows (svmeval.cv._model)
    c.predict_values_address = ctypes.cast(c.predict_values, c_void_p).value
    return c  # its print hook set by _c(): LIBSVM's default writes to stdout


def _c():
    """The loaded library (loaded on first use)."""
    global _C
    if _C is None:
        with _LOAD_LOCK:
            if _C is None:
                c = _load()
                c.set_print(c.print_null if _hook_quiet[0] else c.print_stderr)  # set_quiet()'s
                _C = c
                schedule.note_openmp_environment(_C.openmp.environment)
    return _C


def load() -> None:
    """Load LIBSVM (the bindings' module) in the calling thread, if not yet: a run calls it
    before its first fold is computed (a run whose folds are all stored never does)."""
    _c()


def _runtime():
    """C's ``srand`` and ``rand`` (:func:`~svmeval.cv.c_library.c_runtime`: the C library's,
    which LIBSVM draws from), without loading LIBSVM: a run whose folds are all stored draws
    them to key its units."""
    global _RUNTIME
    if _RUNTIME is None:
        _RUNTIME = c_library.c_runtime()
    return _RUNTIME


def _entries():
    """LIBSVM's C entry points (:func:`~svmeval.cv.c_library.entry_points`) for what needs no
    more than the library itself (its version, svm_check_parameter): on the library
    :func:`_opened` opened where the bindings' module is not loaded yet, else on theirs."""
    global _OPENED_ENTRIES
    if _C is not None:
        return _C
    found = _opened()
    if found is None:
        return _c()
    if _OPENED_ENTRIES is None:
        _OPENED_ENTRIES = c_library.entry_points(found[0])
    return _OPENED_ENTRIES


def libsvm_version() -> int:
    """LIBSVM's own version number (``libsvm_version``: 337 for 3.37), 0 if it has none."""
    try:
        return int(ctypes.c_int.in_dll(_entries().lib, "libsvm_version").value)
    except (AttributeError, ValueError):
        return 0


def loaded() -> bool:
    """Whether LIBSVM has been loaded in this process by svmeval (opened for its version
    included)."""
    return _C is not None or _OPENED is not None


def openmp_environment() -> dict | None:
    """The OpenMP wait settings LIBSVM's OpenMP runtime read when it was loaded (svmeval's
    short spin included when it took effect), or None before LIBSVM is loaded. When the runtime
    was loaded before svmeval loaded LIBSVM, svmeval's setting did not take effect: only the
    user's own variables are reported."""
    return None if _C is None else dict(_C.openmp.environment)


def c_state(func):
    """Hold C's global state for the whole of ``func`` (a run: rand(), the print hook).

    Waits first for the folds an interrupted run left inside LIBSVM: they may still draw from
    ``rand()`` (``-b 1``) and print.
    """

    @functools.wraps(func)
    def holding(*args, **kwargs):
        schedule.wait_abandoned()
        with bounded_waits.hold(_STATE_LOCK):  # WAIT_STEP at a time
            return func(*args, **kwargs)  # LIBSVM loaded where a fold is computed

    return holding


def srand(seed: int) -> None:
    """Seed C ``rand()`` as svm-train's process starts (``srand(1)`` is its implicit state)."""
    _runtime().srand(seed)


def rand() -> int:
    """One draw of C ``rand()``, the generator LIBSVM's fold assignment uses."""
    return _runtime().rand()


def rand_function():
    """C ``rand()`` itself (a ctypes function, :func:`rand` without its lookup at every
    draw): what a loop of many draws calls."""
    return _runtime().rand


_SHUFFLE = None  # svmeval_shuffle of svmeval's C extension, see shuffle()


def shuffle(index: np.ndarray) -> None:
    """LIBSVM's shuffle of the fold assignment on ``index`` (a contiguous int64 array), in
    place: for i = 0 .. n-1, index i swapped with i + rand() % (n - i), C ``rand()`` drawn n
    times in one call of svmeval's C extension (``svmeval_shuffle``)."""
    global _SHUFFLE
    if index.dtype != np.int64 or not index.flags.c_contiguous or not index.flags.writeable:
        raise SvmevalError("shuffle() takes a contiguous, writable int64 array")
    if _SHUFFLE is None:
        from svmeval.cv import _kernel

        f = ctypes.CDLL(_kernel.__file__).svmeval_shuffle
        f.restype, f.argtypes = None, [c_void_p, ctypes.c_int64]
        _SHUFFLE = f
    if len(index):
        _SHUFFLE(index.ctypes.data, len(index))


def set_omp_threads(n: int) -> None:
    """Set the OpenMP threads LIBSVM uses in the calling thread (no-op without OpenMP)."""
    c = _c()
    if c.omp_set_num_threads is not None:
        c.omp_set_num_threads(max(1, int(n)))


@contextlib.contextmanager
def omp_threads_kept():
    """Run the block, then give the calling thread back the OpenMP threads it had (tasks run
    on it set their own): a caller's thread keeps its OpenMP setting."""
    before = None if _C is None or _C.omp_get_max_threads is None else _C.omp_get_max_threads()
    try:
        yield
    finally:
        c = _C
        if c is not None and c.omp_set_num_threads is not None:
            c.omp_set_num_threads(c.openmp.initial_threads if before is None else before)


schedule.keep_thread_settings(omp_threads_kept)  # a small run on the caller's thread


_thread = threading.local()  # pair_training(): this thread's "Total nSV" lines are dropped
_quiet = messages.QUIET  # set_quiet()'s, where the message blocks read it
#: set_quiet()'s last setting (None: never called), the print hook LIBSVM gets as it loads
_hook_quiet: list = [None]


def _to_stderr(message: bytes) -> None:
    # LIBSVM's messages (called in the thread that trains): kept in the thread's block, if any
    if getattr(_thread, "pair", False) and message.startswith(b"Total nSV"):
        return  # a one-vs-one pair's: its fold prints the model's own total
    if not messages.keep(message):
        messages.write(message)


@contextlib.contextmanager
def pair_training():
    """Train one pair of a multiclass fold in this thread (:mod:`svmeval.cv.plan.pairs`)."""
    _thread.pair = True
    try:
        yield
    finally:
        _thread.pair = False


def print_message(text: str, label: str = "") -> None:
    """A training message as LIBSVM prints one (nowhere when quiet); with ``label``, written
    at once as a block of its own headed by it."""
    if _quiet[0]:
        return
    if label:
        messages.write(f"{label}:\n{text}".encode())
    else:
        _to_stderr(text.encode())


def set_quiet(quiet: bool) -> None:
    """LIBSVM's training messages: to stderr, or nowhere with -q. Never to stdout. (Before
    LIBSVM is loaded, the setting its loading applies.)"""
    with _STATE_LOCK, _LOAD_LOCK:
        _quiet[0] = _hook_quiet[0] = bool(quiet)
        c = _C
        if c is not None:
            c.set_print(c.print_null if quiet else c.print_stderr)


def folds_warning(folds: int, l: int) -> str:
    """What the LIBSVM that runs prints on standard error when a cross-validation asks for more
    folds than samples (``folds > l``): its own text (3.37: ``WARNING: # folds (50) > # data
    (40). Will use ...``; older versions print no numbers), never a copy.

    LIBSVM prints it from ``svm_cross_validation`` with ``fprintf(stderr, ...)``, not through
    its print hook, so here it is called on ``l`` empty one-class rows with file descriptor 2
    captured, and what it wrote is returned. Each of its ``l`` trainings is then a few passes
    over ``l`` pointers: 15 ms for 1,000 rows, 0.3 s for 4,000, far less than the
    leave-one-out run it announces. The call runs on a helper thread while this one waits
    :data:`~svmeval.cv.bounded_waits.WAIT_STEP` at a time: a Ctrl-C leaves at once (standard error
    given back), and the next run waits for the call to end. It draws ``l`` times from C
    ``rand()``: seed after it.
    """
    import sys
    import tempfile
    from concurrent.futures import Future

    c = _c()
    end = c_library.Node(index=-1, value=0.0)  # every row: the terminator alone
    rows = (POINTER(c_library.Node) * l)(*[ctypes.pointer(end)] * l)
    labels = (c_double * l)()  # one class: no pair to train
    problem = c_library.Problem(l, labels, rows)
    param = Parameter(SvmParams(kernel_type=0, C=1.0))
    target = (c_double * l)()
    done: Future = Future()

    def run() -> None:
        try:
            set_omp_threads(1)  # this thread's: a team per prediction would cost more
            c.cross_validation(ctypes.addressof(problem), param.address, folds, target)
        finally:
            c.set_print(c.print_null if _quiet[0] else c.print_stderr)
            done.set_result((rows, labels, problem, param, target))  # alive until here

    with _STATE_LOCK, contextlib.ExitStack() as stack:
        try:
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        try:
            saved = os.dup(2)
        except OSError:  # no standard error: nowhere to print it either
            return ""
        stack.callback(os.close, saved)
        captured = stack.enter_context(tempfile.TemporaryFile())
        c.set_print(c.print_null)  # "training data in only one class", l times
        os.dup2(captured.fileno(), 2)
        stack.callback(os.dup2, saved, 2)
        try:
            threading.Thread(target=run, name="svmeval-folds-warning", daemon=True).start()
            bounded_waits.wait_all([done])
        except BaseException:  # a Ctrl-C: the call goes on, and the next run waits for it
            schedule.left_running(done)
            raise
        captured.seek(0)
        return captured.read().decode("utf-8", "replace")


def library():
    """The loaded library's entry points (``.svm``: the bindings' module)."""
    return _c()


def svm_model():
    """The bindings' ``struct svm_model``."""
    return _c().svm.svm_model


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
        self._struct = c_library.Problem(
            len(self.y),
            self.y.ctypes.data_as(POINTER(c_double)),
            ctypes.cast(self.rows.ctypes.data, POINTER(POINTER(c_library.Node))),
        )

    @classmethod
    def from_csr(cls, y, indptr, indices, values) -> Problem:
        """Lay out CSR arrays as LIBSVM's node rows, each closed by ``index = -1``."""
        indptr = np.asarray(indptr, dtype=np.int64)
        n = len(indptr) - 1
        nodes = np.empty(len(indices) + n, dtype=NODE)
        # row i's terminator: after its features and the i before it (a mask places the rest)
        ends = indptr[1:] + np.arange(n, dtype=np.int64)
        is_end = np.zeros(len(nodes), dtype=bool)
        is_end[ends] = True
        index, value = nodes["index"], nodes["value"]
        index[is_end] = -1
        value[is_end] = 0.0
        np.logical_not(is_end, out=is_end)
        index[is_end] = indices
        value[is_end] = values
        starts = indptr[:-1] + np.arange(n, dtype=np.int64)
        rows = np.uintp(nodes.ctypes.data) + starts.astype(np.uintp) * np.uintp(NODE.itemsize)
        return cls(y, rows, nodes)

    def subset(self, order: np.ndarray, y: np.ndarray | None = None) -> Problem:
        """The problem made of rows ``order`` (in that order), optionally with other labels."""
        return Problem(self.y[order] if y is None else y, self.rows[order], self._nodes)

    @property
    def n_samples(self) -> int:
        return len(self.y)

    address = property(lambda self: ctypes.addressof(self._struct))


def make_problem(dataset, y: np.ndarray | None = None) -> Problem:
    """The LIBSVM problem of a :class:`~svmeval.io.data.Dataset` (labels ``y`` if given)."""
    labels = dataset.y if y is None else y
    return Problem.from_csr(labels, dataset.indptr, dataset.indices, dataset.values)


class Parameter:
    """A LIBSVM ``svm_parameter`` filled from :class:`SvmParams` (gamma already resolved)."""

    def __init__(self, params: SvmParams):
        fields = {name: getattr(params, name) for name in DEFAULTS}
        self._struct, self._kept = c_library.parameter(fields, params.weight)
        self.params = params

    address = property(lambda self: ctypes.addressof(self._struct))


def check_parameter(problem: Problem, params: SvmParams) -> None:
    """Raise :class:`ParameterError` with LIBSVM's own message if svm_check_parameter objects."""
    param = Parameter(params)  # kept alive for the call
    message = _entries().check_parameter(problem.address, param.address)
    if message:
        raise ParameterError(message.decode())

"""A run's results store (:mod:`svmeval.store`), opened once for a whole call: the units it
reused and computed (:class:`StoreCounts`), the thread its folds are written on, and the run
around this one that an inner run shares it with (:func:`opened`, :func:`current`). What a
run looks up and writes there: :mod:`svmeval.cv.run.store_use`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
import time

from svmeval.cv.bounded_waits import flag

__all__ = ["StoreCounts", "current", "library_used", "missing", "opened", "reuse_only"]

#: the logger of the run's count line (INFO), where the program has set up logging
LOGGER = "svmeval.store"


class StoreCounts:
    """Units reused and computed over a whole run (several evaluations: a grid, a nested CV)."""

    def __init__(self, store, command: str = "python", call=None):
        self.store, self.command, self.call = store, command, call
        self.reuse_only = bool(getattr(_LOCAL, "reuse_only", False))
        self.reused = 0
        self.computed = 0
        self.run: int | None = None
        self.writer = _Writer()
        #: library (``libsvm``, ``liblinear``) -> its version, for each the run uses
        self.libraries: dict[str, str] = {}

    def uses(self, library: str, version: int) -> None:
        """Note that the run looks up or writes units of ``library`` (``libsvm`` or
        ``liblinear``, of ``version``): the store's ``runs`` names the version of each
        library a run uses (one it began before is updated, on the writer's thread)."""
        if library in self.libraries:
            return
        self.libraries[library] = str(version)
        if self.run is not None:
            self.writer.submit(self.store.note_library, self.run, library, str(version))

    def begin(self) -> int:
        """The run's id in the store's ``runs``, recorded at its first write (a run that
        only reads leaves the file as it was until it ends)."""
        if self.run is None:
            command, call = self.command, None
            if self.call is not None:
                from svmeval.store import describe_call

                command, call = describe_call(*self.call)
            libraries = dict(self.libraries)
            if not libraries:  # a run that used no library's units: LIBSVM's, as before
                from svmeval.cv import _libsvm

                libraries["libsvm"] = str(_libsvm.libsvm_version())
            self.run = self.store.begin_run(
                command,
                libraries.get("libsvm"),
                os.getcwd(),
                call,
                liblinear=libraries.get("liblinear"),
            )
        return self.run

    def line(self) -> str:
        """``store NAME: R units reused, C computed`` (and, for a store this process cannot
        write, that the run is not recorded in it)."""
        line = f"store {self.store.name}: {self.reused} units reused, {self.computed} computed"
        if self.store.read_only and not self.reuse_only:
            line += " (read-only: the run is not recorded)"
        return line


#: seconds an interrupted or failed run waits for its last folds to be written
FLUSH_LIMIT = 5.0


class _Writer:
    """Writes a run's folds on a thread of its own, in the order they come: the thread that
    schedules the folds only hands them over, and the store's transactions overlap the next
    folds' training. :meth:`flush` waits until every fold handed over is written and raises
    the first error a write met (a full disk, a store another process damaged)."""

    def __init__(self):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def submit(self, write, *args) -> None:
        if self._error is not None:
            self.flush()
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="svmeval-store", daemon=True)
            self._thread.start()
        self._queue.put((write, args))

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self._error is None:
                write, args = item
                try:
                    write(*args)
                except BaseException as exc:  # raised by flush, in the run's thread
                    self._error = exc

    def flush(self, *, quiet: bool = False, limit: float | None = None) -> None:
        """Wait for every write handed over (at most ``limit`` seconds: a run interrupted
        does not wait for a store another process holds); raise the first error (``quiet``:
        keep it)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            from svmeval.cv.bounded_waits import WAIT_STEP, join

            if limit is None:
                join(thread)
            else:
                deadline = time.monotonic() + limit
                while thread.is_alive() and time.monotonic() < deadline:
                    thread.join(WAIT_STEP)
        error = self._error
        if error is not None and not quiet:
            self._error = None
            raise error


_LOCAL = threading.local()  # .active: the StoreCounts of this thread's runs (innermost last)


def _active() -> list:
    active = getattr(_LOCAL, "active", None)
    if active is None:
        active = _LOCAL.active = []
    return active


@contextlib.contextmanager
def reuse_only():
    """Runs in this thread take every fold from their store and compute none: a fold the
    store lacks is a :class:`~svmeval.store.StoreError` (an export from the store), and the
    store is not written."""
    with flag(_LOCAL, "reuse_only"):
        yield


def missing(counts, n: int) -> None:
    """Refuse to compute ``n`` folds in a run that may only reuse, or whose store cannot keep
    them (read-only): before any of them is trained."""
    if n and counts.store.read_only and not counts.reuse_only:
        from svmeval.store import StoreError

        folds = "1 fold of this run is" if n == 1 else f"{n} folds of this run are"
        raise StoreError(
            f"{counts.store.name}: {folds} not in the store, which is read-only (nothing "
            "was trained)"
        )
    if n and counts.reuse_only:
        from svmeval.store import StoreError

        error = StoreError(
            f"{counts.store.name}: {n} folds of this run are not in the store "
            "(an export trains nothing)"
        )
        error.folds_missing = n  # type: ignore[attr-defined]  # the export names a changed file
        raise error


def library_used(library: str, version: int) -> None:
    """Note in the results store of the run in progress in this thread, if it has one, that
    the run uses ``library`` (of ``version``) on folds the store does not keep (LIBLINEAR's
    on svmeval's folds): its ``runs`` entry names that version (:meth:`StoreCounts.uses`)."""
    counts = current()
    if counts is not None:
        counts.uses(library, version)


def current() -> StoreCounts | None:
    """The store of the run in progress in this thread (None: none, or a run without one):
    what :func:`~svmeval.cv.run.evaluate.evaluate` uses when it is not given one."""
    active = _active()
    return active[-1] if active else None


@contextlib.contextmanager
def opened(store, command: str = "", call=None):
    """The run's store (``store``: None, a path, or an open :class:`~svmeval.store.Store`),
    with its counts: yields a :class:`StoreCounts`, or for None the :func:`current` one. A path is opened here and closed
    at the end; a run inside a run (a nested CV's inner grids) shares the outer run's counts.
    The run is recorded in the store's ``runs`` (its counts written at the end) and its counts
    logged (``svmeval.store``, INFO): ``command`` is a command's line; ``call``, a library
    function's run, ``(function, arguments)`` (recorded by
    :func:`~svmeval.store.describe_call`)."""
    if store is None:  # the store of a run around this one (a command's), if any
        yield current()
        return
    from svmeval.store import Store

    own = not isinstance(store, Store)
    if own:
        if not isinstance(store, str | os.PathLike):
            from svmeval.errors import SvmevalError

            raise SvmevalError(
                f"store must be a file name or a Store (svmeval.open_store), got {store!r}"
            )
        store = Store(store)
    try:
        active = _active()
        if active and active[-1].store is store:  # an inner run of the same store
            yield active[-1]
            return
        counts = StoreCounts(store, command or "python", call)
        active.append(counts)
        try:
            yield counts
        finally:
            active.remove(counts)
            # the folds computed are written, even on Ctrl-C (for a few seconds at most)
            counts.writer.flush(quiet=True, limit=FLUSH_LIMIT)
        counts.writer.flush()
        if not counts.reuse_only and not store.read_only:
            store.end_run(counts.begin(), counts.reused, counts.computed)
        _log_counts(counts)
    finally:
        if own:
            store.close()


def _log_counts(counts) -> None:
    """The run's count line, at INFO, to :data:`LOGGER`: where the logging package was never
    imported, nothing was set up to show it (Python's default shows WARNING and above), and
    it is not imported for it."""
    logging = sys.modules.get("logging")
    if logging is not None:
        logging.getLogger(LOGGER).info("svmeval: %s", counts.line())

"""Waits of the calling thread, each bounded: it blocks at most :data:`WAIT_STEP` seconds at a
time, so a Ctrl-C is acted on within that, whatever it waits for (tasks, threads, a lock, a
Dask client's calls and results).

A wait without a timeout can miss the signal altogether. CPython runs a Python signal handler
at its next check between bytecodes, and a lock's wait is interrupted only if the signal comes
while the thread is already blocked in ``sem_wait``. A signal that arrives after the last check
but before the thread blocks (the moment it releases the GIL, which is when another thread gets
to run and send it) is caught by CPython's C-level handler and then waits, the thread blocked
on, until the lock is released: in :func:`~svmeval.cv.schedule.run_tasks` that was when a fold
ended, minutes later, or never when the tasks waited for the caller.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterable, Iterator

#: the longest the calling thread blocks at a time while it waits (seconds): a Ctrl-C that
#: CPython could not deliver into the wait is acted on then
WAIT_STEP = 0.1


def wait_any(futures) -> set:
    """Wait until one of ``futures`` is done (there must be one not done); return the done
    ones. Blocks at most :data:`WAIT_STEP` at a time."""
    from concurrent.futures import FIRST_COMPLETED, wait  # only a run on threads waits

    while True:
        finished, _ = wait(futures, timeout=WAIT_STEP, return_when=FIRST_COMPLETED)
        if finished:
            return finished


def wait_all(futures) -> None:
    """Wait until every one of ``futures`` is done, :data:`WAIT_STEP` at a time."""
    pending = list(futures)
    if not pending:
        return
    from concurrent.futures import wait

    while pending:
        _, not_done = wait(pending, timeout=WAIT_STEP)
        pending = list(not_done)


def join(thread: threading.Thread) -> None:
    """``thread.join()``, :data:`WAIT_STEP` at a time."""
    while thread.is_alive():
        thread.join(WAIT_STEP)


def _owned(lock: threading.RLock) -> bool:
    """Whether the calling thread holds ``lock`` (CPython's ``RLock._is_owned``, which the
    standard library's type stubs leave out)."""
    return lock._is_owned()  # type: ignore[attr-defined]


@contextlib.contextmanager
def hold(lock: threading.RLock):
    """``with lock:`` for an RLock, acquired :data:`WAIT_STEP` at a time. A Ctrl-C that comes
    as the lock is acquired (CPython runs the handler right after ``acquire`` returns) does not
    leave it held."""
    if _owned(lock):  # held by this thread already: taken again at once
        with lock:
            yield lock
        return
    try:
        while not lock.acquire(timeout=WAIT_STEP):
            pass
    except BaseException:
        if _owned(lock):
            lock.release()
        raise
    try:
        yield lock
    finally:
        lock.release()


def call(
    function: Callable,
    *args,
    on_abandoned: Callable | None = None,
    name: str = "svmeval-call",
    **kwargs,
):
    """``function(*args, **kwargs)`` on a helper thread while the calling thread waits,
    :data:`WAIT_STEP` at a time (for a library call that blocks without a bound: a Dask
    client's). Its result is returned and its exception raised here. Interrupted, the caller
    leaves at once; the call goes on in the background and, if it succeeds, its result is
    handed to ``on_abandoned`` there (to close what it opened)."""
    done = threading.Event()
    box: dict = {}
    lock = threading.Lock()

    def run() -> None:
        try:
            value = function(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
            box["error"] = exc
            done.set()
            return
        with lock:
            box["value"] = value
            abandoned = box.get("abandoned", False)
        done.set()
        if abandoned and on_abandoned is not None:
            with contextlib.suppress(BaseException):
                on_abandoned(value)

    try:
        threading.Thread(target=run, name=name, daemon=True).start()
        while not done.wait(WAIT_STEP):
            pass
    except BaseException:  # a Ctrl-C, even while the thread was starting
        with lock:
            box["abandoned"] = True
            value = box.get("value", _NOTHING)
        if value is not _NOTHING and on_abandoned is not None:  # it had just returned
            with contextlib.suppress(BaseException):
                on_abandoned(value)
        raise
    if "error" in box:
        error = box.pop("error")
        try:
            raise error
        finally:
            del error
    return box["value"]


_NOTHING = object()


def in_steps(items: Callable[[], Iterable]) -> Iterator:
    """Iterate ``items()`` on a helper thread and yield its items here as they come, waiting
    :data:`WAIT_STEP` at a time (for an iterator whose own waits are unbounded: a Dask
    client's results). Its exception is raised here; once this generator is left (an error, a
    Ctrl-C), the helper stops at its next item."""
    arrived: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def run() -> None:
        try:
            for item in items():
                if stop.is_set():
                    return
                arrived.put((item, None))
        except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
            arrived.put((_NOTHING, exc))
            return
        arrived.put((_NOTHING, None))

    threading.Thread(target=run, name="svmeval-results", daemon=True).start()
    try:
        while True:
            try:
                item, error = arrived.get(timeout=WAIT_STEP)
            except queue.Empty:
                continue
            if item is _NOTHING:
                if error is not None:
                    raise error
                return
            yield item
    finally:
        stop.set()


@contextlib.contextmanager
def flag(local: threading.local, name: str) -> Iterator[None]:
    """``with flag(local, name):`` sets the thread-local ``local.<name>`` True in this thread
    meanwhile (its earlier value back after)."""
    before = getattr(local, name, False)
    setattr(local, name, True)
    try:
        yield
    finally:
        setattr(local, name, before)


_stop = threading.local()


def stopping_run():
    """``with stopping_run():`` around what a run does as a Ctrl-C stops it (passing on the
    units it finished): :func:`stopping` is True in this thread meanwhile."""
    return flag(_stop, "active")


def stopping() -> bool:
    """Whether this thread is passing on what a run finished as a Ctrl-C stops it: the units
    are kept, but no progress is reported (a progress callback may wait for something the
    interrupt ended, or draw a bar the Ctrl-C has just left)."""
    return bool(getattr(_stop, "active", False))

"""Running independent training tasks (folds, or labels x folds) on the machine's cores.

A task is a callable ``task(omp_threads)``: it trains and predicts one fold and writes its rows of
the shared output arrays (disjoint from every other task's rows). ``run_tasks`` runs them on
threads (ctypes releases the GIL while LIBSVM trains) and gives each running task a share of the
cores for LIBSVM's OpenMP kernel loops; the shares of the tasks running at any time never add up
to more than the cores (or than ``jobs``, when more jobs than cores are asked for). Results do not
depend on the number of jobs, the shares or the order: each task's work is fixed before it starts
(C-SVC's kernel rows and decision values are computed element by element whatever the threads).

The schedule (measured with ``scripts/bench_cv.py``; five folds on two cores):

* ``jobs`` tasks side by side, one OpenMP thread each when jobs = cores: one thread per task
  wastes nothing, while LIBSVM's OpenMP loops end at a barrier per kernel row.
* The tail: when fewer tasks are left to start than there are jobs (the fifth fold of five on
  two cores), running it alone on one thread leaves a core idle for a whole fold. With
  :func:`wide_tail` on, the left tasks wait for the running ones, if those are expected to end
  within a third of a fold, and then start with every core shared among them (the fifth fold
  gets both). On an idle machine this takes 5-fold CV from 1.15x to 1.00-1.03x the two-core
  bound W/2 (W = LIBSVM's single-thread time; a9a, 6000 rows). With other processes on the cores
  it gains nothing (5-10% slower in the same runs): a second thread then has no free core.
* The wide tail is on only when OpenMP threads spin briefly at barriers before they sleep
  (svmeval sets ``GOMP_SPINCOUNT=10000`` unless the user chose; or ``OMP_WAIT_POLICY=passive``).
  GOMP's default spins long at each barrier; with any other busy process on the cores a
  spinning team waits a scheduler slice per kernel row, and a two-thread fold then takes 5-30x
  longer than on one thread. One thread per task has no barrier to lose.

``jobs=1`` runs the tasks in order, each with every core (as LIBSVM's own svm_cross_validation).

Interrupted runs. A KeyboardInterrupt in the calling thread (Ctrl-C in a notebook) is raised at
once: tasks not started are cancelled, and the running ones, which cannot be stopped inside
LIBSVM's C code, are told to stop at their next check (:func:`check_cancelled`, called by
svmeval's LIBSVM layer after training and while predicting): they write nothing more. Until
they have ended they are "abandoned"; the next run waits for them (:func:`wait_abandoned`)
before it touches C's global state.

The calling thread only waits, and never more than a step at a time
(:mod:`svmeval.cv.bounded_waits`): a Ctrl-C is acted on within
:data:`~svmeval.cv.bounded_waits.WAIT_STEP`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from svmeval.cv.bounded_waits import join, wait_all, wait_any
from svmeval.cv.cost import (  # noqa: F401 - the cost model, named here as before
    INLINE_ROWS,
    LOOKUP_NS,
    OPENMP_COLUMN_US,
    VALUE_NS,
    VALUE_NS_PER_NONZERO,
    machine_cores,
    one_thread,
    small_run,
)
from svmeval.cv.task import FollowUps
from svmeval.params import PRECOMPUTED, SvmParams

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

#: hold the last tasks for a wider share: None = decide by :func:`omp_waits_passively`
WIDE_TAIL: bool | None = None

#: hold the tail only if the running tasks should end within this fraction of a task's time
TAIL_WAIT = 1 / 3


def available_cores() -> int:
    """The cores this process may use (or the calling thread: :func:`cores_limited`)."""
    limit = getattr(_local, "cores", None)
    if limit:
        return limit
    return machine_cores()


def omp_waits_passively(environment) -> bool:
    """True when OpenMP threads sleep at barriers soon instead of spinning long, given the
    variables the OpenMP runtime read: ``OMP_WAIT_POLICY=passive``, or a ``GOMP_SPINCOUNT`` of
    at most 100000 (svmeval's 10000, unless the user chose a policy)."""
    policy = environment.get("OMP_WAIT_POLICY", "").strip().lower()
    if policy in ("passive", "active"):
        return policy == "passive"
    spin = environment.get("GOMP_SPINCOUNT", "").strip()
    return spin.isdigit() and int(spin) <= 100_000


def wide_tail() -> bool:
    """Whether the tail tasks wait for the running ones to get more OpenMP threads: by the
    OpenMP settings in effect in LIBSVM's runtime (svmeval's short spin only when it took
    effect: not when the runtime was loaded before svmeval loaded LIBSVM)."""
    if WIDE_TAIL is not None:
        return bool(WIDE_TAIL)
    environment = _openmp[0]  # LIBSVM loaded by now when tasks are LIBSVM's
    return environment is not None and omp_waits_passively(environment)


_openmp: list = [None]  # the OpenMP wait settings LIBSVM's runtime read, once it is loaded


def note_openmp_environment(environment: dict) -> None:
    """Record the OpenMP settings LIBSVM's runtime read (svmeval's LIBSVM layer, on loading
    it), which :func:`wide_tail` goes by."""
    _openmp[0] = dict(environment)


_local = threading.local()


class cores_limited:
    """``with cores_limited(n):`` runs in the calling thread see ``n`` cores (a Dask worker's
    task keeps LIBSVM's OpenMP threads within its own thread)."""

    def __init__(self, n: int):
        self.n = max(1, int(n))

    def __enter__(self):
        self.before = getattr(_local, "cores", None)
        _local.cores = self.n
        return self

    def __exit__(self, *exc):
        _local.cores = self.before


# --- stopping the tasks of an interrupted run ------------------------------------------------
class Cancelled(Exception):
    """Raised inside a task of a run that was interrupted or failed: it stops there."""


_abandoned: set = set()  # futures of interrupted runs still inside LIBSVM
_abandoned_lock = threading.Lock()


def current_token() -> threading.Event | None:
    """The cancel flag of the task running in this thread (None outside a task)."""
    return getattr(_local, "token", None)


def bind_token(token: threading.Event | None) -> None:
    """Make this thread (a helper a task started) stop with that task."""
    _local.token = token


def check_cancelled() -> None:
    """Raise :class:`Cancelled` if the run of the task in this thread was stopped."""
    token = getattr(_local, "token", None)
    if token is not None and token.is_set():
        raise Cancelled


def wait_abandoned() -> None:
    """Wait until no task of an interrupted run is running any more."""
    with _abandoned_lock:
        pending = list(_abandoned)
    wait_all(pending)


def left_running(future) -> None:
    """``future`` is work a caller interrupted and left inside LIBSVM (where it may draw from
    ``rand()`` and print): the next run waits for it, as for an interrupted run's tasks."""
    _abandon([future])


def _abandon(futures) -> None:
    with _abandoned_lock:
        for future in futures:
            if not future.done():
                _abandoned.add(future)
                future.add_done_callback(_forget)


def _forget(future) -> None:
    with _abandoned_lock:
        _abandoned.discard(future)


def _bound(task: Callable[[int], object], token: threading.Event) -> Callable[[int], object]:
    def run(share: int) -> object:
        _local.token = token
        try:
            check_cancelled()  # a task picked up after the run stopped does nothing
            return task(share)
        finally:
            _local.token = None

    return run


def _start(
    pool,
    tasks,
    next_task: int,
    started: dict,
    durations: list,
    token,
    *,
    jobs: int,
    cores: int,
    hold_tail: bool,
) -> int:
    """Submit tasks from ``next_task`` on while fewer than ``jobs`` run, each with its share of
    the cores; return the next task not started."""
    clock = time.monotonic
    this_round = clock()
    total = len(tasks)
    while next_task < total and len(started) < jobs:
        left = total - next_task
        # the cores shared by the tasks that will run side by side from now on
        share = max(1, cores // min(jobs, len(started) + left))
        # a task may say how many OpenMP threads it can put to use (``max_threads``)
        useful = getattr(tasks[next_task], "max_threads", None) or cores
        share = min(share, useful)
        earlier = any(t < this_round for t in started.values())
        if earlier and hold_tail and left < jobs:
            # few left: wait for the running tasks if they end soon, then share every core
            # among the left ones
            wide = min(max(1, cores // left), useful)
            if wide > share and _ending_soon(started, durations, clock()):
                break
        future = pool.submit(_bound(tasks[next_task], token), share)
        started[future] = clock()
        next_task += 1
    return next_task


def run_tasks(
    tasks: Sequence[Callable[[int], object]],
    *,
    jobs: int | None = None,
    cores: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Run every task; ``jobs`` at once (default: the cores), in order when ``jobs`` is 1.

    A task that returns :class:`~svmeval.cv.task.FollowUps` leaves further tasks: they start
    before every task not yet started (in their order). ``progress(done, total)`` is called in
    the calling thread as tasks finish (``total`` grows with follow-ups). The first
    exception of a task is raised when the running tasks have ended; tasks not started are
    dropped. A KeyboardInterrupt in the calling thread is raised at once, without waiting for
    tasks running inside LIBSVM.
    """
    tasks = list(tasks)
    if runs_inline(tasks):
        _run_inline(tasks, progress)
        return
    from concurrent.futures import ThreadPoolExecutor

    total = len(tasks)
    cores = cores or available_cores()
    # as many threads as tasks at most (follow-ups start when a thread is free again)
    jobs = max(1, min(jobs or cores, total or 1))
    hold_tail = wide_tail()
    clock = time.monotonic
    done = 0
    started: dict = {}  # running future -> its start time
    durations: list[float] = []
    next_task = 0
    # Even one job runs on a worker thread: the calling thread only waits (WAIT_STEP at a
    # time), so a Ctrl-C reaches it at once instead of when LIBSVM returns from a fold.
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="svmeval-fold")
    token = threading.Event()  # set: the running tasks stop at their next check
    try:
        try:
            while next_task < total or started:
                next_task = _start(
                    pool,
                    tasks,
                    next_task,
                    started,
                    durations,
                    token,
                    jobs=jobs,
                    cores=cores,
                    hold_tail=hold_tail,
                )
                finished = wait_any(started)
                now = clock()
                for future in finished:
                    durations.append(now - started.pop(future))
                    result = future.result()
                    if isinstance(result, FollowUps):  # they go first, in their order
                        tasks[next_task:next_task] = result.tasks
                        total = len(tasks)
                    done += 1
                    if progress:
                        progress(done, total)
        except KeyboardInterrupt:
            raise
        except BaseException:
            token.set()
            wait_all(started)  # the running tasks end first
            _shut_down(pool, cancel=True)
            raise
        _shut_down(pool)
    except KeyboardInterrupt:
        # a fold inside LIBSVM cannot be stopped: do not wait for it (the command line exits
        # at once on Ctrl-C); tasks not started are dropped, running ones stop at their next
        # check and write nothing more, and the next run waits for them
        token.set()
        _abandon(list(started))
        pool.shutdown(wait=False, cancel_futures=True)
        raise


def column_threads(train_rows: int, nonzeros_per_row: float, *, lookup: bool = False) -> int:
    """The OpenMP threads a training on ``train_rows`` rows puts to use: every core where a
    kernel column is costly, else one (:func:`svmeval.cv.cost.one_thread`)."""
    return 1 if one_thread(train_rows, nonzeros_per_row, lookup=lookup) else available_cores()


def useful_threads(problem, params: SvmParams, train_rows: int) -> int:
    """The OpenMP threads a training on ``train_rows`` rows of ``problem`` puts to use: every
    core where a kernel column is costly, else one."""
    nodes = getattr(problem, "_nodes", None)
    n = max(1, problem.n_samples)
    per_row = (len(nodes) - n) / n if nodes is not None else 0.0
    return column_threads(train_rows, per_row, lookup=params.kernel_type == PRECOMPUTED)


def runs_inline(tasks: Sequence) -> bool:
    """Whether ``tasks`` run one after another on the calling thread, each with one OpenMP
    thread: when every one is too small for a second OpenMP thread to pay (its ``max_threads``
    is 1: a kernel column costs less than starting a team) and all of them together train on at
    most :data:`INLINE_ROWS` rows.

    Such a run takes milliseconds. A worker thread per task and an OpenMP team per fold cost
    about as much as the folds themselves, and where the command is one of many processes
    started by a script (grid.py runs several at once) the other cores are busy anyway: a
    second thread would wait for a core rather than help. A Ctrl-C waits for the fold
    running in LIBSVM, a millisecond or so. Results are the same either way (a task's result
    never depends on where it ran)."""
    rows = 0
    for task in tasks:
        if getattr(task, "max_threads", None) != 1:
            return False
        rows += getattr(task, "size", INLINE_ROWS + 1)
    return rows <= INLINE_ROWS


#: what gives the calling thread its settings back after tasks ran on it: svmeval's LIBSVM
#: layer registers its OpenMP one (:func:`keep_thread_settings`)
_keeping: list = [contextlib.nullcontext]


def keep_thread_settings(factory: Callable) -> None:
    """Register ``factory()``, a context manager that gives the calling thread back the
    settings that tasks run on it change (svmeval's LIBSVM layer: the OpenMP threads)."""
    _keeping[0] = factory


def _run_inline(tasks: list, progress: Callable[[int, int], None] | None) -> None:
    """The tasks in order on the calling thread, one OpenMP thread each; follow-ups first.
    The thread's own OpenMP setting is given back at the end."""
    done, next_task = 0, 0
    with _keeping[0]():
        while next_task < len(tasks):
            result = tasks[next_task](1)
            next_task += 1
            if isinstance(result, FollowUps):  # they go first, in their order
                tasks[next_task:next_task] = result.tasks
            done += 1
            if progress:
                progress(done, len(tasks))


def _shut_down(pool: ThreadPoolExecutor, *, cancel: bool = False) -> None:
    """Shut the pool down (tasks not started dropped with ``cancel``) and join its threads,
    WAIT_STEP at a time."""
    pool.shutdown(wait=False, cancel_futures=cancel)
    for thread in list(getattr(pool, "_threads", ())):
        join(thread)


def _ending_soon(started: dict, durations: list[float], now: float) -> bool:
    """Will every running task end within TAIL_WAIT of an average finished task's time?"""
    if not durations:
        return False
    mean = sum(durations) / len(durations)
    return max(mean - (now - t) for t in started.values()) <= TAIL_WAIT * mean

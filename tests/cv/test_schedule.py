"""run_tasks: every task once, OpenMP shares within the cores, errors, order; and the results of a
cross-validation do not depend on the jobs or the schedule."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from _signals import BOUND, LIMIT, sigint_when
from hypothesis import given, settings
from hypothesis import strategies as st

from svmeval.cv import bounded_waits, schedule
from svmeval.cv.schedule import run_tasks

from conftest import data_sets


class Recorder:
    """Tasks that record their share, their thread and the shares running beside them."""

    def __init__(self, n: int, seconds=0.0, fail: dict | None = None):
        self.lock = threading.Lock()
        self.running = 0
        self.peak = 0
        self.calls: list[tuple[int, int]] = []  # (task, share) in start order
        self.events: list[tuple[str, int]] = []
        self.threads: set[int] = set()
        self.alone: set[int] = set()
        # seconds: one for all, or one per task
        self.seconds = list(seconds) if isinstance(seconds, (list, tuple)) else [seconds] * n
        self.fail = fail or {}
        self.tasks = [self._task(i) for i in range(n)]

    def _task(self, i: int):
        def task(share: int) -> None:
            with self.lock:
                self.calls.append((i, share))
                self.events.append(("start", i))
                if self.running == 0:
                    self.alone.add(i)  # no other task running as it starts
                self.running += share
                self.peak = max(self.peak, self.running)
                self.threads.add(threading.get_ident())
            try:
                if self.seconds[i]:
                    time.sleep(self.seconds[i])
                if i in self.fail:
                    raise self.fail[i]
            finally:
                with self.lock:
                    self.running -= share
                    self.events.append(("end", i))

        return task

    def ran(self) -> list[int]:
        return sorted(i for i, _ in self.calls)


@pytest.fixture(params=[False, True], ids=["one-thread-tail", "wide-tail"])
def tail(request, monkeypatch):
    monkeypatch.setattr(schedule, "WIDE_TAIL", request.param)
    return request.param


@pytest.mark.parametrize(
    "n, jobs, cores",
    [
        (5, 2, 2),
        (5, 3, 2),
        (5, 2, 4),
        (5, 4, 4),
        (10, 3, 8),
        (3, 8, 2),
        (1, 2, 2),
        (5, None, 2),
    ],
)
def test_each_task_once_shares_within_the_cores(tail, n, jobs, cores):
    rec = Recorder(n, seconds=0.02)
    seen = []
    run_tasks(rec.tasks, jobs=jobs, cores=cores, progress=lambda d, t: seen.append((d, t)))
    assert rec.ran() == list(range(n))
    assert all(share >= 1 for _, share in rec.calls)
    assert rec.peak <= max(cores, jobs or cores)
    assert seen == [(d, n) for d in range(1, n + 1)]


def test_more_jobs_than_cores_one_thread_each(tail):
    """One thread a task; with the wide tail, the last task may be held until the others end
    (whether they end soon is a matter of timing) and then starts alone with every core."""
    rec = Recorder(6, seconds=0.01)
    run_tasks(rec.tasks, jobs=4, cores=2)
    wide = [(i, share) for i, share in rec.calls if share != 1]
    last = rec.calls[-1][0]
    assert wide == [] or (tail and wide == [(last, 2)] and last in rec.alone), rec.calls
    assert rec.peak <= 4


def test_jobs_above_tasks_runs_each_once_with_the_cores_shared():
    rec = Recorder(3, seconds=0.02)
    run_tasks(rec.tasks, jobs=8, cores=6)
    assert rec.ran() == [0, 1, 2]
    assert [share for _, share in rec.calls] == [2, 2, 2]
    assert rec.peak <= 6


def test_jobs_1_in_order_with_every_core_on_one_worker_thread():
    """One job: in order, every core, on one worker thread (the caller only waits, so a
    Ctrl-C reaches it at once)."""
    rec = Recorder(5)
    run_tasks(rec.tasks, jobs=1, cores=3)
    assert rec.calls == [(i, 3) for i in range(5)]
    assert len(rec.threads) == 1 and threading.get_ident() not in rec.threads


def test_no_tasks():
    seen = []
    run_tasks([], jobs=2, cores=2, progress=lambda d, t: seen.append(d))
    run_tasks([], jobs=1, cores=2)
    assert seen == []


def test_progress_called_in_the_calling_thread():
    threads = set()
    run_tasks(
        Recorder(5, seconds=0.01).tasks,
        jobs=2,
        cores=2,
        progress=lambda d, t: threads.add(threading.get_ident()),
    )
    assert threads == {threading.get_ident()}


def test_wide_tail_holds_the_last_task_for_every_core(monkeypatch):
    monkeypatch.setattr(schedule, "WIDE_TAIL", True)
    monkeypatch.setattr(schedule, "_ending_soon", lambda *a: True)
    rec = Recorder(5, seconds=0.02)
    run_tasks(rec.tasks, jobs=2, cores=2)
    shares = dict(rec.calls)
    assert [shares[i] for i in range(4)] == [1, 1, 1, 1] and shares[4] == 2
    start_last = rec.events.index(("start", 4))
    assert {i for kind, i in rec.events[:start_last] if kind == "end"} == {0, 1, 2, 3}
    assert rec.peak <= 2


def test_wide_tail_shares_the_cores_among_the_left_tasks(monkeypatch):
    monkeypatch.setattr(schedule, "WIDE_TAIL", True)
    monkeypatch.setattr(schedule, "_ending_soon", lambda *a: True)
    rec = Recorder(6, seconds=0.02)
    run_tasks(rec.tasks, jobs=4, cores=4)  # 4 on one thread each, then 2 on two each
    assert sorted(share for _, share in rec.calls) == [1, 1, 1, 1, 2, 2]
    assert rec.peak <= 4


# task 1 runs long: the last task starts while it still runs, so one thread is all it may take
SLOW_SECOND = [0.01, 0.2, 0.01, 0.01, 0.01]


def test_tail_not_held_when_the_running_task_is_far_from_done(monkeypatch):
    monkeypatch.setattr(schedule, "WIDE_TAIL", True)
    monkeypatch.setattr(schedule, "_ending_soon", lambda *a: False)
    rec = Recorder(5, seconds=SLOW_SECOND)
    run_tasks(rec.tasks, jobs=2, cores=2)
    assert {share for _, share in rec.calls} == {1}


def test_without_wide_tail_the_last_task_keeps_one_thread(monkeypatch):
    monkeypatch.setattr(schedule, "WIDE_TAIL", False)
    monkeypatch.setattr(schedule, "_ending_soon", lambda *a: True)  # not even asked
    rec = Recorder(5, seconds=SLOW_SECOND)
    run_tasks(rec.tasks, jobs=2, cores=2)
    assert {share for _, share in rec.calls} == {1}


def test_wide_tail_follows_the_openmp_wait_policy():
    passive = schedule.omp_waits_passively
    assert passive({"OMP_WAIT_POLICY": "PASSIVE"})
    assert not passive({"OMP_WAIT_POLICY": "active", "GOMP_SPINCOUNT": "10000"})
    assert not passive({})  # GOMP's default: long spins
    assert passive({"GOMP_SPINCOUNT": "10000"})  # svmeval's default: a short spin, then sleep
    assert not passive({"GOMP_SPINCOUNT": "300000"})


def test_ending_soon_compares_the_rest_with_a_third_of_a_task():
    # finished tasks took 9 s on average; running ones started at 0 and 5, now is 10
    assert not schedule._ending_soon({"a": 0.0, "b": 5.0}, [9.0], 10.0)  # b: 4 s left > 3
    assert schedule._ending_soon({"a": 0.0, "b": 3.0}, [9.0], 10.0)  # b: 2 s left
    assert not schedule._ending_soon({"a": 0.0}, [], 10.0)  # nothing to go by


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_first_exception_raised_tasks_not_started_dropped(tail, jobs):
    rec = Recorder(6, seconds=0.02, fail={0: ValueError("fold 0"), 3: KeyError("fold 3")})
    with pytest.raises(ValueError, match="fold 0"):
        run_tasks(rec.tasks, jobs=jobs, cores=2)
    assert rec.running == 0  # every started task had ended
    assert len(rec.calls) < 6
    assert len(set(i for i, _ in rec.calls)) == len(rec.calls)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 9),
    jobs=st.one_of(st.none(), st.integers(1, 6)),
    cores=st.integers(1, 6),
    wide=st.booleans(),
)
def test_schedule_properties(n, jobs, cores, wide):
    saved = schedule.WIDE_TAIL
    schedule.WIDE_TAIL = wide
    try:
        rec = Recorder(n)
        run_tasks(rec.tasks, jobs=jobs, cores=cores)
    finally:
        schedule.WIDE_TAIL = saved
    assert rec.ran() == list(range(n))
    assert all(share >= 1 for _, share in rec.calls)
    assert rec.peak <= max(cores, jobs or cores)


# --- end to end: LIBSVM's cross-validation, identical whatever the schedule -------------------
@pytest.mark.parametrize("path", data_sets("heart_scale", "iris.scale"), ids=lambda p: p.name)
def test_cross_validation_identical_for_every_jobs_value(path, monkeypatch):
    from svmeval.cv.engine import cross_validate
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    ds = read_dataset(str(path))
    runs = []
    for wide in (False, True):
        monkeypatch.setattr(schedule, "WIDE_TAIL", wide)
        for jobs in (1, 2, 3):
            runs.append(cross_validate(ds, SvmParams(C=4), 5, jobs=jobs, keep_decision_values=True))
    first = runs[0]
    for other in runs[1:]:
        np.testing.assert_array_equal(other.y_pred, first.y_pred)
        np.testing.assert_array_equal(other.decision_values, first.decision_values)
        np.testing.assert_array_equal(other.fold, first.fold)


# --- Ctrl-C in the calling thread --------------------------------------------------------------
def interrupted_run(n_tasks: int = 6):
    """run_tasks on ``n_tasks`` tasks that stay "inside LIBSVM" (blocked) until released, with
    SIGINT sent to the calling thread at the instant both of the first two have started.
    Returns (seconds from the signal to the KeyboardInterrupt, tasks started, tasks back from
    "LIBSVM" when it was raised, release, tasks that wrote)."""
    release, both = threading.Event(), threading.Event()
    started, back, wrote = [], [], []

    def task(i):
        def run(share):
            started.append(i)
            if len(started) == 2:
                both.set()
            release.wait(LIMIT)  # "inside LIBSVM" until the test lets it go
            back.append(i)
            schedule.check_cancelled()
            wrote.append(i)

        return run

    delay = sigint_when(
        both, release, lambda: run_tasks([task(i) for i in range(n_tasks)], jobs=2, cores=2)
    )
    return delay, list(started), list(back), release, wrote


def test_interrupt_cancels_pending_tasks_and_stops_running_ones():
    """Ctrl-C in the calling thread: raised at once; tasks not started never start; a running
    task, once it gets back from C, stops at its next check and writes nothing; the next run
    waits for it."""
    delay, started, back, release, wrote = interrupted_run()
    assert back == []  # raised while both tasks were still inside, not when they ended
    assert sorted(started) == [0, 1]
    release.set()
    schedule.wait_abandoned()
    assert wrote == []
    # a later run is not affected
    rec = Recorder(4)
    run_tasks(rec.tasks, jobs=2, cores=2)
    assert rec.ran() == [0, 1, 2, 3]


def test_ctrl_c_is_acted_on_within_a_wait_step_every_time():
    """SIGINT at the instant both tasks have started, 200 times: CPython runs the handler only
    at its next check, and a signal that lands after that check but before the calling thread
    blocks in a lock's wait interrupts nothing (before bounded waits, about a quarter of these
    were raised only when the tasks were released). Every time, the KeyboardInterrupt must come
    within BOUND while the tasks are still blocked."""
    delays = []
    for _ in range(200):
        delay, started, back, release, _ = interrupted_run(n_tasks=2)
        release.set()
        schedule.wait_abandoned()
        assert back == [] and sorted(started) == [0, 1]
        delays.append(delay)
    assert max(delays) <= BOUND, sorted(delays)[-5:]


@pytest.mark.parametrize("kind", ["call", "join", "hold", "wait_all"])
def test_every_bounded_wait_is_interrupted_within_the_bound(kind):
    """schedule's other waits (a blocking call on a helper thread, a thread's join, a lock, a
    set of futures), SIGINT the instant what they wait for is blocked, 50 times each: the
    KeyboardInterrupt within BOUND every time. An interrupted call's result, when it comes, goes
    to its on_abandoned."""
    from concurrent.futures import ThreadPoolExecutor

    delays, abandoned = [], []
    for _ in range(50):
        ready, release = threading.Event(), threading.Event()

        def blocked():
            ready.set()
            release.wait(LIMIT)
            return "value"

        if kind == "call":

            def wait():
                bounded_waits.call(blocked, on_abandoned=abandoned.append)
        elif kind == "join":
            thread = threading.Thread(target=blocked)
            thread.start()

            def wait():
                bounded_waits.join(thread)
        elif kind == "hold":
            lock = threading.RLock()

            def holder():
                with lock:
                    blocked()

            threading.Thread(target=holder).start()

            def wait():
                with bounded_waits.hold(lock):
                    pass
        else:
            pool = ThreadPoolExecutor(1)
            future = pool.submit(blocked)

            def wait():
                bounded_waits.wait_all([future])

        delays.append(sigint_when(ready, release, wait))
        release.set()
    assert max(delays) <= BOUND, sorted(delays)[-5:]
    if kind == "hold":  # none left held by the interrupted waits
        assert not lock._is_owned() and lock.acquire(timeout=LIMIT)
    if kind == "call":
        deadline = time.monotonic() + LIMIT
        while len(abandoned) < 50 and time.monotonic() < deadline:
            time.sleep(0.01)  # the helper threads hand their results over as they end
        assert abandoned == ["value"] * 50


def test_call_returns_the_value_and_raises_the_error_of_the_call():
    assert bounded_waits.call(lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(ValueError, match="from the helper"):
        bounded_waits.call(lambda: int("from the helper"))


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_follow_ups_run_once_after_their_task_before_the_tasks_not_started(jobs):
    """A task that returns FollowUps: each follow-up runs once, after the task that left it,
    and (with one job) before every task not yet started; progress counts them too."""
    from svmeval.cv.task import FollowUps

    order: list = []
    lock = threading.Lock()

    def task(name, follow=()):
        def run(share):
            with lock:
                order.append(name)
            return FollowUps([task(f) for f in follow]) if follow else 1

        return run

    tasks = [task("a", ("a1", "a2")), task("b"), task("c", ("c1",)), task("d")]
    seen = []
    run_tasks(tasks, jobs=jobs, cores=2, progress=lambda done, total: seen.append((done, total)))
    assert sorted(order) == ["a", "a1", "a2", "b", "c", "c1", "d"]
    assert order.index("a") < order.index("a1") and order.index("c") < order.index("c1")
    if jobs == 1:
        assert order == ["a", "a1", "a2", "b", "c", "c1", "d"]
    assert seen[-1] == (7, 7)


OPENMP_KEPT = """
import ctypes, json, sys, threading
from svmeval import cross_validate
from svmeval.cv import _libsvm
_libsvm._c()  # LIBSVM (and its OpenMP runtime) loaded
gomp = ctypes.CDLL("libgomp.so.1")
before = gomp.omp_get_max_threads()
started = threading.active_count()
result = cross_validate(sys.argv[1], "-c 1", 5)
print(json.dumps([before, gomp.omp_get_max_threads(), threading.active_count() - started,
                  len(result.y_pred)]))
"""


def test_a_small_run_stays_on_the_calling_thread_and_leaves_its_openmp_setting(tmp_path):
    """Folds of a few rows run on the calling thread, one OpenMP thread each: no thread is
    started, and the caller's thread has its OpenMP setting (OMP_NUM_THREADS=3) back after."""
    import json
    import os
    import subprocess
    import sys

    data = tmp_path / "small"
    data.write_text(
        "".join(f"{1 if i % 2 else -1} 1:{i / 10} 2:{(i * 7 % 10) / 10}\n" for i in range(40))
    )
    done = subprocess.run(
        [sys.executable, "-c", OPENMP_KEPT, str(data)],
        capture_output=True,
        text=True,
        env=dict(os.environ, OMP_NUM_THREADS="3"),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [3, 3, 0, 40]

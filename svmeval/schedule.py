"""Running independent training tasks (folds, or labels x folds) on the machine's cores.

A task is a callable ``task(omp_threads)``: it trains and predicts one fold and writes its rows of
the shared output arrays (disjoint from every other task's rows). ``run_tasks`` runs them on
threads (ctypes releases the GIL while LIBSVM trains) and gives each running task a share of the
cores for LIBSVM's OpenMP kernel loops, so the cores are never oversubscribed. Results do not
depend on the number of jobs: each task's work is fixed before it starts.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Callable, Sequence


def available_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_tasks(tasks: Sequence[Callable[[int], None]], *, jobs: int | None = None,
              cores: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> None:
    """Run every task; ``jobs`` at once (default: the cores), in order when ``jobs`` is 1.

    ``progress(done, total)`` is called in the calling thread as tasks finish. The first
    exception of a task is raised after the running tasks end; tasks not started are dropped.
    KeyboardInterrupt stops handing out tasks and waits for the running ones.
    """
    total = len(tasks)
    cores = cores or available_cores()
    jobs = max(1, min(jobs or cores, total or 1))
    if jobs == 1:
        for done, task in enumerate(tasks, 1):
            task(cores)
            if progress:
                progress(done, total)
        return
    done = 0
    pending: set = set()
    next_task = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            while next_task < total or pending:
                while next_task < total and len(pending) < jobs:
                    # the cores shared by the tasks that will run side by side from now on
                    side_by_side = min(jobs, len(pending) + total - next_task)
                    share = max(1, cores // side_by_side)
                    pending.add(pool.submit(tasks[next_task], share))
                    next_task += 1
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    future.result()
                    done += 1
                    if progress:
                        progress(done, total)
        except BaseException:
            next_task = total
            for future in pending:
                future.cancel()
            raise

#!/usr/bin/env python3
"""svmeval's cross-validation on c cores, predicted from one run on this machine.

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/simulate_cores.py                     # every set, c = 16
    .venv/bin/python scripts/simulate_cores.py --sets dna,satimage --cores 4,8,16
    .venv/bin/python scripts/simulate_cores.py --validate          # the model against this machine

For each set (``bench_cv.py``'s, full size; 5-fold C-SVC with svm-train's defaults):

1. **W**: LIBSVM's own cross-validation on one thread (``svm_cross_validation`` after
   ``srand(1)``, one OpenMP thread), its CPU seconds;
2. svmeval's cross-validation with one job on one core, every task (a fold; or a one-vs-one
   pair of a multiclass fold, and the parts of the fold's prediction that its last pair
   leaves) recorded with its CPU seconds (``svmeval.cv.run.executors.recording``: on one thread a
   task's CPU time is its work, whatever else the machine runs); the seconds before the first
   task starts and after the last ends are the time **outside** them (drawing folds, building
   the tasks, collecting the result), which no core count shortens;
3. the scheduler replayed on c simulated cores, event by event: whenever a core is free it
   starts the next task in svmeval's order, a task's follow-ups going first once it has ended
   (as :func:`svmeval.cv.schedule.run_tasks` does), each for its recorded time. Where fewer
   tasks are left than cores and a task can use OpenMP threads (``max_threads`` > 1), it gets
   the idle cores' share, its time divided by ``1 + e (t - 1)`` for t threads
   (``--openmp-efficiency e``, default 0.5; 0 = no gain from OpenMP).

Printed: W, the tasks' sum, the time outside them, the predicted time T_c (outside + the
replay's makespan) and the ratio T_c / (W / c) for each c. ``--validate``: also runs the real
cross-validation on every core of this machine (its tasks recorded) and gives its wall time,
the model's T for this machine's cores over it, its CPU seconds and their ratio to W (what
svmeval adds to LIBSVM's work), the seconds before its first task starts and after its last
ends, and how busy its cores were (the tasks' wall seconds over cores x wall); the load
average beside each figure: on a busy machine the real run is slower than the model, which
assumes idle cores.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import heapq
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import bench_cv  # noqa: E402  (the sets)
from _bench_common import libsvm_cv_one_thread  # noqa: E402  (the LIBSVM one-thread CV)


@contextlib.contextmanager
def quiet_stdout():
    """LIBSVM's bindings print the CV rate on file descriptor 1: sent to standard error."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def simulate(tasks: list, cores: int, efficiency: float) -> float:
    """Makespan of ``tasks`` (``(position, seconds, wide)``, in start order; a position
    ``parent + (j,)`` is a follow-up of ``parent``) on ``cores`` cores; a wide task can use
    OpenMP threads."""
    follow: dict = {}
    first = []
    for position, seconds, wide in tasks:
        if len(position) == 1:
            first.append((position, seconds, wide))
        else:
            follow.setdefault(position[:-1], []).append((position, seconds, wide))
    waiting = collections.deque(first)
    running: list = []  # (finish, position, threads) of the running tasks (a heap)
    free, now = cores, 0.0
    while waiting or running:
        while free and waiting:
            position, seconds, wide = waiting.popleft()
            left = len(waiting) + 1
            threads = max(1, free // left) if wide and left < cores else 1
            free -= threads
            finish = now + seconds / (1 + efficiency * (threads - 1))
            heapq.heappush(running, (finish, position, threads))
        now, position, threads = heapq.heappop(running)
        free += threads
        waiting.extendleft(reversed(follow.pop(position, [])))
    return now


def record(path: Path, parts: int) -> tuple[list, float]:
    """Every task of svmeval's 5-fold CV on one thread, one at a time: their ``(position,
    CPU seconds, wide)`` in start order, and the seconds outside them (before the first task
    starts and after the last ends: the gaps between tasks, one task handed to the thread
    after another, overlap with other tasks on many cores)."""
    from svmeval.cv.engine import cross_validate
    from svmeval.cv.plan import cv_plan
    from svmeval.cv.run.executors import recording
    from svmeval.cv.schedule import cores_limited
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    ds = read_dataset(str(path))
    # a fold's prediction in as many parts as the most cores simulated (recorded on one
    # core, the parts' sum is the same work)
    cv_plan.PREDICT_PARTS = parts
    with recording() as tasks, cores_limited(1):
        start = time.perf_counter()
        cross_validate(ds, SvmParams(), 5, jobs=1)
        end = time.perf_counter()
    outside = (min(t[7] for t in tasks) - start) + (end - max(t[7] + t[1] for t in tasks))
    # max_threads was decided under one core: whether a task can use OpenMP, by its size
    out = [(p, cpu, _wide(ds, size)) for p, _, _, size, _, _, cpu, _ in sorted(tasks)]
    return out, outside


def _wide(ds, size: int) -> bool:
    """Whether a task of ``size`` training rows of ``ds`` puts OpenMP threads to use."""
    from svmeval.cv.run import kernel

    per_row = len(ds.indices) / max(1, ds.n_samples)
    return (
        size * (kernel._VALUE_NS + kernel._VALUE_NS_PER_NONZERO * per_row)
        >= kernel._OPENMP_COLUMN_US * 1000
    )


def real_run(path: Path) -> dict:
    """svmeval's cross-validation on every core of this machine, its tasks recorded: wall and
    CPU seconds, the seconds before its first task starts and after its last ends, and how busy
    the cores were (the tasks' wall seconds over cores x wall)."""
    from svmeval.cv.engine import cross_validate
    from svmeval.cv.run.executors import recording
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    ds = read_dataset(str(path))
    with recording() as tasks:
        start, cpu = time.perf_counter(), time.process_time()
        cross_validate(ds, SvmParams(), 5)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    first = min(t[7] for t in tasks) - start
    last = start + wall - max(t[7] + t[1] for t in tasks)
    cores = len(os.sched_getaffinity(0))
    busy = sum(t[1] for t in tasks) / (cores * wall)
    return {"wall": wall, "cpu": cpu, "first": first, "last": last, "busy": busy}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(bench_cv.SETS))
    ap.add_argument("--cores", default="2,4,8,16")
    ap.add_argument("--openmp-efficiency", type=float, default=0.5)
    ap.add_argument("--quick", action="store_true", help="bench_cv.py's smaller subsets")
    ap.add_argument(
        "--validate",
        action="store_true",
        help="compare the 2-core prediction with a real 2-job run",
    )
    args = ap.parse_args(argv)
    cores = [int(c) for c in args.cores.split(",")]
    e = args.openmp_efficiency
    print(
        f"# svmeval CV on c simulated cores: 5-fold C-SVC, svm-train's defaults; "
        f"recorded on {len(os.sched_getaffinity(0))} cores; OpenMP efficiency {e}"
    )
    head = (
        f"{'set':9s} {'rows':>6s} {'tasks':>6s} {'W s':>8s} {'sum s':>8s} {'out s':>6s} | "
        + " ".join(f"{'T' + str(c):>7s} {'/(W/' + str(c) + ')':>8s}" for c in cores)
    )
    here = len(os.sched_getaffinity(0))
    if args.validate:
        head += (
            f" | {'real':>6s} {'T' + str(here):>6s} {'T/real':>6s} {'CPU':>6s} {'/W':>5s}"
            f" {'before':>6s} {'after':>6s} {'busy':>5s}"
        )
    print(head + " | load")
    with tempfile.TemporaryDirectory(prefix="simulate_cores.") as tmpdir:
        for name in args.sets.split(","):
            _, full, quick = bench_cv.SETS[name]
            path, n, _ = bench_cv.prepare(name, quick if args.quick else full, Path(tmpdir))
            load = os.getloadavg()[0]
            with quiet_stdout():  # W: LIBSVM's one-thread CV, its CPU seconds (reading left out)
                _, w, _ = libsvm_cv_one_thread(str(path))
            tasks, outside = record(path, max(cores))
            total = sum(seconds for _, seconds, _ in tasks)

            row = f"{name:9s} {n:>6d} {len(tasks):>6d} {w:>8.2f} {total:>8.2f} {outside:>6.2f} | "
            for c in cores:
                t = outside + simulate(tasks, c, e)
                row += f"{t:>7.2f} {t / (w / c):>8.2f} "
            if args.validate:
                real = real_run(path)
                t = outside + simulate(tasks, here, e)
                row += (
                    f"| {real['wall']:>6.2f} {t:>6.2f} {t / real['wall']:>6.2f} "
                    f"{real['cpu']:>6.2f} {real['cpu'] / w:>5.2f} {real['first']:>6.3f} "
                    f"{real['last']:>6.3f} {real['busy']:>5.2f} "
                )
            print(row + f"| {load:.1f}>{os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

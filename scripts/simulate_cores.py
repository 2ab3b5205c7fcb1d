#!/usr/bin/env python3
"""svmeval's cross-validation on c cores, predicted from one run on this machine.

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/simulate_cores.py                     # every set, c = 16
    .venv/bin/python scripts/simulate_cores.py --sets dna,satimage --cores 4,8,16
    .venv/bin/python scripts/simulate_cores.py --validate          # the model against 2 real cores

For each set (``bench_cv.py``'s, full size; 5-fold C-SVC with svm-train's defaults):

1. **W**: LIBSVM's own cross-validation on one thread (``svm_cross_validation`` after
   ``srand(1)``, ``OMP_NUM_THREADS``-style one thread), timed;
2. every task of svmeval's cross-validation (a fold, or a one-vs-one pair of a multiclass
   fold; the last pair of a fold also predicts it) run one at a time on one thread, each
   task's seconds recorded (``svmeval.cv.executors.recording``);
3. the scheduler replayed on c simulated cores: list scheduling, the tasks in the order
   svmeval's scheduler starts them, each on the first core free, for its recorded time. Where
   fewer tasks are left than cores and a task can use OpenMP threads (``max_threads`` > 1), it
   gets the idle cores' share, its time divided by ``1 + e (t - 1)`` for t threads
   (``--openmp-efficiency e``, default 0.5; 0 = no gain from OpenMP).

Printed: W, the recorded sum, the predicted time T_c and the ratio T_c / (W / c) for each c.
``--validate``: also runs the real cross-validation with 2 jobs, interleaved with a fresh
recording, and compares T_2 with it (the load average beside each figure: on a busy machine
the real run is slower than the model, which assumes idle cores).
"""

from __future__ import annotations

import argparse
import heapq
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import bench_cv  # noqa: E402  (the sets and the LIBSVM one-thread CV)


def simulate(tasks: list, cores: int, efficiency: float) -> float:
    """Makespan of ``tasks`` ((seconds, wide), in start order) on ``cores`` cores; a wide task
    can use OpenMP threads."""
    free = [0.0] * cores  # when each core is next free (a heap)
    heapq.heapify(free)
    end = 0.0
    for k, (seconds, wide) in enumerate(tasks):
        start = heapq.heappop(free)
        left = len(tasks) - k
        idle = 1 + sum(1 for t in free if t <= start)
        threads = max(1, idle // left) if wide and left < cores else 1
        busy = [heapq.heappop(free) for _ in range(threads - 1)]  # the idle cores it takes
        finish = start + seconds / (1 + efficiency * (threads - 1))
        for _ in busy:
            heapq.heappush(free, finish)
        heapq.heappush(free, finish)
        end = max(end, finish)
    return end


def record(path: Path) -> tuple[list, float]:
    """Every task of svmeval's 5-fold CV on one thread, one at a time: their (seconds, wide)
    in start order, and the run's wall seconds."""
    from svmeval.cv.engine import cross_validate
    from svmeval.cv.executors import recording
    from svmeval.cv.schedule import cores_limited
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    ds = read_dataset(str(path))
    with recording() as tasks, cores_limited(1):
        start = time.perf_counter()
        cross_validate(ds, SvmParams(), 5, jobs=1)
        wall = time.perf_counter() - start
    # max_threads was decided under one core: whether a task can use OpenMP, by its size
    out = [(seconds, _wide(ds, size)) for _, seconds, _, size, _, _ in sorted(tasks)]
    return out, wall


def _wide(ds, size: int) -> bool:
    """Whether a task of ``size`` training rows of ``ds`` puts OpenMP threads to use."""
    from svmeval.cv import kernel

    per_row = len(ds.indices) / max(1, ds.n_samples)
    return (
        size * (kernel._VALUE_NS + kernel._VALUE_NS_PER_NONZERO * per_row)
        >= kernel._OPENMP_COLUMN_US * 1000
    )


def real_run(path: Path, jobs: int) -> float:
    from svmeval.cv.engine import cross_validate
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    ds = read_dataset(str(path))
    start = time.perf_counter()
    cross_validate(ds, SvmParams(), 5, jobs=jobs)
    return time.perf_counter() - start


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
    head = f"{'set':9s} {'rows':>6s} {'tasks':>6s} {'W s':>8s} {'sum s':>8s} | " + " ".join(
        f"{'T' + str(c):>7s} {'/(W/' + str(c) + ')':>8s}" for c in cores
    )
    if args.validate:
        head += f" | {'real 2j':>7s} {'T2':>6s} {'T2/real':>7s}"
    print(head + " | load")
    with tempfile.TemporaryDirectory(prefix="simulate_cores.") as tmpdir:
        for name in args.sets.split(","):
            _, full, quick = bench_cv.SETS[name]
            path, n, _ = bench_cv.prepare(name, quick if args.quick else full, Path(tmpdir))
            load = os.getloadavg()[0]
            w, _ = bench_cv.libsvm_cv_one_thread(str(path))
            tasks, _ = record(path)
            total = sum(s for s, _ in tasks)
            row = f"{name:9s} {n:>6d} {len(tasks):>6d} {w:>8.2f} {total:>8.2f} | "
            row += " ".join(
                f"{simulate(tasks, c, e):>7.2f} {simulate(tasks, c, e) / (w / c):>8.2f}"
                for c in cores
            )
            if args.validate:
                real = real_run(path, 2)
                t2 = simulate(tasks, 2, e)
                row += f" | {real:>7.2f} {t2:>6.2f} {t2 / real:>7.2f}"
            print(row + f" | {load:.1f}>{os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

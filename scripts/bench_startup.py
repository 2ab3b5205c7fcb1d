#!/usr/bin/env python3
"""Whole-command cost of `svmeval -q -v 5 FILE` beside a plain libsvm-python script doing the
same (svm_read_problem + svm_train(y, x, '-q -v 5')), measured in the same run.

Each command runs REPEAT times in a fresh process; the script prints the median wall time, the
peak resident memory (ru_maxrss of the child) and the ratios svmeval / libsvm.

Usage: python scripts/bench_startup.py [FILE] [--repeat N]   (default FILE: ../shared/data/heart_scale)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(cmd: list[str], repeat: int) -> tuple[float, float]:
    walls, peaks = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - t0)
        if status != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}")
        peaks.append(usage.ru_maxrss / 1024)  # KiB -> MiB
    return statistics.median(walls), max(peaks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT.parent / "shared" / "data" / "heart_scale"))
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    contenders = {
        "svmeval -q -v 5": [py, "-m", "svmeval", "-q", "-v", "5", args.file],
        "libsvm-python -v 5": [py, "-c",
                               "import sys; from libsvm.svmutil import svm_read_problem, svm_train;"
                               "y, x = svm_read_problem(sys.argv[1]); svm_train(y, x, '-q -v 5')",
                               args.file],
        "python startup only": [py, "-c", "pass"],
    }
    results = {name: measure(cmd, args.repeat) for name, cmd in contenders.items()}
    print(f"file: {args.file}   runs per command: {args.repeat} (median wall, max peak RSS)")
    print(f"{'command':<22}{'wall s':>9}{'peak MiB':>10}")
    for name, (wall, peak) in results.items():
        print(f"{name:<22}{wall:>9.3f}{peak:>10.1f}")
    (sw, sm), (lw, lm) = results["svmeval -q -v 5"], results["libsvm-python -v 5"]
    print(f"ratio svmeval / libsvm-python: wall {sw / lw:.2f}x, peak memory {sm / lm:.2f}x")



if __name__ == "__main__":
    main()

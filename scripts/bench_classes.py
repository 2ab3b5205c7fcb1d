"""Many classes: svmeval's cross-validation against svm-train's (``bench_cv.py --classes``).

For each k: 2k rows of 2 random features, two rows per class (labels 1..k), 2-fold
cross-validation with svm-train's defaults. Contenders, each in its own Python process:

* ``svm-train``  libsvm-official's ``svm_train(prob, '-q -v 2')``: svm-train's own C code
  (svm_cross_validation), the call alone; run twice, with LIBSVM's OpenMP threads and with
  ``OMP_NUM_THREADS=1``, and the faster run counts (OpenMP barriers suffer on a busy machine);
* ``svmeval``    ``cross_validate(ds, SvmParams(), 2)`` and ``summarize`` (the per-class scores
  and the ranking figures of every class): what ``svmeval -v 2`` computes.

Seconds of those calls and each process's peak resident set (``VmHWM``, its own), the ratios
svmeval / svm-train (targets: time <= 3, memory <= 10 at k = 1000), and whether svmeval's
predictions equal svm_cross_validation's after ``srand(1)``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_classes(path: Path, k: int, seed: int = 0) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, k + 1), 2)
    rng.shuffle(y)
    X = rng.uniform(-1, 1, size=(len(y), 2))
    path.write_text("".join(f"{c} 1:{a:.6f} 2:{b:.6f}\n" for c, (a, b) in zip(y, X)))


def child(kind: str, path: str, out: str) -> None:
    import numpy as np

    if kind == "svmeval":
        sys.path.insert(0, str(ROOT))
        from svmeval import SvmParams, cross_validate, read_dataset, summarize

        ds = read_dataset(path)
        t = time.perf_counter()
        result = cross_validate(ds, SvmParams(), 2)
        summarize(result)
        seconds = time.perf_counter() - t
        np.save(out, result.y_pred)
    else:
        from _bench_common import libsvm_cv  # svm-train's CV, as the CV benchmark runs it

        seconds, _, target = libsvm_cv(path, "-q -v 2")
        np.save(out, target)
    with open("/proc/self/status") as f:
        hwm = next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
    print(json.dumps({"seconds": seconds, "hwm_mb": hwm / 1024}))


def run_child(kind: str, path: Path, out: Path, **env) -> dict:
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), kind, str(path), str(out)],
        capture_output=True,
        text=True,
        timeout=3600,
        env=dict(os.environ, **env),
    )
    if done.returncode:
        raise SystemExit(f"{kind} failed: {done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main(ks: list[int]) -> int:
    import numpy as np

    print(
        f"# many classes: 2k rows, 2 features, -v 2, svm-train's defaults; "
        f"{len(os.sched_getaffinity(0))} cores, load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'k':>6} {'svm-train s':>11} {'MB':>6} {'svmeval s':>10} {'MB':>6} "
        f"{'time x':>7} {'memory x':>8} identical"
    )
    same_all = True
    with tempfile.TemporaryDirectory(prefix="bench_classes.") as tmpdir:
        tmp = Path(tmpdir)
        for k in ks:
            path = tmp / f"k{k}.txt"
            write_classes(path, k)
            lib = min(
                (
                    run_child("svm-train", path, tmp / "lib.npy", **env)
                    for env in ({}, {"OMP_NUM_THREADS": "1"})
                ),
                key=lambda r: r["seconds"],
            )
            sv = run_child("svmeval", path, tmp / "sv.npy")
            same = np.array_equal(np.load(tmp / "lib.npy"), np.load(tmp / "sv.npy"))
            same_all &= same
            print(
                f"{k:>6} {lib['seconds']:>11.2f} {lib['hwm_mb']:>6.0f} {sv['seconds']:>10.2f} "
                f"{sv['hwm_mb']:>6.0f} {sv['seconds'] / lib['seconds']:>7.2f} "
                f"{sv['hwm_mb'] / lib['hwm_mb']:>8.2f} {'yes' if same else 'no'}",
                flush=True,
            )
    print(f"# load after {os.getloadavg()[0]:.1f}")
    return 0 if same_all else 1


if __name__ == "__main__":
    child(*sys.argv[1:4])

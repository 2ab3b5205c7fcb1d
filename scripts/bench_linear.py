"""svmeval-linear against LIBLINEAR's own ``train``, in one run: ``-v 5`` and ``-C``.

LIBLINEAR's ``train`` is built from LIBLINEAR's source in a temporary folder (LIBLINEAR's own
Makefile: scripts/liblinear_train.py); each contender runs as a whole process (start-up and
reading the data included), the two taking turns, ``--runs`` times each; the median wall
seconds and their ratio are printed. Both print the same first line(s): checked on every run.

Usage: python scripts/bench_linear.py LIBLINEAR_SOURCE [--runs N] [--data FILE ...]
       (default data: ../shared/data/a9a and ijcnn1, which is ../shared/data/ijcnn1.t.bz2
       decompressed into the temporary folder; solvers -s 1 and -s 2 with -v 5, -s 2 with -C)
"""

from __future__ import annotations

import argparse
import bz2
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "data"
RUNS = (["-s", "1", "-v", "5"], ["-s", "2", "-v", "5"], ["-s", "2", "-C"])


def timed(line: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU seconds (user + system, of the child) of one whole process, its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(line, capture_output=True, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", nargs="*", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from liblinear_train import build_liblinear_train

    linear = shutil.which("svmeval-linear") or str(Path(sys.executable).parent / "svmeval-linear")
    with tempfile.TemporaryDirectory() as tmp:
        train = build_liblinear_train(args.source.resolve(), Path(tmp) / "liblinear")
        data = args.data
        if not data:
            ijcnn1 = Path(tmp) / "ijcnn1"
            ijcnn1.write_bytes(bz2.decompress((SHARED / "ijcnn1.t.bz2").read_bytes()))
            data = [SHARED / "a9a", ijcnn1]
        print(
            f"{'data':<10} {'options':<12} {'train':>7} {'svmeval':>7} {'ratio':>6}"
            f" {'train':>7} {'svmeval':>7} {'ratio':>6}"
        )
        print(f"{'':<23} {'wall seconds (median)':^22} {'CPU seconds (median)':^22}")
        walls, cpus = [], []
        for path in data:
            for options in RUNS:
                theirs, ours = [], []
                for _ in range(args.runs):
                    wall, cpu, want = timed([str(train), *options, "-q", str(path)])
                    theirs.append((wall, cpu))
                    wall, cpu, got = timed([linear, *options, "-q", str(path)])
                    ours.append((wall, cpu))
                    mine = got.split(b"\n\n")[0] if "-C" in options else got.split(b"\n")[0]
                    if mine != want.rstrip(b"\n"):
                        raise SystemExit(f"{path} {options}: the lines differ: {got!r} {want!r}")
                a, b = (statistics.median(t[0] for t in runs) for runs in (theirs, ours))
                c, d = (statistics.median(t[1] for t in runs) for runs in (theirs, ours))
                walls.append(b / a)
                cpus.append(d / c)
                print(
                    f"{path.name:<10} {' '.join(options):<12} {a:7.2f} {b:7.2f} {b / a:6.2f}"
                    f" {c:7.2f} {d:7.2f} {d / c:6.2f}"
                )
        print(
            f"geometric mean of the ratios: wall {statistics.geometric_mean(walls):.2f}, "
            f"CPU {statistics.geometric_mean(cpus):.2f}"
        )


if __name__ == "__main__":
    main()

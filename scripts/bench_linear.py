"""svmeval-linear against LIBLINEAR's own ``train``, in one run: ``-v 5`` and ``-C``.

LIBLINEAR's ``train`` is built from LIBLINEAR's source in a temporary folder (LIBLINEAR's own
Makefile: scripts/liblinear_train.py); each contender runs as a whole process (start-up and
reading the data included), the two taking turns, ``--runs`` times each; the median wall
seconds and their ratio are printed. Both print the same first line(s): checked on every run.

With ``--sklearn``, scikit-learn's ``LinearSVC`` (the same L2-loss dual solver as ``-s 1``,
no intercept as ``-B -1``, tolerance 0.1 as ``-e``'s default for ``-s 1``) in
``cross_val_predict`` on LIBLINEAR's own folds (a ``PredefinedSplit`` of the folds
svmeval-linear reports) is timed too, also as a whole process (reading the file with
``load_svmlight_file``), against ``svmeval-linear -s 1 -v 5``. ``--big`` adds a made-up data
set of 10^5 rows and 10^5 features (50 nonzeros a row, two classes from a sparse hyperplane;
numpy's generator, seed 0), written into the temporary folder.

Usage: python scripts/bench_linear.py LIBLINEAR_SOURCE [--runs N] [--data FILE ...]
       [--sklearn] [--big]
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
    parser.add_argument("--sklearn", action="store_true")
    parser.add_argument("--big", action="store_true")
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
        if args.big:
            data = [*data, make_big(Path(tmp) / "big")]
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
        if args.sklearn:
            against_sklearn(linear, data, args.runs, Path(tmp))


def make_big(path: Path, rows: int = 100_000, features: int = 100_000, per_row: int = 50):
    """Sparse rows of ``per_row`` features in [0, 1) among ``features``, labelled by the sign
    of a sparse hyperplane's value (+1 / -1): a text-like two-class set."""
    import numpy as np

    rng = np.random.default_rng(0)
    w = np.where(rng.random(features) < 0.1, rng.normal(size=features), 0.0)
    with open(path, "w") as fh:
        for _ in range(rows):
            idx = np.sort(rng.choice(features, per_row, replace=False))
            val = np.round(rng.random(per_row), 4)
            label = "+1" if float(w[idx] @ val) > 0 else "-1"
            fh.write(label + " " + " ".join(f"{i + 1}:{v:g}" for i, v in zip(idx, val)) + "\n")
    return path


SKLEARN = """
import sys, numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.svm import LinearSVC
X, y = load_svmlight_file(sys.argv[1])
fold = np.load(sys.argv[2])
model = LinearSVC(C=1.0, loss="squared_hinge", dual=True, tol=0.1, fit_intercept=False)
pred = cross_val_predict(model, X, y, cv=PredefinedSplit(fold))
print("Cross Validation Accuracy = %g%%" % (100.0 * np.sum(pred == y) / len(y)))
"""


def against_sklearn(linear: str, data, runs: int, tmp: Path) -> None:
    import numpy as np

    from svmeval.cv.run.linear import cross_validate_linear
    from svmeval.params import LinearParams

    print(f"\n{'data':<10} {'scikit-learn':>12} {'svmeval':>8} {'ratio':>6}   (wall seconds)")
    for path in data:
        result = cross_validate_linear(str(path), LinearParams(solver_type=1), 5)
        folds = tmp / "folds.npy"
        np.save(folds, result.fold)
        theirs, ours = [], []
        for _ in range(runs):
            theirs.append(timed([sys.executable, "-c", SKLEARN, str(path), str(folds)])[0])
            ours.append(timed([linear, "-s", "1", "-q", "-v", "5", str(path)])[0])
        a, b = statistics.median(theirs), statistics.median(ours)
        print(f"{path.name:<10} {a:12.2f} {b:8.2f} {b / a:6.2f}")


if __name__ == "__main__":
    main()

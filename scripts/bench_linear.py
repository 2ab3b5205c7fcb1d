"""svmeval-linear against LIBLINEAR's own ``train``, in one run: ``-v 5`` and ``-C``.

LIBLINEAR's ``train`` is built from LIBLINEAR's source in a temporary folder (LIBLINEAR's own
Makefile: scripts/liblinear_train.py); each contender runs as a whole process (start-up and
reading the data included), the contenders taking turns, ``--runs`` times each; the median wall
and CPU seconds (user + system of the process) and the ratios to ``train`` are printed.
svmeval-linear runs with ``--jobs 1`` (its folds one after another: LIBLINEAR's own
``cross_validation`` call for ``-v``) and with its default (the folds of ``-s 0, 2, 11`` on
every core); ``--baseline DIR`` adds another tree's svmeval-linear (e.g. the commit before),
run the same way (``svmeval_launch`` with DIR first on ``PYTHONPATH``). Every contender prints
the same first line(s): checked on every run.

With ``--sklearn``, scikit-learn in ``cross_val_predict`` on LIBLINEAR's own folds (a
``PredefinedSplit`` of the folds svmeval-linear reports) is timed too, also as a whole process
(reading the file with ``load_svmlight_file``), with ``n_jobs=1`` and ``n_jobs=2``, against
svmeval-linear's default: ``LinearSVC`` with the dual solver (``-s 1``), ``LinearSVC`` with
``dual=False`` (LIBLINEAR's ``-s 2``) and ``LogisticRegression(solver="liblinear")`` (``-s 0``),
no intercept as ``-B -1``, each tolerance ``-e``'s default. ``--big`` adds a made-up data
set of 10^5 rows and 10^5 features (50 nonzeros a row, two classes from a sparse hyperplane;
numpy's generator, seed 0), written into the temporary folder.

Usage: python scripts/bench_linear.py LIBLINEAR_SOURCE [--runs N] [--data FILE ...]
       [--sklearn] [--big] [--baseline DIR] [--options "-s 2 -v 5" ...]
       (default data: ../shared/data/a9a and ijcnn1, which is ../shared/data/ijcnn1.t.bz2
       decompressed into the temporary folder; -s 1, -s 2 and -s 0 with -v 5, -s 2 with -C)
"""

from __future__ import annotations

import argparse
import bz2
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "data"
RUNS = ("-s 1 -v 5", "-s 2 -v 5", "-s 0 -v 5", "-s 2 -C")
LAUNCH = "import sys; from svmeval_launch import linear_main; sys.exit(linear_main())"


def timed(line: list[str], env: dict | None = None) -> tuple[float, float, bytes]:
    """Wall and CPU seconds (user + system, of the child) of one whole process, its stdout.
    The process runs in the system's temporary folder: ``python -c`` puts its working folder
    first on ``sys.path``, where the checkout's svmeval would shadow a ``--baseline`` tree's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(line, capture_output=True, check=True, env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def svmeval_linear(tree: Path) -> tuple[list[str], dict]:
    """The command line and environment that run ``tree``'s svmeval-linear."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    return [sys.executable, "-c", LAUNCH], env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", nargs="*", type=Path)
    parser.add_argument("--sklearn", action="store_true")
    parser.add_argument("--big", action="store_true")
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--options", nargs="*", default=list(RUNS))
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from liblinear_train import build_liblinear_train

    linear, env = svmeval_linear(ROOT)
    contenders = {"jobs 1": (linear + ["--jobs", "1"], env), "default": (linear, env)}
    if args.baseline is not None:
        contenders["before"] = svmeval_linear(args.baseline.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        train = build_liblinear_train(args.source.resolve(), Path(tmp) / "liblinear")
        data = [p.resolve() for p in args.data or ()]
        if not data:
            ijcnn1 = Path(tmp) / "ijcnn1"
            ijcnn1.write_bytes(bz2.decompress((SHARED / "ijcnn1.t.bz2").read_bytes()))
            data = [SHARED / "a9a", ijcnn1]
        if args.big:
            data = [*data, make_big(Path(tmp) / "big")]
        names = ["train", *contenders]
        print("wall / CPU seconds (medians), and each svmeval-linear's ratio to train's")
        print(f"{'data':<8} {'options':<10} " + " ".join(f"{n:>17}" for n in names))
        ratios: dict = {n: [] for n in contenders}
        for path in data:
            for options in args.options:
                words = options.split()
                times: dict = {n: [] for n in names}
                for _ in range(args.runs):
                    wall, cpu, want = timed([str(train), *words, "-q", str(path)])
                    times["train"].append((wall, cpu))
                    for name, (line, environment) in contenders.items():
                        wall, cpu, got = timed([*line, *words, "-q", str(path)], environment)
                        times[name].append((wall, cpu))
                        mine = got.split(b"\n\n")[0] if "-C" in words else got.split(b"\n")[0]
                        if mine != want.rstrip(b"\n"):
                            raise SystemExit(f"{path} {options} {name}: the lines differ")
                medians = {
                    n: tuple(statistics.median(t[k] for t in times[n]) for k in (0, 1))
                    for n in names
                }
                cells = [f"{medians['train'][0]:7.2f} /{medians['train'][1]:6.2f}   "]
                for name in contenders:
                    wall, cpu = medians[name]
                    ratio = wall / medians["train"][0]
                    ratios[name].append(ratio)
                    cells.append(f"{wall:5.2f}/{cpu:5.2f} {ratio:5.2f}")
                print(f"{path.name:<8} {options:<10} " + " ".join(f"{c:>17}" for c in cells))
        print(
            "geometric means of the wall ratios: "
            + ", ".join(f"{n} {statistics.geometric_mean(r):.2f}" for n, r in ratios.items())
        )
        if args.sklearn:
            against_sklearn(linear, env, data, args.runs, Path(tmp))


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
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.svm import LinearSVC
X, y = load_svmlight_file(sys.argv[1])
fold = np.load(sys.argv[2])
model = {
    "1": LinearSVC(C=1.0, loss="squared_hinge", dual=True, tol=0.1, fit_intercept=False),
    "2": LinearSVC(C=1.0, loss="squared_hinge", dual=False, tol=0.01, fit_intercept=False),
    "0": LogisticRegression(C=1.0, solver="liblinear", tol=0.01, fit_intercept=False),
}[sys.argv[3]]
pred = cross_val_predict(model, X, y, cv=PredefinedSplit(fold), n_jobs=int(sys.argv[4]))
print("Cross Validation Accuracy = %g%%" % (100.0 * np.sum(pred == y) / len(y)))
"""


def against_sklearn(linear: list, env: dict, data, runs: int, tmp: Path) -> None:
    """scikit-learn's estimator of each solver in cross_val_predict (n_jobs 1 and 2) on
    LIBLINEAR's folds, against svmeval-linear's default, whole processes taking turns."""
    import numpy as np

    from svmeval.cv.run.linear import cross_validate_linear
    from svmeval.params import LinearParams

    print(
        f"\n{'data':<8} {'-s':>3} {'sklearn n_jobs=1':>17} {'n_jobs=2':>17} {'svmeval':>17}"
        f" {'ratios':>11}   (wall/CPU seconds, medians; svmeval / each)"
    )
    for path in data:
        folds = tmp / "folds.npy"
        np.save(folds, cross_validate_linear(str(path), LinearParams(solver_type=1), 5).fold)
        for solver in ("1", "2", "0"):
            times: dict = {"1": [], "2": [], "svmeval": []}
            for _ in range(runs):
                for n_jobs in ("1", "2"):
                    line = [sys.executable, "-c", SKLEARN, str(path), str(folds), solver, n_jobs]
                    times[n_jobs].append(timed(line)[:2])
                line = [*linear, "-s", solver, "-q", "-v", "5", str(path)]
                times["svmeval"].append(timed(line, env)[:2])
            med = {
                k: tuple(statistics.median(t[i] for t in v) for i in (0, 1))
                for k, v in times.items()
            }
            ours = med["svmeval"][0]
            print(
                f"{path.name:<8} {solver:>3} "
                + " ".join(f"{w:8.2f}/{c:7.2f}" for w, c in med.values())
                + f" {ours / med['1'][0]:5.2f} {ours / med['2'][0]:5.2f}"
            )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Preprocessing inside the folds: what it costs, measured in one run.

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/bench_preprocess.py            # dna, a9a's first 3000 rows
    .venv/bin/python scripts/bench_preprocess.py --rows 32561 --sets a9a

Each ratio is of two timings of the same run on this machine, one after the other:

* ``grid --scale / grid leaky``: ``svmeval-grid --scale`` on the raw file against
  ``svmeval-grid`` on the file ``svm-scale`` scaled as a whole (the leaky way, LIBSVM's
  tools/easy.py's), on the same grid (``--grid``: log2 C and log2 gamma ranges; default a
  3 x 3 grid); svm-scale is built from LIBSVM's source (``SVMEVAL_LIBSVM_SOURCE``), else
  svmeval's own whole-file scaling (the same values) writes the leaky file;
* ``grid --scale / sklearn``: ``grid_search(scale=True)`` against scikit-learn's
  ``GridSearchCV(Pipeline([MinMaxScaler((-1, 1)), SVC()]))`` on the same grid and 5 folds
  (StratifiedKFold: not LIBSVM's folds, the same amount of work), on dense arrays.

Each command runs in its own process (``python -m svmeval.cli grid``), its wall time taken.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
FILES = {"dna": "dna.scale", "a9a": "a9a", "svmguide1": "svmguide1"}


def head(name: str, rows: int, into: Path) -> Path:
    lines = (DATA / FILES[name]).read_text().splitlines(True)[:rows]
    path = into / name
    path.write_text("".join(lines))
    return path


def whole_file_scaled(path: Path, into: Path) -> Path:
    """The file scaled as a whole: svm-scale's output where it can be built, else svmeval's
    own whole-file scaling (workflows.leak.whole_file_data), written with %.17g."""
    out = into / (path.name + ".scaled")
    source = os.environ.get("SVMEVAL_LIBSVM_SOURCE")
    if source:
        sys.path.insert(0, str(ROOT / "scripts"))
        from patched_svm_train import build_svm_scale

        binary = build_svm_scale(Path(source), into / "build")
        with out.open("w") as f:
            subprocess.run(
                [str(binary), str(path)], stdout=f, stderr=subprocess.DEVNULL, check=True
            )
        return out
    from svmeval import read_dataset
    from svmeval.preprocess import Preprocessing, ScaleSpec
    from svmeval.workflows.leak import whole_file_data

    data, _ = whole_file_data(read_dataset(str(path)), Preprocessing(ScaleSpec()))
    with out.open("w") as f:
        for i in range(data.n_samples):
            a, b = data.indptr[i], data.indptr[i + 1]
            items = " ".join(f"{j}:{v:.17g}" for j, v in zip(data.indices[a:b], data.values[a:b]))
            f.write(f"{data.y[i]:g} {items}\n")
    return out


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def grid_args(log2c: str, log2g: str) -> list[str]:
    return ["-log2c", log2c, "-log2g", log2g, "-out", "null", "-png", "null", "-v", "5"]


def sklearn_seconds(path: Path, log2c: str, log2g: str) -> float:
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.svm import SVC

    X, y = load_svmlight_file(str(path))
    X = X.toarray()

    def values(text):  # grid.py's range: begin, end, step (either way), end included
        a, b, step = map(float, text.split(","))
        return [2.0**v for v in np.arange(a, b + step / 2, step)]

    pipe = Pipeline([("scale", MinMaxScaler((-1, 1))), ("svc", SVC(cache_size=100))])
    grid = {"svc__C": values(log2c), "svc__gamma": values(log2g)}
    search = GridSearchCV(pipe, grid, cv=StratifiedKFold(5), n_jobs=os.cpu_count())
    start = time.perf_counter()
    search.fit(X, y)
    return time.perf_counter() - start


def sv_seconds(path: Path, log2c: str, log2g: str) -> float:
    code = (
        "import sys, time; from svmeval import grid_search; t = time.perf_counter(); "
        f"grid_search({str(path)!r}, log2c=({log2c}), log2g=({log2g}), scale=True); "
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="dna,a9a")
    parser.add_argument("--rows", type=int, default=3000, help="rows of a9a kept (default 3000)")
    parser.add_argument("--log2c", default="-1,3,2")
    parser.add_argument("--log2g", default="-3,-7,-2")
    parser.add_argument("--sklearn", default="svmguide1", help="the dense set of the 2nd ratio")
    args = parser.parse_args()
    grid = [sys.executable, "-m", "svmeval.cli", "grid", *grid_args(args.log2c, args.log2g)]
    with tempfile.TemporaryDirectory() as tmp:
        into = Path(tmp)
        print(f"grid: log2c {args.log2c}, log2g {args.log2g}; 5 folds; {os.cpu_count()} cores")
        for name in args.sets.split(","):
            path = head(name, args.rows if name == "a9a" else 10**9, into)
            leaky = whole_file_scaled(path, into)
            t_leaky = timed([*grid, str(leaky)])
            t_scale = timed([*grid, "--scale", str(path)])
            rows = sum(1 for _ in path.open())
            print(
                f"{name} ({rows} rows): grid --scale {t_scale:.2f} s, grid on the scaled file "
                f"{t_leaky:.2f} s: ratio {t_scale / t_leaky:.2f}"
            )
        path = head(args.sklearn, 10**9, into)
        t_sv = sv_seconds(path, args.log2c, args.log2g)
        t_sk = sklearn_seconds(path, args.log2c, args.log2g)
        print(
            f"{args.sklearn}: grid_search(scale=True) {t_sv:.2f} s, scikit-learn's "
            f"Pipeline(MinMaxScaler(-1, 1), SVC) in GridSearchCV {t_sk:.2f} s: "
            f"ratio {t_sv / t_sk:.2f}"
        )


if __name__ == "__main__":
    main()

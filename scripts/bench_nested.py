#!/usr/bin/env python3
"""Benchmark nested cross-validation: svmeval's nested_cv against scikit-learn's
``cross_validate(GridSearchCV(SVC(...)))``.

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/bench_nested.py                      # grid.py's default grid
    .venv/bin/python scripts/bench_nested.py --log2c=-5,15,4 --log2g=3,-15,-4

Data: ``../shared/data`` (dna.scale; a9a cut to its first 2,000 rows). Both contenders run, one
after the other in one run, the same nested cross-validation: ``--nested K`` outer folds
(default 5), ``--folds F`` inner folds (default 5), the same C x gamma grid (default grid.py's:
log2c -5,15,2 x log2g 3,-15,-2, 110 cells), C-SVC, RBF kernel, accuracy as the criterion:

* ``svmeval``  ``svmeval.workflows.nested.nested_cv(dataset, nr_fold=K, inner_folds=F, ...)`` with its
  defaults (LIBSVM's folds; the inner grids share kernels where the cost model says it pays);
* ``skl``      ``cross_validate(GridSearchCV(SVC(kernel="rbf", cache_size=100), grid, cv=F,
  n_jobs=cores), X, y, cv=K)`` (StratifiedKFold folds, outer and inner: its estimates are not
  svmeval's, only the amount of work is the same: K x cells x F + K trainings).

Times are wall-clock seconds of the nested CV (data read once per contender and left out). The
table gives the ratio svmeval/skl, each contender's outer accuracy and the load average before
and after (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = {"dna.scale": None, "a9a": 2000}


def parse_range(text):
    b, e, s = (float(v) for v in text.split(","))
    return b, e, s


def svmeval_way(path, k, inner, log2c, log2g, cores):
    from svmeval.io.data import read_dataset
    from svmeval.workflows.nested import nested_cv

    ds = read_dataset(path)
    start = time.perf_counter()
    result = nested_cv(ds, None, k, inner_folds=inner, log2c=log2c, log2g=log2g, jobs=cores)
    seconds = time.perf_counter() - start
    return seconds, result.summary().figures["accuracy"]


def sklearn_way(path, k, inner, cs, gs, cores):
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import GridSearchCV, cross_validate
    from sklearn.svm import SVC

    X, y = load_svmlight_file(path)
    X.indices = X.indices.astype("int32")
    X.indptr = X.indptr.astype("int32")
    start = time.perf_counter()
    search = GridSearchCV(
        SVC(kernel="rbf", cache_size=100, tol=1e-3),
        {"C": [2.0**c for c in cs], "gamma": [2.0**g for g in gs]},
        cv=inner,
        n_jobs=cores,
    )
    scores = cross_validate(search, X, y, cv=k, scoring="accuracy")
    seconds = time.perf_counter() - start
    return seconds, float(scores["test_score"].mean())


def _data(name, tmp):
    src = DATA / name
    path = str(src)
    if SETS.get(name):
        path = os.path.join(tmp, f"{name}.{SETS[name]}")
        with open(src) as fh, open(path, "w") as out:
            for _, line in zip(range(SETS[name]), fh):
                out.write(line)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--nested", type=int, default=5, metavar="K", help="outer folds")
    ap.add_argument("--folds", type=int, default=5, metavar="F", help="inner folds")
    ap.add_argument("--log2c", default="-5,15,2")
    ap.add_argument("--log2g", default="3,-15,-2")
    ap.add_argument("--cores", type=int, default=len(os.sched_getaffinity(0)))
    args = ap.parse_args()
    from svmeval.workflows.grid_rules import job_order

    log2c, log2g = parse_range(args.log2c), parse_range(args.log2g)
    cells = [(c.log2c, c.log2g) for c in job_order(log2c, log2g)]
    cs = sorted({c for c, _ in cells})
    gs = sorted({g for _, g in cells})
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            path = _data(name, tmp)
            load = os.getloadavg()[0]
            t_sv, acc_sv = svmeval_way(path, args.nested, args.folds, log2c, log2g, args.cores)
            print(f"{name}: svmeval {t_sv:.1f}s", file=sys.stderr, flush=True)
            t_skl, acc_skl = sklearn_way(path, args.nested, args.folds, cs, gs, args.cores)
            rows.append((name, len(cells), t_sv, t_skl, acc_sv, acc_skl, load, os.getloadavg()[0]))
            print(f"{name}: skl {t_skl:.1f}s", file=sys.stderr, flush=True)
    print(
        f"{args.cores} cores; nested CV {args.nested} outer x {args.folds} inner folds; grid "
        f"log2c {args.log2c} x log2g {args.log2g}; seconds"
    )
    print(
        "| set | cells | svmeval | scikit-learn | svmeval/skl | accuracy svmeval | "
        "accuracy skl | load before/after |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, n, tv, ts, av, as_, l0, l1 in rows:
        print(
            f"| {name} | {n} | {tv:.1f} | {ts:.1f} | {tv / ts:.2f} | {av:.4f} | {as_:.4f} "
            f"| {l0:.1f} / {l1:.1f} |"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark svmeval-grid against grid.py's way and scikit-learn's GridSearchCV (issue 11).

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/bench_grid.py                    # default grid, four sets
    .venv/bin/python scripts/bench_grid.py --sets heart_scale,dna.scale --log2c -5,15,4

Data: ``../shared/data`` (a9a cut to its first 2,000 rows). Every contender runs the same grid
(grid.py's default: log2c -5,15,2 x log2g 3,-15,-2, 110 cells), 5-fold CV, C-SVC, RBF, in one
run, one contender after another:

* ``grid.py``  grid.py's way: a process pool with one worker per core, each cell one fresh
  ``svm_train(y, x, '-q -v 5 -c C -g G')`` from libsvm-official after ``srand(1)`` on one
  OpenMP thread (what one svm-train process per cell computes, svm-train as LIBSVM's Makefile
  builds it; its rate rounded as svm-train prints it);
* ``skl``      ``GridSearchCV(SVC(), {C, gamma}, cv=5, n_jobs=cores)`` (StratifiedKFold folds:
  its accuracies are not LIBSVM's);
* ``svmeval``  ``svmeval.grid_search`` with its defaults (the shared kernel where its cost
  model says it pays).

Times are wall-clock seconds of the search (data read once per contender and left out). The
table gives the ratios svmeval/grid.py and svmeval/skl and whether every cell's accuracy equals
grid.py's way (``identical``).

``--dask ADDRESS`` (e.g. ``local:2``) instead compares svmeval-grid on the local threads with the
same search through that Dask cluster (issue 12's overhead): the search alone, and with the
cluster's start and close (a local cluster) included; ``identical``: every cell's value and the
best cell equal.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import io
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = {"heart_scale": None, "svmguide1": None, "dna.scale": None, "a9a": 2000}


def parse_range(text):
    b, e, s = (float(v) for v in text.split(","))
    return b, e, s


def _cell(args):
    path, c, g = args
    from libsvm import svmutil
    y, x = _CACHE.setdefault(path, svmutil.svm_read_problem(path))
    try:  # svm-train as built by LIBSVM's Makefile: one thread (no OpenMP)
        ctypes.CDLL("libgomp.so.1").omp_set_num_threads(1)
    except OSError:
        pass
    libc = ctypes.CDLL(None)
    libc.srand(1)
    with contextlib.redirect_stdout(io.StringIO()):  # the bindings print the rate
        rate = svmutil.svm_train(y, x, f"-q -v 5 -c {c} -g {g}")
    return float(f"{rate:g}")


_CACHE: dict = {}


def grid_py_way(path, cells, cores):
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=cores) as pool:
        rates = list(pool.map(_cell, [(path, 2.0 ** c, 2.0 ** g) for c, g in cells]))
    return time.perf_counter() - start, rates


def sklearn_way(path, cs, gs, cores):
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    X, y = load_svmlight_file(path)
    X.indices = X.indices.astype("int32")
    X.indptr = X.indptr.astype("int32")
    start = time.perf_counter()
    search = GridSearchCV(SVC(kernel="rbf", cache_size=100, tol=1e-3),
                          {"C": [2.0 ** c for c in cs], "gamma": [2.0 ** g for g in gs]},
                          cv=5, n_jobs=cores)
    search.fit(X, y)
    return time.perf_counter() - start


def svmeval_way(path, log2c, log2g, jobs=None):
    from svmeval import grid_search
    from svmeval.io.data import read_dataset
    ds = read_dataset(path)
    start = time.perf_counter()
    result = grid_search(ds, log2c=log2c, log2g=log2g, jobs=jobs)
    return time.perf_counter() - start, {(r.cell.log2c, r.cell.log2g): r.value
                                         for r in result.cells}


def dask_way(path, log2c, log2g, address):
    from svmeval import grid_search
    from svmeval.cv import cluster
    from svmeval.io.data import read_dataset
    ds = read_dataset(path)
    start = time.perf_counter()
    with cluster.connect(address) as client:
        ready = time.perf_counter()
        result = grid_search(ds, log2c=log2c, log2g=log2g, client=client)
        done = time.perf_counter()
    closed = time.perf_counter()
    return done - ready, closed - start, {(r.cell.log2c, r.cell.log2g): r.value
                                          for r in result.cells}, result.best.cell


def bench_dask(args, sets, log2c, log2g):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sets:
            path = _data(name, tmp)
            t_local, values = svmeval_way(path, log2c, log2g)
            t_dask, t_all, remote, best = dask_way(path, log2c, log2g, args.dask)
            same = "yes" if remote == values else "NO"
            rows.append((name, len(values), t_local, t_dask, t_all, same))
            print(f"{name}: local {t_local:.1f}s  dask {t_dask:.1f}s ({t_all:.1f}s with the "
                  f"cluster's start)  identical {same}", file=sys.stderr, flush=True)
    print(f"svmeval-grid on {len(os.sched_getaffinity(0))} cores: local threads vs --dask "
          f"{args.dask}; grid log2c {args.log2c} x log2g {args.log2g}; 5-fold; seconds")
    print("| set | cells | local threads | dask (search) | dask (with start) | overhead | "
          "overhead with start | identical |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, tl, td, ta, same in rows:
        print(f"| {name} | {n} | {tl:.1f} | {td:.1f} | {ta:.1f} | {100 * (td / tl - 1):+.0f}% | "
              f"{100 * (ta / tl - 1):+.0f}% | {same} |")


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
    ap.add_argument("--log2c", default="-5,15,2")
    ap.add_argument("--log2g", default="3,-15,-2")
    ap.add_argument("--cores", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--skip", default="", help="contenders to leave out: grid.py,skl")
    ap.add_argument("--dask", metavar="ADDRESS",
                    help="compare local threads with a Dask cluster (local:2, tcp://...)")
    args = ap.parse_args()
    from svmeval.workflows.grid_rules import job_order
    log2c, log2g = parse_range(args.log2c), parse_range(args.log2g)
    if args.dask:
        return bench_dask(args, args.sets.split(","), log2c, log2g)
    cells = [(c.log2c, c.log2g) for c in job_order(log2c, log2g)]
    cs = sorted({c for c, _ in cells})
    gs = sorted({g for _, g in cells})
    skip = set(args.skip.split(",")) - {""}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            path = _data(name, tmp)
            load = os.getloadavg()[0]
            t_sv, values = svmeval_way(path, log2c, log2g)
            t_grid, rates = (grid_py_way(path, cells, args.cores) if "grid.py" not in skip
                             else (float("nan"), None))
            t_skl = sklearn_way(path, cs, gs, args.cores) if "skl" not in skip else float("nan")
            same = "-" if rates is None else (
                "yes" if all(values[cell] == rate for cell, rate in zip(cells, rates)) else "NO")
            rows.append((name, len(cells), t_grid, t_skl, t_sv, same, load, os.getloadavg()[0]))
            print(f"{name}: grid.py {t_grid:.1f}s  skl {t_skl:.1f}s  svmeval {t_sv:.1f}s  "
                  f"identical {same}", file=sys.stderr, flush=True)
    print(f"{args.cores} cores; grid log2c {args.log2c} x log2g {args.log2g}; 5-fold; seconds")
    print("| set | cells | grid.py's way | scikit-learn | svmeval-grid | svmeval/grid.py | "
          "svmeval/skl | identical | load before/after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, n, tg, ts, tv, same, l0, l1 in rows:
        print(f"| {name} | {n} | {tg:.1f} | {ts:.1f} | {tv:.1f} | {tv / tg:.2f} | {tv / ts:.2f} "
              f"| {same} | {l0:.1f} / {l1:.1f} |")


if __name__ == "__main__":
    main()

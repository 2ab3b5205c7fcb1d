#!/usr/bin/env python3
"""Benchmark svmeval-grid against grid.py's way and scikit-learn's GridSearchCV.

How to run (from the project root, after ``make test``)::

    .venv/bin/python scripts/bench_grid.py                    # default grid, five sets
    .venv/bin/python scripts/bench_grid.py --rounds 3 --baseline ../base   # before/after
    .venv/bin/python scripts/bench_grid.py --sets heart_scale,dna.scale --log2c -5,15,4

Data: ``../shared/data`` (a9a cut to its first 2,000 rows; ``diabetes_scale``, LIBSVM's
768-row 8-feature set, where it is there, else ``breast-cancer_scale``, 683 rows of 10 dense
features, stands in for it). Every contender runs the same grid (grid.py's default: log2c
-5,15,2 x log2g 3,-15,-2, 110 cells), 5-fold CV, C-SVC, RBF, each in its own process, the
contenders one after another and in turn (``--rounds``: the order alternates each round):

* ``grid.py``  grid.py's way: a process pool with one worker per core, each cell one fresh
  ``svm_train(y, x, '-q -v 5 -c C -g G')`` from libsvm-official after ``srand(1)`` on one
  OpenMP thread (what one svm-train process per cell computes, svm-train as LIBSVM's Makefile
  builds it; its rate rounded as svm-train prints it);
* ``svmeval``  ``svmeval.grid_search`` with its defaults (this tree);
* ``before``   the same from another tree (``--baseline DIR``, its C extensions built in
  place), to measure a change before and after in one run;
* ``skl``      ``GridSearchCV(SVC(), {C, gamma}, cv=5, n_jobs=cores)`` (StratifiedKFold folds:
  its accuracies are not LIBSVM's; ``--skl`` adds it).

Times: wall-clock seconds of the search and its CPU seconds (every thread and worker process
of it), data read once per contender and left out; the median over the rounds. The table gives
svmeval / grid.py (wall and CPU), before / grid.py, whether every cell's accuracy equals
grid.py's way (``identical``), and the 1-minute load average before and after each set.

``--dask ADDRESS`` (e.g. ``local:2``) instead compares svmeval-grid on the local threads with the
same search through that Dask cluster: the search alone, and with the cluster's start and close
(a local cluster) included; ``identical``: every cell's value and the best cell equal.
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
SETS = {
    "diabetes_scale": None,
    "heart_scale": None,
    "svmguide1": None,
    "dna.scale": None,
    "a9a": 2000,
}
#: a set absent from ../shared/data -> the one that stands in for it
STAND_INS = {"diabetes_scale": "breast-cancer_scale"}


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
        rates = list(pool.map(_cell, [(path, 2.0**c, 2.0**g) for c, g in cells]))
    return time.perf_counter() - start, rates


def sklearn_way(path, cs, gs, cores):
    from sklearn.datasets import load_svmlight_file
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC

    X, y = load_svmlight_file(path)
    X.indices = X.indices.astype("int32")
    X.indptr = X.indptr.astype("int32")
    start = time.perf_counter()
    search = GridSearchCV(
        SVC(kernel="rbf", cache_size=100, tol=1e-3),
        {"C": [2.0**c for c in cs], "gamma": [2.0**g for g in gs]},
        cv=5,
        n_jobs=cores,
    )
    search.fit(X, y)
    return time.perf_counter() - start


def svmeval_way(path, log2c, log2g, jobs=None):
    from svmeval import grid_search
    from svmeval.io.data import read_dataset

    ds = read_dataset(path)
    start = time.perf_counter()
    result = grid_search(ds, log2c=log2c, log2g=log2g, jobs=jobs)
    # each cell's rate in percent, as grid.py prints it (``value`` is the fraction)
    return time.perf_counter() - start, {(r.cell.log2c, r.cell.log2g): r.rate for r in result.cells}


def dask_way(path, log2c, log2g, address):
    from svmeval import grid_search
    from svmeval.cv.run import cluster
    from svmeval.io.data import read_dataset

    ds = read_dataset(path)
    start = time.perf_counter()
    with cluster.connect(address) as client:
        ready = time.perf_counter()
        result = grid_search(ds, log2c=log2c, log2g=log2g, client=client)
        done = time.perf_counter()
    closed = time.perf_counter()
    return (
        done - ready,
        closed - start,
        {(r.cell.log2c, r.cell.log2g): r.value for r in result.cells},
        result.best.cell,
    )


def bench_dask(args, sets, log2c, log2g):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sets:
            path = _data(name, tmp)
            t_local, values = svmeval_way(path, log2c, log2g)
            t_dask, t_all, remote, best = dask_way(path, log2c, log2g, args.dask)
            same = "yes" if remote == values else "NO"
            rows.append((name, len(values), t_local, t_dask, t_all, same))
            print(
                f"{name}: local {t_local:.1f}s  dask {t_dask:.1f}s ({t_all:.1f}s with the "
                f"cluster's start)  identical {same}",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"svmeval-grid on {len(os.sched_getaffinity(0))} cores: local threads vs --dask "
        f"{args.dask}; grid log2c {args.log2c} x log2g {args.log2g}; 5-fold; seconds"
    )
    print(
        "| set | cells | local threads | dask (search) | dask (with start) | overhead | "
        "overhead with start | identical |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, n, tl, td, ta, same in rows:
        print(
            f"| {name} | {n} | {tl:.1f} | {td:.1f} | {ta:.1f} | {100 * (td / tl - 1):+.0f}% | "
            f"{100 * (ta / tl - 1):+.0f}% | {same} |"
        )


def _data(name, tmp):
    if not (DATA / name).exists() and name in STAND_INS:
        name = STAND_INS[name]
    src = DATA / name
    path = str(src)
    if SETS.get(name):
        path = os.path.join(tmp, f"{name}.{SETS[name]}")
        with open(src) as fh, open(path, "w") as out:
            for _, line in zip(range(SETS[name]), fh):
                out.write(line)
    return path


def _child(kind, path, log2c, log2g, cores):
    """One contender, in this (fresh) process: JSON with its wall and CPU seconds and values."""
    import json
    import resource

    def cpu():
        return sum(
            getattr(resource.getrusage(who), f)
            for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
            for f in ("ru_utime", "ru_stime")
        )

    from svmeval.workflows.grid_rules import job_order

    cells = [(c.log2c, c.log2g) for c in job_order(log2c, log2g)]
    if kind == "grid.py":
        _cell((path, 1.0, 1.0))  # the parent's bindings loaded, as the workers' will be
        c0 = cpu()
        seconds, rates = grid_py_way(path, cells, cores)
        values = dict(zip(cells, rates))
    elif kind == "skl":
        c0 = cpu()
        seconds = sklearn_way(
            path, sorted({c for c, _ in cells}), sorted({g for _, g in cells}), cores
        )
        values = {}
    else:
        from svmeval.io.data import read_dataset

        read_dataset(path)
        c0 = cpu()
        seconds, values = svmeval_way(path, log2c, log2g)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu() - c0,
                "values": [[c, g, values.get((c, g))] for c, g in cells],
            }
        )
    )


def _run(kind, path, args, baseline):
    import json
    import subprocess

    env = dict(os.environ)
    if kind == "before":
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(baseline).resolve())] + env.get("PYTHONPATH", "").split(os.pathsep)
        )
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            kind,
            path,
            f"--log2c={args.log2c}",
            f"--log2g={args.log2g}",
            f"--cores={args.cores}",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"{kind} on {path} failed:\n{done.stderr}")
    out = json.loads(done.stdout.splitlines()[-1])
    out["values"] = {(c, g): v for c, g, v in out["values"]}
    return out


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--log2c", default="-5,15,2")
    ap.add_argument("--log2g", default="3,-15,-2")
    ap.add_argument("--cores", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--baseline", metavar="DIR", help="another svmeval tree: the 'before' column")
    ap.add_argument("--skl", action="store_true", help="add scikit-learn's GridSearchCV")
    ap.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="compare local threads with a Dask cluster (local:2, tcp://...)",
    )
    ap.add_argument("--child", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    log2c, log2g = parse_range(args.log2c), parse_range(args.log2g)
    if args.child:
        return _child(args.child[0], args.child[1], log2c, log2g, args.cores)
    if args.dask:
        return bench_dask(args, args.sets.split(","), log2c, log2g)
    kinds = (
        ["grid.py", "svmeval"]
        + (["before"] if args.baseline else [])
        + (["skl"] if args.skl else [])
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            path = _data(name, tmp)
            load = os.getloadavg()[0]
            runs = {k: [] for k in kinds}
            for r in range(args.rounds):
                for kind in kinds if r % 2 == 0 else kinds[::-1]:
                    runs[kind].append(_run(kind, path, args, args.baseline))
                    print(
                        f"{os.path.basename(path)} round {r + 1} {kind}: "
                        f"{runs[kind][-1]['seconds']:.1f} s, {runs[kind][-1]['cpu']:.1f} s CPU"
                        f" (load {os.getloadavg()[0]:.1f})",
                        file=sys.stderr,
                        flush=True,
                    )
            ref = runs["grid.py"][0]["values"]
            same = all(
                run["values"] == ref for k in kinds if k in ("svmeval", "before") for run in runs[k]
            )
            med = {
                k: (_median([x["seconds"] for x in runs[k]]), _median([x["cpu"] for x in runs[k]]))
                for k in kinds
            }
            rows.append((os.path.basename(path), med, same, load, os.getloadavg()[0]))
    print(
        f"{args.cores} cores; grid log2c {args.log2c} x log2g {args.log2g}; 5-fold; "
        f"median of {args.rounds} round(s); seconds (wall / CPU)"
    )
    head = "| set | " + " | ".join(kinds) + " | svmeval/grid.py wall | CPU |"
    if "before" in kinds:
        head += " before/grid.py wall | CPU |"
    print(head + " identical | load before/after |")
    print("|---" * (head.count("|") + 1) + "|")
    for name, med, same, l0, l1 in rows:
        g = med["grid.py"]
        line = f"| {name} | " + " | ".join(f"{med[k][0]:.1f} / {med[k][1]:.1f}" for k in kinds)
        line += f" | {med['svmeval'][0] / g[0]:.2f} | {med['svmeval'][1] / g[1]:.2f} |"
        if "before" in kinds:
            line += f" {med['before'][0] / g[0]:.2f} | {med['before'][1] / g[1]:.2f} |"
        print(line + f" {'yes' if same else 'NO'} | {l0:.1f} / {l1:.1f} |")


if __name__ == "__main__":
    main()

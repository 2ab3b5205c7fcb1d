#!/usr/bin/env python3
"""Measure the results store's cost: its overhead on a run of many small units, and the time
of a rerun that finds every unit in the store.

How to run (from the project root)::

    .venv/bin/python scripts/bench_store.py            # about a minute or two on 2 cores
    .venv/bin/python scripts/bench_store.py --rounds 5 # the median of five rounds each

Two runs, each measured in this process (imports and reading the data left out), rounds
alternated so that a busy moment of the machine falls on both sides alike:

* **many small units**: a fine grid on ``data/wine.scale`` (178 rows: a fold trains in about a
  millisecond), 21 x 19 cells x 5 folds = 1995 units, ``jobs=1``; once without a store, once
  with a new store file. The overhead is ``with / without - 1`` (target: at most 5 %).
* **a fully reused rerun**: svm-train's default grid on ``data/breast_cancer.scale`` with
  10 folds and ``jobs=1`` (110 cells x 10 folds = 1100 units), computed into a new store (the fresh run),
  then run again on that store. The ratio is ``rerun / fresh`` (target: at most 10 % on a
  fresh run of more than 10 s).

Ratios are printed with the times they come from; every run's best cell is checked to be the
same with and without the store.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each run (median)")
    args = parser.parse_args()

    from svmeval import grid_search, open_store, read_dataset

    wine = read_dataset(ROOT / "data" / "wine.scale")
    cancer = read_dataset(ROOT / "data" / "breast_cancer.scale")
    small = dict(log2c=(-5, 15, 1), log2g=(3, -15, -1), folds=5, jobs=1)
    grid_search(wine, log2c=(-1, 1, 2), log2g=(-1, 1, 2), folds=2)  # LIBSVM loaded, warm

    with tempfile.TemporaryDirectory() as tmp:
        without, stored = [], []
        for r in range(args.rounds):
            t0, a = timed(lambda: grid_search(wine, **small))
            with open_store(Path(tmp) / f"small{r}.db") as store:
                t1, b = timed(lambda: grid_search(wine, **small, store=store))
                assert store.computed == len(a.cells) * 5 and store.reused == 0
            assert (a.best.cell, a.best.value) == (b.best.cell, b.best.value)
            without.append(t0)
            stored.append(t1)
        t_without, t_with = statistics.median(without), statistics.median(stored)
        units = len(a.cells) * 5

        big = dict(folds=10, jobs=1)
        fresh, rerun = [], []
        for r in range(args.rounds):
            with open_store(Path(tmp) / f"big{r}.db") as store:
                t2, c = timed(lambda: grid_search(cancer, **big, store=store))
                t3, d = timed(lambda: grid_search(cancer, **big, store=store))
                assert store.reused == store.computed == len(c.cells) * 10
            assert (c.best.cell, c.best.value) == (d.best.cell, d.best.value)
            fresh.append(t2)
            rerun.append(t3)
        t_fresh, t_rerun = statistics.median(fresh), statistics.median(rerun)

    print(f"many small units ({units} units, {t_without / units * 1e3:.2f} ms a unit):")
    print(f"  without a store {t_without:.2f} s, with a new store {t_with:.2f} s")
    print(f"  overhead: {t_with / t_without - 1:+.1%} (target <= +5%)")
    print(f"a fully reused rerun ({len(c.cells) * 10} units):")
    print(f"  fresh run with the store {t_fresh:.2f} s, rerun {t_rerun:.2f} s")
    print(f"  rerun / fresh: {t_rerun / t_fresh:.3f} (target <= 0.10 on a fresh run > 10 s)")
    if t_fresh <= 10:
        print("  (the fresh run took under 10 s here: the target's condition is not met)")


if __name__ == "__main__":
    main()

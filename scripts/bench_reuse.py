#!/usr/bin/env python3
"""Measure a fully reused rerun of ``svmeval-compare`` against the fresh run, as whole commands.

How to run (from the project root)::

    .venv/bin/python scripts/bench_reuse.py                       # 3 rounds, a few minutes
    .venv/bin/python scripts/bench_reuse.py --baseline ../old     # also another tree: before/after
    .venv/bin/python scripts/bench_reuse.py --rounds 5 --repeat 10
    .venv/bin/python scripts/bench_reuse.py --sets heart_scale   # one data set: compare's report

The command: ``svmeval-compare -q -v 10 --repeat 30 DATA... -- -c 1 -- -c 8`` over three data
sets (``../shared/data``'s heart_scale, breast-cancer_scale and iris.scale; without
``../shared``, ``data/``'s breast_cancer.scale and wine.scale): 2 configurations x 30
repetitions x 10 folds = 600 units a data set. Each tree runs it, each run a fresh process
(``python -m svmeval.cli compare``, the tree first on ``PYTHONPATH``), start-up included
(``--sets``: other data sets; one alone is compare's own report, not the benchmark's):

* ``fresh``: without a store;
* ``stored``: with a new store file (every unit computed and written);
* ``reused``: again on that store (every unit read from it, none computed).

A round runs every tree's three, the trees' order alternating each round; the median of each
over the rounds is printed, wall-clock and CPU seconds (user and system, every thread: the
steadier figure where other processes share the cores), with the ratios ``reused / fresh``
(target: at most 0.10) and, with ``--baseline DIR`` (another svmeval tree, its C extensions
built in place), this tree's runs over the baseline's. The commands run with their modules'
bytecode cached (``PYTHONPYCACHEPREFIX``, a temporary directory; one run of each tree before
the rounds writes it), as an installed package has it: where ``PYTHONDONTWRITEBYTECODE`` is
set, every process would compile svmeval's modules again (0.3 CPU seconds here). Every run's
report must be the same bytes (those of the baseline's included), and the load average is
printed before and after: other processes on the machine change every figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
SETS = [SHARED / n for n in ("heart_scale", "breast-cancer_scale", "iris.scale")]
STAND_INS = [ROOT / "data" / n for n in ("breast_cancer.scale", "wine.scale")]
KINDS = ("fresh", "stored", "reused")


def command(tree: Path, sets: list, args, store: Path | None) -> tuple[float, float, str]:
    """One run of svmeval-compare from ``tree``: (wall seconds, CPU seconds, its report)."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")])
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # modules compiled once, as an installed package's
    env["PYTHONPYCACHEPREFIX"] = str(args.pycache / tree.as_posix().strip("/").replace("/", "_"))
    argv = [sys.executable, "-m", "svmeval.cli", "compare", "-q", "-v", str(args.folds)]
    argv += ["--repeat", str(args.repeat)] + (["--store", str(store)] if store else [])
    argv += [str(s) for s in sets] + ["--", "-c", "1", "--", "-c", "8"]
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=tree)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}:\n{done.stderr}")
    return seconds, cpu, done.stdout


def _children_cpu() -> float:
    """User and system CPU seconds of the ended child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (median), default 3")
    parser.add_argument("--repeat", type=int, default=30, help="repetitions, default 30")
    parser.add_argument("--folds", type=int, default=10, help="folds, default 10")
    parser.add_argument("--baseline", metavar="DIR", help="another svmeval tree: before/after")
    parser.add_argument(
        "--sets", help="data sets (comma-separated names in ../shared/data or data/; one: compare)"
    )
    args = parser.parse_args()
    sets = SETS if all(s.exists() for s in SETS) else STAND_INS
    if args.sets:
        names = args.sets.split(",")
        sets = [SHARED / n if (SHARED / n).exists() else ROOT / "data" / n for n in names]
    trees = {"this tree": ROOT}
    if args.baseline:
        trees["baseline"] = Path(args.baseline).resolve()
    times: dict = {(t, kind): [] for t in trees for kind in KINDS}
    cpus: dict = {key: [] for key in times}
    reports = set()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        args.pycache = Path(tmp) / "pycache"
        for tree in trees.values():  # each tree's bytecode, written before the rounds
            command(tree, sets[:1], argparse.Namespace(**{**vars(args), "repeat": 1}), None)
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for name in order:
                store = Path(tmp) / f"{name.replace(' ', '_')}-{r}.db"
                for kind, where in (("fresh", None), ("stored", store), ("reused", store)):
                    seconds, cpu, report = command(trees[name], sets, args, where)
                    times[name, kind].append(seconds)
                    cpus[name, kind].append(cpu)
                    reports.add(report)
    after = os.getloadavg()
    if len(reports) != 1:
        raise SystemExit("the runs' reports differ")
    units = 2 * args.repeat * args.folds * len(sets)
    print(f"svmeval-compare -v {args.folds} --repeat {args.repeat}, 2 configurations,")
    print(f"  {', '.join(s.name for s in sets)}: {units} units; median of {args.rounds} rounds")
    print(
        f"  load average (1, 5, 15 min) before {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, ", end=""
    )
    print(f"after {after[0]:.1f} {after[1]:.1f} {after[2]:.1f}")
    wall = {key: statistics.median(v) for key, v in times.items()}
    cpu = {key: statistics.median(v) for key, v in cpus.items()}
    for name in trees:
        print(f"{name}, wall (CPU) seconds:")
        print("  " + ", ".join(f"{k} {wall[name, k]:.2f} ({cpu[name, k]:.2f})" for k in KINDS))
        print(
            f"  reused / fresh: {wall[name, 'reused'] / wall[name, 'fresh']:.3f} wall, "
            f"{cpu[name, 'reused'] / cpu[name, 'fresh']:.3f} CPU (target <= 0.10)"
        )
    if args.baseline:
        for kind in KINDS:
            print(
                f"{kind}, this tree / baseline: {wall['this tree', kind] / wall['baseline', kind]:.3f}"
                f" wall, {cpu['this tree', kind] / cpu['baseline', kind]:.3f} CPU"
            )
    print("every report identical: yes")


if __name__ == "__main__":
    main()

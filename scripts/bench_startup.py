#!/usr/bin/env python3
"""Whole-command cost of `svmeval -q -v 5 FILE` beside a plain libsvm-python script doing the
same (svm_read_problem + svm_train(y, x, '-q -v 5')) and beside the floor any numpy program
pays (``python -c "import numpy, ctypes"``), measured in the same run.

Each command runs REPEAT times in a fresh process, the contenders taking turns (so that a busy
spell of the machine hits them alike); the script prints the median wall time, the peak resident
memory (ru_maxrss of the child) and the ratios svmeval / libsvm. --python runs both under another
interpreter, e.g. a virtual environment without scipy (the bindings import scipy when present).

Python modules run from their bytecode, as in an installed package: the script compiles the
svmeval it measures (``compileall``) and runs the commands with PYTHONDONTWRITEBYTECODE unset.
--tree DIR adds the svmeval of another source tree (its PYTHONPATH), e.g. an earlier version.

Usage: python scripts/bench_startup.py [FILE] [--repeat N] [--python PY] [--tree DIR ...]
       (default FILE: ../shared/data/heart_scale, else data/breast_cancer.scale)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the commands run from here: ``python -m`` puts the working directory first on sys.path
NEUTRAL = "/"


def run_once(cmd: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MiB) and CPU seconds (user + system) of one fresh process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=NEUTRAL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # KiB -> MiB


def main() -> None:
    default = ROOT.parent / "shared" / "data" / "heart_scale"
    if not default.exists():
        default = ROOT / "data" / "breast_cancer.scale"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(default))
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--python", default=sys.executable, help="the interpreter to run both with")
    ap.add_argument("--tree", action="append", default=[], help="another svmeval source tree")
    args = ap.parse_args()
    args.file = os.path.abspath(args.file)
    py = args.python
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = {"svmeval -q -v 5": env}
    trees = {f"svmeval ({Path(t).name})": str(Path(t).resolve()) for t in args.tree}
    for name, tree in trees.items():
        envs[name] = dict(env, PYTHONPATH=tree)
    for child_env in envs.values():  # bytecode, as an installed package has
        subprocess.run(
            [
                py,
                "-c",
                "import compileall, svmeval; compileall.compile_dir(svmeval.__path__[0], quiet=1)",
            ],
            env=child_env,
            cwd=NEUTRAL,
            check=True,
        )
    contenders = {
        "svmeval -q -v 5": [py, "-m", "svmeval", "-q", "-v", "5", args.file],
        "libsvm-python -v 5": [
            py,
            "-c",
            "import sys; from libsvm.svmutil import svm_read_problem, svm_train;"
            "y, x = svm_read_problem(sys.argv[1]); svm_train(y, x, '-q -v 5')",
            args.file,
        ],
        **{name: [py, "-m", "svmeval", "-q", "-v", "5", args.file] for name in trees},
        "import numpy, ctypes": [py, "-c", "import numpy, ctypes"],
        "python startup only": [py, "-c", "pass"],
    }
    runs = {name: [] for name in contenders}
    for _ in range(args.repeat):
        for name, cmd in contenders.items():
            runs[name].append(run_once(cmd, envs.get(name, env)))
    results = {
        name: (
            statistics.median(w for w, _, _ in r),
            max(m for _, m, _ in r),
            statistics.median(c for _, _, c in r),
        )
        for name, r in runs.items()
    }
    scipy = subprocess.run(
        [py, "-c", "import importlib.util as u; print(bool(u.find_spec('scipy')))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(
        f"file: {args.file}   runs per command: {args.repeat}, taking turns "
        "(median wall, max peak RSS, median CPU)"
    )
    print(f"python: {py}   scipy installed: {scipy}")
    width = max(22, *(len(n) + 2 for n in results))
    print(f"{'command':<{width}}{'wall s':>9}{'peak MiB':>10}{'CPU s':>9}")
    for name, (wall, peak, cpu) in results.items():
        print(f"{name:<{width}}{wall:>9.3f}{peak:>10.1f}{cpu:>9.3f}")
    (sw, sm, sc), (lw, lm, lc) = results["svmeval -q -v 5"], results["libsvm-python -v 5"]
    print(
        f"ratio svmeval / libsvm-python: wall {sw / lw:.2f}x, peak memory {sm / lm:.2f}x, "
        f"CPU {sc / lc:.2f}x"
    )
    fw, fc = results["import numpy, ctypes"][0], results["import numpy, ctypes"][2]
    print(f"ratio svmeval / import numpy, ctypes: wall {sw / fw:.2f}x, CPU {sc / fc:.2f}x")
    for name in trees:
        tw, _, tc = results[name]
        print(f"ratio {name} / import numpy, ctypes: wall {tw / fw:.2f}x, CPU {tc / fc:.2f}x")
    print(f"load average at the end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()

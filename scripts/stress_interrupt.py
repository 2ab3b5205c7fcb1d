"""Ctrl-C under load: how often is it lost? A harness, not a test.

Runs svmeval, svmeval-grid and svmeval-compare (the console scripts installed beside the Python
running this script, so whatever module names they point to) many times, each interrupted by a
SIGINT at a random moment from 0 to --max-delay seconds, with --busy processes spinning beside
them (``python -c 'while 1: pass'``), and counts what came of each run:

    svmeval      exit 130, stderr ending in "PROG: interrupted" (after LIBSVM's chatter; with how
                 to continue in parentheses where the run kept its work: -out, --store)
    startup      the signal hit Python's own start-up before any svmeval code ran: killed by
                 SIGINT (-2), or a KeyboardInterrupt traceback inside frozen import code only
    finished     the run had already ended when the signal was due (not an interrupted run)
    LOST         exit 0 although the signal reached a live process
    OTHER        any other exit status or stderr (counted with the first stderr seen)
    TRACEBACK    a traceback on stderr that is not the start-up case
    LEFT         files in the run's directory afterwards (svmeval-grid's -out resume log aside)

Usage::

    python scripts/stress_interrupt.py [--runs 300] [--busy 2] [--max-delay 3] [--seed 0]

Prints one line per command and the totals; exit status 1 when anything was lost, left or
went wrong. The data (noise, many support vectors) take several seconds even on a fast machine,
so the runs end long after the last moment a signal is sent.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

BIN = Path(sys.executable).parent
COMMANDS = {
    "svmeval": ["-v", "5", "-c", "100", "-o", "r", "--predictions", "p", "{data}"],
    "svmeval-grid": [
        "-log2c",
        "5,9,2",
        "-log2g",
        "-3,-3,1",
        "-v",
        "5",
        "-out",
        "g.out",
        "-png",
        "g.png",
        "{data}",
    ],
    "svmeval-compare": [
        "-v",
        "5",
        "--repeat",
        "2",
        "-o",
        "r",
        "{data}",
        "--",
        "-c",
        "100",
        "--",
        "-c",
        "50",
    ],
}
RESUME_LOG = {"svmeval-grid": {"g.out"}}  # written line by line by design: resumable


def write_data(path: Path, n: int = 6000, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 20))
    y = np.where(X[:, 0] + rng.normal(scale=2, size=n) > 0, 1, -1)
    path.write_text(
        "".join(
            f"{yi} " + " ".join(f"{j + 1}:{v:.4f}" for j, v in enumerate(row)) + "\n"
            for yi, row in zip(y, X)
        )
    )


def startup_only(stderr: str, script: str) -> bool:
    """A KeyboardInterrupt (or a fatal error) inside Python's start-up or the console
    script's generated lines, before any svmeval code ran."""
    # Python's own initialisation failing (init_sys_streams, init_import_site, ...)
    if stderr.startswith(("Fatal Python error: init_", "Could not import runpy module")):
        return True
    frames = re.findall(r'File "([^"]+)"', stderr)
    if stderr.startswith("Exception ignored in: <function _get_module_lock.<locals>.cb"):
        # dropped by Python's import machinery before svmeval's handler: the run went on
        head = stderr.split("KeyboardInterrupt", 1)[0]
        return all(f.startswith("<frozen ") for f in re.findall(r'File "([^"]+)"', head))
    return (
        stderr.startswith("Traceback")
        and stderr.rstrip().endswith("KeyboardInterrupt")
        and bool(frames)
        and all(f.startswith("<frozen ") or f == script for f in frames)
    )


def one_run(prog: str, data: Path, delay: float, work: Path) -> tuple[str, str, list]:
    script = str(BIN / prog)
    args = [a.format(data=data) for a in COMMANDS[prog]]
    proc = subprocess.Popen(
        [script, *args],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    finished = proc.poll() is not None
    if not finished:
        proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=600)
    left = sorted(set(os.listdir(work)) - RESUME_LOG.get(prog, set()))
    if finished:
        return "finished", stderr, left
    if (
        proc.returncode == 130
        and stdout == ""
        and "Traceback" not in stderr
        and re.search(rf"(^|\n){re.escape(prog)}: interrupted( \([^\n]*\))?\n\Z", stderr)
    ):  # after LIBSVM's chatter; with how to continue, where the run kept its work
        return "svmeval", stderr, left
    if proc.returncode == -signal.SIGINT and stderr == "":
        return "startup", stderr, left
    if startup_only(stderr, script):
        return "startup", stderr, left
    if "Traceback" in stderr:
        return "TRACEBACK", stderr, left
    if proc.returncode == 0:
        return "LOST", stderr, left
    return "OTHER", f"exit {proc.returncode}: {stderr}", left


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300, help="interrupted runs in all")
    ap.add_argument("--busy", type=int, default=2, help="busy-loop processes beside the runs")
    ap.add_argument("--max-delay", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--commands", default=",".join(COMMANDS))
    opts = ap.parse_args()
    progs = opts.commands.split(",")
    missing = [p for p in progs if not (BIN / p).exists()]
    if missing:
        print(
            f"stress_interrupt: not installed beside {sys.executable}: {missing}", file=sys.stderr
        )
        return 1
    rng = random.Random(opts.seed)
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(opts.busy)]
    counts = {p: collections.Counter() for p in progs}
    first = {}
    top = Path(tempfile.mkdtemp(prefix="stress_interrupt."))
    try:
        data = top / "data.txt"
        write_data(data)
        for i in range(opts.runs):
            prog = progs[i % len(progs)]
            work = top / f"run{i}"
            work.mkdir()
            outcome, stderr, left = one_run(prog, data, rng.uniform(0, opts.max_delay), work)
            counts[prog][outcome] += 1
            if left:
                counts[prog]["LEFT"] += 1
                first.setdefault((prog, "LEFT"), " ".join(left))
            if outcome.isupper():
                first.setdefault((prog, outcome), stderr[-400:])
            shutil.rmtree(work)
    finally:
        for b in busy:
            b.kill()
            b.wait()
        shutil.rmtree(top, ignore_errors=True)
    total = collections.Counter()
    for prog in progs:
        total.update(counts[prog])
        print(f"{prog:16s} " + "  ".join(f"{k} {v}" for k, v in sorted(counts[prog].items())))
    interrupted = sum(v for k, v in total.items() if k not in ("finished", "LEFT"))
    bad = sum(v for k, v in total.items() if k.isupper())
    print(
        f"busy loops {opts.busy}, interrupted runs {interrupted}, finished first "
        f"{total['finished']}, lost/other/traceback/left {bad}"
    )
    for (prog, kind), text in first.items():
        print(f"first {kind} of {prog}: {text!r}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

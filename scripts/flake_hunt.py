"""Flake hunt: run the tests whose outcome could depend on timing many times in a row, quiet and
beside busy loops, and count what failed. A harness, not a test.

The tests hunted are those that send a signal, start a process or a cluster, or wait for a
thread or a pipe: every test of tests/cli/test_failures.py, test_schedule.py, test_dask.py and
test_time_limit.py, and each test elsewhere whose own source (or a module-level helper it calls)
uses ``Popen``, ``send_signal``, ``pthread_kill``, ``os.kill``, ``threading.Thread``,
``threading.Event``, ``threading.Timer``, ``mkfifo`` or ``distributed``.

Usage::

    python scripts/flake_hunt.py [--rounds 30] [--busy 0] [--logs DIR] [-- PYTEST ARGS]

Each round is one ``python -m pytest`` of the selected tests in a fresh process (so module
fixtures, a Dask cluster included, start anew). With ``--busy N``, N processes spin
(``python -c 'while 1: pass'``) for the whole hunt. Prints one line per round (result, time,
the 1-minute load average before and after), then the rounds passed, the longest run of passes
in a row, each test that failed and each reason a test was skipped, with how often; the output
of every failed round is kept in the log directory. Exit status 1 when any round failed. A flake is fixed at its root (a race in
svmeval or in the test), never by a retry or a longer delay.
"""

from __future__ import annotations

import argparse
import ast
import collections
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
WHOLE_FILES = ("test_failures.py", "test_schedule.py", "test_dask.py", "test_time_limit.py")
TIMING = re.compile(
    r"Popen|send_signal|pthread_kill|os\.kill|threading\.(?:Thread|Event|Timer)"
    r"|mkfifo|distributed"
)


def hunted_tests() -> list[str]:
    """pytest node ids (file::function) of the tests hunted (see the module's docstring)."""
    selected = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name in WHOLE_FILES:
            selected.append(str(path.relative_to(ROOT)))
            continue
        source = path.read_text()
        tree = ast.parse(source)
        helpers = {
            node.name: ast.get_source_segment(source, node) or ""
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("test_")
        }
        for node in tree.body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            text = ast.get_source_segment(source, node) or ""
            called = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            text += "".join(helpers.get(name, "") for name in called)
            if TIMING.search(text):
                selected.append(f"{path.relative_to(ROOT)}::{node.name}")
    return selected


def failed_ids(output: str) -> list[str]:
    """The tests a pytest run reports as failed or in error (its short summary)."""
    return re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)


def skip_reasons(output: str) -> list[str]:
    """Why tests were skipped ("SKIPPED [n] file:line: reason" of the short summary), one entry
    a test: a test that skips when a race went the other way did not test anything."""
    reasons = []
    for count, where in re.findall(r"^SKIPPED \[(\d+)\] (.*)$", output, re.MULTILINE):
        reasons += [where] * int(count)
    return reasons


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30, help="pytest runs, one after another")
    ap.add_argument("--busy", type=int, default=0, help="busy-loop processes beside the runs")
    ap.add_argument(
        "--logs",
        type=Path,
        default=None,
        help="where the output of failed rounds is kept (default: a new temporary directory)",
    )
    ap.add_argument("--list", action="store_true", help="print the tests hunted and stop")
    ap.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    opts = ap.parse_args()
    tests = hunted_tests()
    if opts.list:
        print("\n".join(tests))
        return 0
    logs = opts.logs or Path(tempfile.mkdtemp(prefix="flake_hunt."))
    logs.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-rfEs",
        *opts.pytest_args,
        *tests,
    ]
    print(
        f"flake_hunt: {len(tests)} test files or functions, {opts.rounds} rounds, "
        f"{opts.busy} busy loops, {os.cpu_count()} cores; failed rounds' output in {logs}",
        flush=True,
    )
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(opts.busy)]
    failures: collections.Counter = collections.Counter()
    skips: collections.Counter = collections.Counter()
    passed = streak = best = 0
    loads: list[float] = []
    try:
        for r in range(1, opts.rounds + 1):
            before = os.getloadavg()[0]
            started = time.monotonic()
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            seconds = time.monotonic() - started
            after = os.getloadavg()[0]
            loads += [before, after]
            output = done.stdout + done.stderr
            skips.update(skip_reasons(output))
            summary = (output.strip().splitlines() or ["(no output)"])[-1]
            if done.returncode == 0:
                passed += 1
                streak += 1
                best = max(best, streak)
            else:
                streak = 0
                failures.update(failed_ids(output) or [f"pytest exit {done.returncode}"])
                (logs / f"round{r}.log").write_text(output)
            print(
                f"round {r:3d}: {'pass' if done.returncode == 0 else 'FAIL'}  {seconds:6.1f} s"
                f"  load {before:5.2f} -> {after:5.2f}  {summary}",
                flush=True,
            )
    finally:
        for b in busy:
            b.kill()
            b.wait()
    loads.sort()
    print(
        f"passed {passed} of {opts.rounds} rounds, {best} in a row; busy loops {opts.busy}; "
        f"1-minute load average min {loads[0]:.2f}, median {loads[len(loads) // 2]:.2f}, "
        f"max {loads[-1]:.2f} ({os.cpu_count()} cores)"
    )
    for test, count in failures.most_common():
        print(f"failed {count}x: {test}")
    for reason, count in skips.most_common():
        print(f"skipped {count}x: {reason}")
    return 0 if passed == opts.rounds else 1


if __name__ == "__main__":
    sys.exit(main())

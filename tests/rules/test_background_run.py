"""The suite gives the same verdicts when a shell starts it in the background (``make test &``,
``nohup``): such a process inherits Ctrl-C ignored, and so would every command a test starts,
where the tests of Ctrl-C need Python's own answer to it (tests/conftest.py restores it)."""

from __future__ import annotations

import signal
import subprocess
import sys

from conftest import ROOT

#: a test of Ctrl-C in pytest's own process, and one in a command the test starts
CTRL_C_TESTS = [
    "tests/cv/test_schedule.py::test_every_bounded_wait_is_interrupted_within_the_bound[call]",
    "tests/cli/test_process_owner.py::test_importing_svmeval_sets_nothing",
]


def _ignore_ctrl_c() -> None:  # as a shell does for a job it starts in the background
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_ctrl_c_tests_pass_when_the_suite_starts_with_ctrl_c_ignored():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "timeout=60"]
        + CTRL_C_TESTS,
        cwd=ROOT,
        preexec_fn=_ignore_ctrl_c,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout.splitlines()[-1]

"""No test can hang: pytest-timeout's per-test limit (pyproject.toml's pytest section) ends a
hanging test as a failure, with the stack of every thread, and the run goes on."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest_timeout  # noqa: F401 - part of the test extra: the limit needs it

from conftest import ROOT

#: a test that waits as the hang once seen in run_tasks did: the main thread on a lock nobody
#: releases, another thread blocked beside it
HANGING = textwrap.dedent("""\
    import threading


    def blocked_like_a_missed_ctrl_c(release):
        release.wait()  # nothing sets it: only the time limit ends this test


    def test_hangs():
        release = threading.Event()
        threading.Thread(target=release.wait, name="blocked-helper", daemon=True).start()
        blocked_like_a_missed_ctrl_c(release)


    def test_after_the_hanging_one():
        pass
""")


def test_the_suite_has_a_time_limit_per_test(pytestconfig):
    limit = float(pytestconfig.getini("timeout") or 0)
    assert 0 < limit <= 900


def test_a_hanging_test_fails_within_its_limit_with_a_stack_dump(tmp_path):
    """pytest run on a hanging test with the project's configuration (the limit shortened to
    2 s, the other options dropped): that test fails with a dump of every thread's stack, the
    next one still runs, and the whole takes seconds."""
    (tmp_path / "test_hang.py").write_text(HANGING)
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(tmp_path),
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "-o",
            "timeout=2",
            "test_hang.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    elapsed = time.monotonic() - started
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "1 failed, 1 passed" in out, out
    assert "FAILED test_hang.py::test_hangs - Failed: Timeout" in out, out
    dump = out[out.index("+ Timeout +") :]
    assert "Stack of blocked-helper" in dump, out
    # the main thread's stack: where the test hung
    assert "in blocked_like_a_missed_ctrl_c" in out and "release.wait()" in out, out
    assert elapsed < 120, elapsed  # the limit and pytest's start-up, on a loaded machine

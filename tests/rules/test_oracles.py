"""The test run itself: with SVMEVAL_REQUIRE_ORACLES=1 (``make test``, CI) a missing oracle
package stops the run with its name instead of letting its tests skip; without it (or with
``=0``) those tests skip, and the summary lists each skip with its reason.

The oracle package is made to fail its import in a child pytest by a module of the same name
earlier on the path, as an absent or broken install would.
"""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ORACLES, ROOT

TEST = (
    "tests/stats/test_bayesian_5x2.py::test_correlated_ttest_of_constant_differences_equals_baycomp"
)


def _pytest(tmp_path, require: str | None) -> subprocess.CompletedProcess:
    blocker = tmp_path / "block"
    blocker.mkdir(exist_ok=True)
    (blocker / "baycomp.py").write_text("raise ModuleNotFoundError('no baycomp here')\n")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SVMEVAL_REQUIRE_ORACLES", "PYTEST_ADDOPTS")
    }
    env["PYTHONPATH"] = os.pathsep.join([str(blocker), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep
    )
    if require is not None:
        env["SVMEVAL_REQUIRE_ORACLES"] = require
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", TEST],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_missing_oracle_stops_the_run_when_required(tmp_path):
    done = _pytest(tmp_path, "1")
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert (
        "the tests' oracles must be installed (SVMEVAL_REQUIRE_ORACLES is set): "
        "baycomp (ModuleNotFoundError no baycomp here); pip install -e '.[test]'"
    ) in done.stderr
    assert " passed" not in done.stdout and " skipped" not in done.stdout


def test_a_missing_oracle_skips_its_tests_visibly_when_not_required(tmp_path):
    for require in (None, "0"):
        done = _pytest(tmp_path, require)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "SKIPPED [1] tests/stats/test_bayesian_5x2.py:" in done.stdout
        assert "could not import 'baycomp': no baycomp here" in done.stdout
        assert "1 skipped" in done.stdout.splitlines()[-1]


def test_every_oracle_is_in_the_test_extra():
    import importlib.metadata
    import re

    extra = {
        re.match(r"[A-Za-z0-9_.-]+", r).group().lower()
        for r in importlib.metadata.requires("svmeval") or []
        if 'extra == "test"' in r
    }
    assert set(ORACLES.values()) <= extra

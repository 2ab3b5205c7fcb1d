"""Rules of the test suite itself: no verdict depends on the machine's load."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parents[1]


def test_hypothesis_sets_no_time_deadline_by_default():
    """Every property test runs without a per-example deadline and without the "too slow"
    health check: both are wall-clock limits, which a loaded machine exceeds."""
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_no_property_test_sets_a_deadline_of_its_own():
    """No ``@settings(deadline=...)`` other than None in the tests."""
    timed = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "settings"):
                continue
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "deadline" and not (
                    isinstance(value, ast.Constant) and value.value is None
                ):
                    timed.append(f"{path.name}:{node.lineno}")
    assert timed == []

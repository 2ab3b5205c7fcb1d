"""Non-finite decision values (a feature of 1e308, -t 1 -g 1e300) reach every report path:
each run ends with a report or one line, never a traceback."""

from __future__ import annotations

import pytest

import commands

BINARY = "".join(
    f"{'+1' if i % 2 else '-1'} 1:{'1e308' if i % 2 else '-1e308'} 2:{i / 10}\n" for i in range(12)
)
MULTILABEL = "".join(
    f"{'1,2' if i % 3 == 0 else i % 2 + 1} 1:{'1e308' if i % 2 else '-1e308'} 2:{i / 10}\n"
    for i in range(12)
)


def run(*args, cwd):
    return commands.run("svmeval", args, cwd=cwd)


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
@pytest.mark.parametrize(
    "kind,extra",
    [
        ("binary", ["--full"]),
        ("regression", ["-s", "3"]),
        ("multilabel", ["--multilabel"]),
        ("poly", ["-t", "1", "-g", "1e300", "--full"]),
    ],
)
def test_overflowing_decision_values_give_a_report(tmp_path, kind, extra, fmt):
    data = tmp_path / "data.txt"
    data.write_text(MULTILABEL if kind == "multilabel" else BINARY)
    done = run("-q", "-v", "3", "--format", fmt, *extra, data, cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert done.stdout


def test_multilabel_single_sample_is_one_line(tmp_path):
    data = tmp_path / "one.txt"
    data.write_text("1,2 1:1 2:3\n")
    done = run("-q", "--multilabel", "-v", "5", data, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "at least 2" in done.stderr

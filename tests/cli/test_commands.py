"""The in-process command runner (tests/commands.py) against the real process: the same exit
status, standard output and standard error on representative command lines (drop-in calls,
full runs, every command, errors, standard input, output files), and nothing of a call left in
the test process."""

from __future__ import annotations

import signal
import sys
import threading
import warnings

import pytest

from commands import run, run_process
from conftest import ROOT

BREAST = ROOT / "data" / "breast_cancer.scale"
WINE = ROOT / "data" / "wine.scale"
DIABETES = ROOT / "data" / "diabetes.scale"
GRID = ["-log2c", "-1,1,2", "-log2g", "-3,-1,2", "-v", "3"]

LINES = [
    ("svmeval", ["-v", "5", BREAST]),  # a drop-in call, served light, LIBSVM's messages
    ("svmeval", ["-q", "-v", "5", BREAST]),
    ("svmeval", ["-q", "-v", "3", WINE]),  # multiclass: the full command
    ("svmeval", ["-v", "3", "-c", "4", WINE]),  # LIBSVM's messages of a full run
    ("svmeval", ["-q", "--format", "json", "-v", "3", WINE]),
    ("svmeval", ["-q", "--format", "csv", "-s", "3", "-v", "3", DIABETES]),
    ("svmeval", ["-q", "--repeat", "2", "-v", "3", BREAST]),
    ("svmeval", ["--help"]),
    ("svmeval", ["-x", "1", BREAST]),
    ("svmeval", ["-c", "abc", BREAST]),
    ("svmeval", ["-q", "-v", "5", "no-such-file"]),
    ("svmeval", ["-q", "-v", "5"]),
    ("grid", [*GRID, BREAST]),
    ("grid", ["-out", "null", *GRID, "-q", WINE]),
    ("grid", ["--help"]),
    ("grid", ["-log2c", "x", BREAST]),
    ("compare", ["-v", "3", BREAST, "--", "-c", "1", "--", "-c", "4"]),
    ("compare", ["-v", "3", "--format", "json", WINE, "--", "-c", "1", "--", "-c", "4"]),
    ("compare", ["--help"]),
    ("compare", ["-v", "3", BREAST]),
    ("store", ["--help"]),
    ("store", ["no-such-store.db"]),
]


def same(inside, child) -> None:
    assert (inside.returncode, inside.stdout, inside.stderr) == (
        child.returncode,
        child.stdout,
        child.stderr,
    )


@pytest.mark.parametrize("command,args", LINES, ids=lambda v: str(v)[:40])
def test_the_same_status_and_streams_as_the_process(command, args, tmp_path):
    same(run(command, args, cwd=tmp_path), run_process(command, args, cwd=tmp_path))


def test_standard_input_bytes_and_an_output_file(tmp_path):
    data = BREAST.read_bytes()
    args = ["-q", "-v", "5", "--predictions", "p.txt", "-"]
    inside = run("svmeval", args, cwd=tmp_path, input=data, text=False)
    inside_file = (tmp_path / "p.txt").read_bytes()
    (tmp_path / "p.txt").unlink()
    child = run_process("svmeval", args, cwd=tmp_path, input=data, capture_output=True, text=False)
    same(inside, child)
    assert isinstance(inside.stdout, bytes) and inside.stdout
    assert inside_file == (tmp_path / "p.txt").read_bytes()


def test_a_bad_line_of_data_on_standard_input(tmp_path):
    bad = "+1 1:0.5\n-1 1:x\n"
    same(
        run("svmeval", ["-q", "-v", "2", "-"], cwd=tmp_path, input=bad),
        run_process("svmeval", ["-q", "-v", "2", "-"], cwd=tmp_path, input=bad),
    )


def test_the_environment_of_the_call(tmp_path):
    env = {"COLUMNS": "40", "PATH": "/usr/bin:/bin"}
    args = ["--help"]
    same(run("svmeval", args, env=env), run_process("svmeval", args, env=env))
    assert "COLUMNS" not in env or __import__("os").environ.get("COLUMNS") != "40"


def _state():
    import os

    import numpy as np

    from svmeval.cv import messages
    from svmeval.io import output

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)}
    return (
        os.getcwd(),
        list(sys.argv),
        (sys.excepthook, sys.unraisablehook),
        handlers,
        list(warnings.filters),
        np.geterr(),
        messages.QUIET[0],
        output.INTERRUPTS,
        set(output.CLOSED_STREAMS),
        dict(os.environ),
        set(threading.enumerate()),
    )


@pytest.mark.parametrize("command,args", LINES[:8] + LINES[12:14] + LINES[16:17])
def test_nothing_of_a_call_is_left_in_the_process(command, args, tmp_path):
    import numpy  # noqa: F401 - its state is part of what is compared

    before = _state()
    streams = (sys.stdin, sys.stdout, sys.stderr)
    run(command, args, cwd=tmp_path, env={"COLUMNS": "50"})
    assert _state() == before
    assert (sys.stdin, sys.stdout, sys.stderr) == streams


def test_pytest_capture_sees_nothing_of_a_call(capsys):
    done = run("svmeval", ["-v", "3", WINE])
    assert done.returncode == 0 and "Accuracy" in done.stdout and "optimization" in done.stderr
    print("after")
    assert capsys.readouterr() == ("after\n", "")


def test_pytest_descriptor_capture_sees_nothing_of_a_call(capfd):
    done = run("svmeval", ["-v", "5", BREAST])  # the drop-in's report: os.write(1, ...)
    assert done.returncode == 0 and "Accuracy" in done.stdout and "optimization" in done.stderr
    print("after")
    assert capfd.readouterr() == ("after\n", "")


def test_numpy_warnings_are_shown_as_in_a_fresh_process_each_call(tmp_path):
    """-q silences numpy's warnings for the whole process; without it a call shows them again,
    whatever an earlier call (or the test runner's filters) did."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the runner's filters are not the command's
        first = run("svmeval", ["-q", "-v", "3", WINE], cwd=tmp_path)
        second = run("svmeval", ["-v", "3", WINE], cwd=tmp_path)
    child = run_process("svmeval", ["-v", "3", WINE], cwd=tmp_path)
    assert first.returncode == 0
    same(second, child)


def test_a_process_the_call_leaves_holding_its_streams_does_not_hold_the_call(monkeypatch):
    """A process a command starts may keep the descriptors it was born with after the call
    (multiprocessing's resource tracker lives as long as the test process): the call's output
    is what it wrote before it returned, the input it did not read is dropped, and the call
    returns."""
    import os
    import subprocess

    import svmeval.cli.store

    children = []
    hold, release = os.pipe()  # the child lives until the test closes ``release``

    def main(argv):
        # standard input (unread), output and error: the call's
        code = "import os, sys; os.read(int(sys.argv[1]), 1)"
        child = subprocess.Popen([sys.executable, "-c", code, str(hold)], pass_fds=(hold,))
        children.append(child)
        print("the report")
        print("a message", file=sys.stderr)
        return 3

    monkeypatch.setattr(svmeval.cli.store, "main", main)
    answer = []
    big = b"1 1:1\n" * 200_000  # more than a pipe holds, never read
    caller = threading.Thread(
        target=lambda: answer.append(run("store", [], input=big)), daemon=True
    )
    caller.start()
    try:
        caller.join(120)
        assert not caller.is_alive(), "the call waited for the process it left"
    finally:
        os.close(release)
        os.close(hold)
        for child in children:
            child.wait(60)
        caller.join(60)
    assert (answer[0].returncode, answer[0].stdout, answer[0].stderr) == (
        3,
        "the report\n",
        "a message\n",
    )

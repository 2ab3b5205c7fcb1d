"""Progress bars on a terminal, and LIBSVM's messages beside them, as a user sees them: each
command runs with its standard error on a pseudo-terminal (the ``pty`` module) and its
standard output on a pipe. The bar's counts come from the protocol (2 configurations x 10
repetitions x 10 folds, ...); LIBSVM's message blocks are compared with what LIBSVM's own
``svm_cross_validation`` prints for the same folds."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import threading

import pytest

from svmeval.cv import _libsvm

from conftest import LOCAL

pty = pytest.importorskip("pty")
libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")

COMMAND = [sys.executable, "-m", "svmeval.cli"]
DATA = LOCAL / "breast_cancer.scale"  # 569 rows, two classes


def on_terminal(args: list) -> tuple[int, str, str]:
    """Run ``args`` with standard error on a pseudo-terminal: (status, stdout, stderr)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks: list = []

    def read() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the other side closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    stdout, _ = proc.communicate(timeout=600)
    reader.join(timeout=60)
    os.close(master)
    text = b"".join(chunks).decode().replace("\r\n", "\n")  # the terminal's newlines
    return proc.returncode, stdout.decode(), text


def on_pipe(args: list) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


BAR = re.compile(
    r"\[[#-]{20}\] +(\d+)/(\d+) (\w[\w ]*?)(?:  best \S+)?  elapsed \d+:\d\d(?:  ETA \d+:\d\d)?"
)


def bars(stderr: str) -> list:
    """Every state of the bar drawn: (done, total, unit)."""
    return [(int(m[1]), int(m[2]), m[3]) for m in BAR.finditer(stderr)]


def screen_lines(stderr: str) -> list:
    """The lines as the terminal leaves them: a carriage return goes back to the line's
    start, where the bar is drawn over (padded) or blanked (ESC [K)."""
    lines = []
    for line in stderr.split("\n"):
        last = line.split("\r")[-1]
        lines.append(last.replace("\033[K", ""))
    return lines


def test_compare_draws_a_bar_with_its_folds_and_eta():
    args = [*COMMAND, "compare", str(DATA), "--", "-c", "1", "--", "-c", "4"]
    status, stdout, stderr = on_terminal(args)
    assert status == 0
    drawn = bars(stderr)
    assert drawn[0] == (0, 200, "folds")  # at once, before any fold ends
    assert drawn[-1] == (200, 200, "folds")
    assert [d for d, _, _ in drawn] == sorted(d for d, _, _ in drawn)
    assert "ETA" in stderr and stderr.endswith("\n")
    assert stdout == on_pipe(args).stdout  # the report is the same
    quiet = on_terminal([*COMMAND, "compare", "-q", *args[4:]])
    assert quiet[2] == "" and quiet[1] == stdout


def test_benchmark_bar_counts_every_data_sets_folds():
    wine = LOCAL / "wine.scale"
    args = [*COMMAND, "compare", "-v", "5", "--repeat", "3", str(DATA), str(wine)]
    args += ["--", "-c", "1", "--", "-c", "4", "--", "-c", "16"]
    status, stdout, stderr = on_terminal(args)
    assert status == 0, stderr
    total = 2 * 3 * 3 * 5  # data sets x configurations x repetitions x folds
    assert bars(stderr)[0] == (0, total, "folds") and bars(stderr)[-1] == (total, total, "folds")
    assert stdout == on_pipe(args).stdout


def test_grid_bar_counts_cells_and_keeps_grid_pys_lines(tmp_path):
    args = [*COMMAND, "grid", "-log2c", "-1,3,2", "-log2g", "-5,-1,2", "-out", "null"]
    args += ["-gnuplot", "null", str(DATA)]
    status, stdout, stderr = on_terminal(args)
    assert status == 0
    assert bars(stderr)[-1] == (9, 9, "cells")
    assert stdout == on_pipe(args).stdout


def libsvm_blocks(k: int, capfd) -> list:
    """LIBSVM's own messages for svm-train -v k: one block per fold, in fold order."""
    from svmeval.io.data import read_dataset

    y, x = svmutil.svm_read_problem(str(DATA))
    prob = libsvm_svm.svm_problem(y, x)
    gamma = 1 / read_dataset(str(DATA)).n_features  # svm-train's default
    param = libsvm_svm.svm_parameter(f"-g {gamma}")
    capfd.readouterr()
    _libsvm.set_quiet(False)  # LIBSVM's messages to standard error, through svmeval's hook
    try:
        _libsvm.srand(1)
        libsvm_svm.libsvm.svm_cross_validation(prob, param, k, (ctypes.c_double * len(y))())
    finally:
        _libsvm.set_quiet(True)
    return re.findall(r".*?Total nSV = \d+\n", capfd.readouterr().err, flags=re.S)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_libsvm_messages_come_fold_by_fold_labelled_and_never_on_the_bars_line(jobs, capfd):
    k = 5
    status, stdout, stderr = on_terminal(
        [*COMMAND, "svmeval", "-v", str(k), "--jobs", jobs, str(DATA)]
    )
    assert status == 0
    assert bars(stderr)[-1] == (k, k, "folds")
    lines = screen_lines(stderr)
    # nothing shares a line with the bar
    for line in lines:
        if BAR.search(line):
            assert BAR.sub("", line).strip() == "", line
    # each fold's messages as one block under its label, as LIBSVM prints them for that fold
    text = "\n".join(line for line in lines if not BAR.search(line))
    ours = re.split(r"^fold (\d+)/5:\n", text, flags=re.M)[1:]
    blocks = {int(n): body.rstrip("\n") + "\n" for n, body in zip(ours[::2], ours[1::2])}
    assert sorted(blocks) == list(range(1, k + 1))
    theirs = libsvm_blocks(k, capfd)
    assert len(theirs) == k
    assert [blocks[i] for i in range(1, k + 1)] == theirs

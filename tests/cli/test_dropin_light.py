"""The drop-in call served light (``svmeval [svm-train options] -v k FILE`` of two classes, as
grid.py and shell loops call it): LIBSVM's patched svm-train's bytes without importing numpy,
and every call it does not serve, every bad option and every bad file answered by the full
command in its own words."""

from __future__ import annotations

import dataclasses
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from svmeval.cli import dropin
from svmeval.cv.run import light
from svmeval.errors import OptionError
from svmeval.params import _FIELD_OF_FLAG, _INT_FIELDS, SvmParams, parse_c_double, parse_c_int

import commands
from conftest import REFERENCE, shared_file

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "data" / "breast_cancer.scale"


def run(args, cwd=None, importtime=False):
    if not importtime:  # what a fresh process imports is not asked: the command in-process
        return commands.run("svmeval", args, cwd=cwd, text=False, timeout=120)
    flags = ["-X", "importtime"]
    return subprocess.run(
        [sys.executable, *flags, "-m", "svmeval", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        timeout=120,
    )


def imported(stderr: bytes) -> set[str]:
    """The modules ``-X importtime`` reported."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    }


def two_class_references():
    index = REFERENCE / "INDEX.tsv"
    if not index.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"{index} is absent"))]
    cases = []
    for line in index.read_text().splitlines()[1:]:
        name, command = line.split("\t")
        args = shlex.split(command.split(" (")[0])
        served = "-v" in args and not {"-s", "-w1"} & set(args) or "-s" in args and "1" in args
        small = args[-1] == "heart_scale"  # 270 rows: a run on one thread (cv.cost.small_run)
        if name.endswith(".txt") and served and small and "multiclass" not in command:
            cases.append(pytest.param(name, args, id=name))
    return cases


@pytest.mark.parametrize("name,args", two_class_references())
def test_reference_bytes_without_numpy(name, args, tmp_path):
    """The patched svm-train's recorded output, byte for byte, from a process that never
    imported numpy (nor the summaries, nor LIBSVM's Python bindings)."""
    data = shared_file("data", args[-1])
    done = run([*args[:-1], data], cwd=tmp_path, importtime=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shared_file("reference", name).read_bytes()
    modules = imported(done.stderr)
    assert "svmeval.cv.run.light" in modules  # served light
    assert not {m for m in modules if m.split(".")[0] in ("numpy", "scipy", "libsvm")}
    assert "svmeval.summary" not in modules


@pytest.mark.parametrize(
    "args",
    [
        ["-v", "5"],  # LIBSVM's training messages on stderr, one block a fold
        ["-q", "-v", "5"],
        ["-c", "8", "-g", "0.5", "-v", "5"],
        ["-t", "0", "-c", "0.25", "-v", "3"],
        ["-s", "1", "-n", "0.3", "-v", "4"],
        ["-q", "-b", "1", "-v", "5"],
        ["-t", "1", "-d", "2", "-r", "1", "-v", "5", "-h", "0"],
        ["-t", "3", "-g", "0x1p-4", "-e", "0.01", "-m", "10", "-v", "2"],
        ["-c", "0", "-v", "5"],  # svm_check_parameter objects: the full command says so
        ["-q", "-v", "1000000"],  # more folds than rows: the full command's leave-one-out
        ["-v", "5", "-g", "-1"],
        ["-c", "1e999", "-v", "5"],
        ["-c", "8x", "-v", "5"],
        ["-d", "99999999999", "-v", "5"],
    ],
)
def test_light_and_full_command_alike(args, tmp_path):
    """The light path and the full command (taken here with ``--digits 4``, which changes no
    byte of svm-train's lines) give the same stdout, stderr and exit status."""
    lit = run([*args, SMALL], cwd=tmp_path)
    full = run(["--digits", "4", *args, SMALL], cwd=tmp_path)
    assert (lit.returncode, lit.stdout, lit.stderr) == (
        full.returncode,
        full.stdout,
        full.stderr,
    )


BAD_FILES = {
    "bad_token": "+1 1:0.5\n-1 1:abc\n",
    "out_of_order": "+1 2:0.5 1:0.1\n-1 1:0.2\n",
    "empty": "",
    "blank_line": "+1 1:0.5\n\n-1 1:0.3\n",
    "nan": "+1 1:nan\n-1 1:0.2\n",
    "big_label": "+1 1:0.5\n3e10 1:0.2\n+1 1:0.1\n3e10 1:0.7\n",
    "fractional": "+1 1:0.5\n0.5 1:0.2\n+1 1:0.1\n0.5 1:0.7\n",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_data_answered_by_the_full_command(name, tmp_path):
    """A file the light path cannot serve gets exactly what the full command gives it: its
    error line (file and line), or its report."""
    path = tmp_path / name
    path.write_text(BAD_FILES[name])
    lit = run(["-q", "-v", "2", path], cwd=tmp_path)
    full = run(["--digits", "4", "-q", "-v", "2", path], cwd=tmp_path)
    assert (lit.returncode, lit.stdout, lit.stderr) == (
        full.returncode,
        full.stdout,
        full.stderr,
    )
    if name not in ("big_label", "fractional"):
        assert lit.returncode == 1
        assert lit.stderr.decode().startswith(f"svmeval: {path}:")


def test_unserved_calls_take_the_full_command(tmp_path):
    """Multiclass data, a regression, a weight, another seed: the full command's engine runs
    them (svmeval's report)."""
    iris = ROOT / "data" / "iris.scale"
    if iris.exists():
        done = run(["-q", "-v", "5", iris], cwd=tmp_path, importtime=True)
        assert "svmeval.summary" in imported(done.stderr)
    for args in (["-s", "3"], ["-w1", "2"], ["--seed", "1"]):
        done = run(["-q", *args, "-v", "5", SMALL], cwd=tmp_path, importtime=True)
        assert done.returncode == 0
        assert "svmeval.cv.engine" in imported(done.stderr)


def test_a_report_into_a_regular_file_is_the_full_commands(tmp_path):
    """Standard output on a regular file: the full command (its checks, its atomic write)."""
    out = tmp_path / "report.txt"
    with open(out, "wb") as fh:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "svmeval", "-q", "-v", "5", str(SMALL)],
            stdout=fh,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    assert done.returncode == 0
    assert "svmeval.cv.run.light" not in imported(done.stderr)
    assert out.read_bytes() == run(["-q", "-v", "5", SMALL]).stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["-q", "-v", "5", "f"],
        ["f", "-v", "5", "-c", "8", "-g", "0.5"],
        ["-v", "+05", "-b", "1", "f"],
    ],
)
def test_served_command_lines(argv):
    assert dropin.parse(argv) is not None


@pytest.mark.parametrize(
    "argv",
    [
        ["f"],  # train mode
        ["-v", "5"],
        ["-v", "5", "f", "g"],  # a model file name
        ["-v", "5", "-"],  # standard input
        ["-v", "1", "f"],
        ["-v", "5", "-c", "1", "-c", "2", "f"],  # an option twice
        ["-v", "5", "-w1", "2", "f"],
        ["-v", "5", "--full", "f"],
        ["-v", "5", "-c"],
        ["-v", "5", "-x", "1", "f"],
        ["--help"],
    ],
)
def test_command_lines_left_to_the_full_command(argv):
    assert dropin.parse(argv) is None


VALUES = [
    "8",
    "+8",
    "-8",
    "08",
    "0.5",
    ".5",
    "3.",
    "1e-3",
    "0x1p-4",
    "1e999",
    "1e-400",
    "nan",
    "inf",
    "-inf",
    "1_000",
    " 1",
    "1 ",
    "",
    "8x",
    "\u0661",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "99999999999999999999999",
    "+-1",
    "--1",
]


@pytest.mark.parametrize("text", VALUES)
def test_values_read_as_the_full_command_reads_them(text):
    """A value the light path takes is the value the option table's parsers give; one they
    refuse, the light path leaves to them."""
    try:
        expected_int = parse_c_int("-d", text)
    except OptionError:
        expected_int = None
    try:
        expected_double = parse_c_double("-c", text)
    except OptionError:
        expected_double = None
    assert dropin._c_int(text) == expected_int
    got = dropin._c_double(text)
    assert (got is None) == (expected_double is None)
    if got is not None and expected_double is not None:
        assert got == expected_double
        assert math.copysign(1, got) == math.copysign(1, expected_double)


def test_the_light_tables_are_svm_trains():
    """The light path's flags and defaults are svm-train's as :class:`SvmParams` holds them."""
    defaults = dataclasses.asdict(SvmParams())
    del defaults["weight"]
    assert light.DEFAULTS == defaults
    assert {flag: field for flag, (field, _) in dropin.FLAGS.items()} == _FIELD_OF_FLAG
    assert {field for field, is_int in dropin.FLAGS.values() if is_int} == set(_INT_FIELDS)


def test_a_small_two_class_file_without_numpy(tmp_path):
    """A small file of two classes (569 rows: 5 folds train on 2,276 rows in all) is served
    light, and its lines are the full command's."""
    lit = run(["-q", "-v", "5", SMALL], cwd=tmp_path, importtime=True)
    full = run(["--digits", "4", "-q", "-v", "5", SMALL], cwd=tmp_path)
    assert (lit.returncode, lit.stdout) == (0, full.stdout)
    modules = imported(lit.stderr)
    assert "svmeval.cv.run.light" in modules
    assert not {m for m in modules if m.split(".")[0] in ("numpy", "scipy", "libsvm")}
    assert lit.stdout.startswith(b"Cross Validation Accuracy = ")


def run_on_terminal(args) -> tuple[int, bytes, bytes]:
    """``svmeval ARGS`` with standard error on a pseudo-terminal: (status, stdout, stderr)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, *map(str, args)], stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    err = b""
    try:
        while chunk := _read_terminal(master):
            err += chunk
    finally:
        os.close(master)
    out = process.stdout.read() if process.stdout else b""
    return process.wait(timeout=120), out, err


def _read_terminal(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the other end closed (Linux: EIO)
        return b""


def test_messages_and_bar_on_a_terminal_as_the_full_command(tmp_path):
    """Without -q on a terminal: LIBSVM's blocks and the progress bar as the full command
    draws them, byte for byte but the bar's times (which depend on the machine), served
    light."""

    def timeless(run):
        status, out, err = run
        return status, out, re.sub(rb"(elapsed|ETA) [-:0-9]+", rb"\1 T", err)

    light_run = run_on_terminal(["-m", "svmeval", "-v", "5", SMALL])
    full_run = run_on_terminal(["-m", "svmeval", "--digits", "4", "-v", "5", SMALL])
    assert timeless(light_run) == timeless(full_run)
    assert b"fold 5/5:" in light_run[2] and b"5/5 folds" in light_run[2]
    _, _, err = run_on_terminal(["-X", "importtime", "-m", "svmeval", "-v", "5", SMALL])
    assert b"svmeval.cv.run.light" in err
    assert b"| numpy" not in err

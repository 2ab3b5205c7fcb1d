"""svmeval-grid's stdout and ``-out`` file, byte for byte those of LIBSVM's grid.py.

The oracle is grid.py itself: its outputs with svm-train on data/wine.scale, recorded
in tests/cli/grid_py (README.md there says how; INDEX.tsv lists the cases: grid.py's default
ranges, whose numbers are ints, one axis given (floats) beside a default one, null axes, and
-resume of a grid.py file). With ``SVMEVAL_TEST_LIBSVM=DIR`` (a LIBSVM source tree with
svm-train built) the recorded files are also checked against grid.py run here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import commands
from conftest import LOCAL

RECORDED = Path(__file__).resolve().parent / "grid_py"
DATA = LOCAL / "wine.scale"
#: svmeval-grid as a command line; run_grid runs it in this process (tests/commands.py)
GRID = [sys.executable, "-m", "svmeval.cli", "grid"]


def cases() -> list:
    rows = (RECORDED / "INDEX.tsv").read_text().splitlines()[1:]
    out = []
    for row in rows:
        name, options, resume = row.split("\t")
        out.append(
            pytest.param(name, [] if options == "(none)" else options.split(), resume, id=name)
        )
    return out


def run_grid(program: list, tmp_path: Path, options: list, resume: str) -> tuple[str, str]:
    """Run ``program`` (grid.py or svmeval-grid) as the recorded runs ran: stdout, -out."""
    shutil.copy(DATA, tmp_path / DATA.name)
    out = tmp_path / "grid.out"
    args = [*program, "-svmtrain", "./svm-train", "-gnuplot", "null", "-out", out.name]
    if resume:  # a file of tests/cli/grid_py, or a path
        out.write_bytes((resume if isinstance(resume, Path) else RECORDED / resume).read_bytes())
        args += ["-resume", out.name]
    if program == GRID:  # svmeval-grid's lines: the command in this process
        done = commands.run("grid", [*args[len(GRID) :], *options, DATA.name], cwd=tmp_path)
    else:
        done = subprocess.run(
            [*args, *options, DATA.name], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout, out.read_text()


@pytest.mark.parametrize("name,options,resume", cases())
def test_grid_lines_and_out_file_byte_identical_to_grid_py(tmp_path, name, options, resume):
    stdout, out = run_grid(GRID, tmp_path, options, resume)
    assert stdout == (RECORDED / f"{name}.stdout").read_text()
    assert out == (RECORDED / f"{name}.out").read_text()


def test_grid_default_ranges_print_ints_as_grid_py():
    """The issue's case, from the recorded file: grid.py's default ranges are ints."""
    first = (RECORDED / "defaults.out").read_text().splitlines()[0]
    assert first.startswith("log2c=5 log2g=-7 rate=")
    assert (RECORDED / "defaults.stdout").read_text().startswith("[local] 5 -7 ")
    given = (RECORDED / "log2c_given.out").read_text().splitlines()[0]
    assert given.startswith("log2c=1.0 log2g=-7 rate=")  # a given range is floats


@pytest.mark.parametrize("name,options,resume", cases())
def test_recorded_grid_py_outputs_are_grid_pys(tmp_path, name, options, resume):
    libsvm = os.environ.get("SVMEVAL_TEST_LIBSVM")
    if not libsvm:
        pytest.skip("SVMEVAL_TEST_LIBSVM (a LIBSVM tree with svm-train built) is not set")
    grid_py, svm_train = Path(libsvm) / "tools" / "grid.py", Path(libsvm) / "svm-train"
    if not (grid_py.is_file() and svm_train.is_file()):
        pytest.skip(f"{libsvm}: no tools/grid.py or no svm-train built")
    shutil.copy(svm_train, tmp_path / "svm-train")
    stdout, out = run_grid([sys.executable, str(grid_py)], tmp_path, options, resume)
    assert stdout == (RECORDED / f"{name}.stdout").read_text()
    assert out == (RECORDED / f"{name}.out").read_text()


def test_resume_of_an_interrupted_out_file_gives_the_whole_answer(tmp_path):
    """The -out file holds the cells in grid.py's order, so a search stopped after any cell
    leaves a prefix of the whole run's file; resuming from it (grid.py's rule: the file's
    cells first, in its order) ends on the whole run's best, ties included (wine's grid has
    cells of equal rates), and completes the file to the whole run's file."""
    whole, whole_out = run_grid(GRID, tmp_path, [], "")
    lines = whole_out.splitlines(keepends=True)
    rates = [line.rsplit("=", 1)[1] for line in lines]
    assert len(set(rates)) < len(rates)  # ties to break
    for k in (1, 17, 60):
        (tmp_path / f"prefix{k}").write_text("".join(lines[:k]))
        stdout, out = run_grid(GRID, tmp_path, [], tmp_path / f"prefix{k}")
        assert stdout.splitlines()[-1] == whole.splitlines()[-1]
        assert out == whole_out

"""svmeval-grid's files as grid.py treats them, and a picture without matplotlib.

grid.py's convention: a file option given "null" writes no file (``-out null``; here every file
the grid writes: ``-png``, ``--results``, ``--refit``). Without matplotlib a run says so once,
whatever pictures it would have drawn, with the command that installs it into the Python that
runs svmeval (the packages of pyproject.toml's ``plot`` extra); the README's set-up
(``make demo``) installs that extra, so that its grid example draws its picture."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

import commands
from conftest import ROOT

tomllib = pytest.importorskip("tomllib")

DATA = ROOT / "data" / "breast_cancer.scale"
SMALL = ["-log2c", "-1,1,2", "-log2g", "-3,-1,2", "-v", "3"]
NO_MATPLOTLIB = (
    "import sys; sys.modules['matplotlib'] = None; "
    "from svmeval.cli.grid import main; sys.exit(main(sys.argv[1:]))"
)


def grid(*args, cwd, python_args=None):
    if python_args is None:  # nothing only a child process shows: the command in-process
        return commands.run("grid", args, cwd=cwd)
    return subprocess.run(
        [sys.executable, *python_args, *map(str, args)], cwd=cwd, capture_output=True, text=True
    )


def pyproject_extra(name: str) -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]["optional-dependencies"][name]


def test_every_file_option_given_null_writes_no_file(tmp_path):
    done = grid(
        *SMALL,
        *("-out", "null", "-png", "null", "--results", "null", "--refit", "null"),
        DATA,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].count(" ") == 2  # grid.py's last line: c g rate
    assert sorted(os.listdir(tmp_path)) == []  # no "null", no breast_cancer.scale.png


def test_null_files_are_no_files_with_nested_too(tmp_path):
    done = grid(*SMALL, "--nested", "3", "-png", "null", "--results", "null", DATA, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert os.listdir(tmp_path) == []


def test_the_extras_are_pyprojects():
    from svmeval._extras import EXTRAS

    for name, packages in EXTRAS.items():
        assert list(packages) == pyproject_extra(name)


def _install_line(line: str) -> list[str]:
    """The words of the command a line says installs matplotlib."""
    assert "install it with: " in line, line
    return shlex.split(line.split("install it with: ", 1)[1])


def test_without_matplotlib_said_once_with_the_command_that_installs_it(tmp_path):
    # the default picture (grid.py's dataset.png) and the HTML page's pictures: one line
    done = grid(
        *SMALL,
        "--results",
        "r.html",
        DATA,
        cwd=tmp_path,
        python_args=("-c", NO_MATPLOTLIB),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "matplotlib" in lines[0], lines
    words = _install_line(lines[0])
    # this Python's own pip, installing pyproject.toml's plot extra
    assert os.path.samefile(os.path.join(tmp_path, words[0]), sys.executable)
    assert words[1:4] == ["-m", "pip", "install"]
    assert words[4:] == pyproject_extra("plot")
    assert sorted(os.listdir(tmp_path)) == ["breast_cancer.scale.out", "r.html"]
    assert "Pictures need matplotlib" in (tmp_path / "r.html").read_text()


def test_make_demo_installs_the_plot_extra(tmp_path):
    done = subprocess.run(
        ["make", "-n", "-B", "demo", f"VENV={tmp_path / 'v'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 and "No such file" in done.stderr:
        pytest.skip("make is not installed")
    installs = [line for line in done.stdout.splitlines() if "pip install" in line]
    assert any("'.[plot]'" in line for line in installs), installs


def test_the_readme_grid_example_draws_its_picture(tmp_path):
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = re.search(r"^svmeval-grid .*-png grid\.png.*$", readme, re.M)
    assert line is not None
    (tmp_path / "data").symlink_to(ROOT / "data")
    args = shlex.split(line.group(0))[1:]
    done = grid(*args, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "grid.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "command, args",
    [
        (("-m", "svmeval"), ["-v", "3"]),
        (("-m", "svmeval.cli", "grid"), []),
        (("-m", "svmeval.cli", "compare"), ["-v", "3"]),
    ],
    ids=["svmeval", "svmeval-grid", "svmeval-compare"],
)
def test_a_data_file_error_carries_the_program_prefix_of_every_error(tmp_path, command, args):
    bad = tmp_path / "bad"
    bad.write_text("1 1:0.5\nx 1:0.25\n")
    tail = ["--", "-c", "1", "--", "-c", "2"] if command[-1] == "compare" else []
    done = commands.run(command[-1], [*args, str(bad), *tail], cwd=tmp_path)
    prog = {"svmeval": "svmeval", "grid": "svmeval-grid", "compare": "svmeval-compare"}
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f'{prog[command[-1]]}: {bad}:2: label "x" is not a number\n'


def test_an_unknown_criterion_offers_the_nearest_name(tmp_path):
    import difflib

    from svmeval.metrics.figures import FIGURES

    near = difflib.get_close_matches("mmc", list(FIGURES), n=1)  # the oracle: difflib's nearest
    done = grid("--criterion", "mmc", DATA, cwd=tmp_path)
    assert done.returncode == 1 and near == ["mcc"]
    assert done.stderr.startswith(
        "svmeval-grid: unknown criterion 'mmc': did you mean mcc? valid criteria: accuracy, "
    )
    assert done.stderr.count("\n") == 1 and os.listdir(tmp_path) == []


def test_compare_without_matplotlib_prints_its_report_and_says_so_once(tmp_path):
    configurations = ["--", "-c", "1", "--", "-c", "8"]
    data = [str(DATA), str(ROOT / "data" / "wine.scale")]
    code = NO_MATPLOTLIB.replace("svmeval.cli.grid", "svmeval.cli.compare")
    done = grid(
        "-v",
        "3",
        "--plot",
        "cd.png",
        *data,
        *configurations,
        cwd=tmp_path,
        python_args=("-c", code),
    )
    plain = grid("-v", "3", *data, *configurations, cwd=tmp_path, python_args=NO_PLOT_COMPARE)
    assert done.returncode == 0 and plain.returncode == 0, done.stderr
    assert done.stdout == plain.stdout  # the report, as without --plot
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("svmeval-compare: --plot: "), lines
    assert _install_line(lines[0])[4:] == pyproject_extra("plot")
    assert os.listdir(tmp_path) == []


NO_PLOT_COMPARE = ("-m", "svmeval.cli", "compare")

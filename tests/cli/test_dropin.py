"""svmeval as a drop-in svm-train: the reference outputs of LIBSVM 3.37's (patched) svm-train."""

from __future__ import annotations

import shlex

import pytest

import commands
from conftest import REFERENCE, shared_file


def reference_cases():
    index = REFERENCE / "INDEX.tsv"
    if not index.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"{index} is absent"))]
    cases = []
    for line in index.read_text().splitlines()[1:]:
        name, command = line.split("\t")
        command = command.split(" (")[0]
        cases.append(pytest.param(name, command, id=name))
    return cases


def svmeval(args, cwd):
    return commands.run("svmeval", args, cwd=cwd)


@pytest.mark.parametrize("name,command", reference_cases())
def test_reference_output(name, command, tmp_path):
    args = shlex.split(command)
    data = shared_file("data", args[-1] if name.endswith(".txt") else args[-2])
    expected_path = shared_file("reference", name)
    if name.endswith(".model"):
        # train mode: "-q [opts] data model_file": write the model and compare bytes
        args = args[:-2] + [str(data), "out.model"]
        done = svmeval(args, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        assert (tmp_path / "out.model").read_bytes() == expected_path.read_bytes()
        return
    args = args[:-1] + [str(data)]
    done = svmeval(args, tmp_path)
    assert done.returncode == 0, done.stderr
    expected = expected_path.read_text()
    if expected.count("\n") == 1:  # multiclass: stock svm-train's accuracy line
        assert done.stdout.splitlines()[0] == expected.rstrip("\n")
    else:
        assert done.stdout == expected


def test_default_model_file_name(tmp_path):
    """Without -v and without a model file name: <basename>.model in the current directory."""
    data = shared_file("data", "heart_scale")
    done = svmeval(["-q", str(data)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "heart_scale.model").read_bytes() == shared_file(
        "reference", "heart_scale.model"
    ).read_bytes()


def test_options_after_file_name(tmp_path):
    """`svmeval heart_scale -v 5` (options after the file) means what `-v 5 heart_scale` means."""
    data = shared_file("data", "heart_scale")
    done = svmeval([str(data), "-q", "-v", "5"], tmp_path)
    assert done.stdout == shared_file("reference", "heart_scale.v5.txt").read_text()


def test_training_messages_go_to_stderr(tmp_path):
    data = shared_file("data", "heart_scale")
    done = svmeval(["-v", "5", str(data)], tmp_path)
    assert done.returncode == 0
    assert done.stdout == shared_file("reference", "heart_scale.v5.txt").read_text()
    assert "optimization finished" in done.stderr


def test_grid_py_reads_the_rate(tmp_path):
    """tools/grid.py takes the first stdout line containing 'Cross' and its last token minus %."""
    data = shared_file("data", "heart_scale")
    done = svmeval(["-q", "-v", "5", "--full", str(data)], tmp_path)
    line = next(line for line in done.stdout.splitlines() if "Cross" in line)
    assert float(line.split()[-1][:-1]) == pytest.approx(82.963)

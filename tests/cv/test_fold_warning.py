"""More folds than samples: LIBSVM runs leave-one-out and warns first, in its own words, which
change with its version (3.37: ``WARNING: # folds (50) > # data (40). ...``; before: no
numbers). svmeval's warning is the text the LIBSVM that runs prints, on the light path, in the
full command, in the library and for multi-label data; the oracle is LIBSVM's own
``svm_cross_validation`` called through the official bindings (and, where
``SVMEVAL_LIBSVM_SOURCE`` names LIBSVM's source, the patched svm-train's standard error). Asking
LIBSVM for it draws from C ``rand()``: the folds must still be LIBSVM's."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import commands
from conftest import LOCAL, libsvm_cv, libsvm_folds_warning


def head(directory, n: int):
    """breast_cancer.scale's first ``n`` rows (both classes among them)."""
    path = directory / f"breast{n}"
    path.write_text("".join((LOCAL / "breast_cancer.scale").read_text().splitlines(True)[:n]))
    return path


def svmeval(*args, importtime: bool = False):
    if not importtime:  # what a fresh process imports is not asked: the command in-process
        return commands.run("svmeval", args)
    return commands.run_process("svmeval", args, python_flags=["-X", "importtime"], timeout=300)


def without_importtime(stderr: str) -> str:
    return "".join(line for line in stderr.splitlines(True) if "import time:" not in line)


@pytest.mark.parametrize("options", ["", "-b 1", "-s 3"])
def test_the_library_warns_in_libsvms_words_and_keeps_its_folds(tmp_path, capfd, options):
    from svmeval import cross_validate

    path = head(tmp_path, 40)
    warning = libsvm_folds_warning(capfd, 50, 40)
    assert warning.startswith("WARNING: # folds") and warning.count("\n") == 1
    result = cross_validate(str(path), options, folds=50)
    assert capfd.readouterr().err == warning
    assert result.n_folds == 40
    assert np.array_equal(result.y_pred, libsvm_cv(path, options, 50))


def test_each_repetition_warns_as_each_svm_train_would(tmp_path, capfd):
    from svmeval import cross_validate

    path = head(tmp_path, 30)
    warning = libsvm_folds_warning(capfd, 31, 30)
    cross_validate(str(path), folds=31, repeat=3)
    assert capfd.readouterr().err == warning * 3


def test_multilabel_data_warn_alike(tmp_path, capfd):
    from svmeval import cross_validate_multilabel

    path = tmp_path / "ml"
    rows = (LOCAL / "breast_cancer.scale").read_text().splitlines()[:20]
    path.write_text(
        "".join(f"{i % 3},{3 + i % 2} {r.split(' ', 1)[1]}\n" for i, r in enumerate(rows))
    )
    warning = libsvm_folds_warning(capfd, 30, 20)
    result = cross_validate_multilabel(str(path), folds=30)
    assert capfd.readouterr().err == warning
    assert result.n_folds == 20


@pytest.mark.parametrize("quiet", [True, False], ids=["q", "messages"])
def test_the_command_warns_in_libsvms_words(tmp_path, capfd, quiet):
    """The drop-in call: the light path (-q, no numpy) and the full command alike; its first
    stderr line is LIBSVM's warning, and the report is the same."""
    path = head(tmp_path, 40)
    warning = libsvm_folds_warning(capfd, 50, 40)
    q = ["-q"] if quiet else []
    light = svmeval(*q, "-v", "50", path, importtime=True)
    full = svmeval("--digits", "4", *q, "-v", "50", path)
    if quiet:
        modules = {
            line.rsplit("|", 1)[1].strip()
            for line in light.stderr.splitlines()
            if line.startswith("import time:") and "|" in line
        }
        assert "svmeval.cv.run.light" in modules and "numpy" not in modules  # served light
        assert without_importtime(light.stderr) == full.stderr == warning
    else:
        assert without_importtime(light.stderr).startswith(warning)
        assert full.stderr.startswith(warning) and full.stderr.count("WARNING: # folds") == 1
    assert light.returncode == full.returncode == 0
    assert light.stdout == full.stdout


def test_the_patched_svm_train_says_the_same(tmp_path, patched_svm_train):
    path = head(tmp_path, 40)
    theirs = subprocess.run(
        [patched_svm_train, "-q", "-v", "50", path], capture_output=True, text=True, check=True
    )
    assert "(50)" in theirs.stderr and "(40)" in theirs.stderr  # LIBSVM 3.37's numbers
    light = svmeval("-q", "-v", "50", path)
    full = svmeval("--digits", "4", "-q", "-v", "50", path)
    assert light.stderr == full.stderr == theirs.stderr
    assert light.stdout == full.stdout == theirs.stdout

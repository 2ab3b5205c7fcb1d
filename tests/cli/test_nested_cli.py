"""``svmeval-grid --nested K`` and ``--folds FILE`` on the command line.

Oracles: :func:`svmeval.workflows.nested.nested_cv` (itself checked against a nested CV written with
LIBSVM's own bindings in tests/workflows/test_nested.py) for the outer predictions and chosen cells;
scikit-learn's accuracy / mean squared error and numpy's correlation of the predictions file
for the report's first lines; svm.cpp's fold drawing after C ``srand(S)`` (transcribed in
tests/workflows/test_nested.py and checked there against ``svm_cross_validation``) for ``--folds``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from svmeval.io.data import read_dataset
from svmeval.params import SvmParams
from svmeval.workflows.nested import nested_cv

import commands
from conftest import data_set

sklearn_metrics = pytest.importorskip("sklearn.metrics")
test_nested = pytest.importorskip("test_nested")  # its LIBC and transcribed fold drawing

RANGES = ["-log2c", "-1,3,2", "-log2g", "-5,-1,2", "-v", "3"]


def cli(module: str, *args, cwd=None):
    return commands.run_module([module, *args], cwd=cwd, timeout=300)


def grid(*args, cwd=None):
    return cli("svmeval.cli", "grid", *args, cwd=cwd)


def one_line_exit_1(done, text: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


@pytest.mark.parametrize("seed", [1, 5])
def test_outer_predictions_and_chosen_cells_equal_nested_cv(tmp_path, seed):
    path = data_set("heart_scale")
    done = grid(
        "--nested",
        4,
        "--seed",
        seed,
        *RANGES,
        "--predictions",
        tmp_path / "p",
        "--format",
        "json",
        path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    want = nested_cv(
        read_dataset(str(path)),
        SvmParams(),
        4,
        log2c=(-1, 3, 2),
        log2g=(-5, -1, 2),
        inner_folds=3,
        seed=seed,
    )
    predictions = np.loadtxt(tmp_path / "p")
    np.testing.assert_array_equal(predictions, want.outer.y_pred)
    chosen = [(f["log2c"], f["log2g"], f["value"]) for f in report["nested"]["folds"]]
    assert chosen == [(f.cell.log2c, f.cell.log2g, f.value) for f in want.folds]
    y = read_dataset(str(path)).y
    accuracy = 100 * sklearn_metrics.accuracy_score(y, predictions)
    assert report["outer"]["accuracy"] == pytest.approx(accuracy / 100)


def test_text_report_first_line_is_the_accuracy_of_the_predictions_file(tmp_path):
    path = data_set("heart_scale")
    done = grid("--nested", 3, *RANGES, "--predictions", tmp_path / "p", path)
    assert done.returncode == 0, done.stderr
    y, predictions = read_dataset(str(path)).y, np.loadtxt(tmp_path / "p")
    accuracy = 100 * sklearn_metrics.accuracy_score(y, predictions)
    lines = done.stdout.splitlines()
    assert lines[0] == f"Cross Validation Accuracy = {accuracy:g}%"
    want = nested_cv(str(path), None, 3, log2c=(-1, 3, 2), log2g=(-5, -1, 2), inner_folds=3)
    at = lines.index("Nested cross validation: 3 outer folds x 3 inner folds, seed 1")
    rows = [line.split() for line in lines[at + 2 : at + 5]]
    assert rows == [
        [str(f.fold + 1), f"{f.cell.log2c:g}", f"{f.cell.log2g:g}", f"{f.value:g}"]
        for f in want.folds
    ]
    assert lines[at + 5].startswith("log2c: mean ")


def test_regression_lines_are_mse_and_scc_of_the_predictions_file(tmp_path):
    path = data_set("housing_scale")
    done = grid(
        "--nested",
        3,
        "-s",
        3,
        "-log2c",
        "1,3,2",
        "-log2g",
        "-3,-1,2",
        "-v",
        3,
        "--predictions",
        tmp_path / "p",
        path,
    )
    assert done.returncode == 0, done.stderr
    y, predictions = read_dataset(str(path)).y, np.loadtxt(tmp_path / "p")
    mse = sklearn_metrics.mean_squared_error(y, predictions)
    scc = np.corrcoef(y, predictions)[0, 1] ** 2
    first, second = done.stdout.splitlines()[:2]
    assert first.startswith("Cross Validation Mean squared error = ")
    assert float(first.rsplit("= ", 1)[1]) == pytest.approx(mse, rel=1e-5)
    assert second.startswith("Cross Validation Squared correlation coefficient = ")
    assert float(second.rsplit("= ", 1)[1]) == pytest.approx(scc, rel=1e-5)


def libsvm_fold_ids(y, k: int, seed: int, stratified: bool = True) -> list[int]:
    """The fold (1..k) of each sample as svm_cross_validation draws them after srand(seed)."""
    test_nested.LIBC.srand(seed)
    perm, start = test_nested.svm_cpp_folds(list(y), k, stratified)
    fold = [0] * len(y)
    for i in range(k):
        for j in perm[start[i] : start[i + 1]]:
            fold[j] = i + 1
    return fold


@pytest.mark.parametrize("seed", [1, 9])
def test_folds_files_of_svmeval_and_nested_grid_are_libsvms_folds(tmp_path, seed):
    path = data_set("heart_scale")
    want = libsvm_fold_ids(read_dataset(str(path)).y, 5, seed)
    done = cli("svmeval", "-q", "-v", 5, "--seed", seed, "--folds", tmp_path / "a", path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "a").read_text() == "".join(f"{f}\n" for f in want)
    done = grid(
        "--nested", 5, "--seed", seed, "--repeat", 2, *RANGES, "--folds", tmp_path / "b", path
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b").read_text() == "".join(f"{f}\n" for f in want)


def test_repeat_reports_every_repetitions_choices(tmp_path):
    path = data_set("heart_scale")
    done = grid("--nested", 3, "--repeat", 2, *RANGES, "--format", "csv", path)
    assert done.returncode == 0, done.stderr
    want = nested_cv(
        str(path), None, 3, log2c=(-1, 3, 2), log2g=(-5, -1, 2), inner_folds=3, repeat=2
    )
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    assert [(int(r[0]), int(r[1]), int(r[2]), float(r[3]), float(r[4])) for r in rows] == [
        (f.repetition, f.fold + 1, f.seed, f.cell.log2c, f.cell.log2g) for f in want.folds
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["-out", "o.out"], "-out: not with --nested"),
        (["-png", "g.png"], "-png: not with --nested"),
        (["-resume"], "-resume: not with --nested"),
        (["--results", "r.csv"], "--results: not with --nested"),
        (["--refit", "m.model"], "--refit: not with --nested"),
        (["--predictions", "same", "--folds", "same"], "both go to the same file"),
    ],
)
def test_nested_refusals_are_one_line_before_any_work(tmp_path, args, message):
    (tmp_path / "same").write_text("kept\n")
    done = grid("--nested", 3, *RANGES, *args, data_set("heart_scale"), cwd=tmp_path)
    one_line_exit_1(done, message)
    assert done.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same"]
    assert (tmp_path / "same").read_text() == "kept\n"


@pytest.mark.parametrize(
    "args", [["--repeat", "2"], ["--predictions", "p"], ["--folds", "f"], ["--format", "json"]]
)
def test_nested_options_without_nested_are_refused(tmp_path, args):
    done = grid(
        *RANGES, "-out", "null", "-gnuplot", "null", *args, data_set("heart_scale"), cwd=tmp_path
    )
    one_line_exit_1(done, "only with --nested K")
    assert list(tmp_path.iterdir()) == []


def test_folds_never_overwrites_the_data(tmp_path):
    data = tmp_path / "d"
    data.write_bytes(data_set("heart_scale").read_bytes())
    for done in (
        cli("svmeval", "-v", 3, "--folds", data, data),
        grid("--nested", 3, *RANGES, "--folds", data, data),
    ):
        one_line_exit_1(done, "refusing to write over an input")
    assert data.read_bytes() == data_set("heart_scale").read_bytes()


def test_nested_to_frame_is_one_row_per_outer_fold_with_scikit_learns_accuracy():
    pytest.importorskip("pandas")
    from svmeval import render

    r = nested_cv(
        str(data_set("heart_scale")),
        None,
        3,
        log2c=(-1, 3, 2),
        log2g=(-5, -1, 2),
        inner_folds=3,
        repeat=2,
    )
    frame = r.to_frame()
    assert list(zip(frame["repetition"], frame["fold"])) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
    ]
    outer = r.outer
    for j in range(3):
        rows = outer.fold == j
        want = sklearn_metrics.accuracy_score(outer.y_true[rows], outer.y_pred[rows])
        assert frame["accuracy"][j] == pytest.approx(want)
    assert list(frame["log2c"]) == [f.cell.log2c for f in r.folds]
    assert list(frame["inner_value"]) == [f.value for f in r.folds]
    assert json.loads(render(r, format="json")) == r.to_dict()

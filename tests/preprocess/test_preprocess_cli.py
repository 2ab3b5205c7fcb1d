"""``svmeval --scale / --scale-x / --scale-y / --select``: the drop-in's lines for the honest
figure, the options' errors, and the run they ask for. The scaling itself is checked against
svm-scale and LIBSVM's bindings fold by fold in tests/preprocess/test_preprocess_cv.py; here the command
prints what the library computes, in svm-train's format."""

from __future__ import annotations

import numpy as np
import pytest

from svmeval import cross_validate
from svmeval.preprocess import ScaleSpec

import commands
from conftest import data_set


def svmeval(*args, cwd=None):
    return commands.run("svmeval", [str(a) for a in args], cwd=cwd)


def accuracy_from(predictions_file, y) -> float:
    pred = np.array([float(line) for line in predictions_file.read_text().split()])
    return 100.0 * float(np.mean(pred == y))


def test_drop_in_lines_for_the_honest_figure(tmp_path):
    path = data_set("svmguide1")
    out = svmeval("-q", "-v", 5, "--scale", "--predictions", tmp_path / "p", path)
    assert out.returncode == 0 and out.stderr == ""
    plain = svmeval("-q", "-v", 5, path)
    heads = [line.split("=")[0] for line in out.stdout.splitlines()]
    assert heads == [line.split("=")[0] for line in plain.stdout.splitlines()]
    result = cross_validate(str(path), folds=5, scale=True)
    assert accuracy_from(tmp_path / "p", result.y_true) == pytest.approx(
        100.0 * float(np.mean(result.y_pred == result.y_true))
    )
    expected = 100.0 * float(np.mean(result.y_pred == result.y_true))
    assert out.stdout.splitlines()[0] == f"Cross Validation Accuracy = {expected:g}%"


def test_limits_y_and_selection_reach_the_run(tmp_path):
    path = data_set("housing_scale")
    out = svmeval(
        "-q",
        "-s",
        3,
        "-v",
        5,
        "--scale-x",
        "0,1",
        "--scale-y",
        "-1,1",
        "--predictions",
        tmp_path / "p",
        path,
    )
    assert out.returncode == 0, out.stderr
    result = cross_validate(str(path), "-s 3", scale=ScaleSpec(0, 1, y=(-1, 1)))
    written = [float(v) for v in (tmp_path / "p").read_text().split()]
    assert written == pytest.approx(result.y_pred.tolist(), rel=1e-6)
    path = data_set("svmguide1")
    out = svmeval("-q", "-v", 5, "--select", 2, "--predictions", tmp_path / "s", path)
    selected = cross_validate(str(path), select=2)
    assert accuracy_from(tmp_path / "s", selected.y_true) == pytest.approx(
        100.0 * float(np.mean(selected.y_pred == selected.y_true))
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scale-x", "1,0"], "svmeval: --scale-x: '1,0': the lower limit must be below"),
        (["--scale-x", "0"], "svmeval: --scale-x: '0' is not lower,upper (two numbers)"),
        (["--scale-x", "a,1"], "svmeval: option --scale-x: 'a' is not a number"),
        (["--scale-x", "-1e308,1e308"], "svmeval: --scale-x: '-1e308,1e308': the range's width"),
        (["--scale-y", "0,1"], "svmeval: --scale-y scales regression targets"),
        (["-s", "3", "--select", "2"], "svmeval: --select ranks features by F-score"),
        (["--select", "0"], "svmeval: option --select: '0' is out of range"),
        (["-t", "4", "--scale"], "svmeval: --scale: a precomputed kernel (-t 4)"),
        (["--scale", "--multilabel"], "svmeval: --scale: not with --multilabel"),
    ],
)
def test_bad_options_one_line_exit_1(args, message):
    out = svmeval("-v", 5, *args, data_set("svmguide1"))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1, out.stderr


def test_feature_index_0_is_refused_before_any_fold(tmp_path):
    (tmp_path / "zero").write_text("1 0:1 2:3\n-1 0:2 2:4\n1 0:3 2:5\n-1 0:1 2:1\n")
    for flag in ("--scale", "--select"):
        out = svmeval(
            "-q", "-v", 2, flag, *(["1"] if flag == "--select" else []), "zero", cwd=tmp_path
        )
        assert out.returncode == 1 and out.stdout == ""
        assert (
            out.stderr
            == f"svmeval: {flag} zero has feature index 0: svm-scale and fselect.py start at 1\n"
        )


def test_scale_without_cross_validation_is_refused(tmp_path):
    out = svmeval("--scale", data_set("svmguide1"), tmp_path / "m", cwd=tmp_path)
    assert (out.returncode, out.stdout) == (1, "")
    # learned on training folds: --score (a model's predictions) is not offered either
    assert out.stderr == "svmeval: --scale: only with -v k (cross-validation)\n"
    assert not (tmp_path / "m").exists()


def test_help_lists_the_options_within_80_columns():
    out = svmeval("--help")
    for flag in ("--scale ", "--scale-x L,U", "--scale-y L,U", "--select K"):
        assert flag in out.stdout
    assert max(len(line) for line in out.stdout.splitlines()) <= 80


def test_selection_frequencies_are_reported(tmp_path):
    """The block after the report counts, per feature, the folds that kept it: fselect.py's
    top 2 on each fold's training rows (the folds --folds writes), counted here."""
    import test_preprocess_cv as cv

    path = data_set("svmguide1")
    out = svmeval("-q", "-v", 5, "--select", 2, "--folds", tmp_path / "f", path)
    fold = np.array([int(v) for v in (tmp_path / "f").read_text().split()])
    lines = path.read_text().splitlines()
    labels = [float(line.split()[0]) for line in lines]
    rows = [{int(a): float(b) for a, b in (p.split(":") for p in ln.split()[1:])} for ln in lines]
    counts: dict = {}
    for k in range(1, 6):
        kept = cv.fselect_top(
            [y for y, f in zip(labels, fold) if f != k],
            [r for r, f in zip(rows, fold) if f != k],
            2,
        )
        for feature in kept:
            counts[feature] = counts.get(feature, 0) + 1
    block = out.stdout.split("(feature:folds of 5):\n")[1].split()
    assert sorted(block) == sorted(f"{f}:{c}" for f, c in counts.items())


def numpy_top(path, train, k):
    """fselect.py's F-score (cal_Fscore), with numpy on the rows ``train`` of ``path`` (an
    absent feature counts 0): SB / (1e-12 + SW) over the classes; the top ``k`` by F-score
    descending, ties by index ascending."""
    lines = path.read_text().splitlines()
    y = np.array([float(line.split()[0]) for line in lines])[train]
    pairs = [[p.split(":") for p in line.split()[1:]] for line in lines]
    width = max(int(i) for row in pairs for i, _ in row) + 1
    x = np.zeros((len(lines), width))
    for r, row in enumerate(pairs):
        for i, v in row:
            x[r, int(i)] = float(v)
    x = x[train]
    mean = x.mean(axis=0)
    sb = np.zeros(width)
    sw = np.full(width, 1e-12)
    for c in np.unique(y):
        xc = x[y == c]
        sb += len(xc) * (xc.mean(axis=0) - mean) ** 2
        sw += (xc**2).sum(axis=0) - xc.sum(axis=0) ** 2 / len(xc)
    order = np.argsort(-(sb / sw)[1:], kind="stable") + 1
    return sorted(order[:k].tolist())


@pytest.mark.parametrize("name", ["svmguide1", "iris.scale"])
def test_json_gives_each_folds_selected_features(tmp_path, name):
    """--format json ends with "selected": per fold (the folds --folds writes), the top 2 of
    fselect.py's F-score on that fold's training rows, recomputed here with numpy; the folds
    per feature count as the text block's."""
    import json

    path = data_set(name)
    out = svmeval("-q", "-v", 5, "--select", 2, "--format", "json", "--folds", tmp_path / "f", path)
    assert (out.returncode, out.stderr) == (0, "")
    report = json.loads(out.stdout)
    fold = np.array([int(v) for v in (tmp_path / "f").read_text().split()])
    expected = [numpy_top(path, fold != k, 2) for k in range(1, 6)]
    assert report["selected"] == expected
    assert list(report)[-1] == "selected"
    text = svmeval("-q", "-v", 5, "--select", 2, path).stdout
    counts: dict = {}
    for features in expected:
        for f in features:
            counts[f] = counts.get(f, 0) + 1
    block = text.split("(feature:folds of 5):\n")[1].split()
    assert sorted(block) == sorted(f"{f}:{c}" for f, c in counts.items())


def test_json_without_selection_has_no_new_key():
    """Without --select (or with --scale alone) the JSON report is the same object, key for
    key, as a run with it less "selected", and its bytes are json's own indent=2 layout."""
    import json

    path = data_set("svmguide1")
    selected = json.loads(svmeval("-q", "-v", 5, "--select", 2, "--format", "json", path).stdout)
    for extra in ([], ["--scale"]):
        out = svmeval("-q", "-v", 5, *extra, "--format", "json", path)
        plain = json.loads(out.stdout)
        assert "selected" not in plain
        assert list(plain) == [key for key in selected if key != "selected"]
        assert out.stdout == json.dumps(plain, indent=2) + "\n"

"""The leak check: its whole-file figure against svm-scale run on the whole file (LIBSVM's
binary) followed by an ordinary cross-validation of svm-scale's output (and fselect.py's
ranking of it, computed here), on the same folds; its test against the corrected resampled
t-test's formula computed here with scipy."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from test_preprocess_cv import fselect_top

from svmeval import cross_validate, render
from svmeval.errors import ArgumentError
from svmeval.preprocess import ScaleSpec
from svmeval.workflows.leak import leak_check

import commands
from conftest import data_set

scipy_stats = pytest.importorskip("scipy.stats")


def fold_means(result, criterion="accuracy"):
    values = []
    for run in (result, *result.repeat_results):
        for i in range(run.n_folds):
            m = run.fold == i
            if criterion == "mse":
                values.append(np.mean((run.y_pred[m] - run.y_true[m]) ** 2))
            else:
                values.append(np.mean(run.y_pred[m] == run.y_true[m]))
    return np.array(values)


def corrected_t(d, ratio):
    n = len(d)
    t = d.mean() / np.sqrt((1 / n + ratio) * d.var(ddof=1))
    return t, 2 * scipy_stats.t.sf(abs(t), n - 1)


@pytest.mark.parametrize("name, kwargs", [("svmguide1", {}), ("parkinsons", {"repeat": 2})])
def test_whole_file_figure_is_svm_scale_then_cv(svm_scale, tmp_path, name, kwargs):
    path = data_set(name)
    scaled = tmp_path / "scaled"
    scaled.write_text(
        subprocess.run(
            [str(svm_scale), str(path)], capture_output=True, text=True, check=True
        ).stdout
    )
    check = leak_check(str(path), "-c 4", 5, scale=True, **kwargs)
    plain = cross_validate(str(scaled), "-c 4", 5, keep_repeats=True, **kwargs)
    honest = cross_validate(str(path), "-c 4", 5, scale=True, keep_repeats=True, **kwargs)
    assert check.whole_file.y_pred.tolist() == plain.y_pred.tolist()
    assert check.honest.y_pred.tolist() == honest.y_pred.tolist()
    a, b = fold_means(honest), fold_means(plain)
    assert check.honest_value == pytest.approx(a.mean(), abs=1e-15)
    assert check.whole_file_value == pytest.approx(b.mean(), abs=1e-15)
    d = a - b
    assert check.test.mean == pytest.approx(d.mean(), abs=1e-15)
    if np.all(d == d[0]):  # already scaled data (a stand-in): no difference to test
        return
    t, p = corrected_t(d, 1 / 4)
    assert check.test.t == pytest.approx(t, rel=1e-9) and check.test.p == pytest.approx(p)


def test_whole_file_selection_is_fselect_on_the_whole_file(svm_scale, tmp_path):
    path = tmp_path / "dna600"
    path.write_text("".join(data_set("dna.scale").read_text().splitlines(True)[:600]))
    out = subprocess.run(
        [str(svm_scale), "-l", "0", "-u", "1", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    labels = [float(line.split()[0]) for line in out.splitlines()]
    rows = [
        {int(a): float(b) for a, b in (p.split(":") for p in line.split()[1:])}
        for line in out.splitlines()
    ]
    keep = fselect_top(labels, rows, 30)
    kept = tmp_path / "kept"
    kept.write_text(
        "".join(
            f"{y:g} " + " ".join(f"{f}:{v!r}" for f, v in sorted(r.items()) if f in keep) + "\n"
            for y, r in zip(labels, rows)
        )
    )
    check = leak_check(str(path), "-g 0.02", 5, scale=(0, 1), select=30)
    plain = cross_validate(str(kept), "-g 0.02", 5)
    assert check.whole_file.y_pred.tolist() == plain.y_pred.tolist()


def test_regression_with_y_in_the_data_units():
    from svmeval.workflows.leak import whole_file_data

    path = str(data_set("housing_scale"))
    check = leak_check(path, "-s 3", 5, scale=ScaleSpec(0, 1, y=(-1, 1)))
    assert check.criterion == "mse"
    assert check.whole_file.y_true.tolist() == check.honest.y_true.tolist()
    assert check.whole_file_value == pytest.approx(fold_means(check.whole_file, "mse").mean())
    from svmeval import read_dataset
    from svmeval.preprocess import Preprocessing

    data, fitted = whole_file_data(read_dataset(path), Preprocessing(ScaleSpec(0, 1, y=(-1, 1))))
    scaled = cross_validate(data, "-s 3", 5)
    assert check.whole_file.y_pred == pytest.approx(fitted.inverse_y(scaled.y_pred), rel=1e-12)


def test_nothing_to_leak_is_refused():
    with pytest.raises(ArgumentError):
        leak_check(str(data_set("svmguide1")))


def test_the_command_prints_the_report():
    path = data_set("svmguide1")
    out = commands.run("svmeval", ["-q", "-v", "5", "--scale", "--leak", str(path)])
    assert out.returncode == 0 and out.stderr == ""
    check = leak_check(str(path), None, 5, scale=True)
    assert out.stdout == render(check)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Preprocessing: scale -l -1 -u 1")
    assert max(map(len, lines)) <= 80
    bad = commands.run("svmeval", ["-q", "-v", "5", "--leak", str(path)])
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "--leak" in bad.stderr


# --- sizes to choose from: fselect.py's figure beside nested cross-validation's -------------
def _write_columns(path, tmp_path, labels, rows, keep, k):
    out = tmp_path / f"top{k}"
    out.write_text(
        "".join(
            f"{label:g}" + "".join(f" {f}:{v!r}" for f, v in sorted(r.items()) if f in keep) + "\n"
            for label, r in zip(labels, rows)
        )
    )
    return out


@pytest.mark.parametrize("repeat", [1, 2])
def test_fselect_figure_is_the_whole_file_ranking_then_plain_runs(tmp_path, repeat):
    """The whole-file figure: the test's own ranking of the whole file (fselect.py's formula),
    each size's columns written out and cross-validated plainly on the same folds, the first
    of the best rates (fselect.py's est_acc.index(max(est_acc))); the honest one: nested CV
    with the size searched alone (checked against an explicit outer loop in
    tests/preprocess/test_preprocess_sizes.py)."""
    from libsvm.svmutil import svm_read_problem

    from svmeval import nested_cv

    path = data_set("heart_scale")
    labels, rows = svm_read_problem(str(path))
    sizes = [10, 2, 5]
    check = leak_check(str(path), "-c 2 -g 0.1", 5, select=sizes, repeat=repeat)
    rates, plains = [], []
    for k in sizes:
        keep = fselect_top(labels, rows, k)
        plain = cross_validate(
            str(_write_columns(path, tmp_path, labels, rows, keep, k)),
            "-c 2 -g 0.1",
            5,
            repeat=repeat,
            keep_repeats=True,
        )
        runs = (plain, *plain.repeat_results)
        correct = sum(int(np.count_nonzero(r.y_true == r.y_pred)) for r in runs)
        rates.append(float(f"{100.0 * correct / sum(len(r.y_true) for r in runs):g}"))
        plains.append(plain)
    best = rates.index(max(rates))
    assert list(check.sizes) == sizes and list(check.whole_file_rates) == rates
    assert check.whole_file_size == sizes[best]
    np.testing.assert_array_equal(check.whole_file_folds.ravel(), fold_means(plains[best]))
    nested = nested_cv(
        str(path),
        "-c 2 -g 0.1",
        5,
        log2c=None,
        log2g=None,
        inner_folds=5,
        select=sizes,
        repeat=repeat,
    )
    want = (nested.outer, *nested.repeat_results)
    honest = np.array(
        [np.mean(r.y_pred[r.fold == i] == r.y_true[r.fold == i]) for r in want for i in range(5)]
    )
    np.testing.assert_array_equal(check.honest_folds.ravel(), honest)
    assert list(check.honest_sizes) == [f.cell.select for f in nested.folds]
    assert check.difference == pytest.approx(honest.mean() - fold_means(plains[best]).mean())
    got = check.to_dict()
    assert got["whole_file_size"] == sizes[best] and got["sizes"] == sizes


def test_the_command_shows_both_figures_within_80_columns(tmp_path):
    path = str(data_set("heart_scale"))
    out = commands.run(
        "svmeval", ["-q", "-v", "5", "--leak", "--select", "3,8", path], cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    check = leak_check(path, None, 5, select=[3, 8])
    assert out.stdout == render(check)
    lines = out.stdout.splitlines()
    assert lines[0] == "Feature selection, sizes 3,8 (accuracy, the mean of 5 folds)"
    assert any("(what tools/fselect.py reports)" in line for line in lines)
    assert any("(nested cross-validation)" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)
    got = commands.run(
        "svmeval",
        ["-q", "-v", "5", "--leak", "--select", "fselect", "--format", "json", path],
        cwd=tmp_path,
    )
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["sizes"] == list(
        leak_check(path, None, 5, select="fselect").sizes
    )


@pytest.mark.parametrize(
    "value,message",
    [
        ("3,3", "svmeval: option --select: '3,3' gives the size 3 twice"),
        ("0,5", "svmeval: option --select: '0' is out of range"),
        ("3,99", "svmeval: --select size 99 is more than the data's"),
    ],
)
def test_bad_sizes_in_the_leak_check(tmp_path, value, message):
    path = str(data_set("heart_scale"))
    out = commands.run("svmeval", ["-v", "5", "--leak", "--select", value, path], cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(message) and len(out.stderr.splitlines()) == 1


def test_sizes_after_scaling_rank_the_scaled_whole_file():
    """With scaling, each size's whole-file run is the whole file scaled then ranked: the
    single-K whole-file run (checked against svm-scale's binary above) of that size."""
    path = str(data_set("parkinsons"))
    check = leak_check(path, "-c 2 -g 0.1", 5, scale=True, select=[3, 8])
    for k, rate in zip(check.sizes, check.whole_file_rates):
        one = leak_check(path, "-c 2 -g 0.1", 5, scale=True, select=k).whole_file
        correct = np.count_nonzero(one.y_true == one.y_pred)
        assert rate == float(f"{100.0 * correct / len(one.y_true):g}")
    assert render(check).startswith("Feature selection, sizes 3,8, after scale -l -1 -u 1 (")

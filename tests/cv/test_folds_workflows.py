"""Groups and given folds in every run: the grid's cells, nested CV's outer and inner folds,
the tuned threshold's outer and inner folds and a comparison's runs keep every group whole
(checked on the folds each drew), a grid cell is LIBSVM's own training on its folds, and the
commands refuse bad group files before any output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_folds_given import libsvm_fold_by_fold

from svmeval import compare, grid_search, nested_cv, read_dataset, tune_threshold
from svmeval.cv.plan import cv_plan
from svmeval.cv.run import evaluate

from conftest import data_set


@pytest.fixture
def drawn(monkeypatch):
    """Every fold draw of a run: (labels, folds, source)."""
    seen = []
    original = cv_plan.draw_folds

    def record(y, nr_fold, seed, params, *, warn=None, source=None):
        folds = original(y, nr_fold, seed, params, warn=warn, source=source)
        seen.append((np.asarray(y), folds, source))
        return folds

    monkeypatch.setattr(cv_plan, "draw_folds", record)
    monkeypatch.setattr(evaluate, "draw_folds", record)
    return seen


def _whole(folds, groups) -> bool:
    """No group on both sides of any fold."""
    groups = np.asarray(groups)
    return all(
        not set(groups[folds.test(i)].tolist()) & set(groups[folds.train(i)].tolist())
        for i in range(folds.n_folds)
    )


def _groups(n: int) -> np.ndarray:
    return np.array([f"g{(7 * i) % 37}" for i in range(n)])  # 37 groups, rows interleaved


def test_grid_cells_keep_groups_whole_and_are_libsvm_on_their_folds(drawn):
    path = data_set("heart_scale")
    groups = _groups(read_dataset(path).n_samples)
    grid = grid_search(path, log2c=(-1, 3, 2), log2g=(-5, -3, 2), folds=4, groups=groups)
    assert drawn and all(s is not None and s.grouped for _, _, s in drawn)
    assert all(_whole(f, groups) for _, f, _ in drawn)
    folds = drawn[-1][1]
    assert grid.n_folds == 4 and grid.fold_source == "grouped (37 groups)"
    pairs = [(folds.train(i), folds.test(i)) for i in range(folds.n_folds)]
    cell = grid.cells[2]
    y = read_dataset(path).y
    expected = libsvm_fold_by_fold(path, cell.params.flags(), pairs)
    assert cell.value == pytest.approx(np.mean(expected == y), abs=1e-6)


def test_nested_cv_keeps_groups_whole_outside_and_inside(drawn):
    path = data_set("heart_scale")
    groups = _groups(read_dataset(path).n_samples)
    result = nested_cv(
        path, folds=3, inner_folds=3, log2c=(-1, 1, 2), log2g=(-3, -3, 1), groups=groups
    )
    assert _whole(result.outer.folds, groups)
    outer = [(y, f, s) for y, f, s in drawn if len(y) == len(groups)]
    inner = [(y, f, s) for y, f, s in drawn if len(y) < len(groups)]
    assert len(outer) == 1 and len(inner) >= 3
    for fold in result.folds:  # each inner grid on its outer training rows' groups
        mine = [f for y, f, s in inner if len(y) == len(fold.train_rows)]
        assert mine and all(_whole(f, groups[fold.train_rows]) for f in mine)
    for _, f, s in inner:
        assert s is not None and s.grouped and _whole(f, s.codes)


def test_tuned_threshold_keeps_groups_whole_outside_and_inside(drawn):
    path = data_set("heart_scale")
    groups = _groups(read_dataset(path).n_samples)
    t = tune_threshold(path, folds=3, inner_folds=3, groups=groups, criterion="mcc")
    assert _whole(t.cv.folds, groups)
    for fold in t.folds:
        inner = [f for y, f, s in drawn if len(y) == len(fold.train_rows)]
        assert inner and all(_whole(f, groups[fold.train_rows]) for f in inner)


def test_compare_runs_both_configurations_on_the_same_grouped_folds(drawn):
    path = data_set("heart_scale")
    groups = _groups(read_dataset(path).n_samples)
    c = compare(path, "-c 1", "-c 4", 5, repeat=2, groups=groups)
    assert c.fold_source == "grouped (37 groups)" and c.n_folds == 5
    assert len(drawn) == 2 and all(_whole(f, groups) for _, f, _ in drawn)
    assert not np.array_equal(drawn[0][1].fold_of(), drawn[1][1].fold_of())  # by seed


@pytest.mark.parametrize("command", ["svmeval-grid", "svmeval-compare"])
def test_commands_refuse_a_short_groups_file_before_any_output(command, tmp_path):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    bad = tmp_path / "groups.txt"
    bad.write_text("".join(f"g{i % 9}\n" for i in range(n - 1)))
    exe = str(Path(sys.executable).parent / command)
    out = tmp_path / "grid.out"
    if command == "svmeval-grid":
        args = ["-log2c", "-1,1,2", "-log2g", "-3,-3,1", "-out", str(out), "-png", "null"]
        args += ["--groups", str(bad), str(path)]
    else:
        args = ["--groups", str(bad), str(path), "--", "-c", "1", "--", "-c", "4"]
    done = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert f":{n}: no line for data row {n}" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not out.exists()


def test_given_folds_in_the_grid_command_are_the_grid_on_those_folds(tmp_path):
    path = data_set("heart_scale")
    y = read_dataset(path).y
    fold = np.arange(len(y)) % 3
    folds_file = tmp_path / "folds.txt"
    folds_file.write_text("".join(f"{f + 1}\n" for f in fold))
    exe = str(Path(sys.executable).parent / "svmeval-grid")
    args = ["-log2c", "1,1,1", "-log2g", "-3,-3,1", "-out", "null", "-png", "null"]
    done = subprocess.run(
        [exe, *args, "--given-folds", str(folds_file), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    pairs = [(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(3)]
    expected = libsvm_fold_by_fold(path, "-c 2 -g 0.125", pairs)
    rate = 100.0 * np.mean(expected == y)
    assert done.stdout.splitlines()[-1] == f"2.0 0.125 {rate:g}"


def test_permutation_test_permutes_whole_groups_and_keeps_them_whole(drawn):
    from svmeval import permutation_test

    path = data_set("heart_scale")
    y = read_dataset(path).y
    n = len(y)
    # one label a group (groups of up to 5 rows of one label, each class cut on its own, so
    # that no group spans two classes whatever their sizes): labels permuted between groups
    groups = np.empty(n, dtype=np.int64)
    start = 0
    for label in np.unique(y):
        rows = np.flatnonzero(y == label)
        ids = np.arange(len(rows)) // 5
        groups[rows] = start + ids
        start += ids[-1] + 1
    t = permutation_test(path, folds=4, permutations=6, groups=groups)
    assert "labels permuted between groups" in t.design
    labels = [(yy, f) for yy, f, s in drawn if s is not None]
    assert len(labels) == 7  # the data's own run and 6 permutations
    own = {g: y[groups == g][0] for g in np.unique(groups)}
    for yy, folds in labels:
        assert _whole(folds, groups)
        mine = {g: set(yy[groups == g].tolist()) for g in np.unique(groups)}
        assert all(len(v) == 1 for v in mine.values())  # a group keeps one label
        assert sorted(v.pop() for v in mine.values()) == sorted(own.values())
    assert any(not np.array_equal(yy, y) for yy, _ in labels[1:])
    # the observed figure: LIBSVM's bindings fold by fold on the data's own grouped folds
    folds = labels[0][1]
    pairs = [(folds.train(i), folds.test(i)) for i in range(folds.n_folds)]
    assert t.observed == pytest.approx(np.mean(libsvm_fold_by_fold(path, "", pairs) == y))


def test_permutation_test_permutes_within_groups_of_mixed_labels(drawn):
    from svmeval import permutation_test

    path = data_set("heart_scale")
    y = read_dataset(path).y
    groups = np.arange(len(y)) // 6  # groups of mixed labels: permuted within each group
    t = permutation_test(path, folds=4, permutations=5, groups=groups)
    assert "labels permuted within groups" in t.design
    for yy, folds, _ in drawn:
        assert _whole(folds, groups)
        for g in np.unique(groups):
            assert sorted(yy[groups == g].tolist()) == sorted(y[groups == g].tolist())


def test_every_html_provenance_names_the_folds():
    import re

    from svmeval import permutation_test, render

    path = data_set("heart_scale")
    groups = _groups(read_dataset(path).n_samples)
    runs = [
        nested_cv(path, folds=3, inner_folds=3, log2c=(1, 1, 1), log2g=(-3, -3, 1), groups=groups),
        tune_threshold(path, folds=3, inner_folds=3, groups=groups),
        permutation_test(path, folds=3, permutations=2, groups=groups),
        grid_search(path, log2c=(1, 1, 1), log2g=(-3, -3, 1), folds=3, groups=groups),
        compare(path, "-c 1", "-c 4", 3, repeat=1, groups=groups),
    ]
    for run in runs:
        provenance = render(run, format="html").split('id="provenance"')[1]
        (row,) = re.findall(r">folds</th><td>([^<]*)", provenance)
        assert "grouped" in row and "37 groups" in row

"""Nested cross-validation with scaling and selection inside the folds: each inner grid is
grid_search(scale=, select=) run on the outer training rows written as a data file (its
folds' preprocessing checked against svm-scale in tests/preprocess/test_preprocess_grid.py), and each
outer model is svm-scale's rule and fselect.py's ranking computed here on the outer training
rows (numpy, the %g text svm-scale writes), trained and predicted by LIBSVM's bindings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_preprocess_cv import fselect_top

from svmeval import grid_search, nested_cv

import commands
from conftest import data_set

svmutil = pytest.importorskip("libsvm.svmutil")

RANGES = dict(log2c=(1, 5, 2), log2g=(-1, -3, -2))


def _read(path: Path):
    lines = path.read_text().splitlines(True)
    y, x = svmutil.svm_read_problem(str(path))
    width = max((max(r) for r in x if r), default=0)
    dense = np.zeros((len(x), width))
    for i, row in enumerate(x):
        for f, v in row.items():
            dense[i, f - 1] = v
    return lines, np.array(y), dense


def _svm_scale(train: np.ndarray, rows: np.ndarray, lower: float, upper: float) -> list:
    """svm-scale -s on ``train`` then -r on ``rows`` (absent values are 0 in the ranges; a
    feature of one value on the training rows is left out; values as its %g text)."""
    lo, hi = train.min(axis=0), train.max(axis=0)
    out = []
    for row in rows:
        scaled = {}
        for f, v in enumerate(row):
            if hi[f] == lo[f]:
                continue
            if v == lo[f]:
                s = lower
            elif v == hi[f]:
                s = upper
            else:
                s = lower + (upper - lower) * (v - lo[f]) / (hi[f] - lo[f])
            s = float(f"{s:g}")
            if s != 0:
                scaled[f + 1] = s
        out.append(scaled)
    return out


@pytest.mark.parametrize("select", [None, 3])
def test_inner_grids_and_outer_models_learn_on_their_own_rows(tmp_path, select):
    path = data_set("heart_scale")
    lines, y, dense = _read(path)
    result = nested_cv(
        str(path), folds=3, inner_folds=3, seed=2, scale=(0, 1), select=select, **RANGES
    )
    assert len(result.folds) == 3
    for f in result.folds:
        # the inner grid: grid_search with the preprocessing on the outer training rows, in
        # their order, as a data set of their own
        rows = tmp_path / f"outer_train{f.fold}"
        rows.write_text("".join(lines[i] for i in f.train_rows))
        inner = grid_search(str(rows), folds=3, seed=2, scale=(0, 1), select=select, **RANGES)
        assert [c.value for c in f.grid.cells] == [c.value for c in inner.cells]
        assert f.cell == inner.best.cell
        # the outer model: scaled and selected on the outer training rows alone
        train_x = _svm_scale(dense[f.train_rows], dense[f.train_rows], 0, 1)
        test_x = _svm_scale(dense[f.train_rows], dense[f.test_rows], 0, 1)
        if select is not None:
            keep = fselect_top(y[f.train_rows].tolist(), train_x, select)
            train_x = [{k: v for k, v in r.items() if k in keep} for r in train_x]
            test_x = [{k: v for k, v in r.items() if k in keep} for r in test_x]
        options = f"-c {f.params.C!r} -g {f.params.gamma!r} -q"
        model = svmutil.svm_train(y[f.train_rows].tolist(), train_x, options)
        want, _, _ = svmutil.svm_predict(y[f.test_rows].tolist(), test_x, model, "-q")
        np.testing.assert_array_equal(result.outer.y_pred[f.test_rows], want)
    assert result.to_dict()["nested"]["preprocessing"] == result.outer.preprocessing != ""


def test_a_plain_nested_run_has_no_preprocessing(tmp_path):
    # every fourth row of svmguide1 (unscaled, both classes): the whole file took 30-90 s
    lines = data_set("svmguide1").read_text().splitlines(keepends=True)
    path = str(tmp_path / "svmguide1.part")
    Path(path).write_text("".join(lines[::4]))
    plain = nested_cv(path, folds=3, inner_folds=3, **RANGES)
    scaled = nested_cv(path, folds=3, inner_folds=3, scale=True, **RANGES)
    assert "preprocessing" not in plain.to_dict()["nested"]
    assert not np.array_equal(plain.outer.y_pred, scaled.outer.y_pred)


def test_the_store_keys_the_preprocessing(tmp_path):
    from svmeval import open_store

    path = str(data_set("svmguide1"))
    store = tmp_path / "runs.db"
    ranges = dict(log2c=(1, 3, 2), log2g=(1, 1, 1))
    nested_cv(path, folds=2, inner_folds=2, store=store, **ranges)
    with open_store(store) as s:
        scaled = nested_cv(path, folds=2, inner_folds=2, store=s, scale=True, **ranges)
        assert s.reused == 0
    with open_store(store) as s:
        again = nested_cv(path, folds=2, inner_folds=2, store=s, scale=True, **ranges)
        assert s.computed == 0
    np.testing.assert_array_equal(again.outer.y_pred, scaled.outer.y_pred)


def test_the_command_runs_the_nested_grid_with_the_preprocessing(tmp_path):
    path = str(data_set("heart_scale"))
    args = ["--nested", "3", "-v", "3", "-log2c", "1,5,2", "-log2g", "-1,-3,-2"]
    out = commands.run("grid", [*args, "--scale-x", "0,1", "--format", "json", path], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    want = nested_cv(path, folds=3, inner_folds=3, scale=(0, 1), **RANGES)
    got = json.loads(out.stdout)
    assert got["nested"]["preprocessing"] == "scale -l 0 -u 1"
    assert [f["log2c"] for f in got["nested"]["folds"]] == [f.cell.log2c for f in want.folds]
    text = commands.run("grid", [*args, "-q", "--scale", path], cwd=tmp_path)
    assert "Learned on each fold's training rows: scale -l -1 -u 1" in text.stdout

"""svmeval.preprocess against LIBSVM's own tools: svm-scale's output files (the binary built
from LIBSVM's source, ``SVMEVAL_LIBSVM_SOURCE``) read back, and fselect.py's F-score formula
computed here, loop by loop as ``tools/fselect.py``'s ``cal_Fscore``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from svmeval import read_dataset
from svmeval.errors import InvalidParameterError
from svmeval.preprocess import (
    Preprocessing,
    ScaleSpec,
    fit_scale,
    g6,
    parse_range,
    ranked,
    select_top,
)

from conftest import data_set

#: absent features, a single-valued feature (5: 3 in every row), a feature that is 7 where
#: present (range [0, 7]), values at the bounds, a value %g rounds (1/3 of the range), a
#: feature beyond the training rows' indices (9, test rows only), negative values
EDGES_TRAIN = """\
1 1:-2 2:0.5 5:3 6:7
-1 1:4 3:0.1 5:3
1 2:1 5:3 6:7 7:1e-7
-1 1:0 2:0.25 3:0.3 5:3 7:2.5
1 1:1 3:-0.2 5:3 6:7
"""
EDGES_TEST = """\
1 1:-3 2:0.5 5:3 9:4
-1 1:4 2:2 3:0.1 5:2 6:7
1 5:3
"""


def read_text(text: str):
    """LIBSVM-format text as (labels, rows of {index: value}), as svm-train reads it."""
    labels, rows = [], []
    for line in text.splitlines():
        parts = line.split()
        labels.append(float(parts[0]))
        rows.append({int(k): float(v) for k, v in (p.split(":") for p in parts[1:])})
    return labels, rows


def as_rows(indptr, indices, values):
    return [
        dict(zip(indices[a:b].tolist(), values[a:b].tolist()))
        for a, b in zip(indptr[:-1], indptr[1:])
    ]


def run_scale(binary: Path, options: list[str], path: Path) -> str:
    done = subprocess.run([str(binary), *options, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def check_against_svm_scale(binary, tmp_path, train_text, test_text, spec: ScaleSpec):
    """svm-scale -s on the training file and -r on the test file, read back, equal
    svmeval's factors and transformed rows (the range file byte for byte)."""
    train, test = tmp_path / "train", tmp_path / "test"
    train.write_text(train_text)
    test.write_text(test_text)
    options = spec.options().split()
    scaled_train = run_scale(binary, [*options, "-s", str(tmp_path / "range")], train)
    scaled_test = run_scale(binary, ["-r", str(tmp_path / "range")], test)
    ds_train, ds_test = read_dataset(str(train)), read_dataset(str(test))
    factors = fit_scale(spec, ds_train.indptr, ds_train.indices, ds_train.values, ds_train.y)
    assert factors.range_text() == (tmp_path / "range").read_text()
    for ds, text in ((ds_train, scaled_train), (ds_test, scaled_test)):
        labels, rows = read_text(text)
        assert as_rows(*factors.transform(ds.indptr, ds.indices, ds.values)) == rows
        assert factors.transform_y(ds.y).tolist() == labels
    return factors


def test_edge_cases_equal_svm_scale(svm_scale, tmp_path):
    factors = check_against_svm_scale(
        svm_scale, tmp_path, EDGES_TRAIN, EDGES_TEST, ScaleSpec(-1, 1)
    )
    assert 5 not in factors.index.tolist()  # single-valued: dropped
    assert factors.fmin[factors.index.tolist().index(6)] == 0  # absent counts as 0


@pytest.mark.parametrize("lower, upper", [(-1, 1), (0, 1), (-0.5, 2.5)])
def test_edge_cases_other_limits(svm_scale, tmp_path, lower, upper):
    check_against_svm_scale(svm_scale, tmp_path, EDGES_TRAIN, EDGES_TEST, ScaleSpec(lower, upper))


@pytest.mark.parametrize("name", ["svmguide1", "parkinsons", "dna.scale", "a9a", "housing_scale"])
def test_data_sets_equal_svm_scale(svm_scale, tmp_path, name):
    lines = data_set(name).read_text().splitlines(True)[:1500]
    train = "".join(line for i, line in enumerate(lines) if i % 4)
    test = "".join(line for i, line in enumerate(lines) if i % 4 == 0)
    spec = ScaleSpec(-1, 1, y=(0, 1)) if name == "housing_scale" else ScaleSpec(0, 1)
    check_against_svm_scale(svm_scale, tmp_path, train, test, spec)


def test_whole_file_and_rows_agree():
    """Fitting on some rows of a data set equals fitting on those rows written apart."""
    ds = read_dataset(str(data_set("svmguide1")))
    rows = np.arange(0, ds.n_samples, 3)
    spec = ScaleSpec()
    a = fit_scale(spec, ds.indptr, ds.indices, ds.values, ds.y, rows)
    dense = np.zeros((ds.n_samples, ds.n_features + 1))
    for i in range(ds.n_samples):
        s, e = ds.indptr[i], ds.indptr[i + 1]
        dense[i, ds.indices[s:e]] = ds.values[s:e]
    assert a.fmin.tolist() == dense[rows][:, a.index].min(axis=0).tolist()
    assert a.fmax.tolist() == dense[rows][:, a.index].max(axis=0).tolist()


def test_full_precision_keeps_the_affine_value():
    # rows 1: 0 (absent), 1: 3, 1: 1
    indptr, indices, values = np.array([0, 0, 1, 2]), np.array([1, 1]), np.array([3.0, 1.0])
    exact = fit_scale(ScaleSpec(0, 1, full_precision=True), indptr, indices, values)
    rounded = fit_scale(ScaleSpec(0, 1), indptr, indices, values)
    assert exact.transform(indptr, indices, values)[2].tolist() == [1.0, 1 / 3]
    assert rounded.transform(indptr, indices, values)[2].tolist() == [1.0, 0.333333]
    assert g6(np.array([1 / 3, 2e-9 / 3, -12345678.0])).tolist() == [
        0.333333,
        6.66667e-10,
        -1.23457e07,
    ]


def test_range_text_round_trip():
    ds = read_dataset(str(data_set("parkinsons")))
    factors = fit_scale(ScaleSpec(-1, 1, y=(0, 2)), ds.indptr, ds.indices, ds.values, ds.y)
    back = parse_range(factors.range_text())
    assert back.range_text() == factors.range_text()
    a = factors.transform(ds.indptr, ds.indices, ds.values)
    b = back.transform(ds.indptr, ds.indices, ds.values)
    assert all(np.array_equal(x, z) for x, z in zip(a, b))


@pytest.mark.parametrize(
    "spec",
    [
        dict(lower=1, upper=1),
        dict(lower=2, upper=1),
        dict(lower=float("nan")),
        dict(y=(1, 0)),
        dict(lower=-1e308, upper=1e308),
    ],
)
def test_bad_limits_are_refused(spec):
    with pytest.raises(InvalidParameterError, match="scale"):
        ScaleSpec(**spec)


def fselect_scores(labels, samples):
    """tools/fselect.py's cal_Fscore, as it is written: sums in row order, classes in their
    order of first appearance, eps = 1e-12 added to the within-class sum."""
    data_num = float(len(samples))
    p_num: dict = {}
    max_idx = -1
    for label, point in zip(labels, samples):
        p_num[label] = p_num.get(label, 0) + 1
        max_idx = max([max_idx, *point.keys()])
    sum_f = [0.0] * max_idx
    sum_l_f = {la: [0.0] * max_idx for la in p_num}
    sumq_l_f = {la: [0.0] * max_idx for la in p_num}
    for label, point in zip(labels, samples):
        for f, v in point.items():
            sum_f[f - 1] += v
            sum_l_f[label][f - 1] += v
            sumq_l_f[label][f - 1] += v**2
    scores = {}
    for f in range(max_idx):
        sb = 0.0
        for la in p_num:
            sb += p_num[la] * (sum_l_f[la][f] / p_num[la] - sum_f[f] / data_num) ** 2
        sw = 1e-12
        for la in p_num:
            sw += sumq_l_f[la][f] - (sum_l_f[la][f] ** 2) / p_num[la]
        scores[f + 1] = sb / sw
    return scores


@pytest.mark.parametrize("name", ["parkinsons", "svmguide1", "dna.scale", "a9a"])
def test_f_scores_equal_fselect(name):
    labels, samples = read_text("".join(data_set(name).read_text().splitlines(True)[:800]))
    ds = read_dataset(str(data_set(name)))
    rows = np.arange(min(800, ds.n_samples))
    fitted = Preprocessing(select=5).fit(ds.indptr, ds.indices, ds.values, ds.y, rows)
    mine = fitted.scores
    theirs = fselect_scores(labels, samples)
    assert len(mine) == len(theirs) + 1
    np.testing.assert_allclose(mine[1:], [theirs[f] for f in sorted(theirs)], rtol=1e-12)
    # fselect.py's order: a stable sort of the features (in index order) by -F
    expected = [f for f, _ in sorted(theirs.items(), key=lambda t: -t[1])]
    assert ranked(mine).tolist() == expected
    assert select_top(mine, 5).tolist() == sorted(expected[:5])
    assert fitted.features.tolist() == sorted(expected[:5])


def test_ties_break_by_index():
    scores = np.array([np.nan, 1.0, 2.0, 1.0, 2.0, 0.0])
    assert ranked(scores).tolist() == [2, 4, 1, 3, 5]
    assert select_top(scores, 3).tolist() == [1, 2, 4]


def test_scaling_then_selection_ranks_the_scaled_rows():
    ds = read_dataset(str(data_set("parkinsons")))
    fitted = Preprocessing(ScaleSpec(), 4).fit(ds.indptr, ds.indices, ds.values, ds.y)
    scaled = fitted.factors.transform(ds.indptr, ds.indices, ds.values)
    labels = ds.y.tolist()
    theirs = fselect_scores(labels, as_rows(*scaled))
    expected = sorted(f for f, _ in sorted(theirs.items(), key=lambda t: -t[1])[:4])
    assert fitted.features.tolist() == expected
    out = as_rows(*fitted.transform(ds.indptr, ds.indices, ds.values))
    assert out == [{k: v for k, v in row.items() if k in expected} for row in as_rows(*scaled)]

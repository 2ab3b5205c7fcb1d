"""compare and benchmark with scaling and selection inside the folds: each configuration's
folds are cross_validate(scale=, select=)'s on the same seed (checked against svm-scale's
files and LIBSVM's bindings in tests/preprocess/test_preprocess_cv.py), and the figures and the tests
are computed here from those predictions (scipy's t distribution)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from svmeval import benchmark, compare, cross_validate

import commands
from conftest import data_set, data_sets

A, B = "-c 1", "-c 8 -g 0.5"


def _fold_accuracies(result) -> np.ndarray:
    return np.array(
        [
            np.mean(result.y_pred[result.fold == f] == result.y_true[result.fold == f])
            for f in range(result.n_folds)
        ]
    )


@pytest.mark.parametrize("scale, select", [(True, None), ((0, 1), 3)])
def test_each_configuration_is_cross_validate_with_the_preprocessing(scale, select):
    path = str(data_set("heart_scale"))
    folds, repeat = 5, 3
    c = compare(path, A, B, folds=folds, repeat=repeat, seed=4, scale=scale, select=select)
    runs = {
        name: [
            cross_validate(path, options, folds, seed=4 + r, scale=scale, select=select)
            for r in range(repeat)
        ]
        for name, options in (("a", A), ("b", B))
    }
    folds_a = np.concatenate([_fold_accuracies(r) for r in runs["a"]])
    folds_b = np.concatenate([_fold_accuracies(r) for r in runs["b"]])
    np.testing.assert_allclose(c.folds_a, folds_a, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.folds_b, folds_b, rtol=0, atol=1e-12)
    # the corrected resampled t-test of B - A, by its formula (Nadeau & Bengio 2003)
    d = folds_b - folds_a
    n = len(d)
    ratio = 1 / (folds - 1)
    t = d.mean() / np.sqrt((1 / n + ratio) * d.var(ddof=1))
    assert c.ttest.t == pytest.approx(t, rel=1e-9)
    assert c.ttest.p == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-9)
    # McNemar's counts on the first repetition's predictions
    first_a, first_b = runs["a"][0], runs["b"][0]
    right_a, right_b = first_a.y_pred == first_a.y_true, first_b.y_pred == first_b.y_true
    assert c.mcnemar.a_only == int(np.sum(right_a & ~right_b))
    assert c.mcnemar.b_only == int(np.sum(~right_a & right_b))
    assert c.preprocessing == runs["a"][0].preprocessing != ""
    assert c.to_dict()["preprocessing"] == c.preprocessing


def test_a_plain_comparison_differs_and_has_no_preprocessing_key():
    path = str(data_set("svmguide1"))
    plain = compare(path, A, B, folds=3, repeat=2)
    scaled = compare(path, A, B, folds=3, repeat=2, scale=True)
    assert "preprocessing" not in plain.to_dict()
    assert not np.array_equal(plain.folds_a, scaled.folds_a)


def test_the_store_keys_the_preprocessing(tmp_path):
    from svmeval import open_store

    path = str(data_set("svmguide1"))
    store = tmp_path / "runs.db"
    plain = compare(path, A, B, folds=3, repeat=2, store=store)
    with open_store(store) as s:
        scaled = compare(path, A, B, folds=3, repeat=2, store=s, scale=True)
        assert (s.reused, s.computed) == (0, 2 * 2 * 3)
    with open_store(store) as s:
        again = compare(path, A, B, folds=3, repeat=2, store=s, scale=True)
        assert (s.reused, s.computed) == (2 * 2 * 3, 0)
    np.testing.assert_array_equal(again.folds_b, scaled.folds_b)
    assert not np.array_equal(plain.folds_b, scaled.folds_b)


def test_benchmark_folds_are_cross_validate_with_the_preprocessing():
    paths = [str(p) for p in data_sets("heart_scale", "iris.scale")]
    b = benchmark(paths, {"a": A, "b": B}, folds=3, repeat=2, scale=(0, 1), select=2)
    for i, path in enumerate(paths):
        for j, options in enumerate((A, B)):
            want = np.concatenate(
                [
                    _fold_accuracies(
                        cross_validate(path, options, 3, seed=1 + r, scale=(0, 1), select=2)
                    )
                    for r in range(2)
                ]
            )
            np.testing.assert_allclose(b.values[i, j], want, rtol=0, atol=1e-12)
    assert b.to_dict()["preprocessing"] == "scale -l 0 -u 1; select 2"


def test_the_command_reports_the_scaled_comparison(tmp_path):
    path = str(data_set("heart_scale"))
    args = ["-v", "4", "--repeat", "2", "--scale-x", "0,1", "--format", "json"]
    out = commands.run("compare", [*args, path, "--", *A.split(), "--", *B.split()], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = compare(path, A, B, folds=4, repeat=2, scale=(0, 1))
    assert got["a"]["folds"] == pytest.approx(list(want.folds_a))
    assert got["preprocessing"] == "scale -l 0 -u 1"
    text = commands.run(
        "compare", ["--scale", path, "--", *A.split(), "--", *B.split()], cwd=tmp_path
    )
    assert text.returncode == 0 and "learned on each fold's training rows" in text.stdout


@pytest.mark.parametrize(
    "args, b, message",
    [
        (["--scale", "--dask", "tcp://x:1"], "-c 2", "svmeval-compare: --scale: not with --dask"),
        (["--select", "2"], "-s 3", "svmeval-compare: --select ranks features"),
        (["--scale-y", "0,1"], "-c 2", "svmeval-compare: --scale-y scales regression"),
        (["--scale", "--mcnemar"], None, "svmeval-compare: --scale: not with --mcnemar"),
        (["--leak", "--scale"], "-c 2", "svmeval-compare: "),
    ],
)
def test_bad_options(tmp_path, args, b, message):
    path = str(data_set("svmguide1"))
    tail = ["p", "q", path] if b is None else [path, "--", "-s", "3", "--", *b.split()]
    out = commands.run("compare", [*args, *tail], cwd=tmp_path)
    assert out.returncode == 1 and out.stderr.startswith(message), out.stderr
    assert out.stderr.count("\n") == 1 and not list(tmp_path.iterdir())

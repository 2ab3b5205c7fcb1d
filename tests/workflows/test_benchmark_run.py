"""benchmark() against LIBSVM's own cross-validation (svm_cross_validation after srand(seed),
through its Python bindings): on each repetition's folds, the fold values weighted by the fold
sizes of LIBSVM's fold rule (stratified for C-SVC, i*l/k cuts for SVR) give back the pooled
accuracy or mean squared error of LIBSVM's predictions."""

from __future__ import annotations

import numpy as np
import pytest

from svmeval import benchmark
from svmeval.errors import SvmevalError
from svmeval.io import read_dataset
from svmeval.params import SvmParams

from conftest import data_set, libsvm_cv

CLASSIFIERS = {
    "-c 1": ("-c 1", SvmParams()),
    "-c 8 -g 0.05": ("-c 8 -g 0.05", SvmParams(C=8, gamma=0.05)),
}


def _stratified_sizes(y, k):
    """LIBSVM's svm_cross_validation: fold i of class c holds
    (i+1)*count[c]/k - i*count[c]/k samples (C integer division)."""
    counts = np.unique(y, return_counts=True)[1]
    return np.array([sum((i + 1) * c // k - i * c // k for c in counts) for i in range(k)])


def test_classification_fold_values_reproduce_libsvm_accuracy():
    path = data_set("heart_scale")
    ds = read_dataset(path)
    k, R = 5, 2
    bench = benchmark(
        [ds], {n: p for n, (_, p) in CLASSIFIERS.items()}, k, repeat=R, seed=1, jobs=1
    )
    assert bench.datasets == (ds.name,) and bench.values.shape == (1, 2, R * k)
    sizes = _stratified_sizes(ds.y, k)
    for j, (options, _) in enumerate(CLASSIFIERS.values()):
        for r in range(R):
            pred = libsvm_cv(path, options, nr_fold=k, seed=1 + r)
            correct = np.count_nonzero(pred == ds.y)
            folds = bench.values[0, j, r * k : (r + 1) * k]
            assert folds @ sizes == pytest.approx(correct, abs=1e-9)


def test_regression_fold_values_reproduce_libsvm_mse():
    path = data_set("housing_scale")
    ds = read_dataset(path)
    k, R, n = 4, 2, len(ds.y)
    configs = {"-s 3": SvmParams(svm_type=3), "-s 3 -p 0.5": SvmParams(svm_type=3, p=0.5)}
    bench = benchmark([ds], configs, k, repeat=R, seed=3, jobs=1, rope=0.5)
    assert bench.criterion == "mse" and not bench.greater_is_better
    cuts = np.array([i * n // k for i in range(k + 1)])
    for j, options in enumerate(["-s 3", "-s 3 -p 0.5"]):
        for r in range(R):
            pred = libsvm_cv(path, options, nr_fold=k, seed=3 + r)
            folds = bench.values[0, j, r * k : (r + 1) * k]
            assert folds @ np.diff(cuts) / n == pytest.approx(np.mean((pred - ds.y) ** 2), rel=1e-9)
    assert bench.to_dict()["bayesian"][0]["rope"] == 0.5


def test_mixed_or_too_few_configurations_are_refused():
    ds = read_dataset(data_set("heart_scale"))
    with pytest.raises(SvmevalError, match="all be classifiers or all regressions"):
        benchmark([ds], {"a": SvmParams(), "b": SvmParams(svm_type=3)}, 5)
    with pytest.raises(SvmevalError, match="two configurations"):
        benchmark([ds], {"a": SvmParams()}, 5)
    with pytest.raises(SvmevalError, match="criterion 'mse'"):
        benchmark([ds], {"a": SvmParams(), "b": SvmParams(C=2)}, 5, criterion="mse")


def test_more_folds_than_one_data_set_has_rows_is_refused_before_any_work():
    """-v 200 over wine (178 rows: LIBSVM's leave-one-out, 178 folds) and breast_cancer (683
    rows: 200 folds) would give the data sets different fold counts: refused at once, naming
    folds and the smaller data set, with the largest count that holds for both."""
    calls = []
    with pytest.raises(SvmevalError, match=r"folds=200 .* 178 rows of .*wine\.scale.*at most 178"):
        benchmark(
            ["data/breast_cancer.scale", "data/wine.scale"],
            {"a": "-c 1", "b": "-c 2"},
            folds=200,
            repeat=1,
            progress=lambda done, total: calls.append(done),
        )
    assert calls == []

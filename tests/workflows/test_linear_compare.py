"""compare() and svmeval-compare of a LIBSVM configuration against a LIBLINEAR one, on one
set of folds: the LIBSVM side's.

Oracles: the official LIBLINEAR bindings' ``train`` and ``predict`` called here fold by fold
on the folds (after ``srand(seed)``, the folds in order); LIBSVM's own cross-validation
(``libsvm_cv``); scikit-learn's accuracy on each fold; scipy's t distribution and paired
t-test on the per-fold figures.
"""

from __future__ import annotations

import ctypes
import json
import math

import numpy as np
import pytest

from commands import run
from conftest import data_set, libsvm_cv

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
stats = pytest.importorskip("scipy.stats")
sk_metrics = pytest.importorskip("sklearn.metrics")

from liblinear import liblinearutil as ll  # noqa: E402

import svmeval  # noqa: E402

LIBC = ctypes.CDLL(None)
LIBC.srand.argtypes = [ctypes.c_uint]


def bindings_on_folds(path, options: str, trains, tests, seed: int) -> np.ndarray:
    """Every row's prediction by LIBLINEAR's train/predict of the official bindings, fold by
    fold (``trains[i]`` the rows fold i trains on, in that order; ``tests[i]`` its test
    rows), after srand(seed)."""
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(options + " -q")
    out = np.full(len(y), np.nan)
    LIBC.srand(seed)
    for train, test in zip(trains, tests):
        prob = ll.problem([y[i] for i in train], [x[i] for i in train], bias=param.bias)
        model = ll.train(prob, param)
        labels, _, _ = ll.predict([y[i] for i in test], [x[i] for i in test], model, "-q")
        out[test] = labels
    return out


def accuracies(y, pred, fold, k) -> list:
    return [sk_metrics.accuracy_score(y[fold == i], pred[fold == i]) for i in range(k)]


@pytest.fixture
def heart():
    return str(data_set("heart_scale"))


@pytest.mark.parametrize("options", ["-s 2", "-s 1 -B 1", "-s 0 -c 4"])
def test_the_liblinear_side_is_the_bindings_on_libsvms_folds(heart, options):
    from test_linear import params_of

    k, seeds = 5, (1, 2, 3)
    linear = params_of(options)
    c = svmeval.compare(heart, "-t 0", linear, k, repeat=len(seeds))
    from svmeval.cv.run.linear_folds import linear_on_folds

    dataset = svmeval.read_dataset(heart)
    y = dataset.y
    want_a, want_b = [], []
    for seed in seeds:
        svm = svmeval.cross_validate(heart, "-t 0", k, seed=seed)  # LIBSVM's folds of the seed
        np.testing.assert_array_equal(svm.y_pred, libsvm_cv(heart, "-t 0", k, seed))
        trains = [svm.folds.train(i) for i in range(k)]
        tests = [np.flatnonzero(svm.fold == i) for i in range(k)]
        pred = bindings_on_folds(heart, options, trains, tests, seed)
        np.testing.assert_array_equal(linear_on_folds(dataset, linear, svm).y_pred, pred)
        want_a += accuracies(y, svm.y_pred, svm.fold, k)
        want_b += accuracies(y, pred, svm.fold, k)
    assert c.options_a == "-t 0" and c.options_b == f"linear: {linear.flags()}"
    assert c.folds_a == pytest.approx(want_a, rel=1e-12)
    assert c.folds_b == pytest.approx(want_b, rel=1e-12)
    # the corrected resampled t-test (Nadeau & Bengio) and the paired t-test, with scipy
    d = np.array(want_b) - np.array(want_a)
    n_test = len(y) / k
    ratio = n_test / (len(y) - n_test)
    n = len(d)
    t = d.mean() / math.sqrt((1 / n + ratio) * d.var(ddof=1))
    assert c.ttest.t == pytest.approx(t, rel=1e-9)
    assert c.ttest.p == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-8)
    assert c.ttest.p_uncorrected == pytest.approx(stats.ttest_rel(want_b, want_a).pvalue, rel=1e-8)


def test_liblinear_as_a_on_given_folds(heart, tmp_path):
    y = svmeval.read_dataset(heart).y
    k = 4
    fold = np.arange(len(y)) % k  # given folds: each trains on the other rows, ascending
    c = svmeval.compare(
        heart, svmeval.LinearParams(solver_type=3), "-t 0 -c 2", given_folds=fold, repeat=1
    )
    trains = [np.flatnonzero(fold != i) for i in range(k)]
    tests = [np.flatnonzero(fold == i) for i in range(k)]
    pred = bindings_on_folds(heart, "-s 3", trains, tests, 1)
    assert c.options_a == "linear: -s 3" and c.repeat == 1
    assert c.folds_a == pytest.approx(accuracies(y, pred, fold, k), rel=1e-12)
    d = np.array(c.folds_b) - np.array(c.folds_a)
    assert c.ttest.p_uncorrected == pytest.approx(
        stats.ttest_rel(c.folds_b, c.folds_a).pvalue, rel=1e-8
    )
    assert c.ttest.mean == pytest.approx(d.mean(), rel=1e-12)


def test_svmeval_compare_names_liblinear_with_linear_prefix(heart):
    out = run(
        "compare",
        [
            "-v",
            "5",
            "--repeat",
            "2",
            "--format",
            "json",
            heart,
            "--",
            "-t",
            "0",
            "--",
            "linear:",
            "-s",
            "2",
            "-c",
            "0.5",
        ],
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    lib = svmeval.compare(heart, "-t 0", svmeval.LinearParams(solver_type=2, C=0.5), 5, repeat=2)
    assert report["b"]["options"] == "linear: -s 2 -c 0.5"
    assert report["b"]["folds"] == pytest.approx(list(lib.folds_b), rel=1e-12)
    assert report["a"]["folds"] == pytest.approx(list(lib.folds_a), rel=1e-12)


@pytest.mark.parametrize(
    "tail,line",
    [
        (["linear:", "-t", "2", "--", "-c", "1"], "-t is not one of LIBLINEAR's"),
        (["linear:", "-s", "8", "--", "-c", "1"], "unknown solver type"),
        (["linear:", "-c", "--", "-c", "1"], "(linear:): option -c needs a value"),
        (["-c", "1", "--", "linear:", "-c", "-2"], "ERROR: C <= 0"),
        (["linear:", "-s", "11", "--", "-c", "1"], "must both be classifiers or both regressions"),
        (["linear:", "-s", "21", "--", "-c", "1"], "cannot be compared"),
    ],
)
def test_bad_linear_configurations_are_one_line(heart, tail, line):
    out = run("compare", ["-v", "5", "--repeat", "2", heart, "--", *tail])
    assert out.returncode == 1 and line in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and out.stdout == ""


@pytest.mark.parametrize(
    "kwargs, argument", [({"scale": True}, "scale"), ({"select": 3}, "select")]
)
def test_preprocessing_inside_the_folds_is_refused_with_a_liblinear_side(kwargs, argument):
    """Scaling and selection are learned inside the LIBSVM engine's folds: a comparison with a
    LIBLINEAR side refuses them by name, before any fold."""
    heart = str(data_set("heart_scale"))
    with pytest.raises(svmeval.ArgumentError) as caught:
        svmeval.compare(heart, "-t 0", svmeval.LinearParams(solver_type=2), 5, **kwargs)
    assert caught.value.argument == argument
    done = run(
        "compare", ["-v", "5", "--scale", heart, "--", "-t", "0", "--", "linear:", "-s", "2"]
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("svmeval-compare: --scale") and done.stderr.count("\n") == 1

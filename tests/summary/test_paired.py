"""summary/paired.py and the comparison's door: two configurations' runs on the same folds ->
the criterion on every fold and the tests of B - A, against scikit-learn's accuracy of each
fold, Nadeau and Bengio's corrected t computed here with scipy, and McNemar's counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from svmeval import SvmParams, cross_validate, read_dataset
from svmeval.cv.comparison import comparison_runs
from svmeval.cv.plan.checks import ComparisonArguments, run_data
from svmeval.errors import ArgumentError, SvmevalError
from svmeval.summary.paired import paired_folds

from conftest import ROOT

stats = pytest.importorskip("scipy.stats")
sk_metrics = pytest.importorskip("sklearn.metrics")

SMALL = ROOT / "data" / "breast_cancer.scale"


@pytest.fixture(scope="module")
def small():
    return read_dataset(str(SMALL))


def test_paired_folds_are_each_folds_accuracy_and_the_corrected_t_of_b_minus_a(small):
    a, b = SvmParams(C=1), SvmParams(C=8, gamma=0.5)
    runs_a = [cross_validate(small, a, 4, seed=s) for s in (2, 3)]
    runs_b = [cross_validate(small, b, 4, seed=s) for s in (2, 3)]
    paired = paired_folds(
        runs_a, runs_b, "accuracy", pos_label=None, zero_division=0.0, confidence=0.9, rope=None
    )
    expected = {
        name: [
            sk_metrics.accuracy_score(r.y_true[r.fold == i], r.y_pred[r.fold == i])
            for r in runs
            for i in range(4)
        ]
        for name, runs in (("a", runs_a), ("b", runs_b))
    }
    assert paired.folds_a == pytest.approx(expected["a"], rel=1e-12)
    assert paired.folds_b == pytest.approx(expected["b"], rel=1e-12)
    d = np.array(expected["b"]) - np.array(expected["a"])
    sizes = np.bincount(runs_a[0].fold, minlength=4)
    ratio = sizes.mean() / (len(small.y) - sizes.mean())
    t = d.mean() / math.sqrt((1 / len(d) + ratio) * d.var(ddof=1))
    assert paired.ttest.t == pytest.approx(t, rel=1e-9)
    assert paired.ttest.p == pytest.approx(2 * stats.t.sf(abs(t), len(d) - 1), rel=1e-8)
    right_a = runs_a[0].y_pred == runs_a[0].y_true
    right_b = runs_b[0].y_pred == runs_b[0].y_true
    assert paired.mcnemar.a_only == np.count_nonzero(right_a & ~right_b)
    assert paired.mcnemar.b_only == np.count_nonzero(~right_a & right_b)
    assert paired.bayesian is None and paired.n_undefined == 0
    assert paired.fold_sizes == tuple(int(v) for r in runs_a for v in np.bincount(r.fold))
    assert (paired.n_folds, paired.n_samples, paired.fold_source) == (4, len(small.y), "")


def test_comparison_runs_are_libsvms_cross_validations_on_the_same_folds(small):
    arguments = ComparisonArguments(folds=3, repeat=2, seed=5)
    found = comparison_runs(small, "-c 2", SvmParams(C=4), arguments)
    for k, seed in enumerate((5, 6)):
        for runs, params in ((found.runs_a, SvmParams(C=2)), (found.runs_b, SvmParams(C=4))):
            alone = cross_validate(small, params, 3, seed=seed)
            assert np.array_equal(runs[k].y_pred, alone.y_pred)
            assert np.array_equal(runs[k].fold, alone.fold)
    assert (found.figure.name, found.options_a, found.options_b) == ("accuracy", "-c 2", "-c 4")


def test_the_door_codes_fractional_labels_and_pos_label_as_classes():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0.5, 0.7, 0.5, 0.7])  # LIBSVM's (int)label would make them one class 0
    door = run_data((X, y), "a comparison", [SvmParams()], pos_label=0.7)
    assert door.dataset.classes == (0.5, 0.7)
    assert door.dataset.y.tolist() == [0.0, 1.0, 0.0, 1.0]
    assert int(door.pos_label) == 1
    regression = run_data((X, y), "a comparison", [SvmParams(svm_type=3)])
    assert regression.dataset.classes is None and regression.dataset.y.tolist() == y.tolist()
    with pytest.raises(ArgumentError, match=r"0.6 is not one of the classes \(0.5, 0.7\)"):
        run_data((X, y), "a comparison", [SvmParams()], pos_label=0.6)


def test_the_door_refuses_multi_label_data_naming_the_run(tmp_path):
    path = tmp_path / "multi.txt"
    path.write_text("1,2 1:1\n2 1:0.5\n")
    multi = read_dataset(str(path), multilabel=True)
    with pytest.raises(SvmevalError, match="multi-label data: a comparison takes single-label"):
        run_data(multi, "a comparison", [SvmParams()])

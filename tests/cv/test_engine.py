"""The fold loop against LIBSVM's own svm_cross_validation (the oracle), prediction by prediction."""

from __future__ import annotations

import numpy as np
import pytest

from svmeval.cv.engine import cross_validate
from svmeval.cv.plan.folds import group_classes
from svmeval.io.data import read_dataset
from svmeval.params import SvmParams

from conftest import data_set, data_sets, libsvm_cv, linear_kernel_file

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")


def params_of(options: str) -> SvmParams:
    from svmeval.cli.svmeval import parse_args

    return parse_args(options.split() + ["-v", "2", "x"]).params


CASES = [
    ("heart_scale", "-s 0", 5),
    ("heart_scale", "-s 0 -t 0 -c 4", 5),
    ("heart_scale", "-s 0 -t 1 -d 2", 10),
    ("heart_scale", "-s 0 -t 3", 5),
    ("heart_scale", "-s 0 -w1 2 -w-1 0.5", 5),
    ("heart_scale", "-s 1 -n 0.4", 2),
    ("heart_scale", "-s 2", 5),
    ("heart_scale", "-s 3", 5),
    ("housing_scale", "-s 4 -p 0.1", 10),
    ("iris.scale", "-s 0", 5),
    ("iris.scale", "-s 1 -n 0.1", 10),
    ("svmguide1", "-s 0 -c 2", 5),
    ("heart_scale", "-s 0 -b 1", 5),
    ("iris.scale", "-s 0 -b 1", 5),
]


CASES = list(dict.fromkeys((data_set(name), options, k) for name, options, k in CASES))


@pytest.mark.parametrize("path,options,k", CASES, ids=[f"{p.name} {o} -v {k}" for p, o, k in CASES])
@pytest.mark.parametrize("jobs", [1, 2])
def test_bit_identical_to_svm_cross_validation(path, options, k, jobs):
    expected = libsvm_cv(path, options, k)
    result = cross_validate(read_dataset(path), params_of(options), k, seed=1, jobs=jobs)
    assert np.array_equal(result.y_pred, expected)


def test_leave_one_out_when_folds_exceed_samples(tmp_path, capsys):
    path = data_set("iris.scale")
    lines = path.read_text().splitlines()[::10]  # 15 (iris) or 18 (wine) samples, 3 classes
    small = tmp_path / "small"
    small.write_text("\n".join(lines) + "\n")
    expected = libsvm_cv(small, "-s 0", 20)
    result = cross_validate(read_dataset(small), SvmParams(), 20, seed=1, jobs=2)
    assert np.array_equal(result.y_pred, expected)
    assert result.n_folds == len(lines)
    assert "Will use # folds = # data" in capsys.readouterr().err


def test_two_calls_in_one_process_are_identical():
    path = data_set("heart_scale")
    ds = read_dataset(path)
    first = cross_validate(ds, SvmParams(), 5, seed=1)
    second = cross_validate(ds, SvmParams(), 5, seed=1)
    assert np.array_equal(first.y_pred, second.y_pred)
    assert np.array_equal(first.y_pred, libsvm_cv(path, "", 5, seed=1))


def test_seed_changes_folds_and_matches_libsvm():
    path = data_set("heart_scale")
    ds = read_dataset(path)
    r7 = cross_validate(ds, SvmParams(), 5, seed=7)
    assert np.array_equal(r7.y_pred, libsvm_cv(path, "", 5, seed=7))
    assert not np.array_equal(r7.fold, cross_validate(ds, SvmParams(), 5, seed=1).fold)


def test_decision_values_follow_libsvm_label_order():
    """The first label in LIBSVM's order is positive: a positive decision value predicts it."""
    path = data_set("heart_scale")
    result = cross_validate(read_dataset(path), SvmParams(), 5)
    assert list(result.labels) == [1.0, -1.0]  # +1 before -1, as svm_group_classes orders them
    dec = result.decision_values[:, 0]
    assert np.array_equal(np.where(dec > 0, 1.0, -1.0), result.y_pred)


def test_group_classes_orders_by_first_appearance():
    labels, start, count, perm = group_classes(np.array([3.0, 1.0, 3.0, 2.0, 1.0]))
    assert list(labels) == [3, 1, 2]
    assert list(count) == [2, 2, 1]
    assert list(perm) == [0, 2, 1, 4, 3]
    labels, *_ = group_classes(np.array([-1.0, 1.0, -1.0]))
    assert list(labels) == [1, -1]


def test_group_classes_follows_labels_changed_in_place_and_gives_its_own_arrays():
    """The same array asked again after its values changed is grouped anew (the grouping
    kept for the last labels is given only for the same values), and each call's arrays
    are its own: the rule computed here in plain Python is the oracle."""

    def by_first_appearance(y):
        order = list(dict.fromkeys(int(v) for v in y))
        if order == [-1, 1]:
            order = [1, -1]
        return order, [i for c in order for i, v in enumerate(y) if int(v) == c]

    y = np.array([3.0, 1.0, 3.0, 2.0, 1.0])
    for _ in range(3):
        labels, start, count, perm = group_classes(y)
        assert (list(labels), list(perm)) == by_first_appearance(y)
        labels[0], perm[0] = 99, 99  # the caller's own arrays
    y[0] = 2.0
    labels, start, count, perm = group_classes(y)
    assert (list(labels), list(perm)) == by_first_appearance(y) == ([2, 1, 3], [0, 3, 1, 4, 2])
    assert list(count) == [2, 2, 1] and list(start) == [0, 2, 4]


def test_precomputed_kernel_is_bit_identical(tmp_path):
    """-t 4: `label 0:serial 1:K(x,x1) ...` rows, against LIBSVM's CV on the same file."""
    path = linear_kernel_file(tmp_path)
    for options in ("-t 4", "-t 4 -s 1 -n 0.3", "-t 4 -s 3"):
        expected = libsvm_cv(path, options, 5)
        result = cross_validate(read_dataset(path), params_of(options), 5, jobs=2)
        assert np.array_equal(result.y_pred, expected), options
    # the same kernel as -t 0 on the features: LIBSVM's linear kernel gives the same predictions
    linear = cross_validate(read_dataset(data_set("heart_scale")), params_of("-t 0"), 5)
    assert np.array_equal(
        linear.y_pred, cross_validate(read_dataset(path), params_of("-t 4"), 5).y_pred
    )


@pytest.mark.parametrize(
    "path", data_sets("svmguide1", "mushrooms", "breast-cancer_scale"), ids=lambda p: p.name
)
def test_decision_value_sign_matches_libsvm_prediction_in_every_fold(path):
    """Whatever label order each fold's model had, a positive stored decision value means the
    first label of the whole data set's LIBSVM order: the sign reproduces LIBSVM's vote."""
    result = cross_validate(read_dataset(path), SvmParams(), 5)
    dec = result.decision_values[:, 0]
    assert not np.isnan(dec).any()
    first, second = result.labels
    assert np.array_equal(np.where(dec > 0, first, second), result.y_pred)


def test_multiclass_decision_values_reproduce_libsvm_votes():
    path = data_set("iris.scale")
    result = cross_validate(read_dataset(path), SvmParams(), 5, keep_decision_values=True)
    labels, n = result.labels, len(result.labels)
    votes = np.zeros((result.n_samples, n), dtype=int)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            wins = result.decision_values[:, k] > 0
            votes[wins, i] += 1
            votes[~wins, j] += 1
            k += 1
    # svm_predict_values: the first class with the most votes, in LIBSVM's label order
    assert np.array_equal(labels[np.argmax(votes, axis=1)], result.y_pred)


@pytest.mark.parametrize("options, stratified", [("-g 0.25", True), ("-s 3 -g 0.25", False)])
def test_the_folds_draw_from_c_rand_exactly_as_libsvm_does(options, stratified):
    """The folds (a class's samples shuffled in one C call, or all of them for regression)
    leave C ``rand()`` where LIBSVM's own svm_cross_validation leaves it, and the predictions
    are LIBSVM's."""
    from ctypes import c_double

    from svmeval.cv import _libsvm
    from svmeval.cv.plan.cv_plan import seeded_folds

    path = data_set("heart_scale")
    y, x = svmutil.svm_read_problem(path)
    problem = svmutil.svm_problem(y, x)
    param = svmutil.svm_parameter(f"{options} -q")
    target = (c_double * len(y))()
    _libsvm.srand(5)
    _libsvm.set_omp_threads(1)  # SVR sums in an OpenMP reduction (conftest.libsvm_cv)
    libsvm_svm.libsvm.svm_cross_validation(problem, param, 5, target)
    after_libsvm = [_libsvm.rand() for _ in range(3)]
    _libsvm.srand(5)
    seeded_folds(np.array(y), 5, 5, stratified=stratified)
    assert [_libsvm.rand() for _ in range(3)] == after_libsvm
    result = cross_validate(read_dataset(path), params_of(options), 5, seed=5)
    assert np.array_equal(result.y_pred, np.array(target[:]))

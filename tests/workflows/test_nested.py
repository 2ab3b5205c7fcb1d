"""Nested cross-validation against a nested CV written here with LIBSVM's own bindings.

The oracle: the outer folds drawn as svm.cpp's svm_cross_validation draws them after srand(S)
(transcribed below, and checked against svm_cross_validation itself), on each outer training
set (perm[0:begin] + perm[end:l]) one ``svm_train -v k`` per cell after srand(S) in grid.py's
job order with grid.py's update rule (tools/grid.py's calculate_jobs and update_param,
transcribed), the best cell trained with ``svm_train`` on the outer training set and
``svm_predict`` on the outer test rows.
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np
import pytest

from svmeval.errors import SvmevalError
from svmeval.io.data import read_dataset
from svmeval.params import SvmParams
from svmeval.workflows.nested import chosen_text, nested_cv, rows_of

from conftest import data_set

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")

LIBC = ctypes.CDLL(None)  # the C runtime whose rand() LIBSVM draws its folds from
LIBC.srand.argtypes, LIBC.srand.restype = [ctypes.c_uint], None
LIBC.rand.argtypes, LIBC.rand.restype = [], ctypes.c_int

SMALL_C = (-1.0, 3.0, 2.0)
SMALL_G = (-5.0, -1.0, 2.0)


def one_openmp_thread():
    """SVR sums its kernel terms in an OpenMP reduction: one thread makes it reproducible."""
    svmutil.svm_train([1.0, -1.0], [{1: 1.0}, {1: -1.0}], "-q")  # loads LIBSVM's OpenMP
    libsvm_svm.libsvm.omp_set_num_threads.argtypes = [ctypes.c_int]
    libsvm_svm.libsvm.omp_set_num_threads(1)


# --- svm.cpp's fold drawing (svm_group_classes, svm_cross_validation), transcribed -----------
def group_classes(y):
    label, count, data_label = [], [], []
    for v in y:
        this = int(v)
        if this in label:
            data_label.append(label.index(this))
            count[label.index(this)] += 1
        else:
            data_label.append(len(label))
            label.append(this)
            count.append(1)
    if len(label) == 2 and label[0] == -1 and label[1] == 1:
        label, count = label[::-1], count[::-1]
        data_label = [1 - d for d in data_label]
    start = [0] * len(label)
    for c in range(1, len(label)):
        start[c] = start[c - 1] + count[c - 1]
    perm, fill = [0] * len(y), list(start)
    for i, d in enumerate(data_label):
        perm[fill[d]] = i
        fill[d] += 1
    return start, count, perm


def svm_cpp_folds(y, nr_fold, stratified):
    """(perm, fold_start) of svm_cross_validation, drawing from C rand() as it does."""
    l = len(y)
    if stratified and nr_fold < l:
        start, count, perm = group_classes(y)
        index = list(perm)
        for c in range(len(count)):
            for i in range(count[c]):
                j = i + LIBC.rand() % (count[c] - i)
                index[start[c] + j], index[start[c] + i] = index[start[c] + i], index[start[c] + j]
        fold_count = [
            sum((i + 1) * n // nr_fold - i * n // nr_fold for n in count) for i in range(nr_fold)
        ]
        fold_start = [0] * (nr_fold + 1)
        for i in range(1, nr_fold + 1):
            fold_start[i] = fold_start[i - 1] + fold_count[i - 1]
        pos = list(fold_start)
        for c in range(len(count)):
            for i in range(nr_fold):
                for j in range(
                    start[c] + i * count[c] // nr_fold, start[c] + (i + 1) * count[c] // nr_fold
                ):
                    perm[pos[i]] = index[j]
                    pos[i] += 1
        return perm, fold_start
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    return perm, [i * l // nr_fold for i in range(nr_fold + 1)]


# --- tools/grid.py's job order and update rule, transcribed --------------------------------
def range_f(begin, end, step):
    seq = []
    while True:
        if step > 0 and begin > end:
            break
        if step < 0 and begin < end:
            break
        seq.append(begin)
        begin = begin + step
    return seq


def permute_sequence(seq):
    n = len(seq)
    if n <= 1:
        return seq
    mid = int(n / 2)
    left, right = permute_sequence(seq[:mid]), permute_sequence(seq[mid + 1 :])
    ret = [seq[mid]]
    while left or right:
        if left:
            ret.append(left.pop(0))
        if right:
            ret.append(right.pop(0))
    return ret


def grid_jobs(log2c, log2g):
    c_seq, g_seq = permute_sequence(range_f(*log2c)), permute_sequence(range_f(*log2g))
    nr_c, nr_g = float(len(c_seq)), float(len(g_seq))
    i = j = 0
    jobs = []
    while i < nr_c or j < nr_g:
        if i / nr_c < j / nr_g:
            jobs.extend((c_seq[i], g_seq[k]) for k in range(j))
            i += 1
        else:
            jobs.extend((c_seq[k], g_seq[j]) for k in range(i))
            j += 1
    return jobs


def inner_grid(y, x, options, inner_k, log2c, log2g, seed, regression):
    """grid.py with svm-train -v on (y, x): the best (log2c, log2g) and its rate. Regression
    takes the smallest mean squared error (svmeval's criterion mse) with grid.py's tie rule."""
    best_c = best_g = None
    best = None
    for c, g in grid_jobs(log2c, log2g):
        LIBC.srand(seed)  # one svm-train process per cell (svmeval's --seed S)
        value = svmutil.svm_train(y, x, f"{options} -c {2.0**c} -g {2.0**g} -v {inner_k} -q")
        if not regression:
            value = float(f"{value:g}")  # the printed rate grid.py reads back
        better = best is None or (value < best if regression else value > best)
        if better or (value == best and g == best_g and c < best_c):
            best, best_c, best_g = value, c, g
    return best_c, best_g, best


@functools.cache  # several tests ask for the same run
def oracle_nested(path, options, k, inner_k, log2c, log2g, seed=1, regression=False):
    """The nested CV with LIBSVM's bindings: outer predictions (input order), the outer fold
    of each sample, each outer fold's (log2c, log2g, inner value)."""
    one_openmp_thread()
    y, x = svmutil.svm_read_problem(str(path))
    LIBC.srand(seed)
    perm, fold_start = svm_cpp_folds(y, k, stratified=not regression)
    pred, fold = np.empty(len(y)), np.empty(len(y), dtype=np.int64)
    chosen = []
    for i in range(k):
        b, e = fold_start[i], fold_start[i + 1]
        train, test = perm[:b] + perm[e:], perm[b:e]
        ytr, xtr = [y[j] for j in train], [x[j] for j in train]
        c, g, value = inner_grid(ytr, xtr, options, inner_k, log2c, log2g, seed, regression)
        model = svmutil.svm_train(ytr, xtr, f"{options} -c {2.0**c} -g {2.0**g} -q")
        labels, _, _ = svmutil.svm_predict([y[j] for j in test], [x[j] for j in test], model, "-q")
        pred[test], fold[test] = labels, i
        chosen.append((c, g, value))
    return pred, fold, chosen


def svmeval_nested(path, params, k, inner_k, **kw):
    return nested_cv(
        read_dataset(str(path)),
        params,
        k,
        inner_folds=inner_k,
        log2c=SMALL_C,
        log2g=SMALL_G,
        jobs=2,
        **kw,
    )


def chosen_of(result):
    return [(f.cell.log2c, f.cell.log2g, f.rate) for f in result.folds]  # grid.py's rates


# --- the oracle's own footing -----------------------------------------------------------------
@pytest.mark.parametrize(
    "name, options, regression",
    [
        ("heart_scale", "-c 2 -g 0.125", False),
        ("iris.scale", "-c 4 -g 0.5", False),
        ("housing_scale", "-s 3 -c 2 -g 0.25", True),
    ],
)
def test_transcribed_folds_give_svm_cross_validations_predictions(name, options, regression):
    one_openmp_thread()
    y, x = svmutil.svm_read_problem(str(data_set(name)))
    LIBC.srand(3)
    perm, fold_start = svm_cpp_folds(y, 5, stratified=not regression)
    by_hand = np.empty(len(y))
    for i in range(5):
        b, e = fold_start[i], fold_start[i + 1]
        train = perm[:b] + perm[e:]
        model = svmutil.svm_train([y[j] for j in train], [x[j] for j in train], options + " -q")
        by_hand[perm[b:e]] = svmutil.svm_predict(
            [y[j] for j in perm[b:e]], [x[j] for j in perm[b:e]], model, "-q"
        )[0]
    target = (ctypes.c_double * len(y))()
    LIBC.srand(3)
    libsvm_svm.libsvm.svm_cross_validation(
        libsvm_svm.svm_problem(y, x), libsvm_svm.svm_parameter(options + " -q"), 5, target
    )
    assert np.array_equal(by_hand, np.array(target[:]))


# --- svmeval's nested CV against the oracle ---------------------------------------------------
@pytest.mark.parametrize("name, options, seed", [("heart_scale", "", 1), ("iris.scale", "", 5)])
def test_classification_equals_libsvm_nested_cv(name, options, seed):
    path = data_set(name)
    expected, fold, chosen = oracle_nested(path, options, 5, 4, SMALL_C, SMALL_G, seed=seed)
    result = svmeval_nested(path, None, 5, 4, seed=seed)
    assert np.array_equal(result.outer.y_pred, expected)
    assert np.array_equal(result.outer.fold, fold)
    assert chosen_of(result) == chosen
    # grid.py's tie rules are exercised: some inner grid has several cells at its best value
    # (heart_scale, iris.scale and wine.scale have such grids; breast_cancer.scale, heart_scale's
    # stand-in without ../shared, has none: there wine.scale's case exercises them)
    if path.name != "breast_cancer.scale":
        assert any(sum(c.rate == f.rate for c in f.grid.cells) > 1 for f in result.folds)
    summary = result.summary()
    correct = int(np.count_nonzero(expected == np.array(svmutil.svm_read_problem(str(path))[0])))
    assert summary.correct == correct


def test_regression_equals_libsvm_nested_cv_by_mse():
    path = data_set("housing_scale")
    expected, fold, chosen = oracle_nested(path, "-s 3", 5, 5, SMALL_C, SMALL_G, regression=True)
    result = svmeval_nested(path, SvmParams(svm_type=3), 5, 5, criterion="mse")
    assert result.criterion == "mse" and not result.greater_is_better
    assert np.array_equal(result.outer.y_pred, expected)
    assert np.array_equal(result.outer.fold, fold)
    assert [(c, g) for c, g, _ in chosen_of(result)] == [(c, g) for c, g, _ in chosen]
    assert np.allclose([v for *_, v in chosen_of(result)], [v for *_, v in chosen], rtol=1e-12)


def test_report_is_svm_trains_lines_of_the_outer_predictions():
    from svmeval.report import render

    path = data_set("housing_scale")
    result = svmeval_nested(path, SvmParams(svm_type=3), 5, 5, criterion="mse")
    expected, _, _ = oracle_nested(path, "-s 3", 5, 5, SMALL_C, SMALL_G, regression=True)
    y = svmutil.svm_read_problem(str(path))[0]
    _, mse, scc = svmutil.evaluations(y, list(expected))
    lines = render(result.summary()).splitlines()
    assert lines[:2] == [
        f"Cross Validation Mean squared error = {mse:g}",
        f"Cross Validation Squared correlation coefficient = {scc:g}",
    ]


def test_repetitions_are_nested_cvs_of_the_repetition_seeds():
    path = data_set("iris.scale")
    result = svmeval_nested(path, None, 3, 3, seed=4, repeat=2)  # seeds 4 and 5
    assert result.repeat == 2 and len(result.folds) == 6
    for r, s in enumerate((4, 5)):
        expected, fold, chosen = oracle_nested(path, "", 3, 3, SMALL_C, SMALL_G, seed=s)
        outer = result.outer if r == 0 else result.repeat_results[0]
        assert np.array_equal(outer.y_pred, expected)
        assert np.array_equal(outer.fold, fold)
        assert chosen_of(result)[3 * r : 3 * r + 3] == chosen
    second = result.outer.repeats[0]
    y = np.array(svmutil.svm_read_problem(str(path))[0])
    assert second.seed == 5
    assert np.trace(second.confusion.matrix) == np.count_nonzero(
        oracle_nested(path, "", 3, 3, SMALL_C, SMALL_G, seed=5)[0] == y
    )


def test_chosen_text_and_spread_show_each_folds_choice():
    path = data_set("heart_scale")
    result = svmeval_nested(path, None, 5, 4)
    _, _, chosen = oracle_nested(path, "", 5, 4, SMALL_C, SMALL_G)
    text = chosen_text(result).splitlines()
    assert text[1].split() == ["fold", "log2c", "log2g", "inner", "accuracy"]
    for i, (c, g, value) in enumerate(chosen):
        assert text[2 + i].split() == [
            str(i + 1),
            f"{c:g}",
            f"{g:g}",
            f"{value / 100:g}",
        ]  # svm-train prints a percent
    cs = np.array([c for c, _, _ in chosen])
    spread = result.spread()["log2c"]
    assert spread["mean"] == pytest.approx(cs.mean())
    assert spread["sd"] == pytest.approx(cs.std(ddof=1))
    assert sum(spread["counts"].values()) == 5
    assert result.to_dict()["nested"]["folds"][0]["C"] == 2.0 ** chosen[0][0]


def test_inner_grids_are_the_grid_search_of_the_outer_training_rows():
    path = data_set("heart_scale")
    result = svmeval_nested(path, None, 5, 4)
    y, x = svmutil.svm_read_problem(str(path))
    first = result.folds[0]
    assert len(first.train_rows) + len(first.test_rows) == len(y)
    ytr = [y[j] for j in first.train_rows]
    xtr = [x[j] for j in first.train_rows]
    for cell in first.grid.cells[:3]:  # each cell's rate as svm-train -v prints it
        LIBC.srand(1)
        rate = svmutil.svm_train(ytr, xtr, f"-c {cell.cell.C} -g {cell.cell.gamma} -v 4 -q")
        assert cell.rate == float(f"{rate:g}")


def test_rows_of_keeps_the_rows_in_the_order_given():
    ds = read_dataset(str(data_set("iris.scale")))
    rows = np.array([5, 0, 149, 7])
    sub = rows_of(ds, rows)
    y, x = svmutil.svm_read_problem(str(data_set("iris.scale")))
    assert list(sub.y) == [y[j] for j in rows]
    for k, j in enumerate(rows):
        a, b = sub.indptr[k], sub.indptr[k + 1]
        assert dict(zip(sub.indices[a:b].tolist(), sub.values[a:b].tolist())) == x[j]
    assert sub.n_features == ds.n_features


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"folds": 1}, "n must >= 2"),
        ({"inner_folds": 1}, "n must >= 2"),
        ({"repeat": 0}, "repeat must be >= 1"),
        ({"criterion": "nonsense"}, "unknown criterion"),
        ({"criterion": "mse"}, "does not apply"),
        ({"log2w": (3, 0, 1, 1)}, "names class 3, which the data lack"),
        ({"log2w": (1, 0, 1)}, r"is not \(label, begin, end, step\)"),
    ],
)
def test_bad_arguments_raise_svmeval_errors_before_training(kwargs, message):
    ds = read_dataset(str(data_set("heart_scale")))
    with pytest.raises(SvmevalError, match=message):
        nested_cv(ds, log2c=SMALL_C, log2g=SMALL_G, **kwargs)


def test_probability_outputs_follow_svm_train_b1_after_srand():
    """-b 1: every inner cell as svm-train -b 1 -v (after srand(S)), the chosen cell trained
    after srand(S) as a fresh svm-train, predicted as svm_predict -b 1 does."""
    path = data_set("heart_scale")
    one_openmp_thread()
    y, x = svmutil.svm_read_problem(str(path))
    LIBC.srand(1)
    perm, fold_start = svm_cpp_folds(y, 3, stratified=True)
    expected, chosen = np.empty(len(y)), []
    for i in range(3):
        b, e = fold_start[i], fold_start[i + 1]
        train, test = perm[:b] + perm[e:], perm[b:e]
        ytr, xtr = [y[j] for j in train], [x[j] for j in train]
        c, g, _ = inner_grid(ytr, xtr, "-b 1", 3, (1.0, 3.0, 2.0), (-5.0, -3.0, 2.0), 1, False)
        LIBC.srand(1)
        model = svmutil.svm_train(ytr, xtr, f"-b 1 -c {2.0**c} -g {2.0**g} -q")
        expected[test] = svmutil.svm_predict(
            [y[j] for j in test], [x[j] for j in test], model, "-b 1 -q"
        )[0]
        chosen.append((c, g))
    result = nested_cv(
        read_dataset(str(path)),
        SvmParams(probability=1),
        3,
        inner_folds=3,
        log2c=(1.0, 3.0, 2.0),
        log2g=(-5.0, -3.0, 2.0),
    )
    assert np.array_equal(result.outer.y_pred, expected)
    assert [(f.cell.log2c, f.cell.log2g) for f in result.folds] == chosen
    assert result.outer.probabilities is not None


def test_progress_counts_outer_folds_over_repetitions():
    seen = []
    nested_cv(
        read_dataset(str(data_set("iris.scale"))),
        None,
        3,
        inner_folds=3,
        log2c=(1.0, 3.0, 2.0),
        log2g=(-1.0, -1.0, 1.0),
        repeat=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(k, 6) for k in range(1, 7)]


def test_inner_grids_on_a_dask_cluster_equal_libsvm_nested_cv():
    pytest.importorskip("distributed")
    path = data_set("iris.scale")
    expected, fold, chosen = oracle_nested(path, "", 3, 3, SMALL_C, SMALL_G, seed=2)
    result = nested_cv(
        read_dataset(str(path)),
        None,
        3,
        inner_folds=3,
        log2c=SMALL_C,
        log2g=SMALL_G,
        seed=2,
        client="local:2",
    )
    assert np.array_equal(result.outer.y_pred, expected)
    assert chosen_of(result) == chosen

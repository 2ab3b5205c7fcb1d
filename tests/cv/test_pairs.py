"""Multiclass folds trained pair by pair (svmeval.cv.plan.pairs) against LIBSVM itself: predictions
against svm_cross_validation after srand(1), decision values against models the official
bindings train fold by fold (svm_train on the fold's rows, svm_predict_values on its test
rows), for several sets, kernels, svm types, class weights, k = 2, 5, 10 and any number of jobs;
every figure against the same run with the folds trained whole."""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest

from svmeval.cli.svmeval import parse_args
from svmeval.cv import _libsvm
from svmeval.cv.engine import cross_validate, run_cv
from svmeval.cv.plan import pairs
from svmeval.cv.plan.cv_plan import CVPlan, draw_folds
from svmeval.io.data import read_dataset
from svmeval.summary import summarize

from conftest import data_set, libsvm_cv

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")


def params_of(options: str):
    return parse_args(options.split() + ["-v", "2", "x"]).params


def subset(tmp_path, name: str, rows: int):
    """The first ``rows`` lines of a set, as a file."""
    path = tmp_path / f"{name}.{rows}"
    path.write_text("".join(data_set(name).read_text().splitlines(True)[:rows]))
    return path


def oracle_decision_values(path, options, result):
    """Each fold trained by the official bindings on its training rows (LIBSVM's fold order),
    its test rows' decision values by svm_predict_values, put in the result's canonical pair
    order (pair (a, b) of ``result.labels``, positive towards a)."""
    y, x = svmutil.svm_read_problem(str(path))
    n_features = max((max(row) for row in x if row), default=0)
    _libsvm.set_omp_threads(1)
    labels = list(result.labels)
    k = len(labels)
    out = np.full((len(y), k * (k - 1) // 2), np.nan)
    for i in range(result.n_folds):
        train = result.folds.train(i)
        prob = libsvm_svm.svm_problem([y[j] for j in train], [x[j] for j in train])
        param = libsvm_svm.svm_parameter(options + " -q")
        if param.gamma == 0:
            param.gamma = 1.0 / n_features
        model = libsvm_svm.toPyModel(libsvm_svm.libsvm.svm_train(prob, param))
        model_labels = [float(v) for v in model.get_labels()]
        m = len(model_labels)
        column = {}
        for p, (a, b) in enumerate((u, v) for u in range(m) for v in range(u + 1, m)):
            column[(a, b)] = p
        for j in result.folds.test(i):
            xi, _ = libsvm_svm.gen_svm_nodearray(x[j])
            dec = (ctypes.c_double * max(1, m * (m - 1) // 2))()
            libsvm_svm.libsvm.svm_predict_values(model, xi, dec)
            q = 0
            for a in range(k):
                for b in range(a + 1, k):
                    if labels[a] in model_labels and labels[b] in model_labels:
                        pa, pb = model_labels.index(labels[a]), model_labels.index(labels[b])
                        sign = 1.0 if pa < pb else -1.0
                        out[j, q] = sign * dec[column[(min(pa, pb), max(pa, pb))]]
                    q += 1
    return out


CASES = [
    ("iris.scale", None, "-s 0", 5),
    ("iris.scale", None, "-s 0 -t 0 -c 4", 10),
    ("iris.scale", None, "-s 1 -n 0.2", 2),
    ("iris.scale", None, "-s 0 -t 1 -d 3 -g 0.5 -r 1", 5),
    ("iris.scale", None, "-s 0 -t 3 -g 0.1 -r -0.5", 5),
    ("iris.scale", None, "-s 0 -c 8 -w1 2 -w3 0.5 -w1 1.5", 5),
    ("dna.scale", 600, "-s 0 -c 2", 5),
    ("dna.scale", 600, "-s 0 -t 0 -c 0.5 -w2 4", 2),
    ("satimage.scale", 700, "-s 0 -g 0.5", 10),
    ("satimage.scale", 700, "-s 1 -n 0.05 -t 1 -d 2", 5),
    ("letter.scale", 700, "-s 0 -c 4", 5),
]


@pytest.mark.parametrize(
    "name,rows,options,k", CASES, ids=[f"{n} {o} -v {k}" for n, _, o, k in CASES]
)
@pytest.mark.parametrize("jobs", [1, 2, 5])
def test_pairs_are_libsvm_bit_for_bit(tmp_path, name, rows, options, k, jobs):
    path = subset(tmp_path, name, rows) if rows else data_set(name)
    ds = read_dataset(path)
    params = params_of(options)
    result = run_cv(ds, params, k, jobs=jobs, keep_decision_values=True, share=False)
    assert np.array_equal(result.y_pred, libsvm_cv(path, options, k))
    expected = oracle_decision_values(path, options, result)
    assert np.array_equal(result.decision_values, expected, equal_nan=True)


@pytest.mark.parametrize(
    "name,rows,options,k",
    [CASES[0], CASES[5], CASES[6], CASES[8]],
    ids=["iris", "iris -wi", "dna", "satimage"],
)
def test_every_figure_equals_the_whole_fold_run(tmp_path, monkeypatch, name, rows, options, k):
    path = subset(tmp_path, name, rows) if rows else data_set(name)
    ds = read_dataset(path)
    paired = cross_validate(ds, params_of(options), k, jobs=3, keep_decision_values=True)
    monkeypatch.setattr(pairs, "ENABLED", False)
    whole = cross_validate(ds, params_of(options), k, jobs=1, keep_decision_values=True)
    for name_ in ("y_pred", "decision_values", "scores"):
        assert np.array_equal(getattr(paired, name_), getattr(whole, name_), equal_nan=True)
    a, b = summarize(paired).figures, summarize(whole).figures
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key] or (
            isinstance(a[key], float) and math.isnan(a[key]) and math.isnan(b[key])
        ), key


def test_a_fold_is_split_into_its_pairs():
    path = data_set("iris.scale")
    ds = read_dataset(path)
    problem = _libsvm.make_problem(ds)
    params = params_of("-s 0").resolved(ds.n_features)
    folds = draw_folds(problem.y, 5, 1, params)
    plan = CVPlan(problem, params, folds, 1)
    k = len(plan.labels)
    assert len(plan.tasks) == 5 * k * (k - 1) // 2
    # each pair's size: its two classes' training rows (the biggest start first)
    assert all(t.size > 0 for t in plan.tasks)
    # -b 1 folds stay whole (LIBSVM's probability training draws from rand())
    assert len(CVPlan(problem, params_of("-s 0 -b 1").resolved(4), folds, 1).tasks) == 5


def test_messages_print_one_total_per_fold(tmp_path, capfd):
    """Without -q each pair prints LIBSVM's training lines; each fold one "Total nSV" line,
    the whole model's, as svm_train prints it."""
    path = data_set("iris.scale")
    ds = read_dataset(path)
    result = cross_validate(ds, params_of("-s 0"), 5, jobs=2, quiet=False)
    err = capfd.readouterr().err
    totals = sorted(
        int(line.split("=")[1]) for line in err.splitlines() if line.startswith("Total nSV")
    )
    # LIBSVM's own: the same lines from svm_cross_validation
    y, x = svmutil.svm_read_problem(str(path))
    prob = libsvm_svm.svm_problem(y, x)
    param = libsvm_svm.svm_parameter(f"-s 0 -g {1 / ds.n_features}")
    _libsvm.set_quiet(False)  # LIBSVM's messages to standard error, through svmeval's hook
    target = (ctypes.c_double * len(y))()
    _libsvm.srand(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, 5, target)
    theirs = capfd.readouterr().err
    _libsvm.set_quiet(True)
    expected = sorted(
        int(line.split("=")[1]) for line in theirs.splitlines() if line.startswith("Total nSV")
    )
    assert totals == expected and len(totals) == result.n_folds
    assert err.count("optimization finished") == theirs.count("optimization finished")


def test_weight_of_a_missing_label_warns_once_per_fold_as_libsvm(capfd):
    path = data_set("iris.scale")
    ds = read_dataset(path)
    cross_validate(ds, params_of("-s 0 -w7 2"), 5, jobs=2)
    ours = capfd.readouterr().err
    libsvm_cv(path, "-s 0 -w7 2", 5)
    theirs = capfd.readouterr().err
    line = "WARNING: class label 7 specified in weight is not found"
    assert ours.count(line) == theirs.count(line) == 5


@pytest.mark.parametrize("options", ["-t 4", "-t 4 -s 1 -n 0.3"])
def test_precomputed_multiclass_kernel(tmp_path, options):
    """A precomputed kernel (``0:serial`` rows): each pair's sub-problem finds K(i, j) through
    the serial numbers, as LIBSVM's multiclass loop does."""
    ds = read_dataset(data_set("iris.scale"))
    X = np.zeros((ds.n_samples, ds.n_features + 1))
    for i in range(ds.n_samples):
        a, b = ds.indptr[i], ds.indptr[i + 1]
        X[i, ds.indices[a:b]] = ds.values[a:b]
    K = X @ X.T
    path = tmp_path / "kernel"
    path.write_text(
        "".join(
            f"{ds.y[i]:g} 0:{i + 1} "
            + " ".join(f"{j + 1}:{K[i, j]:.17g}" for j in range(len(K)))
            + "\n"
            for i in range(len(K))
        )
    )
    result = cross_validate(read_dataset(path), params_of(options), 5, jobs=2)
    assert np.array_equal(result.y_pred, libsvm_cv(path, options, 5))


@pytest.mark.parametrize("parts", [1, 3, 16])
@pytest.mark.parametrize("jobs", [1, 3])
def test_a_folds_prediction_in_parts_is_libsvms(tmp_path, monkeypatch, parts, jobs):
    """A fold's last pair leaves its prediction as tasks over parts of the test rows: any
    number of parts, on any number of jobs, predicts every row as svm_cross_validation."""
    from svmeval.cv.plan import cv_plan

    monkeypatch.setattr(cv_plan, "PREDICT_PARTS", parts)
    monkeypatch.setattr(cv_plan, "PREDICT_PART_ROWS", 1)
    options = "-s 0 -c 4"
    path = subset(tmp_path, "satimage.scale", 400)
    result = run_cv(read_dataset(path), params_of(options), 5, jobs=jobs, keep_decision_values=True)
    assert np.array_equal(result.y_pred, libsvm_cv(path, options, 5))
    expected = oracle_decision_values(path, options, result)
    assert np.array_equal(result.decision_values, expected, equal_nan=True)


def test_prediction_parts_follow_the_cores_and_the_test_rows(monkeypatch):
    """As many parts as cores, none under PREDICT_PART_ROWS rows (one for a small fold). The
    least rows of a part is set to an eighth of the fold's test rows, so that any data set (a
    small stand-in too) has room for 4 parts and more."""
    from svmeval.cv import schedule
    from svmeval.cv.plan import cv_plan
    from svmeval.cv.task import FollowUps

    ds = read_dataset(data_set("satimage.scale"))
    problem = _libsvm.make_problem(ds)
    params = params_of("-s 0").resolved(ds.n_features)
    folds = draw_folds(problem.y, 5, 1, params)
    test_rows = len(folds.test(0))
    monkeypatch.setattr(cv_plan, "PREDICT_PART_ROWS", test_rows // 8)
    cv = CVPlan(problem, params, folds, 1)
    fold_pairs = len(cv.labels) * (len(cv.labels) - 1) // 2
    for cores, expected in [(1, 1), (4, 4), (64, test_rows // cv_plan.PREDICT_PART_ROWS)]:
        with schedule.cores_limited(cores):
            results = [task(1) for task in cv.tasks[:fold_pairs]]  # fold 0, alone
        assert results[:-1] == [0] * (fold_pairs - 1)
        assert isinstance(results[-1], FollowUps)
        follow = results[-1].tasks
        assert len(follow) == expected
        assert sorted(r for t in follow for r in [t.size]) == sorted(
            len(p) for p in np.array_split(folds.test(0), expected)
        )
        cv = CVPlan(problem, params, folds, 1)

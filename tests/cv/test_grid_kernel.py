"""The shared kernel (one precomputed matrix per kernel, every fold and C on it) is bit-identical
to LIBSVM training on the features: predictions against LIBSVM's own svm_cross_validation,
decision values against models the official bindings train fold by fold on the features."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from svmeval.cli.svmeval import parse_args
from svmeval.cv import _libsvm, engine
from svmeval.cv.plan.folds import libsvm_folds
from svmeval.cv.run.kernel import SharedKernel, kernel_value, matrix_bytes, plan_sharing
from svmeval.cv.schedule import run_tasks
from svmeval.io.data import read_dataset

from conftest import data_set, libsvm_cv

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")


def params_of(options: str):
    return parse_args(options.split() + ["-v", "5", "x"]).params


def shared_cv(ds, options, k=5, seed=1, jobs=2):
    """svmeval's CV of every fold on one SharedKernel."""
    problem, params = engine.prepare(ds, params_of(options))
    kernel = SharedKernel(problem, params, threads=2)
    _libsvm.srand(seed)
    folds = libsvm_folds(problem.y, k, stratified=params.is_classification, rand=_libsvm.rand)
    plan = engine.CVPlan(
        kernel.cv_problem, kernel.train_params(params), folds, seed, keep_decision_values=True
    )
    run_tasks(plan.tasks, jobs=jobs)
    return kernel.restore(plan.result(), params)


def libsvm_fold_decision_values(path, options, result):
    """Each fold trained by the official bindings on the features (LIBSVM's fold order), its
    test rows' decision values from svm_predict_values, as the engine stores them."""
    y, x = svmutil.svm_read_problem(str(path))
    n_features = max((max(row) for row in x if row), default=0)
    _libsvm.set_omp_threads(1)
    out = {}
    for i in range(result.n_folds):
        train = result.folds.train(i)
        prob = libsvm_svm.svm_problem([y[j] for j in train], [x[j] for j in train])
        param = libsvm_svm.svm_parameter(options + " -q")
        if param.gamma == 0:
            param.gamma = 1.0 / n_features
        model = libsvm_svm.libsvm.svm_train(prob, param)
        model = libsvm_svm.toPyModel(model)
        for j in result.folds.test(i):
            xi, _ = libsvm_svm.gen_svm_nodearray(x[j])
            n_dec = max(1, model.get_nr_class() * (model.get_nr_class() - 1) // 2)
            dec = (ctypes.c_double * n_dec)()
            label = libsvm_svm.libsvm.svm_predict_values(model, xi, dec)
            out[int(j)] = (label, list(dec), list(model.get_labels()))
    return out


KERNELS = [
    "-t 0",
    "-t 1 -d 2 -g 0.1 -r 1",
    "-t 1 -d 3 -g 0.05",
    "-t 2 -g 0.25",
    "-t 2",
    "-t 3 -g 0.01 -r -0.5",
]
TYPES = [
    ("heart_scale", "-s 0 -c 4"),
    ("heart_scale", "-s 1 -n 0.3"),
    ("heart_scale", "-s 2 -n 0.2"),
    ("housing_scale", "-s 3 -c 2 -p 0.5"),
    ("housing_scale", "-s 4 -c 2 -n 0.4"),
    ("iris.scale", "-s 0 -c 8"),
    ("iris.scale", "-s 1 -n 0.2"),
    ("heart_scale", "-s 0 -c 2 -w1 3 -h 0"),
]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name,svm", TYPES, ids=[f"{n} {s}" for n, s in TYPES])
def test_shared_kernel_cv_is_bit_identical(name, svm, kernel):
    path = data_set(name)
    ds = read_dataset(path)
    options = f"{svm} {kernel}"
    shared = shared_cv(ds, options)
    # predictions: LIBSVM's own cross-validation on the features
    assert np.array_equal(shared.y_pred, libsvm_cv(path, options)), options
    # decision values: the feature-space engine (proved equal to LIBSVM in test_engine.py)
    normal = engine.cross_validate(
        ds, params_of(options), 5, seed=1, jobs=2, keep_decision_values=True
    )
    assert np.array_equal(shared.y_pred, normal.y_pred)
    assert np.array_equal(shared.decision_values, normal.decision_values, equal_nan=True)
    if normal.scores is not None:
        assert np.array_equal(shared.scores, normal.scores, equal_nan=True)


@pytest.mark.parametrize(
    "options", ["-s 0 -t 2 -c 4 -g 0.5", "-s 3 -t 1 -d 2 -g 0.1 -c 2", "-s 0 -t 3 -g 0.01 -r -0.5"]
)
def test_decision_values_equal_official_bindings_fold_by_fold(options):
    name = "housing_scale" if "-s 3" in options else "heart_scale"
    path = data_set(name)
    shared = shared_cv(read_dataset(path), options)
    expected = libsvm_fold_decision_values(path, options, shared)
    for j, (label, dec, model_labels) in expected.items():
        assert shared.y_pred[j] == label
        if "-s 3" in options:
            assert shared.decision_values[j, 0] == dec[0]
        else:
            # the engine stores pair (0, 1) positive towards its first label in LIBSVM's order
            sign = 1.0 if model_labels[0] == shared.labels[0] else -1.0
            assert shared.decision_values[j, 0] == sign * dec[0]


def test_sparse_data_bit_identical(tmp_path):
    """dna: 180 sparse binary features; a9a: 123 sparse features (first 300 rows each)."""
    for name in ("dna.scale", "a9a"):
        lines = data_set(name).read_text().splitlines()[:300]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        ds = read_dataset(path)
        for options in ("-c 8 -g 0.03", "-t 1 -g 0.01 -r 1 -c 0.5"):
            shared = shared_cv(ds, options)
            assert np.array_equal(shared.y_pred, libsvm_cv(path, options)), (name, options)
            normal = engine.cross_validate(
                ds, params_of(options), 5, seed=1, keep_decision_values=True
            )
            assert np.array_equal(shared.decision_values, normal.decision_values)


def test_kernel_matrix_layout_and_symmetry():
    ds = read_dataset(data_set("iris.scale"))
    problem, params = engine.prepare(ds, params_of("-g 0.5"))
    kernel = SharedKernel(problem, params, threads=3)
    n = ds.n_samples
    from svmeval.cv._libsvm import NODE

    train = np.frombuffer(
        (ctypes.c_char * (n * (n + 2) * NODE.itemsize)).from_address(int(kernel.problem.rows[0])),
        dtype=NODE,
    ).reshape(n, n + 2)
    assert list(train["index"][:, 0]) == [0] * n
    assert list(train["value"][:, 0]) == list(range(1, n + 1))  # serial numbers, 1-based
    assert (train["index"][:, -1] == -1).all()
    assert np.array_equal(train["index"][0, 1:-1], np.arange(1, n + 1))
    K = train["value"][:, 1:-1]
    assert np.array_equal(K, K.T)
    assert K[3, 7] == kernel_value(problem, 3, 7, params)
    assert kernel.nbytes == matrix_bytes(n, params.kernel_type)
    # the prediction arithmetic differs from training's in the last bits somewhere, never more
    dense = np.zeros((n, ds.n_features + 1))
    for i in range(n):
        a, b = ds.indptr[i], ds.indptr[i + 1]
        dense[i, ds.indices[a:b]] = ds.values[a:b]
    d2 = ((dense[:, None, :] - dense[None, :, :]) ** 2).sum(-1)
    assert np.allclose(K, np.exp(-0.5 * d2), rtol=0, atol=1e-12)


def test_plan_sharing():
    rbf = params_of("-g 0.5")
    assert plan_sharing(2000, 2000 * 14, rbf, 55, 5).share
    assert not plan_sharing(2000, 2000 * 14, rbf, 55, 5, memory_mb=10).share
    assert not plan_sharing(2000, 2000 * 14, rbf, 55, 5, probability=True).share
    assert "budget" in plan_sharing(40000, 40000 * 14, rbf, 55, 5).reason
    assert not plan_sharing(2000, 2000 * 14, params_of("-t 4"), 55, 5).share


def _awkward_rows(rng, n: int, top: int, per_row: int) -> list[str]:
    """LIBSVM lines with explicit zeros, negative zeros, empty rows, one-feature rows, values
    of very different sizes and index gaps up to ``top``."""
    lines = []
    for i in range(n):
        k = 0 if i % 17 == 0 else 1 if i % 13 == 0 else int(rng.integers(1, per_row + 1))
        idx = np.sort(rng.choice(np.arange(1, top + 1), size=k, replace=False))
        values = rng.normal(size=k) * 10.0 ** rng.integers(-6, 3, size=k)
        words = []
        for j, (index, value) in enumerate(zip(idx, values)):
            text = "0" if j % 7 == 3 else "-0" if j % 11 == 5 else repr(float(value))
            words.append(f"{index}:{text}")
        lines.append(" ".join([str(1 if i % 3 else -1)] + words))
    return lines


def _matrix(rows, n: int) -> np.ndarray:
    from svmeval.cv._libsvm import NODE

    nodes = np.frombuffer(
        (ctypes.c_char * (n * (n + 2) * NODE.itemsize)).from_address(int(rows[0])), dtype=NODE
    ).reshape(n, n + 2)
    return nodes["value"][:, 1:-1].copy()


# the matrices skip the sparse merge where they can (row i scattered for dot; every index in
# order for RBF's prediction sum on dense enough rows): every value must stay the merge's
@pytest.mark.parametrize("top,per_row", [(6, 5), (9, 3), (5000, 12)], ids=["dense", "mid", "gaps"])
@pytest.mark.parametrize("kernel", KERNELS)
def test_matrix_values_are_libsvm_arithmetic_on_awkward_rows(tmp_path, top, per_row, kernel):
    rng = np.random.default_rng(top)
    path = tmp_path / "awkward"
    path.write_text("\n".join(_awkward_rows(rng, 60, top, per_row)) + "\n")
    ds = read_dataset(path)
    problem, params = engine.prepare(ds, params_of(kernel))
    shared = SharedKernel(problem, params, threads=2)
    n = ds.n_samples
    train, test = _matrix(shared.problem.rows, n), _matrix(shared.test_rows, n)
    for i in range(n):
        for j in range(n):
            assert train[i, j] == kernel_value(problem, i, j, params), (i, j)
            expected = kernel_value(problem, i, j, params, prediction=True)
            assert test[i, j] == expected, (i, j)
    # and what LIBSVM's own cross-validation on the features predicts
    assert np.array_equal(shared_cv(ds, kernel).y_pred, libsvm_cv(path, kernel)), kernel

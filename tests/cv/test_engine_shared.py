"""Plain cross-validation on the shared kernel (``cross_validate(..., share=...)``): every fold of
every repetition trains on one precomputed matrix, and every result is bit-identical to training
on the features and to LIBSVM's own svm_cross_validation (the oracle, run in the test)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from svmeval.cli.svmeval import parse_args
from svmeval.cv.engine import prepare, repetition_seeds
from svmeval.cv.engine import run_cv as cross_validate
from svmeval.cv.run import kernel as shared_kernel
from svmeval.cv.run.kernel import plan_sharing
from svmeval.io.data import read_dataset
from svmeval.params import PRECOMPUTED

from conftest import data_set, libsvm_cv, linear_kernel_file

pytest.importorskip("libsvm.svm")


def params_of(options: str):
    return parse_args(options.split() + ["-v", "5", "x"]).params


@pytest.fixture
def no_kernel(monkeypatch):
    """Building a SharedKernel fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("a SharedKernel was built")

    monkeypatch.setattr(shared_kernel, "SharedKernel", refuse)


def same(a, b) -> bool:
    """Equal to the last bit: arrays (NaN where NaN), dicts, tuples, numbers, dataclasses."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (np.ndarray, float, np.floating)) or a is None or b is None:
        if a is None or b is None:
            return a is None and b is None
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    if hasattr(a, "matrix") and hasattr(a, "labels"):  # ConfusionCounts
        return same(a.labels, b.labels) and same(a.matrix, b.matrix)
    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and all(
            same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return a == b


FIELDS = ("y_true", "y_pred", "fold", "decision_values", "scores", "probabilities", "labels")


def assert_same_result(shared, normal):
    for name in FIELDS:
        assert same(getattr(shared, name), getattr(normal, name)), name
    assert shared.params == normal.params
    assert (shared.n_folds, shared.seed, shared.data_name) == (
        normal.n_folds,
        normal.seed,
        normal.data_name,
    )
    assert len(shared.repeats) == len(normal.repeats)
    for mine, theirs in zip(shared.repeats, normal.repeats):
        assert mine.seed == theirs.seed
        assert same(mine.confusion, theirs.confusion)
        assert mine.regression == theirs.regression
        assert same(mine.ranking, theirs.ranking)


def head(name: str, rows: int, directory) -> object:
    """The first ``rows`` rows of a data set, as a file in ``directory``."""
    lines = data_set(name).read_text().splitlines()[:rows]
    path = directory / f"{data_set(name).name}.head{rows}"
    path.write_text("\n".join(lines) + "\n")
    return path


KERNELS = {
    "linear": "-t 0",
    "poly": "-t 1 -d 2 -g 0.1 -r 1",
    "rbf": "-t 2 -g 0.25",
    "rbf default gamma": "",
    "sigmoid": "-t 3 -g 0.01 -r -0.5",
}
CASES = [
    *(("heart_scale", f"-s 0 -c 4 {k}", 5) for k in KERNELS.values()),  # two classes, C-SVC
    ("heart_scale", "-s 0 -c 2 -w1 3", 10),
    ("heart_scale", "-s 1 -n 0.3 -t 1 -d 3 -g 0.05", 5),  # nu-SVC
    ("heart_scale", "-s 2 -n 0.2", 5),  # one-class
    ("heart_scale", "-s 2 -n 0.3 -t 0", 5),
    ("iris.scale", "-s 0 -c 8", 5),  # three classes
    ("iris.scale", "-s 0 -t 1 -d 3 -g 0.05", 4),
    ("iris.scale", "-s 1 -n 0.2 -t 3 -g 0.05", 5),
    ("dna.scale", "-s 0 -c 8 -g 0.03", 5),  # three classes, sparse (first 400 rows)
    ("housing_scale", "-s 3 -c 2 -p 0.5", 5),  # epsilon-SVR
    ("housing_scale", "-s 3 -t 1 -d 2 -g 0.1 -c 2", 5),
    ("housing_scale", "-s 4 -c 2 -n 0.4 -t 0", 5),  # nu-SVR
]


@pytest.mark.parametrize("name,options,k", CASES, ids=[f"{n} {o} -v {k}" for n, o, k in CASES])
def test_shared_equals_unshared_and_libsvm(name, options, k, built, tmp_path):
    path = head(name, 400, tmp_path) if name == "dna.scale" else data_set(name)
    ds = read_dataset(path)
    shared = cross_validate(ds, params_of(options), k, share=True, keep_decision_values=True)
    assert len(built) == 1  # every fold trained on the one kernel
    assert np.array_equal(shared.y_pred, libsvm_cv(path, options, k))
    normal = cross_validate(ds, params_of(options), k, share=False, keep_decision_values=True)
    assert len(built) == 1
    assert_same_result(shared, normal)
    # the user's parameters, not the precomputed kernel the folds trained with
    assert shared.params == prepare(ds, params_of(options))[1]
    assert shared.params.kernel_type != PRECOMPUTED
    assert shared.decision_values is not None and not np.isnan(shared.decision_values).all()


@pytest.mark.parametrize(
    "name,options",
    [
        ("heart_scale", "-c 2"),
        ("iris.scale", "-t 1 -d 2 -g 0.2"),
        ("housing_scale", "-s 3 -c 4 -p 0.2"),
    ],
)
def test_repetitions_share_one_kernel(name, options, built):
    path = data_set(name)
    ds = read_dataset(path)
    shared = cross_validate(
        ds, params_of(options), 5, seed=3, repeat=3, share=True, keep_repeats=True
    )
    assert len(built) == 1  # 3 x 5 folds, one kernel
    normal = cross_validate(
        ds, params_of(options), 5, seed=3, repeat=3, share=False, keep_repeats=True
    )
    assert_same_result(shared, normal)
    seeds = repetition_seeds(3, 3)
    runs = [shared, *shared.repeat_results]
    assert [r.seed for r in runs] == seeds
    for run, theirs, s in zip(runs, [normal, *normal.repeat_results], seeds):
        assert_same_result(run, theirs)
        assert np.array_equal(run.y_pred, libsvm_cv(path, options, 5, seed=s))


@pytest.mark.parametrize(
    "name,options",
    [
        ("heart_scale", "-b 1"),
        ("iris.scale", "-b 1 -c 4"),
        ("housing_scale", "-s 3 -b 1"),
        ("kernel file", "-t 4"),
        ("kernel file", "-t 4 -s 2"),
    ],
)
def test_never_shared_with_probabilities_or_a_precomputed_kernel(
    name, options, tmp_path, monkeypatch
):
    path = linear_kernel_file(tmp_path) if name == "kernel file" else data_set(name)
    ds = read_dataset(path)
    normal = cross_validate(ds, params_of(options), 5, share=False, keep_decision_values=True)
    monkeypatch.setattr(
        shared_kernel, "SharedKernel", lambda *a, **kw: pytest.fail("a SharedKernel was built")
    )
    for share in (True, None):
        forced = cross_validate(ds, params_of(options), 5, share=share, keep_decision_values=True)
        assert_same_result(forced, normal)
    assert np.array_equal(normal.y_pred, libsvm_cv(path, options, 5))


def test_never_shared_over_the_memory_budget(monkeypatch, no_kernel):
    path = data_set("heart_scale")
    ds = read_dataset(path)
    monkeypatch.setattr(shared_kernel, "DEFAULT_MEMORY_MB", 1.0)  # heart: 2.2 MB for RBF
    result = cross_validate(ds, params_of("-c 2"), 5, share=True)
    assert np.array_equal(result.y_pred, libsvm_cv(path, "-c 2", 5))


def test_share_false_never_builds_a_kernel(no_kernel):
    path = data_set("heart_scale")
    result = cross_validate(read_dataset(path), params_of("-t 0"), 5, repeat=2, share=False)
    assert np.array_equal(result.y_pred, libsvm_cv(path, "-t 0", 5))


def test_the_cost_model_decides_by_default(monkeypatch, built):
    """share=None asks plan_sharing about R x k trainings of k folds on one kernel, and shares
    exactly when it says so."""
    asked = []
    plan_sharing = shared_kernel.plan_sharing

    def recorded(*args, **kwargs):
        plan = plan_sharing(*args, **kwargs)
        asked.append((args, kwargs, plan))
        return plan

    monkeypatch.setattr(shared_kernel, "plan_sharing", recorded)
    decisions = set()
    # two folds of one repetition: too few trainings to pay for any kernel matrix
    for name, options, k, repeat in [
        ("heart_scale", "-t 0", 5, 1),
        ("heart_scale", "", 2, 1),
        ("heart_scale", "-c 4", 10, 2),
        ("heart_scale", "", 5, 4),
    ]:
        path = data_set(name)
        ds = read_dataset(path)
        params = params_of(options)
        before = len(built)
        result = cross_validate(ds, params, k, repeat=repeat)
        args, kwargs, plan = asked[-1]
        problem, resolved = prepare(ds, params)
        assert plan == plan_sharing(
            problem.n_samples,
            len(ds.indices),
            resolved,
            trainings_per_kernel=repeat * k,
            n_folds=k,
            memory_mb=shared_kernel.DEFAULT_MEMORY_MB,
            probability=False,
        )
        assert len(built) - before == int(plan.share)
        decisions.add(plan.share)
        assert np.array_equal(result.y_pred, libsvm_cv(path, options, k))
        assert result.params == resolved
    assert decisions == {True, False}  # both ways taken


def test_command_line_shares_on_its_own(built, tmp_path):
    """``svmeval -v 5 --repeat 3`` needs no option: the cost model decides, the predictions
    stay LIBSVM's."""
    from svmeval.cli import svmeval as cli

    path = data_set("heart_scale")
    out = tmp_path / "pred"
    assert (
        cli.main(
            ["-q", "-t", "0", "-v", "5", "--repeat", "3", "--predictions", str(out), str(path)]
        )
        == 0
    )
    assert len(built) == 1  # a linear kernel for 3 x 5 folds of heart_scale: sharing pays
    assert np.array_equal(np.loadtxt(out), libsvm_cv(path, "-t 0", 5))


def test_cost_model_for_single_and_repeated_cross_validations():
    """Calibrated on measured runs (svmeval/cv/run/kernel.py): one 5-fold RBF cross-validation
    never shares, one of 10 folds only with over 50 features a row (easy data such as mushrooms
    ran 2-3x slower on a shared kernel); repetitions of sparse data and a default grid do."""
    rbf, linear = params_of("-g 0.1"), params_of("-t 0")
    for per_row in (4, 14, 21, 46, 200):
        assert not plan_sharing(2000, 2000 * per_row, rbf, 5, 5).share, per_row
        assert plan_sharing(2000, 2000 * per_row, rbf, 10, 10).share == (per_row > 50), per_row
    assert not plan_sharing(8124, 8124 * 21, linear, 5, 5).share  # mushrooms -t 0 -v 5
    assert plan_sharing(2000, 2000 * 14, rbf, 3 * 5, 5).share  # a9a's 2,000 rows, --repeat 3
    assert plan_sharing(2000, 2000 * 46, rbf, 3 * 5, 5).share  # dna, --repeat 3
    assert plan_sharing(3089, 3089 * 4, rbf, 11 * 5, 5).share  # svmguide1, 11 C per gamma
    assert not plan_sharing(3089, 3089 * 4, rbf, 3 * 5, 5).share  # svmguide1, --repeat 3
    # knowing the features: on a few dense ones a value costs about a lookup (the default grid
    # of svmguide1, breast-cancer_scale and an 8-feature 768-row set ran no faster shared)
    for n, per_row, features in ((3089, 4, 4), (683, 10, 10), (768, 8, 8), (4435, 36, 36)):
        assert not plan_sharing(n, n * per_row, rbf, 11 * 5, 5, n_features=features).share
    assert plan_sharing(2000, 2000 * 14, rbf, 11 * 5, 5, n_features=123).share  # a9a's rows
    assert plan_sharing(2000, 2000 * 46, rbf, 11 * 5, 5, n_features=180).share  # dna
    assert plan_sharing(270, 270 * 12.5, rbf, 11 * 5, 5, n_features=13).share  # in the cache

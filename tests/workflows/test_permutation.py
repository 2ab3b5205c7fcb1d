"""The permutation test against LIBSVM's own bindings: each permutation's predictions are
``svm_cross_validation``'s after ``srand(seed)`` on a problem with the permuted labels (the
permutations drawn here with numpy's ``default_rng(seed).permutation``, as documented), and p
is (1 + #{permuted >= observed}) / (N + 1) of those figures."""

from __future__ import annotations

import ctypes
import json

import numpy as np
import pytest

from svmeval import ArgumentError, PermutationTest, permutation_test, render
from svmeval.cv import _libsvm
from svmeval.cv.engine import prepare
from svmeval.cv.run.permutation import permuted_cvs
from svmeval.io.data import read_dataset
from svmeval.params import SvmParams

import commands
from conftest import LOCAL

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")


def _orders(n: int, count: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    return [rng.permutation(n) for _ in range(count)]


def _libsvm_cv(x, y, options: str, k: int, seed: int) -> np.ndarray:
    prob = libsvm_svm.svm_problem(list(y), x)
    param = libsvm_svm.svm_parameter(options + " -q")
    if param.gamma == 0:
        param.gamma = 1.0 / prob.n
    target = (ctypes.c_double * len(y))()
    _libsvm.srand(seed)
    _libsvm.set_omp_threads(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, k, target)
    return np.array(target[:])


@pytest.mark.parametrize(
    "name, options, k", [("wine.scale", "-c 2", 3), ("breast_cancer.scale", "-t 0", 4)]
)
def test_each_permutation_is_libsvm_cross_validation_of_the_permuted_labels(name, options, k):
    path = str(LOCAL / name)
    y, x = svmutil.svm_read_problem(path)
    y = np.array(y)
    orders = _orders(len(y), 3, seed=5)
    dataset = read_dataset(path)
    problem, params = prepare(dataset, SvmParams.parse(options))
    found: dict = {}
    shared = permuted_cvs(dataset, problem, params, k, 5, orders, found.__setitem__)
    assert shared  # the kernel computed once for the three
    results = [found[p] for p in range(len(orders))]
    for order, result in zip(orders, results):
        expected = _libsvm_cv(x, y[order], options, k, 5)
        assert np.array_equal(result.y_pred, expected)
        assert np.array_equal(result.y_true, y[order])


def test_p_is_the_formula_on_libsvms_figures():
    path = str(LOCAL / "wine.scale")
    y, x = svmutil.svm_read_problem(path)
    y = np.array(y)
    n_perm, seed, k = 6, 3, 3
    t = permutation_test(path, "-c 1 -g 0.01", folds=k, permutations=n_perm, seed=seed, jobs=2)
    observed = np.mean(_libsvm_cv(x, y, "-c 1 -g 0.01", k, seed) == y)
    permuted = [
        np.mean(_libsvm_cv(x, y[o], "-c 1 -g 0.01", k, seed) == y[o])
        for o in _orders(len(y), n_perm, seed)
    ]
    assert t.observed == observed
    assert t.permuted.tolist() == permuted
    assert t.p == (1 + sum(v >= observed for v in permuted)) / (n_perm + 1)
    assert t.null_mean == pytest.approx(np.mean(permuted))
    assert t.null_sd == pytest.approx(np.std(permuted, ddof=1))
    doc = json.loads(render(t, format="json"))
    assert doc["p"] == t.p and doc["permutations"] == n_perm and doc["seed"] == seed
    text = render(t)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert f"p = (1 + {t.beyond}) / ({n_perm} + 1)" in text


def test_results_do_not_depend_on_jobs():
    path = str(LOCAL / "breast_cancer.scale")
    one = permutation_test(path, folds=3, permutations=4, seed=2, jobs=1)
    two = permutation_test(path, folds=3, permutations=4, seed=2, jobs=2)
    assert one.permuted.tolist() == two.permuted.tolist() and one.observed == two.observed


def test_smaller_is_better_counts_permutations_at_or_below():
    path = str(LOCAL / "wine.scale")
    t = permutation_test(path, "-s 3", folds=3, permutations=5, seed=1)
    assert t.criterion == "mse"
    assert t.p == (1 + int(np.sum(t.permuted <= t.observed))) / 6


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"permutations": 0}, "permutations"),
        ({"permutations": 100_001}, "permutations"),
        ({"permutations": 2.5}, "permutations"),
        ({"permutations": True}, "permutations"),
        ({"params": "-b 1"}, "params"),
    ],
)
def test_bad_arguments_are_typed_errors(kwargs, argument):
    with pytest.raises(ArgumentError) as caught:
        permutation_test(str(LOCAL / "wine.scale"), **kwargs)
    assert caught.value.argument == argument


def _svmeval(*args):
    return commands.run("svmeval", ["-q", *args], timeout=600)


def test_command_line_json_is_the_library_result():
    path = LOCAL / "wine.scale"
    done = _svmeval("--permutations", 4, "-v", 3, "--seed", 2, "--format", "json", path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    t = permutation_test(str(path), folds=3, permutations=4, seed=2)
    assert doc["permuted"] == t.permuted.tolist() and doc["p"] == t.p
    assert doc["observed"] == t.observed and doc["shared_kernel"] is True


@pytest.mark.parametrize(
    "args, text",
    [
        (["--permutations", "0", "-v", "3"], "'0' is out of range (1 to 100000)"),
        (["--permutations", "100001", "-v", "3"], "out of range (1 to 100000)"),
        (["--permutations", "5"], "--permutations tests a cross-validation: give -v k"),
        (["--permutations", "5", "-v", "3", "--multilabel"], "not with --multilabel"),
        (["--permutations", "5", "-v", "3", "-b", "1"], "not with -b 1"),
        (["--criterion", "mcc", "-v", "3"], "it chooses the one that --permutations tests"),
        (["--permutations", "5", "-v", "3", "--dask", "local:abc"], "not local or local:N"),
        (
            ["--permutations", "5", "-v", "3", "--dask", "local:1", "--jobs", "2"],
            "--jobs sets the local threads",
        ),
        (["--permutations", "5", "-v", "3", "--store", "/dev/null"], "not a regular file"),
    ],
)
def test_command_line_bad_input_is_one_line(args, text):
    done = _svmeval(*args, LOCAL / "wine.scale")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


def test_table_formats_are_refused_in_words():
    t = permutation_test(str(LOCAL / "wine.scale"), folds=3, permutations=2)
    for format in ("markdown", "latex"):
        with pytest.raises(ValueError, match="text, json, csv, html"):
            render(t, format=format)


def test_leave_one_out_warns_once(tmp_path, capfd):
    lines = (LOCAL / "wine.scale").read_text().splitlines()[::12]  # 15 samples, 3 classes
    small = tmp_path / "small"
    small.write_text("\n".join(lines) + "\n")
    t = permutation_test(str(small), folds=20, permutations=4)
    assert t.n_folds == len(lines)
    assert capfd.readouterr().err.count("Will use # folds = # data") == 1


def test_plot_draws_the_null_distribution_and_the_observed_line(tmp_path):
    pytest.importorskip("matplotlib")
    from svmeval import plot

    t = permutation_test(str(LOCAL / "wine.scale"), folds=3, permutations=12, seed=4)
    figure = plot(t, tmp_path / "null.png")
    (ax,) = figure.axes
    heights = [patch.get_height() for patch in ax.patches]
    assert sum(heights) == 12  # every permutation in one bar
    (line,) = ax.lines
    assert list(line.get_xdata()) == [t.observed, t.observed]
    assert (tmp_path / "null.png").stat().st_size > 0


def test_command_line_plot_writes_the_picture(tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "null.svg"
    done = _svmeval("--permutations", 3, "-v", 3, "--plot", picture, LOCAL / "wine.scale")
    assert done.returncode == 0, done.stderr
    assert picture.read_text().lstrip().startswith("<?xml")


def test_chunks_of_permutations_change_nothing(monkeypatch):
    from svmeval.cv.run import permutation

    path = str(LOCAL / "wine.scale")
    whole = permutation_test(path, folds=3, permutations=5, seed=6)
    monkeypatch.setattr(permutation, "CHUNK", 2)  # three chunks on one kernel
    chunked = permutation_test(path, folds=3, permutations=5, seed=6)
    assert chunked.permuted.tolist() == whole.permuted.tolist()
    assert chunked.observed == whole.observed


def test_a_store_keeps_each_permutation_and_a_rerun_computes_nothing(tmp_path):
    """Each permutation's folds are units of the store, keyed by its permuted labels and the
    seed: a rerun takes all of them (nothing trained), another seed none, and the data's own
    run is the plain cross-validation's units (the same folds of the same labels)."""
    from svmeval import cross_validate, open_store

    path, db = str(LOCAL / "wine.scale"), tmp_path / "runs.db"
    fresh = permutation_test(path, folds=3, permutations=5, seed=2)
    with open_store(db) as store:
        first = permutation_test(path, folds=3, permutations=5, seed=2, store=store)
        assert (store.reused, store.computed) == (0, 6 * 3)
    with open_store(db) as store:
        again = permutation_test(path, folds=3, permutations=5, seed=2, store=store)
        assert (store.reused, store.computed) == (6 * 3, 0)
    for t in (first, again):
        assert t.permuted.tolist() == fresh.permuted.tolist() and t.observed == fresh.observed
    with open_store(db) as store:
        other = permutation_test(path, folds=3, permutations=5, seed=3, store=store)
        assert (store.reused, store.computed) == (0, 6 * 3)
        assert (
            other.permuted.tolist()
            == permutation_test(path, folds=3, permutations=5, seed=3).permuted.tolist()
        )
        cross_validate(path, folds=3, seed=2, store=store)  # the observed run of seed 2
        assert (store.reused, store.computed) == (3, 6 * 3)


def test_a_dask_cluster_gives_the_local_result_computing_the_kernel_once_per_worker(
    monkeypatch,
):
    """The permutations on a local Dask cluster (two worker processes): the local run's
    figures, and each worker computed the kernel at most once over every chunk."""
    pytest.importorskip("distributed")
    from svmeval.cv.run import cluster, permutation, workers

    path = str(LOCAL / "breast_cancer.scale")
    local = permutation_test(path, "-g 0.5", folds=4, permutations=7, seed=3, jobs=2)
    monkeypatch.setattr(permutation, "CHUNK", 3)  # three batches on one session
    with cluster.connect("local:2") as client:
        remote = permutation_test(path, "-g 0.5", folds=4, permutations=7, seed=3, client=client)
        stats = client.run(workers.worker_stats)
    assert remote.permuted.tolist() == local.permuted.tolist()
    assert remote.observed == local.observed and remote.shared_kernel
    assert 1 <= sum(s["kernels"] for s in stats.values()) <= len(stats)
    assert all(s["kernels"] <= 1 for s in stats.values())


def test_command_line_on_a_dask_cluster_and_with_a_store_prints_the_local_report(tmp_path):
    pytest.importorskip("distributed")
    path = LOCAL / "wine.scale"
    args = ("--permutations", 4, "-v", 3, "--seed", 2, "--format", "json", path)
    local = _svmeval(*args)
    on_cluster = _svmeval("--dask", "local:1", *args)
    assert local.returncode == on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == local.stdout
    db = tmp_path / "runs.db"
    for expected in ("0 units reused, 15 computed", "15 units reused, 0 computed"):
        done = _svmeval("--store", db, *args)
        assert done.returncode == 0 and done.stdout == local.stdout, done.stderr
        assert done.stderr.endswith(f"store {db}: {expected}\n"), done.stderr


def test_a_null_distribution_of_one_value_is_said_to_tell_nothing():
    # LIBSVM's own CV of a permutation that predicts one class: the majority rate, every time
    y = np.array([1.0] * 9 + [-1.0] * 3)
    x = [{1: 1.0}] * 12  # the same row for every sample: nothing tells the classes apart
    permuted = y[np.random.default_rng(1).permutation(12)]
    predicted = _libsvm_cv(x, permuted, "", 3, 1)
    rate = float(np.mean(predicted == permuted))
    assert set(predicted) == {1.0} and rate == 9 / 12
    constant = PermutationTest("accuracy", 0.75, np.full(10, rate), n_folds=3, seed=1)
    text = render(constant)
    assert "the test cannot tell anything here" in text
    assert f"every permutation gave accuracy {rate:.4f}" in " ".join(text.split())
    spread = PermutationTest("accuracy", 0.75, np.array([0.5, 0.75, 0.6]), n_folds=3, seed=1)
    assert "cannot tell" not in render(spread)

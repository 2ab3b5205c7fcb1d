"""LIBLINEAR configurations on a Dask cluster (``client=``, ``--dask``): every task a whole
unit (a repetition of LIBLINEAR's own cross-validation, a repetition on svmeval's folds, a
warm-started search, a nested CV's outer fold), its predictions the local run's.

A local cluster of two worker processes serves the module. Oracles: the local run of the same
call or command (its bytes), and LIBLINEAR's official bindings called here (``cross_validation``
after ``srand(seed)``; ``train`` and ``predict`` fold by fold after ``srand(seed)``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from commands import run
from conftest import ROOT

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
pytest.importorskip("distributed")

from test_linear_workflows import bindings_on_folds, liblinear_cv, liblinear_folds  # noqa: E402

import svmeval  # noqa: E402
from svmeval import LinearParams  # noqa: E402
from svmeval.cv.run import cluster  # noqa: E402

#: a local Dask cluster's workers are child processes
pytestmark = pytest.mark.process

CANCER = str(ROOT / "data" / "breast_cancer.scale")
WINE = str(ROOT / "data" / "wine.scale")


@pytest.fixture(scope="module")
def client():
    with cluster.connect("local:2") as ready:
        yield ready


def _read(path):
    from liblinear import liblinearutil as ll

    y, x = ll.svm_read_problem(path)
    return np.array(y), x


def _units_run(client, call) -> int:
    """How many LIBLINEAR units the cluster's workers ran during ``call()``."""
    from svmeval.cv.run import workers

    before = client.run(workers.worker_stats)
    call()
    after = client.run(workers.worker_stats)
    return sum(after[w]["liblinear_units"] - before[w]["liblinear_units"] for w in after)


def _same(a, b) -> bool:
    """Two results with the same predictions, byte for byte."""
    return np.asarray(a.y_pred).tobytes() == np.asarray(b.y_pred).tobytes()


@pytest.mark.parametrize("options", ["-s 1", "-s 2 -B 1", "-s 4", "-s 12"])
def test_cross_validate_on_a_cluster_is_liblinears_own_cross_validation(client, options):
    """Each repetition one task: srand(seed) then cross_validation, LIBLINEAR's own."""
    from svmeval.cli.linear import linear_configuration

    params = linear_configuration(options.split(), "a")
    local = svmeval.cross_validate(CANCER, params, 5, repeat=3, keep_repeats=True)
    found = []
    ran = _units_run(
        client,
        lambda: found.append(
            svmeval.cross_validate(CANCER, params, 5, repeat=3, keep_repeats=True, client=client)
        ),
    )
    assert ran == 3  # each repetition one task
    remote = found[0]
    assert _same(remote, local)
    assert all(_same(r, q) for r, q in zip(remote.repeat_results, local.repeat_results))
    assert [r.seed for r in remote.repeat_results] == [2, 3]
    y, x = _read(CANCER)
    for seed, result in zip((1, 2, 3), (remote, *remote.repeat_results)):
        want = liblinear_cv(list(y), x, options, 5, seed)
        assert result.y_pred.tobytes() == want.tobytes()
    assert remote.fold.tolist() == liblinear_folds(len(y), 5, 1).tolist()


def _accuracies(y, pred, fold, k) -> list:
    return [float(np.mean(pred[fold == i] == y[fold == i])) for i in range(k)]


def test_two_liblinear_configurations_compared_on_a_cluster(client):
    a, b = LinearParams(), LinearParams(solver_type=2, C=2)
    local = svmeval.compare(CANCER, a, b, 5, repeat=2)
    remote = svmeval.compare(CANCER, a, b, 5, repeat=2, client=client)
    assert svmeval.render(remote, format="json") == svmeval.render(local, format="json")
    y, x = _read(CANCER)
    for values, options in ((remote.folds_a, "-s 1"), (remote.folds_b, "-s 2 -c 2")):
        want = []
        for seed in (1, 2):
            pred = liblinear_cv(list(y), x, options, 5, seed)
            want += _accuracies(y, pred, liblinear_folds(len(y), 5, seed), 5)
        assert np.ravel(values).tolist() == pytest.approx(want, rel=1e-12)


def test_two_liblinear_configurations_on_groups_on_a_cluster(client):
    """Folds of groups: each repetition LIBLINEAR's train and predict fold by fold after
    srand(seed), the unit of the local run."""
    from svmeval.cv.plan.given import fold_source
    from svmeval.cv.run.linear_folds import linear_seeded
    from svmeval.io.data import read_dataset

    groups = np.arange(569) % 7
    a, b = LinearParams(solver_type=3), LinearParams(solver_type=7, C=0.5)
    local = svmeval.compare(CANCER, a, b, 7, groups=groups, repeat=1)
    remote = svmeval.compare(CANCER, a, b, 7, groups=groups, repeat=1, client=client)
    assert svmeval.render(remote, format="json") == svmeval.render(local, format="json")
    y, x = _read(CANCER)
    plan = linear_seeded(read_dataset(CANCER), a, 7, 1, fold_source(groups, None, len(y)))
    assert [len(set(groups[plan.fold == i])) for i in range(7)] == [1] * 7  # a group a fold
    for values, options in ((remote.folds_a, "-s 3"), (remote.folds_b, "-s 7 -c 0.5")):
        pred = bindings_on_folds(y, x, options, plan.fold, 1, np.asarray(plan.folds.perm))
        want = _accuracies(y, pred, plan.fold, 7)
        assert np.ravel(values).tolist() == pytest.approx(want, rel=1e-12)


def test_a_libsvm_and_a_liblinear_configuration_compared_on_a_cluster(client):
    """The LIBLINEAR side on each LIBSVM run's folds, one task a repetition: the local
    comparison's figures."""
    from svmeval.cv.run import workers

    local = svmeval.compare(CANCER, "-t 0", LinearParams(solver_type=1), 5, repeat=2)
    before = client.run(workers.worker_stats)
    remote = svmeval.compare(
        CANCER, "-t 0", LinearParams(solver_type=1), 5, repeat=2, client=client
    )
    after = client.run(workers.worker_stats)
    ran = sum(after[w]["liblinear_units"] - before[w]["liblinear_units"] for w in after)
    assert ran == 2  # each repetition's LIBLINEAR side one task on a worker
    assert svmeval.render(remote, format="json") == svmeval.render(local, format="json")
    assert np.asarray(remote.folds_b).tobytes() == np.asarray(local.folds_b).tobytes()


def test_benchmark_permutation_test_and_threshold_on_a_cluster(client):
    configurations = ["-c 1", LinearParams(), LinearParams(solver_type=7)]
    local = svmeval.benchmark([CANCER, WINE], configurations, 3, repeat=2)
    remote = svmeval.benchmark([CANCER, WINE], configurations, 3, repeat=2, client=client)
    assert svmeval.render(remote, format="json") == svmeval.render(local, format="json")
    assert remote.values.tobytes() == local.values.tobytes()
    seen = []
    local_p = svmeval.permutation_test(CANCER, LinearParams(), 3, permutations=5)
    remote_p = svmeval.permutation_test(
        CANCER,
        LinearParams(),
        3,
        permutations=5,
        client=client,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert remote_p.permuted.tobytes() == local_p.permuted.tobytes()
    assert remote_p.observed == local_p.observed
    assert seen[-1] == (6, 6) and len(seen) == 6
    local_t = svmeval.tune_threshold(CANCER, LinearParams(solver_type=0), 3, repeat=2)
    remote_t = svmeval.tune_threshold(
        CANCER, LinearParams(solver_type=0), 3, repeat=2, client=client
    )
    assert svmeval.render(remote_t, format="json") == svmeval.render(local_t, format="json")


def test_a_search_and_a_nested_cv_on_a_cluster(client):
    """grid_search: LIBLINEAR's whole warm-started search one task; nested_cv: each outer
    fold (its inner search, then its train and predict) one task."""
    params = LinearParams(solver_type=2)
    local = svmeval.grid_search(WINE, params, 3)
    remote = svmeval.grid_search(WINE, params, 3, client=client)
    assert svmeval.render(remote) == svmeval.render(local)
    for r, q in zip(remote.cells, local.cells):
        assert r.value == q.value or (np.isnan(r.value) and np.isnan(q.value))
    local_n = svmeval.nested_cv(WINE, LinearParams(solver_type=0), 3, repeat=2)
    remote_n = svmeval.nested_cv(WINE, LinearParams(solver_type=0), 3, repeat=2, client=client)
    assert _same(remote_n.outer, local_n.outer)
    assert remote_n.outer.scores.tobytes() == local_n.outer.scores.tobytes()
    assert [f.params for f in remote_n.folds] == [f.params for f in local_n.folds]
    assert svmeval.render(remote_n, format="json") == svmeval.render(local_n, format="json")


def test_a_worker_task_holds_cs_global_state():
    """On a worker, a LIBLINEAR unit runs holding LIBSVM's lock of C's global state (as a
    -b 1 cross-validation's task does), so no other task of its threads draws from rand()."""
    from svmeval.cv import _libsvm
    from svmeval.cv.run import workers

    def owned(dataset):
        return dataset, _libsvm._STATE_LOCK._is_owned()  # type: ignore[attr-defined]

    assert workers.linear_task("run", "data", owned, ()) == ("data", True)
    assert not _libsvm._STATE_LOCK._is_owned()  # type: ignore[attr-defined]


def test_a_store_filled_on_a_cluster_is_reused_here_with_the_same_bytes(client, tmp_path):
    store = tmp_path / "runs.sqlite"
    params = LinearParams(solver_type=3)
    first = svmeval.cross_validate(CANCER, params, 5, repeat=2, store=store, client=client)
    again = svmeval.cross_validate(CANCER, params, 5, repeat=2, store=store, keep_repeats=True)
    plain = svmeval.cross_validate(CANCER, params, 5, repeat=2, keep_repeats=True)
    assert _same(first, plain) and _same(again, plain)
    assert _same(again.repeat_results[0], plain.repeat_results[0])
    with svmeval.open_store(store) as opened:
        runs = opened.runs()
    assert [(r["reused"], r["computed"]) for r in runs] == [(0, 10), (10, 0)]
    # a third run on the cluster finds every fold and sends no task
    ran = _units_run(
        client,
        lambda: svmeval.cross_validate(CANCER, params, 5, repeat=2, store=store, client=client),
    )
    assert ran == 0
    with svmeval.open_store(store) as opened:
        assert (opened.runs()[-1]["reused"], opened.runs()[-1]["computed"]) == (10, 0)


def _address(client) -> str:
    return str(client.scheduler.address)


@pytest.mark.parametrize(
    "args",
    [
        ["-v", "5", "-s", "1"],
        ["-v", "4", "-s", "4", "--repeat", "2"],
        ["-v", "5", "-s", "2", "--format", "json"],
        ["-C", "-s", "0", "-v", "3"],
    ],
)
def test_svmeval_linear_dask_prints_the_local_report(client, args):
    local = run("linear", [*args, CANCER])
    remote = run("linear", [*args, "--dask", _address(client), CANCER])
    assert local.returncode == 0, local.stderr
    assert (remote.returncode, remote.stdout, remote.stderr) == (0, local.stdout, local.stderr)


@pytest.mark.parametrize("analysis", [["--permutations", "4"], ["--threshold", "mcc"]])
def test_svmeval_linear_dask_runs_permutations_and_thresholds_on_the_cluster(client, analysis):
    args = ["-q", "-v", "5", "-s", "2", *analysis, CANCER]
    local = run("linear", args)
    assert local.returncode == 0, local.stderr
    remote = []
    ran = _units_run(
        client, lambda: remote.append(run("linear", ["--dask", _address(client), *args]))
    )
    assert (remote[0].returncode, remote[0].stdout, remote[0].stderr) == (0, local.stdout, "")
    assert ran > 0  # the cross-validations ran on the workers, not here


def test_svmeval_compare_dask_with_two_linear_configurations(client):
    args = ["-v", "4", "--format", "json", CANCER, "--", "linear:", "--", "linear:", "-c", "2"]
    local = run("compare", args)
    remote = run("compare", ["--dask", _address(client), *args])
    assert local.returncode == 0, local.stderr
    assert (remote.returncode, remote.stdout) == (0, local.stdout)
    y, x = _read(CANCER)
    fold = liblinear_folds(len(y), 4, 1)
    b = liblinear_cv(list(y), x, "-s 1 -c 2", 4, 1)
    want = [float(np.mean(b[fold == i] == y[fold == i])) for i in range(4)]
    assert json.loads(remote.stdout)["b"]["folds"][:4] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    "args, words",
    [
        (["-v", "5", "--dask", "local:abc", CANCER], "--dask local:abc: not"),
        (["-v", "5", "--dask", "local:999", CANCER], "a local cluster runs at most"),
        (["-v", "5", CANCER, "--dask"], "option --dask needs a value"),
    ],
)
def test_svmeval_linear_refuses_a_bad_dask_address_in_one_line(args, words):
    out = run("linear", args)
    assert (out.returncode, out.stdout) == (1, "")
    assert words in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr


def test_liblinear_on_svmevals_folds_on_a_cluster_fills_the_store(client, tmp_path):
    """A benchmark's LIBLINEAR repetitions computed on the cluster are written by the client
    as a local run writes them: a local run then reuses every fold, and a third run on the
    cluster sends no LIBLINEAR task."""
    store = tmp_path / "runs.sqlite"
    configurations = ["-c 1", LinearParams(solver_type=7)]
    plain = svmeval.benchmark([CANCER, WINE], configurations, 3, repeat=2)
    remote = svmeval.benchmark(
        [CANCER, WINE], configurations, 3, repeat=2, store=store, client=client
    )
    again = svmeval.benchmark([CANCER, WINE], configurations, 3, repeat=2, store=store)
    assert remote.values.tobytes() == plain.values.tobytes() == again.values.tobytes()
    with svmeval.open_store(store) as opened:
        assert [(r["reused"], r["computed"]) for r in opened.runs()] == [(0, 24), (24, 0)]
    ran = _units_run(
        client,
        lambda: svmeval.benchmark(
            [CANCER, WINE], configurations, 3, repeat=2, store=store, client=client
        ),
    )
    assert ran == 0

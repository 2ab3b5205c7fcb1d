"""Preprocessing inside the folds on a Dask cluster (two local worker processes): each fold's
predictions are those of this module's loop (tests/test_preprocess_analyses.py's
``own_cv``: svm-scale's rules and fselect.py's ranking on the fold's training rows, LIBSVM's
bindings training and predicting), whatever worker ran the fold; a results store written by
a local run is read back whole by the cluster's (the keys do not change)."""

from __future__ import annotations

import numpy as np
import pytest
from test_preprocess_analyses import K, given, own_cv

from svmeval import cross_validate, grid_search, open_store, permutation_test

import commands
from conftest import LOCAL, data_set

pytest.importorskip("distributed")
svmutil = pytest.importorskip("libsvm.svmutil")


@pytest.fixture(scope="module")
def client():
    from svmeval.cv.run import cluster

    with cluster.connect("local:2") as c:
        yield c


def test_cross_validation_folds_are_the_loops(client):
    path = data_set("parkinsons")
    y, x = svmutil.svm_read_problem(str(path))
    result = cross_validate(
        str(path), "-c 4 -g 0.1", given_folds=given(len(y)), scale=(0, 1), select=5, client=client
    )
    pred, _ = own_cv(x, np.array(y), "-c 4 -g 0.1", 0, 1, select=5)
    assert np.array_equal(result.y_pred, pred)
    assert result.preprocessing == "scale -l 0 -u 1; select 5"
    local = cross_validate(
        str(path), "-c 4 -g 0.1", given_folds=given(len(y)), scale=(0, 1), select=5
    )
    assert len(result.selected) == K
    assert all(np.array_equal(a, b) for a, b in zip(result.selected, local.selected))


@pytest.mark.parametrize("share", [False, True])
def test_grid_cells_are_the_loops(client, share):
    """share=True: each worker computes a fold's kernel matrix from the fold's rows and its
    C values of one gamma train on it."""
    path = data_set("parkinsons")
    y, x = svmutil.svm_read_problem(str(path))
    y = np.array(y)
    grid = grid_search(
        str(path),
        log2c=(1, 3, 2),
        log2g=(-1, -3, -2),
        given_folds=given(len(y)),
        scale=True,
        select=8,
        share=share,
        client=client,
    )
    assert len(grid.cells) == 4
    for cell in grid.cells:
        options = f"-c {2**cell.cell.log2c:g} -g {2**cell.cell.log2g:g}"
        pred, _ = own_cv(x, y, options, -1, 1, select=8)
        assert cell.value == pytest.approx(np.mean(pred == y))


def test_probability_runs_and_permutations_are_the_local_ones(client):
    path = str(LOCAL / "wine.scale")
    local = cross_validate(path, "-b 1 -c 2", 3, scale=(0, 1), select=6)
    remote = cross_validate(path, "-b 1 -c 2", 3, scale=(0, 1), select=6, client=client)
    assert np.array_equal(remote.y_pred, local.y_pred)
    assert np.array_equal(remote.probabilities, local.probabilities)
    y, x = svmutil.svm_read_problem(path)
    t = permutation_test(
        path, "-c 4 -g 0.2", given_folds=given(len(y)), permutations=3, seed=3, select=5,
        client=client,
    )  # fmt: skip
    rng = np.random.default_rng(3)
    orders = [np.arange(len(y))] + [rng.permutation(len(y)) for _ in range(3)]
    figures = []
    for order in orders:
        labels = np.array(y)[order]
        pred, _ = own_cv(x, labels, "-c 4 -g 0.2", select=5)
        figures.append(float(np.mean(pred == labels)))
    assert [t.observed, *t.permuted.tolist()] == figures


def test_a_local_store_serves_the_cluster_run(client, tmp_path):
    path = str(LOCAL / "breast_cancer.scale")
    with open_store(tmp_path / "runs.db") as store:
        local = cross_validate(path, "-c 2", 4, scale=True, select=5, store=store)
        assert (store.reused, store.computed) == (0, 4)
    with open_store(tmp_path / "runs.db") as store:
        again = cross_validate(path, "-c 2", 4, scale=True, select=5, store=store, client=client)
        assert (store.reused, store.computed) == (4, 0)
    assert np.array_equal(again.y_pred, local.y_pred)


def test_commands_on_a_cluster_print_the_local_report(tmp_path):
    path = LOCAL / "wine.scale"
    for command, args in (
        ("svmeval", ["-q", "-v", 3, "--scale", "--select", 6]),
        ("grid", ["-log2c", "1,3,2", "-log2g", "-1,-3,-2", "-out", "null", "--scale"]),
        ("compare", ["-q", "-v", 3, "--scale-x", "0,1", "--format", "json"]),
    ):
        tail = [path] + (["--", "-c", "1", "--", "-c", "4"] if command == "compare" else [])
        local = commands.run(command, [str(a) for a in [*args, *tail]], cwd=tmp_path)
        remote = commands.run(
            command, [str(a) for a in [*args, "--dask", "local:1", *tail]], cwd=tmp_path
        )
        assert local.returncode == remote.returncode == 0, remote.stderr
        assert remote.stdout == local.stdout, command

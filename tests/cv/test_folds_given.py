"""Folds given by the user (fold ids, a file, scikit-learn's (train, test) pairs): each fold's
predictions are LIBSVM's own training and prediction on that pair (the bindings, in the test's
loop), a run re-read from its own --folds output is the same run, and bad fold files are
refused before any work."""

from __future__ import annotations

import numpy as np
import pytest

from svmeval import cross_validate, read_dataset
from svmeval.errors import ArgumentError, DataFormatError, SvmevalError

import commands
from conftest import data_set

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")
model_selection = pytest.importorskip("sklearn.model_selection")


def libsvm_fold_by_fold(path, options: str, pairs) -> np.ndarray:
    """The oracle: for each (train, test) pair, LIBSVM's svm_train on the training rows (in
    the pair's order) and svm_predict of the test rows, by the official bindings."""
    from svmeval.cv import _libsvm

    _libsvm.set_omp_threads(1)
    y, x = svmutil.svm_read_problem(str(path))
    out = np.full(len(y), np.nan)
    for train, test in pairs:
        prob = libsvm_svm.svm_problem([y[i] for i in train], [x[i] for i in train])
        param = libsvm_svm.svm_parameter(options + " -q")
        if param.gamma == 0:
            param.gamma = 1.0 / max(max(r) if r else 0 for r in x)
        model = svmutil.svm_train(prob, param)
        pred, _, _ = svmutil.svm_predict([y[i] for i in test], [x[i] for i in test], model, "-q")
        out[np.asarray(test)] = pred
    return out


@pytest.mark.parametrize(
    ("name", "options"),
    [("heart_scale", "-c 2 -g 0.1"), ("iris.scale", "-c 4"), ("housing_scale", "-s 3 -c 4")],
)
def test_given_pairs_are_libsvms_own_training_fold_by_fold(name, options):
    path = data_set(name)
    ds = read_dataset(path)
    n = ds.n_samples
    rng = np.random.default_rng(7)
    groups = rng.integers(0, 25, n)
    pairs = list(model_selection.GroupKFold(4).split(np.zeros(n), ds.y, groups))
    result = cross_validate(path, options, given_folds=pairs)
    expected = libsvm_fold_by_fold(path, options, pairs)
    np.testing.assert_array_equal(result.y_pred, expected)
    assert result.n_folds == 4
    for i, (_, test) in enumerate(pairs):
        assert set(np.flatnonzero(result.fold == i)) == set(test.tolist())


def test_fold_ids_equal_their_pairs_and_keep_libsvm_folds_apart():
    path = data_set("heart_scale")
    ds = read_dataset(path)
    ids = np.arange(ds.n_samples) % 3 * 10  # any integers: folds in ascending order of id
    pairs = [(np.flatnonzero(ids != v), np.flatnonzero(ids == v)) for v in (0, 10, 20)]
    by_ids = cross_validate(ds, "-c 2", given_folds=ids)
    by_pairs = cross_validate(ds, "-c 2", given_folds=pairs)
    np.testing.assert_array_equal(by_ids.y_pred, by_pairs.y_pred)
    np.testing.assert_array_equal(by_ids.fold, ids // 10)
    np.testing.assert_array_equal(by_ids.y_pred, libsvm_fold_by_fold(path, "-c 2", pairs))


def test_a_run_read_back_from_its_own_folds_file_is_the_same_run(tmp_path):
    path = data_set("heart_scale")
    first = cross_validate(path, "-c 2", 5, seed=3)
    folds = tmp_path / "folds.txt"
    folds.write_text("".join(f"{f + 1}\n" for f in first.fold))
    again = cross_validate(path, "-c 2", given_folds=folds)
    # the same test rows in each fold; LIBSVM's folds train in its permuted order, given ones
    # in row order, so compare with LIBSVM's own training of each pair in that order
    np.testing.assert_array_equal(again.fold, first.fold)
    pairs = [(np.flatnonzero(first.fold != i), np.flatnonzero(first.fold == i)) for i in range(5)]
    np.testing.assert_array_equal(again.y_pred, libsvm_fold_by_fold(path, "-c 2", pairs))


def _svmeval(*args, cwd=None):
    return commands.run("svmeval", args, cwd=cwd)


def test_the_command_reads_back_its_own_folds(tmp_path):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    groups = tmp_path / "groups.txt"
    groups.write_text("".join(f"s{i // 6}\n" for i in range(n)))
    written = tmp_path / "folds.txt"
    first = _svmeval("-q", "-v", 5, "--groups", groups, "--folds", written, "-c", 2, path)
    assert first.returncode == 0, first.stderr
    again = _svmeval("-q", "--given-folds", written, "-c", 2, path)
    assert again.returncode == 0, again.stderr
    head = first.stdout.split("\nFolds:")[0]
    assert again.stdout.split("\nFolds:")[0] == head
    assert "Folds: 5, given" in again.stdout
    assert "Folds: 5, grouped" in first.stdout
    # and the same figures as LIBSVM's own training of each of those folds
    fold = np.array([int(v) for v in written.read_text().split()]) - 1
    pairs = [(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(5)]
    expected = libsvm_fold_by_fold(path, "-c 2", pairs)
    y = read_dataset(path).y
    accuracy = 100.0 * np.mean(expected == y)
    assert f"Cross Validation Accuracy = {accuracy:g}%" in first.stdout


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        (lambda n: ["1", "2"] * (n // 2 - 1), "no line for data row"),
        (lambda n: ["1", "2"] * (n // 2 + 1), "more lines than"),
        (lambda n: (["1", "3"] * n)[:n], "fold 2 has no row"),
        (lambda n: ["1", "x"] + ["2"] * (n - 2), ":2: fold 'x' is not a fold number"),
        (lambda n: ["1", "0"] + ["2"] * (n - 2), ":2: fold '0' is not a fold number"),
        (lambda n: ["1", ""] + ["2"] * (n - 2), ":2: empty line"),
        (lambda n: ["1"] * n, "1 fold: cross-validation needs at least 2"),
    ],
)
def test_bad_fold_files_are_refused_before_any_work(tmp_path, lines, where):
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    bad = tmp_path / "bad folds.txt"
    bad.write_text("".join(f"{v}\n" for v in lines(n)))
    before = bad.read_bytes()
    with pytest.raises(DataFormatError, match=where):
        cross_validate(path, given_folds=bad)
    out = tmp_path / "predictions.txt"
    done = _svmeval("--given-folds", bad, "--predictions", out, path)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "bad folds.txt" in done.stderr and where.lstrip(":") in done.stderr
    assert not out.exists() and done.stdout == ""
    assert bad.read_bytes() == before


def test_a_fold_whose_training_side_has_one_class_is_refused(tmp_path):
    path = data_set("heart_scale")
    y = read_dataset(path).y
    fold = np.where(y > 0, 1, 2)  # fold 1 tests every +1 row: it trains on -1 rows only
    bad = tmp_path / "folds.txt"
    bad.write_text("".join(f"{v}\n" for v in fold))
    first_plus = int(np.flatnonzero(y > 0)[0]) + 1  # the file's line of fold 1's first row
    with pytest.raises(DataFormatError, match=rf":{first_plus}: fold 1's training rows hold"):
        cross_validate(path, given_folds=bad)
    with pytest.raises(ArgumentError, match="one class only"):
        cross_validate(path, given_folds=fold)


def test_pairs_that_do_not_partition_the_rows_are_refused():
    path = data_set("heart_scale")
    n = read_dataset(path).n_samples
    rows = np.arange(n)
    overlapping = [(rows[n // 2 + 1 :], rows[: n // 2 + 1]), (rows[: n // 2], rows[n // 2 :])]
    with pytest.raises(ArgumentError, match="tested twice"):
        cross_validate(path, given_folds=overlapping)
    short = list(model_selection.TimeSeriesSplit(3).split(rows))
    with pytest.raises(ArgumentError, match="must partition|every row its test set leaves out"):
        cross_validate(path, given_folds=short)
    with pytest.raises(ArgumentError, match="has 10 entries; the data have"):
        cross_validate(path, given_folds=np.arange(10) % 2)
    with pytest.raises(SvmevalError, match="not both"):
        cross_validate(path, groups=rows, given_folds=rows % 2)


def test_a_splitter_itself_is_refused_with_what_to_give():
    with pytest.raises(ArgumentError, match=r"not a splitter: give splitter.split\(X, y\)"):
        cross_validate(data_set("heart_scale"), given_folds=model_selection.KFold(3))


@pytest.mark.parametrize(("name", "options"), [("iris.scale", "-c 4"), ("housing_scale", "-s 3")])
def test_a_grouped_run_read_back_from_its_folds_is_bit_identical(name, options, tmp_path):
    path = data_set(name)
    n = read_dataset(path).n_samples
    first = cross_validate(path, options, 5, groups=np.arange(n) // 3, seed=2)
    folds = tmp_path / "folds.txt"
    folds.write_text("".join(f"{f + 1}\n" for f in first.fold))
    again = cross_validate(path, options, given_folds=folds)
    np.testing.assert_array_equal(again.fold, first.fold)
    np.testing.assert_array_equal(again.y_pred, first.y_pred)
    for field in ("decision_values", "scores"):
        a, b = getattr(first, field), getattr(again, field)
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a, b)

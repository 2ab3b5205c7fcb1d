"""Groups and given folds in binary-relevance cross-validation (--multilabel): every label on
the same folds, groups kept whole (checked on the folds the run used), each label's
predictions LIBSVM's own training and prediction on each (train, test) pair by the bindings,
the label sets balanced over the folds, bad files refused before any work."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from test_multilabel_cv import PARAMS, options_of, rows_as_dicts, yeast_head

from svmeval import ArgumentError, summarize
from svmeval.cv.multilabel import cross_validate_multilabel
from svmeval.io.data import read_dataset
from svmeval.io.label_sets import dataset_indicator
from svmeval.report.multilabel import render

import commands

svmutil = pytest.importorskip("libsvm.svmutil")


@pytest.fixture(scope="module")
def yeast(tmp_path_factory):
    path = yeast_head(tmp_path_factory.mktemp("yeast"), 240)
    return path, read_dataset(path, multilabel=True)


def _groups(n: int) -> np.ndarray:
    return np.array([f"s{(i * 13) % 40}" for i in range(n)])  # 40 groups of 6, interleaved


def _libsvm_by_pairs(ds, pairs, labels) -> np.ndarray:
    """The oracle: for each label, svm_train on each pair's training rows and svm_predict
    of its test rows, by the official bindings; the predicted indicator columns."""
    x = rows_as_dicts(ds)
    Y, _ = dataset_indicator(ds)
    out = np.full((ds.n_samples, len(labels)), -1, dtype=np.int8)
    options = options_of(PARAMS, ds) + " -q"
    for c, j in enumerate(labels):
        y = np.where(Y[:, j] == 1, 1.0, -1.0)
        for train, test in pairs:
            model = svmutil.svm_train([y[t] for t in train], [x[t] for t in train], options)
            p, _, _ = svmutil.svm_predict([y[t] for t in test], [x[t] for t in test], model, "-q")
            out[test, c] = np.array(p) == 1.0
    return out


def _pairs(fold: np.ndarray) -> list:
    return [(np.flatnonzero(fold != f), np.flatnonzero(fold == f)) for f in np.unique(fold)]


def test_grouped_folds_keep_groups_whole_and_each_label_is_libsvms_own(yeast):
    _, ds = yeast
    groups = _groups(ds.n_samples)
    r = cross_validate_multilabel(ds, PARAMS, 4, groups=groups, seed=2)
    assert r.n_folds == 4 and r.folds.source is not None and r.folds.source.grouped
    for f in range(4):  # no group on both sides of a fold (the folds the run used)
        assert not set(groups[r.fold == f]) & set(groups[r.fold != f])
    labels = [0, 3, 11]
    np.testing.assert_array_equal(r.Y_pred[:, labels], _libsvm_by_pairs(ds, _pairs(r.fold), labels))
    again = cross_validate_multilabel(ds, PARAMS, 4, groups=groups, seed=2)
    np.testing.assert_array_equal(again.fold, r.fold)  # the same folds for the same seed
    other = cross_validate_multilabel(ds, PARAMS, 4, groups=groups, seed=3)
    assert not np.array_equal(other.fold, r.fold)


def test_given_folds_are_every_labels_folds_and_libsvms_own_training(yeast):
    _, ds = yeast
    fold = (np.arange(ds.n_samples) * 7) % 3
    r = cross_validate_multilabel(ds, PARAMS, given_folds=fold)
    np.testing.assert_array_equal(r.fold, fold)
    labels = [1, 5, 12]
    np.testing.assert_array_equal(r.Y_pred[:, labels], _libsvm_by_pairs(ds, _pairs(fold), labels))
    summary = summarize(r)
    assert summary.meta["fold_source"]["kind"] == "given"
    Y, _ = dataset_indicator(ds)
    want = [Y[fold == f].sum(axis=0).tolist() for f in range(3)]
    assert json.loads(render(summary, format="json"))["fold_source"]["fold_class_counts"] == want
    text = render(summary)
    assert "Folds: 3, given (not LIBSVM's)" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_one_row_groups_balance_the_label_sets_over_the_folds(yeast):
    """Each row's label set is its class: with one row a group, every label set's rows are
    spread over the folds within one row of an even share."""
    _, ds = yeast
    Y, _ = dataset_indicator(ds)
    r = cross_validate_multilabel(ds, PARAMS, 5, groups=np.arange(ds.n_samples))
    sets = np.unique(Y, axis=0, return_inverse=True)[1].reshape(-1)
    for s in np.unique(sets):
        per_fold = np.bincount(r.fold[sets == s], minlength=5)
        assert per_fold.max() - per_fold.min() <= 1, (s, per_fold)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"groups": ["a", "b"] * 119}, "has 238 entries; the data have 240 rows"),
        ({"groups": ["a", "b", "c"] * 80, "folds": 4}, "4 folds need at least 4 groups"),
        ({"given_folds": [0] * 240}, "1 fold: cross-validation needs at least 2"),
        ({"groups": ["a"] * 240, "given_folds": [0, 1] * 120}, "not both"),
    ],
)
def test_bad_groups_and_folds_refused_before_any_task(yeast, kwargs, words, monkeypatch):
    from svmeval.cv import multilabel

    def never(*args, **kwargs):  # pragma: no cover - the check comes first
        raise AssertionError("a task ran")

    monkeypatch.setattr(multilabel, "run_tasks", never)
    _, ds = yeast
    with pytest.raises(ArgumentError) as error:
        cross_validate_multilabel(ds, PARAMS, **{"folds": 3, **kwargs})
    assert words in str(error.value) and "\n" not in str(error.value)


def _svmeval(args, cwd) -> subprocess.CompletedProcess:
    return commands.run("svmeval", ["-q", "--multilabel", *args], cwd=cwd)


def test_the_command_takes_groups_and_refuses_a_short_file_before_any_output(yeast, tmp_path):
    path, ds = yeast
    groups = _groups(ds.n_samples)
    (tmp_path / "g").write_text("".join(f"{g}\n" for g in groups))
    done = _svmeval(
        ["-v", "4", "--seed", "2", "--groups", "g", "-c", "4", "-g", "0.1", str(path)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Folds: 4, grouped: 40 groups, none split" in done.stdout
    library = cross_validate_multilabel(ds, PARAMS, 4, groups=groups, seed=2)
    subset = summarize(library).figures["subset_accuracy"]
    assert f"Subset Accuracy = {100 * subset:g}%" in done.stdout
    (tmp_path / "short").write_text("".join(f"{g}\n" for g in groups[:-1]))
    out = tmp_path / "pred.txt"
    done = _svmeval(
        ["-v", "4", "--groups", "short", "--predictions", str(out), str(path)], tmp_path
    )
    assert done.returncode == 1 and done.stdout == "" and not out.exists()
    assert (
        done.stderr
        == "svmeval: short:240: no line for data row 240 (the file has 239, the data 240)\n"
    )


def test_a_store_keys_multilabel_units_by_their_folds(yeast, tmp_path):
    path, ds = yeast
    store = tmp_path / "runs.sqlite"
    groups = _groups(ds.n_samples)
    plain = cross_validate_multilabel(path, PARAMS, 4, store=store)
    grouped = cross_validate_multilabel(path, PARAMS, 4, groups=groups, store=store)
    alone = cross_validate_multilabel(path, PARAMS, 4, groups=groups)
    np.testing.assert_array_equal(grouped.fold, alone.fold)
    np.testing.assert_array_equal(grouped.Y_pred, alone.Y_pred)  # not LIBSVM's folds' units
    assert not np.array_equal(grouped.fold, plain.fold)


def test_a_grouped_run_read_back_from_its_own_folds_file_is_the_same_run(yeast, tmp_path):
    path, ds = yeast
    (tmp_path / "g").write_text("".join(f"{g}\n" for g in _groups(ds.n_samples)))
    first = _svmeval(
        ["-v", "4", "--groups", "g", "--folds", "used", "--predictions", "p1", str(path)], tmp_path
    )
    again = _svmeval(["--given-folds", "used", "--predictions", "p2", str(path)], tmp_path)
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    used = np.loadtxt(tmp_path / "used", dtype=int)
    assert set(used.tolist()) == {1, 2, 3, 4}
    assert (tmp_path / "p1").read_text() == (tmp_path / "p2").read_text()
    assert first.stdout.split("binary")[0] == again.stdout.split("binary")[0]

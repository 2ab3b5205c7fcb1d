"""Scaling and selection inside the folds of a permutation test and of a tuned threshold,
against a loop of this module's own: each fold's training rows scaled by svm-scale's rules
written out here (ranges over the training rows, an absent feature counting as 0, a feature
of one value dropped, the bounds set exactly, each value read back from ``%g``), its test rows
with those factors, features kept by fselect.py's F-score (tests/test_preprocess_cv.py's
``fselect_top``, on the fold's scaled training rows and its labels), a model trained and its
test rows predicted by LIBSVM's bindings.

The folds are the test's own (``given_folds``: row i in fold i % K), the same for every
permutation (the labels permuted over every row, numpy's ``default_rng(seed).permutation``
as documented)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_preprocess_cv import fselect_top

from svmeval import cross_validate, permutation_test, tune_threshold
from svmeval.io.data import rows_of
from svmeval.workflows.threshold import positive_scores
from svmeval.workflows.threshold_rules import choose_threshold, parse_criterion

import commands
from conftest import LOCAL

svmutil = pytest.importorskip("libsvm.svmutil")

K = 3


def own_scaling(train_rows, test_rows, lower, upper):
    """svm-scale -s on ``train_rows`` then -r on both (dict rows), by svm-scale.c's rules."""
    width = max((f for row in train_rows for f in row), default=0)

    def column(rows, f):
        return [row.get(f, 0.0) for row in rows]

    kept = {}
    for f in range(1, width + 1):
        values = column(train_rows, f)
        lo, hi = min(values), max(values)
        if lo != hi:
            kept[f] = (lo, hi)

    def scaled(row):
        out = {}
        for f, (lo, hi) in kept.items():
            v = row.get(f, 0.0)
            if v == lo:
                s = float(lower)
            elif v == hi:
                s = float(upper)
            else:
                s = lower + (upper - lower) * (v - lo) / (hi - lo)
            s = float(f"{s:g}")  # svm-scale's output, read back by svm-train
            if s != 0:
                out[f] = s
        return out

    return [scaled(r) for r in train_rows], [scaled(r) for r in test_rows]


def own_cv(x, y, options, lower=None, upper=None, select=None):
    """Each row's prediction and decision value by the fold loop (module notes)."""
    from svmeval.cv import _libsvm

    n = len(y)
    fold = np.arange(n) % K
    pred, dec = np.empty(n), np.empty(n)
    for i in range(K):
        train, test = np.flatnonzero(fold != i), np.flatnonzero(fold == i)
        tx, vx = [x[j] for j in train], [x[j] for j in test]
        if lower is not None:
            tx, vx = own_scaling(tx, vx, lower, upper)
        ty = [float(y[j]) for j in train]
        if select is not None:
            keep = fselect_top(ty, tx, select)
            tx = [{f: v for f, v in row.items() if f in keep} for row in tx]
            vx = [{f: v for f, v in row.items() if f in keep} for row in vx]
        _libsvm.set_omp_threads(1)
        model = svmutil.svm_train(ty, tx, options + " -q")
        p, _, d = svmutil.svm_predict([float(y[j]) for j in test], vx, model, "-q")
        pred[test] = p
        if len(d) and len(d[0]) == 1:
            dec[test] = [v[0] for v in d]
    return pred, dec


def given(n):
    return np.arange(n) % K + 1


def test_each_permutation_preprocesses_inside_its_folds():
    path = str(LOCAL / "wine.scale")
    y, x = svmutil.svm_read_problem(path)
    y = np.array(y)
    options = "-c 4 -g 0.2"
    t = permutation_test(
        path,
        options,
        given_folds=given(len(y)),
        permutations=4,
        seed=3,
        scale=(0, 1),
        select=5,
    )
    rng = np.random.default_rng(3)
    orders = [np.arange(len(y))] + [rng.permutation(len(y)) for _ in range(4)]
    figures = []
    for order in orders:
        labels = y[order]
        pred, _ = own_cv(x, labels, options, 0, 1, select=5)
        figures.append(float(np.mean(pred == labels)))
    assert t.observed == figures[0]
    assert t.permuted.tolist() == figures[1:]
    assert not t.shared_kernel  # each fold's rows its own
    assert t.to_dict()["preprocessing"] == "scale -l 0 -u 1; select 5"


def test_permutations_without_preprocessing_keep_their_report():
    path = str(LOCAL / "wine.scale")
    t = permutation_test(path, "-c 4", 3, permutations=3)
    assert "preprocessing" not in t.to_dict()


def test_the_threshold_is_tuned_on_preprocessed_folds():
    path = str(LOCAL / "breast_cancer.scale")
    y, x = svmutil.svm_read_problem(path)
    y = np.array(y)
    options = "-c 2 -g 0.05"
    t = tune_threshold(
        path, options, given_folds=given(len(y)), inner_folds=3, seed=2, scale=(0, 1), select=4
    )
    pred, dec = own_cv(x, y, options, 0, 1, select=4)
    assert np.array_equal(t.cv.y_pred, pred)
    positive = t.positive
    # the same decision values (each fold's model orders its classes as its rows come)
    assert np.allclose(np.abs(t.cv.decision_values[:, 0]), np.abs(dec), rtol=1e-12)
    # each outer fold's inner cross-validation learned the preprocessing on its own folds
    from svmeval.io.data import read_dataset

    dataset = read_dataset(path)
    parsed = parse_criterion("f1")
    for outer in t.folds:
        inner = cross_validate(
            rows_of(dataset, outer.train_rows), options, 3, seed=2, scale=(0, 1), select=4
        )
        threshold, value = choose_threshold(
            inner.y_true == positive, positive_scores(inner, positive), parsed, 0.0
        )
        assert (outer.threshold, outer.inner_value) == (threshold, value)
    plain = tune_threshold(path, options, given_folds=given(len(y)), inner_folds=3, seed=2)
    assert [f.threshold for f in plain.folds] != [f.threshold for f in t.folds]
    assert t.to_dict()["preprocessing"] == "scale -l 0 -u 1; select 4"
    assert "preprocessing" not in plain.to_dict()


def svmeval(*args, cwd=None):
    return commands.run("svmeval", [str(a) for a in args], cwd=cwd)


def test_command_line_permutations_with_scale(tmp_path):
    path = LOCAL / "wine.scale"
    out = svmeval("-q", "-v", 3, "--permutations", 3, "--scale-x", "0,1", "--format", "json", path)
    assert out.returncode == 0, out.stderr
    library = permutation_test(str(path), None, 3, permutations=3, scale=(0, 1))
    got = json.loads(out.stdout)
    assert got["permuted"] == library.permuted.tolist()
    assert got["observed"] == library.observed
    text = svmeval("-q", "-v", 3, "--permutations", 3, "--select", 4, path)
    assert text.returncode == 0, text.stderr
    assert "learned on each fold's training rows, in every cross-validation: select 4" in (
        text.stdout.replace("\n   ", "")
    )
    assert max(len(line) for line in text.stdout.splitlines()) <= 80


def test_command_line_threshold_with_scale():
    path = LOCAL / "breast_cancer.scale"
    out = svmeval("-q", "-v", 3, "--threshold", "mcc", "--scale", "--format", "json", path)
    assert out.returncode == 0, out.stderr
    library = tune_threshold(str(path), None, 3, inner_folds=3, criterion="mcc", scale=True)
    got = json.loads(out.stdout)
    assert got["preprocessing"] == "scale -l -1 -u 1"
    assert got["honest"] == json.loads(json.dumps(library.to_dict()))["honest"]
    text = svmeval("-q", "-v", 3, "--threshold", "mcc", "--scale", path)
    assert text.returncode == 0 and "scale -l -1 -u 1" in text.stdout
    assert max(len(line) for line in text.stdout.splitlines()) <= 80


@pytest.mark.parametrize(
    "args, message",
    [
        (["--permutations", "3", "--scale", "--leak"], "svmeval: --scale: not with --perm"),
        (["--threshold", "f1", "--select", "2", "--leak"], "svmeval: --select: not with --thr"),
        (["--permutations", "3", "-s", "3", "--select", "2"], "svmeval: --select ranks"),
    ],
)
def test_bad_combinations_are_one_line(args, message):
    out = svmeval("-v", 3, *args, LOCAL / "breast_cancer.scale")
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1, out.stderr


@pytest.mark.parametrize("run", ["permutation", "threshold"])
@pytest.mark.parametrize("kwargs", [{"scale": True}, {"select": 3}])
def test_a_linear_configuration_refuses_preprocessing_by_name(run, kwargs):
    """LIBLINEAR's folds learn nothing: scale= and select= are refused by name, as
    cross_validate refuses them, before any fold."""
    pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings")
    from svmeval import ArgumentError, LinearParams

    path = str(LOCAL / "breast_cancer.scale")
    call = permutation_test if run == "permutation" else tune_threshold
    extra = {"permutations": 2} if run == "permutation" else {}
    with pytest.raises(ArgumentError) as caught:
        call(path, LinearParams(solver_type=2), 3, **extra, **kwargs)
    assert caught.value.argument == next(iter(kwargs))
    assert "LinearParams" in str(caught.value)

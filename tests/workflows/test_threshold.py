"""A tuned decision threshold against a computation written here with LIBSVM's own bindings.

The oracle: LIBSVM's folds drawn as svm.cpp's svm_cross_validation draws them after srand(S)
(test_nested.py's transcription, itself checked there against svm_cross_validation), each
fold's model trained with ``svm_train`` on ``perm[0:begin] + perm[end:l]`` and its decision
values (or -b 1 probabilities) from ``svm_predict``; each outer training set's inner
cross-validation the same way on its rows after srand(S); the thresholds by a brute-force scan
in numpy (every candidate, every sample compared); the figures at every operating point from
scikit-learn's f1_score, matthews_corrcoef, balanced_accuracy_score.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from test_nested import LIBC, one_openmp_thread, svm_cpp_folds

from svmeval.errors import ArgumentError, DataFormatError, SvmevalError
from svmeval.io.data import read_dataset
from svmeval.metrics.agreement import mcc_of_counts
from svmeval.workflows.threshold import tune_threshold

import commands
from conftest import LOCAL, data_set, libsvm_folds_warning, shared_file

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")
metrics = pytest.importorskip("sklearn.metrics")


# --- the oracle ---------------------------------------------------------------------------------
def oracle_cv_scores(y, x, options, k, seed, positive, probability):
    """The positive class's CV score of each sample, as svm_cross_validation's folds give them."""
    LIBC.srand(seed)
    perm, fold_start = svm_cpp_folds(y, k, stratified=True)
    scores = np.empty(len(y))
    for i in range(k):
        b, e = fold_start[i], fold_start[i + 1]
        train, test = perm[:b] + perm[e:], perm[b:e]
        model = svmutil.svm_train([y[j] for j in train], [x[j] for j in train], options + " -q")
        flag = "-b 1 -q" if probability else "-q"
        _, _, values = svmutil.svm_predict([y[j] for j in test], [x[j] for j in test], model, flag)
        order = model.get_labels()
        column = order.index(int(positive))
        for j, v in zip(test, values):
            scores[j] = v[column] if probability else (v[0] if column == 0 else -v[0])
    return scores, perm, fold_start


def criterion_value(name, tp, fp, fn, tn, costs=None):
    if name == "f1":
        return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 0.0
    if name == "mcc":
        d = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        return (tp * tn - fp * fn) / d if d else 0.0
    if name == "balanced_accuracy":
        return (tp / (tp + fn) + tn / (tn + fp)) / 2
    return costs[0] * fp + costs[1] * fn


def oracle_threshold(is_pos, scores, name, default, costs=None):
    """Every candidate (+inf, each midpoint of adjacent distinct scores, -inf) tried on every
    sample; best value, then nearest ``default``, then lower."""
    distinct = np.unique(scores)[::-1]
    candidates = [math.inf] + [(a + b) / 2 for a, b in zip(distinct[:-1], distinct[1:])]
    candidates.append(-math.inf)
    t = np.array(candidates)
    predicted = scores[None, :] >= t[:, None]
    tp = (predicted & is_pos).sum(1)
    fp = (predicted & ~is_pos).sum(1)
    fn = (~predicted & is_pos).sum(1)
    tn = (~predicted & ~is_pos).sum(1)
    values = np.array(
        [criterion_value(name, *c, costs) for c in zip(tp.tolist(), fp.tolist(), fn, tn)]
    )
    best = values.min() if name == "cost" else values.max()
    tied = [(abs(t[i] - default), t[i], values[i]) for i in np.flatnonzero(values == best)]
    _, threshold, value = min(tied)
    return float(threshold), float(value)


def oracle_tuning(path, options, k, inner_k, seed, name, positive, probability, costs=None):
    one_openmp_thread()
    y, x = svmutil.svm_read_problem(str(path))
    n_features = max(max(row) for row in x if row)
    options = f"{options} -g {1.0 / n_features!r}" if " -g " not in f" {options} " else options
    default = 0.5 if probability else 0.0
    y_arr = np.array(y)
    scores, perm, fold_start = oracle_cv_scores(y, x, options, k, seed, positive, probability)
    threshold, value = oracle_threshold(y_arr == positive, scores, name, default, costs)
    honest = np.empty(len(y), dtype=bool)
    fold_thresholds = []
    for i in range(k):
        b, e = fold_start[i], fold_start[i + 1]
        train, test = perm[:b] + perm[e:], perm[b:e]
        ytr, xtr = [y[j] for j in train], [x[j] for j in train]
        inner, _, _ = oracle_cv_scores(ytr, xtr, options, inner_k, seed, positive, probability)
        t, _ = oracle_threshold(np.array(ytr) == positive, inner, name, default, costs)
        fold_thresholds.append(t)
        honest[test] = scores[test] >= t
    return {
        "y": y_arr,
        "scores": scores,
        "threshold": threshold,
        "value": value,
        "fold_thresholds": fold_thresholds,
        "honest": honest,
    }


def sklearn_figures(y_true_pos, y_pred_pos):
    yt, yp = y_true_pos.astype(int), y_pred_pos.astype(int)
    return {
        "accuracy": metrics.accuracy_score(yt, yp),
        "precision": metrics.precision_score(yt, yp, zero_division=0),
        "recall": metrics.recall_score(yt, yp, zero_division=0),
        "f1": metrics.f1_score(yt, yp, zero_division=0),
        "mcc": metrics.matthews_corrcoef(yt, yp),
        "balanced_accuracy": metrics.balanced_accuracy_score(yt, yp),
    }


def assert_figures(figures, expected):
    for name, value in expected.items():
        assert figures[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name


CASES = [
    ("heart_scale", "", "f1", None, False),
    ("heart_scale", "-c 4", "mcc", None, False),
    ("heart_scale", "-b 1", "cost:1,5", (1.0, 5.0), True),
    ("heart_scale", "-c 0.5", "cost:1,1", (1.0, 1.0), False),  # many tied thresholds
    ("ijcnn1.t.head1500", "", "f1", None, False),
    ("ijcnn1.t.head1500", "-c 8", "balanced_accuracy", None, False),
]


@pytest.mark.parametrize("name, options, criterion, costs, probability", CASES)
def test_threshold_and_nested_estimate_equal_libsvms_bindings_and_numpy(
    name, options, criterion, costs, probability
):
    if name.startswith("ijcnn1"):  # the first 1,500 rows of LIBSVM's ijcnn1.t (9 % positive)
        path = shared_file("data", name)
    else:
        path = data_set(name)
    k, inner_k, seed = 5, 4, 3
    result = tune_threshold(
        read_dataset(str(path)), options, k, criterion=criterion, inner_folds=inner_k, seed=seed
    )
    positive = result.positive
    assert positive == 1.0  # the default: class 1 of -1/+1 data
    want = oracle_tuning(
        path, options, k, inner_k, seed, criterion.split(":")[0], positive, probability, costs
    )
    np.testing.assert_array_equal(result.positive_scores(), want["scores"])
    assert result.threshold == want["threshold"]
    assert result.value == pytest.approx(want["value"], rel=1e-12)
    assert [f.threshold for f in result.folds] == want["fold_thresholds"]
    np.testing.assert_array_equal(result.honest_pred == positive, want["honest"])
    # every operating point's figures are scikit-learn's
    is_pos = want["y"] == positive
    assert_figures(result.libsvm, sklearn_figures(is_pos, result.cv.y_pred == positive))
    assert_figures(result.tuned, sklearn_figures(is_pos, want["scores"] >= want["threshold"]))
    assert_figures(result.honest, sklearn_figures(is_pos, want["honest"]))
    for f in result.folds:
        rows = f.test_rows
        assert_figures(f.figures, sklearn_figures(is_pos[rows], want["honest"][rows]))
    # the tuned threshold is at least as good as LIBSVM's own on the scores that chose it
    better = (lambda a, b: a >= b) if result.greater_is_better else (lambda a, b: a <= b)
    assert better(result.tuned["criterion"], result.libsvm["criterion"])


@pytest.mark.parametrize(
    "options, criterion, costs, probability, seed, seeds",
    [
        ("-c 4", "mcc", None, False, 3, [3, 4, 5]),
        ("-b 1", "cost:1,5", (1.0, 5.0), True, 7, [7, 8]),
        ("", "f1", None, False, 0, [0, 2]),  # glibc's srand(0) is srand(1): seed 1 skipped
    ],
)
def test_each_repetition_and_the_spread_equal_libsvms_bindings_and_numpy(
    options, criterion, costs, probability, seed, seeds
):
    """repeat R: repetition r is the whole estimate of seed s_r (outer folds, pooled
    threshold, every inner CV after srand(s_r)); the spread is numpy's mean and sd (n - 1)
    of scikit-learn's figures of each repetition's predictions."""
    path = data_set("heart_scale")
    k, inner_k = 4, 3
    result = tune_threshold(
        str(path),
        options,
        k,
        criterion=criterion,
        inner_folds=inner_k,
        seed=seed,
        repeat=len(seeds),
    )
    assert result.repeat == len(seeds) and [r.seed for r in result.repetitions] == seeds
    name = criterion.split(":")[0]
    figures = {"libsvm": [], "tuned": [], "honest": []}
    thresholds, values = [], {"libsvm": [], "tuned": [], "honest": []}
    for run, s in zip(result.repetitions, seeds):
        want = oracle_tuning(path, options, k, inner_k, s, name, 1.0, probability, costs)
        np.testing.assert_array_equal(run.positive_scores(), want["scores"])
        assert run.threshold == want["threshold"]
        assert [f.threshold for f in run.folds] == want["fold_thresholds"]
        np.testing.assert_array_equal(run.honest_pred == 1.0, want["honest"])
        is_pos = want["y"] == 1.0
        predicted = {
            "libsvm": run.cv.y_pred == 1.0,
            "tuned": want["scores"] >= want["threshold"],
            "honest": want["honest"],
        }
        thresholds.append(want["threshold"])
        for point, pred in predicted.items():
            expected = sklearn_figures(is_pos, pred)
            assert_figures(getattr(run, point), expected)
            figures[point].append(expected)
            counts = [int(np.sum(a & b)) for a, b in ((pred, is_pos), (pred, ~is_pos))]
            tp, fp = counts
            fn, tn = int(is_pos.sum()) - tp, int((~is_pos).sum()) - fp
            values[point].append(criterion_value(name, tp, fp, fn, tn, costs))
    spread = result.spread()
    assert spread["threshold"]["mean"] == pytest.approx(np.mean(thresholds), rel=1e-12)
    assert spread["threshold"]["sd"] == pytest.approx(np.std(thresholds, ddof=1), rel=1e-12)
    assert (spread["threshold"]["min"], spread["threshold"]["max"]) == (
        min(thresholds),
        max(thresholds),
    )
    for point in figures:
        for figure in figures[point][0]:
            got = spread[point][figure]
            series = [f[figure] for f in figures[point]]
            assert got["mean"] == pytest.approx(np.mean(series), rel=1e-12, abs=1e-15)
            assert got["sd"] == pytest.approx(np.std(series, ddof=1), rel=1e-9, abs=1e-15)
            assert (got["min"], got["max"]) == pytest.approx((min(series), max(series)))
        assert spread[point]["criterion"]["mean"] == pytest.approx(np.mean(values[point]))
    # the JSON: the first repetition at the top, the others in repeat_results
    doc = result.to_dict()
    assert doc["repeat"] == len(seeds) and doc["seed"] == seeds[0]
    assert [r["seed"] for r in doc["repeat_results"]] == seeds[1:]
    assert [r["repetition"] for r in doc["repeat_results"]] == list(range(2, len(seeds) + 1))
    for r, run in zip(doc["repeat_results"], result.repeat_results):
        assert r["tuned"]["threshold"] == run.threshold
        assert [f["threshold"] for f in r["folds"]] == run.thresholds.tolist()


def test_one_repetition_has_an_undefined_spread():
    t = tune_threshold(HEART, folds=3, inner_folds=3, criterion="mcc")
    assert t.repeat == 1 and t.repeat_results == () and t.repetitions == (t,)
    spread = t.spread()
    assert spread["threshold"]["mean"] == t.threshold and math.isnan(spread["threshold"]["sd"])
    assert spread["honest"]["mcc"]["mean"] == t.honest["mcc"]
    doc = t.to_dict()
    assert doc["repeat"] == 1 and doc["repeat_results"] == []
    assert doc["spread"]["honest"]["f1"]["sd"] is None


@pytest.mark.parametrize("criterion", ["f1", "mcc", "balanced_accuracy", "cost:1,1", "cost:2,3"])
@pytest.mark.parametrize("seed", range(4))
def test_ties_go_to_the_threshold_nearest_libsvms_then_the_lower(criterion, seed):
    """Scores with many repeats and criteria with many equal values: the scan against the
    brute-force oracle, tie rule included."""
    from svmeval.workflows.threshold import choose_threshold, parse_criterion

    rng = np.random.default_rng(seed)
    scores = rng.integers(-4, 5, 40) / 2.0
    is_pos = rng.random(40) < 0.4
    name, _, rest = criterion.partition(":")
    costs = tuple(float(c) for c in rest.split(",")) if rest else None
    for default in (0.0, 0.5, -3.0):
        got = choose_threshold(is_pos, scores, parse_criterion(criterion), default)
        assert got == pytest.approx(oracle_threshold(is_pos, scores, name, default, costs))
        assert got[0] == oracle_threshold(is_pos, scores, name, default, costs)[0]


def test_of_two_tied_thresholds_as_near_as_each_other_the_lower_wins():
    from svmeval.workflows.threshold import choose_threshold, parse_criterion

    # cost 1,1: threshold 2 (one false negative) and -2 (one false positive) both cost 1
    scores, is_pos = np.array([3.0, 1.0, -1.0, -3.0]), np.array([True, False, True, False])
    assert choose_threshold(is_pos, scores, parse_criterion("cost:1,1"), 0.0) == (-2.0, 1.0)
    assert choose_threshold(is_pos, scores, parse_criterion("cost:1,1"), 1.5) == (2.0, 1.0)
    # every sample positive and none cost the same here: -inf is the lower
    t = choose_threshold(
        np.array([True, False]), np.array([-1.0, 1.0]), parse_criterion("cost:1,1"), 0
    )
    assert t == (-math.inf, 1.0)


def test_a_real_imbalanced_set_gains_from_the_threshold():
    """ijcnn1's first rows with svm-train's defaults: LIBSVM predicts no positive at all; the
    honest F1 at a tuned threshold is far above 0 (and below the optimistic one there)."""
    path = shared_file("data", "ijcnn1.t.head1500")
    result = tune_threshold(str(path), criterion="f1", folds=5, inner_folds=5)
    assert result.libsvm["tp"] + result.libsvm["fp"] == 0 and result.libsvm["f1"] == 0
    assert result.honest["f1"] > 0.5
    assert result.threshold < 0


def test_f1_of_a_chosen_class_makes_it_the_positive_one():
    path = data_set("heart_scale")
    minus = tune_threshold(str(path), criterion="f1:-1", folds=3, inner_folds=3)
    assert (minus.positive, minus.negative) == (-1.0, 1.0)
    np.testing.assert_array_equal(minus.positive_scores(), -minus.cv.scores[:, 0])
    same = tune_threshold(str(path), criterion="f1", pos_label=-1, folds=3, inner_folds=3)
    assert same.threshold == minus.threshold and same.criterion == "f1"
    assert minus.criterion == "f1:-1"


# --- bad input: typed errors, one line ------------------------------------------------------------
WINE, HEART = str(LOCAL / "wine.scale"), str(data_set("heart_scale"))


@pytest.mark.parametrize(
    "args, kwargs, argument, text",
    [
        ((WINE,), {}, "data", "needs two classes; the data have 3"),
        ((HEART, "-s 3"), {}, "params", "regression"),
        ((HEART, "-s 2"), {}, "params", "one-class"),
        ((HEART,), {"criterion": "cost:1"}, "criterion", "two numbers of 0 or more"),
        ((HEART,), {"criterion": "cost:1,-2"}, "criterion", "two numbers of 0 or more"),
        ((HEART,), {"criterion": "cost:x,1"}, "criterion", "two numbers of 0 or more"),
        ((HEART,), {"criterion": "cost:1,2,3"}, "criterion", "two numbers of 0 or more"),
        ((HEART,), {"criterion": "cost:nan,1"}, "criterion", "two numbers of 0 or more"),
        ((HEART,), {"criterion": "cost:0,0"}, "criterion", "costs nothing"),
        ((HEART,), {"criterion": "acuracy"}, "criterion", "is not one of"),
        ((HEART,), {"criterion": "balanced_acc"}, "criterion", "did you mean balanced_accuracy?"),
        ((HEART,), {"criterion": "f1:3"}, "criterion", "class 3 is not one of the labels"),
        ((HEART,), {"criterion": "f1:1", "pos_label": -1}, "pos_label", "differs"),
        ((HEART,), {"pos_label": 2}, "pos_label", "not one of the labels"),
        ((HEART,), {"criterion": None}, "criterion", "must be one of"),
        ((HEART,), {"criterion": 3}, "criterion", "must be one of f1, f1:LABEL, mcc"),
        ((HEART,), {"inner_folds": 1}, "inner_folds", ""),
    ],
)
def test_bad_arguments_are_typed_errors(args, kwargs, argument, text):
    with pytest.raises(ArgumentError) as caught:
        tune_threshold(*args, **kwargs)
    assert caught.value.argument == argument and text in str(caught.value)


def test_an_outer_training_set_without_a_class_is_one_typed_error(tmp_path):
    path = tmp_path / "one_positive"
    path.write_text("1 1:0.1\n" + "".join(f"-1 1:0.{i}\n" for i in range(4, 9)))
    with pytest.raises(
        SvmevalError, match=r"outer fold \d's training rows hold no sample of class 1"
    ):
        tune_threshold(str(path), folds=3)
    done = _svmeval("--threshold", "f1", "-v", "3", path)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.endswith(
        "no sample of class 1: the nested estimate chooses a threshold "
        "on them (give fewer folds or more samples of that class)\n"
    )


def test_an_empty_outer_fold_is_one_typed_error(tmp_path):
    """Two rows a class, three folds: svm.cpp's stratified draw (written out in
    test_nested) gives one fold no row; the nested estimate cannot measure that fold's
    threshold, and says so in one line (svmeval and svmeval-linear alike), no traceback."""
    path = tmp_path / "four"
    path.write_text("1 1:0.5\n-1 1:0.2\n1 1:0.7\n-1 1:0.1\n")
    LIBC.srand(1)
    perm, start = svm_cpp_folds(np.array([1.0, -1.0, 1.0, -1.0]), 3, True)
    empty = [i for i in range(3) if start[i] == start[i + 1]]
    assert len(empty) == 1
    message = f"outer fold {empty[0] + 1} has no test rows"
    with pytest.raises(SvmevalError, match=message):
        tune_threshold(str(path), "-t 0", folds=3)
    for command in ("svmeval", "linear"):
        done = commands.run(command, ["-q", "-v", "3", "--threshold", "f1", str(path)])
        assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and message in done.stderr


def test_labels_that_are_not_whole_numbers_are_refused_naming_the_first_line(tmp_path):
    """LIBSVM classifies by (int)label: labels 1.5 and -0.25 are its classes 1 and 0, whose
    scores no label of the data owns. The run is refused at the first such line, in one
    line, before any fold trains (no store made); whole-number labels written 4.0, 2 run."""
    rows = [(1.5, 0.9), (-0.25, 0.1), (1.5, 0.8), (-0.25, 0.2), (1.5, 0.7), (-0.25, 0.3)]
    path = tmp_path / "fractional"
    path.write_text("".join(f"{y} 1:{x}\n" for y, x in rows[1:] + rows[:1]))
    with pytest.raises(DataFormatError) as caught:
        tune_threshold(str(path), folds=3, store=str(tmp_path / "runs.db"))
    assert (caught.value.file, caught.value.line) == (str(path), 1)
    assert "label -0.25 is not a whole number" in str(caught.value)
    assert not (tmp_path / "runs.db").exists()
    done = _svmeval("--threshold", "f1:1.5", "-v", "3", path)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr == (
        f"svmeval: {path}:1: label -0.25 is not a whole number: LIBSVM classifies by (int)label, "
        "so a decision threshold needs whole-number labels\n"
    )
    whole = tmp_path / "whole"
    whole.write_text("".join(f"{4.0 if y > 1 else 2} 1:{x}\n" for y, x in rows * 3))
    assert tune_threshold(str(whole), folds=3, inner_folds=3).positive == 4


def _svmeval(*args):
    return commands.run("svmeval", ["-q", *args], timeout=600)


@pytest.mark.parametrize(
    "args, text",
    [
        (
            ["--threshold", "mcc", "-v", "3", WINE],
            f"svmeval: {WINE}: --threshold: a decision threshold needs two classes; the data "
            "have 3\n",
        ),
        (["--threshold", "mcc", "-v", "3", "-s", "3", HEART], "regression"),
        (["--threshold", "mcc", "-v", "3", "-s", "2", HEART], "one-class SVM (-s 2)"),
        (["--threshold", "cost:1", "-v", "3", HEART], "cost:FP,FN, two numbers of 0 or more"),
        (["--threshold", "cost:-1,1", "-v", "3", HEART], "two numbers of 0 or more"),
        (["--threshold", "mc", "-v", "3", HEART], "did you mean mcc?"),
        (["--threshold", "f1:7", "-v", "3", HEART], "class 7 is not one of the labels (-1, 1)"),
        (["--threshold", "mcc", HEART], "--threshold tunes on a cross-validation's scores"),
        (["--threshold", "mcc", "-v", "3", "--dask", "local:abc", HEART], "not local or local:N"),
        (["--threshold", "mcc", "-v", "3", "--repeat", "0", HEART], "--repeat"),
        (["--threshold", "mcc", "-v", "3", "--multilabel", HEART], "not with --multilabel"),
    ],
)
def test_command_line_bad_input_is_one_line(args, text):
    done = _svmeval(*args)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


# --- reports and pictures -------------------------------------------------------------------------
def test_command_line_json_is_the_library_result():
    done = _svmeval("--threshold", "cost:1,3", "-v", "4", "--seed", "2", "--format", "json", HEART)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    t = tune_threshold(HEART, folds=4, inner_folds=4, seed=2, criterion="cost:1,3")
    assert doc == t.to_dict()
    assert doc["tuned"]["threshold"] == t.threshold and doc["criterion"] == "cost:1,3"
    assert [f["threshold"] for f in doc["folds"]] == t.thresholds.tolist()


def test_every_format_and_the_frame():
    from svmeval import render

    t = tune_threshold(HEART, folds=3, inner_folds=3, criterion="mcc")
    text = render(t)
    assert text.splitlines()[0].startswith("Decision threshold tuned for MCC (3-fold")
    for line in ("LIBSVM's own", "tuned (optimistic)", "nested (honest)"):
        assert line in text
    words = " ".join(text.split())
    assert "midpoint (a + b) / 2" in words and "nearest LIBSVM's own (0), then the lower" in words
    csv = render(t, format="csv").splitlines()
    assert csv[0].startswith("point,repetition,fold,threshold") and len(csv) == 1 + 3 + 3
    page = render(t, format="html")
    assert page.startswith("<!DOCTYPE html>") and "Decision threshold tuned on" in page
    pytest.importorskip("pandas")
    frame = t.to_frame()
    assert list(frame["fold"]) == [0, 1, 2] and list(frame["threshold"]) == t.thresholds.tolist()
    assert list(frame["repetition"]) == [0, 0, 0] and list(frame["seed"]) == [1, 1, 1]
    assert frame["n_test"].sum() == t.cv.n_samples


def test_the_sheet_marks_libsvms_and_the_tuned_operating_points(tmp_path):
    pytest.importorskip("matplotlib")
    t = tune_threshold(HEART, "-b 1", folds=3, inner_folds=3, criterion="cost:1,4")
    from svmeval import plot

    figure = plot(t, tmp_path / "sheet.png")
    assert (tmp_path / "sheet.png").stat().st_size > 0
    roc = next(ax for ax in figure.axes if ax.get_title().startswith("ROC"))
    marks = {line.get_label(): line for line in roc.get_lines() if line.get_marker() != "None"}
    libsvm = next(v for k, v in marks.items() if k.startswith("LIBSVM's own (threshold 0.5)"))
    tuned = next(v for k, v in marks.items() if k.startswith("tuned cost:1,4"))
    # the points are where scikit-learn's roc_curve puts the two sets of predictions
    is_pos = t.cv.y_true == t.positive
    for line, predicted in (
        (libsvm, t.cv.y_pred == t.positive),
        (tuned, t.positive_scores() >= t.threshold),
    ):
        tn, fp, fn, tp = metrics.confusion_matrix(is_pos, predicted).ravel()
        assert line.get_xdata()[0] == pytest.approx(fp / (fp + tn))
        assert line.get_ydata()[0] == pytest.approx(tp / (tp + fn))


def test_command_line_plot_and_store(tmp_path):
    pytest.importorskip("matplotlib")
    store = tmp_path / "runs.sqlite"
    args = ["--threshold", "f1", "-v", "3", "--store", store, "--plot", tmp_path / "s.png", HEART]
    first = _svmeval(*args)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "s.png").stat().st_size > 0
    again = _svmeval(*args)
    assert again.stdout == first.stdout
    from svmeval import open_store

    with open_store(store) as s:
        units = s.units()
    # the outer cross-validation and each outer training set's inner one, every fold stored once
    assert len(units) == 1 + 3 and sum(u["folds"] for u in units) == 3 + 3 * 3


# --- repetitions, a Dask cluster, leave-one-out ---------------------------------------------------
def test_command_line_repeat_is_the_library_result():
    args = ("--threshold", "f1", "-v", "3", "--seed", "2", "--repeat", "3", HEART)
    done = _svmeval(*args, "--format", "json")
    assert done.returncode == 0, done.stderr
    t = tune_threshold(HEART, folds=3, inner_folds=3, seed=2, repeat=3, criterion="f1")
    assert json.loads(done.stdout) == t.to_dict()
    text = _svmeval(*args)
    assert text.returncode == 0, text.stderr
    assert "Repeated 3 times (seeds 2, 3, 4)" in " ".join(text.stdout.split())
    rows = [line.split() for line in text.stdout.splitlines()]
    for r, run in enumerate(t.repetitions, start=1):  # each repetition's line: its numbers
        assert [str(r), str(run.seed), f"{run.threshold:.6g}"] in [row[:3] for row in rows]
    csv = _svmeval(*args, "--format", "csv").stdout.splitlines()
    assert len(csv) == 1 + 3 * (3 + 3)
    assert [line.split(",")[1] for line in csv[1:]] == [str(r) for r in (1, 2, 3) for _ in range(6)]


def _rows(tmp_path, n: int):
    """The first n / 2 rows of each class of heart_scale (or its stand-in), in file order."""
    path = tmp_path / f"rows{n}"
    lines = data_set("heart_scale").read_text().splitlines(keepends=True)
    keep = [line for line in lines if float(line.split()[0]) > 0][: n // 2]
    keep += [line for line in lines if float(line.split()[0]) < 0][: n // 2]
    path.write_text("".join(sorted(keep, key=lines.index)))
    return path


@pytest.mark.parametrize("folds, repeat", [(20, 1), (12, 1), (12, 2), (30, 3)])
def test_leave_one_out_is_warned_once_a_run(tmp_path, capfd, folds, repeat):
    """svm-train warns once when its folds exceed the rows. -v 12 of 12 rows is leave-one-out
    without the warning outside, but each 11-row outer training set has fewer rows than its
    12 inner folds; -v 20 warns outside and inside. Either way: one warning a run, LIBSVM's
    own (the first: outside where it warns there, else inside)."""
    path = _rows(tmp_path, 12)
    loo = libsvm_folds_warning(capfd, folds, 12 if folds > 12 else 11)
    assert loo.startswith("WARNING: # folds") and loo.count("\n") == 1
    t = tune_threshold(str(path), folds=folds, inner_folds=folds, repeat=repeat)
    assert t.n_folds == 12 and capfd.readouterr().err == loo
    done = _svmeval("--threshold", "f1", "-v", folds, "--repeat", repeat, path)
    assert done.returncode == 0 and done.stderr == loo, done.stderr
    tune_threshold(str(path), folds=3, inner_folds=3)  # no leave-one-out anywhere: none
    assert capfd.readouterr().err == ""


def test_bad_repeat_and_client_are_refused_at_the_door_before_the_data_are_read(tmp_path):
    missing = str(tmp_path / "missing")
    for kwargs, argument in (
        ({"repeat": 0}, "repeat"),
        ({"repeat": 1.5}, "repeat"),
        ({"client": "local:abc"}, "client"),
        ({"client": 3}, "client"),
    ):
        with pytest.raises(ArgumentError) as caught:
            tune_threshold(missing, **kwargs)
        assert caught.value.argument == argument


def test_a_dask_cluster_gives_the_local_result():
    """Every outer and inner cross-validation on a local Dask cluster (two worker processes,
    connected once): the local run's result, repetitions and store included."""
    pytest.importorskip("distributed")
    from svmeval.cv.run import cluster

    kwargs = dict(folds=4, inner_folds=3, seed=5, repeat=2, criterion="cost:1,4")
    local = tune_threshold(HEART, "-c 2", **kwargs, jobs=2)
    with cluster.connect("local:2") as client:
        remote = tune_threshold(HEART, "-c 2", **kwargs, client=client)
    assert remote.to_dict() == local.to_dict()
    for a, b in zip(remote.repetitions, local.repetitions):
        np.testing.assert_array_equal(a.positive_scores(), b.positive_scores())
        np.testing.assert_array_equal(a.honest_pred, b.honest_pred)


def test_command_line_on_a_dask_cluster_prints_the_local_report():
    pytest.importorskip("distributed")
    args = ("--threshold", "mcc", "-v", "3", "--seed", "2", "--format", "json", HEART)
    local = _svmeval(*args)
    on_cluster = _svmeval("--dask", "local:1", *args)
    assert local.returncode == on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == local.stdout


def test_folds_of_one_class_warn_of_nothing_the_caller_never_passed(tmp_path):
    """Leave-one-out: every test fold holds one class. The figures of such folds are defined
    (scikit-learn's 0 for MCC where undefined) and no warning about 'y_true', 'y_pred' or
    'labels', arguments the caller never passed, reaches them."""
    from sklearn.metrics import matthews_corrcoef as sk_mcc

    path = _rows(tmp_path, 12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = tune_threshold(str(path), folds=12, inner_folds=12)
    assert t.n_folds == 12
    for yt, yp in (([1], [1]), ([1], [0]), ([0, 0], [0, 1]), ([0, 1, 1], [1, 1, 0])):
        tp = sum(a == b == 1 for a, b in zip(yt, yp))
        tn = sum(a == b == 0 for a, b in zip(yt, yp))
        fp = sum(a == 0 and b == 1 for a, b in zip(yt, yp))
        fn = sum(a == 1 and b == 0 for a, b in zip(yt, yp))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = sk_mcc(yt, yp)
        assert mcc_of_counts([[tn, fp], [fn, tp]]) == expected

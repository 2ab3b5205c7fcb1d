"""svmeval-compare: both configurations on the same folds, the figures per fold against
scikit-learn, A against itself, the reports and the command line's errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from svmeval import SvmParams, cross_validate, read_dataset
from svmeval.cli.compare import main
from svmeval.workflows.compare import compare

import commands
from conftest import ROOT

stats = pytest.importorskip("scipy.stats")
sk_metrics = pytest.importorskip("sklearn.metrics")

SMALL = ROOT / "data" / "breast_cancer.scale"
WINE = ROOT / "data" / "wine.scale"


@pytest.fixture(scope="module")
def small():
    return read_dataset(str(SMALL))


def test_fold_figures_are_those_of_the_same_seeded_folds(small):
    a, b = SvmParams(C=1), SvmParams(C=8, gamma=0.5)
    c = compare(small, a, b, 3, repeat=2, seed=4)
    assert c.seeds == (4, 5)
    expected = {"a": [], "b": []}
    for seed in (4, 5):
        ra = cross_validate(small, a, 3, seed=seed)
        rb = cross_validate(small, b, 3, seed=seed)
        assert np.array_equal(ra.fold, rb.fold)  # the same folds for A and B
        for name, r in (("a", ra), ("b", rb)):
            expected[name] += [
                sk_metrics.accuracy_score(r.y_true[r.fold == i], r.y_pred[r.fold == i])
                for i in range(3)
            ]
    assert c.folds_a == pytest.approx(expected["a"], rel=1e-12)
    assert c.folds_b == pytest.approx(expected["b"], rel=1e-12)
    # the t-test is Nadeau & Bengio's, computed directly with scipy
    d = np.array(expected["b"]) - np.array(expected["a"])
    n_test = len(small.y) / 3
    ratio = n_test / (len(small.y) - n_test)
    t = d.mean() / math.sqrt((1 / 6 + ratio) * d.var(ddof=1))
    assert c.ttest.t == pytest.approx(t, rel=1e-9)
    assert c.ttest.p == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-8)
    assert c.ttest.p_uncorrected == pytest.approx(
        stats.ttest_rel(expected["b"], expected["a"]).pvalue, rel=1e-8
    )
    # McNemar on the first repetition's pooled predictions
    ra = cross_validate(small, a, 3, seed=4)
    rb = cross_validate(small, b, 3, seed=4)
    right_a, right_b = ra.y_pred == ra.y_true, rb.y_pred == rb.y_true
    assert c.mcnemar.a_only == np.count_nonzero(right_a & ~right_b)
    assert c.mcnemar.b_only == np.count_nonzero(~right_a & right_b)


def test_a_against_itself_gives_zero_difference_and_p_one(small):
    c = compare(small, SvmParams(C=2), SvmParams(C=2), 3, repeat=2, criterion="mcc")
    assert np.array_equal(c.folds_a, c.folds_b)
    assert c.ttest.mean == 0.0 and c.ttest.t == 0.0
    assert c.ttest.p == 1.0 and c.ttest.p_uncorrected == 1.0
    assert c.mcnemar.p == 1.0 and c.mcnemar.a_only == c.mcnemar.b_only == 0


def test_regression_compares_mse_without_mcnemar():
    from conftest import data_set

    housing = read_dataset(str(data_set("housing_scale")))
    c = compare(housing, SvmParams(svm_type=3), SvmParams(svm_type=3, C=4), 3, repeat=1)
    assert c.criterion == "mse" and not c.greater_is_better and c.mcnemar is None
    assert c.ttest.df == 2


def test_criterion_must_fit_the_data(small):
    from svmeval import SvmevalError

    with pytest.raises(
        SvmevalError,
        match="criterion 'macro_roc_auc' does not apply for binary data: valid criteria",
    ):
        compare(small, SvmParams(), SvmParams(), 3, repeat=1, criterion="macro_roc_auc")


def test_cli_json_of_a_against_itself(capfd):
    assert (
        main(
            [
                "-v",
                "3",
                "--repeat",
                "2",
                "--format",
                "json",
                str(WINE),
                "--",
                "-c",
                "2",
                "--",
                "-c",
                "2",
            ]
        )
        == 0
    )
    out = json.loads(capfd.readouterr().out)
    assert out["criterion"] == "accuracy" and out["n_folds"] == 3 and out["repeat"] == 2
    assert out["difference"]["mean"] == 0 and out["corrected_ttest"]["p"] == 1
    assert out["uncorrected_ttest"]["optimistic"] is True
    assert len(out["a"]["folds"]) == 6 and out["a"]["folds"] == out["b"]["folds"]
    assert out["mcnemar"]["p"] == 1


def test_cli_text_and_csv(capfd, tmp_path):
    target = tmp_path / "cmp.csv"
    assert (
        main(
            [
                "-v",
                "3",
                "--repeat",
                "1",
                "--format",
                "csv",
                "-o",
                str(target),
                "--criterion",
                "macro_f1",
                str(WINE),
                "--",
                "-c",
                "1",
                "--",
                "-c",
                "100",
            ]
        )
        == 0
    )
    assert capfd.readouterr().out == ""
    rows = target.read_text().splitlines()
    assert rows[0] == "test,name,value"
    assert "corrected_ttest,df,2" in rows and "run,criterion,macro_f1" in rows
    assert main(["-v", "3", "--repeat", "1", str(WINE), "--", "--", "-c", "100"]) == 0
    text = capfd.readouterr().out
    assert "corrected resampled t-test" in text and "optimistic" in text
    assert "A: (svm-train defaults)" in text and "B: -c 100" in text


def test_cli_mcnemar_of_two_predictions_files(tmp_path, capfd):
    ds = read_dataset(str(WINE))
    pa, pb = ds.y.copy(), ds.y.copy()
    pa[:5] = pa[:5] + 1  # A wrong on 5 samples B gets right
    pb[10:12] = pb[10:12] + 1  # B wrong on 2 samples A gets right
    fa, fb = tmp_path / "a", tmp_path / "b"
    fa.write_text("".join(f"{v:g}\n" for v in pa))
    fb.write_text("labels 1 2 3\n" + "".join(f"{v:g} 0.2 0.3 0.5\n" for v in pb))
    assert main(["--mcnemar", "--format", "json", str(fa), str(fb), str(WINE)]) == 0
    out = json.loads(capfd.readouterr().out)["mcnemar"]
    assert (out["a_right_b_wrong"], out["a_wrong_b_right"]) == (2, 5)
    assert out["method"] == "exact"
    assert out["p"] == pytest.approx(stats.binomtest(2, 7, 0.5).pvalue, rel=1e-12)


@pytest.mark.parametrize(
    "args,message",
    [
        (["-v", "3", str(SMALL)], "svmeval-compare: give the data file, then -- A's"),
        (
            ["-v", "1", str(SMALL), "--", "--"],
            "svmeval-compare: n-fold cross validation: n must >= 2",
        ),
        (["--bogus", str(SMALL), "--", "--"], "svmeval-compare: unknown option: --bogus"),
        (["--repeat", "x", str(SMALL), "--", "--"], "svmeval-compare: option --repeat: 'x' is not"),
        ([str(SMALL), "--", "-v", "5", "--"], "svmeval-compare: A options: only svm-train's"),
        ([str(SMALL), "--", "--", "-c", "abc"], "svmeval-compare: B options: option -c: 'abc'"),
        ([str(SMALL), "--", "-c", "0", "--"], "ERROR: C <= 0"),
        (
            ["--criterion", "mse", str(SMALL), "--", "--"],
            "svmeval-compare: criterion 'mse' does not apply",
        ),
        (["missing.file", "--", "--"], "svmeval-compare: missing.file: cannot"),
        (["--mcnemar", "a", str(SMALL)], "svmeval-compare: --mcnemar needs PREDICTIONS_A"),
    ],
)
def test_cli_errors_are_one_line_and_exit_1(args, message):
    done = commands.run("compare", args)
    assert done.returncode == 1
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(message)
    assert "Traceback" not in done.stderr


# --- defects of the library found and fixed: each test fails on the code before the fix ------
def _reference_rate(name: str) -> float:
    """svm-train's printed CV accuracy (percent) from its reference output."""
    from conftest import shared_file

    text = shared_file("reference", name).read_text()
    return float(text.split("Cross Validation Accuracy = ")[1].split("%")[0])


def test_compare_leave_one_out_corrects_with_the_folds_drawn(tmp_path):
    """-v 30 on 14 rows is LIBSVM's leave-one-out: 14 folds, n_test/n_train = 1/13 (not 1/29),
    and the comparison records 14 folds. Oracle: LIBSVM's own svm_cross_validation (it too
    turns 30 folds of 14 rows into leave-one-out) and Nadeau & Bengio's formula with scipy;
    t = 1.851, p = 0.075 as worked out by hand (heart_scale's own rows: no stand-in)."""
    from conftest import libsvm_cv, shared_file

    path = tmp_path / "h14"
    path.write_text("".join(shared_file("data", "heart_scale").read_text().splitlines(True)[:14]))
    y = read_dataset(str(path)).y
    c = compare(str(path), SvmParams(), SvmParams(C=8, gamma=0.5), 30, repeat=2)
    assert c.n_folds == 14 and len(c.folds_a) == 28
    d = np.concatenate(
        [
            (libsvm_cv(path, "-c 8 -g 0.5", 30, seed) == y).astype(float)
            - (libsvm_cv(path, "", 30, seed) == y).astype(float)
            for seed in (1, 2)
        ]
    )
    t = d.mean() / math.sqrt((1 / 28 + 1 / 13) * d.var(ddof=1))
    assert c.ttest.t == pytest.approx(t, rel=1e-9)
    assert c.ttest.p == pytest.approx(2 * stats.t.sf(abs(t), 27), rel=1e-8)
    assert c.ttest.test_train_ratio == pytest.approx(1 / 13, rel=1e-12)
    assert (round(c.ttest.t, 3), round(c.ttest.p, 3)) == (1.851, 0.075)


def test_compare_takes_a_file_name():
    """A file name is read as grid_search reads one. Oracle: svm-train -v 5's printed rate
    (heart_scale's five folds all hold 54 rows, so the mean of the fold accuracies is it)."""
    from conftest import shared_file

    rate = _reference_rate("heart_scale.v5.txt")
    c = compare(str(shared_file("data", "heart_scale")), SvmParams(), SvmParams(C=2), 5, repeat=1)
    assert c.data_name.endswith("heart_scale")
    assert 100 * c.mean_a == pytest.approx(rate, abs=5e-4)


def test_compare_params_none_is_svm_train_defaults_and_others_a_typed_error():
    from svmeval import SvmevalError

    from conftest import data_set

    dataset = read_dataset(str(data_set("heart_scale")))
    c = compare(dataset, None, SvmParams(), 5, repeat=1)
    assert np.array_equal(c.folds_a, c.folds_b) and c.ttest.p == 1.0
    assert 100 * c.mean_a == pytest.approx(_reference_rate("heart_scale.v5.txt"), abs=5e-4)
    for a, b in ((2, SvmParams()), (SvmParams(), {"C": 2})):
        with pytest.raises(SvmevalError, match="must be a svmeval SvmParams or svm-train's"):
            compare(dataset, a, b, 5, repeat=1)
    by_options = compare(dataset, None, "-c 2", 5, repeat=1)
    assert np.array_equal(
        by_options.folds_b, compare(dataset, None, SvmParams(C=2), 5, repeat=1).folds_b
    )
    with pytest.raises(SvmevalError, match="must be a svmeval Dataset, a file name or"):
        compare([1, 2], SvmParams(), SvmParams(), 5, repeat=1)


def test_compare_results_identical_for_every_jobs(small):
    """2 candidates x R seeds of the evaluation core: jobs changes nothing (oracle: the
    folds one at a time, jobs=1, as LIBSVM's own loop runs them)."""
    runs = [
        compare(
            small,
            SvmParams(C=1),
            SvmParams(C=8, gamma=0.5),
            4,
            repeat=3,
            criterion="mcc",
            jobs=jobs,
        )
        for jobs in (1, 2, 3)
    ]
    for other in runs[1:]:
        assert np.array_equal(other.folds_a, runs[0].folds_a)
        assert np.array_equal(other.folds_b, runs[0].folds_b)
        assert other.ttest == runs[0].ttest and other.mcnemar == runs[0].mcnemar


def _sklearn_fold_figure(name, y_true, y_pred, scores, labels, positive):
    """Scikit-learn's value of figure ``name`` on one fold (``scores``: per-class scores whose
    columns follow ``labels``; ``positive``: the positive class of two-class data)."""
    if name == "macro_harmonic_f1":
        p = sk_metrics.precision_score(y_true, y_pred, average="macro", zero_division=0)
        r = sk_metrics.recall_score(y_true, y_pred, average="macro", zero_division=0)
        return 2 * p * r / (p + r)
    if name.endswith("_f1"):
        return sk_metrics.f1_score(y_true, y_pred, average=name[:-3], zero_division=0)
    if name in ("precision", "recall", "f1"):
        score = getattr(sk_metrics, f"{name}_score")
        return score(y_true, y_pred, pos_label=positive, zero_division=0)
    if name in ("roc_auc", "average_precision"):
        column = scores[:, list(labels).index(positive)]
        return getattr(sk_metrics, f"{name}_score")(y_true == positive, column)
    if name in ("macro_roc_auc", "macro_average_precision"):
        score = getattr(sk_metrics, f"{name[6:]}_score")
        return np.mean([score(y_true == c, scores[:, k]) for k, c in enumerate(labels)])
    if name == "label_ranking_average_precision":
        truth = y_true[:, None] == np.asarray(labels)[None, :]
        return sk_metrics.label_ranking_average_precision_score(truth, scores)
    return {
        "accuracy": sk_metrics.accuracy_score,
        "balanced_accuracy": sk_metrics.balanced_accuracy_score,
        "mcc": sk_metrics.matthews_corrcoef,
        "kappa": sk_metrics.cohen_kappa_score,
    }[name](y_true, y_pred)


@pytest.mark.parametrize(
    ("data", "criterion", "pos_label"),
    [
        (SMALL, name, pos)
        for name in (
            "accuracy",
            "balanced_accuracy",
            "mcc",
            "kappa",
            "precision",
            "recall",
            "f1",
            "macro_f1",
            "macro_harmonic_f1",
            "micro_f1",
            "weighted_f1",
            "roc_auc",
            "average_precision",
        )
        for pos in (None, -1.0)
    ]
    + [
        (WINE, name, None)
        for name in (
            "accuracy",
            "mcc",
            "macro_f1",
            "weighted_f1",
            "macro_roc_auc",
            "macro_average_precision",
            "label_ranking_average_precision",
        )
    ],
)
def test_every_criterion_on_every_fold_is_scikit_learns(data, criterion, pos_label):
    """The criterion computed alone for each fold equals scikit-learn's on the fold's
    predictions and class scores (two classes: the positive class's, 1 or the one given)."""
    a, b = "-c 1", "-c 8 -g 0.5"
    c = compare(str(data), a, b, 3, repeat=2, criterion=criterion, pos_label=pos_label)
    for options, values in ((a, c.folds_a), (b, c.folds_b)):
        expected = []
        for seed in (1, 2):
            r = cross_validate(str(data), options, 3, seed=seed)
            positive = (1.0 if pos_label is None else pos_label) if len(r.labels) == 2 else None
            for i in range(3):
                rows = r.fold == i
                expected.append(
                    _sklearn_fold_figure(
                        criterion,
                        r.y_true[rows],
                        r.y_pred[rows],
                        r.scores[rows],
                        r.labels,
                        positive,
                    )
                )
        assert values == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_a_criterion_of_the_counts_computes_no_other_figure(small, monkeypatch):
    """Comparing on accuracy reads each fold's confusion counts only: no fold's full report, no
    ranking of its scores (every figure of every fold was computed before to compare one);
    the figures still scikit-learn's."""
    import svmeval.metrics.scores as scores
    from svmeval.metrics.classification import ConfusionCounts

    calls = []

    def counted(name, function):
        def call(*args, **kwargs):
            calls.append(name)
            return function(*args, **kwargs)

        return call

    # the summaries and the fold figures import class_ranking from its module where they rank
    monkeypatch.setattr(scores, "class_ranking", counted("ranking", scores.class_ranking))
    monkeypatch.setattr(ConfusionCounts, "report", counted("report", ConfusionCounts.report))
    c = compare(small, "-c 1", "-c 8", 5, repeat=3)
    assert calls == []
    r = cross_validate(small, "-c 8", 5, seed=3)
    expected = [
        sk_metrics.accuracy_score(r.y_true[r.fold == i], r.y_pred[r.fold == i]) for i in range(5)
    ]
    assert c.folds_b[10:] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("criterion", ["log_loss", "brier_score"])
def test_a_criterion_of_the_probabilities_is_scikit_learns_on_every_fold(small, criterion):
    a, b = "-b 1", "-b 1 -c 8"
    c = compare(small, a, b, 3, repeat=2, criterion=criterion)
    for options, values in ((a, c.folds_a), (b, c.folds_b)):
        expected = []
        for seed in (1, 2):
            r = cross_validate(small, options, 3, seed=seed)
            positive = list(r.labels).index(1.0)
            for i in range(3):
                rows = r.fold == i
                p, y = r.probabilities[rows], r.y_true[rows]
                order = np.argsort(r.labels)  # scikit-learn's columns: the labels ascending
                expected.append(
                    sk_metrics.log_loss(y, p[:, order], labels=r.labels[order])
                    if criterion == "log_loss"
                    else sk_metrics.brier_score_loss(y == 1.0, p[:, positive])
                )
        assert values == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("one_class", ["-s 2", "-s 2 -n 0.3"])
def test_a_one_class_svm_is_refused_before_any_fold(small, one_class):
    # LIBSVM's one-class SVM (svm_type 2) predicts inlier/outlier, not the data's classes:
    # no figure of the labels compares it
    with pytest.raises(Exception, match=r"one-class SVMs \(-s 2\) cannot be compared"):
        compare(small, one_class, "-c 1", 3)
    from svmeval import benchmark

    with pytest.raises(Exception, match=r"one-class SVMs \(-s 2\) cannot be compared"):
        benchmark([small], {"a": "-c 1", "b": one_class}, 3, repeat=1)

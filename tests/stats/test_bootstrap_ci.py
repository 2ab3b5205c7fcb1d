"""Bootstrap confidence intervals of the pooled figures against ``scipy.stats.bootstrap``.

scipy resamples paired data by drawing ``rng.integers(0, n, (n_resamples, n))`` from the
generator it is given; svmeval draws the same indices from ``numpy.random.default_rng(seed)``,
so with ``rng=numpy.random.default_rng(seed)`` scipy's percentile and BCa intervals of the
same statistic (here scikit-learn's accuracy, macro F1 and MCC of the resampled true labels
and CV predictions) must equal svmeval's up to rounding.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from svmeval import cross_validate, render, summarize
from svmeval.errors import ArgumentError
from svmeval.stats import bootstrap as bootstrap_module
from svmeval.stats.bootstrap import resample_indices

import commands
from conftest import LOCAL

stats = pytest.importorskip("scipy.stats")
metrics = pytest.importorskip("sklearn.metrics")

SEED, RESAMPLES, LEVEL = 3, 200, 0.9


def _sklearn(labels):
    return {
        "accuracy": metrics.accuracy_score,
        "macro_f1": lambda t, p: metrics.f1_score(
            t, p, average="macro", labels=labels, zero_division=0
        ),
        "mcc": metrics.matthews_corrcoef,
    }


def _formulas(labels):
    """The same three figures from their textbook formulas over the confusion counts (what
    scikit-learn computes, checked against it on the data and on resamples of it by
    :func:`_oracles`): a few microseconds a call, where scipy's bootstrap calls each one
    thousands of times (its BCa's jackknife once a sample)."""
    labels = np.asarray(labels)

    def macro_f1(t, p):
        truth, said = t[:, None] == labels, p[:, None] == labels
        tp = np.count_nonzero(truth & said, axis=0)
        wrong = np.count_nonzero(truth ^ said, axis=0)  # fp + fn
        denominator = 2 * tp + wrong
        ratios = np.divide(2 * tp, denominator, out=np.zeros(len(labels)), where=denominator > 0)
        return float(ratios.mean())

    def mcc(t, p):
        classes, coded = np.unique(np.concatenate([t, p]), return_inverse=True)
        k, n = len(classes), len(t)
        counts = np.bincount(coded[:n] * k + coded[n:], minlength=k * k).reshape(k, k)
        t_sum, p_sum = counts.sum(axis=1), counts.sum(axis=0)
        covariance = np.trace(counts) * n - t_sum @ p_sum
        spread = float(n * n - p_sum @ p_sum) * float(n * n - t_sum @ t_sum)
        return 0.0 if spread == 0 else float(covariance / np.sqrt(spread))

    return {
        "accuracy": lambda t, p: float(np.mean(t == p)),
        "macro_f1": macro_f1,
        "mcc": mcc,
    }


def _oracles(labels, y_true, *predictions):
    """scikit-learn's accuracy, macro F1 and MCC as formulas: each formula equals
    scikit-learn's on ``y_true`` and every prediction given, and on 25 resamples of them."""
    fast, sklearn = _formulas(labels), _sklearn(labels)
    rng = np.random.default_rng(0)
    pairs = [(y_true, p) for p in predictions]
    for p in predictions:
        for index in rng.integers(0, len(y_true), (25, len(y_true))):
            pairs.append((y_true[index], p[index]))
    for figure, formula in fast.items():
        for t, p in pairs:
            assert formula(t, p) == pytest.approx(sklearn[figure](t, p), rel=1e-12, abs=1e-15)
    return fast


@pytest.mark.parametrize("name", ["breast_cancer.scale", "wine.scale"])
def test_intervals_equal_scipy_bootstrap_given_the_same_resamples(name):
    result = cross_validate(str(LOCAL / name), folds=5)
    summary = summarize(result, ci=LEVEL, bootstrap=RESAMPLES, seed=SEED)
    iv = summary.intervals
    assert (iv.level, iv.resamples, iv.seed) == (LEVEL, RESAMPLES, SEED)
    labels = summary.classification.labels
    for figure, statistic in _oracles(labels, result.y_true, result.y_pred).items():
        for method, got in (("percentile", iv.percentile), ("BCa", iv.bca)):
            res = stats.bootstrap(
                (result.y_true, result.y_pred),
                statistic,
                paired=True,
                vectorized=False,
                n_resamples=RESAMPLES,
                confidence_level=LEVEL,
                method=method,
                rng=np.random.default_rng(SEED),
            )
            expected = tuple(res.confidence_interval)
            assert got[figure] == pytest.approx(expected, rel=1e-12, abs=1e-15), (figure, method)
            if method == "percentile":
                assert iv.standard_error[figure] == pytest.approx(res.standard_error, rel=1e-9)


def test_resamples_drawn_in_blocks_are_the_one_draw(monkeypatch):
    monkeypatch.setattr(bootstrap_module, "_BLOCK", 70)  # blocks of 3 rows of 23 indices
    blocks = list(resample_indices(23, 10, 5))
    assert len(blocks) == 4
    assert np.array_equal(np.vstack(blocks), np.random.default_rng(5).integers(0, 23, (10, 23)))


@pytest.mark.parametrize("name", ["breast_cancer.scale", "wine.scale"])
def test_repeated_cv_resamples_samples_with_every_repetitions_prediction(name):
    """With R repetitions the figure is the mean of the repetitions' figures, and a resample
    draws samples, each carrying its prediction in every repetition: scipy's bootstrap of the
    paired arrays (y_true, y_pred_1, ..., y_pred_R) with that statistic, same resamples."""
    path = str(LOCAL / name)
    result = cross_validate(path, folds=3, seed=4, repeat=3, keep_repeats=True)
    summary = summarize(result, ci=LEVEL, bootstrap=RESAMPLES)
    iv = summary.intervals
    assert (iv.seed, iv.repetitions) == (4, 3)  # the result's seed by default
    runs = [result.y_pred] + [r.y_pred for r in result.repeat_results]
    labels = summary.classification.labels
    for figure, one in _oracles(labels, result.y_true, *runs).items():

        def statistic(t, *predictions, one=one):
            return np.mean([one(t, p) for p in predictions])

        assert iv.estimate[figure] == pytest.approx(summary.repeat_spread[figure][0], rel=1e-12)
        for method, got in (("percentile", iv.percentile), ("BCa", iv.bca)):
            res = stats.bootstrap(
                (result.y_true, *runs),
                statistic,
                paired=True,
                vectorized=False,
                n_resamples=RESAMPLES,
                confidence_level=LEVEL,
                method=method,
                rng=np.random.default_rng(4),
            )
            expected = tuple(res.confidence_interval)
            assert got[figure] == pytest.approx(expected, rel=1e-12, abs=1e-15), (figure, method)
    # the further repetitions' predictions are kept without keep_repeats
    lean = summarize(cross_validate(path, folds=3, seed=4, repeat=3), ci=LEVEL, bootstrap=50)
    again = summarize(result, ci=LEVEL, bootstrap=50)
    assert lean.intervals == again.intervals


def test_ranking_figures_get_no_interval_and_the_reports_show_the_rest():
    summary = summarize(
        cross_validate(str(LOCAL / "breast_cancer.scale"), folds=3), ci=0.95, bootstrap=40
    )
    iv = summary.intervals
    assert "roc_auc" in summary.figures and "roc_auc" not in iv.bca
    assert set(iv.bca) == set(summary.figures) - {"roc_auc", "average_precision"}
    doc = summary.to_dict()["intervals"]
    assert doc["figures"]["mcc"]["bca"] == list(iv.bca["mcc"])
    assert (doc["level"], doc["resamples"], doc["seed"]) == (0.95, 40, 1)
    json.dumps(summary.to_dict(), allow_nan=False)
    text = render(summary)
    assert max(len(line) for line in text.splitlines()) <= 80
    low, high = iv.bca["accuracy"]
    assert f"[{low:.4f}, {high:.4f}]" in text and "95% CI, BCa" in text
    assert "40 bootstrap resamples" in text
    rows = [line.split(",") for line in render(summary, format="csv").splitlines()]
    head = rows[0]
    assert head[-4:] == ["bca_low", "bca_high", "percentile_low", "percentile_high"]
    mcc = next(r for r in rows if r[:2] == ["figure", "mcc"])
    assert [float(v) for v in mcc[-4:]] == [*iv.bca["mcc"], *iv.percentile["mcc"]]
    assert all(len(r) == len(head) for r in rows)


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"ci": 1.0}, "ci"),
        ({"ci": 0}, "ci"),
        ({"ci": -0.5}, "ci"),
        ({"ci": True}, "ci"),
        ({"ci": "0.9"}, "ci"),
        ({"ci": 0.9, "bootstrap": 0}, "bootstrap"),
        ({"ci": 0.9, "bootstrap": 1_000_001}, "bootstrap"),
        ({"ci": 0.9, "bootstrap": 10.5}, "bootstrap"),
        ({"ci": 0.9, "seed": -1}, "seed"),
    ],
)
def test_bad_arguments_are_typed_errors_naming_the_argument(kwargs, argument):
    result = cross_validate(str(LOCAL / "wine.scale"), folds=3)
    with pytest.raises(ArgumentError) as caught:
        summarize(result, **kwargs)
    assert caught.value.argument == argument


def test_regression_figures_get_no_interval():
    result = cross_validate(str(LOCAL / "wine.scale"), "-s 3", folds=3)
    with pytest.raises(ArgumentError, match="regression") as caught:
        summarize(result, ci=0.95)
    assert caught.value.argument == "ci"


def _svmeval(*args):
    return commands.run("svmeval", ["-q", *args], timeout=600)


def test_command_line_csv_equals_scipy_percentile_on_accuracy():
    path = LOCAL / "breast_cancer.scale"
    done = _svmeval("-v", 4, "--seed", 9, "--ci", 0.8, "--bootstrap", 60, "--format", "csv", path)
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()]
    accuracy = next(r for r in rows if r[:2] == ["figure", "accuracy"])
    result = cross_validate(str(path), folds=4, seed=9)
    res = stats.bootstrap(
        (result.y_true, result.y_pred),
        metrics.accuracy_score,
        paired=True,
        vectorized=False,
        n_resamples=60,
        confidence_level=0.8,
        method="percentile",
        rng=np.random.default_rng(9),
    )
    got = (float(accuracy[-2]), float(accuracy[-1]))
    assert got == pytest.approx(tuple(res.confidence_interval), rel=1e-12)


@pytest.mark.parametrize(
    "args, text",
    [
        (["--ci", "1", "-v", "3"], "option --ci: '1' is out of range (between 0 and 1"),
        (["--ci", "0.9", "--bootstrap", "0", "-v", "3"], "'0' is out of range (1 to 1000000)"),
        (["--ci", "0.9", "--bootstrap", "2000000", "-v", "3"], "out of range (1 to 1000000)"),
        (["--ci", "0.9", "-s", "3", "-v", "3"], "--ci: confidence intervals of a classification"),
        (["--ci", "0.9", "--multilabel", "-v", "3"], "not with --multilabel"),
        (["--ci", "0.9"], "cross-validation (-v k) only"),
        (["--bootstrap", "50", "-v", "3"], "give --ci LEVEL too"),
    ],
)
def test_command_line_bad_input_is_one_line(args, text):
    done = _svmeval(*args, LOCAL / "wine.scale")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr

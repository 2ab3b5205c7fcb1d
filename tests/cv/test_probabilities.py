"""The figures of -b 1 class probabilities (log loss, Brier score, expected calibration error)
and the reliability diagram's bins, against scikit-learn (``log_loss``, ``brier_score_loss``,
``calibration_curve``) on svmeval's own CV probabilities, and the ECE against its formula
written here; the probability criteria of a grid search against each cell's figures recomputed
with scikit-learn; bad input refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import commands
from conftest import data_set, libsvm_cv

sk_metrics = pytest.importorskip("sklearn.metrics")
sk_calibration = pytest.importorskip("sklearn.calibration")

PROBA = ("log_loss", "brier_score", "ece")


def _run(name, options="-b 1", folds=5, **kwargs):
    from svmeval import cross_validate

    return cross_validate(data_set(name), options, folds=folds, **kwargs)


def _sorted(result):
    """The probabilities with their columns in ascending label order (scikit-learn's)."""
    order = np.argsort(result.labels)
    return result.labels[order], result.probabilities[:, order]


def ece_by_formula(y_true, proba, labels, n_bins=10):
    """Guo et al. 2017: sum over equal-width bins of the top-label confidence of
    |B|/N |acc(B) - conf(B)|, a bin (lo, hi] (the first [0, hi]), written sample by sample."""
    n = len(y_true)
    total = 0.0
    for b in range(n_bins):
        lo, hi = b / n_bins, (b + 1) / n_bins
        members = []
        for i in range(n):
            conf = max(proba[i])
            if (lo < conf <= hi) or (b == 0 and conf == 0.0):
                members.append(i)
        if not members:
            continue
        acc = sum(labels[int(np.argmax(proba[i]))] == y_true[i] for i in members) / len(members)
        conf = sum(max(proba[i]) for i in members) / len(members)
        total += len(members) / n * abs(acc - conf)
    return total


def test_two_class_figures_equal_scikit_learn_pooled_and_per_fold():
    from svmeval import summarize

    result = _run("heart_scale")
    # the CV itself is LIBSVM's: its predictions are svm_cross_validation's with -b 1
    assert np.array_equal(result.y_pred, libsvm_cv(data_set("heart_scale"), "-b 1"))
    summary = summarize(result)
    labels, proba = _sorted(result)
    y = result.y_true
    k = int(np.flatnonzero(labels == summary.positive)[0])
    f = summary.figures
    assert f["log_loss"] == pytest.approx(sk_metrics.log_loss(y, proba, labels=labels), rel=1e-12)
    assert f["brier_score"] == pytest.approx(
        sk_metrics.brier_score_loss(y, proba[:, k], pos_label=summary.positive), rel=1e-12
    )
    assert f["ece"] == pytest.approx(ece_by_formula(y, proba, labels), rel=1e-12)
    for i, fold in enumerate(summary.fold_figures):
        rows = result.fold == i
        assert fold["log_loss"] == pytest.approx(
            sk_metrics.log_loss(y[rows], proba[rows], labels=labels), rel=1e-12
        )
        assert fold["brier_score"] == pytest.approx(
            sk_metrics.brier_score_loss(y[rows], proba[rows, k], pos_label=summary.positive),
            rel=1e-12,
        )
        assert fold["ece"] == pytest.approx(ece_by_formula(y[rows], proba[rows], labels), rel=1e-12)
    # to_frame carries the same per-fold values
    frame = result.to_frame()
    assert list(frame["brier_score"]) == pytest.approx(
        [g["brier_score"] for g in summary.fold_figures]
    )


def test_two_class_brier_follows_pos_label():
    from svmeval import summarize

    result = _run("heart_scale")
    labels, proba = _sorted(result)
    for pos in labels:
        s = summarize(result, pos_label=float(pos))
        k = int(np.flatnonzero(labels == pos)[0])
        assert s.figures["brier_score"] == pytest.approx(
            sk_metrics.brier_score_loss(result.y_true, proba[:, k], pos_label=pos), rel=1e-12
        )


def test_multiclass_figures_equal_scikit_learn():
    from svmeval import summarize

    result = _run("iris.scale")
    summary = summarize(result)
    labels, proba = _sorted(result)
    y = result.y_true
    assert summary.figures["log_loss"] == pytest.approx(
        sk_metrics.log_loss(y, proba, labels=labels), rel=1e-12
    )
    # scikit-learn's multiclass Brier: mean over samples of the squared distance to the
    # one-hot vector, summed over classes (not halved for three or more classes)
    sk_brier = sk_metrics.brier_score_loss(y, proba, labels=labels, scale_by_half=False)
    assert summary.figures["brier_score"] == pytest.approx(sk_brier, rel=1e-12)
    onehot = (y[:, None] == labels[None, :]).astype(float)
    assert summary.figures["brier_score"] == pytest.approx(
        np.mean(np.sum((proba - onehot) ** 2, axis=1)), rel=1e-12
    )
    assert summary.figures["ece"] == pytest.approx(ece_by_formula(y, proba, labels), rel=1e-12)
    for i, fold in enumerate(summary.fold_figures):
        rows = result.fold == i
        assert fold["log_loss"] == pytest.approx(
            sk_metrics.log_loss(y[rows], proba[rows], labels=labels), rel=1e-12
        )


def _curve_of(bins):
    full = bins.count > 0
    return bins.observed[full], bins.mean_predicted[full]


def test_reliability_bins_equal_calibration_curve():
    from svmeval import summarize

    two = _run("heart_scale")
    labels, proba = _sorted(two)
    bins = summarize(two).calibration
    assert len(bins) == 2
    for k, b in enumerate(bins):  # one per class, ascending labels
        truth = two.y_true == labels[k]
        prob_true, prob_pred = sk_calibration.calibration_curve(truth, proba[:, k], n_bins=10)
        observed, predicted = _curve_of(b)
        np.testing.assert_allclose(observed, prob_true, rtol=1e-12)
        np.testing.assert_allclose(predicted, prob_pred, rtol=1e-12)
        assert b.count.sum() == two.n_samples
        inside = [
            np.count_nonzero((proba[:, k] > lo) & (proba[:, k] <= hi))
            for lo, hi in zip(np.arange(10) / 10, np.arange(1, 11) / 10)
        ]
        inside[0] += np.count_nonzero(proba[:, k] == 0.0)
        assert list(b.count) == inside
    many = _run("iris.scale")
    labels, proba = _sorted(many)
    (b,) = summarize(many).calibration
    correct = labels[np.argmax(proba, axis=1)] == many.y_true
    prob_true, prob_pred = sk_calibration.calibration_curve(correct, proba.max(axis=1), n_bins=10)
    observed, predicted = _curve_of(b)
    np.testing.assert_allclose(observed, prob_true, rtol=1e-12)
    np.testing.assert_allclose(predicted, prob_pred, rtol=1e-12)


def test_repetitions_have_probability_figures():
    from svmeval import summarize

    result = _run("heart_scale", repeat=2, keep_repeats=True)
    summary = summarize(result)
    second = result.repeat_results[0]
    labels, proba = _sorted(second)
    assert summary.repeat_figures[1]["log_loss"] == pytest.approx(
        sk_metrics.log_loss(second.y_true, proba, labels=labels), rel=1e-12
    )


def test_without_probabilities_no_figure_and_no_calibration():
    from svmeval import summarize

    summary = summarize(_run("heart_scale", ""))
    assert not set(PROBA) & set(summary.figures)
    assert not any(set(PROBA) & set(f) for f in summary.fold_figures)
    assert summary.calibration == ()
    obj = summary.to_dict()
    assert "calibration" not in obj and "log_loss" not in obj["figures"]


def svmeval_cli(*args, cwd):
    return commands.run("svmeval", args, cwd=cwd)


def test_reports_show_the_figures(tmp_path):
    heart = data_set("heart_scale")
    plain = svmeval_cli("-q", "-v", "5", heart, cwd=tmp_path)
    with_b = svmeval_cli("-q", "-b", "1", "-v", "5", heart, cwd=tmp_path)
    assert plain.returncode == with_b.returncode == 0
    for out in (plain.stdout, with_b.stdout):  # svm-train's lines only, as svm-train prints
        assert "log loss" not in out and "Brier" not in out
    full = svmeval_cli("-q", "-b", "1", "-v", "5", "--full", heart, cwd=tmp_path).stdout
    assert "log loss" in full and "Brier score (+1)" in full and "ECE" in full
    assert "10 equal-width bins of the top-label" in " ".join(full.split())
    obj = json.loads(
        svmeval_cli("-q", "-b", "1", "-v", "5", "--format", "json", heart, cwd=tmp_path).stdout
    )
    assert set(PROBA) <= set(obj["figures"]) and all(set(PROBA) <= set(f) for f in obj["folds"])
    assert obj["calibration"]["brier_score"] == {"positive_class": obj["positive_label"]}
    assert obj["calibration"]["ece"]["n_bins"] == 10
    assert sum(obj["calibration"]["reliability"][0]["count"]) == obj["n_samples"]
    csv_text = svmeval_cli("-q", "-b", "1", "-v", "5", "--format", "csv", heart, cwd=tmp_path)
    rows = [line.split(",") for line in csv_text.stdout.splitlines()]
    named = {r[1]: r for r in rows if r[0] == "figure"}
    assert float(named["log_loss"][13]) == pytest.approx(obj["figures"]["log_loss"], rel=1e-15)


# --- grid criteria ---------------------------------------------------------------------------
def test_grid_probability_criterion_chooses_the_smallest():
    from svmeval import cross_validate, grid_search, summarize

    heart = data_set("heart_scale")
    for criterion in PROBA:
        grid = grid_search(
            heart, "-b 1", 5, log2c=(-1, 3, 2), log2g=(-5, -1, 2), criterion=criterion
        )
        assert grid.greater_is_better is False
        values = []
        for cell in grid.cells:
            options = f"-b 1 -c {2.0**cell.cell.log2c!r} -g {2.0**cell.cell.log2g!r}"
            run = cross_validate(heart, options, folds=5)
            labels, proba = _sorted(run)
            pos = summarize(run).positive
            if criterion == "log_loss":
                value = sk_metrics.log_loss(run.y_true, proba, labels=labels)
            elif criterion == "brier_score":
                k = int(np.flatnonzero(labels == pos)[0])
                value = sk_metrics.brier_score_loss(run.y_true, proba[:, k], pos_label=pos)
            else:
                value = ece_by_formula(run.y_true, proba, labels)
            assert cell.value == pytest.approx(value, rel=1e-12)
            values.append(value)
        assert grid.best.cell == grid.cells[int(np.argmin(values))].cell


def test_nested_cv_accepts_a_probability_criterion():
    from svmeval import nested_cv

    result = nested_cv(
        data_set("heart_scale"),
        "-b 1",
        3,
        inner_folds=3,
        log2c=(-1, 1, 2),
        log2g=(-3, -3, 1),
        criterion="brier_score",
    )
    assert result.criterion == "brier_score" and result.greater_is_better is False


@pytest.mark.parametrize("criterion", PROBA)
def test_library_refuses_a_probability_criterion_without_probabilities(criterion):
    from svmeval import grid_search, nested_cv
    from svmeval.errors import ArgumentError

    heart = data_set("heart_scale")
    with pytest.raises(ArgumentError, match=r"needs class probabilities: .*probability=1"):
        grid_search(heart, "", 5, log2c=(1, 1, 1), log2g=(1, 1, 1), criterion=criterion)
    with pytest.raises(ArgumentError, match="only C-SVC and nu-SVC"):
        grid_search(heart, "-s 2 -b 1", 5, log2c=(1, 1, 1), log2g=(1, 1, 1), criterion=criterion)
    with pytest.raises(ArgumentError, match="does not apply for regression data"):
        grid_search(
            data_set("housing_scale"),
            "-s 3",
            5,
            log2c=(1, 1, 1),
            log2g=(1, 1, 1),
            criterion=criterion,
        )
    with pytest.raises(ArgumentError, match="needs class probabilities"):
        nested_cv(heart, "", 3, log2c=(1, 1, 1), log2g=(1, 1, 1), criterion=criterion)


def grid_cli(*args, cwd):
    return commands.run("grid", args, cwd=cwd)


@pytest.mark.parametrize(
    ("options", "name", "message"),
    [
        ((), "heart_scale", "svmeval-grid: criterion 'log_loss' needs class probabilities"),
        (("-s", "2", "-b", "1"), "heart_scale", "only C-SVC and nu-SVC classifiers"),
        (("-s", "3"), "housing_scale", "does not apply for regression data"),
    ],
)
def test_cli_refuses_in_one_line(tmp_path, options, name, message):
    proc = grid_cli(
        "--criterion",
        "log_loss",
        *options,
        "-log2c",
        "1,1,1",
        "-log2g",
        "1,1,1",
        data_set(name),
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_figures_registry_direction():
    from svmeval.metrics import FIGURES

    for name in PROBA:
        assert FIGURES[name].greater_is_better is False
        assert FIGURES[name].needs_probabilities


def test_the_sheet_draws_the_reliability_diagram_with_its_counts():
    pytest.importorskip("matplotlib")
    from svmeval import plot

    for name, curves in (("heart_scale", 2), ("iris.scale", 1)):
        result = _run(name)
        figure = plot(result)
        (curve,) = [a for a in figure.axes if a.get_title().startswith("reliability diagram")]
        assert len(curve.get_lines()) == 1 + curves  # the diagonal, then the curves
        counts = curve.figure.axes[figure.axes.index(curve) + 1]
        heights = [p.get_height() for p in counts.patches]
        labels, proba = _sorted(result)
        if curves == 2:
            columns = [proba[:, k] for k in range(2)]
        else:
            columns = [proba.max(axis=1)]
        expected = []
        for p in columns:  # 10 bins (b/10, (b+1)/10], written here
            expected += [
                int(
                    np.count_nonzero((p > b / 10) & (p <= (b + 1) / 10))
                    + (b == 0) * np.count_nonzero(p == 0)
                )
                for b in range(10)
            ]
        assert heights == expected
    assert not any(
        a.get_title().startswith("reliability") for a in plot(_run("heart_scale", "")).axes
    )


def test_permutation_test_refuses_a_probability_criterion():
    from svmeval import permutation_test
    from svmeval.errors import ArgumentError

    with pytest.raises(ArgumentError, match="needs class probabilities"):
        permutation_test(data_set("heart_scale"), "", 5, permutations=3, criterion="ece")

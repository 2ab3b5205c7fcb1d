"""Figures from a CV result: ranking figures from decision values, per-fold and per-repeat spread,
checked against scikit-learn on the same predictions and scores."""

from __future__ import annotations

import numpy as np
import pytest

from svmeval.cv.engine import cross_validate
from svmeval.io.data import read_dataset
from svmeval.metrics.scores import ovr_scores_from_ovo
from svmeval.params import SvmParams
from svmeval.summary import summarize

from conftest import ROOT, data_set, zero_one_data

metrics = pytest.importorskip("sklearn.metrics")


def test_binary_ranking_from_decision_values_equals_scikit_learn():
    ds = read_dataset(str(ROOT / "data" / "breast_cancer.scale"))
    r = cross_validate(ds, SvmParams(), 5)
    s = summarize(r)
    # LIBSVM's first label (+1 here) is the positive direction of the decision value
    score = r.decision_values[:, 0] if r.labels[0] == 1 else -r.decision_values[:, 0]
    assert s.figures["roc_auc"] == pytest.approx(
        metrics.roc_auc_score(r.y_true == 1, score), abs=1e-12
    )
    assert s.figures["average_precision"] == pytest.approx(
        metrics.average_precision_score(r.y_true == 1, score), abs=1e-12
    )


def test_binary_ranking_with_other_positive_label(tmp_path):
    path = zero_one_data(tmp_path)  # labels 0/1; LIBSVM's first label is the first seen
    ds = read_dataset(path)
    r = cross_validate(ds, SvmParams(), 5)
    for pos in (0.0, 1.0):
        s = summarize(r, pos_label=pos)
        first = r.labels[0]
        score = r.decision_values[:, 0] * (1 if first == pos else -1)
        assert s.figures["roc_auc"] == pytest.approx(
            metrics.roc_auc_score(r.y_true == pos, score), abs=1e-12
        )


def test_multiclass_ranking_equals_scikit_learn():
    ds = read_dataset(str(ROOT / "data" / "wine.scale"))
    r = cross_validate(ds, SvmParams(), 5, keep_decision_values=True)
    s = summarize(r)
    order = np.argsort(r.labels)
    scores = ovr_scores_from_ovo(r.decision_values, len(r.labels))[:, order]
    labels = r.labels[order]
    Y = (r.y_true[:, None] == labels[None, :]).astype(int)
    assert s.figures["macro_roc_auc"] == pytest.approx(
        metrics.roc_auc_score(Y, scores, average="macro"), abs=1e-12
    )
    assert s.figures["label_ranking_average_precision"] == pytest.approx(
        metrics.label_ranking_average_precision_score(Y, scores), abs=1e-12
    )


def test_ovr_scores_pick_libsvm_prediction():
    ds = read_dataset(data_set("dna.scale"))
    r = cross_validate(ds, SvmParams(), 3, keep_decision_values=True)
    scores = ovr_scores_from_ovo(r.decision_values, len(r.labels))
    votes = np.round(scores)  # the confidence term lies in (-1/3, 1/3)
    unique_winner = (votes == votes.max(axis=1, keepdims=True)).sum(axis=1) == 1
    assert unique_winner.mean() > 0.9
    # where LIBSVM's vote has one winner, the scores pick it; ties LIBSVM breaks by label order
    assert np.array_equal(
        r.labels[np.argmax(scores, axis=1)][unique_winner], r.y_pred[unique_winner]
    )


def test_with_probabilities_scores_are_probabilities():
    ds = read_dataset(data_set("iris.scale"))
    r = cross_validate(ds, SvmParams(probability=1), 5)
    s = summarize(r)
    order = np.argsort(r.labels)
    Y = (r.y_true[:, None] == r.labels[order][None, :]).astype(int)
    assert s.ranking.source == "probabilities"
    assert s.figures["macro_average_precision"] == pytest.approx(
        metrics.average_precision_score(Y, r.probabilities[:, order], average="macro"), abs=1e-12
    )


def test_fold_figures_are_each_folds_own():
    ds = read_dataset(str(ROOT / "data" / "wine.scale"))
    r = cross_validate(ds, SvmParams(), 4)
    s = summarize(r)
    assert len(s.fold_figures) == 4
    for i, figs in enumerate(s.fold_figures):
        m = r.fold == i
        assert figs["accuracy"] == pytest.approx(metrics.accuracy_score(r.y_true[m], r.y_pred[m]))
        assert figs["macro_f1"] == pytest.approx(
            metrics.f1_score(
                r.y_true[m], r.y_pred[m], average="macro", labels=[1, 2, 3], zero_division=0
            )
        )
    values = [f["mcc"] for f in s.fold_figures]
    assert s.fold_spread["mcc"] == pytest.approx((np.mean(values), np.std(values, ddof=1)))


def test_regression_figures_as_svm_train_and_per_fold():
    ds = read_dataset(data_set("housing_scale"))
    r = cross_validate(ds, SvmParams(svm_type=3), 5)
    s = summarize(r)
    assert s.regression.mean_squared_error == pytest.approx(
        metrics.mean_squared_error(r.y_true, r.y_pred), rel=1e-12
    )
    assert s.regression.squared_correlation == pytest.approx(
        np.corrcoef(r.y_true, r.y_pred)[0, 1] ** 2, rel=1e-9
    )
    m = r.fold == 2
    assert s.fold_figures[2]["mse"] == pytest.approx(
        metrics.mean_squared_error(r.y_true[m], r.y_pred[m]), rel=1e-12
    )


@pytest.mark.parametrize("names", [None, ("accuracy", "mcc", "macro_f1")])
def test_folds_with_the_same_counts_get_scikit_learns_figures_each(names):
    """Folds whose confusion matrices repeat (as a repeated CV's do) each get scikit-learn's
    figures of their own rows, at every call, in dicts of their own."""
    from sklearn.metrics import accuracy_score, f1_score, matthews_corrcoef

    from svmeval.metrics.run_figures import classification_fold_figures

    rng = np.random.default_rng(3)
    block_true = rng.integers(0, 3, 12).astype(np.float64)
    block_pred = np.where(rng.random(12) < 0.7, block_true, rng.integers(0, 3, 12))
    y_true = np.concatenate([block_true, block_true[::-1], block_true, block_true])
    y_pred = np.concatenate([block_pred, block_pred[::-1], block_pred, 2.0 - block_pred])
    fold = np.repeat(np.arange(4), 12)
    for _ in range(2):
        figures = classification_fold_figures(y_true, y_pred, fold, 4, names=names)
        for i, f in enumerate(figures):
            t, p = y_true[fold == i], y_pred[fold == i]
            assert f["accuracy"] == pytest.approx(accuracy_score(t, p), abs=1e-15)
            assert f["mcc"] == pytest.approx(matthews_corrcoef(t, p), abs=1e-12)
            assert f["macro_f1"] == pytest.approx(f1_score(t, p, average="macro"), abs=1e-12)
            f["accuracy"] = -1.0  # the caller's own dict

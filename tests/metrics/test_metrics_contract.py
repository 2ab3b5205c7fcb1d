"""Where svmeval's own figures deliberately differ from the scikit-learn-named functions, and the
warning class: each case checked against scikit-learn itself (the scikit-learn-named function
answers as scikit-learn does; svmeval's own API keeps an undefined value undefined)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning as SkUndefined

from svmeval import metrics
from svmeval.metrics import ranking


def test_undefined_precision_is_zero_with_a_warning_there_and_nan_in_evaluate():
    y_true, y_pred = [1, 2, 3, 3], [1, 1, 3, 3]  # class 2 never predicted
    with pytest.warns(SkUndefined):
        want = skm.precision_score(y_true, y_pred, average=None)
    with pytest.warns(metrics.UndefinedMetricWarning) as seen:
        got = metrics.precision_score(y_true, y_pred, average=None)
    assert issubclass(seen[0].category, UserWarning)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    nan_policy = skm.precision_score(y_true, y_pred, average=None, zero_division=np.nan)
    np.testing.assert_array_equal(
        np.isnan(metrics.evaluate(y_true, y_pred).precision), np.isnan(nan_policy)
    )


def test_no_warning_when_zero_division_is_given():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert metrics.f1_score([1, 2], [1, 1], average="macro", zero_division=0) == skm.f1_score(
            [1, 2], [1, 1], average="macro", zero_division=0
        )


def test_empty_input_raises_there_and_is_undefined_in_evaluate():
    for fn in ("accuracy_score", "f1_score", "matthews_corrcoef"):
        with pytest.raises(ValueError):
            getattr(skm, fn)([], [])
        with pytest.raises(ValueError):
            getattr(metrics, fn)([], [])
    assert math.isnan(metrics.evaluate([], []).accuracy)


def test_undefined_mcc_is_zero_there_and_nan_in_evaluate_on_request():
    y_true, y_pred = [1, 1, 2, 2], [1, 1, 1, 1]  # one class predicted
    assert metrics.matthews_corrcoef(y_true, y_pred) == skm.matthews_corrcoef(y_true, y_pred) == 0
    assert math.isnan(metrics.evaluate(y_true, y_pred, zero_division="nan").mcc)


def test_fractional_labels_refused_there_counted_in_evaluate():
    y_true, y_pred = [0.5, 1.0, 2.25, 1.0], [0.5, 2.25, 2.25, 1.0]
    with pytest.raises(ValueError):
        skm.confusion_matrix(y_true, y_pred)
    with pytest.raises(ValueError):
        metrics.confusion_matrix(y_true, y_pred)
    coded = np.searchsorted([0.5, 1.0, 2.25], y_true), np.searchsorted([0.5, 1.0, 2.25], y_pred)
    np.testing.assert_array_equal(
        metrics.evaluate(y_true, y_pred).confusion_matrix, skm.confusion_matrix(*coded)
    )


def test_one_class_auc_is_nan_with_a_warning_and_svmeval_roc_auc_agrees_silently():
    y, s = [1, 1, 1], [0.2, 0.5, 0.1]
    with pytest.warns(SkUndefined):
        assert math.isnan(skm.roc_auc_score(y, s))
    with pytest.warns(metrics.UndefinedMetricWarning):
        assert math.isnan(metrics.roc_auc_score(y, s))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(ranking.roc_auc(y, s))


def test_string_labels_with_weights_and_a_label_order():
    rng = np.random.default_rng(3)
    names = np.array(["ant", "bee", "cat", "dog"])
    y_true, y_pred = names[rng.integers(0, 4, 3000)], names[rng.integers(0, 4, 3000)]
    w = rng.random(3000)
    order = ["dog", "ant", "cat"]
    for fn in ("precision_score", "recall_score", "f1_score"):
        np.testing.assert_allclose(
            getattr(metrics, fn)(y_true, y_pred, labels=order, average=None, sample_weight=w),
            getattr(skm, fn)(y_true, y_pred, labels=order, average=None, sample_weight=w),
            rtol=0,
            atol=1e-12,
        )
    np.testing.assert_allclose(
        metrics.confusion_matrix(y_true, y_pred, labels=order, sample_weight=w),
        skm.confusion_matrix(y_true, y_pred, labels=order, sample_weight=w),
        rtol=0,
        atol=1e-9,
    )


def test_long_string_labels_take_the_hashed_path_and_agree():
    rng = np.random.default_rng(5)
    names = np.array([f"label number {k:05d}" for k in range(300)])
    y_true, y_pred = names[rng.integers(0, 300, 5000)], names[rng.integers(0, 300, 5000)]
    assert metrics.f1_score(y_true, y_pred, average="macro", zero_division=0) == pytest.approx(
        skm.f1_score(y_true, y_pred, average="macro", zero_division=0), abs=1e-12
    )
    np.testing.assert_array_equal(
        metrics.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred)
    )


@pytest.mark.parametrize("broken", [False, True])
def test_string_codes_equal_numpy_unique_even_when_hashes_collide(monkeypatch, broken):
    from svmeval.metrics import encoding

    if broken:  # every string one hash: the check must catch it and fall back
        monkeypatch.setattr(encoding, "_hash", lambda y: np.zeros(y.size, dtype=np.uint64))
    rng = np.random.default_rng(9)
    y = np.array(["b", "a", "ccc", "dd", "a"])[rng.integers(0, 5, 4000)]
    values, codes = encoding.factorize(y)
    want_values, want_codes = np.unique(y, return_inverse=True)
    np.testing.assert_array_equal(values, want_values)
    np.testing.assert_array_equal(codes, want_codes)

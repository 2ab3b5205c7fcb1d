"""Multi-label set metrics: the worked example, scikit-learn as oracle, input errors."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from sklearn import metrics as sk

from svmeval.metrics import (
    MULTILABEL_AVERAGES,
    evaluate_multilabel,
    label_sets_to_indicator,
)

POLICIES = [0, 1, np.nan]

PREDICTED = [(1, 3), (2,), (1, 3), (3,), (3,)]
TRUE = [(1, 2), (1,), (1, 2, 3), (2, 3), (3,)]


def approx(value, digits):
    return pytest.approx(value, abs=0.5 * 10**-digits)


class TestWorkedExample:
    def setup_method(self):
        Y_true, labels = label_sets_to_indicator(TRUE)
        Y_pred, _ = label_sets_to_indicator(PREDICTED, labels)
        self.report = evaluate_multilabel(Y_true, Y_pred, label_names=["1", "2", "3"])

    def test_per_sample_f1_and_mean(self):
        r = self.report
        assert r.sample_f1.tolist() == approx([0.5, 0.0, 0.8, 0.6667, 1.0], 4)
        assert r.averages["samples"].f1 == approx(0.5933, 4)

    def test_per_class_and_macro(self):
        r = self.report
        assert r.f1.tolist() == approx([0.8, 0.0, 0.8571], 4)
        assert r.averages["macro"].f1 == approx(0.5524, 4)
        assert r.label_names == ("1", "2", "3")

    def test_micro(self):
        r = self.report
        assert (r.tp.sum(), r.fp.sum(), r.fn.sum()) == (5, 2, 4)
        assert r.averages["micro"].f1 == approx(0.625, 4)

    def test_set_measures(self):
        r = self.report
        assert r.subset_accuracy == pytest.approx(1 / 5)  # only the last record matches
        assert r.hamming_loss == pytest.approx(6 / 15)  # 2 FP + 4 FN of 15 entries
        assert r.averages["macro_harmonic"].f1 == pytest.approx(
            2
            * r.averages["macro"].precision
            * r.averages["macro"].recall
            / (r.averages["macro"].precision + r.averages["macro"].recall)
        )
        assert tuple(r.averages) == MULTILABEL_AVERAGES


class TestIndicator:
    def test_label_sets_to_indicator(self):
        Y, labels = label_sets_to_indicator([(3, 1), (), (-1.5,)])
        np.testing.assert_array_equal(labels, [-1.5, 1.0, 3.0])
        np.testing.assert_array_equal(Y, [[0, 1, 1], [0, 0, 0], [1, 0, 0]])

    def test_given_labels(self):
        Y, labels = label_sets_to_indicator([(2,)], labels=[3, 2, 1])
        np.testing.assert_array_equal(labels, [1, 2, 3])
        np.testing.assert_array_equal(Y, [[0, 1, 0]])

    def test_unknown_label(self):
        with pytest.raises(
            ValueError, match=r"label_sets contain label\(s\) 4 not in labels=\[1, 2\]"
        ):
            label_sets_to_indicator([(4,)], labels=[1, 2])


class TestUndefined:
    def test_empty_sample_follows_policy(self):
        Y_true = np.array([[1, 0], [0, 0]])
        Y_pred = np.array([[1, 0], [0, 0]])
        for policy, expected in [(0, 0.5), (1, 1.0), ("nan", 1.0)]:
            r = evaluate_multilabel(Y_true, Y_pred, zero_division=policy)
            assert math.isnan(r.sample_f1[1])
            assert r.averages["samples"].f1 == expected
            assert "samples.f1" in r.zero_division_applied

    def test_nothing_undefined(self):
        r = evaluate_multilabel([[1, 0], [0, 1]], [[1, 0], [0, 1]])
        assert r.zero_division_applied == ()

    def test_frozen(self):
        r = evaluate_multilabel([[1, 0]], [[1, 1]])
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.hamming_loss = 0.0
        with pytest.raises(ValueError):
            r.f1[0] = 0.5


def random_indicators(seed):
    rng = np.random.default_rng(seed)
    n, L = int(rng.integers(1, 25)), int(rng.integers(2, 7))
    dt, dp = rng.uniform(0, 0.7), rng.uniform(0, 0.7)
    Y_true = (rng.random((n, L)) < dt).astype(int)
    Y_pred = (rng.random((n, L)) < dp).astype(int)
    if seed % 5 == 0:  # a row with no label at all on both sides
        Y_true[0] = Y_pred[0] = 0
    if seed % 7 == 0:  # a label never true
        Y_true[:, -1] = 0
    return Y_true, Y_pred


CASES = [pytest.param(*random_indicators(s), id=f"case{s}") for s in range(100)]


def close(ours, theirs):
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("zero_division", POLICIES, ids=["zd0", "zd1", "zdnan"])
@pytest.mark.parametrize("Y_true, Y_pred", CASES)
def test_against_sklearn(Y_true, Y_pred, zero_division):
    r = evaluate_multilabel(Y_true, Y_pred, zero_division=zero_division)
    p, rc, f, s = sk.precision_recall_fscore_support(
        Y_true, Y_pred, average=None, zero_division=np.nan
    )
    close(r.precision, p)
    close(r.recall, rc)
    close(r.f1, f)
    np.testing.assert_array_equal(r.support, s)
    mcm = sk.multilabel_confusion_matrix(Y_true, Y_pred)
    np.testing.assert_array_equal(r.tn, mcm[:, 0, 0])
    np.testing.assert_array_equal(r.fp, mcm[:, 0, 1])
    for average in ("samples", "macro", "micro", "weighted"):
        p, rc, f, _ = sk.precision_recall_fscore_support(
            Y_true, Y_pred, average=average, zero_division=zero_division
        )
        got = r.averages[average]
        close([got.precision, got.recall, got.f1], [p, rc, f])
        close(got.f1, sk.f1_score(Y_true, Y_pred, average=average, zero_division=zero_division))
    p, rc, _, _ = sk.precision_recall_fscore_support(
        Y_true, Y_pred, average="macro", zero_division=zero_division
    )
    close(r.averages["macro_harmonic"].f1, 0.0 if p + rc == 0 else 2 * p * rc / (p + rc))
    # per-sample F1: NaN exactly where scikit-learn's nan policy leaves the sample out
    samplewise = sk.multilabel_confusion_matrix(Y_true, Y_pred, samplewise=True)
    tp, fp, fn = samplewise[:, 1, 1], samplewise[:, 0, 1], samplewise[:, 1, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        close(r.sample_f1, np.where(tp + fp + fn == 0, np.nan, 2 * tp / (2 * tp + fp + fn)))
    close(r.subset_accuracy, sk.accuracy_score(Y_true, Y_pred))
    close(r.hamming_loss, sk.hamming_loss(Y_true, Y_pred))
    assert ("samples.f1" in r.zero_division_applied) == bool((tp + fp + fn == 0).any())
    assert ("micro.precision" in r.zero_division_applied) == (Y_pred.sum() == 0)


class TestInputErrors:
    @pytest.mark.parametrize(
        "call, message",
        [
            (lambda: evaluate_multilabel([[1, 0]], [[1, 0, 0]]), "different shapes"),
            (lambda: evaluate_multilabel([1, 0], [1, 0]), "must be a 2-D indicator matrix"),
            (lambda: evaluate_multilabel([[2, 0]], [[1, 0]]), "Y_true must hold only 0 and 1"),
            (lambda: evaluate_multilabel([[1, 0]], [["a", 0]]), "Y_pred must hold only 0 and 1"),
            (
                lambda: evaluate_multilabel([[1, 0]], [[1, 0]], label_names=["a"]),
                "label_names has 1 names for 2 labels",
            ),
            (lambda: evaluate_multilabel([[1, 0]], [[1, 0]], zero_division=2), "zero_division"),
            (lambda: label_sets_to_indicator([("x",)]), "numeric labels"),
        ],
    )
    def test_value_errors(self, call, message):
        with pytest.raises(ValueError, match=message):
            call()

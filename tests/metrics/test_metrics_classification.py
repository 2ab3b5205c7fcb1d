"""Single-label metrics: worked examples, undefined values, streaming, registry, input errors."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from svmeval.metrics import (
    AVERAGES,
    METRICS,
    SINGLE_LABEL_AVERAGES,
    ClassificationReport,
    ConfusionCounts,
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    evaluate,
    f1_score,
    fbeta_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

# dog = 0, cat = 1, pig = 2; pairs are (predicted, actual).
PAIRS = [(0, 0), (1, 1), (2, 1), (0, 0), (0, 1), (0, 0), (1, 0), (1, 1), (2, 2), (0, 0)]
ANIMALS_PRED = [p for p, _ in PAIRS]
ANIMALS_TRUE = [t for _, t in PAIRS]


def heart_scale_vectors():
    """TP 93, FN 27, FP 19, TN 131 with positive label +1 and negative -1."""
    y_true = [1] * 93 + [1] * 27 + [-1] * 19 + [-1] * 131
    y_pred = [1] * 93 + [-1] * 27 + [1] * 19 + [-1] * 131
    return y_true, y_pred


def approx(value, digits):
    return pytest.approx(value, abs=0.5 * 10**-digits)


class TestWorkedExamples:
    def test_animals_per_class(self):
        r = evaluate(ANIMALS_TRUE, ANIMALS_PRED)
        np.testing.assert_array_equal(r.labels, [0.0, 1.0, 2.0])
        # rows true, columns predicted
        np.testing.assert_array_equal(r.confusion_matrix, [[4, 1, 0], [1, 2, 1], [0, 0, 1]])
        assert r.precision.tolist() == approx([0.8, 0.6667, 0.5], 4)
        assert r.recall.tolist() == approx([0.8, 0.5, 1.0], 4)
        assert r.f1.tolist() == approx([0.8, 0.5714, 0.6667], 4)
        assert r.ovr_accuracy.tolist() == approx([0.8, 0.7, 0.9], 4)
        assert r.accuracy == approx(0.7, 4)

    def test_animals_averages(self):
        r = evaluate(ANIMALS_TRUE, ANIMALS_PRED)
        assert r.averages["macro"].precision == approx(0.6556, 4)
        assert r.averages["macro"].recall == approx(0.7667, 4)
        assert r.averages["macro"].f1 == approx(0.6794, 4)
        assert r.averages["macro_harmonic"].f1 == approx(0.7068, 4)
        micro = r.averages["micro"]
        assert (micro.precision, micro.recall, micro.f1) == approx((0.7, 0.7, 0.7), 4)
        assert r.zero_division_applied == ()

    def test_three_labels_one_missing_from_pred(self):
        r = evaluate([1, 2, 3], [1, 1, 3])
        m = r.averages["macro"]
        assert (m.precision, m.recall, m.f1) == approx((0.5, 0.6667, 0.5556), 4)

    def test_six_samples(self):
        r = evaluate([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2])
        m = r.averages["macro"]
        assert (m.precision, m.recall, m.f1) == approx((0.888889, 0.833333, 0.822222), 6)
        assert r.averages["macro_harmonic"].f1 == approx(0.860215, 6)

    def test_heart_scale(self):
        y_true, y_pred = heart_scale_vectors()
        r = evaluate(y_true, y_pred)
        np.testing.assert_array_equal(r.labels, [-1.0, 1.0])
        pos = 1  # index of label +1
        assert (r.tp[pos], r.fn[pos], r.fp[pos], r.tn[pos]) == (93, 27, 19, 131)
        assert r.averages["macro"].f1 == approx(0.8262, 4)
        assert r.averages["weighted"].f1 == approx(0.8289, 4)
        assert r.mcc == approx(0.65388, 5)
        assert r.balanced_accuracy == approx(0.82417, 5)
        assert r.kappa == approx(0.65268, 5)

    def test_heart_scale_standalone(self):
        y_true, y_pred = heart_scale_vectors()
        assert f1_score(y_true, y_pred, average="macro") == approx(0.8262, 4)
        assert f1_score(y_true, y_pred, average="weighted") == approx(0.8289, 4)
        assert f1_score(y_true, y_pred) == pytest.approx(2 * 93 / (2 * 93 + 19 + 27))
        assert precision_score(y_true, y_pred, pos_label=-1) == pytest.approx(131 / (131 + 27))
        assert recall_score(y_true, y_pred) == pytest.approx(93 / 120)
        assert matthews_corrcoef(y_true, y_pred) == approx(0.65388, 5)
        assert balanced_accuracy_score(y_true, y_pred) == approx(0.82417, 5)
        assert cohen_kappa_score(y_true, y_pred) == approx(0.65268, 5)
        assert accuracy_score(y_true, y_pred) == pytest.approx(224 / 270)


class TestUndefined:
    def test_f_defined_when_precision_undefined(self):
        # class 0: TP 0, FP 0, FN 2 -> precision 0/0, recall 0, F1 = 0/(0+0+2) = 0 (defined)
        r = evaluate([0, 0], [1, 1], zero_division=1)
        assert math.isnan(r.precision[0]) and r.recall[0] == 0.0 and r.f1[0] == 0.0
        # class 1: TP 0, FP 2, FN 0 -> recall 0/0, precision 0, F1 = 0
        assert r.precision[1] == 0.0 and math.isnan(r.recall[1]) and r.f1[1] == 0.0
        # the policy fills precision/recall but F1 stays 0 whatever the policy
        assert r.averages["macro"].precision == 0.5
        assert r.averages["macro"].f1 == 0.0
        assert "macro.f1" not in r.zero_division_applied

    def test_f_undefined_only_when_class_absent(self):
        r = evaluate([0, 1], [0, 1], labels=[0, 1, 2], zero_division="nan")
        assert math.isnan(r.f1[2]) and math.isnan(r.precision[2]) and math.isnan(r.recall[2])
        assert r.averages["macro"].f1 == 1.0  # class 2 left out
        assert r.support.tolist() == [1, 1, 0]

    @pytest.mark.parametrize("policy, expected", [(0, 2 / 3), (1, 1.0), ("nan", 1.0)])
    def test_policy_in_macro(self, policy, expected):
        r = evaluate([0, 1], [0, 1], labels=[0, 1, 2], zero_division=policy)
        assert r.averages["macro"].precision == pytest.approx(expected)
        assert "macro.precision" in r.zero_division_applied
        assert "macro_harmonic.f1" in r.zero_division_applied
        # class 2 has support 0: the weighted average gives it no weight, so no policy applied
        assert not any(a.startswith("weighted.") for a in r.zero_division_applied)
        assert not any(a.startswith("micro.") for a in r.zero_division_applied)

    def test_applied_records_weighted_precision(self):
        # class 3 has support but is never predicted: precision undefined with weight 1
        r = evaluate([1, 2, 3], [1, 1, 3])
        assert math.isnan(r.precision[1])
        assert r.zero_division_applied == (
            "macro.precision",
            "macro_harmonic.precision",
            "macro_harmonic.f1",
            "macro_harmonic.fbeta",
            "weighted.precision",
        )

    def test_policy_is_recorded(self):
        assert math.isnan(evaluate([0], [0], zero_division="nan").zero_division)
        assert math.isnan(evaluate([0], [0], zero_division=float("nan")).zero_division)
        assert evaluate([0], [0], zero_division=1).zero_division == 1.0
        assert evaluate([0], [0]).zero_division == 0.0

    def test_overall_undefined(self):
        r = evaluate([1, 1, 1], [1, 1, 1])
        assert r.accuracy == 1.0 and r.balanced_accuracy == 1.0
        assert math.isnan(r.kappa)
        # MCC's 0/0 follows the zero-division policy: 0 by default (scikit-learn's value), and
        # the policy names it among the figures it replaced
        assert r.mcc == 0.0 and "mcc" in r.zero_division_applied
        left_out = evaluate([1, 1, 1], [1, 1, 1], zero_division="nan")
        assert math.isnan(left_out.mcc) and "mcc" not in left_out.zero_division_applied
        assert math.isnan(r.specificity[0]) and r.npv[0] != r.npv[0]

    def test_empty_input(self):
        r = evaluate([], [])
        assert r.n_samples == 0 and r.labels.size == 0
        assert math.isnan(r.accuracy) and math.isnan(r.mcc) and math.isnan(r.kappa)
        assert r.averages["micro"].f1 == 0.0 and "micro.f1" in r.zero_division_applied
        assert math.isnan(r.averages["macro"].f1)  # no class to average over

    def test_macro_harmonic_zero_when_p_and_r_zero(self):
        r = evaluate([0, 1], [1, 0])
        assert r.averages["macro_harmonic"].f1 == 0.0

    def test_fbeta_limits(self):
        y_true, y_pred = [0, 0, 1, 1, 2], [0, 1, 1, 2, 2]
        r0 = evaluate(y_true, y_pred, beta=0)
        rinf = evaluate(y_true, y_pred, beta=math.inf)
        np.testing.assert_allclose(r0.fbeta, r0.precision)
        np.testing.assert_allclose(rinf.fbeta, rinf.recall)
        r1 = evaluate(y_true, y_pred)
        np.testing.assert_array_equal(r1.fbeta, r1.f1)


class TestConfusionMatrix:
    """svmeval's own counts: LIBSVM's labels (doubles, fractional too), ascending."""

    def test_rows_true_columns_predicted_ascending(self):
        m = ConfusionCounts().update([2.5, -1, -1], [-1, 2.5, -1]).matrix
        np.testing.assert_array_equal(m, [[1, 1], [1, 0]])
        assert m.dtype == np.int64

    def test_labels_add_unseen(self):
        m = ConfusionCounts([3, 2, 1]).update([1, 2], [1, 1]).matrix
        np.testing.assert_array_equal(m, [[1, 0, 0], [1, 0, 0], [0, 0, 0]])


class TestStreaming:
    def test_update_fold_by_fold_equals_pooled(self):
        y_true, y_pred = np.array(ANIMALS_TRUE), np.array(ANIMALS_PRED)
        counts = ConfusionCounts()
        for fold in np.array_split(np.arange(10), 3):
            counts.update(y_true[fold], y_pred[fold])
        assert_same_report(counts.report(), evaluate(y_true, y_pred))

    def test_merge_grows_labels(self):
        a = ConfusionCounts().update([1, 1], [1, 1])
        b = ConfusionCounts().update([3, -2], [3, 3])
        a.merge(b)
        np.testing.assert_array_equal(a.labels, [-2, 1, 3])
        np.testing.assert_array_equal(a.matrix, confusion_matrix([1, 1, 3, -2], [1, 1, 3, 3]))
        assert a.n_samples == 4

    def test_from_matrix(self):
        m = confusion_matrix(ANIMALS_TRUE, ANIMALS_PRED)
        assert_same_report(
            ConfusionCounts.from_matrix([0, 1, 2], m).report(), evaluate(ANIMALS_TRUE, ANIMALS_PRED)
        )

    def test_fixed_labels_reject_unknown(self):
        with pytest.raises(
            ValueError, match=r"y_pred contains label\(s\) 4 not in labels=\[1, 2\]"
        ):
            ConfusionCounts([1, 2]).update([1], [4])
        with pytest.raises(ValueError, match="not in labels"):
            ConfusionCounts([1, 2]).merge(ConfusionCounts().update([5], [5]))

    def test_report_does_not_change_with_later_updates(self):
        counts = ConfusionCounts().update([0, 1], [0, 1])
        report = counts.report()
        counts.update([1], [0])
        assert report.accuracy == 1.0 and report.n_samples == 2


def assert_same_report(a: ClassificationReport, b: ClassificationReport):
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.confusion_matrix, b.confusion_matrix)
    for name in METRICS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.averages == b.averages
    assert a.zero_division_applied == b.zero_division_applied


class TestReportShape:
    def test_frozen_and_read_only(self):
        r = evaluate([0, 1], [0, 0])
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.accuracy = 1.0
        with pytest.raises(ValueError):
            r.precision[0] = 1.0
        with pytest.raises(TypeError):
            r.averages["macro"] = None

    def test_types(self):
        r = evaluate([0, 1, 1], [0, 0, 1])
        assert r.labels.dtype == np.float64
        for name, metric in METRICS.items():
            value = getattr(r, name)
            if metric.scope == "count":
                assert value.dtype == np.int64, name
            elif metric.scope == "per_class":
                assert value.dtype == np.float64 and value.shape == (2,), name
            else:
                assert type(value) is float, name
        assert (
            tuple(r.averages)
            == SINGLE_LABEL_AVERAGES
            == ("macro", "macro_harmonic", "micro", "weighted")
        )


class TestRegistry:
    def test_every_metric_documented_once(self):
        fields = {f.name for f in dataclasses.fields(ClassificationReport)}
        for name, metric in METRICS.items():
            assert metric.name == name and name in fields
            assert metric.scope in ("count", "per_class", "overall")
            for text in (metric.description, metric.formula, metric.undefined, metric.reference):
                assert text and "\n" not in text, name

    def test_report_fields_are_registered(self):
        per_class = {
            "tp",
            "fp",
            "fn",
            "tn",
            "support",
            "precision",
            "recall",
            "f1",
            "fbeta",
            "specificity",
            "npv",
            "ovr_accuracy",
        }
        overall = {"accuracy", "balanced_accuracy", "mcc", "kappa"}
        assert set(METRICS) == per_class | overall
        assert {n for n, m in METRICS.items() if m.scope == "overall"} == overall

    def test_averages_registered(self):
        assert set(AVERAGES) == {"macro", "macro_harmonic", "micro", "weighted", "samples"}
        for a in AVERAGES.values():
            assert a.description and a.formula and a.reference


class TestInputErrors:
    @pytest.mark.parametrize(
        "call, message",
        [
            (lambda: evaluate([1, 2], [1]), "y_true and y_pred have different lengths"),
            (lambda: evaluate([[1, 2]], [[1, 2]]), "y_true must be one-dimensional"),
            (lambda: evaluate(["a"], ["a"]), "y_true must hold numeric labels"),
            (lambda: evaluate([1.0], [float("nan")]), "y_pred contains a label that is NaN"),
            (lambda: evaluate([1, 3], [1, 1], labels=[1, 2]), r"y_true contains label\(s\) 3"),
            (lambda: evaluate([1], [1], zero_division=0.5), "zero_division must be 0, 1 or 'nan'"),
            (lambda: evaluate([1], [1], zero_division="warn"), "zero_division must be"),
            (lambda: evaluate([1], [1], beta=-1), "beta must be a number >= 0"),
            (lambda: f1_score([1], [1], average="all"), "The 'average' parameter of f1_score"),
            (lambda: f1_score([1], [1], average="samples"), "Samplewise metrics are not available"),
            (lambda: f1_score([1, 2, 3], [1, 2, 3]), "Target is multiclass but average='binary'"),
            (lambda: f1_score([0, 2], [0, 2]), "pos_label=1 is not a valid label"),
            (lambda: fbeta_score([1], [1], beta="x"), "The 'beta' parameter of fbeta_score"),
        ],
    )
    def test_value_errors(self, call, message):
        with pytest.raises(ValueError, match=message):
            call()

    def test_merge_type(self):
        with pytest.raises(TypeError):
            ConfusionCounts().merge([1, 2])

"""Properties of the single-label metrics (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from svmeval.metrics import METRICS, ConfusionCounts, evaluate

LABELS = st.sampled_from([-1.0, 1.0, 0.0, 2.0, 3.5, 10.0])
POLICY = st.sampled_from([0, 1, "nan"])


@st.composite
def paired_labels(draw, min_size=1):
    n = draw(st.integers(min_size, 60))
    y_true = draw(st.lists(LABELS, min_size=n, max_size=n))
    y_pred = draw(st.lists(LABELS, min_size=n, max_size=n))
    return np.array(y_true), np.array(y_pred)


def assert_identical(a, b):
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.confusion_matrix, b.confusion_matrix)
    for name in METRICS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for name in a.averages:
        np.testing.assert_array_equal(
            [getattr(a.averages[name], m) for m in ("precision", "recall", "f1", "fbeta")],
            [getattr(b.averages[name], m) for m in ("precision", "recall", "f1", "fbeta")],
            err_msg=name,
        )
    assert a.zero_division_applied == b.zero_division_applied


@given(paired_labels(), POLICY)
def test_micro_f1_equals_accuracy(pair, policy):
    y_true, y_pred = pair
    r = evaluate(y_true, y_pred, zero_division=policy)
    micro = r.averages["micro"]
    accuracy = np.mean(y_true == y_pred)  # independent of the confusion matrix
    assert math.isclose(micro.f1, accuracy, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(micro.precision, accuracy, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(micro.recall, accuracy, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(r.accuracy, accuracy, rel_tol=1e-12, abs_tol=1e-15)


@given(paired_labels(), st.randoms(use_true_random=False), POLICY)
def test_figures_do_not_depend_on_sample_order(pair, rnd, policy):
    y_true, y_pred = pair
    order = list(range(y_true.size))
    rnd.shuffle(order)
    assert_identical(
        evaluate(y_true, y_pred, zero_division=policy),
        evaluate(y_true[order], y_pred[order], zero_division=policy),
    )


@settings(max_examples=150)
@given(
    paired_labels(),
    st.lists(st.integers(0, 60), max_size=6),
    POLICY,
    st.sampled_from([0.5, 1.0, 2.0]),
)
def test_fold_counts_sum_to_pooled_counts(pair, cuts, policy, beta):
    y_true, y_pred = pair
    folds = np.split(np.arange(y_true.size), sorted(c for c in cuts if c <= y_true.size))
    pooled = evaluate(y_true, y_pred, zero_division=policy, beta=beta)
    # one accumulator updated fold by fold
    running = ConfusionCounts()
    for fold in folds:
        running.update(y_true[fold], y_pred[fold])
    assert_identical(running.report(zero_division=policy, beta=beta), pooled)
    # independent per-fold counts (each with its own label set) merged
    merged = ConfusionCounts()
    for fold in folds:
        merged.merge(ConfusionCounts().update(y_true[fold], y_pred[fold]))
    assert_identical(merged.report(zero_division=policy, beta=beta), pooled)
    # the per-fold matrices, embedded in the pooled label order, add up to the pooled matrix
    total = np.zeros_like(pooled.confusion_matrix)
    for fold in folds:
        part = ConfusionCounts(pooled.labels).update(y_true[fold], y_pred[fold])
        total += part.matrix
    np.testing.assert_array_equal(total, pooled.confusion_matrix)


@given(paired_labels(), POLICY)
def test_counts_partition_the_samples(pair, policy):
    y_true, y_pred = pair
    r = evaluate(y_true, y_pred, zero_division=policy)
    np.testing.assert_array_equal(r.tp + r.fp + r.fn + r.tn, np.full(r.labels.size, y_true.size))
    assert r.support.sum() == y_true.size
    for name, m in METRICS.items():
        if m.scope == "per_class":
            values = getattr(r, name)
            defined = values[~np.isnan(values)]
            assert np.all((defined >= 0) & (defined <= 1)), name

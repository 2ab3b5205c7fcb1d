"""Threshold-free metrics: scikit-learn is the oracle (test-only), plus brute-force definitions."""

from __future__ import annotations

import math
import warnings
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

from svmeval.metrics.ranking import (
    average_precision,
    coverage,
    label_ranking_average_precision,
    macro_average_precision,
    macro_roc_auc,
    ovr_average_precision,
    ovr_roc_auc,
    per_label_average_precision,
    ranking_loss,
    roc_auc,
)

TOL = dict(rel=1e-12, abs=1e-12)
LABEL_SETS = [(0, 1), (-1, 1), (1, 2)]


def _scores(rng, n, kind):
    if kind == "continuous":
        return rng.standard_normal(n)
    if kind == "few_ints":  # heavy ties
        return rng.integers(0, 3, n).astype(float)
    return np.round(rng.standard_normal(n), 1)  # some ties


def _sk_binary(y_pos, s):
    """scikit-learn on the 0/1 indicator of our positive class."""
    yb = np.asarray(y_pos, dtype=int)
    return skm.roc_auc_score(yb, s), skm.average_precision_score(yb, s)


def _brute_auc(y_pos, s):
    p, n = s[y_pos], s[~y_pos]
    d = p[:, None] - n[None, :]
    return ((d > 0).sum() + 0.5 * (d == 0).sum()) / d.size


# ---------------------------------------------------------------------------------------------
# Binary
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "labels,kind,seed",
    list(product(LABEL_SETS, ["continuous", "few_ints", "rounded"], range(25))),
)
def test_binary_matches_sklearn(labels, kind, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    p_pos = rng.choice([0.5, 0.1, 0.02])  # balanced and heavily imbalanced
    is_pos = rng.random(n) < p_pos
    is_pos[rng.integers(n)] = True
    is_pos[rng.integers(n)] = False
    if is_pos.all() or not is_pos.any():
        is_pos[0], is_pos[1] = True, False
    neg, pos = labels if labels != (1, 2) else (2, 1)  # default positive is 1 in every set
    y = np.where(is_pos, pos, neg)
    s = _scores(rng, n, kind)
    want_auc, want_ap = _sk_binary(is_pos, s)
    assert roc_auc(y, s) == pytest.approx(want_auc, **TOL)
    assert average_precision(y, s) == pytest.approx(want_ap, **TOL)
    assert roc_auc(y, s) == pytest.approx(_brute_auc(is_pos, s), **TOL)


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    n=st.integers(2, 60),
    tie_levels=st.integers(1, 6),
)
def test_binary_property_vs_sklearn(data, n, tie_levels):
    is_pos = data.draw(hnp.arrays(bool, n))
    is_pos[0], is_pos[-1] = True, False
    ints = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, tie_levels - 1)))
    s = ints.astype(float) * 0.25 - 0.5
    want_auc, want_ap = _sk_binary(is_pos, s)
    assert roc_auc(is_pos, s) == pytest.approx(want_auc, **TOL)
    assert average_precision(is_pos, s) == pytest.approx(want_ap, **TOL)


@settings(max_examples=100, deadline=None)
@given(s=hnp.arrays(np.float64, st.integers(2, 40), elements=st.floats(-1e6, 1e6)), data=st.data())
def test_auc_swapping_positive_class_gives_complement(s, data):
    y = data.draw(hnp.arrays(np.int64, s.size, elements=st.sampled_from([-1, 1])))
    y[0], y[-1] = -1, 1
    a = roc_auc(y, s, pos_label=1)
    b = roc_auc(y, s, pos_label=-1)
    assert a + b == pytest.approx(1.0, **TOL)


def test_published_example_ap_is_five_sixths():
    ap = average_precision([1, 0, 1, 0], [1, 0.8, 0.6, 0.4])
    # 5/6 up to the rounding of one float operation; bit-identical to scikit-learn.
    assert abs(ap - 5 / 6) <= np.spacing(5 / 6)
    assert ap == skm.average_precision_score([1, 0, 1, 0], [1, 0.8, 0.6, 0.4])


def test_known_values():
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    # All tied: the ROC is the diagonal; AP is the positive rate.
    assert roc_auc([0, 1, 1, 0], [3, 3, 3, 3]) == 0.5
    assert average_precision([0, 1, 0, 0], [3, 3, 3, 3]) == 0.25
    # Perfect and reversed ranking.
    assert roc_auc([0, 0, 1], [1, 2, 3]) == 1.0
    assert roc_auc([0, 0, 1], [3, 2, 1]) == 0.0
    assert average_precision([0, 0, 1], [1, 2, 3]) == 1.0


def test_infinite_scores_are_ordered():
    y = [0, 1, 0, 1]
    s = [-np.inf, np.inf, 0.0, 1.0]
    assert roc_auc(y, s) == 1.0
    assert average_precision(y, s) == 1.0


@pytest.mark.parametrize(
    "y,pos_label,expected_positive",
    [
        ([0, 1, 0, 1], None, 1),
        ([-1, 1, -1, 1], None, 1),
        ([2, 1, 2, 1], None, 1),
        ([2, 3, 2, 3], None, 3),
        ([False, True, False, True], None, True),
        (["no", "yes", "no", "yes"], None, "yes"),
        ([0.0, 1.0, 0.0, 1.0], None, 1.0),
        ([0, 1, 0, 1], 0, 0),
        ([2, 1, 2, 1], 2, 2),
        (["no", "yes", "no", "yes"], "no", "no"),
    ],
)
def test_pos_label_rule(y, pos_label, expected_positive):
    s = np.array([0.1, 0.9, 0.4, 0.3])
    is_pos = np.array([v == expected_positive for v in y])
    want_auc, want_ap = _sk_binary(is_pos, s)
    assert roc_auc(y, s, pos_label=pos_label) == pytest.approx(want_auc, **TOL)
    assert average_precision(y, s, pos_label=pos_label) == pytest.approx(want_ap, **TOL)


@pytest.mark.parametrize("y", [[1, 1, 1], [0, 0, 0], [-1, -1], [2, 2], [True, True], []])
def test_single_class_is_nan(y):
    s = np.linspace(0, 1, len(y))
    assert math.isnan(roc_auc(y, s))
    assert math.isnan(average_precision(y, s))


def test_single_class_with_explicit_pos_label():
    s = [0.2, 0.7, 0.1]
    # ROC AUC needs both classes.
    assert math.isnan(roc_auc([1, 1, 1], s, pos_label=1))
    assert math.isnan(roc_auc([0, 0, 0], s, pos_label=1))
    # AP needs a positive only: no positive -> nan, all positive -> every precision is 1.
    assert math.isnan(average_precision([0, 0, 0], s, pos_label=1))
    assert average_precision([1, 1, 1], s, pos_label=1) == 1.0


@pytest.mark.parametrize("fn", [roc_auc, average_precision])
@pytest.mark.parametrize(
    "y,s,match",
    [
        ([0, 1, 0], [0.1, 0.2], "different numbers of samples"),
        ([0, 1], [0.1, 0.2, 0.3], "different numbers of samples"),
        ([[0, 1]], [0.1, 0.2], "1-D"),
        ([0, 1], [[0.1, 0.2]], "1-D"),
        ([0, 1, 2], [0.1, 0.2, 0.3], "at most 2"),
        ([0, 1], [0.1, np.nan], "NaN"),
        ([0.0, np.nan], [0.1, 0.2], "NaN"),
        ([0, 1], ["a", "b"], "numeric"),
    ],
)
def test_binary_malformed_raises(fn, y, s, match):
    with pytest.raises(ValueError, match=match):
        fn(y, s)


@pytest.mark.parametrize("fn", [roc_auc, average_precision])
def test_pos_label_not_present_raises(fn):
    with pytest.raises(ValueError, match="pos_label=5"):
        fn([0, 1, 0], [0.1, 0.2, 0.3], pos_label=5)


def test_pos_label_is_keyword_only():
    with pytest.raises(TypeError):
        roc_auc([0, 1], [0.1, 0.2], 1)


# ---------------------------------------------------------------------------------------------
# Multiclass one-vs-rest
# ---------------------------------------------------------------------------------------------


def _multiclass_case(rng, n_classes, n, kind):
    classes = np.sort(rng.choice(np.arange(-3, 10), n_classes, replace=False))
    y = rng.choice(classes, n, p=rng.dirichlet(np.ones(n_classes)))
    y[:n_classes] = classes  # every class present
    rng.shuffle(y)
    if kind == "continuous":
        raw = rng.random((n, n_classes)) + 1e-3
    else:
        raw = rng.integers(1, 4, (n, n_classes)).astype(float)
    return classes, y, raw


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("kind", ["continuous", "few_ints"])
def test_ovr_per_class_matches_sklearn(seed, kind):
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(3, 7))
    classes, y, s = _multiclass_case(rng, n_classes, int(rng.integers(n_classes + 2, 200)), kind)
    Yb = label_binarize(y, classes=classes)
    want_auc = [skm.roc_auc_score(Yb[:, j], s[:, j]) for j in range(n_classes)]
    want_ap = [skm.average_precision_score(Yb[:, j], s[:, j]) for j in range(n_classes)]
    got_auc = ovr_roc_auc(y, s, classes)
    got_ap = ovr_average_precision(y, s, classes)
    assert got_auc.shape == got_ap.shape == (n_classes,)
    np.testing.assert_allclose(got_auc, want_auc, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got_ap, want_ap, rtol=1e-12, atol=1e-12)
    assert macro_average_precision(y, s, classes) == pytest.approx(
        skm.average_precision_score(Yb, s, average="macro"), **TOL
    )
    # scikit-learn's multiclass ROC AUC wants probabilities (rows summing to 1).
    prob = s / s.sum(axis=1, keepdims=True)
    assert macro_roc_auc(y, prob, classes) == pytest.approx(
        skm.roc_auc_score(y, prob, multi_class="ovr", average="macro", labels=classes), **TOL
    )


def test_ovr_column_order_follows_labels():
    rng = np.random.default_rng(7)
    classes, y, s = _multiclass_case(rng, 4, 80, "few_ints")
    perm = np.array([2, 0, 3, 1])
    np.testing.assert_array_equal(
        ovr_roc_auc(y, s[:, perm], classes[perm]), ovr_roc_auc(y, s, classes)[perm]
    )
    np.testing.assert_array_equal(
        ovr_average_precision(y, s[:, perm], classes[perm]),
        ovr_average_precision(y, s, classes)[perm],
    )


def test_ovr_two_classes_equals_binary():
    rng = np.random.default_rng(3)
    y = rng.choice([-1, 1], 50)
    s = rng.standard_normal((50, 2))
    auc = ovr_roc_auc(y, s, [1, -1])
    assert auc[0] == pytest.approx(roc_auc(y, s[:, 0]), **TOL)
    assert auc[1] == pytest.approx(roc_auc(y, s[:, 1], pos_label=-1), **TOL)


def test_ovr_absent_class_is_nan_and_macro_is_nan():
    y = np.array([1, 2, 1, 2, 1])
    s = np.random.default_rng(0).random((5, 3))
    auc = ovr_roc_auc(y, s, [1, 2, 3])
    ap = ovr_average_precision(y, s, [1, 2, 3])
    assert not np.isnan(auc[:2]).any() and math.isnan(auc[2])
    assert not np.isnan(ap[:2]).any() and math.isnan(ap[2])
    assert math.isnan(macro_roc_auc(y, s, [1, 2, 3]))
    assert math.isnan(macro_average_precision(y, s, [1, 2, 3]))


def test_ovr_only_one_class_present():
    y = np.array([2, 2, 2])
    s = np.random.default_rng(0).random((3, 3))
    auc = ovr_roc_auc(y, s, [1, 2, 3])
    ap = ovr_average_precision(y, s, [1, 2, 3])
    assert np.isnan(auc).all()
    assert math.isnan(ap[0]) and ap[1] == 1.0 and math.isnan(ap[2])


@pytest.mark.parametrize(
    "fn", [ovr_roc_auc, ovr_average_precision, macro_roc_auc, macro_average_precision]
)
@pytest.mark.parametrize(
    "y,s,labels,match",
    [
        ([1, 2, 3], np.ones((2, 3)), [1, 2, 3], "different numbers of samples"),
        ([1, 2, 3], np.ones((3, 2)), [1, 2, 3], "2 columns but 3 labels"),
        ([1, 2, 3], np.ones(3), [1, 2, 3], "2-D"),
        ([1, 2, 4], np.ones((3, 3)), [1, 2, 3], r"not in labels: \[4\]"),
        ([1, 2, 2], np.ones((3, 3)), [1, 2, 2], "distinct"),
        ([1, 2, 3], np.full((3, 3), np.nan), [1, 2, 3], "NaN"),
        ([[1, 2, 3]], np.ones((1, 3)), [1, 2, 3], "1-D"),
    ],
)
def test_ovr_malformed_raises(fn, y, s, labels, match):
    with pytest.raises(ValueError, match=match):
        fn(y, s, labels)


# ---------------------------------------------------------------------------------------------
# Multi-label
# ---------------------------------------------------------------------------------------------


def _multilabel_case(rng, n, n_labels, kind):
    Y = (rng.random((n, n_labels)) < rng.uniform(0.05, 0.6)).astype(int)
    Y[0] = 0  # a row with no label
    Y[1] = 1  # a row with every label
    if kind == "continuous":
        S = rng.standard_normal((n, n_labels))
    else:
        S = rng.integers(0, 3, (n, n_labels)).astype(float)
    return Y, S


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("kind", ["continuous", "few_ints"])
def test_multilabel_ranking_matches_sklearn(seed, kind):
    rng = np.random.default_rng(seed)
    Y, S = _multilabel_case(rng, int(rng.integers(2, 120)), int(rng.integers(2, 9)), kind)
    assert label_ranking_average_precision(Y, S) == pytest.approx(
        skm.label_ranking_average_precision_score(Y, S), **TOL
    )
    assert coverage(Y, S) == pytest.approx(skm.coverage_error(Y, S), **TOL)
    assert ranking_loss(Y, S) == pytest.approx(skm.label_ranking_loss(Y, S), **TOL)


@settings(max_examples=150, deadline=None)
@given(
    Y=hnp.arrays(
        np.int64, st.tuples(st.integers(1, 12), st.integers(2, 6)), elements=st.integers(0, 1)
    ),
    data=st.data(),
)
def test_multilabel_property_vs_sklearn(Y, data):
    S = data.draw(hnp.arrays(np.float64, Y.shape, elements=st.sampled_from([-1.0, 0.0, 0.5, 2.0])))
    assert label_ranking_average_precision(Y, S) == pytest.approx(
        skm.label_ranking_average_precision_score(Y, S), **TOL
    )
    assert coverage(Y, S) == pytest.approx(skm.coverage_error(Y, S), **TOL)
    assert ranking_loss(Y, S) == pytest.approx(skm.label_ranking_loss(Y, S), **TOL)


@pytest.mark.parametrize("seed", range(20))
def test_per_label_ap_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    Y, S = _multilabel_case(
        rng,
        int(rng.integers(3, 150)),
        int(rng.integers(2, 8)),
        ["continuous", "few_ints"][seed % 2],
    )
    Y[:, 0] = 0  # a column with no positive
    Y[0, 0] = 0
    got = per_label_average_precision(Y, S)
    assert got.shape == (Y.shape[1],)
    assert math.isnan(got[0])
    for k in range(1, Y.shape[1]):
        if Y[:, k].any():
            assert got[k] == pytest.approx(skm.average_precision_score(Y[:, k], S[:, k]), **TOL)
        else:
            assert math.isnan(got[k])


def test_per_label_ap_all_ones_column_is_one():
    Y = np.array([[1, 0], [1, 1], [1, 0]])
    S = np.array([[0.1, 0.2], [0.3, 0.9], [0.2, 0.1]])
    got = per_label_average_precision(Y, S)
    assert got[0] == 1.0 and got[1] == 1.0


def test_published_example_lrap_is_five_sixths():
    lrap = label_ranking_average_precision([[1, 0, 1, 0]], [[1, 0.8, 0.6, 0.4]])
    assert abs(lrap - 5 / 6) <= np.spacing(5 / 6)
    assert lrap == skm.label_ranking_average_precision_score([[1, 0, 1, 0]], [[1, 0.8, 0.6, 0.4]])


def test_multilabel_known_values():
    # scikit-learn's documented examples.
    Y = np.array([[1, 0, 0], [0, 0, 1]])
    S = np.array([[0.75, 0.5, 1], [1, 0.2, 0.1]])
    assert label_ranking_average_precision(Y, S) == pytest.approx(0.416666666, rel=1e-8)
    assert coverage([[0, 1], [1, 1]], [[0.1, 10.0], [-3.0, 1]]) == 1.5
    # ties count as full errors in the ranking loss.
    assert ranking_loss([[1, 0]], [[0.5, 0.5]]) == 1.0
    assert ranking_loss([[1, 0]], [[0.6, 0.5]]) == 0.0


def test_rows_without_labels():
    Y = np.zeros((3, 4), dtype=int)
    S = np.random.default_rng(1).random((3, 4))
    assert label_ranking_average_precision(Y, S) == 1.0
    assert coverage(Y, S) == 0.0
    assert ranking_loss(Y, S) == 0.0


def test_boolean_indicator_accepted():
    rng = np.random.default_rng(5)
    Y, S = _multilabel_case(rng, 30, 4, "few_ints")
    assert label_ranking_average_precision(Y.astype(bool), S) == label_ranking_average_precision(
        Y, S
    )
    np.testing.assert_array_equal(
        per_label_average_precision(Y.astype(float), S), per_label_average_precision(Y, S)
    )


def test_no_samples_is_nan():
    Y = np.zeros((0, 3))
    assert math.isnan(label_ranking_average_precision(Y, Y))
    assert math.isnan(coverage(Y, Y))
    assert math.isnan(ranking_loss(Y, Y))
    assert np.isnan(per_label_average_precision(Y, Y)).all()


def test_blocked_core_matches_unblocked(monkeypatch):
    import svmeval.metrics.rankstats as ranking

    rng = np.random.default_rng(11)
    Y, S = _multilabel_case(rng, 200, 7, "few_ints")
    whole = (per_label_average_precision(Y, S), ranking_loss(Y, S), coverage(Y, S))
    monkeypatch.setattr(ranking, "_BLOCK_ELEMENTS", 64)
    blocked = (per_label_average_precision(Y, S), ranking_loss(Y, S), coverage(Y, S))
    np.testing.assert_array_equal(whole[0], blocked[0])
    assert whole[1:] == blocked[1:]


@pytest.mark.parametrize(
    "fn",
    [label_ranking_average_precision, coverage, ranking_loss, per_label_average_precision],
)
@pytest.mark.parametrize(
    "Y,S,match",
    [
        ([[1, 0], [0, 1]], [[0.1, 0.2]], "different shapes"),
        ([[1, 0], [0, 1]], [[0.1, 0.2, 0.3], [0.1, 0.2, 0.3]], "different shapes"),
        ([1, 0, 1], [0.1, 0.2, 0.3], "2-D"),
        ([[1, 2], [0, 1]], [[0.1, 0.2], [0.3, 0.4]], "only 0 and 1"),
        ([[1, 0], [0, 1]], [[0.1, np.nan], [0.3, 0.4]], "NaN"),
        ([["a", "b"]], [[0.1, 0.2]], "0/1"),
    ],
)
def test_multilabel_malformed_raises(fn, Y, S, match):
    with pytest.raises(ValueError, match=match):
        fn(Y, S)


def test_no_positive_is_silent_nan():
    # scikit-learn warns here; we return nan without a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(average_precision([0, 0, 0], [0.1, 0.2, 0.3], pos_label=1))
        assert math.isnan(per_label_average_precision([[0], [0]], [[0.1], [0.2]])[0])

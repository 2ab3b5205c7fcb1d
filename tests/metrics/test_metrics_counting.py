"""Counting pairs into the confusion matrix, on every label encoding path (integral labels in a
small span, counted chunk by chunk; wide-span, huge or fractional labels, found by search),
against scikit-learn's confusion_matrix."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmeval.metrics import ConfusionCounts, classification, evaluate


def confusion_matrix(y_true, y_pred):
    """svmeval's own counts (LIBSVM's labels are doubles, fractional ones too; the
    scikit-learn-named confusion_matrix refuses those as scikit-learn does)."""
    return ConfusionCounts().update(y_true, y_pred).matrix


sk = pytest.importorskip("sklearn.metrics")
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

N_LONG = 3 * classification._CHUNK + 17  # several chunks and a partial one


def ranks(y_true, y_pred):
    """The labels (sorted, by Python) and each vector as label ranks: scikit-learn takes
    integer classes only, so it counts the ranks."""
    labels = sorted(set(y_true.tolist()) | set(y_pred.tolist()))
    rank = {v: i for i, v in enumerate(labels)}
    return labels, [rank[v] for v in y_true.tolist()], [rank[v] for v in y_pred.tolist()]


def expected_matrix(y_true, y_pred, labels=None):
    seen, t, p = ranks(np.asarray(y_true, float), np.asarray(y_pred, float))
    every = sorted(set(seen) | set(labels or []))
    index = [every.index(v) for v in seen]
    out = np.zeros((len(every), len(every)), dtype=np.int64)
    out[np.ix_(index, index)] = sk.confusion_matrix(t, p, labels=range(len(seen)))
    return every, out


def pairs(values, n, seed=0):
    rng = np.random.default_rng(seed)
    values = np.asarray(values, dtype=np.float64)
    return rng.choice(values, n), rng.choice(values, n)


CASES = {
    "small integral": [1.0, 2.0, 3.0, 7.0],
    "negative integral": [-5.0, -1.0, 0.0, 1.0],
    "two-class +1/-1": [-1.0, 1.0],
    "span at the direct limit": [0.0, classification._DIRECT_SPAN - 1.0],
    "span beyond the direct limit": [0.0, float(classification._DIRECT_SPAN)],
    "huge integral": [-1e300, 3.0, 1e300],
    "beyond int64": [2.0**63, 2.0**64],
    "fractional": [0.5, 1.0, 2.25],
}


@pytest.mark.parametrize("n", [1, 10, N_LONG])
@pytest.mark.parametrize("name", list(CASES))
def test_matrix_equals_scikit_learn(name, n):
    y_true, y_pred = pairs(CASES[name], n)
    labels, expected = expected_matrix(y_true, y_pred)
    np.testing.assert_array_equal(confusion_matrix(y_true, y_pred), expected)
    assert evaluate(y_true, y_pred).labels.tolist() == labels


def test_fractional_label_after_the_first_chunk():
    y_true, y_pred = pairs([1.0, 2.0, 3.0], N_LONG)
    y_pred[-1] = 2.5  # integral up to the last chunk
    labels, expected = expected_matrix(y_true, y_pred)
    assert labels == [1.0, 2.0, 2.5, 3.0]
    np.testing.assert_array_equal(confusion_matrix(y_true, y_pred), expected)


def test_integer_input_and_labels_seen_on_one_side_only():
    y_true = np.array([1, 1, 2, 5, 5, 5])
    y_pred = np.array([1, 3, 2, 5, 1, 9])
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred), sk.confusion_matrix(y_true, y_pred)
    )
    assert list(evaluate(y_true, y_pred).labels) == [1, 2, 3, 5, 9]


def test_fixed_labels_add_unseen_ones_and_refuse_others():
    counts = ConfusionCounts([1, 2, 3, 4]).update([1.0, 2.0], [2.0, 2.0])
    np.testing.assert_array_equal(counts.matrix, expected_matrix([1, 2], [2, 2], [1, 2, 3, 4])[1])
    with pytest.raises(ValueError, match=r"y_pred contains label\(s\) 7 not in labels="):
        ConfusionCounts([1, 2, 3]).update([1.0], [7.0])
    with pytest.raises(ValueError, match=r"y_true contains label\(s\) 0.5 not in labels="):
        ConfusionCounts([1, 2, 3]).update([0.5], [1.0])


def test_empty_update_adds_nothing():
    counts = ConfusionCounts([1, 2]).update([], [])
    assert counts.n_samples == 0 and counts.matrix.shape == (2, 2)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3000, 3000), st.integers(-3000, 3000)), min_size=1, max_size=40)
)
def test_integral_labels_of_any_span_equal_scikit_learn(data):
    y_true = np.array([a for a, _ in data], dtype=np.float64)
    y_pred = np.array([b for _, b in data], dtype=np.float64)
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred), expected_matrix(y_true, y_pred)[1]
    )


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([3.0, -1.0, 1.0, 3.0], [1.0, 1.0, 7.5, -1.0]),
        ([2, 0, 2], [0, 0, 5]),
        ([1.0], []),
        ([], []),
        ([0.0, np.nan, 1.0], [np.nan, 1.0, 2.0]),
        (["b", "a"], ["c", "a"]),
        ([True, False], [True, True]),
    ],
)
def test_label_union_is_numpys_union1d(y_true, y_pred):
    from svmeval.metrics.run_figures import label_union

    got, want = label_union(np.array(y_true), np.array(y_pred)), np.union1d(y_true, y_pred)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)

"""Every single-label figure against scikit-learn on random cases, for each zero_division policy.

scikit-learn is the oracle; specificity / NPV / one-vs-rest accuracy are checked against the
counts of ``sklearn.metrics.multilabel_confusion_matrix``; macro_harmonic against the formula
applied to scikit-learn's macro precision and recall.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn import metrics as sk

from svmeval.metrics import (
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

pytestmark = pytest.mark.filterwarnings("ignore")

POLICIES = [0, 1, np.nan]
N_CASES = 240


def random_case(seed: int):
    """(y_true, y_pred, labels or None): binary, multiclass, classes missing on either side."""
    rng = np.random.default_rng(seed)
    kind = seed % 6
    n = int(rng.integers(1, 40))
    if kind == 0:  # binary +-1 as LIBSVM
        pool = np.array([-1.0, 1.0])
        t, p = rng.choice(pool, n), rng.choice(pool, n)
    elif kind == 1:  # multiclass, negative and gapped labels (sklearn rejects non-integral floats)
        pool = np.array([-3.0, 0.0, 1.0, 2.0, 7.0])[: int(rng.integers(2, 6))]
        t, p = rng.choice(pool, n), rng.choice(pool, n)
    elif kind == 2:  # classes missing from y_pred
        pool = np.arange(int(rng.integers(3, 7)), dtype=float)
        t = rng.choice(pool, n)
        p = rng.choice(pool[: max(1, pool.size // 2)], n)
    elif kind == 3:  # classes missing from y_true
        pool = np.arange(int(rng.integers(3, 7)), dtype=float)
        t = rng.choice(pool[: max(1, pool.size // 2)], n)
        p = rng.choice(pool, n)
    elif kind == 4:  # mostly right, few classes, small n (degenerate cases)
        pool = np.arange(int(rng.integers(1, 4)), dtype=float)
        t = rng.choice(pool, n)
        p = np.where(rng.random(n) < 0.8, t, rng.choice(pool, n))
    else:  # 0/1 binary
        t = rng.integers(0, 2, n).astype(float)
        p = rng.integers(0, 2, n).astype(float)
    labels = None
    if rng.random() < 0.3:  # labels= adding a label seen nowhere
        labels = np.union1d(np.union1d(t, p), [100.0])
    return t, p, labels


CASES = [pytest.param(*random_case(s), id=f"case{s}") for s in range(N_CASES)]


def close(ours, theirs):
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


def nan_ratio(num, den):
    num, den = np.asarray(num, float), np.asarray(den, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.nan, num / np.where(den == 0, 1, den))


@pytest.mark.parametrize("y_true, y_pred, labels", CASES)
def test_counts_and_overall(y_true, y_pred, labels):
    r = evaluate(y_true, y_pred, labels=labels)
    lab = np.union1d(y_true, y_pred) if labels is None else labels
    np.testing.assert_array_equal(r.labels, lab)
    np.testing.assert_array_equal(
        r.confusion_matrix, sk.confusion_matrix(y_true, y_pred, labels=lab)
    )
    mcm = sk.multilabel_confusion_matrix(y_true, y_pred, labels=lab)
    tn, fp, fn, tp = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]
    for ours, theirs in [(r.tp, tp), (r.fp, fp), (r.fn, fn), (r.tn, tn), (r.support, tp + fn)]:
        np.testing.assert_array_equal(ours, theirs)
    close(r.specificity, nan_ratio(tn, tn + fp))
    close(r.npv, nan_ratio(tn, tn + fn))
    close(r.ovr_accuracy, nan_ratio(tp + tn, tp + tn + fp + fn))
    close(r.accuracy, sk.accuracy_score(y_true, y_pred))
    close(r.balanced_accuracy, sk.balanced_accuracy_score(y_true, y_pred))
    close(r.kappa, sk.cohen_kappa_score(y_true, y_pred, labels=lab))
    sk_mcc = sk.matthews_corrcoef(y_true, y_pred)
    if math.isnan(r.mcc):  # undefined: scikit-learn reports 0.0 there
        assert sk_mcc == 0.0
        t, p = r.confusion_matrix.sum(axis=1), r.confusion_matrix.sum(axis=0)
        assert (t == r.n_samples).any() or (p == r.n_samples).any()
    else:
        close(r.mcc, sk_mcc)
    assert accuracy_score(y_true, y_pred) == r.accuracy
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred, labels=labels), r.confusion_matrix
    )


@pytest.mark.parametrize("zero_division", POLICIES, ids=["zd0", "zd1", "zdnan"])
@pytest.mark.parametrize("y_true, y_pred, labels", CASES)
def test_precision_recall_f(y_true, y_pred, labels, zero_division):
    lab = np.union1d(y_true, y_pred) if labels is None else labels
    r = evaluate(y_true, y_pred, labels=labels, zero_division=zero_division, beta=2.0)

    def prfs(average, zd, beta=1.0):
        return sk.precision_recall_fscore_support(
            y_true, y_pred, labels=lab, average=average, zero_division=zd, beta=beta
        )

    # per class: NaN exactly where scikit-learn's nan policy gives NaN
    p, rc, f, s = prfs(None, np.nan)
    close(r.precision, p)
    close(r.recall, rc)
    close(r.f1, f)
    close(r.fbeta, prfs(None, np.nan, 2.0)[2])
    np.testing.assert_array_equal(r.support, s)
    # averages under the policy
    for average in ("macro", "micro", "weighted"):
        p, rc, f, _ = prfs(average, zero_division)
        got = r.averages[average]
        close([got.precision, got.recall, got.f1], [p, rc, f])
        close(got.fbeta, prfs(average, zero_division, 2.0)[2])
    p, rc, _, _ = prfs("macro", zero_division)
    h = r.averages["macro_harmonic"]
    close([h.precision, h.recall], [p, rc])
    expected = 0.0 if p + rc == 0 else 2 * p * rc / (p + rc)
    close(h.f1, expected)
    close(h.fbeta, 0.0 if 4 * p + rc == 0 else 5 * p * rc / (4 * p + rc))


@pytest.mark.parametrize("zero_division", POLICIES, ids=["zd0", "zd1", "zdnan"])
@pytest.mark.parametrize("y_true, y_pred, labels", CASES[::6])
def test_standalone_functions(y_true, y_pred, labels, zero_division):
    lab = np.union1d(y_true, y_pred) if labels is None else labels
    averages = [None, "macro", "micro", "weighted"]
    seen = np.union1d(y_true, y_pred)
    if seen.size <= 2 and labels is None:
        averages.append("binary")
    for average in averages:
        kw = dict(average=average, zero_division=zero_division)
        sk_kw = dict(kw, labels=None if average == "binary" else lab)
        pos = {"pos_label": seen[-1]} if average == "binary" else {}
        ours_kw = dict(kw, labels=None if average == "binary" else labels, **pos)
        sk_kw.update(pos)
        close(
            precision_score(y_true, y_pred, **ours_kw), sk.precision_score(y_true, y_pred, **sk_kw)
        )
        close(recall_score(y_true, y_pred, **ours_kw), sk.recall_score(y_true, y_pred, **sk_kw))
        close(f1_score(y_true, y_pred, **ours_kw), sk.f1_score(y_true, y_pred, **sk_kw))
        close(
            fbeta_score(y_true, y_pred, beta=0.5, **ours_kw),
            sk.fbeta_score(y_true, y_pred, beta=0.5, **sk_kw),
        )
    close(balanced_accuracy_score(y_true, y_pred), sk.balanced_accuracy_score(y_true, y_pred))
    close(cohen_kappa_score(y_true, y_pred), sk.cohen_kappa_score(y_true, y_pred))
    mcc = matthews_corrcoef(y_true, y_pred)
    assert (math.isnan(mcc) and sk.matthews_corrcoef(y_true, y_pred) == 0.0) or math.isclose(
        mcc, sk.matthews_corrcoef(y_true, y_pred), rel_tol=1e-12, abs_tol=1e-12
    )


@pytest.mark.parametrize("beta", [0.0, 0.5, 3.0, math.inf])
@pytest.mark.parametrize("zero_division", POLICIES, ids=["zd0", "zd1", "zdnan"])
def test_fbeta_extremes(beta, zero_division):
    y_true, y_pred, labels = random_case(7)
    lab = np.union1d(np.union1d(y_true, y_pred), [100.0])
    r = evaluate(y_true, y_pred, labels=lab, zero_division=zero_division, beta=beta)
    for average in ("macro", "micro", "weighted"):
        close(
            r.averages[average].fbeta,
            sk.fbeta_score(
                y_true, y_pred, beta=beta, labels=lab, average=average, zero_division=zero_division
            ),
        )


@pytest.mark.parametrize("zero_division", POLICIES, ids=["zd0", "zd1", "zdnan"])
@pytest.mark.parametrize("y_true, y_pred, labels", CASES)
def test_zero_division_applied_matches_undefined_inputs(y_true, y_pred, labels, zero_division):
    """A figure is listed iff an input it weighs was undefined (per scikit-learn's nan policy)."""
    lab = np.union1d(y_true, y_pred) if labels is None else labels
    r = evaluate(y_true, y_pred, labels=labels, zero_division=zero_division)
    p, rc, f, support = sk.precision_recall_fscore_support(
        y_true, y_pred, labels=lab, average=None, zero_division=np.nan
    )
    weight = support > 0 if support.sum() > 0 else np.ones(support.shape, bool)
    expected = set()
    for measure, values in (("precision", p), ("recall", rc), ("f1", f), ("fbeta", f)):
        if np.isnan(values).any():
            expected.add(f"macro.{measure}")
        if (np.isnan(values) & weight).any():
            expected.add(f"weighted.{measure}")
    for measure in ("precision", "recall"):
        if f"macro.{measure}" in expected:
            expected.add(f"macro_harmonic.{measure}")
            expected.update({"macro_harmonic.f1", "macro_harmonic.fbeta"})
    # micro: single-label data always has sum(TP + FP) = sum(TP + FN) = N > 0
    # MCC: 0/0 when one class only is predicted or true (where scikit-learn returns 0.0)
    n = len(y_true)
    if (
        n
        and (len(np.unique(y_true)) == 1 or len(np.unique(y_pred)) == 1)
        and not np.isnan(float(zero_division) if zero_division != "nan" else np.nan)
    ):
        expected.add("mcc")
        assert r.mcc == float(zero_division)
        if float(zero_division) == 0.0:
            assert sk.matthews_corrcoef(y_true, y_pred) == 0.0
    assert set(r.zero_division_applied) == expected
    assert len(r.zero_division_applied) == len(expected)

"""The Bayesian correlated t-test against baycomp's two_on_single and against its formula with
scipy.stats.t; the 5x2cv paired t-test and the combined F test against mlxtend (run on real
scikit-learn models, their per-split scores recorded) and against Alpaydin's formula with
scipy.stats.f."""

from __future__ import annotations

import math

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from svmeval.stats.bayesian import correlated_ttest
from svmeval.stats.five_by_two import five_by_two


def _scores(R, k, seed, shift=0.01):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.80, 0.03, size=R * k)
    b = a + rng.normal(shift, 0.02, size=R * k)
    return a, b


@pytest.mark.parametrize(
    "R,k,rope,shift",
    [(10, 10, 0.01, 0.01), (1, 10, 0.02, 0.0), (5, 3, 0.005, -0.02), (3, 5, 0.0, 0.01)],
)
def test_correlated_ttest_equals_its_formula(R, k, rope, shift):
    a, b = _scores(R, k, R * k, shift)
    d = b - a
    n = len(d)
    scale = math.sqrt((1 / n + (1 / k) / (1 - 1 / k)) * d.var(ddof=1))
    post = stats.t(n - 1, loc=d.mean(), scale=scale)
    res = correlated_ttest(d, k, rope=rope)
    assert res.df == n - 1 and res.scale == pytest.approx(scale, rel=1e-12)
    assert res.p_left == pytest.approx(post.cdf(-rope), rel=1e-9, abs=1e-15)
    assert res.p_right == pytest.approx(post.sf(rope), rel=1e-9, abs=1e-15)
    assert res.p_rope == pytest.approx(post.cdf(rope) - post.cdf(-rope), rel=1e-9, abs=1e-15)
    assert res.p_left + res.p_rope + res.p_right == pytest.approx(1.0)


@pytest.mark.parametrize(
    "R,k,rope,shift",
    [(10, 10, 0.01, 0.01), (1, 10, 0.02, 0.0), (5, 3, 0.005, -0.02), (2, 5, 0.03, 0.01)],
)
def test_correlated_ttest_equals_baycomp(R, k, rope, shift):
    baycomp = pytest.importorskip("baycomp")
    a, b = _scores(R, k, 100 + R * k, shift)
    expected = baycomp.two_on_single(a, b, rope=rope, runs=R)
    res = correlated_ttest(b - a, k, rope=rope)
    assert (res.p_left, res.p_rope, res.p_right) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_correlated_ttest_of_constant_differences_equals_baycomp():
    baycomp = pytest.importorskip("baycomp")
    a = np.full(10, 0.8)
    for delta, rope in [(0.02, 0.01), (0.005, 0.01), (-0.03, 0.01)]:
        expected = baycomp.two_on_single(a, a + delta, rope=rope, runs=1)
        res = correlated_ttest(np.full(10, delta), 10, rope=rope)
        assert (res.p_left, res.p_rope, res.p_right) == pytest.approx(expected)


def test_correlated_ttest_rejects_bad_arguments():
    with pytest.raises(ValueError):
        correlated_ttest([0.1], 10)
    with pytest.raises(ValueError):
        correlated_ttest([0.1, 0.2], 1)
    with pytest.raises(ValueError):
        correlated_ttest([0.1, 0.2], 10, rope=-0.1)


class _Recorder:
    """A scorer that records each (estimator, split) score in call order."""

    def __init__(self):
        self.scores = []

    def __call__(self, estimator, X, y):
        score = float(np.mean(estimator.predict(X) == y))
        self.scores.append(score)
        return score


def test_five_by_two_equals_mlxtend():
    mlxtend = pytest.importorskip("mlxtend.evaluate")
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    a = DecisionTreeClassifier(max_depth=2, random_state=0)
    b = GaussianNB()
    for test, name in [(mlxtend.paired_ttest_5x2cv, "t"), (mlxtend.combined_ftest_5x2cv, "f")]:
        scorer = _Recorder()
        stat, p = test(a, b, X, y, scoring=scorer, random_seed=1)
        # the calls: per repetition, (A, B) on the second half, then (A, B) on the first
        s = np.array(scorer.scores).reshape(5, 2, 2)
        res = five_by_two(s[:, :, 0] - s[:, :, 1])
        assert getattr(res, name) == pytest.approx(stat, rel=1e-12)
        assert getattr(res, "p_" + name) == pytest.approx(p, rel=1e-9)


def test_five_by_two_equals_the_published_formulas():
    p = np.random.default_rng(4).normal(0.01, 0.02, size=(5, 2))
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = p[0, 0] / math.sqrt(s2.sum() / 5)
    f = (p**2).sum() / (2 * s2.sum())
    res = five_by_two(p)
    assert res.t == pytest.approx(t) and res.p_t == pytest.approx(2 * stats.t.sf(abs(t), 5))
    assert res.f == pytest.approx(f) and res.p_f == pytest.approx(stats.f.sf(f, 10, 5))
    assert res.variances == pytest.approx(tuple(s2))
    with pytest.raises(ValueError):
        five_by_two(np.zeros((10, 1)))

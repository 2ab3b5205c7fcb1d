"""The significance tests against scipy.stats: the distributions, the corrected resampled
t-test computed directly from its published formula, and McNemar's test on worked examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from svmeval.stats import significance as sig


@pytest.mark.parametrize("a,b", [(0.5, 0.5), (2.0, 3.0), (49.5, 0.5), (0.5, 40.0), (300.0, 0.5)])
@pytest.mark.parametrize("x", [1e-6, 0.01, 0.3, 0.5, 0.77, 0.999])
def test_betainc_equals_scipy(a, b, x):
    from scipy.special import betainc

    assert sig.betainc(a, b, x) == pytest.approx(betainc(a, b, x), rel=1e-10, abs=1e-300)


@pytest.mark.parametrize("df", [1, 2, 4, 9, 29, 99, 999])
@pytest.mark.parametrize("t", [-12.0, -2.3, -0.4, 0.0, 0.01, 1.0, 1.984, 3.5, 40.0])
def test_t_distribution_equals_scipy(t, df):
    assert sig.t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-9, abs=1e-300)
    assert sig.t_two_sided(t, df) == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("df", [1, 3, 9, 49, 99])
@pytest.mark.parametrize("q", [0.005, 0.025, 0.3, 0.5, 0.9, 0.975, 0.9995])
def test_t_quantile_equals_scipy(q, df):
    assert sig.t_ppf(q, df) == pytest.approx(stats.t.ppf(q, df), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("x", [0.0, 0.1, 1.0, 3.841458820694124, 10.0, 60.0])
def test_chi2_one_df_equals_scipy(x):
    assert sig.chi2_1_sf(x) == pytest.approx(stats.chi2.sf(x, 1), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize(
    "k,n", [(0, 0), (0, 1), (3, 10), (7, 10), (5, 10), (1, 24), (12, 24), (40, 100), (480, 1000)]
)
def test_binomial_equals_scipy_binomtest(k, n):
    expected = stats.binomtest(k, n, 0.5).pvalue if n else 1.0
    assert sig.binom_test_half(k, n) == pytest.approx(expected, rel=1e-12)


def _direct_corrected(d, ratio, confidence):
    """Nadeau & Bengio's corrected statistic, written out with scipy for the distribution."""
    d = np.asarray(d, dtype=float)
    J = len(d)
    mean, var = d.mean(), d.var(ddof=1)
    se = math.sqrt((1 / J + ratio) * var)
    t = mean / se
    p = 2 * stats.t.sf(abs(t), J - 1)
    half = stats.t.ppf(0.5 + confidence / 2, J - 1) * se
    return t, p, (mean - half, mean + half)


@pytest.mark.parametrize("R,k", [(10, 10), (5, 3), (1, 5)])
def test_corrected_ttest_equals_published_formula(R, k):
    rng = np.random.default_rng(R * 100 + k)
    d = rng.normal(0.01, 0.03, size=R * k)
    ratio = 1 / (k - 1)
    res = sig.corrected_resampled_ttest(d, ratio, confidence=0.9)
    t, p, ci = _direct_corrected(d, ratio, 0.9)
    assert res.df == R * k - 1 and res.n == R * k
    assert res.t == pytest.approx(t, rel=1e-12)
    assert res.p == pytest.approx(p, rel=1e-9)
    assert res.ci == pytest.approx(ci, rel=1e-9)
    # the uncorrected test is scipy's plain paired t-test of the same differences
    plain = stats.ttest_1samp(d, 0.0)
    assert res.t_uncorrected == pytest.approx(plain.statistic, rel=1e-12)
    assert res.p_uncorrected == pytest.approx(plain.pvalue, rel=1e-9)
    assert res.p > res.p_uncorrected  # the correction only widens


def test_ttest_of_identical_configurations_is_zero_with_p_one():
    res = sig.corrected_resampled_ttest(np.zeros(30), 1 / 9)
    assert res.mean == 0 and res.t == 0 and res.p == 1 and res.p_uncorrected == 1
    assert res.ci == (0.0, 0.0)


def test_constant_nonzero_difference_is_certain():
    res = sig.corrected_resampled_ttest(np.full(10, 0.05), 1 / 4)
    assert res.t == math.inf and res.p == 0.0


def test_ttest_rejects_too_few_or_nan():
    with pytest.raises(ValueError):
        sig.corrected_resampled_ttest([0.1], 0.25)
    with pytest.raises(ValueError):
        sig.corrected_resampled_ttest([0.1, float("nan")], 0.25)


def _pairs(both_right, a_only, b_only, both_wrong):
    """Labels and two prediction vectors with the given agreement counts."""
    n = both_right + a_only + b_only + both_wrong
    y = np.ones(n)
    a = np.r_[np.ones(both_right + a_only), np.zeros(b_only + both_wrong)]
    b = np.r_[np.ones(both_right), np.zeros(a_only), np.ones(b_only), np.zeros(both_wrong)]
    return y, a, b


@pytest.mark.parametrize("b,c", [(0, 0), (1, 0), (3, 9), (12, 12), (2, 20), (24, 0)])
def test_mcnemar_exact_below_threshold_equals_binomtest(b, c):
    y, pa, pb = _pairs(50, b, c, 7)
    res = sig.mcnemar(y, pa, pb)
    assert (res.a_only, res.b_only, res.both_right, res.both_wrong) == (b, c, 50, 7)
    assert b + c < sig.MCNEMAR_EXACT_BELOW and res.method == "exact"
    expected = stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0
    assert res.p == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("b,c", [(15, 10), (30, 12), (100, 140), (5, 40)])
def test_mcnemar_chi2_with_continuity_correction(b, c):
    y, pa, pb = _pairs(200, b, c, 20)
    res = sig.mcnemar(y, pa, pb)
    assert b + c >= sig.MCNEMAR_EXACT_BELOW and res.method == "chi2"
    statistic = (abs(b - c) - 1) ** 2 / (b + c)
    assert res.statistic == pytest.approx(statistic, rel=1e-12)
    assert res.p == pytest.approx(stats.chi2.sf(statistic, 1), rel=1e-10)


def test_mcnemar_worked_example_equals_scipy_contingency():
    # scipy's 2x2 example layout: a table [[both right, A only], [B only, both wrong]]
    table = np.array([[794, 86], [150, 570]])
    y, pa, pb = _pairs(794, 86, 150, 570)
    res = sig.mcnemar(y, pa, pb)
    b, c = table[0, 1], table[1, 0]
    assert res.p == pytest.approx(stats.chi2.sf((abs(b - c) - 1) ** 2 / (b + c), 1), rel=1e-10)
    exact = sig.mcnemar(y, pa, pb, exact=True)
    assert exact.p == pytest.approx(stats.binomtest(int(b), int(b + c), 0.5).pvalue, rel=1e-9)


def test_mcnemar_of_identical_predictions_is_one():
    y, pa, _ = _pairs(40, 10, 5, 3)
    assert sig.mcnemar(y, pa, pa).p == 1.0

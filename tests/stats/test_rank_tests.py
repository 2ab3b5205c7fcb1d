"""The rank tests over many data sets against independent oracles: scipy.stats
(friedmanchisquare, f, wilcoxon, studentized_range), the worked example of Demšar 2006
(Table 6, its Friedman statistics and critical differences), statsmodels' Holm adjustment and
scikit-posthocs' ranks."""

from __future__ import annotations

import math

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from svmeval.stats import distributions as dist
from svmeval.stats import rank_tests as rt

# Demšar 2006, Table 6: AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 data sets. The table
# prints 3 decimals; its ranks put C4.5+cf ahead of C4.5+m+cf on "voting" (both printed 0.975),
# so that cell carries 0.97501 here.
DEMSAR_AUC = np.array(
    [
        [0.763, 0.768, 0.771, 0.798],
        [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967],
        [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898],
        [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685],
        [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875],
        [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962],
        [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.97501, 0.975],
        [0.957, 0.978, 0.946, 0.970],
    ]
)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 9, 20, 31])
@pytest.mark.parametrize("x", [0.0, 0.01, 0.5, 3.0, 9.28, 40.0, 300.0])
def test_chi2_sf_equals_scipy(x, df):
    assert dist.chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-11, abs=1e-300)


@pytest.mark.parametrize("dfn,dfd", [(1, 5), (3, 39), (10, 5), (2, 2), (9, 90)])
@pytest.mark.parametrize("x", [0.0, 0.1, 1.0, 3.69, 25.0])
def test_f_sf_equals_scipy(x, dfn, dfd):
    assert dist.f_sf(x, dfn, dfd) == pytest.approx(stats.f.sf(x, dfn, dfd), rel=1e-10)


def test_demsar_worked_example():
    """Demšar 2006, section 3.2.2: average ranks 3.143, 2.000, 2.893, 1.964; chi2_F = 9.28
    and F_F = 3.69 (no tie correction, as printed); CD 1.25 at 0.05 and 1.12 at 0.10."""
    res = rt.friedman(DEMSAR_AUC, tie_correction=False)
    assert res.average_ranks == pytest.approx((3.143, 2.000, 2.893, 1.964), abs=5e-4)
    assert round(res.statistic, 2) == 9.28
    assert round(res.iman_davenport, 2) == 3.69
    assert res.df == 3 and res.df_f == (3, 39)
    # F_F exceeds the critical value F(3, 39) = 2.85 at 0.05: p below 0.05
    assert res.p_f < 0.05 < rt.friedman(DEMSAR_AUC[:, [0, 2]], tie_correction=False).p_f
    assert round(rt.nemenyi_cd(4, 14, 0.05), 2) == 1.25
    assert round(rt.nemenyi_cd(4, 14, 0.10), 2) == 1.12


def test_friedman_equals_scipy_with_ties():
    res = rt.friedman(DEMSAR_AUC)
    expected = stats.friedmanchisquare(*DEMSAR_AUC.T)
    assert res.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert res.p == pytest.approx(expected.pvalue, rel=1e-10)


@pytest.mark.parametrize("n,k,seed", [(5, 3, 0), (14, 4, 1), (30, 6, 2), (3, 10, 3)])
@pytest.mark.parametrize("rounded", [False, True])
def test_friedman_and_iman_davenport_equal_scipy(n, k, seed, rounded):
    scores = np.random.default_rng(seed).normal(size=(n, k)) + np.linspace(0, 0.5, k)
    if rounded:
        scores = np.round(scores, 1)  # ties within rows
    res = rt.friedman(scores)
    expected = stats.friedmanchisquare(*scores.T)
    assert res.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert res.p == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-300)
    chi2 = expected.statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert res.iman_davenport == pytest.approx(f, rel=1e-12)
    assert res.p_f == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-9)


def test_ranks_follow_the_direction_and_equal_scipy_rankdata():
    scores = np.round(np.random.default_rng(7).normal(size=(12, 5)), 1)
    up = rt.rank_rows(scores, greater_is_better=True)
    down = rt.rank_rows(scores, greater_is_better=False)
    assert np.array_equal(up, np.array([stats.rankdata(-row) for row in scores]))
    assert np.array_equal(down, np.array([stats.rankdata(row) for row in scores]))
    assert np.allclose(up + down, 6.0)
    assert rt.average_ranks(scores) == pytest.approx(up.mean(axis=0))


def test_friedman_does_not_depend_on_the_direction_of_a_rank_reversal():
    scores = np.random.default_rng(3).normal(size=(8, 4))
    a = rt.friedman(scores, greater_is_better=True)
    b = rt.friedman(-scores, greater_is_better=False)
    assert a.statistic == pytest.approx(b.statistic) and a.average_ranks == b.average_ranks


def test_average_ranks_equal_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(DEMSAR_AUC, columns=list("ABCD"))
    melted = frame.melt(var_name="groups", value_name="y", ignore_index=False)
    melted["blocks"] = melted.index
    nemenyi = sp.posthoc_nemenyi_friedman(
        melted,
        y_col="y",
        group_col="groups",
        block_col="blocks",
        block_id_col="blocks",
        melted=True,
    )
    ranks = rt.average_ranks(DEMSAR_AUC)
    # Nemenyi's p of a pair: the studentized range of |R_i - R_j| / sqrt(k(k+1)/(6N))
    se = math.sqrt(4 * 5 / (6 * 14))
    for i, a in enumerate("ABCD"):
        for j, b in enumerate("ABCD"):
            if i != j:
                q = abs(ranks[i] - ranks[j]) / se * math.sqrt(2)
                p = stats.studentized_range.sf(q, 4, np.inf)
                assert nemenyi.loc[a, b] == pytest.approx(p, rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("alpha", [0.05, 0.10])
@pytest.mark.parametrize("k", range(2, 11))
def test_nemenyi_table_is_demsar_table_5a(alpha, k):
    """The printed table agrees with the studentized range quantile (scipy) within 0.001
    (some entries are cut, not rounded: 2.3437 is printed 2.343)."""
    expected = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    assert rt.nemenyi_q(k, alpha) == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("k,alpha", [(11, 0.05), (15, 0.05), (20, 0.10), (4, 0.01)])
def test_nemenyi_q_beyond_the_table_equals_scipy_studentized_range(k, alpha):
    expected = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    assert rt.nemenyi_q(k, alpha) == pytest.approx(expected, rel=1e-7)


def _pairs(n, mode, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.normal(size=n), rng.normal(0.4, 1.0, size=n)
    if mode != "continuous":
        x, y = np.round(x, 1), np.round(y, 1)
    if mode == "zeros":
        y[:2] = x[:2]
    return x, y


@pytest.mark.parametrize("n", [3, 6, 10, 13, 14, 25, 50, 51, 90])
@pytest.mark.parametrize("mode", ["continuous", "ties", "zeros"])
def test_wilcoxon_equals_scipy_default(n, mode):
    x, y = _pairs(n, mode, n)
    res = rt.wilcoxon(x, y)
    expected = stats.wilcoxon(x, y)
    assert res.statistic == expected.statistic
    assert res.p == pytest.approx(expected.pvalue, rel=1e-9)
    has_ties = len(np.unique(np.abs(x - y)[x != y])) < np.count_nonzero(x != y)
    if n > 50:
        assert res.method == "normal"
    elif not has_ties and not np.any(x == y):
        assert res.method == "exact"
    else:
        assert res.method == ("permutation" if n <= 13 else "normal")


def test_wilcoxon_exact_matches_scipy_exact_and_normal_matches_scipy_asymptotic():
    x, y = _pairs(20, "continuous", 5)
    assert rt.wilcoxon(x, y).p == pytest.approx(stats.wilcoxon(x, y, method="exact").pvalue)
    x, y = _pairs(30, "ties", 6)
    assert rt.wilcoxon(x, y).p == pytest.approx(
        stats.wilcoxon(x, y, method="asymptotic").pvalue, rel=1e-10
    )


def test_wilcoxon_rejects_unpaired_or_undefined_values():
    with pytest.raises(ValueError):
        rt.wilcoxon([1.0, 2.0], [1.0])
    with pytest.raises(ValueError):
        rt.wilcoxon([1.0, math.nan], [0.0, 0.0])


def _holm_by_definition(p):
    """Holm 1979: reject H_(i) while p_(i) <= alpha / (m - i + 1); the adjusted p-value is the
    smallest alpha at which H_(i) is rejected."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


@pytest.mark.parametrize(
    "p", [[0.01, 0.04, 0.03, 0.005], [0.5, 0.2], [0.001], [0.02, 0.02, 0.9, 0.04, 0.011, 0.3]]
)
def test_holm_equals_its_definition_and_statsmodels(p):
    assert rt.holm(p) == pytest.approx(_holm_by_definition(p), rel=1e-15)
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    assert rt.holm(p) == pytest.approx(multitest.multipletests(p, method="holm")[1])


def test_friedman_needs_two_rows_and_finite_values():
    with pytest.raises(ValueError):
        rt.friedman([[0.1, 0.2, 0.3]])
    with pytest.raises(ValueError):
        rt.friedman([[0.1, math.nan], [0.2, 0.3]])
    with pytest.raises(ValueError):
        rt.nemenyi_q(1)

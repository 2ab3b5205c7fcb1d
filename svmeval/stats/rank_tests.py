"""Rank tests for comparing configurations over many data sets (Demšar 2006, "Statistical
comparisons of classifiers over multiple data sets", JMLR 7): pure Python and numpy, no scipy.

* :func:`rank_rows`, :func:`average_ranks`: each data set's configurations ranked 1 (best) ..
  k, ties sharing the average of the ranks they span; the direction is the figure's
  (``greater_is_better`` of :data:`svmeval.metrics.figures.FIGURES`).
* :func:`friedman`: Friedman's test on those ranks, chi-square with k - 1 degrees of freedom
  and Iman & Davenport's F with k - 1 and (k - 1)(N - 1). By default the chi-square carries
  the correction for ties that ``scipy.stats.friedmanchisquare`` applies (divided by
  1 - sum(t^3 - t) / (N k (k^2 - 1))); ``tie_correction=False`` gives Demšar's formula
  12N / (k(k+1)) (sum R_j^2 - k(k+1)^2 / 4) as printed.
* :func:`nemenyi_q`, :func:`nemenyi_cd`: Nemenyi's critical difference
  CD = q_alpha sqrt(k(k+1) / (6N)). q_alpha for alpha 0.05 and 0.10 and k = 2..10 are Demšar's
  Table 5(a) as printed (3 decimals), whatever the spelling of alpha (1 - 0.95 is
  0.050000000000000044 in floating point: :func:`clean_level` makes it 0.05, the table's
  column); for other k or alpha q_alpha is the studentized range
  quantile with infinite degrees of freedom divided by sqrt 2, computed from its integral
  k ∫ φ(z) (Φ(z) - Φ(z - q))^(k-1) dz (which reproduces the table to its 3 decimals).
* :func:`wilcoxon`: the Wilcoxon signed-rank test of paired values, as ``scipy.stats.wilcoxon``
  does by default (zero differences dropped, two-sided, no continuity correction): exact null
  distribution when n <= 50 and there are neither ties nor zero differences
  (``method="exact"``); all 2^n sign flips when there are ties or zeros and n <= 13
  (``"permutation"``, also exact); otherwise the normal approximation with the variance
  corrected for ties (``"normal"``).
* :func:`holm`: Holm's step-down adjustment of a family of p-values (Holm 1979).
* :func:`too_few_datasets`: which of Friedman's, Nemenyi's and Wilcoxon's tests cannot find
  any difference at a level with N data sets, whatever the results, and how many data sets
  each needs (Demšar 2006, section 3.2): the smallest p each can give is that of the test
  itself on the most extreme data (every data set ranks the configurations alike; every
  difference of one sign), and Nemenyi's critical difference is compared with the largest
  difference of average ranks, k - 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from svmeval.stats.distributions import chi2_sf, f_sf, norm_sf

__all__ = [
    "NEMENYI_Q",
    "FriedmanResult",
    "TooFewDatasets",
    "WilcoxonResult",
    "average_ranks",
    "clean_level",
    "friedman",
    "holm",
    "nemenyi_cd",
    "nemenyi_q",
    "rank_rows",
    "rankdata",
    "too_few_datasets",
    "wilcoxon",
]

#: Demšar 2006, Table 5(a): q_alpha of the two-tailed Nemenyi test for k = 2 .. 10
NEMENYI_Q = MappingProxyType(
    {
        0.05: (1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164),
        0.10: (1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920),
    }
)

#: above this many paired values the Wilcoxon test uses the normal approximation (scipy's)
WILCOXON_EXACT_MAX = 50
#: with ties or zero differences, up to this many pairs the test flips every sign (scipy's)
WILCOXON_PERMUTATION_MAX = 13


def rankdata(values) -> np.ndarray:
    """Ranks 1..n of ``values`` (1 = smallest), ties sharing the average of their ranks."""
    v = np.asarray(values, dtype=np.float64).ravel()
    order = np.argsort(v, kind="mergesort")
    sorted_v = v[order]
    ranks = np.empty(len(v), dtype=np.float64)
    start = 0
    while start < len(v):
        end = start + 1
        while end < len(v) and sorted_v[end] == sorted_v[start]:
            end += 1
        ranks[order[start:end]] = (start + 1 + end) / 2.0
        start = end
    return ranks


def _scores(scores) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError("scores must be a 2-d array: data sets x configurations")
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite numbers (no undefined values)")
    return s


def rank_rows(scores, *, greater_is_better: bool = True) -> np.ndarray:
    """Each row's (data set's) values ranked 1 (best) .. k, ties averaged."""
    s = _scores(scores)
    return np.array([rankdata(-row if greater_is_better else row) for row in s]).reshape(s.shape)


def average_ranks(scores, *, greater_is_better: bool = True) -> np.ndarray:
    """The average rank of each configuration (column) over the data sets (rows); 1 = best."""
    return rank_rows(scores, greater_is_better=greater_is_better).mean(axis=0)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test of k configurations on N data sets.

    ``statistic``: chi-square_F, ``df`` = k - 1, ``p``; ``iman_davenport``: F_F =
    (N - 1) chi2 / (N (k - 1) - chi2), ``df_f`` = (k - 1, (k - 1)(N - 1)), ``p_f``;
    ``average_ranks``: R_j (1 = best); ``tie_correction``: whether chi2 was corrected for ties.
    """

    n_datasets: int
    n_configurations: int
    statistic: float
    df: int
    p: float
    iman_davenport: float
    df_f: tuple
    p_f: float
    average_ranks: tuple
    tie_correction: bool


def friedman(
    scores, *, greater_is_better: bool = True, tie_correction: bool = True
) -> FriedmanResult:
    """Friedman's test of the columns (configurations) of ``scores`` over its rows (data
    sets); see the module's notes."""
    ranks = rank_rows(scores, greater_is_better=greater_is_better)
    n, k = ranks.shape
    if n < 2 or k < 2:
        raise ValueError("Friedman's test needs at least two data sets and two configurations")
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(mean_ranks**2)) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = sum(
            float(np.sum(c**3 - c))
            for c in (np.unique(row, return_counts=True)[1].astype(float) for row in ranks)
        )
        divisor = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / divisor if divisor > 0 else math.nan
    chi2 = max(chi2, 0.0) if not math.isnan(chi2) else chi2
    df = k - 1
    p = chi2_sf(chi2, df)
    denominator = n * (k - 1) - chi2
    if math.isnan(chi2):
        f = math.nan  # every row tied throughout: no ranking to test
    else:
        f = (n - 1) * chi2 / denominator if denominator > 0 else math.inf
    df_f = (k - 1, (k - 1) * (n - 1))
    return FriedmanResult(
        n_datasets=n,
        n_configurations=k,
        statistic=chi2,
        df=df,
        p=p,
        iman_davenport=f,
        df_f=df_f,
        p_f=f_sf(f, *df_f),
        average_ranks=tuple(float(r) for r in mean_ranks),
        tie_correction=tie_correction,
    )


def _studentized_range_cdf(q: float, k: int) -> float:
    """P(range of k standard normals < q) = k ∫ φ(z) (Φ(z) - Φ(z - q))^(k-1) dz."""
    z = np.linspace(-10.0, 10.0, 8001)
    erfc = np.vectorize(math.erfc)
    phi_z = 0.5 * erfc(-z / math.sqrt(2.0))
    phi_zq = 0.5 * erfc(-(z - q) / math.sqrt(2.0))
    density = np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    integrand = k * density * (phi_z - phi_zq) ** (k - 1)
    return float(np.sum((integrand[1:] + integrand[:-1]) * np.diff(z)) / 2.0)


def clean_level(level: float) -> float:
    """A significance level as a person writes it: ``level`` rounded to 12 significant digits,
    so that ``1 - 0.95`` (0.050000000000000044) is 0.05 and ``1 - 0.9`` (0.09999999999999998)
    is 0.1, the levels of the published tables."""
    return float(f"{float(level):.12g}")


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_alpha of Nemenyi's test for ``k`` configurations (see the module's notes)."""
    if int(k) != k or k < 2:
        raise ValueError("Nemenyi's test needs k >= 2 configurations")
    if not 0.0 < alpha < 1.0:
        raise ValueError("alpha must lie in (0, 1)")
    alpha = clean_level(alpha)
    table = NEMENYI_Q.get(alpha)
    if table is not None and k <= 1 + len(table):
        return table[k - 2]
    lo, hi = 0.0, 20.0
    for _ in range(100):  # bisection: the cdf rises with q
        mid = 0.5 * (lo + hi)
        if _studentized_range_cdf(mid, int(k)) < 1.0 - alpha:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi) / math.sqrt(2.0)


def nemenyi_cd(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks: q_alpha sqrt(k(k+1) / (6N)) for ``k``
    configurations on ``n`` data sets."""
    if n < 1:
        raise ValueError("Nemenyi's test needs at least one data set")
    return nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6.0 * n))


@dataclass(frozen=True)
class WilcoxonResult:
    """The Wilcoxon signed-rank test of paired values x - y.

    ``statistic``: min(R+, R-) (as scipy's two-sided test); ``r_plus``, ``r_minus``: the rank
    sums of the positive and negative differences; ``n``: pairs, ``n_zero``: zero differences
    (dropped); ``method``: "exact", "permutation" or "normal"; ``p``: two-sided.
    """

    statistic: float
    r_plus: float
    r_minus: float
    n: int
    n_zero: int
    method: str
    p: float


def _exact_counts(m: int) -> list:
    """counts[w]: the sign patterns of ranks 1..m whose positive ranks sum to w."""
    counts = [1] + [0] * (m * (m + 1) // 2)
    for r in range(1, m + 1):
        for w in range(len(counts) - 1, r - 1, -1):
            counts[w] += counts[w - r]
    return counts


def _exact_p(r_plus: float, m: int) -> float:
    counts = _exact_counts(m)
    total = 2**m
    upper = sum(counts[math.floor(r_plus) :])  # P(W >= r+)
    lower = sum(counts[: math.ceil(r_plus) + 1])  # P(W <= r+)
    return min(1.0, 2.0 * min(upper, lower) / total)


def _permutation_p(ranks: np.ndarray, r_plus: float) -> float:
    m = len(ranks)
    signs = (np.arange(2**m)[:, None] >> np.arange(m)[None, :]) & 1
    null = signs @ (2.0 * ranks)  # twice the rank sums: integers, compared exactly
    observed = 2.0 * r_plus
    less = np.count_nonzero(null <= observed) / len(null)
    greater = np.count_nonzero(null >= observed) / len(null)
    return min(1.0, 2.0 * min(less, greater))


def _normal_p(ranks: np.ndarray, r_plus: float) -> float:
    m = len(ranks)
    counts = np.unique(ranks, return_counts=True)[1].astype(float)
    var = (m * (m + 1) * (2 * m + 1) - float(np.sum(counts**3 - counts)) / 2.0) / 24.0
    if var <= 0:
        return math.nan
    z = (r_plus - m * (m + 1) / 4.0) / math.sqrt(var)
    return min(1.0, 2.0 * norm_sf(abs(z)))


def wilcoxon(x, y=None) -> WilcoxonResult:
    """The two-sided Wilcoxon signed-rank test of x - y (or of x alone when ``y`` is None);
    see the module's notes for the choice of method."""
    d = np.asarray(x, dtype=np.float64).ravel()
    if y is not None:
        other = np.asarray(y, dtype=np.float64).ravel()
        if len(other) != len(d):
            raise ValueError(f"{len(d)} values paired with {len(other)}")
        d = d - other
    if len(d) == 0 or not np.isfinite(d).all():
        raise ValueError("the Wilcoxon test needs finite paired values")
    n = len(d)
    nonzero = d[d != 0]
    ranks = rankdata(np.abs(nonzero))
    r_plus = float(np.sum(ranks[nonzero > 0]))
    r_minus = float(np.sum(ranks[nonzero < 0]))
    n_zero = n - len(nonzero)
    ordered = np.sort(ranks)  # finite: tied ranks are equal neighbours (np.unique imports numpy.ma)
    ties = bool((ordered[1:] == ordered[:-1]).any())
    if n <= WILCOXON_EXACT_MAX and not ties and n_zero == 0:
        method, p = "exact", _exact_p(r_plus, n)
    elif n <= WILCOXON_PERMUTATION_MAX:
        method, p = "permutation", _permutation_p(ranks, r_plus)
    else:
        method, p = "normal", _normal_p(ranks, r_plus)
    return WilcoxonResult(
        statistic=min(r_plus, r_minus),
        r_plus=r_plus,
        r_minus=r_minus,
        n=n,
        n_zero=n_zero,
        method=method,
        p=p,
    )


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given.

    With the p-values sorted, p_(1) <= .. <= p_(m), p~_(i) = max_{j <= i} min(1, (m - j + 1)
    p_(j))."""
    p = np.asarray(pvalues, dtype=np.float64).ravel()
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m, dtype=np.float64)
    adjusted[order] = np.maximum.accumulate(stepped) if m else stepped
    return adjusted


#: the most data sets :func:`too_few_datasets` looks through for the number a test needs
DATASETS_SEARCHED = 10_000


@dataclass(frozen=True)
class TooFewDatasets:
    """A test over data sets that cannot find a difference at ``level`` with ``n_datasets``.

    ``test``: "friedman", "nemenyi" or "wilcoxon"; ``needed``: the fewest data sets with
    which it can (None above :data:`DATASETS_SEARCHED`); ``bound``: the smallest p the test can
    give (Friedman, Wilcoxon) or Nemenyi's critical difference; ``limit``: what ``bound`` must
    be below (``level``) or not above (k - 1, the largest difference of average ranks).
    """

    test: str
    n_datasets: int
    n_configurations: int
    level: float
    needed: int | None
    bound: float
    limit: float

    def to_dict(self) -> dict:
        out = {
            "test": self.test,
            "n_datasets": self.n_datasets,
            "needed": self.needed,
            "level": self.level,
        }
        if self.test == "nemenyi":
            out.update(critical_difference=self.bound, largest_rank_difference=self.limit)
        else:
            out["smallest_p"] = self.bound
        return out


def wilcoxon_smallest_p(n: int) -> float:
    """The smallest two-sided p of :func:`wilcoxon` on ``n`` pairs: that of n differences of
    one sign, no two alike (2 / 2^n while the null distribution is exact)."""
    return wilcoxon(np.arange(1.0, n + 1.0)).p


def friedman_smallest_p(n: int, k: int) -> float:
    """The smallest p of :func:`friedman` (chi-square) with ``n`` data sets and ``k``
    configurations: that of every data set ranking them alike (chi-square = n (k - 1))."""
    return friedman(np.tile(np.arange(float(k), 0.0, -1.0), (n, 1))).p


def nemenyi_fewest(k: int, alpha: float) -> int:
    """The fewest data sets with which Nemenyi's critical difference is at most k - 1, the
    largest difference of average ranks: N >= q^2 k (k + 1) / (6 (k - 1)^2)."""
    q = nemenyi_q(k, alpha)
    n = max(1, math.ceil(q * q * k * (k + 1) / (6.0 * (k - 1) ** 2)))
    while nemenyi_cd(k, n, alpha) > k - 1:  # rounding at the boundary
        n += 1
    while n > 1 and nemenyi_cd(k, n - 1, alpha) <= k - 1:
        n -= 1
    return n


def _fewest(smallest_p, level: float, start: int) -> int | None:
    for n in range(start, DATASETS_SEARCHED + 1):
        if smallest_p(n) < level:
            return n
    return None


def too_few_datasets(n: int, k: int, level: float = 0.05) -> tuple[TooFewDatasets, ...]:
    """The tests over ``n`` data sets of ``k`` configurations that cannot find any difference
    at ``level`` (a test is significant when p < level; Nemenyi's, when two average ranks
    differ by at least the critical difference), with the data sets each would need.
    Friedman's and Wilcoxon's need n >= 2 (with fewer they are not run and not listed)."""
    level = clean_level(level)
    out = []
    if n >= 2:
        bound = friedman_smallest_p(n, k)
        if not bound < level:
            needed = _fewest(lambda m: friedman_smallest_p(m, k), level, n + 1)
            out.append(TooFewDatasets("friedman", n, k, level, needed, bound, level))
    cd = nemenyi_cd(k, n, level)
    if cd > k - 1:
        out.append(TooFewDatasets("nemenyi", n, k, level, nemenyi_fewest(k, level), cd, k - 1))
    if n >= 2:
        bound = wilcoxon_smallest_p(n)
        if not bound < level:
            needed = _fewest(wilcoxon_smallest_p, level, n + 1)
            out.append(TooFewDatasets("wilcoxon", n, k, level, needed, bound, level))
    return tuple(out)

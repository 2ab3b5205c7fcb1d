"""The distributions of svmeval's significance tests, in one place: pure Python, no scipy.

* Student's t (:func:`t_sf`, :func:`t_cdf`, :func:`t_two_sided`, :func:`t_ppf`) and Fisher's F
  (:func:`f_sf`) from the regularized incomplete beta function :func:`betainc` (continued
  fraction, Numerical Recipes' ``betacf``); the t quantile by bisection;
* chi-square with an integer number of degrees of freedom (:func:`chi2_sf`) from its closed
  form (a finite Poisson sum for even df, ``erfc`` plus a finite sum for odd df);
  :func:`chi2_1_sf` its one-degree case;
* the standard normal tail :func:`norm_sf` from ``math.erfc``;
* the two-sided binomial test at 1/2 (:func:`binom_test_half`) by exact integer sums.
"""

from __future__ import annotations

import functools
import math

__all__ = [
    "betainc",
    "binom_test_half",
    "chi2_1_sf",
    "chi2_sf",
    "f_sf",
    "norm_sf",
    "t_cdf",
    "t_ppf",
    "t_sf",
    "t_two_sided",
]


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1."""
    if not (a > 0 and b > 0):
        raise ValueError("betainc: a and b must be positive")
    if not 0.0 <= x <= 1.0:
        raise ValueError("betainc: x must lie in [0, 1]")
    if x == 0.0 or x == 1.0:
        return x
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    # The continued fraction converges quickly for x < (a + 1) / (a + b + 2); use the symmetry
    # I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))  # P(T > |t|)
    return tail if t >= 0 else 1.0 - tail


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


@functools.lru_cache(maxsize=64)
def t_ppf(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (bisection on
    :func:`t_sf`, to double precision; each ``(q, df)`` once: the tests of a comparison
    over many data sets share them)."""
    if not 0.0 < q < 1.0:
        raise ValueError("t_ppf: q must lie in (0, 1)")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_ppf(1.0 - q, df)
    target = 1.0 - q  # upper tail
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > target:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if t_sf(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def binom_test_half(k: int, n: int) -> float:
    """Two-sided p-value of k successes in n trials with success probability 1/2: the
    probability of an outcome at most as likely as k (for p = 1/2: twice the smaller tail)."""
    if n == 0:
        return 1.0
    small = min(k, n - k)
    if 2 * small == n:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(small + 1))
    return min(1.0, 2 * tail / 2**n)  # integer arithmetic, one correctly rounded division


def chi2_1_sf(x: float) -> float:
    """P(X > x) for chi-square with 1 degree of freedom: erfc(sqrt(x / 2))."""
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2.0))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    return 1.0 - t_sf(t, df) if t >= 0 else t_sf(-t, df)


def _tail_at_edges(x: float) -> float | None:
    """P(X > x) of a distribution on [0, inf) where x is NaN, <= 0 or infinite; else None."""
    if math.isnan(x):
        return math.nan
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    return None


def f_sf(x: float, dfn: float, dfd: float) -> float:
    """P(F > x) for Fisher's F with ``dfn`` and ``dfd`` degrees of freedom:
    I_{dfd / (dfd + dfn x)}(dfd / 2, dfn / 2)."""
    edge = _tail_at_edges(x)
    return edge if edge is not None else betainc(dfd / 2.0, dfn / 2.0, dfd / (dfd + dfn * x))


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for chi-square with an integer ``df`` >= 1 degrees of freedom."""
    if df < 1 or int(df) != df:
        raise ValueError("chi2_sf: df must be a positive integer")
    edge = _tail_at_edges(x)
    if edge is not None:
        return edge
    half = x / 2.0
    if df % 2 == 0:
        # e^(-x/2) sum_{i < df/2} (x/2)^i / i!, summed in logs against overflow
        terms = [i * math.log(half) - math.lgamma(i + 1) for i in range(df // 2)]
    else:
        # erfc(sqrt(x/2)) + e^(-x/2) sum_{i=1}^{(df-1)/2} (x/2)^(i-1/2) / Gamma(i + 1/2)
        terms = [
            (i - 0.5) * math.log(half) - math.lgamma(i + 0.5) for i in range(1, (df - 1) // 2 + 1)
        ]
    top = max(terms, default=0.0)
    tail = math.exp(top - half) * sum(math.exp(t - top) for t in terms) if terms else 0.0
    if df % 2:
        tail += math.erfc(math.sqrt(half))
    return min(1.0, tail)


def norm_sf(z: float) -> float:
    """P(Z > z) for the standard normal: erfc(z / sqrt 2) / 2."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))

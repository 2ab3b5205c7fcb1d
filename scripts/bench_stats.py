#!/usr/bin/env python3
"""The statistics of a benchmark beside their peers, in one process, results checked equal:
Friedman's test (scipy.stats.friedmanchisquare), the pairwise Wilcoxon tests
(scipy.stats.wilcoxon), Holm (statsmodels, if installed) and the Bayesian correlated t-test
(baycomp's two_on_single, if installed), on N data sets x K configurations x F fold values.

Each contender runs REPEAT times; the script prints the median CPU seconds and the ratio
svmeval / peer (below 1: svmeval is faster).

Usage: python scripts/bench_stats.py [--datasets N] [--configurations K] [--folds F]
       [--repeat R]   (defaults: 30 data sets, 8 configurations, 100 folds, 5 runs)
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

import numpy as np
from scipy import stats

from svmeval.stats import bayesian, rank_tests


def timed(fn, repeat: int):
    """fn's result and the median CPU seconds of ``repeat`` calls."""
    cpus, out = [], None
    for _ in range(repeat):
        c0 = time.process_time()
        out = fn()
        cpus.append(time.process_time() - c0)
    return out, statistics.median(cpus)


def _contenders(values, rope):
    mean = values.mean(axis=2)
    k = values.shape[1]
    pairs = list(itertools.combinations(range(k), 2))
    out = [
        (
            "Friedman",
            lambda: rank_tests.friedman(mean).p,
            lambda: stats.friedmanchisquare(*mean.T).pvalue,
        ),
        (
            "Wilcoxon, every pair",
            lambda: [rank_tests.wilcoxon(mean[:, b], mean[:, a]).p for a, b in pairs],
            lambda: [stats.wilcoxon(mean[:, b], mean[:, a]).pvalue for a, b in pairs],
        ),
    ]
    raw = [stats.wilcoxon(mean[:, b], mean[:, a]).pvalue for a, b in pairs]
    try:
        from statsmodels.stats.multitest import multipletests

        out.append(
            (
                "Holm",
                lambda: list(rank_tests.holm(raw)),
                lambda: list(multipletests(raw, method="holm")[1]),
            )
        )
    except ImportError:
        pass
    try:
        import baycomp

        n_folds = 10
        runs = values.shape[2] // n_folds
        out.append(
            (
                "Bayesian t-test, every pair and data set",
                lambda: [
                    bayesian.correlated_ttest(
                        values[i, b] - values[i, a], n_folds, rope=rope
                    ).p_rope
                    for i in range(len(values))
                    for a, b in pairs
                ],
                lambda: [
                    baycomp.two_on_single(values[i, a], values[i, b], rope=rope, runs=runs)[1]
                    for i in range(len(values))
                    for a, b in pairs
                ],
            )
        )
    except ImportError:
        pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", type=int, default=30)
    ap.add_argument("--configurations", type=int, default=8)
    ap.add_argument("--folds", type=int, default=100, help="R x k, a multiple of 10")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    values = (
        rng.uniform(0.6, 0.95, (args.datasets, 1, 1))
        + np.linspace(0, 0.02, args.configurations)[None, :, None]
        + rng.normal(0, 0.03, (args.datasets, args.configurations, args.folds))
    )
    print(
        f"{args.datasets} data sets x {args.configurations} configurations x "
        f"{args.folds} folds, median of {args.repeat} runs (CPU seconds)"
    )
    for name, ours, theirs in _contenders(values, 0.01):
        a, t_ours = timed(ours, args.repeat)
        b, t_theirs = timed(theirs, args.repeat)
        assert np.allclose(a, b, rtol=1e-9, atol=1e-12), name
        print(
            f"  {name:<42} svmeval {t_ours:9.5f}  peer {t_theirs:9.5f}  "
            f"ratio {t_ours / t_theirs:.3g}"
        )


if __name__ == "__main__":
    main()

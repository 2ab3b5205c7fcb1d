"""The verdict of a comparison: which test answers the question asked, what it says at the
chosen level, and which tests over data sets have too few data sets to say anything.

* Two configurations on one data set (:class:`~svmeval.workflows.compare.Comparison`): the
  corrected resampled t-test of the repeated folds' differences (Nadeau & Bengio 2003); the
  plain paired t-test ignores that the folds' training sets overlap, McNemar's test that they
  vary, so neither answers whether B is better on this data set (Dietterich 1998; Bouckaert &
  Frank 2004).
* Configurations over several data sets (:class:`~svmeval.workflows.benchmark.Benchmark`,
  Demšar 2006): two configurations, the Wilcoxon signed-rank test of the data sets' means;
  more, Friedman's test (then Nemenyi's critical difference says which differ); one data set,
  the per-data-set test (the corrected resampled t-test, or the 5x2cv t-test) of each pair.
* A test over data sets that cannot reach the level whatever the results
  (:func:`~svmeval.stats.rank_tests.too_few_datasets`) is named with the data sets it needs.

A test is significant when p < level, the level being 1 - the confidence level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from svmeval.stats.rank_tests import TooFewDatasets, clean_level, too_few_datasets

__all__ = ["Verdict", "benchmark_verdict", "comparison_verdict"]

TEST_NAMES = {
    "corrected_ttest": "the corrected resampled t-test",
    "5x2cv": "the 5x2cv paired t-test",
    "wilcoxon": "the Wilcoxon signed-rank test over the data sets' means",
    "friedman": "Friedman's test",
}


@dataclass(frozen=True)
class Verdict:
    """What a comparison concludes.

    ``test``: the test that answers the question ("corrected_ttest", "5x2cv", "wilcoxon" or
    "friedman"); ``p`` its p-value, ``level`` the significance level, ``significant``:
    p < level; ``difference``: B - A (the mean over the folds, or over the data sets'
    means) where two configurations are compared, else None; ``better``: the name of the
    configuration found better, None where no difference is significant (or several
    configurations differ); ``text``: the sentence; ``too_few``: the tests over data sets that
    cannot reach the level with this many data sets (Demšar 2006), and ``warning`` their
    sentence ("" where there is none).
    """

    test: str
    p: float
    level: float
    significant: bool
    difference: float | None
    better: str | None
    text: str
    too_few: tuple[TooFewDatasets, ...] = ()
    warning: str = ""

    def to_dict(self) -> dict:
        """Plain JSON types (an undefined p is None)."""
        return {
            "test": self.test,
            "p": None if math.isnan(self.p) else self.p,
            "level": self.level,
            "significant": self.significant,
            "difference": self.difference,
            "better": self.better,
            "text": self.text,
            "too_few_datasets": [t.to_dict() for t in self.too_few],
            "warning": self.warning,
        }


def _p(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:.4g}" if value >= 1e-4 else f"{value:.2e}"


def _better(difference: float, greater_is_better: bool, a: str, b: str) -> str:
    return b if (difference > 0) == greater_is_better else a


def _pair_sentence(
    test: str, p: float, level: float, difference: float, criterion: str, a: str, b: str, gib
):
    """(significant, better, sentence) of B - A by one test."""
    significant = p < level
    better = _better(difference, gib, a, b) if significant and difference != 0 else None
    return (
        significant,
        better,
        _said(_difference(a, b, difference, criterion), better, level, TEST_NAMES[test], p),
    )


def _difference(
    a: str, b: str, difference: float, criterion: str, over: str = "", what: str = "difference"
) -> str:
    """``B - A = +0.0123 in accuracy``, or with configurations' options for names
    ``-c 4 against -c 1: difference +0.0123 in accuracy``."""
    if (a, b) == ("A", "B") and not over:
        return f"B - A = {difference:+.4f} in {criterion}"
    return f"{b} against {a}{over}: {what} {difference:+.4f} in {criterion}"


def _said(what: str, better: str | None, level: float, test: str, p: float) -> str:
    outcome = "not significant" if better is None else f"{better} is better, significant"
    return f"{what}: {outcome} at {level:g} by {test} (p = {_p(p)})"


def comparison_verdict(c) -> Verdict:
    """The verdict of a :class:`~svmeval.workflows.compare.Comparison`: the corrected
    resampled t-test of B - A at 1 - its confidence level."""
    t = c.ttest
    level = clean_level(1.0 - t.confidence)
    significant, better, text = _pair_sentence(
        "corrected_ttest", t.p, level, t.mean, c.criterion, "A", "B", c.greater_is_better
    )
    ignored = (
        "the plain t-test ignores that the folds' training sets overlap"
        if c.mcnemar is None
        else "the plain t-test and McNemar's test ignore the folds' overlap"
    )
    return Verdict(
        "corrected_ttest", t.p, level, significant, t.mean, better, f"{text}; {ignored}."
    )


def _warning(too_few: tuple[TooFewDatasets, ...]) -> str:
    if not too_few:
        return ""
    n, level = too_few[0].n_datasets, too_few[0].level
    parts = []
    for t in too_few:
        needs = f"{t.needed} needed" if t.needed is not None else "far more needed"
        if t.test == "friedman":
            parts.append(f"Friedman's p cannot go below {_p(t.bound)} ({needs})")
        elif t.test == "wilcoxon":
            parts.append(
                f"Wilcoxon's two-sided p cannot go below {_p(t.bound)}, every data set on one "
                f"side ({needs})"
            )
        else:
            parts.append(
                f"Nemenyi's critical difference {t.bound:.3f} exceeds the largest possible "
                f"difference of average ranks, {t.limit:g} ({needs})"
            )
    return (
        f"too few data sets ({n}) for a test over them to find a difference at "
        f"{level:g} (Demšar 2006): " + "; ".join(parts) + "."
    )


def benchmark_verdict(bench) -> Verdict:
    """The verdict of a :class:`~svmeval.workflows.benchmark.Benchmark` at its level."""
    level = clean_level(bench.level)
    n, k = len(bench.datasets), len(bench.configurations)
    too_few = too_few_datasets(n, k, level)
    gib = bench.greater_is_better
    if n == 1:  # no test over data sets: the per-data-set test of each pair
        test = "corrected_ttest" if bench.test == "corrected" else "5x2cv"
        if k == 2:
            pair = bench.pairs[0]
            d = float(bench.mean[0, 1] - bench.mean[0, 0])
            p = pair.per_dataset[0].p
            significant, better, text = _pair_sentence(
                test, p, level, d, bench.criterion, pair.a, pair.b, gib
            )
            text = f"on {bench.datasets[0]}, {text}"
            return Verdict(test, p, level, significant, d, better, text, too_few, _warning(too_few))
        differ = [p for p in bench.pairs if p.per_dataset[0].p < level]
        text = (
            f"one data set: {len(differ)} of the {len(bench.pairs)} pairs differ at {level:g} "
            f"by {TEST_NAMES[test]}, each pair tested alone (no correction for "
            f"{len(bench.pairs)} tests; no test over data sets with one)"
        )
        return Verdict(
            test, math.nan, level, bool(differ), None, None, text, too_few, _warning(too_few)
        )
    if k == 2:
        pair = bench.pairs[0]
        w = pair.wilcoxon
        d = float((bench.mean[:, 1] - bench.mean[:, 0]).mean())
        significant = w.p < level
        better = None
        if significant and w.r_plus != w.r_minus:
            better = pair.b if (w.r_plus > w.r_minus) == gib else pair.a
        what = _difference(
            pair.a, pair.b, d, bench.criterion, f" over {n} data sets", "mean difference"
        )
        text = _said(what, better, level, TEST_NAMES["wilcoxon"], w.p)
        return Verdict(
            "wilcoxon", w.p, level, significant, d, better, text, too_few, _warning(too_few)
        )
    f = bench.friedman
    significant = f.p < level
    if significant:
        text = (
            f"the {k} configurations differ over {n} data sets, significant at {level:g} by "
            f"Friedman's test (p = {_p(f.p)}); Nemenyi's critical difference says which pairs"
        )
    else:
        text = (
            f"no significant difference among the {k} configurations over {n} data sets at "
            f"{level:g} by Friedman's test (p = {_p(f.p)})"
        )
    return Verdict(
        "friedman", f.p, level, significant, None, None, text, too_few, _warning(too_few)
    )

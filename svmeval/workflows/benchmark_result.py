""":class:`Benchmark`, the result of :func:`svmeval.workflows.benchmark.benchmark`: the fold
values of many configurations over many data sets and the statistics of their comparison (the
module :mod:`svmeval.workflows.benchmark` says which); :class:`Pair` and :class:`DatasetTest`,
its pairs of configurations and their per-data-set tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from svmeval import _tables as tables
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance
from svmeval.errors import SvmevalError
from svmeval.metrics.figures import FIGURES
from svmeval.stats.five_by_two import FiveByTwoResult, five_by_two
from svmeval.stats.rank_tests import (
    FriedmanResult,
    WilcoxonResult,
    clean_level,
    friedman,
    holm,
    nemenyi_cd,
    nemenyi_q,
    rank_rows,
    wilcoxon,
)
from svmeval.stats.significance import TTestResult, corrected_resampled_ttest
from svmeval.workflows.verdict import Verdict, benchmark_verdict

if TYPE_CHECKING:  # imported where a rope asks for them: a benchmark without one loads none
    from svmeval.stats.bayesian import BayesianResult, SignedRankResult

__all__ = ["TESTS", "Benchmark", "DatasetTest", "Pair", "check_draws"]

#: the per-data-set tests of the win/tie/loss counts
TESTS = ("corrected", "5x2cv")


@dataclass(frozen=True)
class DatasetTest:
    """One pair on one data set: ``ttest`` (corrected resampled t-test, or None with 5x2cv),
    ``five_by_two`` (with 5x2cv), ``p`` of the test that counts, ``outcome``: "win", "tie" or
    "loss" of B against A; ``bayesian`` with a rope; ``n_defined``: folds where both are
    defined."""

    dataset: str
    n_defined: int
    p: float
    outcome: str
    ttest: TTestResult | None = None
    five_by_two: FiveByTwoResult | None = None
    bayesian: BayesianResult | None = None


@dataclass(frozen=True)
class Pair:
    """Configurations ``a`` and ``b`` over the data sets (see the module's notes)."""

    a: str
    b: str
    wilcoxon: WilcoxonResult | None
    p_holm: float
    wins: int
    ties: int
    losses: int
    per_dataset: tuple = field(default=())
    signed_rank: SignedRankResult | None = None  # with a rope and two or more data sets


def _names(names, count: int, what: str) -> tuple:
    names = tuple(str(n) for n in names)
    if len(names) != count:
        raise SvmevalError(f"{count} {what} in the values but {len(names)} names")
    if len(set(names)) != len(names):
        raise SvmevalError(f"the names of the {what} must differ")
    return names


@dataclass(frozen=True, eq=False)
class Benchmark:
    """Fold values of configurations on data sets and the tests over them (module notes).

    The values may come from anywhere: a data set x configuration x fold array.

    Examples
    --------
    >>> import numpy as np
    >>> from svmeval import Benchmark
    >>> values = np.array([[[0.8, 0.9], [0.7, 0.6]], [[0.5, 0.6], [0.4, 0.45]]])
    >>> b = Benchmark(values, ["x", "y"], ["A", "B"], "accuracy", n_folds=2)
    >>> b.ranks.tolist()
    [1.0, 2.0]
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.benchmark:VIEW"

    __repr__ = brief_repr

    values: np.ndarray
    datasets: tuple
    configurations: tuple
    criterion: str
    n_folds: int
    repeat: int = 1
    level: float = 0.05
    rope: float | None = None
    test: str = "corrected"
    seeds: tuple = ()  # each repetition's C srand seed, where known
    fold_sizes: tuple = ()  # per data set, each fold's test samples (repetition-major)
    provenance: Provenance | None = field(default=None, repr=False)  # how it was made
    draws: int = 50_000  # the signed-rank test's Monte-Carlo draws
    draw_seed: int = 1  # and their RandomState seed
    #: per data set, where its folds came from when they are not LIBSVM's: "grouped (N
    #: groups)" or "given" ("" or left out: LIBSVM's)
    fold_sources: tuple = ()
    #: what each fold learned on its training rows, every configuration alike ("": nothing)
    preprocessing: str = ""

    def __post_init__(self):
        v = np.array(self.values, dtype=np.float64)
        if v.ndim != 3:
            raise SvmevalError("values must be shaped (data sets, configurations, folds)")
        object.__setattr__(self, "values", v)
        if isinstance(self.level, (int, float)) and not isinstance(self.level, bool):
            object.__setattr__(self, "level", clean_level(self.level))  # 1 - 0.95 is 0.05
        object.__setattr__(self, "datasets", _names(self.datasets, v.shape[0], "data sets"))
        object.__setattr__(
            self, "configurations", _names(self.configurations, v.shape[1], "configurations")
        )
        self._check(v)

    def _check(self, v: np.ndarray) -> None:
        if self.criterion not in FIGURES:
            raise SvmevalError(f"unknown criterion {self.criterion!r}")
        if int(self.n_folds) != self.n_folds or self.n_folds < 2 or self.repeat < 1:
            raise SvmevalError("n_folds must be >= 2 and repeat >= 1")
        if v.shape[2] != self.n_folds * self.repeat or v.shape[2] < 2:
            raise SvmevalError(
                f"{v.shape[2]} values per cell, but {self.repeat} x "
                f"{self.n_folds} folds (at least two)"
            )
        if v.shape[0] < 1 or v.shape[1] < 2:
            raise SvmevalError("a benchmark needs a data set and two configurations")
        if np.isinf(v).any():
            raise SvmevalError("fold values must be finite (NaN for undefined)")
        if not 0.0 < self.level < 1.0:
            raise SvmevalError("level must lie in (0, 1)")
        if self.rope is not None and not (self.rope >= 0 and math.isfinite(self.rope)):
            raise SvmevalError("rope must be a finite number >= 0")
        check_draws(self.draws)
        if (
            isinstance(self.draw_seed, bool)
            or not isinstance(self.draw_seed, (int, np.integer))
            or not 0 <= self.draw_seed < 2**32
        ):
            raise SvmevalError("draw_seed must be an integer from 0 to 2**32 - 1")
        if self.test not in TESTS:
            raise SvmevalError(f"test must be one of {', '.join(TESTS)}")
        if self.test == "5x2cv" and (self.repeat, self.n_folds) != (5, 2):
            raise SvmevalError("the 5x2cv tests need 5 repetitions of 2-fold cross-validation")
        for i, name in enumerate(self.datasets):
            for j, conf in enumerate(self.configurations):
                if np.isnan(v[i, j]).all():
                    raise SvmevalError(
                        f"{self.criterion} is undefined on every fold of {conf} on {name}"
                    )

    @property
    def greater_is_better(self) -> bool:
        return FIGURES[self.criterion].greater_is_better

    @cached_property
    def mean(self) -> np.ndarray:
        """(data sets, configurations): the mean over the defined folds."""
        return np.nanmean(self.values, axis=2)

    @cached_property
    def sd(self) -> np.ndarray:
        """(data sets, configurations): the sd over the defined folds (NaN with fewer than 2)."""
        counts = np.count_nonzero(~np.isnan(self.values), axis=2)
        centred = np.where(np.isnan(self.values), 0.0, self.values - self.mean[:, :, None])
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 1, np.sqrt((centred**2).sum(axis=2) / (counts - 1)), np.nan)

    @cached_property
    def best(self) -> np.ndarray:
        """(data sets, configurations): True where the mean is the row's best."""
        m = self.mean
        top = m.max(axis=1) if self.greater_is_better else m.min(axis=1)
        return m == top[:, None]

    @cached_property
    def rank_table(self) -> np.ndarray:
        """(data sets, configurations): each data set's ranks, 1 = best, ties averaged."""
        return rank_rows(self.mean, greater_is_better=self.greater_is_better)

    @cached_property
    def ranks(self) -> np.ndarray:
        """The average rank of each configuration over the data sets."""
        return self.rank_table.mean(axis=0)

    @cached_property
    def friedman(self) -> FriedmanResult | None:
        """Friedman's test over the data sets (None with one data set)."""
        if len(self.datasets) < 2:
            return None
        return friedman(self.mean, greater_is_better=self.greater_is_better)

    @cached_property
    def nemenyi_q(self) -> float:
        return nemenyi_q(len(self.configurations), self.level)

    @cached_property
    def critical_difference(self) -> float:
        """Nemenyi's critical difference of average ranks at ``level``."""
        return nemenyi_cd(len(self.configurations), len(self.datasets), self.level)

    @cached_property
    def cliques(self) -> tuple:
        """The maximal groups (two or more) of configurations, as index tuples in order of
        average rank, whose average ranks all lie within the critical difference: the groups
        the critical-difference diagram joins by a bar."""
        order = [int(i) for i in np.argsort(self.ranks, kind="mergesort")]
        groups: list[tuple[int, ...]] = []
        for start in range(len(order)):
            end = start
            while (
                end + 1 < len(order)
                and self.ranks[order[end + 1]] - self.ranks[order[start]] < self.critical_difference
            ):
                end += 1
            group = tuple(order[start : end + 1])
            if len(group) > 1 and not any(set(group) <= set(g) for g in groups):
                groups.append(group)
        return tuple(groups)

    def differences(self, a: int, b: int, dataset: int) -> np.ndarray:
        """B - A on the folds of ``dataset`` where both are defined (configuration and data set
        indices)."""
        d = self.values[dataset, b] - self.values[dataset, a]
        return d if self.test == "5x2cv" else d[~np.isnan(d)]

    def _outcome(self, mean_difference: float, p: float) -> str:
        if not p < self.level:
            return "tie"
        better = mean_difference > 0 if self.greater_is_better else mean_difference < 0
        return "win" if better else "loss"

    def _dataset_test(self, a: int, b: int, i: int) -> DatasetTest:
        d = self.differences(a, b, i)
        name = self.datasets[i]
        ttest = fxt = bayes = None
        if self.test == "5x2cv":
            if np.isnan(d).any():
                raise SvmevalError(
                    f"{self.criterion} is undefined on a fold of {name}: the "
                    "5x2cv tests need every fold"
                )
            fxt = five_by_two(d.reshape(5, 2))
            p, outcome = fxt.p_t, self._outcome(float(d.mean()), fxt.p_t)
        elif len(d) < 2:
            p, outcome = math.nan, "tie"
        else:
            ttest = corrected_resampled_ttest(d, 1.0 / (self.n_folds - 1))
            p, outcome = ttest.p, self._outcome(ttest.mean, ttest.p)
        if self.rope is not None and len(d) >= 2:
            from svmeval.stats.bayesian import correlated_ttest

            bayes = correlated_ttest(d, self.n_folds, rope=self.rope)
        return DatasetTest(name, len(d), p, outcome, ttest=ttest, five_by_two=fxt, bayesian=bayes)

    @cached_property
    def pairs(self) -> tuple:
        """Every pair (A, B), A before B in the given order: see the module's notes."""
        k = len(self.configurations)
        index = [(a, b) for a in range(k) for b in range(a + 1, k)]
        rank_tests: list[WilcoxonResult | None] = []
        for a, b in index:
            if len(self.datasets) >= 2:
                rank_tests.append(wilcoxon(self.mean[:, b], self.mean[:, a]))
            else:
                rank_tests.append(None)
        p = [r.p if r is not None else math.nan for r in rank_tests]
        adjusted = holm(p) if len(self.datasets) >= 2 else [math.nan] * len(p)
        out = []
        for (a, b), w, p_holm in zip(index, rank_tests, adjusted):
            tests = tuple(self._dataset_test(a, b, i) for i in range(len(self.datasets)))
            outcomes = [t.outcome for t in tests]
            signed = None
            if self.rope is not None and len(self.datasets) >= 2:
                from svmeval.stats.bayesian import signed_rank_test

                signed = signed_rank_test(
                    self.mean[:, a],
                    self.mean[:, b],
                    rope=self.rope,
                    draws=int(self.draws),
                    seed=int(self.draw_seed),
                )
            out.append(
                Pair(
                    self.configurations[a],
                    self.configurations[b],
                    w,
                    float(p_holm),
                    outcomes.count("win"),
                    outcomes.count("tie"),
                    outcomes.count("loss"),
                    tests,
                    signed,
                )
            )
        return tuple(out)

    @cached_property
    def verdict(self) -> Verdict:
        """What the benchmark concludes at ``level``: ``test`` (Wilcoxon's for two
        configurations over data sets, Friedman's for more, the per-data-set test on one data
        set), ``p``, ``significant``, ``better``, ``text``; ``too_few``: the tests over data
        sets that cannot find a difference with this many data sets (Demšar 2006), and
        ``warning``, their sentence."""
        return benchmark_verdict(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (data set, configuration, repetition, fold) with
        the criterion's value on that fold (``groupby(["dataset", "configuration"])``)."""
        per = self.values.shape[2] // self.repeat
        seeds = self.seeds or (None,) * self.repeat
        rows = [
            {
                "dataset": name,
                "configuration": config,
                "repetition": f // per,
                "seed": seeds[f // per],
                "fold": f % per,
                "n_test": (int(self.fold_sizes[i][f]) if len(self.fold_sizes) else None),
                self.criterion: float(self.values[i, j, f]),
            }
            for i, name in enumerate(self.datasets)
            for j, config in enumerate(self.configurations)
            for f in range(self.values.shape[2])
        ]
        return tables.frame(rows)

    def to_dict(self) -> dict:
        """Plain data, JSON-ready (NaN and infinities as None): "datasets", "configurations",
        "mean" and "sd" (rows: data sets in the given order, columns: configurations), "best",
        "ranks", "friedman" (None with one data set), "nemenyi", "pairs", "verdict" (what
        the benchmark concludes: the test, p, level, significant, the sentence, and the tests
        with too few data sets) and, with a rope,
        "bayesian": one record per data set and pair with "rope", "p_left", "p_rope",
        "p_right" (of B - A), and with two or more data sets "signed_rank": one record per
        pair with "rope", "prior", "draws", "seed", "p_left", "p_rope", "p_right"."""
        f = self.friedman
        out = {
            "criterion": self.criterion,
            "greater_is_better": self.greater_is_better,
            "n_folds": self.n_folds,
            "repeat": self.repeat,
            "level": self.level,
            "test": self.test,
            "datasets": list(self.datasets),
            "configurations": list(self.configurations),
            "mean": _plain(self.mean),
            "sd": _plain(self.sd),
            "best": self.best.tolist(),
            "ranks": _plain(self.ranks),
            "friedman": None
            if f is None
            else {
                "statistic": _plain(f.statistic),
                "df": f.df,
                "p": _plain(f.p),
                "iman_davenport": _plain(f.iman_davenport),
                "df_f": list(f.df_f),
                "p_f": _plain(f.p_f),
            },
            "nemenyi": {"alpha": self.level, "q": self.nemenyi_q, "cd": self.critical_difference},
            "pairs": [_pair_dict(p) for p in self.pairs],
            "verdict": self.verdict.to_dict(),
        }
        if self.preprocessing:  # learned inside the folds (without it: no such key)
            out["preprocessing"] = self.preprocessing
        if any(self.fold_sources):  # the folds of a data set that are not LIBSVM's
            out["fold_sources"] = {
                name: kind for name, kind in zip(self.datasets, self.fold_sources) if kind
            }
        if self.rope is not None:
            out["bayesian"] = [
                {
                    "dataset": t.dataset,
                    "a": p.a,
                    "b": p.b,
                    "rope": self.rope,
                    "p_left": t.bayesian.p_left,
                    "p_rope": t.bayesian.p_rope,
                    "p_right": t.bayesian.p_right,
                }
                for p in self.pairs
                for t in p.per_dataset
                if t.bayesian is not None
            ]
        signed = [(p, p.signed_rank) for p in self.pairs if p.signed_rank is not None]
        if signed:
            out["signed_rank"] = [
                {
                    "a": p.a,
                    "b": p.b,
                    "n_datasets": r.n,
                    "rope": r.rope,
                    "prior": r.prior,
                    "draws": r.draws,
                    "seed": r.seed,
                    "p_left": r.p_left,
                    "p_rope": r.p_rope,
                    "p_right": r.p_right,
                }
                for p, r in signed
            ]
        return out


def check_draws(draws) -> None:
    """``draws``: an integer from 1 to :data:`~svmeval.stats.bayesian.MAX_DRAWS`."""
    from svmeval._args.checks import check_draws as check

    check(draws)


def _plain(value):
    """numbers and arrays as JSON-ready Python values, NaN and infinities as None."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _pair_dict(p: Pair) -> dict:
    w = p.wilcoxon
    tests = []
    for t in p.per_dataset:
        row = {"dataset": t.dataset, "n": t.n_defined, "p": _plain(t.p), "outcome": t.outcome}
        if t.ttest is not None:
            row["t"] = _plain(t.ttest.t)
        if t.five_by_two is not None:
            row.update(
                t=_plain(t.five_by_two.t), f=_plain(t.five_by_two.f), p_f=_plain(t.five_by_two.p_f)
            )
        tests.append(row)
    return {
        "a": p.a,
        "b": p.b,
        "wins": p.wins,
        "ties": p.ties,
        "losses": p.losses,
        "wilcoxon": None
        if w is None
        else {
            "statistic": w.statistic,
            "p": _plain(w.p),
            "method": w.method,
            "p_holm": _plain(p.p_holm),
        },
        "tests": tests,
    }

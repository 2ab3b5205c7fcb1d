"""Benchmark (many data sets x many configurations) against independent oracles: scipy.stats
(friedmanchisquare, wilcoxon, rankdata, the corrected t-test written out with scipy's t),
statsmodels' Holm adjustment, baycomp's two_on_single, and Demšar 2006's worked example."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from test_rank_tests import DEMSAR_AUC

from svmeval.errors import SvmevalError
from svmeval.workflows.benchmark import Benchmark

DATASETS = ["d1", "d2", "d3", "d4", "d5", "d6"]
CONFIGS = ["A", "B", "C"]


def _values(R=2, k=5, seed=0, shifts=(0.0, 0.01, 0.04), sd=0.03):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.95, size=(len(DATASETS), 1, 1))
    return base + np.array(shifts)[None, :, None] + rng.normal(0, sd, (len(DATASETS), 3, R * k))


def _corrected_p(d, k):
    """Nadeau & Bengio's corrected resampled t-test, written with scipy's t."""
    J = len(d)
    t = d.mean() / math.sqrt((1 / J + 1 / (k - 1)) * d.var(ddof=1))
    return 2 * stats.t.sf(abs(t), J - 1)


def test_table_ranks_and_friedman_equal_scipy():
    v = _values()
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=5, repeat=2)
    mean = v.mean(axis=2)
    assert b.mean == pytest.approx(mean, rel=1e-15)
    assert b.sd == pytest.approx(v.std(axis=2, ddof=1), rel=1e-12)
    assert np.array_equal(b.best, mean == mean.max(axis=1, keepdims=True))
    ranks = np.array([stats.rankdata(-row) for row in mean])
    assert b.ranks == pytest.approx(ranks.mean(axis=0))
    expected = stats.friedmanchisquare(*mean.T)
    assert b.friedman.statistic == pytest.approx(expected.statistic)
    assert b.friedman.p == pytest.approx(expected.pvalue, rel=1e-9)
    d = b.to_dict()
    assert d["datasets"] == DATASETS and d["configurations"] == CONFIGS
    assert np.asarray(d["mean"]) == pytest.approx(mean)
    assert d["ranks"] == pytest.approx(ranks.mean(axis=0).tolist())
    assert d["friedman"]["statistic"] == pytest.approx(expected.statistic)
    assert d["friedman"]["p"] == pytest.approx(expected.pvalue, rel=1e-9)
    json.dumps(d, allow_nan=False)


def test_smaller_is_better_criterion_ranks_the_lowest_first():
    v = _values(seed=3)
    b = Benchmark(v, DATASETS, CONFIGS, "mse", n_folds=5, repeat=2)
    mean = v.mean(axis=2)
    assert b.ranks == pytest.approx(np.array([stats.rankdata(r) for r in mean]).mean(axis=0))
    assert np.array_equal(b.best, mean == mean.min(axis=1, keepdims=True))


def test_pairs_equal_scipy_wilcoxon_with_statsmodels_holm_and_corrected_ttest_counts():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    v = _values(R=3, k=10, seed=1, shifts=(0.0, 0.005, 0.03), sd=0.02)
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=10, repeat=3, level=0.05)
    mean = v.mean(axis=2)
    pairs = [(0, 1), (0, 2), (1, 2)]
    raw = [stats.wilcoxon(mean[:, j], mean[:, i]).pvalue for i, j in pairs]
    adjusted = multitest.multipletests(raw, method="holm")[1]
    for pair, (i, j), p, p_holm in zip(b.pairs, pairs, raw, adjusted):
        assert (pair.a, pair.b) == (CONFIGS[i], CONFIGS[j])
        assert pair.wilcoxon.p == pytest.approx(p, rel=1e-9)
        assert pair.p_holm == pytest.approx(p_holm, rel=1e-9)
        wins = ties = losses = 0
        for row in range(len(DATASETS)):
            d = v[row, j] - v[row, i]
            if _corrected_p(d, 10) < 0.05:
                wins, losses = wins + (d.mean() > 0), losses + (d.mean() < 0)
            else:
                ties += 1
        assert (pair.wins, pair.ties, pair.losses) == (wins, ties, losses)
    assert b.pairs[1].wins > 0  # C is 0.03 above A: some data sets say so


def test_win_and_loss_follow_the_direction_of_the_figure():
    v = _values(R=3, k=10, seed=2, shifts=(0.0, 0.0, 0.05), sd=0.01)
    up = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=10, repeat=3)
    down = Benchmark(v, DATASETS, CONFIGS, "mse", n_folds=10, repeat=3)
    assert (up.pairs[1].wins, up.pairs[1].losses) == (down.pairs[1].losses, down.pairs[1].wins)
    assert up.pairs[1].wins == len(DATASETS)


def test_bayesian_per_dataset_equals_baycomp():
    baycomp = pytest.importorskip("baycomp")
    v = _values(R=2, k=10, seed=4, shifts=(0.0, 0.004, 0.02), sd=0.02)
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=10, repeat=2, rope=0.01)
    records = b.to_dict()["bayesian"]
    assert len(records) == 3 * len(DATASETS)
    for rec in records:
        i, j, row = CONFIGS.index(rec["a"]), CONFIGS.index(rec["b"]), DATASETS.index(rec["dataset"])
        expected = baycomp.two_on_single(v[row, i], v[row, j], rope=0.01, runs=2)
        assert (rec["p_left"], rec["p_rope"], rec["p_right"]) == pytest.approx(expected)
        assert rec["rope"] == 0.01


def test_five_by_two_counts_use_dietterichs_t():
    v = _values(R=5, k=2, seed=5, shifts=(0.0, 0.0, 0.06), sd=0.01)
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=2, repeat=5, test="5x2cv")
    for pair, (i, j) in zip(b.pairs, [(0, 1), (0, 2), (1, 2)]):
        for row, t in enumerate(pair.per_dataset):
            p = (v[row, j] - v[row, i]).reshape(5, 2)
            s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum()
            tt = p[0, 0] / math.sqrt(s2 / 5)
            assert t.p == pytest.approx(2 * stats.t.sf(abs(tt), 5))
            f = (p**2).sum() / (2 * s2)
            assert t.five_by_two.p_f == pytest.approx(stats.f.sf(f, 10, 5))
    with pytest.raises(SvmevalError):
        Benchmark(
            _values(R=2, k=5), DATASETS, CONFIGS, "accuracy", n_folds=5, repeat=2, test="5x2cv"
        )


def test_demsar_example_through_a_benchmark():
    """Table 6's AUCs as two equal folds each: the average ranks and Nemenyi's CD of the
    paper (section 3.2.2: CD = 1.25 at 0.05, where no pair differs by more; CD = 1.12 at 0.10,
    where C4.5+m and C4.5+m+cf are better than C4.5)."""
    v = np.repeat(DEMSAR_AUC[:, :, None], 2, axis=2)
    names = [f"set{i}" for i in range(14)]
    b = Benchmark(v, names, ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"], "roc_auc", n_folds=2)
    assert b.ranks == pytest.approx([3.143, 2.000, 2.893, 1.964], abs=5e-4)
    assert round(b.critical_difference, 2) == 1.25
    gaps = np.abs(b.ranks[:, None] - b.ranks[None, :])
    assert gaps.max() < b.critical_difference
    b10 = Benchmark(v, names, b.configurations, "roc_auc", n_folds=2, level=0.10)
    assert round(b10.critical_difference, 2) == 1.12
    assert [tuple(p) for p in np.argwhere(np.triu(gaps > b10.critical_difference))] == [
        (0, 1),
        (0, 3),
    ]


def test_undefined_folds_are_left_out():
    v = _values(R=1, k=10, seed=6)
    v[0, 1, :3] = np.nan
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=10)
    assert b.mean[0, 1] == pytest.approx(v[0, 1, 3:].mean())
    assert b.pairs[0].per_dataset[0].n_defined == 7


def test_one_data_set_has_no_friedman_and_no_wilcoxon():
    v = _values()[:1]
    b = Benchmark(v, DATASETS[:1], CONFIGS, "accuracy", n_folds=5, repeat=2, rope=0.01)
    d = b.to_dict()
    assert d["friedman"] is None and b.pairs[0].wilcoxon is None
    assert len(d["bayesian"]) == 3


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(datasets=DATASETS[:2]),
        dict(criterion="nope"),
        dict(n_folds=4),
        dict(level=1.5),
        dict(rope=-1.0),
        dict(test="bogus"),
        dict(configurations=["A", "A", "B"]),
    ],
)
def test_bad_arguments_raise_one_clear_error(kwargs):
    args = dict(
        values=_values(),
        datasets=DATASETS,
        configurations=CONFIGS,
        criterion="accuracy",
        n_folds=5,
        repeat=2,
    )
    args.update(kwargs)
    with pytest.raises(SvmevalError):
        Benchmark(**args)


def test_a_configuration_undefined_everywhere_is_refused():
    v = _values()
    v[2, 0] = np.nan
    with pytest.raises(SvmevalError, match="A on d3"):
        Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=5, repeat=2)


def test_identical_configurations_give_what_scipy_gives_and_every_report_renders():
    from svmeval.report.benchmark import BENCHMARK_FORMATS, render

    v = np.tile(np.linspace(0.7, 0.9, 20), (15, 3, 1))
    b = Benchmark(
        v, [f"d{i}" for i in range(15)], CONFIGS, "accuracy", n_folds=10, repeat=2, rope=0.01
    )
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy's 0/0
        expected = stats.friedmanchisquare(*b.mean.T)
    assert math.isnan(expected.statistic) and math.isnan(b.friedman.statistic)
    assert math.isnan(b.friedman.p_f)
    d = json.loads(render(b, format="json"))
    assert d["friedman"]["statistic"] is None and d["ranks"] == [2.0, 2.0, 2.0]
    assert all(p["wins"] == p["losses"] == 0 for p in d["pairs"])
    assert all(r["p_rope"] == 1.0 for r in d["bayesian"])
    for fmt in BENCHMARK_FORMATS:
        assert render(b, format=fmt)

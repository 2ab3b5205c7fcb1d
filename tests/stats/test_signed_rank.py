"""The Bayesian signed-rank test over data sets against baycomp's ``SignedRankTest``.

With the same seed and number of draws svmeval draws the same Dirichlet weights (numpy's
``RandomState(seed).dirichlet``, baycomp's order), so the probabilities must be baycomp's
exactly. With different draws they must agree within Monte-Carlo error: each probability is a
proportion of independent draws, its sd at most 0.5 / sqrt(N); the difference of two runs of
N1 and N2 draws has sd at most 0.5 sqrt(1/N1 + 1/N2), and the tolerance is 5 of those (a
false alarm less than once in a million per figure).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from svmeval.errors import SvmevalError
from svmeval.stats.bayesian import MAX_DRAWS, signed_rank_test
from svmeval.workflows.benchmark import Benchmark

import commands
from conftest import LOCAL

baycomp = pytest.importorskip("baycomp")

DATASETS = ["d1", "d2", "d3", "d4", "d5", "d6"]
CONFIGS = ["A", "B", "C"]


def _pair(m: int, seed: int, shift: float = 0.01):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.6, 0.9, m)
    return a, a + rng.normal(shift, 0.03, m)


def _baycomp(a, b, rope, draws, seed) -> tuple:
    return tuple(baycomp.SignedRankTest(a, b, rope, nsamples=draws, random_state=seed).probs())


@pytest.mark.parametrize("m", [1, 4, 11])
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_same_draws_give_baycomps_probabilities_exactly(m, rope):
    a, b = _pair(m, seed=m)
    r = signed_rank_test(a, b, rope=rope, draws=2000, seed=5)
    assert (r.p_left, r.p_rope, r.p_right) == _baycomp(a, b, rope, 2000, 5)
    assert (r.n, r.rope, r.prior, r.draws, r.seed) == (m, rope, 0.5, 2000, 5)


def test_the_prior_strength_is_baycomps():
    a, b = _pair(5, seed=9)
    r = signed_rank_test(a, b, rope=0.01, prior=2.0, draws=1500, seed=3)
    expected = baycomp.SignedRankTest(a, b, 0.01, prior=2.0, nsamples=1500, random_state=3).probs()
    assert (r.p_left, r.p_rope, r.p_right) == tuple(expected)


def test_other_draws_agree_within_monte_carlo_error():
    n1, n2 = 4000, 20000
    tolerance = 5 * 0.5 * math.sqrt(1 / n1 + 1 / n2)
    for seed, shift in ((1, 0.0), (2, 0.01), (3, 0.02)):
        a, b = _pair(8, seed=seed, shift=shift)
        r = signed_rank_test(a, b, rope=0.01, draws=n1, seed=17)
        expected = _baycomp(a, b, 0.01, n2, 123)
        got = (r.p_left, r.p_rope, r.p_right)
        assert np.allclose(got, expected, rtol=0, atol=tolerance), (got, expected)


def test_benchmark_pairs_are_baycomp_on_the_means_of_its_own_table():
    rng = np.random.default_rng(4)
    base = rng.uniform(0.6, 0.95, size=(6, 1, 1))
    v = base + np.array([0.0, 0.01, 0.03])[None, :, None] + rng.normal(0, 0.03, (6, 3, 10))
    b = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=5, repeat=2, rope=0.01, draws=3000)
    means = v.mean(axis=2)
    records = b.to_dict()["signed_rank"]
    assert [(r["a"], r["b"]) for r in records] == [("A", "B"), ("A", "C"), ("B", "C")]
    for rec, (i, j) in zip(records, [(0, 1), (0, 2), (1, 2)]):
        expected = _baycomp(means[:, i], means[:, j], 0.01, 3000, 1)
        assert (rec["p_left"], rec["p_rope"], rec["p_right"]) == expected
        assert (rec["draws"], rec["seed"], rec["prior"], rec["n_datasets"]) == (3000, 1, 0.5, 6)
    json.dumps(b.to_dict(), allow_nan=False)


def test_smaller_is_better_sentence_names_the_lower_as_better():
    from svmeval.report.benchmark import render

    rng = np.random.default_rng(8)
    v = rng.uniform(0.1, 0.2, (6, 1, 10)) + np.array([0.0, 0.05])[None, :, None]
    v = v + rng.normal(0, 0.005, (6, 2, 10))
    b = Benchmark(v, DATASETS, ["A", "B"], "mse", n_folds=5, repeat=2, rope=0.01, draws=2000)
    left, rope, right = _baycomp(v.mean(axis=2)[:, 0], v.mean(axis=2)[:, 1], 0.01, 2000, 1)
    text = " ".join(render(b).split())
    assert (
        f"B against A: practically equivalent with probability {rope:.3f}; B better with "
        f"probability {left:.3f}, A with probability {right:.3f}." in text
    )
    assert "2,000 Monte-Carlo draws, seed 1" in text


def test_one_data_set_has_no_signed_rank_test():
    v = np.random.default_rng(1).uniform(0.7, 0.9, (1, 2, 10))
    b = Benchmark(v, ["d1"], ["A", "B"], "accuracy", n_folds=5, repeat=2, rope=0.01)
    assert "signed_rank" not in b.to_dict()
    assert all(p.signed_rank is None for p in b.pairs)


@pytest.mark.parametrize("draws", [0, -1, MAX_DRAWS + 1, 2.5, True, "100"])
def test_draws_out_of_range_are_refused(draws):
    v = np.random.default_rng(1).uniform(0.7, 0.9, (2, 2, 10))
    with pytest.raises(SvmevalError, match="draws must be an integer from 1 to 10,000,000"):
        Benchmark(v, ["d1", "d2"], ["A", "B"], "accuracy", n_folds=5, repeat=2, draws=draws)
    with pytest.raises(ValueError, match="draws"):
        signed_rank_test([0.1, 0.2], [0.2, 0.3], draws=draws)


def test_benchmark_refuses_bad_draws_and_rope_before_any_work(tmp_path):
    from svmeval.workflows.benchmark import benchmark

    missing = tmp_path / "absent"  # read only after the checks: no data error
    for kwargs, text in (({"draws": 0}, "draws must be"), ({"rope": -0.1}, "rope must be")):
        with pytest.raises(SvmevalError, match=text):
            benchmark([missing, missing], ["-c 1", "-c 2"], **kwargs)


def test_command_line_report_states_draws_and_seed_and_equals_baycomp():
    files = [LOCAL / "wine.scale", LOCAL / "breast_cancer.scale"]
    args = ["-v", "3", "--repeat", "1", "--seed", "7", "--rope", "0.01", *map(str, files)]
    args += ["--", "-c", "1", "--", "-t", "0"]
    done = commands.run("compare", ["--format", "json", *args], timeout=600)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    (rec,) = doc["signed_rank"]
    means = np.array(doc["mean"])
    assert (rec["p_left"], rec["p_rope"], rec["p_right"]) == _baycomp(
        means[:, 0], means[:, 1], 0.01, 50000, 7
    )
    text = commands.run("compare", args, timeout=600).stdout
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "50,000 Monte-Carlo draws, seed 7" in " ".join(text.split())


def test_command_line_draws_sets_the_monte_carlo_sample_and_is_stated():
    files = [LOCAL / "wine.scale", LOCAL / "breast_cancer.scale"]
    args = ["-v", "3", "--repeat", "1", "--seed", "4", "--rope", "0.01", "--draws", "1234"]
    args += [*map(str, files), "--", "-c", "1", "--", "-t", "0"]
    done = commands.run("compare", ["--format", "json", *args], timeout=600)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    (rec,) = doc["signed_rank"]
    assert (rec["draws"], rec["seed"]) == (1234, 4)
    means = np.array(doc["mean"])
    assert (rec["p_left"], rec["p_rope"], rec["p_right"]) == _baycomp(
        means[:, 0], means[:, 1], 0.01, 1234, 4
    )
    text = commands.run("compare", args, timeout=600).stdout
    assert "1,234 Monte-Carlo draws, seed 4" in " ".join(text.split())


@pytest.mark.parametrize(
    "extra, files, message",
    [
        (["--draws", "0", "--rope", "0.01"], 2, "'0' is out of range (1 to 10000000)"),
        (["--draws", "10000001", "--rope", "0.01"], 2, "out of range (1 to 10000000)"),
        (["--draws", "abc", "--rope", "0.01"], 2, "--draws"),
        (["--draws", "100"], 2, "give --rope R and two or more data files"),
        (["--draws", "100", "--rope", "0.01"], 1, "give --rope R and two or more data files"),
    ],
)
def test_command_line_bad_draws_is_one_line(extra, files, message):
    paths = [str(LOCAL / "wine.scale"), str(LOCAL / "breast_cancer.scale")][:files]
    done = subprocess.run(
        [sys.executable, "-m", "svmeval.cli", "compare", *extra, *paths, "--", "--", "-c", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr, done.stderr


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_posterior_draws_are_baycomps_samples(rope):
    from svmeval.stats.bayesian import signed_rank_posterior

    a, b = _pair(7, seed=11)
    ours = signed_rank_posterior(a, b, rope=rope, draws=3000, seed=6)
    theirs = baycomp.SignedRankTest(a, b, rope, nsamples=3000, random_state=6).sample
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_simplex_draws_each_pairs_points_in_the_regions_of_their_probabilities():
    """The simplex picture (baycomp's plot_simplex): one panel per pair, one point per draw
    (all of them below MAX_POINTS), as many in each corner's colour as baycomp's probability
    of that corner says."""
    pytest.importorskip("matplotlib")
    from svmeval.report.simplex import MAX_POINTS, draw_simplex

    rng = np.random.default_rng(2)
    v = rng.uniform(0.7, 0.9, (6, 3, 2 * 5))
    v[:, 1] += 0.01
    bench = Benchmark(v, DATASETS, CONFIGS, "accuracy", n_folds=5, repeat=2, rope=0.01, draws=900)
    assert 900 <= MAX_POINTS
    figure = draw_simplex(bench)
    assert len(figure.axes) == len(bench.pairs) == 3
    for ax, pair in zip(figure.axes, bench.pairs):
        counts = [len(c.get_offsets()) for c in ax.collections]
        a = bench.mean[:, bench.configurations.index(pair.a)]
        b = bench.mean[:, bench.configurations.index(pair.b)]
        probs = _baycomp(a, b, 0.01, 900, 1)
        assert sum(counts) == 900
        shown = sorted(round(900 * p) for p in probs if p > 0)
        assert sorted(counts) == shown


def test_benchmark_page_holds_the_simplex_with_a_rope():
    pytest.importorskip("matplotlib")
    from svmeval import render

    rng = np.random.default_rng(3)
    v = rng.uniform(0.7, 0.9, (6, 2, 2 * 5))
    without = Benchmark(v, DATASETS, CONFIGS[:2], "accuracy", n_folds=5, repeat=2)
    with_rope = Benchmark(v, DATASETS, CONFIGS[:2], "accuracy", n_folds=5, repeat=2, rope=0.01)
    assert render(without, format="html").count("<svg") == 1  # the CD diagram
    page = render(with_rope, format="html")
    assert page.count("<svg") == 2 and "posterior: each point one Monte-Carlo draw" in page

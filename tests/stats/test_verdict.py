"""A comparison ends with its verdict: which test answers the question, what it says at the
level, and a warning where a test over data sets has too few data sets to say anything.

The oracles are scipy's tests on the same numbers (``scipy.stats.t``, ``wilcoxon``,
``friedmanchisquare``), the corrected resampled t-test's published formula (Nadeau & Bengio
2003: variance x (1/n + n_test/n_train)) and Demšar's (2006) critical difference with his
Table 5(a)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from svmeval import Benchmark, compare

import commands
from conftest import ROOT

scipy_stats = pytest.importorskip("scipy.stats")

WINE = ROOT / "data" / "wine.scale"
SMALL = ROOT / "data" / "breast_cancer.scale"
DEMSAR_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728}  # Demšar 2006, Table 5(a)


def corrected_p(d: np.ndarray, ratio: float) -> float:
    """Nadeau & Bengio's corrected resampled t-test, two-sided, with scipy's t distribution."""
    n = len(d)
    t = d.mean() / math.sqrt((1 / n + ratio) * d.var(ddof=1))
    return float(2 * scipy_stats.t.sf(abs(t), n - 1))


@pytest.mark.parametrize(
    "a,b,criterion,significant,better",
    [
        ("-c 1", "-t 0", None, False, None),  # p about 0.78
        ("-c 0.05", "-c 1", None, True, "B"),  # p about 1e-16: B's accuracy is higher
        ("-s 3", "-s 3 -c 0.01", None, True, "A"),  # mse: smaller is better, A's is smaller
    ],
)
def test_a_comparisons_verdict_is_the_corrected_t_test_as_scipy_computes_it(
    a, b, criterion, significant, better
):
    c = compare(WINE, a, b, folds=5, repeat=3, criterion=criterion)
    d = c.folds_b - c.folds_a
    p = corrected_p(d, 1 / (c.n_folds - 1))
    v = c.verdict
    assert v.test == "corrected_ttest" and v.level == 0.05
    assert v.p == pytest.approx(p, rel=1e-6, abs=1e-300)
    assert (v.significant, v.better) == (p < 0.05, better) == (significant, better)
    assert v.difference == pytest.approx(d.mean(), abs=1e-12)
    assert f"B - A = {d.mean():+.4f} in {c.criterion}" in v.text
    assert ("not significant at 0.05" in v.text) is (not significant)
    if better:
        assert f"{better} is better, significant at 0.05" in v.text
    assert "corrected resampled t-test" in v.text and "plain t-test" in v.text
    assert c.to_dict()["verdict"] == v.to_dict()
    assert v.to_dict()["significant"] is significant


def test_the_verdict_uses_the_level_of_the_confidence_asked():
    c90 = compare(SMALL, "-c 1", "-t 0", folds=5, repeat=2, confidence_level=0.90)
    c99 = compare(SMALL, "-c 1", "-t 0", folds=5, repeat=2, confidence_level=0.99)
    p = corrected_p(c90.folds_b - c90.folds_a, 1 / 4)
    assert (c90.verdict.level, c99.verdict.level) == (0.1, 0.01)
    assert c90.verdict.significant is (p < 0.1) and c99.verdict.significant is (p < 0.01)
    assert f"at {0.1:g} by" in c90.verdict.text


def _bench(differences: np.ndarray, k: int = 2, folds: int = 4) -> Benchmark:
    """A benchmark whose configuration j has mean 0.5 + differences[:, j] on data set i (the
    folds spread symmetrically around it)."""
    n = differences.shape[0]
    spread = np.array([-0.01, 0.01, -0.02, 0.02])[:folds]
    values = 0.5 + differences[:, :k, None] + spread[None, None, :]
    return Benchmark(
        values, [f"d{i}" for i in range(n)], ["-c 1", "-c 4", "-t 0"][:k], "accuracy", n_folds=folds
    )


@pytest.mark.parametrize("significant", [True, False])
def test_two_configurations_over_data_sets_are_judged_by_wilcoxon_as_scipy(significant):
    rng = np.random.default_rng(3)
    n = 9
    d = rng.uniform(0.01, 0.05, n) * (1 if significant else rng.choice([-1, 1], n))
    if not significant:
        d[:2] = [0.03, -0.031]  # one sign each way at least
    bench = _bench(np.column_stack([np.zeros(n), d]))
    means = bench.mean
    oracle = scipy_stats.wilcoxon(means[:, 1], means[:, 0])
    v = bench.verdict
    assert v.test == "wilcoxon" and v.p == pytest.approx(oracle.pvalue, rel=1e-9)
    assert v.significant is bool(oracle.pvalue < 0.05) is significant
    assert v.better == ("-c 4" if significant else None)
    assert "Wilcoxon signed-rank test" in v.text and v.too_few == () and v.warning == ""
    assert bench.to_dict()["verdict"]["significant"] is significant


@pytest.mark.parametrize("significant", [True, False])
def test_more_configurations_are_judged_by_friedman_as_scipy(significant):
    rng = np.random.default_rng(5)
    n = 10
    if significant:
        d = np.column_stack([np.zeros(n), rng.uniform(0.02, 0.05, n), rng.uniform(0.06, 0.1, n)])
    else:
        d = rng.uniform(0.0, 0.05, (n, 3))
    bench = _bench(d, k=3)
    oracle = scipy_stats.friedmanchisquare(*bench.mean.T)
    v = bench.verdict
    assert v.test == "friedman" and v.p == pytest.approx(oracle.pvalue, rel=1e-9)
    assert v.significant is bool(oracle.pvalue < 0.05) is significant
    assert ("differ over 10 data sets" in v.text) is significant


def _smallest_wilcoxon_p(n: int) -> float:
    return float(scipy_stats.wilcoxon(np.arange(1.0, n + 1)).pvalue)


def _smallest_friedman_p(n: int, k: int) -> float:
    """Every data set ranking the configurations alike: scipy's Friedman test (k >= 3), and
    Demšar's chi-square 12N/(k(k+1)) (sum R_j^2 - k(k+1)^2/4) = N(k - 1) with k - 1 df."""
    p = float(scipy_stats.chi2.sf(n * (k - 1), k - 1))
    if k >= 3:
        rows = np.tile(np.arange(k, 0, -1.0), (n, 1))
        assert float(scipy_stats.friedmanchisquare(*rows.T).pvalue) == pytest.approx(p, rel=1e-9)
    return p


@pytest.mark.parametrize("n,k", [(2, 2), (3, 2), (5, 2), (2, 3), (3, 4), (6, 2), (4, 5)])
def test_too_few_data_sets_are_named_with_the_number_each_test_needs(n, k):
    rng = np.random.default_rng(n * 10 + k)
    values = 0.5 + rng.uniform(0, 0.05, (n, k, 2))
    names = [f"d{i}" for i in range(n)]
    bench = Benchmark(values, names, [f"-c {j + 1}" for j in range(k)], "accuracy", n_folds=2)
    found = {t.test: t for t in bench.verdict.too_few}
    # Wilcoxon: the smallest two-sided p with n data sets (all one side) against the level
    smallest = _smallest_wilcoxon_p(n)
    needed = next(m for m in range(2, 100) if _smallest_wilcoxon_p(m) < 0.05)
    assert ("wilcoxon" in found) is (smallest >= 0.05)
    if "wilcoxon" in found:
        assert found["wilcoxon"].bound == pytest.approx(smallest, rel=1e-12)
        assert found["wilcoxon"].needed == needed == 6
        assert f"Wilcoxon's two-sided p cannot go below {smallest:.4g}" in bench.verdict.warning
    smallest = _smallest_friedman_p(n, k)
    assert ("friedman" in found) is (smallest >= 0.05)
    if "friedman" in found:
        assert found["friedman"].bound == pytest.approx(smallest, rel=1e-9)
        assert found["friedman"].needed == next(
            m for m in range(2, 100) if _smallest_friedman_p(m, k) < 0.05
        )
    cd = DEMSAR_Q05[k] * math.sqrt(k * (k + 1) / (6 * n))
    assert ("nemenyi" in found) is (cd > k - 1)
    if "nemenyi" in found:
        assert found["nemenyi"].bound == pytest.approx(cd, abs=1e-12)
        assert found["nemenyi"].needed == next(
            m for m in range(1, 100) if DEMSAR_Q05[k] * math.sqrt(k * (k + 1) / (6 * m)) <= k - 1
        )
    warning = bench.verdict.warning
    assert (warning != "") is bool(found)
    if found:
        assert warning.startswith(f"too few data sets ({n})") and "Demšar 2006" in warning
        assert all(f"{t.needed} needed" in warning for t in found.values())
    assert bench.to_dict()["verdict"]["too_few_datasets"] == [t.to_dict() for t in found.values()]


def test_one_data_set_is_judged_by_its_own_test():
    values = 0.5 + np.array([[[0.0, 0.01, -0.01, 0.02], [0.2, 0.23, 0.18, 0.22]]])
    bench = Benchmark(values, ["d"], ["-c 1", "-c 4"], "accuracy", n_folds=4)
    d = values[0, 1] - values[0, 0]
    p = corrected_p(d, 1 / 3)
    v = bench.verdict
    assert (v.test, v.significant, v.better) == ("corrected_ttest", p < 0.05, "-c 4")
    assert v.p == pytest.approx(p, rel=1e-9)
    assert v.text.startswith(f"on d, -c 4 against -c 1: difference {d.mean():+.4f} in accuracy")


def _compare_cli(*args):
    return commands.run("compare", args, timeout=300)


def test_the_command_ends_with_the_verdict_and_its_json_carries_it():
    args = ["-v", "5", "--repeat", "2", WINE, "--", "-c", "0.05", "--", "-c", "1"]
    text = _compare_cli(*args).stdout
    last = text.rstrip("\n").split("\n\n")[-1]
    c = compare(WINE, "-c 0.05", "-c 1", folds=5, repeat=2)
    assert last.startswith("verdict: ") and " ".join(last.split()) == f"verdict: {c.verdict.text}"
    assert json.loads(_compare_cli("--format", "json", *args).stdout)["verdict"] == (
        c.verdict.to_dict()
    )
    two = _compare_cli("-v", "5", "--repeat", "1", WINE, SMALL, "--", "-c", "1", "--", "-t", "0")
    paragraphs = two.stdout.rstrip("\n").split("\n\n")[-1]
    assert paragraphs.startswith("verdict: ") and "\nwarning: too few data sets (2)" in paragraphs

"""Nemenyi's q and critical difference are Demšar's Table 5(a) whatever the spelling of the
level: the command line's 1 - 0.95 (0.050000000000000044) and 1 - 0.9 (0.09999999999999998)
hit the table's columns, the command line and Python agree, and the reports print the level as
written (0.05).

Oracle: Demšar 2006, "Statistical comparisons of classifiers over multiple data sets" (JMLR 7),
Table 5(a), typed in here from the paper (not from svmeval's own table).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from svmeval.stats import rank_tests as rt
from svmeval.workflows.benchmark import Benchmark

import commands
from conftest import LOCAL

# Demšar 2006, Table 5(a): critical values of the two-tailed Nemenyi test, k = 2 .. 10
DEMSAR_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}
SPELLINGS = {
    0.05: [
        0.05,
        1 - 0.95,
        1.0 - 0.95,
        np.float64(1) - np.float64(0.95),
        0.05000000000000001,
        float("0.050"),
        5e-2,
    ],
    0.10: [0.1, 0.10, 1 - 0.9, 1.0 - 0.9, np.float64(1) - np.float64(0.9), 0.1 + 1e-17],
}


@pytest.mark.parametrize("alpha", sorted(DEMSAR_Q))
@pytest.mark.parametrize("k", range(2, 11))
def test_nemenyi_q_from_demsar_table_whatever_the_spelling(k, alpha):
    for spelled in SPELLINGS[alpha]:
        assert rt.nemenyi_q(k, spelled) == DEMSAR_Q[alpha][k - 2], (k, spelled)
        n = 7
        assert rt.nemenyi_cd(k, n, spelled) == pytest.approx(
            DEMSAR_Q[alpha][k - 2] * math.sqrt(k * (k + 1) / (6 * n)), rel=1e-15
        )


def test_clean_level_is_the_level_as_written():
    assert 1 - 0.95 != 0.05 and rt.clean_level(1 - 0.95) == 0.05
    assert 1 - 0.9 != 0.1 and rt.clean_level(1 - 0.9) == 0.1
    assert rt.clean_level(1 - 0.99) == 0.01
    assert rt.clean_level(0.0375) == 0.0375


def test_benchmark_level_from_a_confidence_is_the_tables():
    values = np.random.default_rng(0).uniform(0.6, 0.9, size=(5, 4, 6))
    for confidence, alpha in ((0.95, 0.05), (0.9, 0.10)):
        bench = Benchmark(
            values,
            list("abcde"),
            list("ABCD"),
            "accuracy",
            n_folds=3,
            repeat=2,
            level=1 - confidence,
        )
        assert bench.level == alpha
        assert bench.nemenyi_q == DEMSAR_Q[alpha][4 - 2]
        assert bench.critical_difference == pytest.approx(
            DEMSAR_Q[alpha][2] * math.sqrt(4 * 5 / (6 * 5)), rel=1e-15
        )
        assert bench.to_dict()["nemenyi"]["alpha"] == alpha


def compare_json(*args):
    data = [LOCAL / "breast_cancer.scale", LOCAL / "wine.scale"]
    done = commands.run_module(
        [
            "svmeval.cli",
            "compare",
            "-v",
            "2",
            "--repeat",
            "1",
            "--format",
            "json",
            *map(str, args[:-1]),
            *map(str, data),
            *args[-1],
        ],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "confidence,alpha,configs",
    [
        (None, 0.05, ["--", "-c", "1", "--", "-c", "8", "--", "-t", "0"]),
        (None, 0.05, ["--", "-c", "1", "--", "-c", "8", "--", "-t", "0", "--", "-c", "0.25"]),
        ("0.9", 0.10, ["--", "-c", "1", "--", "-c", "8", "--", "-t", "0"]),
    ],
)
def test_nemenyi_command_line_hits_demsar_table_and_prints_clean_level(confidence, alpha, configs):
    options = [] if confidence is None else ["--confidence", confidence]
    text = compare_json(*options, configs)
    k = configs.count("--")
    data = json.loads(text)
    assert data["level"] == alpha and data["nemenyi"]["alpha"] == alpha
    assert f'"level": {alpha}' in text and "0.05000000000000" not in text
    assert "0.0999999" not in text
    assert data["nemenyi"]["q"] == DEMSAR_Q[alpha][k - 2]
    assert data["nemenyi"]["cd"] == pytest.approx(
        DEMSAR_Q[alpha][k - 2] * math.sqrt(k * (k + 1) / (6 * 2)), rel=1e-15
    )


def test_nemenyi_command_line_and_python_agree():
    from svmeval import benchmark

    text = compare_json("--confidence", "0.95", ["--", "-c", "1", "--", "-c", "8", "--", "-t", "0"])
    bench = benchmark(
        [str(LOCAL / "breast_cancer.scale"), str(LOCAL / "wine.scale")],
        {"-c 1": "-c 1", "-c 8": "-c 8", "-t 0": "-t 0"},
        2,
        repeat=1,
        confidence_level=0.95,
    )
    cli = json.loads(text)["nemenyi"]
    assert cli == {"alpha": bench.level, "q": bench.nemenyi_q, "cd": bench.critical_difference}

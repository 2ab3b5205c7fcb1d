"""``svmeval-compare DATA... -- A -- B [-- C ...]``: the benchmark on the command line.

Oracles: the per-fold accuracies are computed here with scikit-learn's ``accuracy_score`` on
each fold of svmeval's ``cross_validate`` (whose predictions equal LIBSVM's own
``svm_cross_validation``: tests/cv/test_engine.py); Friedman's test is
``scipy.stats.friedmanchisquare`` of the table of means; the Bayesian correlated t-test is
Corani & Benavoli's formula evaluated with ``scipy.stats.t``; the 5x2cv t and Alpaydin's F are
Dietterich's and Alpaydin's formulas with ``scipy.stats``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from svmeval.cv.engine import cross_validate
from svmeval.io.data import read_dataset
from svmeval.params import SvmParams

import commands
from conftest import data_sets

stats = pytest.importorskip("scipy.stats")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

#: three data sets where ../shared holds them; without it, their distinct stand-ins in data/
#: (breast_cancer.scale for both two-class sets, wine.scale): two
DATA = tuple(data_sets("heart_scale", "breast-cancer_scale", "iris.scale"))
CONFIGS = (("-c", "1"), ("-c", "4"), ("-c", "16", "-g", "0.5"))
PARAMS = (SvmParams(C=1), SvmParams(C=4), SvmParams(C=16, gamma=0.5))


def compare_cli(*args, cwd=None):
    return commands.run("compare", args, cwd=cwd, timeout=600)


def line(*options, configs=CONFIGS, data=DATA):
    tail = [token for config in configs for token in ("--", *config)]
    return [*options, *data, *tail]


def one_line_exit_1(done, text: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


def fold_accuracies(path, params: SvmParams, k: int, seeds) -> np.ndarray:
    """scikit-learn's accuracy of every fold of every repetition, repetition-major."""
    dataset = read_dataset(str(path))
    out = []
    for seed in seeds:
        r = cross_validate(dataset, params, k, seed=seed)
        out += [
            sklearn_metrics.accuracy_score(r.y_true[r.fold == j], r.y_pred[r.fold == j])
            for j in range(k)
        ]
    return np.array(out)


def bayesian_formula(d: np.ndarray, k: int, rope: float) -> tuple:
    """Corani & Benavoli (2015): Student t, n - 1 df, location mean(d), scale
    sqrt((1/n + rho/(1 - rho)) var(d)), rho = 1/k."""
    n, rho = len(d), 1.0 / k
    scale = math.sqrt((1.0 / n + rho / (1.0 - rho)) * d.var(ddof=1))
    left = stats.t.cdf(-rope, n - 1, loc=d.mean(), scale=scale)
    right = stats.t.sf(rope, n - 1, loc=d.mean(), scale=scale)
    return left, 1.0 - left - right, right


@pytest.fixture(scope="module")
def report():
    done = compare_cli(*line("-v", 3, "--repeat", 2, "--rope", 0.01, "--format", "json"))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def folds():
    return {
        (path.name, j): fold_accuracies(path, p, 3, (1, 2))
        for path in DATA
        for j, p in enumerate(PARAMS)
    }


def test_mean_is_the_cross_validation_means_by_scikit_learn(report, folds):
    assert report["configurations"] == [" ".join(c) for c in CONFIGS]
    assert [d.rsplit("/", 1)[-1] for d in report["datasets"]] == [p.name for p in DATA]
    want = [[folds[p.name, j].mean() for j in range(3)] for p in DATA]
    np.testing.assert_allclose(report["mean"], want, rtol=1e-12)
    sds = [[folds[p.name, j].std(ddof=1) for j in range(3)] for p in DATA]
    np.testing.assert_allclose(report["sd"], sds, rtol=1e-9)


def test_friedman_is_scipys_on_the_table(report, folds):
    table = np.array([[folds[p.name, j].mean() for j in range(3)] for p in DATA])
    want = stats.friedmanchisquare(*table.T)
    assert report["friedman"]["statistic"] == pytest.approx(want.statistic, rel=1e-12)
    assert report["friedman"]["p"] == pytest.approx(want.pvalue, rel=1e-12)
    ranks = np.mean([stats.rankdata(-row) for row in table], axis=0)
    np.testing.assert_allclose(report["ranks"], ranks)


def test_rope_figures_are_the_correlated_t_formula(report, folds):
    names = [" ".join(c) for c in CONFIGS]
    records = report["bayesian"]
    assert len(records) == len(DATA) * 3
    for rec in records:
        name = rec["dataset"].rsplit("/", 1)[-1]
        a, b = names.index(rec["a"]), names.index(rec["b"])
        left, inside, right = bayesian_formula(folds[name, b] - folds[name, a], 3, 0.01)
        assert rec["rope"] == 0.01
        assert (rec["p_left"], rec["p_rope"], rec["p_right"]) == pytest.approx(
            (left, inside, right), abs=1e-12
        )


def test_two_configurations_with_rope_add_the_sentence_and_json(tmp_path):
    path = DATA[0]
    args = ["-v", 5, "--repeat", 2, "--rope", 0.02, path, "--", "-c", 1, "--", "-c", 4]
    done = compare_cli(*args, "--format", "json")  # after the last --: B's options
    one_line_exit_1(done, "B options")
    done = compare_cli("--format", "json", *args)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)["bayesian"]
    d = fold_accuracies(path, SvmParams(C=4), 5, (1, 2)) - fold_accuracies(
        path, SvmParams(C=1), 5, (1, 2)
    )
    left, inside, right = bayesian_formula(d, 5, 0.02)
    assert got["rope"] == 0.02
    assert (got["p_left"], got["p_rope"], got["p_right"]) == pytest.approx(
        (left, inside, right), abs=1e-12
    )
    text = " ".join(compare_cli(*args).stdout.split())  # the sentence across its lines
    assert (
        f"B is practically equivalent to A with probability {inside:.3f}; B is better "
        f"with probability {right:.3f}, A with probability {left:.3f}"
    ) in text
    plain = compare_cli("--format", "json", *args[:4], *args[6:])
    assert "bayesian" not in json.loads(plain.stdout)


def test_5x2cv_t_and_combined_f_are_dietterichs_and_alpaydins():
    done = compare_cli(
        *line("--test", "5x2cv", "--format", "json", configs=CONFIGS[:2], data=DATA[:2])
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert (got["n_folds"], got["repeat"], got["test"]) == (2, 5, "5x2cv")
    for row in got["pairs"][0]["tests"]:
        path = row["dataset"]
        p = (
            fold_accuracies(path, PARAMS[1], 2, range(1, 6))
            - fold_accuracies(path, PARAMS[0], 2, range(1, 6))
        ).reshape(5, 2)
        s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
        t = p[0, 0] / math.sqrt(s2.mean())
        f = (p**2).sum() / (2 * s2.sum())
        assert row["t"] == pytest.approx(t, rel=1e-9)
        assert row["p"] == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-9)
        assert row["f"] == pytest.approx(f, rel=1e-9)
        assert row["p_f"] == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-9)


@pytest.mark.parametrize(
    "fmt, start", [("markdown", "| data set |"), ("latex", "\\begin{tabular}")]
)
def test_paper_formats_give_the_table(tmp_path, fmt, start):
    done = compare_cli(
        *line(
            "-v",
            2,
            "--repeat",
            1,
            "--format",
            fmt,
            "-o",
            tmp_path / "t",
            configs=CONFIGS[:2],
            data=DATA[:2],
        )
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert start in (tmp_path / "t").read_text()


def test_plot_draws_the_critical_difference_diagram(tmp_path):
    pytest.importorskip("matplotlib")
    done = compare_cli(
        *line(
            "-v",
            2,
            "--repeat",
            1,
            "--plot",
            tmp_path / "cd.png",
            configs=CONFIGS[:2],
            data=DATA[:2],
        )
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--test", "5x2cv", "-v", "3"], "not -v 3"),
        (["--test", "5x2cv", "--repeat", "4"], "not --repeat 4"),
        (["--plot", "cd.txt"], "the picture's name must end in"),
        (["--plot", "same.png", "-o", "same.png"], "both go to the same file"),
        (["--dask", "local:1"], "--dask: not with several data sets"),
        (["--rope", "-1"], "out of range (0 or more)"),
        (["--test", "t"], "--test"),
    ],
)
def test_benchmark_refusals_are_one_line_before_any_work(tmp_path, options, message):
    (tmp_path / "same.png").write_text("kept\n")
    done = compare_cli(*line(*options), cwd=tmp_path)
    one_line_exit_1(done, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same.png"]
    assert (tmp_path / "same.png").read_text() == "kept\n"


def test_same_options_twice_are_refused(tmp_path):
    done = compare_cli(*line(configs=(CONFIGS[0], CONFIGS[0], CONFIGS[1]), data=DATA[:1]))
    one_line_exit_1(done, "the same options")


def test_benchmark_to_frame_rows_are_scikit_learns_fold_accuracies():
    pytest.importorskip("pandas")
    from svmeval import benchmark, render

    bench = benchmark(
        [read_dataset(str(p)) for p in DATA[:2]],
        {"-c 1": PARAMS[0], "-c 4": PARAMS[1]},
        3,
        repeat=2,
    )
    frame = bench.to_frame()
    assert len(frame) == 2 * 2 * 6
    paths = {p.name: p for p in DATA[:2]}
    for (path, config), group in frame.groupby(["dataset", "configuration"], sort=False):
        want = fold_accuracies(
            paths[path.rsplit("/", 1)[-1]], PARAMS[["-c 1", "-c 4"].index(config)], 3, (1, 2)
        )
        np.testing.assert_allclose(group["accuracy"].to_numpy(), want, rtol=1e-12)
        assert list(group["repetition"]) == [0, 0, 0, 1, 1, 1]
    assert render(bench, format="markdown").startswith("| data set |")


def test_mcnemar_refuses_the_benchmark_options(tmp_path):
    for extra in (["--format", "latex"], ["--rope", "0.1"], ["--plot", "cd.png"]):
        done = compare_cli("--mcnemar", *extra, "a", "b", "c", cwd=tmp_path)
        one_line_exit_1(done, "not with --mcnemar")

"""svmeval-linear --repeat R and cross_validate(LinearParams, repeat=R): LIBLINEAR's own
cross-validation once per seed 1..R, as svmeval's repetitions.

Oracles: the official bindings' ``cross_validation`` after ``srand(seed)`` for each seed
(every prediction); scikit-learn's figures of each repetition's predictions; numpy's mean and
standard deviation over them.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from commands import run
from conftest import data_set

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
sk_metrics = pytest.importorskip("sklearn.metrics")

from test_linear_store import bindings_cv  # noqa: E402

import svmeval  # noqa: E402


@pytest.fixture
def heart():
    return str(data_set("heart_scale"))


def test_each_repetition_is_liblinears_cross_validation_of_its_seed(heart):
    r = svmeval.cross_validate(
        heart, svmeval.LinearParams(solver_type=3), 5, repeat=3, keep_repeats=True
    )
    runs = [r, *r.repeat_results]
    assert [x.seed for x in runs] == [1, 2, 3] and [x.seed for x in r.repeats] == [2, 3]
    for x in runs:
        np.testing.assert_array_equal(x.y_pred, bindings_cv(heart, "-s 3", 5, seed=x.seed))


def test_svmeval_linear_repeat_reports_every_repetition_as_scikit_learn(heart):
    out = run("linear", ["-q", "-s", "2", "-v", "5", "--repeat", "3", "--format", "json", heart])
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    y = svmeval.read_dataset(heart).y
    preds = [bindings_cv(heart, "-s 2", 5, seed=s) for s in (1, 2, 3)]
    accuracy = [sk_metrics.accuracy_score(y, p) for p in preds]
    mcc = [sk_metrics.matthews_corrcoef(y, p) for p in preds]
    assert report["repeat"] == 3
    assert [x["accuracy"] for x in report["repeats"]] == pytest.approx(accuracy, rel=1e-12)
    assert [x["mcc"] for x in report["repeats"]] == pytest.approx(mcc, rel=1e-12)
    text = run("linear", ["-q", "-s", "2", "-v", "5", "--repeat", "3", heart]).stdout
    assert text.startswith(f"Cross Validation Accuracy = {100 * accuracy[0]:g}%\n")
    row = next(line for line in text.splitlines() if line.split()[:1] == ["accuracy"])
    mean, sd = np.mean(accuracy), np.std(accuracy, ddof=1)
    assert row.split()[-3:] == [f"{mean:.4f}", "±", f"{sd:.4f}"]


@pytest.mark.parametrize(
    "args,line",
    [
        (["-v", "5", "--repeat", "0"], "option --repeat: '0' is out of range"),
        (["-v", "5", "--repeat", "x"], "option --repeat: 'x' is not an integer"),
        (["-C", "--repeat", "2"], "--repeat repeats a cross-validation: only with -v n"),
    ],
)
def test_bad_repeat_is_one_line(heart, args, line):
    out = run("linear", [*args, heart])
    assert out.returncode == 1 and line in out.stderr and out.stdout == "", out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_repeated_run_is_stored_one_seed_a_unit_group(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    args = ["-q", "-v", "5", "--repeat", "2", "--store", str(store), heart]
    first, second = run("linear", args), run("linear", args)
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "10 units reused, 0 computed" in second.stderr

"""Many classes: class scores from one-vs-one values in C, and 1,000 classes in bounded time
and memory. Oracles: scikit-learn's ``_ovr_decision_function`` (the score's formula) fed
LIBSVM's vote, and LIBSVM's own svm_cross_validation (the predictions)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import numpy as np
import pytest

from svmeval.metrics.ovo import class_scores
from svmeval.metrics.scores import ovr_scores_from_ovo

from conftest import ROOT, libsvm_cv


def sklearn_scores(canonical: np.ndarray, k: int) -> np.ndarray:
    """scikit-learn's OvR scores with LIBSVM's vote (d > 0 votes i, else j)."""
    ovr = pytest.importorskip("sklearn.utils.multiclass")._ovr_decision_function
    return ovr((canonical <= 0).astype(int), -canonical, k)


def model_columns(canonical: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The same values as a model whose label order is ``order`` (model index a holds
    canonical class order[a]) stores them: pair (a, b), a < b, positive towards a."""
    k = len(order)
    col = {(i, j): c for c, (i, j) in enumerate(zip(*np.triu_indices(k, 1)))}
    out = np.empty_like(canonical)
    for c, (a, b) in enumerate(zip(*np.triu_indices(k, 1))):
        i, j = order[a], order[b]
        out[:, c] = canonical[:, col[(i, j)]] if i < j else -canonical[:, col[(j, i)]]
    return out


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_scores_equal_scikit_learns_bit_for_bit_in_any_model_order(k):
    rng = np.random.default_rng(k)
    canonical = rng.normal(size=(50, k * (k - 1) // 2))
    canonical[::7, 0] = 0.0  # exact zeros: LIBSVM's vote gives them to the second class
    expected = sklearn_scores(canonical, k)
    assert np.array_equal(ovr_scores_from_ovo(canonical, k), expected)
    order = rng.permutation(k)
    positions = np.argsort(order)  # canonical class c sits at model index positions[c]
    got = class_scores(model_columns(canonical, order), positions, k)
    assert np.array_equal(got, expected)  # the pairs visited and summed in canonical order


def test_a_class_the_model_never_saw_makes_every_score_nan():
    dec = np.random.default_rng(0).normal(size=(4, 3))  # a model of 3 classes
    got = class_scores(dec, [0, -1, 1, 2], 3)
    assert got.shape == (4, 4) and np.isnan(got).all()


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="n x 3"):
        class_scores(np.zeros((2, 4)), [0, 1, 2], 3)
    with pytest.raises(ValueError, match="positions"):
        class_scores(np.zeros((2, 3)), [0, 1, 3], 3)


def write_classes(path, k: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(1, k + 1), 2)
    rng.shuffle(y)
    X = rng.uniform(-1, 1, size=(len(y), 2))
    path.write_text("".join(f"{c} 1:{a:.6f} 2:{b:.6f}\n" for c, (a, b) in zip(y, X)))
    return path


def limited(cpu_seconds: int, address_space: int):
    def pre():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    return pre


def test_a_thousand_classes_in_bounded_cpu_time_and_memory(tmp_path):
    """1,000 classes, 2,000 rows, -v 2 (svm-train: about 5 s and 40 MB). The n x k(k-1)/2
    values or a Python loop over the 499,500 pairs ran past 10 minutes; within 2 GiB of
    address space and 300 CPU-seconds (a budget of work, not of wall time), the predictions
    must be LIBSVM's."""
    data = write_classes(tmp_path / "k1000.txt", 1000)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "svmeval",
            "-q",
            "-v",
            "2",
            "--format",
            "json",
            "--predictions",
            str(tmp_path / "p"),
            str(data),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1"),
        preexec_fn=limited(300, 2 << 30),
        timeout=3600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    predicted = np.loadtxt(tmp_path / "p")
    np.testing.assert_array_equal(predicted, libsvm_cv(data, "", nr_fold=2))
    report = json.loads(done.stdout)
    assert report  # a whole report, every class in it

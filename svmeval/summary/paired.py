"""Two configurations' runs on the same folds -> the criterion on every fold of each, and the
tests of B - A on them: what :func:`svmeval.workflows.compare.compare` reports."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmeval.errors import SvmevalError
from svmeval.stats.significance import (
    McNemarResult,
    TTestResult,
    corrected_resampled_ttest,
    mcnemar,
)
from svmeval.summary.single import fold_values

__all__ = ["PairedFolds", "paired_folds"]


@dataclass(frozen=True, eq=False)
class PairedFolds:
    """The criterion on each of A's and B's folds (repetition-major), the folds where either
    is undefined counted, the tests of B - A (``bayesian`` only with a rope), the folds drawn
    (``n_folds``, each fold's test samples, their source in words) and the preprocessing."""

    folds_a: np.ndarray
    folds_b: np.ndarray
    n_undefined: int
    ttest: TTestResult
    mcnemar: McNemarResult | None
    bayesian: object
    n_folds: int
    n_samples: int
    fold_sizes: tuple
    fold_source: str
    preprocessing: str


def criterion_values(runs, criterion, pos_label, zero_division) -> np.ndarray:
    """The criterion on every fold of the runs, repetition-major (what each run's summary gives
    it, computed alone)."""
    values = [
        fold_values(r, criterion, pos_label=pos_label, zero_division=zero_division) for r in runs
    ]
    return np.concatenate(values) if values else np.array([], dtype=np.float64)


def paired_folds(
    runs_a: list, runs_b: list, criterion: str, *, pos_label, zero_division, confidence, rope
) -> PairedFolds:
    """The tests of B - A on ``criterion`` on every fold of A's and B's runs (same folds)."""
    folds_a, folds_b = (
        criterion_values(runs, criterion, pos_label, zero_division) for runs in (runs_a, runs_b)
    )
    defined = ~(np.isnan(folds_a) | np.isnan(folds_b))
    if np.count_nonzero(defined) < 2:
        raise SvmevalError(
            f"{criterion} is undefined on all but {np.count_nonzero(defined)} "
            "folds: choose another criterion"
        )
    first = runs_a[0]
    n_folds = first.n_folds  # the folds drawn: leave-one-out when folds exceeds the rows
    sizes = np.bincount(first.fold, minlength=n_folds)
    n = len(first.y_true)
    ratio = float(sizes.mean() / (n - sizes.mean()))  # n_test / n_train = 1 / (k - 1)
    differences = folds_b[defined] - folds_a[defined]
    ttest = corrected_resampled_ttest(differences, ratio, confidence=confidence)
    test = None
    if not first.params.is_regression:
        test = mcnemar(first.y_true, first.y_pred, runs_b[0].y_pred)
    bayesian = None
    if rope is not None:
        from svmeval.stats.bayesian import correlated_ttest

        bayesian = correlated_ttest(differences, n_folds, rope=float(rope))
    source = getattr(first.folds, "source", None)  # the folds' words, from the first run
    return PairedFolds(
        folds_a=folds_a,
        folds_b=folds_b,
        n_undefined=int(np.count_nonzero(~defined)),
        ttest=ttest,
        mcnemar=test,
        bayesian=bayesian,
        n_folds=n_folds,
        n_samples=n,
        fold_sizes=tuple(
            int(v) for run in runs_a for v in np.bincount(run.fold, minlength=run.n_folds)
        ),
        fold_source=""
        if source is None
        else f"grouped ({source.n_groups} groups)"
        if source.grouped
        else "given",
        preprocessing=first.preprocessing,
    )

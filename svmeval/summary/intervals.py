"""Bootstrap confidence intervals of a classification's pooled figures.

The pooled figures come from one confusion matrix of the CV predictions (one per sample), so
a resample is a bootstrap sample of the samples, each with its true label and its CV
prediction kept together (:func:`svmeval.stats.bootstrap.resample_indices`: scipy's paired
draws), and every figure of the confusion counts is computed on each resample from its
matrix. The jackknife that BCa needs leaves out one sample: a matrix less one count, one per
non-empty cell. The ranking figures (ROC AUC, average precision: of the scores, not of the
counts) get no interval.

With repeated cross-validation the pooled figures are those of the first repetition (the
report's "pooled" column); its predictions are resampled and the other repetitions do not
enter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from svmeval.errors import ArgumentError
from svmeval.metrics.classification import ConfusionCounts
from svmeval.metrics.run_figures import classification_figures
from svmeval.stats.bootstrap import (
    MAX_RESAMPLES,
    bca_interval,
    percentile_interval,
    resample_indices,
)

__all__ = ["METHODS", "Intervals", "check_interval_arguments", "classification_intervals"]

#: the intervals computed, in the reports' order
METHODS = ("bca", "percentile")


@dataclass(frozen=True)
class Intervals:
    """Bootstrap confidence intervals of the pooled figures.

    ``level``, ``resamples``, ``seed`` (of ``numpy.random.default_rng``); ``bca`` and
    ``percentile``: figure name -> (low, high), NaN where undefined; ``standard_error``:
    figure name -> the sd of its bootstrap distribution (n - 1)."""

    level: float
    resamples: int
    seed: int
    bca: dict = field(default_factory=dict)
    percentile: dict = field(default_factory=dict)
    standard_error: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Plain JSON types (NaN as None)."""

        def plain(v: float):
            return None if math.isnan(v) else v

        return {
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "figures": {
                name: {
                    "bca": [plain(v) for v in self.bca[name]],
                    "percentile": [plain(v) for v in self.percentile[name]],
                    "standard_error": plain(self.standard_error[name]),
                }
                for name in self.bca
            },
        }


def check_interval_arguments(ci, bootstrap, seed) -> None:
    """``ci`` (None or a level in (0, 1)), ``bootstrap`` (1 to :data:`MAX_RESAMPLES`
    resamples) and ``seed`` (None or an integer from 0 to 2**32 - 1), before any work."""
    if ci is None:
        return
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0.0 < ci < 1.0:
        raise ArgumentError("ci", f"must be a level between 0 and 1, both excluded, got {ci!r}")
    if (
        isinstance(bootstrap, bool)
        or not isinstance(bootstrap, (int, np.integer))
        or not 1 <= bootstrap <= MAX_RESAMPLES
    ):
        raise ArgumentError(
            "bootstrap", f"must be an integer from 1 to {MAX_RESAMPLES:,}, got {bootstrap!r}"
        )
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**32
    ):
        raise ArgumentError("seed", f"must be an integer from 0 to 2**32 - 1, got {seed!r}")


def _figures(labels, matrix, positive, z) -> dict:
    report = ConfusionCounts.from_matrix(labels, matrix).report(zero_division=z)
    return classification_figures(report, None, positive)


def classification_intervals(
    y_true, y_pred, labels, positive, zero_division, *, level: float, resamples: int, seed: int
) -> Intervals:
    """The intervals of every count figure of predictions ``y_pred`` of ``y_true`` (``labels``:
    the report's classes, ascending; ``positive``: the positive class of two classes, else
    None)."""
    labels = np.asarray(labels, dtype=np.float64)
    k = len(labels)
    t = np.searchsorted(labels, np.asarray(y_true, dtype=np.float64))
    p = np.searchsorted(labels, np.asarray(y_pred, dtype=np.float64))
    cells = t * k + p
    n = len(cells)
    whole = np.bincount(cells, minlength=k * k)
    estimate = _figures(labels, whole.reshape(k, k), positive, zero_division)
    names = list(estimate)
    values = {name: np.empty(resamples) for name in names}
    row = 0
    for block in resample_indices(n, resamples, seed):
        offsets = np.arange(len(block))[:, None] * (k * k)
        counts = np.bincount((cells[block] + offsets).ravel(), minlength=len(block) * k * k)
        for m in counts.reshape(len(block), k, k):
            for name, v in _figures(labels, m, positive, zero_division).items():
                values[name][row] = v
            row += 1
    occupied = np.flatnonzero(whole)
    jack = {name: np.empty(len(occupied)) for name in names}
    for i, c in enumerate(occupied):
        m = whole.copy()
        m[c] -= 1
        for name, v in _figures(labels, m.reshape(k, k), positive, zero_division).items():
            jack[name][i] = v
    weights = whole[occupied]
    out = Intervals(level=float(level), resamples=int(resamples), seed=int(seed))
    for name in names:
        dist = values[name]
        out.percentile[name] = percentile_interval(dist, level)
        out.bca[name] = bca_interval(dist, estimate[name], jack[name], weights, level)
        out.standard_error[name] = float(dist.std(ddof=1)) if resamples > 1 else math.nan
    return out

"""Bootstrap confidence intervals of a classification's pooled figures.

The pooled figures come from one confusion matrix of the CV predictions (one per sample), so
a resample is a bootstrap sample of the samples, each with its true label and its CV
prediction kept together (:func:`svmeval.stats.bootstrap.resample_indices`: scipy's paired
draws), and every figure of the confusion counts is computed on each resample from its
matrix. The jackknife that BCa needs leaves out one sample: a matrix less one count, one per
non-empty cell. The ranking figures (ROC AUC, average precision: of the scores, not of the
counts) get no interval.

With repeated cross-validation (R repetitions, each predicting every sample once) the
figure is the mean over the repetitions of each repetition's pooled figure (the report's
"R repeats: mean" column), and every repetition enters: a resample draws n samples, each
carrying its true label and its prediction in every repetition; the statistic on it is the
mean over the repetitions of the figure of that repetition's confusion matrix of the drawn
samples (``scipy.stats.bootstrap`` of the paired arrays ``(y_true, y_pred_1, ..., y_pred_R)``
with that statistic). The jackknife leaves one sample out of every repetition at once. The
models are not retrained: the interval is the sampling error of the samples, given the
predictions.
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

    ``level``, ``resamples``, ``seed`` (of ``numpy.random.default_rng``); ``repetitions``:
    the repetitions whose predictions each resample carries (the figure is their mean);
    ``estimate``: figure name -> the figure the interval is about (the pooled figure, or its
    mean over the repetitions); ``bca`` and ``percentile``: figure name -> (low, high), NaN
    where undefined; ``standard_error``: figure name -> the sd of its bootstrap distribution
    (n - 1)."""

    level: float
    resamples: int
    seed: int
    bca: dict = field(default_factory=dict)
    percentile: dict = field(default_factory=dict)
    standard_error: dict = field(default_factory=dict)
    repetitions: int = 1
    estimate: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Plain JSON types (NaN as None)."""

        def plain(v: float):
            return None if math.isnan(v) else v

        return {
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "repetitions": self.repetitions,
            "figures": {
                name: {
                    "estimate": plain(self.estimate[name]),
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


def _mean_figures(labels, matrices, positive, z) -> dict:
    """name -> the mean over the repetitions of the figure of each one's matrix."""
    each = [_figures(labels, m, positive, z) for m in matrices]
    if len(each) == 1:
        return each[0]
    return {name: float(np.mean([f[name] for f in each])) for name in each[0]}


def classification_intervals(
    y_true,
    y_pred,
    labels,
    positive,
    zero_division,
    *,
    level: float,
    resamples: int,
    seed: int,
    repeated=(),
) -> Intervals:
    """The intervals of every count figure of predictions ``y_pred`` of ``y_true`` (``labels``:
    the report's classes, ascending; ``positive``: the positive class of two classes, else
    None); ``repeated``: the further repetitions' predictions of the same samples (the figure
    is then the mean over the repetitions; module notes)."""
    labels = np.asarray(labels, dtype=np.float64)
    k = len(labels)
    t = np.searchsorted(labels, np.asarray(y_true, dtype=np.float64))
    runs = [y_pred, *repeated]
    # cells[r, i]: sample i's (true, predicted) cell in repetition r
    cells = np.array(
        [t * k + np.searchsorted(labels, np.asarray(p, dtype=np.float64)) for p in runs]
    )
    n_runs, n = cells.shape
    wholes = [np.bincount(c, minlength=k * k) for c in cells]
    estimate = _mean_figures(labels, [w.reshape(k, k) for w in wholes], positive, zero_division)
    names = list(estimate)
    values = {name: np.empty(resamples) for name in names}
    row = 0
    for block in resample_indices(n, resamples, seed):
        offsets = np.arange(len(block))[:, None] * (k * k)
        counts = [
            np.bincount((c[block] + offsets).ravel(), minlength=len(block) * k * k).reshape(
                len(block), k, k
            )
            for c in cells
        ]
        for b in range(len(block)):
            for name, v in _mean_figures(
                labels, [m[b] for m in counts], positive, zero_division
            ).items():
                values[name][row] = v
            row += 1
    # the jackknife: one value per distinct pattern of cells over the repetitions, weighted
    # by the samples that have it
    patterns, weights = np.unique(cells.T, axis=0, return_counts=True)
    jack = {name: np.empty(len(patterns)) for name in names}
    for i, pattern in enumerate(patterns):
        matrices = []
        for whole, c in zip(wholes, pattern):
            m = whole.copy()
            m[c] -= 1
            matrices.append(m.reshape(k, k))
        for name, v in _mean_figures(labels, matrices, positive, zero_division).items():
            jack[name][i] = v
    out = Intervals(
        level=float(level),
        resamples=int(resamples),
        seed=int(seed),
        repetitions=n_runs,
        estimate=dict(estimate),
    )
    for name in names:
        dist = values[name]
        out.percentile[name] = percentile_interval(dist, level)
        out.bca[name] = bca_interval(dist, estimate[name], jack[name], weights, level)
        out.standard_error[name] = float(dist.std(ddof=1)) if resamples > 1 else math.nan
    return out

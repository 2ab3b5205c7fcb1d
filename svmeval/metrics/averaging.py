"""The averages of per-class precision, recall and F: each averaging declared once in
:data:`AVERAGES` (name, description, formula, reference, computation), and :func:`average_all`,
which applies the ``zero_division`` policy (see :mod:`svmeval.metrics.measures`) and records
where it changed something."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from svmeval.metrics.measures import _SKLEARN, AVERAGED_MEASURES, Counts, per_class_ratios

__all__ = ["AVERAGES", "Average", "Averaging", "average_all"]


@dataclass(frozen=True)
class Average:
    """Averaged precision, recall, F1 and F-beta (F-beta equals F1 when beta = 1)."""

    precision: float
    recall: float
    f1: float
    fbeta: float


def _policy_mean(values: np.ndarray, weights: np.ndarray | None, z: float) -> tuple[float, bool]:
    """Mean of values (weighted if weights given) under the zero_division policy z.

    Returns (mean, applied): applied is True when an undefined (NaN) input that would carry
    weight was replaced by z or left out.  As scikit-learn's ``_nanaverage``: if the weights of the
    kept values sum to 0 the plain mean is taken; if no value is kept the mean is NaN.
    """
    values = np.asarray(values, dtype=np.float64)
    undefined = np.isnan(values)
    if weights is None:
        if not undefined.any():  # the common case, in few numpy calls: the plain mean
            return (float(values.mean()) if values.size else math.nan), False
        weights = np.ones(values.shape)
    weights = np.asarray(weights, dtype=np.float64)
    if math.isnan(z):
        kept, kept_w = values[~undefined], weights[~undefined]
    else:
        kept, kept_w = np.where(undefined, z, values), weights
    if kept.size == 0:
        mean = math.nan
    elif kept_w.sum() == 0:
        mean = float(kept.mean())
    else:
        mean = float(np.average(kept, weights=kept_w))
    carries_weight = weights > 0 if weights.sum() > 0 else np.ones(values.shape, dtype=bool)
    return mean, bool(np.any(undefined & carries_weight))


def _fill(value: float, z: float) -> tuple[float, bool]:
    """A single ratio under the policy: (z, True) if undefined, else (value, False)."""
    return (z, True) if math.isnan(value) else (value, False)


def _macro(ratios, counts, z):
    return {m: _policy_mean(ratios[m], None, z) for m in AVERAGED_MEASURES}


def _weighted(ratios, counts, z):
    return {m: _policy_mean(ratios[m], counts.support, z) for m in AVERAGED_MEASURES}


def _micro(ratios, counts, z):
    total = Counts(
        tp=np.atleast_1d(counts.tp.sum()),
        fp=np.atleast_1d(counts.fp.sum()),
        fn=np.atleast_1d(counts.fn.sum()),
        tn=np.atleast_1d(counts.tn.sum()),
        beta=counts.beta,
    )
    pooled = per_class_ratios(total)
    return {m: _fill(float(pooled[m][0]), z) for m in AVERAGED_MEASURES}


def _harmonic(p: float, r: float, beta: float) -> float:
    # (1 + b^2) P R / (b^2 P + R); P = R = 0 gives 0, the limit of the harmonic mean.
    if math.isnan(p) or math.isnan(r):
        return math.nan
    b2 = beta * beta
    w = 1.0 if math.isinf(b2) else b2 / (1.0 + b2)
    denominator = w * p + (1.0 - w) * r
    return 0.0 if denominator == 0 else p * r / denominator


def _macro_harmonic(ratios, counts, z):
    macro = _macro(ratios, counts, z)
    (p, p_applied), (r, r_applied) = macro["precision"], macro["recall"]
    either = p_applied or r_applied
    return {
        "precision": (p, p_applied),
        "recall": (r, r_applied),
        "f1": (_harmonic(p, r, 1.0), either),
        "fbeta": (_harmonic(p, r, counts.beta), either),
    }


@dataclass(frozen=True)
class Averaging:
    """One way of averaging per-class precision, recall and F, declared once."""

    name: str
    description: str
    formula: str
    reference: str
    compute: Callable[[dict, Counts, float], dict]
    multilabel_only: bool = False


_AVERAGING_LIST = [
    Averaging(
        "macro",
        "unweighted mean of the per-class values (scikit-learn's macro F1)",
        "P = mean_k P_k, R = mean_k R_k, F1 = mean_k F1_k",
        _SKLEARN,
        _macro,
    ),
    Averaging(
        "macro_harmonic",
        "harmonic mean of macro precision and macro recall",
        "P = mean_k P_k, R = mean_k R_k, F1 = 2 P R / (P + R)  (0 when P = R = 0)",
        "J. Opitz, S. Burst (2019), Macro F1 and Macro F1, arXiv:1911.03347",
        _macro_harmonic,
    ),
    Averaging(
        "micro",
        "counts summed over classes first, then one ratio",
        "P = sum TP / sum (TP + FP), R = sum TP / sum (TP + FN), "
        "F1 = 2 sum TP / (2 sum TP + sum FP + sum FN)",
        _SKLEARN,
        _micro,
    ),
    Averaging(
        "weighted",
        "mean of the per-class values weighted by support (true count)",
        "P = sum_k n_k P_k / sum_k n_k, likewise R and F1",
        _SKLEARN,
        _weighted,
    ),
    Averaging(
        "samples",
        "per-sample precision, recall and F1 (multi-label), then their mean",
        "F1 = mean_i 2 |T_i & P_i| / (|T_i| + |P_i|), likewise P and R",
        "G. Tsoumakas, I. Katakis, I. Vlahavas (2010), Mining Multi-label Data, "
        "Data Mining and Knowledge Discovery Handbook, 667-685",
        _macro,
        multilabel_only=True,
    ),
]

#: Every averaging by name.  "samples" applies to multi-label data only (it is the macro
#: average taken over samples instead of labels).
AVERAGES: Mapping[str, Averaging] = MappingProxyType({a.name: a for a in _AVERAGING_LIST})


def average_all(
    ratios: dict[str, np.ndarray], counts: Counts, z: float, names
) -> tuple[dict[str, Average], list[str]]:
    """Compute the averagings ``names`` of :data:`AVERAGES`.

    Returns the averages by name and the list of ``"<average>.<measure>"`` figures for which the
    zero_division policy ``z`` was applied.
    """
    averages: dict[str, Average] = {}
    applied: list[str] = []
    for name in names:
        figures = AVERAGES[name].compute(ratios, counts, z)
        averages[name] = Average(**{m: figures[m][0] for m in AVERAGED_MEASURES})
        applied.extend(f"{name}.{m}" for m in AVERAGED_MEASURES if figures[m][1])
    return averages, applied

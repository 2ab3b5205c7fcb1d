"""Until the figure registry and summarize(result) are in: the same interface over today's
summary (removed once they are)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Figure:
    name: str
    greater_is_better: bool
    kinds: frozenset


_C = frozenset({"binary", "multiclass"})
_B = frozenset({"binary"})
_M = frozenset({"multiclass"})
_R = frozenset({"regression"})
FIGURES = {f.name: f for f in (
    Figure("accuracy", True, _C), Figure("balanced_accuracy", True, _C), Figure("mcc", True, _C),
    Figure("kappa", True, _C), Figure("precision", True, _B), Figure("recall", True, _B),
    Figure("f1", True, _B), Figure("macro_f1", True, _C), Figure("macro_harmonic_f1", True, _C),
    Figure("micro_f1", True, _C), Figure("weighted_f1", True, _C), Figure("roc_auc", True, _B),
    Figure("average_precision", True, _B), Figure("macro_roc_auc", True, _M),
    Figure("macro_average_precision", True, _M),
    Figure("label_ranking_average_precision", True, _M), Figure("mse", False, _R),
    Figure("scc", True, _R))}


def criteria_for(kind):
    return tuple(n for n, f in FIGURES.items() if kind in f.kinds)


@dataclass
class _Summary:
    figures: dict
    fold_spread: dict


def summarize(result, *, pos_label=None, zero_division=0.0):
    from ..summary import summarize as old
    s = old(result.y_true, result.y_pred, result=result, regression=result.params.is_regression,
            pos_label=pos_label, zero_division=zero_division)
    ren = {"mean_squared_error": "mse", "squared_correlation": "scc"}
    figures = {ren.get(k, k): v for k, v in s.figures.items()}
    spread = {ren.get(k, k): v for k, v in s.fold_spread.items()}
    if s.positive is not None:
        k = s.class_index(s.positive)
        c = s.classification
        figures["precision"] = float(c.precision[k])
        figures["recall"] = float(c.recall[k])
        figures["f1"] = float(c.f1[k])
    return _Summary(figures, spread)

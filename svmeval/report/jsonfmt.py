"""The JSON report: one object; undefined values are null. Key names are fixed within a
schema_version; keys may be added, never renamed. Version 2: the scalar figures in ``figures``,
``folds``, ``fold_spread``, ``repeats`` and ``repeat_spread`` carry the names of the figure
registry (:data:`svmeval.metrics.FIGURES`: ``mse`` and ``scc`` for regression, the positive
class's ``precision``, ``recall`` and ``f1`` for two classes)."""

from __future__ import annotations

import json
import math

import numpy as np

from svmeval.metrics import SINGLE_LABEL_AVERAGES

SCHEMA_VERSION = 2


def plain(value):
    """numpy and float values as JSON values, NaN as null."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value) or math.isinf(value):
            return None
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    return value


def classification_object(c) -> dict:
    classes = []
    for k, label in enumerate(c.labels):
        classes.append({
            "label": label, "support": c.support[k], "tp": c.tp[k], "fp": c.fp[k],
            "fn": c.fn[k], "tn": c.tn[k], "precision": c.precision[k], "recall": c.recall[k],
            "f1": c.f1[k], "specificity": c.specificity[k], "npv": c.npv[k],
            "accuracy": c.ovr_accuracy[k],
        })
    return {
        "labels": c.labels,
        "accuracy": c.accuracy,
        "balanced_accuracy": c.balanced_accuracy,
        "mcc": c.mcc,
        "kappa": c.kappa,
        "classes": classes,
        "averages": {name: {"precision": c.averages[name].precision,
                            "recall": c.averages[name].recall,
                            "f1": c.averages[name].f1}
                     for name in SINGLE_LABEL_AVERAGES},
        "confusion_matrix": c.confusion_matrix,
        "zero_division": "nan" if math.isnan(c.zero_division) else c.zero_division,
        "zero_division_applied": list(c.zero_division_applied),
    }


def report_object(summary) -> dict:
    obj = {"schema_version": SCHEMA_VERSION, "kind": summary.kind, "n_samples": summary.n_samples}
    obj.update(summary.meta)
    if summary.kind == "regression":
        obj["mean_squared_error"] = summary.regression.mean_squared_error
        obj["squared_correlation"] = summary.regression.squared_correlation
    else:
        obj.update(classification_object(summary.classification))
        if summary.is_binary:
            obj["positive_label"] = summary.positive
            obj["negative_label"] = summary.negative
        if summary.ranking is not None:
            r = summary.ranking
            obj["ranking"] = dict(r.overall_for(summary.positive), source=r.source)
            for k, entry in enumerate(obj["classes"]):
                entry["roc_auc"] = r.roc_auc[k]
                entry["average_precision"] = r.average_precision[k]
    obj["figures"] = summary.figures
    obj["folds"] = summary.fold_figures
    obj["fold_spread"] = spread_object(summary.fold_spread)
    if summary.repeat_figures:
        obj["repeats"] = summary.repeat_figures
        obj["repeat_spread"] = spread_object(summary.repeat_spread)
    return plain(obj)


def spread_object(pairs: dict) -> dict:
    return {name: {"mean": m, "sd": sd} for name, (m, sd) in pairs.items()}


def render(summary, *, digits: int = 4, full: bool = False) -> str:
    return json.dumps(report_object(summary), indent=2, allow_nan=False) + "\n"

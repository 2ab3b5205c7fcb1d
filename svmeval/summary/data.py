"""A :class:`~svmeval.summary.Summary` as data: the JSON report's object and a results table.

The JSON object's keys are fixed within a ``schema_version``; keys may be added, never renamed.
Version 2 (single-label): the scalar figures in ``figures``, ``folds``, ``fold_spread``,
``repeats``, ``repeat_spread`` and ``intervals`` (with ``ci``: ``level``, ``resamples``,
``seed``, ``repetitions`` and per figure ``estimate``, ``bca`` and ``percentile`` as
[low, high] and ``standard_error``; with ``-b 1`` probabilities, ``calibration``: the Brier
score's definition, the ECE's binning and the reliability diagrams' bins: ``what``,
``edges``, ``count``, ``mean_predicted``, ``observed``)
carry the names of the figure registry
(:data:`svmeval.metrics.FIGURES`: ``mse`` and ``scc`` for regression, the positive class's
``precision``, ``recall`` and ``f1`` for two classes). A results table has the columns of
:data:`svmeval._tables.KEYS`, then the figures.
"""

from __future__ import annotations

import math

from svmeval._tables import frame, plain
from svmeval.metrics import SINGLE_LABEL_AVERAGES
from svmeval.metrics.multilabel import MULTILABEL_AVERAGES
from svmeval.params import params_flags

__all__ = ["SCHEMA_VERSION", "summary_frame", "summary_object", "summary_rows"]


SCHEMA_VERSION = 2


def classification_object(c) -> dict:
    classes = []
    for k, label in enumerate(c.labels):
        classes.append(
            {
                "label": label,
                "support": c.support[k],
                "tp": c.tp[k],
                "fp": c.fp[k],
                "fn": c.fn[k],
                "tn": c.tn[k],
                "precision": c.precision[k],
                "recall": c.recall[k],
                "f1": c.f1[k],
                "specificity": c.specificity[k],
                "npv": c.npv[k],
                "accuracy": c.ovr_accuracy[k],
            }
        )
    return {
        "labels": c.labels,
        "accuracy": c.accuracy,
        "balanced_accuracy": c.balanced_accuracy,
        "mcc": c.mcc,
        "kappa": c.kappa,
        "classes": classes,
        "averages": {
            name: {
                "precision": c.averages[name].precision,
                "recall": c.averages[name].recall,
                "f1": c.averages[name].f1,
            }
            for name in SINGLE_LABEL_AVERAGES
        },
        "confusion_matrix": c.confusion_matrix,
        "zero_division": "nan" if math.isnan(c.zero_division) else c.zero_division,
        "zero_division_applied": list(c.zero_division_applied),
    }


def single_label_object(summary) -> dict:
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
    if summary.calibration:
        obj["calibration"] = calibration_object(summary)
    obj["figures"] = summary.figures
    obj["folds"] = summary.fold_figures
    obj["fold_spread"] = spread_object(summary.fold_spread)
    if summary.repeat_figures:
        obj["repeats"] = summary.repeat_figures
        obj["repeat_spread"] = spread_object(summary.repeat_spread)
    if summary.intervals is not None:
        obj["intervals"] = summary.intervals.to_dict()
    if summary.classes is not None:
        _name_classes(obj, summary)
    return plain(obj)


def _name_classes(obj: dict, summary) -> None:
    """The classes of ``obj`` by the user's labels (``summary.classes``)."""
    from svmeval._classes import json_class

    def name(label):
        return json_class(label, summary.classes)

    obj["labels"] = [name(v) for v in obj["labels"]]
    for entry in obj["classes"]:
        entry["label"] = name(entry["label"])
    for key in ("positive_label", "negative_label"):
        if key in obj:
            obj[key] = name(obj[key])
    brier = obj.get("calibration", {}).get("brier_score", {})
    if "positive_class" in brier:
        brier["positive_class"] = name(brier["positive_class"])


def calibration_object(summary) -> dict:
    """How the probability figures were computed, and the bins of the reliability diagrams."""
    from svmeval.metrics.probabilities import N_BINS

    return {
        "source": "probabilities",
        "brier_score": (
            {"positive_class": summary.positive}
            if summary.is_binary
            else {"multiclass": "mean squared distance to the one-hot vector, summed over classes"}
        ),
        "ece": {
            "n_bins": N_BINS,
            "binning": "equal-width bins of the top-label confidence on [0, 1] "
            "(b/n < p <= (b+1)/n), weighted by their counts",
        },
        "reliability": [b.to_dict() for b in summary.calibration],
    }


def spread_object(pairs: dict) -> dict:
    return {name: {"mean": m, "sd": sd} for name, (m, sd) in pairs.items()}


def multilabel_object(summary) -> dict:
    """The JSON object (schema_version 1; keys may be added, never renamed)."""
    r, rk = summary.multilabel, summary.ranking
    per_label = []
    for k, label in enumerate(summary.label_names):
        obj = {
            "label": label,
            "support": r.support[k],
            "tp": r.tp[k],
            "fp": r.fp[k],
            "fn": r.fn[k],
            "tn": r.tn[k],
            "precision": r.precision[k],
            "recall": r.recall[k],
            "f1": r.f1[k],
        }
        if rk is not None:
            obj["average_precision"] = rk.average_precision[k]
        per_label.append(obj)
    obj = {"schema_version": SCHEMA_VERSION, "kind": "multilabel", "n_samples": summary.n_samples}
    obj.update(summary.meta)
    obj.update(
        {
            "labels": summary.label_names,
            "per_label": per_label,
            "averages": {
                name: {
                    "precision": r.averages[name].precision,
                    "recall": r.averages[name].recall,
                    "f1": r.averages[name].f1,
                }
                for name in MULTILABEL_AVERAGES
            },
            "subset_accuracy": r.subset_accuracy,
            "hamming_loss": r.hamming_loss,
            "ranking": None
            if rk is None
            else {
                "source": rk.source,
                "lrap": rk.lrap,
                "coverage_error": rk.coverage_error,
                "ranking_loss": rk.ranking_loss,
                "mean_average_precision": rk.mean_average_precision,
            },
            "folds": {
                "figures": [
                    {"fold": i, "n_samples": size, **f}
                    for i, (size, f) in enumerate(zip(summary.fold_sizes, summary.fold_figures))
                ],
                "mean": {k: m for k, (m, _) in summary.fold_spread.items()},
                "sd": {k: sd for k, (_, sd) in summary.fold_spread.items()},
            }
            if summary.fold_figures
            else None,
            "figures": summary.figures,
            "empty_samples": summary.empty_samples,
            "zero_division": "nan" if math.isnan(summary.zero_division) else summary.zero_division,
            "zero_division_applied": list(r.zero_division_applied),
        }
    )
    return plain(obj)


def summary_object(summary) -> dict:
    """The JSON report's object of a summary of any kind (plain JSON types, NaN as None)."""
    if summary.kind == "multilabel":
        return multilabel_object(summary)
    return single_label_object(summary)


def summary_rows(
    summary, *, repetition: int = 0, configuration: str | None = None, dataset: str | None = None
) -> list[dict]:
    """The rows of one run's folds; a summary without folds (predictions from elsewhere) is one
    row with ``fold`` None and the pooled figures."""
    meta = summary.meta
    options = params_flags(meta.get("parameters", {}))
    head = {
        "dataset": meta.get("data_file", "") if dataset is None else dataset,
        "configuration": (  # as given: "" for svm-train's defaults
            getattr(summary, "configuration", "") if configuration is None else configuration
        ),
        "options": options,
        "repetition": repetition,
        "seed": meta.get("seed"),
    }
    if not summary.fold_figures:
        return [{**head, "fold": None, "n_test": summary.n_samples, **summary.figures}]
    return [
        {**head, "fold": i, "n_test": summary.fold_sizes[i], **figures}
        for i, figures in enumerate(summary.fold_figures)
    ]


def summary_frame(summary):
    """A summary as a results table (its first repetition's folds)."""
    return frame(summary_rows(summary))

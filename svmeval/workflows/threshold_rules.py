"""The rules of a tuned threshold: its criteria (:func:`parse_criterion`), the scan of the
candidate thresholds (:func:`choose_threshold`) and the figures at an operating point
(:func:`operating_figures`). :mod:`svmeval.workflows.threshold` runs them over a
cross-validation; the candidates and the tie rule are described there.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from svmeval.errors import ArgumentError, show_label

__all__ = [
    "COUNTS",
    "CRITERIA",
    "FIGURE_NAMES",
    "POINTS",
    "ThresholdCriterion",
    "choose_threshold",
    "operating_figures",
    "parse_criterion",
]

#: the criteria a threshold is tuned for, as written
CRITERIA = ("f1", "f1:LABEL", "mcc", "balanced_accuracy", "cost:FP,FN")

#: the operating points, in the reports' order
POINTS = ("libsvm", "tuned", "honest")

#: the figures of every operating point, in the reports' order
FIGURE_NAMES = ("accuracy", "precision", "recall", "f1", "mcc", "balanced_accuracy")
COUNTS = ("tp", "fp", "fn", "tn")


@dataclass(frozen=True)
class ThresholdCriterion:
    """A criterion of :func:`tune_threshold`: ``name`` (f1, mcc, balanced_accuracy, cost),
    ``label`` (f1's class where given), ``costs`` (cost's (FP, FN))."""

    name: str
    label: float | None = None
    costs: tuple[float, float] | None = None

    @property
    def greater_is_better(self) -> bool:
        return self.name != "cost"

    @property
    def text(self) -> str:
        if self.costs is not None:
            return f"cost:{self.costs[0]:g},{self.costs[1]:g}"
        if self.label is not None:
            return f"{self.name}:{show_label(self.label)}"
        return self.name

    def title(self, positive: float | str) -> str:
        """The criterion's name; ``positive``: the positive class (a label, or its text)."""
        if self.name == "f1":
            shown = positive if isinstance(positive, str) else show_label(positive)
            return f"F1 of class {shown}"
        if self.name == "cost":
            return f"cost {self.costs[0]:g} x FP + {self.costs[1]:g} x FN"  # type: ignore[index]
        return {"mcc": "MCC", "balanced_accuracy": "balanced accuracy"}[self.name]

    def values(self, tp, fp, fn, tn) -> np.ndarray:
        """The criterion at each operating point of the counts (arrays of one length)."""
        tp, fp, fn, tn = (np.asarray(v, dtype=np.float64) for v in (tp, fp, fn, tn))
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.name == "f1":
                d = 2 * tp + fp + fn
                return np.where(d > 0, 2 * tp / np.where(d > 0, d, 1), 0.0)
            if self.name == "mcc":
                d = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
                return np.where(d > 0, (tp * tn - fp * fn) / np.where(d > 0, d, 1), 0.0)
            if self.name == "balanced_accuracy":
                return (tp / (tp + fn) + tn / (tn + fp)) / 2
        fp_cost, fn_cost = self.costs  # type: ignore[misc]
        return fp_cost * fp + fn_cost * fn


def _fail(message: str) -> NoReturn:
    raise ArgumentError("criterion", message)


def parse_criterion(criterion) -> ThresholdCriterion:
    """``f1``, ``f1:LABEL``, ``mcc``, ``balanced_accuracy`` or ``cost:FP,FN`` (two numbers
    >= 0, not both 0) as a :class:`ThresholdCriterion`; anything else an
    :class:`~svmeval.errors.ArgumentError` of ``criterion``."""
    if not isinstance(criterion, str) or not criterion:
        _fail(f"must be one of {', '.join(CRITERIA)}, got {criterion!r}")
    name, sep, rest = criterion.partition(":")
    if name == "cost":
        parts = rest.split(",")
        try:
            costs = tuple(float(p) for p in parts)
        except ValueError:
            costs = ()
        if not sep or len(costs) != 2 or not all(math.isfinite(c) and c >= 0 for c in costs):
            _fail(f"{criterion!r}: a cost is cost:FP,FN, two numbers of 0 or more")
        if costs == (0.0, 0.0):
            _fail(f"{criterion!r}: the two costs are 0: every threshold costs nothing")
        return ThresholdCriterion("cost", costs=(costs[0], costs[1]))
    if name == "f1" and sep:
        try:
            label = float(rest)
        except ValueError:
            label = math.nan
        if not math.isfinite(label):
            _fail(f"{criterion!r}: f1:LABEL takes a class label (a number)")
        return ThresholdCriterion("f1", label=label)
    if name in ("f1", "mcc", "balanced_accuracy") and not sep:
        return ThresholdCriterion(name)
    near = difflib.get_close_matches(name, ["f1", "mcc", "balanced_accuracy", "cost"], n=1)
    hint = f"; did you mean {near[0]}?" if near else ""
    _fail(f"{criterion!r} is not one of {', '.join(CRITERIA)}{hint}")


def choose_threshold(
    positive: np.ndarray, scores: np.ndarray, criterion: ThresholdCriterion, default: float
) -> tuple[float, float]:
    """``(threshold, value)``: the threshold of ``scores`` (a sample is positive when its score
    is at least the threshold) with the best ``criterion`` value on the true classes
    ``positive`` (bool), and that value. Candidates, ties: the module's notes."""
    positive = np.asarray(positive, dtype=bool)
    scores = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-scores, kind="stable")
    s, p = scores[order], positive[order]
    ends = np.flatnonzero(np.concatenate((s[1:] != s[:-1], [True])))  # last of equal scores
    tp = np.concatenate(([0], np.cumsum(p)[ends]))
    fp = np.concatenate(([0], np.cumsum(~p)[ends]))
    hi, lo = s[ends[:-1]], s[ends[:-1] + 1]
    middle = (hi + lo) / 2
    middle = np.where(middle > lo, middle, hi)  # adjacent doubles: the higher score
    thresholds = np.concatenate(([math.inf], middle, [-math.inf]))
    n_pos = int(np.count_nonzero(positive))
    values = criterion.values(tp, fp, n_pos - tp, (len(p) - n_pos) - fp)
    best = np.nanmax(values) if criterion.greater_is_better else np.nanmin(values)
    tied = np.flatnonzero(values == best)
    distance = np.abs(thresholds[tied] - default)
    pick = tied[np.lexsort((thresholds[tied], distance))[0]]
    return float(thresholds[pick]), float(values[pick])


def operating_figures(y_true, y_pred, positive: float, criterion: ThresholdCriterion) -> dict:
    """The figures of predictions ``y_pred`` (svmeval's metrics, scikit-learn's definitions,
    0 where 0/0): accuracy, precision, recall and F1 of the positive class, MCC, balanced
    accuracy, the four counts and the criterion's value."""
    from svmeval.metrics import (
        accuracy_score,
        balanced_accuracy_score,
        f1_score,
        precision_score,
        recall_score,
    )
    from svmeval.metrics.agreement import mcc_of_counts

    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    t, q = y_true == positive, y_pred == positive
    counts = {
        "tp": int(np.count_nonzero(t & q)),
        "fp": int(np.count_nonzero(~t & q)),
        "fn": int(np.count_nonzero(t & ~q)),
        "tn": int(np.count_nonzero(~t & ~q)),
    }
    # as two labels 1 / 0: one class may be absent from a fold's rows or predictions
    yt, yp = t.astype(np.int64), q.astype(np.int64)
    kw = {"pos_label": 1, "zero_division": 0.0, "labels": [0, 1]}
    figures = {
        "accuracy": float(accuracy_score(yt, yp)),
        "precision": float(precision_score(yt, yp, **kw)),
        "recall": float(recall_score(yt, yp, **kw)),
        "f1": float(f1_score(yt, yp, **kw)),
        # from the counts, with both classes: a fold of one class is no reason to warn
        "mcc": mcc_of_counts([[counts["tn"], counts["fp"]], [counts["fn"], counts["tp"]]])
        if len(yt)
        else math.nan,
        "balanced_accuracy": _balanced(yt, yp, balanced_accuracy_score),
    }
    value = criterion.values(*([counts[k]] for k in COUNTS))[0]
    return {**figures, **counts, "criterion": float(value)}


def _balanced(yt, yp, balanced_accuracy_score) -> float:
    if len(np.unique(yt)) < 2:  # one class in the rows: its recall alone (scikit-learn warns)
        return float(np.mean(yp == yt)) if len(yt) else math.nan
    return float(balanced_accuracy_score(yt, yp))

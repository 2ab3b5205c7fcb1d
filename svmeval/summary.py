"""From predictions to every figure a report shows: the bridge between engine and report.

A :class:`Summary` holds computed figures only (from :mod:`svmeval.metrics`); the reporters
format it and compute nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .errors import SvmevalError
from .metrics import evaluate
from .metrics.classification import ClassificationReport
from .metrics.regression import RegressionReport, regression_report


@dataclass(frozen=True, eq=False)
class Summary:
    """What one run found.

    ``kind``: "classification" or "regression". For classification, ``correct`` and
    ``accuracy_percent`` are svm-train's ``100.0*total_correct/l``; with two classes,
    ``positive`` / ``negative`` are the labels of the svm-train-compatible blocks.
    ``meta``: where the predictions came from (mode "cv" or "score", data file, folds, seed,
    LIBSVM parameters).
    """

    kind: str
    n_samples: int
    classification: ClassificationReport | None = None
    regression: RegressionReport | None = None
    correct: int = 0
    accuracy_percent: float = float("nan")
    positive: float | None = None
    negative: float | None = None
    meta: dict = field(default_factory=dict)

    @property
    def is_binary(self) -> bool:
        return self.positive is not None

    def class_index(self, label: float) -> int:
        return int(np.flatnonzero(self.classification.labels == label)[0])


def positive_label(labels: np.ndarray, pos_label: float | None = None) -> float:
    """The positive class of two-class data: ``pos_label`` if given, else 1 when present, else
    the larger label."""
    if pos_label is not None:
        if pos_label not in labels:
            shown = ", ".join(f"{v:g}" for v in labels)
            raise SvmevalError(f"--pos-label {pos_label:g} is not one of the labels ({shown})")
        return float(pos_label)
    return 1.0 if 1.0 in labels else float(labels.max())


def summarize(y_true, y_pred, *, regression: bool = False, pos_label: float | None = None,
              zero_division=0.0, meta: dict | None = None) -> Summary:
    """Every figure of ``y_pred`` against ``y_true``."""
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    meta = dict(meta or {})
    if regression:
        return Summary(kind="regression", n_samples=len(y_true),
                       regression=regression_report(y_true, y_pred), meta=meta)
    report = evaluate(y_true, y_pred, zero_division=zero_division)
    correct = int(np.count_nonzero(y_true == y_pred))
    positive = negative = None
    if len(report.labels) == 2:
        positive = positive_label(report.labels, pos_label)
        negative = float(report.labels[report.labels != positive][0])
    elif pos_label is not None:
        raise SvmevalError("--pos-label applies to two-class data only")
    return Summary(kind="classification", n_samples=len(y_true), classification=report,
                   correct=correct, accuracy_percent=100.0 * correct / len(y_true),
                   positive=positive, negative=negative, meta=meta)

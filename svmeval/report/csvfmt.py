"""The CSV report: one row per class, then one per average (empty cells where a figure does not
apply or is undefined)."""

from __future__ import annotations

import csv
import io
import math

from ..metrics import SINGLE_LABEL_AVERAGES

COLUMNS = ("row", "name", "precision", "recall", "f1", "specificity", "npv", "accuracy",
           "support", "tp", "fp", "fn", "tn")


def cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) or hasattr(value, "dtype") and value.dtype.kind == "f":
        value = float(value)
        return "" if math.isnan(value) else repr(value)
    return str(int(value))


def render(summary, *, digits: int = 4, full: bool = False) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if summary.kind == "regression":
        r = summary.regression
        w.writerow(("row", "name", "value"))
        w.writerow(("overall", "mean_squared_error", cell(r.mean_squared_error)))
        w.writerow(("overall", "squared_correlation", cell(r.squared_correlation)))
        return buf.getvalue()
    c = summary.classification
    w.writerow(COLUMNS)
    for k, label in enumerate(c.labels):
        w.writerow(("class", f"{label:g}") + tuple(cell(v) for v in (
            c.precision[k], c.recall[k], c.f1[k], c.specificity[k], c.npv[k], c.ovr_accuracy[k],
            c.support[k], c.tp[k], c.fp[k], c.fn[k], c.tn[k])))
    for name in SINGLE_LABEL_AVERAGES:
        a = c.averages[name]
        w.writerow(("average", name, cell(a.precision), cell(a.recall), cell(a.f1))
                   + ("",) * 8)
    return buf.getvalue()

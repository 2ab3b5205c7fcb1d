"""The CSV report: one row per class, one per average, then one per scalar figure of the
registry (``row`` = "figure", ``name`` = its registry name, ``value``), with its mean and sd
over folds; empty cells where a figure does not apply or is undefined."""

from __future__ import annotations

import csv
import io
import math

from svmeval.errors import show_label
from svmeval.metrics import SINGLE_LABEL_AVERAGES

COLUMNS = (
    "row",
    "name",
    "precision",
    "recall",
    "f1",
    "specificity",
    "npv",
    "accuracy",
    "support",
    "tp",
    "fp",
    "fn",
    "tn",
    "value",
    "fold_mean",
    "fold_sd",
)


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
        w.writerow(("row", "name", "value", "fold_mean", "fold_sd"))
        figure_rows(w, summary, ())
        return buf.getvalue()
    c = summary.classification
    w.writerow(COLUMNS)
    for k, label in enumerate(c.labels):
        w.writerow(
            ("class", show_label(label))
            + tuple(
                cell(v)
                for v in (
                    c.precision[k],
                    c.recall[k],
                    c.f1[k],
                    c.specificity[k],
                    c.npv[k],
                    c.ovr_accuracy[k],
                    c.support[k],
                    c.tp[k],
                    c.fp[k],
                    c.fn[k],
                    c.tn[k],
                )
            )
            + ("",) * 3
        )
    for name in SINGLE_LABEL_AVERAGES:
        a = c.averages[name]
        w.writerow(("average", name, cell(a.precision), cell(a.recall), cell(a.f1)) + ("",) * 11)
    figure_rows(w, summary, ("",) * 11)
    return buf.getvalue()


def figure_rows(w, summary, gap: tuple) -> None:
    """One row per scalar figure: its pooled value and its mean and sd over folds."""
    for name, value in summary.figures.items():
        mean, sd = summary.fold_spread.get(name, (math.nan, math.nan))
        w.writerow(("figure", name) + gap + (cell(value), cell(mean), cell(sd)))

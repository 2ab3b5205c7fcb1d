"""The CSV report: one row per class, one per average, then one per scalar figure of the
registry (``row`` = "figure", ``name`` = its registry name, ``value``), with its mean and sd
over folds; empty cells where a figure does not apply or is undefined. With bootstrap
intervals five more columns, ``ci_estimate`` (the figure the interval is about: the pooled
value, or with repetitions their mean), ``bca_low``, ``bca_high``, ``percentile_low`` and
``percentile_high``, filled on the figure rows."""

from __future__ import annotations

import csv
import io
import math

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


INTERVAL_COLUMNS = ("ci_estimate", "bca_low", "bca_high", "percentile_low", "percentile_high")


def render(summary, *, digits: int = 4, full: bool = False) -> str:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    if summary.kind == "regression":
        out.writerow(("row", "name", "value", "fold_mean", "fold_sd"))
        figure_rows(out, summary, ())
        return buf.getvalue()
    c = summary.classification
    iv = summary.intervals
    w = out if iv is None else _Padded(out, len(INTERVAL_COLUMNS))
    out.writerow(COLUMNS + (INTERVAL_COLUMNS if iv is not None else ()))
    for k, label in enumerate(c.labels):
        w.writerow(
            ("class", summary.show_class(label))
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


class _Padded:
    """A csv writer whose rows get ``width`` empty cells more."""

    def __init__(self, writer, width: int):
        self.writer, self.width = writer, width

    def writerow(self, row) -> None:
        self.writer.writerow(tuple(row) + ("",) * self.width)


def figure_rows(w, summary, gap: tuple) -> None:
    """One row per scalar figure: its pooled value and its mean and sd over folds (and its
    intervals' bounds, with intervals)."""
    iv = summary.intervals
    out = w.writer if isinstance(w, _Padded) else w
    for name, value in summary.figures.items():
        mean, sd = summary.fold_spread.get(name, (math.nan, math.nan))
        row = ("figure", name) + gap + (cell(value), cell(mean), cell(sd))
        if iv is not None:
            bounds = iv.bca.get(name, (None, None)) + iv.percentile.get(name, (None, None))
            row += (cell(iv.estimate[name]) if name in iv.estimate else "",)
            row += tuple(cell(v) for v in bounds)
        out.writerow(row)

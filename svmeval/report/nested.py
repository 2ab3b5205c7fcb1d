"""The reports of a nested cross-validation (:class:`~svmeval.workflows.nested.NestedResult`).

text: svmeval's report of the outer predictions (first line ``Cross Validation Accuracy = X%``
or svm-train's two regression lines), then each outer fold's chosen cell and inner value and
the spread of the chosen parameters (:func:`svmeval.workflows.nested.chosen_text`). json: ``"outer"``
(svmeval's JSON report object of the outer predictions) and ``"nested"`` (every outer fold's
choice and the spread). csv: one row per (repetition, outer fold) with the chosen cell and its
inner value (a search of a class weight adds ``log2w``, ``w``, ``w_label``). Reporters format; they never compute.
"""

from __future__ import annotations

import csv
import io
import json

from svmeval.report._views import View
from svmeval.report.csvfmt import cell

COLUMNS = (
    "repetition",
    "fold",
    "seed",
    "log2c",
    "log2g",
    "log2p",
    "C",
    "gamma",
    "p",
    "value",
    "n_train",
    "n_test",
)
#: the columns a search of a class weight adds (after ``p``)
WEIGHT_COLUMNS = ("log2w", "w", "w_label")


def render_nested(result, format: str = "text", digits: int = 4, full: bool = False) -> str:
    from svmeval.report.text import render as text_report

    if format == "json":
        return json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n"
    if format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        columns: tuple[str, ...] = COLUMNS
        if result.weight_label is not None:
            at = COLUMNS.index("p") + 1
            columns = COLUMNS[:at] + WEIGHT_COLUMNS + COLUMNS[at:]
        if result.folds and result.folds[0].cell.select is not None:  # the sizes searched
            at = columns.index("p") + 1
            columns = columns[:at] + ("select",) + columns[at:]
        w.writerow(columns)
        for row in result._nested_object()["folds"]:
            w.writerow([cell(row[k]) for k in columns])
        return buf.getvalue()
    report = text_report(result.summary(), digits=digits, full=full)
    return report + result._chosen_text()


# --- the view of a NestedResult (svmeval.report._views) --------------------------------------
def _describe(result) -> tuple[str, str]:
    return f"Nested cross-validation on {result.outer.data_name or 'data'}", (
        f"{result.n_folds} outer folds x {result.repeat} repetition(s), "
        f"{result.inner_folds} inner folds; criterion {result.criterion}"
    )


def _pictures(result, svg, arrays):
    from svmeval.report import pictures
    from svmeval.report.svg import Picture, _nested_spread

    yield Picture("The outer predictions' figure sheet", svg(pictures.plot(result)))
    yield Picture("The spread of the nested CV", svg(_nested_spread(result)))


def _figure(result, title, pos_label, zero_division):
    """The outer predictions' figure sheet: their cross-validation's own picture."""
    from svmeval.report.pictures import figure_of

    return figure_of(result.outer, title, pos_label, zero_division)


VIEW = View(
    render=render_nested,
    describe=_describe,
    text=lambda result, digits: render_nested(result, "text", digits, True),
    pictures=_pictures,
    figure=_figure,
)

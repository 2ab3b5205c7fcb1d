"""A result's pictures as inline SVG for the HTML report, drawn with matplotlib's SVG backend.

Every picture :func:`svmeval.plot` draws (the figure sheet, the grid's criterion, the
critical-difference diagram, a permutation test's null distribution), a benchmark's
Bayesian signed-rank posterior (:mod:`svmeval.report.simplex`), and for a nested
cross-validation the spread of its outer folds: each outer fold's value of the criterion and
the cell its inner grid chose. The SVG is made to stand inside an HTML page: no XML prolog,
no DOCTYPE (it names a DTD by URL), no metadata block (it names vocabularies by URL), a width
that follows the page. Text is drawn as paths
(matplotlib's default), so nothing in the picture is read as markup.
"""

from __future__ import annotations

import io
import math
import re

import numpy as np

from svmeval._extras import install_command
from svmeval.errors import SvmevalError
from svmeval.report.plot import PlotUnavailable

__all__ = ["Picture", "pictures", "svg_of"]

_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\s(width|height)="([0-9.]+)pt"')
_IDS = re.compile(r'(\sid="|url\(#|href="#)([^")]+)')


class Picture:
    """One picture of a report: its ``caption`` and its ``svg`` text."""

    def __init__(self, caption: str, svg: str):
        self.caption = caption
        self.svg = svg


def svg_of(figure, prefix: str = "svg") -> str:
    """``figure`` (a matplotlib Figure) as an ``<svg>`` element for an HTML page: the same
    figure gives the same text, and its ids start with ``prefix`` (unique in the page)."""
    from matplotlib import rc_context

    buf = io.StringIO()
    with rc_context({"svg.hashsalt": "svmeval"}):  # ids from the content, not at random
        figure.savefig(buf, format="svg", metadata={"Date": None})
    text = _METADATA.sub("", _PROLOG.sub("", buf.getvalue(), count=1), count=1)
    text = _IDS.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", text)
    root = _ROOT.search(text)
    if root is None:  # pragma: no cover - matplotlib always writes one
        raise PlotUnavailable("matplotlib wrote no SVG element")
    size = dict(_SIZE.findall(root.group(0)))
    tag = _SIZE.sub("", root.group(0))
    width = size.get("width")
    style = f' style="width:100%;max-width:{width}pt;height:auto"' if width else ""
    tag = tag[:-1].rstrip("/").rstrip() + f' role="img"{style}>'
    return text[: root.start()] + tag + text[root.end() :]


def _nested_spread(result):
    """Each outer fold's criterion (the outer test) and the cell its inner grid chose."""
    from svmeval.metrics.figures import FIGURES
    from svmeval.report.panels import fold_series_panel
    from svmeval.report.plot import figure_class

    Figure = figure_class()
    summary = result.summary()
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    if result.criterion in summary.fold_spread:
        fold_series_panel(left, summary, result.criterion)
    else:
        left.set_axis_off()
    cells = [f.cell for f in result.folds if f.repetition == 0]
    # the two first searched of log2 C, log2 gamma and the class weight; a third (the weight
    # beside C and gamma) labels each point
    names = {"log2c": "log2 C", "log2g": "log2 gamma", "log2w": "log2 weight"}
    if cells and cells[0].w_label is not None:
        names["log2w"] = f"log2 weight of class {cells[0].w_label}"
    axes = [a for a in names if cells and getattr(cells[0], a) is not None] or ["log2c"]
    x_axis, y_axis = axes[0], axes[1] if len(axes) > 1 else None
    third = axes[2] if len(axes) > 2 else None

    def values(axis):
        return np.array(
            [math.nan if getattr(x, axis) is None else getattr(x, axis) for x in cells],
            dtype=float,
        )

    c = values(x_axis)
    if y_axis is None:  # one axis searched: it alone
        g = np.zeros_like(c)
        right.set_yticks([])
    else:
        g = values(y_axis)
        right.set_ylabel(names[y_axis])
    w = values(third) if third else np.zeros_like(c)
    triples, counts = np.unique(np.column_stack([c, g, w]), axis=0, return_counts=True)
    right.scatter(triples[:, 0], triples[:, 1], s=60 * counts, color="tab:blue", alpha=0.7)
    stacked: dict = {}  # the labels of the weights chosen at one point, one under another
    for (x, y, z), n in zip(triples, counts):
        label = f"x{n}" if third is None else f"x{n}, w=2^{z:g}"
        k = stacked[x, y] = stacked.get((x, y), -1) + 1
        right.annotate(
            label, (x, y), textcoords="offset points", xytext=(8, 6 - 12 * k), fontsize=9
        )
    right.margins(0.25)
    right.set_xlabel(names[x_axis])
    right.grid(alpha=0.3)
    right.set_title(f"cells chosen by the inner grids ({len(cells)} outer folds)", fontsize=11)
    title = FIGURES[result.criterion].title if result.criterion in FIGURES else result.criterion
    fig.suptitle(f"nested cross-validation: {title} of the outer folds", fontsize=12)
    return fig


def pictures(result, *, summary=None, arrays: dict | None = None) -> tuple[list, str | None]:
    """``(pictures, note)``: the result's pictures as :class:`Picture`\\ s, and a sentence
    when there are none to draw (matplotlib missing, or a result with no picture).

    ``summary`` and ``arrays``: a summary's sheet with the per-sample arrays it does not keep
    (:func:`svmeval.report.plot.result_arrays`)."""
    from svmeval.report._views import view_of

    count = iter(range(1, 10))

    def svg(figure) -> str:
        return svg_of(figure, f"fig{next(count)}")

    view = view_of(result)
    if view is None or view.pictures is None:
        return [], "This result has no picture: its tables and verdicts are below."
    out: list = []
    try:
        for picture in view.pictures(result, svg, arrays):
            out.append(picture)
    except PlotUnavailable:
        return [], (
            f"Pictures need matplotlib, which is not installed here: {install_command('plot')}"
        )
    except SvmevalError as exc:  # e.g. a regression summary without its per-sample arrays
        return out, f"No picture: {exc}."
    return out, None

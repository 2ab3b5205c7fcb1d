"""``-png``: the criterion over log2 C x log2 gamma as a filled contour plot, best cell marked.

matplotlib is an optional extra (the ``plot`` extra, :mod:`svmeval._extras`); without it
:func:`plot_grid` writes one line to stderr and returns False, and the search's results stand.
One axis ``null``: a line plot over the other. With ``--log2p``: the C x gamma plane of the best
epsilon. LIBLINEAR's ``-s 11`` search: the log2 C x p plane (p on its linear axis, each p's
own Cs; a (C, p) the search did not reach is left blank). With ``-log2w`` (a class weight, a third axis): C and gamma both searched, two panels,
the C x gamma plane at the best weight and the criterion over the weight at the best C and
gamma; one of them searched, the plane of that axis x the weight; the weight alone, a line.
With sizes searched (``select``, the number of features): one picture, the best size's cells
as above (its title names the size); the size alone, a line over the sizes. The picture is drawn on a :class:`matplotlib.figure.Figure` with the Agg canvas, as
:mod:`svmeval.report.plot` draws its sheets: no display, no pyplot, no global backend switched.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from svmeval.io.output import atomic_path
from svmeval.report.plot import PlotUnavailable, figure_class

__all__ = ["draw_grid", "plot_grid"]


def plot_grid(result, path: str, *, title: str = "") -> bool:
    """Draw ``result`` (a :class:`~svmeval.workflows.grid_result.GridResult`) to the PNG ``path``."""
    try:
        fig = draw_grid(result, title=title)
    except PlotUnavailable as exc:
        sys.stderr.write(f"svmeval-grid: -png {path} not drawn: {exc}\n")
        return False
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    return True


def draw_grid(result, *, title: str = ""):
    """The picture of ``result`` as a :class:`matplotlib.figure.Figure`. Raises
    :class:`~svmeval.report.plot.PlotUnavailable` without matplotlib."""
    Figure = figure_class()
    from svmeval.metrics.figures import FIGURES

    best = result.best
    figure = FIGURES.get(result.criterion)
    name = figure.title if figure else result.criterion
    unit = " (%)" if result.criterion == "accuracy" else ""
    direction = "higher is better" if result.greater_is_better else "lower is better"
    label = f"{name}{unit}, {direction}"
    heading = f"{title}: {name}, {result.n_folds}-fold cross-validation"
    c = best.cell
    searched = [a for a in ("log2c", "log2g") if getattr(c, a) is not None]
    if c.select is not None and (searched or c.log2w is not None):
        import dataclasses

        # the best size's cells alone: one picture, the best size's
        at_k = [r for r in result.cells if r.cell.select == c.select]
        result = dataclasses.replace(result, cells=at_k)
        heading += f"\nthe best size's cells, select = {c.select} features"
    elif c.select is not None:  # the size alone: a line over the sizes
        fig = Figure(figsize=(7.5, 6), dpi=110)
        ax = fig.subplots()
        _line(ax, result, result.cells, label, "select")
        ax.set_title(f"{heading}\n{_best_label(result, name)}", fontsize=10)
        fig.tight_layout()
        keep_labels_inside(fig)
        return fig
    if c.log2w is not None and len(searched) == 2:
        fig = Figure(figsize=(12.5, 5.6), dpi=110)
        left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": (1.35, 1)})
        at_w = [r for r in result.cells if r.cell.log2w == c.log2w]
        _plane(fig, left, result, at_w, label, "log2c", "log2g")
        left.set_title(
            f"C x gamma at the best weight, log2(w{c.w_label}) = {c.log2w:g}", fontsize=9
        )
        at_cg = [r for r in result.cells if (r.cell.log2c, r.cell.log2g) == (c.log2c, c.log2g)]
        _line(right, result, at_cg, label, "log2w")
        right.set_title(
            f"the weight at the best C = 2^{c.log2c:g}, gamma = 2^{c.log2g:g}", fontsize=9
        )
        fig.suptitle(f"{heading}\n{_best_label(result, name)}", fontsize=10)
        fig.tight_layout()
        keep_labels_inside(fig)
        return fig
    fig = Figure(figsize=(7.5, 6), dpi=110)
    ax = fig.subplots()
    if c.p_value is not None:  # LIBLINEAR's -s 11: C x p, each p's own Cs
        _plane(fig, ax, result, result.cells, label, "log2c", "p_value")
        low, high = ax.get_ylim()  # room for the marks at p = 0 and at the largest p
        ax.set_ylim(low - 0.03 * (high - low), high + 0.03 * (high - low))
        slice_note = ""
    elif c.log2w is not None:
        if searched:  # one of C and gamma x the weight
            _plane(fig, ax, result, result.cells, label, searched[0], "log2w")
        else:
            _line(ax, result, result.cells, label, "log2w")
        slice_note = ""
    else:
        cells = [r for r in result.cells if r.cell.log2p == c.log2p]
        if len(searched) == 2:
            _plane(fig, ax, result, cells, label, "log2c", "log2g")
        else:
            _line(ax, result, cells, label, searched[0])
        slice_note = "" if c.log2p is None else f", log2(p) = {c.log2p:g}"
    ax.set_title(f"{heading}{slice_note}\n{_best_label(result, name)}", fontsize=10)
    fig.tight_layout()
    keep_labels_inside(fig)
    return fig


def _axis_label(result, axis: str) -> str:
    if axis == "log2w":
        return f"log2(w{result.best.cell.w_label}), the weight of class {result.best.cell.w_label}"
    if axis == "select":
        return "select: the number of features kept (top F-scores)"
    if axis == "p_value":
        return "p, the SVR's epsilon (LIBLINEAR's values, a linear axis)"
    return {"log2c": "log2(C)", "log2g": "log2(gamma)"}[axis]


def _levels(finite: np.ndarray, greater: bool) -> np.ndarray:
    """The contour levels: they resolve the better half of the cells (where a choice is made,
    as grid.py's contours start 3 points below the best accuracy); the rest is one colour."""
    from matplotlib.ticker import MaxNLocator

    median = float(np.median(finite))
    lo, hi = (median, finite.max()) if greater else (finite.min(), median)
    if lo == hi:
        lo, hi = finite.min(), finite.max()
    levels = np.asarray(MaxNLocator(10).tick_values(lo, hi), dtype=np.float64)
    levels = levels[(levels >= lo) | (levels == levels.max())]
    if levels[0] > lo:
        levels = np.concatenate(([lo], levels))
    if levels[-1] < hi:
        levels = np.concatenate((levels, [hi]))
    return levels


def _tick_format(levels: np.ndarray):
    """The colour bar's labels with the decimals the contour levels' step needs (0.964, not
    0.96400; 98.4, not 98.400); the first and last level, where they are the cells' median or
    best value off the step, are shown to those decimals too."""
    from matplotlib.ticker import FuncFormatter

    steps = np.diff(levels[1:-1]) if len(levels) > 3 else np.diff(levels)
    step = float(np.median(steps)) if len(steps) else 1.0
    decimals = 0
    while decimals < 6 and abs(round(step, decimals) - step) > 1e-9 * max(abs(step), 1e-12):
        decimals += 1
    return FuncFormatter(lambda v, _: f"{v:.{decimals}f}")


def keep_labels_inside(fig) -> None:
    """Remove the contour labels that the axes would cut (a label placed at the plot's
    edge): call after the layout is final."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.contour import ContourSet

    renderer = FigureCanvasAgg(fig).get_renderer()  # the canvas every picture is drawn with
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        for artist in ax.get_children():
            if not isinstance(artist, ContourSet):
                continue
            for text in list(getattr(artist, "labelTexts", ())):
                b = text.get_window_extent(renderer)
                if b.x0 < box.x0 or b.x1 > box.x1 or b.y0 < box.y0 or b.y1 > box.y1:
                    text.remove()
                    artist.labelTexts.remove(text)


def _plane(fig, ax, result, cells, label: str, x: str, y: str) -> None:
    """The criterion over the plane of axes ``x`` and ``y`` (C x gamma, or one of them x the
    class weight): filled contours, cells, the best one starred."""
    import matplotlib

    best = result.best
    cs = sorted({getattr(r.cell, x) for r in cells})
    gs = sorted({getattr(r.cell, y) for r in cells})
    z = np.full((len(gs), len(cs)), np.nan)
    for r in cells:
        z[gs.index(getattr(r.cell, y)), cs.index(getattr(r.cell, x))] = r.rate
    finite = z[np.isfinite(z)]
    greater = result.greater_is_better
    cmap = matplotlib.colormaps["viridis" if greater else "viridis_r"]
    masked = np.ma.masked_invalid(z)
    if len(cs) > 1 and len(gs) > 1 and len(finite) and finite.min() < finite.max():
        levels = _levels(finite, greater)
        filled = ax.contourf(
            cs, gs, masked, levels=levels, cmap=cmap, extend="min" if greater else "max"
        )
        lines = ax.contour(
            cs, gs, masked, levels=levels[1:-1], colors="k", linewidths=0.4, alpha=0.45
        )
        ax.clabel(lines, lines.levels[::2], fmt=lambda v: f"{v:g}", fontsize=7)
        bar = fig.colorbar(filled, ax=ax)
        bar.ax.yaxis.set_major_formatter(_tick_format(levels))
    else:
        filled = ax.pcolormesh(cs, gs, masked, cmap=cmap, shading="nearest")
        bar = fig.colorbar(filled, ax=ax)
    bar.set_label(label)
    undefined = [(getattr(r.cell, x), getattr(r.cell, y)) for r in cells if math.isnan(r.rate)]
    if undefined:
        ax.plot(*zip(*undefined), "x", color="0.4", ms=5, label="undefined")
        ax.legend(loc="lower left", fontsize=8, framealpha=0.85)
    ax.plot(
        [getattr(r.cell, x) for r in cells],
        [getattr(r.cell, y) for r in cells],
        ".",
        color="w",
        ms=2,
        alpha=0.6,
    )
    ax.plot(getattr(best.cell, x), getattr(best.cell, y), "*", color="red", ms=16, mec="k")
    ax.set_xlabel(_axis_label(result, x))
    ax.set_ylabel(_axis_label(result, y))


def _line(ax, result, cells, label: str, axis: str) -> None:
    """The criterion as a line over ``axis`` (the other axes fixed), the best cell starred."""
    best = result.best
    xs = [getattr(r.cell, axis) for r in cells]
    order = np.argsort(xs)
    ax.plot(np.array(xs)[order], np.array([r.rate for r in cells])[order], "o-")
    ax.plot(getattr(best.cell, axis), best.rate, "*", color="red", ms=16, mec="k")
    ax.set_xlabel(_axis_label(result, axis))
    ax.set_ylabel(label)
    ax.grid(alpha=0.3)


def _best_label(result, name: str) -> str:
    c = result.best.cell
    parts = []
    if c.log2c is not None:
        parts.append(f"C = 2^{c.log2c:g}")
    if c.log2g is not None:
        parts.append(f"gamma = 2^{c.log2g:g}")
    if c.log2p is not None:
        parts.append(f"p = 2^{c.log2p:g}")
    if c.p_value is not None:
        parts.append(f"p = {c.p_value:g}")
    if c.log2w is not None:
        parts.append(f"w{c.w_label} = 2^{c.log2w:g}")
    if c.select is not None:
        parts.append(f"select = {c.select}")
    return f"\u2605 best: {', '.join(parts)}: {name} = {result.best.rate:.6g}"

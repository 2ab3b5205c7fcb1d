"""``-png``: the criterion over log2 C x log2 gamma as a filled contour plot, best cell marked.

matplotlib is an optional extra (``pip install 'svmeval[plot]'``); without it
:func:`plot_grid` writes one line to stderr and returns False, and the search's results stand.
One axis ``null``: a line plot over the other. With ``--log2p``: the C x gamma plane of the best
epsilon. The picture is drawn on a :class:`matplotlib.figure.Figure` with the Agg canvas, as
:mod:`svmeval.report.plot` draws its sheets: no display, no pyplot, no global backend switched.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from svmeval.io.output import atomic_path
from svmeval.report.plot import INSTALL_HINT, PlotUnavailable, figure_class

__all__ = ["INSTALL_HINT", "draw_grid", "plot_grid"]


def plot_grid(result, path: str, *, title: str = "") -> bool:
    """Draw ``result`` (a :class:`~svmeval.workflows.grid.GridResult`) to the PNG ``path``."""
    try:
        fig = draw_grid(result, title=title)
    except PlotUnavailable:
        sys.stderr.write(
            f"svmeval-grid: -png {path} not drawn: it needs matplotlib ({INSTALL_HINT})\n"
        )
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
    cells = [r for r in result.cells if r.cell.log2p == best.cell.log2p]
    figure = FIGURES.get(result.criterion)
    name = figure.title if figure else result.criterion
    unit = " (%)" if result.criterion == "accuracy" else ""
    direction = "higher is better" if result.greater_is_better else "lower is better"
    fig = Figure(figsize=(7.5, 6), dpi=110)
    ax = fig.subplots()
    if best.cell.log2c is not None and best.cell.log2g is not None:
        _plane(fig, ax, result, cells, f"{name}{unit}, {direction}")
    else:
        _line(ax, result, cells, f"{name}{unit}, {direction}")
    slice_note = "" if best.cell.log2p is None else f", log2(p) = {best.cell.log2p:g}"
    ax.set_title(
        f"{title}: {name}, {result.n_folds}-fold cross-validation{slice_note}\n"
        f"{_best_label(result, name)}",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


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


def _plane(fig, ax, result, cells, label: str) -> None:
    """The criterion over the C x gamma plane: filled contours, cells, the best one starred."""
    import matplotlib

    best = result.best
    cs = sorted({r.cell.log2c for r in cells})
    gs = sorted({r.cell.log2g for r in cells})
    z = np.full((len(gs), len(cs)), np.nan)
    for r in cells:
        z[gs.index(r.cell.log2g), cs.index(r.cell.log2c)] = r.value
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
    else:
        filled = ax.pcolormesh(cs, gs, masked, cmap=cmap, shading="nearest")
    fig.colorbar(filled, ax=ax).set_label(label)
    undefined = [(r.cell.log2c, r.cell.log2g) for r in cells if math.isnan(r.value)]
    if undefined:
        ax.plot(*zip(*undefined), "x", color="0.4", ms=5, label="undefined")
        ax.legend(loc="lower left", fontsize=8, framealpha=0.85)
    ax.plot(
        [r.cell.log2c for r in cells],
        [r.cell.log2g for r in cells],
        ".",
        color="w",
        ms=2,
        alpha=0.6,
    )
    ax.plot(best.cell.log2c, best.cell.log2g, "*", color="red", ms=16, mec="k")
    ax.set_xlabel("log2(C)")
    ax.set_ylabel("log2(gamma)")


def _line(ax, result, cells, label: str) -> None:
    """One axis searched: the criterion as a line over it, the best cell starred."""
    best = result.best
    axis = "log2c" if best.cell.log2c is not None else "log2g"
    xs = [getattr(r.cell, axis) for r in cells]
    order = np.argsort(xs)
    ax.plot(np.array(xs)[order], np.array([r.value for r in cells])[order], "o-")
    ax.plot(getattr(best.cell, axis), best.value, "*", color="red", ms=16, mec="k")
    ax.set_xlabel("log2(C)" if axis == "log2c" else "log2(gamma)")
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
    return f"\u2605 best: {', '.join(parts)}: {name} = {result.best.value:.6g}"

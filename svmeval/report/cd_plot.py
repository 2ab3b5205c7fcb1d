"""The critical-difference diagram of a :class:`~svmeval.workflows.benchmark.Benchmark` (Demšar 2006,
Figure 1): the average ranks on an axis from 1 (best, left) to k, each configuration's name at
the end of a line from its rank (the better half on the left, the rest on the right), a bar of
the length of Nemenyi's critical difference above the axis (where it is longer than the axis,
as with few data sets, an arrow to the axis's end, its label saying so), and thick bars joining the groups
of configurations whose average ranks lie within it (not significantly different).

Drawn on a :class:`matplotlib.figure.Figure` with the Agg canvas (no pyplot, no backend
switched), as :mod:`svmeval.report.plot`; without matplotlib :class:`PlotUnavailable`.
"""

from __future__ import annotations

from svmeval.report.plot import PlotUnavailable, check_path, figure_class

__all__ = ["PlotUnavailable", "draw_cd_diagram", "write_cd_diagram"]

_CHAR_INCHES = 0.075  # the width of one label character at the font size used


def _layout(bench):
    """(x of each label line end, y, side) per configuration in order of average rank."""
    k = len(bench.configurations)
    order = sorted(range(k), key=lambda j: (bench.ranks[j], j))
    left = order[: (k + 1) // 2]
    right = order[(k + 1) // 2 :][::-1]
    first = -0.6 - 0.25 * len(bench.cliques)
    rows = [(j, first - n, "left") for n, j in enumerate(left)]
    rows += [(j, first - n, "right") for n, j in enumerate(right)]
    return rows, first - max(len(left), len(right)) + 0.4


def _label(bench, j: int) -> str:
    return f"{bench.configurations[j]} ({bench.ranks[j]:.2f})"


def _axis(ax, k: int) -> None:
    ax.plot([1, k], [0, 0], color="black", linewidth=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.12], color="black", linewidth=1)
        ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize=9)
    for r in range(1, k):
        ax.plot([r + 0.5, r + 0.5], [0, 0.06], color="black", linewidth=0.7)


def _cd_bar(ax, bench, k: int) -> None:
    """The bar of the critical difference from rank 1; a difference longer than the axis
    (k - 1: no two average ranks can differ by it) ends at the axis's end in an arrow, its
    label saying so."""
    cd = bench.critical_difference
    end = min(1 + cd, k)
    ax.plot([1, 1], [0.93, 1.07], color="black", linewidth=1.5)
    if end < 1 + cd:  # the arrow's tip at the axis's end
        arrow = {
            "arrowstyle": "-|>",
            "color": "black",
            "linewidth": 1.5,
            "shrinkA": 0,
            "shrinkB": 0,
        }
        ax.annotate("", xy=(end, 1.0), xytext=(1, 1.0), arrowprops=arrow)
    else:
        ax.plot([1, end], [1.0, 1.0], color="black", linewidth=1.5)
        ax.plot([end, end], [0.93, 1.07], color="black", linewidth=1.5)
    longer = f" > {k - 1}, the axis" if end < 1 + cd else ""
    ax.text(
        (1 + end) / 2,
        1.12,
        f"CD = {cd:.2f}{longer} (α = {bench.level:g})",
        ha="center",
        va="bottom",
        fontsize=9,
    )


def draw_cd_diagram(bench, *, title: str | None = None):
    """The critical-difference diagram of ``bench`` as a :class:`matplotlib.figure.Figure`."""
    Figure = figure_class()
    k = len(bench.configurations)
    rows, bottom = _layout(bench)
    label_inches = _CHAR_INCHES * max(len(_label(bench, j)) for j in range(k)) + 0.3
    axis_inches = max(3.0, 0.7 * k)
    width = axis_inches + 2 * label_inches
    height = 0.3 * (1.8 - bottom) + (0.4 if title else 0.1)
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes(
        (label_inches / width, 0.02, axis_inches / width, 0.96 - (0.4 / height if title else 0))
    )
    ax.set_xlim(1 - 0.05 * k, k + 0.05 * k)
    ax.set_ylim(bottom, 1.6)
    ax.set_axis_off()
    _axis(ax, k)
    _cd_bar(ax, bench, k)
    for n, group in enumerate(bench.cliques):
        ranks = [bench.ranks[j] for j in group]
        y = -0.3 - 0.25 * n
        ax.plot(
            [min(ranks) - 0.03, max(ranks) + 0.03],
            [y, y],
            color="black",
            linewidth=3.5,
            solid_capstyle="butt",
        )
    x_left, x_right = ax.get_xlim()
    for j, y, side in rows:
        r = bench.ranks[j]
        end = x_left if side == "left" else x_right
        ax.plot([r, r, end], [0, y, y], color="black", linewidth=0.9)
        ax.text(
            end + (-0.02 if side == "left" else 0.02) * k,
            y,
            _label(bench, j),
            ha="right" if side == "left" else "left",
            va="center",
            fontsize=9,
            clip_on=False,
        )
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def write_cd_diagram(path: str, bench, *, title: str | None = None) -> None:
    """Draw the diagram of ``bench`` and write it to ``path`` (PNG, SVG or PDF by suffix),
    atomically."""
    fmt = check_path(path)
    fig = draw_cd_diagram(bench, title=title)
    from svmeval.io.output import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=130)

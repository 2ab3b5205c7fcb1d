"""The posterior of the Bayesian signed-rank test over data sets as a simplex (baycomp's
``plot_simplex``): for each pair of configurations of a
:class:`~svmeval.workflows.benchmark.Benchmark` with the test (a rope and two or more data
sets), a triangle whose corners are "A better" (B - A below -rope, left), "practically
equivalent" (within the rope, top) and "B better" (right), and one point per Monte-Carlo
draw: its (theta_left, theta_rope, theta_right) in barycentric coordinates
(:func:`~svmeval.stats.bayesian.signed_rank_posterior`, the same draws as the test's, so the
share of points in each corner's region, split by the lines from the centre to the edges'
midpoints, is that corner's probability). At most :data:`MAX_POINTS` draws are drawn (the
first ones); the probabilities written at the corners are the test's, over every draw.

Drawn on a :class:`matplotlib.figure.Figure` without pyplot, as :mod:`svmeval.report.plot`;
without matplotlib :class:`~svmeval.report.plot.PlotUnavailable`.
"""

from __future__ import annotations

import math

import numpy as np

from svmeval.errors import SvmevalError
from svmeval.report.plot import figure_class

__all__ = ["MAX_PAIRS", "MAX_POINTS", "draw_simplex", "simplex_points"]

#: draws shown per pair (the first ones)
MAX_POINTS = 1500
#: pairs drawn (the first ones, in the report's order)
MAX_PAIRS = 6

_CORNERS = np.array([[0.0, 0.0], [0.5, math.sqrt(3) / 2], [1.0, 0.0]])  # left, rope, right
_COLORS = ("#c0392b", "#7f8c8d", "#1f5fa8")


def simplex_points(bench, pair) -> np.ndarray:
    """The draws of ``pair``'s signed-rank test (rows theta_left, theta_rope, theta_right),
    recomputed from the benchmark's per-data-set means with the test's rope, prior, count and
    seed."""
    test = pair.signed_rank
    if test is None:
        raise SvmevalError(f"{pair.a} and {pair.b} have no signed-rank test (a rope is needed)")
    from svmeval.stats.bayesian import signed_rank_posterior

    a = bench.configurations.index(pair.a)
    b = bench.configurations.index(pair.b)
    return signed_rank_posterior(
        bench.mean[:, a],
        bench.mean[:, b],
        rope=test.rope,
        prior=test.prior,
        draws=test.draws,
        seed=test.seed,
    )


def draw_simplex(bench, *, title: str | None = None):
    """The simplex of each pair with a signed-rank test (module notes), side by side."""
    pairs = [p for p in bench.pairs if p.signed_rank is not None][:MAX_PAIRS]
    if not pairs:
        raise SvmevalError(
            "the benchmark has no Bayesian signed-rank test (a rope and two or more data sets)"
        )
    Figure = figure_class()
    cols = min(3, len(pairs))
    rows = -(-len(pairs) // cols)
    fig = Figure(figsize=(4.2 * cols, 4.0 * rows + 0.5))
    for k, pair in enumerate(pairs):
        ax = fig.add_subplot(rows, cols, k + 1)
        _one(ax, bench, pair)
    shown = len([p for p in bench.pairs if p.signed_rank is not None])
    first = pairs[0].signed_rank
    fig.suptitle(
        title
        if title is not None
        else (
            f"Bayesian signed-rank test over {first.n} data sets: rope ±{first.rope:g}, "
            f"{min(first.draws, MAX_POINTS):,} of {first.draws:,} draws shown (seed {first.seed})"
            + (f"; the first {len(pairs)} of {shown} pairs" if shown > len(pairs) else "")
        ),
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def _one(ax, bench, pair) -> None:
    test = pair.signed_rank
    thetas = simplex_points(bench, pair)[:MAX_POINTS]
    xy = thetas @ _CORNERS
    winner = np.argmax(thetas, axis=1)
    for c in range(3):
        mine = xy[winner == c]
        if len(mine):
            ax.scatter(
                mine[:, 0], mine[:, 1], s=9, alpha=0.45, color=_COLORS[c], linewidths=0, zorder=3
            )
    ax.plot(*np.vstack([_CORNERS, _CORNERS[:1]]).T, color="black", linewidth=1)
    centre = _CORNERS.mean(axis=0)
    for i, j in ((0, 1), (1, 2), (2, 0)):  # the regions where one theta is the largest
        middle = (_CORNERS[i] + _CORNERS[j]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color="black", linewidth=0.6)
    probs = (test.p_left, test.p_rope, test.p_right)
    texts = (f"{pair.a}\nbetter", "practically\nequivalent", f"{pair.b}\nbetter")
    places = (
        (-0.04, -0.07, "left", "top"),
        (0.5, 0.9, "center", "bottom"),
        (1.04, -0.07, "right", "top"),
    )
    for (x, y, ha, va), text, p, color in zip(places, texts, probs, _COLORS):
        ax.text(x, y, f"{_short(text)}\np = {p:.3f}", ha=ha, va=va, fontsize=8, color=color)
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.25, 1.08)
    ax.set_aspect("equal")
    ax.axis("off")


def _short(text: str, width: int = 22) -> str:
    return "\n".join(
        line if len(line) <= width else line[: width - 1] + "…" for line in text.split("\n")
    )

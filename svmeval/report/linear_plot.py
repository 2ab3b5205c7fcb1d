"""The picture of LIBLINEAR's warm-started search over C (``svmeval-linear -C --plot FILE``):
each figure of the table against log2(C), the best C by the criterion marked; for ``-s 11``
the mean squared error against log2(C), one line per p."""

from __future__ import annotations

import math

from svmeval.io.output import atomic_path
from svmeval.report.plot import check_path, figure_class

__all__ = ["draw_search", "write_search_plot"]

#: the figures drawn: classification, regression
DRAWN = {False: ("accuracy", "macro_f1", "mcc", "kappa", "balanced_accuracy"), True: ("mse",)}


def draw_search(search, figures: list, *, criterion=None, best=None, title: str = ""):
    """The picture as a :class:`matplotlib.figure.Figure` (``figures``: each step's figures,
    ``best``: the step the criterion picks, or None). Raises
    :class:`~svmeval.report.plot.PlotUnavailable` without matplotlib."""
    from svmeval.metrics.figures import FIGURES

    Figure = figure_class()
    fig = Figure(figsize=(7.5, 4.6), dpi=110)
    ax = fig.subplots()
    regression = search.params.solver_type == 11
    x = [_log2(step.C) for step in search.steps]
    if regression:
        for p in sorted({step.p for step in search.steps}, reverse=True):
            at = [i for i, step in enumerate(search.steps) if step.p == p]
            ax.plot([x[i] for i in at], [figures[i]["mse"] for i in at], label=f"p = {p:g}")
        ax.set_ylabel("mean squared error (lower is better)")
    else:
        names = list(DRAWN[False])
        if criterion is not None and criterion not in names:
            names.append(criterion)
        for name in names:
            ax.plot(x, [figures[i].get(name, math.nan) for i in range(len(x))], label=name)
        ax.set_ylabel("figure (higher is better)")
    if best is not None:
        step, value = best
        shown = FIGURES[criterion].title if criterion in FIGURES else criterion
        ax.axvline(_log2(step.C), color="0.5", linestyle=":", linewidth=1)
        ax.annotate(f"best {shown}: C = {step.C:g}", (_log2(step.C), value), fontsize=8)
    ax.set_xlabel("log2(C)")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(
        f"{title}LIBLINEAR's warm-started search, {search.n_folds}-fold cross-validation",
        fontsize=9,
    )
    return fig


def write_search_plot(path: str, search, figures: list, **kwargs) -> None:
    """Draw the search and write it to ``path`` (PNG, SVG or PDF by suffix), atomically."""
    fmt = check_path(path)
    fig = draw_search(search, figures, **kwargs)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=110)


def _log2(C: float) -> float:
    return math.log(C) / math.log(2.0) if C > 0 else -math.inf

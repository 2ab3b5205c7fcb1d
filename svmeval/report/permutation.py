"""The report of a :class:`~svmeval.workflows.permutation.PermutationTest`: text (the observed
figure, p with its counts, the null distribution's mean, sd and quantiles, how the folds were
drawn), json (:meth:`PermutationTest.to_dict`, every permutation's figure included) and csv
(``name,value`` rows, the permutations' figures left to json and ``to_frame``)."""

from __future__ import annotations

import csv
import io
import json
import math

from svmeval.metrics.figures import FIGURES
from svmeval.report._layout import wrap
from svmeval.report._views import View

__all__ = ["render"]


def render(test, format: str = "text", digits: int = 4) -> str:
    """The report of a permutation test in ``format`` (text, json or csv; its HTML page is
    :mod:`svmeval.report.html`'s)."""
    if format == "json":
        return json.dumps(test.to_dict(), indent=2, allow_nan=False) + "\n"
    if format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("name", "value"))
        for key, value in test.to_dict().items():
            if key == "null_quantiles":
                for q, v in value.items():
                    w.writerow((f"null_quantile_{q}", "" if v is None else repr(v)))
            elif key != "permuted":
                shown = "" if value is None else repr(value) if isinstance(value, float) else value
                w.writerow((key, shown))
        return buf.getvalue()
    f = FIGURES[test.criterion]
    direction = ">=" if test.greater_is_better else "<="
    q = test.quantiles

    def num(v: float) -> str:
        return "n/a" if math.isnan(v) else f"{v:.{digits}f}"

    lines = [
        f"Permutation test of {f.title} ({test.permutations:,} permutations of the labels, "
        f"seed {test.seed})",
        f"  observed {f.title}: {num(test.observed)} ({test.n_folds}-fold cross-validation)",
        f"  p = (1 + {test.beyond}) / ({test.permutations} + 1) = {test.p:.4g}   "
        f"(permutations {direction} observed)",
        f"  null distribution: mean {num(test.null_mean)}, sd {num(test.null_sd)}",
        "  quantiles: " + ", ".join(f"{100 * k:g}% {num(v)}" for k, v in q.items()),
    ]
    if getattr(test, "preprocessing", ""):  # each CV's folds learned it, permutations too
        lines += wrap(
            f"  learned on each fold's training rows, in every cross-validation: "
            f"{test.preprocessing}"
        )
    if test.degenerate:  # one value: p can only say on which side of it the figure lies
        lines += wrap(
            f"  the test cannot tell anything here: every permutation gave {f.title} "
            f"{num(test.null_mean)} (sd 0, every quantile equal), as when each fold "
            "predicts one class for every sample, so p only says whether the observed "
            "figure passes that one value, not how unlikely it is by chance; options "
            "under which the folds learn from the labels (-c, -g, a class weight -wi) "
            "let it tell"
        )
    if getattr(test, "design", ""):
        lines += wrap(
            f"({test.design}" + ("; the kernel matrix shared)" if test.shared_kernel else ")")
        )
        return "\n".join(lines) + "\n"
    if str(getattr(test, "options", "")).startswith("linear:"):  # LIBLINEAR's configuration
        lines += wrap(
            "(each permutation's folds are LIBSVM's draw from the permuted labels after "
            f"srand({test.seed}); LIBLINEAR's train learns each fold after srand({test.seed}))"
        )
        return "\n".join(lines) + "\n"
    lines += wrap(
        "(each permutation's folds are LIBSVM's, drawn from the permuted labels after "
        f"srand({test.seed}): svm-train -v {test.n_folds} of a file with those labels"
        + (
            "; the kernel matrix computed once per process and shared)"
            if test.shared_kernel
            else ")"
        )
    )
    return "\n".join(lines) + "\n"


def draw_null_distribution(test, *, title: str | None = None):
    """The null distribution of a permutation test (a histogram of the permutations'
    figures, undefined ones left out) with the observed figure as a vertical line, as a
    :class:`matplotlib.figure.Figure`."""
    import numpy as np

    from svmeval.report.plot import figure_class

    Figure = figure_class()
    fig = Figure(figsize=(6.0, 3.6))
    ax = fig.add_subplot(1, 1, 1)
    values = test.permuted[~np.isnan(test.permuted)]
    bins = min(50, max(5, int(np.sqrt(len(values))) + 1))
    ax.hist(values, bins=bins, color="#9ab", edgecolor="white", label="permuted labels")
    ax.axvline(test.observed, color="#c33", linewidth=2, label=f"observed {test.observed:.4g}")
    name = FIGURES[test.criterion].title
    ax.set_xlabel(name)
    ax.set_ylabel("permutations")
    ax.legend(loc="best", frameon=False)
    ax.set_title(
        title
        if title is not None
        else f"{name}: {test.permutations:,} permutations, p = {test.p:.3g}"
    )
    fig.tight_layout()
    return fig


# --- the view of a PermutationTest (svmeval.report._views) -----------------------------------
def _describe(result) -> tuple[str, str]:
    return f"Permutation test on {result.data_name or 'data'}", (
        f"{result.permutations:,} permutations of the labels, {result.n_folds}-fold CV each, "
        f"seed {result.seed}; {result.options or 'svm-train defaults'}; "
        f"criterion {result.criterion}"
    )


def _pictures(result, svg, arrays):
    from svmeval.report import pictures
    from svmeval.report.svg import Picture

    yield Picture(
        "The null distribution: the permutations' figures, the observed one as the red line",
        svg(pictures.plot(result)),
    )


VIEW = View(
    render=lambda result, format, digits, full: render(result, format=format, digits=digits),
    describe=_describe,
    text=lambda result, digits: render(result, format="text", digits=digits),
    pictures=_pictures,
    figure=lambda result, title, pos_label, zero_division: draw_null_distribution(
        result, title=title
    ),
)

"""Pictures of a run: one figure sheet (PNG, SVG or PDF by the file's suffix).

* classification: the confusion matrix as counts and row-normalised (each row's recall on the
  diagonal); ROC and precision-recall curves from the CV scores (the positive class for two
  classes; every class one-vs-rest plus the micro average for more); the per-fold figures as
  points with their mean ± sd and the pooled value; with ``-b 1`` probabilities the
  reliability diagram (per class for two classes, top-label for more) over the bins' counts;
* regression: predicted against true values, the residuals, the per-fold MSE and squared
  correlation;
* multi-label: per-label F1 and average precision as bars, and the per-fold figures.

matplotlib is imported only here, and only when a sheet is drawn (the optional extra
``svmeval[plot]``). The sheet is drawn on a :class:`matplotlib.figure.Figure` with the Agg
canvas: no display, no pyplot, no global backend switched.
"""

from __future__ import annotations

import math
import os

import numpy as np

from svmeval.errors import SvmevalError
from svmeval.params import params_flags
from svmeval.report.panels import (
    confusion_panels,
    curve_panels,
    fold_panel,
    fold_series_panel,
    label,
    reliability_panel,
)

__all__ = [
    "PlotUnavailable",
    "SUFFIXES",
    "check_path",
    "draw_sheet",
    "figure_class",
    "params_flags",
    "result_arrays",
    "sheet_title",
    "write_sheet",
]

SUFFIXES = (".png", ".svg", ".pdf")


class PlotUnavailable(SvmevalError):
    """matplotlib is not installed."""


def check_path(path: str) -> str:
    """The format of a sheet file from its suffix ("png", "svg", "pdf"), or an error."""
    name = os.path.basename(path)
    suffix = os.path.splitext(name)[1].lower()
    if not suffix and name.lower() in SUFFIXES:  # ".png": a suffix with no name before it
        raise SvmevalError(f"{path}: the picture's file name has nothing before {name}")
    if suffix not in SUFFIXES:
        raise SvmevalError(f"{path}: the picture's name must end in {', '.join(SUFFIXES)}")
    return suffix[1:]


def figure_class():
    try:
        from matplotlib.figure import Figure
    except ImportError:
        from svmeval._extras import install_command

        raise PlotUnavailable(
            f"pictures need matplotlib, which is not installed: {install_command('plot')}"
        ) from None
    return Figure


def sheet_title(summary, *, options: str | None = None) -> str:
    """The sheet's title: the data set, the options and the run."""
    meta = summary.meta
    name = os.path.basename(str(meta.get("data_file") or "")) or "data"
    if options is None:
        options = params_flags(meta.get("parameters") or {})
    if meta.get("mode") == "score":
        run = f"predictions {os.path.basename(str(meta.get('predictions_file', '')))}"
    else:
        run = f"{meta.get('n_folds', '?')}-fold CV, seed {meta.get('seed', 1)}"
        if (meta.get("repeat") or 1) > 1:
            run += f", {meta['repeat']} repetitions (pictures: the first)"
    parts = [f"{name} ({summary.n_samples} samples)", options or "svm-train defaults", run]
    return "  ·  ".join(parts)


def result_arrays(result) -> dict:
    """The per-sample arrays of a CV result a sheet draws from (class scores: the -b 1
    probabilities when there are any, else the decision-value scores)."""
    if hasattr(result, "Y_true"):  # multi-label: the summary holds what the sheet draws
        return {}
    out = {"y_true": result.y_true, "y_pred": result.y_pred}
    scores = result.probabilities if result.probabilities is not None else result.scores
    if scores is not None and len(result.labels) >= 2 and np.isfinite(scores).all():
        out["scores"] = scores
        out["score_labels"] = result.labels
        out["score_source"] = (
            "probabilities" if result.probabilities is not None else "decision values"
        )
    return out


def _classification(Figure, summary, arrays):
    c = summary.classification
    k = len(c.labels)
    has_curves = (
        arrays.get("scores") is not None
        and arrays.get("y_true") is not None
        and np.isin(arrays["y_true"], arrays.get("score_labels", ())).all()
    )
    has_folds = bool(summary.fold_figures)
    has_calibration = bool(summary.calibration)
    big = k > 10
    ratios = [1.0, 1.0] + [0.9] * has_calibration + [0.8] * has_folds
    extra = 5.5 * has_calibration
    if has_curves:
        height = 12 if big else 10.5
        fig = Figure(layout="constrained", figsize=((19 if big else 17) + extra, height))
        grid = fig.add_gridspec(
            2, len(ratios), width_ratios=ratios if has_folds or has_calibration else None
        )
        axes = (
            fig.add_subplot(grid[0, 0]),
            fig.add_subplot(grid[0, 1]),
            fig.add_subplot(grid[1, 0]),
            fig.add_subplot(grid[1, 1]),
        )
        confusion_panels(fig, axes[0], axes[1], summary)
        curve_panels(
            axes[2],
            axes[3],
            summary,
            arrays["y_true"],
            arrays["scores"],
            arrays["score_labels"],
            arrays.get("score_source", "scores"),
            arrays.get("points"),
        )
        column = grid[:, 2] if has_calibration else None
        fold_ax = fig.add_subplot(grid[:, -1]) if has_folds else None
    else:
        fig = Figure(layout="constrained", figsize=((19 if big else 16) + extra, 8 if big else 6.5))
        grid = fig.add_gridspec(1, len(ratios), width_ratios=ratios)
        a0, a1 = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
        confusion_panels(fig, a0, a1, summary)
        column = grid[0, 2] if has_calibration else None
        fold_ax = fig.add_subplot(grid[0, -1]) if has_folds else None
    if column is not None:
        inner = column.subgridspec(2, 1, height_ratios=(2.4, 1))
        ax_curve = fig.add_subplot(inner[0])
        reliability_panel(ax_curve, fig.add_subplot(inner[1], sharex=ax_curve), summary)
    if fold_ax is not None:
        fold_panel(fold_ax, summary, _on_unit_scale(summary))
    return fig


def _on_unit_scale(summary) -> list:
    """The figures the per-fold panel shows on its one axis: those whose pooled and per-fold
    values all lie in [-1, 1] (a log loss above 1 is left to the reliability diagram)."""
    out = []
    for name, pooled in summary.figures.items():
        values = [pooled] + [f.get(name, math.nan) for f in summary.fold_figures]
        if all(math.isnan(v) or -1.0 <= v <= 1.0 for v in values):
            out.append(name)
    return out


def _regression(Figure, summary, arrays):
    y_true = np.asarray(arrays["y_true"], dtype=np.float64)
    y_pred = np.asarray(arrays["y_pred"], dtype=np.float64)
    has_folds = bool(summary.fold_figures)
    fig = Figure(layout="constrained", figsize=(16, 10) if has_folds else (15, 6))
    grid = fig.add_gridspec(2 if has_folds else 1, 2, height_ratios=(1.6, 1) if has_folds else None)
    ax, ax_res = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    r = summary.regression
    ax.scatter(y_true, y_pred, s=10, alpha=0.5, color="tab:blue", edgecolors="none")
    lo = float(min(y_true.min(), y_pred.min()))
    hi = float(max(y_true.max(), y_pred.max()))
    ax.plot(
        [lo, hi], [lo, hi], color="black", linestyle="--", linewidth=1, label="predicted = true"
    )
    ax.set_xlabel("true value")
    ax.set_ylabel("predicted value (CV)" if summary.meta.get("mode") == "cv" else "predicted value")
    ax.set_title(
        f"predicted against true (MSE {r.mean_squared_error:.4g}, "
        f"squared correlation {r.squared_correlation:.4f})",
        fontsize=11,
    )
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    residual = y_pred - y_true
    ax_res.scatter(y_pred, residual, s=10, alpha=0.5, color="tab:blue", edgecolors="none")
    ax_res.axhline(0, color="black", linestyle="--", linewidth=1)
    ax_res.set_xlabel("predicted value")
    ax_res.set_ylabel("residual (predicted - true)")
    ax_res.set_title(
        f"residuals against predictions (mean {residual.mean():.4g}, sd {residual.std(ddof=1):.4g})"
        if len(residual) > 1
        else "residuals",
        fontsize=11,
    )
    ax_res.grid(alpha=0.3)
    if has_folds:
        # each figure on its own axis: MSE is in the data's units, the correlation in [0, 1]
        fold_series_panel(fig.add_subplot(grid[1, 0]), summary, "mse")
        fold_series_panel(fig.add_subplot(grid[1, 1]), summary, "scc")
    return fig


def _multilabel(Figure, summary, arrays):
    m = summary.multilabel
    names = [label(v) for v in summary.label_names]
    n = len(names)
    has_folds = bool(summary.fold_figures)
    fig = Figure(layout="constrained", figsize=(max(12.0, 0.45 * n + 8), 6.5))
    grid = fig.add_gridspec(1, 2 if has_folds else 1, width_ratios=(2.2, 1) if has_folds else None)
    ax = fig.add_subplot(grid[0, 0])
    x = np.arange(n)
    ap = summary.ranking.average_precision if summary.ranking is not None else None
    width = 0.4 if ap is not None else 0.7
    f1 = np.asarray(m.f1, dtype=np.float64)
    ax.bar(
        x - (width / 2 if ap is not None else 0),
        np.nan_to_num(f1),
        width,
        color="tab:blue",
        label="F1 (predicted label sets)",
    )
    if ap is not None:
        source = summary.ranking.source.replace("_", " ")
        ax.bar(
            x + width / 2,
            np.nan_to_num(np.asarray(ap, dtype=np.float64)),
            width,
            color="tab:orange",
            label=f"average precision (from the CV {source})",
        )
    for i, value in enumerate(f1):  # a bar of height 0 is invisible: say what it is
        if math.isnan(value) or value == 0:
            ax.text(
                x[i] - (width / 2 if ap is not None else 0),
                0.01,
                "n/a" if math.isnan(value) else "0",
                ha="center",
                va="bottom",
                fontsize=7,
                color="tab:blue",
            )
    support = np.asarray(m.support)
    ax.set_xticks(
        x, [f"{name}\n({int(s)})" for name, s in zip(names, support)], fontsize=8 if n <= 20 else 7
    )
    ax.set_xlabel("label (number of samples that have it)")
    ax.set_ylabel("value")
    ax.set_ylim(0, 1.08)
    ax.set_title("per-label F1 and average precision", fontsize=11)
    ax.legend(fontsize=8, loc="upper right", framealpha=0.9)
    ax.grid(axis="y", alpha=0.3)
    if has_folds:
        fold_panel(fig.add_subplot(grid[0, 1]), summary, list(summary.figures))
    return fig


def draw_sheet(summary, *, title: str | None = None, **arrays):
    """The figure sheet of ``summary`` as a :class:`matplotlib.figure.Figure`.

    ``arrays``: per-sample data the summary does not keep: ``y_true`` and ``y_pred``
    (regression, and the curves), ``scores`` with their column labels ``score_labels`` (the
    curves; without them a classification sheet shows the confusion matrix alone) and
    ``score_source`` (e.g. "probabilities"); :func:`result_arrays` gives them for a CV result;
    ``points``: operating points marked on the two-class curves
    (:func:`svmeval.report.threshold.operating_points`).
    Raises :class:`PlotUnavailable` without matplotlib."""
    Figure = figure_class()
    if summary.kind == "regression":
        if arrays.get("y_true") is None or arrays.get("y_pred") is None:
            raise SvmevalError("a regression sheet needs y_true and y_pred")
        fig = _regression(Figure, summary, arrays)
    elif summary.kind == "multilabel":
        fig = _multilabel(Figure, summary, arrays)
    else:
        fig = _classification(Figure, summary, arrays)
    fig.suptitle(title if title is not None else sheet_title(summary), fontsize=13)
    return fig


def write_sheet(path: str, summary, *, title: str | None = None, **arrays) -> None:
    """Draw the sheet of ``summary`` and write it to ``path`` (PNG, SVG or PDF by suffix),
    atomically."""
    fmt = check_path(path)
    fig = draw_sheet(summary, title=title, **arrays)
    from svmeval.io.output import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=110)

"""Pictures of a run: one figure sheet (PNG, SVG or PDF by the file's suffix).

* classification: the confusion matrix as counts and row-normalised (each row's recall on the
  diagonal); ROC and precision-recall curves from the CV scores (the positive class for two
  classes; every class one-vs-rest plus the micro average for more); the per-fold figures as
  points with their mean ± sd and the pooled value;
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

from ..errors import SvmevalError, show_label
from ..metrics.curves import precision_recall_curve, roc_curve
from ..metrics.figures import FIGURES
from ..metrics.ranking import average_precision_score, roc_auc_score

__all__ = ["INSTALL_HINT", "PlotUnavailable", "SUFFIXES", "check_path", "draw_sheet",
           "result_arrays", "sheet_title", "write_sheet"]

SUFFIXES = (".png", ".svg", ".pdf")
INSTALL_HINT = "pip install 'svmeval[plot]'"

#: at most this many classes get their own coloured, labelled curve; beyond it every class is a
#: thin grey line and only the micro average and the weakest classes are named
NAMED_CURVES = 10
#: the colours of the three classes with the lowest ROC AUC when there are more classes
WEAKEST_COLORS = ("tab:red", "tab:purple", "tab:orange")


class PlotUnavailable(SvmevalError):
    """matplotlib is not installed."""


def check_path(path: str) -> str:
    """The format of a sheet file from its suffix ("png", "svg", "pdf"), or an error."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise SvmevalError(f"{path}: the picture's name must end in {', '.join(SUFFIXES)}")
    return suffix[1:]


def _figure_class():
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailable(f"pictures need matplotlib: {INSTALL_HINT}") from None
    return Figure


def _label(value: float) -> str:
    return show_label(value)


def params_flags(parameters: dict) -> str:
    """svm-train's flags for the parameters that differ from its defaults."""
    from ..params import SvmParams
    default = SvmParams()
    flags = [("s", "svm_type"), ("t", "kernel_type"), ("d", "degree"), ("g", "gamma"),
             ("r", "coef0"), ("c", "C"), ("n", "nu"), ("p", "p"), ("e", "eps"),
             ("h", "shrinking"), ("b", "probability")]
    out = []
    for flag, name in flags:
        value = parameters.get(name)
        if value is not None and value != getattr(default, name):
            out.append(f"-{flag} {value:g}")
    for label, weight in parameters.get("weight", ()):
        out.append(f"-w{label:g} {weight:g}")
    return " ".join(out)


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
        out["score_source"] = ("probabilities" if result.probabilities is not None
                               else "decision values")
    return out


# --------------------------------------------------------------------------------------------
# Panels
# --------------------------------------------------------------------------------------------


def _tick_size(k: int) -> float:
    return 10 if k <= 10 else 8 if k <= 20 else 7


def _heatmap(fig, ax, matrix, labels, *, title, normalised):
    k = len(labels)
    shown = np.asarray(matrix, dtype=np.float64)
    image = ax.imshow(shown, cmap="Blues", vmin=0, vmax=1 if normalised else None,
                      interpolation="nearest", aspect="equal")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
    names = [_label(v) for v in labels]
    size = _tick_size(k)
    ax.set_xticks(range(k), names, fontsize=size, rotation=90 if k > 12 else 0)
    ax.set_yticks(range(k), names, fontsize=size)
    ax.set_xlabel("predicted label")
    ax.set_ylabel("true label")
    ax.set_title(title, fontsize=11)
    if k <= 12:
        top = np.nanmax(shown) if shown.size and np.isfinite(shown).any() else 1
        for i in range(k):
            for j in range(k):
                value = shown[i, j]
                if math.isnan(value):
                    text = "–"
                elif normalised:
                    text = f"{value:.2f}"
                else:
                    text = f"{int(value)}"
                ax.text(j, i, text, ha="center", va="center", fontsize=9 if k <= 6 else 7,
                        color="white" if value > 0.6 * top else "black")
    else:
        ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=0.4)
        ax.tick_params(which="minor", length=0)


def _confusion_panels(fig, ax_counts, ax_recall, summary):
    c = summary.classification
    matrix = np.asarray(c.confusion_matrix)
    _heatmap(fig, ax_counts, matrix, c.labels, title="confusion matrix (counts)",
             normalised=False)
    rows = matrix.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(rows > 0, matrix / rows, np.nan)
    _heatmap(fig, ax_recall, recall, c.labels,
             title="row-normalised (diagonal: each class's recall)", normalised=True)


def _curves(y_true, scores, score_labels, positive):
    """[(name, y, score)] of the one-vs-rest problems to draw, and the micro average's."""
    labels = np.asarray(score_labels, dtype=np.float64)
    if positive is not None:
        k = int(np.flatnonzero(labels == positive)[0])
        return [(_label(positive), (y_true == positive).astype(np.int8), scores[:, k])], None
    order = np.argsort(labels)
    problems = [(_label(labels[k]), (y_true == labels[k]).astype(np.int8), scores[:, k])
                for k in order]
    indicator = (y_true[:, None] == labels[None, :]).astype(np.int8)
    return problems, (indicator.ravel(), scores.ravel())


def _curve_panels(ax_roc, ax_pr, summary, y_true, scores, score_labels, source):
    y_true = np.asarray(y_true, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    problems, micro = _curves(y_true, scores, score_labels, summary.positive)
    many = len(problems) > NAMED_CURVES
    drawn = []
    for name, y, s in problems:
        if y.all() or not y.any():
            continue  # a class without true samples (or only them) has no curve
        auc = roc_auc_score(y, s, pos_label=1)
        ap = average_precision_score(y, s, pos_label=1)
        drawn.append((name, y, s, auc, ap))
    weakest = sorted(drawn, key=lambda d: d[3])[:3] if many else []
    colors = _colors(len(drawn))
    for (name, y, s, auc, ap), color in zip(drawn, colors):
        fpr, tpr, _ = roc_curve(y, s, pos_label=1)
        precision, recall, _ = precision_recall_curve(y, s, pos_label=1)
        what = f"positive class {name}" if summary.positive is not None else f"class {name}"
        if many:
            rank = next((i for i, w in enumerate(weakest) if w[0] == name), None)
            named = rank is not None
            style = dict(color=WEAKEST_COLORS[rank] if named else "0.6",
                         linewidth=1.3 if named else 0.6, alpha=1 if named else 0.7,
                         zorder=3 if named else 2)
            roc_label = f"class {name} (AUC {auc:.3f})" if named else None
            pr_label = f"class {name} (AP {ap:.3f})" if named else None
        else:
            style = dict(color=color, linewidth=1.6 if len(drawn) == 1 else 1.1)
            roc_label, pr_label = f"{what} (AUC {auc:.3f})", f"{what} (AP {ap:.3f})"
        ax_roc.plot(fpr, tpr, label=roc_label, **style)
        ax_pr.step(recall, precision, where="post", label=pr_label, **style)
    if many:  # one legend entry for all the grey lines
        other = f"the {len(drawn) - len(weakest)} other classes"
        ax_roc.plot([], [], color="0.6", linewidth=0.6, label=other)
        ax_pr.plot([], [], color="0.6", linewidth=0.6, label=other)
    if micro is not None:
        y, s = micro
        fpr, tpr, _ = roc_curve(y, s, pos_label=1)
        precision, recall, _ = precision_recall_curve(y, s, pos_label=1)
        ax_roc.plot(fpr, tpr, color="black", linewidth=2, linestyle="--",
                    label=f"micro average (AUC {roc_auc_score(y, s, pos_label=1):.3f})", zorder=4)
        ax_pr.step(recall, precision, where="post", color="black", linewidth=2, linestyle="--",
                   label=f"micro average (AP {average_precision_score(y, s, pos_label=1):.3f})",
                   zorder=4)
    ax_roc.plot([0, 1], [0, 1], color="0.75", linestyle=":", linewidth=1, label="chance")
    if summary.positive is not None and drawn:
        prevalence = drawn[0][1].mean()
        ax_pr.axhline(prevalence, color="0.75", linestyle=":", linewidth=1,
                      label=f"chance (prevalence {prevalence:.2f})")
    kind = "one-vs-rest" if summary.positive is None else "positive class"
    ax_roc.set_title(f"ROC ({kind}, from the CV {source})", fontsize=11)
    ax_roc.set_xlabel("false positive rate (1 - specificity)")
    ax_roc.set_ylabel("true positive rate (recall)")
    ax_pr.set_title(f"precision-recall ({kind}, from the CV {source})", fontsize=11)
    ax_pr.set_xlabel("recall")
    ax_pr.set_ylabel("precision")
    for ax in (ax_roc, ax_pr):
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right" if ax is ax_roc else "lower left",
                  framealpha=0.9)


def _colors(n: int):
    from matplotlib import colormaps
    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(n)]


def _fold_panel(ax, summary, names, *, title=None):
    """Per-fold values of ``names``: one row per figure, folds as points, mean ± sd, pooled."""
    folds = summary.fold_figures
    names = [n for n in names if any(not math.isnan(f.get(n, math.nan)) for f in folds)]
    rng = np.random.default_rng(0)  # jitter only, fixed: the same run draws the same picture
    for i, name in enumerate(names):
        values = np.array([f.get(name, math.nan) for f in folds], dtype=np.float64)
        values = values[~np.isnan(values)]
        y = i + rng.uniform(-0.15, 0.15, len(values))
        ax.scatter(values, y, s=16, color="tab:blue", alpha=0.7, zorder=3,
                   label="fold" if i == 0 else None)
        mean, sd = summary.fold_spread.get(name, (math.nan, math.nan))
        ax.errorbar([mean], [i - 0.32], xerr=[0 if math.isnan(sd) else sd], fmt="o",
                    color="black", markersize=4, capsize=3, zorder=4,
                    label="mean ± sd over folds" if i == 0 else None)
        pooled = summary.figures.get(name, math.nan)
        if not math.isnan(pooled):
            ax.scatter([pooled], [i + 0.32], marker="D", s=22, color="tab:orange", zorder=4,
                       label="pooled" if i == 0 else None)
    ax.set_yticks(range(len(names)), [FIGURES[n].title for n in names], fontsize=9)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or f"per-fold figures ({len(folds)} folds)", fontsize=11)
    if names:
        # below the tick labels: inside the axis it would hide points of the first rows
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0), borderaxespad=2.2,
                  ncol=3, frameon=False)


def _fold_series_panel(ax, summary, name):
    """One figure's value on each fold (x: the fold), its mean ± sd as a band, the pooled
    value as a line."""
    values = np.array([f.get(name, math.nan) for f in summary.fold_figures], dtype=np.float64)
    x = np.arange(1, len(values) + 1)
    mean, sd = summary.fold_spread.get(name, (math.nan, math.nan))
    if not math.isnan(sd):
        ax.axhspan(mean - sd, mean + sd, color="0.85", zorder=1, label="mean ± sd over folds")
    ax.axhline(mean, color="black", linewidth=1, zorder=2)
    pooled = summary.figures.get(name, math.nan)
    if not math.isnan(pooled):
        ax.axhline(pooled, color="tab:orange", linestyle="--", linewidth=1.2, zorder=2,
                   label=f"pooled ({pooled:.4g})")
    ax.plot(x, values, "o", color="tab:blue", zorder=3, label="fold")
    ax.set_xticks(x)
    ax.set_xlabel("fold")
    ax.set_ylabel(FIGURES[name].title)
    ax.set_title(f"{FIGURES[name].title} per fold (mean {mean:.4g} ± {sd:.4g})", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best", framealpha=0.9)


def _classification(Figure, summary, arrays):
    c = summary.classification
    k = len(c.labels)
    has_curves = (arrays.get("scores") is not None and arrays.get("y_true") is not None
                  and np.isin(arrays["y_true"], arrays.get("score_labels", ())).all())
    has_folds = bool(summary.fold_figures)
    big = k > 10
    if has_curves:
        fig = Figure(layout="constrained", figsize=(19, 12) if big else (17, 10.5))
        grid = fig.add_gridspec(2, 3 if has_folds else 2,
                                width_ratios=(1, 1, 0.8) if has_folds else None)
        axes = (fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]),
                fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1]))
        _confusion_panels(fig, axes[0], axes[1], summary)
        _curve_panels(axes[2], axes[3], summary, arrays["y_true"], arrays["scores"],
                      arrays["score_labels"], arrays.get("score_source", "scores"))
        fold_ax = fig.add_subplot(grid[:, 2]) if has_folds else None
    else:
        fig = Figure(layout="constrained", figsize=(19, 8) if big else (16, 6.5))
        grid = fig.add_gridspec(1, 3 if has_folds else 2)
        a0, a1 = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
        _confusion_panels(fig, a0, a1, summary)
        fold_ax = fig.add_subplot(grid[0, 2]) if has_folds else None
    if fold_ax is not None:
        _fold_panel(fold_ax, summary, list(summary.figures))
    return fig


def _regression(Figure, summary, arrays):
    y_true = np.asarray(arrays["y_true"], dtype=np.float64)
    y_pred = np.asarray(arrays["y_pred"], dtype=np.float64)
    has_folds = bool(summary.fold_figures)
    fig = Figure(layout="constrained", figsize=(16, 10) if has_folds else (15, 6))
    grid = fig.add_gridspec(2 if has_folds else 1, 2,
                            height_ratios=(1.6, 1) if has_folds else None)
    ax, ax_res = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    r = summary.regression
    ax.scatter(y_true, y_pred, s=10, alpha=0.5, color="tab:blue", edgecolors="none")
    lo = float(min(y_true.min(), y_pred.min()))
    hi = float(max(y_true.max(), y_pred.max()))
    ax.plot([lo, hi], [lo, hi], color="black", linestyle="--", linewidth=1,
            label="predicted = true")
    ax.set_xlabel("true value")
    ax.set_ylabel("predicted value (CV)" if summary.meta.get("mode") == "cv"
                  else "predicted value")
    ax.set_title(f"predicted against true (MSE {r.mean_squared_error:.4g}, "
                 f"squared correlation {r.squared_correlation:.4f})", fontsize=11)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    residual = y_pred - y_true
    ax_res.scatter(y_pred, residual, s=10, alpha=0.5, color="tab:blue", edgecolors="none")
    ax_res.axhline(0, color="black", linestyle="--", linewidth=1)
    ax_res.set_xlabel("predicted value")
    ax_res.set_ylabel("residual (predicted - true)")
    ax_res.set_title(f"residuals against predictions (mean {residual.mean():.4g}, "
                     f"sd {residual.std(ddof=1):.4g})" if len(residual) > 1 else "residuals",
                     fontsize=11)
    ax_res.grid(alpha=0.3)
    if has_folds:
        # each figure on its own axis: MSE is in the data's units, the correlation in [0, 1]
        _fold_series_panel(fig.add_subplot(grid[1, 0]), summary, "mse")
        _fold_series_panel(fig.add_subplot(grid[1, 1]), summary, "scc")
    return fig


def _multilabel(Figure, summary, arrays):
    m = summary.multilabel
    names = [_label(v) for v in summary.label_names]
    n = len(names)
    has_folds = bool(summary.fold_figures)
    fig = Figure(layout="constrained", figsize=(max(12.0, 0.45 * n + 8), 6.5))
    grid = fig.add_gridspec(1, 2 if has_folds else 1, width_ratios=(2.2, 1) if has_folds else None)
    ax = fig.add_subplot(grid[0, 0])
    x = np.arange(n)
    ap = summary.ranking.average_precision if summary.ranking is not None else None
    width = 0.4 if ap is not None else 0.7
    f1 = np.asarray(m.f1, dtype=np.float64)
    ax.bar(x - (width / 2 if ap is not None else 0), np.nan_to_num(f1), width,
           color="tab:blue", label="F1 (predicted label sets)")
    if ap is not None:
        source = summary.ranking.source.replace("_", " ")
        ax.bar(x + width / 2, np.nan_to_num(np.asarray(ap, dtype=np.float64)), width,
               color="tab:orange", label=f"average precision (from the CV {source})")
    for i, value in enumerate(f1):  # a bar of height 0 is invisible: say what it is
        if math.isnan(value) or value == 0:
            ax.text(x[i] - (width / 2 if ap is not None else 0), 0.01,
                    "n/a" if math.isnan(value) else "0", ha="center", va="bottom",
                    fontsize=7, color="tab:blue")
    support = np.asarray(m.support)
    ax.set_xticks(x, [f"{name}\n({int(s)})" for name, s in zip(names, support)],
                  fontsize=8 if n <= 20 else 7)
    ax.set_xlabel("label (number of samples that have it)")
    ax.set_ylabel("value")
    ax.set_ylim(0, 1.08)
    ax.set_title("per-label F1 and average precision", fontsize=11)
    ax.legend(fontsize=8, loc="upper right", framealpha=0.9)
    ax.grid(axis="y", alpha=0.3)
    if has_folds:
        _fold_panel(fig.add_subplot(grid[0, 1]), summary, list(summary.figures))
    return fig


def draw_sheet(summary, *, title: str | None = None, **arrays):
    """The figure sheet of ``summary`` as a :class:`matplotlib.figure.Figure`.

    ``arrays``: per-sample data the summary does not keep: ``y_true`` and ``y_pred``
    (regression, and the curves), ``scores`` with their column labels ``score_labels`` (the
    curves; without them a classification sheet shows the confusion matrix alone) and
    ``score_source`` (e.g. "probabilities"); :func:`result_arrays` gives them for a CV result.
    Raises :class:`PlotUnavailable` without matplotlib."""
    Figure = _figure_class()
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
    from ..io.output import atomic_path
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=110)

"""The panels of a figure sheet (:mod:`svmeval.report.plot` lays them out): the confusion
matrices, the ROC and precision-recall curves, the per-fold figures. Each draws on the axes it is
given; matplotlib itself is imported by the caller."""

from __future__ import annotations

import math

import numpy as np

from svmeval._classes import show_class
from svmeval.errors import show_label
from svmeval.metrics.curves import precision_recall_curve, roc_curve
from svmeval.metrics.figures import FIGURES
from svmeval.metrics.ranking import average_precision, roc_auc

#: at most this many classes get their own coloured, labelled curve; beyond it every class is a
#: thin grey line and only the micro average and the weakest classes are named
NAMED_CURVES = 10
#: the colours of the three classes with the lowest ROC AUC when there are more classes
WEAKEST_COLORS = ("tab:red", "tab:purple", "tab:orange")


def label(value: float | str) -> str:
    """A class on a picture: a label's text as given (a user's class), a number as
    :func:`~svmeval.errors.show_label` prints it."""
    return value if isinstance(value, str) else show_label(value)


def _tick_size(k: int) -> float:
    return 10 if k <= 10 else 8 if k <= 20 else 7


def heatmap(fig, ax, matrix, labels, *, title, normalised):
    k = len(labels)
    shown = np.asarray(matrix, dtype=np.float64)
    image = ax.imshow(
        shown,
        cmap="Blues",
        vmin=0,
        vmax=1 if normalised else None,
        interpolation="nearest",
        aspect="equal",
    )
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
    names = [label(v) for v in labels]
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
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=9 if k <= 6 else 7,
                    color="white" if value > 0.6 * top else "black",
                )
    else:
        ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=0.4)
        ax.tick_params(which="minor", length=0)


def confusion_panels(fig, ax_counts, ax_recall, summary):
    c = summary.classification
    matrix = np.asarray(c.confusion_matrix)
    names = [summary.show_class(v) for v in c.labels]
    heatmap(fig, ax_counts, matrix, names, title="confusion matrix (counts)", normalised=False)
    rows = matrix.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(rows > 0, matrix / rows, np.nan)
    heatmap(
        fig,
        ax_recall,
        recall,
        names,
        title="row-normalised (diagonal: each class's recall)",
        normalised=True,
    )


def _curves(y_true, scores, score_labels, positive, classes=None):
    """[(name, y, score)] of the one-vs-rest problems to draw, and the micro average's
    (``classes``: the user's labels of the classes, a Summary's ``classes``)."""
    labels = np.asarray(score_labels, dtype=np.float64)
    if positive is not None:
        k = int(np.flatnonzero(labels == positive)[0])
        name = show_class(positive, classes)
        return [(name, (y_true == positive).astype(np.int8), scores[:, k])], None
    order = np.argsort(labels)
    problems = [
        (show_class(labels[k], classes), (y_true == labels[k]).astype(np.int8), scores[:, k])
        for k in order
    ]
    indicator = (y_true[:, None] == labels[None, :]).astype(np.int8)
    return problems, (indicator.ravel(), scores.ravel())


def curve_panels(ax_roc, ax_pr, summary, y_true, scores, score_labels, source, points=None):
    """The ROC and precision-recall curves; ``points``: operating points to mark on them
    (two classes), each a dict with ``name``, ``fpr``, ``tpr``, ``recall``, ``precision``
    (:func:`svmeval.report.threshold.operating_points`)."""
    y_true = np.asarray(y_true, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    problems, micro = _curves(y_true, scores, score_labels, summary.positive, summary.classes)
    many = len(problems) > NAMED_CURVES
    drawn = []
    for name, y, s in problems:
        if y.all() or not y.any():
            continue  # a class without true samples (or only them) has no curve
        auc = roc_auc(y, s, pos_label=1)
        ap = average_precision(y, s, pos_label=1)
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
            style = dict(
                color=WEAKEST_COLORS[rank] if rank is not None else "0.6",
                linewidth=1.3 if named else 0.6,
                alpha=1 if named else 0.7,
                zorder=3 if named else 2,
            )
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
        _micro_curves(ax_roc, ax_pr, *micro)
    ax_roc.plot([0, 1], [0, 1], color="0.75", linestyle=":", linewidth=1, label="chance")
    if summary.positive is not None and drawn:
        prevalence = drawn[0][1].mean()
        ax_pr.axhline(
            prevalence,
            color="0.75",
            linestyle=":",
            linewidth=1,
            label=f"chance (prevalence {prevalence:.2f})",
        )
    if points and summary.positive is not None:
        _mark_points(ax_roc, ax_pr, points)
    _dress_curve_axes(ax_roc, ax_pr, summary, source)


#: how the marked operating points are drawn, in their order (LIBSVM's, tuned, nested)
POINT_STYLES = (
    dict(marker="o", color="black", markersize=9, markerfacecolor="white", markeredgewidth=2),
    dict(marker="*", color="tab:red", markersize=15, markeredgecolor="black"),
    dict(marker="D", color="tab:green", markersize=8, markerfacecolor="none", markeredgewidth=2),
)


def _mark_points(ax_roc, ax_pr, points) -> None:
    for p, style in zip(points, POINT_STYLES):
        name = p["name"]
        ax_roc.plot([p["fpr"]], [p["tpr"]], linestyle="none", zorder=6, label=name, **style)
        if np.isnan(p["precision"]):  # nothing predicted positive: no precision to mark
            ax_pr.plot([], [], linestyle="none", label=f"{name}: none predicted positive", **style)
        else:
            ax_pr.plot(
                [p["recall"]], [p["precision"]], linestyle="none", zorder=6, label=name, **style
            )


def _micro_curves(ax_roc, ax_pr, y, s) -> None:
    """The micro average's curves: every class's (sample, class) scores pooled."""
    fpr, tpr, _ = roc_curve(y, s, pos_label=1)
    precision, recall, _ = precision_recall_curve(y, s, pos_label=1)
    ax_roc.plot(
        fpr,
        tpr,
        color="black",
        linewidth=2,
        linestyle="--",
        label=f"micro average (AUC {roc_auc(y, s, pos_label=1):.3f})",
        zorder=4,
    )
    ax_pr.step(
        recall,
        precision,
        where="post",
        color="black",
        linewidth=2,
        linestyle="--",
        label=f"micro average (AP {average_precision(y, s, pos_label=1):.3f})",
        zorder=4,
    )


def _dress_curve_axes(ax_roc, ax_pr, summary, source: str) -> None:
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
        ax.legend(fontsize=8, loc="lower right" if ax is ax_roc else "lower left", framealpha=0.9)


def _colors(n: int):
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(n)]


def fold_panel(ax, summary, names, *, title=None):
    """Per-fold values of ``names``: one row per figure, folds as points, mean ± sd, pooled."""
    folds = summary.fold_figures
    names = [n for n in names if any(not math.isnan(f.get(n, math.nan)) for f in folds)]
    rng = np.random.default_rng(0)  # jitter only, fixed: the same run draws the same picture
    for i, name in enumerate(names):
        values = np.array([f.get(name, math.nan) for f in folds], dtype=np.float64)
        values = values[~np.isnan(values)]
        y = i + rng.uniform(-0.15, 0.15, len(values))
        ax.scatter(
            values, y, s=16, color="tab:blue", alpha=0.7, zorder=3, label="fold" if i == 0 else None
        )
        mean, sd = summary.fold_spread.get(name, (math.nan, math.nan))
        ax.errorbar(
            [mean],
            [i - 0.32],
            xerr=[0 if math.isnan(sd) else sd],
            fmt="o",
            color="black",
            markersize=4,
            capsize=3,
            zorder=4,
            label="mean ± sd over folds" if i == 0 else None,
        )
        pooled = summary.figures.get(name, math.nan)
        if not math.isnan(pooled):
            ax.scatter(
                [pooled],
                [i + 0.32],
                marker="D",
                s=22,
                color="tab:orange",
                zorder=4,
                label="pooled" if i == 0 else None,
            )
    ax.set_yticks(range(len(names)), [FIGURES[n].title for n in names], fontsize=9)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or f"per-fold figures ({len(folds)} folds)", fontsize=11)
    if names:
        # below the tick labels: inside the axis it would hide points of the first rows
        ax.legend(
            fontsize=8,
            loc="upper center",
            bbox_to_anchor=(0.5, 0),
            borderaxespad=2.2,
            ncol=3,
            frameon=False,
        )


def fold_series_panel(ax, summary, name):
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
        ax.axhline(
            pooled,
            color="tab:orange",
            linestyle="--",
            linewidth=1.2,
            zorder=2,
            label=f"pooled ({pooled:.4g})",
        )
    ax.plot(x, values, "o", color="tab:blue", zorder=3, label="fold")
    ax.set_xticks(x)
    ax.set_xlabel("fold")
    ax.set_ylabel(FIGURES[name].title)
    ax.set_title(f"{FIGURES[name].title} per fold (mean {mean:.4g} ± {sd:.4g})", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best", framealpha=0.9)


def reliability_panel(ax_curve, ax_count, summary):
    """The reliability diagram of the ``-b 1`` probabilities (``summary.calibration``): the
    observed frequency against the mean predicted probability of each bin, the diagonal of
    perfect calibration, and beneath it each bin's number of samples (for two classes one curve
    and one set of bars per class; for more, the top-label confidence against accuracy)."""
    bins = summary.calibration
    two = len(bins) > 1
    colors = ("tab:blue", "tab:orange") if two else ("tab:blue",)
    ax_curve.plot(
        [0, 1], [0, 1], color="black", linestyle="--", linewidth=1, label="perfectly calibrated"
    )
    edges = bins[0].edges
    width = np.diff(edges)
    for j, (b, color) in enumerate(zip(bins, colors)):
        full = b.count > 0
        ax_curve.plot(
            b.mean_predicted[full],
            b.observed[full],
            "o-",
            color=color,
            markersize=4,
            label=b.what if two else "top-label: accuracy against confidence",
        )
        share = width / len(bins)
        left = edges[:-1] + j * share
        ax_count.bar(
            left,
            b.count,
            width=share,
            align="edge",
            color=color,
            alpha=0.8,
            label=b.what if two else None,
        )
        for x, n in zip(left + share / 2, b.count):
            if n:
                ax_count.text(x, n, str(int(n)), ha="center", va="bottom", fontsize=7)
    ax_curve.set_xlim(-0.02, 1.02)
    ax_curve.set_ylim(-0.02, 1.02)
    ax_curve.set_ylabel("observed frequency" if two else "accuracy")
    figs = summary.figures
    parts = [
        f"{FIGURES[n].title}"
        + (
            f" ({summary.show_class(summary.positive)})"
            if FIGURES[n].names_positive_class and two
            else ""
        )
        + f" {figs[n]:.4f}"
        for n in ("log_loss", "brier_score", "ece")
        if n in figs and not math.isnan(figs[n])
    ]
    ax_curve.set_title("reliability diagram (CV probabilities)\n" + ", ".join(parts), fontsize=11)
    ax_curve.grid(alpha=0.3)
    ax_curve.legend(fontsize=8, loc="best", framealpha=0.9)
    top = max(int(b.count.max()) for b in bins)
    ax_count.set_ylim(0, top * 1.25 + 1)
    ax_count.set_xticks(edges)
    ax_count.tick_params(axis="x", labelsize=8)
    ax_count.set_xlabel(
        "predicted probability (10 equal-width bins)"
        if two
        else "top-label confidence (10 equal-width bins)"
    )
    ax_count.set_ylabel("samples")
    ax_count.grid(axis="y", alpha=0.3)

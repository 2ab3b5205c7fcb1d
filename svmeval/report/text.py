"""The text report: svm-train's lines first (so grid.py and scripts that parse them still work),
then tables like scikit-learn's classification_report."""

from __future__ import annotations

import math
from collections.abc import Callable

from svmeval.errors import show_path
from svmeval.metrics.figures import FIGURES, figure_names
from svmeval.report._layout import split_columns, table, with_notes, wrap
from svmeval.report.svm_train import accuracy_lines, c_f1, c_g, label_text  # noqa: F401

AVERAGE_TITLES = {
    "macro": ("macro", "mean of per-class values"),
    "macro_harmonic": ("macro-harmonic", "F1 from macro P and R"),
    "micro": ("micro", "TP, FP, FN summed"),
    "weighted": ("weighted", "weighted by support"),
}


def g(value: float) -> str:
    """C printf's %g, with undefined values as n/a."""
    return "n/a" if math.isnan(value) else f"{value:g}"


def fixed(value: float, digits: int) -> str:
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def svm_train_lines(summary) -> str:
    """Exactly what svm-train (with the per-class patch for two classes) prints for -v: for
    two classes the patch's blocks, label 1 against every other label, headed ``+1`` and
    ``-1`` (:func:`~svmeval.metrics.two_class.patch_classes`); with a ``pos_label`` asked for,
    that class's block then the other's, each headed by its own label."""
    if summary.kind == "regression":
        r = summary.regression
        return (
            f"Cross Validation Mean squared error = {c_g(r.mean_squared_error)}\n"
            f"Cross Validation Squared correlation coefficient = {c_g(r.squared_correlation)}\n"
        )
    classes: tuple = ()
    c = summary.classification
    if summary.is_binary and summary.pos_label is None and summary.classes is None:
        # svm-train's data: the patch's blocks, label 1 against the rest
        from svmeval.metrics.two_class import patch_classes

        if 1.0 in c.labels:
            k = summary.class_index(1.0)
            classes = patch_classes(int(c.tp[k]), int(c.fp[k]), int(c.fn[k]), int(c.tn[k]))
        else:
            classes = patch_classes(0, 0, 0, summary.n_samples)
    elif summary.is_binary:  # a positive class chosen, or the user's own labels: each by name
        labels = (summary.positive, summary.negative)
        classes = tuple(
            (summary.class_name(v), float(c.precision[k]), float(c.recall[k]))
            for v, k in zip(labels, (summary.class_index(v) for v in labels))
        )
    return accuracy_lines(summary.accuracy_percent, classes)


def score_lines(summary) -> str:
    """svm-predict's lines for a predictions file scored against a data file."""
    if summary.kind == "regression":
        r = summary.regression
        return (
            f"Mean squared error = {c_g(r.mean_squared_error)} (regression)\n"
            f"Squared correlation coefficient = {c_g(r.squared_correlation)} (regression)\n"
        )
    return (
        f"Accuracy = {summary.accuracy_percent:g}% "
        f"({summary.correct}/{summary.n_samples}) (classification)\n"
    )


def classification_tables(summary, digits: int) -> str:
    from svmeval.metrics.classification import SINGLE_LABEL_AVERAGES

    c = summary.classification
    width = max(digits + 7, 11)
    names = [summary.show_class(v) for v in c.labels]
    first = max([18] + [len(n) for n in names])
    per_class = [
        ["precision", *(fixed(v, digits) for v in c.precision)],
        ["recall", *(fixed(v, digits) for v in c.recall)],
        ["F1", *(fixed(v, digits) for v in c.f1)],
        ["support", *(str(int(v)) for v in c.support)],
    ]
    lines = ["", *table(["class", *names], per_class, first, width), ""]
    averages = [c.averages[name] for name in SINGLE_LABEL_AVERAGES]
    rows = table(
        ["average", *(AVERAGE_TITLES[name][0] for name in SINGLE_LABEL_AVERAGES)],
        [
            [head, *(fixed(getattr(avg, field), digits) for avg in averages)]
            for head, field in (("precision", "precision"), ("recall", "recall"), ("F1", "f1"))
        ],
        first,
        width,
    )
    lines += with_notes(rows, [AVERAGE_TITLES[name] for name in SINGLE_LABEL_AVERAGES])
    if c.zero_division_applied:  # averages, and MCC when only one class is predicted or true
        policy = "left out" if math.isnan(c.zero_division) else f"counted as {c.zero_division:g}"
        lines += wrap(
            f"note: undefined per-class values (n/a) were {policy} in: "
            + ", ".join(c.zero_division_applied)
            + " (--zero-division)"
        )
    lines.append("")
    lines.append("confusion matrix (rows: true label, columns: predicted label)")
    cells = [[str(int(v)) for v in row] for row in c.confusion_matrix]
    cw = max([len(n) for n in names] + [len(x) for row in cells for x in row]) + 2
    columns = [[name, *(row[j] for row in cells)] for j, name in enumerate(names)]
    lines += table(["", *names], columns, first, cw)
    lines.append("")
    lines.extend(figuretable(summary, digits))
    return "\n".join(lines) + "\n"


def mean_sd(pair, digits: int) -> str:
    mean, sd = pair
    if math.isnan(mean):
        return "n/a"
    return f"{mean:.{digits}f} ± {fixed(sd, digits)}"


def interval(pair, digits: int) -> str:
    low, high = pair
    if math.isnan(low) or math.isnan(high):
        return "n/a"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def figure_titles(summary) -> dict:
    """name -> the row title of each scalar figure of the summary's kind (the registry's title;
    the positive class named for the figures of one class)."""
    titles = {}
    names = figure_names(summary.figure_kind) if summary.kind != "multilabel" else summary.figures
    for name in names:  # every figure of the kind: tables keep one width with or without scores
        title = FIGURES[name].title
        f = FIGURES[name]
        if (f.kinds == {"binary"} or f.names_positive_class) and summary.is_binary:
            title = f"{title} ({label_text(summary.class_name(summary.positive))})"
        titles[name] = title
    return titles


def figuretable(summary, digits: int, first: int = 18) -> list[str]:
    """The scalar figures: pooled over all CV predictions, and mean ± sd over folds and over
    repetitions when there are several."""
    width = max(digits + 7, 11)
    spreads: list[tuple[str, dict, Callable]] = []
    if len(summary.fold_figures) > 1:
        spreads.append(
            (f"{len(summary.fold_figures)} folds: mean ± sd", summary.fold_spread, mean_sd)
        )
    if len(summary.repeat_figures) > 1:
        spreads.append(
            (f"{len(summary.repeat_figures)} repeats: mean ± sd", summary.repeat_spread, mean_sd)
        )
    sw = 2 * digits + 10
    iv = summary.intervals
    if iv is not None:  # beside the figure they are about: pooled, or the repetitions' mean
        level = f"{100 * iv.level:g}%"
        cis: list[tuple[str, dict, Callable]] = [
            (f"{level} CI, BCa", iv.bca, interval),
            (f"{level} CI, percentile", iv.percentile, interval),
        ]
        if iv.repetitions > 1:
            mean = f"{iv.repetitions} repeats: mean"
            spreads += [(mean, iv.estimate, fixed)] + cis
        else:
            spreads = cis + spreads
    titles = figure_titles(summary)
    first = max([first] + [len(t) for t in titles.values()])
    names = list(summary.figures)
    columns = [
        [f"{'pooled':>{width}}", *(f"{fixed(summary.figures[n], digits):>{width}}" for n in names)]
    ]
    columns += [
        [
            f"  {title:>{sw}}",
            *(f"  {shown(sp[n], digits):>{sw}}" if n in sp else "" for n in names),
        ]
        for title, sp, shown in spreads
    ]
    lines = split_columns(
        len(columns),
        lambda: [f"{t:>{first}}" for t in ["figure", *(titles[n] for n in names)]],
        lambda j: columns[j],
    )
    lines = [line.rstrip() if not line.strip() else line for line in lines]
    if iv is not None:
        lines += wrap(
            f"(confidence intervals: {iv.resamples:,} bootstrap resamples of the samples' CV "
            f"predictions, seed {iv.seed}"
            + (
                "; the ROC AUC and average precision get none"
                if summary.ranking and not summary.calibration
                else "; the ROC AUC, average precision and probability figures get none"
                if summary.ranking
                else "; the probability figures get none"
                if summary.calibration
                else ""
            )
            + (
                f"; of the mean over the {iv.repetitions} repetitions (the column "
                f"'{iv.repetitions} repeats: mean'), each resampled sample carrying its "
                "prediction in every repetition"
                if iv.repetitions > 1
                else ""
            )
            + ")"
        )
    if summary.ranking is not None:
        what = summary.ranking.source
        if summary.is_binary:
            lines.append(
                f"(ROC AUC and average precision of class {label_text(summary.class_name(summary.positive))} "
                f"from the CV {what})"
            )
        else:
            lines.append(f"(ROC AUC and average precision one-vs-rest from the CV {what})")
    if summary.calibration:
        lines += wrap(probability_note(summary))
    return lines


def probability_note(summary) -> str:
    """The sentence under the figures that says how the probability figures were computed."""
    from svmeval.metrics.probabilities import N_BINS

    brier = (
        f"Brier score of class {label_text(summary.class_name(summary.positive))}"
        if summary.is_binary
        else "Brier score as the squared distance to the true class's one-hot vector"
    )
    return (
        f"(log loss, {brier}, and ECE over {N_BINS} equal-width bins of the top-label "
        "confidence weighted by their counts, from the CV probabilities)"
    )


def render(summary, *, digits: int = 4, full: bool = False) -> str:
    """svm-train's lines (svm-predict's for --score), then, for multiclass data, with ``full``
    or with repetitions, the per-class table, the averages, the confusion matrix and the
    figures with their spread over folds and repetitions."""
    scored = summary.meta.get("mode") == "score"
    out = score_lines(summary) if scored else svm_train_lines(summary)
    more = full or len(summary.repeat_figures) > 1 or summary.intervals is not None
    if summary.kind == "classification" and (more or not summary.is_binary):
        out += classification_tables(summary, digits)
    elif summary.kind == "regression" and more:
        out += "\n" + "\n".join(figuretable(summary, digits)) + "\n"
    folds = summary.meta.get("fold_source")
    if isinstance(folds, dict):
        out += "" if out.endswith("\n\n") else "\n"
        out += fold_source_lines(folds, summary.meta.get("n_folds"), full)
    return out


def fold_source_lines(folds: dict, n_folds, full: bool) -> str:
    """The lines that say the folds were grouped or given (and, ``full``, each fold's class
    counts)."""
    if folds["kind"] == "grouped":
        line = f"Folds: {n_folds}, grouped: {folds['n_groups']} groups, none split"
    else:
        line = f"Folds: {n_folds}, given (not LIBSVM's)"
    out = line + "\n"
    if folds.get("source"):
        out += f"  from {show_path(folds['source'])}\n"
    counts = folds.get("fold_class_counts")
    if full and counts:
        labels = [label_text(v) for v in folds["labels"]]
        width = max([5] + [len(lab) for lab in labels])
        out += "fold  " + "".join(f"{lab:>{width + 1}}" for lab in labels) + "\n"
        for i, row in enumerate(counts, 1):
            out += f"{i:<6}" + "".join(f"{n:>{width + 1}}" for n in row) + "\n"
    return out

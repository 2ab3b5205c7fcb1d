"""The report of a :class:`~svmeval.workflows.threshold.TunedThreshold`: text (the three
operating points: LIBSVM's own, the tuned threshold with its optimistic figures, the nested
estimate; then each outer fold's threshold; with several repetitions, each one's threshold and
criterion values and their spread; then how the threshold is picked), json
(:meth:`TunedThreshold.to_dict`) and csv (for each repetition one row per operating point,
then one per outer fold). Reporters format; they never compute."""

from __future__ import annotations

import csv
import io
import json
import math

from svmeval._classes import show_class
from svmeval.report._layout import split_columns, wrap
from svmeval.report._views import View

__all__ = ["operating_points", "render"]

_HEADS = {
    "accuracy": "accuracy",
    "precision": "precision",
    "recall": "recall",
    "f1": "F1",
    "mcc": "MCC",
    "balanced_accuracy": "bal. acc.",
}


def _columns(result) -> tuple[str, ...]:
    """The CSV report's columns: the figures' and counts' names are the result's own."""
    names = (*result._FIGURE_NAMES, *result._COUNTS)
    return ("point", "repetition", "fold", "threshold", "inner_value", *names, "criterion")


def _threshold(value: float) -> str:
    if math.isinf(value):
        return "-inf (all +)" if value < 0 else "inf (all -)"
    return f"{value:.6g}"


def _number(value, digits: int) -> str:
    if isinstance(value, int):
        return str(value)
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def render(result, format: str = "text", digits: int = 4) -> str:
    """The report of a tuned threshold in ``format`` (text, json or csv)."""
    if format == "json":
        return json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n"
    if format == "csv":
        return _csv(result)
    return _text(result, digits)


def _csv(result) -> str:
    data = result.to_dict()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    columns = _columns(result)
    w.writerow(columns)

    def cell(v) -> str:
        return "" if v is None else repr(v) if isinstance(v, float) else str(v)

    runs = [{"repetition": 1, **data}, *data["repeat_results"]]
    for run in runs:
        r = run["repetition"]
        for point in result._POINTS:
            row = {"point": point, "repetition": r, **run[point]}
            w.writerow([cell(row.get(k)) for k in columns])
        for fold in run["folds"]:
            row = {"point": "honest_fold", "repetition": r, **fold}
            w.writerow([cell(row.get(k)) for k in columns])
    return buf.getvalue()


def _own(result) -> str:
    """The name of the library's own operating point: LIBSVM's, or LIBLINEAR's where the
    configuration is a LinearParams."""
    from svmeval.params import LinearParams

    return "LIBLINEAR's own" if isinstance(result.cv.params, LinearParams) else "LIBSVM's own"


def _text(result, digits: int) -> str:
    criterion = result._criterion()
    classes = result.cv.classes
    pos = show_class(result.positive, classes)
    name = criterion.title(pos)
    cost = criterion.name == "cost"
    heads = ["", "threshold", *(_HEADS[k] for k in result._FIGURE_NAMES), "TP", "FP", "FN", "TN"]
    heads += ["cost"] if cost else []
    source = "probability" if result.score_source == "probabilities" else "decision value"
    rows = [
        [
            _own(result),
            f"{result.default_threshold:g}",
            *_cells(result, result.libsvm, digits, cost),
        ],
        [
            "tuned (optimistic)",
            _threshold(result.threshold),
            *_cells(result, result.tuned, digits, cost),
        ],
        ["nested (honest)", "per fold", *_cells(result, result.honest, digits, cost)],
    ]
    first = f"; the first of {result.repeat} repetitions" if result.repeat > 1 else ""
    kind = _fold_kind(result.cv)
    run = f"({result.n_folds}-fold{kind} cross-validation, seed {result.seed}{first})"
    lines = wrap(f"Decision threshold tuned for {name} {run}", keep=(run,))
    lines += wrap(
        f"threshold on the CV {source} of class {pos}: a sample is {pos} where its "
        f"{source} is at least the threshold, else {show_class(result.negative, classes)}"
    )
    if result.cv.preprocessing:  # the outer folds and every inner CV's learned it
        lines += wrap(
            "learned on each fold's training rows, outer and inner cross-validations alike: "
            + result.cv.preprocessing
        )
    lines += _table(heads, rows)
    lines.append("")
    lines += wrap(
        f"Nested estimate: each outer fold's threshold chosen on a {result.inner_folds}-fold CV "
        "of its training rows"
    )
    fold_heads = ["fold", "n_train", "n_test", "threshold", f"inner {criterion.name}"]
    fold_heads += [_HEADS[k] for k in ("precision", "recall", "f1")]
    fold_rows = [
        [
            str(f.fold + 1),
            str(len(f.train_rows)),
            str(len(f.test_rows)),
            _threshold(f.threshold),
            f"{f.inner_value:g}" if cost else _number(f.inner_value, digits),
            *(_number(f.figures[k], digits) for k in ("precision", "recall", "f1")),
        ]
        for f in result.folds
    ]
    lines += _table(fold_heads, fold_rows)
    if result.repeat > 1:
        lines += _repetitions(result, criterion, digits, cost)
    lines += wrap(
        "(candidate thresholds: the midpoint (a + b) / 2 of every two adjacent distinct CV "
        f"scores, -inf and inf; of equal {criterion.name} values the threshold nearest "
        f"{_own(result)} ({result.default_threshold:g}), then the lower. The tuned figures are "
        "measured on the scores that chose the threshold: optimistic. The nested ones are "
        "measured on rows the choice never saw.)"
    )
    return "\n".join(lines) + "\n"


def _repetitions(result, criterion, digits: int, cost: bool) -> list[str]:
    """Each repetition's tuned threshold and criterion values, then the mean and sd of every
    operating point's figures over the repetitions."""
    runs = result.repetitions
    seeds = ", ".join(str(r.seed) for r in runs)
    title = criterion.title(result.positive)

    def value(v: float) -> str:
        return f"{v:g}" if cost else _number(v, digits)

    lines = [""]
    lines += wrap(
        f"Repeated {result.repeat} times (seeds {seeds}), each with its own outer folds: "
        f"the tuned threshold, and {title} at {_own(result)} threshold, at the tuned one "
        "and nested"
    )
    heads = ["repetition", "seed", "threshold", _own(result), "tuned", "nested"]
    rows = [
        [
            str(r + 1),
            str(run.seed),
            _threshold(run.threshold),
            *(value(getattr(run, p)["criterion"]) for p in result._POINTS),
        ]
        for r, run in enumerate(runs)
    ]
    lines += _table(heads, rows)
    spread = result.spread()
    t = spread["threshold"]
    lines += wrap(
        f"tuned threshold: mean {t['mean']:.6g}, sd {t['sd']:.6g}, min {_threshold(t['min'])}, "
        f"max {_threshold(t['max'])}"
    )
    lines.append("")
    lines += wrap(f"Mean ± sd over the {result.repeat} repetitions")
    keys = [*result._FIGURE_NAMES, *(["criterion"] if cost else [])]
    heads = ["", *(_HEADS.get(k, "cost") for k in keys)]

    def cell(k: str, s: dict) -> str:
        if k == "criterion":
            return f"{s['mean']:g} ± {s['sd']:.3g}"
        return f"{_number(s['mean'], digits)} ± {_number(s['sd'], digits)}"

    labels = {"libsvm": _own(result), "tuned": "tuned (optimistic)", "honest": "nested (honest)"}
    rows = [[labels[p], *(cell(k, spread[p][k]) for k in keys)] for p in result._POINTS]
    lines += _table(heads, rows)
    return lines


def _cells(result, figures: dict, digits: int, cost: bool) -> list[str]:
    out = [_number(figures[k], digits) for k in result._FIGURE_NAMES]
    out += [str(figures[k]) for k in result._COUNTS]
    if cost:
        out.append(f"{figures['criterion']:g}")
    return out


def _table(heads: list[str], rows: list[list[str]]) -> list[str]:
    """The rows under their heads, the first column left-aligned, the others right-aligned,
    in blocks of columns that fit 80 columns (each repeating the first)."""
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(heads)]
    return split_columns(
        len(heads) - 1,
        lambda: [heads[0].ljust(widths[0])] + [r[0].ljust(widths[0]) for r in rows],
        lambda j: (
            [heads[j + 1].rjust(widths[j + 1])] + [r[j + 1].rjust(widths[j + 1]) for r in rows]
        ),
        sep="  ",
    )


def operating_points(result) -> list[dict]:
    """The points the figure sheet marks on its ROC and precision-recall curves: LIBSVM's
    own, the tuned threshold's (both on the curves of the CV scores) and the nested
    predictions' (each fold at its own threshold: a point beside the curves), each with
    ``name``, ``fpr``, ``tpr``, ``recall``, ``precision``."""
    out = []
    for name, figures in (
        (f"{_own(result)} (threshold {result.default_threshold:g})", result.libsvm),
        (f"tuned {result.criterion} (threshold {result.threshold:.4g})", result.tuned),
        ("nested estimate (per-fold thresholds)", result.honest),
    ):
        out.append(point(name, figures, result._COUNTS))
    return out


def point(name: str, figures: dict, counts: tuple[str, ...]) -> dict:
    """An operating point of four counts (named ``counts``: TP, FP, FN, TN): ``name``,
    ``fpr``, ``tpr`` (= ``recall``), ``precision`` (NaN where nothing is predicted positive)."""
    tp, fp, fn, tn = (figures[k] for k in counts)
    return {
        "name": name,
        "fpr": fp / (fp + tn) if fp + tn else math.nan,
        "tpr": tp / (tp + fn) if tp + fn else math.nan,
        "recall": tp / (tp + fn) if tp + fn else math.nan,
        "precision": tp / (tp + fp) if tp + fp else math.nan,
    }


def _fold_kind(cv) -> str:
    """`` grouped`` (N groups, none split, inner folds grouped too) or `` given`` where
    the folds are not LIBSVM's, else ""."""
    source = getattr(getattr(cv, "folds", None), "source", None)
    if source is None:
        return ""
    return f" grouped ({source.n_groups} groups)" if source.grouped else " given"


# --- the view of a TunedThreshold (svmeval.report._views) ------------------------------------
def _describe(result) -> tuple[str, str]:
    return f"Decision threshold tuned on {result.data_name or 'data'}", (
        f"criterion {result.criterion}; {result.n_folds}-fold cross-validation, "
        f"{result.inner_folds} inner folds, seed {result.seed}; {result.cv.n_samples} samples"
    )


def _pictures(result, svg, arrays):
    from svmeval.report import pictures
    from svmeval.report.svg import Picture

    yield Picture(
        "The figure sheet, LIBSVM's, the tuned and the nested operating points marked",
        svg(pictures.plot(result)),
    )


def _figure(result, title, pos_label, zero_division):
    from svmeval.report import plot as sheet
    from svmeval.summary import summarize

    summary = summarize(
        result.cv,
        pos_label=result.positive,
        zero_division=zero_division,
        meta={"data_file": result.data_name},
    )
    arrays = {**sheet.result_arrays(result.cv), "points": operating_points(result)}
    return sheet.draw_sheet(summary, title=title, **arrays)


VIEW = View(
    render=lambda result, format, digits, full: render(result, format=format, digits=digits),
    describe=_describe,
    text=lambda result, digits: render(result, format="text", digits=digits),
    pictures=_pictures,
    figure=_figure,
)

"""Reports of a multi-label run (:class:`~svmeval.summary.Summary` of kind "multilabel"): text, JSON, CSV.

``render(summary, *, format="text", digits=4) -> str``. Reporters format; every figure comes
from the summary.

Text: headline lines first, one figure each, ``Cross Validation <figure> = <value>`` (for
``--score``: ``<figure> = <value>``), the first being ``Cross Validation Subset Accuracy = X%``
-- the multi-label counterpart of svm-train's accuracy, so grid.py (first line holding "Cross",
last token without "%") reads it. Then the per-label table, the averages with a line on each,
the set and ranking figures, and the per-fold mean +- sd.
"""

from __future__ import annotations

import csv
import io
import json
import math

from svmeval.errors import show_label
from svmeval.metrics.figures import FIGURES
from svmeval.metrics.multilabel import MULTILABEL_AVERAGES
from svmeval.report._layout import notes_beside_or_below, table, with_notes, wrap
from svmeval.report.csvfmt import cell

__all__ = ["AVERAGE_NOTES", "render"]

#: each average's name in reports and its one-line meaning
AVERAGE_NOTES = {
    "samples": ("samples", "P, R, F1 of each sample's label set, then the mean over samples"),
    "macro": ("macro", "mean over labels of per-label P, R, F1"),
    "macro_harmonic": ("macro-harmonic", "F1 = 2PR/(P+R) of the macro P and R"),
    "micro": ("micro", "TP, FP, FN summed over all sample x label pairs, then P, R, F1"),
    "weighted": ("weighted", "per-label P, R, F1 weighted by support"),
}

RANKING_NOTES = {
    "lrap": (
        "LRAP",
        ("label ranking average precision, the 'MAP' of multi-label papers; 1 is best"),
    ),
    "coverage_error": (
        "coverage error",
        ("labels one must go down the ranking to cover all true ones; best = {best}"),
    ),
    "ranking_loss": (
        "ranking loss",
        ("share of (true, false) label pairs ranked wrongly; 0 is best"),
    ),
    "mean_average_precision": (
        "mean label AP",
        ("per-label average precision over samples, averaged over labels"),
    ),
}

SOURCES = {
    "decision_values": "from each label's SVM decision values",
    "probabilities": "from each label's probability estimates (-b 1)",
    "scores": "from the given scores",
}


def _g(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:g}"


def _fixed(value: float, digits: int) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _label(value: float) -> str:
    return show_label(value)


def _policy(z: float) -> str:
    return "left out of" if math.isnan(z) else f"counted as {z:g} in"


def _headline(summary) -> str:
    r = summary.multilabel
    cv = summary.meta.get("mode") != "score"
    prefix = "Cross Validation " if cv else ""
    lines = [f"{prefix}Subset Accuracy = {100.0 * r.subset_accuracy:g}%"]
    if not cv:
        exact = round(r.subset_accuracy * summary.n_samples) if summary.n_samples else 0
        lines[0] += f" ({exact}/{summary.n_samples}) (multi-label)"
    lines.append(f"{prefix}Samples F1 = {_g(r.averages['samples'].f1)}")
    lines.append(f"{prefix}Macro F1 = {_g(r.averages['macro'].f1)}")
    lines.append(f"{prefix}Micro F1 = {_g(r.averages['micro'].f1)}")
    lines.append(f"{prefix}Hamming Loss = {_g(r.hamming_loss)}")
    if summary.ranking is not None:
        lines.append(f"{prefix}LRAP = {_g(summary.ranking.lrap)}")
    return "\n".join(lines) + "\n"


def _text(summary, digits: int) -> str:
    r, rk = summary.multilabel, summary.ranking
    width = max(digits + 7, 11)
    names = [_label(v) for v in summary.label_names]
    first = max(18, max((len(n) for n in names), default=0))
    out = [_headline(summary)]
    out += _cv_lines(summary.meta, names)
    columns = [
        ["precision", *(_fixed(v, digits) for v in r.precision)],
        ["recall", *(_fixed(v, digits) for v in r.recall)],
        ["F1", *(_fixed(v, digits) for v in r.f1)],
        ["support", *(str(int(v)) for v in r.support)],
    ]
    if rk is not None:
        columns.append(["AP", *(_fixed(v, digits) for v in rk.average_precision)])
    lines = ["", *table(["label", *names], columns, first, width), ""]
    averages = [r.averages[name] for name in MULTILABEL_AVERAGES]
    rows = table(
        ["average", *(AVERAGE_NOTES[name][0] for name in MULTILABEL_AVERAGES)],
        [
            [head, *(_fixed(getattr(avg, field), digits) for avg in averages)]
            for head, field in (("precision", "precision"), ("recall", "recall"), ("F1", "f1"))
        ],
        first,
        width,
    )
    lines += with_notes(rows, [AVERAGE_NOTES[name] for name in MULTILABEL_AVERAGES])
    lines += wrap(
        f"note: a sample with no true and no predicted label has undefined P, R, F1; "
        f"{summary.empty_samples} such sample(s), {_policy(summary.zero_division)} "
        f"the samples average (--zero-division)"
    )
    others = [
        x
        for x in r.zero_division_applied
        if not x.startswith("samples.") and not x.endswith(".fbeta")
    ]
    if others:
        lines += wrap(
            f"note: undefined per-label values (n/a) were {_policy(summary.zero_division)}"
            f": " + ", ".join(others) + " (--zero-division)"
        )
    lines.append("")
    sets = (
        (
            "subset accuracy",
            r.subset_accuracy,
            "share of samples whose predicted label set equals the true one",
        ),
        ("Hamming loss", r.hamming_loss, "share of sample x label decisions that are wrong"),
    )
    lines += notes_beside_or_below(
        [
            (f"{title:>{first}}{_fixed(value, digits):>{width}}", title, note)
            for title, value, note in sets
        ]
    )
    if rk is not None:
        lines.append("")
        lines.append(f"ranking figures, {SOURCES.get(rk.source, rk.source)}:")
        best = (
            _fixed(float(r.support.sum()) / summary.n_samples, digits)
            if summary.n_samples
            else "n/a"
        )
        lines += notes_beside_or_below(
            [
                (
                    f"{title:>{first}}{_fixed(getattr(rk, key), digits):>{width}}",
                    title,
                    note.format(best=best),
                )
                for key, (title, note) in RANKING_NOTES.items()
            ]
        )
    if summary.fold_figures:
        lines.append("")
        lines += wrap(
            f"per fold (mean +- sd over {len(summary.fold_figures)} folds, each scored alone; "
            "sd with n-1)"
        )
        for key, (mean, sd) in summary.fold_spread.items():
            lines.append(
                f"{FIGURES[key].title:>{first}}{_fixed(mean, digits):>{width}} +- "
                f"{_fixed(sd, digits)}"
            )
    return out[0] + "".join(out[1:]) + "\n".join(lines) + "\n"


def _cv_lines(meta: dict, names: list) -> list[str]:
    """A cross-validation's lines under the headline: binary relevance's folds, and where
    they are grouped or given, each fold's rows that have each label."""
    if meta.get("mode") != "cv":
        return []
    out = [
        "\n".join(
            wrap(
                f"binary relevance: {len(names)} labels, one SVM each, "
                f"{meta.get('n_folds')} folds shared by every label (seed {meta.get('seed')})"
            )
        )
        + "\n"
    ]
    folds = meta.get("fold_source")
    if isinstance(folds, dict):  # grouped or given: said, with each fold's label counts
        from svmeval.report.text import fold_source_lines

        out.append(
            fold_source_lines(folds, meta.get("n_folds"), False) + _fold_label_counts(folds, names)
        )
    return out


def _fold_label_counts(folds: dict, names: list) -> str:
    """Each fold's rows that have each label: one line a fold, the labels in blocks that fit
    80 columns."""
    counts = folds.get("fold_class_counts") or []
    width = max([5] + [len(n) for n in names]) + 1
    per_block = max(1, (80 - 6) // width)
    out = ""
    for start in range(0, len(names), per_block):
        block = range(start, min(start + per_block, len(names)))
        out += "fold  " + "".join(f"{names[j]:>{width}}" for j in block) + "\n"
        for i, row in enumerate(counts, 1):
            out += f"{i:<6}" + "".join(f"{row[j]:>{width}}" for j in block) + "\n"
    return out


def _json(summary, digits: int) -> str:
    return json.dumps(summary.to_dict(), indent=2, allow_nan=False) + "\n"


COLUMNS = (
    "row",
    "name",
    "precision",
    "recall",
    "f1",
    "support",
    "tp",
    "fp",
    "fn",
    "tn",
    "average_precision",
)


def _csv(summary, digits: int) -> str:
    """One row per label (``row`` = label), then one per average (``row`` = average); empty
    cells where a figure is undefined or does not apply."""
    r, rk = summary.multilabel, summary.ranking
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for k, label in enumerate(summary.label_names):
        w.writerow(
            ("label", _label(label))
            + tuple(
                cell(v)
                for v in (
                    r.precision[k],
                    r.recall[k],
                    r.f1[k],
                    r.support[k],
                    r.tp[k],
                    r.fp[k],
                    r.fn[k],
                    r.tn[k],
                )
            )
            + (cell(rk.average_precision[k]) if rk is not None else "",)
        )
    for name in MULTILABEL_AVERAGES:
        a = r.averages[name]
        w.writerow(("average", name, cell(a.precision), cell(a.recall), cell(a.f1)) + ("",) * 6)
    return buf.getvalue()


REPORTERS = {"text": _text, "json": _json, "csv": _csv}


def render(summary, *, format: str = "text", digits: int = 4, full: bool = False) -> str:
    """The report of a :class:`~svmeval.summary.Summary` of kind "multilabel" in ``format`` ("text",
    "json" or "csv"). ``digits``: decimals in the text report's tables. ``full`` is accepted
    for the same call as the single-label reporters; the multi-label text report is always
    full."""
    try:
        reporter = REPORTERS[format]
    except KeyError:
        raise ValueError(f"unknown report format {format!r} (text, json or csv)") from None
    return reporter(summary, digits)

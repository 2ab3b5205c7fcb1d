"""Reports of a :class:`~svmeval.workflows.benchmark.Benchmark`: text, json, csv, markdown and latex.

Every format prints the table as papers do: one row per data set (in the given order), one
column per configuration, mean ± sd of the criterion over the folds, the best of each row
marked (``*`` in text, bold in markdown and latex, in csv a ``NAME best`` column of 1 or 0 per
configuration, which no name can make ambiguous, as JSON's ``best``), then a row of
average ranks (1 = best). Text adds Friedman's test, Nemenyi's critical difference, the
pairwise Wilcoxon tests with Holm's correction, the win/tie/loss counts and, with a rope, one
sentence per data set and pair ("B is practically equivalent to A with probability …") and,
with two or more data sets, one sentence per pair of the Bayesian signed-rank test over the
data sets, its Monte-Carlo draws and seed stated. csv adds, with that test, one row per pair
after the average ranks: ``signed-rank B vs A``, then p_left, p_rope, p_right (of B - A),
the draws and the seed. json is :meth:`Benchmark.to_dict` as is. Reporters format; they
never compute.

The critical-difference diagram is :func:`svmeval.report.cd_plot.write_cd_diagram`.
"""

from __future__ import annotations

import io
import json
import math

from svmeval.metrics.figures import FIGURES
from svmeval.report import FORMATS, TABLE_FORMATS
from svmeval.report._layout import WIDTH, fit, split_columns, wrap
from svmeval.report._views import View

__all__ = ["BENCHMARK_FORMATS", "bayesian_sentence", "render"]

BENCHMARK_FORMATS = ("text", "json", "csv", "markdown", "latex")


def _num(value: float, digits: int) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value:.{digits}f}"


def _p(value: float) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value:.4g}" if value >= 1e-4 else f"{value:.2e}"


def _g(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.4g}"


def _cell(bench, i: int, j: int, digits: int, plus_minus: str = " ± ") -> str:
    return f"{_num(bench.mean[i, j], digits)}{plus_minus}{_num(bench.sd[i, j], digits)}"


def _title(bench) -> str:
    f = FIGURES[bench.criterion]
    direction = "greater is better" if f.greater_is_better else "smaller is better"
    return (
        f"{bench.criterion} ({direction}), mean ± sd over {bench.repeat} x "
        f"{bench.n_folds}-fold cross-validation"
    )


def bayesian_sentence(bench, pair, test) -> str:
    """One sentence of the Bayesian correlated t-test of ``pair`` on one data set."""
    b = test.bayesian
    better_b, better_a = (b.p_right, b.p_left) if bench.greater_is_better else (b.p_left, b.p_right)
    return (
        f"On {test.dataset}, {pair.b} is practically equivalent to {pair.a} with "
        f"probability {b.p_rope:.3f} (rope ±{b.rope:g}); {pair.b} is better with "
        f"probability {better_b:.3f}, {pair.a} with probability {better_a:.3f}."
    )


def signed_rank_sentence(bench, pair) -> str:
    """One sentence of the Bayesian signed-rank test of ``pair`` over the data sets."""
    r = pair.signed_rank
    better_b, better_a = (r.p_right, r.p_left) if bench.greater_is_better else (r.p_left, r.p_right)
    return (
        f"{pair.b} against {pair.a}: practically equivalent with probability "
        f"{r.p_rope:.3f}; {pair.b} better with probability {better_b:.3f}, {pair.a} with "
        f"probability {better_a:.3f}."
    )


#: a data set's name longer than this has a line of its own above its row's values (text)
NAME_COLUMN = 30


def _text_table(bench, digits: int) -> list[str]:
    """The table in 80 columns: the configurations in blocks of columns that fit, each
    repeating the data set column; a name wider than :data:`NAME_COLUMN` on a line of its
    own, the row's values on the next."""
    names = list(bench.configurations)
    labels = list(bench.datasets) + ["average rank"]
    head = ["data set"] + [n + " " for n in names]
    cells = [
        [_cell(bench, i, j, digits) + ("*" if bench.best[i, j] else " ") for j in range(len(names))]
        for i in range(len(bench.datasets))
    ] + [[f"{r:.3f} " for r in bench.ranks]]
    widest = max(len(x) for x in [head[0], *labels])
    if widest + 2 + max(len(x) for x in head[1:] + [c for row in cells for c in row]) <= WIDTH:
        first_width = widest  # every name fits beside a column of values
    else:
        first_width = max(len(x) for x in [head[0], *(n for n in labels if len(n) <= NAME_COLUMN)])
    # the lines of each row: a long name alone, then its values beside an empty first column;
    # each line: (its first column, the index of the row whose values it carries, or None)
    rows: list[tuple[str, int | None]] = []
    for i, label in enumerate(labels):
        if len(label) > first_width:
            rows.append((label, None))
            rows.append(("", i))
        else:
            rows.append((label, i))
    rule = "-"  # the line above the average rank, as wide as its block

    def first() -> list[str]:
        out = [head[0].ljust(first_width)]
        for label, i in rows:
            if i == len(labels) - 1:
                out.append(rule)
            out.append(label.ljust(first_width) if i is not None else label)
        return out

    def column(j: int) -> list[str]:
        w = max(len(x) for x in [head[j + 1], *(row[j] for row in cells)])
        out = [head[j + 1].rjust(w)]
        for _, i in rows:
            if i == len(labels) - 1:
                out.append(rule)
            out.append("" if i is None else cells[i][j].rjust(w))
        return out

    # no line ends with a space (a column's room for the best mean's *, its header's)
    lines = [
        line.rstrip() for line in split_columns(len(names), first, column, sep="  ", width=WIDTH)
    ]
    # the rule spans its block: as wide as the block's header line above it
    block_head = ""
    for n, line in enumerate(lines):
        if n == 0 or lines[n - 1] == "":
            block_head = line
        if line.startswith(rule) and set(line.replace(" ", "")) == {"-"}:
            lines[n] = "-" * len(block_head)
    return lines


def _text_tests(bench) -> list[str]:
    out = []
    f = bench.friedman
    if f is not None:
        out += [
            f"Friedman's test over {f.n_datasets} data sets: chi-square = "
            f"{_g(f.statistic)}, df = {f.df}, p = {_p(f.p)}",
            f"Iman & Davenport's F = {_g(f.iman_davenport)}, df = ({f.df_f[0]}, "
            f"{f.df_f[1]}), p = {_p(f.p_f)}",
        ]
    groups = (
        ", ".join("{" + ", ".join(bench.configurations[i] for i in g) + "}" for g in bench.cliques)
        or "none"
    )
    out += [
        f"Nemenyi's critical difference at {bench.level:g}: {bench.critical_difference:.3f}"
        f" (q = {bench.nemenyi_q:.3f})"
    ] + wrap(f"  groups within it: {groups}", keep=bench.configurations)
    test = (
        "the corrected resampled t-test" if bench.test == "corrected" else "the 5x2cv paired t-test"
    )
    out += [""] + wrap(
        f"pairs (B against A): Wilcoxon signed-rank test over the data sets' means, "
        f"Holm-corrected; win/tie/loss of B by {test} per data set at {bench.level:g}"
    )
    rows = [("pair", "Wilcoxon p", "method", "Holm p", "win/tie/loss")]
    for p in bench.pairs:
        w = p.wilcoxon
        rows.append(
            (
                f"{p.b} vs {p.a}",
                "n/a" if w is None else _p(w.p),
                "" if w is None else w.method,
                _p(p.p_holm),
                f"{p.wins}/{p.ties}/{p.losses}",
            )
        )
    widths = [max(len(r[c]) for r in rows) for c in range(5)]
    out += [
        "  " + "  ".join([r[0].ljust(widths[0])] + [v.rjust(n) for v, n in zip(r[1:], widths[1:])])
        for r in rows
    ]
    return out


def _folds_lines(bench) -> list[str]:
    """The data sets whose folds are not LIBSVM's (grouped, given), one line each."""
    sources = [(name, kind) for name, kind in zip(bench.datasets, bench.fold_sources) if kind]
    if not sources:
        return []
    return wrap(
        "Folds: "
        + "; ".join(f"{name} {kind}" for name, kind in sources)
        + ("; LIBSVM's on the others" if len(sources) < len(bench.datasets) else ""),
        keep=tuple(name for name, _ in sources),
    )


def _text(bench, digits: int) -> str:
    learned = getattr(bench, "preprocessing", "")
    out = (
        [_title(bench)]
        + _folds_lines(bench)
        + (
            wrap(f"Every configuration learned on each fold's training rows: {learned}")
            if learned
            else []
        )
        + [""]
        + _text_table(bench, digits)
        + ["(* the best mean of the row)", ""]
        + _text_tests(bench)
    )
    if bench.rope is not None:
        out += [
            "",
            "Bayesian correlated t-test (Corani & Benavoli 2015), each data set on its own:",
        ]
        out += [
            line
            for p in bench.pairs
            for t in p.per_dataset
            if t.bayesian is not None
            for line in wrap("  " + bayesian_sentence(bench, p, t), keep=(p.a, p.b))
        ]
    signed = [p for p in bench.pairs if p.signed_rank is not None]
    if signed:
        r = signed[0].signed_rank
        out += [""] + wrap(
            f"Bayesian signed-rank test over the {r.n} data sets' means (Benavoli et al. "
            f"2017), rope ±{r.rope:g}, prior {r.prior:g} at 0, {r.draws:,} Monte-Carlo "
            f"draws, seed {r.seed}:"
        )
        out += [
            line
            for p in signed
            for line in wrap("  " + signed_rank_sentence(bench, p), keep=(p.a, p.b))
        ]
    verdict = bench.verdict
    out += [""] + wrap(f"verdict: {verdict.text}", keep=bench.configurations)
    if verdict.warning:
        out += wrap(f"warning: {verdict.warning}")
    return "\n".join(fit(out)) + "\n"


def _csv(bench, digits: int) -> str:
    import csv  # the CSV format's alone

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ["dataset"] + [f"{c}{s}" for c in bench.configurations for s in ("", " sd", " best")]
    )
    for i, d in enumerate(bench.datasets):
        values = [
            x
            for j in range(len(bench.configurations))
            for x in (
                _csv_number(bench.mean[i, j]),
                _csv_number(bench.sd[i, j]),
                str(int(bench.best[i, j])),
            )
        ]
        w.writerow([d] + values)
    w.writerow(["average rank"] + [x for r in bench.ranks for x in (repr(float(r)), "", "")])
    for p in bench.pairs:
        r = p.signed_rank
        if r is not None:
            w.writerow(
                [f"signed-rank {p.b} vs {p.a}"]
                + [repr(v) for v in (r.p_left, r.p_rope, r.p_right)]
                + [str(r.draws), str(r.seed)]
            )
    return buf.getvalue()


def _csv_number(v) -> str:
    return "" if math.isnan(v) else repr(float(v))


def _markdown_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")


def _markdown(bench, digits: int) -> str:
    names = [_markdown_escape(c) for c in bench.configurations]
    out = ["| data set | " + " | ".join(names) + " |", "|:--|" + "--:|" * len(names)]
    for i, d in enumerate(bench.datasets):
        cells = [
            (
                f"**{_cell(bench, i, j, digits)}**"
                if bench.best[i, j]
                else _cell(bench, i, j, digits)
            )
            for j in range(len(names))
        ]
        out.append(f"| {_markdown_escape(d)} | " + " | ".join(cells) + " |")
    out.append("| average rank | " + " | ".join(f"{r:.3f}" for r in bench.ranks) + " |")
    return "\n".join(out) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex(bench, digits: int) -> str:
    names = [_latex_escape(c) for c in bench.configurations]
    out = [
        r"\begin{tabular}{l" + "r" * len(names) + "}",
        r"\toprule",
        "data set & " + " & ".join(names) + r" \\",
        r"\midrule",
    ]
    for i, d in enumerate(bench.datasets):
        cells = []
        for j in range(len(names)):
            cell = f"{_num(bench.mean[i, j], digits)} $\\pm$ {_num(bench.sd[i, j], digits)}"
            cells.append(f"\\textbf{{{cell}}}" if bench.best[i, j] else cell)
        out.append(f"{_latex_escape(d)} & " + " & ".join(cells) + r" \\")
    out += [
        r"\midrule",
        "average rank & " + " & ".join(f"{r:.3f}" for r in bench.ranks) + r" \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]
    return "\n".join(out) + "\n"


def _json(bench, digits: int) -> str:
    return json.dumps(bench.to_dict(), indent=2, allow_nan=False) + "\n"


_RENDERERS = {"text": _text, "json": _json, "csv": _csv, "markdown": _markdown, "latex": _latex}


def render(bench, *, format: str = "text", digits: int = 3) -> str:
    """The report of ``bench`` in ``format`` (one of :data:`BENCHMARK_FORMATS`)."""
    if format not in _RENDERERS:
        raise ValueError(f"unknown report format {format!r} ({', '.join(BENCHMARK_FORMATS)})")
    return _RENDERERS[format](bench, digits)


# --- the view of a Benchmark (svmeval.report._views) -----------------------------------------
def _describe(result) -> tuple[str, str]:
    return (
        f"Benchmark of {len(result.configurations)} configurations on "
        f"{len(result.datasets)} data set(s)",
        f"{result.n_folds}-fold CV x {result.repeat}; criterion {result.criterion}",
    )


def _pictures(result, svg, arrays):
    from svmeval.report import pictures
    from svmeval.report.svg import Picture

    yield Picture("The critical-difference diagram", svg(pictures.plot(result)))
    if any(p.signed_rank is not None for p in result.pairs):
        from svmeval.report.simplex import draw_simplex

        yield Picture(
            "The Bayesian signed-rank test's posterior: each point one Monte-Carlo "
            "draw of (A better, practically equivalent, B better), in the region of "
            "its largest",
            svg(draw_simplex(result)),
        )


def _figure(result, title, pos_label, zero_division):
    from svmeval.report.cd_plot import draw_cd_diagram

    return draw_cd_diagram(result, title=title)


VIEW = View(
    render=lambda result, format, digits, full: render(
        result, format=format, digits=3 if digits is None else digits
    ),
    formats=FORMATS + TABLE_FORMATS,
    digits=None,
    describe=_describe,
    text=lambda result, digits: render(result, format="text"),
    pictures=_pictures,
    figure=_figure,
)

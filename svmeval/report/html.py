"""The HTML report of any result: one self-contained page.

The page holds, in order: what was run (a title and one line), the text report with its
statistical verdicts (the lines the commands print), the result's pictures inline as SVG
(:mod:`svmeval.report.svg`; a sentence says why when there are none, e.g. matplotlib is not
installed), every figure of the result's ``to_dict()`` as tables (each number shown to
``digits`` decimals, its exact value in the cell's ``title``, undefined values ``n/a``), and
the provenance of the numbers (svmeval's and LIBSVM's versions, the command line or the call,
the seeds, each data set's SHA-256 digest and size, when the run started and how long it ran,
from the result's :class:`~svmeval.cv.collect.provenance.Provenance`).

The page needs nothing else: no network, no other file, no script (a Content-Security-Policy
forbids any), inline CSS, a layout that follows the window's width. Every text that comes from
outside (file names, labels, options, configuration names) is escaped with
:func:`html.escape`; the SVG's text is drawn as paths.
"""

from __future__ import annotations

import html
import math

from svmeval._version import __version__
from svmeval.report._folds import fold_source

__all__ = ["render_html"]

#: a list of more values than this, or a table of more rows, is folded (``<details>``)
FOLD_AFTER = 12
FOLD_ROWS = 25

_CSS = """
:root{color-scheme:light;--ink:#1d2430;--mute:#5b6472;--line:#d7dce3;--band:#f4f6f9;
--accent:#1f5fa8}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:#fff}
main{max-width:1180px;margin:0 auto;padding:1.2rem 1.2rem 3rem}
h1{font-size:1.55rem;margin:.2rem 0 .3rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:2rem 0 .6rem;padding-bottom:.2rem;border-bottom:2px solid var(--line)}
h3{font-size:1.02rem;margin:1.2rem 0 .4rem;overflow-wrap:anywhere}
h4,h5,h6{font-size:.95rem;margin:1rem 0 .3rem;color:var(--mute);overflow-wrap:anywhere}
p.lead{color:var(--mute);margin:0 0 .8rem;overflow-wrap:anywhere}
nav ul{display:flex;flex-wrap:wrap;gap:.3rem 1.1rem;list-style:none;padding:0;margin:.4rem 0}
nav a{color:var(--accent)}
pre{background:var(--band);border:1px solid var(--line);border-radius:4px;padding:.7rem .9rem;
overflow-x:auto;font:13px/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
white-space:pre}
.scroll{overflow-x:auto;max-width:100%;margin:.3rem 0 .8rem}
table{border-collapse:collapse;font-size:13.5px}
th,td{border:1px solid var(--line);padding:.22rem .5rem;vertical-align:top;text-align:left}
thead th{background:var(--band);position:sticky;top:0}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.na{color:var(--mute);text-align:right}
td.t{white-space:nowrap}
th[scope=row]{background:#fafbfc;font-weight:600;white-space:nowrap}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;
overflow-wrap:anywhere}
figure{margin:1rem 0 1.6rem}
figcaption{color:var(--mute);font-size:.9rem;margin-top:.3rem}
figure svg{display:block}
details{margin:.3rem 0 .8rem}
summary{cursor:pointer;color:var(--accent)}
.note{background:#fff8e1;border-left:4px solid #e0a800;padding:.5rem .8rem}
footer{margin-top:3rem;color:var(--mute);font-size:.85rem}
@media (max-width:700px){body{font-size:14px}main{padding:.8rem .6rem 2rem}
h1{font-size:1.3rem}pre{font-size:11.5px;padding:.5rem}table{font-size:12.5px}}
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _e(value) -> str:
    """Text from anywhere, escaped for an element's content or a quoted attribute."""
    return html.escape(str(value), quote=True)


def _is_scalar(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _number(value, digits: int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    exact = repr(value)
    if len(exact) <= digits + 3 and "e" not in exact:  # 0.03125, 98.3146: shown whole
        return exact
    if value == 0 or 10 ** -(digits - 1) <= abs(value) < 1e9:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}g}"


def _cell(value, digits: int, tag: str = "td") -> str:
    """One table cell: a number right-aligned with its exact value as its title."""
    if value is None:
        return f'<{tag} class="na">n/a</{tag}>'
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<{tag} class="n" title="{_e(repr(value))}">{_e(_number(value, digits))}</{tag}>'
    if isinstance(value, list):
        return f"<{tag}>{_inline(value, digits)}</{tag}>"
    if isinstance(value, dict):
        return f'<{tag} class="mono">{_e(_json(value))}</{tag}>'
    text = _number(value, digits) if isinstance(value, bool) else str(value)
    short = ' class="t"' if len(text) <= 24 else ""
    return f"<{tag}{short}>{_e(text)}</{tag}>"


def _json(value) -> str:
    import json

    return json.dumps(value, allow_nan=True)


def _inline(values: list, digits: int) -> str:
    """A short list of values on one line (numbers with their exact value as title)."""
    parts = []
    for v in values:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            parts.append(f'<span title="{_e(repr(v))}">{_e(_number(v, digits))}</span>')
        elif _is_scalar(v):
            parts.append("n/a" if v is None else _e(v))
        else:
            parts.append(f'<span class="mono">{_e(_json(v))}</span>')
    return ", ".join(parts) if parts else "(none)"


def _title(key: str) -> str:
    return key.replace("_", " ")


def _heading(column: str) -> str:
    """A table column's heading in the text report's words: a figure's title from the
    registry (``balanced_accuracy``: "balanced accuracy", ``mcc``: "MCC"), else the key in
    words."""
    from svmeval.metrics.figures import FIGURES

    figure = FIGURES.get(column)
    return figure.title if figure is not None else _title(column)


def _figure_title(name: str) -> str:
    """A row's name in the text report's words where it is a figure's (``macro_f1``: "macro
    F1"); any other name (a class label) as it is."""
    from svmeval.metrics.figures import FIGURES

    figure = FIGURES.get(name)
    return figure.title if figure is not None else name


#: lists of records numbered by a column of their own, from 1, where the rows lack one
NUMBERED = {"folds": "fold", "repeats": "repetition"}


def _wrap(table: str, label: str, rows: int) -> str:
    """A table in a horizontally scrolling box; folded when it has many rows."""
    box = f'<div class="scroll">{table}</div>'
    if rows > FOLD_ROWS:
        return f"<details><summary>{_e(label)} ({rows} rows)</summary>{box}</details>"
    return box


def _flatten(row: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def _is_records(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(x, dict) for x in value)


def _records(key: str, rows: list, digits: int, depth: int) -> str:
    """A list of dicts as one table (nested dicts as dotted columns); a list of dicts inside
    a row becomes a table of its own under the row's name."""
    flat = [_flatten(r) for r in rows]
    columns: list = []
    for r in flat:
        columns += [c for c in r if c not in columns and not _is_records(r[c])]
    head = "".join(f'<th scope="col">{_e(_heading(c))}</th>' for c in columns)
    body = "".join(
        "<tr>" + "".join(_cell(r.get(c), digits) for c in columns) + "</tr>" for r in flat
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    out = [_wrap(table, _title(key), len(rows))]
    level = min(depth + 1, 6)
    for i, r in enumerate(flat):
        name = " ".join(str(v) for v in list(r.values())[:2] if isinstance(v, str)) or str(i)
        for c, value in r.items():
            if _is_records(value):
                out.append(f"<h{level}>{_e(_title(key))} {_e(name)}: {_e(_title(c))}</h{level}>")
                out.append(_records(c, value, digits, depth + 1))
    return "".join(out)


def _matrix(key: str, rows: list, digits: int, labels: tuple | None) -> str:
    """A list of lists as a grid, its rows and columns named by ``labels`` (rows, columns)
    where they fit."""
    width = max((len(r) for r in rows), default=0)
    if labels is not None and len(labels[0]) == len(rows) and len(labels[1]) == width:
        names, columns = labels
        head = '<th scope="col"></th>' + "".join(_cell(v, digits, "th") for v in columns)
        body = "".join(
            "<tr>" + _cell(names[i], digits, "th") + "".join(_cell(v, digits) for v in r) + "</tr>"
            for i, r in enumerate(rows)
        )
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    else:
        body = "".join(
            f'<tr><th scope="row">{i}</th>' + "".join(_cell(v, digits) for v in r) + "</tr>"
            for i, r in enumerate(rows)
        )
        table = f"<table><tbody>{body}</tbody></table>"
    return _wrap(table, _title(key), len(rows))


def _long_list(key: str, values: list, digits: int) -> str:
    body = "".join(
        f'<tr><th scope="row">{i}</th>{_cell(v, digits)}</tr>' for i, v in enumerate(values)
    )
    table = f"<table><tbody>{body}</tbody></table>"
    box = f'<div class="scroll">{table}</div>'
    return f"<details><summary>{_e(_title(key))} ({len(values)} values)</summary>{box}</details>"


def _is_table(obj: dict) -> bool:
    """A dict of dicts of scalars (each figure's mean and sd): rows of one table."""
    return bool(obj) and all(
        isinstance(v, dict) and v and all(_is_scalar(x) for x in v.values()) for v in obj.values()
    )


def _labels(obj: dict, key: str) -> tuple | None:
    """The names of a matrix's rows and columns, from the dict that holds it: a confusion
    matrix's labels, a benchmark's data sets and configurations."""
    if key == "confusion_matrix" and isinstance(obj.get("labels"), list):
        return obj["labels"], obj["labels"]
    if isinstance(obj.get("datasets"), list) and isinstance(obj.get("configurations"), list):
        return obj["datasets"], obj["configurations"]
    return None


def _blocks(obj: dict, digits: int, depth: int) -> str:
    """A dict of the result's data as HTML: its scalars as one table of names and values,
    then each list and dict in its own block (records as tables, matrices as grids)."""
    level = min(depth, 6)
    scalars = [(k, v) for k, v in obj.items() if _is_scalar(v)]
    short = [
        (k, v)
        for k, v in obj.items()
        if isinstance(v, list) and len(v) <= FOLD_AFTER and all(_is_scalar(x) for x in v)
    ]
    out = []
    if scalars or short:
        body = "".join(
            f'<tr><th scope="row">{_e(_heading(k))}</th>{_cell(v, digits)}</tr>'
            for k, v in scalars + short
        )
        out.append(f'<div class="scroll"><table><tbody>{body}</tbody></table></div>')
    done = {k for k, _ in scalars + short}
    for key, value in obj.items():
        if key in done:
            continue
        heading = f"<h{level}>{_e(_title(key))}</h{level}>"
        if isinstance(value, dict) and _is_table(value):  # name -> {mean, sd}: one table
            rows = [{"name": _figure_title(k), **v} for k, v in value.items()]
            out.append(heading + _records(key, rows, digits, depth))
        elif isinstance(value, dict):
            out.append(heading + (_blocks(value, digits, depth + 1) if value else "<p>(none)</p>"))
        elif not value:
            out.append(heading + "<p>(none)</p>")
        elif all(isinstance(x, dict) for x in value):
            number = NUMBERED.get(key)
            if number is not None and not any(number in x for x in value):
                value = [{number: i, **x} for i, x in enumerate(value, 1)]
            out.append(heading + _records(key, value, digits, depth))
        elif all(isinstance(x, list) and all(_is_scalar(y) for y in x) for x in value):
            out.append(heading + _matrix(key, value, digits, _labels(obj, key)))
        elif all(_is_scalar(x) for x in value):
            out.append(heading + _long_list(key, value, digits))
        else:
            parts = {f"{key}[{i}]": x for i, x in enumerate(value)}
            out.append(heading + _blocks(parts, digits, depth + 1))
    return "".join(out)


def _seeds(result) -> str:
    seeds = getattr(result, "seeds", None)
    if not seeds:
        outer = getattr(result, "outer", result)
        seed = getattr(outer, "seed", None)
        if seed is None:
            meta = getattr(result, "meta", {}) or {}
            seed = meta.get("seed")
            seeds = [seed] if seed is not None else []
            repeat = meta.get("repeat") or 1
            if seeds and repeat > 1:
                return f"{seed} (first of {repeat} repetitions)"
        else:
            others = getattr(outer, "repeats", ()) or getattr(outer, "repeat_results", ())
            seeds = [seed] + [r.seed for r in others]
    return ", ".join(str(s) for s in seeds) if seeds else "n/a"


def _provenance(result, command: str | None) -> str:
    record = getattr(result, "provenance", None)
    rows = []

    def row(name: str, value: str, mono: bool = False) -> None:
        cls = ' class="mono"' if mono else ""
        rows.append(f'<tr><th scope="row">{_e(name)}</th><td{cls}>{_e(value)}</td></tr>')

    if record is not None:
        row("svmeval", record.svmeval_version)
        row("LIBSVM", record.libsvm_version)
        if getattr(record, "liblinear_version", "not used") != "not used":
            row("LIBLINEAR", record.liblinear_version)
    else:
        row("svmeval", f"{__version__} (rendering; the run's own is not recorded)")
    if command:
        row("command line", command, mono=True)
    if record is not None:
        row("call", record.call, mono=True)
        row("started (UTC)", record.started)
        row("ran for", f"{record.seconds:.3f} s")
    row("seeds (C srand)", _seeds(result))
    folds = fold_source(result)
    if folds:
        row("folds", folds)
    out = [f'<div class="scroll"><table><tbody>{"".join(rows)}</tbody></table></div>']
    if record is not None and record.data:
        head = "".join(
            f'<th scope="col">{h}</th>'
            for h in ("data set", "SHA-256 of the data as read", "samples", "features")
        )
        body = "".join(
            f'<tr><td>{_e(d.name)}</td><td class="mono">{_e(d.digest or "n/a")}</td>'
            f"{_cell(d.n_samples, 0)}{_cell(d.n_features, 0)}</tr>"
            for d in record.data
        )
        out.append(
            '<h3>data</h3><div class="scroll"><table><thead><tr>'
            f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
        )
    if record is None:
        out.append(
            '<p class="note">This result carries no record of how it was made (predictions '
            "scored from files, or a result built by hand): the run's versions, call, time and "
            "data digests are unknown.</p>"
        )
    return "".join(out)


def render_html(
    result,
    *,
    digits: int | None = None,
    command: str | None = None,
    summary=None,
    arrays: dict | None = None,
) -> str:
    """The HTML page of ``result`` (any result :func:`svmeval.render` takes, or a
    :class:`~svmeval.cv.CVResult` / :class:`~svmeval.cv.MultilabelCVResult` itself).

    ``digits``: decimals shown (default 4; the exact values are in the cells' titles);
    ``command``: the command line that made the result, shown in its provenance;
    ``arrays``: for a :class:`~svmeval.summary.Summary`, the per-sample arrays its figure sheet
    draws from (:func:`svmeval.report.plot.result_arrays`)."""
    from svmeval.report._views import RenderTypeError, view_of
    from svmeval.report.svg import pictures

    view = view_of(result)
    if view is None:
        raise RenderTypeError(
            f"render_html() takes a result of svmeval, not {type(result).__name__}"
        )
    digits = 4 if digits is None else digits
    title, line = view.describe(result)
    text = view.text(result, digits)
    drawn, note = pictures(result, arrays=arrays)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{_e(title)} · svmeval</title>",
        f"<style>{_CSS}</style></head><body><main>",
        f'<header><h1>{_e(title)}</h1><p class="lead">{_e(line)}</p>',
        '<nav><ul><li><a href="#report">report and verdicts</a></li>'
        '<li><a href="#pictures">pictures</a></li><li><a href="#tables">tables</a></li>'
        '<li><a href="#provenance">provenance</a></li></ul></nav></header>',
        '<section id="report"><h2>Report and verdicts</h2>',
        f"<pre>{_e(text.rstrip())}</pre></section>",
        '<section id="pictures"><h2>Pictures</h2>',
    ]
    for picture in drawn:
        parts.append(
            f"<figure>{picture.svg}<figcaption>{_e(picture.caption)}</figcaption></figure>"
        )
    if note:
        parts.append(f'<p class="note">{_e(note)}</p>')
    parts += [
        "</section>",
        '<section id="tables"><h2>Tables</h2>',
        "<p>Every figure of the result, as its JSON report has it; numbers shown to "
        f"{digits} decimals (the exact value is the cell's tooltip), n/a where undefined.</p>",
        _blocks(view.data(result), digits, 3),
        "</section>",
        '<section id="provenance"><h2>Provenance</h2>',
        _provenance(result, command),
        "</section>",
        f"<footer>Written by svmeval {_e(__version__)}. This page runs no script and loads "
        "nothing.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"

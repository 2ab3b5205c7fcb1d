"""Reporters: ``render(result, format=...)`` for every result of svmeval.

A :class:`~svmeval.summary.Summary` (any kind), a :class:`~svmeval.workflows.grid.GridResult`, a
:class:`~svmeval.workflows.compare.Comparison`, a McNemar result alone or a
:class:`~svmeval.workflows.nested.NestedResult`, as "text", "json" or "csv"; a
:class:`~svmeval.workflows.benchmark.Benchmark` also as "markdown" or "latex".
Reporters format; they never compute. Every figure comes from the result, and the scalar
figures' names, titles and order from :data:`svmeval.metrics.FIGURES`.
"""

from __future__ import annotations

import functools

from svmeval.report import csvfmt, jsonfmt, multilabel, text

FORMATS = ("text", "json", "csv")
TABLE_FORMATS = ("markdown", "latex")  # a Benchmark's table as papers print it

REPORTERS = {
    "text": text.render,
    "json": jsonfmt.render,
    "csv": csvfmt.render,
}


def _summary(summary, format: str, digits: int, full: bool) -> str:
    if summary.kind == "multilabel":
        return multilabel.render(summary, format=format, digits=digits, full=full)
    return REPORTERS[format](summary, digits=digits, full=full)


def _grid(result, format: str, digits: int, full: bool) -> str:
    from svmeval.report.grid import render_grid
    return render_grid(result, format)


def _comparison(result, format: str, digits: int, full: bool) -> str:
    from svmeval.report.compare import render_comparison
    return render_comparison(result, format)


def _mcnemar(result, format: str, digits: int, full: bool) -> str:
    from svmeval.report.compare import render_mcnemar
    return render_mcnemar(result, format)


def _nested(result, format: str, digits: int, full: bool) -> str:
    from svmeval.report.nested import render_nested
    return render_nested(result, format, digits, full)


def _benchmark(result, format: str, digits: int, full: bool) -> str:
    from svmeval.report.benchmark import render as render_benchmark
    return render_benchmark(result, format=format)


@functools.cache
def renderers() -> dict:
    """result type -> its renderer ``(result, format, digits, full) -> str``. Built on first
    use: the result types' modules are imported only when something is rendered."""
    from svmeval.workflows.benchmark import Benchmark
    from svmeval.workflows.compare import Comparison
    from svmeval.workflows.grid import GridResult
    from svmeval.stats.significance import McNemarResult
    from svmeval.workflows.nested import NestedResult
    from svmeval.summary.core import Summary
    return {Summary: _summary, GridResult: _grid, Comparison: _comparison,
            McNemarResult: _mcnemar, NestedResult: _nested, Benchmark: _benchmark}


def render(result, *, format: str = "text", digits: int = 4, full: bool = False) -> str:
    """The report of ``result`` in ``format`` ("text", "json" or "csv").

    ``result``: a :class:`~svmeval.summary.Summary`, a :class:`~svmeval.workflows.grid.GridResult`, a
    :class:`~svmeval.workflows.compare.Comparison` or a
    :class:`~svmeval.stats.significance.McNemarResult`. ``digits`` and ``full`` shape a
    Summary's text (figures' decimals; every figure and the per-fold table)."""
    table = renderers()
    for cls in type(result).__mro__:
        if cls in table:
            allowed = FORMATS + (TABLE_FORMATS if table[cls] is _benchmark else ())
            if format not in allowed:
                raise ValueError(f"unknown report format {format!r} ({', '.join(allowed)})")
            return table[cls](result, format, digits, full)
    if format not in FORMATS + TABLE_FORMATS:
        raise ValueError(f"unknown report format {format!r} (text, json or csv)")
    raise TypeError(f"render() takes a Summary, GridResult, Comparison, McNemarResult, "
                    f"NestedResult or Benchmark, not {type(result).__name__}")

"""``render(result, format=...)``: the reporters of every result (:mod:`svmeval.report`'s
names, imported on first use)."""

from __future__ import annotations

import functools
import importlib

from svmeval._args import checked
from svmeval.errors import InvalidParameterError, SvmevalError
from svmeval.report import FORMATS, HTML, TABLE_FORMATS

#: format -> the module whose ``render(summary, digits=, full=)`` writes a summary in it,
#: imported on first use (svm-train's lines need neither the JSON nor the CSV writer)
REPORTERS = {
    "text": "svmeval.report.text",
    "json": "svmeval.report.jsonfmt",
    "csv": "svmeval.report.csvfmt",
}


def _summary(summary, format: str, digits: int, full: bool) -> str:
    if summary.kind == "multilabel":
        from svmeval.report import multilabel

        return multilabel.render(summary, format=format, digits=digits, full=full)
    reporter = importlib.import_module(REPORTERS[format])
    return reporter.render(summary, digits=digits, full=full)


def _cv(result, format: str, digits: int, full: bool) -> str:
    from svmeval.summary import summarize

    return _summary(summarize(result), format, digits, full)


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


def _permutation(result, format: str, digits: int | None, full: bool) -> str:
    from svmeval.report.permutation import render as render_permutation

    return render_permutation(result, format=format, digits=4 if digits is None else digits)


def _threshold(result, format: str, digits: int | None, full: bool) -> str:
    from svmeval.report.threshold import render as render_threshold

    return render_threshold(result, format=format, digits=4 if digits is None else digits)


def _benchmark(result, format: str, digits: int | None, full: bool) -> str:
    from svmeval.report.benchmark import render as render_benchmark

    return render_benchmark(result, format=format, digits=3 if digits is None else digits)


@functools.cache
def renderers() -> dict:
    """result type -> its renderer ``(result, format, digits, full) -> str``. Built on first
    use: the result types' modules are imported only when something is rendered."""
    from svmeval.cv.results import CVResult, MultilabelCVResult
    from svmeval.stats.significance import McNemarResult
    from svmeval.summary.core import Summary
    from svmeval.workflows.benchmark import Benchmark
    from svmeval.workflows.compare import Comparison
    from svmeval.workflows.grid import GridResult
    from svmeval.workflows.nested import NestedResult
    from svmeval.workflows.permutation import PermutationTest
    from svmeval.workflows.threshold import TunedThreshold

    return {
        Summary: _summary,
        CVResult: _cv,
        MultilabelCVResult: _cv,
        GridResult: _grid,
        Comparison: _comparison,
        McNemarResult: _mcnemar,
        NestedResult: _nested,
        Benchmark: _benchmark,
        PermutationTest: _permutation,
        TunedThreshold: _threshold,
    }


@checked
def render(result, *, format: str = "text", digits: int | None = None, full: bool = False) -> str:
    """The report of any result of svmeval, as the commands print it.

    Parameters
    ----------
    result : CVResult, MultilabelCVResult, Summary, GridResult, NestedResult, Comparison, Benchmark, McNemarResult, PermutationTest or TunedThreshold
        What to report, as it is (a cross-validation is summarized first, with
        :func:`summarize`'s defaults; its HTML page takes it as it is).
    format : {"text", "json", "csv", "markdown", "latex", "html"}, default "text"
        "text" is svmeval's report (its first lines svm-train's, byte for byte); "json" and
        "csv" the machine-readable forms; "markdown" and "latex" a benchmark's table as
        papers print it; "html" one self-contained page with the text report, the pictures
        (inline SVG, with the ``plot`` extra), every figure as tables and the provenance of
        the numbers (``svmeval.report.html``).
    digits : int, optional
        Decimals of the figures (default 4; 3 in a benchmark's table).
    full : bool, default False
        A summary's text with every figure and the per-fold table.

    Returns
    -------
    str
        The report, ending with a newline.

    Raises
    ------
    InvalidParameterError
        An unknown format, or one that ``result``'s type has no report in ("markdown" and
        "latex" are a benchmark's tables), before any work (an :class:`SvmevalError`, also a
        ValueError).
    SvmevalError
        ``result`` is not a result svmeval reports (this error is also a TypeError).

    Examples
    --------
    >>> from svmeval import cross_validate, render, summarize
    >>> summary = summarize(cross_validate("data/breast_cancer.scale", "-c 2", folds=5))
    >>> print(render(summary).splitlines()[0])
    Cross Validation Accuracy = 96.8366%
    >>> render(summary, format="json").startswith("{")
    True
    """
    table = renderers()
    if format == HTML and (_is_cv_result(result) or any(c in table for c in type(result).__mro__)):
        from svmeval.report.html import render_html

        return render_html(result, digits=digits)
    digits = 4 if digits is None and not _is_benchmark(result) else digits
    for cls in type(result).__mro__:
        if cls in table:
            allowed = FORMATS + (TABLE_FORMATS if table[cls] is _benchmark else ())
            allowed += (HTML,)
            if format not in allowed:
                message = (
                    f"must be one of {', '.join(allowed)} for a {type(result).__name__}: "
                    f"it has no {format!r} report"
                )
                raise InvalidParameterError("format", message, text=f"format {message}")
            return table[cls](result, format, digits, full)
    raise RenderTypeError(
        f"render() takes a CVResult, MultilabelCVResult, Summary, GridResult, Comparison, "
        f"McNemarResult, NestedResult, Benchmark, PermutationTest or TunedThreshold, not "
        f"{type(result).__name__}"
    )


class RenderTypeError(SvmevalError, TypeError):
    """render() of something that is not a result it can report."""


def _is_cv_result(result) -> bool:
    """A cross-validation's result itself (its HTML page summarizes it)."""
    from svmeval.cv.results import CVResult, MultilabelCVResult

    return isinstance(result, (CVResult, MultilabelCVResult))


def _is_benchmark(result) -> bool:
    return renderers().get(type(result)) is _benchmark

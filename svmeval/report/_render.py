"""``render(result, format=...)``: the reporters of every result; ``to_dict(result)`` and
``to_frame(result)``: any result as data (:mod:`svmeval.report`'s names, imported on first
use)."""

from __future__ import annotations

import importlib

from svmeval._args import ARGUMENTS, checked
from svmeval.errors import InvalidParameterError, SvmevalError
from svmeval.report import HTML
from svmeval.report._views import RenderTypeError, view_of

#: format -> the module whose ``render(summary, digits=, full=)`` writes a summary in it,
#: imported on first use (svm-train's lines need neither the JSON nor the CSV writer)
REPORTERS = {
    "text": "svmeval.report.text",
    "json": "svmeval.report.jsonfmt",
    "csv": "svmeval.report.csvfmt",
}


def render_summary(summary, format: str, digits: int, full: bool) -> str:
    """A :class:`~svmeval.summary.Summary`'s report in ``format`` (text, json or csv)."""
    if summary.kind == "multilabel":
        from svmeval.report import multilabel

        return multilabel.render(summary, format=format, digits=digits, full=full)
    reporter = importlib.import_module(REPORTERS[format])
    return reporter.render(summary, digits=digits, full=full)


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
    view = view_of(result)
    if view is None:
        raise RenderTypeError(
            f"render() takes a CVResult, MultilabelCVResult, Summary, GridResult, Comparison, "
            f"McNemarResult, NestedResult, Benchmark, PermutationTest or TunedThreshold, not "
            f"{type(result).__name__}"
        )
    if format == HTML:
        from svmeval.report.html import render_html

        return render_html(result, digits=digits)
    allowed = view.formats + (HTML,)
    if format not in allowed:
        message = (
            f"must be one of {', '.join(allowed)} for a {type(result).__name__}: "
            f"it has no {format!r} report"
        )
        raise InvalidParameterError("format", message, text=f"format {message}")
    return view.render(result, format, view.digits if digits is None else digits, full)


# --- any result as data ------------------------------------------------------------------
def _result_method(result, method: str):
    bound = getattr(result, method, None)
    if bound is None or isinstance(result, type) or not callable(bound):
        raise SvmevalError(
            f"{method}() takes a result of svmeval (CVResult, Summary, "
            f"GridResult, NestedResult, Comparison, Benchmark, McNemarResult), "
            f"not {type(result).__name__}"
        )
    return bound


def to_dict(result) -> dict:
    """Any result of svmeval as plain JSON types: ``result.to_dict()``.

    Parameters
    ----------
    result : CVResult, Summary, GridResult, NestedResult, Comparison, Benchmark, ...
        Any result of svmeval.

    Returns
    -------
    dict
        JSON types only (NaN and infinities as None): ``json.dumps`` takes it as it is.

    Examples
    --------
    >>> import json
    >>> from svmeval import cross_validate, summarize, to_dict
    >>> summary = summarize(cross_validate("data/wine.scale", folds=3))
    >>> sorted(to_dict(summary))[:3]
    ['accuracy', 'averages', 'balanced_accuracy']
    >>> json.loads(json.dumps(to_dict(summary)))["n_samples"]
    178
    """
    return _result_method(result, "to_dict")()


def to_frame(result, **kwargs):
    """Any result of svmeval as a pandas DataFrame, one row per (data set, configuration,
    repetition, fold): ``result.to_frame(**kwargs)``.

    Parameters
    ----------
    result : CVResult, Summary, GridResult, NestedResult, Comparison, Benchmark, ...
        Any result of svmeval.
    **kwargs
        What the result's own ``to_frame`` takes (a CVResult: ``pos_label``,
        ``zero_division``).

    Returns
    -------
    pandas.DataFrame
        The columns ``dataset``, ``configuration`` (as given), ``options`` (svm-train's
        resolved flags), ``repetition``, ``seed``, ``fold``, ``n_test``, then the result's own and the figures by registry name. Needs pandas
        (the ``frame`` extra).

    Examples
    --------
    >>> from svmeval import cross_validate, to_frame
    >>> frame = to_frame(cross_validate("data/wine.scale", folds=3))
    >>> list(frame.columns[:6])
    ['dataset', 'configuration', 'options', 'repetition', 'seed', 'fold']
    >>> int(frame["n_test"].sum())
    178
    """
    method = _result_method(result, "to_frame")
    for name, value in kwargs.items():
        if name in ARGUMENTS:
            ARGUMENTS[name].check(value, name)
    return method(**kwargs)

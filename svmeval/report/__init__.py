"""Reporters: ``render(result, format=...)`` for every result of svmeval.

A :class:`~svmeval.summary.Summary` (any kind), a :class:`~svmeval.workflows.grid_result.GridResult`, a
:class:`~svmeval.workflows.compare.Comparison`, a McNemar result alone or a
:class:`~svmeval.workflows.nested.NestedResult`, as "text", "json" or "csv"; a
:class:`~svmeval.workflows.benchmark.Benchmark` also as "markdown" or "latex"; every one of
them, and a cross-validation's result itself, as "html" (one self-contained page).
Reporters format; they never compute. Every figure comes from the result, and the scalar
figures' names, titles and order from :data:`svmeval.metrics.FIGURES`.
"""

from __future__ import annotations

FORMATS = ("text", "json", "csv")
TABLE_FORMATS = ("markdown", "latex")  # a Benchmark's table as papers print it
HTML = "html"  # one self-contained page, for every result (svmeval.report.html)

# render and its tables are imported on first use (svmeval.report._render): svm-train's lines
# (svmeval.report.svm_train) load neither the argument checks nor a reporter
_LAZY = ("REPORTERS", "RenderTypeError", "render", "to_dict", "to_frame")


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'svmeval.report' has no attribute {name!r}")
    import importlib  # on first use: importing the package itself loads nothing more

    value = getattr(importlib.import_module("svmeval.report._render"), name)
    globals()[name] = value
    return value

"""Reporters: ``render(summary, format=...)`` for every kind of :class:`~svmeval.summary.Summary`.

Reporters format; they never compute. Every figure comes from the summary, and the scalar
figures' names, titles and order from :data:`svmeval.metrics.FIGURES`.
"""

from __future__ import annotations

from . import csvfmt, jsonfmt, multilabel, text

FORMATS = ("text", "json", "csv")

REPORTERS = {
    "text": text.render,
    "json": jsonfmt.render,
    "csv": csvfmt.render,
}


def render(summary, *, format: str = "text", digits: int = 4, full: bool = False) -> str:
    """The report of ``summary`` in ``format`` ("text", "json" or "csv")."""
    if format not in FORMATS:
        raise ValueError(f"unknown report format {format!r} (text, json or csv)")
    if summary.kind == "multilabel":
        return multilabel.render(summary, format=format, digits=digits, full=full)
    return REPORTERS[format](summary, digits=digits, full=full)

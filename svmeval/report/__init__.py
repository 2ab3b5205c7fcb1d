"""Reporters: one per output format behind one interface, ``render(summary, *, digits) -> str``.

Reporters format; they never compute. Every figure comes from :class:`svmeval.summary.Summary`.
"""

from __future__ import annotations

from . import csvfmt, jsonfmt, text

REPORTERS = {
    "text": text.render,
    "json": jsonfmt.render,
    "csv": csvfmt.render,
}


def render(summary, *, format: str = "text", digits: int = 4, full: bool = False) -> str:
    """The report of ``summary`` in ``format`` ("text", "json" or "csv")."""
    return REPORTERS[format](summary, digits=digits, full=full)

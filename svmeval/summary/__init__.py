"""From a CV result (or predictions) to every figure a report shows."""

from .single import Summary, summarize

__all__ = ["Summary", "summarize"]

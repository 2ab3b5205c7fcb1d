"""The report of a :class:`~svmeval.workflows.leak.LeakCheck`: the honest figure, the whole
file's, their difference and the corrected resampled t-test."""

from __future__ import annotations

import json

from svmeval.report._views import View

__all__ = ["VIEW", "leak_text"]


def _figure(value: float, criterion: str, digits: int) -> str:
    if criterion == "accuracy":
        return f"{100 * value:.{max(0, digits - 2)}f}%"
    return f"{value:.{digits}f}"


def leak_text(result, digits: int = 4) -> str:
    """The text report (within 80 columns)."""
    c = result.criterion
    n = result.honest_folds.size
    lines = [
        f"Preprocessing: {result.honest.preprocessing} ({c}, the mean of {n} folds)",
        f"  learned inside each fold:  {_figure(result.honest_value, c, digits)}",
        f"  learned on the whole file: {_figure(result.whole_file_value, c, digits)}",
        f"  difference (inside - whole file): {_signed(result.difference, c, digits)}",
    ]
    test = result.test
    if test is not None:
        lines.append(
            f"  corrected resampled t-test over the folds: t = {test.t:.3f}, p = {test.p:.4g}"
        )
    return "\n".join(lines) + "\n"


def _signed(value: float, criterion: str, digits: int) -> str:
    if criterion == "accuracy":
        return f"{100 * value:+.{max(0, digits - 2)}f} points"
    return f"{value:+.{digits}f}"


def _render(result, format: str = "text", digits=None, full: bool = False) -> str:
    digits = 4 if digits is None else digits
    if format == "json":
        return json.dumps(result.to_dict(), indent=2) + "\n"
    return leak_text(result, digits)


VIEW = View(
    render=lambda result, format, digits, full: _render(result, format, digits, full),
    describe=lambda result: (
        "Preprocessing inside the folds and on the whole file",
        result.honest.preprocessing,
    ),
    text=lambda result, digits: leak_text(result, 4 if digits is None else digits),
    formats=("text", "json"),
)

"""The report of a :class:`~svmeval.workflows.leak.LeakCheck`: the honest figure, the whole
file's, their difference and the corrected resampled t-test."""

from __future__ import annotations

import json
import textwrap

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
    if result.sizes:
        lines = _sizes_lines(result, digits)
    else:
        lines = [
            f"Preprocessing: {result.honest.preprocessing} ({c}, the mean of {n} folds)",
            f"  learned inside each fold:  {_figure(result.honest_value, c, digits)}",
            f"  learned on the whole file: {_figure(result.whole_file_value, c, digits)}",
        ]
    lines.append(f"  difference (inside - whole file): {_signed(result.difference, c, digits)}")
    test = result.test
    if test is not None:
        lines.append(
            f"  corrected resampled t-test over the folds: t = {test.t:.3f}, p = {test.p:.4g}"
        )
    return "\n".join(lines) + "\n"


def _sizes_lines(result, digits: int) -> list:
    """The two figures of a choice of sizes: nested CV's, and fselect.py's on the whole file."""
    from collections import Counter

    c = result.criterion
    n = result.honest_folds.size
    sizes = ",".join(map(str, result.sizes))
    chosen = Counter(result.honest_sizes)
    counts = ", ".join(f"{k} ({m} fold{'s' if m > 1 else ''})" for k, m in sorted(chosen.items()))
    rates = [f"{k}: {rate:g}%" for k, rate in zip(result.sizes, result.whole_file_rates)]
    learned = result.honest.preprocessing or ""
    scaled = f", after {learned.split('; ')[0]}" if learned.startswith("scale") else ""
    lines = [
        *textwrap.wrap(
            f"Feature selection, sizes {sizes}{scaled} ({c}, the mean of {n} folds)",
            80,
            subsequent_indent="  ",
            break_on_hyphens=False,
        ),
        f"  learned inside each fold:  {_figure(result.honest_value, c, digits)}"
        "  (nested cross-validation)",
        *textwrap.wrap(
            "each outer fold ranked its own training rows and chose its size by an "
            f"inner cross-validation of them: {counts}",
            76,
            initial_indent="    ",
            subsequent_indent="    ",
        ),
        f"  learned on the whole file: {_figure(result.whole_file_value, c, digits)}"
        "  (what tools/fselect.py reports)",
        *_wrapped(
            "the whole file ranked once, each size cross-validated on the same folds, "
            f"{result.whole_file_size} the best:",
            rates,
        ),
    ]
    return lines


def _wrapped(text: str, items: list) -> list:
    """``text`` then ``items`` (each kept whole), in lines of 80 columns indented by 4."""
    lines = textwrap.wrap(text, 76, initial_indent="    ", subsequent_indent="    ")
    for item in items:
        if len(lines[-1]) + 2 + len(item) <= 80:
            lines[-1] += ("  " if lines[-1].endswith("%") else " ") + item
        else:
            lines.append("    " + item)
    return lines


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

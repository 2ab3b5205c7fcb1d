"""The features a run with ``select`` kept: how many folds kept each (their ranking was
learned on each fold's training rows)."""

from __future__ import annotations

import json

__all__ = ["selection_json", "selection_lines"]


def selection_lines(result, width: int = 80) -> str:
    """The text block of a :class:`~svmeval.cv.collect.results.CVResult` run with ``select``: the
    features kept by some fold as ``feature:folds``, most often kept first, wrapped within
    ``width`` columns ("" without selection)."""
    if not result.selected:
        return ""
    n = len(result.selected)
    frequency = result.selection_frequency
    head = f"Features kept by the folds' F-score ranking (feature:folds of {n}):"
    items = [f"{f}:{round(share * n)}" for f, share in frequency.items()]
    lines, line = [head], " "
    for item in items:
        if len(line) + 1 + len(item) > width:
            lines.append(line)
            line = " "
        line += " " + item
    lines.append(line)
    return "\n".join(lines) + "\n"


def selection_json(report: str, result) -> str:
    """The JSON ``report`` (one object, ``indent=2``) with ``"selected"`` last, each fold's
    kept features as :meth:`~svmeval.cv.collect.results.CVResult.to_dict` gives them; ``report``
    unchanged without selection."""
    if not result.selected:
        return report
    selected = [[int(f) for f in features] for features in result.selected]
    body = json.dumps({"selected": selected}, indent=2)  # '{\n  "selected": ...\n}'
    head = report.rstrip("\n")  # ends with the object's closing "\n}"
    return head[: -len("\n}")] + ",\n" + body[len("{\n") :] + "\n"

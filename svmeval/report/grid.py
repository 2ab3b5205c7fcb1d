"""The reports of a parameter search (:class:`~svmeval.workflows.grid.GridResult`): every cell's
figures with their fold spread as JSON (``--results FILE.json``) or CSV (one row per cell; a
figure's columns: pooled value, fold mean, fold sd), and as text grid.py's own lines (each
cell's ``-out`` line, then the best C, gamma and value).

``grid_object`` is the JSON report's object (and ``GridResult.to_dict()``)."""

from __future__ import annotations

import json
import math

__all__ = ["grid_object", "render_grid"]


def _json_number(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else v


def _cell_object(r) -> dict:
    c = r.cell
    return {"log2c": c.log2c, "log2g": c.log2g, "log2p": c.log2p, "C": c.C,
            "gamma": c.gamma, "p": c.p, "value": _json_number(r.value),
            "resumed": r.resumed,
            "figures": {k: _json_number(v) for k, v in r.figures.items()},
            "fold_spread": {k: {"mean": _json_number(m), "sd": _json_number(s)}
                            for k, (m, s) in r.fold_spread.items()}}


def grid_object(result) -> dict:
    """JSON-friendly: criterion, best cell, every cell with its figures and fold spread."""
    return {"criterion": result.criterion, "greater_is_better": result.greater_is_better,
            "kind": result.kind, "n_folds": result.n_folds, "seed": result.seed,
            "best": _cell_object(result.best), "cells": [_cell_object(r) for r in result.cells]}


def _num(v) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(v)


def _csv(result) -> str:
    names: list[str] = []
    for r in result.cells:
        names.extend(n for n in r.figures if n not in names)
    head = ["log2c", "log2g", "log2p", "C", "gamma", "p", "resumed", "best", result.criterion
            + "_compared"]
    for n in names:
        head += [n, f"{n}_fold_mean", f"{n}_fold_sd"]
    lines = [",".join(head)]
    for r in result.cells:
        c = r.cell
        row = [_num(c.log2c), _num(c.log2g), _num(c.log2p), _num(c.C), _num(c.gamma),
               _num(c.p), str(int(r.resumed)), str(int(r is result.best)), _num(r.value)]
        for n in names:
            mean, sd = r.fold_spread.get(n, (None, None))
            row += [_num(r.figures.get(n)), _num(mean), _num(sd)]
        lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def _text(result) -> str:
    from svmeval.workflows import grid_rules as rules
    lines = "".join(rules.out_line(r.cell, r.value, r.resumed) for r in result.cells)
    return lines + rules.last_line(result.best.cell, result.best.value,
                                   resumed=result.best.resumed) + "\n"


def render_grid(result, format: str) -> str:
    """The report of a :class:`~svmeval.workflows.grid.GridResult` in ``format``."""
    if format == "json":
        return json.dumps(grid_object(result), indent=1) + "\n"
    if format == "csv":
        return _csv(result)
    return _text(result)

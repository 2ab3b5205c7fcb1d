"""The reports of a parameter search (:class:`~svmeval.workflows.grid_result.GridResult`): every cell's
figures with their fold spread as JSON (``--results FILE.json``) or CSV (one row per cell; a
figure's columns: pooled value, fold mean, fold sd), and as text grid.py's own lines (each
cell's ``-out`` line, then the best C, gamma and value). A search of a class weight adds the
columns ``log2w`` and ``w_label`` (the class) after ``log2p``, and ``w`` (the weight) after
``p``; a search of the number of features adds ``select`` (the size K) after them; a C x
gamma grid's columns are unchanged.

The JSON object is ``GridResult.to_dict()``."""

from __future__ import annotations

import json
import math

from svmeval.report._views import View

__all__ = ["render_grid"]


def _num(v) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(v)


def _csv(result) -> str:
    names: list[str] = []
    for r in result.cells:
        names.extend(n for n in r.figures if n not in names)
    weighted = result.weight_label is not None
    sized = result.best.cell.select is not None
    head = [
        "log2c",
        "log2g",
        "log2p",
        *(("log2w", "w_label") if weighted else ()),
        "C",
        "gamma",
        "p",
        *(("w",) if weighted else ()),
        *(("select",) if sized else ()),
        "resumed",
        "best",
        result.criterion + "_compared",
    ]
    for n in names:
        head += [n, f"{n}_fold_mean", f"{n}_fold_sd"]
    lines = [",".join(head)]
    for r in result.cells:
        c = r.cell
        row = [
            _num(c.log2c),
            _num(c.log2g),
            _num(c.log2p),
            *((_num(c.log2w), str(c.w_label)) if weighted else ()),
            _num(c.C),
            _num(c.gamma),
            _num(c.p),
            *((_num(c.w),) if weighted else ()),
            *((str(c.select),) if sized else ()),
            str(int(r.resumed)),
            str(int(r is result.best)),
            _num(r.rate),
        ]
        for n in names:
            mean, sd = r.fold_spread.get(n, (None, None))
            row += [_num(r.figures.get(n)), _num(mean), _num(sd)]
        lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def render_grid(result, format: str) -> str:
    """The report of a :class:`~svmeval.workflows.grid_result.GridResult` in ``format``."""
    if format == "json":
        return json.dumps(result.to_dict(), indent=1) + "\n"
    if format == "csv":
        return _csv(result)
    return result._grid_py_text()


# --- the view of a GridResult (svmeval.report._views) ----------------------------------------
def _describe(result) -> tuple[str, str]:
    return f"Grid search on {result.data_name or 'data'}", (
        f"{len(result.cells)} cells, {result.n_folds}-fold CV each, seed {result.seed}; "
        f"criterion {result.criterion}"
        + ("" if result.best_select is None else f"; best size {result.best_select} features")
    )


def _pictures(result, svg, arrays):
    import os

    from svmeval.report import pictures
    from svmeval.report.svg import Picture

    title = os.path.basename(result.data_name)
    yield Picture("The criterion over the grid", svg(pictures.plot(result, title=title)))


def _figure(result, title, pos_label, zero_division):
    import os

    from svmeval.report.grid_plot import draw_grid

    return draw_grid(
        result, title=title if title is not None else os.path.basename(result.data_name)
    )


VIEW = View(
    render=lambda result, format, digits, full: render_grid(result, format),
    describe=_describe,
    text=lambda result, digits: render_grid(result, "text"),
    pictures=_pictures,
    figure=_figure,
)

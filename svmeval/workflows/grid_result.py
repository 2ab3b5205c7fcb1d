"""The result of a parameter search: every cell's cross-validation (:class:`CellResult`) and the
search as a whole (:class:`GridResult`), with their tables (``to_dict``, ``to_frame``); the search
itself is :func:`svmeval.workflows.grid.grid_search`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from svmeval import _tables as tables
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance
from svmeval.params import LinearParams, SvmParams, linear_configuration
from svmeval.summary.data import summary_rows
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_rules import Cell, cell_params


@dataclass(frozen=True, eq=False)
class CellResult:
    """One cell's cross-validation.

    ``value``: the criterion's value, a fraction as every figure of svmeval (accuracy 0.983146;
    NaN = undefined). ``rate``: the criterion as the search compares it and grid.py's lines
    print it: accuracy is svm-train's printed rate in percent, as grid.py reads it back
    (98.3146); any other figure is its value.
    ``figures``: every figure, pooled over the folds (registry names); ``fold_spread``: name ->
    (mean, sd) over folds. Both are computed from the cell's CV result when first asked for
    (the search itself needs only the criterion). A cell taken from a resumed ``-out`` file has
    only its value. ``ahead``: the cell was finished before a cell that comes before it in the
    search's order (grid.py's job order) was known; an ``-out`` file marks such lines
    (:data:`~svmeval.workflows.grid_rules.ORDER_LINE`), so that a search resumed from it ends on
    the same best cell.

    Examples
    --------
    >>> from svmeval import grid_search
    >>> grid = grid_search("data/wine.scale", log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3)
    >>> first = grid.cells[0]
    >>> first.cell.C, first.cell.gamma, first.rate, round(first.value, 6), first.resumed
    (2.0, 0.125, 97.7528, 0.977528, False)
    """

    __repr__ = brief_repr

    cell: Cell
    rate: float
    params: SvmParams | None = None
    resumed: bool = False
    ahead: bool = field(default=False, compare=False)
    summarize: Callable | None = field(default=None, repr=False)
    percent: bool = False  # rate is accuracy in percent (grid.py's)

    @property
    def value(self) -> float:
        """The criterion's value as a fraction (``rate`` / 100 for accuracy)."""
        return self.rate / 100.0 if self.percent else self.rate

    @functools.cached_property
    def summary(self):
        """The cell's :class:`~svmeval.summary.Summary` (None for a resumed cell)."""
        return self.summarize() if self.summarize is not None else None

    @property
    def figures(self) -> dict:
        return dict(self.summary.figures) if self.summary is not None else {}

    @property
    def fold_spread(self) -> dict:
        return dict(self.summary.fold_spread) if self.summary is not None else {}


@dataclass(frozen=True, eq=False)
class GridResult:
    """A finished search: ``cells`` in grid.py's order (the resumed cells first, in their
    file's order, then the others in grid.py's job order; resumed cells after a ``-out``
    file's order line in their job-order places), ``best`` the one grid.py's rule picks in
    that order; ``data_name`` the data set's name (its file); ``provenance`` how it was made
    (``Provenance``). :func:`svmeval.report.render` gives its reports; ``to_dict()`` and
    ``to_frame()`` its data.

    Examples
    --------
    >>> from svmeval import grid_search
    >>> grid = grid_search("data/wine.scale", log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3)
    >>> len(grid.cells), grid.best.cell.log2c, grid.best.cell.log2g, grid.best.rate
    (9, -1.0, -1.0, 98.3146)
    >>> grid.to_frame().shape  # one row per (cell, fold)
    (27, 27)
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.grid:VIEW"

    __repr__ = brief_repr

    criterion: str
    greater_is_better: bool
    cells: list
    best: CellResult
    kind: str
    n_folds: int
    seed: int
    #: the configuration searched: LIBSVM's, or LIBLINEAR's (a search of C alone)
    params: SvmParams | LinearParams
    data_name: str = ""
    provenance: Provenance | None = field(default=None, repr=False)
    #: where the folds came from when they are not LIBSVM's: "grouped (N groups)", "given"
    fold_source: str = ""

    @property
    def best_params(self) -> SvmParams | LinearParams:
        """The full parameters of the best cell (for a final model): LIBSVM's, or LIBLINEAR's
        for a search of a LinearParams."""
        return cell_params(self.params, self.best.cell)

    @property
    def best_select(self) -> int | None:
        """The best cell's number of features (None where the size was not searched)."""
        return self.best.cell.select

    @property
    def weight_label(self) -> int | None:
        """The class whose weight the search searched (``log2w``'s label), None for none."""
        return self.best.cell.w_label

    def _grid_py_text(self) -> str:
        """grid.py's own lines: each cell's ``-out`` line, then the best cell's last line
        (its text report)."""
        lines = "".join(rules.out_line(r.cell, r.rate, r.resumed) for r in self.cells)
        best = self.best
        return lines + rules.last_line(best.cell, best.rate, resumed=best.resumed) + "\n"

    def to_dict(self) -> dict:
        """The JSON report's object (``--results FILE.json``): criterion, best cell, every cell
        with its figures and fold spread."""
        return _grid_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (cell, fold): the columns of a results table
        (``dataset``, ``configuration``, ``repetition``, ``seed``, ``fold``, ``n_test``), the
        cell's ``log2c``, ``log2g``, ``log2p``, ``C``, ``gamma``, ``p``, ``value`` (the
        criterion as the search compared it), ``resumed`` and ``best``, then the figures of
        that fold; a cell resumed from an ``-out`` file is one row with ``fold`` None.
        A search of a class weight adds ``log2w``, ``w`` and ``w_label`` (the class), None
        elsewhere; a search of the number of features adds ``select`` (the size K)."""
        tables.pandas()
        rows = []
        for r in self.cells:
            c = r.cell
            cell = {
                "log2c": c.log2c,
                "log2g": c.log2g,
                "log2p": c.log2p,
                "C": c.C,
                "gamma": c.gamma,
                "p": c.p,
                "value": r.value,
                "resumed": r.resumed,
                "best": r is self.best,
            }
            if self.weight_label is not None:
                cell.update(log2w=c.log2w, w=c.w, w_label=c.w_label)
            if self.best_select is not None:
                cell.update(select=c.select)
            flags = _configuration(cell_params(self.params, c))
            if r.summary is None:
                rows.append(
                    {
                        "dataset": self.data_name,
                        "configuration": flags,
                        "options": flags,
                        "repetition": 0,
                        "seed": self.seed,
                        "fold": None,
                        "n_test": None,
                        **cell,
                    }
                )
                continue
            for row in summary_rows(r.summary, configuration=flags, dataset=self.data_name):
                figures = {k: row.pop(k) for k in list(row) if k not in tables.KEYS}
                rows.append({**row, **cell, **figures})
        return tables.frame(rows)


def _configuration(params) -> str:
    """A cell's configuration in tables: svm-train's flags, or ``linear:`` and LIBLINEAR's."""
    if isinstance(params, LinearParams):
        return linear_configuration(params)
    return params.flags()


def _cell_object(r) -> dict:
    c = r.cell
    weight = {} if c.w_label is None else {"log2w": c.log2w, "w": c.w, "w_label": c.w_label}
    size = {} if c.select is None else {"select": c.select}
    return {
        "log2c": c.log2c,
        "log2g": c.log2g,
        "log2p": c.log2p,
        **weight,
        **size,
        "C": c.C,
        "gamma": c.gamma,
        "p": c.p,
        "value": tables.finite(r.value),
        "resumed": r.resumed,
        "figures": {k: tables.finite(v) for k, v in r.figures.items()},
        "fold_spread": {
            k: {"mean": tables.finite(m), "sd": tables.finite(s)}
            for k, (m, s) in r.fold_spread.items()
        },
    }


def _grid_object(result) -> dict:
    """JSON-friendly: criterion, best cell, every cell with its figures and fold spread (a
    search of the number of features: each cell's ``select``, and the sizes searched)."""
    sizes = sorted({r.cell.select for r in result.cells if r.cell.select is not None})
    return {
        "criterion": result.criterion,
        "greater_is_better": result.greater_is_better,
        "kind": result.kind,
        "n_folds": result.n_folds,
        "seed": result.seed,
        **({"fold_source": result.fold_source} if result.fold_source else {}),
        **({"select_sizes": sizes} if sizes else {}),
        "best": _cell_object(result.best),
        "cells": [_cell_object(r) for r in result.cells],
    }

"""A parameter search of a LIBLINEAR configuration (:class:`~svmeval.params.LinearParams`):
LIBLINEAR's own warm-started search over C (``train -C``, solvers 0 and 2; C and p together
for ``-s 11``; :func:`svmeval.cv.run.linear_search.search_c_linear`), every step's predictions
kept, the best cell chosen by any criterion, as a
:class:`~svmeval.workflows.grid_result.GridResult` over log2 C (gamma absent; for ``-s 11``
each cell's p too, on a linear axis: :class:`~svmeval.workflows.grid_rules.Cell`'s
``p_value``) that renders as every grid search does.

``-s 11``: LIBLINEAR's 20 values of p, largest first (``i * max|y| / 20``, i = 19, ..., 0),
for each its search over C; the cells in that order. The default criterion is the mean
squared error, LIBLINEAR's own: its value is LIBLINEAR's (the squared errors summed in row
order, over l, as ``train -C`` prints it), and of equal values the first cell in LIBLINEAR's
order wins (the larger p, then the smaller C), as ``find_parameters`` keeps the first
strictly smaller one. Any other regression figure (r2, mae, ...) chooses among the same
cells by the same rule.

Its Cs are LIBLINEAR's, not a range: from ``calc_start_C`` (a power of 2 under which the
solution hardly moves) doubling up to 1024, stopping after five Cs in a row whose weights no
fold changed; each fold of each C is warm-started from its weights at the C before. Its folds
are LIBLINEAR's own (``train -v``'s shuffle after ``srand(seed)``). A criterion other than
LIBLINEAR's (accuracy, or mse for regression) chooses among the same Cs: the search's stop
does not change with it. Warm starts make each C's predictions those of ``train -C``, which
may differ in the last digits of the weights from a cold ``train -c C -v k``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from svmeval.errors import ArgumentError
from svmeval.params import LinearParams
from svmeval.workflows.grid_arguments import GridArguments

__all__ = ["linear_grid"]

#: grid_search's arguments a LIBLINEAR search does not take, and their defaults
_NOT_TAKEN = {
    "groups": None,
    "given_folds": None,
    "log2p": None,
    "log2w": None,
    "resume": None,
    "scale": None,
    "select": None,
    "store": None,
    "on_start": None,
    "on_cell": None,
    "on_finish": None,
}


def check_linear_grid(params: LinearParams, arguments: GridArguments) -> None:
    """Refuse, by name, what a LIBLINEAR search does not take, before any data are read."""
    from svmeval.cv.run.linear_search import SEARCHED
    from svmeval.workflows import grid_rules as rules

    for name, default in _NOT_TAKEN.items():
        value = getattr(arguments, name)
        if value is not default and not (name == "scale" and value is False):
            raise ArgumentError(name, f"does not apply to a LinearParams ({_WHY[name]})")
    if arguments.log2g not in (None, rules.DEFAULT_LOG2G):
        raise ArgumentError("log2g", "does not apply to a LinearParams (LIBLINEAR has no gamma)")
    if arguments.log2c not in (None, rules.DEFAULT_LOG2C):
        raise ArgumentError(
            "log2c",
            "does not apply to a LinearParams (LIBLINEAR's search chooses its Cs, as train -C)",
        )
    params.check()
    if params.solver_type not in SEARCHED:
        raise ArgumentError(
            "params",
            "LIBLINEAR's warm-started search takes -s 0 and -s 2 (C) and -s 11 (C and p)",
        )


_WHY = {
    "groups": "its search draws LIBLINEAR's own folds",
    "given_folds": "its search draws LIBLINEAR's own folds",
    "log2p": "LIBLINEAR's search chooses its values of p for -s 11, as train -C",
    "log2w": "LIBLINEAR's search chooses C only",
    "resume": "its search is one warm-started run",
    "scale": "preprocessing is learned inside LIBSVM's folds only",
    "select": "preprocessing is learned inside LIBSVM's folds only",
    "store": "LIBLINEAR's search is not kept in a results store",
    "on_start": "LIBLINEAR's search is one call",
    "on_cell": "LIBLINEAR's search is one call",
    "on_finish": "LIBLINEAR's search is one call",
}


def linear_grid(data, params: LinearParams, arguments: GridArguments, cell_type, grid_type):
    """grid_search of a LIBLINEAR configuration on ``data`` (``arguments``: grid_search's,
    checked by :func:`check_linear_grid`): a ``grid_type`` (GridResult) of ``cell_type``
    cells (CellResult), the types grid.py defines."""
    from dataclasses import replace

    from svmeval._classes import class_code
    from svmeval.cv.plan import checks
    from svmeval.cv.run.linear_search import search_c_linear
    from svmeval.workflows import grid_rules as rules

    criterion, pos_label = arguments.criterion, arguments.pos_label
    zero_division, progress = arguments.zero_division, arguments.progress

    run = checks.check_run(arguments.folds, arguments.seed, criterion=criterion)
    dataset = checks.as_dataset(data, "data")
    y = checks.single_label(dataset, "the grid search")
    dataset = checks.classes_for(dataset, data, [params])
    criterion = criterion or checks.default_criterion(params)
    kind = checks.kind_of(y, params)
    figure = checks.check_criterion(criterion, kind, [params])
    pos_label = class_code(pos_label, dataset.classes)
    if params.is_classification:
        checks.check_pos_label(dataset.y, pos_label)
    if arguments.client is None:
        search = search_c_linear(
            dataset, params, run.folds, seed=run.seed, keep_scores=True, jobs=arguments.jobs
        )
    else:  # the whole warm-started search one task on the cluster
        from svmeval.cv.run.linear_search import search_on

        search = search_on(arguments.client, dataset, params, run.folds, run.seed)
    percent = criterion == "accuracy"
    svr = params.solver_type == 11
    cells = []
    for k, step in enumerate(search.steps):
        result = step.result
        if dataset.classes is not None:
            result = replace(result, classes=dataset.classes)
        if svr and criterion == "mse":  # LIBLINEAR's own figure, in its own arithmetic
            value = float(step.score)
        else:
            value = _value(result, criterion, pos_label, zero_division)
        cell = rules.Cell(log2c=math.log2(step.C), log2g=None, p_value=step.p if svr else None)
        cells.append(
            cell_type(
                cell,
                value,
                result.params,
                summarize=functools.partial(_summarize, result, pos_label, zero_division),
                percent=percent,
            )
        )
        if progress is not None:
            progress(k + 1, len(search.steps), None)
    best = rules.choose_best(
        [r.cell for r in cells], [r.rate for r in cells], figure.greater_is_better
    )
    return grid_type(
        criterion=criterion,
        greater_is_better=figure.greater_is_better,
        cells=cells,
        best=cells[best if best is not None else 0],
        kind=kind,
        n_folds=search.n_folds,
        seed=run.seed,
        params=params,
        data_name=dataset.name,
    )


def _value(result, criterion: str, pos_label, zero_division) -> float:
    """A C's criterion as a grid compares it: accuracy as svm-train prints it (grid.py's
    rate, in percent), any other figure its pooled value."""
    from svmeval.workflows import grid_rules as rules

    if criterion == "accuracy":
        correct = int(np.count_nonzero(result.y_true == result.y_pred))
        return rules.accuracy_rate(correct, len(result.y_true))
    from svmeval.summary import summarize

    summary = summarize(result, pos_label=pos_label, zero_division=zero_division, per_fold=False)
    return float(summary.figures.get(criterion, math.nan))


def _summarize(result, pos_label, zero_division):
    from svmeval.summary import summarize

    return summarize(result, pos_label=pos_label, zero_division=zero_division)

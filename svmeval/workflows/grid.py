"""The parameter search: N candidates x 1 seed of svmeval's evaluation core.

Each cell's figures come from exactly the CV ``svmeval -v k -c C -g G --seed S`` runs (LIBSVM's
own folds after ``srand(seed)``, the same for every cell), so with accuracy each cell's rate is
what grid.py with svm-train prints for it. The data are read once; every (cell, fold) is one
task of :func:`svmeval.cv.evaluate.evaluate`, longest first. Where the cost model of
:mod:`svmeval.cv.kernel` says it pays, the cells sharing a gamma train on one precomputed kernel
(bit-identical results, computed once instead of once per cell and fold).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from svmeval.cv.checks import CriterionError, check_criterion, default_criterion, kind_of  # noqa: F401
from svmeval.errors import SvmevalError
from svmeval.params import EPSILON_SVR, SvmParams
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_rules import Cell, cell_params


@dataclass(frozen=True, eq=False)
class CellResult:
    """One cell's cross-validation.

    ``value``: the criterion as the search compares it (accuracy: svm-train's printed rate in
    percent, as grid.py reads it; any other figure as svmeval computes it; NaN = undefined).
    ``figures``: every figure, pooled over the folds (registry names); ``fold_spread``: name ->
    (mean, sd) over folds. Both are computed from the cell's CV result when first asked for
    (the search itself needs only the criterion). A cell taken from a resumed ``-out`` file has
    only its value.
    """

    cell: Cell
    value: float
    params: SvmParams | None = None
    resumed: bool = False
    summarize: Callable | None = field(default=None, repr=False)

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
    file's order, then the others in grid.py's job order), ``best`` the one grid.py's rule picks; ``data_name`` the data set's name (its
    file). :func:`svmeval.report.render` gives its reports; ``to_dict()`` and ``to_frame()``
    its data."""

    criterion: str
    greater_is_better: bool
    cells: list
    best: CellResult
    kind: str
    n_folds: int
    seed: int
    params: SvmParams
    data_name: str = ""

    @property
    def best_params(self) -> SvmParams:
        """The full LIBSVM parameters of the best cell (for a final model)."""
        return cell_params(self.params, self.best.cell)

    def to_dict(self) -> dict:
        """The JSON report's object (``--results FILE.json``): criterion, best cell, every cell
        with its figures and fold spread."""
        from svmeval.report.grid import grid_object
        return grid_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (cell, fold) with the cell's figures on that fold."""
        from svmeval.report.frames import grid_frame
        return grid_frame(self)


def _summarize(result, pos_label, zero_division):
    from svmeval.summary import summarize
    return summarize(result, pos_label=pos_label, zero_division=zero_division)


def criterion_of(result, criterion: str, *, pos_label=None, zero_division=0.0) -> float:
    """The criterion's value of one cell's CV result: accuracy as svm-train prints it (from the
    count alone), any other figure from the pooled figures (no per-fold work)."""
    if criterion == "accuracy":
        correct = int(np.count_nonzero(result.y_true == result.y_pred))
        return rules.accuracy_rate(correct, len(result.y_true))
    from svmeval.summary import summarize

    summary = summarize(result, pos_label=pos_label, zero_division=zero_division, per_fold=False)
    return float(summary.figures.get(criterion, math.nan))


# --- running the cells ------------------------------------------------------------------------
class _Cells:
    """The cells to run and what is known of them, decided in grid.py's order as they finish."""

    def __init__(self, order: list[Cell], resumed: dict[Cell, float], greater: bool,
                 on_cell: Callable | None):
        # grid.py takes every resumed cell first, in the file's order (in the grid or not),
        # then the others in its job order
        self.order = list(resumed) + [c for c in order if c not in resumed]
        self.results: dict[Cell, CellResult] = {
            c: CellResult(c, v, resumed=True) for c, v in resumed.items()}
        self.greater = greater
        self.on_cell = on_cell
        self._next = 0
        self.best: CellResult | None = None

    def todo(self) -> list[Cell]:
        return [c for c in self.order if c not in self.results]

    def finish(self, result: CellResult) -> None:
        self.results[result.cell] = result
        self.advance()

    def advance(self) -> None:
        """Take every cell whose turn has come (all before it in the order are known)."""
        while self._next < len(self.order) and self.order[self._next] in self.results:
            r = self.results[self.order[self._next]]
            self._next += 1
            if rules.wins(r.cell, r.value, self.best and self.best.cell,
                          math.nan if self.best is None else self.best.value, self.greater):
                self.best = r
            if self.on_cell:
                self.on_cell(r, self.best)


def grid_search(dataset, params: SvmParams | None = None, *, log2c=rules.DEFAULT_LOG2C,
                log2g=rules.DEFAULT_LOG2G, log2p=None, folds: int = 5,
                criterion: str | None = None, seed: int = 1, pos_label=None,
                zero_division=0.0, resume: dict | None = None,
                kernel_memory: float | None = None, share: bool | None = None,
                on_start: Callable | None = None, on_cell: Callable | None = None,
                on_finish: Callable | None = None, progress: Callable | None = None,
                jobs: int | None = None, client=None) -> GridResult:
    """Search C and gamma (and epsilon-SVR's epsilon) as LIBSVM's grid.py does.

    Every cell is cross-validated on the same folds (LIBSVM's, after ``srand(seed)``) by the
    evaluation core (:mod:`svmeval.cv.evaluate`), C's global state held for the whole search.

    Parameters
    ----------
    dataset : Dataset or str
        The data (a file name is read first); single-label.
    params : SvmParams, optional
        The other LIBSVM parameters (C, gamma and p replaced per cell); default svm-train's.
    log2c, log2g, log2p : (begin, end, step) or None
        The searched ranges; None: not searched (gamma then stays ``params.gamma``).
        ``log2p`` searches epsilon-SVR's epsilon (``-s 3``).
    folds : int, default 5
        k of the k-fold cross-validation (at least 2).
    criterion : str, optional
        A figure name from the registry (:data:`svmeval.metrics.figures.FIGURES`) that fits
        the run (default accuracy, mse for -s 3 / -s 4); its direction comes from the registry.
    seed : int, default 1
        C ``rand()``'s seed before the folds are drawn (0 to 2**32 - 1; 1 = svm-train's).
    pos_label, zero_division
        As for :func:`svmeval.summarize`.
    resume : mapping, optional
        Cell -> value already known (a ``-out`` file's, :func:`rules.read_out`).
    kernel_memory, share
        MB for the shared kernel matrices (default 2048); force (True) or forbid (False) the
        shared kernel (None: the cost model decides).
    on_start : callable, optional
        ``on_start()`` once every argument is checked and a cluster connected.
    on_cell : callable, optional
        ``on_cell(cell_result, best_so_far)`` for every cell in grid.py's order (a cell waits
        for the ones before it).
    on_finish : callable, optional
        ``on_finish(cell_result)`` as soon as a cell's folds are all done (any order: the
        place to write an ``-out`` line).
    progress : callable, optional
        ``progress(done, total, best)`` as cells finish.
    jobs : int, optional
        Folds trained at once here (default: the cores); results identical for every value.
    client : distributed.Client or str, optional
        A Dask client or address (``tcp://host:8786``, ``local[:N]``): the cells' folds run as
        tasks on that cluster, with the same results as here.

    Returns
    -------
    GridResult
    """
    arguments = dict(locals())
    from svmeval.cv import _libsvm

    return _libsvm.c_state(_search)(**arguments)


def _search(dataset, params, *, log2c, log2g, log2p, folds, criterion, seed, pos_label,
            zero_division, resume, kernel_memory, share, on_start, on_cell, on_finish,
            progress, jobs, client) -> GridResult:
    from svmeval.cv import checks
    from svmeval.cv.evaluate import evaluate
    from svmeval.cv.executors import executor_for

    folds, seed = checks.check_folds(folds, "folds"), checks.check_seed(seed)
    resume = checks.check_resume(resume)
    checks.check_memory(kernel_memory)
    checks.check_execution(jobs, client)
    dataset, params = checks.as_dataset(dataset), checks.as_params(params)
    checks.single_label(dataset, "the grid search")
    order = _order(params, log2c, log2g, log2p)
    criterion = criterion or checks.default_criterion(params)
    checks.check_criterion(criterion)
    kind = checks.kind_of(dataset.y, params)
    figure = checks.check_criterion(criterion, kind)
    problem, base, candidates = _candidates(dataset, params, order)
    if base.is_classification:  # the summaries of the cells would refuse it, too late
        from svmeval.summary.single import check_pos_label
        check_pos_label(dataset.y, pos_label)
    if any(c not in resume for c in order):
        from svmeval.cv.folds import check_samples
        check_samples(dataset.n_samples)  # before on_start creates any output
    cells = _Cells(order, resume, figure.greater_is_better, on_cell)
    todo = cells.todo()
    by_cell = dict(zip(order, candidates))
    done = 0

    def finish(unit, result) -> None:
        nonlocal done
        cell = todo[unit.candidate]
        value = criterion_of(result, criterion, pos_label=pos_label,
                             zero_division=zero_division)
        r = CellResult(cell, value, result.params,
                       summarize=functools.partial(_summarize, result, pos_label, zero_division))
        done += 1
        if on_finish:
            on_finish(r)
        cells.finish(r)
        if progress:
            progress(done, len(todo), cells.best)

    # a cluster is connected (workers checked) before anything is written, and only for work
    with executor_for(jobs, client if todo else None) as executor:
        if on_start:
            on_start()
        cells.advance()  # resumed cells at the head of the order
        if todo:
            evaluate(dataset, problem, [by_cell[c] for c in todo], [seed], folds,
                     executor=executor, finish=finish, costs=[_cost(c) for c in todo],
                     share=share, memory_mb=kernel_memory)
    n_folds = min(folds, problem.n_samples)  # LIBSVM's leave-one-out past the rows
    return GridResult(criterion=criterion, greater_is_better=figure.greater_is_better,
                      cells=[cells.results[c] for c in cells.order], best=cells.best,
                      kind=kind, n_folds=n_folds, seed=seed, params=base,
                      data_name=dataset.name)


def _order(params: SvmParams, log2c, log2g, log2p) -> list:
    """The cells in grid.py's job order, every range checked."""
    log2c = None if log2c is None else rules.check_range("-log2c", log2c)
    log2g = None if log2g is None else rules.check_range("-log2g", log2g)
    if log2p is not None:
        log2p = rules.check_range("--log2p", log2p)
        if params.svm_type != EPSILON_SVR:
            raise SvmevalError("--log2p searches epsilon-SVR's epsilon: it needs -s 3")
    return rules.job_order(log2c, log2g, log2p)


def _candidates(dataset, params: SvmParams, order: list):
    """The data's problem, the resolved base parameters and every cell's, each checked by
    LIBSVM before any training."""
    from svmeval.cv import _libsvm, engine

    problem, base = engine.prepare(dataset, params)
    candidates = [cell_params(base, cell) for cell in order]
    for candidate in candidates:
        _libsvm.check_parameter(problem, candidate)
    return problem, base, candidates

def _cost(cell: Cell) -> float:
    """A guess at a cell's training time, to start the longest first: larger C, smaller gamma."""
    return (cell.log2c or 0.0) - 0.5 * (cell.log2g or 0.0)




"""The parameter search: every cell's cross-validation as tasks of svmeval's scheduler.

Each cell's figures come from exactly the CV ``svmeval -v k -c C -g G --seed S`` runs (LIBSVM's
own folds after ``srand(seed)``, the same for every cell), so with accuracy each cell's rate is
what grid.py with svm-train prints for it. The data are read once; every (cell, fold) is one
task of :func:`svmeval.cv.schedule.run_tasks`, longest first. Where the cost model of
:mod:`svmeval.cv.kernel` says it pays, the cells sharing a gamma train on one precomputed kernel
(bit-identical results, computed once instead of once per cell and fold).
"""

from __future__ import annotations

import functools
import math
import os
import queue
import threading
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..errors import SvmevalError
from ..params import EPSILON_SVR, SvmParams
from . import rules
from .rules import Cell


class CriterionError(SvmevalError):
    """A criterion that is unknown or does not fit the kind of run."""


def _registry():
    from ..metrics.figures import FIGURES, criteria_for
    return FIGURES, criteria_for


def check_criterion(criterion: str, kind: str | None = None):
    """The registry's Figure for ``criterion``; raises :class:`CriterionError` with the valid
    names (for ``kind`` when given)."""
    figures, criteria_for = _registry()
    valid = criteria_for(kind) if kind else tuple(figures)
    if criterion not in figures or criterion not in valid:
        where = f" for {kind} data" if kind else ""
        what = "unknown criterion" if criterion not in figures else "criterion"
        raise CriterionError(f"{what} {criterion!r}{' does not apply' + where if criterion in figures else ''}"
                             f": valid criteria{where}: {', '.join(valid)}")
    return figures[criterion]


def kind_of(y: np.ndarray, params: SvmParams) -> str:
    """The figure kind of a run: regression for -s 3 / -s 4, else binary or multiclass."""
    if params.is_regression:
        return "regression"
    return "multiclass" if len(np.unique(y)) > 2 else "binary"


def default_criterion(params: SvmParams) -> str:
    return "mse" if params.is_regression else "accuracy"


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
    """A finished search: ``cells`` in grid.py's order (cells resumed from outside the grid
    first), ``best`` the one grid.py's rule picks; ``data_name`` the data set's name (its
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
        from ..report.grid import grid_object
        return grid_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (cell, fold) with the cell's figures on that fold."""
        from ..report.frames import grid_frame
        return grid_frame(self)


def cell_params(base: SvmParams, cell: Cell) -> SvmParams:
    """``base`` with the cell's C, gamma and epsilon."""
    changes = {}
    if cell.C is not None:
        changes["C"] = cell.C
    if cell.gamma is not None:
        changes["gamma"] = cell.gamma
    if cell.p is not None:
        changes["p"] = cell.p
    return replace(base, **changes)


def _summarize(result, pos_label, zero_division):
    from ..summary import summarize
    return summarize(result, pos_label=pos_label, zero_division=zero_division)


def criterion_of(result, criterion: str, *, pos_label=None, zero_division=0.0) -> float:
    """The criterion's value of one cell's CV result: accuracy as svm-train prints it (from the
    count alone), any other figure from the pooled figures (no per-fold work)."""
    if criterion == "accuracy":
        correct = int(np.count_nonzero(result.y_true == result.y_pred))
        return rules.accuracy_rate(correct, len(result.y_true))
    from ..summary import summarize

    summary = summarize(result, pos_label=pos_label, zero_division=zero_division, per_fold=False)
    return float(summary.figures.get(criterion, math.nan))


# --- running the cells ------------------------------------------------------------------------
class _Cells:
    """The cells to run and what is known of them, decided in grid.py's order as they finish."""

    def __init__(self, order: list[Cell], resumed: dict[Cell, float], greater: bool,
                 on_cell: Callable | None):
        in_grid = set(order)
        # cells resumed from outside the grid come first (grid.py takes every resumed cell
        # before the new ones); the grid's own cells in its job order, resumed or not
        self.order = [c for c in resumed if c not in in_grid] + list(order)
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


def grid_search(*args, **kwargs) -> "GridResult":
    """(Documented below: :func:`_grid_search`'s signature and text.) The search holds C's
    global state (rand(), the print hook, OpenMP threads) for its whole run."""
    import contextlib

    from ..cv import _libsvm

    with contextlib.ExitStack() as stack:  # a cluster connected for the search, closed after
        return _libsvm.c_state(_grid_search)(*args, _stack=stack, **kwargs)


def _grid_search(dataset, params: SvmParams | None = None, *, log2c=rules.DEFAULT_LOG2C,
                log2g=rules.DEFAULT_LOG2G, log2p=None, folds: int = 5,
                criterion: str | None = None, seed: int = 1, jobs: int | None = None,
                pos_label=None, zero_division=0.0, resume: dict | None = None,
                kernel_memory: float | None = None, share: bool | None = None,
                on_start: Callable | None = None, on_cell: Callable | None = None,
                on_finish: Callable | None = None,
                progress: Callable | None = None, client=None, _stack=None) -> GridResult:
    """Search C and gamma (and epsilon-SVR's epsilon) as LIBSVM's grid.py does.

    ``dataset``: a :class:`~svmeval.io.Dataset` or a file name. ``params``: the other LIBSVM
    parameters (:class:`SvmParams`; C / gamma / p replaced per cell). ``log2c``, ``log2g``,
    ``log2p``: ``(begin, end, step)`` or None (not searched; gamma then stays ``params.gamma``).
    ``criterion``: a figure name from :data:`svmeval.metrics.FIGURES` (default accuracy, mse for
    -s 3 / -s 4); its direction comes from the registry. ``seed``: C ``rand()``'s seed before the
    folds are drawn (1 = svm-train's). ``jobs``: folds trained at once (results do not depend on
    it). ``resume``: cell -> value already known (a ``-out`` file's, :func:`rules.read_out`).
    ``share``: force (True) or forbid (False) the shared kernel; default: the cost model within
    ``kernel_memory`` MB. ``client``: a ``distributed.Client``, or an address (``tcp://host:8786``,
    ``local[:N]``): the cells' folds run as tasks on that Dask cluster
    (:mod:`svmeval.cv.cluster`), with the same results as here.

    ``on_start()`` is called when every argument has been checked, before the first training;
    ``on_cell(cell_result, best_so_far)`` is called for every cell in grid.py's order (a cell
    waits for the ones before it); ``on_finish(cell_result)`` as soon as a cell's folds are all
    done (any order: the place to write an ``-out`` line); ``progress(done, total)`` as cells
    finish, with the best so far: ``progress(done, total, best)``.
    """
    from ..cv import _libsvm, engine
    from ..cv import kernel as shared_kernel
    from ..cv.folds import libsvm_folds
    from ..cv.schedule import available_cores, run_tasks
    from ..io.data import read_dataset

    if isinstance(dataset, (str, os.PathLike)):
        dataset = read_dataset(os.fspath(dataset))
    if dataset.y is None:
        raise SvmevalError(f"{dataset.name}: multi-label data: the grid search takes "
                           "single-label data")
    params = params or SvmParams()
    if folds < 2:
        raise SvmevalError("n-fold cross validation: n must >= 2")
    log2c = None if log2c is None else rules.check_range("-log2c", log2c)
    log2g = None if log2g is None else rules.check_range("-log2g", log2g)
    if log2p is not None:
        log2p = rules.check_range("--log2p", log2p)
        if params.svm_type != EPSILON_SVR:
            raise SvmevalError("--log2p searches epsilon-SVR's epsilon: it needs -s 3")
    order = rules.job_order(log2c, log2g, log2p)
    criterion = criterion or default_criterion(params)
    check_criterion(criterion)
    kind = kind_of(dataset.y, params)
    figure = check_criterion(criterion, kind)

    # every cell's parameters checked by LIBSVM before any training
    problem, base = engine.prepare(dataset, params)
    for cell in order:
        _libsvm.check_parameter(problem, cell_params(base, cell))
    cells = _Cells(order, dict(resume or {}), figure.greater_is_better, on_cell)
    todo = cells.todo()
    total, done = len(todo), 0

    _libsvm.srand(seed)
    the_folds = libsvm_folds(problem.y, folds, stratified=base.is_classification,
                             rand=_libsvm.rand)
    if client is not None and todo:  # connected (workers checked) before anything is written
        from ..cv import cluster

        client = _stack.enter_context(cluster.client_for(client))
    if on_start:
        on_start()
    cells.advance()  # resumed cells at the head of the order
    finished: queue.SimpleQueue = queue.SimpleQueue()

    def complete(cell, result):
        nonlocal done
        value = criterion_of(result, criterion, pos_label=pos_label,
                             zero_division=zero_division)
        r = CellResult(cell, value, result.params,
                       summarize=functools.partial(_summarize, result, pos_label, zero_division))
        done += 1
        if on_finish:
            on_finish(r)
        cells.finish(r)
        if progress:
            progress(done, total, cells.best)

    if client is not None and base.probability:
        _run_on_cluster(client, dataset, problem, base, todo, {}, the_folds, seed, False,
                        kernel_memory, complete)
        return _result(cells, criterion, figure, kind, the_folds.n_folds, seed, base,
                       dataset.name)
    if base.probability:
        # -b 1 trains with C rand() (probability's inner CV): each cell alone, its folds in
        # order after srand(seed), exactly as one svm-train process per cell
        for cell in todo:
            result = engine.cross_validate(dataset, cell_params(base, cell), folds, seed=seed,
                                           jobs=1, problem=problem)
            complete(cell, result)
        return _result(cells, criterion, figure, kind, the_folds.n_folds, seed, base,
                       dataset.name)

    groups: dict[tuple, list[Cell]] = {}
    for cell in todo:
        groups.setdefault(shared_kernel.kernel_key(cell_params(base, cell)), []).append(cell)
    per_kernel = max((len(g) for g in groups.values()), default=0) * the_folds.n_folds
    if share is None:
        plan = shared_kernel.plan_sharing(
            problem.n_samples, len(dataset.indices), base, per_kernel, the_folds.n_folds,
            memory_mb=kernel_memory or shared_kernel.DEFAULT_MEMORY_MB)
        share = plan.share
    share = share and base.kernel_type in shared_kernel.SHAREABLE
    if client is not None:
        _run_on_cluster(client, dataset, problem, base, todo, groups, the_folds, seed, share,
                        kernel_memory, complete)
        return _result(cells, criterion, figure, kind, the_folds.n_folds, seed, base,
                       dataset.name)

    def run(plans_by_cell, kernel=None):
        """Run the folds of these cells as one batch of tasks, longest first."""
        left = {cell: plan.folds.n_folds for cell, plan in plans_by_cell.items()}
        tasks = []
        for cell, plan in plans_by_cell.items():
            for task in plan.tasks:
                tasks.append((_cost(cell), _counted(task, cell, left, finished)))
        tasks.sort(key=lambda t: -t[0])

        def drain(_done=None, _total=None):
            while not finished.empty():
                cell = finished.get()
                result = plans_by_cell[cell].result()
                if kernel is not None:
                    result = kernel.restore(result, cell_params(base, cell))
                complete(cell, result)

        run_tasks([t for _, t in tasks], jobs=jobs, progress=drain)
        drain()

    if share:
        threads = jobs or available_cores()
        for key, group in groups.items():
            kernel = shared_kernel.SharedKernel(problem, cell_params(base, group[0]),
                                                threads=threads)
            train = {c: kernel.train_params(cell_params(base, c)) for c in group}
            run({c: engine.CVPlan(kernel.cv_problem, train[c], the_folds, seed)
                 for c in group}, kernel)
            del kernel
    else:
        run({c: engine.CVPlan(problem, cell_params(base, c), the_folds, seed) for c in todo})
    return _result(cells, criterion, figure, kind, the_folds.n_folds, seed, base,
                       dataset.name)


def _run_on_cluster(client, dataset, problem, base: SvmParams, todo: list, groups: dict, folds,
                    seed: int, share: bool, kernel_memory, complete: Callable) -> None:
    """The cells' folds as tasks on a Dask cluster; ``complete(cell, result)`` in this thread
    as each cell's last fold arrives. The data and the folds go to each worker once; with
    ``share``, each gamma's tasks prefer one worker, which computes its kernel once."""
    from ..cv import cluster, engine, workers
    from ..cv import kernel as shared_kernel

    with cluster.Session(client) as session:
        data = session.data(dataset)
        jobs = []
        if base.probability:  # -b 1: a cell is one task, its folds in order after srand(seed)
            for cell in todo:
                args = data + (cell_params(base, cell), folds.n_folds, seed, False)
                jobs.append(cluster.Job(workers.cv_task, args, (cell, None),
                                        priority=_cost(cell)))
        else:
            shipped = session.scatter(folds)
            memory = kernel_memory or shared_kernel.DEFAULT_MEMORY_MB
            # the costliest gammas first: their tasks end early, the cheap ones fill the tail
            weight = {key: sum(_weight(c) for c in group) for key, group in groups.items()}
            ranked = sorted(groups, key=lambda key: -weight[key])
            rank = {cell: g for g, key in enumerate(ranked) for cell in groups[key]}
            n_groups = len(groups)
            pieces = cluster.split_folds(folds.n_folds, len(todo), len(session.workers()))
            for cell in todo:
                own = cell_params(base, cell)
                if share:  # one gamma's tasks together on one worker, its longest first
                    train, kernel = shared_kernel.SharedKernel.train_params(own), (own, memory)
                    priority, group = (n_groups - rank[cell]) * 1e6 + _cost(cell), rank[cell]
                else:
                    train, kernel = own, ()
                    priority, group = _cost(cell), None
                for part in pieces:
                    jobs.append(cluster.Job(workers.fold_task,
                                            data + (shipped, train, part, False) + kernel,
                                            (cell, part), priority=priority, group=group,
                                            cost=_weight(cell) * len(part)))
        plans: dict = {}
        left: dict = {}

        def on_done(tag, outputs) -> None:
            cell, part = tag
            if part is None:
                complete(cell, outputs)
                return
            plan = plans.get(cell)
            if plan is None:
                plan = plans[cell] = engine.CVPlan(problem, cell_params(base, cell), folds, seed)
                left[cell] = folds.n_folds
            for i, output in zip(part, outputs):
                plan.store(i, output)
            left[cell] -= len(part)
            if left[cell] == 0:
                del left[cell]
                complete(cell, plans.pop(cell).result())

        session.run(jobs, on_done)


def _weight(cell: Cell) -> float:
    """A guess at a cell's relative training time (for balancing, not ordering)."""
    return 2.0 ** (_cost(cell) / 4)


def _cost(cell: Cell) -> float:
    """A guess at a cell's training time, to start the longest first: larger C, smaller gamma."""
    return (cell.log2c or 0.0) - 0.5 * (cell.log2g or 0.0)


_LOCK = threading.Lock()


def _counted(task, cell, left: dict, finished: queue.SimpleQueue):
    """The task, and when it is the cell's last fold to end, the cell on ``finished``."""

    def run(omp_threads):
        task(omp_threads)
        with _LOCK:
            left[cell] -= 1
            last = left[cell] == 0
        if last:
            finished.put(cell)
    return run


def _result(cells: _Cells, criterion, figure, kind, n_folds, seed, base,
            data_name: str = "") -> GridResult:
    ordered = [cells.results[c] for c in cells.order]
    return GridResult(criterion=criterion, greater_is_better=figure.greater_is_better,
                      cells=ordered, best=cells.best, kind=kind, n_folds=n_folds, seed=seed,
                      params=base, data_name=data_name)


functools.update_wrapper(grid_search, _grid_search)

"""The parameter search: N candidates x 1 seed of svmeval's evaluation core.

Each cell's figures come from exactly the CV ``svmeval -v k -c C -g G --seed S`` runs (LIBSVM's
own folds after ``srand(seed)``, the same for every cell), so with accuracy each cell's rate is
what grid.py with svm-train prints for it. The data are read once; every (cell, fold) is one
task of :func:`svmeval.cv.run.evaluate.evaluate`, longest first. Where the cost model of
:mod:`svmeval.cv.run.kernel` says it pays, the cells sharing a gamma train on one precomputed kernel
(bit-identical results, computed once instead of once per cell and fold).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from types import SimpleNamespace

import numpy as np

from svmeval._args import checked
from svmeval._classes import class_code
from svmeval.cv.bounded_waits import stopping
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.plan.checks import CriterionError, check_criterion, default_criterion, kind_of  # noqa: F401
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import ArgumentError
from svmeval.io.data import DataSource
from svmeval.params import Configuration, LinearParams, SvmParams
from svmeval.preprocess import ScaleLike
from svmeval.store import StoreLike
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_arguments import GridArguments
from svmeval.workflows.grid_cells import check_weight_label, preprocessing_parts, search_sizes
from svmeval.workflows.grid_cells import job_order_checked as _order
from svmeval.workflows.grid_result import CellResult, GridResult
from svmeval.workflows.grid_rules import Cell, cell_params


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
@recorded
@checked
def grid_search(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    log2c: tuple[float, float, float] | None = rules.DEFAULT_LOG2C,
    log2g: tuple[float, float, float] | None = rules.DEFAULT_LOG2G,
    log2p: tuple[float, float, float] | None = None,
    log2w: tuple[float, float, float, float] | None = None,
    criterion: str | None = None,
    seed: int = 1,
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable | None = None,
    kernel_memory: float | None = None,
    resume: dict | None = None,
    on_start: Callable | None = None,
    on_cell: Callable | None = None,
    on_finish: Callable | None = None,
    share: bool | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | Sequence[int] | str | None = None,
) -> GridResult:
    """Search C and gamma (and epsilon-SVR's epsilon) as LIBSVM's grid.py does, by any figure.

    Every cell is cross-validated on the same folds (LIBSVM's, after ``srand(seed)``), each
    (kernel, gamma) kernel computed once where that pays; the best cell is grid.py's (its job
    order, its ties) under the criterion's direction. With the defaults the cells' accuracies
    are grid.py's, cell for cell.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data (a file name is read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them); one label a sample.
    params : SvmParams or str or LinearParams, optional
        The other LIBSVM parameters (C, gamma and p are replaced per cell), as
        :class:`SvmParams` or svm-train's options; default svm-train's. A
        :class:`LinearParams` (``-s 0`` or ``-s 2``; ``-s 11``: C and p) is searched by
        LIBLINEAR's own warm-started search (``train -C``; :doc:`/guide/large_data`).
    folds : int, default 5
        k of every cell's k-fold cross-validation (grid.py's ``-v``, default 5). With
        ``groups``: k folds of whole groups; not used with ``given_folds``.
    groups, given_folds : optional
        Every cell's folds keep each group whole, or are the folds given, as
        :func:`cross_validate` takes them (one assignment for every cell).
    log2c, log2g, log2p : (begin, end, step) or None
        The searched ranges of log2 C, log2 gamma and log2 epsilon (grid.py's ``-log2c``,
        ``-log2g``; ``log2p`` searches epsilon-SVR's epsilon, ``-s 3``). None: not searched
        (gamma then stays ``params.gamma``). Defaults: grid.py's (-5, 15, 2) and (3, -15, -2).
    log2w : (label, begin, end, step), optional
        Also search log2 of the weight of class ``label`` (svm-train's ``-wLABEL w``: that
        class's C is ``w * C``; C-SVC, ``-s 0``): every C x gamma cell for each weight in
        turn, ties needing the same gamma and weight. With it, ``log2c`` and ``log2g`` may
        both be None (the weight alone). The label must be a class of the data, and
        ``params`` must not fix its weight too; other classes' ``-wi`` stay as given.
    criterion : str, optional
        The figure maximised (or minimised, by its direction), a name of
        :data:`svmeval.metrics.FIGURES` that fits the data (default accuracy; mse for
        regression).
    seed : int, default 1
        C ``srand``'s seed before the folds are drawn (1: svm-train's and grid.py's folds).
    pos_label : label, optional
        The positive class of two-class data (default 1 if present, else the larger label).
    zero_division : {0.0, 1.0, "nan"}, default 0.0
        The value an undefined ratio takes in every average and figure.
    jobs : int, optional
        Folds trained at once on this machine (default: the cores); results identical for
        every value.
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address (``tcp://host:8786``, ``local[:N]``): the
        cells' folds run on that cluster, with the same results.
    progress : callable, optional
        ``progress(done, total, best)`` as cells finish (``best``: the best so far).
    kernel_memory : float, optional
        MB for the kernel matrices shared by the cells of one gamma (default 2048; 0: no
        matrix is shared).
    resume : mapping, optional
        Cell -> rate already known, as an ``-out`` file's lines hold it (accuracy in
        percent; :func:`~svmeval.workflows.grid_rules.read_out`): those cells are not run, and
        are taken first, in the mapping's order, as grid.py takes a resumed file's cells (but
        for those after the file's order line, which keep their places in the job order).
    on_start, on_cell, on_finish : callable, optional
        ``on_start()`` once every argument is checked; ``on_cell(cell_result, best_so_far)``
        for every cell as soon as it is known (the resumed cells first, in their order; then
        each cell as soon as it and the cells scheduled before it are finished: grid.py's job
        order where the kernels of every gamma fit ``kernel_memory`` at once, else gamma by
        gamma, each gamma's cells in that order), ``best_so_far`` being the best of the cells
        known as grid.py's rule picks it in its order; ``on_finish(cell_result)`` for each
        searched cell, just before its ``on_cell``. A search interrupted (KeyboardInterrupt) calls ``on_cell`` for
        every cell finished before it stops.
    share : bool, optional
        Force (True) or forbid (False) the shared kernel matrices; None: the cost model
        decides. Results are identical either way.
    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): every fold it holds is taken from it, the others are computed and written
        to it one by one as they end. The result is the same as without a store.
    scale, select : optional
        Preprocessing learned inside each fold, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): every cell's folds are
        preprocessed on their own training rows (each fold's rows made once for all the
        cells; no kernel is shared between folds). :doc:`/guide/preprocessing`.
        ``select`` may also be a list of distinct sizes ``[K1, K2, ...]``, searched as an
        axis with C and gamma (the C x gamma grid for each size in turn, in the list's order;
        each fold ranks its training rows once for every size; a tie between sizes keeps the
        first), or ``"fselect"``: fselect.py's own list (the n features of F-score at least
        1e-20 in the data, then n halved while above 1, at most 8 sizes). A size above the
        data's features is refused in a list. The best cell's size is ``best.cell.select``.

    Returns
    -------
    GridResult
        Every cell's value and figures, the best cell, ``best_params`` for a final model.

    Raises
    ------
    SvmevalError
        An argument that cannot be used (a criterion that does not fit the data, a bad range).

    See Also
    --------
    nested_cv : an honest estimate of the tuned model.

    Examples
    --------
    >>> from svmeval import grid_search
    >>> grid = grid_search("data/breast_cancer.scale", log2c=(-1, 3, 2), log2g=(-5, -1, 2),
    ...                    criterion="mcc")
    >>> len(grid.cells), grid.best.cell.log2c, grid.best.cell.log2g
    (9, 1.0, -3.0)
    >>> round(grid.best.value, 4), grid.best_params.flags()
    (0.9626, '-g 0.125 -c 2')
    """
    arguments = GridArguments(
        folds=folds,
        groups=groups,
        given_folds=given_folds,
        log2c=log2c,
        log2g=log2g,
        log2p=log2p,
        log2w=log2w,
        criterion=criterion,
        seed=seed,
        pos_label=pos_label,
        zero_division=zero_division,
        jobs=jobs,
        client=client,
        progress=progress,
        kernel_memory=kernel_memory,
        resume=resume,
        on_start=on_start,
        on_cell=on_cell,
        on_finish=on_finish,
        share=share,
        store=store,
        scale=scale,
        select=select,
    )
    return _run(data, params, arguments)


def _run(data, params, arguments: GridArguments) -> GridResult:
    """The search behind grid_search's door: LIBLINEAR's own search of C, or the cells run
    in C's global state with the run's results store open."""
    from svmeval.cv import engine
    from svmeval.cv.run.store_session import opened

    if isinstance(params, LinearParams):  # LIBLINEAR's warm-started search of C
        from svmeval.workflows.grid_linear import check_linear_grid, linear_grid

        check_linear_grid(params, arguments)
        return linear_grid(data, params, arguments, CellResult, GridResult)
    call = {"data": data, "params": params, **arguments.keywords()}
    del call["store"]  # the store's record of the call (svmeval.store.describe_call)
    with opened(arguments.store, "grid_search", (grid_search, call)):
        return engine.c_state(_search)(data, params, arguments)


def _search(data, params, arguments: GridArguments) -> GridResult:
    a = arguments
    head = getattr(a.resume, "head", None)  # an -out file's cells in the file's order
    grid = _checked_grid(data, params, a)
    percent = grid.criterion == "accuracy"  # grid.py's rates: accuracy in percent
    resumed = {c: CellResult(c, v, resumed=True, percent=percent) for c, v in grid.resume.items()}
    cells = rules.Cells(grid.order, resumed, grid.figure.greater_is_better, a.on_cell, head)
    todo = cells.todo()
    finish = _finisher(grid, cells, todo, a, percent)
    _evaluate_cells(grid, cells, todo, finish, a)
    return GridResult(
        criterion=grid.criterion,
        greater_is_better=grid.figure.greater_is_better,
        cells=[cells.results[c] for c in cells.order],
        best=cells.best,
        kind=grid.kind,
        n_folds=grid.n_folds,
        seed=grid.seed,
        params=grid.base,
        data_name=grid.dataset.name,
        fold_source=_fold_kind(grid.fold_source),
    )


def _fold_kind(source) -> str:
    """:attr:`GridResult.fold_source` of a run's fold source (None: LIBSVM's folds)."""
    if source is None:
        return ""
    return f"grouped ({source.n_groups} groups)" if source.grouped else "given"


def _checked_grid(data, params, a: GridArguments) -> SimpleNamespace:
    """Every argument of a grid search checked, before any output is created or any fold
    trained: the run's settings, the data, the cells in grid.py's order and their candidates,
    the criterion's figure."""
    from svmeval.cv.plan import checks

    run = a.checked_run()
    dataset, (params,) = checks.as_dataset_and_params(data, "the grid search", params=params)
    from svmeval.cv.plan.given import fold_source

    source = fold_source(a.groups, a.given_folds, dataset.n_samples)
    sizes = search_sizes(a.select, a.scale, dataset, params)
    order = _order(params, a, sizes)
    if a.log2w is not None:
        check_weight_label(dataset, order[0].w_label)
    shape = rules.check_resume_shape(run.resume, order[0].w_label, sizes is not None)
    if shape:
        raise ArgumentError("resume", shape)
    criterion = a.criterion or checks.default_criterion(params)
    checks.check_criterion(criterion)
    kind = checks.kind_of(checks.single_label(dataset, "the grid search"), params)
    figure = checks.check_criterion(criterion, kind, params)
    problem, base, candidates = _candidates(dataset, params, order)
    from svmeval.cv.run.preprocessed import preprocessing_of

    first = a.select if sizes is None else sizes[0]
    preprocessing = preprocessing_of(a.scale, first, dataset, candidates)
    pos_label = class_code(a.pos_label, dataset.classes)
    if base.is_classification:  # the summaries of the cells would refuse it, too late
        from svmeval.cv.plan.checks import check_pos_label

        check_pos_label(dataset.y, pos_label)
    if any(c not in run.resume for c in order):
        from svmeval.cv.plan.folds import check_samples

        check_samples(dataset.n_samples)  # before on_start creates any output
    n_folds = min(run.folds, dataset.n_samples)  # LIBSVM's leave-one-out past the rows
    if source is not None:
        # the folds checked now, before any output: as the run draws them
        from svmeval.cv.plan.cv_plan import draw_folds

        n_folds = draw_folds(problem.y, run.folds, run.seed, base, source=source).n_folds
    return SimpleNamespace(
        folds=run.folds,
        n_folds=n_folds,
        fold_source=source,
        seed=run.seed,
        resume=run.resume,
        dataset=dataset,
        order=order,
        criterion=criterion,
        kind=kind,
        figure=figure,
        problem=problem,
        base=base,
        by_cell=dict(zip(order, candidates)),
        pos_label=pos_label,
        preprocessing=preprocessing,
        sizes=sizes,
    )


def _finisher(grid, cells, todo, a: GridArguments, percent: bool):
    """The function called with each finished cell and its CV result: its cell's figure,
    handed on as a CellResult in the order the cells were scheduled in."""
    done = 0
    pos_label, zero_division = grid.pos_label, a.zero_division

    def finish(cell, result) -> None:
        # the cells come in the order they were scheduled in, each as soon as it and the
        # cells before it are finished (svmeval.cv.run.evaluate.Release)
        nonlocal done
        if grid.dataset.classes is not None:  # the cell's summary names the user's classes
            result = dataclasses.replace(result, classes=grid.dataset.classes)
        value = criterion_of(
            result, grid.criterion, pos_label=pos_label, zero_division=zero_division
        )
        r = CellResult(
            cell,
            value,
            result.params,
            ahead=cells.ahead(cell),
            summarize=functools.partial(_summarize, result, pos_label, zero_division),
            percent=percent,
        )
        done += 1
        if a.on_finish:
            a.on_finish(r)
        cells.release(r)
        if a.progress and not stopping():  # the cells finished before a Ctrl-C are kept
            a.progress(done, len(todo), cells.leader.best)

    return finish


def _evaluate_cells(grid, cells, todo, finish, a: GridArguments) -> None:
    """The cells ``todo`` cross-validated on the executor; the resumed ones shown first."""
    from svmeval.cv.run.evaluate import evaluate
    from svmeval.cv.run.executors import executor_for

    # a cluster is connected (workers checked) before anything is written, and only for work
    with executor_for(a.jobs, a.client if todo else None) as executor:
        if a.on_start:
            a.on_start()
        cells.start()  # the resumed cells, in their file's order
        rankings = None
        if grid.sizes is not None:
            from svmeval.cv.run.preprocessed import Rankings

            rankings = Rankings()  # each fold ranked once for every size
        for part, preprocessing in preprocessing_parts(grid, todo):
            evaluate(
                grid.dataset,
                grid.problem,
                [grid.by_cell[c] for c in part],
                [grid.seed],
                grid.folds,
                executor=executor,
                finish=lambda unit, result, part=part: finish(part[unit.candidate], result),
                costs=[_cost(c) for c in part],
                share=a.share,
                memory_mb=a.kernel_memory,
                ordered=True,
                fold_source=grid.fold_source,
                preprocessing=preprocessing,
                rankings=rankings,
            )


def _candidates(dataset, params: SvmParams, order: list):
    """The data's problem, the resolved base parameters and every cell's, each checked by
    LIBSVM before any training."""
    from svmeval.cv import engine

    problem, base = engine.prepare(dataset, params)
    candidates = [cell_params(base, cell) for cell in order]
    engine.check_parameters(problem, candidates)
    return problem, base, candidates


def _cost(cell: Cell) -> float:
    """A guess at a cell's training time, to start the longest first: larger C, smaller
    gamma, a larger class weight (one class's C)."""
    return (cell.log2c or 0.0) - 0.5 * (cell.log2g or 0.0) + 0.5 * (cell.log2w or 0.0)

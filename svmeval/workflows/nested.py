"""Nested cross-validation: an honest estimate of a model tuned by svmeval's grid search.

The best cell of a grid search has an optimistic rate: it was chosen on the very folds that
rate it. Nested cross-validation chooses the cell again on each outer training set and rates
the choice on rows the choice never saw.

* The outer folds are the folds ``svmeval -v K --seed S`` draws: LIBSVM's own
  (``svm_cross_validation``'s), after ``srand(S)``.
* On each outer training set, its rows in LIBSVM's fold order (``perm[0:begin]`` then
  ``perm[end:l]``), the grid runs as ``svmeval-grid --seed S`` would on a file of those rows
  (:func:`svmeval.workflows.grid.grid_search`: its inner folds, ranges, criterion, seed, grid.py's job
  order and tie-break). ``num_features`` (gamma's default) stays the whole data set's.
* The chosen cell is trained on the outer training set, in that order, and predicts the outer
  test rows as ``svm_cross_validation`` predicts them. With ``-b 1`` (whose training draws
  from C ``rand()``) that training follows ``srand(S)``, as a fresh ``svm-train`` would.
* ``repeat`` R: R outer cross-validations with :func:`svmeval.cv.engine.repetition_seeds`;
  repetition r is the nested CV of seed ``s_r`` (outer folds and inner grids alike).

The outer predictions form a :class:`~svmeval.cv.CVResult` (input order; its ``params`` are
the base parameters, each fold's own C / gamma / epsilon are in :attr:`NestedResult.folds`),
so :func:`svmeval.summary.summarize` and every reporter take it as they take ``svmeval -v K``'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import cast

import numpy as np

from svmeval._args import checked
from svmeval._classes import class_code
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.plan import checks
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import ArgumentError
from svmeval.io.data import DataSource, rows_of
from svmeval.params import Configuration, LinearParams
from svmeval.preprocess import ScaleLike
from svmeval.store import StoreLike
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_arguments import GridArguments
from svmeval.workflows.nested_result import NestedResult, OuterFold, chosen_text

__all__ = ["NestedResult", "OuterFold", "nested_cv", "chosen_text"]


@recorded
@checked
def nested_cv(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    inner_folds: int = 5,
    log2c: tuple[float, float, float] | None = rules.DEFAULT_LOG2C,
    log2g: tuple[float, float, float] | None = rules.DEFAULT_LOG2G,
    log2p: tuple[float, float, float] | None = None,
    log2w: tuple[float, float, float, float] | None = None,
    criterion: str | None = None,
    seed: int = 1,
    repeat: int = 1,
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    kernel_memory: float | None = None,
    share: bool | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | Sequence[int] | str | None = None,
) -> NestedResult:
    """Nested cross-validation: an honest estimate of the model :func:`grid_search` tunes.

    Each outer fold runs the whole grid search on its training rows only (inner folds drawn
    from those rows), trains the chosen cell there and predicts the outer test rows: the outer
    predictions estimate the tuned model, untouched by the choice. See the user guide for the
    folds' seeds and LIBSVM's order.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data (a file name is read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them); one label a sample.
    params : SvmParams or str or LinearParams, optional
        The other LIBSVM parameters (C, gamma, p and the searched class weight chosen per
        outer fold); default svm-train's. A :class:`LinearParams` (``-s 0`` or ``-s 2``;
        ``-s 11``: C and p) is tuned by LIBLINEAR's own search in each outer fold
        (:doc:`/guide/nested_cv`).
    folds : int, default 5
        The outer folds.
    groups : array-like or str or os.PathLike, optional
        Each row's group, as :func:`cross_validate` takes them: the outer folds and every
        inner grid's folds keep each group whole (an inner grid's groups are those of its
        outer training rows).
    given_folds : array-like or iterable or str or os.PathLike, optional
        The outer folds, as :func:`cross_validate` takes them; the inner grids draw
        LIBSVM's folds of their training rows.
    inner_folds : int, default 5
        Each inner grid's folds.
    log2c, log2g, log2p, log2w, criterion, pos_label, zero_division, kernel_memory, share
        As :func:`grid_search` takes them, for every inner grid.
    seed : int, default 1
        C ``srand``'s seed of the outer folds and of the inner grids.
    repeat : int, default 1
        Outer cross-validations, with seeds ``seed``, ``seed + 1``, ...
    jobs : int, optional
        Folds trained at once on this machine (default: the cores); results identical.
    client : distributed.Client or str, optional
        A Dask client or address: every inner grid's cells run on that cluster (connected
        once).
    progress : callable, optional
        ``progress(done, total)`` as outer folds end (over every repetition).

    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): every fold it holds is taken from it, the inner grids' folds and the outer
        folds' final models alike; the others are computed and written to it one by one as
        they end. The result is the same as without a store.
    scale, select : optional
        Preprocessing learned inside the folds, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): every inner fold on its own
        training rows (inner training rows of the outer training set), and the chosen cell's
        outer model on the outer training rows (:doc:`/guide/preprocessing`). A list of
        sizes (or ``"fselect"``, made from each outer training set) is searched by each
        inner grid with C and gamma, as :func:`grid_search` takes it, and each outer model
        keeps the size its inner search chose: the honest estimate of selecting the size.

    Returns
    -------
    NestedResult
        The outer predictions (``outer``, a :class:`CVResult`), each outer fold's chosen cell
        and inner value; ``summary()`` gives the figures.

    See Also
    --------
    grid_search : the search each outer fold runs.

    Examples
    --------
    >>> from svmeval import nested_cv
    >>> result = nested_cv("data/wine.scale", folds=3, inner_folds=3, log2c=(-1, 3, 2),
    ...                    log2g=(-5, -1, 2))
    >>> len(result.folds), result.outer.n_samples
    (3, 178)
    >>> round(result.summary().figures["accuracy"], 4)
    0.9719
    """
    call = dict(locals())  # the store's record of the call (svmeval.store.describe_call)
    del call["store"]
    from svmeval.cv import engine
    from svmeval.cv.run.store_session import opened

    inner = GridArguments(  # every inner search's (each with its repetition's seed)
        folds=inner_folds,
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
        kernel_memory=kernel_memory,
        share=share,
        scale=scale,
        select=select,
    )
    if isinstance(params, LinearParams):  # LIBLINEAR's warm-started search inside each fold
        from svmeval.workflows.nested_linear import check_linear_nested, linear_nested

        given = replace(inner, groups=groups, given_folds=given_folds, store=store)
        check_linear_nested(params, given)
        return linear_nested(data, params, folds, repeat, progress, inner, OuterFold, NestedResult)
    with contextlib.ExitStack() as stack:  # a cluster connected once for every inner grid
        stack.enter_context(opened(store, "nested_cv", (nested_cv, call)))
        run = engine.c_state(_nested_cv)
        return run(data, params, folds, groups, given_folds, repeat, progress, inner, stack)


def _nested_cv(
    data, params, folds, groups, given_folds, repeat, progress, inner: GridArguments, _stack
) -> NestedResult:
    from svmeval.cv import engine
    from svmeval.params import given_configuration

    given = params

    run = checks.check_run(
        folds,
        inner.seed,
        repeat=repeat,
        inner_folds=inner.folds,
        jobs=inner.jobs,
        criterion=inner.criterion,
    )
    dataset, (params,) = checks.as_dataset_and_params(
        data, "nested cross-validation", params=params
    )
    pos_label = class_code(inner.pos_label, dataset.classes)
    folds, seed, repeat = run.folds, run.seed, run.repeat
    inner_folds = cast(int, run.inner_folds)  # checked: check_run gives it when given
    if inner.log2w is not None:  # the whole data's classes, before any inner grid
        _check_weight_label(dataset, params, inner)
    problem, base = engine.prepare(dataset, params)
    transform = _outer_transform(inner.scale, inner.select, dataset, base)
    criterion = inner.criterion or checks.default_criterion(base)
    figure = checks.check_criterion(criterion, checks.kind_of(problem.y, base), base)
    client = inner.client
    if client is not None:
        from svmeval.cv.run import cluster

        client = _stack.enter_context(cluster.client_for(client))
    # every inner fold learns the preprocessing on its own rows
    inner = replace(
        inner, folds=inner_folds, criterion=criterion, pos_label=pos_label, client=client
    )
    from svmeval.cv.plan.given import fold_source

    source = fold_source(groups, given_folds, dataset.n_samples)
    seeds = engine.repetition_seeds(seed, repeat)
    outer = dict(dataset=dataset, source=source, transform=transform)
    # every outer fold drawn and checked before any trains
    plans = [engine.FoldByFold(problem, base, folds, s, **outer) for s in seeds]
    inner_groups = _inner_groups(source, plans, inner_folds)
    done, total = 0, 0
    results, fold_results = [], []
    for r, (s, plan) in enumerate(zip(seeds, plans)):
        total = total or plan.n_folds * repeat
        for i in range(plan.n_folds):
            fold = _outer_fold(dataset, params, plan, r, i, s, inner, inner_groups)
            fold_results.append(fold)
            done += 1
            if progress is not None:
                progress(done, total)
        results.append(plan.result())
    configuration = given_configuration(given, params)
    classes = getattr(dataset, "classes", None)
    results = [replace(x, configuration=configuration, classes=classes) for x in results]
    first = replace(
        results[0],
        repeats=tuple(engine.repetition(x) for x in results[1:]),
        data_name=getattr(dataset, "name", ""),
        preprocessing=_learned(transform, inner.select),
    )
    return NestedResult(
        outer=first,
        folds=tuple(fold_results),
        criterion=criterion,
        greater_is_better=figure.greater_is_better,
        inner_folds=inner_folds,
        repeat_results=tuple(results[1:]),
        pos_label=pos_label,
        zero_division=cast(float, inner.zero_division),
    )


def _check_weight_label(dataset, params, inner: GridArguments) -> None:
    """The class whose weight the inner grids search: one of the whole data's classes."""
    from svmeval.workflows.grid import _order, check_weight_label

    check_weight_label(dataset, _order(params, inner)[0].w_label)


def _learned(transform, select) -> str:
    """What the outer models learned on their training rows, as the result names it."""
    from svmeval.preprocess import check_sizes

    learned = "" if transform is None else transform.key()
    sizes = check_sizes(select)
    if not isinstance(sizes, (tuple, str)):
        return learned
    shown = sizes if isinstance(sizes, str) else ",".join(map(str, sizes))
    chosen = f"select {shown} (each outer fold's choice)"
    return f"{learned}; {chosen}" if learned else chosen


def _outer_transform(scale, select, dataset, base):
    """The outer models' preprocessing, learned on each outer training set (a
    :class:`~svmeval.cv.run.preprocessed.FoldTransform`), or None; checked before any fold."""
    from svmeval.cv import engine
    from svmeval.preprocess import check_sizes

    sizes = check_sizes(select)
    if isinstance(sizes, (tuple, str)):  # each outer fold learns the size its inner search chose
        engine.preprocessing_of(scale, 1, dataset, [base])  # checked before any fold
        return None if scale is None else _outer_transform(scale, None, dataset, base)
    preprocessing = engine.preprocessing_of(scale, select, dataset, [base])
    if preprocessing is None:
        return None
    from svmeval.cv.run.preprocessed import FoldTransform

    return FoldTransform(dataset, preprocessing)


def _inner_groups(source, plans, inner_folds: int):
    """Each row's group (its number) for the inner grids, or None (no groups); refuses outer
    training rows with fewer groups than ``inner_folds``, before any fold trains."""
    if source is None or not source.grouped:
        return None
    for plan in plans:
        for i in range(plan.n_folds):
            have = len(np.unique(source.codes[plan.assignment.train(i)]))
            if have < inner_folds:
                raise ArgumentError(
                    "inner_folds",
                    f"{inner_folds} inner folds need {inner_folds} groups; outer fold {i + 1} "
                    f"(seed {plan.seed}) trains on {have}",
                )
    return source.codes


def _outer_fold(
    dataset, params, plan, r: int, i: int, seed: int, inner: GridArguments, inner_groups=None
) -> OuterFold:
    """Outer fold ``i`` of ``plan`` (a :class:`~svmeval.cv.engine.FoldByFold`): the inner grid
    on its training rows, the chosen cell trained there (or taken from the run's results
    store), its predictions of the test rows stored in ``plan``."""
    from svmeval.cv.schedule import available_cores
    from svmeval.workflows.grid import grid_search

    folds = plan.assignment
    train, test = folds.train(i), folds.test(i)
    groups = None if inner_groups is None else inner_groups[train].tolist()
    arguments = replace(inner, seed=seed, groups=groups)
    grid = grid_search(rows_of(dataset, train), params, **arguments.keywords())
    chosen = grid.best_params
    transform = None
    if grid.best.cell.select is not None:  # the size the inner search chose, for this fold
        from svmeval.cv.run.preprocessed import FoldTransform
        from svmeval.preprocess import Preprocessing, as_scale_spec

        learned = Preprocessing(as_scale_spec(inner.scale), grid.best.cell.select)
        transform = FoldTransform(dataset, learned)
    plan.run_fold(i, chosen, inner.jobs or available_cores(), transform)
    return OuterFold.chosen_by(grid, r, i, seed, train, test)

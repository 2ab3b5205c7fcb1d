"""Nested cross-validation of a LIBLINEAR configuration (:class:`~svmeval.params.LinearParams`):
the outer folds svmeval's (LIBSVM's draw after ``srand(seed)``, stratified for classifiers),
on each outer training set LIBLINEAR's own warm-started search of C (``train -C`` on those
rows, :mod:`svmeval.workflows.grid_linear`) chooses C by the criterion, and LIBLINEAR's
``train`` with that C, after ``srand(seed)``, predicts the outer fold's test rows.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmeval.errors import ArgumentError
from svmeval.params import LinearParams
from svmeval.workflows.grid_arguments import GridArguments

__all__ = ["check_linear_nested", "linear_nested", "outer_fold"]

#: nested_cv's arguments a LIBLINEAR configuration does not take (grid_search's own are
#: checked by check_linear_grid)
_NOT_TAKEN = ("jobs", "kernel_memory", "share")


def check_linear_nested(params: LinearParams, arguments: GridArguments) -> None:
    """Refuse by name, before any data are read, what a LIBLINEAR nested CV does not take
    (``arguments``: its inner searches' and its own groups, folds given and store)."""
    from svmeval.workflows.grid_linear import check_linear_grid

    check_linear_grid(params, arguments)
    for name in _NOT_TAKEN:
        if getattr(arguments, name) is not None:
            raise ArgumentError(
                name, "does not apply to a LinearParams (LIBLINEAR's searches run in turn here)"
            )


def linear_nested(
    data,
    params: LinearParams,
    folds,
    repeat,
    progress,
    inner: GridArguments,
    fold_type,
    result_type,
):
    """nested_cv of a LIBLINEAR configuration on ``data`` (``folds`` outer folds, ``repeat``
    times, ``progress`` as nested_cv takes it; ``inner``: its inner searches' arguments,
    checked by :func:`check_linear_nested`): a ``result_type`` (NestedResult) of
    ``fold_type`` folds (OuterFold), the types nested.py defines."""
    from svmeval._classes import class_code
    from svmeval.cv import engine
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.folds import group_classes
    from svmeval.cv.run.linear import linear_result
    from svmeval.cv.run.linear_folds import check_linear, seeded_plan

    run = checks.check_run(
        folds, inner.seed, repeat=repeat, inner_folds=inner.folds, criterion=inner.criterion
    )
    dataset = checks.as_dataset(data, "data")
    y = checks.single_label(dataset, "nested cross-validation")
    dataset = checks.classes_for(dataset, data, [params])
    y = np.asarray(dataset.y, dtype=np.float64)
    criterion = inner.criterion or checks.default_criterion(params)
    figure = checks.check_criterion(criterion, checks.kind_of(y, params), [params])
    pos_label = class_code(inner.pos_label, dataset.classes)
    zero_division = inner.zero_division
    if params.is_classification:
        checks.check_pos_label(y, pos_label)
    check_linear(dataset, params)
    classifier = params.is_classification
    labels = group_classes(y)[0].astype(np.float64) if classifier else np.array([])
    seeds = engine.repetition_seeds(run.seed, run.repeat)
    plans = [seeded_plan(dataset, params, run.folds, s) for s in seeds]
    total = sum(p.n_folds for p in plans)
    settings = (run.inner_folds, criterion, pos_label, zero_division, labels)
    calls = [
        (outer_fold, (params, plan.train(i), plan.test(i), seed, settings))
        for seed, plan in zip(seeds, plans)
        for i in range(plan.n_folds)
    ]
    client = inner.client
    if client is not None:  # each outer fold one task on the cluster
        from svmeval.cv.run.linear_cluster import linear_cluster

        with linear_cluster(client) as on:
            outputs = iter(on.run(dataset, calls, progress))
    else:
        outputs = (function(dataset, *args) for function, args in calls)
    results, outer = [], []
    for r, (seed, plan) in enumerate(zip(seeds, plans)):
        target = np.full(len(y), np.nan)
        scores = np.full((len(y), len(labels)), np.nan) if classifier else None
        for i in range(plan.n_folds):
            train, test = plan.train(i), plan.test(i)
            found, target[test], fold_scores = next(outputs)
            if scores is not None:
                scores[test] = fold_scores
            outer.append(fold_type.chosen_by(found, r, i, seed, train, test))
            if progress is not None and client is None:
                progress(len(outer), total)
        results.append(linear_result(dataset, y, target, plan, labels, params, seed, scores))
    first = replace(results[0], repeats=tuple(engine.repetition(x) for x in results[1:]))
    return result_type(
        outer=first,
        folds=tuple(outer),
        criterion=criterion,
        greater_is_better=figure.greater_is_better,
        inner_folds=run.inner_folds,
        repeat_results=tuple(results[1:]),
        pos_label=pos_label,
        zero_division=zero_division,
    )


def outer_fold(dataset, params, train, test, seed: int, inner: tuple) -> tuple:
    """One outer fold (here, or as one task on a cluster): LIBLINEAR's warm-started search on
    the rows ``train`` (``inner``: its folds, criterion, positive class and 0/0 value, and
    the data's classes), then LIBLINEAR's ``train`` of the C it chose on those rows after
    ``srand(seed)``, its predictions of rows ``test``. Returns ``(the inner GridResult,
    the test rows' predictions, their decision values or None)``."""
    from svmeval.cv.run.linear_folds import linear_fold
    from svmeval.io.data import rows_of
    from svmeval.workflows.grid import grid_search

    inner_folds, criterion, pos_label, zero_division, labels = inner
    found = grid_search(
        rows_of(dataset, train),
        params,
        inner_folds,
        criterion=criterion,
        seed=seed,
        pos_label=pos_label,
        zero_division=zero_division,
    )
    n = dataset.n_samples
    target = np.full(n, np.nan)
    scores = np.full((n, len(labels)), np.nan) if params.is_classification else None
    linear_fold(dataset, found.best_params, train, test, seed, target, scores, labels)
    return found, target[test], None if scores is None else scores[test]

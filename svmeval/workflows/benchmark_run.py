"""Run a benchmark: every configuration on every data set over the same seeded folds.

``run_benchmark(datasets, configurations, nr_fold=10, repeat=1, seed=1, criterion=...)``
cross-validates each :class:`~svmeval.params.SvmParams` of ``configurations`` (a mapping
name -> parameters, in order) on each data set ``repeat`` times, with the seeds of
:func:`svmeval.cv.cross_validate` (``seed``, ``seed + 1``, ..: LIBSVM's own folds, so fold j of
repetition r holds the same samples for every configuration of a data set), takes the
criterion's value on every fold (as :func:`svmeval.workflows.compare.compare` does) and returns the
:class:`~svmeval.workflows.benchmark.Benchmark` of those values.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from svmeval.workflows.benchmark import Benchmark
from svmeval.errors import SvmevalError

__all__ = ["run_benchmark"]


def _check_configurations(params: list) -> None:
    if len(params) < 2:
        raise SvmevalError("a benchmark needs at least two configurations")
    if len({p.is_regression for p in params}) > 1:
        raise SvmevalError("the configurations must all be classifiers or all regressions")
    if any(p.svm_type == 2 for p in params):
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")


def _fold_table(dataset, params: list, nr_fold: int, seeds: list, criterion: str, pos_label,
                zero_division, jobs) -> list:
    """The criterion on every fold of every configuration on ``dataset``: one list per
    configuration, repetition-major (the evaluation core runs them all at once)."""
    from svmeval.workflows.compare import _fold_values
    from svmeval.cv.engine import prepare
    from svmeval.cv.evaluate import evaluate
    from svmeval.cv.executors import executor_for

    problem, first = prepare(dataset, params[0])
    resolved = [first] + [prepare(dataset, p, problem=problem)[1] for p in params[1:]]
    runs = [[None] * len(seeds) for _ in params]

    def finish(unit, result) -> None:
        runs[unit.candidate][unit.repetition] = result

    with executor_for(jobs, None) as executor:
        evaluate(dataset, problem, resolved, seeds, nr_fold, executor=executor, finish=finish)
    return [_fold_values(r, criterion, pos_label, zero_division) for r in runs]


def run_benchmark(datasets, configurations: Mapping, nr_fold: int = 10, *, repeat: int = 1,
                  seed: int = 1, criterion: str | None = None, pos_label=None,
                  zero_division=0.0, jobs: int | None = None, level: float = 0.05,
                  rope: float | None = None, test: str = "corrected") -> Benchmark:
    """The :class:`~svmeval.workflows.benchmark.Benchmark` of ``configurations`` (name -> SvmParams)
    on ``datasets`` (:class:`~svmeval.io.Dataset` or file names; names from
    ``Dataset.name``), see the module's notes. ``criterion`` defaults to accuracy (mse for
    regression)."""
    from svmeval.cv import _libsvm, checks
    from svmeval.cv.engine import repetition_seeds
    from svmeval.summary.single import check_pos_label

    names, params = list(configurations), [checks.as_params(p, "configuration")
                                           for p in configurations.values()]
    _check_configurations(params)
    nr_fold, repeat, seed = (checks.check_folds(nr_fold), checks.check_repeat(repeat),
                             checks.check_seed(seed))
    checks.check_execution(jobs)
    datasets = [checks.as_dataset(ds) for ds in datasets]
    criterion = criterion or checks.default_criterion(params[0])
    for ds in datasets:
        checks.single_label(ds, "a benchmark")
        checks.check_criterion(criterion, checks.common_kind(ds.y, params))
        if params[0].is_classification:  # each data set named, before any work
            check_pos_label(ds.y, pos_label, ds.name)
    seeds = repetition_seeds(seed, repeat)
    table = _libsvm.c_state(_fold_table)  # C's rand() and print hook held per data set
    values = np.array([table(ds, params, nr_fold, seeds, criterion, pos_label,
                                   zero_division, jobs) for ds in datasets])
    return Benchmark(values, [ds.name for ds in datasets], names, criterion, n_folds=nr_fold,
                     repeat=repeat, level=level, rope=rope, test=test)

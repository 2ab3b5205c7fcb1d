"""Run a benchmark: every configuration on every data set over the same seeded folds.

``run_benchmark(datasets, configurations, nr_fold=10, repeat=1, seed=1, criterion=...)``
cross-validates each :class:`~svmeval.params.SvmParams` of ``configurations`` (a mapping
name -> parameters, in order) on each data set ``repeat`` times, with the seeds of
:func:`svmeval.cv.cross_validate` (``seed``, ``seed + 1``, ..: LIBSVM's own folds, so fold j of
repetition r holds the same samples for every configuration of a data set), takes the
criterion's value on every fold (as :func:`svmeval.compare.compare` does) and returns the
:class:`~svmeval.benchmark.Benchmark` of those values.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from .benchmark import Benchmark
from .errors import SvmevalError
from .metrics.figures import criteria_for

__all__ = ["run_benchmark"]


def _kinds(datasets, params) -> list:
    from .compare import _figure_kind
    kinds = []
    for ds in datasets:
        if getattr(ds, "y", None) is None:
            raise SvmevalError(f"{ds.name}: multi-label data cannot be compared")
        kinds.append(_figure_kind(params[0], ds))
    return kinds


def _check_configurations(params: list) -> None:
    if len(params) < 2:
        raise SvmevalError("a benchmark needs at least two configurations")
    if len({p.is_regression for p in params}) > 1:
        raise SvmevalError("the configurations must all be classifiers or all regressions")
    if any(p.svm_type == 2 for p in params):
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")


def run_benchmark(datasets, configurations: Mapping, nr_fold: int = 10, *, repeat: int = 1,
                  seed: int = 1, criterion: str | None = None, pos_label=None,
                  zero_division=0.0, jobs: int | None = None, level: float = 0.05,
                  rope: float | None = None, test: str = "corrected") -> Benchmark:
    """The :class:`~svmeval.benchmark.Benchmark` of ``configurations`` (name -> SvmParams)
    on ``datasets`` (:class:`~svmeval.io.Dataset`; names from ``Dataset.name``), see the
    module's notes. ``criterion`` defaults to accuracy (mse for regression)."""
    from .compare import _fold_values, _runs, default_criterion
    names, params = list(configurations), list(configurations.values())
    _check_configurations(params)
    if nr_fold < 2 or repeat < 1:
        raise SvmevalError("nr_fold must be >= 2 and repeat >= 1")
    criterion = criterion or default_criterion(params[0])
    for ds, kind in zip(datasets, _kinds(datasets, params)):
        if criterion not in criteria_for(kind):
            raise SvmevalError(f"{ds.name}: criterion {criterion!r} is not a figure of {kind} "
                               f"data (one of {', '.join(criteria_for(kind))})")
    values = np.array([[_fold_values(_runs(ds, p, nr_fold, seed, repeat, jobs), criterion,
                                     pos_label, zero_division) for p in params]
                       for ds in datasets])
    return Benchmark(values, [ds.name for ds in datasets], names, criterion, n_folds=nr_fold,
                     repeat=repeat, level=level, rope=rope, test=test)

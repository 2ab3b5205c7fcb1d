"""Run a benchmark: every configuration on every data set over the same seeded folds.

``benchmark(datasets, configurations, folds=10, repeat=10, seed=1, criterion=...)``
cross-validates each configuration of ``configurations`` (a mapping name -> configuration,
in order, or a sequence) on each data set ``repeat`` times, with the seeds of
:func:`svmeval.cv.cross_validate` (``seed``, ``seed + 1``, ..: LIBSVM's own folds, so fold j of
repetition r holds the same samples for every configuration of a data set), takes the
criterion's value on every fold (as :func:`svmeval.workflows.compare.compare` does) and returns the
:class:`~svmeval.workflows.benchmark.Benchmark` of those values.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from svmeval.errors import SvmevalError
from svmeval.io.data import DataSource
from svmeval.params import Configuration
from svmeval.workflows.benchmark import Benchmark

__all__ = ["benchmark"]


def _check_configurations(params: list) -> None:
    if len(params) < 2:
        raise SvmevalError("a benchmark needs at least two configurations")
    if len({p.is_regression for p in params}) > 1:
        raise SvmevalError("the configurations must all be classifiers or all regressions")
    if any(p.svm_type == 2 for p in params):
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")


def _fold_table(
    dataset,
    params: list,
    nr_fold: int,
    seeds: list,
    criterion: str,
    pos_label,
    zero_division,
    jobs,
    client=None,
    progress=None,
) -> tuple[list, list]:
    """The criterion on every fold of every configuration on ``dataset``: one list per
    configuration, repetition-major (the evaluation core runs them all at once); and each
    fold's test samples, in the same order."""
    from svmeval.cv.engine import prepare
    from svmeval.cv.evaluate import evaluate
    from svmeval.cv.executors import executor_for
    from svmeval.workflows.compare import _fold_values

    problem, first = prepare(dataset, params[0])
    resolved = [first] + [prepare(dataset, p, problem=problem)[1] for p in params[1:]]
    runs = [[None] * len(seeds) for _ in params]

    def finish(unit, result) -> None:
        runs[unit.candidate][unit.repetition] = result

    with executor_for(jobs, client) as executor:
        evaluate(
            dataset,
            problem,
            resolved,
            seeds,
            nr_fold,
            executor=executor,
            finish=finish,
            progress=progress,
        )
    sizes = [int(v) for run in runs[0] for v in np.bincount(run.fold, minlength=run.n_folds)]
    return [_fold_values(r, criterion, pos_label, zero_division) for r in runs], sizes


def benchmark(
    datasets: DataSource | Sequence[DataSource],
    configurations: Mapping[str, Configuration] | Sequence[Configuration],
    folds: int = 10,
    *,
    repeat: int = 10,
    seed: int = 1,
    criterion: str | None = None,
    confidence_level: float = 0.95,
    rope: float | None = None,
    test: str = "corrected",
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
) -> Benchmark:
    """Compare configurations over many data sets, with the tests papers report.

    Every configuration is cross-validated on every data set on the same folds (LIBSVM's,
    after ``srand(seed + r)`` for repetition r); the criterion's value on every fold gives the
    table of means, the ranks, Friedman's test (and Iman and Davenport's F), Nemenyi's critical
    difference, Wilcoxon signed-rank tests with Holm's correction, win/tie/loss counts by a
    per-data-set test (the corrected t-test, or 5x2cv), and with a rope the Bayesian
    correlated t-test per data set (Demšar 2006; Benavoli et al. 2017).

    Parameters
    ----------
    datasets : Dataset or str or os.PathLike, or a sequence of them
        The data sets (file names are read first); one label a sample each.
    configurations : mapping or sequence
        The configurations, at least two: :class:`SvmParams` or svm-train's options
        (``"-c 8 -g 0.05"``); a mapping gives them names, a sequence is named by their
        options.
    folds : int, default 10
        k of each cross-validation (with ``test="5x2cv"``: 2).
    repeat : int, default 10
        R repetitions, seeds ``seed``, ``seed + 1``, ... (with ``test="5x2cv"``: 5).
    seed : int, default 1
        The first repetition's C ``srand`` seed.
    criterion : str, optional
        The figure compared, a name of :data:`svmeval.metrics.FIGURES` (default accuracy; mse
        for regression).
    confidence_level : float, default 0.95
        1 - alpha of the tests (Nemenyi's critical difference, win/tie/loss).
    rope : float, optional
        Half-width of the region of practical equivalence: adds the Bayesian tests.
    test : {"corrected", "5x2cv"}, default "corrected"
        The per-data-set test behind win/tie/loss.
    pos_label, zero_division
        As :func:`summarize` takes them.
    jobs : int, optional
        Folds trained at once on this machine (default: the cores); results identical.
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address: the folds run on that cluster.
    progress : callable, optional
        ``progress(done, total)`` as folds end (over every data set, configuration and
        repetition).

    Returns
    -------
    Benchmark
        The fold values (data sets x configurations x folds) and every test over them.

    See Also
    --------
    compare : two configurations on one data set.

    Examples
    --------
    >>> from svmeval import benchmark, render
    >>> b = benchmark(["data/breast_cancer.scale", "data/wine.scale"],
    ...               {"rbf": "-c 1", "rbf C=8": "-c 8", "linear": "-t 0"}, folds=5, repeat=2)
    >>> b.configurations, b.values.shape
    (('rbf', 'rbf C=8', 'linear'), (2, 3, 10))
    >>> b.ranks.tolist()
    [2.0, 2.0, 2.0]
    >>> print(render(b, format="markdown").splitlines()[0])
    | data set | rbf | rbf C=8 | linear |
    """
    from svmeval.cv import _libsvm, checks
    from svmeval.cv.engine import repetition_seeds
    from svmeval.stats.rank_tests import clean_level
    from svmeval.summary.single import check_pos_label

    names, params = _configurations(configurations)
    _check_configurations(params)
    run = checks.check_run(
        folds,
        seed,
        repeat=repeat,
        confidence=confidence_level,
        confidence_name="confidence_level",
        jobs=jobs,
        client=client,
    )
    datasets = [checks.check_data(ds, "a benchmark", "datasets")[0] for ds in _sequence(datasets)]
    criterion = criterion or checks.default_criterion(params[0])
    for ds in datasets:
        checks.check_criterion(criterion, checks.common_kind(ds.y, params))
        if params[0].is_classification:  # each data set named, before any work
            check_pos_label(ds.y, pos_label, ds.name)
    seeds = repetition_seeds(run.seed, run.repeat)
    table = _libsvm.c_state(_fold_table)  # C's rand() and print hook held per data set
    values, sizes = [], []
    # the folds of every data set: k each (leave-one-out past the rows), per configuration
    # and repetition
    per_set = [len(params) * len(seeds) * min(run.folds, ds.n_samples) for ds in datasets]
    for i, ds in enumerate(datasets):
        before = sum(per_set[:i])

        def folds_done(done, _total, before=before) -> None:
            progress(before + done, sum(per_set))

        fold_values, fold_sizes = table(
            ds,
            params,
            run.folds,
            seeds,
            criterion,
            pos_label,
            zero_division,
            jobs,
            client,
            None if progress is None else folds_done,
        )
        values.append(fold_values)
        sizes.append(fold_sizes)
    return Benchmark(
        np.array(values),
        [ds.name for ds in datasets],
        names,
        criterion,
        n_folds=run.folds,
        repeat=run.repeat,
        level=clean_level(1.0 - confidence_level),
        rope=rope,
        test=test,
        seeds=tuple(seeds),
        fold_sizes=tuple(sizes),
    )


def _sequence(datasets) -> list:
    """The data sets as a list: one data set (a Dataset or a file name) or a sequence."""
    from svmeval.io.data import Dataset

    if isinstance(datasets, (str, os.PathLike, Dataset)):
        return [datasets]
    if not isinstance(datasets, Sequence) or not datasets:
        raise SvmevalError(
            "datasets must be a Dataset, a file name or a non-empty sequence "
            f"of them, got {type(datasets).__name__}"
        )
    return list(datasets)


def _configurations(configurations) -> tuple[list, list]:
    """``(names, SvmParams)`` of a mapping name -> configuration or a sequence of them."""
    from svmeval.cv import checks

    if isinstance(configurations, Mapping):
        items = list(configurations.items())
    elif isinstance(configurations, Sequence) and not isinstance(configurations, str):
        items = [(None, c) for c in configurations]
    else:
        raise SvmevalError(
            "configurations must be a mapping name -> configuration or a "
            "sequence of configurations (SvmParams or svm-train's options), "
            f"got {type(configurations).__name__}"
        )
    names, params = [], []
    for name, config in items:
        p = checks.as_params(config, "configuration")
        if name is None:
            name = " ".join(config.split()) if isinstance(config, str) else p.flags()
            name = name or "defaults"
        if not isinstance(name, str):
            raise SvmevalError(f"configuration names must be strings, got {name!r}")
        names.append(name)
        params.append(p)
    if len(set(names)) < len(names):
        raise SvmevalError("two configurations have the same name: give each its own")
    return names, params

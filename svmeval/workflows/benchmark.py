"""Many data sets x many configurations: :func:`benchmark` runs them, :class:`Benchmark` holds the
fold values and the statistics of the comparison.

``benchmark(datasets, configurations, folds=10, repeat=10, seed=1, criterion=...)``
cross-validates each configuration of ``configurations`` (a mapping name -> configuration,
in order, or a sequence) on each data set ``repeat`` times, with the seeds of
:func:`svmeval.cv.cross_validate` (``seed``, ``seed + 1``, ..: LIBSVM's own folds, so fold j of
repetition r holds the same samples for every configuration of a data set), takes the
criterion's value on every fold (as :func:`svmeval.workflows.compare.compare` does) and returns the
:class:`Benchmark` of those values.

:class:`Benchmark` takes the value of one figure (``criterion``, a name of
:data:`svmeval.metrics.figures.FIGURES`, whose direction it follows) on every fold, shaped
(data sets, configurations, R k): R repetitions of k-fold cross-validation, repetition-major,
every configuration on the same folds of a data set. NaN marks a fold where the figure is
undefined. From them:

* ``mean`` and ``sd`` (R k - 1 in the denominator) per data set and configuration, undefined
  folds left out; ``best``: the best mean of each row (every tied one marked);
* ``ranks``: the average rank of each configuration over the data sets (1 = best, ties
  averaged), from the means; ``friedman``: Friedman's chi-square and Iman & Davenport's F
  (tie-corrected as scipy; needs two data sets); ``nemenyi``: the critical difference of
  average ranks at ``level`` (Demšar 2006);
* ``pairs``: for every pair (A, B) of configurations, A before B in the given order: the
  Wilcoxon signed-rank test of the data sets' means (two-sided, scipy's default method) with
  Holm's correction over all pairs; the win/tie/loss count of B against A over the data sets,
  a win or loss being a difference significant at ``level`` in the per-data-set test (Weka's
  Experimenter table): the corrected resampled t-test (``test="corrected"``, Nadeau & Bengio
  2003) or, for R = 5 and k = 2, the 5x2cv paired t-test (``test="5x2cv"``, Dietterich 1998;
  Alpaydin's combined F reported beside it);
* with a ``rope``: the Bayesian correlated t-test (Corani & Benavoli 2015) of B - A per data
  set and pair (each data set its own posterior) and, with two or more data sets, the
  Bayesian signed-rank test of the data sets' means (Benavoli et al. 2017; baycomp's
  ``SignedRankTest``) per pair: ``draws`` Monte-Carlo draws of
  ``numpy.random.RandomState(draw_seed)`` (:func:`benchmark`: the run's ``seed``), the same
  draws for every pair, the pseudo-observation at 0 of weight 0.5. The hierarchical model
  over data sets is not done.

Differences are always B - A in the figure's own units: for a figure where smaller is better
(mse) a positive difference means B is worse; ``wins`` and the reports take the direction
into account, ``p_left`` / ``p_right`` do not (they are P(B - A < -rope), P(B - A > rope)).
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from svmeval._args import checked
from svmeval._classes import class_code
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import SvmevalError
from svmeval.io.data import DataSource
from svmeval.params import Configuration, LinearParams, SvmParams, linear_configuration
from svmeval.preprocess import ScaleLike
from svmeval.stats.rank_tests import clean_level
from svmeval.store import StoreLike
from svmeval.workflows.benchmark_result import TESTS, Benchmark, DatasetTest, Pair, check_draws

__all__ = ["TESTS", "Benchmark", "DatasetTest", "Pair", "benchmark"]


def _check_configurations(params: list) -> None:
    if len(params) < 2:
        raise SvmevalError("a benchmark needs at least two configurations")
    if len({p.is_regression for p in params}) > 1:
        raise SvmevalError("the configurations must all be classifiers or all regressions")
    if any(not isinstance(p, LinearParams) and p.svm_type == 2 for p in params):
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")
    if any(isinstance(p, LinearParams) and p.solver_type == 21 for p in params):
        raise SvmevalError("one-class SVMs (-s 21) cannot be compared")


def _fold_table(
    dataset,
    params: list,
    folds: int,
    seeds: list,
    criterion: str,
    pos_label,
    zero_division,
    jobs,
    client=None,
    progress=None,
    source=None,
    preprocessing=None,
) -> tuple[list, list]:
    """The criterion on every fold of every configuration on ``dataset``: one list per
    configuration, repetition-major (the evaluation core runs them all at once); and each
    fold's test samples, in the same order."""
    from svmeval.cv.engine import run_configurations
    from svmeval.cv.run.linear_folds import linear_seeded
    from svmeval.summary.paired import criterion_values

    libsvm = [i for i, p in enumerate(params) if not isinstance(p, LinearParams)]
    runs: list = [None] * len(params)
    if libsvm:
        found = run_configurations(
            dataset,
            [params[i] for i in libsvm],
            folds,
            seeds,
            jobs,
            client,
            progress,
            source,
            preprocessing,
        )
        for i, r in zip(libsvm, found):
            runs[i] = r
    linear = [i for i, r in enumerate(runs) if r is None]
    if linear and client is not None:  # each repetition of each one task on the cluster
        from svmeval.cv.run.linear_cluster import linear_cluster
        from svmeval.cv.run.linear_folds import seeded_on_cluster

        specs = [(params[i], folds, s, source, None) for i in linear for s in seeds]
        with linear_cluster(client) as on:
            found = seeded_on_cluster(on, dataset, specs)
        for k, i in enumerate(linear):
            runs[i] = found[k * len(seeds) : (k + 1) * len(seeds)]
    for i, p in enumerate(params):  # LIBLINEAR's: svmeval's folds of each seed, here
        if runs[i] is None:
            runs[i] = [linear_seeded(dataset, p, folds, s, source) for s in seeds]
    sizes = [int(v) for run in runs[0] for v in np.bincount(run.fold, minlength=run.n_folds)]
    return [criterion_values(r, criterion, pos_label, zero_division) for r in runs], sizes


@recorded
@checked(skip=("groups", "given_folds"))  # one per data set: _fold_sources checks them
def benchmark(
    datasets: DataSource | Sequence[DataSource],
    configurations: Mapping[str, Configuration] | Sequence[Configuration],
    folds: int = 10,
    *,
    groups: Mapping[str, FoldAssignment | None] | Sequence[FoldAssignment | None] | None = None,
    given_folds: Mapping[str, FoldAssignment | None]
    | Sequence[FoldAssignment | None]
    | None = None,
    repeat: int = 10,
    seed: int = 1,
    criterion: str | None = None,
    confidence_level: float = 0.95,
    rope: float | None = None,
    draws: int = 50_000,
    test: str = "corrected",
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | None = None,
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
    datasets : Dataset or str or os.PathLike or (X, y), or a sequence of them
        The data sets (file names are read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them); one label a sample each. Their names must
        differ (``Dataset.from_arrays(X, y, name=...)`` names arrays).
    configurations : mapping or sequence
        The configurations, at least two: :class:`SvmParams` or svm-train's options
        (``"-c 8 -g 0.05"``), or LIBLINEAR's :class:`LinearParams` (trained fold by fold on
        the same folds, each repetition one task with ``client`` and one unit of a
        store); a mapping
        gives them names, a sequence is named by their options (``linear: -s 2``).
    folds : int, default 10
        k of each cross-validation (with ``test="5x2cv"``: 2), the same on every data set.
    groups, given_folds : mapping or sequence, optional
        Each data set's groups or given folds, as :func:`cross_validate` takes them (a file
        name, one id a row, or for ``given_folds`` scikit-learn's ``(train, test)`` pairs):
        a mapping data set name -> assignment, or a sequence in the data sets' order, one
        entry a data set. A data set left out (or None) is cross-validated on LIBSVM's
        folds. Groups are assigned to ``folds`` folds anew in each repetition (its seed),
        no group split; given folds must be ``folds`` folds, and need ``repeat=1``. A data
        set takes groups or given folds, not both.
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
        Half-width of the region of practical equivalence: adds the Bayesian tests (the
        correlated t-test per data set; with two or more data sets, the signed-rank test over
        them).
    draws : int, default 50000
        The signed-rank test's Monte-Carlo draws (1 to 10,000,000), from
        ``numpy.random.RandomState(seed)``.
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

    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): every fold it holds is taken from it, the others are computed and written
        to it one by one as they end. The result is the same as without a store: adding a
        configuration or a data set to a stored benchmark computes only their folds.
    scale, select : optional
        Preprocessing learned inside each fold, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): every configuration's folds
        are preprocessed on their own training rows, on the same folds
        (:doc:`/guide/preprocessing`).

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
    call = (benchmark, dict(locals()))
    from svmeval.cv.engine import c_state
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.cv_plan import repetition_seeds
    from svmeval.cv.run.preprocessed import preprocessing_of
    from svmeval.cv.run.store_session import opened

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
        criterion=criterion,
    )
    if rope is not None and not (
        isinstance(rope, (int, float)) and not isinstance(rope, bool) and 0 <= rope < math.inf
    ):
        raise SvmevalError(f"rope must be a finite number >= 0, got {rope!r}")
    check_draws(draws)
    checked, criterion = _checked_datasets(datasets, run.folds, params, criterion, pos_label)
    _check_linear(checked, params)
    preprocessing = [preprocessing_of(scale, select, ds, params) for ds in checked]
    seeds = repetition_seeds(run.seed, run.repeat)
    sources = _fold_sources(checked, groups, given_folds, run.folds, seeds, params[0])
    table = c_state(_fold_table)  # C's rand() and print hook held per data set
    values, sizes = [], []
    # the folds of every data set: k each (leave-one-out past the rows), per configuration
    # and repetition (those a store holds are left out as each data set starts)
    count = _FoldsOfSets(
        progress, [len(params) * len(seeds) * min(run.folds, ds.n_samples) for ds in checked]
    )
    with opened(store, "benchmark", call), contextlib.ExitStack() as stack:
        client = _connected(stack, client)  # once, for every data set and library
        for i, ds in enumerate(checked):
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
                None if progress is None else functools.partial(count.of_set, i),
                sources[i],
                preprocessing[i],
            )
            count.end_set(i)
            values.append(fold_values)
            sizes.append(fold_sizes)
    return Benchmark(
        np.array(values),
        tuple(ds.name for ds in checked),
        tuple(names),
        criterion,
        n_folds=run.folds,
        repeat=run.repeat,
        level=clean_level(1.0 - confidence_level),
        rope=rope,
        test=test,
        seeds=tuple(seeds),
        fold_sizes=tuple(sizes),
        draws=draws,
        draw_seed=run.seed,
        fold_sources=tuple(_source_words(s) for s in sources),
        preprocessing=preprocessing[0].key() if preprocessing[0] is not None else "",
    )


def _checked_datasets(datasets, folds: int, params: list, criterion, pos_label) -> tuple:
    """``(data sets, criterion)``: every data set read and checked before any work (one name
    each, the same folds on each, the criterion and pos_label fit for each), and the criterion
    (the configurations' default where None)."""
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.checks import check_pos_label

    checked = [
        checks.classes_for(
            checks.as_dataset_and_params(ds, "a benchmark", "datasets")[0], ds, params
        )
        for ds in _sequence(datasets)
    ]
    seen = [ds.name for ds in checked]
    twice = next((n for i, n in enumerate(seen) if n in seen[:i]), None)
    if twice is not None:  # before any work (the Benchmark needs one name a data set)
        raise SvmevalError(
            f"two data sets are named {twice!r}: give each its own "
            "(Dataset.from_arrays(X, y, name=...) names arrays)"
        )
    for ds in checked:  # LIBSVM's rule, said of the data set before the folds below
        if ds.n_samples < 2:
            raise SvmevalError(
                f"{ds.name}: cross-validation needs at least 2 samples; the data have "
                f"{ds.n_samples}"
            )
    fewer = [ds for ds in checked if ds.n_samples < folds]
    if fewer and len(fewer) < len(checked):  # leave-one-out on some data sets only
        small = min(fewer, key=lambda ds: ds.n_samples)
        raise SvmevalError(
            f"folds={folds} is more than the {small.n_samples} rows of {small.name}: "
            "a benchmark takes the same number of folds on every data set "
            f"(at most {small.n_samples} here)"
        )
    criterion = criterion or checks.default_criterion(params[0])
    for ds in checked:
        y = checks.single_label(ds, "a benchmark")
        checks.check_criterion(criterion, checks.common_kind(y, params), params)
        if params[0].is_classification:  # each data set named, before any work
            check_pos_label(y, class_code(pos_label, ds.classes), ds.name)
    return checked, criterion


def _connected(stack, client):
    """``client`` connected and its workers checked (an address: closed with ``stack``), or
    None."""
    if client is None:
        return None
    from svmeval.cv.run import cluster

    return stack.enter_context(cluster.client_for(client))


def _check_linear(checked: list, params: list) -> None:
    """LIBLINEAR's ``check_parameter`` of each LIBLINEAR configuration on each data set
    (and its bindings installed), before any fold."""
    from svmeval.cv.run.linear_folds import check_linear

    for p in params:
        if isinstance(p, LinearParams):
            for ds in checked:
                check_linear(ds, p)


def _per_dataset(value, argument: str, names: list) -> list:
    """``groups`` or ``given_folds`` of a benchmark, one entry a data set (None: LIBSVM's
    folds): a mapping data set name -> assignment, or a sequence in the data sets' order."""
    from svmeval._args.checks import check_fold_assignment
    from svmeval.errors import ArgumentError

    if value is None:
        return [None] * len(names)
    if isinstance(value, Mapping):
        unknown = [k for k in value if k not in names]
        if unknown:
            raise ArgumentError(
                argument,
                f"names no data set {unknown[0]!r} (the data sets: {', '.join(map(repr, names))})",
            )
        entries = [value.get(name) for name in names]
    elif isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        entries = list(value)
        if len(entries) != len(names):
            raise ArgumentError(
                argument,
                f"has {len(entries)} entries for {len(names)} data sets: give one a data set "
                "in their order (None: LIBSVM's folds), or a mapping data set name -> "
                f"{argument}",
            )
    else:
        raise ArgumentError(
            argument,
            "must be a mapping data set name -> assignment or a sequence of one assignment "
            f"a data set (None: LIBSVM's folds), got {value!r}",
        )
    for entry in entries:
        check_fold_assignment(entry, argument)
    return entries


def _fold_sources(checked: list, groups, given_folds, folds: int, seeds: list, params) -> list:
    """Each data set's :class:`~svmeval.cv.plan.given.FoldSource` (None: LIBSVM's folds), read
    and checked before any work: the files, their rows, k against the groups or the folds
    given, and every repetition's folds (no fold whose training side lacks a class)."""
    from svmeval.cv.plan.given import fold_source
    from svmeval.errors import ArgumentError

    names = [ds.name for ds in checked]
    by_groups = _per_dataset(groups, "groups", names)
    by_given = _per_dataset(given_folds, "given_folds", names)
    sources = []
    for ds, g, f in zip(checked, by_groups, by_given):
        if g is not None and f is not None:
            raise ArgumentError("given_folds", f"{ds.name}: give groups or given folds, not both")
        source = fold_source(g, f, ds.n_samples)
        if source is not None:
            if source.n_groups != folds and (not source.grouped or source.n_groups < folds):
                what = "groups" if source.grouped else "folds given"
                _refuse(
                    source,
                    f"{source.n_groups} {what} for folds={folds}, the same on every data set "
                    f"({'at least' if source.grouped else 'exactly'} {folds} needed)",
                    ds.name,
                )
            if not source.grouped and len(seeds) != 1:
                raise ArgumentError(
                    "repeat",
                    "must be 1 with given_folds: every repetition would have the same folds",
                )
            y = ds.y
            for seed in seeds:  # every repetition's folds (groups: assigned by its seed)
                drawn = source.folds(y, folds, seed, params.is_classification)
                source.check_training(y, params.is_classification, drawn)
        sources.append(source)
    return sources


def _refuse(source, message: str, name: str) -> None:
    from svmeval.errors import ArgumentError, DataFormatError

    if source.origin:
        raise DataFormatError(source.origin, None, message)
    raise ArgumentError(source.argument, f"of {name}: {message}")


def _source_words(source) -> str:
    """:attr:`Benchmark.fold_sources`' words for a data set's folds ("": LIBSVM's)."""
    if source is None:
        return ""
    return f"grouped ({source.n_groups} groups)" if source.grouped else "given"


class _FoldsOfSets:
    """``progress(done, total)`` over the folds of every data set, from each data set's own
    (its ``total`` replaces the folds expected of it: those of a store are not computed)."""

    def __init__(self, progress, expected: list):
        self.progress, self.expected = progress, list(expected)
        self.before = 0  # folds of the data sets done
        self.done = 0  # of the data set running

    def of_set(self, i: int, done: int, total: int) -> None:
        self.expected[i], self.done = total, done
        self.progress(self.before + done, sum(self.expected))

    def end_set(self, i: int) -> None:
        self.expected[i] = self.done
        self.before += self.done
        self.done = 0


def _sequence(datasets) -> list:
    """The data sets as a list: one data set (a Dataset or a file name) or a sequence."""
    from svmeval.io.data import Dataset, is_xy

    if isinstance(datasets, (str, os.PathLike, Dataset)) or is_xy(datasets):
        return [datasets]
    if not isinstance(datasets, Sequence) or not datasets:
        raise SvmevalError(
            "datasets must be a Dataset, a file name, (X, y) or a non-empty sequence "
            f"of them, got {type(datasets).__name__}"
        )
    return list(datasets)


def _configurations(configurations) -> tuple[list, list]:
    """``(names, configurations)`` of a mapping name -> configuration or a sequence of them:
    SvmParams (svm-train's options read) and LIBLINEAR's LinearParams as given."""
    from svmeval.cv.plan import checks

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
    names: list = []
    params: list[SvmParams | LinearParams] = []
    for name, config in items:
        p: SvmParams | LinearParams
        if isinstance(config, LinearParams):
            config.check()
            p = config
        else:
            p = checks.as_params(config, "configuration")
        if name is None:
            if isinstance(config, LinearParams):
                name = linear_configuration(config)
            else:
                name = " ".join(config.split()) if isinstance(config, str) else p.flags()
            name = name or "defaults"
        if not isinstance(name, str):
            raise SvmevalError(f"configuration names must be strings, got {name!r}")
        names.append(name)
        params.append(p)
    if len(set(names)) < len(names):
        raise SvmevalError("two configurations have the same name: give each its own")
    return names, params

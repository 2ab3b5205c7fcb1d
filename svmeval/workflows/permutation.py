"""The permutation test of a cross-validated figure (Ojala & Garriga 2010; scikit-learn's
``permutation_test_score``).

``permutation_test(data, params, folds, permutations=N, seed=s)`` cross-validates the data
(svm-train's folds after ``srand(s)``) and N copies of it with the labels permuted
(:mod:`svmeval.cv.run.permutation`: permutation p is ``numpy.random.default_rng(s)``'s p-th
``permutation(n)``; its folds LIBSVM's, drawn from the permuted labels after ``srand(s)``; one
kernel computed for all of them; on this machine's threads or a Dask cluster, the same
results; a results store keeps each permutation's folds, keyed by its permuted labels and the
seed, and a rerun takes them from there). The figure (``criterion``, default accuracy, mse for
regression) of each gives the null distribution, and

    p = (1 + #{permuted >= observed}) / (N + 1)

(``<=`` for a figure where smaller is better). A permutation whose figure is undefined (NaN)
counts as one not beyond the observed value. Multi-label data are refused (permuting label
sets is not done); so is ``-b 1`` (its folds draw from C ``rand()`` while training).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, cast

import numpy as np

from svmeval import _tables as tables
from svmeval._args import checked
from svmeval._classes import class_code
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance, recorded
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import ArgumentError, SvmevalError
from svmeval.io.data import DataSource
from svmeval.metrics.figures import FIGURES
from svmeval.params import Configuration, LinearParams, linear_configuration
from svmeval.preprocess import ScaleLike
from svmeval.store import StoreLike

__all__ = ["MAX_PERMUTATIONS", "QUANTILES", "PermutationTest", "permutation_test"]

#: at most this many permutations
MAX_PERMUTATIONS = 100_000

#: the quantiles of the null distribution the reports show
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True, eq=False)
class PermutationTest:
    """A permutation test's figures (module notes): ``observed``, the figure of each
    permutation (``permuted``), ``p``; the null distribution's ``null_mean``, ``null_sd``
    (n - 1) and ``quantiles`` (numpy's linear rule) over its defined values.

    Examples
    --------
    >>> import numpy as np
    >>> from svmeval import PermutationTest
    >>> t = PermutationTest("accuracy", 0.9, np.array([0.5, 0.6, 0.95]), n_folds=5, seed=1)
    >>> t.beyond, t.p
    (1, 0.5)
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.permutation:VIEW"

    __repr__ = brief_repr

    criterion: str
    observed: float
    permuted: np.ndarray
    n_folds: int
    seed: int
    data_name: str = ""
    options: str = ""
    shared_kernel: bool = False
    provenance: Provenance | None = field(default=None, repr=False)
    #: with groups or given folds: the folds and how the labels were permuted ("": LIBSVM's
    #: folds of each permutation, labels permuted over every row)
    design: str = ""
    #: what every cross-validation learned on each fold's training rows ("": nothing;
    #: :meth:`svmeval.preprocess.Preprocessing.key`)
    preprocessing: str = ""

    @property
    def greater_is_better(self) -> bool:
        return FIGURES[self.criterion].greater_is_better

    @property
    def permutations(self) -> int:
        return len(self.permuted)

    @property
    def beyond(self) -> int:
        """The permutations at least as good as the observed figure."""
        v = self.permuted
        hits = v >= self.observed if self.greater_is_better else v <= self.observed
        return int(np.count_nonzero(hits))

    @property
    def p(self) -> float:
        return (1 + self.beyond) / (self.permutations + 1)

    def _defined(self) -> np.ndarray:
        return self.permuted[~np.isnan(self.permuted)]

    @property
    def degenerate(self) -> bool:
        """Every defined permutation gave the same figure (two or more of them): the null
        distribution is one value (sd 0), so p only says on which side of that value the
        observed figure lies, not how unlikely it is by chance."""
        v = self._defined()
        return len(v) > 1 and bool(np.all(v == v[0]))

    @property
    def null_mean(self) -> float:
        v = self._defined()
        return float(v.mean()) if len(v) else math.nan

    @property
    def null_sd(self) -> float:
        v = self._defined()
        return float(v.std(ddof=1)) if len(v) > 1 else math.nan

    @property
    def quantiles(self) -> dict:
        v = self._defined()
        if not len(v):
            return {q: math.nan for q in QUANTILES}
        return {q: float(x) for q, x in zip(QUANTILES, np.quantile(v, QUANTILES))}

    def to_dict(self) -> dict:
        """Plain JSON types (NaN as None)."""
        return tables.plain(
            {
                "criterion": self.criterion,
                "greater_is_better": self.greater_is_better,
                "data_file": self.data_name,
                "options": self.options,
                "n_folds": self.n_folds,
                "seed": self.seed,
                "permutations": self.permutations,
                "observed": self.observed,
                "beyond": self.beyond,
                "p": self.p,
                "null_mean": self.null_mean,
                "null_sd": self.null_sd,
                "null_quantiles": {f"{q:g}": v for q, v in self.quantiles.items()},
                "shared_kernel": self.shared_kernel,
                **({"design": self.design} if self.design else {}),
                **({"preprocessing": self.preprocessing} if self.preprocessing else {}),
                "permuted": self.permuted.tolist(),
            }
        )

    def to_frame(self):
        """A pandas DataFrame, one row per permutation (1..N) and its figure."""
        return tables.frame(
            [{"permutation": i + 1, self.criterion: float(v)} for i, v in enumerate(self.permuted)]
        )


def _check_permutations(permutations) -> int:
    if (
        isinstance(permutations, bool)
        or not isinstance(permutations, (int, np.integer))
        or not 1 <= permutations <= MAX_PERMUTATIONS
    ):
        raise ArgumentError(
            "permutations",
            f"must be an integer from 1 to {MAX_PERMUTATIONS:,}, got {permutations!r}",
        )
    return int(permutations)


def _figure(result, criterion, pos_label, zero_division) -> float:
    """The criterion on the result's predictions (the class scores only where it needs them:
    the ranking figures)."""
    from dataclasses import replace

    from svmeval.summary.single import summarize_cv

    lean = replace(result, scores=None, probabilities=None)
    for run in (lean, result):
        summary = summarize_cv(
            run, pos_label=pos_label, zero_division=zero_division, per_fold=False
        )
        if criterion in summary.figures:
            return float(summary.figures[criterion])
    return math.nan


@recorded
@checked
def permutation_test(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    permutations: int = 1000,
    seed: int = 1,
    criterion: str | None = None,
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | None = None,
) -> PermutationTest:
    """Is the cross-validated figure better than chance? A permutation test.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data, as :func:`cross_validate` takes it (one label a sample).
    params : SvmParams or str or LinearParams, optional
        The configuration (default svm-train's defaults); no ``-b 1``. A
        :class:`LinearParams` is LIBLINEAR's, trained fold by fold on each permutation's
        folds (svmeval's, as for LIBSVM), each permutation one task with ``client`` and
        one unit of a store.
    folds : int, default 5
        k of each cross-validation.
    groups : array-like or str or os.PathLike, optional
        Each row's group, as :func:`cross_validate` takes them: every cross-validation's
        folds keep the groups whole (assigned for each permutation's labels), and the labels
        are permuted between groups where each group has one label (the groups' labels
        shuffled among the groups), else within each group.
    given_folds : array-like or iterable or str or os.PathLike, optional
        The folds of every cross-validation, as :func:`cross_validate` takes them; the
        labels are permuted over every row.
    permutations : int, default 1000
        N permutations of the labels (1 to 100,000).
    seed : int, default 1
        C ``srand``'s seed before each cross-validation's folds, and the seed of
        ``numpy.random.default_rng`` that draws the permutations.
    criterion : str, optional
        The figure tested (default accuracy; mse for regression).
    pos_label, zero_division
        As :func:`summarize` takes them.
    jobs : int, optional
        Folds trained at once (default: the cores); results identical.
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address (``tcp://host:8786``, ``local[:N]``): the
        permutations' folds run on that cluster (each worker computes the kernel once), with
        the same results.
    progress : callable, optional
        ``progress(done, total)`` as permutations end (the data's own run counted).
    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): each permutation's folds are keyed by the digest of its permuted labels and
        the seed, taken from the store where it holds them, else computed and written there.
        The data's own run is the plain cross-validation's units. The result is the same as
        without a store.
    scale, select : optional
        Preprocessing learned inside the folds, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): the data's cross-validation and
        every permutation's learn it on each fold's own training rows (the F-scores from
        the permuted labels), so the null distribution is that of the whole pipeline
        (:doc:`/guide/preprocessing`).

    Returns
    -------
    PermutationTest
        The observed figure, each permutation's, p and the null distribution.

    Examples
    --------
    >>> from svmeval import permutation_test
    >>> t = permutation_test("data/wine.scale", folds=3, permutations=9)
    >>> t.p, t.observed > t.null_mean
    (0.1, True)
    """
    arguments = dict(locals())
    from svmeval.cv import engine
    from svmeval.cv.run.store_session import opened

    with opened(arguments.pop("store"), "permutation_test", (permutation_test, dict(arguments))):
        return engine.c_state(_permutation_test)(**arguments)


def _permutation_test(
    data,
    params,
    folds,
    *,
    groups,
    given_folds,
    permutations,
    seed,
    criterion,
    pos_label,
    zero_division,
    jobs,
    client,
    progress,
    scale,
    select,
) -> PermutationTest:
    from svmeval.cv.engine import prepare, preprocessing_of
    from svmeval.cv.plan import checks
    from svmeval.cv.run.executors import executor_for
    from svmeval.cv.run.permutation import group_orders, permutation_orders, permuted_cvs

    n_permutations = _check_permutations(permutations)
    run = checks.check_run(folds, seed, jobs=jobs)
    if isinstance(params, LinearParams):
        _no_preprocessing(scale, select)
        return _permutation_linear(
            data,
            params,
            run,
            n_permutations,
            groups=groups,
            given_folds=given_folds,
            criterion=criterion,
            pos_label=pos_label,
            zero_division=zero_division,
            client=client,
            progress=progress,
        )
    dataset, (config,) = checks.as_dataset_and_params(data, "a permutation test", params=params)
    pos_label = class_code(pos_label, dataset.classes)
    _check_config(config)
    criterion = criterion or checks.default_criterion(config)
    y = checks.single_label(dataset, "a permutation test")
    checks.check_criterion(criterion, checks.common_kind(y, [config]), config)
    if config.is_classification:
        from svmeval.cv.plan.checks import check_pos_label

        check_pos_label(y, pos_label, None)
    problem, resolved = prepare(dataset, config)
    preprocessing = preprocessing_of(scale, select, dataset, [resolved])
    from svmeval.cv.plan.given import fold_source

    source = fold_source(groups, given_folds, dataset.n_samples)
    identity = np.arange(problem.n_samples, dtype=np.int64)
    design = "rows"
    permuted = permutation_orders(problem.n_samples, n_permutations, run.seed)
    if source is not None and source.grouped:
        design, permuted = group_orders(source.codes, problem.y, n_permutations, run.seed)
    orders = itertools.chain([identity], permuted)
    values = np.empty(n_permutations + 1)
    n_folds = []

    def finish(p: int, result) -> None:
        values[p] = _figure(result, criterion, pos_label, zero_division)
        if p == 0:
            n_folds.append(result.n_folds)

    # a cluster is connected (its workers checked) once every argument is checked
    with executor_for(jobs, client, keep=True) as executor:
        shared = permuted_cvs(
            dataset,
            problem,
            resolved,
            run.folds,
            run.seed,
            orders,
            finish,
            executor=executor,
            progress=progress,
            total=n_permutations + 1,
            fold_source=source,
            preprocessing=preprocessing,
        )
    if math.isnan(values[0]):
        raise SvmevalError(f"{criterion} is undefined on the data's cross-validation")
    return PermutationTest(
        criterion=criterion,
        observed=float(values[0]),
        permuted=values[1:].copy(),
        n_folds=n_folds[0],
        seed=run.seed,
        data_name=dataset.name,
        options=resolved.flags(),
        shared_kernel=shared,
        design=_design(source, design),
        preprocessing="" if preprocessing is None else preprocessing.key(),
    )


def _check_config(config) -> None:
    """A LIBSVM configuration a permutation test runs: no -b 1, no one-class SVM."""
    if config.probability:
        raise ArgumentError(
            "params", "-b 1 is not supported (its training draws from C rand() fold by fold)"
        )
    if config.svm_type == 2:
        raise ArgumentError("params", "a one-class SVM (-s 2) has no figure to test")


def _no_preprocessing(scale, select) -> None:
    """scale= and select= are learned inside LIBSVM's folds only, as cross_validate says."""
    for name, value in (("scale", scale), ("select", select)):
        if value is not None and value is not False:
            raise ArgumentError(
                name, "does not apply to a LinearParams (LIBLINEAR's own cross-validation)"
            )


def _permutation_linear(
    data,
    params: LinearParams,
    run,
    n_permutations: int,
    *,
    groups,
    given_folds,
    criterion,
    pos_label,
    zero_division,
    client,
    progress,
) -> PermutationTest:
    """The permutation test of a LIBLINEAR configuration: each permutation's folds svmeval's
    (LIBSVM's draw from the permuted labels after ``srand(seed)``, or the folds given or
    grouped), LIBLINEAR trained fold by fold on them
    (:func:`svmeval.cv.run.linear_folds.linear_seeded`), one after another in this process
    or, with ``client``, each permutation one task on that cluster."""
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.given import fold_source
    from svmeval.cv.run.linear_folds import check_linear, linear_seeded
    from svmeval.cv.run.permutation import group_orders, permutation_orders

    params.check()
    dataset = checks.as_dataset(data, "data")
    y = checks.single_label(dataset, "a permutation test")
    dataset = checks.classes_for(dataset, data, [params])
    y = cast(np.ndarray, dataset.y)
    pos_label = class_code(pos_label, dataset.classes)
    if params.solver_type == 21:
        raise ArgumentError("params", "a one-class SVM (-s 21) has no figure to test")
    criterion = criterion or checks.default_criterion(params)
    checks.check_criterion(criterion, checks.common_kind(y, [params]), [params])
    if params.is_classification:
        checks.check_pos_label(y, pos_label, None)
    check_linear(dataset, params)  # LIBLINEAR's check_parameter, before any fold
    source = fold_source(groups, given_folds, dataset.n_samples)
    n = dataset.n_samples
    design = "rows"
    permuted = permutation_orders(n, n_permutations, run.seed)
    if source is not None and source.grouped:
        design, permuted = group_orders(source.codes, y, n_permutations, run.seed)
    orders = itertools.chain([np.arange(n, dtype=np.int64)], permuted)
    values = np.empty(n_permutations + 1)
    if client is not None:  # each permutation one task on the cluster
        from svmeval.cv.run.linear_cluster import linear_cluster
        from svmeval.cv.run.linear_folds import seeded_on_cluster

        specs = [(params, run.folds, run.seed, source, y[o]) for o in orders]
        with linear_cluster(client) as on:
            results = iter(seeded_on_cluster(on, dataset, specs, progress))
    else:
        results = (
            linear_seeded(dataset, params, run.folds, run.seed, source, y=y[o]) for o in orders
        )
    n_folds = 0
    for p, result in enumerate(results):
        values[p] = _figure(result, criterion, pos_label, zero_division)
        if p == 0:
            n_folds = result.n_folds
        if progress is not None and client is None:
            progress(p + 1, n_permutations + 1)
    if math.isnan(values[0]):
        raise SvmevalError(f"{criterion} is undefined on the data's cross-validation")
    return PermutationTest(
        criterion=criterion,
        observed=float(values[0]),
        permuted=values[1:].copy(),
        n_folds=n_folds,
        seed=run.seed,
        data_name=dataset.name,
        options=linear_configuration(params),
        shared_kernel=False,
        design=_design(source, design),
    )


def _design(source, permuted: str) -> str:
    """:attr:`PermutationTest.design`: how the folds were made and the labels permuted."""
    if source is None:
        return ""
    if source.grouped:
        return (
            f"grouped folds ({source.n_groups} groups), made for each permutation's labels; "
            f"labels permuted {permuted}"
        )
    return "the folds given, the same for every permutation; labels permuted over every row"

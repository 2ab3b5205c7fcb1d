"""The evaluation core: every run is (candidate parameters, seed, fold) units on one executor.

A cross-validation is 1 candidate x R seeds, the grid N candidates x 1 seed, a comparison
2 candidates x R seeds. :func:`evaluate` draws each seed's folds once (C ``rand()`` after
``srand(seed)``, as svm-train), decides which candidates train on a shared kernel (by
(kernel, gamma) key, where :func:`~svmeval.cv.run.kernel.plan_sharing` says it pays) and hands the
units to an executor (:mod:`svmeval.cv.run.executors`: local threads or a Dask cluster), which
calls ``finish(unit, result)`` in the calling thread as each unit's last fold ends. A unit's
result never depends on the executor, the number of jobs or the order in which folds end.

An ``ordered`` run (the grid's cells) schedules its units one after another, each unit's folds
before the next unit's, and passes each result on in that order (:class:`Release`): as soon as
the unit and every unit scheduled before it are done, so results come steadily and in an order
that depends neither on the executor nor on the number of jobs; an interrupted run passes on
every unit done before it stops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from svmeval.cv import _libsvm
from svmeval.cv.collect.results import Folds
from svmeval.cv.plan.cv_plan import draw_folds, relabelled
from svmeval.cv.run import kernel as shared_kernel
from svmeval.params import SvmParams


@dataclass(frozen=True, eq=False)
class Unit:
    """The cross-validation of candidate ``candidate`` (resolved parameters ``params``) on the
    folds of seed number ``repetition``; ``cost``: a guess at its time (longest first);
    ``y``: the labels it trains on and is scored against, number ``relabel`` of the run's
    label vectors (None: the data's own; a permutation test's permuted labels)."""

    candidate: int
    repetition: int
    params: SvmParams
    seed: int
    folds: Folds
    cost: float = 0.0
    stored: dict = field(default_factory=dict)  # fold -> FoldOutput found in a results store
    y: np.ndarray | None = field(default=None, repr=False)
    relabel: int = 0


@dataclass(frozen=True, eq=False)
class Batch:
    """What an executor runs: ``in_order`` units (``-b 1``: one after another, each right
    after ``srand(seed)``), and ``groups`` of units whose folds are independent tasks, each
    group with the kernel parameters its units share (None: they train on the features)."""

    problem: object
    dataset: object
    folds: int
    in_order: tuple
    groups: tuple  # ((kernel params or None, (Unit, ...)), ...)
    keep_decision_values: bool = False
    memory_mb: float = shared_kernel.DEFAULT_MEMORY_MB
    #: ``on_fold(unit, fold, FoldOutput, seconds)``: called in the calling thread as each
    #: fold ends (a results store writes it), before its unit's ``finish``
    on_fold: Callable | None = None
    #: the units in the order they are scheduled, one after another (None: the costliest first)
    order: tuple | None = None
    #: the kernel parameters a group on the features may switch to, measured by its first
    #: training (:mod:`svmeval.cv.run.probe`; None: no switch)
    probe: SvmParams | None = None
    #: preprocessing learned inside each fold (:class:`~svmeval.cv.run.preprocessed.FoldTransform`;
    #: None: the folds train on the data's features)
    transform: object = None

    @property
    def total_folds(self) -> int:
        """The folds to compute (those of a results store left out)."""
        units = list(self.in_order) + [u for _, group in self.groups for u in group]
        return sum(u.folds.n_folds - len(u.stored) for u in units)


class Release:
    """``finish(unit, result)`` in the units' schedule order: a unit's result is passed on as
    soon as it and every unit scheduled before it are done (one place, whatever produced the
    result); :meth:`flush` passes on every unit done, in that order, when a run stops early."""

    def __init__(self, order, finish: Callable):
        self.position = {(u.candidate, u.repetition, u.relabel): k for k, u in enumerate(order)}
        self.finish = finish
        self.done: dict = {}  # position -> (unit, result), not yet passed on
        self.next = 0  # the first position not yet passed on

    def place(self, unit) -> int:
        """The unit's place in the schedule (a unit with some folds stored keeps its own)."""
        return self.position[(unit.candidate, unit.repetition, unit.relabel)]

    def __call__(self, unit, result) -> None:
        self.done[self.place(unit)] = (unit, result)
        while self.next in self.done:
            self.finish(*self.done[self.next])  # an interrupt inside: flush passes it on again
            del self.done[self.next]
            self.next += 1

    def flush(self) -> None:
        """Pass on every unit done that waits for one scheduled before it."""
        for k in sorted(self.done):
            self.finish(*self.done.pop(k))


class FoldCount:
    """Folds done over a whole batch, reported as ``progress(done, total)``."""

    def __init__(self, total: int, progress: Callable | None):
        self.done, self.total, self.progress = 0, total, progress

    def add(self, folds: int = 1) -> None:
        self.done += folds
        if self.progress is not None:
            self.progress(self.done, self.total)


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def evaluate(
    dataset,
    problem,
    candidates: Sequence[SvmParams],
    seeds: Sequence[int],
    folds: int,
    *,
    executor,
    finish: Callable,
    costs: Sequence[float] | None = None,
    keep_decision_values: bool = False,
    share: bool | None = None,
    memory_mb: float | None = None,
    progress: Callable | None = None,
    store=None,
    ordered: bool = False,
    labels: Sequence[np.ndarray] | None = None,
    warn_folds: bool = True,
    fold_source=None,
    preprocessing=None,
    rankings=None,
) -> None:
    """Cross-validate every candidate on every seed's folds: ``finish(unit, result)`` for each
    (:class:`Unit`, :class:`~svmeval.cv.plan.cv_plan.CVResult`), in the calling thread, any order.

    ``store``: the run's :class:`~svmeval.cv.run.store_session.StoreCounts` (None: the store of the run
    in progress in this thread, :func:`~svmeval.cv.run.store_session.current`, if any).
    Its units are looked up first: a unit whose folds are all stored is finished from them
    without training, the folds it lacks are the only ones computed, and every fold computed
    is written as it ends (:mod:`svmeval.cv.run.store_use`).

    ``candidates``: resolved, checked parameters (:func:`~svmeval.cv.engine.prepare`) of
    ``problem`` (``dataset``'s LIBSVM problem; the executor may send ``dataset`` elsewhere).
    ``share``: None (the cost model), True (whenever the kernel fits ``memory_mb``), False.
    ``progress(done, total)`` counts folds. ``ordered``: the units run in the candidates'
    order, one unit's folds before the next unit's (kernel group by kernel group when the
    shared kernels do not all fit ``memory_mb`` at once), and ``finish`` is called in that
    order (:class:`Release`), also for the units done when the run is interrupted
    (KeyboardInterrupt).

    ``labels``: label vectors the units train on instead of the data's (a permutation test's
    permuted labels): one unit per candidate, seed and vector, each on LIBSVM's folds of its
    own labels after ``srand(seed)`` (:attr:`Unit.y`, :attr:`Unit.relabel`). ``warn_folds``:
    LIBSVM's leave-one-out warning (more folds than samples) is given for each seed's first
    label vector (False: never; a run that gave it already). ``fold_source``: a
    :class:`~svmeval.cv.plan.given.FoldSource` whose folds every unit uses instead of LIBSVM's
    (given folds, or groups kept whole: assigned anew for each seed). ``preprocessing``: a
    :class:`~svmeval.preprocess.Preprocessing` learned on each fold's training rows
    (:mod:`svmeval.cv.run.preprocessed`; no kernel is then shared, each fold's features differ).
    ``rankings``: a :class:`~svmeval.cv.run.preprocessed.Rankings` that keeps each fold's ranking
    for the runs of other sizes K on the same folds (None: ranked for this run alone).
    """
    memory = memory_mb or shared_kernel.DEFAULT_MEMORY_MB
    transform = None
    if preprocessing is not None:
        from svmeval.cv.run.preprocessed import FoldTransform

        transform = FoldTransform(
            dataset,
            preprocessing,
            share_kernels=_fold_kernels_pay(
                dataset, preprocessing, candidates, folds, share, memory
            ),
            memory_mb=memory,
            rankings=rankings,
        )
        share = False  # no kernel of the whole data: each fold's rows differ
    costs = list(costs) if costs is not None else [0.0] * len(candidates)
    drawn: dict = {}
    units = []
    label_sets = [None] if labels is None else list(labels)
    for r, seed in enumerate(seeds):
        for v, y in enumerate(label_sets):
            for c, params in enumerate(candidates):
                key = (r, v, params.is_classification)
                if key not in drawn:
                    warn = None if warn_folds and v == 0 else False  # once a seed
                    own = problem.y if y is None else y
                    drawn[key] = draw_folds(own, folds, seed, params, warn=warn, source=fold_source)
                units.append(Unit(c, r, params, seed, drawn[key], costs[c], y=y, relabel=v))
    release = None
    if ordered:  # every unit's place, the stored ones' too: they pass through it as well
        by_kernel = transform is not None and transform.share_kernels
        release = Release(_schedule(problem, dataset, units, share, memory, by_kernel), finish)
        finish = release
    on_fold = None
    if store is None:
        from svmeval.cv.run.store_session import current

        store = current()
    if store is not None:
        units, finish, on_fold = _with_store(
            store, dataset, problem, folds, keep_decision_values, units, finish, transform
        )
    in_order = tuple(u for u in units if u.params.probability)
    rest = [u for u in units if not u.params.probability]
    groups = _groups(problem, dataset, rest, share, memory)
    batch = Batch(
        problem,
        dataset,
        folds,
        in_order,
        groups,
        keep_decision_values,
        memory,
        on_fold,
        None if release is None else tuple(sorted(units, key=release.place)),
        None if transform is not None else _probe(problem, dataset, groups, share, memory, folds),
        transform,
    )
    if not units:
        return
    _libsvm.load()  # here, in the calling thread: a run whose folds are all stored needs none
    try:
        executor.run(batch, finish, FoldCount(batch.total_folds, progress))
    except KeyboardInterrupt:
        if release is not None:
            from svmeval.cv.bounded_waits import stopping_run

            with stopping_run():
                release.flush()  # every unit done before the interrupt is passed on
        raise
    if store is not None:  # every fold computed is in the store when the call returns (if it
        store.writer.flush()  # fails or is interrupted, the run's end writes what it can)


def _fold_kernels_pay(dataset, preprocessing, candidates, n_folds: int, share, memory_mb: float):
    """Whether the units of one fold and one kernel (a grid's C values of one gamma) share
    the fold's kernel matrix, with preprocessing inside the folds: never where one kernel's
    matrices of every fold do not fit ``memory_mb`` at once (an ordered run then runs its
    units kernel by kernel, :func:`_schedule`), else
    where ``share`` is True, or (None) where two C values or more share a kernel and a
    kernel value costs clearly more than a lookup (:func:`~svmeval.cv.run.kernel.lookup_pays`)."""
    if share is False or not candidates:
        return False
    n_rows = len(dataset.indptr) - 1
    counts: dict = {}
    for params in candidates:
        key = shared_kernel.kernel_key(params)
        counts[key] = counts.get(key, 0) + 1
    one = shared_kernel.matrix_bytes(n_rows, candidates[0].kernel_type)
    if one * n_folds > memory_mb * 2**20:  # one kernel's folds at once (run kernel by kernel)
        return False
    if share is True:
        return True
    # measured (scripts/bench_preprocess.py, dna, a 3 x 3 grid): one matrix per fold and
    # gamma for 3 C values took 0.56x the time of the features; it does not pay on so few
    # features that a kernel value costs about a lookup
    per_row = _stored_after(dataset, preprocessing) / max(1, n_rows)
    return max(counts.values()) >= 2 and shared_kernel.lookup_pays(
        n_rows, per_row, max(1, dataset.n_features), candidates[0].kernel_type
    )


def _stored_after(dataset, preprocessing) -> int:
    """About how many values a fold's preprocessed rows store: every feature where scaling
    maps an absent 0 away from 0 (a lower limit other than 0), a K/num_features share of them
    with selection."""
    n_rows, width = len(dataset.indptr) - 1, max(1, dataset.n_features)
    stored = len(dataset.indices)
    scale = preprocessing.scale
    if scale is not None and scale.lower != 0:
        stored = n_rows * width
    if preprocessing.select is not None:
        stored = int(stored * min(1.0, preprocessing.select / width))
    return stored


def _schedule(
    problem, dataset, units: list, share, memory_mb: float, by_kernel: bool = False
) -> list:
    """An ordered run's schedule: the units in their order (``-b 1`` ones first, run before
    the others), or kernel group by kernel group (each group's units in their order, the
    groups by their first unit) when the shared kernels do not all fit the memory budget at
    once; ``by_kernel``: kernel group by kernel group always (with preprocessing inside the
    folds, each fold's kernel matrices are kept for one kernel's units)."""
    first = [u for u in units if u.params.probability]
    rest = [u for u in units if not u.params.probability]
    if by_kernel:
        keyed: dict = {}
        for u in rest:
            keyed.setdefault(shared_kernel.kernel_key(u.params), []).append(u)
        return first + [u for group in keyed.values() for u in group]
    groups = _groups(problem, dataset, rest, share, memory_mb)
    shared = [params for params, _ in groups if params is not None]
    total = sum(shared_kernel.matrix_bytes(problem.n_samples, p.kernel_type) for p in shared)
    if total <= memory_mb * 2**20:
        return first + rest
    return first + [u for _, group in groups for u in group]


def _with_store(
    store, dataset, problem, folds, keep_decision_values, units, finish, transform=None
):
    """The units left to compute (each with its stored folds), a ``finish`` that writes
    what a unit's folds did not write, and the executors' ``on_fold``; the units found whole
    are finished here, from the store."""
    from svmeval.cv.plan.cv_plan import CVPlan
    from svmeval.cv.run.store_session import missing
    from svmeval.cv.run.store_use import StoreUse

    use = StoreUse(
        store,
        dataset,
        problem,
        folds,
        keep_decision_values,
        preprocessing=None if transform is None else transform.key(),
    )
    use.prefetch(units)
    left = []
    for u in units:
        found = use.find(u)
        use.reused(u, len(found))
        if len(found) < u.folds.n_folds:
            if found:
                partial = replace(u, stored=found)
                use.written[partial] = use.written.pop(u)
                u = partial
            left.append(u)
            continue
        plan = CVPlan(
            relabelled(problem, u.y),
            u.params,
            u.folds,
            u.seed,
            keep_decision_values=keep_decision_values,
            stored=found,
        )
        finish(u, plan.result())

    missing(store, sum(u.folds.n_folds - len(u.stored) for u in left))

    def finish_stored(unit, result) -> None:
        use.write_result(unit, result)
        finish(unit, result)

    def on_fold(unit, i: int, output, seconds: float) -> None:
        use.write(unit, {i: output}, {i: seconds})

    return left, finish_stored, on_fold


def _groups(problem, dataset, units: list, share: bool | None, memory_mb: float) -> tuple:
    """The units by shared kernel, where sharing pays (else one group on the features)."""
    if not units:
        return ()
    groups: dict = {}
    for u in units:
        groups.setdefault(shared_kernel.kernel_key(u.params), []).append(u)
    n_folds = units[0].folds.n_folds
    per_kernel = (
        max(len({u.candidate for u in g}) for g in groups.values())
        * len({(u.repetition, u.relabel) for u in units})
        * n_folds
    )
    if not sharing_pays(
        problem.n_samples,
        len(dataset.indices),
        units[0].params,
        per_kernel,
        n_folds,
        share,
        memory_mb,
        n_features=dataset.n_features,
    ):
        return ((None, tuple(units)),)
    return tuple((group[0].params, tuple(group)) for group in groups.values())


def _probe(problem, dataset, groups: tuple, share, memory_mb: float, folds: int):
    """The kernel parameters a run on the features may switch to once its first training is
    measured (:func:`svmeval.cv.run.probe.probe_params`), or None."""
    if len(groups) != 1 or groups[0][0] is not None:
        return None
    from svmeval.cv import cost
    from svmeval.cv.run import probe

    n, nonzeros = problem.n_samples, len(dataset.indices)
    return probe.probe_params(
        n,
        nonzeros,
        dataset.n_features,
        list(groups[0][1]),
        share,
        memory_mb,
        cost.small_run(n, folds, nonzeros / max(1, n)),
    )


def sharing_pays(
    n_rows: int,
    nonzeros: int,
    params: SvmParams,
    trainings_per_kernel: int,
    n_folds: int,
    share: bool | None,
    memory_mb: float,
    *,
    n_features: int | None = None,
) -> bool:
    """Whether folds train on a shared kernel: never with ``-b 1``, an already precomputed
    kernel or matrices over ``memory_mb``; else ``share``, or the cost model when None."""
    if (
        share is False
        or params.probability
        or n_rows < 2
        or params.kernel_type not in shared_kernel.SHAREABLE
        or shared_kernel.matrix_bytes(n_rows, params.kernel_type) > memory_mb * 2**20
    ):
        return False
    if share:
        return True
    return shared_kernel.plan_sharing(
        n_rows,
        nonzeros,
        params,
        trainings_per_kernel,
        n_folds,
        memory_mb=memory_mb,
        n_features=n_features,
    ).share

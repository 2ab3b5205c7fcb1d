"""The evaluation core: every run is (candidate parameters, seed, fold) units on one executor.

A cross-validation is 1 candidate x R seeds, the grid N candidates x 1 seed, a comparison
2 candidates x R seeds. :func:`evaluate` draws each seed's folds once (C ``rand()`` after
``srand(seed)``, as svm-train), decides which candidates train on a shared kernel (by
(kernel, gamma) key, where :func:`~svmeval.cv.kernel.plan_sharing` says it pays) and hands the
units to an executor (:mod:`svmeval.cv.executors`: local threads or a Dask cluster), which
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
from dataclasses import dataclass

from svmeval.cv import _libsvm
from svmeval.cv import kernel as shared_kernel
from svmeval.cv.folds import Folds
from svmeval.cv.plan import draw_folds
from svmeval.params import SvmParams


@dataclass(frozen=True, eq=False)
class Unit:
    """The cross-validation of candidate ``candidate`` (resolved parameters ``params``) on the
    folds of seed number ``repetition``; ``cost``: a guess at its time (longest first)."""

    candidate: int
    repetition: int
    params: SvmParams
    seed: int
    folds: Folds
    cost: float = 0.0


@dataclass(frozen=True, eq=False)
class Batch:
    """What an executor runs: ``in_order`` units (``-b 1``: one after another, each right
    after ``srand(seed)``), and ``groups`` of units whose folds are independent tasks, each
    group with the kernel parameters its units share (None: they train on the features)."""

    problem: object
    dataset: object
    nr_fold: int
    in_order: tuple
    groups: tuple  # ((kernel params or None, (Unit, ...)), ...)
    keep_decision_values: bool = False
    memory_mb: float = shared_kernel.DEFAULT_MEMORY_MB
    #: the units in the order they are scheduled, one after another (None: the costliest first)
    order: tuple | None = None

    @property
    def total_folds(self) -> int:
        units = list(self.in_order) + [u for _, group in self.groups for u in group]
        return sum(u.folds.n_folds for u in units)


class Release:
    """``finish(unit, result)`` in the units' schedule order: a unit's result is passed on as
    soon as it and every unit scheduled before it are done (one place, whatever produced the
    result); :meth:`flush` passes on every unit done, in that order, when a run stops early."""

    def __init__(self, order, finish: Callable):
        self.position = {unit: k for k, unit in enumerate(order)}
        self.finish = finish
        self.done: dict = {}  # position -> (unit, result), not yet passed on
        self.next = 0  # the first position not yet passed on

    def __call__(self, unit, result) -> None:
        self.done[self.position[unit]] = (unit, result)
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
    nr_fold: int,
    *,
    executor,
    finish: Callable,
    costs: Sequence[float] | None = None,
    keep_decision_values: bool = False,
    share: bool | None = None,
    memory_mb: float | None = None,
    progress: Callable | None = None,
    ordered: bool = False,
) -> None:
    """Cross-validate every candidate on every seed's folds: ``finish(unit, result)`` for each
    (:class:`Unit`, :class:`~svmeval.cv.plan.CVResult`), in the calling thread, any order.

    ``candidates``: resolved, checked parameters (:func:`~svmeval.cv.engine.prepare`) of
    ``problem`` (``dataset``'s LIBSVM problem; the executor may send ``dataset`` elsewhere).
    ``share``: None (the cost model), True (whenever the kernel fits ``memory_mb``), False.
    ``progress(done, total)`` counts folds. ``ordered``: the units run in the candidates'
    order, one unit's folds before the next unit's (kernel group by kernel group when the
    shared kernels do not all fit ``memory_mb`` at once), and ``finish`` is called in that
    order (:class:`Release`), also for the units done when the run is interrupted
    (KeyboardInterrupt).
    """
    memory = memory_mb or shared_kernel.DEFAULT_MEMORY_MB
    costs = list(costs) if costs is not None else [0.0] * len(candidates)
    drawn: dict = {}
    units = []
    for r, seed in enumerate(seeds):
        for c, params in enumerate(candidates):
            key = (r, params.is_classification)
            if key not in drawn:
                drawn[key] = draw_folds(problem.y, nr_fold, seed, params)
            units.append(Unit(c, r, params, seed, drawn[key], costs[c]))
    in_order = tuple(u for u in units if u.params.probability)
    rest = [u for u in units if not u.params.probability]
    groups = _groups(problem, dataset, rest, share, memory)
    order = in_order + _schedule(rest, groups, problem.n_samples, memory) if ordered else None
    batch = Batch(problem, dataset, nr_fold, in_order, groups, keep_decision_values, memory, order)
    count = FoldCount(batch.total_folds, progress)
    if order is None:
        executor.run(batch, finish, count)
        return
    release = Release(order, finish)
    try:
        executor.run(batch, release, count)
    except KeyboardInterrupt:
        release.flush()  # every unit done before the interrupt is passed on
        raise


def _schedule(units: list, groups: tuple, n_rows: int, memory_mb: float) -> tuple:
    """An ordered run's schedule: the units in their order, or kernel group by kernel group
    (each group's units in their order, the groups by their first unit) when the shared
    kernels do not all fit the memory budget at once."""
    shared = [params for params, _ in groups if params is not None]
    total = sum(shared_kernel.matrix_bytes(n_rows, p.kernel_type) for p in shared)
    if total <= memory_mb * 2**20:
        return tuple(units)
    return tuple(u for _, group in groups for u in group)


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
        * len({u.repetition for u in units})
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

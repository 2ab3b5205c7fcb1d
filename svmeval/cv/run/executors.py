"""The two executors of the evaluation core (:mod:`svmeval.cv.run.evaluate`): one protocol,
``run(batch, finish, count)``, on local threads or on a Dask cluster.

Both run a :class:`~svmeval.cv.run.evaluate.Batch` the same way: its ``-b 1`` units each as one
task whose folds run in order right after ``srand(seed)``, every other unit's folds as
independent tasks, the costliest first, a shared kernel computed once per group; each unit's
folds are stored into its :class:`~svmeval.cv.plan.cv_plan.CVPlan` and ``finish(unit, result)`` is
called in the calling thread when its last fold is in. Results are identical on both.

An executor made with ``keep=True`` runs several batches on the same data (a permutation
test's chunks of permutations) as one: the shared kernels it computes (on a cluster: its
session, the data sent and the kernels its workers keep) last from one batch to the next,
until :func:`executor_for`'s context ends.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from svmeval.cv.bounded_waits import stopping_run
from svmeval.cv.plan.cv_plan import CVPlan, in_order, relabelled
from svmeval.cv.schedule import run_tasks
from svmeval.cv.task import FollowUps, folds_done


@contextlib.contextmanager
def executor_for(jobs: int | None = None, client=None, *, keep: bool = False) -> Iterator:
    """The executor of a run's execution options: local threads (``jobs`` at once), or the
    Dask cluster of ``client`` (a ``distributed.Client`` or an address, connected and checked
    here and, for an address, closed at the end). ``keep``: what it computes for one batch
    lasts until the context ends (module notes)."""
    if client is None:
        local = LocalExecutor(jobs, keep=keep)
        try:
            yield local
        finally:
            local.close()
        return
    from svmeval.cv.run import cluster

    with cluster.client_for(client) as ready:
        remote = DaskExecutor(ready, keep=keep)
        try:
            yield remote
        except BaseException as exc:
            remote.close(type(exc))
            raise
        remote.close()


def _weight(unit) -> float:
    """A guess at a unit's relative training time (for balancing, not ordering)."""
    return 2.0 ** (unit.cost / 4)


class LocalExecutor:
    """Fold tasks on this machine's threads (:func:`~svmeval.cv.schedule.run_tasks`).

    Every unit of a batch goes into one run of the scheduler, kernel group by kernel group
    (the costliest group first), each unit's tasks fold by fold, each fold's the biggest first
    (:class:`~svmeval.cv.task.Task`): no group waits for the one before it to end, and the
    only tail is the batch's own. An ordered batch (``batch.order``) runs its units in that
    order instead, each unit's tasks before the next unit's. A group's shared kernel is
    computed by the threads of its first tasks together (:meth:`SharedKernel.ensure`), when
    they start, and freed when its last task ends; the kernels alive at once stay within the
    batch's memory budget (:class:`_Budget`). With ``keep``, a kernel lasts until
    :meth:`close`, for the next batches on the same problem."""

    def __init__(self, jobs: int | None = None, *, keep: bool = False):
        self.jobs = jobs
        self._kept: dict | None = {} if keep else None

    def close(self) -> None:
        """Free the kernels kept (``keep``)."""
        kept, self._kept = self._kept, None
        for _, kernel in (kept or {}).values():
            kernel.release()

    def _kernel(self, batch, kernel_params, budget):
        """The group's shared kernel: a new one, or the one kept for the batch's problem;
        and whether it is kept."""
        from svmeval.cv.run.kernel import SharedKernel, kernel_key

        if self._kept is None:
            return SharedKernel(batch.problem, kernel_params, lazy=True, budget=budget), False
        key = kernel_key(kernel_params)
        problem, kernel = self._kept.get(key, (None, None))
        if problem is not batch.problem:
            kernel = SharedKernel(batch.problem, kernel_params, lazy=True)
            self._kept[key] = (batch.problem, kernel)
        return kernel, True

    def run(self, batch, finish: Callable, count) -> None:
        for unit in batch.in_order:

            def run(tasks):
                run_tasks(tasks, jobs=1, progress=lambda done, total: count.add())

            finish(
                unit,
                in_order(
                    relabelled(batch.problem, unit.y),
                    unit.params,
                    batch.folds,
                    unit.seed,
                    batch.keep_decision_values,
                    run,
                    assignment=given_folds(unit),
                    transform=batch.transform,
                ),
            )
        if not batch.groups:
            return
        budget = _Budget(batch.memory_mb * 2**20)
        plans, kernels, tasks = {}, {}, []
        # an ordered batch: unit by unit in its order; else the costliest group and unit first
        place = {u: (k, 0) for k, u in enumerate(batch.order or ())}
        ranked = sorted(batch.groups, key=lambda g: -sum(_weight(u) for u in g[1]))
        for rank, (kernel_params, units) in enumerate(ranked):
            kernel, kept = (None, False)
            if kernel_params is not None:
                kernel, kept = self._kernel(batch, kernel_params, budget)
            problem = batch.problem if kernel is None else kernel.cv_problem
            probe = None
            if kernel is None and batch.probe is not None and self._kept is None:
                probe = self._probe(batch, budget)
            group = []
            for seq, u in enumerate(sorted(units, key=lambda u: -u.cost)):
                params = u.params if kernel is None else kernel.train_params(u.params)
                plans[u] = CVPlan(
                    relabelled(problem, u.y),
                    params,
                    u.folds,
                    u.seed,
                    keep_decision_values=batch.keep_decision_values,
                    stored=u.stored,
                    probe=probe,
                    probe_labels=u.y,
                    transform=batch.transform,
                )
                kernels[u] = kernel
                key = place.get(u, (rank, seq))
                group += [((*key, t.fold, -t.size), u, t) for t in plans[u].tasks]
            if probe is not None:
                probe.count([t.size for _, _, t in group])
                group = _smallest_first(group)
            if (kernel is not None and not kept) or probe is not None:
                group = _releasing(group, kernel or probe)
            tasks += group
        tasks.sort(key=lambda t: t[0])
        self._run(plans, kernels, tasks, finish, count, batch.on_fold)

    @staticmethod
    def _probe(batch, budget):
        """A run on the features that switches to a shared kernel where its first training
        says it pays (:mod:`svmeval.cv.run.probe`)."""
        from svmeval.cv.run.kernel import SharedKernel
        from svmeval.cv.run.probe import KernelProbe

        problem, n = batch.problem, batch.problem.n_samples
        return KernelProbe(
            lambda: SharedKernel(problem, batch.probe, lazy=True, budget=budget),
            n_rows=n,
            per_row=len(batch.dataset.indices) / max(1, n),
            n_features=batch.dataset.n_features,
            kernel_type=batch.probe.kernel_type,
        )

    def _run(
        self, plans: dict, kernels: dict, tasks: list, finish: Callable, count, on_fold=None
    ) -> None:
        """The tasks of these units as one run of the scheduler; ``on_fold(unit, fold,
        output, seconds)`` as each fold ends (None: not told)."""
        finished: queue.SimpleQueue = queue.SimpleQueue()
        left = {unit: len(plan.tasks) for unit, plan in plans.items()}
        folds = [0, 0]  # folds completed, folds counted
        timed: dict | None = {} if on_fold is not None else None
        runs = [
            _Counted(task, unit, left, finished, folds, (position,), timed)
            for position, (_, unit, task) in enumerate(tasks)
        ]

        def drain() -> None:
            while not finished.empty():
                event = finished.get()
                if isinstance(event, tuple):  # (unit, fold): a fold ended, before its unit
                    unit, i = event
                    if on_fold is not None and timed is not None:  # only they send folds
                        on_fold(unit, i, plans[unit].output(i), timed.pop(event, 0.0))
                    continue
                unit = event
                result = plans.pop(unit).result()
                kernel = kernels.pop(unit)
                finish(unit, result if kernel is None else kernel.restore(result, unit.params))

        def task_done(_done, _total) -> None:
            with _LOCK:
                new, folds[1] = folds[0] - folds[1], folds[0]
            if new:
                count.add(new)
            drain()

        try:
            run_tasks(runs, jobs=self.jobs, progress=task_done)
        except KeyboardInterrupt:
            with stopping_run():
                drain()  # the units whose last fold ended before the interrupt
            raise
        drain()


class _Budget:
    """Bytes of shared kernel matrices alive at once: a kernel waits for room before it is
    computed. Tasks run kernel group by kernel group, so a kernel that waits waits for groups
    whose tasks have all started: room is made. A freed kernel's matrices are kept for the next
    kernel of the same size (fresh memory costs the kernel a page fault per 4 KB, zeroed):
    what is kept counts as free room and is dropped with the batch."""

    def __init__(self, nbytes: float):
        self.free, self.held = nbytes, 0
        self._room = threading.Condition()
        self._spare: list = []

    def take(self, nbytes: int) -> None:
        from svmeval.cv.schedule import check_cancelled

        with self._room:
            while self.free < nbytes and self.held:
                self._room.wait(0.05)
                check_cancelled()
            self.free -= nbytes
            self.held += 1

    def give(self, nbytes: int, arrays=()) -> None:
        with self._room:
            self.free += nbytes
            self.held -= 1
            self._spare.extend(a for a in arrays if a is not None)
            self._room.notify_all()

    def array(self, size: int, dtype):
        """A kept array of ``size`` elements of ``dtype`` (its contents stale), or a new one."""
        import numpy as np

        with self._room:
            for k, a in enumerate(self._spare):
                if a.size == size and a.dtype == dtype:
                    return self._spare.pop(k)
            self._spare.clear()  # another size: the room goes to the new array
        return np.empty(size, dtype=dtype)


def _smallest_first(group: list) -> list:
    """The group's tasks with its smallest one scheduled first: the first training to end
    decides a probe's switch (:mod:`svmeval.cv.run.probe`), the sooner the more tasks it serves."""
    if not group:
        return group
    k = min(range(len(group)), key=lambda j: (group[j][2].size, group[j][0]))
    first = min(key for key, _, _ in group)
    moved = [(first[:-1] + (first[-1] - 1,), group[k][1], group[k][2])]
    return moved + group[:k] + group[k + 1 :]


def _releasing(group: list, kernel) -> list:
    """The group's tasks, the last of them to end freeing its kernel."""
    left = [len(group)]

    def wrap(task):
        def run(omp_threads):
            result = None
            try:
                result = task(omp_threads)
                if isinstance(result, FollowUps):  # they need the kernel too
                    with _LOCK:
                        left[0] += len(result.tasks)
                    result = FollowUps([wrap(t) for t in result.tasks])
                return result
            finally:
                with _LOCK:
                    left[0] -= 1
                    last = left[0] == 0
                if last:
                    kernel.release()

        return _Task(run, task)

    return [(key, unit, wrap(task)) for key, unit, task in group]


_LOCK = threading.Lock()


class _Task:
    """A task wrapped, keeping what the scheduler reads of it (``size``, ``max_threads``)."""

    __slots__ = ("run", "size", "max_threads", "fold")

    def __init__(self, run, inner):
        self.run = run
        self.size = getattr(inner, "size", 0)
        self.max_threads = getattr(inner, "max_threads", None)
        self.fold = getattr(inner, "fold", None)

    def __call__(self, omp_threads):
        return self.run(omp_threads)


#: while :func:`recording` is on, a list of what each local task did (a scheduler's replay)
_RECORD: list = []


@contextlib.contextmanager
def recording() -> Iterator[list]:
    """Record every task local executors run: ``(position, seconds, omp_threads, size,
    max_threads, folds completed, CPU seconds of its thread, its start on the
    ``time.perf_counter`` clock)``; position: ``(k,)`` for the
    run's k-th task, the task's own position plus ``(j,)`` for its j-th follow-up
    (``scripts/simulate_cores.py`` replays them on simulated cores)."""
    record: list = []
    _RECORD.append(record)
    try:
        yield record
    finally:
        _RECORD.remove(record)


def _Counted(
    task,
    unit,
    left: dict,
    finished: queue.SimpleQueue,
    folds: list,
    position: tuple = (0,),
    timed: dict | None = None,
):
    """The task; the folds it completed are counted, and when it is the unit's last task to
    end, the unit goes on ``finished``. With ``timed`` (a dict: (unit, fold) -> seconds of
    its tasks), a fold the task completed goes on ``finished`` as ``(unit, fold)`` first."""

    def run(omp_threads):
        start, cpu = time.perf_counter(), time.thread_time()
        result = task(omp_threads)
        done = folds_done(result)
        fold = getattr(task, "fold", None)
        if timed is not None and fold is not None:
            with _LOCK:
                timed[unit, fold] = timed.get((unit, fold), 0.0) + time.perf_counter() - start
            if done:
                finished.put((unit, fold))
        if _RECORD:
            _RECORD[-1].append(
                (
                    position,
                    time.perf_counter() - start,
                    omp_threads,
                    getattr(task, "size", 0),
                    getattr(task, "max_threads", 1),
                    done,
                    time.thread_time() - cpu,
                    start,
                )
            )
        follow = result.tasks if isinstance(result, FollowUps) else []
        with _LOCK:
            folds[0] += done
            left[unit] += len(follow) - 1
            last = left[unit] == 0
        if last:
            finished.put(unit)
        if follow:  # each counted too; placed after their task in a recording
            return FollowUps(
                [
                    _Counted(t, unit, left, finished, folds, position + (k,), timed)
                    for k, t in enumerate(follow)
                ]
            )
        return done

    return _Task(run, task)


class DaskExecutor:
    """Fold tasks on a Dask cluster (:mod:`svmeval.cv.run.cluster`): the data and each seed's
    folds go to every worker once; a shared kernel's tasks prefer one worker (when there are
    at least as many kernels as workers), which computes it once. With ``keep``, one session
    (the data sent once, the kernels the workers keep) serves every batch until
    :meth:`close`."""

    def __init__(self, client, *, keep: bool = False):
        self.client = client
        self.keep = keep
        self._session: Any = None
        self._dataset = None  # the data the kept session sent

    def close(self, interrupted: type | None = None) -> None:
        """End the session kept (``keep``); ``interrupted``: the exception's type that ends
        the run, if any."""
        session, self._session = self._session, None
        if session is not None:
            session.__exit__(interrupted, None, None)

    def run(self, batch, finish: Callable, count) -> None:
        from svmeval.cv.run import cluster

        if not self.keep:
            with cluster.Session(self.client) as session:
                self._run(batch, finish, count, session)
            return
        if self._session is None or self._dataset is not batch.dataset:  # other data: anew
            self.close()
            self._session = cluster.Session(self.client)
            self._dataset = batch.dataset
        self._run(batch, finish, count, self._session)

    def _run(self, batch, finish: Callable, count, session) -> None:
        jobs = self._jobs(batch, session)
        plans: dict = {}
        left: dict = {}

        def on_done(tag, outputs) -> None:
            unit, part = tag
            if part is None:  # a -b 1 unit: its whole result
                count.add(unit.folds.n_folds)
                finish(unit, outputs)
                return
            plan = plans.get(unit)
            if plan is None:
                plan = plans[unit] = CVPlan(
                    relabelled(batch.problem, unit.y),
                    unit.params,
                    unit.folds,
                    unit.seed,
                    keep_decision_values=batch.keep_decision_values,
                    collect=True,
                    stored=unit.stored,
                )
                left[unit] = unit.folds.n_folds - len(unit.stored)
            for i, output in zip(part, outputs):
                plan.store(i, output)
                if batch.on_fold is not None:
                    batch.on_fold(unit, i, output, 0.0)
            left[unit] -= len(part)
            count.add(len(part))
            if left[unit] == 0:
                del left[unit]
                finish(unit, plans.pop(unit).result())

        session.run(jobs, on_done)

    @staticmethod
    def _jobs(batch, session) -> list:
        from svmeval.cv.run import cluster, workers
        from svmeval.cv.run.kernel import SharedKernel

        data = session.data(batch.dataset)
        keep = batch.keep_decision_values
        jobs = [
            cluster.Job(
                workers.cv_task,
                data + (u.params, batch.folds, u.seed, keep) + _whole_cv(u),
                (u, None),
                priority=u.cost,
            )
            for u in batch.in_order
        ]
        if not batch.groups:
            return jobs
        shipped: dict = {}
        n_workers = len(session.workers())
        units = [u for _, group in batch.groups for u in group]
        pieces = cluster.split_folds(units[0].folds.n_folds, len(units), n_workers)
        # the costliest kernels first: their tasks end early, the cheap ones fill the tail
        ranked = sorted(batch.groups, key=lambda g: -sum(_weight(u) for u in g[1]))
        place = len(ranked) >= max(1, n_workers)
        # an ordered batch: its units' tasks first to last (the results are passed on in order)
        order = batch.order or ()
        first = {u: len(order) - k for k, u in enumerate(order)}
        for rank, (kernel_params, group) in enumerate(ranked):
            for u in group:
                if u.y is not None:  # a unit's own labels and folds go with its tasks
                    shipped[id(u.folds)] = u.folds
                elif id(u.folds) not in shipped:
                    shipped[id(u.folds)] = session.scatter(u.folds)
                extra: tuple
                if kernel_params is None:
                    train, extra, priority, where = u.params, (), u.cost, None
                else:  # one kernel's tasks together on one worker, its longest first
                    train = SharedKernel.train_params(u.params)
                    extra = (kernel_params, batch.memory_mb)
                    priority = (len(ranked) - rank) * 1e6 + u.cost
                    where = rank if place else None
                priority = first.get(u, priority)
                if u.y is not None:
                    extra = (extra or (None, 0.0)) + _labels(u)
                for part in pieces:
                    part = tuple(i for i in part if i not in u.stored)
                    if not part:
                        continue
                    jobs.append(
                        cluster.Job(
                            workers.fold_task,
                            data + (shipped[id(u.folds)], train, part, keep) + extra,
                            (u, part),
                            priority=priority,
                            group=where,
                            cost=_weight(u) * len(part),
                        )
                    )
        return jobs


def _labels(unit) -> tuple:
    """A task's last argument: the unit's own labels, where it has them."""
    return () if unit.y is None else (unit.y,)


def _whole_cv(unit) -> tuple:
    """A whole cross-validation's last arguments (:func:`~svmeval.cv.run.workers.cv_task`):
    the unit's own labels, and its folds where they are not LIBSVM's."""
    folds = given_folds(unit)
    return _labels(unit) if folds is None else (unit.y, folds)


def given_folds(unit):
    """The unit's folds where they are not LIBSVM's (None: LIBSVM's, drawn again after
    ``srand(seed)``)."""
    return unit.folds if unit.folds.source is not None else None

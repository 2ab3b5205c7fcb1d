"""The two executors of the evaluation core (:mod:`svmeval.cv.evaluate`): one protocol,
``run(batch, finish, count)``, on local threads or on a Dask cluster.

Both run a :class:`~svmeval.cv.evaluate.Batch` the same way: its ``-b 1`` units each as one
task whose folds run in order right after ``srand(seed)``, every other unit's folds as
independent tasks, the costliest first, a shared kernel computed once per group; each unit's
folds are stored into its :class:`~svmeval.cv.plan.CVPlan` and ``finish(unit, result)`` is
called in the calling thread when its last fold is in. Results are identical on both.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from typing import Callable, Iterator

from svmeval.cv.plan import CVPlan, in_order
from svmeval.cv.schedule import available_cores, run_tasks


@contextlib.contextmanager
def executor_for(jobs: int | None = None, client=None) -> Iterator:
    """The executor of a run's execution options: local threads (``jobs`` at once), or the
    Dask cluster of ``client`` (a ``distributed.Client`` or an address, connected and checked
    here and, for an address, closed at the end)."""
    if client is None:
        yield LocalExecutor(jobs)
        return
    from svmeval.cv import cluster

    with cluster.client_for(client) as ready:
        yield DaskExecutor(ready)


def _weight(unit) -> float:
    """A guess at a unit's relative training time (for balancing, not ordering)."""
    return 2.0 ** (unit.cost / 4)


class LocalExecutor:
    """Fold tasks on this machine's threads (:func:`~svmeval.cv.schedule.run_tasks`)."""

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs

    def run(self, batch, finish: Callable, count) -> None:
        for unit in batch.in_order:
            def run(tasks):
                run_tasks(tasks, jobs=1, progress=lambda done, total: count.add())
            finish(unit, in_order(batch.problem, unit.params, batch.nr_fold, unit.seed,
                                  batch.keep_decision_values, run))
        for kernel_params, units in batch.groups:
            if kernel_params is None:
                self._run({u: CVPlan(batch.problem, u.params, u.folds, u.seed,
                                     keep_decision_values=batch.keep_decision_values)
                           for u in units}, None, finish, count)
                continue
            from svmeval.cv.kernel import SharedKernel

            kernel = SharedKernel(batch.problem, kernel_params,
                                  threads=self.jobs or available_cores())
            self._run({u: CVPlan(kernel.cv_problem, kernel.train_params(u.params), u.folds,
                                 u.seed, keep_decision_values=batch.keep_decision_values)
                       for u in units}, kernel, finish, count)
            del kernel

    def _run(self, plans: dict, kernel, finish: Callable, count) -> None:
        """The folds of these units as one batch of tasks, longest first."""
        finished: queue.SimpleQueue = queue.SimpleQueue()
        left = {unit: plan.folds.n_folds for unit, plan in plans.items()}
        tasks = [(unit.cost, _counted(task, unit, left, finished))
                 for unit, plan in plans.items() for task in plan.tasks]
        tasks.sort(key=lambda t: -t[0])

        def drain() -> None:
            while not finished.empty():
                unit = finished.get()
                result = plans.pop(unit).result()
                finish(unit, result if kernel is None else kernel.restore(result, unit.params))

        def fold_done(_done, _total) -> None:
            count.add()
            drain()

        run_tasks([t for _, t in tasks], jobs=self.jobs, progress=fold_done)
        drain()


_LOCK = threading.Lock()


def _counted(task, unit, left: dict, finished: queue.SimpleQueue):
    """The task, and when it is the unit's last fold to end, the unit on ``finished``."""

    def run(omp_threads):
        task(omp_threads)
        with _LOCK:
            left[unit] -= 1
            last = left[unit] == 0
        if last:
            finished.put(unit)
    return run


class DaskExecutor:
    """Fold tasks on a Dask cluster (:mod:`svmeval.cv.cluster`): the data and each seed's
    folds go to every worker once; a shared kernel's tasks prefer one worker (when there are
    at least as many kernels as workers), which computes it once."""

    def __init__(self, client):
        self.client = client

    def run(self, batch, finish: Callable, count) -> None:
        from svmeval.cv import cluster

        with cluster.Session(self.client) as session:
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
                    plan = plans[unit] = CVPlan(batch.problem, unit.params, unit.folds,
                                                unit.seed,
                                                keep_decision_values=batch.keep_decision_values)
                    left[unit] = unit.folds.n_folds
                for i, output in zip(part, outputs):
                    plan.store(i, output)
                left[unit] -= len(part)
                count.add(len(part))
                if left[unit] == 0:
                    del left[unit]
                    finish(unit, plans.pop(unit).result())

            session.run(jobs, on_done)

    @staticmethod
    def _jobs(batch, session) -> list:
        from svmeval.cv import cluster, workers
        from svmeval.cv.kernel import SharedKernel

        data = session.data(batch.dataset)
        keep = batch.keep_decision_values
        jobs = [cluster.Job(workers.cv_task, data + (u.params, batch.nr_fold, u.seed, keep),
                            (u, None), priority=u.cost) for u in batch.in_order]
        if not batch.groups:
            return jobs
        shipped: dict = {}
        n_workers = len(session.workers())
        units = [u for _, group in batch.groups for u in group]
        pieces = cluster.split_folds(units[0].folds.n_folds, len(units), n_workers)
        # the costliest kernels first: their tasks end early, the cheap ones fill the tail
        ranked = sorted(batch.groups, key=lambda g: -sum(_weight(u) for u in g[1]))
        place = len(ranked) >= max(1, n_workers)
        for rank, (kernel_params, group) in enumerate(ranked):
            for u in group:
                if id(u.folds) not in shipped:
                    shipped[id(u.folds)] = session.scatter(u.folds)
                if kernel_params is None:
                    train, extra, priority, where = u.params, (), u.cost, None
                else:  # one kernel's tasks together on one worker, its longest first
                    train = SharedKernel.train_params(u.params)
                    extra = (kernel_params, batch.memory_mb)
                    priority = (len(ranked) - rank) * 1e6 + u.cost
                    where = rank if place else None
                for part in pieces:
                    jobs.append(cluster.Job(
                        workers.fold_task, data + (shipped[id(u.folds)], train, part, keep)
                        + extra, (u, part), priority=priority, group=where,
                        cost=_weight(u) * len(part)))
        return jobs

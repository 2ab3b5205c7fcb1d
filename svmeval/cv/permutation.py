"""Cross-validations of permuted labels on one kernel: the permutation test's runs.

Permutation p (1..N) is ``numpy.random.default_rng(seed)``'s p-th ``permutation(n)`` of the
samples' labels, drawn one after another. Its folds are LIBSVM's, drawn from the permuted
labels after ``srand(seed)`` (:func:`~svmeval.cv.plan.draw_folds`), and its folds train and
predict as :class:`~svmeval.cv.plan.CVPlan` does: each permutation's predictions are
``svm_cross_validation``'s after ``srand(seed)`` on a problem with the permuted labels,
that is ``svm-train -v k`` of a file with those labels.

The kernel depends on the features only: with a kernel LIBSVM can take precomputed (linear,
polynomial, RBF, sigmoid) it is computed once (:class:`~svmeval.cv.kernel.SharedKernel`) and
every fold of every permutation trains on it, its labels given with the fold's rows. Memory is
one kernel matrix, not N: the permutations run :data:`CHUNK` at a time (the folds of a chunk
one run of the scheduler on this machine's threads, :func:`~svmeval.cv.schedule.run_tasks`),
each result handed to ``finish`` and dropped. Results do not depend on ``jobs``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmeval.cv import _libsvm
from svmeval.cv.kernel import SHAREABLE, SharedKernel, matrix_bytes
from svmeval.cv.plan import CVPlan, draw_folds
from svmeval.cv.results import CVResult
from svmeval.cv.schedule import run_tasks
from svmeval.params import SvmParams

__all__ = ["CHUNK", "PermutedProblem", "permutation_orders", "permuted_cvs"]

#: permutations whose folds run at once (their per-sample results held together)
CHUNK = 64


class PermutedProblem:
    """A problem as :class:`CVPlan` uses one, with other labels ``y``: a fold's training
    problem takes its rows' labels from ``y``."""

    def __init__(self, base, y: np.ndarray):
        self._base = base
        self.y = y

    @property
    def n_samples(self) -> int:
        return len(self.y)

    @property
    def rows(self) -> np.ndarray:
        return self._base.rows

    def subset(self, order: np.ndarray, y: np.ndarray | None = None):
        return self._base.subset(order, self.y[order] if y is None else y)


def _silent(message: str) -> None:
    pass


def permutation_orders(n: int, permutations: int, seed: int) -> np.ndarray:
    """(permutations, n): each permutation's order of the labels (module notes)."""
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(n) for _ in range(permutations)], dtype=np.int64).reshape(
        permutations, n
    )


@_libsvm.c_state  # C's rand() (the folds) held for the run
def permuted_cvs(
    problem,
    params: SvmParams,
    nr_fold: int,
    seed: int,
    orders: np.ndarray,
    finish: Callable[[int, CVResult], None],
    *,
    jobs: int | None = None,
    memory_mb: float = 2048,
    progress: Callable[[int, int], None] | None = None,
) -> bool:
    """The cross-validation of the labels ``problem.y[order]`` for each row p of ``orders``
    (resolved, checked ``params``; no ``-b 1``), handed to ``finish(p, result)`` in order;
    returns whether they shared one kernel. ``progress(done, total)`` counts permutations."""
    share = (
        params.kernel_type in SHAREABLE
        and len(orders) > 0
        and matrix_bytes(problem.n_samples, params.kernel_type) <= memory_mb * 2**20
    )
    base, train = problem, params
    if share:
        kernel = SharedKernel(problem, params, threads=jobs)
        base, train = kernel.cv_problem, kernel.train_params(params)
    for first in range(0, len(orders), CHUNK):
        plans = []
        for p in range(first, min(first + CHUNK, len(orders))):
            y = np.ascontiguousarray(problem.y[orders[p]])
            # LIBSVM's leave-one-out warning (more folds than samples) once, not once a
            # permutation
            folds = draw_folds(y, nr_fold, seed, params, warn=None if p == 0 else _silent)
            plans.append(CVPlan(PermutedProblem(base, y), train, folds, seed))
        run_tasks([task for plan in plans for task in plan.tasks], jobs=jobs)
        for p, plan in enumerate(plans, start=first):
            result = plan.result()
            finish(p, kernel.restore(result, params) if share else result)
        if progress is not None:
            progress(first + len(plans), len(orders))
    return share

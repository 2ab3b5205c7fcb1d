"""Cross-validations of permuted labels on one kernel: the permutation test's runs.

Permutation p (1..N) is ``numpy.random.default_rng(seed)``'s p-th ``permutation(n)`` of the
samples' labels, drawn one after another. Its folds are LIBSVM's, drawn from the permuted
labels after ``srand(seed)`` (:func:`~svmeval.cv.plan.cv_plan.draw_folds`), and its folds train and
predict as :class:`~svmeval.cv.plan.cv_plan.CVPlan` does: each permutation's predictions are
``svm_cross_validation``'s after ``srand(seed)`` on a problem with the permuted labels,
that is ``svm-train -v k`` of a file with those labels.

Each permutation is a unit of the evaluation core (:func:`~svmeval.cv.run.evaluate.evaluate`,
its labels :attr:`~svmeval.cv.run.evaluate.Unit.y`): it runs on the one executor protocol (this
machine's threads or a Dask cluster, the same results) and, where a results store is in use,
its folds are stored under a key that holds its permuted labels' digest and the seed
(:mod:`svmeval.cv.run.store_use`), and taken from there on a rerun.

The kernel depends on the features only: with a kernel LIBSVM can take precomputed (linear,
polynomial, RBF, sigmoid) that fits the memory budget it is computed once
(:class:`~svmeval.cv.run.kernel.SharedKernel`; on a cluster once per worker) and every fold of
every permutation trains on it, its labels given with the fold's rows. Memory is one kernel
matrix, not N: the permutations run :data:`CHUNK` at a time (one batch of the executor, which
keeps the kernel from one batch to the next), each result handed to ``finish`` and dropped.
Results do not depend on ``jobs``, the executor or the chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from svmeval.cv.collect.results import CVResult
from svmeval.cv.run.kernel import DEFAULT_MEMORY_MB, SHAREABLE, matrix_bytes
from svmeval.params import SvmParams

__all__ = ["CHUNK", "group_orders", "permutation_orders", "permuted_cvs", "shares_kernel"]

#: permutations whose folds run at once (their per-sample results held together)
CHUNK = 64


def permutation_orders(n: int, permutations: int, seed: int) -> Iterator[np.ndarray]:
    """Each permutation's order of the labels, one after another (module notes)."""
    rng = np.random.default_rng(seed)
    for _ in range(permutations):
        yield rng.permutation(n).astype(np.int64, copy=False)


def group_orders(
    groups: np.ndarray, y: np.ndarray, permutations: int, seed: int
) -> tuple[str, Iterator[np.ndarray]]:
    """``(design, orders)`` of a permutation test whose rows come in ``groups`` (codes):
    ``orders`` gives, for each permutation, the row whose label each row takes
    (``y[order]``), from ``numpy.random.default_rng(seed)``.

    Design ``"between groups"`` where every group has one label: the groups' labels are
    permuted among the groups (each row takes the label its group was given), the unit that
    is exchangeable when rows of a group belong together. Else ``"within groups"``: each
    group's labels are permuted among its own rows (each group keeps its labels)."""
    order = np.argsort(groups, kind="stable")
    bounds = np.flatnonzero(np.diff(groups[order])) + 1
    members = np.split(order, bounds)  # each group's rows, groups in code order
    first = np.array([m[0] for m in members], dtype=np.int64)
    one_label = all(np.all(y[m] == y[m[0]]) for m in members)

    def between() -> Iterator[np.ndarray]:
        rng = np.random.default_rng(seed)
        for _ in range(permutations):
            given = first[rng.permutation(len(members))]  # group g takes given[g]'s label
            yield given[groups]

    def within() -> Iterator[np.ndarray]:
        rng = np.random.default_rng(seed)
        for _ in range(permutations):
            out = np.arange(len(groups), dtype=np.int64)
            for m in members:
                out[m] = m[rng.permutation(len(m))]
            yield out

    return ("between groups", between()) if one_label else ("within groups", within())


def shares_kernel(n_samples: int, params: SvmParams, memory_mb: float = DEFAULT_MEMORY_MB) -> bool:
    """Whether the permutations train on one shared kernel (module notes)."""
    return (
        params.kernel_type in SHAREABLE
        and not params.probability
        and n_samples >= 2
        and matrix_bytes(n_samples, params.kernel_type) <= memory_mb * 2**20
    )


def permuted_cvs(
    dataset,
    problem,
    params: SvmParams,
    folds: int,
    seed: int,
    orders,
    finish: Callable[[int, CVResult], None],
    *,
    executor=None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    progress: Callable[[int, int], None] | None = None,
    total: int | None = None,
    fold_source=None,
) -> bool:
    """The cross-validation of the labels ``problem.y[order]`` for each ``order`` of
    ``orders`` (an iterable of index arrays; ``params`` resolved and checked, no ``-b 1``),
    handed to ``finish(p, result)`` (p: the order's place, any order within a chunk) on
    ``executor`` (one that keeps its kernels: :func:`~svmeval.cv.run.executors.executor_for`
    with ``keep=True``; default this machine's threads); returns whether they shared one
    kernel. ``progress(done, total)`` counts the cross-validations ended (``total``: how many
    ``orders`` holds, where known). ``fold_source``: folds given or grouped instead of
    LIBSVM's (groups: assigned for each permutation's own labels)."""
    import contextlib
    import itertools

    from svmeval.cv.run.evaluate import evaluate
    from svmeval.cv.run.executors import executor_for

    share = shares_kernel(problem.n_samples, params, memory_mb)
    done = [0]
    with contextlib.ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(executor_for(keep=True))
        orders = iter(orders)
        first = 0
        while True:
            chunk = list(itertools.islice(orders, CHUNK))
            if not chunk:
                break
            labels = [np.ascontiguousarray(problem.y[o]) for o in chunk]

            def ended(unit, result, first=first) -> None:
                finish(first + unit.relabel, result)
                done[0] += 1
                if progress is not None:
                    progress(done[0], total if total is not None else done[0])

            evaluate(
                dataset,
                problem,
                [params],
                [seed],
                folds,
                executor=executor,
                finish=ended,
                share=share,
                memory_mb=memory_mb,
                labels=labels,
                warn_folds=first == 0,
                fold_source=fold_source,
            )
            first += len(chunk)
    return share

"""What runs on a Dask worker for svmeval's cluster runs (:mod:`svmeval.cv.run.cluster`).

A worker process keeps, per run (its token), the LIBSVM problem of the data and the shared
kernels it computed, until the run's client says it is done (:func:`forget`); at most a few
runs' problems and ``memory_mb`` of kernels are kept in any case. They are keyed by the run,
not by the data object: Dask may drop a worker's copy of the data and fetch it again (its
active memory manager), and the kernels stay valid. Tasks train on one OpenMP thread each.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from svmeval.cv.run.kernel import SharedKernel


def worker_version() -> tuple[str, str]:
    """The svmeval version this worker runs and the digest of its sources (checked by the
    client when it connects: :func:`svmeval._version.source_digest`)."""
    from svmeval import _version

    return _version.__version__, _version.source_digest()


_worker_lock = threading.Lock()
_problems: OrderedDict[str, object] = OrderedDict()  # run token -> LIBSVM problem
_kernels: OrderedDict[tuple, SharedKernel] = OrderedDict()  # (run token, kernel key) -> kernel
_kernel_locks: dict = {}
_quiet_set: list[bool] = []
_stats = {"problems": 0, "kernels": 0, "liblinear_units": 0}
#: problems kept at once by a worker (runs of several clients sharing a cluster)
KEEP_PROBLEMS = 4
#: run token -> the run's FoldTransform (preprocessing inside the folds: each fold's rows
#: made once on this worker for the tasks of that fold it runs)
_transforms: OrderedDict[str, object] = OrderedDict()


def worker_transform(token: str, dataset, learned: tuple):
    """The :class:`~svmeval.cv.run.preprocessed.FoldTransform` of a run whose folds learn
    ``learned`` = ``(preprocessing, share_kernels, memory_mb)`` (the client's), made once per
    worker process and run."""
    from svmeval.cv.run.preprocessed import FoldTransform

    with _worker_lock:
        transform = _transforms.get(token)
        if transform is None:
            preprocessing, share, memory_mb = learned
            transform = FoldTransform(
                dataset, preprocessing, share_kernels=share, memory_mb=memory_mb
            )
            _transforms[token] = transform
            while len(_transforms) > KEEP_PROBLEMS:
                _transforms.popitem(last=False)
        else:
            _transforms.move_to_end(token)
    return transform


def worker_stats() -> dict:
    """What this worker process has built or run: LIBSVM problems, shared kernels and
    LIBLINEAR units (counts)."""
    with _worker_lock:
        return dict(_stats)


def forget(token: str) -> None:
    """Drop what this worker keeps for the run ``token`` (sent by the client at the end)."""
    with _worker_lock:
        _problems.pop(token, None)
        _transforms.pop(token, None)
        for key in [k for k in _kernels if k[0] == token]:
            del _kernels[key]


def worker_problem(token: str, dataset):
    """The LIBSVM problem of a run's data set, built once per worker process."""
    from svmeval.cv import _libsvm

    with _worker_lock:
        problem = _problems.get(token)
        if problem is None:
            problem = _libsvm.make_problem(dataset)
            _problems[token] = problem
            _stats["problems"] += 1
            while len(_problems) > KEEP_PROBLEMS:
                _problems.popitem(last=False)
        else:
            _problems.move_to_end(token)
        if not _quiet_set:  # LIBSVM's messages would go to the worker's log: nowhere
            _libsvm.set_quiet(True)
            _quiet_set.append(True)
    return problem


def worker_kernel(token: str, dataset, params, memory_mb: float):
    """The shared kernel of ``params`` (the cell's own kernel parameters) on a run's data,
    computed once per worker (on the task's one thread) and kept while it fits ``memory_mb``
    with the others this worker holds (least recently used dropped first)."""
    from svmeval.cv.run.kernel import SharedKernel, kernel_key

    problem = worker_problem(token, dataset)
    key = (token, kernel_key(params))
    with _worker_lock:
        lock = _kernel_locks.setdefault(key, threading.Lock())
    with lock:  # a second task of the same gamma waits for the first one's kernel
        with _worker_lock:
            kernel = _kernels.get(key)
            if kernel is not None:
                _kernels.move_to_end(key)
                return kernel
        kernel = SharedKernel(problem, params, threads=1)
        with _worker_lock:
            _stats["kernels"] += 1
            _kernels[key] = kernel
            budget = memory_mb * 2**20
            while len(_kernels) > 1 and sum(k.nbytes for k in _kernels.values()) > budget:
                _kernels.popitem(last=False)
            _kernel_locks.pop(key, None)
        return kernel


def fold_task(
    token: str,
    dataset,
    folds,
    params,
    fold_numbers: tuple,
    keep_decision_values: bool,
    kernel_params=None,
    memory_mb: float = 0.0,
    labels=None,
    learned=None,
) -> list:
    """On a worker: the folds ``fold_numbers`` of the CV of ``params`` over ``folds``, in that
    order; their :class:`~svmeval.cv.plan.cv_plan.FoldOutput`\\ s. With ``kernel_params`` the folds
    train on that kernel shared (``params`` then has LIBSVM's precomputed kernel); with
    ``labels``, on those labels instead of the data's (a permutation's); with ``learned``
    (:func:`worker_transform`'s), on each fold's rows as its training rows' preprocessing
    makes them, as the local run does."""
    from svmeval.cv.plan.cv_plan import CVPlan, relabelled

    problem = worker_problem(token, dataset)
    if kernel_params is not None:
        problem = worker_kernel(token, dataset, kernel_params, memory_mb).cv_problem
    plan = CVPlan(
        relabelled(problem, labels),
        params,
        folds,
        0,
        keep_decision_values=keep_decision_values,
        collect=False,
        transform=None if learned is None else worker_transform(token, dataset, learned),
    )
    return [plan.fold_output(i, 1) for i in fold_numbers]


def cv_task(
    token: str,
    dataset,
    params,
    folds: int,
    seed: int,
    keep_decision_values: bool,
    labels=None,
    assignment=None,
    learned=None,
):
    """On a worker: a whole cross-validation, folds in order after ``srand(seed)`` (``-b 1``),
    on ``labels`` where given (a permutation's), on ``assignment`` where its folds are not
    LIBSVM's, with ``learned`` (:func:`worker_transform`'s) learned inside each fold."""
    from svmeval.cv import _libsvm
    from svmeval.cv.plan.cv_plan import in_order, relabelled

    problem = relabelled(worker_problem(token, dataset), labels)
    transform = None if learned is None else worker_transform(token, dataset, learned)
    # C's rand() drawn by this task alone, its folds on one OpenMP thread each
    return _libsvm.c_state(in_order)(
        problem,
        params,
        folds,
        seed,
        keep_decision_values,
        assignment=assignment,
        transform=transform,
    )


def linear_task(token: str, dataset, function, args: tuple):
    """On a worker: ``function(dataset, *args)``, a LIBLINEAR unit
    (:mod:`svmeval.cv.run.linear_cluster`), holding C's global state as :func:`cv_task` does
    (LIBSVM's lock; the LIBLINEAR call takes LIBLINEAR's inside it): no other task of this
    worker's threads draws from ``rand()`` meanwhile."""
    from svmeval.cv import _libsvm

    del token  # the run's name: LIBLINEAR's units keep nothing on the worker
    output = _libsvm.c_state(function)(dataset, *args)
    with _worker_lock:
        _stats["liblinear_units"] += 1
    return output

"""LIBLINEAR's folds on the machine's cores, for the solvers whose training draws nothing from
C ``rand()``: each fold's ``train`` and the prediction of its test rows, a task of
:func:`svmeval.cv.schedule.run_tasks`.

In LIBLINEAR 2.50's linear.cpp the dual and L1 solvers (``-s 1, 3, 4, 5, 6, 7, 12, 13``, and
``-s 21``'s pivot) shuffle with ``rand()``: a fold's training then depends on what the folds
before it drew, and ``cross_validation`` must run them one after another in one C call. The
primal Newton solvers ``-s 0, 2, 11`` draw none: once the fold permutation is drawn as
``cross_validation`` draws it (``srand(seed)``, then its shuffle), each fold's model depends
only on its own rows, in their order, and trains on any thread at any time. The predictions
are ``cross_validation``'s bit for bit (the same ``train`` on the same rows in the same order,
the same ``predict_values``). The same holds for the folds of the warm-started
search over C (``find_parameter_C``): fold ``i`` at a C starts from fold ``i``'s own weights at
the C before and from nothing else, so the folds of one C train side by side.

LIBLINEAR's print hook is global: one hook is set before the threads start, and keeps each
fold's messages (told apart by the thread that prints them), written in fold order as the
folds before have ended: standard error gets the bytes of the one C call.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from svmeval.cv import c_library, schedule
from svmeval.cv.liblinear_core import THREADED_SOLVERS

__all__ = ["THREADED_SOLVERS", "FoldRunner", "each_fold", "fold_threads", "run_cross_validation"]

#: what cross_validation writes on stderr (fprintf) where the folds outnumber the rows
LEAVE_ONE_OUT = (
    b"WARNING: # folds > # data. Will use # folds = # data instead "
    b"(i.e., leave-one-out cross validation)\n"
)


def fold_threads(solver_type: int, jobs: int | None, n_folds: int) -> int:
    """The threads LIBLINEAR's ``n_folds`` folds of ``solver_type`` train on: ``jobs`` (None:
    the cores), at most a fold each; 1 (LIBLINEAR's one C call) for a solver that draws from
    ``rand()``."""
    if solver_type not in THREADED_SOLVERS:
        return 1
    return max(1, min(jobs or schedule.available_cores(), n_folds))


@dataclass(frozen=True)
class FoldFit:
    """What a fold's training leaves: its weights (copied), LIBLINEAR's class order, and its
    test rows' predictions and decision values (``predict_values``'s, a row each)."""

    w: np.ndarray
    nr_class: int
    label: np.ndarray | None
    predictions: np.ndarray
    dec: np.ndarray


class FoldRunner:
    """The folds of ``plan`` on ``problem`` (a :class:`~svmeval.cv._liblinear.LinearProblem`):
    fold ``i``'s training rows as LIBLINEAR's ``cross_validation`` lays them out
    (``perm[0:begin]`` then ``perm[end:l]``), LIBLINEAR's ``train`` of them, and its own
    ``predict_values`` of the fold's test rows (what its ``predict`` returns)."""

    def __init__(self, c, problem, plan):
        self.c = c
        self.plan = plan
        self.subs = [problem.subset(plan.train(i)) for i in range(plan.n_folds)]
        self.tests = [plan.test(i) for i in range(plan.n_folds)]
        self.rows = [np.ascontiguousarray(problem.rows[rows]) for rows in self.tests]

    def fit(self, i: int, param) -> FoldFit:
        """LIBLINEAR's ``train`` of fold ``i``'s rows with ``param`` (a ``struct parameter``
        this call alone reads), then its test rows predicted by LIBLINEAR's
        ``predict_values`` in one C loop (the GIL released)."""
        c, sub = self.c, self.subs[i]
        model = c.train(sub.address, ctypes.addressof(param))
        try:
            schedule.check_cancelled()  # an interrupted run's fold goes no further
            m = model.contents
            size = sub.struct.n if m.nr_class == 2 else sub.struct.n * m.nr_class
            w = np.ctypeslib.as_array(m.w, shape=(size,)).copy() if size else np.zeros(0)
            label = np.array(m.label[: m.nr_class], dtype=np.float64) if m.label else None
            # predict_values' own width: one value for two classes (and regression)
            width = 1 if m.nr_class == 2 and param.solver_type != _MCSVM_CS else m.nr_class
            rows = self.rows[i]
            dec = np.zeros((len(rows), max(width, 1)))
            predictions = np.empty(len(rows))
            if len(rows):
                c.predict_rows(
                    c.predict_values_address,
                    ctypes.cast(model, ctypes.c_void_p),
                    rows.ctypes.data,
                    len(rows),
                    dec.ctypes.data,
                    dec.shape[1],
                    predictions.ctypes.data,
                )
            return FoldFit(w, int(m.nr_class), label, predictions, dec)
        finally:
            c.free_model(ctypes.byref(model))


#: Crammer and Singer's solver: k weight vectors even for two classes
_MCSVM_CS = 4


class _FoldTask:
    """One fold as a task of :func:`svmeval.cv.schedule.run_tasks`: one thread (LIBLINEAR
    has no OpenMP), its training rows as its size."""

    max_threads = 1

    def __init__(self, work: Callable[[int], object], i: int, size: int, out: list, kept):
        self.work, self.i, self.size, self.out, self.kept = work, i, size, out, kept

    def __call__(self, share: int) -> None:
        _fold.kept = self.kept
        try:
            self.out[self.i] = self.work(self.i)
        finally:
            _fold.kept = None


_fold = threading.local()  # .kept: the message list of the fold running in this thread


def _keep_or_write(message: bytes) -> None:
    kept = getattr(_fold, "kept", None)
    if kept is not None:
        kept.append(message)
    else:
        c_library.write_message(message)


_HOOK: list = []  # the print hook that keeps a fold's messages (made once, kept alive)


def _hook():
    if not _HOOK:
        _HOOK.append(c_library.PRINT(_keep_or_write))
    return _HOOK[0]


def each_fold(c, work: Callable[[int], object], sizes: list, *, jobs: int, quiet: bool) -> list:
    """``[work(i) for i in range(len(sizes))]`` with the folds on ``jobs`` threads (``sizes``:
    each fold's training rows); LIBLINEAR's messages silenced (``quiet``) or each fold's kept
    and written in fold order as soon as the folds before it have ended. The caller holds
    :data:`svmeval.cv._liblinear.STATE_LOCK`. A Ctrl-C raises at once (the folds inside
    LIBLINEAR end on their own and the next run waits for them:
    :func:`svmeval.cv.schedule.run_tasks`)."""
    n = len(sizes)
    out: list = [None] * n
    kept: list = [[] for _ in range(n)]
    c.set_print(c.print_null if quiet else _hook())  # one hook, set before the threads
    tasks = [_FoldTask(work, i, sizes[i], out, kept[i]) for i in range(n)]
    written = [0]

    def write_ended(done: int, total: int) -> None:
        while written[0] < n and out[written[0]] is not None:  # that fold has ended
            for message in kept[written[0]]:
                c_library.write_message(message)
            kept[written[0]] = []
            written[0] += 1

    schedule.run_tasks(tasks, jobs=jobs, progress=None if quiet else write_ended)
    if not quiet:
        write_ended(n, n)
    return out


def run_cross_validation(
    c, problem, param, plan, folds: int, target, *, jobs: int, quiet: bool
) -> None:
    """LIBLINEAR's ``cross_validation`` of ``problem`` with ``param`` and ``folds`` folds on
    ``plan`` (drawn as it draws them: ``srand(seed)`` then its shuffle), the folds on ``jobs``
    threads: every row's prediction into ``target``, bit for bit the one C call's (its
    leave-one-out warning where ``folds`` outnumber the rows included). The caller holds
    :data:`svmeval.cv._liblinear.STATE_LOCK` and has checked the parameters."""
    if folds > problem.n_samples:
        c_library.write_message(LEAVE_ONE_OUT)
    runner = FoldRunner(c, problem, plan)
    sizes = [sub.struct.l for sub in runner.subs]

    def fold(i: int) -> bool:
        target[runner.tests[i]] = runner.fit(i, param).predictions
        return True

    each_fold(c, fold, sizes, jobs=jobs, quiet=quiet)

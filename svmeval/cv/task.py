"""One task of a cross-validation plan: a fold, a one-vs-one pair of a fold, or a part of a
fold's test rows to predict."""

from __future__ import annotations

__all__ = ["FollowUps", "Task", "folds_done"]


class Task:
    """One task of a plan: ``task(omp_threads)`` runs it and returns the folds it completed
    (1, or 0 for a pair of a fold whose other pairs are still running), or the
    :class:`FollowUps` it leaves; ``size``: its training rows; ``max_threads``: the OpenMP
    threads it can put to use; ``fold``: the fold it is part of. A plan's tasks start fold by
    fold, each fold's the biggest first: a fold's prediction then runs beside the next folds'
    training, and only the last fold's is left for the end. ``label`` (a training task's, when
    LIBSVM's messages are shown): its messages are written as one block headed by it
    (:func:`svmeval.cv.messages.message_block`), so that folds trained side by side do not mix
    their lines."""

    __slots__ = ("run", "size", "max_threads", "fold", "label")

    def __init__(self, run, size: int, max_threads: int, fold: int = 0, label: str = ""):
        self.run, self.size, self.max_threads, self.fold = run, size, max_threads, fold
        self.label = label

    def __call__(self, omp_threads: int):
        if not self.label:
            return self.run(omp_threads)
        from svmeval.cv.messages import message_block

        with message_block(self.label):
            return self.run(omp_threads)


class FollowUps:
    """What a task returns when its work goes on in further tasks (a fold's last pair leaves
    the fold's prediction, in parts of its test rows): they start before any task not yet
    started, and the fold is completed by the last of them."""

    __slots__ = ("tasks",)

    def __init__(self, tasks: list):
        self.tasks = list(tasks)


def folds_done(result) -> int:
    """The folds a task's result completed (0 for :class:`FollowUps` or None)."""
    return 0 if result is None or isinstance(result, FollowUps) else int(result)

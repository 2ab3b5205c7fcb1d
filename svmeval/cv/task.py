"""One task of a cross-validation plan: a fold, or a one-vs-one pair of a fold."""

from __future__ import annotations

__all__ = ["Task"]


class Task:
    """One task of a plan: ``task(omp_threads)`` runs it and returns the folds it completed
    (1, or 0 for a pair of a fold whose other pairs are still running); ``size``: its training
    rows (the biggest start first); ``max_threads``: the OpenMP threads it can put to use."""

    __slots__ = ("run", "size", "max_threads")

    def __init__(self, run, size: int, max_threads: int):
        self.run, self.size, self.max_threads = run, size, max_threads

    def __call__(self, omp_threads: int) -> int:
        return self.run(omp_threads)

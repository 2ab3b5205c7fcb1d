"""A problem with other labels: a unit's own labels (a permutation test's permuted labels, say)
on the rows of the data's problem or of a shared kernel, as
:class:`~svmeval.cv.plan.cv_plan.CVPlan` trains on them (:func:`relabelled`)."""

from __future__ import annotations

import numpy as np


class Relabelled:
    """A problem as :class:`~svmeval.cv.plan.cv_plan.CVPlan` uses one, with other labels ``y``
    (a permutation of the data's): a fold's training problem takes its rows' labels from
    ``y``; the rows (features, or a shared kernel's) are the base problem's."""

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


def relabelled(problem, y: np.ndarray | None):
    """``problem`` with the labels ``y`` (None: its own)."""
    return problem if y is None else Relabelled(problem, y)

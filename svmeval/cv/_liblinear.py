"""LIBLINEAR's problems over numpy memory: the full path's ``struct problem`` of a Dataset (and
of some of its rows), on the core's structures (:mod:`svmeval.cv.liblinear_core`: the library
the official bindings load, its structures and entry points, C ``srand``/``rand``, the print
hooks and the lock on C's global state, named here as before).
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_double

import numpy as np

from svmeval.cv.liblinear_core import (  # noqa: F401 - the core's, named here as before
    STATE_LOCK,
    Model,
    Parameter,
    Problem,
    library,
    make_parameter,
    missing_message,
)

__all__ = [
    "NODE",
    "STATE_LOCK",
    "LinearProblem",
    "Model",
    "Parameter",
    "make_parameter",
    "library",
    "missing_message",
]

#: one ``struct feature_node {int index; double value;}``, padded as the C compiler pads it
NODE = np.dtype([("index", np.int32), ("value", np.float64)], align=True)


class LinearProblem:
    """A LIBLINEAR ``struct problem`` over numpy arrays (kept alive as long as it is): each
    row's features, then the bias feature (index ``n``, value ``bias``) where ``bias >= 0``,
    then the ``index = -1`` terminator, as LIBLINEAR's ``train`` lays out a file it reads."""

    def __init__(self, dataset, bias: float):
        indptr = np.asarray(dataset.indptr, dtype=np.int64)
        l = len(indptr) - 1
        extra = 2 if bias >= 0 else 1
        n = dataset.n_features + 1 if bias >= 0 else dataset.n_features
        nodes = np.zeros(len(dataset.indices) + extra * l, dtype=NODE)
        counts = np.diff(indptr)
        starts = indptr[:-1] + extra * np.arange(l, dtype=np.int64)
        owner = np.repeat(np.arange(l, dtype=np.int64), counts)
        place = np.arange(len(dataset.indices), dtype=np.int64) + extra * owner
        nodes["index"][place] = dataset.indices
        nodes["value"][place] = dataset.values
        ends = starts + counts
        if bias >= 0:
            nodes["index"][ends] = n
            nodes["value"][ends] = bias
            ends = ends + 1
        nodes["index"][ends] = -1
        self.y = np.ascontiguousarray(dataset.y, dtype=np.float64)
        self.rows = np.uintp(nodes.ctypes.data) + starts.astype(np.uintp) * np.uintp(NODE.itemsize)
        self._nodes = nodes
        self.struct = Problem(
            l, n, self.y.ctypes.data_as(POINTER(c_double)), self.rows.ctypes.data, float(bias)
        )

    @property
    def n_samples(self) -> int:
        return len(self.y)

    address = property(lambda self: ctypes.addressof(self.struct))

    def subset(self, order: np.ndarray) -> SubProblem:
        """The problem of rows ``order``, in that order, sharing this one's nodes."""
        return SubProblem(self, order)


class SubProblem:
    """Some rows of a :class:`LinearProblem` as a ``struct problem`` of their own."""

    def __init__(self, whole: LinearProblem, order: np.ndarray):
        self.whole = whole  # keeps the nodes alive
        self.y = np.ascontiguousarray(whole.y[order])
        self.rows = np.ascontiguousarray(whole.rows[order])
        self.struct = Problem(
            len(order),
            whole.struct.n,
            self.y.ctypes.data_as(POINTER(c_double)),
            self.rows.ctypes.data,
            whole.struct.bias,
        )

    address = property(lambda self: ctypes.addressof(self.struct))

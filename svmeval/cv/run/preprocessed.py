"""Preprocessing learned inside each fold (:mod:`svmeval.preprocess`): a fold's training rows
are scaled (``svm-scale -s``) and their features selected (fselect.py's F-score) on those
rows alone, and its test rows with the same factors and features (``svm-scale -r``).

:class:`FoldTransform` is what a :class:`~svmeval.cv.plan.cv_plan.CVPlan` asks for each fold: the
data's LIBSVM problem as that fold's training rows make it (every row scaled with the fold's
factors, only the fold's features kept; with ``-y``, the targets scaled too). A run with it
trains on the features, fold by fold: no kernel is shared between folds (each fold's features
differ), and a multiclass fold trains in one ``svm_train`` call. Where several units train
on one fold with the same kernel parameters (a grid's C values for one gamma), the fold's
kernel matrix is computed once from the fold's rows and shared by them
(:meth:`FoldTransform.kernel`, LIBSVM's own arithmetic: the predictions do not change).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

import numpy as np

from svmeval.cv import _libsvm
from svmeval.errors import show_path
from svmeval.params import PRECOMPUTED

#: the folds' problems a run keeps at once (a grid's cells train on the same folds one cell
#: after another: each fold's rows are made once while its cells run)
KEEP_FOLDS = 12


class FoldTransform:
    """``preprocessing`` (:class:`~svmeval.preprocess.Preprocessing`) learned on a fold's
    training rows of ``dataset`` (its CSR arrays). Each fold's problem is made once and kept
    (at most :data:`KEEP_FOLDS`, the least recently used dropped first) for the units that
    train on the same fold (same training rows and labels): the cells of a grid."""

    def __init__(self, dataset, preprocessing, *, share_kernels: bool = False, memory_mb=0.0):
        self.dataset = dataset
        self.preprocessing = preprocessing
        #: whether the units of one fold and one kernel share its matrix (within memory_mb)
        self.share_kernels, self.memory = share_kernels, memory_mb * 2**20
        self._kept: OrderedDict = OrderedDict()  # key -> (problem, fitted, train, y)
        self._kernels: OrderedDict = OrderedDict()  # (key, kernel key) -> (kernel, train, y)
        self._lock = threading.Lock()
        self._building: dict = {}  # key -> lock: a second unit waits for the first's rows

    def key(self) -> str:
        """The preprocessing as a results store's key holds it."""
        return str(self.preprocessing.key())

    def fit(self, train: np.ndarray, y: np.ndarray):
        """The fold's :class:`~svmeval.preprocess.FittedPreprocessing` (training rows
        ``train``, labels ``y`` of every row)."""
        ds = self.dataset
        return self.preprocessing.fit(ds.indptr, ds.indices, ds.values, y, train)

    def problem(self, train: np.ndarray, y: np.ndarray):
        """``(problem, fitted)``: every row of the data as the fold's preprocessing makes it
        (its training rows and its test rows alike), and what the fold learned."""
        key = (train.tobytes(), id(y))
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[3] is y:
                self._kept.move_to_end(key)
                return found[0], found[1]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._kept.get(key)
                if found is not None and found[3] is y:
                    return found[0], found[1]
            problem, fitted = self._make(train, y)
            with self._lock:
                self._kept[key] = (problem, fitted, train, y)
                while len(self._kept) > KEEP_FOLDS:
                    self._kept.popitem(last=False)
                self._building.pop(key, None)
        return problem, fitted

    def kernel(self, train: np.ndarray, y: np.ndarray, rows, params):
        """The fold's kernel matrix of ``params`` computed from ``rows`` (the fold's problem,
        :meth:`problem`), made once and kept for the units of the same fold and kernel
        (least recently used dropped past the memory budget); None where the units train on
        the features."""
        from svmeval.cv.run.kernel import SHAREABLE, SharedKernel, kernel_key

        if not self.share_kernels or params.probability or params.kernel_type not in SHAREABLE:
            return None
        key = (train.tobytes(), id(y), kernel_key(params))
        with self._lock:
            found = self._kernels.get(key)
            if found is not None and found[2] is y:
                self._kernels.move_to_end(key)
                return found[0]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._kernels.get(key)
                if found is not None and found[2] is y:
                    return found[0]
            kernel = SharedKernel(rows, params, threads=1)
            with self._lock:
                self._kernels[key] = (kernel, train, y)
                while (
                    len(self._kernels) > 1
                    and sum(k.nbytes for k, _, _ in self._kernels.values()) > self.memory
                ):
                    self._kernels.popitem(last=False)  # its units hold it while they train
                self._building.pop(key, None)
        return kernel

    def _make(self, train: np.ndarray, y: np.ndarray):
        fitted = self.fit(train, y)
        ds = self.dataset
        indptr, indices, values = fitted.transform(ds.indptr, ds.indices, ds.values)
        problem = _libsvm.Problem.from_csr(fitted.transform_y(y), indptr, indices, values)
        return problem, fitted

    @staticmethod
    def restore(output, fitted):
        """A fold's output in the data's units: with ``-y``, regression predictions (and the
        decision values, the same numbers) mapped back from the scaled targets."""
        factors = fitted.factors
        if factors is None or factors.y is None:
            return output
        dv = output.decision_values
        return replace(
            output,
            y_pred=factors.inverse_y(output.y_pred),
            decision_values=None if dv is None else factors.inverse_y(dv),
        )


def preprocessing_of(scale, select, dataset, candidates, client=None):
    """The :class:`~svmeval.preprocess.Preprocessing` of a run's ``scale=`` and ``select=``
    (None: neither), checked against the data and the configurations before any fold."""
    from svmeval.errors import ArgumentError
    from svmeval.preprocess import Preprocessing

    preprocessing = Preprocessing.of(scale, select)
    if preprocessing is None:
        return None
    argument = "scale" if preprocessing.scale is not None else "select"
    if client is not None:
        raise ArgumentError(argument, "runs on this machine only, not on a Dask cluster")
    if len(dataset.indices) and int(dataset.indices.min()) < 1:
        raise ArgumentError(
            argument,
            f"{show_path(dataset.name)} has feature index 0: svm-scale and fselect.py start at 1",
        )
    for params in candidates:
        if params.kernel_type == PRECOMPUTED:
            raise ArgumentError(argument, "a precomputed kernel (-t 4) has no features to scale")
        scale_y = preprocessing.scale is not None and preprocessing.scale.y is not None
        if scale_y and not params.is_regression:
            raise ArgumentError("scale", "y scaling applies to regression (-s 3, -s 4) only")
        if preprocessing.select is not None and not params.is_classification:
            raise ArgumentError("select", "F-scores need classes: C-SVC and nu-SVC only")
    return preprocessing


def selected_features(dataset, y, folds, preprocessing) -> tuple:
    """The features each fold's training rows select (ascending indices), fold by fold."""
    return tuple(
        preprocessing.fit(
            dataset.indptr, dataset.indices, dataset.values, y, folds.train(i)
        ).features
        for i in range(folds.n_folds)
    )

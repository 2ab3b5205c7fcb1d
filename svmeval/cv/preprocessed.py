"""Preprocessing learned inside each fold (:mod:`svmeval.preprocess`): a fold's training rows
are scaled (``svm-scale -s``) and their features selected (fselect.py's F-score) on those
rows alone, and its test rows with the same factors and features (``svm-scale -r``).

:class:`FoldTransform` is what a :class:`~svmeval.cv.plan.CVPlan` asks for each fold: the
data's LIBSVM problem as that fold's training rows make it (every row scaled with the fold's
factors, only the fold's features kept; with ``-y``, the targets scaled too). A run with it
trains on the features, fold by fold: no kernel is shared between folds (each fold's features
differ), and a multiclass fold trains in one ``svm_train`` call.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmeval.cv import _libsvm


class FoldTransform:
    """``preprocessing`` (:class:`~svmeval.preprocess.Preprocessing`) learned on a fold's
    training rows of ``dataset`` (its CSR arrays)."""

    def __init__(self, dataset, preprocessing):
        self.dataset = dataset
        self.preprocessing = preprocessing

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

"""Cross-validation: the only code that knows LIBSVM, ctypes and C's global state.

Folds (LIBSVM's own, seeded) become (candidate, seed, fold) units of the evaluation core
(:mod:`~svmeval.cv.evaluate`), an executor runs them (:mod:`~svmeval.cv.executors`: threads
here, or a Dask cluster), and each unit's predictions and scores become a :class:`CVResult`.
Argument checks live in :mod:`~svmeval.cv.checks`.
"""

from svmeval.cv.engine import cross_validate, train_and_save
from svmeval.cv.multilabel import MultilabelCVResult, cross_validate_multilabel
from svmeval.cv.plan import CVResult

__all__ = ["CVResult", "MultilabelCVResult", "cross_validate", "cross_validate_multilabel",
           "train_and_save"]

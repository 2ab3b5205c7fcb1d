"""Cross-validation: the only code that knows LIBSVM, ctypes and C's global state.

Folds (LIBSVM's own, seeded) become tasks, the scheduler runs them on threads, and the engine
gathers every per-sample prediction and score into a :class:`CVResult`.
"""

from .engine import CVResult, cross_validate, train_and_save
from .multilabel import MultilabelCVResult, cross_validate_multilabel

__all__ = ["CVResult", "MultilabelCVResult", "cross_validate", "cross_validate_multilabel",
           "train_and_save"]

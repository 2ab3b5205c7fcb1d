"""Cross-validation: the only code that knows LIBSVM, ctypes and C's global state.

Folds (LIBSVM's own, seeded) become (candidate, seed, fold) units of the evaluation core
(:mod:`~svmeval.cv.evaluate`), an executor runs them (:mod:`~svmeval.cv.executors`: threads
here, or a Dask cluster), and each unit's predictions and scores become a
:class:`~svmeval.cv.results.CVResult`. Argument checks live in :mod:`~svmeval.cv.checks`.

The names below are imported on first use: ``svmeval.cv.results`` (the result types) loads no
part of the engine.
"""

from __future__ import annotations

_LAZY = {
    "CVResult": "svmeval.cv.results",
    "MultilabelCVResult": "svmeval.cv.results",
    "cross_validate": "svmeval.cv.engine",
    "train_and_save": "svmeval.cv.engine",
    "cross_validate_multilabel": "svmeval.cv.multilabel",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'svmeval.cv' has no attribute {name!r}")
    import importlib  # on first use: importing the package itself loads nothing more

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

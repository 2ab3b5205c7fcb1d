"""Cross-validation: the only code that knows LIBSVM, ctypes and C's global state.

Read it as the flow of a run: :mod:`~svmeval.cv.plan` checks the arguments at the door and
draws the folds as tasks, :mod:`~svmeval.cv.run` runs them as (candidate, seed, fold) units
of the evaluation core (:mod:`~svmeval.cv.run.evaluate`) on an executor (threads here, or a
Dask cluster), and :mod:`~svmeval.cv.collect` holds what a run gives back, a
:class:`~svmeval.cv.collect.results.CVResult`. :mod:`~svmeval.cv.engine`,
:mod:`~svmeval.cv.multilabel`, :mod:`~svmeval.cv.comparison` and :mod:`~svmeval.cv.training`
are the entries that go through the three; beside them, the
core every stage shares: LIBSVM's and LIBLINEAR's C libraries, the threads tasks run on and
the bounded waits.

The names below are imported on first use: ``svmeval.cv.collect.results`` (the result types)
loads no part of the engine.
"""

from __future__ import annotations

_LAZY = {
    "CVResult": "svmeval.cv.collect.results",
    "MultilabelCVResult": "svmeval.cv.collect.results",
    "cross_validate": "svmeval.cv.engine",
    "train_and_save": "svmeval.cv.training",
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

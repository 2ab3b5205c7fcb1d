"""svmeval: LIBSVM cross-validation with precision, recall, F1 and more.

From Python::

    from svmeval import read_dataset, cross_validate, SvmParams, summarize, render
    ds = read_dataset("data/breast_cancer.scale")
    result = cross_validate(ds, SvmParams(C=2), 5, seed=1)   # = svm-train -c 2 -v 5
    summary = summarize(result)
    summary.figures["mcc"], render(summary, format="json"), summary.to_frame()

The public API: :func:`cross_validate`, :func:`grid_search` and :func:`compare` run; their
results (:class:`CVResult`, :class:`GridResult`, :class:`Comparison`) and :func:`summarize`'s
:class:`Summary` are rendered by :func:`render` and give ``to_dict()`` and ``to_frame()``.
The metrics in :mod:`svmeval.metrics` work on any ``y_true, y_pred`` (or scores).

``import svmeval`` loads neither LIBSVM nor numpy: each name below is imported from its module the
first time it is used, so ``import svmeval.metrics`` costs only numpy and the metrics.
"""

from __future__ import annotations

import importlib
import sys
import types

from svmeval import _version

__version__ = _version.__version__

#: public name -> the module that defines it (imported on first use, so that the command's
#: entry point, svmeval._entry, is in place before anything heavy is imported)
_LAZY = {
    "CVResult": "svmeval.cv",
    "MultilabelCVResult": "svmeval.cv",
    "cross_validate": "svmeval.cv",
    "train_and_save": "svmeval.cv",
    "Dataset": "svmeval.io",
    "read_dataset": "svmeval.io",
    "DataFormatError": "svmeval.errors",
    "OptionError": "svmeval.errors",
    "ParameterError": "svmeval.errors",
    "SvmevalError": "svmeval.errors",
    "SvmParams": "svmeval.params",
    "Summary": "svmeval.summary",
    "summarize": "svmeval.summary",
    "summarize_predictions": "svmeval.summary",
    "render": "svmeval.report",
    "grid_search": "svmeval.workflows.grid",
    "GridResult": "svmeval.workflows.grid",
    "CellResult": "svmeval.workflows.grid",
    "compare": "svmeval.workflows.compare",
    "mcnemar_files": "svmeval.workflows.compare",
    "Comparison": "svmeval.workflows.compare",
    "McNemarResult": "svmeval.stats.significance",
    "TTestResult": "svmeval.stats.significance",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'svmeval' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """svmeval's module type. ``svmeval.workflows.compare`` is the function :func:`compare`, also once
    its module (of the same name, kept in ``sys.modules``) has been imported: the import system
    records a submodule as an attribute of its package, which this property ignores."""

    @property
    def compare(self):
        return importlib.import_module("svmeval.workflows.compare").compare

    @compare.setter
    def compare(self, value) -> None:
        pass


sys.modules[__name__].__class__ = _Package

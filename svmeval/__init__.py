"""svmeval: LIBSVM cross-validation with precision, recall, F1 and every figure beyond accuracy.

One convention everywhere: every run takes ``data`` (a :class:`Dataset` or a LIBSVM-format
file name) first, then its configuration(s) (:class:`SvmParams` or svm-train's options such as
``"-c 8 -g 0.05"``), then ``folds``; everything else is a keyword with the same name and
default wherever it appears (``seed``, ``repeat``, ``criterion``, ``confidence_level``,
``pos_label``, ``zero_division``, ``jobs``, ``client``, ``progress``).

>>> from svmeval import cross_validate, summarize, render
>>> result = cross_validate("data/breast_cancer.scale", "-c 2", folds=5)  # svm-train -c 2 -v 5
>>> summary = summarize(result)
>>> round(summary.figures["mcc"], 4)
0.933

Runs: :func:`cross_validate`, :func:`cross_validate_multilabel`, :func:`grid_search`,
:func:`nested_cv`, :func:`compare`, :func:`benchmark`, :func:`mcnemar_files`,
:func:`permutation_test`, :func:`tune_threshold`, :func:`train_and_save`. Figures: :func:`summarize`, :func:`summarize_predictions`. Reports:
:func:`render` (text, JSON, CSV; Markdown and LaTeX for a benchmark); pictures: :func:`plot`. Every result gives
``to_dict()`` and ``to_frame()`` (also :func:`to_dict`, :func:`to_frame`). Every error svmeval
raises is a :class:`SvmevalError`. The metrics on any ``y_true, y_pred`` are in
:mod:`svmeval.metrics`, the statistical tests in :mod:`svmeval.stats`.

``import svmeval`` loads neither numpy nor LIBSVM: each name is imported from its module the
first time it is used.
"""

# This module sets nothing and imports nothing: importing svmeval leaves the process (its signal
# handlers, its ``sys`` hooks) to its owner. ``python -m svmeval`` runs it before the commands'
# launcher takes Ctrl-C over, so its statements are ones Python cannot interrupt (no import, no
# call, no loop): a Ctrl-C lands before its first instruction (Python's start-up) or after it.

# not ``typing.TYPE_CHECKING``: no import here (type checkers read any name TYPE_CHECKING as true)
TYPE_CHECKING = False

#: public name -> the module that defines it (imported on first use)
_LAZY = {
    # data and configurations
    "Dataset": "svmeval.io.data",
    "read_dataset": "svmeval.io.data",
    "SvmParams": "svmeval.params",
    "LinearParams": "svmeval.params",
    # runs
    "cross_validate": "svmeval.cv.engine",
    "cross_validate_multilabel": "svmeval.cv.multilabel",
    "train_and_save": "svmeval.cv.training",
    "grid_search": "svmeval.workflows.grid",
    "nested_cv": "svmeval.workflows.nested",
    "compare": "svmeval.workflows.compare",
    "benchmark": "svmeval.workflows.benchmark",
    "mcnemar_files": "svmeval.workflows.mcnemar",
    "permutation_test": "svmeval.workflows.permutation",
    "tune_threshold": "svmeval.workflows.threshold",
    # the results store
    "open_store": "svmeval.store",
    "Store": "svmeval.store",
    "StoreError": "svmeval.store",
    # figures, reports, data
    "summarize": "svmeval.summary",
    "summarize_predictions": "svmeval.summary",
    "render": "svmeval.report",
    "plot": "svmeval.report.pictures",
    "to_dict": "svmeval.report",
    "to_frame": "svmeval.report",
    # results
    "CVResult": "svmeval.cv.collect.results",
    "MultilabelCVResult": "svmeval.cv.collect.results",
    "Summary": "svmeval.summary.core",
    "GridResult": "svmeval.workflows.grid_result",
    "CellResult": "svmeval.workflows.grid_result",
    "NestedResult": "svmeval.workflows.nested",
    "Comparison": "svmeval.workflows.compare",
    "Benchmark": "svmeval.workflows.benchmark",
    "PermutationTest": "svmeval.workflows.permutation",
    "TunedThreshold": "svmeval.workflows.threshold",
    "McNemarResult": "svmeval.stats.significance",
    "TTestResult": "svmeval.stats.significance",
    # errors
    "SvmevalError": "svmeval.errors",
    "DataFormatError": "svmeval.errors",
    "OptionError": "svmeval.errors",
    "ParameterError": "svmeval.errors",
    "ArgumentError": "svmeval.errors",
}

#: every name of _LAZY, and the version (tests/rules/test_lazy_import.py holds them together)
__all__ = [
    "ArgumentError",
    "Benchmark",
    "CVResult",
    "CellResult",
    "Comparison",
    "DataFormatError",
    "Dataset",
    "GridResult",
    "LinearParams",
    "McNemarResult",
    "MultilabelCVResult",
    "NestedResult",
    "OptionError",
    "ParameterError",
    "PermutationTest",
    "Summary",
    "Store",
    "StoreError",
    "SvmParams",
    "SvmevalError",
    "TTestResult",
    "TunedThreshold",
    "benchmark",
    "compare",
    "cross_validate",
    "cross_validate_multilabel",
    "grid_search",
    "mcnemar_files",
    "nested_cv",
    "open_store",
    "permutation_test",
    "plot",
    "read_dataset",
    "render",
    "summarize",
    "summarize_predictions",
    "to_dict",
    "to_frame",
    "train_and_save",
    "tune_threshold",
    "__version__",
]

if TYPE_CHECKING:  # the real names and signatures, for type checkers: at run time each
    # name is imported on first use, by __getattr__ (import svmeval loads no numpy)
    from svmeval.cv.collect.results import CVResult, MultilabelCVResult
    from svmeval.cv.engine import cross_validate
    from svmeval.cv.multilabel import cross_validate_multilabel
    from svmeval.cv.training import train_and_save
    from svmeval.errors import (
        ArgumentError,
        DataFormatError,
        OptionError,
        ParameterError,
        SvmevalError,
    )
    from svmeval.io.data import Dataset, read_dataset
    from svmeval.params import LinearParams, SvmParams
    from svmeval.report import render, to_dict, to_frame
    from svmeval.report.pictures import plot
    from svmeval.stats.significance import McNemarResult, TTestResult
    from svmeval.store import Store, StoreError, open_store
    from svmeval.summary import summarize, summarize_predictions
    from svmeval.summary.core import Summary
    from svmeval.workflows.benchmark import Benchmark, benchmark
    from svmeval.workflows.compare import Comparison, compare
    from svmeval.workflows.grid import grid_search
    from svmeval.workflows.grid_result import CellResult, GridResult
    from svmeval.workflows.mcnemar import mcnemar_files
    from svmeval.workflows.nested import NestedResult, nested_cv
    from svmeval.workflows.permutation import PermutationTest, permutation_test
    from svmeval.workflows.threshold import TunedThreshold, tune_threshold


def __getattr__(name: str):
    if name == "__version__":
        from svmeval._version import __version__ as value
    else:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'svmeval' has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})

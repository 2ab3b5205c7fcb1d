"""svmeval: LIBSVM cross-validation with precision, recall, F1 and more.

From Python::

    from svmeval import read_dataset, cross_validate, SvmParams, summarize
    ds = read_dataset("heart_scale")
    result = cross_validate(ds, SvmParams(C=2), 5, seed=1)   # = svm-train -c 2 -v 5
    summary = summarize(result.y_true, result.y_pred, result=result)
    summary.classification.f1, summary.figures["mcc"], result.decision_values

The metrics in :mod:`svmeval.metrics` work on any ``y_true, y_pred`` (or scores).
"""

__version__ = "0.1.0"

from .cv import CVResult, cross_validate, train_and_save
from .io import Dataset, read_dataset
from .errors import DataFormatError, OptionError, ParameterError, SvmevalError
from .params import SvmParams
from .summary import Summary, summarize

__all__ = [
    "CVResult",
    "DataFormatError",
    "Dataset",
    "OptionError",
    "ParameterError",
    "Summary",
    "SvmParams",
    "SvmevalError",
    "cross_validate",
    "read_dataset",
    "summarize",
    "grid_search",
    "train_and_save",
]


def __getattr__(name):
    # the grid search loads on first use: ``import svmeval`` stays light
    if name == "grid_search":
        from .grid import grid_search
        return grid_search
    raise AttributeError(f"module 'svmeval' has no attribute {name!r}")

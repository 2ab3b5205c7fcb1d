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

# Names are imported on first use: ``import svmeval`` loads neither numpy nor LIBSVM, so the
# command's entry point (svmeval._entry) is in place before anything heavy is imported.
_EXPORTS = {
    "CVResult": ".cv",
    "cross_validate": ".cv",
    "train_and_save": ".cv",
    "Dataset": ".io",
    "read_dataset": ".io",
    "DataFormatError": ".errors",
    "OptionError": ".errors",
    "ParameterError": ".errors",
    "SvmevalError": ".errors",
    "SvmParams": ".params",
    "Summary": ".summary",
    "summarize": ".summary",
    "grid_search": ".grid",  # the grid search, too, loads on first use
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'svmeval' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


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


"""Every argument of svmeval's public functions, declared once and checked at the door.

One set of constraints serves two kinds of declaration:

* :data:`ARGUMENTS`, the library's vocabulary: each argument name a run, a summary, a report
  or a picture takes (``folds``, ``seed``, ``repeat``, ``criterion``, ``zero_division``,
  ``format``, ...), with what it must be and what it means. :func:`checked` decorates a public
  function: every argument of its signature that is declared here is checked when the function
  is called, in the order of the signature, before the function's body runs (so before any
  data is read or any fold trained). A value that does not fit raises
  :class:`~svmeval.errors.ArgumentError` (as :class:`InvalidParameterError`, also a ValueError
  and a TypeError) whose ``argument`` is the library's name of it: the command lines turn it
  into their own flag's name. A new keyword of every run is one line here.
* :func:`validate_params`, the scikit-learn-named metrics' own declarations
  (``sklearn.utils._param_validation``'s rules and messages): a function lists, per parameter,
  the constraints any one of which will do.

The constraints (``"array-like"``, ``"boolean"``, a type, :class:`Interval`, :class:`Check`,
...) and :func:`validate_params` are :mod:`svmeval._constraints`'s; each argument's own
check is :mod:`svmeval._args.checks`'s.

Nothing here imports numpy at import time: ``import svmeval`` stays light.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from svmeval._args.checks import (
    _FORMATS,
    _fail,
    check_client,
    check_confidence,
    check_configuration,
    check_configurations,
    check_count,
    check_criterion_name,
    check_data,
    check_datasets,
    check_digits,
    check_draws,
    check_fold_assignment,
    check_folds,
    check_format,
    check_jobs,
    check_label,
    check_level,
    check_memory,
    check_optional_path,
    check_path,
    check_range,
    check_repeat,
    check_resume,
    check_rope,
    check_scale,
    check_seed,
    check_select,
    check_store,
    check_weight_range,
)
from svmeval._constraints import (
    Check,
    Interval,
    Options,
    StrOptions,
    alternatives,
    constraint,
    parse_zero_division,
    validate_params,
)
from svmeval.errors import InvalidParameterError

__all__ = [
    "ARGUMENTS",
    "Argument",
    "Check",
    "Interval",
    "InvalidParameterError",
    "Options",
    "StrOptions",
    "check",
    "checked",
    "validate_params",
]


# --- the vocabulary ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Argument:
    """One word of the library: what its value may be (constraints, any one of which will do,
    or one :class:`Check`) and what it means (the vocabulary's table in the docs)."""

    allowed: tuple
    meaning: str
    default: str = ""

    def check(self, value, name: str) -> None:
        if len(self.allowed) == 1 and isinstance(self.allowed[0], Check):
            self.allowed[0].function(value, name)
            return
        if not any(c.is_satisfied_by(value) for c in self.allowed):
            _fail(name, f"must be {alternatives(self.allowed)}, got {value!r}")

    @property
    def takes(self) -> str:
        return alternatives(self.allowed)


def _arg(allowed, meaning: str, default: str = "") -> Argument:
    specs = allowed if isinstance(allowed, (list, tuple)) else [allowed]
    return Argument(tuple(constraint(c) for c in specs), meaning, default)


def _check(function: Callable, words: str, meaning: str, default: str = "") -> Argument:
    return Argument((Check(function, words),), meaning, default)


_CALLABLE = Check(
    lambda v, name: (
        None if v is None or callable(v) else _fail(name, f"must be None or a callable, got {v!r}")
    ),
    "None or a callable",
)
_BOOL = constraint("boolean")

#: the library's words: argument name -> what it takes and what it means
ARGUMENTS: dict[str, Argument] = {
    # what is evaluated
    "data": _check(check_data, "a Dataset, a file name or (X, y)", "the data set of a run"),
    "datasets": _check(
        check_datasets, "a data set or a non-empty sequence of them", "the data sets of a benchmark"
    ),
    "params": _check(
        check_configuration,
        "None, an SvmParams or svm-train's options (a LinearParams too: cross_validate, "
        "grid_search, nested_cv, permutation_test, tune_threshold)",
        'a configuration: svm-train\'s options ("-c 8 -g 0.05") or an SvmParams; '
        "cross_validate, grid_search, nested_cv, permutation_test and tune_threshold also take "
        "LIBLINEAR's, a LinearParams",
        "None (svm-train's defaults)",
    ),
    "a": _check(
        check_configuration,
        "None, an SvmParams or svm-train's options (compare: a LinearParams too)",
        "configuration A of a comparison (compare: A, B or both may be LIBLINEAR's, a LinearParams)",
    ),
    "b": _check(
        check_configuration,
        "None, an SvmParams or svm-train's options (compare: a LinearParams too)",
        "configuration B of a comparison (compare: A, B or both may be LIBLINEAR's, a LinearParams)",
    ),
    "configurations": _check(
        check_configurations,
        "a mapping name -> configuration or a sequence of configurations",
        "the configurations of a benchmark (a mapping gives them names; LIBLINEAR's, "
        "LinearParams, among them)",
    ),
    # the folds
    "folds": _check(
        check_folds,
        "an int from 2",
        "k, the number of folds (a count)",
        "5; 10 for compare and benchmark",
    ),
    "inner_folds": _check(
        check_folds, "an int from 2", "k of the inner cross-validations of nested_cv", "5"
    ),
    "groups": _check(
        check_fold_assignment,
        "None, a file name or a sequence of ids",
        "each row's group (any ids): folds keep every group whole",
        "None",
    ),
    "given_folds": _check(
        check_fold_assignment,
        "None, a file name, fold ids or (train, test) pairs",
        "the folds to use instead of LIBSVM's: each row's fold, or scikit-learn's splits",
        "None",
    ),
    "seed": _check(
        check_seed, "an int from 0 to 2**32 - 1", "C srand's seed before the folds are drawn", "1"
    ),
    "repeat": _check(
        check_repeat,
        "an int from 1",
        "R, the number of repetitions (a count)",
        "1; 10 for compare and benchmark",
    ),
    # preprocessing inside the folds
    "scale": _check(
        check_scale,
        "None, a bool, (lower, upper) or a ScaleSpec",
        "svm-scale learned on each training fold (True: -l -1 -u 1)",
        "None",
    ),
    "select": _check(
        check_select,
        "None, an int from 1, a list of them (a search) or 'fselect'",
        "K features of highest F-score (fselect.py) kept, ranked on each training fold",
        "None",
    ),
    # the figures
    "criterion": _check(
        check_criterion_name,
        "None or a figure's name",
        "the figure a run optimises or compares (a name of svmeval.metrics.FIGURES)",
        "None (accuracy; mse for regression)",
    ),
    "pos_label": _check(
        check_label,
        "None or a label (a number, or one of the classes)",
        "the positive class of two-class data",
        "None",
    ),
    "zero_division": _check(
        parse_zero_division, "0, 1 or 'nan'", "the value an undefined ratio (0/0) takes", "0.0"
    ),
    "confidence_level": _check(
        check_confidence, "a float in (0, 1)", "1 - alpha of the intervals and tests", "0.95"
    ),
    "rope": _check(
        check_rope,
        "None or a float >= 0",
        "half-width of the region of practical equivalence, in the criterion's units",
        "None",
    ),
    "draws": _check(
        check_draws,
        "an int from 1 to 10,000,000",
        "Monte-Carlo draws of a benchmark's Bayesian signed-rank test",
        "50000",
    ),
    "permutations": _check(
        lambda v, name: check_count(v, name),
        "an int from 1",
        "labels permuted by a permutation test",
        "1000",
    ),
    "ci": _check(check_level, "None or a float in (0, 1)", "level of bootstrap intervals", "None"),
    "bootstrap": _check(
        lambda v, name: check_count(v, name),
        "an int from 1",
        "bootstrap resamples",
        "see summarize",
    ),
    "store": _check(
        check_store,
        "None, a file name or a Store",
        "a results store: folds already computed are read, new ones written",
        "None",
    ),
    "test": _arg(
        StrOptions({"corrected", "5x2cv"}), "the per-data-set test of a benchmark", '"corrected"'
    ),
    # the grid
    "log2c": _check(check_range, "None or (begin, end, step)", "the searched range of log2 C"),
    "log2g": _check(check_range, "None or (begin, end, step)", "the searched range of log2 gamma"),
    "log2p": _check(
        check_range, "None or (begin, end, step)", "the searched range of log2 epsilon (-s 3)"
    ),
    "log2w": _check(
        check_weight_range,
        "None or (label, begin, end, step)",
        "the searched range of log2 of one class's weight (svm-train's -wLABEL; C-SVC)",
    ),
    "resume": _check(
        check_resume, "None or a mapping cell -> value", "a grid's cells already known", "None"
    ),
    "kernel_memory": _check(
        check_memory, "None or a positive float", "MB for the shared kernel matrices", "None"
    ),
    "share": _arg([None, _BOOL], "force or forbid the shared kernel matrices", "None"),
    # execution
    "jobs": _check(
        check_jobs,
        "None or an int from 1",
        "folds trained at once on this machine",
        "None (the cores)",
    ),
    "client": _check(
        check_client,
        "None, a distributed.Client or an address",
        "a Dask client or a scheduler's address",
        "None",
    ),
    "progress": Argument((_CALLABLE,), "progress(done, total, ...) as work ends", "None"),
    "on_start": Argument((_CALLABLE,), "called once every argument is checked", "None"),
    "on_cell": Argument((_CALLABLE,), "called for every grid cell in grid.py's order", "None"),
    "on_finish": Argument((_CALLABLE,), "called as each grid cell ends", "None"),
    "quiet": _arg(_BOOL, "silence LIBSVM's training messages", "True"),
    "keep_decision_values": _arg(_BOOL, "keep the one-vs-one decision values", "False"),
    "keep_repeats": _arg(_BOOL, "keep every repetition's whole result", "False"),
    # files
    "model_file": _check(check_path, "a file name", "where a model is written"),
    "predictions_a": _check(
        check_path, "a file name", "predictions file of A (svm-predict's format)"
    ),
    "predictions_b": _check(
        check_path, "a file name", "predictions file of B (svm-predict's format)"
    ),
    "file": _check(
        check_optional_path,
        "None or a file name",
        "where a picture is written (PNG, SVG or PDF)",
        "None",
    ),
    # summaries and reports
    "per_fold": _arg(_BOOL, "compute the per-fold figures", "True"),
    "meta": _arg([None, Mapping], "added to a summary's description", "None"),
    "regression": _arg(_BOOL, "the predictions are of a regression", "False"),
    "format": _check(check_format, "one of " + ", ".join(_FORMATS), "a report's format", '"text"'),
    "digits": _check(
        check_digits,
        "None or an int from 0 to 20",
        "decimals of a report's figures",
        "None (4; 3 in a benchmark's table)",
    ),
    "full": _arg(_BOOL, "a summary's text with every figure and the per-fold table", "False"),
    "title": _arg([None, str], "a picture's title", "None"),
}


def check(name: str, value) -> None:
    """Check ``value`` as the library's argument ``name`` (:data:`ARGUMENTS`)."""
    ARGUMENTS[name].check(value, name)


def checked(func=None, *, skip: tuple = ()):
    """Decorate a public function: each argument of its signature declared in :data:`ARGUMENTS`
    (but those in ``skip``) is checked at every call, in the signature's order, before the
    function's body runs. ``func.arguments`` lists the names checked."""

    def decorate(func):
        parameters = inspect.signature(func).parameters
        names = [n for n in parameters if n in ARGUMENTS and n not in skip]
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        positional = [n for n, p in parameters.items() if p.kind in kinds]
        if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in parameters.values()):
            raise TypeError(f"{func.__qualname__}: checked takes no *args")  # pragma: no cover

        @functools.wraps(func)
        def door(*args, **kwargs):
            if len(args) > len(positional) or any(k not in parameters for k in kwargs):
                return func(*args, **kwargs)  # Python's own TypeError names the mistake
            given = dict(zip(positional, args))
            given.update(kwargs)
            for name in names:
                if name in given:
                    ARGUMENTS[name].check(given[name], name)
            return func(*args, **kwargs)

        door.arguments = tuple(names)  # type: ignore[attr-defined]
        door.skipped = tuple(skip)  # type: ignore[attr-defined]
        return door

    return decorate if func is None else decorate(func)

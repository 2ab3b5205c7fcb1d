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

The constraints, as scikit-learn names them: ``"array-like"`` (a sequence or array that is not
a scalar nor a sparse matrix), ``"sparse matrix"`` (recognised by its ``toarray`` and ``nnz``,
so scipy is never imported), ``"boolean"`` (``bool`` or ``numpy.bool_``), ``None``, ``"nan"``
(a float NaN), a type (its instances: ``numbers.Real``, ``str``, ...), :class:`Options` /
:class:`StrOptions` (a set of values of a type), :class:`Interval` (numbers of a type within
bounds, NaN never) and :class:`Check` (a function of its own, with its own message).

Nothing here imports numpy at import time: ``import svmeval`` stays light.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import numbers
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from svmeval.errors import ArgumentError, InvalidParameterError, ParameterError

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

#: C's int (LIBSVM's ``int`` fields) and C ``srand``'s unsigned int
INT_MAX = 2**31 - 1
SEED_MAX = 2**32 - 1


def _type_name(t) -> str:
    if t is numbers.Real:
        return "float"
    if t is numbers.Integral:
        return "int"
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def is_integer(value) -> bool:
    """An integer: not a bool, a float or a string (numpy's integers are)."""
    return not isinstance(value, (bool, float, str, bytes)) and hasattr(value, "__index__")


def is_number(value) -> bool:
    """A real number: an int or a float (numpy's too), not a bool nor a string."""
    return (
        isinstance(value, numbers.Real) and not isinstance(value, bool) and not _is_np_bool(value)
    )


def _is_np_bool(value) -> bool:
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")


# --- constraints -------------------------------------------------------------------------------
class Constraint:
    """What a value may be: :meth:`is_satisfied_by`, and its words (``str``)."""

    def is_satisfied_by(self, value) -> bool:  # pragma: no cover - every subclass has its own
        raise NotImplementedError


class _ArrayLike(Constraint):
    def is_satisfied_by(self, value) -> bool:
        import numpy as np

        if _is_sparse(value):
            return False
        return (
            hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
        ) and not np.isscalar(value)

    def __str__(self):
        return "an array-like"


def _is_sparse(value) -> bool:
    return hasattr(value, "toarray") and hasattr(value, "nnz")


class _Sparse(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return _is_sparse(value)

    def __str__(self):
        return "a sparse array or matrix"


class _InstanceOf(Constraint):
    def __init__(self, kind):
        self.kind = kind

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.kind)

    def __str__(self):
        return f"an instance of {_type_name(self.kind)!r}"


class _Boolean(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, bool) or _is_np_bool(value)

    def __str__(self):
        return "an instance of 'bool' or an instance of 'numpy.bool'"


class _None(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return value is None

    def __str__(self):
        return "None"


class _Nan(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, numbers.Integral)
            and math.isnan(value)
        )

    def __str__(self):
        return "numpy.nan"


class Options(Constraint):
    """Values of ``kind`` among ``options``."""

    def __init__(self, kind, options):
        self.kind, self.options = kind, frozenset(options)

    def is_satisfied_by(self, value) -> bool:
        try:
            return isinstance(value, self.kind) and value in self.options
        except TypeError:  # unhashable
            return False

    def __str__(self):
        shown = ", ".join(repr(o) for o in sorted(self.options, key=repr))
        return f"a {_type_name(self.kind)} among {{{shown}}}"


class StrOptions(Options):
    """Strings among ``options``."""

    def __init__(self, options):
        super().__init__(str, options)


class Interval(Constraint):
    """Numbers of ``kind`` (``numbers.Real`` or ``numbers.Integral``) from ``left`` to
    ``right`` (None: unbounded), ``closed`` "left", "right", "both" or "neither"; NaN never."""

    def __init__(self, kind, left, right, *, closed: str):
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def is_satisfied_by(self, value) -> bool:
        if not isinstance(value, self.kind):
            return False
        if not isinstance(value, numbers.Integral) and math.isnan(value):
            return False
        left = -math.inf if self.left is None else self.left
        right = math.inf if self.right is None else self.right
        above = value >= left if self.closed in ("left", "both") else value > left
        below = value <= right if self.closed in ("right", "both") else value < right
        return bool(above and below)

    def __str__(self):
        kind = "an int" if self.kind is numbers.Integral else "a float"
        left = "-inf" if self.left is None else float(self.left)
        right = "inf" if self.right is None else float(self.right)
        return (
            f"{kind} in the range {'[' if self.closed in ('left', 'both') else '('}"
            f"{left}, {right}{']' if self.closed in ('right', 'both') else ')'}"
        )


class Check(Constraint):
    """A check of its own: ``function(value, name)`` raises :class:`ArgumentError` with its own
    message, or returns. ``words`` say what it takes (the vocabulary's table)."""

    def __init__(self, function: Callable, words: str):
        self.function, self.words = function, words

    def is_satisfied_by(self, value) -> bool:  # pragma: no cover - checked by its function
        raise NotImplementedError

    def __str__(self):
        return self.words


_NAMED = {
    "array-like": _ArrayLike(),
    "sparse matrix": _Sparse(),
    "boolean": _Boolean(),
    "nan": _Nan(),
}


def constraint(spec) -> Constraint:
    """A :class:`Constraint` from its short form (see the module's notes)."""
    if spec is None:
        return _None()
    if isinstance(spec, Constraint):
        return spec
    if isinstance(spec, type):
        return _InstanceOf(spec)
    if isinstance(spec, float) and math.isnan(spec):
        return _Nan()
    return _NAMED[spec]


def _alternatives(allowed) -> str:
    shown = [str(c) for c in allowed]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


# --- the scikit-learn-named functions' declarations --------------------------------------------
_CHECKING = contextvars.ContextVar("svmeval_metrics_validating", default=False)


def validate_params(constraints: dict):
    """Decorate a function whose parameters must meet ``constraints`` (parameter name -> list
    of constraints, any one of which will do), with scikit-learn's message. A function called
    by another validated function is not checked again."""
    made = {name: [constraint(c) for c in specs] for name, specs in constraints.items()}

    def decorate(func):
        signature = inspect.signature(func)
        unknown = set(made) - set(signature.parameters)
        if unknown:  # pragma: no cover - a declaration that does not fit its function
            raise TypeError(f"{func.__name__}: constraints of no parameter: {sorted(unknown)}")

        @functools.wraps(func)
        def validated(*args, **kwargs):
            if _CHECKING.get():
                return func(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, value in bound.arguments.items():
                allowed = made.get(name)
                if allowed is None or any(c.is_satisfied_by(value) for c in allowed):
                    continue
                what = _alternatives(allowed)
                raise InvalidParameterError(
                    name,
                    f"must be {what}. Got {value!r} instead.",
                    text=f"The {name!r} parameter of {func.__qualname__} must be {what}. "
                    f"Got {value!r} instead.",
                )
            token = _CHECKING.set(True)
            try:
                return func(*args, **kwargs)
            finally:
                _CHECKING.reset(token)

        validated.parameter_constraints = made  # type: ignore[attr-defined]
        return validated

    return decorate


# --- the library's own checks (their messages are the library's) ------------------------------
def _fail(name: str, message: str) -> None:
    """An argument that does not fit: ``name message`` (the command line: ``flag message``)."""
    raise InvalidParameterError(name, message, text=f"{name} {message}")


def check_folds(value, name: str = "folds") -> int:
    """The number of folds: an integer from 2 to C's INT_MAX (LIBSVM's ``int nr_fold``)."""
    if not is_integer(value):
        _fail(name, f"must be an integer, got {value!r}")
    number = int(value.__index__())
    if number < 2:
        raise InvalidParameterError(
            name,
            f"must be at least 2, got {number}",
            text=f"n-fold cross validation: n must >= 2, got {name} = {number}",
        )
    if number > INT_MAX:
        _fail(name, f"= {number} does not fit a C int")
    return number


def check_seed(value, name: str = "seed") -> int:
    """C ``srand``'s seed: an integer from 0 to 4294967295 (an unsigned int)."""
    if not is_integer(value) or not 0 <= int(value.__index__()) <= SEED_MAX:
        _fail(
            name, f"must be an integer from 0 to {SEED_MAX} (C srand's unsigned int), got {value!r}"
        )
    return int(value.__index__())


def check_repeat(value, name: str = "repeat") -> int:
    """The repetitions of a cross-validation: an integer from 1 to C's INT_MAX."""
    if not is_integer(value):
        _fail(name, f"must be an integer, got {value!r}")
    number = int(value.__index__())
    if not 1 <= number <= INT_MAX:
        _fail(name, f"must be >= 1, got {number}")
    return number


def check_jobs(value, name: str = "jobs") -> None:
    """None or a positive integer (a C int)."""
    if value is not None and (not is_integer(value) or not 1 <= int(value.__index__()) <= INT_MAX):
        _fail(name, f"must be a positive integer, got {value!r}")


_LOCAL = re.compile(r"local(?::([0-9]+))?\Z", re.ASCII)
_REMOTE = re.compile(
    r"(?:(tcp|tls)://)?([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})\Z", re.ASCII
)


def _cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _client_error(message: str) -> ArgumentError:
    return ArgumentError("client", message, text=f"client {message}")


def parse_address(address) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local[:N]``, ``("remote", None)`` for a scheduler's
    ``[tcp://|tls://]HOST:PORT``; anything else raises :class:`ArgumentError` (``client``)."""
    text = str(address)
    if not text:
        raise _client_error("needs an address: tcp://HOST:PORT of a scheduler, or local[:N]")
    shown = text if text.isprintable() and len(text) <= 60 else ascii(text[:60])
    if text.startswith("local"):
        match = _LOCAL.match(text)
        if match is None:
            raise _client_error(f"{shown}: not local or local:N (N a number of workers)")
        n = None if match.group(1) is None else int(match.group(1))
        if n is not None and n < 1:
            raise _client_error(f"{shown}: a local cluster needs at least 1 worker")
        cores = _cores()
        if n is not None and n > cores:
            raise _client_error(
                f"{shown}: a local cluster runs at most {cores} workers "
                f"(the cores here); give a scheduler's address for more"
            )
        return "local", n
    match = _REMOTE.match(text)
    if match is None or not 1 <= int(match.group(3)) <= 65535:
        raise _client_error(f"{shown}: not tcp://HOST:PORT of a running scheduler, nor local[:N]")
    return "remote", None


def check_client(value, name: str = "client") -> None:
    """None, a ``distributed.Client`` or a scheduler's address (``tcp://host:8786``,
    ``local[:N]``): an address is read here, before any work."""
    if value is None:
        return
    if isinstance(value, (str, os.PathLike)):
        parse_address(os.fspath(value))
        return
    if not (hasattr(value, "submit") and hasattr(value, "scatter")):
        raise ArgumentError(
            name,
            "must be a distributed.Client or a scheduler address "
            f"(or local[:N]), got {type(value).__name__}",
        )


def check_memory(value, name: str = "kernel_memory") -> None:
    """A memory budget in MB: None (the default) or a positive finite number."""
    if value is not None and (not is_number(value) or not 0 < value < math.inf):
        _fail(name, f"must be a positive number of MB, got {value!r}")


def check_confidence(value, name: str = "confidence_level") -> float:
    """A confidence level: a number strictly between 0 and 1."""
    if not is_number(value) or not 0 < value < 1:
        _fail(name, f"must lie between 0 and 1, got {value!r}")
    return float(value)


def check_rope(value, name: str = "rope") -> None:
    """None or the half-width of a region of practical equivalence: a finite number >= 0."""
    if value is not None and (not is_number(value) or not 0 <= value < math.inf):
        _fail(name, f"must be a finite number >= 0, got {value!r}")


def check_resume(value, name: str = "resume") -> dict:
    """A grid's known cells: None or a mapping of cell -> the criterion's value (a number)."""
    if value is None:
        return {}
    if not hasattr(value, "items"):
        _fail(name, f"must be a mapping of cell -> value, got {type(value).__name__}")
    known = dict(value)
    for cell, v in known.items():
        if not is_number(v):
            raise InvalidParameterError(
                name,
                f"[{cell!r}] must be a number, got {v!r}",
                text=f"{name}[{cell!r}] must be a number, got {v!r}",
            )
    return known


def parse_zero_division(value, name: str = "zero_division") -> float:
    """A zero-division policy as 0.0, 1.0 or NaN: 0, 1, NaN or their text ("nan", "0", "1")."""
    if isinstance(value, str):
        if value.strip().lower() == "nan":
            return math.nan
        if value.strip() in ("0", "1", "0.0", "1.0"):
            return float(value)
    elif is_number(value):
        number = float(value)
        if math.isnan(number) or number in (0.0, 1.0):
            return number
    _fail(
        name, f"must be 0, 1 or 'nan' (nan leaves undefined values out of averages), got {value!r}"
    )
    raise AssertionError  # pragma: no cover - _fail raises


def check_label(value, name: str = "pos_label") -> None:
    """None or a label: a finite number (LIBSVM's labels are doubles)."""
    if value is not None and (not is_number(value) or not math.isfinite(value)):
        _fail(name, f"must be None or a label (a finite number), got {value!r}")


def check_criterion_name(value, name: str = "criterion") -> None:
    """None (the run's default) or the name of a figure (a non-empty str; the runs check it
    against :data:`svmeval.metrics.FIGURES` and the kind of data)."""
    if value is not None and (not isinstance(value, str) or not value):
        _fail(name, f"must be None or the name of a figure, got {value!r}")


class CriterionError(ArgumentError):
    """A criterion that is unknown or does not fit the kind of run (its message names it)."""

    def __init__(self, message: str):
        super().__init__("criterion", message, text=message)


#: a range may hold at most this many values (grid.py would loop for ever on a zero step)
MAX_VALUES = 1000


class RangeError(ArgumentError):
    """A log2c / log2g / log2p range that is not ``(begin, end, step)`` with a usable step."""


def is_python_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_range(r, name: str) -> tuple | None:
    """None, or a searched range of log2 values (:func:`log2_range`)."""
    return None if r is None else log2_range(r, name)


def log2_range(r, name: str) -> tuple:
    """A searched range of log2 values ``(begin, end, step)``: what grid.py would loop on for
    ever or fail on is refused. Three Python ints stay ints (grid.py's default ranges);
    anything else becomes floats."""
    try:
        begin, end, step = r
        integral = all(is_python_int(v) for v in (begin, end, step))
        begin, end, step = (float(v) for v in (begin, end, step))
    except (TypeError, ValueError):
        raise RangeError(name, f"{r!r} is not (begin, end, step)") from None
    text = f"{begin:g},{end:g},{step:g}"
    if not all(math.isfinite(v) for v in (begin, end, step)):
        raise RangeError(name, f"{text}: begin, end and step must be finite")
    if step == 0:
        raise RangeError(name, f"{text}: the step is 0")
    if (end - begin) * step < 0:
        raise RangeError(
            name,
            f"{text}: the step goes away from the end "
            f"(use {-step:g} to go from {begin:g} to {end:g})",
        )
    if (end - begin) / step + 1 > MAX_VALUES:
        raise RangeError(name, f"{text}: more than {MAX_VALUES} values")
    if max(abs(begin), abs(end)) > 1000:
        raise RangeError(name, f"{text}: log2 values beyond +-1000 overflow a double")
    return (int(begin), int(end), int(step)) if integral else (begin, end, step)


def check_digits(value, name: str = "digits") -> None:
    """None or a number of decimals: an int from 0 to 20."""
    if value is not None and (not is_integer(value) or not 0 <= int(value.__index__()) <= 20):
        _fail(name, f"must be None or an integer from 0 to 20, got {value!r}")


_FORMATS = ("text", "json", "csv", "markdown", "latex", "html")


#: at most this many Monte-Carlo draws of the Bayesian signed-rank test (baycomp's default is
#: 50,000)
MAX_DRAWS = 10_000_000


def check_draws(value, name: str = "draws") -> None:
    """The Monte-Carlo draws of a Bayesian signed-rank test: an int from 1 to MAX_DRAWS."""
    if not is_integer(value) or not 1 <= int(value.__index__()) <= MAX_DRAWS:
        _fail(name, f"must be an integer from 1 to {MAX_DRAWS:,}, got {value!r}")


def check_level(value, name: str = "ci") -> None:
    """None or a confidence level of intervals: a number strictly between 0 and 1."""
    if value is not None and (not is_number(value) or not 0 < value < 1):
        _fail(name, f"must be a level between 0 and 1, both excluded, got {value!r}")


def check_count(value, name: str) -> None:
    """A count of draws, resamples or permutations: an integer from 1 (each run bounds it)."""
    if not is_integer(value) or int(value.__index__()) < 1:
        _fail(name, f"must be an integer from 1, got {value!r}")


def check_store(value, name: str = "store") -> None:
    """None, a results store's file name or an open Store (``svmeval.open_store``)."""
    if value is None or isinstance(value, (str, os.PathLike)) or type(value).__name__ == "Store":
        return
    _fail(name, f"must be a file name or a Store (svmeval.open_store), got {value!r}")


def check_format(value, name: str = "format") -> None:
    """A report's format: text, json, csv, markdown or latex (the last two a benchmark's)."""
    if not isinstance(value, str) or value not in _FORMATS:
        _fail(name, f"must be one of {', '.join(_FORMATS)}: unknown report format {value!r}")


def check_path(value, name: str) -> None:
    """A file name: a str or an os.PathLike (not empty)."""
    if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
        _fail(name, f"must be a file name (str or os.PathLike), got {value!r}")


def check_optional_path(value, name: str) -> None:
    if value is not None:
        check_path(value, name)


def check_data(value, name: str = "data") -> None:
    """A data set: a :class:`~svmeval.io.data.Dataset`, a file name or ``(X, y)``."""
    if isinstance(value, (str, os.PathLike, tuple)) or type(value).__name__ == "Dataset":
        if isinstance(value, (str, os.PathLike)) and not os.fspath(value):
            _fail(name, "must be a file name, got ''")
        return
    _fail(name, f"must be a svmeval Dataset, a file name or (X, y), got {type(value).__name__}")


def check_datasets(value, name: str = "datasets") -> None:
    """One data set or a non-empty sequence of them."""
    if isinstance(value, (list, tuple)) and value and not _is_xy(value):
        for i, one in enumerate(value):
            check_data(one, f"{name}[{i}]")
        return
    check_data(value, name)


def _is_xy(value) -> bool:
    from svmeval.io.data import is_xy

    return is_xy(value)


class ConfigurationTypeError(InvalidParameterError, ParameterError):
    """A configuration that is neither an SvmParams nor svm-train's options (also a
    :class:`~svmeval.errors.ParameterError`, as before the door checked it)."""


def check_configuration(value, name: str = "params") -> None:
    """None (svm-train's defaults), svm-train's options (a str) or an SvmParams."""
    if isinstance(value, str):  # svm-train's options read here: a typo fails before any work
        from svmeval.errors import OptionError
        from svmeval.params import SvmParams

        try:
            SvmParams.parse(value)
        except OptionError as exc:
            raise OptionError(f"{name} {value!r}: {exc}") from None
        return
    if value is None or type(value).__name__ == "SvmParams":
        return
    message = (
        "must be a svmeval SvmParams or svm-train's options (a string such as '-c 8 -g 0.05'), "
        f"got {type(value).__name__}"
    )
    raise ConfigurationTypeError(name, message, text=f"{name} {message}")


def check_configurations(value, name: str = "configurations") -> None:
    """A mapping name -> configuration or a sequence of configurations."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = [(None, c) for c in value]
    else:
        _fail(
            name,
            "must be a mapping name -> configuration or a sequence of configurations "
            f"(SvmParams or svm-train's options), got {type(value).__name__}",
        )
    for key, config in items:
        if key is not None and not isinstance(key, str):
            _fail(name, f"names must be strings, got {key!r}")
        check_configuration(config, f"{name}[{key!r}]" if key is not None else name)


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
            _fail(name, f"must be {_alternatives(self.allowed)}, got {value!r}")

    @property
    def takes(self) -> str:
        return _alternatives(self.allowed)


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
        "None, an SvmParams or svm-train's options",
        'a configuration: svm-train\'s options ("-c 8 -g 0.05") or an SvmParams',
        "None (svm-train's defaults)",
    ),
    "a": _check(
        check_configuration,
        "None, an SvmParams or svm-train's options",
        "configuration A of a comparison",
    ),
    "b": _check(
        check_configuration,
        "None, an SvmParams or svm-train's options",
        "configuration B of a comparison",
    ),
    "configurations": _check(
        check_configurations,
        "a mapping name -> configuration or a sequence of configurations",
        "the configurations of a benchmark (a mapping gives them names)",
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
    "seed": _check(
        check_seed, "an int from 0 to 2**32 - 1", "C srand's seed before the folds are drawn", "1"
    ),
    "repeat": _check(
        check_repeat,
        "an int from 1",
        "R, the number of repetitions (a count)",
        "1; 10 for compare and benchmark",
    ),
    # the figures
    "criterion": _check(
        check_criterion_name,
        "None or a figure's name",
        "the figure a run optimises or compares (a name of svmeval.metrics.FIGURES)",
        "None (accuracy; mse for regression)",
    ),
    "pos_label": _check(
        check_label, "None or a label (a number)", "the positive class of two-class data", "None"
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

"""The library's own check of each argument (its messages the library's): the functions that
:data:`svmeval._args.ARGUMENTS` declares with :class:`~svmeval._constraints.Check`, and
the bounds they hold (C's ``int``, ``srand``'s seeds, a range's length, Monte-Carlo draws).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping

from svmeval._constraints import MAX_DRAWS, is_integer, is_number
from svmeval.errors import ArgumentError, InvalidParameterError, OptionError, ParameterError
from svmeval.io.svm_train_syntax import INT_MAX, INT_MIN, read_options

#: C ``srand``'s unsigned int (C's int, LIBSVM's ``int`` fields: INT_MIN to INT_MAX)
SEED_MAX = 2**32 - 1


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


def check_fold_assignment(value, name: str) -> None:
    """``groups`` or ``given_folds``: None, a file name or a sequence (an array, or for
    ``given_folds`` an iterable of (train, test) pairs); read and checked against the data
    where the run has them (:mod:`svmeval.cv.plan.given`)."""
    if value is None or isinstance(value, (str, os.PathLike)):
        return
    if hasattr(value, "split") and hasattr(value, "get_n_splits"):
        _fail(name, f"takes folds, not a splitter: give splitter.split(X, y), got {value!r}")
    if isinstance(value, (bytes, Mapping)) or not hasattr(value, "__iter__"):
        _fail(name, f"must be None, a file name or a sequence, got {value!r}")


def check_seed(value, name: str = "seed") -> int:
    """C ``srand``'s seed: an integer from 0 to 4294967295 (an unsigned int)."""
    if not is_integer(value) or not 0 <= int(value.__index__()) <= SEED_MAX:
        _fail(
            name, f"must be an integer from 0 to {SEED_MAX} (C srand's unsigned int), got {value!r}"
        )
    return int(value.__index__())


def check_scale(value, name: str = "scale") -> None:
    """``scale``: None or False (none), True (svm-scale's -l -1 -u 1), (lower, upper) with
    finite lower < upper, or a ScaleSpec (checked when made)."""
    if value is None or isinstance(value, bool):
        return
    if type(value).__name__ == "ScaleSpec" and hasattr(value, "lower"):
        return
    if isinstance(value, (tuple, list)) and len(value) == 2:
        if all(is_number(v) and not isinstance(v, bool) for v in value):
            lower, upper = float(value[0]), float(value[1])
            if math.isfinite(upper - lower) and upper > lower:
                return
            _fail(name, f"needs finite lower < upper, got {tuple(value)!r}")
    _fail(name, f"must be True, (lower, upper) or a ScaleSpec, got {value!r}")


def check_select(value, name: str = "select") -> None:
    """``select``: None, or K, the features kept (an int from 1 to C's INT_MAX); a search
    (grid_search, nested_cv, leak_check) also takes a list of distinct sizes, or "fselect"
    (fselect.py's list); the runs of one configuration refuse those by name."""
    if value is None or value == "fselect":
        return
    if isinstance(value, (list, tuple, range)):
        if not value:
            _fail(name, "must not be an empty list of sizes")
        for k in value:
            _check_size(k, name)
        if len(set(value)) != len(value):
            _fail(name, "must not give a size twice")
        return
    _check_size(value, name)


def _check_size(value, name: str) -> None:
    if not is_integer(value):
        _fail(name, f"must be None, an integer, a list of them or 'fselect', got {value!r}")
    number = int(value.__index__())
    if not 1 <= number <= INT_MAX:
        _fail(name, f"must be from 1 to {INT_MAX}, got {number}")


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


def check_label(value, name: str = "pos_label") -> None:
    """None or a label: a finite number (LIBSVM's labels are doubles), or one of the user's
    labels where the data's were not numbers (text, a boolean, any hashable object: the run
    checks it against the classes)."""
    if value is None:
        return
    if is_number(value):
        if not math.isfinite(value):
            _fail(name, f"must be None or a label (a finite number or a class), got {value!r}")
        return
    try:
        hash(value)
    except TypeError:
        _fail(name, f"must be None or a label (a number or a class), got {value!r}")


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


def check_weight_range(r, name: str = "log2w") -> tuple | None:
    """None, or the searched weight of one class: ``(label, begin, end, step)``, the label a
    class (an integer, as svm-train's ``-wLABEL`` reads it into a C ``int``; an integral float
    such as ``1.0`` is taken as that integer) and ``begin, end, step`` a range of log2 values
    (:func:`log2_range`). Returns ``(int label, begin, end, step)``."""
    if r is None:
        return None
    try:
        label, *rest = r
    except (TypeError, ValueError):
        raise RangeError(name, f"{r!r} is not (label, begin, end, step)") from None
    if len(rest) != 3:
        raise RangeError(name, f"{r!r} is not (label, begin, end, step)")
    integral = is_integer(label) or (
        is_number(label) and math.isfinite(label) and float(label).is_integer()
    )
    if not integral or not INT_MIN <= int(label) <= INT_MAX:
        raise RangeError(
            name, f"the class label must be an integer (svm-train's -wi label), got {label!r}"
        )
    return (int(label), *log2_range(tuple(rest), name))


def check_digits(value, name: str = "digits") -> None:
    """None or a number of decimals: an int from 0 to 20."""
    if value is not None and (not is_integer(value) or not 0 <= int(value.__index__()) <= 20):
        _fail(name, f"must be None or an integer from 0 to 20, got {value!r}")


_FORMATS = ("text", "json", "csv", "markdown", "latex", "html")


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
        try:
            read_options(value)  # as SvmParams.parse reads them
        except OptionError as exc:
            raise OptionError(f"{name} {value!r}: {exc}") from None
        return
    if value is None or type(value).__name__ in ("SvmParams", "LinearParams"):
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

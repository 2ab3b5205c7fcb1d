"""A run made by a function of the library, as the store records it: the function's name and
the arguments its result depends on, as plain JSON (``runs.call``), and the call as a line of
Python (``runs.command``).

What is kept of each argument (those left at their default are left out):

* the data: ``{"file": NAME}`` for a file name, ``{"dataset": NAME, "digest": SHA256}`` for a
  :class:`~svmeval.io.data.Dataset` (its name is the file it was read from, when it was),
  ``{"arrays": N}`` for ``(X, y)`` of ``N`` samples; a sequence of them for ``datasets``;
* a configuration: ``{"options": TEXT}``, svm-train's options as given or, for an
  ``SvmParams``, its exact options (every number as Python's ``repr``, so read back it is the
  same double); for a ``LinearParams``, ``linear:`` and LIBLINEAR's train's exact options; ``configurations``: ``{"names": [...] or null, "options": [...]}``;
* any other value that is JSON (a number, a string, a bool, None, a sequence of them) as it
  is; one that is not (a callable, a mapping of a grid's cells) as ``{"unrecorded": TYPE}``.

The arguments that change how a run is carried out but not its result (``jobs``, ``client``,
``progress``, ``quiet``, ``kernel_memory``, ``share``, ``keep_repeats``, the callbacks and the
store itself) are not kept. Which command, if any, makes the same run is the commands'
knowledge (:mod:`svmeval.cli.store`), worked out when the store is read.
"""

from __future__ import annotations

import inspect
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence

from svmeval.io.svm_train_syntax import FLAGS

__all__ = ["EXECUTION", "describe_call"]

#: arguments that change how a run is carried out, never its result
EXECUTION = frozenset(
    {
        "jobs",
        "client",
        "progress",
        "quiet",
        "kernel_memory",
        "share",
        "keep_repeats",
        "on_start",
        "on_cell",
        "on_finish",
        "store",
    }
)

_DATA = ("data", "datasets")
_CONFIGURATION = ("params", "a", "b")

#: svm-train's one-letter flags of the scalar fields, -m (the kernel cache) too: a run's options
_FLAGS = (*FLAGS, ("m", "cache_size"))


def describe_call(function: Callable, arguments: Mapping) -> tuple[str, str]:
    """A run function's call as a results store records it (``runs.command``, ``runs.call``).

    Parameters
    ----------
    function : callable
        The public function run (``cross_validate``, ``grid_search``, ...).
    arguments : mapping
        Its arguments by parameter name (those missing are at their defaults).

    Returns
    -------
    (str, str)
        The call as a line of Python, e.g. ``cross_validate(data='wine.scale', folds=3)``,
        and as JSON: ``{"function": NAME, "arguments": {...}}``, every argument the result
        depends on that is not at its default (see the module for what each becomes).

    Examples
    --------
    >>> from svmeval import cross_validate
    >>> text, _ = describe_call(cross_validate, {"data": "wine.scale", "folds": 3, "jobs": 2})
    >>> text
    "cross_validate(data='wine.scale', folds=3)"
    """
    parameters = inspect.signature(function).parameters
    kept: dict = {}
    for name, parameter in parameters.items():
        if name in EXECUTION or name not in arguments:
            continue
        value = arguments[name]
        if parameter.default is not inspect.Parameter.empty and _same(value, parameter.default):
            continue
        kept[name] = _plain(name, value)
    record = {"function": function.__name__, "arguments": kept}
    text = json.dumps(record, sort_keys=True, allow_nan=False)
    shown = ", ".join(f"{name}={_shown(value)}" for name, value in kept.items())
    return f"{function.__name__}({shown})", text


def _same(value, default) -> bool:
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:  # an array compared, a value that cannot say
        return False


def _plain(name: str, value):
    """``value`` of argument ``name`` as JSON (see the module)."""
    if name == "datasets":
        if isinstance(value, str | os.PathLike) or not isinstance(value, Sequence):
            return [_data(value)]
        if isinstance(value, tuple) and len(value) == 2 and not _is_data(value[0]):
            return [_data(value)]  # one (X, y)
        return [_data(v) for v in value]
    if name == "data":
        return _data(value)
    if name in _CONFIGURATION:
        return {"options": _options(value)}
    if name == "configurations":
        if isinstance(value, Mapping):
            return {
                "names": [str(k) for k in value],
                "options": [_options(v) for v in value.values()],
            }
        if isinstance(value, str):
            return {"names": None, "options": [_options(value)]}
        return {"names": None, "options": [_options(v) for v in value]}
    return _json(value)


def _is_data(value) -> bool:
    return isinstance(value, str | os.PathLike) or hasattr(value, "digest")


def _data(value) -> dict:
    if isinstance(value, str | os.PathLike):
        return {"file": os.fspath(value)}
    if hasattr(value, "digest") and hasattr(value, "name"):
        return {"dataset": str(value.name), "digest": str(value.digest())}
    try:
        n = len(value[1])
    except Exception:
        n = None
    return {"arrays": n}


def _options(config) -> str | None:
    """svm-train's options of a configuration, exact (None: svm-train's defaults)."""
    if config is None:
        return None
    if isinstance(config, str):
        return " ".join(config.split())
    if isinstance(config, Sequence):
        return " ".join(str(t) for t in config)
    plain = config.as_dict()
    default = type(config)().as_dict()
    if plain.get("library") == "liblinear":
        return _linear_options(config)
    out = []
    for flag, name in _FLAGS:
        value = plain.get(name)
        if value is not None and value != default.get(name):
            out.append(f"-{flag} {_number(value)}")
    for label, weight in plain.get("weight", ()):
        out.append(f"-w{_number(label)} {_number(weight)}")
    return " ".join(out)


#: LIBLINEAR's train: flag -> LinearParams' field
_LINEAR_FLAGS = (("s", "solver_type"), ("c", "C"), ("p", "p"), ("n", "nu"), ("e", "eps"))


def _linear_options(config) -> str:
    """A LIBLINEAR configuration as ``linear:`` and train's options, exact (every number as
    Python's ``repr``)."""
    default = type(config)()
    out = ["linear:"]
    for flag, name in (*_LINEAR_FLAGS, ("B", "bias")):
        value = getattr(config, name)
        if value is not None and value != getattr(default, name):
            out.append(f"-{flag} {_number(value)}")
    if not config.regularize_bias:
        out.append("-R")
    for label, weight in config.weight:
        out.append(f"-w{_number(label)} {_number(weight)}")
    return " ".join(out)


def _number(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _json(value):
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else {"unrecorded": repr(value)}
    if isinstance(value, list | tuple):
        items = [_json(v) for v in value]
        if any(isinstance(v, dict) for v in items):
            return {"unrecorded": type(value).__name__}
        return items
    try:  # numpy's scalars
        import numbers

        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real):
            return _json(float(value))
    except Exception:  # pragma: no cover
        pass
    return {"unrecorded": type(value).__name__}


def _shown(value) -> str:
    """An argument's value in the call's line of Python."""
    if isinstance(value, dict):
        if "file" in value:
            return repr(value["file"])
        if "dataset" in value:
            return f"Dataset({value['dataset']!r})"
        if "arrays" in value:
            return "(X, y)"
        if "options" in value and "names" not in value:
            return repr(value["options"])
        if "options" in value:
            if value["names"] is None:
                return repr(value["options"])
            return repr(dict(zip(value["names"], value["options"])))
        if "unrecorded" in value:
            return f"<{value['unrecorded']}>"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return repr(value)

"""The command line that makes the same run as a call of the library recorded in a results
store (:mod:`svmeval.store._calls`), or why none does.

A run of ``cross_validate``, ``cross_validate_multilabel``, ``grid_search``, ``nested_cv``,
``compare``, ``benchmark``, ``permutation_test`` or ``tune_threshold`` on data files is the run
of one command line: the same folds (the same units of the store), the report that command
prints. :func:`equivalent` writes that line from the recorded call; a call that no command
makes (data given as arrays, an argument no command has, a value no command takes) raises
:class:`NoCommand` with the reason, in the library's words.

The call comes from a file someone may have sent: every value is checked for its type here,
and the line is read by the command's own option parser (never a shell), as a command's
recorded line is.
"""

from __future__ import annotations

import math

__all__ = ["NoCommand", "equivalent"]


class NoCommand(Exception):
    """A recorded call that no command line makes; its message says why."""


def equivalent(call: dict) -> list[str]:
    """The command line (``argv``, the command's name first) of the run ``call`` (a
    ``runs.call`` read as JSON) recorded, or :class:`NoCommand`."""
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
        raise NoCommand("its call is not recorded as svmeval records calls")
    function = call.get("function")
    if function not in _LINES:
        raise NoCommand(f"no command makes the run of {_said(function)}")
    args = dict(call["arguments"])
    for name, value in args.items():
        if isinstance(value, dict) and "unrecorded" in value:
            raise NoCommand(f"{name} was {_said(value['unrecorded'])}, which no command takes")
    prog, flags, options, data = _LINES[function](args)
    if args:
        raise NoCommand(f"no {prog} option gives {function}'s {', '.join(sorted(args))}")
    if prog == "svmeval-compare":  # the data files before the configurations' "--"
        return [prog, *flags, *data, *options]
    return [prog, *flags, *options, *data]


def _said(value) -> str:
    return repr(str(value)[:40])


# --- one function each: (command, its options, svm-train's options, the data files) --------------
def _cross_validate(args: dict) -> tuple:
    if args.pop("keep_decision_values", False) is not False:
        raise NoCommand(
            "keep_decision_values=True keeps folds no command asks for (svmeval keeps the "
            "class scores only)"
        )
    flags = ["-v", _int(args.pop("folds", 5), "folds")]
    options = _options(args.pop("params", None), linear=True)
    if options[:1] == [_LINEAR]:  # LIBLINEAR's train -v: svmeval-linear, seeds 1..R
        if args.pop("seed", 1) != 1:
            raise NoCommand("seed: svmeval-linear draws its folds after srand(1), seed 1 only")
        flags += _optional(args, "repeat", "--repeat", 1)
        return "svmeval-linear", flags, options[1:], [_file(args.pop("data"))]
    flags += _optional(args, "seed", "--seed", 1) + _optional(args, "repeat", "--repeat", 1)
    return "svmeval", flags, options, [_file(args.pop("data"))]


def _multilabel(args: dict) -> tuple:
    flags = ["--multilabel", "-v", _int(args.pop("folds", 5), "folds")]
    flags += _optional(args, "seed", "--seed", 1)
    return "svmeval", flags, _options(args.pop("params", None)), [_file(args.pop("data"))]


def _permutation_test(args: dict) -> tuple:
    flags = ["-v", _int(args.pop("folds", 5), "folds")]
    flags += ["--permutations", _int(args.pop("permutations", 1000), "permutations")]
    flags += _optional(args, "seed", "--seed", 1) + _figures(args)
    return "svmeval", flags, _options(args.pop("params", None)), [_file(args.pop("data"))]


def _tune_threshold(args: dict) -> tuple:
    folds = args.pop("folds", 5)
    inner = args.pop("inner_folds", 5)
    if inner != folds:
        raise NoCommand(
            f"inner_folds={_said(inner)} is not folds={_said(folds)} (svmeval --threshold "
            "uses -v k for both)"
        )
    flags = ["-v", _int(folds, "folds"), "--threshold", _text(args.pop("criterion", "f1"))]
    flags += _optional(args, "seed", "--seed", 1) + _optional(args, "repeat", "--repeat", 1)
    flags += _optional(args, "pos_label", "--pos-label")
    return "svmeval", flags, _options(args.pop("params", None)), [_file(args.pop("data"))]


def _grid(args: dict) -> list[str]:
    flags = []
    for name in ("log2c", "log2g"):
        if name in args:
            flags += [f"-{name}", _range(args.pop(name), name, 3)]
    if "log2p" in args:
        flags += ["--log2p", _range(args.pop("log2p"), "log2p", 3)]
    if "log2w" in args:
        value = args.pop("log2w")
        if value is not None:
            text = _range(value, "log2w", 4).split(",")
            flags += ["-log2w", text[0], ",".join(text[1:])]
    if args.pop("resume", None) is not None:
        raise NoCommand("resume is a mapping of cells; svmeval-grid -resume reads a file")
    return flags + _figures(args) + _optional(args, "seed", "--seed", 1)


def _grid_search(args: dict) -> tuple:
    flags = _grid(args) + ["-v", _int(args.pop("folds", 5), "folds")]
    flags += ["-out", "null", "-gnuplot", "null"]  # the function writes no file
    return "svmeval-grid", flags, _options(args.pop("params", None)), [_file(args.pop("data"))]


def _nested_cv(args: dict) -> tuple:
    flags = ["--nested", _int(args.pop("folds", 5), "folds")]
    flags += ["-v", _int(args.pop("inner_folds", 5), "inner_folds")]
    flags += _grid(args) + _optional(args, "repeat", "--repeat", 1)
    return "svmeval-grid", flags, _options(args.pop("params", None)), [_file(args.pop("data"))]


def _comparison_flags(args: dict) -> list[str]:
    flags = ["-v", _int(args.pop("folds", 10), "folds")]
    flags += ["--repeat", _int(args.pop("repeat", 10), "repeat")]
    flags += _optional(args, "seed", "--seed", 1) + _figures(args)
    flags += _optional(args, "confidence_level", "--confidence", 0.95)
    return flags + _optional(args, "rope", "--rope")


def _compare(args: dict) -> tuple:
    flags = _comparison_flags(args)
    a, b = (_options(args.pop(name, None), linear=True) for name in ("a", "b"))
    return "svmeval-compare", flags, ["--", *a, "--", *b], [_file(args.pop("data"))]


def _benchmark(args: dict) -> tuple:
    flags = _comparison_flags(args)
    flags += _optional(args, "draws", "--draws", 50000) + _optional(args, "test", "--test")
    datasets = args.pop("datasets")
    configurations = args.pop("configurations")
    if not isinstance(datasets, list) or not datasets:
        raise NoCommand("its data sets are not recorded as svmeval records them")
    if not isinstance(configurations, dict) or not isinstance(configurations.get("options"), list):
        raise NoCommand("its configurations are not recorded as svmeval records them")
    given = configurations["options"]
    files = [_file(d) for d in datasets]
    if len(files) == 1 and len(given) == 2 and "--test" not in flags:
        raise NoCommand(
            "a benchmark of one data set and two configurations: svmeval-compare makes that "
            "line a comparison (compare)"
        )
    options = []
    for config in given:
        options += ["--", *_options({"options": config}, linear=True)]
    return "svmeval-compare", flags, options, files


_LINES = {
    "cross_validate": _cross_validate,
    "cross_validate_multilabel": _multilabel,
    "grid_search": _grid_search,
    "nested_cv": _nested_cv,
    "compare": _compare,
    "benchmark": _benchmark,
    "permutation_test": _permutation_test,
    "tune_threshold": _tune_threshold,
}


# --- the values ---------------------------------------------------------------------------------
def _figures(args: dict) -> list[str]:
    """--criterion, --pos-label, --zero-division."""
    out = _optional(args, "criterion", "--criterion")
    out += _optional(args, "pos_label", "--pos-label")
    return out + _optional(args, "zero_division", "--zero-division", 0.0)


def _optional(args: dict, name: str, flag: str, default=None) -> list[str]:
    """``flag value`` of argument ``name`` where it is given and not its default."""
    if name not in args:
        return []
    value = args.pop(name)
    if value is None or (not isinstance(value, bool) and value == default):
        return []
    return [flag, _value(value, name)]


def _value(value, name: str) -> str:
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bool):
        raise NoCommand(f"{name}={value!r}: no command option takes it")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    raise NoCommand(f"{name} is not recorded as svmeval records it")


def _int(value, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NoCommand(f"{name} is not recorded as svmeval records it")
    return str(value)


def _text(value) -> str:
    if not isinstance(value, str) or not value or value.startswith("-") or not value.isprintable():
        raise NoCommand(f"the value {_said(value)} is not one a command line takes")
    return value


def _range(value, name: str, n: int) -> str:
    if value is None:
        return "null"
    if not isinstance(value, list) or len(value) != n:
        raise NoCommand(f"{name} is not recorded as svmeval records it")
    return ",".join(_value(v, name) for v in value)


#: the word before LIBLINEAR's train options (svmeval-compare's, the store's)
_LINEAR = "linear:"


def _options(config, *, linear: bool = False) -> list[str]:
    """svm-train's options of a recorded configuration; ``linear``: LIBLINEAR's too (``linear:``
    and its train options, as svmeval-compare takes them)."""
    if config is None:
        return []
    options = config.get("options") if isinstance(config, dict) else None
    if options is None:
        return []
    if not isinstance(options, str) or not options.isprintable():
        raise NoCommand("a configuration is not recorded as svmeval records it")
    tokens = options.split()
    if linear and tokens[:1] == [_LINEAR]:
        return tokens
    if tokens and not tokens[0].startswith("-"):
        raise NoCommand(f"the configuration {_said(options)} is not svm-train's options")
    return tokens


def _file(data) -> str:
    """The data file of a recorded data set."""
    if not isinstance(data, dict):
        raise NoCommand("its data are not recorded as svmeval records them")
    if "arrays" in data:
        raise NoCommand("its data were arrays (X, y), not a file: no command reads them")
    name = data.get("file", data.get("dataset"))
    if not isinstance(name, str) or not name or "\x00" in name:
        raise NoCommand("its data are not recorded as svmeval records them")
    return "./" + name if name.startswith("-") else name

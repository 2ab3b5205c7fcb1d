"""A command line read by the option table (:mod:`svmeval.cli.options`): options before or
after the file names, ``--`` ending them, ``--help`` and ``--version`` found where they are not
another option's value."""

from __future__ import annotations

from dataclasses import dataclass, field

from svmeval.cli.options import PROGRAMS, TABLE, TRAINING, options_of
from svmeval.errors import OptionError, show_path
from svmeval.io.svm_train_syntax import read_option, weight_label

__all__ = ["MisplacedOption", "Scan", "asks_for", "asks_for_help", "scan"]


class MisplacedOption(OptionError):
    """An option of svmeval's that the command (or this part of its line) does not take."""

    def __init__(self, flag: str, command: str):
        self.flag = flag
        where = "here" if command == TRAINING else f"to {PROGRAMS[command]}"
        super().__init__(f"option {show_path(flag)} does not apply {where}")


@dataclass
class Scan:
    """A command line read: svm-train's parameters (``params``, ``weights``), the other
    options' values by field, the file names, and what followed a ``--``."""

    params: dict = field(default_factory=dict)
    weights: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    positional: list = field(default_factory=list)
    rest: list | None = None
    every: dict = field(default_factory=dict)  # every value of an option given more than once


def _flag_of(arg: str, table: dict, command: str):
    """``(option, flag, value after =, class label of -wi)`` of one option argument."""
    flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
    label = None
    if flag.startswith("-w") and not flag.startswith("--") and "-w" in table:
        if len(flag) == 2:
            raise OptionError("option -w needs a class label: -wi weight (e.g. -w1 2)")
        label = weight_label(flag)
        flag = "-w"
    option = table.get(flag)
    if option is None:
        if any(flag in o.flags for o in TABLE):
            raise MisplacedOption(flag, command)
        raise OptionError(f"unknown option: {show_path(flag)}{_nearest(flag, table)}")
    if option.kind == "flag" and eq:
        raise OptionError(f"option {flag} takes no value")
    return option, flag, (value if eq else None), label


def _nearest(flag: str, table: dict) -> str:
    """``; did you mean FLAG?`` with the command's option nearest to ``flag``: the same
    letters in another case (``-log2C``: ``-log2c``), else difflib's most similar at a ratio of
    at least 0.75 (``--ful``: ``--full``); where none is near (``-x``), a pointer to
    ``--help``."""
    candidates = [f for f in table if f != "-w"]
    near = [f for f in candidates if f.lower() == flag.lower()]
    if not near:
        import difflib  # an unknown option's nearest valid one

        near = difflib.get_close_matches(flag, candidates, n=1, cutoff=0.75)
    return f"; did you mean {near[0]}?" if near else " (--help lists every option)"


def scan(argv: list[str], command: str) -> Scan:
    """Read ``argv`` by the declarations of ``command``'s options. Options may come before or
    after the file names; ``-`` alone is a file (standard input); a long option's value may
    follow ``=``; ``--`` ends the options (what follows is :attr:`Scan.rest`)."""
    table = options_of(command)
    out = Scan()
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            out.rest = list(argv[i:])
            break
        if not arg.startswith("-") or arg == "-":
            out.positional.append(arg)
            continue
        option, flag, value, label = _flag_of(arg, table, command)
        if option.kind == "flag":
            out.values[option.field] = True
            continue
        if value is None and option.kind == "optional":
            has = i < len(argv) and (not argv[i].startswith("-") or argv[i] == "-")
            value, i = (argv[i], i + 1) if has else (None, i)
        elif value is None and option.nargs > 1:
            values = tuple(argv[i : i + option.nargs])
            if "" in values:  # an unset shell variable, whether or not the others follow
                raise OptionError(f"option {arg}: the value is empty")
            if len(values) < option.nargs:
                raise OptionError(f"option {arg} needs {option.metavar}")
            i += option.nargs
            out.values[option.field] = option.value(flag, values)
            continue
        elif value is None:
            if i >= len(argv):
                raise OptionError(f"option {arg} needs a value")
            value, i = argv[i], i + 1
        if value == "":  # given, but empty: a mistake (an unset shell variable), never "not given"
            raise OptionError(f"option {arg.partition('=')[0]}: the value is empty")
        if value is None:  # an optional value not given: the option's default
            value = ""
        if option.svm:  # svm-train's training options: svm-train's one parser
            field, read = read_option(arg, value)
            if field == "weight":
                out.weights.append(read)
            else:
                out.params[field] = read
        else:
            out.values[option.field] = option.value(flag, value)
            out.every.setdefault(option.field, []).append(out.values[option.field])
    return out


def asks_for_help(argv: list[str]) -> bool:
    """``--help`` before any ``--``, but not as an option's value (``-d --help`` is -d's)."""
    return asks_for(argv) == "--help"


def asks_for(argv: list[str]) -> str | None:
    """The first ``--help`` or ``--version`` before any ``--`` that is not an option's value
    (``-d --help`` is -d's); None where there is none."""
    takes = {f: o.nargs for o in TABLE if o.kind not in ("flag", "optional") for f in o.flags}
    values_next = 0  # the values still to come of the option before
    for arg in argv:
        if not values_next and arg in ("--", "--help", "--version"):
            return None if arg == "--" else arg
        if values_next:
            values_next -= 1
        else:
            values_next = takes.get(arg, 1 if arg[:2] == "-w" and len(arg) > 2 else 0)
    return None

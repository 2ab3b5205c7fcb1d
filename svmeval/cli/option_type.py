"""One command-line option, declared: :class:`Option`, and the names of the commands that take
options (svmeval, svmeval-grid, svmeval-compare). The tables of options are
:mod:`svmeval.cli.options`' (svm-train's and the long options) and
:mod:`svmeval.cli.grid_options`' (LIBSVM's grid.py's).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from svmeval.cli.values import parse_c_double, parse_c_int
from svmeval.params import INT_MAX, INT_MIN

__all__ = ["ALL", "COLUMNS", "COMPARE", "GRID", "SVMEVAL", "Option", "fit"]

#: the width every usage line fits (an 80-column terminal; a tab counts to the next multiple of 8)
COLUMNS = 80

SVMEVAL, GRID, COMPARE = "svmeval", "grid", "compare"
ALL = frozenset({SVMEVAL, GRID, COMPARE})


@dataclass(frozen=True)
class Option:
    """One command-line option: its flag(s), its value (``metavar``, ``kind``: "int",
    "double", "str", "flag" or "optional" (a value only when one follows), and ``read``, a
    reader ``(flag, text) -> value`` where the kind's own is not enough), where it lands
    (``field`` of :class:`~svmeval.params.SvmParams` when ``svm``, else of the command's
    options), its help (and ``more``: the usage's further lines), its default as the usage
    shows it (``defaults``: per command, where they differ), for integers their range
    ``(low, high, what)``, and the ``commands`` that take it. ``nargs``: the values that
    follow the flag (2: ``read`` gets them as a tuple of two texts)."""

    flags: tuple[str, ...]
    metavar: str
    field: str
    kind: str
    help: str
    default: str | None = None
    more: str = ""
    svm: bool = False
    range: tuple = (INT_MIN, INT_MAX, "a C int")
    sep: str = " : "
    commands: frozenset = ALL
    defaults: tuple = ()
    read: Callable | None = None
    nargs: int = 1

    def usage(self, command: str = SVMEVAL) -> str:
        names = ", ".join(f"{f} {self.metavar}".rstrip() for f in self.flags)
        line = f"{names}{self.sep}{self.help}"
        default = dict(self.defaults).get(command, self.default)
        if default is not None:
            line += f" (default {default})"
        if self.svm:  # svm-train's own lines, as svm-train prints them, within 80 columns
            return (line + "\n" if len(line) <= COLUMNS else fit(line)) + self.more
        return fit(line + "\n" + self.more)

    def value(self, flag: str, text: str):
        """The value of ``text`` given to ``flag``, read by this option's rules."""
        if self.read is not None:
            return self.read(flag, text)
        if self.nargs != 1:  # pragma: no cover - every option of several values has a reader
            raise TypeError(f"{flag}: an option of {self.nargs} values needs a reader")
        if self.kind == "int":
            return parse_c_int(flag, text, *self.range)
        if self.kind == "double":
            return parse_c_double(flag, text)
        return text


def fit(text: str) -> str:
    """``text`` (an option's usage: a first line and its continuations) wrapped by words into
    :data:`COLUMNS` columns. Lines continued with a tab are one paragraph, filled again; lines
    indented with spaces (grid.py's lists) keep their breaks and continue at their indent."""
    out: list[str] = []
    for block in text.replace("\n\t", " ").splitlines():
        stripped = block.lstrip(" ")
        indent = block[: len(block) - len(stripped)]
        more = indent if indent else " " * 8
        lines = textwrap.wrap(
            stripped,
            COLUMNS,
            initial_indent=indent,
            subsequent_indent=more,
            break_long_words=False,
            break_on_hyphens=False,
        )
        out.extend(line if indent else _tabbed(line) for line in lines or [""])
    return "".join(line + "\n" for line in out)


def _tabbed(line: str) -> str:
    """A continuation line's eight spaces as the tab the usages use."""
    return "\t" + line[8:] if line.startswith(" " * 8) else line

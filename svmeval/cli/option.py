"""One command-line option, declared: :class:`Option`, and the names of the commands that take
options (svmeval, svmeval-grid, svmeval-compare). The tables of options are
:mod:`svmeval.cli.options`' (svm-train's and the long options) and
:mod:`svmeval.cli.grid_options`' (LIBSVM's grid.py's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from svmeval.cli.values import parse_c_double, parse_c_int
from svmeval.params import INT_MAX, INT_MIN

__all__ = ["ALL", "COMPARE", "GRID", "SVMEVAL", "Option"]

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
        return line + "\n" + self.more

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

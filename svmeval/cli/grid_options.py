"""LIBSVM's grid.py options (svmeval-grid), declared with grid.py's words: the log2 ranges of
C and gamma, and the file and picture options, which :mod:`svmeval.cli.options` adds to its
table.
"""

from __future__ import annotations

from dataclasses import replace

from svmeval.cli.option_type import GRID, Option
from svmeval.cli.values import parse_log2_range

__all__ = ["GRID_PY_OPTIONS"]


def _log2_axis(name: str, default: str) -> Option:
    return Option(
        (f"-log2{name}",),
        '{begin,end,step | "null"}',
        f"log2{name}",
        "str",
        f"set the range of {name} (default {default})",
        more=(
            f"    begin,end,step -- {name}_range = 2^{{begin,...,begin+k*step,...,end}}\n"
            f'    "null"         -- do not grid with {name}\n'
        ),
        read=parse_log2_range,
    )


#: LIBSVM's grid.py options (svmeval-grid), with grid.py's words
GRID_PY_OPTIONS: tuple[Option, ...] = (
    _log2_axis("c", "-5,15,2"),
    _log2_axis("g", "3,-15,-2"),
    Option(
        ("-svmtrain",),
        "pathname",
        "svmtrain",
        "str",
        "accepted for grid.py command lines; no effect (LIBSVM runs in-process)",
    ),
    Option(
        ("-gnuplot",),
        '{pathname | "null"}',
        "gnuplot",
        "str",
        '"null" -- draw no picture (as grid.py without gnuplot); a pathname is\n'
        "\taccepted and has no effect (-png is drawn with matplotlib)",
    ),
    Option(
        ("-out",),
        '{pathname | "null"}',
        "out",
        "str",
        "(default dataset.out)",
        more=(
            '    pathname -- set output file path and name\n    "null"   -- do not output file\n'
        ),
    ),
    Option(
        ("-png",),
        '{pathname | "null"}',
        "png",
        "str",
        'set graphic output file path and name (default dataset.png); "null" draws\n'
        "\tnone; needs matplotlib (the plot extra)",
    ),
    Option(
        ("-resume",),
        "[pathname]",
        "resume",
        "optional",
        "resume the grid task using an existing output file (default pathname is\n"
        "\tdataset.out); svmeval-grid's and grid.py's files both work; a file that\n"
        "\trecords another --criterion is refused",
    ),
)
GRID_PY_OPTIONS = tuple(replace(o, commands=frozenset({GRID})) for o in GRID_PY_OPTIONS)

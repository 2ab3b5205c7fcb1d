"""Every command's --help fits an 80-column terminal and is filled as a reader expects: each
line within 80 columns (a tab to the next multiple of 8), and no line broken before a word
that fitted on it (a word stranded on a line of its own, ``gnuplot); a``); the lists of
grid.py's and svm-train's usages (``    "null" -- ...``, ``\\t0 -- C-SVC``) keep their breaks."""

from __future__ import annotations

import re

import pytest

import commands

#: each program, and the command of tests/commands.py that runs it in this process
COMMANDS = {
    "svmeval": "svmeval",
    "svmeval-grid": "grid",
    "svmeval-compare": "compare",
    "svmeval-store": "store",
}
COLUMNS = 80
LIST_ITEM = re.compile(r"^\s+\S+\s+--\s")  # a line of a usage's list: "  VALUE -- what"


def help_text(command: str) -> str:
    done = commands.run(COMMANDS[command], ["--help"])
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns(command):
    wide = [line for line in help_text(command).splitlines() if len(line.expandtabs(8)) > COLUMNS]
    assert not wide, wide


@pytest.mark.parametrize("command", COMMANDS)
def test_help_lines_are_filled_no_word_stranded(command):
    lines = help_text(command).splitlines()
    stranded = []
    for line, after in zip(lines, lines[1:]):
        if not line.strip() or not after[:1].isspace() or LIST_ITEM.match(after):
            continue  # a paragraph's end, a new option or a list's next item
        if after.split()[0] == command:
            continue  # the usage's next form
        word = after.split()[0]
        if len(line.expandtabs(8)) + 1 + len(word) <= COLUMNS:
            stranded.append(f"{line!r} then {after!r}")
    assert not stranded, "\n".join(stranded)

"""Text reports that fit an 80-column terminal: sentences wrapped between words (never inside
one, nor between a name, ``=`` and its value), tables too wide split into blocks of columns
that each repeat the first column, and notes beside table rows moved under the table when a
row with its note would not fit."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

__all__ = ["WIDTH", "fit", "notes_beside_or_below", "split_columns", "table", "with_notes", "wrap"]

#: the width every line of a text report keeps within (where its words allow)
WIDTH = 80

_GLUE = "\x00"  # stands for a space that must not break a line ("p = 0.05" stays whole)


def wrap(text: str, indent: str = "  ", width: int = WIDTH, keep: Sequence[str] = ()) -> list[str]:
    """``text`` as lines of at most ``width`` characters, broken between words only (a word
    longer than a line, a file name, stays whole on its own line); lines after the first start
    with ``indent`` (besides the first line's own leading spaces); ``name = value`` is never
    split, nor any of the phrases ``keep`` (a configuration's options, ``-c 1``)."""
    lead = text[: len(text) - len(text.lstrip(" "))]
    glued = text.strip(" ").replace(" = ", f"{_GLUE}={_GLUE}")
    for phrase in sorted(keep, key=len, reverse=True):
        glued = glued.replace(phrase, phrase.replace(" ", _GLUE))
    lines = textwrap.wrap(
        glued,
        width=width,
        initial_indent=lead,
        subsequent_indent=lead + indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace(_GLUE, " ") for line in lines] or [""]


def fit(lines: Sequence[str], width: int = WIDTH) -> list[str]:
    """Every line longer than ``width`` wrapped (:func:`wrap`); the others as they are."""
    out: list[str] = []
    for line in lines:
        out.extend(wrap(line, width=width) if len(line) > width else [line])
    return out


def notes_beside_or_below(
    rows: Sequence[tuple[str, str, str]], width: int = WIDTH, gap: str = "   "
) -> list[str]:
    """Table rows ``(row, title, note)``, the note in parentheses beside its row where every
    row and its note fit in ``width``, else the rows alone and the notes under them, one
    ``title: note`` each (wrapped). A row with an empty note has none."""
    beside = [f"{row}{gap}({note})" if note else row for row, _, note in rows]
    if all(len(line) <= width for line in beside):
        return beside
    out = [row for row, _, _ in rows]
    for _, title, note in rows:
        if note:
            out.extend(wrap(f"  {title}: {note}", indent="  ", width=width))
    return out


def split_columns(
    n_columns: int,
    first: Callable[[], list[str]],
    column: Callable[[int], list[str]],
    sep: str = "",
    width: int = WIDTH,
) -> list[str]:
    """A table of a first column (``first()``: its cells, top to bottom, padded alike) and
    ``n_columns`` more (``column(j)``: column j's cells, padded alike), in blocks of as many
    columns as fit in ``width`` (at least one), each block repeating the first column and
    separated from the next by an empty line; ``sep`` goes before every column."""
    lead = first()
    cells = [column(j) for j in range(n_columns)]
    blocks: list[list[int]] = [[]]
    used = len(lead[0]) if lead else 0
    for j, c in enumerate(cells):
        w = len(sep) + (max(len(x) for x in c) if c else 0)
        if blocks[-1] and used + w > width:
            blocks.append([])
            used = len(lead[0]) if lead else 0
        blocks[-1].append(j)
        used += w
    out: list[str] = []
    for b, block in enumerate(blocks):
        if b:
            out.append("")
        for i, head in enumerate(lead):
            out.append(head + "".join(sep + cells[j][i] for j in block))
    return out


def table(
    titles: Sequence[str], columns: Sequence[Sequence[str]], first: int, width: int
) -> list[str]:
    """Rows titled ``titles`` (right-aligned in ``first`` characters) and ``columns`` (each
    a header, then one cell a row, right-aligned in ``width``), in blocks of columns that fit
    (:func:`split_columns`)."""
    return split_columns(
        len(columns),
        lambda: [f"{t:>{first}}" for t in titles],
        lambda j: [f"{c:>{width}}" for c in columns[j]],
    )


def with_notes(rows: list[str], notes: Sequence[tuple[str, str]]) -> list[str]:
    """A :func:`table`'s lines (a header, then one line a row) with each row's ``(title,
    note)``: beside the rows where all fit (:func:`notes_beside_or_below`), else under them;
    a table split into blocks has its notes under the last block."""
    if "" in rows:
        return list(rows) + [line for t, n in notes if n for line in wrap(f"  {t}: {n}")]
    return [rows[0]] + notes_beside_or_below(
        [(row, title, note) for row, (title, note) in zip(rows[1:], notes)]
    )

"""grid.py's rules, reproduced: its ranges, its job order, its best cell, its ``.out`` lines.

LIBSVM's ``tools/grid.py`` (the reference for every rule here):

* a range ``begin,end,step`` is expanded by repeated addition (``range_f``: floating-point
  accumulation included, so ``-log2c -1,1,0.1`` gives grid.py's very values);
* each axis is reordered middle first (``permute_sequence``) and the cells are visited in
  ``calculate_jobs``' order, which alternately refines C and gamma;
* the best cell is grid.py's ``update_param``'s (:mod:`svmeval.workflows.grid_best`);
* the ``-out`` file holds ``log2c=… log2g=… rate=…`` lines; ``-resume`` reads them back;
* grid.py's numbers are Python's: its default ranges are ints (``log2c=5``, ``[local] 5 -7``),
  a range given on its command line is floats (``-log2c -1,1,1``: ``log2c=-1.0``), and a value
  read back from a ``-out`` file is a float (``[resumed] 5.0 -7.0``). A :class:`Cell` holds
  floats and names in ``ints`` the axes grid.py holds as ints, for its lines alone.

An optional third axis, log2 of epsilon-SVR's epsilon, is svmeval's own: the
C x gamma grid in grid.py's order for each epsilon in turn, and ties need the same gamma and
epsilon. So is the weight axis, log2 of one class's weight (svm-train's ``-wLABEL``, which
multiplies C for that class): the C x gamma grid in grid.py's order for each weight in turn
(the weights in their range's order), ties needing the same gamma and weight. With a weight
axis, C and gamma may both be left out (a search of the weight alone); a weight cell's
``-out`` line names its class (``log2w1=…``, ``log2w-1=…``), so that its file is never read
as a C x gamma file (:func:`check_resume_shape`). So is the number of features, fselect.py's
subset size K (``select``, kept after ranking each training fold by F-score): the grid (and
any epsilon or weight) for each size in turn, in the sizes' given order, ties needing the same
size; its ``-out`` lines end their axes with ``select=K``, grid.py's lines show K after the
other axes (``[local] 5 -7 8 85.1852 (best c=32.0, g=0.0078125, select=8, rate=85.1852)``) and
the last line gives K after the best C and gamma. A search of sizes with C and gamma both left
out is a search of the size alone.

LIBLINEAR's search of ``-s 11`` (``train -C``: C and the SVR's p together) has a p axis of
its own, ``p_value``: p itself on a linear scale, not its log2. LIBLINEAR's 20 values of p
are evenly spaced, ``i * max|y| / 20`` for i = 19, ..., 0, and p = 0 is one of them, which no
log2 holds; the value itself keeps each p exact (its ``-out`` line: ``p=0.0``) and ties
need the same p.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from svmeval._args import checks as arg_checks
from svmeval._args.checks import MAX_VALUES, RangeError, is_python_int  # noqa: F401 - as before
from svmeval.errors import SvmevalError, show_path
from svmeval.workflows.grid_best import Cells, Leader, accuracy_rate, choose_best  # noqa: F401

#: grid.py's default ranges: ints, as grid.py holds them (its lines print ``5``, not ``5.0``)
DEFAULT_LOG2C = (-5, 15, 2)
DEFAULT_LOG2G = (3, -15, -2)

#: the axes of a cell, in grid.py's order (log2p, p_value, log2w and select are svmeval's own)
AXES = ("log2c", "log2g", "log2p", "p_value", "log2w", "select")


def check_range(name: str, r) -> tuple:
    """Validate a ``(begin, end, step)`` triple named ``name`` (what grid.py would loop on for
    ever or fail on): ``svmeval._args.checks.check_range``."""
    return arg_checks.log2_range(r, name)


def range_f(begin: float, end: float, step: float) -> list[float]:
    """grid.py's ``range_f``: begin, begin+step, ... (by repeated addition) while not past end."""
    seq = []
    while True:
        if step > 0 and begin > end:
            break
        if step < 0 and begin < end:
            break
        seq.append(begin)
        begin = begin + step
    return seq


def permute_sequence(seq: list) -> list:
    """grid.py's ``permute_sequence``: the middle first, then the halves' orders interleaved."""
    n = len(seq)
    if n <= 1:
        return list(seq)
    mid = int(n / 2)
    left = permute_sequence(seq[:mid])
    right = permute_sequence(seq[mid + 1 :])
    ret = [seq[mid]]
    while left or right:
        if left:
            ret.append(left.pop(0))
        if right:
            ret.append(right.pop(0))
    return ret


@dataclass(frozen=True)
class Cell:
    """One grid point: log2 of C, gamma, (epsilon-SVR) epsilon and the weight of class
    ``w_label`` (svm-train's ``-wLABEL``); None = not searched.
    ``ints``: the axes ("log2c", ...) whose range grid.py holds as ints (its default ranges),
    which grid.py's lines print as ints; it takes no part in comparisons. ``select``: the
    number of features kept (the top K of each training fold's F-score ranking), None where
    the size is not searched. ``p_value``: LIBLINEAR's ``-s 11`` search's p itself (a linear
    axis: p = 0 is one of its values), None elsewhere; ``p`` gives it."""

    log2c: float | None
    log2g: float | None
    log2p: float | None = None
    ints: frozenset = field(default=frozenset(), compare=False, repr=False)
    log2w: float | None = None
    w_label: int | None = None
    select: int | None = None
    p_value: float | None = None

    def log2_text(self, axis: str) -> str:
        """The value of ``axis`` as grid.py prints it (``5`` or ``5.0``; a size as an int;
        ``p_value``: p itself)."""
        value = getattr(self, axis)
        return str(int(value)) if axis in self.ints or axis == "select" else str(value)

    def key(self, axis: str) -> str:
        """The name of ``axis`` in an ``-out`` line: the axis itself, the weight's with its
        class (``log2w1``, ``log2w-1``), ``p`` for ``p_value``."""
        if axis == "p_value":
            return "p"
        return f"log2w{self.w_label}" if axis == "log2w" else axis

    @property
    def axes(self) -> tuple[str, ...]:
        """The searched axes of the cell, as its ``-out`` line names them (its shape)."""
        return tuple(self.key(a) for a in AXES if getattr(self, a) is not None)

    @property
    def C(self) -> float | None:
        return None if self.log2c is None else 2.0**self.log2c

    @property
    def gamma(self) -> float | None:
        return None if self.log2g is None else 2.0**self.log2g

    @property
    def p(self) -> float | None:
        if self.p_value is not None:
            return self.p_value
        return None if self.log2p is None else 2.0**self.log2p

    @property
    def w(self) -> float | None:
        """The weight of class ``w_label`` (svm-train's ``-wLABEL w``: that class's C is
        ``w * C``)."""
        return None if self.log2w is None else 2.0**self.log2w

    @property
    def tie(self) -> tuple:
        """What two cells must share for the smaller C to win a tie (grid.py: gamma)."""
        return (self.log2g, self.log2p, self.p_value, self.log2w, self.select)


def cell_params(base, cell: Cell):
    """``base`` (an :class:`~svmeval.params.SvmParams`) with the cell's C, gamma, epsilon and
    class weight (appended to ``base``'s ``-wi`` pairs, as a last ``-wLABEL`` option)."""
    changes: dict[str, Any] = {}
    if cell.C is not None:
        changes["C"] = cell.C
    if cell.gamma is not None:
        changes["gamma"] = cell.gamma
    if cell.p is not None:
        changes["p"] = cell.p
    if cell.w is not None:
        changes["weight"] = (*base.weight, (cell.w_label, cell.w))
    return replace(base, **changes)


def job_order(log2c, log2g, log2p=None, log2w=None, select=None) -> list[Cell]:
    """Every cell in grid.py's job order (``calculate_jobs``), for each epsilon (or class
    weight) in turn, for each size of ``select`` (a sequence of ints, None: not searched) in
    turn.

    Each range is ``(begin, end, step)`` or None (not searched); ``log2w`` is
    ``(label, begin, end, step)``. At least one of C and gamma must be searched, as in
    grid.py, unless a weight or a size is.
    """
    if log2c is None and log2g is None and log2w is None and not select:
        raise RangeError("log2c", "log2c and log2g must not both be None")
    label, w_range = (None, None) if log2w is None else (int(log2w[0]), tuple(log2w[1:]))
    ints = frozenset(
        axis
        for axis, r in (("log2c", log2c), ("log2g", log2g), ("log2p", log2p), ("log2w", w_range))
        if r is not None and all(is_python_int(v) for v in r)
    )
    c_seq = permute_sequence(range_f(*log2c)) if log2c is not None else [None]
    g_seq = permute_sequence(range_f(*log2g)) if log2g is not None else [None]
    p_seq = range_f(*log2p) if log2p is not None else [None]
    w_seq = range_f(*w_range) if w_range is not None else [None]
    nr_c, nr_g = float(len(c_seq)), float(len(g_seq))
    i = j = 0
    pairs: list[tuple[float | None, float | None]] = []
    while i < nr_c or j < nr_g:
        if i / nr_c < j / nr_g:
            pairs.extend((c_seq[i], g_seq[k]) for k in range(j))  # more C resolution
            i += 1
        else:
            pairs.extend((c_seq[k], g_seq[j]) for k in range(i))  # more gamma resolution
            j += 1
    k_seq = list(select) if select else [None]
    return [
        Cell(_float(c), _float(g), _float(p), ints, _float(w), None if w is None else label, k)
        for k in k_seq
        for w in w_seq
        for p in p_seq
        for c, g in pairs
    ]


def _float(v):
    return None if v is None else float(v)


# --- the -out file ---------------------------------------------------------------------------
def shown_value(value: float, resumed: bool = False) -> str:
    """A cell's value as grid.py's lines carry it: svm-train prints rates with ``%g`` and
    grid.py writes back the float it read, so a value computed here is shown with six
    significant digits as Python writes that float (``85.1852``, ``100.0``, ``0.712345``,
    ``nan``); a value read from a ``-out`` file (``resumed``) as the float read."""
    return str(float(value)) if resumed else str(float(f"{value:g}"))


def out_line(cell: Cell, value: float, resumed: bool = False) -> str:
    """One ``-out`` line as grid.py writes it (Python's ``str`` of each float; ``resumed``: a
    value read from a ``-out`` file)."""
    text = "".join(
        f"{cell.key(axis)}={cell.log2_text(axis)} "
        for axis in AXES
        if getattr(cell, axis) is not None
    )
    return text + f"rate={shown_value(value, resumed)}\n"


#: the line an ``-out`` file has before its first cell written out of the search's order (grid.py's
#: reader skips it): a search resumed from the file takes the cells before it in the file's
#: order, as grid.py, and every other cell in grid.py's job order
ORDER_LINE = "# svmeval-grid: the cells below are taken in grid.py's job order\n"


class OutCells(dict):
    """The cells of a ``-out`` file (cell -> value, in the file's order); ``head``: how many
    come before its :data:`ORDER_LINE` (all of them when it has none)."""

    head: int = 0


#: the criterion a ``-out`` file holds, on a line of its own that grid.py's reader skips (it
#: reads only lines with ``rate=``); a file without one holds accuracy, as grid.py's files
CRITERION_LINE = "# svmeval-grid criterion "
GRID_PY_CRITERION = "accuracy"


def criterion_line(criterion: str) -> str:
    """The line that opens a new ``-out`` file of ``criterion`` ("" for accuracy: grid.py's
    files stay byte for byte grid.py's)."""
    return "" if criterion == GRID_PY_CRITERION else f"{CRITERION_LINE}{criterion}\n"


PREPROCESSING_LINE = "# svmeval-grid preprocessing "


def preprocessing_line(learned: str) -> str:
    """The line that records a search's preprocessing inside the folds in its ``-out`` file
    (``learned``: :meth:`~svmeval.preprocess.Preprocessing.key`; "" for none: no line)."""
    return f"{PREPROCESSING_LINE}{learned}\n" if learned else ""


def out_preprocessing(text: str) -> str | None:
    """The preprocessing a ``-out`` file's text records (None where it records none)."""
    for line in text.split("\n")[:-1]:
        if line.startswith(PREPROCESSING_LINE):
            return line[len(PREPROCESSING_LINE) :].strip()
    return None


_NUMBER = r"[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|nan|inf)"
_FIELDS = {
    name: re.compile(rf"(?<![A-Za-z0-9_]){name}=({_NUMBER})")
    for name in ("log2c", "log2g", "log2p", "rate")
}
#: a weight cell's field: ``log2w`` and the class (svm-train's ``-wLABEL``), then the value
_WEIGHT_FIELD = re.compile(rf"(?<![A-Za-z0-9_])log2w([-+]?[0-9]+)=({_NUMBER})")
#: a size cell's field: ``select=K``
_SELECT_FIELD = re.compile(r"(?<![A-Za-z0-9_])select=([0-9]+)(?![0-9.eE])")


def parse_out(text: str) -> OutCells:
    """The cells of a ``-out`` file (svmeval-grid's or grid.py's): lines without ``rate=`` are
    skipped, as grid.py skips them; a cell given twice keeps its last value, its first place;
    a last line without its newline (a run stopped while writing it) is left out. ``head`` of
    the result: the cells before the file's :data:`ORDER_LINE`."""
    cells = OutCells()
    head = None
    lines = text.split("\n")[:-1]  # the part after the last newline is not a whole line
    for line in lines:
        if head is None and line == ORDER_LINE[:-1]:
            head = len(cells)
            continue
        found = {name: rx.search(line) for name, rx in _FIELDS.items()}
        rate = found["rate"]
        if not rate:
            continue
        value = {name: (float(m.group(1)) if m else None) for name, m in found.items()}
        weight = _WEIGHT_FIELD.search(line)
        size = _SELECT_FIELD.search(line)
        cell = Cell(
            value["log2c"],
            value["log2g"],
            value["log2p"],
            log2w=float(weight.group(2)) if weight else None,
            w_label=int(weight.group(1)) if weight else None,
            select=int(size.group(1)) if size else None,
        )
        cells[cell] = float(rate.group(1))
    cells.head = len(cells) if head is None else head
    return cells


def out_criterion(text: str) -> str:
    """The criterion a ``-out`` file's text records (accuracy where it records none)."""
    for line in text.split("\n")[:-1]:
        if line.startswith(CRITERION_LINE):
            return line[len(CRITERION_LINE) :].strip()
    return GRID_PY_CRITERION


#: the most of a file ``-resume`` reads: a million cells' lines and more
MAX_OUT_BYTES = 64 << 20


def read_out_text(path: str) -> str:
    """A ``-out`` file's text, read up to :data:`MAX_OUT_BYTES` (``-resume /dev/zero`` is
    refused, not read for ever)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_OUT_BYTES + 1)
    except OSError as exc:
        raise SvmevalError(
            f"{show_path(path)}: cannot read the file to resume from: {exc.strerror or exc}"
        ) from None
    if len(data) > MAX_OUT_BYTES:
        raise SvmevalError(
            f"{show_path(path)}: more than {MAX_OUT_BYTES >> 20} MB: not a -out file to resume from"
        )
    return data.decode("utf-8", errors="replace")


def read_out(path: str) -> OutCells:
    """:func:`parse_out` of a file."""
    return parse_out(read_out_text(path))


def read_resume(
    path: str, criterion: str, weight: int | None = None, learned: str = "", sizes: bool = False
) -> OutCells:
    """The cells of a ``-out`` file to resume a search of ``criterion`` from; a file that
    records another criterion is refused (its values are not comparable), and so is a file
    of another weight axis than the search's (``weight``: the class whose weight it
    searches, None for none; :func:`check_resume_shape`), and one whose cells learned
    another preprocessing inside the folds (``learned``, "" for none) or none, and one whose
    cells name no size where the search searches sizes (``sizes``), or the reverse."""
    text = read_out_text(path)
    cells = parse_out(text)
    check_learned(path, text, cells, learned)
    recorded = out_criterion(text)
    if cells and recorded != criterion:
        raise SvmevalError(
            f"{show_path(path)}: holds {recorded} values; resuming with "
            f"--criterion {criterion} would mix the two (give --criterion "
            f"{recorded}, or another -out file)"
        )
    problem = check_resume_shape(cells, weight, sizes)
    if problem:
        if any((c.select is not None) != sizes for c in cells):
            raise SvmevalError(
                f"{show_path(path)}: {problem} (give the same --select, or another -out file)"
            )
        label = next(c.w_label for c in cells if c.w_label != weight)
        hint = "without -log2w" if label is None else f"with -log2w {label}"
        raise SvmevalError(
            f"{show_path(path)}: {problem} (resume {hint}, or from another -out file)"
        )
    return cells


def check_learned(path: str, text: str, cells, learned: str) -> None:
    """Refuses a ``-out`` file (``text``, its ``cells``) whose cells learned another
    preprocessing inside the folds than ``learned`` ("" for none), or none where the search
    learns one: a plain search's cells are never mixed with those of a search with
    preprocessing, nor the reverse."""
    recorded = out_preprocessing(text)
    if (cells or recorded is not None) and (recorded or "") != learned:
        had = f"cells that learned {recorded} inside the folds" if recorded else "plain cells"
        now = f"learning {learned}" if learned else "without preprocessing"
        raise SvmevalError(
            f"{show_path(path)}: holds {had}; a search {now} cannot take them "
            "(give the same options, or another -out file)"
        )


def _weights_of(label: int | None) -> str:
    return (
        "without a class weight" if label is None else f"of class {label}'s weight (log2w{label})"
    )


def check_resume_shape(cells, weight: int | None, sizes: bool = False) -> str:
    """What is wrong with resuming a search of the weight of class ``weight`` (None: a search
    without a weight axis) from ``cells`` ("" where nothing is): a cell of another weight
    axis (a C x gamma cell in a weight search, or the reverse, or another class's weight)
    would be compared with cells it does not match; so would a cell of one size in a search
    without sizes (``sizes`` False), or a cell without a size in a search of sizes."""
    for cell in cells:
        if (cell.select is not None) != sizes:
            had = "of one size each (select=K)" if cell.select is not None else "without a size"
            now = "of the number of features" if sizes else "without a list of sizes"
            return f"holds cells {had}; a search {now} cannot take them"
    for cell in cells:
        if cell.w_label != weight:
            return (
                f"holds cells {_weights_of(cell.w_label)}; "
                f"a search {_weights_of(weight)} cannot take them"
            )
    return ""


def stdout_line(
    worker: str,
    cell: Cell,
    value: float,
    best: Cell,
    best_value: float,
    *,
    best_resumed: bool = False,
) -> str:
    """grid.py's line for a finished cell: ``[local] log2c log2g rate (best c=…, g=…, rate=…)``
    (an axis not searched is left out, as grid.py leaves it); worker "resumed" for a cell read
    from a ``-out`` file, ``best_resumed`` when the best cell was."""
    logs = [cell.log2_text(axis) for axis in AXES if getattr(cell, axis) is not None]
    text = f"[{worker}] {' '.join(logs)} {shown_value(value, worker == 'resumed')} (best "
    for axis in AXES:  # the best cell has the same axes
        if axis == "select" and cell.select is not None:
            text += f"select={best.select}, "
        elif axis == "p_value" and cell.p_value is not None:
            text += f"p={best.p_value}, "
        elif getattr(cell, axis) is not None:
            name = f"w{best.w_label}" if axis == "log2w" else axis[-1]
            text += f"{name}={2.0 ** getattr(best, axis)}, "
    return text + f"rate={shown_value(best_value, best_resumed)})"


def last_line(best: Cell, best_value: float, *, resumed: bool = False) -> str:
    """grid.py's last line: the best C and gamma themselves (not their logs), then (searched)
    epsilon or the class weight, then the size K, then the rate (``resumed``: the best cell
    was read from a ``-out`` file)."""
    values = [v for v in (best.C, best.gamma, best.p, best.w, best.select) if v is not None]
    return f"{' '.join(map(str, values))} {shown_value(best_value, resumed)}"

"""grid.py's best cell, reproduced, for any figure.

A cell becomes the best when its rate is strictly greater, or equal at the same gamma with a
smaller C (LIBSVM's ``tools/grid.py``, ``update_param``); cells are taken in grid.py's job order
(:func:`~svmeval.workflows.grid_rules.job_order`), so the answer is what grid.py with one local
worker finds. svmeval generalises the comparison to any figure: "better" follows the figure's
direction (``greater_is_better`` in the metrics registry), and an undefined value (NaN) ranks
below every number. With accuracy the value compared is svm-train's printed rate
(:func:`accuracy_rate`), as grid.py parses it. Ties need the same gamma and every other
searched axis (a cell's ``tie``: epsilon, the class weight, the size K).

A cell is a :class:`~svmeval.workflows.grid_rules.Cell` (its ``log2c`` and its ``tie``); a
search keeps its cells' results in :class:`Cells`, and the best of those known as they arrive
in any order in :class:`Leader`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["Cells", "Leader", "accuracy_rate", "choose_best", "is_better", "wins"]


def accuracy_rate(correct: int, n: int) -> float:
    """svm-train's ``Cross Validation Accuracy = %g%%`` as grid.py reads it back: six
    significant digits."""
    return float(f"{100.0 * correct / n:g}")


def is_better(value: float, best: float, greater_is_better: bool) -> bool:
    """Strictly better; an undefined value (NaN) is below every number."""
    if math.isnan(value):
        return False
    if math.isnan(best):
        return True
    return value > best if greater_is_better else value < best


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def wins(cell, value: float, best_cell, best_value: float, greater_is_better: bool) -> bool:
    """grid.py's ``update_param``: does ``cell`` replace the best so far?"""
    if best_cell is None:
        return True
    if is_better(value, best_value, greater_is_better):
        return True
    return (
        _same(value, best_value)
        and cell.tie == best_cell.tie
        and cell.log2c is not None
        and best_cell.log2c is not None
        and cell.log2c < best_cell.log2c
    )


class Leader:
    """The best of the cells known so far, as grid.py's rule would pick it taking them in the
    search's order, kept as cells arrive in any order (each with its place in that order).

    Taking cells in order, the first cell of the best value V wins and is then replaced only by
    cells of value V with the same gamma (and epsilon) and a smaller C. So the best is: F, the
    earliest cell of value V; or, where F's C is searched, the cell of value V with F's gamma
    and epsilon and the smallest C. That holds whatever the order the cells are known in, and
    costs O(1) a cell (:func:`choose_best` over the cells in order gives the same cell)."""

    def __init__(self, greater_is_better: bool):
        self.greater = greater_is_better
        self.value = math.nan
        self.first: tuple | None = None  # (place, cell, item) of F
        self.smallest_c: dict = {}  # (log2g, log2p, log2w) -> (cell, item) of value V, smallest C
        self.best: Any = None  # the item of the best cell so far

    def add(self, cell, value: float, place: int, item: Any = None) -> Any:
        """Take ``cell``'s ``value`` (``place``: its place in the search's order; ``item``:
        what :attr:`best` gives for it, the cell itself by default); return the best item."""
        item = cell if item is None else item
        if self.first is None or is_better(value, self.value, self.greater):
            self.value, self.first, self.smallest_c = value, (place, cell, item), {}
        elif not _same(value, self.value):
            return self.best
        elif place < self.first[0]:
            self.first = (place, cell, item)
        if cell.log2c is not None:
            key = cell.tie
            held = self.smallest_c.get(key)
            if held is None or cell.log2c < held[0].log2c:
                self.smallest_c[key] = (cell, item)
        _, f, f_item = self.first
        self.best = f_item if f.log2c is None else self.smallest_c[f.tie][1]
        return self.best


class Cells:
    """The cells of a search and what is known of them. A result is anything with the
    ``cell`` it is of and its ``value``; ``resumed`` holds those of the cells already known
    (cell -> result), in their file's order.

    ``order``: the order the best is decided in, grid.py's: the resumed cells first, in their
    file's order, then the others in grid.py's job order; but the resumed cells after the
    first ``head`` ones (those after an :data:`ORDER_LINE` of an ``-out`` file) keep their
    places in the job order, so that a search resumed from a file written out of that order
    ends on the answer of the search that wrote it. :meth:`release` takes each cell's result
    when it is finished, in any order: ``on_cell(result, best so far)`` at once (the best of
    the cells known, as if taken in ``order``); :attr:`best` is the whole search's."""

    def __init__(
        self,
        order: list,
        resumed: dict,
        greater: bool,
        on_cell: Callable | None,
        head: int | None = None,
    ):
        listed = list(resumed)
        head = len(listed) if head is None else head
        in_grid = set(order)
        lead = listed[:head] + [c for c in listed[head:] if c not in in_grid]
        taken = set(lead)
        self.order = lead + [c for c in order if c not in taken]
        self.place = {c: k for k, c in enumerate(self.order)}
        self.resumed = dict(resumed)
        self.results: dict[Any, Any] = {}
        self.greater = greater
        self.on_cell = on_cell
        self.leader = Leader(greater)
        self._next = 0  # the first place whose cell is not known yet

    def todo(self) -> list:
        """The cells to search, in ``order``."""
        return [c for c in self.order if c not in self.resumed]

    def start(self) -> None:
        """Release the resumed cells, in their file's order (grid.py's ``[resumed]`` lines)."""
        for r in self.resumed.values():
            self.release(r)

    def ahead(self, cell) -> bool:
        """Whether ``cell``, not yet known, comes after a cell not known either."""
        return self.place[cell] > self._next

    def release(self, r) -> None:
        """A cell's result, at once: kept, and ``on_cell(r, best so far)`` (a cell known
        already is left alone)."""
        if r.cell in self.results:
            return
        self.results[r.cell] = r
        while self._next < len(self.order) and self.order[self._next] in self.results:
            self._next += 1
        best = self.leader.add(r.cell, r.rate, self.place[r.cell], r)
        if self.on_cell:
            self.on_cell(r, best)

    @property
    def best(self) -> Any:
        """The best of the cells known, taken in ``order`` (grid.py's rule, its job order)."""
        known = [self.results[c] for c in self.order if c in self.results]
        k = choose_best([r.cell for r in known], [r.rate for r in known], self.greater)
        return None if k is None else known[k]


def choose_best(cells, values, greater_is_better: bool = True) -> int | None:
    """The index of the best cell, taking ``cells`` in the given order (grid.py's)."""
    best = None
    for k, (cell, value) in enumerate(zip(cells, values)):
        if wins(
            cell,
            value,
            None if best is None else cells[best],
            math.nan if best is None else values[best],
            greater_is_better,
        ):
            best = k
    return best

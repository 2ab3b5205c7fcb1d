"""Folds that are not LIBSVM's: a fold assignment given by the user, or groups kept whole.

A :class:`FoldSource` is read and checked before any work (:func:`fold_source`): a file of
one fold id (1..k, the format ``svmeval --folds FILE`` writes) or one group id (any text) per
data row, an array of fold or group ids, or scikit-learn's ``(train, test)`` index pairs.
:meth:`FoldSource.folds` gives the :class:`~svmeval.cv.collect.results.Folds` of a seed: the given
folds as they are, or groups assigned to k folds so that no group is split, the classes are
balanced across folds as well as the groups allow, and the fold sizes too
(:func:`grouped_assignment`). Every fold of such folds trains on its training rows in
ascending row order, as scikit-learn's splitters list them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from svmeval.cv.collect.results import Folds
from svmeval.errors import ArgumentError, DataFormatError, SvmevalError, show_path

GIVEN, GROUPS = "given", "groups"

#: a fold assignment as a run takes it: a file name, or ids (one a row), or (train, test) pairs
FoldAssignment = str | os.PathLike | Iterable


@dataclass(frozen=True, eq=False)
class FoldSource:
    """Where a run's folds come from when they are not LIBSVM's.

    ``kind``: ``"given"`` (``codes`` is each row's fold, 0..k-1) or ``"groups"`` (``codes``
    is each row's group, 0..g-1, groups numbered in order of first appearance). ``names``:
    the fold or group ids as given (text). ``origin``: the file read (``""``: an array).
    ``argument``: the library's word for it (messages name it).
    """

    kind: str
    codes: np.ndarray
    names: tuple
    origin: str = ""
    argument: str = ""

    @property
    def n_rows(self) -> int:
        return len(self.codes)

    @property
    def n_groups(self) -> int:
        """Groups (the folds given, for ``"given"``)."""
        return len(self.names)

    @property
    def grouped(self) -> bool:
        return self.kind == GROUPS

    def check_rows(self, n: int) -> None:
        """Refuse an assignment whose length is not the data's ``n`` rows."""
        if self.n_rows == n:
            return
        if self.origin:
            line = min(self.n_rows, n) + 1
            what = "no line for data row" if self.n_rows < n else "more lines than the data's"
            tail = f" {line}" if self.n_rows < n else f" {n} rows"
            raise DataFormatError(
                self.origin, line, f"{what}{tail} (the file has {self.n_rows}, the data {n})"
            )
        raise ArgumentError(
            self.argument, f"has {self.n_rows} entries; the data have {n} rows (one a row)"
        )

    def folds(self, y: np.ndarray, folds: int, seed: int, classification: bool) -> Folds:
        """The folds of this source for ``folds`` folds and ``seed`` (given folds: as
        given, whatever both are)."""
        self.check_rows(len(y))
        if self.kind == GIVEN:
            fold = self.codes
        else:
            if folds > self.n_groups:
                raise ArgumentError(
                    self.argument,
                    f"{folds} folds need at least {folds} groups; there are {self.n_groups}",
                )
            classes = _class_codes(y) if classification else np.zeros(len(y), dtype=np.int64)
            fold = grouped_assignment(self.codes, classes, folds, seed)
        return folds_of(fold, self)

    def check_training(self, y: np.ndarray, classification: bool, folds: Folds) -> None:
        """Refuse folds whose training side holds fewer than two classes (classification):
        LIBSVM would train no classifier on it."""
        if not classification:
            return
        for i in range(folds.n_folds):
            train = folds.train(i)
            if len(np.unique(y[train])) < 2:
                row = int(folds.test(i).min()) + 1
                self._refuse(
                    row,
                    f"fold {self._fold_name(i)}'s training rows hold "
                    f"{'no class' if len(train) == 0 else 'one class only'} "
                    "(every fold's training side needs two classes)",
                )

    def _fold_name(self, i: int) -> str:
        return str(self.names[i]) if self.kind == GIVEN else str(i + 1)

    def _refuse(self, row: int, message: str) -> None:
        if self.origin:
            raise DataFormatError(self.origin, row, message)
        raise ArgumentError(self.argument, f"row {row}: {message}")


def folds_of(fold: np.ndarray, source: FoldSource | None = None) -> Folds:
    """:class:`Folds` testing rows ``fold == i`` in fold ``i``, each fold's training rows in
    ascending row order."""
    fold = np.asarray(fold, dtype=np.int64)
    perm = np.argsort(fold, kind="stable")
    counts = np.bincount(fold, minlength=int(fold.max()) + 1 if len(fold) else 0)
    fold_start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return Folds(perm, fold_start, False, source=source)


def _class_codes(y: np.ndarray) -> np.ndarray:
    """Each row's class as LIBSVM groups classes, ``(int)y``, as codes 0..m-1."""
    keys = np.trunc(np.asarray(y, dtype=np.float64))
    return np.unique(keys, return_inverse=True)[1].reshape(-1).astype(np.int64)


def grouped_assignment(groups: np.ndarray, classes: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Each row's fold, 0..k-1: every group in one fold, the classes balanced across folds as
    well as the groups allow and, among assignments as balanced, the fold sizes; the same
    for the same seed.

    Two measures, the first one first (lexicographically): the classes'
    ``sum over folds f and classes c of (n[f, c] - N[c] / k)**2`` (n[f, c]: rows of class c
    in fold f, N[c]: rows of class c), then the sizes' ``sum over folds of
    (size[f] - n / k)**2``. The groups, shuffled by ``seed`` (numpy's PCG64) then sorted by
    size (largest first, a stable sort), go one by one to the fold where the measures grow
    least (ties: the lower fold; an empty fold first while one is left); then a group is
    moved to another fold, or two groups of two folds swapped, while that lowers the
    measures and leaves no fold empty. Integer arithmetic (every count times k): exact.
    """
    n_groups = int(groups.max()) + 1
    n_classes = int(classes.max()) + 1
    counts = np.zeros((n_groups, n_classes))
    np.add.at(counts, (groups, classes), 1.0)
    sizes = counts.sum(axis=1)
    # a group's vector, times k: its class counts, then its size; the ideal fold's, times k
    vec = np.column_stack((counts, sizes)) * k
    ideal = vec.sum(axis=0) / k
    rng = np.random.Generator(np.random.PCG64(seed))
    order = rng.permutation(n_groups)
    order = order[np.argsort(-sizes[order], kind="stable")]
    load = np.zeros((k, vec.shape[1]))
    members = np.zeros(k, dtype=np.int64)
    where = np.empty(n_groups, dtype=np.int64)
    for g in order:
        grow = _growth(vec[g], load - ideal)
        empty = members == 0
        candidates = np.flatnonzero(empty) if empty.any() else np.arange(k)
        f = int(candidates[np.lexsort((candidates, grow[candidates, 1], grow[candidates, 0]))[0]])
        where[g] = f
        load[f] += vec[g]
        members[f] += 1
    _improve(vec, ideal, load, members, where)
    return where[groups]


def _growth(v: np.ndarray, dev: np.ndarray) -> np.ndarray:
    """What adding ``v`` to each fold (deviations ``dev``) adds to the two measures: one row
    a fold, (classes, sizes)."""
    grow = v * (2 * dev + v)
    return np.column_stack((grow[:, :-1].sum(axis=1), grow[:, -1]))


def _better(gain: np.ndarray) -> np.ndarray:
    """Which (classes, sizes) gains lower the measures: the classes', or the sizes' at an
    equal classes' (integers: exact)."""
    return (gain[:, 0] > 0) | ((gain[:, 0] == 0) & (gain[:, 1] > 0))


def _best(gain: np.ndarray) -> int:
    """The row of the largest gain, classes first."""
    return int(np.lexsort((-gain[:, 1], -gain[:, 0]))[0])


def _improve(vec, ideal, load, members, where, max_rounds: int = 100) -> None:
    """Moves and swaps of groups that lower the measures, until none does (in place)."""
    n_groups = len(vec)
    # groups of one fold with the same counts have the same moves and swaps: each such kind
    # is tried once a round (thousands of one-row groups are a handful of kinds)
    kind = np.unique(vec, axis=0, return_inverse=True)[1].reshape(-1)
    for _ in range(max_rounds):
        better = False
        tried: set = set()
        for g in range(n_groups):
            a, v = int(where[g]), vec[g]
            if (a, int(kind[g])) in tried:
                continue
            tried.add((a, int(kind[g])))
            dev = load - ideal
            if members[a] > 1:  # move g from a to another fold
                gain = -_growth(-v, dev[a : a + 1]) - _growth(v, dev)
                ok = _better(gain)
                ok[a] = False
                if ok.any():
                    rows = np.flatnonzero(ok)
                    b = int(rows[_best(gain[rows])])
                    load[a] -= v
                    load[b] += v
                    members[a] -= 1
                    members[b] += 1
                    where[g] = b
                    better = True
                    continue
            others = np.flatnonzero(where != a)  # swap g with a group h of another fold
            if not len(others):
                continue
            # one group of each kind in each other fold (the first, in group order)
            _, first = np.unique(
                where[others] * (int(kind.max()) + 1) + kind[others], return_index=True
            )
            others = others[np.sort(first)]
            d = vec[others] - v  # what fold a gains and the other fold loses
            fb = where[others]
            grow_a = d * (2 * dev[a] + d)
            grow_b = -d * (2 * dev[fb] - d)
            grow = grow_a + grow_b
            gain = -np.column_stack((grow[:, :-1].sum(axis=1), grow[:, -1]))
            ok = _better(gain)
            if ok.any():
                rows = np.flatnonzero(ok)
                j = int(rows[_best(gain[rows])])
                h, b = int(others[j]), int(fb[j])
                load[a] += d[j]
                load[b] -= d[j]
                where[g], where[h] = b, a
                better = True
        if not better:
            return


# --- reading and checking ------------------------------------------------------------------------
def _read_lines(path: str) -> list[str]:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as error:
        raise SvmevalError(f"{show_path(path)}: cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad_line = raw[: error.start].count(b"\n") + 1
        raise DataFormatError(path, bad_line, "not UTF-8 text") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for number, line in enumerate(lines, 1):
        item = line.rstrip("\r").strip()
        if not item:
            raise DataFormatError(path, number, "empty line (one id a line, one line a row)")
        out.append(item)
    return out


def _codes(values) -> tuple[np.ndarray, tuple]:
    """Codes 0..g-1 in order of first appearance, and the values in that order."""
    index: dict = {}
    codes = np.fromiter(
        (index.setdefault(v, len(index)) for v in values), dtype=np.int64, count=len(values)
    )
    return codes, tuple(index)


def groups_source(groups, argument: str = "groups") -> FoldSource:
    """``groups`` (a file of one id a line, or an array-like of ids, any hashable) as a
    :class:`FoldSource` of kind ``"groups"``."""
    if isinstance(groups, (str, os.PathLike)):
        path = os.fspath(groups)
        codes, names = _codes(_read_lines(path))
        return FoldSource(GROUPS, codes, names, path, argument)
    values = _as_list(groups, argument)
    codes, names = _codes(values)
    return FoldSource(GROUPS, codes, tuple(str(v) for v in names), "", argument)


def _as_list(values, argument: str) -> list:
    if hasattr(values, "tolist"):
        values = values.tolist()
    try:
        values = list(values)
    except TypeError:
        raise ArgumentError(
            argument, f"must be a file name or a sequence, got {values!r}"
        ) from None
    for i, v in enumerate(values):
        if isinstance(v, float) and v != v:
            raise ArgumentError(argument, f"row {i + 1}: NaN is no id")
        try:
            hash(v)
        except TypeError:
            raise ArgumentError(argument, f"row {i + 1}: {v!r} is no id (not hashable)") from None
    return values


def given_source(given, n_rows: int, argument: str = "given_folds") -> FoldSource:
    """``given`` as a :class:`FoldSource` of kind ``"given"``: a file of one fold id a line
    (1..k, every fold with a row: ``svmeval --folds FILE``'s format), an array of fold ids
    (any integers; the folds in ascending order of id) or an iterable of ``(train, test)``
    index pairs whose test sets partition the rows, each training set the rest."""
    if isinstance(given, (str, os.PathLike)):
        path = os.fspath(given)
        lines = _read_lines(path)
        ids = []
        for number, text in enumerate(lines, 1):
            if not text.isdigit() or text.startswith("0") or len(text) > 9:
                raise DataFormatError(
                    path, number, f"fold {text[:40]!r} is not a fold number (1, 2, ...)"
                )
            ids.append(int(text))
        fold = np.array(ids, dtype=np.int64) - 1
        k = int(fold.max()) + 1 if len(fold) else 0
        present = np.bincount(fold, minlength=k) if k else np.zeros(0, dtype=np.int64)
        empty = np.flatnonzero(present == 0)
        if len(empty):
            raise DataFormatError(path, None, f"fold {int(empty[0]) + 1} has no row (folds 1..{k})")
        source = FoldSource(GIVEN, fold, tuple(str(i + 1) for i in range(k)), path, argument)
    else:
        source = _given_values(given, n_rows, argument)
    if n_rows >= 0:
        source.check_rows(n_rows)
    if source.n_groups < 2:
        source._refuse(1, f"{source.n_groups} fold: cross-validation needs at least 2")
    return source


def _given_values(given, n_rows: int, argument: str) -> FoldSource:
    items = list(given) if not hasattr(given, "tolist") else None
    if items is not None and items and _is_pair(items[0]):
        return _from_pairs(items, n_rows, argument)
    arr = np.asarray(given if items is None else items)
    if arr.ndim != 1 or arr.dtype.kind not in "iub":
        raise ArgumentError(
            argument, "must be one integer fold id a row or (train, test) index pairs"
        )
    ids, fold = np.unique(arr.astype(np.int64), return_inverse=True)
    return FoldSource(
        GIVEN, fold.reshape(-1).astype(np.int64), tuple(str(i) for i in ids), "", argument
    )


def _is_pair(item) -> bool:
    return isinstance(item, (tuple, list)) and len(item) == 2 and np.ndim(item[0]) == 1


def _from_pairs(pairs: list, n: int, argument: str) -> FoldSource:
    fold = np.full(n, -1, dtype=np.int64)
    for i, pair in enumerate(pairs):
        if not _is_pair(pair):
            raise ArgumentError(argument, f"item {i + 1} is no (train, test) pair of index arrays")
        train, test = (np.asarray(p) for p in pair)
        for name, part in (("train", train), ("test", test)):
            if part.dtype.kind not in "iu" and len(part):
                raise ArgumentError(argument, f"pair {i + 1}: {name} indices must be integers")
            if len(part) and (part.min() < 0 or part.max() >= n):
                raise ArgumentError(
                    argument, f"pair {i + 1}: {name} index out of range (the data have {n} rows)"
                )
        if not len(test):
            raise ArgumentError(argument, f"pair {i + 1}: the test set has no row")
        twice = test[fold[test] >= 0]
        if len(twice) or len(np.unique(test)) < len(test):
            row = int(twice[0]) if len(twice) else int(test[0])
            raise ArgumentError(
                argument,
                f"row {row + 1} is tested twice: the test sets must partition the rows",
            )
        fold[test] = i
        rest = np.setdiff1d(np.arange(n), test)
        if len(train) != len(rest) or not np.array_equal(np.sort(train), rest):
            raise ArgumentError(
                argument,
                f"pair {i + 1}: the training set must be every row its test set leaves out",
            )
    untested = np.flatnonzero(fold < 0)
    if len(untested):
        raise ArgumentError(
            argument,
            f"row {int(untested[0]) + 1} is in no test set: the test sets must partition the rows",
        )
    return FoldSource(GIVEN, fold, tuple(str(i + 1) for i in range(len(pairs))), "", argument)


def fold_source(groups=None, given_folds=None, n_rows: int | None = None) -> FoldSource | None:
    """The run's :class:`FoldSource` from its ``groups`` and ``given_folds`` arguments (None:
    LIBSVM's folds), read and checked; ``n_rows``: the data's rows, where known."""
    if groups is not None and given_folds is not None:
        raise ArgumentError("given_folds", "give groups or given_folds, not both")
    if groups is None and given_folds is None:
        return None
    source = (
        groups_source(groups)
        if groups is not None
        else given_source(given_folds, -1 if n_rows is None else n_rows)
    )
    if n_rows is not None:
        source.check_rows(n_rows)
    return source


def repeated_fold_source(groups, given_folds, n_rows: int, repeat: int) -> FoldSource | None:
    """:func:`fold_source` of a run of ``repeat`` repetitions: folds given need one."""
    source = fold_source(groups, given_folds, n_rows)
    if source is not None and not source.grouped and repeat != 1:
        raise ArgumentError(
            "repeat", "must be 1 with given_folds: every repetition would have the same folds"
        )
    return source

"""The evaluation core and the results store (:mod:`svmeval.store`): which folds a run finds
stored, and each fold written as it ends.

A unit of the store is one fold of one (candidate, seed) cross-validation. Its key
(:meth:`StoreUse.key`) holds everything that fold's output depends on: the data's digest
(:meth:`~svmeval.io.data.Dataset.digest`) and the digest of the labels trained on (a
permutation test's unit: its permuted labels, so that it is never taken for the data's own
cross-validation, nor for another permutation or seed), the resolved
LIBSVM parameters (the cache size left out), the folds asked for and the seed (which fix the
fold plan, drawn by LIBSVM's rule; folds given or grouped add the digest of every row's fold
and their kind), the fold's number, whether the one-vs-one decision values
are kept, LIBSVM's version and the version of svmeval's results
(:data:`~svmeval.store.RESULTS_VERSION`). Its value is the fold's test rows' output
(:class:`~svmeval.cv.plan.cv_plan.FoldOutput`) and its training time.

:func:`~svmeval.cv.run.evaluate.evaluate` is the one place every run goes through: it asks
:meth:`StoreUse.find` for each unit's folds before the executor runs anything, hands units
whose folds are all stored straight to ``finish``, lets the executor compute only the missing
folds of the others, and writes every fold computed (:meth:`StoreUse.write`), each in its own
transaction, in the calling thread, as the executor reports it done. A ``-b 1`` unit's folds
run in order after one ``srand``: they are reused all together or computed all together, and
written in one transaction.

A stored fold is checked against the run before it is used: its arrays' names, dtypes and
shapes (by the store), every prediction one of the data's classes (finite for regression),
probabilities in [0, 1], decision values and scores finite or NaN. A fold that fails is a
:class:`~svmeval.store.StoreError`: the run stops, and the store is left as it is (delete the
units, or use another store).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import numpy as np

from svmeval.cv.plan import cv_plan
from svmeval.cv.plan.cv_plan import FoldOutput, libsvm_label_order
from svmeval.cv.run.store_session import StoreCounts, current, missing

__all__ = ["FoldsUnit", "StoreUse", "outer_fold"]

_ARRAYS = ("y_pred", "decision_values", "scores", "probabilities")


#: the stored folds a run reads in one query (and holds at once, before they are checked and
#: put into their units)
WINDOW = 500


class StoreUse:
    """One evaluation's use of a store: the key fields its units share, the lookups and the
    writes, counted into the run's :class:`StoreCounts`."""

    def __init__(
        self,
        counts: StoreCounts,
        dataset,
        problem,
        folds: int,
        keep_dv: bool,
        kind: str = "cv-fold",
        data_digest: str | None = None,
        preprocessing: str | None = None,
    ):
        from svmeval.cv import _libsvm
        from svmeval.store import RESULTS_VERSION

        self.counts, self.store = counts, counts.store
        counts.uses("libsvm", _libsvm.libsvm_version())
        self.problem, self.folds, self.keep_dv = problem, folds, bool(keep_dv)
        y = np.ascontiguousarray(problem.y, dtype="<f8")
        self.common = {
            "unit": kind,
            "data": data_digest or dataset.digest(),
            "labels": hashlib.sha256(y.tobytes()).hexdigest(),
            "n_folds": int(folds),
            "keep_decision_values": self.keep_dv,
            "libsvm": int(_libsvm.libsvm_version()),
            "results": RESULTS_VERSION,
        }
        if preprocessing:  # learned inside each fold (a key without it: the data as read)
            self.common["preprocessing"] = preprocessing
        self.data_name = str(getattr(dataset, "name", ""))
        self._labels = libsvm_label_order(y)
        self._label_set = set(self._labels.tolist())  # NaN in no set: a NaN prediction fails
        self._keys: dict = {}  # (unit, fold) -> (key, fields)
        self._by_params: dict = {}  # id(params) -> (params, key's params, flags)
        self._by_labels: dict = {}  # id(y) -> (y, its digest): a unit's own labels
        self._by_folds: dict = {}  # id(folds) -> (folds, its digest): folds not LIBSVM's
        # the keys of the units prefetched, in their order, and each key's first place in it;
        # the stored rows of a window of them (read a window at a time: memory stays bounded)
        self._order: list | None = None
        self._place: dict = {}
        self._window: dict = {}
        self._window_keys: frozenset = frozenset()
        self.written: dict = {}  # unit -> folds written or found

    def key(self, unit, fold: int) -> tuple[str, dict]:
        """The store's key of ``unit``'s fold ``fold``, and the fields it is the digest of."""
        found = self._keys.get((unit, fold))
        if found is not None:
            return found
        from svmeval.store import unit_key

        params, _ = self._params(unit.params)
        fields = {**self._common(unit), "params": params, "seed": int(unit.seed), "fold": int(fold)}
        found = self._keys[unit, fold] = (unit_key(fields), fields)
        return found

    def keys(self, unit) -> list[str]:
        """The keys of every fold of ``unit`` (:meth:`key`'s, the unit's JSON made once)."""
        from svmeval.store import unit_key

        n = unit.folds.n_folds
        if n < 3:
            return [self.key(unit, i)[0] for i in range(n)]
        params, _ = self._params(unit.params)
        fields = {**self._common(unit), "params": params, "seed": int(unit.seed), "fold": 0}
        text = unit_key(fields, text=True)
        head, _, tail = text.partition('"fold":0,')
        out = []
        for i in range(n):
            key = hashlib.sha256(f'{head}"fold":{i},{tail}'.encode()).hexdigest()
            self._keys[unit, i] = (key, {**fields, "fold": i})
            out.append(key)
        return out

    def _common(self, unit) -> dict:
        """The key fields ``unit`` shares with the evaluation's others, the digest of its
        own labels in place of the data's where it has them (:attr:`Unit.y`)."""
        y = getattr(unit, "y", None)
        common = self.common
        folds = getattr(unit, "folds", None)
        if folds is not None and folds.source is not None:
            common = {**common, "folds": self._folds_digest(folds)}
        if y is None:
            return common
        found = self._by_labels.get(id(y))
        if found is None or found[0] is not y:
            digest = hashlib.sha256(np.ascontiguousarray(y, dtype="<f8").tobytes()).hexdigest()
            found = self._by_labels[id(y)] = (y, digest)
        return {**common, "labels": found[1]}

    def _folds_digest(self, folds) -> str:
        """The key's ``folds`` field of folds that are not LIBSVM's: their kind (given,
        grouped) and the fold of every row (LIBSVM's are fixed by ``n_folds`` and the seed,
        and their keys have no such field)."""
        found = self._by_folds.get(id(folds))
        if found is None or found[0] is not folds:
            h = hashlib.sha256(folds.source.kind.encode())
            h.update(np.ascontiguousarray(folds.fold_of(), dtype="<i8").tobytes())
            found = self._by_folds[id(folds)] = (folds, h.hexdigest())
        return found[1]

    def _params(self, params) -> tuple[dict, str]:
        """``params`` as the key holds them (the cache size left out: -m changes no result)
        and as svm-train's options, worked out once per parameters object."""
        found = self._by_params.get(id(params))
        if found is None or found[0] is not params:
            plain = params.as_dict()
            plain.pop("cache_size", None)
            found = self._by_params[id(params)] = (params, plain, params.flags())
        return found[1], found[2]

    def prefetch(self, units) -> None:
        """Key these units' folds, so that :meth:`find` reads their stored values a window
        of :data:`WINDOW` keys at a time (one query each), in the units' order, instead of
        one query a fold; only a window's values are held at once."""
        self._order = [key for u in units for key in self.keys(u)]
        self._place = {}
        for i, key in enumerate(self._order):
            self._place.setdefault(key, i)
        self._window, self._window_keys = {}, frozenset()

    def _row(self, key: str):
        """The stored row of a prefetched key (None: not stored), reading the window of keys
        that starts at it where the one read last does not hold it."""
        if key not in self._window_keys:
            start = self._place[key]
            part = (self._order or [])[start : start + WINDOW]
            self._window, self._window_keys = {}, frozenset()  # the last window let go first
            self._window = self.store.rows(part)
            self._window_keys = frozenset(part)
        return self._window.get(key)

    def _shapes(self, unit, t: int) -> dict:
        params = unit.params
        classification = params.is_classification
        m = len(self._labels) if classification else 0
        pairs = m * (m - 1) // 2 if classification else 1
        keep = self.keep_dv or pairs <= 1
        return {
            "y_pred": (t,),
            "decision_values": (t, pairs) if keep else None,
            "scores": (t, m) if classification and m >= 2 else None,
            "probabilities": (t, m) if params.probability and classification else None,
        }

    def find_fold(self, unit, i: int) -> FoldOutput | None:
        """The stored output of ``unit``'s fold ``i`` (None: not stored)."""
        key, _ = self.key(unit, i)
        record = self.store.get(key, self._shapes(unit, len(unit.folds.test(i))))
        if record is None:
            return None
        self.written.setdefault(unit, set()).add(i)
        return self._checked(unit, key, record)

    def find(self, unit) -> dict:
        """The stored outputs of ``unit``'s folds: fold -> :class:`FoldOutput` (every fold of a
        ``-b 1`` unit, or none)."""
        found = {}
        prefetched = self._order is not None
        sizes = np.diff(unit.folds.fold_start).tolist()  # each fold's test rows
        shapes: dict = {}  # test rows -> the arrays' shapes (folds differ by a row at most)
        for i in range(unit.folds.n_folds):
            key, _ = self.key(unit, i)
            t = sizes[i]
            if t not in shapes:
                shapes[t] = self._shapes(unit, t)
            if not prefetched or key not in self._place:
                record = self.store.get(key, shapes[t])
            else:
                row = self._row(key)
                if row is None:
                    continue
                record = self.store.decode(key, row, shapes[t])
            if record is not None:
                found[i] = (key, record)
        if not self._fit(unit, [record.arrays for _, record in found.values()]):
            for key, record in found.values():  # the first fold that does not fit, named
                self._checked(unit, key, record)
        if unit.params.probability and len(found) < unit.folds.n_folds:
            return {}
        self.written[unit] = set(found)
        return {
            i: FoldOutput(**{name: record.arrays.get(name) for name in _ARRAYS})
            for i, (_, record) in found.items()
        }

    def _fit(self, unit, folds: list) -> bool:
        """Whether every fold of ``folds`` (their arrays, name -> array) passes
        :meth:`_checked`, checked together (an array of all the folds' values each)."""
        if not folds:
            return True
        whole = {name: np.concatenate([a[name] for a in folds]) for name in folds[0]}
        y_pred = whole["y_pred"]
        if unit.params.is_classification:
            if not self._label_set.issuperset(y_pred.tolist()):
                return False
        elif not np.isfinite(y_pred).all():
            return False
        for name in ("decision_values", "scores"):
            if name in whole and np.isinf(whole[name]).any():
                return False
        p = whole.get("probabilities")
        return p is None or bool(((p >= 0) & (p <= 1)).all())

    def _checked(self, unit, key: str, record) -> FoldOutput:
        a = record.arrays
        from svmeval.store import StoreError

        def bad(what: str) -> StoreError:
            return StoreError(
                f"{self.store.name}: damaged store: unit {key[:12]} does not fit the run ({what})"
            )

        y_pred = a["y_pred"]
        if unit.params.is_classification:
            if not self._label_set.issuperset(y_pred.tolist()):
                raise bad("a prediction that is not one of the data's classes")
        elif not np.isfinite(y_pred).all():
            raise bad("a prediction that is not a finite number")
        for name in ("decision_values", "scores"):
            if name in a and np.isinf(a[name]).any():
                raise bad(f"infinite {name.replace('_', ' ')}")
        p = a.get("probabilities")
        if p is not None and not ((p >= 0) & (p <= 1)).all():
            raise bad("a probability outside [0, 1]")
        return FoldOutput(**{name: a.get(name) for name in _ARRAYS})

    def reused(self, unit, folds: int) -> None:
        self.counts.reused += folds
        self.store.reused += folds

    def write(self, unit, outputs: dict, seconds: dict | None = None) -> None:
        """Write ``unit``'s folds ``outputs`` (fold -> FoldOutput) not yet in the store: each
        in its own transaction (a ``-b 1`` unit's all in one)."""
        done = self.written.setdefault(unit, set())
        new = {i: out for i, out in outputs.items() if i not in done}
        if not new:
            return
        rows = []
        for i, out in sorted(new.items()):
            key, fields = self.key(unit, i)
            fields = {
                **fields,
                "data_name": self.data_name,
                "configuration": self._params(unit.params)[1],
            }
            arrays = {name: getattr(out, name) for name in _ARRAYS}
            rows.append((key, fields, arrays, (seconds or {}).get(i, 0.0)))
        run = self.counts.begin()
        writer = self.counts.writer
        reused, computed = self.counts.reused, self.counts.computed
        # each transaction records the run's counts with its units: an interrupted or killed
        # run's are those of its last unit written
        if unit.params.probability:
            writer.submit(self.store.put_many, rows, run, (reused, computed + len(rows)))
        else:
            for i, row in enumerate(rows, 1):
                writer.submit(self.store.put, *row, run, (reused, computed + i))
        done.update(new)
        self.counts.computed += len(new)
        self.store.computed += len(new)

    def write_result(self, unit, result, seconds: float = 0.0) -> None:
        """Write every fold of a finished unit's result not yet written."""
        outputs = {}
        n = unit.folds.n_folds
        for i in range(n):
            if i in self.written.get(unit, ()):
                continue
            rows = unit.folds.test(i)
            arrays: dict[str, Any] = {
                k: None if getattr(result, k) is None else getattr(result, k)[rows] for k in _ARRAYS
            }
            outputs[i] = FoldOutput(**arrays)
        self.write(unit, outputs, dict.fromkeys(outputs, seconds / max(1, n)))


class FoldsUnit:
    """A unit's parameters, seed and folds, where no :class:`~svmeval.cv.run.evaluate.Unit` is
    made (a nested CV's outer fold, a label of a multi-label CV)."""

    __slots__ = ("params", "seed", "folds")

    def __init__(self, params, seed: int, folds):
        self.params, self.seed, self.folds = params, seed, folds


def outer_fold(
    dataset, problem, assignment, folds: int, params, seed: int, i: int, compute, preprocessing=None
):
    """A nested CV's outer fold ``i`` trained with the inner grid's choice ``params``: from the
    run's store where it holds it, else ``compute()`` (a FoldOutput), written there. Its
    key's kind is ``nested-outer-fold``: a ``-b 1`` outer fold trains right after its own
    ``srand(seed)``, not after the folds before it. ``preprocessing``: the key of what the
    fold learns on its training rows (None: nothing)."""
    counts = current()
    if counts is None:
        return compute()
    kind, learned = "nested-outer-fold", preprocessing
    use = StoreUse(counts, dataset, problem, folds, False, kind=kind, preprocessing=learned)
    unit = FoldsUnit(params, seed, assignment)
    found = use.find_fold(unit, i)
    if found is not None:
        use.reused(unit, 1)
        return found
    missing(counts, 1)
    start = time.perf_counter()
    output = compute()
    use.write(unit, {i: output}, {i: time.perf_counter() - start})
    return output


class FoldByFold(cv_plan.FoldByFold):
    """:class:`svmeval.cv.plan.cv_plan.FoldByFold` (a nested CV's outer loop) with the run's results
    store: with ``dataset`` (the data of ``problem``), a fold is taken from the store where
    it holds it, and written there once trained (:func:`outer_fold`)."""

    def __init__(self, problem, params, folds: int, seed: int, *, dataset=None, **kwargs):
        super().__init__(problem, params, folds, seed, **kwargs)  # source=, transform=
        self.dataset = dataset

    def run_fold(self, i: int, params, omp_threads: int, transform=None) -> None:
        if self.dataset is None:
            super().run_fold(i, params, omp_threads, transform)
            return
        learned = self.transform if transform is None else transform
        output = outer_fold(
            self.dataset,
            self.problem,
            self.assignment,
            self.folds,
            params,
            self.seed,
            i,
            lambda: self.compute_fold(i, params, omp_threads, transform),
            None if learned is None else learned.key(),
        )
        self.store(i, output)

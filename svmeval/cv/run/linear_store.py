"""A LIBLINEAR cross-validation's folds in the results store (:mod:`svmeval.store`).

LIBLINEAR's ``cross_validation`` trains its folds one after another in one C call, each
fold's training drawing from the same ``rand()``: its folds are one unit of work, reused all
together or computed all together and written in one transaction (as a ``-b 1`` LIBSVM
cross-validation's). Each fold is a unit of the store whose key's kind is
``liblinear-cv-fold`` and whose fields are the data's digest and the digest of its labels,
LIBLINEAR's parameters (:meth:`~svmeval.params.LinearParams.as_dict`, the tolerance resolved),
LIBLINEAR's version (``liblinear``, where a LIBSVM unit has ``libsvm``), the folds asked for,
the seed, the fold's number and the version of svmeval's results: a LIBSVM unit of the same
data never has the same key, nor does a run of another LIBLINEAR. Its value is the fold's
test rows' predictions.

LIBLINEAR trained on svmeval's folds (a comparison's, a benchmark's, folds given or grouped, a
permutation's: :mod:`svmeval.cv.run.linear_folds`) seeds ``rand()`` once and trains its folds
in turn: its folds too are one unit of work (:class:`OnFoldsStoreUse`), of kind
``liblinear-fold``, whose key adds the folds themselves (the SHA-256 of their permutation and
bounds) and whose value adds the test rows' decision values where the run keeps them.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["FOLDS_KIND", "LinearStoreUse", "OnFoldsStoreUse", "UNIT_KIND"]

#: the key's ``unit`` field of a LIBLINEAR cross-validation's fold
UNIT_KIND = "liblinear-cv-fold"
#: the key's ``unit`` field of a fold of LIBLINEAR trained on svmeval's folds
FOLDS_KIND = "liblinear-fold"


class LinearStoreUse:
    """One LIBLINEAR cross-validation's use of the run's store (``counts``: a
    :class:`~svmeval.cv.run.store_session.StoreCounts`): its folds' keys, found or written. ``folds``:
    the folds asked for and the seed; ``plan``: the folds drawn; ``labels``: the classes."""

    def __init__(self, counts, dataset, params, folds: tuple[int, int], version: int, plan, labels):
        from svmeval.store import RESULTS_VERSION

        self.counts, self.store, self.plan = counts, counts.store, plan
        counts.uses("liblinear", version)
        self.params = params
        y = np.ascontiguousarray(dataset.y, dtype="<f8")
        self.common = {
            "unit": UNIT_KIND,
            "data": dataset.digest(),
            "labels": hashlib.sha256(y.tobytes()).hexdigest(),
            "n_folds": int(folds[0]),
            "liblinear": int(version),
            "results": RESULTS_VERSION,
            "params": params.as_dict(),
            "seed": int(folds[1]),
        }
        self.data_name = str(getattr(dataset, "name", ""))
        # LIBLINEAR predicts its classes, each label as (int) made it
        self.labels = set(labels.tolist()) if params.is_classification else None

    def key(self, i: int) -> tuple[str, dict]:
        from svmeval.store import unit_key

        fields = {**self.common, "fold": int(i)}
        return unit_key(fields), fields

    def holds(self) -> bool:
        """Whether every fold is stored (nothing decoded or counted)."""
        keys = [self.key(i)[0] for i in range(self.plan.n_folds)]
        return len(self.store.rows(keys)) == len(keys)

    def find(self) -> np.ndarray | None:
        """Every row's stored prediction (None: a fold is not stored, and all are computed)."""
        plan = self.plan
        target = np.empty(len(plan.perm), dtype=np.float64)
        keys = [self.key(i)[0] for i in range(plan.n_folds)]
        rows = self.store.rows(keys)
        if len(rows) < plan.n_folds:
            return None
        for i, key in enumerate(keys):
            test = plan.test(i)
            record = self.store.decode(key, rows[key], {"y_pred": (len(test),)})
            target[test] = self._checked(key, record.arrays["y_pred"])
        self.counts.reused += plan.n_folds
        self.store.reused += plan.n_folds
        return target

    def _checked(self, key: str, y_pred: np.ndarray) -> np.ndarray:
        from svmeval.store import StoreError

        if self.labels is not None:
            fits = self.labels.issuperset(y_pred.tolist())
        else:
            fits = bool(np.isfinite(y_pred).all())
        if not fits:
            raise StoreError(
                f"{self.store.name}: damaged store: unit {key[:12]} does not fit the run "
                "(a prediction that is not one of the data's classes, or not finite)"
            )
        return y_pred

    def write(self, target: np.ndarray, seconds: float) -> None:
        """Write every fold of the computed predictions ``target``, in one transaction."""
        plan, n = self.plan, self.plan.n_folds
        rows = []
        for i in range(n):
            key, fields = self.key(i)
            fields = {**fields, "data_name": self.data_name, "configuration": self._shown()}
            arrays = {"y_pred": np.array(target[plan.test(i)], dtype=np.float64)}
            arrays.update(self._arrays(plan.test(i)))
            rows.append((key, fields, arrays, seconds / n))
        counts = self.counts
        run = counts.begin()
        counts.writer.submit(
            self.store.put_many, rows, run, (counts.reused, counts.computed + len(rows))
        )
        counts.computed += n
        self.store.computed += n

    def _arrays(self, test: np.ndarray) -> dict:
        """The arrays fold ``test`` keeps beside its predictions (none here)."""
        return {}

    def _shown(self) -> str:
        """The configuration as the store lists it: LIBLINEAR's, said so."""
        from svmeval.params import linear_configuration

        return linear_configuration(self.params)


class OnFoldsStoreUse(LinearStoreUse):
    """LIBLINEAR trained on svmeval's ``plan`` (a :class:`~svmeval.cv.plan.folds.Folds`) after
    ``srand(seed)``: its folds' keys (kind :data:`FOLDS_KIND`: the labels trained on, the
    folds' digest), found or written, with each test row's decision values where
    ``width`` (the classes) is given."""

    def __init__(self, counts, dataset, params, plan, seed: int, version: int, labels, width):
        super().__init__(counts, dataset, params, (plan.n_folds, seed), version, plan, labels)
        perm = np.ascontiguousarray(plan.perm, dtype="<i8").tobytes()
        bounds = np.ascontiguousarray(plan.fold_start, dtype="<i8").tobytes()
        self.common["unit"] = FOLDS_KIND
        self.common["folds"] = hashlib.sha256(perm + b"\0" + bounds).hexdigest()
        self.common["scores"] = width is not None
        self.width = width
        self.scores: np.ndarray | None = None
        self._written: np.ndarray | None = None

    def find(self) -> np.ndarray | None:
        """Every row's stored prediction (and :attr:`scores`), or None."""
        plan = self.plan
        keys = [self.key(i)[0] for i in range(plan.n_folds)]
        rows = self.store.rows(keys)
        if len(rows) < plan.n_folds:
            return None
        target = np.empty(len(plan.perm), dtype=np.float64)
        scores = None if self.width is None else np.full((len(target), self.width), np.nan)
        for i, key in enumerate(keys):
            test = plan.test(i)
            shapes: dict = {"y_pred": (len(test),)}
            if scores is not None:
                shapes["scores"] = (len(test), self.width)
            record = self.store.decode(key, rows[key], shapes)
            target[test] = self._checked(key, record.arrays["y_pred"])
            if scores is not None:
                scores[test] = record.arrays["scores"]
        self.scores = scores
        self.counts.reused += plan.n_folds
        self.store.reused += plan.n_folds
        return target

    def write(self, target: np.ndarray, seconds: float, scores=None) -> None:
        """Write every fold of ``target`` (and ``scores``), in one transaction."""
        self._written = scores
        super().write(target, seconds)

    def _arrays(self, test: np.ndarray) -> dict:
        if self._written is None:
            return {}
        return {"scores": np.array(self._written[test], dtype=np.float64)}

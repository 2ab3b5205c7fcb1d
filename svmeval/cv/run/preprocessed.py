"""Preprocessing learned inside each fold (:mod:`svmeval.preprocess`): a fold's training rows
are scaled (``svm-scale -s``) and their features selected (fselect.py's F-score) on those
rows alone, and its test rows with the same factors and features (``svm-scale -r``).

:class:`FoldTransform` is what a :class:`~svmeval.cv.plan.cv_plan.CVPlan` asks for each fold: the
data's LIBSVM problem as that fold's training rows make it (every row scaled with the fold's
factors, only the fold's features kept; with ``-y``, the targets scaled too). A run with it
trains on the features, fold by fold: no kernel is shared between folds (each fold's features
differ), and a multiclass fold trains in one ``svm_train`` call. Where several units train
on one fold with the same kernel parameters (a grid's C values for one gamma), the fold's
kernel matrix is computed once from the fold's rows and shared by them
(:meth:`FoldTransform.kernel`, LIBSVM's own arithmetic: the predictions do not change). For
the RBF kernel, what does not depend on gamma is computed once per fold for every gamma
(:class:`FoldDistances`: the training rows' ``x_square[i] + x_square[j] - 2 dot``, the test
rows' squared distances to them), and each gamma's matrix is ``exp(-gamma d)`` of it, only
where a fold reads it (:class:`FoldKernel`: training rows against training rows, test rows
against training rows); a fold's matrix that no unit uses any more is refilled for its next
gamma rather than a new one made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

from svmeval.cv import _libsvm
from svmeval.errors import show_path
from svmeval.params import PRECOMPUTED, RBF

#: the folds' problems a run keeps at once (a grid's cells train on the same folds one cell
#: after another: each fold's rows are made once while its cells run)
KEEP_FOLDS = 12


class _Kept:
    """A kernel kept for the units of one fold and kernel: ``fold`` its fold's key, ``y``
    the labels, ``users`` how many units use it now (one when it is made)."""

    __slots__ = ("fold", "kernel", "users", "y")

    def __init__(self, kernel, y, fold):
        self.kernel, self.y, self.fold, self.users = kernel, y, fold, 1


class FoldTransform:
    """``preprocessing`` (:class:`~svmeval.preprocess.Preprocessing`) learned on a fold's
    training rows of ``dataset`` (its CSR arrays). Each fold's problem is made once and kept
    (at most :data:`KEEP_FOLDS`, the least recently used dropped first) for the units that
    train on the same fold (same training rows and labels): the cells of a grid."""

    def __init__(
        self, dataset, preprocessing, *, share_kernels: bool = False, memory_mb=0.0, rankings=None
    ):
        self.dataset = dataset
        self.preprocessing = preprocessing
        #: the folds' rankings shared with the runs of other sizes (:class:`Rankings`, None:
        #: each fold ranks its rows for this run alone)
        self.rankings = rankings
        #: whether the units of one fold and one kernel share its matrix (within memory_mb)
        self.share_kernels, self.memory = share_kernels, memory_mb * 2**20
        self._kept: OrderedDict = OrderedDict()  # key -> (problem, fitted, train, y)
        self._kernels: OrderedDict = OrderedDict()  # (key, kernel key) -> _Kept
        self._fold_distances: OrderedDict = OrderedDict()  # key -> (FoldDistances, y)
        self._lock = threading.Lock()
        self._building: dict = {}  # key -> lock: a second unit waits for the first's rows

    def key(self) -> str:
        """The preprocessing as a results store's key holds it."""
        return str(self.preprocessing.key())

    def fit(self, train: np.ndarray, y: np.ndarray):
        """The fold's :class:`~svmeval.preprocess.FittedPreprocessing` (training rows
        ``train``, labels ``y`` of every row)."""
        ds = self.dataset
        learned = self.preprocessing
        if self.rankings is None or learned.select is None:
            return learned.fit(ds.indptr, ds.indices, ds.values, y, train)
        ranking = self.rankings.get(
            train, y, lambda: learned.learn(ds.indptr, ds.indices, ds.values, y, train)
        )
        return ranking.keeping(learned.select)

    def problem(self, train: np.ndarray, y: np.ndarray):
        """``(problem, fitted)``: every row of the data as the fold's preprocessing makes it
        (its training rows and its test rows alike), and what the fold learned."""
        key = (train.tobytes(), id(y))
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[3] is y:
                self._kept.move_to_end(key)
                return found[0], found[1]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._kept.get(key)
                if found is not None and found[3] is y:
                    return found[0], found[1]
            problem, fitted = self._make(train, y)
            with self._lock:
                self._kept[key] = (problem, fitted, train, y)
                while len(self._kept) > KEEP_FOLDS:
                    self._kept.popitem(last=False)
                self._building.pop(key, None)
        return problem, fitted

    @contextmanager
    def kernel(self, train: np.ndarray, y: np.ndarray, rows, params) -> Iterator:
        """The fold's kernel matrix of ``params`` computed from ``rows`` (the fold's problem,
        :meth:`problem`), in use for the block's duration: made once and kept for the units
        of the same fold and kernel (least recently used dropped past the memory budget); None
        where the units train on the features. An RBF matrix that no unit uses any more is
        refilled for the fold's next gamma instead of a new one being made
        (:meth:`FoldKernel.__init__`'s ``reuse``): a grid's cells run gamma by gamma, and a
        large matrix's fresh pages cost more than its fill."""
        from svmeval.cv.run.kernel import SHAREABLE, SharedKernel, kernel_key

        if not self.share_kernels or params.probability or params.kernel_type not in SHAREABLE:
            yield None
            return
        fold = (train.tobytes(), id(y))
        key = (*fold, kernel_key(params))
        distances = self._distances(train, y, rows) if params.kernel_type == RBF else None
        if distances is not None:  # from the fold's distances, made once for every gamma
            kept = self._kept_kernel(
                key, fold, y, lambda reuse: FoldKernel(distances, params.gamma, reuse=reuse)
            )
        else:
            kept = self._kept_kernel(
                key, fold, y, lambda _: SharedKernel(rows, params, threads=1), refill=False
            )
        try:
            yield kept.kernel
        finally:
            with self._lock:
                kept.users -= 1

    def _kept_kernel(self, key, fold, y, make, *, refill: bool = True) -> _Kept:
        """The kernel kept under ``key`` (the fold's and the kernel's), else ``make(reuse)``'s
        (``reuse``: an unused :class:`FoldKernel` of the same ``fold`` to refill, or None),
        kept (least recently used dropped past the memory budget); counted as in use."""
        with self._lock:
            found = self._kernels.get(key)
            if found is not None and found.y is y:
                self._kernels.move_to_end(key)
                found.users += 1
                return found
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._kernels.get(key)
                if found is not None and found.y is y:
                    found.users += 1
                    return found
                reuse = self._unused(fold, y) if refill else None
            kept = _Kept(make(reuse), y, fold)
            with self._lock:
                self._kernels[key] = kept
                while (
                    len(self._kernels) > 1
                    and sum(k.kernel.nbytes for k in self._kernels.values()) > self.memory
                ):
                    self._kernels.popitem(last=False)  # its units hold it while they train
                self._building.pop(key, None)
        return kept

    def _unused(self, fold, y):
        """The least recently used :class:`FoldKernel` of ``fold`` that no unit uses, taken
        out of the kept ones (under the lock), or None."""
        for key, kept in self._kernels.items():
            if (
                kept.users == 0
                and kept.fold == fold
                and kept.y is y
                and isinstance(kept.kernel, FoldKernel)
            ):
                del self._kernels[key]
                return kept.kernel
        return None

    def _distances(self, train: np.ndarray, y: np.ndarray, rows):
        """The fold's :class:`FoldDistances` (RBF), made once and kept with its rows
        (:data:`KEEP_FOLDS`); None where they do not fit the memory budget."""
        key = (train.tobytes(), id(y))
        with self._lock:
            found = self._fold_distances.get(key)
            if found is not None and found[1] is y:
                self._fold_distances.move_to_end(key)
                return found[0]
            building = self._building.setdefault(("distances",) + key, threading.Lock())
        with building:
            with self._lock:
                found = self._fold_distances.get(key)
                if found is not None and found[1] is y:
                    return found[0]
            budget = self.memory / 2  # the folds' distances kept within half the budget
            if 8 * rows.n_samples * len(train) > budget:
                return None
            distances = FoldDistances(rows, train)
            with self._lock:
                self._fold_distances[key] = (distances, y)
                kept = self._fold_distances
                while len(kept) > 1 and (
                    len(kept) > KEEP_FOLDS or sum(d.nbytes for d, _ in kept.values()) > budget
                ):
                    kept.popitem(last=False)  # its units hold it while they use it
                self._building.pop(("distances",) + key, None)
        return distances

    def _make(self, train: np.ndarray, y: np.ndarray):
        fitted = self.fit(train, y)
        ds = self.dataset
        indptr, indices, values = fitted.transform(ds.indptr, ds.indices, ds.values)
        problem = _libsvm.Problem.from_csr(fitted.transform_y(y), indptr, indices, values)
        return problem, fitted

    @staticmethod
    def restore(output, fitted):
        """A fold's output in the data's units: with ``-y``, regression predictions (and the
        decision values, the same numbers) mapped back from the scaled targets."""
        factors = fitted.factors
        if factors is None or factors.y is None:
            return output
        dv = output.decision_values
        return replace(
            output,
            y_pred=factors.inverse_y(output.y_pred),
            decision_values=None if dv is None else factors.inverse_y(dv),
        )


def preprocessing_of(scale, select, dataset, candidates):
    """The :class:`~svmeval.preprocess.Preprocessing` of a run's ``scale=`` and ``select=``
    (None: neither), checked against the data and the configurations before any fold."""
    from svmeval.errors import ArgumentError
    from svmeval.preprocess import Preprocessing

    preprocessing = Preprocessing.of(scale, select)
    if preprocessing is None:
        return None
    argument = "scale" if preprocessing.scale is not None else "select"
    if len(dataset.indices) and int(dataset.indices.min()) < 1:
        raise ArgumentError(
            argument,
            f"{show_path(dataset.name)} has feature index 0: svm-scale and fselect.py start at 1",
        )
    for params in candidates:
        if type(params).__name__ == "LinearParams":
            raise ArgumentError(
                argument,
                "is learned inside LIBSVM's folds only: not with a LIBLINEAR configuration",
            )
        if params.kernel_type == PRECOMPUTED:
            raise ArgumentError(argument, "a precomputed kernel (-t 4) has no features to scale")
        scale_y = preprocessing.scale is not None and preprocessing.scale.y is not None
        if scale_y and not params.is_regression:
            raise ArgumentError("scale", "y scaling applies to regression (-s 3, -s 4) only")
        if preprocessing.select is not None and not params.is_classification:
            raise ArgumentError("select", "F-scores need classes: C-SVC and nu-SVC only")
    return preprocessing


def selected_features(dataset, y, folds, preprocessing) -> tuple:
    """The features each fold's training rows select (ascending indices), fold by fold."""
    return tuple(
        preprocessing.fit(
            dataset.indptr, dataset.indices, dataset.values, y, folds.train(i)
        ).features
        for i in range(folds.n_folds)
    )


class Rankings:
    """Each fold's ranking (its scaling factors and every feature's F-score, learned on its
    training rows), made once and kept for the runs of every size K on the same folds (a
    search of the number of features): the top K of one ranking is each K's selection. At
    most ``keep`` folds are kept, the least recently used dropped first."""

    def __init__(self, keep: int = 64):
        self.keep = keep
        self._kept: OrderedDict = OrderedDict()  # key -> (ranking, y)
        self._lock = threading.Lock()
        self._building: dict = {}
        #: how many rankings were made (each fold's once while it is kept)
        self.made = 0

    def get(self, train: np.ndarray, y: np.ndarray, make):
        """The ranking of the training rows ``train`` (labels ``y``): kept, or ``make()``."""
        key = (train.tobytes(), id(y))
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[1] is y:
                self._kept.move_to_end(key)
                return found[0]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                found = self._kept.get(key)
                if found is not None and found[1] is y:
                    return found[0]
            ranking = make()
            with self._lock:
                self.made += 1
                self._kept[key] = (ranking, y)
                while len(self._kept) > self.keep:
                    self._kept.popitem(last=False)
                self._building.pop(key, None)
        return ranking


class FoldDistances:
    """What an RBF kernel of one fold computes whatever gamma is, with LIBSVM's arithmetic
    (``_kernel.c``'s ``svmeval_fold_distances``): ``x_square[i] + x_square[j] - 2 dot(x_i,
    x_j)`` of every two training rows, and the squared distance of every test row to every
    training row (``k_function``'s sum); :class:`FoldKernel` makes each gamma's matrix from
    them. ``rows``: the fold's problem (every row as its training rows' preprocessing makes
    it); ``train``: its training rows, in LIBSVM's order."""

    def __init__(self, rows, train: np.ndarray):
        from svmeval.cv.run.kernel import fold_distances

        n = rows.n_samples
        self.rows = rows
        self.train = np.ascontiguousarray(train, dtype=np.int64)
        in_train = np.zeros(n, dtype=bool)
        in_train[self.train] = True
        self.test = np.flatnonzero(~in_train).astype(np.int64)
        self.dtrain, self.dpred = fold_distances(rows, self.train, self.test)

    @property
    def nbytes(self) -> int:
        return int(self.dtrain.nbytes + self.dpred.nbytes)


class FoldKernel:
    """One gamma's RBF kernel of one fold, from its :class:`FoldDistances`: one matrix in
    LIBSVM's precomputed layout whose training rows hold the training arithmetic's values and
    whose test rows the prediction arithmetic's (each row read only where a training row's
    serial points): ``cv_problem`` trains a fold (``subset(train)``) and predicts its test
    rows (``rows``), as :class:`~svmeval.cv.run.kernel.SharedKernel`'s does, with the same values
    bit for bit."""

    def __init__(self, distances: FoldDistances, gamma: float, *, reuse: FoldKernel | None = None):
        """``reuse``: a kernel of another gamma of the same fold (its rows and training rows)
        that nothing uses any more: its matrix is refilled (the same nodes written, so the
        same bits as a new matrix) and it must not be used after."""
        from svmeval.cv.run.kernel import fold_fill

        n = distances.rows.n_samples
        if reuse is not None and not (
            reuse.n == n and np.array_equal(reuse.train, distances.train)
        ):
            raise ValueError("a fold's matrix is refilled only for the same rows and fold")
        self.n: int = n
        self.train: np.ndarray = distances.train
        self.nodes: np.ndarray = fold_fill(distances, gamma, None if reuse is None else reuse.nodes)
        width = (n + 2) * self.nodes.itemsize
        addresses = np.uintp(self.nodes.ctypes.data) + np.arange(n, dtype=np.uintp) * np.uintp(
            width
        )
        self.cv_problem = _libsvm.Problem(distances.rows.y, addresses, self.nodes)

    @staticmethod
    def train_params(params):
        from svmeval.cv.run.kernel import SharedKernel

        return SharedKernel.train_params(params)

    @property
    def nbytes(self) -> int:
        return int(self.nodes.nbytes)


#: what a model trained on preprocessed rows is saved with, beside it: svm-scale's range
#: file (``svm-scale -r MODEL.range`` scales the rows it predicts) and the features kept
RANGE_SUFFIX, FEATURES_SUFFIX = ".range", ".features"


def side_files(model_file: str, preprocessing) -> list[tuple[str, str]]:
    """``(what, path)`` of the files written beside ``model_file`` when the model is trained
    on rows preprocessed by ``preprocessing`` (none without it)."""
    if preprocessing is None:
        return []
    files = []
    if preprocessing.scale is not None:
        files.append(("the range file", model_file + RANGE_SUFFIX))
    if preprocessing.select is not None:
        files.append(("the features file", model_file + FEATURES_SUFFIX))
    return files


def side_texts(fitted) -> list[str]:
    """The texts of :func:`side_files`, in that order: the range file as ``svm-scale -s``
    writes it, and the features kept, one index a line, ascending."""
    texts = []
    if fitted.factors is not None:
        texts.append(fitted.factors.range_text())
    if fitted.features is not None:
        texts.append("".join(f"{int(i)}\n" for i in fitted.features))
    return texts


def whole_problem(dataset, problem, preprocessing):
    """``(problem, fitted)``: every row of ``dataset`` (its LIBSVM ``problem``'s labels) as
    ``preprocessing`` learned on all of them makes it, and what it learned."""
    fitted = preprocessing.fit(dataset.indptr, dataset.indices, dataset.values, problem.y)
    indptr, indices, values = fitted.transform(dataset.indptr, dataset.indices, dataset.values)
    rows = _libsvm.Problem.from_csr(fitted.transform_y(problem.y), indptr, indices, values)
    return rows, fitted

"""A multiclass fold trained as its one-vs-one two-class problems, each one task.

LIBSVM's ``svm_train`` with k >= 3 classes (C-SVC, nu-SVC, no ``-b 1``) groups the fold's
training rows by class (``svm_group_classes``: first appearance, each class in input order),
then trains the k(k-1)/2 pairs one after another, pair (i, j) on class i's rows (label +1) then
class j's (label -1) with C weighted per class, and builds one model: the support vectors are the
rows that are a support vector of any pair, in grouped order, and ``sv_coef`` holds each pair's
coefficients (0 for a row that is not one of that pair's). ``svm_predict_values`` then computes
every support vector's kernel value once and sums each pair's terms.

Here each pair is trained apart, through the official bindings, on exactly that sub-problem:
the same rows in the same order, labels +1 then -1, the two classes' weighted C (LIBSVM's
binary ``svm_train`` groups +1 then -1 and keeps the order: the sub-problem it solves is the
one the multiclass loop solves). Its alphas and rho are kept; when the fold's last pair is in,
the multiclass model is assembled as ``svm_train`` assembles it, in memory laid out as LIBSVM's
``struct svm_model``, and the fold's test rows are predicted by LIBSVM's own
``svm_predict_values`` on it: predictions and decision values are LIBSVM's, bit for bit
(tests/cv/test_pairs.py checks them against ``svm_cross_validation``).

A pair's result is its support vectors' positions and coefficients (12 bytes each) and rho; a
fold keeps its pairs' results only until it is predicted.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from ctypes import POINTER, c_double, c_int
from dataclasses import replace
from functools import partial

import numpy as np

from svmeval.cv import _libsvm, _model, messages
from svmeval.cv.plan.folds import group_classes
from svmeval.cv.task import FollowUps, Task
from svmeval.io import output

#: train multiclass folds pair by pair (False: each fold whole, as one svm_train call)
ENABLED = True

#: the most classes whose folds are trained pair by pair: beyond, a fold's k(k-1)/2 pairs are
#: trained in one svm_train call (a Python task per pair would cost more than the pairs
#: themselves: 1,000 classes are 499,500 pairs a fold)
MAX_CLASSES = 64


class PairedFold:
    """Fold ``i`` of ``plan`` (a :class:`~svmeval.cv.plan.cv_plan.CVPlan`) as one task per pair."""

    def __init__(self, plan, i: int):
        self.plan, self.i = plan, i
        train = plan.folds.train(i)
        labels, start, count, perm = group_classes(plan.problem.y[train])
        self.labels = labels  # the fold's model's classes, LIBSVM's order (C ints)
        self.start, self.count = start, count
        self.order = train[perm]  # the fold's training rows in LIBSVM's grouped order
        self.n_classes = len(labels)
        self.pairs = [(a, b) for a in range(self.n_classes) for b in range(a + 1, self.n_classes)]
        self.results: list = [None] * len(self.pairs)
        self._left = len(self.pairs)
        self._lock = threading.Lock()
        self._warned = False

    def tasks(self) -> list:
        tasks = []
        fold = self.plan.message_label(self.i)
        for p, (a, b) in enumerate(self.pairs):
            size = int(self.count[a] + self.count[b])
            label = fold and f"{fold}, labels {self.labels[a]:g} and {self.labels[b]:g}"
            tasks.append(
                Task(partial(self._pair, p), size, self.plan.useful_threads(size), self.i, label)
            )
        return tasks

    def _pair_params(self, a: int, b: int):
        """The fold's parameters for pair (a, b): its weights, in their order, on +1 (class a)
        and -1 (class b), so that each side's C is the product LIBSVM's loop computes."""
        if not self.plan.params.weight:
            return self.plan.params
        weights = []
        for label, w in self.plan.params.weight:
            if label == self.labels[a]:
                weights.append((1, w))
            elif label == self.labels[b]:
                weights.append((-1, w))
        return replace(self.plan.params, weight=tuple(weights))

    def _warn_weights(self) -> None:
        """svm_train's warning for a weighted label the fold's training rows lack (LIBSVM
        writes it to standard error, -q or not), once per fold as LIBSVM does."""
        known = {int(v) for v in self.labels}
        for label, _ in self.plan.params.weight:
            if label not in known:
                with output.STDERR_LOCK:
                    if not output.INTERRUPTS:
                        sys.stderr.write(
                            f"WARNING: class label {label} specified in weight is not found\n"
                        )
                        sys.stderr.flush()

    def _pair(self, p: int, omp_threads: int) -> int | FollowUps:
        """Train pair ``p``; the fold's last pair assembles the fold's model and leaves its
        prediction, in parts of the test rows, as follow-up tasks."""
        with self._lock:
            warn, self._warned = not self._warned, True
        if warn:
            self._warn_weights()
        a, b = self.pairs[p]
        ca, cb = int(self.count[a]), int(self.count[b])
        rows = np.concatenate(
            (
                self.order[self.start[a] : self.start[a] + ca],
                self.order[self.start[b] : self.start[b] + cb],
            )
        )
        y = np.concatenate((np.ones(ca), -np.ones(cb)))
        _libsvm.set_omp_threads(omp_threads)
        # the features or a shared kernel (the same solution); the fold's model is assembled
        # from the pairs' support vectors on the features either way
        problem, params = self.plan.training_source(len(rows), self._pair_params(a, b))
        with _libsvm.pair_training():  # its "Total nSV" line is the fold's, printed below
            model = _model.Model(problem.subset(rows, y), params)
        self.results[p] = _solution(model)
        if problem is self.plan.problem:
            self.plan.trained(len(rows), len(self.results[p][0]))
        del model
        messages.end_block()  # this pair's messages out before the fold's total
        with self._lock:
            self._left -= 1
            last = self._left == 0
        if not last:
            return 0
        problem, params = self.plan.prediction_source()
        assembled = AssembledModel(self, problem, params)
        self.results = []
        _libsvm.print_message(
            f"Total nSV = {assembled.total_sv}\n", label=self.plan.message_label(self.i)
        )
        return FollowUps(self.plan.prediction_tasks(assembled, self.i, problem))


def _solution(model) -> tuple:
    """A trained two-class model's support vectors (0-based rows of its sub-problem, in order),
    their coefficients and rho."""
    m = ctypes.cast(model._ptr, POINTER(_libsvm.svm_model())).contents
    n = m.l
    positions = (
        np.ctypeslib.as_array(m.sv_indices, (n,)).astype(np.int64) - 1
        if n
        else np.empty(0, np.int64)
    )
    coef = np.ctypeslib.as_array(m.sv_coef[0], (n,)).copy() if n else np.empty(0)
    return positions, coef, float(m.rho[0])


class AssembledModel:
    """The multiclass model ``svm_train`` builds from a fold's pairs, as a ``struct svm_model``
    over numpy memory; predicts with :class:`~svmeval.cv._model.Model`'s own methods."""

    predict = _model.Model.predict
    predict_parallel = _model.Model.predict_parallel

    def __init__(self, fold: PairedFold, problem=None, params=None):
        """``problem``, ``params``: the rows the model's support vectors are taken from and
        its kernel (the fold's plan's by default; a shared kernel's with ``-t 4``)."""
        problem = fold.plan.problem if problem is None else problem
        params = fold.plan.params if params is None else params
        k, start, count = fold.n_classes, fold.start, fold.count
        nonzero = np.zeros(len(fold.order), dtype=bool)
        grouped = []  # each pair's support vectors as grouped positions
        for (a, b), (positions, _, _) in zip(fold.pairs, fold.results):
            ca = int(count[a])
            g = np.where(positions < ca, start[a] + positions, start[b] + positions - ca)
            nonzero[g] = True
            grouped.append(g)
        sv = np.flatnonzero(nonzero)
        where = np.full(len(fold.order), -1, dtype=np.int64)
        where[sv] = np.arange(len(sv))
        self.total_sv = len(sv)
        n_sv = np.array(
            [np.count_nonzero(nonzero[start[c] : start[c] + count[c]]) for c in range(k)],
            dtype=np.int32,
        )
        coef = np.zeros((max(1, k - 1), max(1, len(sv))))
        for p, ((a, b), (_, alpha, _)) in enumerate(zip(fold.pairs, fold.results)):
            side_b = where[start[b] : start[b] + count[b]]
            coef[a, side_b[side_b >= 0]] = -0.0  # alpha * y of a class-b row that is no SV
            g = where[grouped[p]]
            on_a = grouped[p] < start[a] + count[a]
            coef[b - 1, g[on_a]] = alpha[on_a]
            coef[a, g[~on_a]] = alpha[~on_a]
        self._keep = self._struct(fold, problem, params, sv, n_sv, coef)
        self.nr_class = k
        self.labels = fold.labels.astype(np.float64)
        self.params = params
        self._lib = _libsvm.library()

    def _struct(self, fold: PairedFold, problem, params, sv, n_sv, coef) -> tuple:
        svm = _libsvm.library().svm
        support = problem.subset(fold.order[sv])  # training-side rows (SVs)
        coef_rows = np.uintp(coef.ctypes.data) + np.arange(len(coef), dtype=np.uintp) * np.uintp(
            coef.strides[0]
        )
        rho = np.array([r for _, _, r in fold.results], dtype=np.float64)
        label = fold.labels.astype(np.int32)
        param = _libsvm.Parameter(params)
        m = svm.svm_model()
        m.param = svm.svm_parameter.from_buffer_copy(param._struct)  # the same C layout
        m.nr_class, m.l, m.free_sv = fold.n_classes, len(sv), 0
        m.SV = ctypes.cast(support.rows.ctypes.data, POINTER(POINTER(svm.svm_node)))
        m.sv_coef = ctypes.cast(coef_rows.ctypes.data, POINTER(POINTER(c_double)))
        m.rho = rho.ctypes.data_as(POINTER(c_double))
        m.label = label.ctypes.data_as(POINTER(c_int))
        m.nSV = n_sv.ctypes.data_as(POINTER(c_int))
        self._ptr = ctypes.addressof(m)
        return (m, support, coef, coef_rows, rho, label, n_sv, param)

    @property
    def n_decision_values(self) -> int:
        return self.nr_class * (self.nr_class - 1) // 2

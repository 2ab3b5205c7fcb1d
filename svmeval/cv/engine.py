"""The fold loop: LIBSVM's cross-validation, owned here so every per-sample figure is kept.

``cross_validate`` reproduces ``svm_cross_validation`` step by step (seeded folds, each fold's
training set in LIBSVM's order, the same predict call), so predictions are bit-identical to
LIBSVM's, and adds what LIBSVM throws away: decision values, probabilities, the fold of each
sample. Folds may train concurrently (threads: ctypes releases the GIL); results do not depend
on the number of jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from . import _libsvm
from ..io.data import check_precomputed
from ..errors import SvmevalError
from .folds import Folds, group_classes, libsvm_folds
from ..params import PRECOMPUTED, SvmParams
from .schedule import run_tasks


@dataclass(frozen=True, eq=False)
class CVResult:
    """One cross-validation run.

    ``y_true``/``y_pred``: per sample, input order. ``fold``: the fold that tested it.
    ``labels``: the classes in LIBSVM's order for the whole data set (first appearance, +1
    before -1), the order of ``probabilities``' columns and of the one-vs-one pairs of
    ``decision_values`` (pair (i, j), i < j, positive towards ``labels[i]``), whatever order a
    fold's own model had. Regression and one-class: one decision value per sample; ``labels``
    empty.
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    fold: np.ndarray
    decision_values: np.ndarray
    probabilities: np.ndarray | None
    labels: np.ndarray
    params: SvmParams
    n_folds: int
    seed: int
    folds: Folds = field(repr=False)

    @property
    def n_samples(self) -> int:
        return len(self.y_true)


def libsvm_label_order(y: np.ndarray) -> np.ndarray:
    """The class order LIBSVM gives a model trained on ``y`` (svm_group_classes)."""
    labels, _, _, _ = group_classes(y)
    return labels.astype(np.float64)


def _pair_map(model_labels: np.ndarray, labels: np.ndarray):
    """For each canonical pair (i<j) of ``labels``: the model's pair column and its sign."""
    pos = {float(lab): k for k, lab in enumerate(model_labels)}
    model_pairs = {}
    col = 0
    for a in range(len(model_labels)):
        for b in range(a + 1, len(model_labels)):
            model_pairs[(a, b)] = col
            col += 1
    cols, signs = [], []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            a, b = pos.get(float(labels[i])), pos.get(float(labels[j]))
            if a is None or b is None:
                cols.append(-1)
                signs.append(np.nan)
            elif a < b:
                cols.append(model_pairs[(a, b)])
                signs.append(1.0)
            else:
                cols.append(model_pairs[(b, a)])
                signs.append(-1.0)
    return np.array(cols, dtype=np.int64), np.array(signs)


class CVPlan:
    """The folds of one cross-validation as independent tasks, and the result they fill in.

    ``tasks[i](omp_threads)`` trains fold ``i`` on ``perm[:begin] + perm[end:]`` (LIBSVM's order)
    and predicts its test rows as svm_cross_validation does (svm_predict, or
    svm_predict_probability for C-SVC / nu-SVC with -b 1), keeping the decision values.
    """

    def __init__(self, problem, params: SvmParams, folds: Folds, seed: int):
        self.problem, self.params, self.folds, self.seed = problem, params, folds, seed
        y = problem.y
        self.classification = params.is_classification
        self.labels = libsvm_label_order(y) if self.classification else np.empty(0)
        n, m = len(y), len(self.labels)
        self.probability = bool(params.probability) and self.classification
        self.y_pred = np.empty(n)
        self.decision_values = np.full((n, m * (m - 1) // 2 if self.classification else 1), np.nan)
        self.probabilities = np.zeros((n, m)) if self.probability else None
        self.tasks = [partial(self._fold, i) for i in range(folds.n_folds)]

    def _fold(self, i: int, omp_threads: int) -> None:
        _libsvm.set_omp_threads(omp_threads)
        test = self.folds.test(i)
        model = _libsvm.Model(self.problem.subset(self.folds.train(i)), self.params)
        # Prediction runs on one OpenMP thread per row, the fold's test rows split among
        # ``omp_threads`` threads instead: an OpenMP team per row costs a barrier per row, and
        # svm_predict_values sums SVR / one-class kernel terms in an OpenMP reduction whose
        # order varies with the threads (one thread makes every result reproducible).
        pred, dec, probs = model.predict_parallel(self.problem.rows[test], omp_threads,
                                                  probability=self.probability)
        self.y_pred[test] = pred
        if not self.classification:
            self.decision_values[test] = dec
            return
        cols, signs = _pair_map(model.labels, self.labels)
        if dec.shape[1]:
            self.decision_values[test] = dec[:, np.where(cols < 0, 0, cols)] * signs
        if probs is not None:
            where = {float(lab): k for k, lab in enumerate(model.labels)}
            for c, lab in enumerate(self.labels):
                k = where.get(float(lab))
                self.probabilities[test, c] = probs[:, k] if k is not None else 0.0

    def result(self) -> CVResult:
        return CVResult(y_true=self.problem.y.copy(), y_pred=self.y_pred,
                        fold=self.folds.fold_of(), decision_values=self.decision_values,
                        probabilities=self.probabilities, labels=self.labels,
                        params=self.params, n_folds=self.folds.n_folds, seed=self.seed,
                        folds=self.folds)


def prepare(dataset, params: SvmParams, *, y: np.ndarray | None = None, quiet: bool = True,
            problem=None):
    """Check everything before LIBSVM sees it; return ``(problem, resolved params)``.

    gamma 0 becomes 1/num_features as in svm-train; precomputed kernels are checked row by row;
    svm_check_parameter's objections raise :class:`ParameterError`.
    """
    labels = dataset.y if y is None else np.asarray(y, dtype=np.float64)
    if labels is None:
        raise SvmevalError(f"{dataset.name}: multi-label data: use --multilabel")
    if params.kernel_type == PRECOMPUTED:
        check_precomputed(dataset)
    params = params.resolved(dataset.n_features)
    if problem is None:
        problem = _libsvm.make_problem(dataset, labels)
    elif y is not None:
        problem = problem.subset(np.arange(problem.n_samples), labels)
    _libsvm.check_parameter(problem, params)
    _libsvm.set_quiet(quiet)
    return problem, params


def cross_validate(dataset, params: SvmParams, nr_fold: int, *, seed: int = 1,
                   jobs: int | None = None, quiet: bool = True, y: np.ndarray | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   problem=None) -> CVResult:
    """k-fold cross-validation exactly as LIBSVM's ``svm_cross_validation`` after ``srand(seed)``.

    ``params`` as given on the command line (gamma 0 = 1/num_features, resolved here as
    svm-train does). ``y`` replaces the data set's labels.
    ``jobs``: folds trained at once (default: the number of cores); the results are identical
    for every value. With ``-b 1`` LIBSVM's probability training draws from C ``rand()``, so
    folds run in order, one at a time, to keep every result identical to svm-train's.
    ``progress(done, total)`` is called as folds end.
    """
    if nr_fold < 2:
        raise SvmevalError("n-fold cross validation: n must >= 2")
    problem, params = prepare(dataset, params, y=y, quiet=quiet, problem=problem)
    _libsvm.srand(seed)
    folds = libsvm_folds(problem.y, nr_fold, stratified=params.is_classification,
                         rand=_libsvm.rand)
    plan = CVPlan(problem, params, folds, seed)
    run_tasks(plan.tasks, jobs=1 if params.probability else jobs, progress=progress)
    return plan.result()


def train_and_save(dataset, params: SvmParams, model_file: str, *, seed: int = 1,
                   quiet: bool = True) -> None:
    """svm-train without -v: train on every sample and save the model file svm-train writes.

    C ``rand()`` is seeded first (``-b 1`` training draws from it), as in a fresh svm-train.
    """
    if dataset.y is None:
        raise SvmevalError(f"{dataset.name}: multi-label data: use --multilabel with -v")
    problem, params = prepare(dataset, params, quiet=quiet)
    _libsvm.srand(seed)
    _libsvm.Model(problem, params).save(model_file)

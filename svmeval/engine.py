"""The fold loop: LIBSVM's cross-validation, owned here so every per-sample figure is kept.

``cross_validate`` reproduces ``svm_cross_validation`` step by step (seeded folds, each fold's
training set in LIBSVM's order, the same predict call), so predictions are bit-identical to
LIBSVM's, and adds what LIBSVM throws away: decision values, probabilities, the fold of each
sample. Folds may train concurrently (threads: ctypes releases the GIL); results do not depend
on the number of jobs.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import _libsvm
from .errors import SvmevalError
from .folds import Folds, group_classes, libsvm_folds
from .params import C_SVC, NU_SVC, ONE_CLASS, PRECOMPUTED, SvmParams


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


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


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


class _FoldRunner:
    """Trains and predicts one fold; results go into shared output arrays (disjoint rows)."""

    def __init__(self, problem, params, folds, labels, probability, out):
        self.problem, self.params, self.folds = problem, params, folds
        self.labels, self.probability, self.out = labels, probability, out

    def __call__(self, i: int, omp_threads: int) -> None:
        _libsvm.set_omp_threads(omp_threads)
        test = self.folds.test(i)
        model = _libsvm.Model(self.problem.subset(self.folds.train(i)), self.params)
        if not self.params.is_classification:
            # svm_predict_values sums SVR / one-class kernel terms in an OpenMP reduction whose
            # order varies with the threads; one thread makes every result reproducible.
            _libsvm.set_omp_threads(1)
        pred, dec, probs = model.predict(self.problem.rows[test], probability=self.probability)
        y_pred, dec_out, prob_out = self.out
        y_pred[test] = pred
        if self.params.svm_type in (C_SVC, NU_SVC):
            cols, signs = _pair_map(model.labels, self.labels)
            safe = np.where(cols < 0, 0, cols)
            dec_out[test] = dec[:, safe] * signs if dec.shape[1] else np.nan
            if probs is not None:
                where = {float(lab): k for k, lab in enumerate(model.labels)}
                for c, lab in enumerate(self.labels):
                    k = where.get(float(lab))
                    prob_out[test, c] = probs[:, k] if k is not None else 0.0
        else:
            dec_out[test] = dec


def cross_validate(dataset, params: SvmParams, nr_fold: int, *, seed: int = 1,
                   jobs: int | None = None, quiet: bool = True, y: np.ndarray | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   problem=None) -> CVResult:
    """k-fold cross-validation exactly as LIBSVM's ``svm_cross_validation`` after ``srand(seed)``.

    ``params`` as given on the command line (gamma 0 = 1/num_features, resolved here as
    svm-train does). ``y`` replaces the data set's labels (binary relevance uses it).
    ``jobs``: folds trained at once (default: the number of cores). With ``-b 1`` LIBSVM's
    probability training draws from C ``rand()``, so folds run in order, one at a time, to
    keep every result identical to svm-train's. ``progress(done, total)`` is called as folds end.
    """
    if nr_fold < 2:
        raise SvmevalError("n-fold cross validation: n must >= 2")
    labels_y = dataset.y if y is None else np.asarray(y, dtype=np.float64)
    if labels_y is None:
        raise SvmevalError(f"{dataset.name}: multi-label data needs --multilabel")
    params = params.resolved(dataset.n_features)
    if problem is None:
        problem = _libsvm.make_problem(dataset, labels_y)
    elif y is not None:
        problem = problem.subset(np.arange(problem.n_samples), labels_y)
    _libsvm.check_parameter(problem, params)
    _libsvm.set_quiet(quiet)

    _libsvm.srand(seed)
    folds = libsvm_folds(labels_y, nr_fold, stratified=params.is_classification,
                         rand=_libsvm.rand)
    k = folds.n_folds
    classification = params.is_classification
    labels = libsvm_label_order(labels_y) if classification else np.empty(0)
    n = len(labels_y)
    n_dec = len(labels) * (len(labels) - 1) // 2 if classification else 1
    probability = bool(params.probability) and classification
    out = (np.empty(n), np.full((n, n_dec), np.nan),
           np.zeros((n, len(labels))) if probability else None)
    runner = _FoldRunner(problem, params, folds, labels, probability, out)

    cores = default_jobs()
    jobs = cores if jobs is None else jobs
    if params.probability:
        jobs = 1  # rand() is drawn inside training: keep svm-train's order
    jobs = max(1, min(jobs, k))
    if jobs == 1:
        for i in range(k):
            runner(i, cores)
            if progress:
                progress(i + 1, k)
    else:
        _run_parallel(runner, k, jobs, cores, progress)
    return CVResult(y_true=labels_y.copy(), y_pred=out[0], fold=folds.fold_of(),
                    decision_values=out[1], probabilities=out[2], labels=labels,
                    params=params, n_folds=k, seed=seed, folds=folds)


def _run_parallel(runner, k: int, jobs: int, cores: int, progress) -> None:
    """Folds on ``jobs`` threads; each fold's OpenMP threads share the cores out."""
    lock = threading.Lock()
    done = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending = set()
        next_fold = 0
        while next_fold < k or pending:
            while next_fold < k and len(pending) < jobs:
                running = len(pending) + 1
                remaining = k - next_fold
                share = max(1, cores // max(1, min(running + remaining - 1, jobs)))
                pending.add(pool.submit(runner, next_fold, share))
                next_fold += 1
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                f.result()
                with lock:
                    done += 1
                    if progress:
                        progress(done, k)


def train_and_save(dataset, params: SvmParams, model_file: str, *, seed: int = 1,
                   quiet: bool = True) -> None:
    """svm-train without -v: train on every sample and save the model file svm-train writes.

    C ``rand()`` is seeded first (``-b 1`` training draws from it), as in a fresh svm-train.
    """
    if dataset.y is None:
        raise SvmevalError(f"{dataset.name}: multi-label data needs --multilabel and -v")
    params = params.resolved(dataset.n_features)
    problem = _libsvm.make_problem(dataset)
    _libsvm.check_parameter(problem, params)
    _libsvm.set_quiet(quiet)
    _libsvm.srand(seed)
    _libsvm.Model(problem, params).save(model_file)

"""The fold loop: LIBSVM's cross-validation, owned here so every per-sample figure is kept.

``cross_validate`` reproduces ``svm_cross_validation`` step by step (seeded folds, each fold's
training set in LIBSVM's order, the same predict call), so predictions are bit-identical to
LIBSVM's, and adds what LIBSVM throws away: decision values, probabilities, the fold of each
sample. Folds may train concurrently (threads: ctypes releases the GIL); results do not depend
on the number of jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable

import numpy as np

from . import _libsvm
from ..io.data import Dataset, check_precomputed
from ..errors import DataFormatError, ParameterError, SvmevalError, show_label, show_path
from ..metrics.classification import ConfusionCounts
from ..metrics.regression import regression_report
from ..metrics.ovo import class_scores
from ..metrics.scores import class_ranking
from .folds import INT_MAX, INT_MIN, Folds, group_classes, libsvm_folds
from ..params import PRECOMPUTED, SvmParams
from .schedule import run_tasks


@dataclass(frozen=True, eq=False)
class CVResult:
    """One cross-validation run (the first of them with ``repeat`` > 1).

    ``y_true``/``y_pred``: per sample, input order. ``fold``: the fold that tested it.
    ``labels``: the classes in LIBSVM's order for the whole data set (first appearance, +1
    before -1), the order of ``scores``' and ``probabilities``' columns and of the one-vs-one
    pairs of ``decision_values`` (pair (i, j), i < j, positive towards ``labels[i]``), whatever
    order a fold's own model had. Regression and one-class: one decision value per sample;
    ``labels`` empty.

    ``scores``: per sample and class, the score the ranking figures use: for two classes the
    decision value towards each class (``d``, ``-d``); for more, one-vs-rest scores from the
    one-vs-one values (:func:`~svmeval.metrics.scores.ovr_scores_from_ovo`); None for regression.
    ``decision_values``: kept for two classes, regression and one-class (one column), and for
    more classes only with ``keep_decision_values=True`` (n x k(k-1)/2 values), else None.
    ``repeats``: with ``repeat`` > 1, one :class:`Repetition` per further repetition (its
    counts and ranking figures, not its per-sample arrays); ``repeat_results``: those
    repetitions' whole results, kept only with ``keep_repeats=True``. ``data_name``: the data
    set's name (its file).
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    fold: np.ndarray
    decision_values: np.ndarray | None
    probabilities: np.ndarray | None
    labels: np.ndarray
    params: SvmParams
    n_folds: int
    seed: int
    folds: Folds = field(repr=False)
    scores: np.ndarray | None = None
    repeats: tuple = ()
    repeat_results: tuple = ()
    data_name: str = ""

    @property
    def n_samples(self) -> int:
        return len(self.y_true)

    @property
    def n_repeats(self) -> int:
        return 1 + len(self.repeats)


@dataclass(frozen=True, eq=False)
class Repetition:
    """What the figures of one further repetition need: its seed, its predictions' confusion
    counts (``labels`` ascending, rows true) or regression figures, and its scores' ranking
    figures (per class, ascending labels), not its per-sample arrays."""

    seed: int
    confusion: object | None  # metrics.ConfusionCounts
    regression: object | None  # metrics.RegressionReport
    ranking: dict | None  # "labels", "roc_auc", "average_precision", and overall figures


def libsvm_label_order(y: np.ndarray) -> np.ndarray:
    """The class order LIBSVM gives a model trained on ``y`` (svm_group_classes)."""
    labels, _, _, _ = group_classes(y)
    return labels.astype(np.float64)


def _pair_map(model_labels: np.ndarray, labels: np.ndarray):
    """For each canonical pair (i<j) of ``labels``: the model's pair column and its sign
    (column -1 and sign NaN where the model lacks a class). Vectorised: k(k-1)/2 pairs."""
    where = {float(lab): k for k, lab in enumerate(model_labels)}
    pos = np.array([where.get(float(lab), -1) for lab in labels], dtype=np.int64)
    i, j = np.triu_indices(len(labels), 1)  # canonical pairs in lexicographic order
    a, b = pos[i], pos[j]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    m = len(model_labels)
    cols = lo * (2 * m - lo - 1) // 2 + (hi - lo - 1)  # the model's column of pair (lo, hi)
    signs = np.where(a < b, 1.0, -1.0)
    missing = (a < 0) | (b < 0)
    cols[missing] = -1
    signs[missing] = np.nan
    return cols, signs


#: the most one-vs-one decision values a fold predicts at once (test rows are predicted in
#: chunks of rows so that a chunk's n_rows x k(k-1)/2 values stay within this many bytes)
PREDICT_CHUNK_BYTES = 32 << 20


@dataclass(frozen=True, eq=False)
class FoldOutput:
    """What one fold's model said about its test rows (``Folds.test(i)``, in that order):
    the predictions, and where the plan keeps them the decision values (canonical pairs),
    class scores and probabilities (canonical label order)."""

    y_pred: np.ndarray
    decision_values: np.ndarray | None = None
    scores: np.ndarray | None = None
    probabilities: np.ndarray | None = None


class CVPlan:
    """The folds of one cross-validation as independent tasks, and the result they fill in.

    ``tasks[i](omp_threads)`` trains fold ``i`` on ``perm[:begin] + perm[end:]`` (LIBSVM's order)
    and predicts its test rows as svm_cross_validation does (svm_predict, or
    svm_predict_probability for C-SVC / nu-SVC with -b 1), keeping per sample the prediction,
    the class scores and, where asked or cheap, the decision values. The two halves of a task
    can run apart (on a cluster): :meth:`fold_output` trains and predicts one fold anywhere,
    :meth:`store` puts its output into this plan's arrays (``collect=False``: a plan that
    only computes fold outputs and holds no per-sample array).

    Memory: n predictions, n x k class scores (k classes), n x k probabilities with -b 1; the
    n x k(k-1)/2 one-vs-one values only with ``keep_decision_values`` (or k = 2). A fold's test
    rows are predicted in chunks that bound the one-vs-one values held at once.
    """

    def __init__(self, problem, params: SvmParams, folds: Folds, seed: int, *,
                 keep_decision_values: bool = False, collect: bool = True):
        self.problem, self.params, self.folds, self.seed = problem, params, folds, seed
        y = problem.y
        self.classification = params.is_classification
        self.labels = libsvm_label_order(y) if self.classification else np.empty(0)
        n, m = len(y), len(self.labels)
        self.pairs = m * (m - 1) // 2 if self.classification else 1
        self.probability = bool(params.probability) and self.classification
        self.keep_decision_values = keep_decision_values or self.pairs <= 1
        self.has_scores = self.classification and m >= 2
        if collect:
            self.y_pred = np.empty(n)
            self.decision_values = (np.full((n, self.pairs), np.nan)
                                    if self.keep_decision_values else None)
            self.scores = np.full((n, m), np.nan) if self.has_scores else None
            self.probabilities = np.zeros((n, m)) if self.probability else None
        self.tasks = [partial(self._fold, i) for i in range(folds.n_folds)]

    def _fold(self, i: int, omp_threads: int) -> None:
        self.store(i, self.fold_output(i, omp_threads))

    def fold_output(self, i: int, omp_threads: int = 1) -> FoldOutput:
        """Train fold ``i`` and predict its test rows (LIBSVM on ``omp_threads`` threads)."""
        _libsvm.set_omp_threads(omp_threads)
        test = self.folds.test(i)
        model = _libsvm.Model(self.problem.subset(self.folds.train(i)), self.params)
        cols, signs = _pair_map(model.labels, self.labels) if self.classification else (None, None)
        t, m = len(test), len(self.labels)
        out = FoldOutput(
            y_pred=np.empty(t),
            decision_values=np.full((t, self.pairs), np.nan) if self.keep_decision_values
            else None,
            scores=np.full((t, m), np.nan) if self.has_scores else None,
            probabilities=np.zeros((t, m)) if self.probability else None)
        chunk = max(1, PREDICT_CHUNK_BYTES // (8 * max(1, self.pairs)))
        for start in range(0, t, chunk):
            part = slice(start, start + chunk)
            self._predict(model, test[part], part, out, omp_threads, cols, signs)
        return out

    def store(self, i: int, out: FoldOutput) -> None:
        """Put fold ``i``'s output into the plan's per-sample arrays."""
        rows = self.folds.test(i)
        self.y_pred[rows] = out.y_pred
        for name in ("decision_values", "scores", "probabilities"):
            mine = getattr(self, name)
            if mine is not None:
                mine[rows] = getattr(out, name)

    def _predict(self, model, rows, part, out: FoldOutput, omp_threads: int, cols,
                 signs) -> None:
        # Prediction runs on one OpenMP thread per row, the rows split among ``omp_threads``
        # threads instead: an OpenMP team per row costs a barrier per row, and
        # svm_predict_values sums SVR / one-class kernel terms in an OpenMP reduction whose
        # order varies with the threads (one thread makes every result reproducible).
        pred, dec, probs = model.predict_parallel(self.problem.rows[rows], omp_threads,
                                                  probability=self.probability)
        out.y_pred[part] = pred
        if not self.classification:
            out.decision_values[part] = dec
            return
        m = len(self.labels)
        if out.scores is not None and m > 2:  # from the model's own columns, in one C pass
            where = {float(lab): a for a, lab in enumerate(model.labels)}
            class_scores(dec, [where.get(float(lab), -1) for lab in self.labels],
                         len(model.labels), out=out.scores[part])
        if out.decision_values is None and m > 2:
            return  # the n x k(k-1)/2 values in canonical order are not wanted
        if dec.shape[1]:
            dec = dec[:, np.where(cols < 0, 0, cols)] * signs
        else:  # a fold with one class: no pair was trained
            dec = np.full((len(rows), len(cols)), np.nan)
        if out.decision_values is not None:
            out.decision_values[part] = dec
        if out.scores is not None and m == 2:
            out.scores[part] = np.column_stack((dec[:, 0], -dec[:, 0]))
        if probs is not None:
            where = {float(lab): k for k, lab in enumerate(model.labels)}
            for c, lab in enumerate(self.labels):
                k = where.get(float(lab))
                out.probabilities[part, c] = probs[:, k] if k is not None else 0.0

    def result(self) -> CVResult:
        return CVResult(y_true=self.problem.y.copy(), y_pred=self.y_pred,
                        fold=self.folds.fold_of(), decision_values=self.decision_values,
                        probabilities=self.probabilities, labels=self.labels,
                        params=self.params, n_folds=self.folds.n_folds, seed=self.seed,
                        folds=self.folds, scores=self.scores)


def repetition(result: CVResult) -> Repetition:
    """What the figures of ``result`` need when it is a further repetition: its counts and
    its scores' ranking figures (:class:`Repetition`)."""
    if result.params.is_regression:
        return Repetition(seed=result.seed, confusion=None,
                          regression=regression_report(result.y_true, result.y_pred),
                          ranking=None)
    counts = ConfusionCounts().update(result.y_true, result.y_pred)
    scored, source = _ranking_scores(result)
    return Repetition(seed=result.seed, confusion=counts, regression=None,
                      ranking=class_ranking(result.y_true, scored, result.labels, source=source))


def _ranking_scores(result: CVResult):
    """(class scores in LIBSVM's label order, their source): probabilities with -b 1."""
    if result.probabilities is not None:
        return result.probabilities, "probabilities"
    return result.scores, "decision values"


def check_inputs(dataset, params: SvmParams, y=None) -> np.ndarray:
    """The checks every entry point makes before LIBSVM sees anything; returns the labels.

    ``dataset`` a :class:`Dataset` (checked again: its arrays may have changed since it was
    built), ``params`` a :class:`SvmParams`, ``y`` (optional) one finite label per sample. For
    C-SVC and nu-SVC every label must fit a C ``int``: LIBSVM groups classes by ``(int)label``.
    """
    if not isinstance(dataset, Dataset):
        raise SvmevalError(f"dataset must be a svmeval Dataset, got {type(dataset).__name__}")
    if not isinstance(params, SvmParams):
        raise ParameterError(f"params must be a svmeval SvmParams, got {type(params).__name__}")
    dataset.validate()
    if y is None:
        if dataset.y is None:
            raise SvmevalError(f"{show_path(dataset.name)}: multi-label data: use --multilabel")
        labels = dataset.y
    else:
        try:
            labels = np.asarray(y, dtype=np.float64)
        except (TypeError, ValueError):
            raise SvmevalError("y must hold one number per sample") from None
        if labels.ndim != 1 or len(labels) != dataset.n_samples:
            raise SvmevalError(f"y must be 1-D with one label per sample ({dataset.n_samples}), "
                               f"got shape {labels.shape}")
        if not np.isfinite(labels).all():
            i = int(np.flatnonzero(~np.isfinite(labels))[0])
            raise SvmevalError(f"y[{i}] = {labels[i]} is not finite")
    if params.is_classification:
        keys = np.trunc(labels)
        outside = (keys < INT_MIN) | (keys > INT_MAX)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise DataFormatError(
                dataset.name, i + 1,
                f"label {show_label(labels[i])} does not fit a C int: LIBSVM groups C-SVC and "
                "nu-SVC classes by (int)label (regression: -s 3 or -s 4)")
    return labels


def _check_run(nr_fold=None, seed=1, jobs=None, repeat=1) -> None:
    """cross_validate's and train_and_save's own arguments."""
    if nr_fold is not None:
        if isinstance(nr_fold, (bool, float, str)) or not hasattr(nr_fold, "__index__"):
            raise SvmevalError(f"nr_fold must be an integer, got {nr_fold!r}")
        if int(nr_fold) < 2:
            raise SvmevalError(f"n-fold cross validation: n must >= 2, got nr_fold = "
                               f"{int(nr_fold)}")
        if int(nr_fold) > INT_MAX:
            raise SvmevalError(f"nr_fold = {int(nr_fold)} does not fit a C int")
    if isinstance(seed, (bool, float, str)) or not hasattr(seed, "__index__") \
            or not 0 <= int(seed) <= 2**32 - 1:
        raise SvmevalError(f"seed must be an integer from 0 to 4294967295 (C srand's unsigned "
                           f"int), got {seed!r}")
    if jobs is not None and (isinstance(jobs, (bool, float, str)) or not hasattr(jobs, "__index__")
                             or not 1 <= int(jobs) <= INT_MAX):
        raise SvmevalError(f"jobs must be a positive integer, got {jobs!r}")
    if isinstance(repeat, (bool, float, str)) or not hasattr(repeat, "__index__") \
            or int(repeat) < 1:
        raise SvmevalError(f"repeat must be >= 1, got {repeat!r}")


def prepare(dataset, params: SvmParams, *, y: np.ndarray | None = None, quiet: bool = True,
            problem=None):
    """Check everything before LIBSVM sees it; return ``(problem, resolved params)``.

    gamma 0 becomes 1/num_features as in svm-train; precomputed kernels are checked row by row;
    svm_check_parameter's objections raise :class:`ParameterError`.
    """
    labels = check_inputs(dataset, params, y)
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


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def cross_validate(dataset, params: SvmParams, nr_fold: int, *, seed: int = 1,
                   repeat: int = 1, jobs: int | None = None, quiet: bool = True,
                   y: np.ndarray | None = None,
                   progress: Callable[[int, int], None] | None = None, problem=None,
                   keep_decision_values: bool = False, keep_repeats: bool = False,
                   client=None, share: bool | None = None) -> CVResult:
    """k-fold cross-validation exactly as LIBSVM's ``svm_cross_validation`` after ``srand(seed)``.

    ``params`` as given on the command line (gamma 0 = 1/num_features, resolved here as
    svm-train does). ``y`` replaces the data set's labels.
    ``repeat``: R cross-validations with seeds ``repetition_seeds(seed, R)``; the result is the
    first one's, with the others' counts and ranking figures in ``repeats`` (their whole
    results in ``repeat_results`` only with ``keep_repeats``).
    ``jobs``: folds trained at once (default: the number of cores); the results are identical
    for every value. With ``-b 1`` LIBSVM's probability training draws from C ``rand()``, so
    folds run in order, one at a time, to keep every result identical to svm-train's.
    ``progress(done, total)`` is called as folds end (over all repetitions).
    ``keep_decision_values``: keep the n x k(k-1)/2 one-vs-one decision values of k > 2
    classes (by default only the n x k class scores they give).
    ``client``: a ``distributed.Client``, or an address (``tcp://host:8786``, ``local[:N]``):
    every repetition's folds run as tasks on that Dask cluster (the data sent to each worker
    once), with results identical to a local run.
    ``share`` (runs here, not with ``client``): whether every fold of every repetition trains
    on one kernel matrix computed once (:class:`~svmeval.cv.kernel.SharedKernel`, LIBSVM's
    ``-t 4``; results bit-identical): None (default) where the cost model
    (:func:`~svmeval.cv.kernel.plan_sharing`) says it pays, True always, False never. Never
    with ``-b 1``, a precomputed kernel or matrices over
    :data:`~svmeval.cv.kernel.DEFAULT_MEMORY_MB`, even with True.
    """
    _check_run(nr_fold, seed, jobs, repeat)
    nr_fold, seed, repeat = int(nr_fold), int(seed), int(repeat)
    problem, params = prepare(dataset, params, y=y, quiet=quiet, problem=problem)
    results, repeats = [], []
    first = None

    def finish(r: int, result: CVResult) -> None:
        nonlocal first
        if r == 0:
            first = result
        else:
            repeats.append((r, repetition(result)))
            if keep_repeats:
                results.append((r, result))

    seeds = repetition_seeds(seed, repeat)
    if client is not None:
        from . import cluster

        if y is not None:
            dataset = replace(dataset, y=problem.y)
        with cluster.client_for(client) as ready:
            _cross_validate_on_cluster(ready, dataset, problem, params, nr_fold, seeds,
                                       keep_decision_values, progress, finish)
    else:
        kernel = _shared_kernel(problem, params, len(dataset.indices), nr_fold, repeat, share,
                                jobs)
        cv_problem, cv_params = ((problem, params) if kernel is None
                                 else (kernel.cv_problem, kernel.train_params(params)))
        for r, s in enumerate(seeds):
            _libsvm.srand(s)
            folds = libsvm_folds(problem.y, nr_fold, stratified=params.is_classification,
                                 rand=_libsvm.rand)
            plan = CVPlan(cv_problem, cv_params, folds, s,
                          keep_decision_values=keep_decision_values)
            step = None if progress is None else _repetition_progress(progress, r, repeat)
            run_tasks(plan.tasks, jobs=1 if params.probability else jobs, progress=step)
            result = plan.result()
            finish(r, result if kernel is None else kernel.restore(result, params))
    return replace(first, repeats=tuple(x for _, x in sorted(repeats, key=lambda t: t[0])),
                   repeat_results=tuple(x for _, x in sorted(results, key=lambda t: t[0])),
                   data_name=getattr(dataset, "name", ""))


def _shared_kernel(problem, params: SvmParams, nonzeros: int, nr_fold: int, repeat: int,
                   share: bool | None, jobs: int | None):
    """The kernel matrix every fold of every repetition trains on
    (:class:`~svmeval.cv.kernel.SharedKernel`), or None to train on the features.

    ``share`` None: the cost model, for ``repeat`` x k trainings on one kernel; True: always;
    False: never. Never with ``-b 1`` (folds run in order, drawing from C ``rand()``), an
    already precomputed kernel (``-t 4``) or matrices over the memory budget.
    """
    from . import kernel as shared_kernel

    n = problem.n_samples
    if share is False or params.probability or n < 2 \
            or params.kernel_type not in shared_kernel.SHAREABLE:
        return None
    n_folds = min(nr_fold, n)  # LIBSVM's leave-one-out when the folds outnumber the rows
    budget = shared_kernel.DEFAULT_MEMORY_MB
    plan = shared_kernel.plan_sharing(n, nonzeros, params, trainings_per_kernel=repeat * n_folds,
                                      n_folds=n_folds, memory_mb=budget,
                                      probability=params.probability)
    if (share is None and not plan.share) \
            or shared_kernel.matrix_bytes(n, params.kernel_type) > budget * 2**20:
        return None
    return shared_kernel.SharedKernel(problem, params, threads=jobs)


def _cross_validate_on_cluster(client, dataset, problem, params: SvmParams, nr_fold: int,
                               seeds: list[int], keep_decision_values: bool, progress,
                               finish: Callable[[int, CVResult], None]) -> None:
    """Every repetition's folds as tasks on a Dask cluster (:mod:`svmeval.cv.cluster`);
    ``finish(r, result)`` as each repetition's last fold arrives (any order)."""
    from . import cluster, workers

    with cluster.Session(client) as session:
        data = session.data(dataset)
        jobs, plans, left = [], {}, {}
        total = done = 0
        for r, s in enumerate(seeds):
            _libsvm.srand(s)  # the folds drawn here, as locally: the workers only train
            folds = libsvm_folds(problem.y, nr_fold, stratified=params.is_classification,
                                 rand=_libsvm.rand)
            if params.probability:  # -b 1 draws from rand() while training: one task, in order
                jobs.append(cluster.Job(workers.cv_task,
                                        data + (params, nr_fold, s, keep_decision_values),
                                        (r, None), priority=-r))
                total += folds.n_folds
                continue
            plans[r] = CVPlan(problem, params, folds, s,
                              keep_decision_values=keep_decision_values)
            shipped = session.scatter(folds)
            left[r] = folds.n_folds
            total += folds.n_folds
            jobs.extend(cluster.Job(workers.fold_task,
                                    data + (shipped, params, (i,), plans[r].keep_decision_values),
                                    (r, i), priority=-r) for i in range(folds.n_folds))

        def on_done(tag, output) -> None:
            nonlocal done
            r, i = tag
            if i is None:
                done += output.n_folds
                finish(r, output)
            else:
                plans[r].store(i, output[0])
                done += 1
                left[r] -= 1
                if left[r] == 0:
                    finish(r, plans.pop(r).result())
            if progress is not None:
                progress(done, total)

        session.run(jobs, on_done)


def repetition_seeds(seed: int, repeat: int) -> list[int]:
    """The C ``srand`` seeds of ``repeat`` repetitions starting at ``seed`` (svm-train's folds
    for the first).

    Repetition r uses ``seed + r`` modulo 2^32 (C ``srand`` takes an unsigned int), skipping a
    value that seeds ``rand()`` as one already used: glibc's ``srand(0)`` is ``srand(1)``, so
    ``--seed 0 --repeat 3`` uses 0, 2, 3. Every repetition thus draws different folds.
    """
    seeds: list[int] = []
    used: set[int] = set()
    s = seed
    while len(seeds) < repeat:
        c = s % 2**32
        if (c or 1) not in used:
            used.add(c or 1)
            seeds.append(c)
        s += 1
    return seeds


def _repetition_progress(progress, r: int, repeat: int):
    """Fold progress of repetition ``r`` as progress over every repetition's folds."""
    return lambda done, total: progress(r * total + done, total * repeat)


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def train_and_save(dataset, params: SvmParams, model_file: str, *, seed: int = 1,
                   quiet: bool = True) -> None:
    """svm-train without -v: train on every sample and save the model file svm-train writes.

    C ``rand()`` is seeded first (``-b 1`` training draws from it), as in a fresh svm-train.
    """
    _check_run(seed=seed)
    if isinstance(dataset, Dataset) and dataset.y is None:
        raise SvmevalError(f"{show_path(dataset.name)}: multi-label data: use --multilabel "
                           "with -v")
    problem, params = prepare(dataset, params, quiet=quiet)
    _libsvm.srand(seed)
    _libsvm.Model(problem, params).save(model_file)

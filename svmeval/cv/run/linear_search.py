"""LIBLINEAR's warm-started search over C (``train -C``, solvers 0, 2 and 11), with every
prediction of every C kept.

LIBLINEAR's ``find_parameters`` prints one rate a C and throws the predictions away. Here its
loop (linear.cpp's ``find_parameters`` and ``find_parameter_C``, 2.50) runs step for step on
LIBLINEAR's own ``train`` and ``predict``: the same shuffle after ``srand(1)`` (then the same
``rand()`` stream through every training), the same first C (``calc_start_C``: the largest
squared row norm, bias feature included, summed in row order), each fold warm-started from its
weights at the C before, the same stop (C above the largest, or five Cs in a row where no fold's
weights moved by more than 1e-15), and for ``-s 11`` the same 20 values of p, largest first.
Its lines (``log2c= ... rate=...``, the best C) are computed from the predictions as LIBLINEAR
computes them, in the same order of additions: byte for byte ``train -C``'s.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, replace

import numpy as np

from svmeval.cv import _liblinear
from svmeval.cv.run.linear_threads import FoldFit, FoldRunner, each_fold, fold_threads
from svmeval.errors import ParameterError, SvmevalError
from svmeval.params import LinearParams, linear_configuration

__all__ = ["LinearSearch", "LinearStep", "linear_search_task", "search_c_linear", "search_on"]

#: the solvers LIBLINEAR's warm-started search takes
SEARCHED = (0, 2, 11)
#: LIBLINEAR's largest C: classifiers, then L2-loss SVR
MAX_C = {0: 1024.0, 2: 1024.0, 11: 1048576.0}
P_STEPS = 20
#: what find_parameters writes on stderr (fprintf) where the folds outnumber the rows
LEAVE_ONE_OUT = (
    b"WARNING: # folds > # data. Will use # folds = # data instead "
    b"(i.e., leave-one-out cross validation)\n"
)


@dataclass(frozen=True)
class LinearStep:
    """One C of the search (and its p, for ``-s 11``): LIBLINEAR's score (the accuracy as a
    fraction, or the mean squared error) and the cross-validation's whole result."""

    C: float
    p: float
    score: float
    result: object  # a CVResult


@dataclass(frozen=True)
class LinearSearch:
    """The search: every step in LIBLINEAR's order, its best C (and p; -1 for classifiers)
    and score, and ``lines``: what LIBLINEAR's print hook gets during the search (its
    ``log2c=`` lines and ``WARNING: maximum C reached.``), in order."""

    steps: tuple
    best_C: float
    best_p: float
    best_score: float
    lines: tuple
    n_folds: int
    params: LinearParams


def search_c_linear(
    dataset,
    params: LinearParams,
    folds: int = 5,
    *,
    start_C=None,
    start_p=None,
    seed: int = 1,
    keep_scores: bool = False,
    warn: bool = True,
    jobs: int | None = None,
) -> LinearSearch:
    """LIBLINEAR's ``train -C -v folds`` (``-c start_C``, ``-p start_p`` where given) on
    ``dataset`` (a :class:`~svmeval.io.data.Dataset` or a file name), every C's predictions
    kept. ``params.solver_type`` must be 0, 2 or 11. ``seed``: C ``rand()``'s seed (1:
    ``train``'s own). ``keep_scores``: each C's result keeps a classifier's decision values
    as its class scores (two classes: ``d`` towards the model's first class, ``-d`` towards
    the other; more: each class's one-vs-rest value), for the ranking figures. ``warn``:
    LIBLINEAR's leave-one-out warning written on stderr (False: the caller's to give).
    ``jobs``: the threads each C's folds train on (None: the cores; the steps are the same
    for every ``jobs``: :mod:`svmeval.cv.run.linear_threads`)."""
    from svmeval.cv.plan.folds import check_folds, check_samples, group_classes, libsvm_folds
    from svmeval.io.data import Dataset, read_dataset

    folds = check_folds(folds)
    if not isinstance(params, LinearParams):
        raise SvmevalError("params: a LinearParams is needed")
    params.check()
    if params.solver_type not in SEARCHED:
        raise SvmevalError("Warm-start parameter search only available for -s 0, -s 2 and -s 11")
    if not isinstance(dataset, Dataset):
        dataset = read_dataset(dataset)
    if dataset.y is None:
        raise SvmevalError("LIBLINEAR's parameter search takes single-label data")
    l = dataset.n_samples
    check_samples(l)
    labels = (
        group_classes(dataset.y)[0].astype(np.float64)
        if params.is_classification
        else np.array([], dtype=np.float64)
    )
    c = _liblinear.library()
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    with _liblinear.STATE_LOCK:
        message = c.check_parameter(problem.address, ctypes.addressof(param))
        if message:
            raise ParameterError(message.decode())
        c.set_print(c.print_null)  # LIBLINEAR silences training during the search
        if folds > l and warn:  # find_parameters' own warning, on stderr as it writes it
            from svmeval.cv.c_library import write_message

            write_message(LEAVE_ONE_OUT)
        c.srand(seed)
        plan = libsvm_folds(dataset.y, folds, stratified=False, rand=c.rand, shuffle=c.shuffle)
        search = _Search(c, problem, param, plan, params, labels, dataset)
        search.seed = seed
        search.keep_scores = keep_scores
        search.jobs = fold_threads(params.solver_type, jobs, plan.n_folds)
        max_xtx = _max_squared_norm(dataset, params.bias)
        if params.solver_type != 11:
            start = start_C if start_C is not None and start_C > 0 else None
            if start is None:
                start = _start_c(params.solver_type, l, max_xtx, dataset.y, params.p)
            best_C, best_score = search.find_c(min(start, MAX_C[0]), MAX_C[0], params.p)
            best_p = -1.0
        else:
            best_C, best_p, best_score = _search_svr(search, dataset, max_xtx, start_C, start_p)
    del kept
    return LinearSearch(
        steps=tuple(search.steps),
        best_C=best_C,
        best_p=best_p,
        best_score=best_score,
        lines=tuple(search.lines),
        n_folds=plan.n_folds,
        params=params,
    )


def linear_search_task(
    dataset, params, folds: int, seed: int, start=(None, None), keep_scores: bool = True
):
    """On a worker: LIBLINEAR's warm-started search over C
    (:func:`~svmeval.cv.run.linear_search.search_c_linear`; ``start``: its first C and p,
    None: LIBLINEAR's), its leave-one-out warning left to the client
    (:func:`search_on`)."""
    start_C, start_p = start
    return search_c_linear(
        dataset,
        params,
        folds,
        start_C=start_C,
        start_p=start_p,
        seed=seed,
        keep_scores=keep_scores,
        warn=False,
    )


def search_on(client, dataset, params, folds: int, seed: int = 1, **search):
    """LIBLINEAR's search as one task on the cluster of ``client``
    (:func:`linear_search_task`; ``search``: its ``start`` and ``keep_scores``): its
    ``check_parameter`` and its leave-one-out warning here first, as the local search gives
    them."""
    from svmeval.cv.run.linear import check_linear
    from svmeval.cv.run.linear_cluster import linear_cluster

    if params.solver_type not in SEARCHED:  # before the cluster, as the local search
        raise SvmevalError("Warm-start parameter search only available for -s 0, -s 2 and -s 11")
    check_linear(dataset, params)
    if folds > dataset.n_samples:
        from svmeval.cv.c_library import write_message

        write_message(LEAVE_ONE_OUT)
    start = search.get("start", (None, None))
    keep = search.get("keep_scores", True)
    with linear_cluster(client) as on:
        (found,) = on.run(dataset, [(linear_search_task, (params, folds, seed, start, keep))])
    return found


def _search_svr(search, dataset, max_xtx, start_C, start_p):
    y = dataset.y
    max_p = float(np.max(np.abs(y)))
    best_C, best_p, best_score = math.nan, -1.0, math.inf
    i = P_STEPS - 1
    if start_p is not None and start_p > 0 and max_p > 0:
        i = min(int(start_p / (max_p / P_STEPS)), i)
    while i >= 0:
        p = i * max_p / P_STEPS
        if start_C is not None and start_C > 0:
            start = start_C
        else:
            start = _start_c(11, len(y), max_xtx, y, p)
        found_C, score = search.find_c(min(start, MAX_C[11]), MAX_C[11], p)
        if score < best_score:
            best_C, best_p, best_score = found_C, p, score
        i -= 1
    return best_C, best_p, best_score


def _max_squared_norm(dataset, bias: float) -> float:
    """calc_start_C's largest ``x_i . x_i``: each row's squares added in the row's order (the
    bias feature last), as LIBLINEAR adds them."""
    indptr = np.asarray(dataset.indptr, dtype=np.int64)
    counts = np.diff(indptr)
    acc = np.zeros(len(counts))
    values = np.asarray(dataset.values, dtype=np.float64)
    for k in range(int(counts.max()) if len(counts) else 0):
        rows = np.flatnonzero(counts > k)
        v = values[indptr[rows] + k]
        acc[rows] += v * v
    if bias >= 0:
        acc += bias * bias
    return float(acc.max()) if len(acc) else 0.0


def _start_c(solver: int, l: int, max_xtx: float, y, p: float) -> float:
    """linear.cpp's calc_start_C."""
    if solver == 0:
        denominator = l * max_xtx
        min_c = math.inf if denominator == 0 else 1.0 / denominator
    elif solver == 2:
        denominator = 2 * l * max_xtx
        min_c = math.inf if denominator == 0 else 1.0 / denominator
    else:
        sum_y = loss = 0.0
        for value in y.tolist():
            y_abs = abs(value)
            sum_y += y_abs
            loss += max(y_abs - p, 0.0) * max(y_abs - p, 0.0)
        delta2 = 0.1
        denominator = 8 * sum_y * sum_y * max_xtx
        if loss > 0 and denominator > 0:
            min_c = delta2 * delta2 * loss / denominator
        else:
            min_c = math.inf
    if math.isinf(min_c):
        return math.inf
    if min_c == 0:
        return 0.0
    return 2.0 ** math.floor(math.log(min_c) / math.log(2.0))


class _Search:
    """find_parameter_C's loop over C for one p, on LIBLINEAR's train and predict."""

    def __init__(self, c, problem, param, plan, params, labels, dataset):
        self.c, self.problem, self.param, self.plan = c, problem, param, plan
        self.params, self.labels, self.dataset = params, labels, dataset
        self.runner = FoldRunner(c, problem, plan)
        self.tests = self.runner.tests
        self.sizes = [sub.struct.l for sub in self.runner.subs]
        self.jobs = 1
        self.fold = plan.fold_of()
        self.y = problem.y
        self.steps: list = []
        self.lines: list = []
        self.seed = 1
        self.keep_scores = False

    def find_c(self, start_C: float, max_C: float, p: float) -> tuple[float, float]:
        param = self.param
        regression = self.params.solver_type == 11
        l = len(self.y)
        target = np.empty(l, dtype=np.float64)
        keep = self.keep_scores and not regression
        scores = np.full((l, len(self.labels)), np.nan) if keep else None
        place = {float(v): k for k, v in enumerate(self.labels)}
        prev_w: list = [None] * self.plan.n_folds
        unchanged = 0
        best_score = math.inf if regression else 0.0
        best_C = C = start_C
        param.p = p
        while C <= max_C:
            param.C = C
            fits = self._fit_folds(param, prev_w)
            for i, model in enumerate(fits):
                previous, w, dec = prev_w[i], model.w, model.dec
                if previous is not None and unchanged >= 0:
                    d = w - previous
                    norm = math.sqrt(float(np.cumsum(d * d)[-1])) if len(w) else 0.0
                    if norm > 1e-15:
                        unchanged = -1
                prev_w[i] = w
                target[self.tests[i]] = model.predictions
                if scores is not None and model.label is not None:
                    if model.nr_class == 2:
                        dec = np.column_stack((dec[:, 0], -dec[:, 0]))
                    columns = [place[float(v)] for v in model.label[: dec.shape[1]]]
                    scores[np.ix_(self.tests[i], columns)] = dec
            param.init_sol = None
            log2c = math.log(C) / math.log(2.0) if C > 0 else -math.inf
            if regression:
                d = target - self.y
                score = float(np.cumsum(d * d)[-1]) / l
                better = score < best_score
                self.lines.append(f"log2c={log2c:7.2f}\tp={p:7.2f}\tMean squared error={score:g}\n")
            else:
                score = int(np.count_nonzero(target == self.y)) / l
                better = score > best_score
                self.lines.append(f"log2c={log2c:7.2f}\trate={100.0 * score:g}\n")
            if better:
                best_C, best_score = C, score
            result = self._result(target.copy(), C, p)
            if scores is not None:
                result = replace(result, scores=scores.copy())
            self.steps.append(LinearStep(C, p, score, result))
            unchanged += 1
            if unchanged == 5:
                break
            C = C * 2
        if C > max_C:
            self.lines.append("WARNING: maximum C reached.\n")
        return best_C, best_score

    def _fit_folds(self, param, prev_w: list) -> list:
        """Every fold trained at ``param``'s C and p, each warm-started from its own weights
        at the C before (``prev_w``), and its test rows predicted: each fold's
        :class:`~svmeval.cv.run.linear_threads.FoldFit`, in fold order. A fold's training reads only its own weights and
        draws nothing from ``rand()``: the folds train side by side on ``self.jobs`` threads,
        each with its own copy of ``param``."""
        runner = self.runner

        def fold(i: int) -> FoldFit:
            own = _liblinear.Parameter.from_buffer_copy(param)
            previous = prev_w[i]
            own.init_sol = (
                None
                if previous is None
                else previous.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            )
            return runner.fit(i, own)

        return each_fold(self.c, fold, self.sizes, jobs=self.jobs, quiet=True)

    def _result(self, y_pred, C: float, p: float):
        from svmeval.cv.collect.results import CVResult

        params = replace(self.params, C=C, p=p)
        return CVResult(
            y_true=np.array(self.dataset.y, dtype=np.float64),
            y_pred=y_pred,
            fold=self.fold,
            decision_values=None,
            probabilities=None,
            labels=self.labels,
            params=params,
            n_folds=self.plan.n_folds,
            seed=self.seed,
            folds=self.plan,
            data_name=self.dataset.name,
            configuration=linear_configuration(params),
            classes=self.dataset.classes,
        )

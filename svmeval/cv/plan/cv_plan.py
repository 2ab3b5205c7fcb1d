"""One cross-validation's folds as tasks, and the result they fill in.

:class:`CVPlan` reproduces ``svm_cross_validation``'s fold loop step by step (each fold's
training set in LIBSVM's order, the same predict call), so predictions are bit-identical to
LIBSVM's, and keeps what LIBSVM throws away: decision values, class scores, probabilities, the
fold of each sample. A fold is one task; a task's output never depends on where or when it ran.
:class:`FoldByFold` runs a plan one fold at a time (nested cross-validation's outer loop),
:func:`in_order` its folds one after another (``-b 1``).

A fold's output in the run's canonical order is :mod:`~svmeval.cv.plan.fold_output`'s, the folds
drawn after ``srand(seed)`` and the seeds of repetitions :mod:`~svmeval.cv.plan.seeds`'s, a
problem with other labels :mod:`~svmeval.cv.plan.relabelled`'s; their names are kept here too.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import numpy as np

from svmeval.cv import _libsvm, _model, messages
from svmeval.cv.collect.results import CVResult, Folds
from svmeval.cv.plan.fold_output import FoldOutput, libsvm_label_order, pair_map, predict_part
from svmeval.cv.plan.relabelled import relabelled
from svmeval.cv.plan.seeds import draw_folds, repetition_seeds, seeded_folds  # noqa: F401
from svmeval.cv.task import FollowUps, Task
from svmeval.params import SvmParams

#: the most one-vs-one decision values a fold predicts at once (test rows are predicted in
#: chunks of rows so that a chunk's n_rows x k(k-1)/2 values stay within this many bytes)
PREDICT_CHUNK_BYTES = 32 << 20

#: the fewest test rows a prediction task of a fold trained pair by pair gets
PREDICT_PART_ROWS = 64

#: the parts a fold's prediction is split into (None: as many as cores)
PREDICT_PARTS: int | None = None


class CVPlan:
    """The folds of one cross-validation as independent tasks, and the result they fill in.

    ``tasks[i](omp_threads)`` trains fold ``i`` on ``perm[:begin] + perm[end:]`` (LIBSVM's order)
    and predicts its test rows as svm_cross_validation does (svm_predict, or
    svm_predict_probability for C-SVC / nu-SVC with -b 1), keeping per sample the prediction,
    the class scores and, where asked or cheap, the decision values. The two halves of a task
    can run apart (on a cluster): :meth:`fold_output` trains and predicts one fold anywhere,
    :meth:`store` puts its output into this plan's arrays (``collect=False``: a plan that
    only computes fold outputs and holds no per-sample array). ``stored``: fold -> output of
    folds already known (a results store's): they get no task.

    Memory: n predictions, n x k class scores (k classes), n x k probabilities with -b 1; the
    n x k(k-1)/2 one-vs-one values only with ``keep_decision_values`` (or k = 2). A fold's test
    rows are predicted in chunks that bound the one-vs-one values held at once.
    """

    def __init__(
        self,
        problem,
        params: SvmParams,
        folds: Folds,
        seed: int,
        *,
        keep_decision_values: bool = False,
        collect: bool = True,
        stored: dict | None = None,
        probe=None,
        probe_labels: np.ndarray | None = None,
        transform=None,
    ):
        self.problem, self.params, self.folds, self.seed = problem, params, folds, seed
        #: a :class:`~svmeval.cv.run.preprocessed.FoldTransform`: each fold trains and predicts
        #: on the rows as its training rows' preprocessing makes them (None: the features)
        self.transform = transform
        #: a :class:`~svmeval.cv.run.probe.KernelProbe` deciding whether the tasks that start
        #: after the first training train on its shared kernel (with the labels
        #: ``probe_labels``, None: the kernel's) instead of the features (None: never)
        self.probe, self._probe_labels = probe, probe_labels
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
            self.decision_values = (
                np.full((n, self.pairs), np.nan) if self.keep_decision_values else None
            )
            self.scores = np.full((n, m), np.nan) if self.has_scores else None
            self.probabilities = np.zeros((n, m)) if self.probability else None
        self._pair_maps: dict = {}
        stored = stored or {}
        self.tasks = [
            task for i in range(folds.n_folds) if i not in stored for task in self._fold_tasks(i)
        ]
        if stored:  # folds taken from a results store
            self.store_folds(stored)

    def _fold_tasks(self, i: int) -> list:
        """Fold ``i``'s tasks: the fold, or with three classes or more (C-SVC, nu-SVC, no
        ``-b 1``) its one-vs-one pairs (:mod:`svmeval.cv.plan.pairs`)."""
        label = self.message_label(i)
        if self.transform is not None:  # one svm_train call on the fold's own rows
            size = len(self.folds.train(i))
            return [Task(partial(self._fold, i), size, self.useful_threads(size), i, label)]
        if self.classification and not self.probability and len(self.labels) > 2:
            from svmeval.cv.plan import pairs

            if not pairs.ENABLED or len(self.labels) > pairs.MAX_CLASSES:
                size = len(self.folds.train(i))
                return [Task(partial(self._fold, i), size, self.useful_threads(size), i, label)]
            paired = pairs.PairedFold(self, i)
            if paired.n_classes > 2:
                return paired.tasks()
        size = len(self.folds.perm) - len(self.folds.test(i))
        return [Task(partial(self._fold, i), size, self.useful_threads(size), i, label)]

    def message_label(self, i: int) -> str:
        """The heading of fold ``i``'s block of LIBSVM's messages ("" when they are not
        shown): ``fold 2/5`` (``fold 2/5, seed 3`` for folds of a seed other than 1)."""
        if messages.is_quiet():
            return ""
        seed = "" if self.seed == 1 else f", seed {self.seed}"
        return f"fold {i + 1}/{self.folds.n_folds}{seed}"

    def useful_threads(self, train_rows: int) -> int:
        """The OpenMP threads a training on ``train_rows`` rows of this problem puts to use."""
        from svmeval.cv.schedule import useful_threads

        return useful_threads(self.problem, self.params, train_rows)

    def _fold(self, i: int, omp_threads: int) -> int:
        self.store(i, self.fold_output(i, omp_threads))
        return 1

    def fold_output(self, i: int, omp_threads: int = 1) -> FoldOutput:
        """Train fold ``i`` and predict its test rows (LIBSVM on ``omp_threads`` threads)."""
        _libsvm.set_omp_threads(omp_threads)
        train = self.folds.train(i)
        if self.transform is not None:
            rows, fitted = self.transform.problem(train, self.problem.y)
            params = self.params
            with self.transform.kernel(train, self.problem.y, rows, params) as kernel:
                if kernel is not None:  # the fold's kernel, shared by the units of this fold
                    rows, params = kernel.cv_problem, kernel.train_params(params)
                model = _model.Model(rows.subset(train), params)
                output = self.predict_rows(model, self.folds.test(i), omp_threads, rows)
            return self.transform.restore(output, fitted)
        problem, params = self.training_source(len(train), self.params)
        model = _model.Model(problem.subset(train), params)
        if problem is self.problem:
            self.trained(len(train), model.n_support_vectors)
        return self.predict_rows(model, self.folds.test(i), omp_threads, problem)

    def training_source(self, rows: int, params: SvmParams) -> tuple:
        """``(problem, params)`` a task starting now trains ``rows`` rows on: the features
        and ``params``, or, once the probe decided so, the shared kernel and ``-t 4``."""
        if self.probe is not None and self.probe.start(rows):
            return self._shared(params)
        return self.problem, params

    def prediction_source(self) -> tuple:
        """``(problem, params)`` a model assembled from pairs' solutions now is built on and
        predicts from: the shared kernel once the probe switched, else the features (the
        pairs' solutions are the same whichever they trained on)."""
        if self.probe is not None and self.probe.shared:
            return self._shared(self.params)
        return self.problem, self.params

    def _shared(self, params: SvmParams) -> tuple:
        """The probe's shared kernel with this plan's labels, and ``params`` on it (-t 4)."""
        kernel = self.probe.kernel
        return relabelled(kernel.cv_problem, self._probe_labels), kernel.train_params(params)

    def trained(self, rows: int, support_vectors: int) -> None:
        """A training of ``rows`` rows on the features ended with ``support_vectors`` (the
        probe's measure)."""
        if self.probe is not None:
            self.probe.trained(rows, support_vectors)

    def prediction_tasks(self, model, i: int, problem=None) -> list:
        """Fold ``i``'s prediction by ``model`` as tasks, each a part of its test rows (as
        many parts as cores, or :data:`PREDICT_PARTS`, of at least :data:`PREDICT_PART_ROWS`
        rows): each stores its rows' output; the last to end completes the fold (returns 1).
        ``problem``: the rows' source the model was built on (this plan's by default)."""
        from svmeval.cv.schedule import available_cores

        test = self.folds.test(i)
        wanted = PREDICT_PARTS or available_cores()
        n_parts = max(1, min(wanted, len(test) // PREDICT_PART_ROWS))
        parts = np.array_split(test, n_parts)
        left = [len(parts)]
        lock = threading.Lock()

        def run(rows: np.ndarray, omp_threads: int) -> int:
            self.store_rows(rows, self.predict_rows(model, rows, omp_threads, problem))
            with lock:
                left[0] -= 1
                return int(left[0] == 0)

        threads = self.useful_threads(len(test))
        return [Task(partial(run, rows), len(rows), threads, i) for rows in parts]

    def predict_rows(self, model, test: np.ndarray, omp_threads: int, problem=None) -> FoldOutput:
        """Test rows ``test`` (of one fold) as ``model`` predicts them (``problem``: the rows'
        source the model was trained on, this plan's by default)."""
        cols, signs = self._pair_map(model.labels) if self.classification else (None, None)
        t, m = len(test), len(self.labels)
        out = FoldOutput(
            y_pred=np.empty(t),
            decision_values=np.full((t, self.pairs), np.nan) if self.keep_decision_values else None,
            scores=np.full((t, m), np.nan) if self.has_scores else None,
            probabilities=np.zeros((t, m)) if self.probability else None,
        )
        chunk = max(1, PREDICT_CHUNK_BYTES // (8 * max(1, self.pairs)))
        for start in range(0, t, chunk):
            part = slice(start, start + chunk)
            predict_part(
                model,
                problem or self.problem,
                test[part],
                part,
                out,
                omp_threads,
                cols,
                signs,
                labels=self.labels,
                classification=self.classification,
                probability=self.probability,
            )
        return out

    def _pair_map(self, model_labels: np.ndarray):
        """:func:`~svmeval.cv.plan.fold_output.pair_map` of a fold's model, once per set of
        model labels (every fold's model has the same classes but for a class absent from its
        training rows)."""
        key = model_labels.tobytes()
        found = self._pair_maps.get(key)
        if found is None:
            found = self._pair_maps[key] = pair_map(model_labels, self.labels)
        return found

    def output(self, i: int) -> FoldOutput:
        """Fold ``i``'s output as this plan's arrays hold it (copies of its test rows)."""
        rows = self.folds.test(i)
        arrays: dict[str, Any] = {
            name: None if getattr(self, name) is None else getattr(self, name)[rows]
            for name in ("y_pred", "decision_values", "scores", "probabilities")
        }
        return FoldOutput(**arrays)

    def store(self, i: int, out: FoldOutput) -> None:
        """Put fold ``i``'s output into the plan's per-sample arrays."""
        self.store_rows(self.folds.test(i), out)

    def store_folds(self, outputs: dict) -> None:
        """Put the output of several folds (fold -> :class:`FoldOutput`) into the per-sample
        arrays, each array in one assignment."""
        order = list(outputs)
        outs = [outputs[i] for i in order]
        names = [
            n
            for n in ("decision_values", "scores", "probabilities")
            if getattr(self, n) is not None
        ]
        if len(order) < 2 or any(getattr(o, n) is None for o in outs for n in names):
            for i in order:
                self.store(i, outputs[i])
            return
        rows = np.concatenate([self.folds.test(i) for i in order])
        self.y_pred[rows] = np.concatenate([o.y_pred for o in outs])
        for name in names:
            getattr(self, name)[rows] = np.concatenate([getattr(o, name) for o in outs])

    def store_rows(self, rows: np.ndarray, out: FoldOutput) -> None:
        """Put the output for test rows ``rows`` (of one fold) into the per-sample arrays."""
        self.y_pred[rows] = out.y_pred
        for name in ("decision_values", "scores", "probabilities"):
            mine = getattr(self, name)
            if mine is not None:
                mine[rows] = getattr(out, name)

    def result(self) -> CVResult:
        return CVResult(
            y_true=self.problem.y.copy(),
            y_pred=self.y_pred,
            fold=self.folds.fold_of(),
            decision_values=self.decision_values,
            probabilities=self.probabilities,
            labels=self.labels,
            params=self.params,
            n_folds=self.folds.n_folds,
            seed=self.seed,
            folds=self.folds,
            scores=self.scores,
        )


class FoldByFold:
    """A cross-validation run one fold at a time, each fold training a configuration of its
    own (nested cross-validation's outer loop: each fold's tuned parameters).

    LIBSVM's folds for ``params`` are drawn right after ``srand(seed)`` when the object is made
    (:func:`draw_folds`; ``source``: folds given or grouped instead); :meth:`run_fold` trains fold ``i``'s training rows with that fold's
    configuration and stores its test rows' predictions, as a fresh ``svm-train`` seeded with
    ``seed`` trains (``-b 1``'s inner cross-validation draws from C ``rand()``, seeded again
    first); :meth:`result` is the whole run's :class:`CVResult` once every fold ran. The
    caller holds C's global state (:func:`~svmeval.cv.engine.c_state`) for the whole run.
    """

    def __init__(
        self, problem, params: SvmParams, folds: int, seed: int, *, source=None, transform=None
    ):
        self.problem, self.seed, self.folds = problem, seed, folds
        self.assignment = draw_folds(problem.y, folds, seed, params, source=source)
        #: a :class:`~svmeval.cv.run.preprocessed.FoldTransform`: each fold trains and predicts
        #: on the rows as its training rows' preprocessing makes them (None: the features)
        self.transform = transform
        self._plan = CVPlan(problem, params, self.assignment, seed)

    @property
    def n_folds(self) -> int:
        return self.assignment.n_folds

    def run_fold(self, i: int, params: SvmParams, omp_threads: int, transform=None) -> None:
        """Train fold ``i`` with ``params`` (LIBSVM on ``omp_threads`` threads) and store its
        test rows' predictions (``transform``: this fold's preprocessing, where it is not the
        run's: the size its inner search chose)."""
        self._plan.store(i, self.compute_fold(i, params, omp_threads, transform))

    def compute_fold(
        self, i: int, params: SvmParams, omp_threads: int, transform=None
    ) -> FoldOutput:
        """Fold ``i``'s test rows as a model of ``params`` trained on its training rows
        predicts them."""
        one = CVPlan(
            self.problem,
            params,
            self.assignment,
            self.seed,
            collect=False,
            transform=self.transform if transform is None else transform,
        )
        if params.probability:  # -b 1 training draws from rand(): as a fresh svm-train
            _libsvm.srand(self.seed)
        return one.fold_output(i, omp_threads)

    def store(self, i: int, output: FoldOutput) -> None:
        """Put fold ``i``'s output (computed or found) into the run's result."""
        self._plan.store(i, output)

    def result(self) -> CVResult:
        """The cross-validation's result (every fold run)."""
        return self._plan.result()


def in_order(
    problem,
    params: SvmParams,
    folds: int,
    seed: int,
    keep_decision_values: bool,
    run=None,
    *,
    assignment: Folds | None = None,
    transform=None,
) -> CVResult:
    """A whole cross-validation, its folds one after another right after ``srand(seed)`` and
    the fold draw, as svm-train's: what ``-b 1`` needs (its training draws from C ``rand()``).
    ``run(tasks)`` runs the fold tasks in order (default: here, on one OpenMP thread).
    ``assignment``: folds that are not LIBSVM's (none drawn; C ``rand()`` seeded all the same)."""
    if assignment is None:
        assignment = draw_folds(
            problem.y, folds, seed, params, warn=False
        )  # given when first drawn
    else:
        _libsvm.srand(seed)
    plan = CVPlan(
        problem,
        params,
        assignment,
        seed,
        keep_decision_values=keep_decision_values,
        transform=transform,
    )
    if run is None:
        pending = list(plan.tasks)
        while pending:
            result = pending.pop(0)(1)
            if isinstance(result, FollowUps):
                pending[0:0] = result.tasks
    else:
        run(plan.tasks)
    return plan.result()

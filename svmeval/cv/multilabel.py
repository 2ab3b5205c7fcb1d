"""Multi-label data: binary-relevance cross-validation (figures: :mod:`svmeval.summary.multilabel`).

Binary relevance trains one SVM per label ("has this label" = +1 against "has not" = -1) and
predicts, for each sample, the set of labels whose SVM says +1.

Folds. Every label uses the *same* k folds: C ``rand()`` is seeded with ``srand(seed)`` and the
folds are drawn as LIBSVM's non-stratified shuffle (``svm_cross_validation`` for a type it does
not stratify). LIBSVM itself would stratify each label's C-SVC folds by that label, giving each
label other folds; one common split is what makes per-sample figures (samples F1, subset
accuracy, the ranking figures) the figures of one cross-validation. Within a fold, each label's
training set is ``perm[:begin] + perm[end:]`` (LIBSVM's order), trained and predicted as in
:class:`svmeval.cv.engine.CVPlan`. ``groups=`` or ``given_folds=`` replace LIBSVM's folds
for every label (:mod:`svmeval.cv.plan.given`; each fold's training rows in ascending order): grouped
folds balance the label sets, each row's set of labels counted as its class.

Scores. A sample's score for a label is its SVM's decision value. For a {-1,+1} problem LIBSVM
orders the classes +1 first whatever order they appear in, and CVPlan keeps the decision values
in that order, so a positive value means "has the label" (the prediction is +1 exactly when the
decision value is > 0). When a fold's training set holds one class only (every training sample
has the label, or none has), LIBSVM trains a one-class model that predicts that class always and
has no decision value; its score is then the finite constant +1.0 (always "has") or -1.0
(always "has not"): the value of the margin on that side, so the score's sign agrees with the
prediction and the ranking figures stay defined. ``MultilabelCVResult.constant`` marks these
entries.

``-b 1``: each label's SVM is trained with probability estimates, predictions are
svm_predict_probability's (as in LIBSVM's cross-validation) and ``probabilities`` holds each
label's P(has the label). The ranking figures then use these probabilities, which Platt scaling
puts on one scale for every label, instead of decision values. Probability training draws from
C ``rand()`` (its inner 5-fold CV), so with ``-b 1`` the label x fold tasks run one after another
(labels in ascending order, folds in order), whatever ``jobs`` says, and results are identical
from run to run. Without ``-b 1`` the tasks run ``jobs`` at once and results do not depend on
``jobs``.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import numpy as np

from svmeval._args import checked
from svmeval.cv import _libsvm
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.collect.results import Folds, MultilabelCVResult
from svmeval.cv.engine import prepare
from svmeval.cv.plan.checks import check_execution, check_folds, check_seed
from svmeval.cv.plan.cv_plan import CVPlan, seeded_folds
from svmeval.cv.plan.given import FoldAssignment
from svmeval.cv.schedule import run_tasks
from svmeval.cv.task import Task, folds_done
from svmeval.errors import ArgumentError, ParameterError, SvmevalError, show_label, show_path
from svmeval.io.data import DataSource
from svmeval.io.label_sets import check_multilabel as _check_multilabel  # noqa: F401
from svmeval.io.label_sets import dataset_indicator
from svmeval.params import SVM_TYPES, Configuration, SvmParams
from svmeval.store import StoreLike

__all__ = ["MultilabelCVResult", "cross_validate_multilabel"]

#: the constant score of a label x fold whose training set held one class only
CONSTANT_SCORE = 1.0


# --------------------------------------------------------------------------------------------
# Cross-validation
# --------------------------------------------------------------------------------------------


def _check_type(params: SvmParams) -> None:
    if not params.is_classification:
        name = SVM_TYPES[params.svm_type] if 0 <= params.svm_type < len(SVM_TYPES) else "?"
        raise ArgumentError(
            "params",
            f"binary relevance trains one classifier per label; -s "
            f"{params.svm_type} ({name}) is not a classifier (use -s 0 C-SVC or -s 1 nu-SVC)",
        )


@recorded
@checked
@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def cross_validate_multilabel(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    seed: int = 1,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    quiet: bool = True,
    store: StoreLike | None = None,
) -> MultilabelCVResult:
    """Binary-relevance k-fold cross-validation of multi-label data.

    One SVM per label ("has it", +1, against "has not", -1), every label on the same folds:
    LIBSVM's unstratified folds drawn right after ``srand(seed)``. ``-w1`` / ``-w-1`` weigh the
    "has" / "has not" side of every label. With ``-b 1`` the label x fold tasks run in order.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, Y)
        Multi-label data: a :class:`Dataset` read with ``multilabel=True``, a file name
        (read so: a line's first token is its comma-separated label set), or arrays in memory
        with ``Y`` a 0/1 indicator matrix whose column j is label j
        (:meth:`Dataset.from_arrays` with ``multilabel=True``).
    params : SvmParams or str, optional
        C-SVC or nu-SVC parameters, or svm-train's options; default svm-train's.
    folds : int, default 5
        k, at least 2 (with ``groups``: at most the groups; not used with ``given_folds``).
    groups, given_folds : optional
        Folds that keep each group whole, or the folds given, as :func:`cross_validate`
        takes them; every label uses them. Grouped folds balance the label sets: each row's
        set of labels counts as its class (the rows of each distinct set spread over the
        folds as evenly as the groups allow), then the fold sizes.
    seed : int, default 1
        C ``srand``'s seed before the folds are drawn.
    jobs : int, optional
        Label x fold tasks trained at once (default: the cores); results identical.
    progress : callable, optional
        ``progress(done, total)`` as tasks end (total = labels x folds).
    quiet : bool, default True
        Silence LIBSVM's training messages.
    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): each label's folds it holds are taken from it, the others computed and
        written to it as they end (with ``-b 1``, whose tasks draw from one ``rand()`` in
        turn, all of them or none). The result is the same as without a store.

    Returns
    -------
    MultilabelCVResult
        The indicator matrices of true and predicted label sets, scores and folds;
        :func:`summarize` gives the multi-label figures.

    Raises
    ------
    ParameterError
        LIBSVM rejects the parameters for a label's problem (the message names the label).
    SvmevalError
        Data not read as multi-label, a type that is not a classifier, too few samples.

    Examples
    --------
    >>> from svmeval import cross_validate_multilabel, summarize
    >>> import pathlib, tempfile
    >>> lines = ["1,2 1:0.1 2:0.9", "2 1:0.2 2:0.8", "1 1:0.9 2:0.1", "1,2 1:0.5 2:0.5",
    ...          "2 1:0.1 2:0.7", "1 1:0.8 2:0.2"] * 3
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.txt"
    >>> _ = path.write_text("\\n".join(lines) + "\\n")
    >>> result = cross_validate_multilabel(path, "-c 4", folds=3)
    >>> result.Y_true.shape, result.label_names.tolist()
    ((18, 2), [1.0, 2.0])
    >>> sorted(summarize(result).figures)[:3]
    ['hamming_loss', 'lrap', 'macro_f1']
    """
    from svmeval.cv.run.store_session import opened

    call = (cross_validate_multilabel, dict(locals()))
    with opened(store, "cross_validate_multilabel", call) as counts:
        return _multilabel(
            data, params, folds, seed, jobs, progress, quiet, counts, groups, given_folds
        )


def _multilabel(
    data, params, folds, seed, jobs, progress, quiet, counts, groups=None, given_folds=None
) -> MultilabelCVResult:
    from svmeval.cv.plan.checks import as_dataset, as_params, uses_precomputed
    from svmeval.params import given_configuration

    given = params
    params = as_params(params)
    dataset = as_dataset(data, multilabel=True, precomputed=uses_precomputed([params]))
    _check_multilabel(dataset)
    _check_type(params)
    folds, seed = check_folds(folds), check_seed(seed)
    check_execution(jobs)
    Y_true, names = dataset_indicator(dataset)
    if not len(names):
        raise SvmevalError(f"{show_path(dataset.name)}: no sample has a label: nothing to learn")
    n = dataset.n_samples
    if n < 2:
        raise SvmevalError(f"{dataset.name}: {n} sample(s): cross-validation needs at least 2")

    base = _libsvm.make_problem(dataset, np.zeros(n))
    plans: list[CVPlan] = []
    resolved = params
    drawn = _folds(Y_true, folds, seed, groups, given_folds)
    problems = []
    for j, label in enumerate(names):
        y = np.where(Y_true[:, j] == 1, 1.0, -1.0)
        try:
            problem, resolved = prepare(dataset, params, y=y, quiet=quiet, problem=base)
        except ParameterError as exc:
            raise ParameterError(f"label {show_label(label)}: {exc}") from None
        problems.append(problem)
    stored = _Stored(counts, dataset, problems, resolved, drawn, folds, seed)
    for j, problem in enumerate(problems):
        plans.append(CVPlan(problem, resolved, drawn, seed, stored=stored.found[j]))
    tasks = [stored.wrap(j, task) for j, plan in enumerate(plans) for task in plan.tasks]

    def count(done: int, total: int) -> None:
        stored.write(plans)
        if progress is not None:
            progress(done, total)

    if tasks:
        run_tasks(tasks, jobs=1 if resolved.probability else jobs, progress=count)
    stored.write(plans, last=True)

    Y_pred, scores, probabilities, constant = _label_columns(
        plans, drawn, bool(resolved.probability)
    )
    return MultilabelCVResult(
        label_names=names,
        Y_true=Y_true,
        Y_pred=Y_pred,
        scores=scores,
        fold=drawn.fold_of(),
        n_folds=drawn.n_folds,
        seed=seed,
        params=resolved,
        probabilities=probabilities,
        constant=constant,
        folds=drawn,
        data_name=dataset.name,
        configuration=given_configuration(given, params),
    )


def _folds(Y_true: np.ndarray, folds: int, seed: int, groups, given_folds) -> Folds:
    """The folds every label uses: LIBSVM's unstratified folds after ``srand(seed)``, or
    those of ``groups`` (each row's label set counted as its class) or ``given_folds``,
    read and checked before any task."""
    from svmeval.cv.plan.given import fold_source

    n = len(Y_true)
    source = fold_source(groups, given_folds, n)
    if source is None:
        return seeded_folds(np.zeros(n), folds, seed, stratified=False)
    _libsvm.srand(seed)  # as for LIBSVM's folds: -b 1 goes on drawing from it
    label_sets = np.unique(Y_true, axis=0, return_inverse=True)[1].reshape(-1)
    return source.folds(label_sets.astype(np.float64), folds, seed, True)


def _label_columns(plans: list, folds: Folds, probability: bool):
    """Every label's predictions, scores, probabilities (``-b 1``) and where its fold's training
    labels were all alike (a one-class problem: the score is then a constant)."""
    n = len(folds.perm)
    L = len(plans)
    Y_pred = np.zeros((n, L), dtype=np.int8)
    scores = np.empty((n, L), dtype=np.float64)
    constant = np.zeros((n, L), dtype=bool)
    probabilities = np.empty((n, L), dtype=np.float64) if probability else None
    for j, plan in enumerate(plans):
        pred = plan.y_pred == 1.0
        Y_pred[:, j] = pred
        # decision values in LIBSVM's label order, +1 first: positive means "has the label";
        # no column when every sample has the label (a one-class problem)
        dec = plan.decision_values[:, 0] if plan.decision_values.shape[1] else np.full(n, np.nan)
        for i in range(folds.n_folds):
            train_y = plan.problem.y[folds.train(i)]
            if np.all(train_y == train_y[0]):
                constant[folds.test(i), j] = True
        scores[:, j] = np.where(
            constant[:, j], np.where(pred, CONSTANT_SCORE, -CONSTANT_SCORE), dec
        )
        if probabilities is not None:
            k = np.flatnonzero(plan.labels == 1.0)
            p = plan.probabilities[:, k[0]] if k.size else np.zeros(n)
            probabilities[:, j] = np.where(constant[:, j], pred.astype(np.float64), p)
    return Y_pred, scores, probabilities, constant


class _Stored:
    """A multi-label run's use of its store (none: ``counts`` None): each label's folds found
    (``found[j]``), and each fold written as its task ends (``-b 1``: all at the end, and
    reused only all together: its tasks draw from one ``rand()`` in turn)."""

    def __init__(self, counts, dataset, problems, params, assignment, folds, seed):
        self.found: list[dict] = [{} for _ in problems]
        self.done: queue.SimpleQueue = queue.SimpleQueue()
        self.uses: list = []
        self.probability = bool(params.probability)
        if counts is None:
            return
        from svmeval.cv.run.store_use import FoldsUnit, StoreUse

        digest = dataset.digest()
        self.unit = FoldsUnit(params, seed, assignment)
        for j, problem in enumerate(problems):
            use = StoreUse(
                counts, dataset, problem, folds, False, "multilabel-fold", data_digest=digest
            )
            self.uses.append(use)
            for i in range(assignment.n_folds):
                out = use.find_fold(self.unit, i)
                if out is not None:
                    self.found[j][i] = out
        whole = all(len(f) == assignment.n_folds for f in self.found)
        if self.probability and not whole:
            self.found = [{} for _ in problems]
            for use in self.uses:
                use.written.clear()
        for use, found in zip(self.uses, self.found):
            use.reused(self.unit, len(found))
        from svmeval.cv.run.store_session import missing

        missing(counts, sum(assignment.n_folds - len(f) for f in self.found))

    def wrap(self, j: int, task):
        """``task`` of label ``j``, telling when it completes its fold."""
        if not self.uses:
            return task

        def run(omp_threads):
            start = time.perf_counter()
            result = task(omp_threads)
            if folds_done(result):
                self.done.put((j, task.fold, time.perf_counter() - start))
            return result

        return Task(run, task.size, task.max_threads, task.fold)

    def write(self, plans: list, *, last: bool = False) -> None:
        """Write the folds ended since the last call (``-b 1``: every fold, at the end)."""
        if not self.uses or (self.probability and not last):
            return
        while not self.done.empty():
            j, i, seconds = self.done.get()
            self.uses[j].write(self.unit, {i: plans[j].output(i)}, {i: seconds})

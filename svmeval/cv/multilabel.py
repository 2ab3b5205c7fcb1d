"""Multi-label data: binary-relevance cross-validation (figures: :mod:`svmeval.summary.multilabel`).

Binary relevance trains one SVM per label ("has this label" = +1 against "has not" = -1) and
predicts, for each sample, the set of labels whose SVM says +1.

Folds. Every label uses the *same* k folds: C ``rand()`` is seeded with ``srand(seed)`` and the
folds are drawn as LIBSVM's non-stratified shuffle (``svm_cross_validation`` for a type it does
not stratify). LIBSVM itself would stratify each label's C-SVC folds by that label, giving each
label other folds; one common split is what makes per-sample figures (samples F1, subset
accuracy, the ranking figures) the figures of one cross-validation. Within a fold, each label's
training set is ``perm[:begin] + perm[end:]`` (LIBSVM's order), trained and predicted as in
:class:`svmeval.cv.engine.CVPlan`.

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

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from svmeval.cv import _libsvm
from svmeval.cv.checks import check_execution, check_folds, check_seed
from svmeval.cv.engine import prepare
from svmeval.cv.plan import CVPlan
from svmeval.errors import ParameterError, SvmevalError, show_label, show_path
from svmeval.cv.folds import Folds, libsvm_folds
from svmeval.params import SVM_TYPES, SvmParams
from svmeval.cv.schedule import run_tasks

__all__ = [
    "MultilabelCVResult",
    "cross_validate_multilabel",
    "dataset_indicator",
    "dataset_label_sets",
]

#: the constant score of a label x fold whose training set held one class only
CONSTANT_SCORE = 1.0


# --------------------------------------------------------------------------------------------
# Label sets of a data set
# --------------------------------------------------------------------------------------------


def _check_multilabel(dataset) -> None:
    if not getattr(dataset, "is_multilabel", False):
        raise SvmevalError(f"{show_path(dataset.name)}: not read as multi-label data "
                           "(read_dataset(path, multilabel=True))")


def dataset_indicator(dataset, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """``(Y, label_names)`` of a multi-label :class:`~svmeval.io.data.Dataset`.

    ``label_names``: float64, ascending, the labels seen in the file (or ``labels``, which must
    hold them all); ``Y``: int8 n_samples x n_labels, ``Y[i, j] = 1`` iff sample i has
    ``label_names[j]`` (a label repeated on a line counts once).
    """
    _check_multilabel(dataset)
    values = np.asarray(dataset.label_values, dtype=np.float64)
    names = np.unique(values) if labels is None else np.unique(np.asarray(labels, np.float64))
    missing = np.setdiff1d(np.unique(values), names)
    if missing.size:
        raise SvmevalError(f"{show_path(dataset.name)}: label {show_label(missing[0])} is not "
                           "among the labels given")
    n = dataset.n_samples
    rows = np.repeat(np.arange(n), np.diff(np.asarray(dataset.label_indptr)))
    Y = np.zeros((n, len(names)), dtype=np.int8)
    Y[rows, np.searchsorted(names, values)] = 1
    return Y, names


def dataset_label_sets(dataset) -> list[tuple]:
    """Each sample's labels as a sorted tuple of floats (duplicates removed)."""
    _check_multilabel(dataset)
    ip, v = dataset.label_indptr, dataset.label_values
    return [tuple(sorted(set(v[ip[i]:ip[i + 1]].tolist()))) for i in range(dataset.n_samples)]


# --------------------------------------------------------------------------------------------
# Cross-validation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MultilabelCVResult:
    """One binary-relevance cross-validation.

    ``label_names``: float64, the labels seen in the file, ascending (the columns of every
    matrix). ``Y_true`` / ``Y_pred``: int8 indicator matrices n_samples x n_labels (input order).
    ``scores``: float64, each label's decision value (positive = "has the label"; +1.0 / -1.0
    where ``constant``). ``probabilities``: P(has the label) with ``-b 1``, else None.
    ``constant``: bool, True where the label's model for that sample's fold was trained on one
    class only (it predicts that class always). ``fold``: the fold that tested each sample.
    ``params``: the LIBSVM parameters used (gamma resolved).
    """

    label_names: np.ndarray
    Y_true: np.ndarray
    Y_pred: np.ndarray
    scores: np.ndarray
    fold: np.ndarray
    n_folds: int
    seed: int
    params: SvmParams
    probabilities: np.ndarray | None = None
    constant: np.ndarray | None = None
    folds: Folds | None = field(default=None, repr=False)

    @property
    def n_samples(self) -> int:
        return self.Y_true.shape[0]

    @property
    def n_labels(self) -> int:
        return self.Y_true.shape[1]

    @property
    def ranking_scores(self) -> np.ndarray:
        """The scores the ranking figures use: probabilities with ``-b 1``, else ``scores``."""
        return self.scores if self.probabilities is None else self.probabilities

    def to_dict(self) -> dict:
        """The run and its per-sample matrices as plain JSON types."""
        from svmeval.report.frames import cv_dict
        return cv_dict(self)

    def to_frame(self, *, zero_division=0.0):
        """A pandas DataFrame, one row per fold with the multi-label figures of that fold."""
        from svmeval.report.frames import cv_frame
        return cv_frame(self, zero_division=zero_division)


def _check_type(params: SvmParams) -> None:
    if not params.is_classification:
        name = SVM_TYPES[params.svm_type] if 0 <= params.svm_type < len(SVM_TYPES) else "?"
        raise SvmevalError(
            f"--multilabel: binary relevance trains one classifier per label; -s "
            f"{params.svm_type} ({name}) is not a classifier (use -s 0 C-SVC or -s 1 nu-SVC)")


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def cross_validate_multilabel(dataset, params: SvmParams, nr_fold: int, *, seed: int = 1,
                              jobs: int | None = None, quiet: bool = True,
                              progress: Callable[[int, int], None] | None = None
                              ) -> MultilabelCVResult:
    """Binary-relevance k-fold cross-validation of a multi-label data set.

    One SVM of type ``params.svm_type`` (C-SVC or nu-SVC; other types raise
    :class:`SvmevalError`) per label, "has it" (+1) against "has not" (-1), all labels on the
    same folds: ``libsvm_folds(..., stratified=False)`` drawn right after ``srand(seed)``.
    ``params`` as given on the command line (gamma 0 = 1/num_features). ``-w1`` / ``-w-1``
    weigh the "has" / "has not" side of every label.

    ``jobs``: label x fold tasks trained at once (default: the cores); results are identical for
    every value. With ``-b 1`` the tasks run one at a time, in order (see the module notes).
    ``progress(done, total)`` is called as tasks end (total = labels x folds).
    Raises :class:`ParameterError` (prefixed with the label) when LIBSVM rejects the parameters
    for a label's problem, e.g. an infeasible nu.
    """
    _check_multilabel(dataset)
    _check_type(params)
    nr_fold, seed = check_folds(nr_fold), check_seed(seed)
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
    _libsvm.srand(seed)
    folds = libsvm_folds(np.zeros(n), nr_fold, stratified=False, rand=_libsvm.rand)
    for j, label in enumerate(names):
        y = np.where(Y_true[:, j] == 1, 1.0, -1.0)
        try:
            problem, resolved = prepare(dataset, params, y=y, quiet=quiet, problem=base)
        except ParameterError as exc:
            raise ParameterError(f"label {show_label(label)}: {exc}") from None
        plans.append(CVPlan(problem, resolved, folds, seed))
    tasks = [task for plan in plans for task in plan.tasks]
    run_tasks(tasks, jobs=1 if resolved.probability else jobs, progress=progress)

    Y_pred, scores, probabilities, constant = _label_columns(plans, folds,
                                                             bool(resolved.probability))
    return MultilabelCVResult(label_names=names, Y_true=Y_true, Y_pred=Y_pred, scores=scores,
                              fold=folds.fold_of(), n_folds=folds.n_folds, seed=seed,
                              params=resolved, probabilities=probabilities, constant=constant,
                              folds=folds)


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
        scores[:, j] = np.where(constant[:, j], np.where(pred, CONSTANT_SCORE, -CONSTANT_SCORE),
                                dec)
        if probabilities is not None:
            k = np.flatnonzero(plan.labels == 1.0)
            p = plan.probabilities[:, k[0]] if k.size else np.zeros(n)
            probabilities[:, j] = np.where(constant[:, j], pred.astype(np.float64), p)
    return Y_pred, scores, probabilities, constant

"""The registry's figures of one run's predictions, pooled and fold by fold.

A run's predictions come with the fold that tested each sample; every figure of
:data:`svmeval.metrics.FIGURES` comes from counts: one bincount over (fold, true class,
predicted class) gives each fold's confusion matrix, reduced by
:meth:`~svmeval.metrics.ConfusionCounts.report`; the ranking figures come from the class scores
(:func:`~svmeval.metrics.scores.class_ranking`). The summaries (:mod:`svmeval.summary`) and
every result's ``to_frame()`` use these functions, so a table and a report never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np

from svmeval.metrics.classification import ClassificationReport, ConfusionCounts, LazyReport
from svmeval.metrics.figures import FIGURES, figure_names
from svmeval.metrics.two_class import positive_and_negative, positive_label

TYPE_CHECKING = False  # as typing's, without importing typing

if TYPE_CHECKING:  # the figures of other kinds' modules, imported where they are computed
    from svmeval.metrics.multilabel import MultilabelReport
    from svmeval.metrics.regression import RegressionReport
    from svmeval.metrics.scores import ClassRanking

__all__ = [
    "COUNT_FIGURES",
    "classification_figures",
    "classification_fold_figures",
    "figure_source",
    "fold_counts",
    "label_union",
    "multilabel_figures",
    "multilabel_fold_figures",
    "positive_and_negative",
    "positive_label",
    "regression_figures",
    "regression_fold_figures",
]


def _with_policy(value: float, z: float) -> float:
    return z if math.isnan(value) else float(value)


#: The figures of a classification read from its confusion counts (a ClassificationReport),
#: by the report attribute or average they come from; the others are the ranking figures (the
#: class scores) and those of the class probabilities (``needs_probabilities``)
_OVERALL = ("accuracy", "balanced_accuracy", "mcc", "kappa")
_POSITIVE_CLASS = ("precision", "recall", "f1")
_AVERAGED_F1 = {f"{a}_f1": a for a in ("macro", "macro_harmonic", "micro", "weighted")}
COUNT_FIGURES = frozenset(_OVERALL + _POSITIVE_CLASS + tuple(_AVERAGED_F1))


def figure_source(name: str) -> str:
    """What a classification figure is computed from: "counts" (the confusion matrix),
    "probabilities" (``-b 1``'s class probabilities) or "scores" (the ranking figures)."""
    if name in COUNT_FIGURES:
        return "counts"
    return "probabilities" if FIGURES[name].needs_probabilities else "scores"


def classification_figures(
    report: ClassificationReport | LazyReport,
    ranking: ClassRanking | None,
    positive: float | None,
    probability: dict | None = None,
    names: Collection[str] | None = None,
) -> dict:
    """The registry's figures of a classification, in registry order; ``probability``: the
    figures of its class probabilities (:func:`~svmeval.metrics.probabilities.probability_figures`),
    None or empty without them; ``names``: only these figures (default every one), read from
    ``report`` as they are needed (a :class:`~svmeval.metrics.classification.LazyReport`
    computes no other)."""
    z = report.zero_division
    kind = "binary" if positive is not None else "multiclass"
    wanted = [n for n in figure_names(kind) if names is None or n in names]
    values: dict = {}
    k = None
    for name in wanted:
        if name in _OVERALL:
            values[name] = getattr(report, name)
        elif name in _POSITIVE_CLASS and positive is not None:
            if k is None:
                k = int(np.flatnonzero(report.labels == positive)[0])
            values[name] = _with_policy(float(getattr(report, name)[k]), z)
        elif name in _AVERAGED_F1:
            values[name] = report.averages[_AVERAGED_F1[name]].f1
    if ranking is not None and any(figure_source(n) == "scores" for n in wanted):
        values.update(ranking.overall_for(positive))
    values.update(probability or {})
    return {name: float(values[name]) for name in wanted if name in values}


def regression_figures(report: RegressionReport) -> dict:
    """The registry's figures of a regression: mean squared error, squared correlation."""
    return {"mse": report.mean_squared_error, "scc": report.squared_correlation}


def multilabel_figures(report: MultilabelReport, lrap: float | None) -> dict:
    """The registry's multi-label figures, in registry order (LRAP only with scores)."""
    values: dict[str, float | None] = {
        "samples_f1": report.averages["samples"].f1,
        "macro_f1": report.averages["macro"].f1,
        "micro_f1": report.averages["micro"].f1,
        "subset_accuracy": report.subset_accuracy,
        "hamming_loss": report.hamming_loss,
        "lrap": lrap,
    }
    return {
        name: float(value)
        for name in figure_names("multilabel")
        if (value := values.get(name)) is not None
    }


def label_union(y_true, y_pred) -> np.ndarray:
    """The labels of ``y_true`` and ``y_pred`` together, ascending: ``np.union1d``'s, without
    the import of numpy.ma that ``np.unique`` makes since numpy 2.3 on its first call (a
    cost at every command's start) where the labels are numbers and none is NaN."""
    values = np.concatenate((np.ravel(y_true), np.ravel(y_pred)))
    if values.dtype.kind not in "fiub" or (values.dtype.kind == "f" and np.isnan(values).any()):
        return np.union1d(y_true, y_pred)
    ordered = np.sort(values)
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def fold_counts(y_true, y_pred, fold, n_folds: int, labels: np.ndarray) -> np.ndarray:
    """n_folds x k x k confusion matrices (rows true, columns predicted, ``labels``
    ascending) from one bincount over label codes."""
    k = len(labels)
    code = (fold.astype(np.int64) * k + np.searchsorted(labels, y_true)) * k + np.searchsorted(
        labels, y_pred
    )
    return np.bincount(code, minlength=n_folds * k * k).reshape(n_folds, k, k)


def classification_fold_figures(
    y_true,
    y_pred,
    fold,
    n_folds: int,
    *,
    positive=None,
    scores=None,
    score_labels=None,
    source="decision values",
    zero_division=0.0,
    matrices=None,
    probabilities=None,
    names: Collection[str] | None = None,
) -> list[dict]:
    """Each fold's figures (one dict per fold, registry order). ``positive``: the positive
    class of two-class data (None for more classes); ``scores``: per-class scores whose
    columns follow ``score_labels`` (None: no ranking figures); ``matrices``: the folds'
    confusion matrices when already counted (:func:`fold_counts`); ``probabilities``: the
    class probabilities, columns following ``score_labels`` (None: no probability figures);
    ``names``: only these figures, and only what they are computed from (default every
    figure): the same values."""
    labels = label_union(y_true, y_pred)
    if matrices is None:
        matrices = fold_counts(y_true, y_pred, fold, n_folds, labels)
    if names is not None:  # the scores and probabilities only where a figure needs them
        sources = {figure_source(n) for n in names}
        scores = scores if "scores" in sources else None
        probabilities = probabilities if "probabilities" in sources else None
    if scores is None and probabilities is None and labels.dtype.kind in "fiubU":
        # figures of the counts alone, of labels whose bytes are their values
        head = (labels.dtype.str, labels.tobytes(), positive, zero_division)
        wanted = None if names is None else frozenset(names)
        return [
            _counts_figures(labels, matrices[i], head, positive, zero_division, wanted)
            for i in range(n_folds)
        ]
    out = []
    for i in range(n_folds):
        rows = fold == i
        report: ClassificationReport | LazyReport = (
            ConfusionCounts.from_matrix(labels, matrices[i]).report(zero_division=zero_division)
            if names is None
            else LazyReport(labels, matrices[i], zero_division)
        )
        if scores is not None or probabilities is not None:
            from svmeval.metrics.probabilities import probability_figures
            from svmeval.metrics.scores import class_ranking
        rank = (
            class_ranking(y_true[rows], scores[rows], score_labels, source=source)
            if scores is not None
            else None
        )
        proba = (
            probability_figures(y_true[rows], probabilities[rows], score_labels, positive)
            if probabilities is not None
            else None
        )
        out.append(classification_figures(report, rank, positive, proba, names))
    return out


#: the figures of the confusion matrices seen last, by (labels, positive class, zero-division
#: policy, figures asked, matrix): the folds of a run and of its repetitions have few distinct
#: matrices (1,800 folds of a comparison over three data sets: 112), each reduced once
_SEEN: dict = {}
_SEEN_MAX = 4096


def _counts_figures(labels, matrix, head: tuple, positive, z, names) -> dict:
    """:func:`classification_figures` of one confusion matrix without scores or
    probabilities (a copy: the caller may change it), each distinct matrix computed once."""
    key = (*head, names, matrix.dtype.str, matrix.shape, matrix.tobytes())
    found = _SEEN.get(key)
    if found is None:
        report: ClassificationReport | LazyReport = (
            ConfusionCounts.from_matrix(labels, matrix).report(zero_division=z)
            if names is None
            else LazyReport(labels, matrix, z)
        )
        found = classification_figures(report, None, positive, None, names)
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[key] = found
    return dict(found)


def regression_fold_figures(y_true, y_pred, fold, n_folds: int) -> list[dict]:
    """Each fold's mean squared error and squared correlation."""
    from svmeval.metrics.regression import regression_report

    return [
        regression_figures(regression_report(y_true[fold == i], y_pred[fold == i]))
        for i in range(n_folds)
    ]


def multilabel_fold_figures(Y_true, Y_pred, scores, fold, n_folds: int, z) -> list[dict]:
    """Each fold's multi-label figures (LRAP only with ``scores``)."""
    from svmeval.metrics.multilabel import evaluate_multilabel
    from svmeval.metrics.ranking import label_ranking_average_precision

    out = []
    for i in range(n_folds):
        rows = fold == i
        rep = evaluate_multilabel(Y_true[rows], Y_pred[rows], zero_division=z)
        lrap = (
            label_ranking_average_precision(Y_true[rows], scores[rows])
            if scores is not None
            else None
        )
        out.append(multilabel_figures(rep, lrap))
    return out

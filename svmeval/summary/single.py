"""Single-label summaries: classification and regression, from a CV result or from predictions.

Every figure comes from counts: one bincount over (fold, true class, predicted class) gives
each fold's confusion matrix, the pooled matrix is their sum, and each is reduced by
:meth:`~svmeval.metrics.ConfusionCounts.report`; the ranking figures come from the class scores
(:func:`~svmeval.metrics.scores.class_ranking`). Repetitions contribute their counts and
ranking figures (:class:`~svmeval.cv.engine.Repetition`), not their per-sample arrays.
"""

from __future__ import annotations

import numpy as np

from svmeval._args import checked
from svmeval.errors import ArgumentError, SvmevalError
from svmeval.metrics.classification import ConfusionCounts
from svmeval.metrics.measures import parse_zero_division
from svmeval.metrics.run_figures import (
    classification_figures,
    classification_fold_figures,
    figure_source,
    fold_counts,
    label_union,
    positive_and_negative,
    positive_label,
    regression_figures,
    regression_fold_figures,
)
from svmeval.summary.core import Summary, spread

__all__ = [
    "FractionalPredictions",
    "fold_values",
    "positive_label",
    "summarize_cv",
    "summarize_predictions",
]


class FractionalPredictions(ArgumentError):
    """Class predictions that are not integers: LIBSVM's classifiers predict (int) labels, so
    these are a regression's (``regression=True``)."""


def _as_vectors(y_true, y_pred):
    try:
        y_true = np.asarray(y_true, dtype=np.float64)
        y_pred = np.asarray(y_pred, dtype=np.float64)
    except (TypeError, ValueError):
        raise SvmevalError("labels and predictions must be numbers") from None
    if y_true.ndim != 1 or y_pred.ndim != 1:
        raise SvmevalError("labels and predictions must be one-dimensional")
    if len(y_true) != len(y_pred):
        raise SvmevalError(f"{len(y_true)} labels but {len(y_pred)} predictions")
    if len(y_true) == 0:
        raise SvmevalError("no samples to summarize")
    if not (np.isfinite(y_true).all() and np.isfinite(y_pred).all()):
        raise SvmevalError("labels and predictions must be finite numbers")
    return y_true, y_pred


def fold_source_meta(result) -> dict:
    """``{"fold_source": {...}}`` for folds given or grouped (``kind``: "given" or "grouped";
    ``source``: the file read, or ""; ``n_groups``: the groups, or the folds given; the class
    counts of each fold, ``fold_class_counts``, for classification); ``{}`` for LIBSVM's."""
    source = getattr(getattr(result, "folds", None), "source", None)
    if source is None:
        return {}
    out: dict = {
        "kind": "grouped" if source.grouped else "given",
        "source": source.origin,
        "n_groups": source.n_groups,
    }
    if result.params.is_classification:
        labels = np.sort(np.unique(result.y_true))
        counts = [
            [int(np.sum(result.y_true[result.fold == f] == lab)) for lab in labels]
            for f in range(result.n_folds)
        ]
        out["labels"] = [float(v) for v in labels]
        out["fold_class_counts"] = counts
    return {"fold_source": out}


def summarize_cv(
    result, *, pos_label=None, zero_division=0.0, meta: dict | None = None, per_fold: bool = True
) -> Summary:
    """Every figure of a single-label :class:`~svmeval.cv.CVResult`: pooled, per fold (unless
    ``per_fold`` is False), and per repetition."""
    from svmeval.metrics.probabilities import probability_figures, reliability_bins
    from svmeval.metrics.regression import regression_report
    from svmeval.metrics.scores import class_ranking

    z = parse_zero_division(zero_division)
    meta = {
        "mode": "cv",
        "data_file": getattr(result, "data_name", ""),
        "n_folds": result.n_folds,
        "seed": result.seed,
        "repeat": result.repeat,
        "parameters": result.params.as_dict(),
        **fold_source_meta(result),
        **(meta or {}),
    }
    y_true, y_pred = result.y_true, result.y_pred
    fold, n_folds = result.fold, result.n_folds
    sizes = tuple(int(v) for v in np.bincount(fold, minlength=n_folds))
    if result.params.is_regression:
        regression = regression_report(y_true, y_pred)
        folds = regression_fold_figures(y_true, y_pred, fold, n_folds) if per_fold else []
        reps = [regression_figures(regression)] + [
            regression_figures(r.regression) for r in result.repeats
        ]
        return _regression_summary(
            regression, len(y_true), z, meta, folds, sizes, reps if result.repeats else []
        )
    labels = np.union1d(y_true, y_pred)
    matrices = fold_counts(y_true, y_pred, fold, n_folds, labels)
    report = ConfusionCounts.from_matrix(labels, matrices.sum(axis=0)).report(zero_division=z)
    positive, negative = positive_and_negative(report.labels, pos_label)
    source_scores, source = (
        (result.probabilities, "probabilities")
        if result.probabilities is not None
        else (result.scores, "decision values")
    )
    rank = class_ranking(y_true, source_scores, result.labels, source=source)
    proba = result.probabilities if result.params.is_classification else None
    probability = probability_figures(y_true, proba, result.labels, positive)
    calibration = reliability_bins(y_true, proba, result.labels) if probability else ()
    folds = (
        classification_fold_figures(
            y_true,
            y_pred,
            fold,
            n_folds,
            positive=positive,
            scores=source_scores if rank is not None else None,
            score_labels=result.labels,
            source=source,
            zero_division=z,
            matrices=matrices,
            probabilities=proba if probability else None,
        )
        if per_fold
        else []
    )
    reps = []
    if result.repeats:
        reps.append(classification_figures(report, rank, positive, probability))
        for r in result.repeats:
            counts = ConfusionCounts(np.union1d(labels, r.confusion.labels)).merge(r.confusion)
            reps.append(
                classification_figures(
                    counts.report(zero_division=z),
                    r.ranking,
                    positive,
                    r.probability_figures(positive) if probability else None,
                )
            )
    return _classification_summary(
        report,
        rank,
        (positive, negative, pos_label),
        meta,
        folds,
        sizes,
        reps,
        probability,
        calibration,
    )


def fold_values(result, name: str, *, pos_label=None, zero_division=0.0) -> np.ndarray:
    """The figure ``name`` on each fold of a single-label :class:`~svmeval.cv.CVResult`, NaN
    where a fold lacks it: ``[f.get(name, nan) for f in summarize_cv(result).fold_figures]``,
    computing only what that figure needs (a counts figure reads no score; the pooled scores
    or probabilities are checked only for a figure of theirs)."""
    z = parse_zero_division(zero_division)
    y_true, y_pred, fold, n_folds = result.y_true, result.y_pred, result.fold, result.n_folds
    if result.params.is_regression:
        folds = regression_fold_figures(y_true, y_pred, fold, n_folds)
        return np.array([f.get(name, np.nan) for f in folds], dtype=np.float64)
    labels = label_union(y_true, y_pred)
    positive = positive_and_negative(labels, pos_label)[0]
    source = figure_source(name)
    scores, score_source = (
        (result.probabilities, "probabilities")
        if result.probabilities is not None
        else (result.scores, "decision values")
    )
    if source == "scores":
        from svmeval.metrics.scores import class_ranking
    if (
        source != "scores"
        or class_ranking(y_true, scores, result.labels, source=score_source) is None
    ):
        scores = None  # as summarize_cv: no ranking figures where the pooled scores have none
    proba = result.probabilities if result.params.is_classification else None
    if source == "probabilities":
        from svmeval.metrics.probabilities import probability_figures
    if source != "probabilities" or not probability_figures(y_true, proba, result.labels, positive):
        proba = None  # as summarize_cv: none where the pooled probabilities have none
    folds = classification_fold_figures(
        y_true,
        y_pred,
        fold,
        n_folds,
        positive=positive,
        scores=scores,
        score_labels=result.labels,
        source=score_source,
        zero_division=z,
        probabilities=proba,
        names=(name,),
    )
    return np.array([f.get(name, np.nan) for f in folds], dtype=np.float64)


@checked
def summarize_predictions(
    y_true,
    y_pred,
    *,
    regression: bool = False,
    pos_label=None,
    zero_division=0.0,
    scores=None,
    score_labels=None,
    meta: dict | None = None,
) -> Summary:
    """Every figure of predictions from anywhere (an svm-predict output, another tool).

    Parameters
    ----------
    y_true, y_pred : array-like of numbers
        The true labels and the predictions, one per sample.
    regression : bool, default False
        Score a regression (mse, squared correlation) instead of classes.
    pos_label, zero_division
        As :func:`summarize` takes them.
    scores : array-like, optional
        Per-class scores (e.g. ``-b 1`` probabilities) whose columns follow ``score_labels``,
        for the ranking figures.
    score_labels : array-like, optional
        The class of each column of ``scores``.
    meta : dict, optional
        Added to ``Summary.meta``.

    Returns
    -------
    Summary
        The pooled figures (no fold or repetition figures).

    Examples
    --------
    >>> from svmeval import summarize_predictions
    >>> s = summarize_predictions([1, 1, -1, -1, 1], [1, -1, -1, -1, 1])
    >>> s.positive, round(s.figures["precision"], 4), round(s.figures["recall"], 4)
    (1.0, 1.0, 0.6667)
    """
    from svmeval.metrics.regression import regression_report
    from svmeval.metrics.scores import class_ranking

    z = parse_zero_division(zero_division)
    y_true, y_pred = _as_vectors(y_true, y_pred)
    meta = {"mode": "score", **(meta or {})}
    if regression:
        return _regression_summary(
            regression_report(y_true, y_pred), len(y_true), z, meta, [], (), []
        )
    if not np.array_equal(y_pred, np.trunc(y_pred)):
        raise FractionalPredictions(
            "regression",
            "predictions are not class labels (not integers); summarize them with regression=True",
        )
    report = ConfusionCounts().update(y_true, y_pred).report(zero_division=z)
    positive, negative = positive_and_negative(report.labels, pos_label)
    rank = None
    if scores is not None:
        rank = class_ranking(y_true, scores, score_labels, source="probabilities")
    return _classification_summary(report, rank, (positive, negative, pos_label), meta, [], (), [])


def _classification_summary(
    report, rank, classes, meta, folds, sizes, reps, probability=None, calibration=()
):
    """``classes``: ``(positive, negative, pos_label)``, the first two None for more than two
    classes."""
    positive, negative, pos_label = classes
    correct = int(np.trace(report.confusion_matrix))
    n = report.n_samples
    return Summary(
        kind="classification",
        n_samples=n,
        classification=report,
        ranking=rank,
        correct=correct,
        accuracy_percent=100.0 * correct / n,
        positive=positive,
        negative=negative,
        pos_label=None if positive is None or pos_label is None else float(pos_label),
        figures=classification_figures(report, rank, positive, probability),
        calibration=calibration,
        fold_figures=folds,
        fold_spread=spread(folds),
        fold_sizes=sizes,
        repeat_figures=reps,
        repeat_spread=spread(reps),
        zero_division=report.zero_division,
        meta=meta,
    )


def _regression_summary(report, n, z, meta, folds, sizes, reps):
    return Summary(
        kind="regression",
        n_samples=n,
        regression=report,
        figures=regression_figures(report),
        fold_figures=folds,
        fold_spread=spread(folds),
        fold_sizes=sizes,
        repeat_figures=reps,
        repeat_spread=spread(reps),
        zero_division=z,
        meta=meta,
    )

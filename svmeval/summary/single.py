"""Single-label summaries: classification and regression, from a CV result or from predictions.

Every figure comes from counts: one bincount over (fold, true class, predicted class) gives
each fold's confusion matrix, the pooled matrix is their sum, and each is reduced by
:meth:`~svmeval.metrics.ConfusionCounts.report`; the ranking figures come from the class scores
(:func:`~svmeval.metrics.scores.class_ranking`). Repetitions contribute their counts and
ranking figures (:class:`~svmeval.cv.engine.Repetition`), not their per-sample arrays.
"""

from __future__ import annotations

import math

import numpy as np

from svmeval.errors import ArgumentError, SvmevalError, show_label, show_path
from svmeval.metrics.classification import ClassificationReport, ConfusionCounts
from svmeval.metrics.figures import figure_names
from svmeval.metrics.measures import parse_zero_division
from svmeval.metrics.regression import RegressionReport, regression_report
from svmeval.metrics.scores import ClassRanking, class_ranking
from svmeval.summary.core import Summary, spread

__all__ = ["FractionalPredictions", "check_pos_label", "positive_label", "summarize_cv",
           "summarize_predictions"]


class FractionalPredictions(ArgumentError):
    """Class predictions that are not integers: LIBSVM's classifiers predict (int) labels, so
    these are a regression's (``regression=True``)."""


def positive_label(labels: np.ndarray, pos_label: float | None = None) -> float:
    """The positive class of two-class data: ``pos_label`` if given, else 1 when present, else
    the larger label."""
    if pos_label is not None:
        if pos_label not in labels:
            shown = ", ".join(show_label(v) for v in labels)
            raise ArgumentError("pos_label", f"{show_label(pos_label)} is not one of the labels "
                                             f"({shown})")
        return float(pos_label)
    return 1.0 if 1.0 in labels else float(labels.max())


def check_pos_label(y, pos_label, data_name: str | None = None) -> None:
    """Refuse, before any work, the ``pos_label`` that the summary of a classifier's
    cross-validation on labels ``y`` would refuse (a class predicted is a class of ``y``);
    ``data_name`` names the data set in the message (a run over several)."""
    if pos_label is None:
        return
    labels = np.unique(np.asarray(y, dtype=np.float64))
    if data_name is None:
        _positive(labels, pos_label)
        return
    name = show_path(data_name)
    if len(labels) != 2:
        classes = f"{len(labels)} class" + ("" if len(labels) == 1 else "es")
        raise ArgumentError("pos_label", f"applies to two-class data only ({name} has "
                                         f"{classes})")
    if pos_label not in labels:
        shown = ", ".join(show_label(v) for v in labels)
        raise ArgumentError("pos_label", f"{show_label(pos_label)} is not one of the labels "
                                         f"of {name} ({shown})")


def _with_policy(value: float, z: float) -> float:
    return z if math.isnan(value) else float(value)


def classification_figures(report: ClassificationReport, ranking: ClassRanking | None,
                           positive: float | None) -> dict:
    """The registry's figures of a classification, in registry order."""
    z = report.zero_division
    values = {"accuracy": report.accuracy, "balanced_accuracy": report.balanced_accuracy,
              "mcc": report.mcc, "kappa": report.kappa}
    if positive is not None:
        k = int(np.flatnonzero(report.labels == positive)[0])
        for name in ("precision", "recall", "f1"):
            values[name] = _with_policy(float(getattr(report, name)[k]), z)
    for name in ("macro", "macro_harmonic", "micro", "weighted"):
        values[f"{name}_f1"] = report.averages[name].f1
    if ranking is not None:
        values.update(ranking.overall_for(positive))
    kind = "binary" if positive is not None else "multiclass"
    return {name: float(values[name]) for name in figure_names(kind) if name in values}


def regression_figures(report: RegressionReport) -> dict:
    return {"mse": report.mean_squared_error, "scc": report.squared_correlation}


def _positive(labels: np.ndarray, pos_label):
    if len(labels) == 2:
        positive = positive_label(labels, pos_label)
        return positive, float(labels[labels != positive][0])
    if pos_label is not None:
        raise ArgumentError("pos_label", "applies to two-class data only")
    return None, None


def _fold_counts(y_true, y_pred, fold, n_folds: int, labels: np.ndarray) -> np.ndarray:
    """n_folds x k x k confusion matrices from one bincount over label codes."""
    k = len(labels)
    code = (fold.astype(np.int64) * k + np.searchsorted(labels, y_true)) * k \
        + np.searchsorted(labels, y_pred)
    return np.bincount(code, minlength=n_folds * k * k).reshape(n_folds, k, k)


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


def summarize_cv(result, *, pos_label=None, zero_division=0.0, meta: dict | None = None,
                 per_fold: bool = True) -> Summary:
    """Every figure of a single-label :class:`~svmeval.cv.CVResult`: pooled, per fold (unless
    ``per_fold`` is False), and per repetition."""
    z = parse_zero_division(zero_division)
    meta = {"mode": "cv", "data_file": getattr(result, "data_name", ""),
            "n_folds": result.n_folds, "seed": result.seed, "repeat": result.n_repeats,
            "parameters": result.params.as_dict(), **(meta or {})}
    y_true, y_pred = result.y_true, result.y_pred
    fold, n_folds = result.fold, result.n_folds
    sizes = tuple(int(v) for v in np.bincount(fold, minlength=n_folds))
    if result.params.is_regression:
        report = regression_report(y_true, y_pred)
        folds = [regression_figures(regression_report(y_true[fold == i], y_pred[fold == i]))
                 for i in range(n_folds if per_fold else 0)]
        reps = [regression_figures(report)] + [regression_figures(r.regression)
                                               for r in result.repeats]
        return _regression_summary(report, len(y_true), z, meta, folds, sizes,
                                   reps if result.repeats else [])
    labels = np.union1d(y_true, y_pred)
    matrices = _fold_counts(y_true, y_pred, fold, n_folds, labels)
    report = ConfusionCounts.from_matrix(labels, matrices.sum(axis=0)).report(zero_division=z)
    positive, negative = _positive(report.labels, pos_label)
    source_scores, source = ((result.probabilities, "probabilities")
                             if result.probabilities is not None
                             else (result.scores, "decision values"))
    rank = class_ranking(y_true, source_scores, result.labels, source=source)
    folds = []
    for i in range(n_folds if per_fold else 0):
        rows = fold == i
        fold_report = ConfusionCounts.from_matrix(labels, matrices[i]).report(zero_division=z)
        fold_rank = (class_ranking(y_true[rows], source_scores[rows], result.labels,
                                   source=source) if rank is not None else None)
        folds.append(classification_figures(fold_report, fold_rank, positive))
    reps = []
    if result.repeats:
        reps.append(classification_figures(report, rank, positive))
        for r in result.repeats:
            counts = ConfusionCounts(np.union1d(labels, r.confusion.labels)).merge(r.confusion)
            reps.append(classification_figures(counts.report(zero_division=z), r.ranking,
                                               positive))
    return _classification_summary(report, rank, positive, negative, meta, folds, sizes, reps)


def summarize_predictions(y_true, y_pred, *, regression: bool = False, pos_label=None,
                          zero_division=0.0, scores=None, score_labels=None,
                          meta: dict | None = None) -> Summary:
    """Every figure of predictions from anywhere (an svm-predict output, another tool).

    ``scores``: optional per-class scores (e.g. -b 1 probabilities) whose columns follow
    ``score_labels``, for the ranking figures. No fold or repetition figures.
    """
    z = parse_zero_division(zero_division)
    y_true, y_pred = _as_vectors(y_true, y_pred)
    meta = {"mode": "score", **(meta or {})}
    if regression:
        return _regression_summary(regression_report(y_true, y_pred), len(y_true), z, meta,
                                   [], (), [])
    if not np.array_equal(y_pred, np.trunc(y_pred)):
        raise FractionalPredictions("regression", "predictions are not class labels (not "
                                    "integers); summarize them with regression=True")
    report = ConfusionCounts().update(y_true, y_pred).report(zero_division=z)
    positive, negative = _positive(report.labels, pos_label)
    rank = None
    if scores is not None:
        rank = class_ranking(y_true, scores, score_labels, source="probabilities")
    return _classification_summary(report, rank, positive, negative, meta, [], (), [])


def _classification_summary(report, rank, positive, negative, meta, folds, sizes, reps):
    correct = int(np.trace(report.confusion_matrix))
    n = report.n_samples
    return Summary(kind="classification", n_samples=n, classification=report, ranking=rank,
                   correct=correct, accuracy_percent=100.0 * correct / n,
                   positive=positive, negative=negative,
                   figures=classification_figures(report, rank, positive),
                   fold_figures=folds, fold_spread=spread(folds), fold_sizes=sizes,
                   repeat_figures=reps, repeat_spread=spread(reps),
                   zero_division=report.zero_division, meta=meta)


def _regression_summary(report, n, z, meta, folds, sizes, reps):
    return Summary(kind="regression", n_samples=n, regression=report,
                   figures=regression_figures(report), fold_figures=folds,
                   fold_spread=spread(folds), fold_sizes=sizes, repeat_figures=reps,
                   repeat_spread=spread(reps), zero_division=z, meta=meta)

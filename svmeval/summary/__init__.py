"""From a CV result (or predictions) to every figure a report shows: one :class:`Summary`.

``summarize(result)`` takes any cross-validation result, single- or multi-label;
``summarize_predictions(y_true, y_pred)`` takes predictions from anywhere. Each figure is named
in :data:`svmeval.metrics.FIGURES`; reporters format a Summary and compute nothing.
"""

from __future__ import annotations

from dataclasses import replace

from svmeval._args import checked
from svmeval.errors import SvmevalError
from svmeval.summary.core import Summary, spread
from svmeval.summary.single import positive_label, summarize_cv, summarize_predictions

TYPE_CHECKING = False  # as typing's, without importing typing

if TYPE_CHECKING:  # imported on first use: a single-label run loads no multi-label summary
    from svmeval.summary.multilabel import score_label_sets, summarize_multilabel

__all__ = [
    "Summary",
    "positive_label",
    "score_label_sets",
    "spread",
    "summarize",
    "summarize_multilabel",
    "summarize_predictions",
]


@checked(skip=("seed",))  # None or a seed of the bootstrap: check_interval_arguments
def summarize(
    result,
    *,
    pos_label=None,
    zero_division=0.0,
    meta: dict | None = None,
    per_fold: bool = True,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
) -> Summary:
    """Every figure of a cross-validation result, computed once.

    Pooled over the folds (as svm-train's accuracy is), per fold with their mean and sd, and
    per repetition: precision, recall and F1 per class and averaged (macro, micro, weighted),
    MCC, kappa, balanced accuracy, ROC AUC and average precision from the decision values;
    mse and squared correlation for regression; the multi-label figures for binary relevance.

    Parameters
    ----------
    result : CVResult or MultilabelCVResult
        A cross-validation (:func:`cross_validate`, :func:`cross_validate_multilabel`).
    pos_label : label, optional
        The positive class of two-class data (default 1 if present, else the larger label;
        labels that were not numbers: one of the user's labels, default the second sorted).
    zero_division : {0.0, 1.0, "nan"}, default 0.0
        The value an undefined ratio (0/0) takes in the averages and figures; "nan" leaves it
        out. The per-class view keeps it undefined.
    meta : dict, optional
        Added to the run's description (``Summary.meta``: data file, folds, seed, parameters).
    per_fold : bool, default True
        False leaves out the per-fold figures (single-label results).
    ci : float, optional
        The level (in (0, 1), e.g. 0.95) of bootstrap confidence intervals, percentile and
        BCa, of the pooled figures of a classification (``Summary.intervals``): the CV
        predictions resampled per sample, each sample's true label and prediction together
        (with repetitions, of the repetitions' mean figure, each resampled sample carrying
        its prediction in every repetition; :mod:`svmeval.summary.intervals`). The ranking figures get none; regression and
        multi-label results are refused.
    bootstrap : int, default 1000
        The bootstrap resamples (1 to 1,000,000), with ``ci``.
    seed : int, optional
        The seed of the resamples (``numpy.random.default_rng(seed)``, the indices
        ``scipy.stats.bootstrap`` draws with that generator); default the result's own seed.

    Returns
    -------
    Summary
        ``figures`` (name -> value, the names of :data:`svmeval.metrics.FIGURES`),
        ``fold_figures``, ``fold_spread``, ``repeat_figures``, the per-class report.

    Examples
    --------
    >>> from svmeval import cross_validate, summarize
    >>> summary = summarize(cross_validate("data/wine.scale", folds=5))
    >>> summary.kind, summary.figure_kind, summary.n_samples
    ('classification', 'multiclass', 178)
    >>> round(summary.figures["macro_f1"], 4), len(summary.fold_figures)
    (0.9775, 5)
    """
    from svmeval._classes import class_code
    from svmeval.cv.collect.results import CVResult, MultilabelCVResult
    from svmeval.errors import ArgumentError, InvalidParameterError
    from svmeval.summary.intervals import check_interval_arguments, classification_intervals
    from svmeval.summary.multilabel import summarize_multilabel

    check_interval_arguments(ci, bootstrap, seed)
    if ci is not None and isinstance(result, MultilabelCVResult):
        raise ArgumentError("ci", "does not apply to multi-label results")
    if ci is not None and isinstance(result, CVResult) and not result.params.is_classification:
        raise ArgumentError(
            "ci",
            "applies to a classification's figures; a regression's (mse, scc) and a "
            "one-class SVM's get no interval",
        )
    if isinstance(result, MultilabelCVResult):
        if pos_label is not None:
            raise InvalidParameterError("pos_label", "does not apply to multi-label results")
        summary = summarize_multilabel(result, zero_division=zero_division, meta=meta)
    elif isinstance(result, CVResult):
        summary = summarize_cv(
            result,
            pos_label=class_code(pos_label, result.classes),
            zero_division=zero_division,
            meta=meta,
            per_fold=per_fold,
        )
        summary = _named(summary, result)
    else:
        raise SvmevalError(
            f"summarize() takes a CVResult or a MultilabelCVResult (from "
            f"cross_validate), not {type(result).__name__}; predictions from "
            "elsewhere: summarize_predictions(y_true, y_pred)"
        )
    summary = replace(summary, configuration=result.configuration)  # as the user gave it
    if ci is not None and summary.classification is not None:
        intervals = classification_intervals(
            result.y_true,
            result.y_pred,
            summary.classification.labels,
            summary.positive,
            summary.zero_division,
            level=ci,
            resamples=bootstrap,
            seed=result.seed if seed is None else seed,
            repeated=_repeated_predictions(result),
        )
        summary = replace(summary, intervals=intervals)
    if result.provenance is not None:  # how the run was made, for the HTML report
        summary = replace(summary, provenance=result.provenance)
    return summary


def _repeated_predictions(result) -> list:
    """The further repetitions' predictions of a repeated cross-validation (from its kept
    results where its repetitions' records predate their predictions)."""
    out = []
    kept = list(getattr(result, "repeat_results", ()))
    for k, r in enumerate(result.repeats):
        y_pred = r.y_pred if r.y_pred is not None else (kept[k].y_pred if k < len(kept) else None)
        if y_pred is None:
            raise SvmevalError(
                "ci: the result's repetitions carry no predictions to resample "
                "(cross_validate(..., keep_repeats=True))"
            )
        out.append(y_pred)
    return out


def _named(summary: Summary, result) -> Summary:
    """``summary`` with the classes of ``result`` (the user's labels, where its labels were
    not numbers), its two-class reliability diagrams named by them."""
    if result.classes is None:
        return summary
    from svmeval._classes import show_class

    calibration = summary.calibration
    if len(calibration) == 2:  # one per class, ascending labels (reliability_bins)
        labels = sorted(float(v) for v in result.labels)
        calibration = tuple(
            replace(b, what=f"P(class {show_class(label, result.classes)})")
            for b, label in zip(calibration, labels)
        )
    return replace(summary, classes=result.classes, calibration=calibration)


#: the multi-label summary's names, imported on first use
_LAZY = {
    "score_label_sets": "svmeval.summary.multilabel",
    "summarize_multilabel": "svmeval.summary.multilabel",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

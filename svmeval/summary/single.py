"""From predictions to every figure a report shows: the bridge between engine and report.

A :class:`Summary` holds computed figures only (from :mod:`svmeval.metrics`); the reporters
format it and compute nothing. Besides the pooled figures (all CV predictions together, as
svm-train counts them) it holds each fold's figures and their mean ± sd, and, with ``--repeat``,
each repetition's pooled figures and their mean ± sd.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import SvmevalError
from ..metrics import evaluate, ranking
from ..metrics.classification import ClassificationReport
from ..metrics.regression import RegressionReport, regression_report


@dataclass(frozen=True, eq=False)
class Ranking:
    """Threshold-free figures from the CV scores (decision values, or -b 1 probabilities).

    ``overall``: for two classes ``roc_auc`` and ``average_precision`` of the positive class;
    for more, ``macro_roc_auc``, ``macro_average_precision`` (one-vs-rest) and
    ``label_ranking_average_precision``. ``roc_auc`` / ``average_precision`` per class
    (ascending labels, one-vs-rest). ``source``: "decision values" or "probabilities".
    """

    overall: dict
    roc_auc: np.ndarray
    average_precision: np.ndarray
    source: str


@dataclass(frozen=True, eq=False)
class Summary:
    """What one run found.

    ``kind``: "classification" or "regression". For classification, ``correct`` and
    ``accuracy_percent`` are svm-train's ``100.0*total_correct/l``; with two classes,
    ``positive`` / ``negative`` are the labels of the svm-train-compatible blocks.
    ``figures``: the pooled scalar figures by name (the ones per-fold and per-repetition
    spreads are given for); ``fold_figures`` / ``repeat_figures``: one such dict per fold /
    repetition; ``fold_spread`` / ``repeat_spread``: name -> (mean, sd) over them (sd with
    n-1 in the denominator; NaN with one value).
    ``meta``: where the predictions came from (mode "cv" or "score", data file, folds, seed,
    LIBSVM parameters).
    """

    kind: str
    n_samples: int
    classification: ClassificationReport | None = None
    regression: RegressionReport | None = None
    ranking: Ranking | None = None
    correct: int = 0
    accuracy_percent: float = float("nan")
    positive: float | None = None
    negative: float | None = None
    figures: dict = field(default_factory=dict)
    fold_figures: list = field(default_factory=list)
    fold_spread: dict = field(default_factory=dict)
    repeat_figures: list = field(default_factory=list)
    repeat_spread: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    @property
    def is_binary(self) -> bool:
        return self.positive is not None

    def class_index(self, label: float) -> int:
        return int(np.flatnonzero(self.classification.labels == label)[0])


def positive_label(labels: np.ndarray, pos_label: float | None = None) -> float:
    """The positive class of two-class data: ``pos_label`` if given, else 1 when present, else
    the larger label."""
    if pos_label is not None:
        if pos_label not in labels:
            shown = ", ".join(f"{v:g}" for v in labels)
            raise SvmevalError(f"--pos-label {pos_label:g} is not one of the labels ({shown})")
        return float(pos_label)
    return 1.0 if 1.0 in labels else float(labels.max())


def ovr_scores_from_ovo(decision_values: np.ndarray, n_classes: int) -> np.ndarray:
    """Per-class scores from LIBSVM's one-vs-one decision values (pairs (i, j), i < j, in
    LIBSVM's label order, positive towards class i).

    score_c = votes_c + s_c / (3(|s_c| + 1)), where votes_c counts the pairs class c wins as
    LIBSVM's vote does (dec > 0 votes i, otherwise j) and s_c sums the decision values in
    c's favour; the second term lies in (-1/3, 1/3), so it only orders classes with equal votes.
    The arg-max is LIBSVM's predicted class. This is scikit-learn's ``_ovr_decision_function``
    (used by ``SVC(decision_function_shape="ovr")``).
    """
    n = len(decision_values)
    votes = np.zeros((n, n_classes))
    conf = np.zeros((n, n_classes))
    k = 0
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            d = decision_values[:, k]
            votes[:, i] += d > 0
            votes[:, j] += ~(d > 0)
            conf[:, i] += d
            conf[:, j] -= d
            k += 1
    return votes + conf / (3 * (np.abs(conf) + 1))


def _scores_of(result):
    """(scores per class in LIBSVM's label order, source), or None if there are none."""
    if result is None or not result.params.is_classification:
        return None
    if result.probabilities is not None:
        return result.probabilities, "probabilities"
    dec = result.decision_values
    if dec.shape[1] == 0 or np.isnan(dec).any():
        return None  # a fold trained without some class: no score for its pairs
    if len(result.labels) == 2:
        return np.column_stack((dec[:, 0], -dec[:, 0])), "decision values"
    return ovr_scores_from_ovo(dec, len(result.labels)), "decision values"


def ranking_figures(y_true, scores, score_labels, *, positive=None, source="") -> Ranking:
    """ROC AUC and average precision (per class one-vs-rest, and overall) from class scores
    whose columns follow ``score_labels``."""
    order = np.argsort(score_labels)
    labels = np.asarray(score_labels, dtype=np.float64)[order]
    scores = scores[:, order]
    auc = ranking.ovr_roc_auc(y_true, scores, labels)
    ap = ranking.ovr_average_precision(y_true, scores, labels)
    if len(labels) == 2 and positive is not None:
        k = int(np.flatnonzero(labels == positive)[0])
        overall = {"roc_auc": float(auc[k]), "average_precision": float(ap[k])}
    else:
        indicator = (np.asarray(y_true)[:, None] == labels[None, :]).astype(np.int8)
        overall = {"macro_roc_auc": ranking.macro_roc_auc(y_true, scores, labels),
                   "macro_average_precision": ranking.macro_average_precision(y_true, scores, labels),
                   "label_ranking_average_precision":
                       ranking.label_ranking_average_precision(indicator, scores)}
    return Ranking(overall=overall, roc_auc=auc, average_precision=ap, source=source)


def scalar_figures(summary_part, rank: Ranking | None = None) -> dict:
    """The scalar figures whose spread over folds and repetitions is reported."""
    if isinstance(summary_part, RegressionReport):
        return {"mean_squared_error": summary_part.mean_squared_error,
                "squared_correlation": summary_part.squared_correlation}
    c = summary_part
    out = {"accuracy": c.accuracy, "balanced_accuracy": c.balanced_accuracy, "mcc": c.mcc,
           "kappa": c.kappa}
    for name in ("macro", "macro_harmonic", "micro", "weighted"):
        out[f"{name}_f1"] = c.averages[name].f1
    if rank is not None:
        out.update(rank.overall)
    return out


def spread(rows: list[dict]) -> dict:
    """name -> (mean, sd) over rows; sd with n-1 (NaN for one row); NaN values left out."""
    out = {}
    for name in rows[0] if rows else ():
        values = np.array([r[name] for r in rows], dtype=np.float64)
        values = values[~np.isnan(values)]
        mean = float(values.mean()) if len(values) else math.nan
        sd = float(values.std(ddof=1)) if len(values) > 1 else math.nan
        out[name] = (mean, sd)
    return out


def summarize(y_true, y_pred, *, regression: bool = False, pos_label: float | None = None,
              zero_division=0.0, meta: dict | None = None, result=None,
              repeats: list | None = None) -> Summary:
    """Every figure of ``y_pred`` against ``y_true``.

    ``result``: the CV result, for ranking figures (from its scores) and per-fold figures;
    ``repeats``: further CV results (other seeds) for the spread over repetitions.
    """
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    if len(y_true) != len(y_pred):
        raise SvmevalError(f"{len(y_true)} labels but {len(y_pred)} predictions")
    meta = dict(meta or {})
    if regression:
        report = regression_report(y_true, y_pred)
        summary = dict(kind="regression", n_samples=len(y_true), regression=report,
                       figures=scalar_figures(report))
        folds = _per_fold(result, lambda t, p, s: scalar_figures(regression_report(t, p)))
        reps = [scalar_figures(regression_report(r.y_true, r.y_pred)) for r in repeats or []]
        return Summary(**summary, fold_figures=folds, fold_spread=spread(folds),
                       repeat_figures=reps, repeat_spread=spread(reps), meta=meta)

    report = evaluate(y_true, y_pred, zero_division=zero_division)
    correct = int(np.count_nonzero(y_true == y_pred))
    positive = negative = None
    if len(report.labels) == 2:
        positive = positive_label(report.labels, pos_label)
        negative = float(report.labels[report.labels != positive][0])
    elif pos_label is not None:
        raise SvmevalError("--pos-label applies to two-class data only")

    def ranking_of(t, scored, score_labels):
        if scored is None or not _all_true_labels_scored(t, score_labels):
            return None
        return ranking_figures(t, scored[0], score_labels, positive=positive, source=scored[1])

    def figures_of(t, p, scored, score_labels):
        rep = evaluate(t, p, labels=report.labels, zero_division=zero_division)
        return scalar_figures(rep, ranking_of(t, scored, score_labels))

    scored = _scores_of(result)
    rank = ranking_of(y_true, scored, result.labels) if result is not None else None
    folds = [figures_of(y_true[m], y_pred[m], scored and (scored[0][m], scored[1]), result.labels)
             for m in _fold_masks(result)]
    reps = [figures_of(r.y_true, r.y_pred, _scores_of(r), r.labels) for r in repeats or []]
    return Summary(kind="classification", n_samples=len(y_true), classification=report,
                   ranking=rank, correct=correct, accuracy_percent=100.0 * correct / len(y_true),
                   positive=positive, negative=negative,
                   figures=scalar_figures(report, rank), fold_figures=folds,
                   fold_spread=spread(folds), repeat_figures=reps, repeat_spread=spread(reps),
                   meta=meta)


def _all_true_labels_scored(y_true, score_labels) -> bool:
    return bool(np.isin(y_true, score_labels).all()) and len(score_labels) >= 2


def _fold_masks(result):
    return [result.fold == i for i in range(result.n_folds)] if result is not None else []


def _per_fold(result, figures):
    return [figures(result.y_true[m], result.y_pred[m], None) for m in _fold_masks(result)]

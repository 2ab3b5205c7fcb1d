"""The quality of class probabilities (LIBSVM's ``-b 1`` estimates): log loss, Brier score,
expected calibration error, and the bins of a reliability diagram.

Every function takes the true labels, the probabilities (one column per class) and the class
of each column (``labels``, in any order: LIBSVM's, first appearance with +1 before -1).

* log loss: ``-mean_i log p_i(y_i)``, natural logarithm, each probability clipped to
  ``[eps, 1 - eps]`` with ``eps`` the float64 machine epsilon (scikit-learn's ``log_loss``);
* Brier score: for two classes, ``mean_i (p_i(+) - [y_i = +])^2`` of the positive class
  ``+`` (scikit-learn's ``brier_score_loss(..., pos_label=+)``); for more classes, the mean
  over samples of the squared distance between the probability vector and the one-hot vector
  of the true class, summed over classes (``mean_i sum_c (p_ic - [y_i = c])^2``, between 0 and
  2; scikit-learn's ``brier_score_loss`` of a probability matrix with three or more columns);
* expected calibration error (Guo et al. 2017): the top-label confidence ``max_c p_ic`` of
  each sample, binned into :data:`N_BINS` equal-width bins of [0, 1] (bin ``b`` holds
  ``b/10 < confidence <= (b+1)/10``, the first also 0, as scikit-learn's ``calibration_curve``
  with ``strategy="uniform"``), then ``sum_b (n_b / N) |accuracy_b - confidence_b|``, where
  ``accuracy_b`` is the share of the bin's samples whose most probable class is the true one
  and ``confidence_b`` their mean confidence; empty bins count nothing.

All three: smaller is better; 0 for perfect, certain probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "N_BINS",
    "CalibrationBins",
    "brier_score",
    "calibration_bins",
    "expected_calibration_error",
    "log_loss",
    "probability_figures",
    "top_label_bins",
]

#: the number of equal-width bins of the expected calibration error and the reliability diagram
N_BINS = 10


@dataclass(frozen=True, eq=False)
class CalibrationBins:
    """One reliability diagram: :data:`N_BINS` equal-width bins of [0, 1] of a predicted
    probability. ``edges``: the ``n_bins + 1`` bin edges; ``count``: samples in each bin;
    ``mean_predicted``: their mean predicted probability, ``observed``: the share of them
    for which the event happened (NaN for an empty bin). ``what``: what is binned (e.g.
    "P(class 1)" or "top-label confidence")."""

    edges: np.ndarray
    count: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    what: str = ""

    def to_dict(self) -> dict:
        """Plain JSON types (NaN as None)."""
        from svmeval._tables import plain

        return plain(
            {
                "what": self.what,
                "edges": self.edges,
                "count": self.count,
                "mean_predicted": self.mean_predicted,
                "observed": self.observed,
            }
        )


def _bin_of(p: np.ndarray, n_bins: int) -> np.ndarray:
    # scikit-learn's calibration_curve(strategy="uniform"): searchsorted on the inner edges
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.searchsorted(edges[1:-1], p)


def calibration_bins(event, predicted, *, n_bins: int = N_BINS, what: str = "") -> CalibrationBins:
    """The reliability diagram's bins of ``predicted`` probabilities of a binary ``event``
    (True where it happened): per bin its count, mean prediction and observed frequency."""
    event = np.asarray(event, dtype=np.float64)
    p = np.asarray(predicted, dtype=np.float64)
    b = _bin_of(p, n_bins)
    count = np.bincount(b, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(b, weights=p, minlength=n_bins) / count
        observed = np.bincount(b, weights=event, minlength=n_bins) / count
    return CalibrationBins(
        edges=np.linspace(0.0, 1.0, n_bins + 1),
        count=count,
        mean_predicted=mean,
        observed=observed,
        what=what,
    )


def _columns(y_true, probabilities, labels):
    """(index of each sample's true class among the columns, the probability matrix), or
    None where a probability is not finite or a true label has no column."""
    y = np.asarray(y_true, dtype=np.float64)
    proba = np.asarray(probabilities, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.float64)
    if proba.ndim != 2 or proba.shape != (len(y), len(labels)) or len(labels) < 2:
        return None
    if not np.isfinite(proba).all() or not np.isin(y, labels).all():
        return None
    order = np.argsort(labels, kind="stable")
    index = order[np.searchsorted(labels[order], y)]
    return index, proba


def top_label_bins(y_true, probabilities, labels, *, n_bins: int = N_BINS) -> CalibrationBins:
    """The top-label reliability diagram: the confidence ``max_c p_ic`` of each sample against
    whether its most probable class is the true one."""
    index, proba = _checked(y_true, probabilities, labels)
    top = np.argmax(proba, axis=1)
    return calibration_bins(
        top == index, proba.max(axis=1), n_bins=n_bins, what="top-label confidence"
    )


def _checked(y_true, probabilities, labels):
    cols = _columns(y_true, probabilities, labels)
    if cols is None:
        from svmeval.errors import SvmevalError

        raise SvmevalError(
            "probabilities must be finite, one column per class of labels, "
            "and every true label one of labels"
        )
    return cols


def log_loss(y_true, probabilities, labels) -> float:
    """The mean negative natural log of the probability of the true class (clipped to
    [eps, 1 - eps], as scikit-learn's ``log_loss``)."""
    index, proba = _checked(y_true, probabilities, labels)
    eps = np.finfo(np.float64).eps
    p = np.clip(proba[np.arange(len(index)), index], eps, 1.0 - eps)
    return float(-np.mean(np.log(p)))


def brier_score(y_true, probabilities, labels, *, pos_label=None) -> float:
    """Two classes: the mean squared error of the probability of ``pos_label`` (which must be
    given). More classes: the mean over samples of the squared distance to the true class's
    one-hot vector, summed over classes (``pos_label`` not used)."""
    index, proba = _checked(y_true, probabilities, labels)
    labels = np.asarray(labels, dtype=np.float64)
    onehot = np.zeros_like(proba)
    onehot[np.arange(len(index)), index] = 1.0
    if len(labels) == 2:
        if pos_label is None or pos_label not in labels:
            from svmeval.errors import ArgumentError

            raise ArgumentError("pos_label", "two-class probabilities need the positive class")
        k = int(np.flatnonzero(labels == pos_label)[0])
        return float(np.mean((proba[:, k] - onehot[:, k]) ** 2))
    return float(np.mean(np.sum((proba - onehot) ** 2, axis=1)))


def expected_calibration_error(y_true, probabilities, labels, *, n_bins: int = N_BINS) -> float:
    """The top-label expected calibration error over ``n_bins`` equal-width bins, each bin
    weighted by its share of the samples."""
    bins = top_label_bins(y_true, probabilities, labels, n_bins=n_bins)
    n = bins.count.sum()
    full = bins.count > 0
    gaps = np.abs(bins.observed[full] - bins.mean_predicted[full])
    return float(np.sum(bins.count[full] / n * gaps))


def reliability_bins(y_true, probabilities, labels, *, n_bins: int = N_BINS) -> tuple:
    """The bins of the reliability diagrams of class probabilities: for two classes one
    :class:`CalibrationBins` per class (its probability against whether the sample is of it),
    in ascending label order; for more classes one, of the top-label confidence
    (:func:`top_label_bins`). Empty where the probabilities have no figures (see
    :func:`probability_figures`)."""
    if probabilities is None or _columns(y_true, probabilities, labels) is None:
        return ()
    index, proba = _checked(y_true, probabilities, labels)
    labels = np.asarray(labels, dtype=np.float64)
    if len(labels) > 2:
        return (top_label_bins(y_true, probabilities, labels, n_bins=n_bins),)
    from svmeval.errors import show_label

    return tuple(
        calibration_bins(
            index == k, proba[:, k], n_bins=n_bins, what=f"P(class {show_label(labels[k])})"
        )
        for k in np.argsort(labels, kind="stable")
    )


def probability_figures(y_true, probabilities, labels, positive) -> dict:
    """The registry's probability figures (``log_loss``, ``brier_score``, ``ece``) of one set of
    predictions; empty where there are none to compute (no probabilities, one that is not
    finite, or a true label without a column). ``positive``: the positive class of two-class
    data (the Brier score's class), None for more classes."""
    if probabilities is None or _columns(y_true, probabilities, labels) is None:
        return {}
    if len(labels) == 2 and positive is None:
        return {}
    brier = brier_score(y_true, probabilities, labels, pos_label=positive)
    return {
        "log_loss": log_loss(y_true, probabilities, labels),
        "brier_score": brier,
        "ece": expected_calibration_error(y_true, probabilities, labels),
    }

"""A fold's output: what one fold's model says about its test rows, in the canonical order
of the whole run (:class:`FoldOutput`), whichever classes the fold's training rows held.

A model orders its classes as LIBSVM groups its training labels (:func:`libsvm_label_order`),
and a fold's model may lack a class: its one-vs-one columns are mapped onto the canonical pairs
of the data's labels (:func:`pair_map`), its probabilities onto the canonical label order, and
a multiclass fold's class scores are computed from its own columns (:func:`predict_part`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmeval.cv.plan.folds import group_classes
from svmeval.metrics.ovo import class_scores


def libsvm_label_order(y: np.ndarray) -> np.ndarray:
    """The class order LIBSVM gives a model trained on ``y`` (svm_group_classes)."""
    labels, _, _, _ = group_classes(y)
    return labels.astype(np.float64)


def pair_map(model_labels: np.ndarray, labels: np.ndarray):
    """For each canonical pair (i<j) of ``labels``: the model's pair column and its sign
    (column -1 and sign NaN where the model lacks a class). Vectorised: k(k-1)/2 pairs."""
    where = {float(lab): k for k, lab in enumerate(model_labels)}
    pos = np.array([where.get(float(lab), -1) for lab in labels], dtype=np.int64)
    i, j = np.triu_indices(len(labels), 1)  # canonical pairs in lexicographic order
    a, b = pos[i], pos[j]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    m = len(model_labels)
    cols = lo * (2 * m - lo - 1) // 2 + (hi - lo - 1)  # the model's column of pair (lo, hi)
    signs = np.where(a < b, 1.0, -1.0)
    missing = (a < 0) | (b < 0)
    cols[missing] = -1
    signs[missing] = np.nan
    return cols, signs


@dataclass(frozen=True, eq=False)
class FoldOutput:
    """What one fold's model said about its test rows (``Folds.test(i)``, in that order):
    the predictions, and where the plan keeps them the decision values (canonical pairs),
    class scores and probabilities (canonical label order)."""

    y_pred: np.ndarray
    decision_values: np.ndarray | None = None
    scores: np.ndarray | None = None
    probabilities: np.ndarray | None = None


def predict_part(
    model,
    problem,
    rows,
    part: slice,
    out: FoldOutput,
    omp_threads: int,
    cols,
    signs,
    *,
    labels: np.ndarray,
    classification: bool,
    probability: bool,
) -> None:
    """Write into ``out[part]`` what ``model`` says about ``problem``'s rows ``rows`` (a chunk
    of a fold's test rows): the predictions and, where ``out`` keeps them, the probabilities
    and class scores in the order of ``labels`` (LIBSVM's order of the whole data's classes)
    and the decision values of the canonical pairs (``cols``, ``signs``: :func:`pair_map` of
    the model's labels; None for a regression). ``probability``: -b 1's prediction."""
    # Prediction runs on one OpenMP thread per row, the rows split among ``omp_threads``
    # threads instead: an OpenMP team per row costs a barrier per row, and
    # svm_predict_values sums SVR / one-class kernel terms in an OpenMP reduction whose
    # order varies with the threads (one thread makes every result reproducible).
    pred, dec, probs = model.predict_parallel(
        problem.rows[rows], omp_threads, probability=probability
    )
    out.y_pred[part] = pred
    if not classification:
        if out.decision_values is not None:  # always kept: one value a sample
            out.decision_values[part] = dec
        return
    if probs is not None and out.probabilities is not None:
        where = {float(lab): k for k, lab in enumerate(model.labels)}
        for c, lab in enumerate(labels):
            k = where.get(float(lab))
            out.probabilities[part, c] = probs[:, k] if k is not None else 0.0
    m = len(labels)
    if out.scores is not None and m > 2:  # from the model's own columns, in one C pass
        where = {float(lab): a for a, lab in enumerate(model.labels)}
        class_scores(
            dec,
            [where.get(float(lab), -1) for lab in labels],
            len(model.labels),
            out=out.scores[part],
        )
    if out.decision_values is None and m > 2:
        return  # the n x k(k-1)/2 values in canonical order are not wanted
    if dec.shape[1]:
        dec = dec[:, np.where(cols < 0, 0, cols)] * signs
    else:  # a fold with one class: no pair was trained
        dec = np.full((len(rows), len(cols)), np.nan)
    if out.decision_values is not None:
        out.decision_values[part] = dec
    if out.scores is not None and m == 2:
        out.scores[part] = np.column_stack((dec[:, 0], -dec[:, 0]))

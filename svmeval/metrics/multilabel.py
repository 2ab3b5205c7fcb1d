"""Multi-label set metrics on label-indicator matrices (n_samples x n_labels, 0/1). Pure numpy.

Per-label one-vs-rest counts go through the same reduce as single-label classification
(:func:`svmeval.metrics.measures.per_class_ratios` / :func:`~svmeval.metrics.averaging.average_all`).
The "samples" average is the same reduce with the axes swapped: one-vs-rest counts per sample
(over its labels), ratios per sample, then their mean.

Undefined values: a label never predicted has undefined precision, a label never true has
undefined recall, and F1 is undefined only when TP + FP + FN = 0 (the label is neither true nor
predicted anywhere).  Likewise per sample: a sample with no true and no predicted label has
undefined F1 (and precision and recall).  Undefined values are NaN in the arrays and enter the
averages through ``zero_division`` (0, 1 or "nan" = left out; default 0, as scikit-learn).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from svmeval.metrics.averaging import AVERAGES, Average, average_all
from svmeval.metrics.measures import Counts, parse_zero_division, per_class_ratios

__all__ = [
    "MULTILABEL_AVERAGES",
    "MultilabelReport",
    "evaluate_multilabel",
    "label_sets_to_indicator",
]

#: The averages a multi-label report holds, in report order.
MULTILABEL_AVERAGES = ("samples",) + tuple(
    name for name, a in AVERAGES.items() if not a.multilabel_only
)


def _readonly(arr) -> np.ndarray:
    arr = np.array(arr, copy=True)
    arr.setflags(write=False)
    return arr


def label_sets_to_indicator(label_sets: Sequence, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Turn a list of label collections into an indicator matrix.

    ``label_sets[i]`` is an iterable of the (numeric) labels of sample i, possibly empty.
    Returns ``(Y, labels)``: ``labels`` float64 ascending (those seen, or ``labels=``, which must
    contain every label seen) and ``Y`` an int8 matrix with ``Y[i, j] = 1`` iff sample i has
    ``labels[j]``.
    """
    try:
        rows = [np.asarray(list(s), dtype=np.float64).reshape(-1) for s in label_sets]
    except (TypeError, ValueError):
        raise ValueError("label_sets must be a sequence of collections of numeric labels") from None
    seen = np.unique(np.concatenate(rows)) if rows else np.empty(0)
    if not np.all(np.isfinite(seen)):
        raise ValueError("label_sets contain a label that is NaN or infinite")
    if labels is None:
        lab = seen
    else:
        try:
            lab = np.unique(np.asarray(labels, dtype=np.float64).reshape(-1))
        except (TypeError, ValueError):
            raise ValueError("labels must be numeric") from None
        missing = np.setdiff1d(seen, lab)
        if missing.size:
            raise ValueError(
                f"label_sets contain label(s) {', '.join(f'{v:g}' for v in missing[:5])} "
                f"not in labels=[{', '.join(f'{v:g}' for v in lab)}]"
            )
    Y = np.zeros((len(rows), lab.size), dtype=np.int8)
    for i, row in enumerate(rows):
        Y[i, np.searchsorted(lab, row)] = 1
    return Y, lab


def _as_indicator(Y, name: str) -> np.ndarray:
    try:
        arr = np.asarray(Y)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 0/1 indicator matrix") from None
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D indicator matrix (n_samples x n_labels), got shape {arr.shape}"
        )
    if arr.dtype == bool:
        return arr
    if not np.issubdtype(arr.dtype, np.number) or not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must hold only 0 and 1")
    return arr.astype(bool)


def _ovr_counts(T: np.ndarray, P: np.ndarray, axis: int) -> Counts:
    """One-vs-rest counts summed along ``axis`` (0: per label, 1: per sample)."""
    tp = (T & P).sum(axis=axis, dtype=np.int64)
    fp = (~T & P).sum(axis=axis, dtype=np.int64)
    fn = (T & ~P).sum(axis=axis, dtype=np.int64)
    tn = (~T & ~P).sum(axis=axis, dtype=np.int64)
    return Counts(tp=tp, fp=fp, fn=fn, tn=tn)


@dataclass(frozen=True, eq=False)
class MultilabelReport:
    """Every figure of a multi-label prediction (arrays are read-only, NaN = undefined).

    Per-label arrays follow ``label_names``; per-sample arrays follow the rows.  ``averages`` maps
    "samples", "macro", "macro_harmonic", "micro", "weighted" to an :class:`Average` (its
    ``fbeta`` equals ``f1`` here).  ``zero_division_applied`` names each averaged figure the
    zero_division policy changed, as ``"<average>.<measure>"``.
    """

    label_names: tuple
    n_samples: int
    # per label
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    support: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    # per sample
    sample_precision: np.ndarray
    sample_recall: np.ndarray
    sample_f1: np.ndarray
    # averages and set measures
    averages: Mapping[str, Average]
    subset_accuracy: float
    hamming_loss: float
    zero_division: float
    zero_division_applied: tuple[str, ...]


def _checked_indicators(Y_true, Y_pred, label_names) -> tuple:
    """``(T, P, names)``: both indicator matrices, of one shape, and a name per label."""
    T = _as_indicator(Y_true, "Y_true")
    P = _as_indicator(Y_pred, "Y_pred")
    if T.shape != P.shape:
        raise ValueError(f"Y_true and Y_pred have different shapes ({T.shape} and {P.shape})")
    n_labels = T.shape[1]
    if label_names is None:
        return T, P, tuple(range(n_labels))
    names = tuple(label_names)
    if len(names) != n_labels:
        raise ValueError(f"label_names has {len(names)} names for {n_labels} labels")
    return T, P, names


def evaluate_multilabel(Y_true, Y_pred, *, label_names=None, zero_division=0) -> MultilabelReport:
    """Multi-label figures of indicator matrices ``Y_pred`` against ``Y_true``.

    Per label j (one-vs-rest over samples): TP, FP, FN, TN, support = TP + FN,
    precision TP/(TP+FP), recall TP/(TP+FN), F1 2TP/(2TP+FP+FN).

    Averages (as ``sklearn.metrics.f1_score(average=...)``):

    * samples: per sample i, P_i = |T_i & P_i| / |P_i|, R_i = |T_i & P_i| / |T_i|,
      F1_i = 2 |T_i & P_i| / (|T_i| + |P_i|), then the mean over samples.  A sample with no
      true and no predicted label has undefined F1, P and R (NaN in ``sample_f1``...), and the
      zero_division policy decides what it adds to the mean (default 0, as scikit-learn);
    * macro: mean over labels of per-label P, R, F1; macro_harmonic: 2 P R / (P + R) of the
      macro P and R (Opitz & Burst 2019, arXiv:1911.03347);
    * micro: counts summed over all sample x label pairs, then P, R, F1;
    * weighted: mean of per-label values weighted by support.

    subset accuracy = share of samples whose predicted label set equals the true one;
    Hamming loss = share of sample x label entries that differ.  Both NaN for an empty matrix.
    Reference: Tsoumakas, Katakis, Vlahavas (2010), Mining Multi-label Data, Data Mining and
    Knowledge Discovery Handbook, 667-685.
    """
    T, P, names = _checked_indicators(Y_true, Y_pred, label_names)
    n_samples = T.shape[0]
    z = parse_zero_division(zero_division)

    per_label = _ovr_counts(T, P, axis=0)
    label_ratios = per_class_ratios(per_label)
    label_avgs = tuple(a for a in MULTILABEL_AVERAGES if a != "samples")
    averages, applied = average_all(label_ratios, per_label, z, label_avgs)

    per_sample = _ovr_counts(T, P, axis=1)
    sample_ratios = per_class_ratios(per_sample)
    sample_avg, sample_applied = average_all(sample_ratios, per_sample, z, ["samples"])

    differ = T != P
    return MultilabelReport(
        label_names=names,
        n_samples=n_samples,
        tp=_readonly(per_label.tp),
        fp=_readonly(per_label.fp),
        fn=_readonly(per_label.fn),
        tn=_readonly(per_label.tn),
        support=_readonly(per_label.support),
        precision=_readonly(label_ratios["precision"]),
        recall=_readonly(label_ratios["recall"]),
        f1=_readonly(label_ratios["f1"]),
        sample_precision=_readonly(sample_ratios["precision"]),
        sample_recall=_readonly(sample_ratios["recall"]),
        sample_f1=_readonly(sample_ratios["f1"]),
        averages=MappingProxyType({**sample_avg, **averages}),
        subset_accuracy=float(np.mean(~differ.any(axis=1))) if n_samples else math.nan,
        hamming_loss=float(np.mean(differ)) if differ.size else math.nan,
        zero_division=z,
        zero_division_applied=tuple(sample_applied + applied),
    )

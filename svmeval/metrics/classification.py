"""Single-label classification metrics: confusion matrix, per-class and overall figures, averages.

Pure numpy; works on any ``y_true, y_pred`` of numeric labels (LIBSVM labels are doubles).
Labels are held as float64 in ascending numeric order: the confusion matrix has one row per
true label and one column per predicted label in that order.

The streaming form :class:`ConfusionCounts` accumulates the confusion matrix fold by fold
(:meth:`~ConfusionCounts.update`, :meth:`~ConfusionCounts.merge`); :meth:`~ConfusionCounts.report`
is the one reduce step, and :func:`evaluate` is ``ConfusionCounts(labels).update(y_true,
y_pred).report(...)``, so per-fold counts added up give exactly the figures of the pooled
predictions.

These are svmeval's own figures: an undefined value stays undefined (NaN) here, and
``zero_division`` says only how it enters the averages.  The functions named as scikit-learn's
(:func:`~svmeval.metrics.precision_recall.precision_score`, ...,
:func:`~svmeval.metrics.agreement.accuracy_score`, ...) follow scikit-learn's contract instead.
Definitions, 0/0 behaviour and references of every measure are in
:data:`svmeval.metrics.measures.METRICS`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from svmeval._repr import brief_repr
from svmeval.metrics.averaging import AVERAGES, Average, average_all
from svmeval.metrics.measures import (
    AVERAGED_MEASURES,
    METRICS,
    Counts,
    check_beta,
    parse_zero_division,
    per_class_ratios,
)

__all__ = [
    "SINGLE_LABEL_AVERAGES",
    "ClassificationReport",
    "ConfusionCounts",
    "evaluate",
]

#: The averages a single-label report holds, in report order.
SINGLE_LABEL_AVERAGES = tuple(name for name, a in AVERAGES.items() if not a.multilabel_only)


def _as_label_vector(y, name: str) -> np.ndarray:
    """y as a 1-D float64 array of finite labels; ValueError otherwise."""
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numeric labels") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a label that is NaN or infinite")
    return arr


def _readonly(arr: np.ndarray) -> np.ndarray:
    arr = np.array(arr, copy=True)
    arr.setflags(write=False)
    return arr


#: Integral labels spanning at most this many values are counted by their offset from the
#: smallest, ``_CHUNK`` pairs at a time (one bincount over span x span cells per chunk: the
#: chunk stays in cache); wider or fractional labels are encoded by a binary search among the
#: sorted distinct labels.
_DIRECT_SPAN = 2048
_CHUNK = 1 << 16


def _count_pairs(t: np.ndarray, p: np.ndarray):
    """The pairs (t[i], p[i]) counted: ``(labels, matrix, in_true, in_pred)`` with ``labels`` the
    labels seen in t or p (float64, ascending), ``matrix[i, j]`` the number of pairs
    (labels[i], labels[j]) and ``in_true``/``in_pred`` masks over ``labels`` of those seen in t
    and in p.  t and p are non-empty float64 vectors of finite labels of equal length."""
    lo = min(t.min(), p.min())
    span = max(t.max(), p.max()) - lo + 1
    if span <= _DIRECT_SPAN and abs(lo) < 2.0**62:
        span, offset = int(span), int(lo)
        cells = span * span
        full = np.zeros(cells, dtype=np.int64)
        step = max(_CHUNK, cells)
        for start in range(0, t.size, step):
            tc, pc = t[start : start + step], p[start : start + step]
            ti, pi = tc.astype(np.int64), pc.astype(np.int64)
            if not ((ti == tc).all() and (pi == pc).all()):
                break  # a fractional label: encode by search below
            ti -= offset
            pi -= offset
            ti *= span
            ti += pi
            full += np.bincount(ti, minlength=cells)
        else:
            square = full.reshape(span, span)
            in_true, in_pred = np.any(square, axis=1), np.any(square, axis=0)
            seen = np.flatnonzero(in_true | in_pred)
            return (seen + lo, square[np.ix_(seen, seen)], in_true[seen], in_pred[seen])
    labels_true, labels_pred = _distinct(t), _distinct(p)
    labels = _distinct(np.concatenate([labels_true, labels_pred]))
    k = labels.size
    codes = np.searchsorted(labels, t) * k + np.searchsorted(labels, p)
    matrix = np.bincount(codes, minlength=k * k).reshape(k, k)
    in_true, in_pred = np.zeros(k, dtype=bool), np.zeros(k, dtype=bool)
    in_true[np.searchsorted(labels, labels_true)] = True
    in_pred[np.searchsorted(labels, labels_pred)] = True
    return labels, matrix, in_true, in_pred


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (as np.unique, which since numpy 2.3 imports numpy.ma: a
    cost of its own at start-up)."""
    ordered = np.sort(values, kind="stable")
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


class ConfusionCounts:
    """A confusion matrix accumulated batch by batch (fold by fold).

    ``ConfusionCounts(labels)`` fixes the label set (ascending): a label outside it raises
    ValueError on update.  ``ConfusionCounts()`` grows the label set as labels are seen.
    ``update`` and ``merge`` add counts in place and return ``self``; ``report`` reduces the counts
    to every figure.  Since every figure is a function of the summed matrix, the report of the
    counts added fold by fold equals the report of the pooled predictions exactly.
    """

    __repr__ = brief_repr

    def __init__(self, labels=None):
        self._fixed = labels is not None
        self._labels = _distinct(_as_label_vector([] if labels is None else labels, "labels"))
        k = self._labels.size
        self._matrix = np.zeros((k, k), dtype=np.int64)

    @classmethod
    def from_matrix(cls, labels, matrix) -> ConfusionCounts:
        """Counts from a confusion matrix whose rows/columns follow ``labels`` (ascending)."""
        lab = _as_label_vector(labels, "labels")
        if lab.size > 1 and not np.all(np.diff(lab) > 0):
            raise ValueError("labels must be strictly ascending")
        m = np.asarray(matrix)
        if m.shape != (lab.size, lab.size):
            raise ValueError(f"matrix must have shape {(lab.size, lab.size)}, got {m.shape}")
        if not np.issubdtype(m.dtype, np.integer) or np.any(m < 0):
            raise ValueError("matrix must hold non-negative integer counts")
        counts = cls(lab)
        counts._matrix = m.astype(np.int64)
        return counts

    @property
    def labels(self) -> np.ndarray:
        """The labels, float64, ascending (a read-only copy)."""
        return _readonly(self._labels)

    @property
    def matrix(self) -> np.ndarray:
        """The confusion matrix, int64, rows true labels, columns predicted (a read-only copy)."""
        return _readonly(self._matrix)

    @property
    def n_samples(self) -> int:
        return int(self._matrix.sum())

    def _include(self, new_labels: np.ndarray, what: str) -> None:
        # new_labels are distinct and ascending
        at = np.searchsorted(self._labels, new_labels)
        known = at < self._labels.size
        known[known] = self._labels[at[known]] == new_labels[known]
        missing = new_labels[~known]
        if missing.size == 0:
            return
        if self._fixed:
            shown = ", ".join(f"{v:g}" for v in missing[:5])
            raise ValueError(
                f"{what} contains label(s) {shown} not in labels="
                f"[{', '.join(f'{v:g}' for v in self._labels)}]"
            )
        union = _distinct(np.concatenate([self._labels, missing]))
        index = np.searchsorted(union, self._labels)
        grown = np.zeros((union.size, union.size), dtype=np.int64)
        grown[np.ix_(index, index)] = self._matrix
        self._labels, self._matrix = union, grown

    def update(self, y_true, y_pred) -> ConfusionCounts:
        """Add the pairs (y_true[i], y_pred[i]) to the counts; return self."""
        t = _as_label_vector(y_true, "y_true")
        p = _as_label_vector(y_pred, "y_pred")
        if t.shape != p.shape:
            raise ValueError(f"y_true and y_pred have different lengths ({t.size} and {p.size})")
        if t.size == 0:
            return self
        labels, matrix, in_true, in_pred = _count_pairs(t, p)
        self._include(labels[in_true], "y_true")
        self._include(labels[in_pred], "y_pred")
        index = np.searchsorted(self._labels, labels)
        self._matrix[np.ix_(index, index)] += matrix
        return self

    def merge(self, other: ConfusionCounts) -> ConfusionCounts:
        """Add another ConfusionCounts' counts (label sets are united); return self."""
        if not isinstance(other, ConfusionCounts):
            raise TypeError(f"can only merge a ConfusionCounts, got {type(other).__name__}")
        other_labels, other_matrix = other._labels, other._matrix
        self._include(other_labels, "the merged counts")
        index = np.searchsorted(self._labels, other_labels)
        self._matrix[np.ix_(index, index)] += other_matrix
        return self

    def report(self, *, zero_division=0, beta: float = 1.0) -> ClassificationReport:
        """Every figure from the counts: the one reduce step behind :func:`evaluate`."""
        z = parse_zero_division(zero_division)
        counts = Counts.from_matrix(self._matrix, beta=check_beta(beta))
        values = {name: m.compute(counts) for name, m in METRICS.items()}
        averages, applied = average_all(values, counts, z, SINGLE_LABEL_AVERAGES)
        arrays: dict[str, Any] = {
            name: _readonly(values[name]) for name, m in METRICS.items() if m.scope != "overall"
        }
        overall: dict[str, Any] = {
            name: float(values[name]) for name, m in METRICS.items() if m.scope == "overall"
        }
        overall["mcc"], mcc_applied = _mcc_policy(overall["mcc"], self.n_samples, z)
        if mcc_applied:
            applied.append("mcc")
        return ClassificationReport(
            labels=self.labels,
            confusion_matrix=self.matrix,
            n_samples=self.n_samples,
            **arrays,
            **overall,
            averages=MappingProxyType(averages),
            beta=counts.beta,
            zero_division=z,
            zero_division_applied=tuple(applied),
        )


def _mcc_policy(mcc: float, n_samples: int, z: float) -> tuple[float, bool]:
    """MCC under the zero-division policy: (value, whether the policy gave it)."""
    if math.isnan(mcc) and n_samples and not math.isnan(z):
        # one class predicted or one class true: 0/0, which scikit-learn reports as 0.0
        return z, True
    return mcc, False


class LazyReport:
    """The figures of one confusion matrix that the registry's classification figures take
    from a :class:`ClassificationReport` (the overall figures, per-class precision, recall and
    F1, ``averages``), each computed when first read, by the functions of
    :meth:`ConfusionCounts.report`: the same values, for a caller that needs one of them (a
    criterion compared fold by fold). ``matrix``: int64 counts, rows true, ``labels``
    ascending."""

    def __init__(self, labels: np.ndarray, matrix: np.ndarray, zero_division: float):
        self.labels = labels
        self.zero_division = zero_division
        self._counts = Counts.from_matrix(matrix)
        self.averages = _LazyAverages(self)

    def _overall(self, name: str) -> float:
        return float(METRICS[name].compute(self._counts))

    @property
    def accuracy(self) -> float:
        return self._overall("accuracy")

    @property
    def balanced_accuracy(self) -> float:
        return self._overall("balanced_accuracy")

    @property
    def kappa(self) -> float:
        return self._overall("kappa")

    @property
    def mcc(self) -> float:
        n = int(self._counts.matrix.sum())  # type: ignore[union-attr]
        return _mcc_policy(self._overall("mcc"), n, self.zero_division)[0]

    @functools.cached_property
    def ratios(self) -> dict[str, np.ndarray]:
        """Every per-class ratio (what the averages take)."""
        return per_class_ratios(self._counts)

    @property
    def precision(self) -> np.ndarray:
        return self.ratios["precision"]

    @property
    def recall(self) -> np.ndarray:
        return self.ratios["recall"]

    @property
    def f1(self) -> np.ndarray:
        return self.ratios["f1"]


class _LazyAverages(Mapping):
    """A :class:`LazyReport`'s averages by name, each computed when first read."""

    def __init__(self, report: LazyReport):
        self._report = report

    def __getitem__(self, name: str) -> Average:
        r = self._report
        figures = AVERAGES[name].compute(r.ratios, r._counts, r.zero_division)
        return Average(**{m: figures[m][0] for m in AVERAGED_MEASURES})

    def __iter__(self):
        return iter(SINGLE_LABEL_AVERAGES)

    def __len__(self) -> int:
        return len(SINGLE_LABEL_AVERAGES)


@dataclass(frozen=True, eq=False)
class ClassificationReport:
    """Every figure of a single-label classification (arrays are read-only).

    Per-class arrays follow ``labels`` (ascending); ratios are NaN where undefined (see
    :data:`~svmeval.metrics.measures.METRICS` for each definition and its 0/0 case).

    ``averages`` maps "macro", "macro_harmonic", "micro", "weighted" to an :class:`Average`;
    undefined per-class values enter them through the ``zero_division`` policy (0.0, 1.0, or NaN
    meaning "left out"), and ``zero_division_applied`` names each averaged figure the policy
    changed, as ``"<average>.<measure>"`` (e.g. ``("macro.precision", "weighted.precision")``);
    empty when no undefined value was involved.
    """

    __repr__ = brief_repr

    labels: np.ndarray
    confusion_matrix: np.ndarray
    n_samples: int
    # counts per class (int64)
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    support: np.ndarray
    # ratios per class (float64, NaN = undefined)
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    fbeta: np.ndarray
    specificity: np.ndarray
    npv: np.ndarray
    ovr_accuracy: np.ndarray
    # overall (float, NaN = undefined)
    accuracy: float
    balanced_accuracy: float
    mcc: float
    kappa: float
    # averages of precision, recall, F
    averages: Mapping[str, Average]
    beta: float
    zero_division: float
    zero_division_applied: tuple[str, ...]


def evaluate(
    y_true, y_pred, *, labels=None, zero_division=0, beta: float = 1.0
) -> ClassificationReport:
    """Every per-class, overall and averaged figure of ``y_pred`` against ``y_true``.

    ``labels=`` may add labels that never occur (their ratios are undefined); every label that
    occurs must be in it.  ``zero_division`` (0, 1 or "nan") says how undefined per-class values
    enter the averages; ``beta`` is the F-beta weight (recall beta times as important as
    precision).  Formulas, 0/0 cases and references: :data:`svmeval.metrics.measures.METRICS`.
    """
    return (
        ConfusionCounts(labels)
        .update(y_true, y_pred)
        .report(zero_division=zero_division, beta=beta)
    )

"""svm-train's lines of a classifier's cross-validation, as the patched svm-train prints them:
the accuracy line and, for two classes, each class's precision, recall and F1.

Only the standard library and svmeval's errors: a drop-in call (``svmeval -v k`` of two
classes) prints these lines without loading a reporter, the figure registry or numpy.
:mod:`svmeval.report.text` prints them from a summary with the same functions.
"""

from __future__ import annotations

import math

from svmeval.errors import show_label

__all__ = ["accuracy_lines", "c_f1", "c_g", "label_text"]


def label_text(label) -> str:
    """A label as LIBSVM data files write it: %g, with a + on positive values (+1, -1, 0, +2);
    more digits where %g would print two labels alike (:func:`~svmeval.errors.show_label`).
    A label that is no number (a user's class, ``spam``, ``True``) as its text."""
    if isinstance(label, bool) or not isinstance(label, (int, float)):
        return str(label)
    return f"+{show_label(label)}" if float(label) > 0 else show_label(label)


def c_g(value: float) -> str:
    """C printf's %g as glibc prints svm-train's values: an undefined value (0.0/0.0 in C,
    a negative quiet NaN on every platform LIBSVM is built for) prints as ``-nan``."""
    return "-nan" if math.isnan(value) else f"{value:g}"


def c_f1(precision: float, recall: float) -> float:
    """The patched svm-train's F1, 2PR/(P+R) in double arithmetic: 0/0 (P = R = 0) and an
    undefined P or R give NaN, where the full report's F1 (2TP/(2TP+FP+FN)) is 0."""
    if math.isnan(precision) or math.isnan(recall) or precision + recall == 0:
        return math.nan
    return 2 * precision * recall / (precision + recall)


def accuracy_lines(accuracy_percent: float, classes=()) -> str:
    """svm-train's accuracy line and, for two classes, the per-class patch's lines:
    ``classes`` is ``((positive, precision, recall), (negative, precision, recall))``, or empty
    for one class or more than two."""
    out = [f"Cross Validation Accuracy = {accuracy_percent:g}%\n"]
    for title, (label, precision, recall) in zip(("Positive", "Negative"), classes):
        out.append(
            f"{title} ({label_text(label)}) class:\n"
            f"  precision = {c_g(precision)}\n"
            f"     recall = {c_g(recall)}\n"
            f"   F1 value = {c_g(c_f1(precision, recall))}\n\n"
        )
    return "".join(out)

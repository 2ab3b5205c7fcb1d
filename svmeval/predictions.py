"""Predictions files in svm-predict's format: written from a CV result, read back for --score.

Without probabilities: one label per line, ``%.17g`` (svm-predict's format). With ``-b 1``
(C-SVC / nu-SVC): a header ``labels l1 l2 ...`` (LIBSVM's label order) and per line the label
(``%g``) followed by the class probabilities in that order.
"""

from __future__ import annotations

import math

import numpy as np

from .errors import DataFormatError


def format_predictions(result) -> str:
    if result.probabilities is None:
        return "".join(f"{v:.17g}\n" for v in result.y_pred.tolist())
    head = "labels " + " ".join(f"{int(v)}" for v in result.labels) + "\n"
    rows = (f"{label:g} " + " ".join(f"{p:g}" for p in probs) + "\n"
            for label, probs in zip(result.y_pred.tolist(), result.probabilities.tolist()))
    return head + "".join(rows)


def read_predictions(path: str, *, expected: int | None = None) -> np.ndarray:
    """The predicted labels of a predictions file (first number of each line; an optional
    ``labels ...`` header line is skipped). ``expected``: the number of samples it must hold."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataFormatError(path, None, "not a text file (not UTF-8)") from None
    lines = text.splitlines()
    first = 0
    if lines and lines[0].split()[:1] == ["labels"]:
        first = 1
    values = []
    for lineno in range(first + 1, len(lines) + 1):
        tokens = lines[lineno - 1].split()
        if not tokens:
            raise DataFormatError(path, lineno, "empty line (one prediction a line expected)")
        try:
            value = float(tokens[0])
        except ValueError:
            raise DataFormatError(path, lineno, f"prediction {tokens[0]!r} is not a number") from None
        if not math.isfinite(value):
            raise DataFormatError(path, lineno, f"prediction {tokens[0]!r} is not a finite number")
        for tok in tokens[1:]:
            try:
                float(tok)
            except ValueError:
                raise DataFormatError(path, lineno, f"probability {tok!r} is not a number") from None
        values.append(value)
        if expected is not None and len(values) > expected:
            raise DataFormatError(path, lineno, f"more predictions than the {expected} samples "
                                                f"of the data file")
    if not values:
        raise DataFormatError(path, None, "no predictions")
    if expected is not None and len(values) < expected:
        raise DataFormatError(path, len(lines) + 1, f"{len(values)} predictions, but the data "
                                                    f"file has {expected} samples")
    return np.array(values, dtype=np.float64)

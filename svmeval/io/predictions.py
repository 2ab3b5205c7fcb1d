"""Predictions files: written from a CV result, read back for --score.

Single-label files are in svm-predict's format. Multi-label files hold one comma-separated
label set a line.

Without probabilities: one label per line, ``%.17g`` (svm-predict's format). With ``-b 1``
(C-SVC / nu-SVC): a header ``labels l1 l2 ...`` (LIBSVM's label order) and per line the label
(``%g``) followed by the class probabilities in that order.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import DataFormatError


def _read_text(path: str) -> str:
    """A predictions file's text, or a one-line error naming it."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataFormatError(path, None, "not a text file (not UTF-8)") from None


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
    lines = _read_text(path).splitlines()
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


def read_probabilities(path: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``-b 1`` class probabilities of a predictions file: ``(labels, n x k probabilities)``
    with the columns in the header's order, or None for a file without a ``labels`` header.
    Call after :func:`read_predictions` has checked the file."""
    lines = _read_text(path).splitlines()
    if not lines or lines[0].split()[:1] != ["labels"]:
        return None
    head = lines[0].split()[1:]
    try:
        labels = np.array([float(v) for v in head], dtype=np.float64)
    except ValueError:
        raise DataFormatError(path, 1, "the labels header holds a label that is not a number") from None
    rows = []
    for lineno, line in enumerate(lines[1:], 2):
        values = line.split()[1:]
        if len(values) != len(labels):
            raise DataFormatError(path, lineno, f"{len(values)} probabilities for the "
                                                f"{len(labels)} labels of the header")
        rows.append([float(v) for v in values])
    return labels, np.array(rows, dtype=np.float64).reshape(len(rows), len(labels))


_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


# --------------------------------------------------------------------------------------------
# Multi-label predictions files
# --------------------------------------------------------------------------------------------


def _label_text(value: float) -> str:
    """A label so that reading it back gives the same double: 3 for 3.0, else repr."""
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def format_label_set_predictions(result) -> str:
    """The predicted label sets, one line per sample in input order.

    Each line lists the sample's predicted labels in ascending order, separated by commas
    (``0,3,11``), as labels are written in multi-label LIBSVM data; a sample with no predicted
    label gets an empty line. Every line ends with a newline, so the file has exactly one line
    per sample.
    """
    names = [_label_text(float(v)) for v in result.label_names]
    out = []
    for row in np.asarray(result.Y_pred).astype(bool):
        out.append(",".join(names[j] for j in np.flatnonzero(row)))
        out.append("\n")
    return "".join(out)


def read_label_set_predictions(path: str, expected: int | None = None) -> list[tuple]:
    """The label sets of a multi-label predictions file (:func:`format_label_set_predictions`).

    One line per sample: labels separated by commas (blanks around them are ignored); an empty
    or blank line is an empty set. Returns one sorted tuple of floats per line (a label repeated
    counts once). ``expected``: the number of samples the file must describe.
    Raises :class:`DataFormatError` (``FILE:LINE: ...``) for a label that is not a finite number,
    an empty label between commas, and a line count other than ``expected``.
    """
    lines = _read_text(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not lines:
        raise DataFormatError(path, None, "no predictions (one label set a line expected)")
    sets: list[tuple] = []
    for lineno, line in enumerate(lines, 1):
        if expected is not None and lineno > expected:
            raise DataFormatError(path, lineno, f"more label sets than the {expected} samples "
                                                f"of the data file")
        line = line.rstrip("\r")
        if not line.strip():
            sets.append(())
            continue
        labels = set()
        for token in line.split(","):
            token = token.strip()
            if not token:
                raise DataFormatError(path, lineno, f"empty label in {line.strip()!r} "
                                                    "(labels are separated by single commas)")
            if not _NUMBER.match(token):
                raise DataFormatError(path, lineno, f"label {token!r} is not a number")
            value = float(token)
            if not math.isfinite(value):
                raise DataFormatError(path, lineno, f"label {token!r} is too large for a double")
            labels.add(value)
        sets.append(tuple(sorted(labels)))
    if expected is not None and len(sets) < expected:
        raise DataFormatError(path, len(lines) + 1, f"{len(sets)} label sets, but the data file "
                                                    f"has {expected} samples")
    return sets

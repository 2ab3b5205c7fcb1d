"""Predictions files: written from a CV result, read back for --score.

Single-label files are in svm-predict's format. Multi-label files hold one comma-separated
label set a line.

Without probabilities: one label per line, ``%.17g`` (svm-predict's format). With ``-b 1``
(C-SVC / nu-SVC): a header ``labels l1 l2 ...`` (LIBSVM's label order) and per line the label
(``%.17g``, which is svm-predict's ``%g`` for labels of up to 6 digits) followed by the class
probabilities in that order. Every file written here reads back exactly.
"""

from __future__ import annotations

import math
import re

import numpy as np

from svmeval.errors import DataFormatError, SvmevalError

MAX_LINE_BYTES = 64 << 20  # the longest predictions line read back


def _lines(path: str, max_line: int = MAX_LINE_BYTES):
    """``(line number, text)`` for each line of a predictions file, read one line at a time (a
    line longer than ``max_line`` bytes is an error, so memory stays bounded whatever the file);
    the newline and a CR before it are removed. Errors are one-line DataFormatErrors."""
    try:
        fh = open(path, "rb")
    except (OSError, ValueError) as exc:
        raise DataFormatError(
            path, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    with fh:
        lineno = 0
        while True:
            try:
                raw = fh.readline(max_line + 1)
            except OSError as exc:
                raise DataFormatError(path, None, f"cannot read: {exc.strerror or exc}") from None
            if not raw:
                return
            lineno += 1
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            elif len(raw) > max_line:
                raise DataFormatError(
                    path,
                    lineno,
                    f"line longer than {max_line} bytes, the "
                    "most a line may hold (not a predictions file?)",
                )
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise DataFormatError(path, lineno, "not a text file (not UTF-8)") from None


def _c_number(token: str):
    """A token as C ``strtod`` reads it in the C locale, the whole token: (value, ok)."""
    from svmeval.io._reader import parse_number

    if not token.isascii():
        return None, False
    value, status = parse_number(token.encode("ascii"))
    return value, status in (0, 3)


def _shown(token: str) -> str:
    return repr(token if len(token) <= 40 else token[:37] + "...")


def format_predictions(result) -> str:
    """The predictions file of a CV result, which :func:`read_predictions` reads back exactly.

    Labels are written ``%.17g`` (svm-predict's format without ``-b 1``; with ``-b 1``
    svm-predict's ``%g`` would merge labels of 7 digits and more, so ``%.17g`` there too, the
    same text for shorter labels). A prediction that is NaN or infinite (a regression gone
    numerically wrong) is refused: svmeval writes no file that ``--score`` cannot read.
    """
    y_pred = np.asarray(result.y_pred, dtype=np.float64)
    bad = ~np.isfinite(y_pred)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SvmevalError(
            f"prediction {i + 1} is {y_pred[i]} (not finite): no predictions file written"
        )
    if result.probabilities is None:
        return "".join(f"{v:.17g}\n" for v in y_pred.tolist())
    head = "labels " + " ".join(f"{int(v)}" for v in result.labels) + "\n"
    rows = (
        f"{label:.17g} " + " ".join(f"{p:g}" for p in probs) + "\n"
        for label, probs in zip(result.y_pred.tolist(), result.probabilities.tolist())
    )
    return head + "".join(rows)


def read_predictions(path: str, *, expected: int | None = None) -> np.ndarray:
    """The predicted labels of a predictions file (first number of each line; an optional
    ``labels ...`` header line is skipped). ``expected``: the number of samples it must hold.

    Numbers are read as C ``strtod`` reads them (svm-predict's output), tokens separated by
    blanks (spaces, tabs); a prediction must be finite.
    """
    values = []
    lineno = 0
    for lineno, line in _lines(path):
        tokens = line.replace("\t", " ").split(" ")
        tokens = [t for t in tokens if t]
        if lineno == 1 and tokens[:1] == ["labels"]:
            continue
        if not tokens:
            raise DataFormatError(path, lineno, "empty line (one prediction a line expected)")
        value, ok = _c_number(tokens[0])
        if not ok:
            raise DataFormatError(path, lineno, f"prediction {_shown(tokens[0])} is not a number")
        if not math.isfinite(value):
            raise DataFormatError(
                path, lineno, f"prediction {_shown(tokens[0])} is not a finite number"
            )
        for tok in tokens[1:]:
            if not _c_number(tok)[1]:
                raise DataFormatError(path, lineno, f"probability {_shown(tok)} is not a number")
        values.append(value)
        if expected is not None and len(values) > expected:
            raise DataFormatError(
                path, lineno, f"more predictions than the {expected} samples of the data file"
            )
    if not values:
        raise DataFormatError(path, None, "no predictions")
    if expected is not None and len(values) < expected:
        raise DataFormatError(
            path, lineno + 1, f"{len(values)} predictions, but the data file has {expected} samples"
        )
    return np.array(values, dtype=np.float64)


def read_probabilities(path: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``-b 1`` class probabilities of a predictions file: ``(labels, n x k probabilities)``
    with the columns in the header's order, or None for a file without a ``labels`` header.
    Numbers are read as :func:`read_predictions` reads them (call it first: it checks the
    predictions themselves)."""
    labels: np.ndarray | None = None
    n_labels, rows = 0, []
    for lineno, line in _lines(path):
        tokens = line.split()
        if lineno == 1:
            if tokens[:1] != ["labels"]:
                return None
            header = [_c_number(t) for t in tokens[1:]]
            if not all(ok and math.isfinite(v) for v, ok in header):
                raise DataFormatError(
                    path, 1, "the labels header holds a label that is not a finite number"
                )
            labels = np.array([v for v, _ in header], dtype=np.float64)
            n_labels = len(header)
            continue
        values = [_c_number(t) for t in tokens[1:]]
        if len(values) != n_labels:
            raise DataFormatError(
                path, lineno, f"{len(values)} probabilities for the {n_labels} labels of the header"
            )
        if not all(ok and math.isfinite(v) for v, ok in values):
            raise DataFormatError(path, lineno, "a probability is not a finite number")
        rows.append([v for v, _ in values])
    if labels is None:
        return None
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
    sets: list[tuple] = []
    lineno = 0
    for lineno, line in _lines(path):
        if expected is not None and lineno > expected:
            raise DataFormatError(
                path, lineno, f"more label sets than the {expected} samples of the data file"
            )
        if not line.strip(" \t"):
            sets.append(())
            continue
        labels = set()
        for token in line.split(","):
            token = token.strip(" \t")
            if not token:
                raise DataFormatError(
                    path,
                    lineno,
                    f"empty label in {_shown(line.strip(' '))} "
                    "(labels are separated by single commas)",
                )
            if not _NUMBER.match(token):
                raise DataFormatError(path, lineno, f"label {_shown(token)} is not a number")
            value = float(token)
            if not math.isfinite(value):
                raise DataFormatError(
                    path, lineno, f"label {_shown(token)} is too large for a double"
                )
            labels.add(value)
        sets.append(tuple(sorted(labels)))
    if not sets:
        raise DataFormatError(path, None, "no predictions (one label set a line expected)")
    if expected is not None and len(sets) < expected:
        raise DataFormatError(
            path, lineno + 1, f"{len(sets)} label sets, but the data file has {expected} samples"
        )
    return sets

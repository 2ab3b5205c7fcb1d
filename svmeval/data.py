"""Read LIBSVM-format data into a Dataset (labels + CSR feature arrays).

Interim pure-Python reader; the fast strict reader replaces the body of ``read_dataset``
while keeping the ``Dataset`` type and the function's signature.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .errors import DataFormatError


@dataclass(frozen=True, eq=False)
class Dataset:
    """A LIBSVM data set in CSR form.

    ``y``: float64 labels, one per sample (for multi-label data: None).
    ``label_indptr`` / ``label_values``: multi-label data only; the labels of sample i are
    ``label_values[label_indptr[i]:label_indptr[i+1]]``.
    ``indptr`` (int64, l+1), ``indices`` (int32, the file's feature indices), ``values`` (float64).
    ``n_features``: the largest feature index in the file (0 when there is none), as svm-train
    computes it for gamma's default.
    ``name``: the file name used in messages.
    """

    y: np.ndarray | None
    indptr: np.ndarray
    indices: np.ndarray
    values: np.ndarray
    n_features: int
    name: str
    label_indptr: np.ndarray | None = None
    label_values: np.ndarray | None = None

    @property
    def n_samples(self) -> int:
        return len(self.indptr) - 1

    @property
    def is_multilabel(self) -> bool:
        return self.label_indptr is not None


def read_dataset(source: str | os.PathLike, *, multilabel: bool = False) -> Dataset:
    """Read a LIBSVM-format file (``-`` for standard input) into a :class:`Dataset`."""
    name = os.fspath(source)
    try:
        with open(name, "rb") as fh:
            lines = fh.read().decode("latin-1").splitlines()
    except OSError as exc:
        raise DataFormatError(name, None, f"cannot read: {exc.strerror}") from None
    y, indptr, indices, values = [], [0], [], []
    for lineno, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens:
            raise DataFormatError(name, lineno, "empty line")
        try:
            y.append(float(tokens[0]))
        except ValueError:
            raise DataFormatError(name, lineno, f"label {tokens[0]!r} is not a number") from None
        last = -1
        for tok in tokens[1:]:
            idx, sep, val = tok.partition(":")
            try:
                i, v = int(idx), float(val)
            except ValueError:
                raise DataFormatError(name, lineno, f"malformed feature {tok!r}") from None
            if i <= last:
                raise DataFormatError(name, lineno, f"index {i} is not ascending")
            last = i
            indices.append(i)
            values.append(v)
        indptr.append(len(indices))
    idx = np.asarray(indices, dtype=np.int32)
    return Dataset(
        y=np.asarray(y, dtype=np.float64),
        indptr=np.asarray(indptr, dtype=np.int64),
        indices=idx,
        values=np.asarray(values, dtype=np.float64),
        n_features=int(idx.max()) if len(idx) else 0,
        name=name,
    )

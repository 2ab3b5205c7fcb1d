"""Read LIBSVM-format data into a Dataset (labels + CSR feature arrays).

The format is svm-train's, read strictly::

    label idx:val idx:val ...            one sample a line
    l1,l2,... idx:val ...                multi-label (``multilabel=True``); no labels: features only

Labels and values are numbers as C ``strtod`` reads them in the C locale (``+1``, ``-1.0``,
``1e-3``, ``3504.``, hex floats), and must be finite; indices are decimal integers from 0 to
2^31 - 1, strictly ascending within a line. Lines end in LF or CRLF; blanks (spaces, tabs) around
tokens and a missing final newline are fine. Anything else -- an empty line, a token that is not
a number, an index out of order, NaN or infinity (which ``strtod`` accepts and LIBSVM then
computes garbage with), a number for which ``strtod`` reports ERANGE (overflow, or underflow to
a subnormal number or zero: svm-train refuses such a feature value; such a label it reads, and
LIBSVM trains it as class 0) -- is a
:class:`~svmeval.errors.DataFormatError` naming the file, the physical line and the token.
svm-train silently drops a trailing token without a colon (``# comment``); this reader refuses it.
A file with commas and no index:value pair on any line is a CSV file, and the error says so
(with or without ``multilabel``). A multi-label label is an integer written as multi-label
files write them (``0``, ``7``, ``-3``; no ``+``, leading zero, decimal point or exponent; at
most 2^53 in size), the one spelling that LIBSVM's multi-label tools (labels as text) and
scikit-learn's reader (labels as floats) read alike.

Files may be gzip, bzip2 or xz compressed (recognised by their content, or by a ``.gz``, ``.bz2``,
``.xz`` suffix); ``-`` reads standard input. Parsing is done by the C extension
``svmeval.io._reader`` chunk by chunk: no Python object per feature, and the arrays it fills become
the Dataset's numpy arrays without a copy.

The :class:`~svmeval.io.dataset.Dataset` type and its checks are :mod:`svmeval.io.dataset`'s (the
name is kept here too); this module also takes a run's data argument as a checked Dataset, once,
at the run's door (:func:`checked_dataset`).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from svmeval.errors import DataFormatError, SvmevalError, show_path
from svmeval.io._streams import STDIN_NAME
from svmeval.io.dataset import Dataset
from svmeval.io.raw import MAX_LINE_BYTES, read_arrays
from svmeval.io.svm_train_syntax import INT_MAX, INT_MIN

__all__ = [
    "Dataset",
    "MAX_LINE_BYTES",
    "STDIN_NAME",
    "check_precomputed",
    "checked_dataset",
    "coded_as_classes",
    "is_xy",
    "read_dataset",
]


#: what a run takes as its data: a :class:`Dataset`, a LIBSVM-format file's name, or ``(X, y)``
#: (arrays in memory, :meth:`Dataset.from_arrays`)
DataSource = Dataset | str | os.PathLike[str] | tuple[Any, Any]


def is_xy(data: object) -> bool:
    """Whether ``data`` is arrays in memory, ``(X, y)``: a 2-tuple whose first item is not a file
    name, a Dataset or a tuple (so that a tuple of data sets is never mistaken for one)."""
    return (
        isinstance(data, tuple)
        and len(data) == 2
        and not isinstance(data[0], (str, bytes, os.PathLike, Dataset, tuple))
    )


def read_dataset(
    source: str | os.PathLike, *, multilabel: bool = False, max_line_bytes: int = MAX_LINE_BYTES
) -> Dataset:
    """Read a LIBSVM-format file into a :class:`Dataset`, strictly and at C speed.

    Parameters
    ----------
    source : str or os.PathLike
        The file (gzip, bzip2 or xz compressed too); ``-`` reads standard input. The name is
        kept as given in ``Dataset.name`` and in messages (``<stdin>`` for ``-``).
    multilabel : bool, default False
        Read a line's first token as a comma-separated label set of integers (possibly
        absent); ``y`` is then None. Otherwise a comma in a label is an error that says the
        file looks multi-label (where its labels are sets of integers).
    max_line_bytes : int, default 64 MiB
        The longest line accepted, refused before more is held: ``/dev/zero``, a
        decompression bomb or a file without newlines fails with ``FILE:LINE:``.

    Returns
    -------
    Dataset
        Labels and CSR feature arrays.

    Raises
    ------
    DataFormatError
        A file that cannot be read or decompressed, a malformed line (with its physical line
        number and the token at fault), a CSV file (commas, no index:value pair anywhere: the
        first line with a comma), a file with no samples.

    Examples
    --------
    >>> from svmeval import read_dataset
    >>> ds = read_dataset("data/wine.scale")
    >>> ds.n_samples, ds.n_features, sorted(set(ds.y.tolist()))
    (178, 13, [1.0, 2.0, 3.0])
    """
    raw = read_arrays(source, multilabel=multilabel, max_line_bytes=max_line_bytes)
    y, label_indptr, label_values = raw.y, raw.label_indptr, raw.label_values
    return Dataset(
        y=None if y is None else np.frombuffer(y, dtype=np.float64),
        indptr=np.frombuffer(raw.indptr, dtype=np.int64),
        indices=np.frombuffer(raw.indices, dtype=np.int32),
        values=np.frombuffer(raw.values, dtype=np.float64),
        n_features=raw.max_index,
        name=raw.name,
        label_indptr=None if label_indptr is None else np.frombuffer(label_indptr, np.int64),
        label_values=None if label_values is None else np.frombuffer(label_values, np.float64),
    )


def checked_dataset(
    data,
    name: str = "data",
    *,
    multilabel: bool = False,
    precomputed: bool = False,
    single: str | None = None,
) -> Dataset:
    """A run's data argument as a checked :class:`Dataset`, once, at the run's door: read when
    ``data`` is a file name (str or os.PathLike), built by :meth:`Dataset.from_arrays` when it
    is ``(X, y)`` (``multilabel``: the file read as multi-label data, ``y`` an indicator
    matrix), checked again (:meth:`Dataset.validate`) when it is a Dataset (its arrays may
    have changed since it was built); with ``precomputed`` (a ``-t 4`` configuration) its rows
    checked as a precomputed kernel (:func:`check_precomputed`). What runs behind the door
    trusts the Dataset it returns. ``name`` names the argument in messages; ``single`` (a
    run's words) refuses multi-label data for a run that takes one label a sample."""
    if isinstance(data, (str, os.PathLike)):
        dataset = read_dataset(os.fspath(data), multilabel=multilabel)
    elif isinstance(data, tuple):
        if not is_xy(data):
            raise SvmevalError(
                f"{name} as a tuple must be (X, y): features and labels, got a tuple of "
                f"{len(data)} ({', '.join(type(v).__name__ for v in data[:3])}"
                f"{', ...' if len(data) > 3 else ''})"
            )
        dataset = Dataset.from_arrays(*data, multilabel=multilabel)
    elif isinstance(data, Dataset):
        data.validate()
        dataset = data
    else:
        raise SvmevalError(
            f"{name} must be a svmeval Dataset, a file name or (X, y), got {type(data).__name__}"
        )
    if precomputed:
        check_precomputed(dataset)
    if single is not None and dataset.y is None:
        raise SvmevalError(
            f"{show_path(dataset.name)}: multi-label data: {single} takes single-label data"
        )
    return dataset


def coded_as_classes(dataset: Dataset) -> Dataset:
    """``dataset`` (one label a sample, given as ``(X, y)`` to classifiers: C-SVC, nu-SVC),
    its labels coded as classes (``classes``) where they are numbers not all whole or beyond a
    C ``int``: LIBSVM would take each as ``(int)label`` (0.5 and 0.7 as one class 0), so they
    become their positions among the distinct labels sorted, as text and other labels do. A
    file's labels and a Dataset's stay LIBSVM's, as svm-train reads them."""
    y = dataset.y
    if (
        y is None
        or dataset.classes is not None
        or (np.array_equal(y, np.trunc(y)) and INT_MIN <= y.min() and y.max() <= INT_MAX)
    ):
        return dataset
    from dataclasses import replace

    classes, codes = np.unique(y, return_inverse=True)
    return replace(
        dataset,
        y=codes.astype(np.float64).reshape(-1),
        classes=tuple(float(v) for v in classes),
    )


def rows_of(dataset, rows: np.ndarray) -> Dataset:
    """The :class:`Dataset` of a single-label ``dataset``'s ``rows``, in the order given (the
    same ``n_features`` and name)."""
    rows = np.asarray(rows, dtype=np.int64)
    starts, ends = dataset.indptr[rows], dataset.indptr[rows + 1]
    lengths = ends - starts
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    take = np.repeat(starts - indptr[:-1], lengths) + np.arange(indptr[-1], dtype=np.int64)
    return Dataset(
        y=dataset.y[rows],
        indptr=indptr,
        indices=dataset.indices[take],
        values=dataset.values[take],
        n_features=dataset.n_features,
        name=dataset.name,
    )


def check_precomputed(ds: Dataset) -> None:
    """Check a ``-t 4`` (precomputed kernel) data set before LIBSVM sees it.

    Each line must be ``label 0:serial 1:K(x,x1) ... l:K(x,xl)``: the first feature index 0
    holding the sample's serial number, an integer in 1..l (l = the number of samples), then the
    kernel values for every index 1..l. LIBSVM looks kernel values up by position, trusting both,
    and reads out of bounds otherwise. Raises :class:`~svmeval.errors.DataFormatError` naming the
    first offending line.
    """
    l = ds.n_samples
    start, stop = ds.indptr[:-1], ds.indptr[1:]
    lengths = stop - start
    first_ok = np.zeros(l, dtype=bool)
    has = lengths > 0
    first_ok[has] = ds.indices[start[has]] == 0
    bad = np.flatnonzero(~first_ok)
    if len(bad):
        i = int(bad[0])
        got = "no features" if lengths[i] == 0 else f'first feature "{_feature(ds, start[i])}"'
        raise DataFormatError(
            ds.name,
            i + 1,
            f"precomputed kernel: the first feature must be 0:serial_number, found {got}",
        )
    serial = ds.values[start]
    good = (serial == np.floor(serial)) & (serial >= 1) & (serial <= l)
    bad = np.flatnonzero(~good)
    if len(bad):
        i = int(bad[0])
        raise DataFormatError(
            ds.name,
            i + 1,
            f'precomputed kernel: serial number "{_feature(ds, start[i])}" is not an integer '
            f"in 1..{l} (the number of samples)",
        )
    # indices are strictly ascending from 0, so a row holds all of 0..l iff position l holds l
    full = lengths >= l + 1
    full[full] = ds.indices[start[full] + l] == l
    bad = np.flatnonzero(~full)
    if len(bad):
        i = int(bad[0])
        row = ds.indices[start[i] : stop[i]]
        k = np.arange(min(len(row), l + 1))
        gaps = np.flatnonzero(row[: len(k)] != k)
        missing = int(gaps[0]) if len(gaps) else len(row)
        raise DataFormatError(
            ds.name,
            i + 1,
            f"precomputed kernel: index {missing} is missing; each line needs the kernel "
            f"values 1:K(x,x1) ... {l}:K(x,x{l}), one per sample",
        )


# ---------------------------------------------------------------------------------------------


def _feature(ds: Dataset, k) -> str:
    v = float(ds.values[k])
    return f"{int(ds.indices[k])}:{v:.17g}"

"""The :class:`Dataset` type: a LIBSVM data set in CSR form (labels, or multi-label sets, and
the rows' indices and values), checked on construction as the reader checks a file
(:meth:`Dataset.validate`), so that a Dataset built by hand is as safe for LIBSVM as one read
from a file. :mod:`svmeval.io.data` reads files into it and takes a run's data argument as one.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from svmeval.errors import DataFormatError

__all__ = ["Dataset"]


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
    ``classes``: where the labels were not numbers (text, objects, booleans, a pandas
    categorical's values: :meth:`from_arrays`), the user's labels, sorted, and ``y`` holds
    each sample's position among them (0.0 .. k-1, as scikit-learn's ``LabelEncoder``); None
    where ``y`` holds the labels themselves.

    A Dataset built by hand is checked as the reader checks a file (:meth:`validate`).

    Examples
    --------
    >>> import numpy as np
    >>> from svmeval import Dataset
    >>> ds = Dataset(y=np.array([1.0, -1.0]), indptr=np.array([0, 2, 3]),
    ...              indices=np.array([1, 3], dtype=np.int32)[[0, 1, 0]],
    ...              values=np.array([0.5, -1.0, 0.25]), n_features=3, name="two rows")
    >>> ds.n_samples, ds.n_features
    (2, 3)
    """

    y: np.ndarray | None
    indptr: np.ndarray
    indices: np.ndarray
    values: np.ndarray
    n_features: int
    name: str
    label_indptr: np.ndarray | None = None
    label_values: np.ndarray | None = None
    classes: tuple | None = None

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        """Check what LIBSVM trusts, as the reader guarantees it, before a Dataset built by hand
        becomes a LIBSVM problem: 1-D arrays of consistent lengths, ``indptr`` from 0 and
        non-decreasing, indices in 0..2^31-1 and strictly ascending within a row, finite values
        and labels, at least one sample. Arrays are converted to the documented dtypes (no
        value may change in the conversion). Raises :class:`~svmeval.errors.DataFormatError`
        naming the data set (and the sample, as its line, where one is at fault).
        """
        if not isinstance(self.name, str):
            object.__setattr__(self, "name", str(self.name))
        name = self.name or "<dataset>"

        def array(field, kinds, dtype):
            a = _checked_array(name, field, getattr(self, field), kinds, dtype)
            object.__setattr__(self, field, a)
            return a

        indptr = array("indptr", "iu", np.int64)
        indices = array("indices", "iu", np.int32)
        values = array("values", "iuf", np.float64)
        _check_rows(name, indptr, indices, values)
        n = len(indptr) - 1
        max_index = int(indices.max()) if len(indices) else 0
        try:
            n_features = operator.index(self.n_features)
        except TypeError:
            raise DataFormatError(
                name, None, f"Dataset n_features must be an integer, got {self.n_features!r}"
            ) from None
        if not max_index <= n_features <= 2**31 - 1:
            raise DataFormatError(
                name,
                None,
                f"Dataset n_features = {n_features} is below the largest feature index {max_index}"
                if n_features < max_index
                else f"Dataset n_features = {n_features} does not fit a C int",
            )
        object.__setattr__(self, "n_features", int(n_features))
        if (self.label_indptr is None) != (self.label_values is None):
            raise DataFormatError(
                name, None, "Dataset label_indptr and label_values go together (multi-label data)"
            )
        if self.label_indptr is not None:
            _check_label_sets(
                name,
                n,
                array("label_indptr", "iu", np.int64),
                array("label_values", "iuf", np.float64),
            )
        if self.y is None:
            if self.label_indptr is None:
                raise DataFormatError(
                    name,
                    None,
                    "Dataset y is None: labels are needed (or "
                    "label_indptr and label_values for multi-label data)",
                )
            return
        y = array("y", "iuf", np.float64)
        if len(y) != n:
            raise DataFormatError(name, None, f"Dataset has {len(y)} labels for {n} samples")
        bad = ~np.isfinite(y)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise DataFormatError(
                name, i + 1, f"label {y[i]} is not finite (LIBSVM cannot use NaN or infinity)"
            )
        if self.classes is not None:
            _check_classes(name, self.classes, y)

    @classmethod
    def from_arrays(
        cls, X: object, y: object, *, name: str | None = None, multilabel: bool = False
    ) -> Dataset:
        """A Dataset of data in memory, as svm-train would read it from the file that
        scikit-learn's ``dump_svmlight_file(X, y, f, zero_based=False)`` writes.

        Column j of ``X`` is LIBSVM's feature j + 1; zeros are dropped (a sparse matrix's stored
        zeros too); ``n_features`` is the largest column holding a value other than zero, plus
        one, as svm-train counts it for gamma's default. Values are kept bit for bit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            A 2-D numpy array (or nested sequence of numbers), a SciPy sparse matrix or array,
            or a pandas DataFrame with numeric columns (their names are not used). SciPy and
            pandas are not needed unless ``X`` or ``y`` is one of theirs.
        y : array-like
            One label a sample (a sequence, numpy array or pandas Series); with
            ``multilabel=True`` a 0/1 indicator matrix of shape (n_samples, n_labels), dense,
            sparse or a DataFrame, whose column j is label j. Labels that are not numbers
            (text, booleans, objects, a pandas categorical) are classes: ``classes`` holds
            them sorted and ``y`` each sample's position among them (0, 1, ...; a
            categorical's order of categories is not used, as by scikit-learn's
            ``LabelEncoder``). Numbers are kept as they are.
        name : str, optional
            The data set's name in messages and reports (default ``"(X, y)"``).
        multilabel : bool, default False
            ``y`` is an indicator matrix (multi-label data, for
            :func:`~svmeval.cross_validate_multilabel`).

        Returns
        -------
        Dataset

        Raises
        ------
        DataFormatError
            NaN or infinity, a complex number or a value that is not a number (naming the row
            and column, from 0), ragged rows, ``X`` not 2-D, ``y`` of another length than ``X``
            or not 1-D (single-label), a multi-label ``y`` holding values other than 0 and 1.

        Examples
        --------
        >>> import numpy as np
        >>> from svmeval import Dataset
        >>> X = np.array([[0.5, 0.0, -1.0], [0.0, 0.0, 0.25]])
        >>> ds = Dataset.from_arrays(X, [1, -1], name="two rows")
        >>> ds.indptr.tolist(), ds.indices.tolist(), ds.values.tolist(), ds.n_features
        ([0, 2, 3], [1, 3, 3], [0.5, -1.0, 0.25], 3)
        """
        from svmeval.io.arrays import arrays_dataset

        return cls(**arrays_dataset(X, y, name=name, multilabel=multilabel))

    @property
    def n_samples(self) -> int:
        return len(self.indptr) - 1

    @property
    def is_multilabel(self) -> bool:
        return self.label_indptr is not None

    def digest(self) -> str:
        """The SHA-256 (hex) of the data as read: what a stored result of these data is keyed by.

        Hashed, in this order, each array as little-endian bytes of its documented dtype and
        preceded by its length: a version tag (``svmeval-dataset-1``), ``n_samples`` and
        ``n_features`` (int64), the labels -- ``y`` (float64), or for multi-label data
        ``label_indptr`` (int64) and ``label_values`` (float64) -- then the sparse rows
        ``indptr`` (int64), ``indices`` (int32) and ``values`` (float64). The name is not part
        of it: the same samples read from another file (or compressed) give the same digest;
        any other difference (a label, a value's last bit, a feature written as an explicit
        zero, the row order) gives another.

        Examples
        --------
        >>> import numpy as np
        >>> from svmeval import Dataset
        >>> ds = Dataset(y=np.array([1.0, -1.0]), indptr=np.array([0, 1, 2]),
        ...              indices=np.array([1, 2], dtype=np.int32), values=np.array([0.5, 1.0]),
        ...              n_features=2, name="a")
        >>> len(ds.digest()), ds.digest() == Dataset(**{**vars(ds), "name": "b"}).digest()
        (64, True)
        """
        import hashlib

        h = hashlib.sha256(b"svmeval-dataset-1\0")

        def part(tag: bytes, a, dtype: str) -> None:
            data = np.ascontiguousarray(a, dtype=dtype)
            h.update(tag + b"\0" + len(data).to_bytes(8, "little"))
            h.update(data.tobytes())

        part(b"shape", [self.n_samples, self.n_features], "<i8")
        if self.y is not None:
            part(b"y", self.y, "<f8")
        else:
            part(b"label_indptr", self.label_indptr, "<i8")
            part(b"label_values", self.label_values, "<f8")
        part(b"indptr", self.indptr, "<i8")
        part(b"indices", self.indices, "<i4")
        part(b"values", self.values, "<f8")
        return h.hexdigest()


def _check_classes(name: str, classes, y: np.ndarray) -> None:
    """``classes`` a tuple of distinct labels and ``y`` positions among them (0 .. k-1)."""
    if not isinstance(classes, tuple):
        raise DataFormatError(
            name, None, f"Dataset classes must be a tuple of labels, got {type(classes).__name__}"
        )
    try:
        distinct = len(set(classes)) == len(classes)
    except TypeError:
        raise DataFormatError(name, None, "Dataset classes must be hashable labels") from None
    if not distinct:
        raise DataFormatError(name, None, "Dataset classes must be distinct labels")
    outside = (y != np.trunc(y)) | (y < 0) | (y >= len(classes))
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise DataFormatError(
            name,
            i + 1,
            f"label {y[i]:g} is not a class's position (0 to {len(classes) - 1}): with "
            "classes, y holds each sample's position among them",
        )


def _checked_array(name: str, field: str, value, kinds: str, dtype) -> np.ndarray:
    """A Dataset field as a 1-D array of ``dtype`` (no value changed by the conversion)."""

    def fail(message):
        raise DataFormatError(name, None, message)

    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as exc:
        fail(f"Dataset {field}: not an array ({exc})")
    if a.ndim != 1:
        fail(f"Dataset {field} must be 1-D, got shape {a.shape}")
    if a.dtype.kind not in kinds and not (a.size == 0 and a.dtype.kind == "f"):
        fail(
            f"Dataset {field} must hold {'integers' if kinds == 'iu' else 'numbers'}"
            f", got dtype {a.dtype}"
        )
    if kinds == "iu" and a.size and a.dtype.kind == "f":  # an empty float array only
        fail(f"Dataset {field} must hold integers")
    if a.dtype != dtype:
        if (
            kinds == "iu"
            and a.size
            and (a.min() < np.iinfo(dtype).min or a.max() > np.iinfo(dtype).max)
        ):
            fail(f"Dataset {field} holds values beyond {np.dtype(dtype).name}")
        a = a.astype(dtype)
    return a


def _check_rows(name: str, indptr: np.ndarray, indices: np.ndarray, values: np.ndarray) -> None:
    """The CSR rows as LIBSVM trusts them (the sample at fault named as its line)."""

    def fail(line, message):
        raise DataFormatError(name, line, message)

    n = len(indptr) - 1
    if n < 1:
        fail(None, "no samples: the data set is empty")
    if indptr[0] != 0:
        fail(None, f"Dataset indptr must start at 0, got {int(indptr[0])}")
    steps = np.diff(indptr)
    if (steps < 0).any():
        fail(
            int(np.flatnonzero(steps < 0)[0]) + 1,
            "Dataset indptr decreases here (indptr must be non-decreasing)",
        )
    if not int(indptr[-1]) == len(indices) == len(values):
        fail(
            None,
            f"Dataset lengths differ: indptr ends at {int(indptr[-1])}, "
            f"{len(indices)} indices, {len(values)} values",
        )
    if not len(indices):
        return
    row_of = np.repeat(np.arange(n), steps)
    if (indices < 0).any():
        k = int(np.flatnonzero(indices < 0)[0])
        fail(int(row_of[k]) + 1, f"feature index {int(indices[k])} is negative")
    ascending = np.diff(indices) > 0
    ascending |= row_of[1:] != row_of[:-1]  # a new row may start anywhere
    if not ascending.all():
        k = int(np.flatnonzero(~ascending)[0]) + 1
        fail(
            int(row_of[k]) + 1,
            f"feature index {int(indices[k])} does not follow "
            f"the previous index {int(indices[k - 1])} (indices must be strictly "
            "ascending)",
        )
    finite = np.isfinite(values)
    if not finite.all():
        k = int(np.flatnonzero(~finite)[0])
        fail(
            int(row_of[k]) + 1,
            f"feature {int(indices[k])}: value {values[k]} is "
            "not finite (LIBSVM cannot use NaN or infinity)",
        )


def _check_label_sets(name: str, n: int, lip: np.ndarray, lv: np.ndarray) -> None:
    if len(lip) != n + 1 or lip[0] != 0 or (np.diff(lip) < 0).any() or lip[-1] != len(lv):
        raise DataFormatError(
            name,
            None,
            f"Dataset label_indptr must run from 0 to {len(lv)} (non-decreasing, {n + 1} entries)",
        )
    if not np.isfinite(lv).all():
        raise DataFormatError(name, None, "Dataset label_values must be finite")

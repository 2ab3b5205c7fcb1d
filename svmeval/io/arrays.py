"""Data from memory: ``(X, y)`` as a :class:`~svmeval.io.data.Dataset`.

``X`` is a 2-D numpy array (or a nested sequence of numbers), a SciPy sparse matrix or array,
or a pandas DataFrame of numeric columns; ``y`` one label a sample (a sequence, a numpy array
or a pandas Series), or for multi-label data a 0/1 indicator matrix (samples x labels, dense,
sparse or a DataFrame). The Dataset holds what svm-train reads from the file scikit-learn's
``dump_svmlight_file(X, y, f, zero_based=False)`` writes for them (LIBSVM's indices count from
1; ``load_svmlight_file`` reads such a file back as the same ``X``): column j of ``X`` is
LIBSVM's feature j + 1, zeros are dropped (stored zeros of a sparse matrix too), and the
number of features is the largest column that holds a value other than zero, plus one
(svm-train's ``1/num_features`` for gamma's default counts no further). A multi-label sample's labels are the numbers of the columns where
its row holds 1 (0, 1, ...), as ``dump_svmlight_file(..., multilabel=True)`` writes them.
Values are kept as doubles, bit for bit (a file written with 16 significant digits may round
the last bit of a value that needs 17).

NaN, infinity, complex numbers, a value that is not a number, a masked value (missing), ragged
rows and mismatched shapes are :class:`~svmeval.errors.DataFormatError` naming the data set, the row and the
column (numbered from 0, as numpy does). numpy is needed here anyway; SciPy and pandas are
never imported by svmeval: an object of theirs is recognised by its type's module and used
through its own methods.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from svmeval.errors import DataFormatError, show_label

__all__ = ["DEFAULT_NAME", "arrays_dataset", "class_codes"]

#: the name of a data set from memory when none is given
DEFAULT_NAME = "(X, y)"

#: column j is feature j + 1, a C int
_MAX_COLUMNS = 2**31 - 1


def _from(obj: object, package: str) -> bool:
    return type(obj).__module__.split(".", 1)[0] == package


def _is_sparse(obj: object) -> bool:
    return _from(obj, "scipy") and hasattr(obj, "tocsr") and hasattr(obj, "nnz")


def _is_frame(obj: object) -> bool:
    return _from(obj, "pandas") and hasattr(obj, "columns") and hasattr(obj, "dtypes")


def _is_series(obj: object) -> bool:
    return _from(obj, "pandas") and hasattr(obj, "dtype") and hasattr(obj, "to_numpy")


class _Fail:
    """Raise the data set's DataFormatError."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, message: str) -> DataFormatError:
        return DataFormatError(self.name, None, message)

    def at(self, what: str, row: int, column: int | None, message: str) -> DataFormatError:
        where = f"row {row}" if column is None else f"row {row}, column {column}"
        return DataFormatError(self.name, None, f"{what} {where}: {message}")


def _value_text(value: object) -> str:
    if isinstance(value, (float, np.floating)):
        return show_label(value) if np.isfinite(value) else str(float(value))
    return repr(value)


def _kind_message(value: object) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (complex, np.complexfloating)):
        return f"value {value!r} is a complex number (LIBSVM takes real numbers)"
    if isinstance(value, (float, np.floating)) and not np.isfinite(value):
        return f"value {_value_text(value)} is not finite (LIBSVM cannot use NaN or infinity)"
    return f"value {value!r} is not a number"


def _real(value: object) -> bool:
    """A real number (a bool counts as 0 or 1, as numpy takes it); numpy's scalars too."""
    return isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, (str, bytes))


def _first_bad_2d(X: Any, fail: _Fail, what: str) -> DataFormatError:
    """The first element (row-major) of a nested sequence or object array that is not a finite
    real number."""
    for i, row in enumerate(X):
        for j, value in enumerate(row):
            if not _real(value) or not np.isfinite(float(value)):
                return fail.at(what, i, j, _kind_message(value))
    return fail(f"{what} must hold numbers")  # pragma: no cover - numpy refused something else


def _dense_2d(X: Any, fail: _Fail, what: str) -> np.ndarray:
    """``X`` as a 2-D float64 array, each value unchanged; refused with the row and column."""
    if isinstance(X, np.ma.MaskedArray):  # masked values are missing ones
        masked = np.argwhere(np.ma.getmaskarray(X))
        if len(masked) and X.ndim == 2:
            i, j = (int(v) for v in masked[0])
            raise fail.at(what, i, j, "value is masked (LIBSVM takes no missing values)")
        X = np.ma.getdata(X)
    if isinstance(X, np.ndarray):
        a = X
    else:
        try:
            a = np.asarray(X)
        except ValueError:  # a ragged nested sequence
            raise _ragged(X, fail, what) from None
        if a.dtype == object and a.ndim == 1 and len(a) and _is_sequence(a[0]):
            raise _ragged(X, fail, what)
        if a.dtype.kind in "US":  # numbers and text mixed: find the text among the numbers
            a = np.asarray(X, dtype=object)
    if a.ndim != 2:
        raise fail(
            f"{what} must be 2-D (samples x {'labels' if what == 'y' else 'features'}), "
            f"got {_shape_or_type(X, a)}"
        )
    if a.dtype.kind == "c":
        bad = np.argwhere(a.imag != 0)
        i, j = bad[0] if len(bad) else (0, 0)
        raise fail.at(what, int(i), int(j), _kind_message(complex(a[i, j])))
    if a.dtype.kind not in "biuf":
        if a.dtype.kind != "O":
            kind = "text" if a.dtype.kind in "US" else f"dtype {a.dtype}"
            raise fail.at(what, 0, 0, f"value {a[0, 0]!r} is not a number ({kind})")
        try:
            if not all(_real(v) for v in a.flat):
                raise ValueError
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise _first_bad_2d(a, fail, what) from None
    if a.shape[1] > _MAX_COLUMNS:
        raise fail(f"{what} has {a.shape[1]} columns: LIBSVM's feature indices stop at 2^31 - 1")
    a = a.astype(np.float64, copy=False)
    bad = ~np.isfinite(a)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise fail.at(what, int(i), int(j), _kind_message(a[i, j]))
    return a


def _shape_or_type(value: object, a: np.ndarray) -> str:
    """``shape (3, 2, 2)`` of an array, or the type of what is none (``a dict``, ``None``)."""
    if a.ndim or isinstance(value, (np.ndarray, np.generic)):
        return f"shape {a.shape}"
    return "None" if value is None else f"a {type(value).__name__}"


def _is_sequence(value: object) -> bool:
    return hasattr(value, "__len__") and not isinstance(value, (str, bytes))


def _ragged(X: Any, fail: _Fail, what: str) -> DataFormatError:
    rows = list(X)
    if rows and all(_is_sequence(r) for r in rows):
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                return fail.at(
                    what, i, None, f"{len(row)} values where row 0 has {width} (ragged rows)"
                )
    return fail(f"{what} must be a 2-D array of numbers (rows of equal length)")


def _sparse_csr(X: Any, fail: _Fail, what: str) -> Any:
    """A SciPy sparse matrix as CSR with sorted, summed indices (a copy); refused with the row
    and column of a value that is not a finite real number."""
    if len(X.shape) != 2:
        raise fail(f"{what} must be 2-D, got shape {X.shape}")
    if X.shape[1] > _MAX_COLUMNS:
        raise fail(f"{what} has {X.shape[1]} columns: LIBSVM's feature indices stop at 2^31 - 1")
    csr = X.tocsr(copy=True)
    csr.sum_duplicates()  # sorted indices, one entry per (row, column): the matrix's values
    data = csr.data
    row_of = np.repeat(np.arange(csr.shape[0]), np.diff(csr.indptr))
    if data.dtype.kind == "c":
        bad = np.flatnonzero(data.imag != 0)
        k = int(bad[0]) if len(bad) else 0
        raise fail.at(what, int(row_of[k]), int(csr.indices[k]), _kind_message(complex(data[k])))
    if data.dtype.kind not in "biuf":
        raise fail(f"{what} must hold numbers, got dtype {data.dtype}")
    data = data.astype(np.float64, copy=False)
    bad = ~np.isfinite(data)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise fail.at(what, int(row_of[k]), int(csr.indices[k]), _kind_message(data[k]))
    csr.data = data
    return csr


def _frame(X: Any, fail: _Fail, what: str) -> Any:
    """A DataFrame's values: CSR when every column is sparse, else a 2-D float64 array; a
    column that is not numeric is refused by its position and name."""
    for j, (column, dtype) in enumerate(X.dtypes.items()):
        kind = getattr(getattr(dtype, "subtype", dtype), "kind", "O")
        if kind == "c":
            values = X.iloc[:, j].to_numpy()
            bad = np.flatnonzero(np.imag(values) != 0)
            i = int(bad[0]) if len(bad) else 0
            raise fail.at(what, i, j, _kind_message(complex(values[i])))
        if kind not in "biuf":
            raise fail(
                f"{what} column {j} ({column!r}) is not numeric (dtype {dtype}): "
                "LIBSVM takes numbers"
            )
    if len(X.columns) and all(type(d).__name__ == "SparseDtype" for d in X.dtypes):
        return _sparse_csr(X.sparse.to_coo(), fail, what)
    return _dense_2d(X.to_numpy(dtype=np.float64, na_value=np.nan), fail, what)


def _matrix(X: Any, fail: _Fail, what: str) -> Any:
    """``X`` as CSR (sparse input) or a 2-D float64 array."""
    if _is_sparse(X):
        return _sparse_csr(X, fail, what)
    if _is_frame(X):
        return _frame(X, fail, what)
    if _is_series(X):
        raise fail(f"{what} must be 2-D (a DataFrame, not a Series)")
    return _dense_2d(X, fail, what)


def _labels(y: Any, n: int, fail: _Fail) -> tuple[np.ndarray, tuple | None]:
    """One label a sample, as float64, and the classes they code (None where the labels are
    the numbers themselves): labels that are not numbers (text, objects, booleans, a pandas
    categorical's values) become 0..k-1, the positions of the sorted distinct labels
    (:func:`class_codes`)."""
    if _is_sparse(y) or _is_frame(y):
        raise fail(
            f"y must be 1-D, one label a sample; got a {type(y).__name__} of shape {y.shape} "
            "(a 0/1 indicator matrix is multi-label data: multilabel=True)"
        )
    if _is_series(y):
        kind = getattr(y.dtype, "kind", "O")
        if kind in "iuf":
            y = y.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            y = y.to_numpy()
    try:
        a = np.asarray(y)
        if a.dtype.kind in "US" and not isinstance(y, np.ndarray):
            a = np.asarray(y, dtype=object)  # numbers and text mixed: find the text
    except ValueError:
        raise fail("y must be 1-D, one label a sample") from None
    if a.ndim != 1:
        raise fail(
            f"y must be 1-D, one label a sample, got {_shape_or_type(y, a)}"
            + (
                " (a 0/1 indicator matrix is multi-label data: multilabel=True)"
                if a.ndim == 2
                else ""
            )
        )
    if len(a) != n:
        raise fail(f"X has {n} rows but y has {len(a)} labels")
    if a.dtype.kind in "bUS" or (a.dtype.kind == "O" and not all(_number(v) for v in a)):
        return class_codes(a, fail)
    if a.dtype.kind not in "iuf":
        if a.dtype.kind == "O":
            a = a.astype(np.float64)
        else:
            bad = a.imag != 0 if a.dtype.kind == "c" else np.ones(len(a), dtype=bool)
            i = int(np.flatnonzero(bad)[0]) if np.any(bad) else 0
            raise fail.at("y", i, None, _kind_message(a[i]).replace("value", "label", 1))
    a = a.astype(np.float64, copy=False)
    bad = ~np.isfinite(a)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise fail.at("y", i, None, _kind_message(a[i]).replace("value", "label", 1))
    return a, None


def _number(value: object) -> bool:
    """A real number that is no boolean (booleans are classes: False and True)."""
    return _real(value) and not isinstance(value, (bool, np.bool_))


def _missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, pandas' NA and NaT
    except (TypeError, ValueError):
        return True  # pandas' NA refuses to be a truth value


def class_codes(labels: Any, fail: _Fail) -> tuple[np.ndarray, tuple]:
    """Labels of any kind as LIBSVM's labels: each label's position among the distinct labels
    sorted (0.0, 1.0, ..., as scikit-learn's ``LabelEncoder``), and those labels, in that order.

    Labels are compared as Python compares them: text with text, numbers with numbers
    (booleans: False before True). A missing label (None, NaN, pandas' NA) or labels that
    cannot be ordered together (text and numbers mixed) are refused with the first row at
    fault.
    """
    values = np.asarray(labels)
    if values.dtype.kind == "b":
        classes, codes = np.unique(values, return_inverse=True)
        return codes.astype(np.float64).reshape(-1), tuple(bool(v) for v in classes)
    items = values.tolist()  # Python's objects: hashed and sorted as Python compares them
    if not set(map(type, items)) <= {str, bytes}:
        for i, value in enumerate(items):
            if _missing(value):
                raise fail.at(
                    "y", i, None, f"label {value!r} is missing (every sample needs a label)"
                )
            if isinstance(value, (complex, np.complexfloating)):
                raise fail.at("y", i, None, _kind_message(value).replace("value", "label", 1))
    try:
        distinct = set(items)
    except TypeError:
        i = next(k for k, v in enumerate(items) if not _hashable(v))
        raise fail.at("y", i, None, f"label {items[i]!r} is no class (not hashable)") from None
    try:
        ordered = sorted(distinct)
    except TypeError:
        first = items[0]
        i = next((k for k, v in enumerate(items) if not _comparable(v, first)), 0)
        raise fail.at(
            "y",
            i,
            None,
            f"label {items[i]!r} ({type(items[i]).__name__}) cannot be ordered with label "
            f"{first!r} of row 0 ({type(first).__name__}): labels of one kind are needed",
        ) from None
    index = {v: k for k, v in enumerate(ordered)}
    codes = np.fromiter(map(index.__getitem__, items), dtype=np.float64, count=len(items))
    return codes, tuple(v.item() if isinstance(v, np.generic) else v for v in ordered)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _comparable(a: object, b: object) -> bool:
    try:
        a < b  # type: ignore[operator]  # noqa: B015 - whether Python compares them
    except TypeError:
        return False
    return True


def _label_sets(Y: Any, n: int, fail: _Fail) -> tuple[np.ndarray, np.ndarray]:
    """A 0/1 indicator matrix as ``(label_indptr, label_values)``: the columns holding 1."""
    if not (_is_sparse(Y) or _is_frame(Y)):
        try:
            shape = np.shape(Y) if not _is_series(Y) else (len(Y),)
        except ValueError:  # label sets of several lengths
            shape = (len(Y),)
        if len(shape) != 2:
            raise fail(
                f"y must be a 0/1 indicator matrix (samples x labels) for multi-label data, "
                f"got shape {shape}"
            )
    M = _matrix(Y, fail, "y")
    if M.shape[0] != n:
        raise fail(f"X has {n} rows but y has {M.shape[0]}")
    if _is_sparse(M):
        values, indices, indptr = M.data, M.indices, M.indptr
        bad = np.flatnonzero((values != 0) & (values != 1))
        if len(bad):
            k = int(bad[0])
            row = int(np.searchsorted(indptr, k, side="right") - 1)
            raise fail.at("y", row, int(indices[k]), f"{_value_text(values[k])} is not 0 or 1")
        keep = values == 1
        rows: np.ndarray = np.repeat(np.arange(n), np.diff(indptr))[keep]
        columns: np.ndarray = indices[keep]
    else:
        outside = np.argwhere((M != 0) & (M != 1))
        if len(outside):
            i, j = (int(v) for v in outside[0])
            raise fail.at("y", i, j, f"{_value_text(M[i, j])} is not 0 or 1")
        rows, columns = np.nonzero(M)
    label_indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=label_indptr[1:])
    return label_indptr, columns.astype(np.float64)


def arrays_dataset(
    X: Any, y: Any, *, name: str | None = None, multilabel: bool = False
) -> dict[str, Any]:
    """The fields of the :class:`~svmeval.io.data.Dataset` of ``(X, y)`` (module notes)."""
    if name is None:
        name = DEFAULT_NAME
    if not isinstance(name, str):
        raise DataFormatError(DEFAULT_NAME, None, f"name must be a string, got {name!r}")
    if not isinstance(multilabel, (bool, np.bool_)):
        raise DataFormatError(name, None, f"multilabel must be True or False, got {multilabel!r}")
    fail = _Fail(name)
    M = _matrix(X, fail, "X")
    n = M.shape[0]
    if n < 1:
        raise fail("no samples: X has no rows")
    if _is_sparse(M):
        M.eliminate_zeros()
        indptr = M.indptr.astype(np.int64)
        columns = M.indices
        values = M.data
    else:
        rows, columns = np.nonzero(M)  # row-major: ascending columns within a row
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        values = M[rows, columns]
    fields: dict[str, Any] = {
        "indptr": indptr,
        "indices": (columns + 1).astype(np.int32),
        "values": np.asarray(values, dtype=np.float64),
        "n_features": int(columns.max()) + 1 if len(columns) else 0,
        "name": name,
    }
    if multilabel:
        fields["y"] = None
        fields["label_indptr"], fields["label_values"] = _label_sets(y, n, fail)
    else:
        fields["y"], fields["classes"] = _labels(y, n, fail)
    return fields

"""What kind of target an array is, and the input checks of the scikit-learn-named functions.

Pure numpy, scikit-learn's rules (``sklearn.utils.multiclass.type_of_target``,
``sklearn.metrics._classification._check_targets``): a target is "binary", "multiclass",
"multilabel-indicator", "continuous", "multiclass-multioutput", "continuous-multioutput" or
"unknown".  A scipy.sparse matrix is recognised by its ``toarray`` method, so scipy is never
imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from svmeval.metrics.encoding import distinct as _distinct
from svmeval.metrics.encoding import factorize

__all__ = [
    "as_array",
    "assert_all_finite",
    "check_array",
    "check_consistent_length",
    "check_orderable",
    "check_sample_weight",
    "Targets",
    "check_targets",
    "column_or_1d",
    "factorize",
    "is_sparse",
    "num_samples",
    "type_of_target",
    "unique_labels",
]


def is_sparse(y) -> bool:
    return hasattr(y, "toarray") and hasattr(y, "nnz")


def as_array(y) -> np.ndarray:
    """y as a numpy array: sparse matrices made dense, ragged sequences as object arrays."""
    if is_sparse(y):
        return np.asarray(y.toarray())
    if isinstance(y, np.ndarray):
        return y
    if hasattr(y, "to_numpy"):  # pandas
        return np.asarray(y.to_numpy())
    try:
        arr = np.asarray(y)
    except ValueError:  # ragged nested sequences
        arr = np.empty(len(y), dtype=object)
        arr[:] = list(y)
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    return arr


def num_samples(y) -> int:
    if hasattr(y, "shape") and len(y.shape) == 0:
        raise TypeError(
            "Input should have at least 1 dimension i.e. satisfy `len(x.shape) > "
            f"0`, got scalar `{y!r}` instead."
        )
    if hasattr(y, "shape") and len(y.shape) > 0:
        return int(y.shape[0])
    if hasattr(y, "__len__"):
        return len(y)
    raise TypeError(f"Expected sequence or array-like, got {type(y)}")


def check_consistent_length(*arrays) -> None:
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"{[int(n) for n in lengths]}"
        )


def _is_integral_float(values: np.ndarray) -> bool:
    return values.dtype.kind == "f" and bool(np.all(values.astype(int) == values))


def is_multilabel(y) -> bool:
    """True for a 2-D 0/1 (or one-valued) indicator matrix with more than one column."""
    if is_sparse(y):
        if len(y.shape) != 2 or y.shape[1] <= 1:
            return False
        data = np.asarray(y.tocsr().data)
        labels = np.unique(data)
        return data.size == 0 or (
            (labels.size == 1 or (labels.size == 2 and 0 in labels))
            and (data.dtype.kind in "biu" or _is_integral_float(labels))
        )
    arr = as_array(y)
    if arr.ndim != 2 or arr.shape[1] <= 1 or arr.dtype.kind not in "biuf":
        return False  # strings and objects are never indicators
    if arr.size == 0:
        return True
    lo, hi = arr.min(), arr.max()  # at most two values: lo and hi (one pass each, no sort)
    if lo != hi and not ((arr == lo) | (arr == hi)).all():
        return False
    labels = np.unique(np.array([lo, hi], dtype=arr.dtype))
    return arr.dtype.kind in "biu" or _is_integral_float(labels)


def type_of_target(y, input_name: str = "", _distinct_values=None) -> str:
    """The kind of target y is (scikit-learn's names and rules)."""
    valid = (isinstance(y, Sequence) or is_sparse(y) or hasattr(y, "__array__")) and not isinstance(
        y, str
    )
    if not valid:
        raise ValueError(f"Expected array-like (array or non-string sequence), got {y!r}")
    if is_multilabel(y):
        return "multilabel-indicator"
    arr = as_array(y)
    if arr.size and arr.ndim >= 1:
        first = arr.flat[0] if arr.ndim == 1 else arr[0]
        if isinstance(first, bytes) or arr.dtype.kind == "S":
            raise TypeError(
                "Support for labels represented as bytes is not supported. "
                "Convert the labels to a string or integer format."
            )
        if arr.dtype.kind == "O" and arr.ndim == 1 and isinstance(first, (list, tuple, set)):
            raise ValueError(
                "You appear to be using a legacy multi-label data representation. "
                "Sequence of sequences are no longer supported."
            )
    if arr.ndim not in (1, 2):
        return "unknown"
    if not min(arr.shape):
        return "binary" if arr.ndim == 1 else "unknown"
    if arr.dtype == object and not isinstance(arr.flat[0], str):
        return "unknown"
    suffix = "-multioutput" if arr.ndim == 2 and arr.shape[1] > 1 else ""
    if arr.dtype.kind == "f":
        # numpy warns of NaN and infinities cast to int, as it does in scikit-learn's check
        integral = arr.astype(np.int64).astype(arr.dtype) == arr
        if not integral.all():
            if not np.isfinite(arr).all():
                what = "NaN" if np.isnan(arr).any() else "infinity or a value too large"
                raise ValueError(f"Input {input_name or 'y'} contains {what}.")
            return "continuous" + suffix
    if _distinct_values is None:
        _distinct_values = factorize(arr)[0] if arr.ndim == 1 else _distinct(arr)
    if _distinct_values.size > 2 or (arr.ndim == 2 and arr.shape[1] > 1):
        return "multiclass" + suffix
    return "binary"


def assert_all_finite(arr: np.ndarray, name: str = "") -> None:
    """ValueError for NaN or an infinity in a float (or object) array, as scikit-learn's."""
    what = f"Input {name} contains" if name else "Input contains"
    if arr.dtype.kind in "fc":
        if not np.isfinite(arr).all():
            bad = (
                "NaN" if np.isnan(arr).any() else f"infinity or a value too large for {arr.dtype!r}"
            )
            raise ValueError(f"{what} {bad}.")
    elif arr.dtype.kind == "O":
        if any(isinstance(v, float) and v != v for v in arr.ravel().tolist()):
            raise ValueError(f"{what} NaN.")


def check_array(
    y,
    *,
    name: str = "",
    ensure_2d: bool = True,
    numeric: bool = True,
    finite: bool = True,
    min_samples: int = 1,
    allow_nd: bool = False,
    accept_sparse: bool = False,
) -> np.ndarray:
    """An input as scikit-learn's ``check_array`` checks it (the checks and their order; the
    result as a dense numpy array): ``numeric`` converts objects to float64 and refuses
    strings, ``finite`` refuses NaN and infinities, ``min_samples`` rows at least."""
    if is_sparse(y):
        if not accept_sparse:
            raise TypeError(
                "Sparse data was passed"
                + (f" for {name}" if name else "")
                + ", but dense data is required. Use '.toarray()' to convert to "
                "a dense numpy array."
            )
        arr = np.asarray(y.toarray())
    else:
        arr = as_array(y)
        if numeric and arr.dtype.kind == "O":
            arr = arr.astype(np.float64)
        if ensure_2d and arr.ndim in (0, 1):
            raise ValueError(
                f"Expected 2D array, got {'scalar' if arr.ndim == 0 else '1D'} array instead"
            )
        if numeric and arr.dtype.kind in "USV":
            raise ValueError(
                "dtype='numeric' is not compatible with arrays of bytes/strings."
                "Convert your data to numeric values explicitly instead."
            )
        if not allow_nd and arr.ndim >= 3:
            raise ValueError(f"Found array with dim {arr.ndim}, while dim <= 2 is required.")
        if finite:
            assert_all_finite(arr, name)
    if min_samples > 0:
        n = num_samples(arr)
        if n < min_samples:
            raise ValueError(
                f"Found array with {n} sample(s) (shape={arr.shape}) while a "
                f"minimum of {min_samples} is required."
            )
    if arr.ndim == 2 and arr.shape[1] < 1:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required."
        )
    return arr


def column_or_1d(y, name: str) -> np.ndarray:
    y = y if isinstance(y, np.ndarray) else as_array(y)
    if y.ndim >= 3:
        raise ValueError(f"Found array with dim {y.ndim}, while dim <= 2 is required.")
    if y.ndim == 1:
        return y
    if y.ndim == 2 and y.shape[1] == 1:
        return y.ravel()
    raise ValueError(f"{name} should be a 1d array, got an array of shape {y.shape} instead.")


def unique_labels(*ys) -> np.ndarray:
    """The labels seen in any of ys (1-D arrays), ascending; ValueError for strings mixed with
    numbers."""
    parts = [y if y.ndim == 1 and y.size < 2 else _distinct(y) for y in ys]
    kinds = {p.dtype.kind in "OUS" for p in parts if p.size}
    if len(kinds) > 1:
        raise ValueError("Mix of label input types (string and number)")
    if any(p.dtype.kind == "O" for p in parts):
        values = {v for p in parts for v in p.tolist()}
        if len({isinstance(v, str) for v in values}) > 1:
            raise ValueError("Mix of label input types (string and number)")
        return np.array(sorted(values), dtype=object if values else np.float64)
    return _distinct(np.concatenate(parts))


def check_sample_weight(sample_weight, n: int, *, allow_all_zero: bool = False):
    """sample_weight as a 1-D float array of n finite numbers (None stays None); all zero is
    refused (scikit-learn's rule) unless ``allow_all_zero``."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if w.dtype.kind not in "biuf":
        try:
            w = w.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must hold numbers") from None
    if w.ndim == 0:
        w = np.full(n, w, dtype=np.float64)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            "Sample weights must be 1D array or scalar"
            if w.ndim != 1
            else f"sample_weight.shape == {w.shape}, expected {(n,)}!"
        )
    if not np.isfinite(w).all():
        raise ValueError("Input sample_weight contains NaN or infinity.")
    if not allow_all_zero and not w.any():
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return w


def check_orderable(*ys) -> None:
    """Object arrays must order (scikit-learn finds the labels of every array given to it
    with ``np.unique`` first): TypeError for strings and numbers mixed in one array."""
    for y in ys:
        if isinstance(y, np.ndarray) and y.dtype == object:
            np.unique(y)


class Targets(NamedTuple):
    """Two classification targets, checked: ``kind`` is "binary", "multiclass" or
    "multilabel-indicator"; ``labels`` the labels seen, ascending (column indices for
    indicators); 1-D targets as 1-D arrays with ``true_codes`` / ``pred_codes`` their indices in
    ``labels``, indicators as dense 2-D arrays (codes None)."""

    kind: str
    labels: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    sample_weight: np.ndarray | None
    true_codes: np.ndarray | None = None
    pred_codes: np.ndarray | None = None


def _kind(y, name: str, arr: np.ndarray):
    """(kind of y, its factorization when it is a 1-D or column label vector)."""
    if is_sparse(y) or arr.dtype.kind == "O" or not (arr.ndim == 1 or arr.shape[1:] == (1,)):
        return type_of_target(y, name), None
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        return type_of_target(y, name), None
    if arr.dtype.kind in "biuf" or arr.dtype.kind == "U":
        codes = factorize(arr.reshape(-1)) if arr.size else None
        return type_of_target(arr, name, codes[0] if codes else None), codes
    return type_of_target(y, name), None


def check_targets(y_true, y_pred, sample_weight=None) -> Targets:
    """Two classification targets checked as scikit-learn's ``_check_targets`` does."""
    check_consistent_length(y_true, y_pred, sample_weight)
    t, p = as_array(y_true), as_array(y_pred)
    type_true, f_true = _kind(y_true, "y_true", t)
    type_pred, f_pred = _kind(y_pred, "y_pred", p)
    if num_samples(y_true) < 1 or num_samples(y_pred) < 1:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a "
            "minimum of 1 sample is required."
        )
    w = check_sample_weight(sample_weight, t.shape[0])
    kinds = {type_true, type_pred}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} is not supported")
    if kind == "multilabel-indicator":
        if t.shape[1] != p.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        return Targets(kind, np.arange(t.shape[1]), t, p, w)
    if is_sparse(y_true) or is_sparse(y_pred):
        raise TypeError("Sparse input is only supported when targets are of multilabel type")
    t, p = column_or_1d(t, "y_true"), column_or_1d(p, "y_pred")
    f_true, f_pred = f_true or factorize(t), f_pred or factorize(p)
    labels = unique_labels(f_true[0], f_pred[0])
    if kind == "binary" and labels.shape[0] > 2:
        kind = "multiclass"
    return Targets(kind, labels, t, p, w, _recode(labels, *f_true), _recode(labels, *f_pred))


def _recode(labels: np.ndarray, values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Codes among ``values`` made codes among ``labels`` (which hold every value)."""
    if values.shape == labels.shape:  # the same labels: the same codes
        return codes
    return np.searchsorted(labels, values)[codes]

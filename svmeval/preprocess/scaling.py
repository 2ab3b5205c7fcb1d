"""svm-scale's rules on CSR rows (LIBSVM's ``svm-scale.c``), without writing a file.

:func:`fit_scale` is ``svm-scale -l L -u U [-y YL YU] -s range rows``: each feature's range
over the rows, indices 1 to the largest index of the rows (``max_index``), a feature absent
from a row counting as 0 there (a feature that no row has is 0 everywhere); the targets' range
with ``-y``. :meth:`ScaleFactors.transform` is ``svm-scale -r range rows`` (the rows it was
fitted on included, which is what ``-s`` writes): a feature whose range is one value (min ==
max) is not written, nor is a feature the range does not hold (svm-scale warns and scales it
to 0); a value equal to the feature's min or max becomes exactly ``lower`` or ``upper``, any
other ``lower + (upper - lower) * (v - min) / (max - min)``, values outside the range are not
clipped (svm-scale does not clip: rows scaled with another set's factors may fall outside
[lower, upper]); a value that scales to 0 is not written (sparse rows stay sparse), and each
written value is what svm-train reads back from svm-scale's ``%g`` (six significant digits),
unless ``full_precision``. Targets are written with ``%.17g``: exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval.errors import InvalidParameterError

__all__ = ["ScaleFactors", "ScaleSpec", "fit_scale", "g6", "parse_range", "as_scale_spec"]


@dataclass(frozen=True)
class ScaleSpec:
    """svm-scale's options: ``lower``, ``upper`` (``-l``, ``-u``; default -1 and 1) and
    ``y`` (``-y y_lower y_upper``: the targets' limits, regression; None: targets unscaled).

    ``full_precision``: keep each scaled value as computed instead of the ``%g`` text (six
    significant digits) svm-scale writes and svm-train reads back. The default gives what
    LIBSVM's tools give; full precision is for comparing with a pipeline in memory (such as
    scikit-learn's) or for features whose six digits lose what tells rows apart (a timestamp
    scaled to [-1, 1] keeps only about 10^6 distinct values).
    """

    lower: float = -1.0
    upper: float = 1.0
    y: tuple[float, float] | None = None
    full_precision: bool = False

    def __post_init__(self):
        lower, upper = _number(self.lower, "scale lower"), _number(self.upper, "scale upper")
        object.__setattr__(self, "lower", lower)
        object.__setattr__(self, "upper", upper)
        if not upper > lower or not math.isfinite(upper - lower):
            raise InvalidParameterError(
                "scale", f"inconsistent lower/upper specification: {lower:g}, {upper:g}"
            )
        if self.y is not None:
            if isinstance(self.y, (str, bytes)) or len(self.y) != 2:
                raise InvalidParameterError("scale", f"y must be (lower, upper), got {self.y!r}")
            y_lower, y_upper = (_number(v, "scale y") for v in self.y)
            if not y_upper > y_lower or not math.isfinite(y_upper - y_lower):
                raise InvalidParameterError(
                    "scale",
                    f"inconsistent y lower/upper specification: {y_lower:g}, {y_upper:g}",
                )
            object.__setattr__(self, "y", (y_lower, y_upper))
        object.__setattr__(self, "full_precision", bool(self.full_precision))

    def options(self) -> str:
        """svm-scale's options for this spec (``-l -1 -u 1``, ``-y 0 1`` added)."""
        text = f"-l {self.lower:.17g} -u {self.upper:.17g}"
        if self.y is not None:
            text += f" -y {self.y[0]:.17g} {self.y[1]:.17g}"
        return text

    def key(self) -> str:
        """The spec as text for a results store's key."""
        return self.options() + (" full" if self.full_precision else "")


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidParameterError("scale", f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidParameterError("scale", f"{name} must be finite, got {value!r}")
    return number


#: what a run's ``scale=`` takes: None or False (no scaling), True (svm-scale's defaults),
#: ``(lower, upper)`` or a :class:`ScaleSpec`
ScaleLike = bool | tuple[float, float] | ScaleSpec | None


def as_scale_spec(value) -> ScaleSpec | None:
    """``scale=`` as the run functions take it: None or False (no scaling), True
    (svm-scale's defaults, ``-l -1 -u 1``), ``(lower, upper)`` or a :class:`ScaleSpec`."""
    if value is None or value is False:
        return None
    if value is True:
        return ScaleSpec()
    if isinstance(value, ScaleSpec):
        return value
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return ScaleSpec(value[0], value[1])
    raise InvalidParameterError(
        "scale", f"must be True, (lower, upper) or a ScaleSpec, got {value!r}"
    )


def g6(values: np.ndarray) -> np.ndarray:
    """Each value as svm-train reads it back from C's ``%g`` (six significant digits)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return values.copy()
    unique, inverse = np.unique(values, return_inverse=True)
    rounded = np.array([float(f"{v:g}") for v in unique.tolist()], dtype=np.float64)
    return rounded[inverse.reshape(values.shape)]


@dataclass(frozen=True, eq=False)
class ScaleFactors:
    """A range file's content: ``lower``, ``upper``; ``index``, ``fmin``, ``fmax``: the
    features whose range is more than one value (ascending index), their min and max;
    ``y``: ``(y_lower, y_upper, y_min, y_max)`` with ``-y``; ``full_precision`` as the spec."""

    lower: float
    upper: float
    index: np.ndarray
    fmin: np.ndarray
    fmax: np.ndarray
    y: tuple[float, float, float, float] | None = None
    full_precision: bool = False

    def range_text(self) -> str:
        """The range file ``svm-scale -s`` writes (``%.17g``), byte for byte."""
        lines = []
        if self.y is not None:
            y_lower, y_upper, y_min, y_max = self.y
            lines += ["y", f"{y_lower:.17g} {y_upper:.17g}", f"{y_min:.17g} {y_max:.17g}"]
        lines += ["x", f"{self.lower:.17g} {self.upper:.17g}"]
        lines += [
            f"{i} {a:.17g} {b:.17g}"
            for i, a, b in zip(self.index.tolist(), self.fmin.tolist(), self.fmax.tolist())
        ]
        return "\n".join(lines) + "\n"

    def transform(self, indptr, indices, values, rows=None):
        """``svm-scale -r`` on the CSR rows (``rows``: those rows, in that order; None: all):
        the scaled ``(indptr, indices, values)``, zeros left out, indices ascending."""
        indptr, indices, values = _rows(indptr, indices, values, rows)
        n = len(indptr) - 1
        k = len(self.index)
        span = self.fmax - self.fmin
        scale_ = self.upper - self.lower
        # each kept feature's value where a row lacks it (0 scaled)
        absent = _scaled(np.zeros(k), self.fmin, self.fmax, span, self.lower, self.upper, scale_)
        if not self.full_precision:
            absent = g6(absent)
        position = np.full(int(max(self.index[-1] if k else 0, 0)) + 1, -1, dtype=np.int64)
        position[self.index] = np.arange(k)
        row_of = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        inside = indices < len(position)
        col = np.full(len(indices), -1, dtype=np.int64)
        col[inside] = position[indices[inside]]
        keep = col >= 0
        prow, pcol, pval = row_of[keep], col[keep], values[keep]
        scaled = _scaled(
            pval, self.fmin[pcol], self.fmax[pcol], span[pcol], self.lower, self.upper, scale_
        )
        if not self.full_precision:
            scaled = g6(scaled)
        filled = np.flatnonzero(absent != 0)  # kept features whose absence is written too
        if len(filled):
            grid = np.zeros((n, k), dtype=bool)
            grid[prow, pcol] = True
            sub = grid[:, filled]
            arow, apos = np.nonzero(~sub)
            acol = filled[apos]
            prow = np.concatenate([prow, arow])
            pcol = np.concatenate([pcol, acol])
            scaled = np.concatenate([scaled, absent[acol]])
            order = np.lexsort((pcol, prow))
            prow, pcol, scaled = prow[order], pcol[order], scaled[order]
        nonzero = scaled != 0
        prow, pcol, scaled = prow[nonzero], pcol[nonzero], scaled[nonzero]
        out_indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(prow, minlength=n), out=out_indptr[1:])
        return out_indptr, self.index[pcol].astype(np.int32), scaled

    def transform_y(self, y: np.ndarray) -> np.ndarray:
        """The targets as svm-scale writes them (``%.17g``: exact); unchanged without ``-y``."""
        y = np.asarray(y, dtype=np.float64)
        if self.y is None:
            return y.copy()
        y_lower, y_upper, y_min, y_max = self.y
        with np.errstate(divide="ignore", invalid="ignore"):
            out = y_lower + (y_upper - y_lower) * (y - y_min) / (y_max - y_min)
        out = np.where(y == y_max, y_upper, out)
        return np.where(y == y_min, y_lower, out)

    def inverse_y(self, y: np.ndarray) -> np.ndarray:
        """Scaled targets (a model's predictions) back in the data's units."""
        y = np.asarray(y, dtype=np.float64)
        if self.y is None:
            return y.copy()
        y_lower, y_upper, y_min, y_max = self.y
        return y_min + (y - y_lower) * (y_max - y_min) / (y_upper - y_lower)


def _scaled(v, fmin, fmax, span, lower, upper, width):
    """svm-scale's output(): min -> lower and max -> upper exactly, else the affine map."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out = lower + width * (v - fmin) / span
    out = np.where(v == fmax, upper, out)
    return np.where(v == fmin, lower, out)


def _rows(indptr, indices, values, rows):
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    if rows is None:
        return indptr, indices, values
    rows = np.asarray(rows, dtype=np.int64)
    starts, ends = indptr[rows], indptr[rows + 1]
    lengths = ends - starts
    out_indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out_indptr[1:])
    take = np.repeat(starts - out_indptr[:-1], lengths) + np.arange(out_indptr[-1])
    return out_indptr, indices[take], values[take]


def fit_scale(spec: ScaleSpec, indptr, indices, values, y=None, rows=None) -> ScaleFactors:
    """``svm-scale -s``'s factors of the CSR rows (``rows``: those rows; None: all) with the
    options ``spec``; ``y``: the rows' targets (needed with ``spec.y``)."""
    indptr, indices, values = _rows(indptr, indices, values, rows)
    n = len(indptr) - 1
    if len(indices) and indices.min() < 1:
        raise InvalidParameterError(
            "scale", "feature index 0: svm-scale's ranges start at feature 1"
        )
    max_index = int(indices.max()) if len(indices) else 0
    fmax = np.full(max_index + 1, -np.inf)
    fmin = np.full(max_index + 1, np.inf)
    np.maximum.at(fmax, indices, values)
    np.minimum.at(fmin, indices, values)
    counts = np.bincount(indices, minlength=max_index + 1)
    lacking = counts < n  # some row lacks the feature: 0 counts
    fmax[lacking] = np.maximum(fmax[lacking], 0.0)
    fmin[lacking] = np.minimum(fmin[lacking], 0.0)
    keep = np.flatnonzero(fmin != fmax)
    keep = keep[keep >= 1]
    y_factors = None
    if spec.y is not None:
        if y is None:
            raise InvalidParameterError("scale", "y scaling needs the targets")
        targets = np.asarray(y, dtype=np.float64)
        if rows is not None:
            targets = targets[np.asarray(rows, dtype=np.int64)]
        y_factors = (spec.y[0], spec.y[1], float(targets.min()), float(targets.max()))
    return ScaleFactors(
        spec.lower,
        spec.upper,
        keep.astype(np.int64),
        fmin[keep],
        fmax[keep],
        y_factors,
        spec.full_precision,
    )


def parse_range(text: str, *, full_precision: bool = False) -> ScaleFactors:
    """A range file's text (``svm-scale -s``'s format) as :class:`ScaleFactors`."""
    lines = text.split("\n")
    y_factors = None
    at = 0
    if lines and lines[0].strip() == "y":
        a, b = (float(v) for v in lines[1].split())
        c, d = (float(v) for v in lines[2].split())
        y_factors, at = (a, b, c, d), 3
    if lines[at].strip() != "x":
        raise InvalidParameterError("scale", "not a range file: no 'x' line")
    lower, upper = (float(v) for v in lines[at + 1].split())
    rows = [line.split() for line in lines[at + 2 :] if line.strip()]
    index = np.array([int(r[0]) for r in rows], dtype=np.int64)
    fmin = np.array([float(r[1]) for r in rows])
    fmax = np.array([float(r[2]) for r in rows])
    return ScaleFactors(lower, upper, index, fmin, fmax, y_factors, full_precision)

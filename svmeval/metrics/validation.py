"""The parameters of the scikit-learn-named functions, declared once and checked on every call,
with scikit-learn's rules (``sklearn.utils._param_validation``): each function declares, in a
:func:`validate_params` decorator, the constraints each of its parameters must meet (one of a
list); a value that meets none raises :class:`InvalidParameterError` (an SvmevalError, a
ValueError and a TypeError, as scikit-learn's) before any work, the parameters taken in the
order of the signature. A function called by another validated function is not checked again.

The constraints, as scikit-learn names them: ``"array-like"`` (a sequence or array that is not
a scalar nor a sparse matrix: a 0-d array is one), ``"sparse matrix"`` (recognised by its
``toarray`` and ``nnz``, so scipy is never imported), ``"boolean"`` (``bool`` or
``numpy.bool_``), ``None``, ``"nan"`` (a float NaN), a type (its instances: ``numbers.Real``,
``str``, ...), :class:`Options` / :class:`StrOptions` (a set of values of a type) and
:class:`Interval` (numbers of a type within bounds, NaN never).
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import numbers

import numpy as np

from svmeval.errors import SvmevalError
from svmeval.metrics.targets import is_sparse

__all__ = ["Interval", "InvalidParameterError", "Options", "StrOptions", "validate_params"]


class InvalidParameterError(SvmevalError, ValueError, TypeError):
    """An argument of a scikit-learn-named function (:data:`svmeval.metrics.SKLEARN_CONTRACT`)
    of a type or value the function does not take: what scikit-learn's own
    ``InvalidParameterError`` says, and like it both a ValueError and a TypeError; and, as
    every error svmeval reports, an :class:`~svmeval.errors.SvmevalError`."""


_CHECKING = contextvars.ContextVar("svmeval_metrics_validating", default=False)


def _type_name(t) -> str:
    if t is numbers.Real:
        return "float"
    if t is numbers.Integral:
        return "int"
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


class _Constraint:
    def is_satisfied_by(self, value) -> bool:  # pragma: no cover - every subclass has its own
        raise NotImplementedError


class _ArrayLike(_Constraint):
    def is_satisfied_by(self, value) -> bool:
        if is_sparse(value):
            return False
        return (
            hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
        ) and not np.isscalar(value)

    def __str__(self):
        return "an array-like"


class _Sparse(_Constraint):
    def is_satisfied_by(self, value) -> bool:
        return is_sparse(value)

    def __str__(self):
        return "a sparse array or matrix"


class _InstanceOf(_Constraint):
    def __init__(self, kind):
        self.kind = kind

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.kind)

    def __str__(self):
        return f"an instance of {_type_name(self.kind)!r}"


class _Boolean(_Constraint):
    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, (bool, np.bool_))

    def __str__(self):
        return "an instance of 'bool' or an instance of 'numpy.bool'"


class _None(_Constraint):
    def is_satisfied_by(self, value) -> bool:
        return value is None

    def __str__(self):
        return "None"


class _Nan(_Constraint):
    def is_satisfied_by(self, value) -> bool:
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, numbers.Integral)
            and math.isnan(value)
        )

    def __str__(self):
        return "numpy.nan"


class Options(_Constraint):
    """Values of ``kind`` among ``options``."""

    def __init__(self, kind, options):
        self.kind, self.options = kind, frozenset(options)

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.kind) and value in self.options

    def __str__(self):
        shown = ", ".join(repr(o) for o in sorted(self.options, key=repr))
        return f"a {_type_name(self.kind)} among {{{shown}}}"


class StrOptions(Options):
    """Strings among ``options``."""

    def __init__(self, options):
        super().__init__(str, options)


class Interval(_Constraint):
    """Numbers of ``kind`` (``numbers.Real`` or ``numbers.Integral``) from ``left`` to
    ``right`` (None: unbounded), ``closed`` "left", "right", "both" or "neither"; NaN never."""

    def __init__(self, kind, left, right, *, closed: str):
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def is_satisfied_by(self, value) -> bool:
        if not isinstance(value, self.kind):
            return False
        if not isinstance(value, numbers.Integral) and math.isnan(value):
            return False
        left = -math.inf if self.left is None else self.left
        right = math.inf if self.right is None else self.right
        above = value >= left if self.closed in ("left", "both") else value > left
        below = value <= right if self.closed in ("right", "both") else value < right
        return bool(above and below)

    def __str__(self):
        kind = "an int" if self.kind is numbers.Integral else "a float"
        left = "-inf" if self.left is None else float(self.left)
        right = "inf" if self.right is None else float(self.right)
        return (
            f"{kind} in the range {'[' if self.closed in ('left', 'both') else '('}"
            f"{left}, {right}{']' if self.closed in ('right', 'both') else ')'}"
        )


_NAMED = {
    "array-like": _ArrayLike(),
    "sparse matrix": _Sparse(),
    "boolean": _Boolean(),
    "nan": _Nan(),
}


def _constraint(spec) -> _Constraint:
    if spec is None:
        return _None()
    if isinstance(spec, _Constraint):
        return spec
    if isinstance(spec, type):
        return _InstanceOf(spec)
    if isinstance(spec, float) and math.isnan(spec):
        return _Nan()
    return _NAMED[spec]


def _check(constraints: dict, arguments: dict, caller: str) -> None:
    for name, value in arguments.items():
        allowed = constraints.get(name)
        if allowed is None or any(c.is_satisfied_by(value) for c in allowed):
            continue
        shown = [str(c) for c in allowed]
        what = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
        raise InvalidParameterError(
            f"The {name!r} parameter of {caller} must be {what}. Got {value!r} instead."
        )


def validate_params(constraints: dict):
    """Decorate a function whose parameters must meet ``constraints`` (parameter name -> list
    of constraints, any one of which will do; see the module's notes)."""
    made = {name: [_constraint(c) for c in specs] for name, specs in constraints.items()}

    def decorate(func):
        signature = inspect.signature(func)
        unknown = set(made) - set(signature.parameters)
        if unknown:  # pragma: no cover - a declaration that does not fit its function
            raise TypeError(f"{func.__name__}: constraints of no parameter: {sorted(unknown)}")

        @functools.wraps(func)
        def checked(*args, **kwargs):
            if _CHECKING.get():
                return func(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            _check(made, bound.arguments, func.__qualname__)
            token = _CHECKING.set(True)
            try:
                return func(*args, **kwargs)
            finally:
                _CHECKING.reset(token)

        checked.parameter_constraints = made  # type: ignore[attr-defined]
        return checked

    return decorate

"""The constraints of svmeval's argument declarations and scikit-learn's ``validate_params``.

The constraints, as scikit-learn names them: ``"array-like"`` (a sequence or array that is not
a scalar nor a sparse matrix), ``"sparse matrix"`` (recognised by its ``toarray`` and ``nnz``,
so scipy is never imported), ``"boolean"`` (``bool`` or ``numpy.bool_``), ``None``, ``"nan"``
(a float NaN), a type (its instances: ``numbers.Real``, ``str``, ...), :class:`Options` /
:class:`StrOptions` (a set of values of a type), :class:`Interval` (numbers of a type within
bounds, NaN never) and :class:`Check` (a function of its own, with its own message).
:func:`validate_params` declares the scikit-learn-named metrics' parameters with them (
``sklearn.utils._param_validation``'s rules and messages); :mod:`svmeval._args` declares the
library's vocabulary with them. Beside them, what the metrics and the statistical tests check
themselves and the vocabulary declares too: the zero-division policy
(:func:`parse_zero_division`) and the bound of a Bayesian test's Monte-Carlo draws
(:data:`MAX_DRAWS`).

Nothing here imports numpy at import time: ``import svmeval`` stays light.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import numbers
from collections.abc import Callable

from svmeval.errors import InvalidParameterError

__all__ = [
    "Check",
    "Constraint",
    "Interval",
    "Options",
    "StrOptions",
    "alternatives",
    "constraint",
    "MAX_DRAWS",
    "is_integer",
    "is_number",
    "parse_zero_division",
    "validate_params",
]

#: at most this many Monte-Carlo draws of the Bayesian signed-rank test (the argument ``draws``;
#: baycomp's default is 50,000)
MAX_DRAWS = 10_000_000


def _type_name(t) -> str:
    if t is numbers.Real:
        return "float"
    if t is numbers.Integral:
        return "int"
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def is_integer(value) -> bool:
    """An integer: not a bool, a float or a string (numpy's integers are)."""
    return not isinstance(value, (bool, float, str, bytes)) and hasattr(value, "__index__")


def is_number(value) -> bool:
    """A real number: an int or a float (numpy's too), not a bool nor a string."""
    return (
        isinstance(value, numbers.Real) and not isinstance(value, bool) and not _is_np_bool(value)
    )


def _is_np_bool(value) -> bool:
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")


# --- constraints -------------------------------------------------------------------------------
class Constraint:
    """What a value may be: :meth:`is_satisfied_by`, and its words (``str``)."""

    def is_satisfied_by(self, value) -> bool:  # pragma: no cover - every subclass has its own
        raise NotImplementedError


class _ArrayLike(Constraint):
    def is_satisfied_by(self, value) -> bool:
        import numpy as np

        if _is_sparse(value):
            return False
        return (
            hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
        ) and not np.isscalar(value)

    def __str__(self):
        return "an array-like"


def _is_sparse(value) -> bool:
    return hasattr(value, "toarray") and hasattr(value, "nnz")


class _Sparse(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return _is_sparse(value)

    def __str__(self):
        return "a sparse array or matrix"


class _InstanceOf(Constraint):
    def __init__(self, kind):
        self.kind = kind

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.kind)

    def __str__(self):
        return f"an instance of {_type_name(self.kind)!r}"


class _Boolean(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, bool) or _is_np_bool(value)

    def __str__(self):
        return "an instance of 'bool' or an instance of 'numpy.bool'"


class _None(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return value is None

    def __str__(self):
        return "None"


class _Nan(Constraint):
    def is_satisfied_by(self, value) -> bool:
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, numbers.Integral)
            and math.isnan(value)
        )

    def __str__(self):
        return "numpy.nan"


class Options(Constraint):
    """Values of ``kind`` among ``options``."""

    def __init__(self, kind, options):
        self.kind, self.options = kind, frozenset(options)

    def is_satisfied_by(self, value) -> bool:
        try:
            return isinstance(value, self.kind) and value in self.options
        except TypeError:  # unhashable
            return False

    def __str__(self):
        shown = ", ".join(repr(o) for o in sorted(self.options, key=repr))
        return f"a {_type_name(self.kind)} among {{{shown}}}"


class StrOptions(Options):
    """Strings among ``options``."""

    def __init__(self, options):
        super().__init__(str, options)


class Interval(Constraint):
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


class Check(Constraint):
    """A check of its own: ``function(value, name)`` raises :class:`ArgumentError` with its own
    message, or returns. ``words`` say what it takes (the vocabulary's table)."""

    def __init__(self, function: Callable, words: str):
        self.function, self.words = function, words

    def is_satisfied_by(self, value) -> bool:  # pragma: no cover - checked by its function
        raise NotImplementedError

    def __str__(self):
        return self.words


_NAMED = {
    "array-like": _ArrayLike(),
    "sparse matrix": _Sparse(),
    "boolean": _Boolean(),
    "nan": _Nan(),
}


def constraint(spec) -> Constraint:
    """A :class:`Constraint` from its short form (see the module's notes)."""
    if spec is None:
        return _None()
    if isinstance(spec, Constraint):
        return spec
    if isinstance(spec, type):
        return _InstanceOf(spec)
    if isinstance(spec, float) and math.isnan(spec):
        return _Nan()
    return _NAMED[spec]


def alternatives(allowed) -> str:
    shown = [str(c) for c in allowed]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


# --- the scikit-learn-named functions' declarations --------------------------------------------
_CHECKING = contextvars.ContextVar("svmeval_metrics_validating", default=False)


def validate_params(constraints: dict):
    """Decorate a function whose parameters must meet ``constraints`` (parameter name -> list
    of constraints, any one of which will do), with scikit-learn's message. A function called
    by another validated function is not checked again."""
    made = {name: [constraint(c) for c in specs] for name, specs in constraints.items()}

    def decorate(func):
        signature = inspect.signature(func)
        unknown = set(made) - set(signature.parameters)
        if unknown:  # pragma: no cover - a declaration that does not fit its function
            raise TypeError(f"{func.__name__}: constraints of no parameter: {sorted(unknown)}")

        @functools.wraps(func)
        def validated(*args, **kwargs):
            if _CHECKING.get():
                return func(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, value in bound.arguments.items():
                allowed = made.get(name)
                if allowed is None or any(c.is_satisfied_by(value) for c in allowed):
                    continue
                what = alternatives(allowed)
                raise InvalidParameterError(
                    name,
                    f"must be {what}. Got {value!r} instead.",
                    text=f"The {name!r} parameter of {func.__qualname__} must be {what}. "
                    f"Got {value!r} instead.",
                )
            token = _CHECKING.set(True)
            try:
                return func(*args, **kwargs)
            finally:
                _CHECKING.reset(token)

        validated.parameter_constraints = made  # type: ignore[attr-defined]
        return validated

    return decorate


def parse_zero_division(value, name: str = "zero_division") -> float:
    """A zero-division policy as 0.0, 1.0 or NaN: 0, 1, NaN or their text ("nan", "0", "1")."""
    if isinstance(value, str):
        if value.strip().lower() == "nan":
            return math.nan
        if value.strip() in ("0", "1", "0.0", "1.0"):
            return float(value)
    elif is_number(value):
        number = float(value)
        if math.isnan(number) or number in (0.0, 1.0):
            return number
    message = f"must be 0, 1 or 'nan' (nan leaves undefined values out of averages), got {value!r}"
    raise InvalidParameterError(name, message, text=f"{name} {message}")

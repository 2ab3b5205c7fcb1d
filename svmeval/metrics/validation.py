"""The parameters of the scikit-learn-named functions, declared once and checked on every call,
with scikit-learn's rules and messages: :func:`validate_params` and its constraints are those
of ``svmeval._args``, where every argument of svmeval is declared."""

from __future__ import annotations

from svmeval._constraints import Interval, Options, StrOptions, validate_params
from svmeval.errors import InvalidParameterError

__all__ = ["Interval", "InvalidParameterError", "Options", "StrOptions", "validate_params"]

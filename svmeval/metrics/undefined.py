"""svmeval's warning for a figure that is undefined (0/0) where scikit-learn warns."""

from __future__ import annotations

import warnings

__all__ = ["UndefinedMetricWarning", "warn_undefined"]


class UndefinedMetricWarning(UserWarning):
    """A figure is undefined (e.g. precision of a class never predicted) and was set by the
    ``zero_division`` policy; the counterpart of scikit-learn's warning of the same name."""


def warn_undefined(message: str, stacklevel: int = 3) -> None:
    warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel)

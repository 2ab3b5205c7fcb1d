"""How the results show themselves at a prompt: :func:`brief_repr`, a dataclass's repr with
each array as its dtype and shape and each tuple of results as its count, so that
``cross_validate(...)`` typed at a prompt prints a line or two, not every prediction."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

__all__ = ["brief_repr"]


def brief_repr(self) -> str:
    """``Name(field=value, ...)`` over the fields a dataclass shows, arrays and tuples of
    results summarised (``y_true=<float64 array (569,)>``, ``folds=<5 OuterFold>``)."""
    shown = (f for f in dataclasses.fields(self) if f.repr)
    parts = ", ".join(f"{f.name}={_brief(getattr(self, f.name))}" for f in shown)
    return f"{type(self).__name__}({parts})"


def _brief(value) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:  # a numpy array, without importing numpy
        return f"<{dtype} array {tuple(shape)}>"
    if isinstance(value, (tuple, list)) and value and not _plain(value):
        kinds = sorted({type(v).__name__ for v in value})
        return f"<{len(value)} {'/'.join(kinds)}>"
    if isinstance(value, Mapping) and value and not _plain(tuple(value.values()), 16):
        return f"<{type(value).__name__} of {len(value)}>"
    return repr(value)


def _plain(values: tuple | list, most: int = 8) -> bool:
    """Whether ``values`` are few and short plain values (their repr is shown as it is)."""
    return len(values) <= most and all(
        v is None or isinstance(v, (bool, int, float, str)) for v in values
    )

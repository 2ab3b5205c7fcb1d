"""Results as data: plain JSON types and pandas tables, for every result type's ``to_dict`` and
``to_frame`` (the public ``to_dict(result)`` and ``to_frame(result)`` are
:mod:`svmeval.report`'s).

A results table has one row per (data set, configuration, repetition, fold): the columns
``dataset``, ``configuration`` (svm-train's flags that differ from its defaults), ``repetition``
(0, 1, …), ``seed``, ``fold`` (0 … k-1), ``n_test`` (the fold's samples), then the figures by
their registry names (:data:`svmeval.metrics.FIGURES`), so that
``frame.groupby(["dataset", "configuration"])`` gives what a paper tabulates.

pandas is an optional extra (the ``frame`` extra, :mod:`svmeval._extras`), imported only here and only
when a table is made.
"""

from __future__ import annotations

import math

import numpy as np

from svmeval.errors import SvmevalError

__all__ = ["KEYS", "finite", "frame", "pandas", "plain"]


#: the columns that say which run and fold a row is; the figures follow them
KEYS = ("dataset", "configuration", "options", "repetition", "seed", "fold", "n_test")


def finite(value):
    """A float that is NaN or infinite as None (JSON's null); any other value as it is."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def plain(value):
    """numpy and float values as JSON values, NaN and infinities as None (null)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value) or math.isinf(value):
            return None
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    return value


def pandas():
    """The pandas module, or a :class:`SvmevalError` saying how to install it."""
    try:
        import pandas
    except ImportError:
        from svmeval._extras import install_command

        raise SvmevalError(f"to_frame() needs pandas: {install_command('frame')}") from None
    return pandas


def frame(rows: list[dict], columns: list[str] | None = None):
    """A DataFrame of ``rows`` (``columns`` when there may be no row)."""
    return pandas().DataFrame.from_records(rows, columns=columns)

"""The results store's error."""

from __future__ import annotations

from svmeval.errors import SvmevalError

__all__ = ["StoreError"]


class StoreError(SvmevalError):
    """A results store that cannot be used: not an svmeval store, damaged, from a newer
    svmeval, or holding a unit that does not fit the run. The file is left as it was.

    Examples
    --------
    >>> from svmeval import StoreError, open_store
    >>> try:
    ...     open_store("data/wine.scale")
    ... except StoreError as error:
    ...     print(error)
    data/wine.scale: not an svmeval store (not an SQLite database)
    """

"""The results store: every cross-validation unit kept once in one SQLite file.

A unit is one fold of one repetition of one configuration on one data set. Its key holds
everything its result depends on (:func:`unit_key`); its value is plain numbers (arrays as
little-endian float64 bytes, their dtype and shape checked on read) and text: a store holds
nothing that runs code when it is read. :class:`Store` is the file; the engine asks it for each
unit before it trains and writes each unit, in its own transaction, as it ends
(:mod:`svmeval.cv.run.store_use`). This package imports only the standard library and numpy.
"""

from svmeval.store._calls import describe_call
from svmeval.store._errors import StoreError
from svmeval.store._schema import SCHEMA_VERSION
from svmeval.store._store import Store, StoreLike, open_store
from svmeval.store._units import RESULTS_VERSION, UnitRecord, unit_key

__all__ = [
    "RESULTS_VERSION",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "StoreLike",
    "UnitRecord",
    "describe_call",
    "open_store",
    "unit_key",
]

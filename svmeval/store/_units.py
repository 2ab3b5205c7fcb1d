"""A unit's key and its value as the store keeps it, and the checks that read it back.

A unit's key is the SHA-256 of its key fields as canonical JSON (:func:`unit_key`). Its value
is plain numbers: ``arrays`` lists ``[name, "<f8", shape]`` for each array, whose little-endian
bytes follow one another in ``payload``; ``digest`` is the SHA-256 of both. A store is data,
never trusted: a unit read back whose list, dtype, shape, length, digest or time does not fit
what the run asks raises :class:`StoreError` (:func:`decode_unit`).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from svmeval._version import __version__
from svmeval.store._errors import StoreError

__all__ = [
    "MAX_HEADER",
    "RESULTS_VERSION",
    "UnitRecord",
    "decode_unit",
    "encode_unit",
    "now",
    "payload_digest",
    "unit_key",
]

#: the version of the way svmeval computes a unit's result (part of every key)
RESULTS_VERSION = 1
#: the largest array header read from a unit (bytes of JSON)
MAX_HEADER = 4096


def unit_key(fields: dict, *, text: bool = False) -> str:
    """The SHA-256 (hex) of a unit's key fields as canonical JSON (keys sorted, no spaces;
    ``text``: that JSON itself)."""
    import json

    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return canonical if text else hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class UnitRecord:
    """A stored unit's value: its arrays (float64, shapes as asked), the seconds it took."""

    arrays: dict
    seconds: float


def payload_digest(header: str, payload: bytes) -> str:
    """The SHA-256 (hex) of a unit's array list and bytes."""
    return hashlib.sha256(header.encode() + b"\0" + payload).hexdigest()


def now() -> str:
    """The time (UTC, ISO 8601 to the second) a store, a unit or a run is written."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def encode_unit(key: str, fields: dict, arrays: dict, seconds: float, run: int | None) -> tuple:
    """The row of table ``units`` for one unit, its columns in the order ``key, kind, data,
    data_name, configuration, n_folds, seed, fold, fields, arrays, payload, digest, seconds,
    created, run, svmeval, libsvm`` (an array None is left out; ``libsvm``: the version of the
    library that computed it, LIBLINEAR's for a LIBLINEAR unit)."""
    import json

    listed, parts = [], []
    for name, a in arrays.items():
        if a is None:
            continue
        a = np.ascontiguousarray(a, dtype="<f8")
        listed.append([name, "<f8", list(a.shape)])
        parts.append(a.tobytes())
    header, payload = json.dumps(listed), b"".join(parts)
    return (
        key,
        str(fields.get("unit", "")),
        str(fields["data"]),
        str(fields.get("data_name", "")),
        str(fields["configuration"]),
        int(fields["n_folds"]),
        int(fields["seed"]),
        int(fields["fold"]),
        json.dumps(fields, sort_keys=True, allow_nan=False),
        header,
        payload,
        payload_digest(header, payload),
        float(seconds),
        now(),
        run,
        __version__,
        str(fields.get("libsvm", fields.get("liblinear", ""))),  # the library's version
    )


def decode_unit(
    key: str, row: tuple, shapes: dict, fail: Callable[[str], StoreError]
) -> UnitRecord:
    """The value of unit ``key`` from its stored ``(arrays, payload, digest, seconds)``.

    ``shapes``: name -> the shape each array must have (None: the array must be absent).
    A unit whose arrays differ in name, dtype, shape or length from these, or whose record is
    malformed, raises ``fail(reason)``.
    """
    header, payload, digest, seconds = row
    bad = f"damaged store: unit {key[:12]} does not fit the run"
    if not isinstance(header, str) or len(header) > MAX_HEADER:
        raise fail(f"{bad} (its array list)")
    if not isinstance(payload, bytes) or not isinstance(seconds, float | int):
        raise fail(f"{bad} (its value's types)")
    if digest != payload_digest(header, payload):
        raise fail(f"damaged store: unit {key[:12]}'s values do not match their digest")
    wanted = tuple((name, tuple(shape)) for name, shape in shapes.items() if shape is not None)
    layout = _layout(header, wanted)
    if isinstance(layout, str):
        raise fail(f"{bad} ({layout})")
    size, parts = layout
    if size > len(payload):
        raise fail(f"{bad} (its bytes are short)")
    if size != len(payload):
        raise fail(f"{bad} (its bytes are too many)")
    # one copy of the whole payload (native float64, writable), each array a view of it
    values = np.frombuffer(payload, dtype="<f8").astype(np.float64)
    arrays = {name: values[start:end].reshape(shape) for name, start, end, shape in parts}
    seconds = float(seconds)
    if not (seconds >= 0 and math.isfinite(seconds)):
        raise fail(f"{bad} (its time)")
    return UnitRecord(arrays, seconds)


@functools.lru_cache(maxsize=256)
def _layout(header: str, wanted: tuple) -> tuple | str:
    """Where each array of a unit lies in its payload, from its array list ``header`` (JSON)
    checked against ``wanted`` (``(name, shape)`` pairs): ``(bytes, ((name, start, end,
    shape), ...))`` in float64 items, or why it does not fit. The units of a run share a few
    array lists: each is read once."""
    import json

    try:
        listed = json.loads(header)
    except ValueError:
        return "its array list is not JSON"
    shapes = dict(wanted)
    if not isinstance(listed, list) or len(listed) != len(shapes):
        return "its arrays"
    parts, offset, seen = [], 0, set()
    for entry in listed:
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or entry[0] not in shapes
            or entry[0] in seen
            or entry[1] != "<f8"
            or not isinstance(entry[2], list)
            or tuple(entry[2]) != shapes[entry[0]]
        ):
            return f"array {str(entry)[:60]}"
        seen.add(entry[0])
        shape = shapes[entry[0]]
        n = math.prod(shape)
        parts.append((entry[0], offset, offset + n, shape))
        offset += n
    return offset * 8, tuple(parts)

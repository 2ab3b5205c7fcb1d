"""The JSON report of a :class:`~svmeval.summary.Summary`: its ``to_dict()``
(:mod:`svmeval.summary.data`), one object; undefined values are null."""

from __future__ import annotations

import json

from svmeval._tables import plain  # noqa: F401 - the reporters' one JSON converter
from svmeval.summary.data import SCHEMA_VERSION  # noqa: F401


def render(summary, *, digits: int = 4, full: bool = False) -> str:
    return json.dumps(summary.to_dict(), indent=2, allow_nan=False) + "\n"

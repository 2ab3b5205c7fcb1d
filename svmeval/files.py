"""Writing output files atomically: a temporary file in the same directory, then a rename, so a
reader never sees a half-written file (and an interrupted run leaves none behind)."""

from __future__ import annotations

import os
import tempfile

from .errors import SvmevalError


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` all at once, or not at all."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    except OSError as exc:
        raise SvmevalError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise SvmevalError(f"{path}: cannot write: {exc.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)

"""Writing output files atomically: a temporary file in the same directory, then a rename, so a
reader never sees a half-written file (and an interrupted run leaves none behind)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from ..errors import SvmevalError


@contextlib.contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """A temporary path beside ``path``: whatever is written there becomes ``path`` when the
    block ends without error, and is removed otherwise."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        raise SvmevalError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        raise SvmevalError(f"{path}: cannot write: {exc.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` all at once, or not at all."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)

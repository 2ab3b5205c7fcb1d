"""svmeval's compiled helpers from its reader extension (``_reader.c``), for the packages that
need them: a number as C reads it, and a C function that prints nothing.

Importing this module loads the extension (a few kilobytes, no numpy).
"""

from __future__ import annotations

import ctypes

from svmeval.io import _reader

__all__ = ["parse_number", "print_nothing"]


def parse_number(text: bytes) -> tuple[float, int]:
    """``(value, status)`` of ``text`` read whole by C ``strtod`` in the C locale, as svm-train
    reads a number (decimal or hexadecimal, ``1e-3``, ``.5``, ``3.``): status 0 for a number,
    1 for text that is not one (or not all of it), 2 for an overflow and 3 for an underflow
    (``strtod``'s ERANGE)."""
    return _reader.parse_number(text)


def print_nothing() -> ctypes._NamedFuncPointer:
    """The C function ``void svmeval_print_nothing(const char *)``, which prints nothing (the
    print hook of a quiet LIBSVM: a C function, so LIBSVM's messages never reach Python)."""
    return ctypes.CDLL(_reader.__file__).svmeval_print_nothing

"""svmeval's compiled helpers from its reader extension (``_reader.c``), for the packages that
need them: a number as C reads it, and the path of the compiled extension (which also holds a C
print hook that prints nothing, loaded by svmeval.cv, the only package that speaks ctypes).

Importing this module loads the extension (a few kilobytes, no numpy).
"""

from __future__ import annotations

from svmeval.io import _reader

__all__ = ["extension_path", "parse_number"]


def parse_number(text: bytes) -> tuple[float, int]:
    """``(value, status)`` of ``text`` read whole by C ``strtod`` in the C locale, as svm-train
    reads a number (decimal or hexadecimal, ``1e-3``, ``.5``, ``3.``): status 0 for a number,
    1 for text that is not one (or not all of it), 2 for an overflow and 3 for an underflow
    (``strtod``'s ERANGE)."""
    return _reader.parse_number(text)


def extension_path() -> str:
    """The file of the compiled reader extension, which also exports
    ``void svmeval_print_nothing(const char *)`` (the print hook of a quiet LIBSVM: a C
    function, so LIBSVM's messages never reach Python)."""
    return str(_reader.__file__)

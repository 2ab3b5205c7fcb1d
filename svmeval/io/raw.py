"""A LIBSVM-format file read into the C parser's raw arrays, without numpy.

:func:`read_arrays` is the reading of :func:`svmeval.io.data.read_dataset` (which wraps the
arrays as numpy arrays without a copy): the same parser, the same checks, the same errors
(file, physical line, token). A drop-in call that needs no numpy (``svmeval -v k`` of two
classes) reads its file here.
"""

from __future__ import annotations

import os

from svmeval.errors import DataFormatError, SvmevalError
from svmeval.io._messages import message as _message
from svmeval.io._streams import STDIN_NAME, memory_available, open_data, pump

__all__ = ["MAX_LINE_BYTES", "RawArrays", "read_arrays"]

MAX_LINE_BYTES = 64 << 20  # the longest line read_dataset accepts by default


class RawArrays:
    """The parser's arrays of a file, as bytes-like objects of C values.

    ``y`` (float64, one a sample; None for multi-label data), ``indptr`` (int64, l + 1),
    ``indices`` (int32), ``values`` (float64), ``max_index`` (the largest feature index, 0 when
    there is none), ``label_indptr`` and ``label_values`` (multi-label data only), ``name`` (the
    file's name in messages) and ``n_samples``.
    """

    __slots__ = (
        "y",
        "indptr",
        "indices",
        "values",
        "max_index",
        "label_indptr",
        "label_values",
        "name",
    )

    def __init__(self, arrays: tuple, name: str):
        (
            self.y,
            self.indptr,
            self.indices,
            self.values,
            max_index,
            self.label_indptr,
            self.label_values,
        ) = arrays
        self.max_index = int(max_index)
        self.name = name

    @property
    def n_samples(self) -> int:
        return len(self.indptr) // 8 - 1


def _load_extension():
    try:
        from svmeval.io import _reader
    except ImportError as exc:  # pragma: no cover - an unbuilt checkout
        raise ImportError(
            "svmeval.io._reader (the compiled LIBSVM-format parser) is not built: run "
            "`pip install -e .` or `python setup.py build_ext --inplace` "
            f"in the source tree ({exc})"
        ) from None
    return _reader


def read_arrays(
    source: str | os.PathLike, *, multilabel: bool = False, max_line_bytes: int = MAX_LINE_BYTES
) -> RawArrays:
    """Read a LIBSVM-format file (as :func:`svmeval.io.data.read_dataset`) into the parser's
    raw arrays.

    Raises
    ------
    DataFormatError
        A file that cannot be read or decompressed, a malformed line (with its physical line
        number and the token at fault), a file with no samples.
    """
    _reader = _load_extension()
    try:
        path = os.fspath(source)
    except TypeError:
        raise DataFormatError(repr(source), None, "not a file name") from None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    name = STDIN_NAME if path == "-" else path
    if (
        isinstance(max_line_bytes, bool)
        or not isinstance(max_line_bytes, int)
        or max_line_bytes < 1
    ):
        raise SvmevalError(f"max_line_bytes must be a positive integer, got {max_line_bytes!r}")
    reader = _reader.Reader(multilabel=multilabel, max_line=min(max_line_bytes, 2**62))
    try:
        with open_data(path, name) as (stream, kind):
            pump(stream, reader, name, kind, memory_available())
        arrays = RawArrays(reader.finish(), name)
    except _reader.ParseError as exc:
        raise DataFormatError(name, exc.args[0], _message(*exc.args[1:])) from None
    except MemoryError:
        raise DataFormatError(
            name, reader.lines or None, "out of memory while reading the data"
        ) from None
    if arrays.n_samples == 0:
        raise DataFormatError(name, None, "no samples: the file is empty")
    return arrays

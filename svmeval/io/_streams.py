"""Opening a data file and feeding it to the parser, within the memory available.

:func:`open_data` gives the decompressed byte stream of a file or of standard input (gzip,
bzip2 and xz recognised by their content, or by a ``.gz``, ``.bz2``, ``.xz`` suffix);
:func:`pump` feeds it to the C parser chunk by chunk and stops, with one error naming the file
and line, before the parsed arrays outgrow the memory the process may still use
(:func:`memory_available`: the system's available memory, and the address-space limit less
what the process already maps). A decompression bomb of short valid lines is then one line, not
a MemoryError.

Ctrl-C while the reader waits for a pipe: the blocking ``read()`` is CPython's (``FileIO``). A
signal that comes while it is blocked ends it at once (EINTR: CPython runs the signal handlers
and raises their KeyboardInterrupt, PEP 475); one that comes in the instant before it blocks is
acted on when it returns. Either way the command reports nothing but the interrupt (the end of
the input is never taken for data). The C parser never reads or waits: it parses the bytes it
is handed, a chunk at a time.
"""

from __future__ import annotations

import io
import os
import resource
import stat
import sys

from svmeval.errors import DataFormatError

TYPE_CHECKING = False  # as typing's, without importing typing (a drop-in call's start-up)
if TYPE_CHECKING:
    from typing import BinaryIO

CHUNK_SIZE = 1 << 22  # bytes handed to the parser at a time
STDIN_NAME = "<stdin>"  # the name of standard input ("-") in a Dataset and in messages
#: the parsed arrays grow by half their size at a time, and a chunk of short lines adds up to
#: 8 bytes of arrays per byte of text: what must stay free after each chunk
GROWTH, CHUNK_GROWTH = 1.5, 8 * CHUNK_SIZE

_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
)
_SUFFIX = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}


def memory_available() -> int | None:
    """Bytes this process may still allocate: the least of the system's available memory
    (``MemAvailable``) and the address-space limit less what is mapped; None if unknown."""
    bounds = []
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    bounds.append(int(line.split()[1]) * 1024)
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit != resource.RLIM_INFINITY:
            with open("/proc/self/status", encoding="utf-8") as fh:
                mapped = next(int(x.split()[1]) * 1024 for x in fh if x.startswith("VmSize:"))
            bounds.append(limit - mapped)
    except (OSError, ValueError, StopIteration):  # pragma: no cover - not Linux
        pass
    return min(bounds) if bounds else None


class _Prefixed(io.RawIOBase):
    """A stream that yields ``head`` and then the rest of ``stream`` (for sniffing a pipe)."""

    def __init__(self, head: bytes, stream: BinaryIO):
        self._head = head
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._stream.read(len(b))
        b[: len(data)] = data
        return len(data)


class open_data:
    """Context manager: (binary stream of the decompressed text, compression kind or None)."""

    def __init__(self, path: str, name: str):
        self.path = path
        self.name = name
        self._closers: list = []

    def __enter__(self):
        path, name = self.path, self.name
        try:
            if path == "-":
                raw = sys.stdin.buffer
            else:
                raw = open(path, "rb")
                self._closers.append(raw)
            head = raw.read(6)
            if raw.seekable():
                raw.seek(-len(head), io.SEEK_CUR)
                base: BinaryIO = raw
            else:  # a pipe: put the sniffed bytes back in front
                base = io.BufferedReader(_Prefixed(head, raw), CHUNK_SIZE)
        except OSError as exc:
            self.__exit__(None, None, None)
            raise DataFormatError(name, None, f"cannot read: {exc.strerror or exc}") from None
        kind = next((k for magic, k in _MAGIC if head.startswith(magic)), None)
        if kind is None and path != "-":
            kind = _SUFFIX.get(os.path.splitext(path)[1].lower())
        stream: BinaryIO | io.BufferedIOBase
        # each decompressor imported only for a file that needs it
        if kind == "gzip":
            import gzip

            stream = gzip.GzipFile(fileobj=base, mode="rb")
        elif kind == "bzip2":
            import bz2

            stream = bz2.BZ2File(base, "rb")
        elif kind == "xz":
            import lzma

            stream = lzma.LZMAFile(base, "rb")
        else:
            stream = base
        if stream is not base:
            self._closers.append(stream)
        return stream, kind

    def __exit__(self, *exc_info):
        for c in reversed(self._closers):
            try:
                c.close()
            except Exception:  # noqa: BLE001 - closing after an error must not mask it
                pass
        self._closers.clear()
        return False


def _read_errors(kind: str | None) -> tuple:
    """What reading a stream of ``kind`` (None: not compressed) raises on a bad input."""
    if kind is None:
        return (OSError, EOFError)
    import lzma
    import zlib

    return (OSError, EOFError, lzma.LZMAError, zlib.error)


def _chunk_size(stream, kind: str | None) -> int:
    """:data:`CHUNK_SIZE`, or less for a smaller regular file read as it is: the whole file
    and one byte (a buffer is zeroed when made: 4 MiB for a file of a few kilobytes cost more
    than reading it)."""
    if kind is not None:
        return CHUNK_SIZE
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return CHUNK_SIZE
    if not stat.S_ISREG(st.st_mode):
        return CHUNK_SIZE
    return max(1, min(CHUNK_SIZE, st.st_size + 1))


def pump(
    stream: BinaryIO, reader, name: str, kind: str | None, available: int | None = None
) -> None:
    """Feed the whole stream to the parser chunk by chunk; with ``available`` (bytes), stop
    before the parser's arrays could outgrow it."""
    errors = _read_errors(kind)
    buf = bytearray(_chunk_size(stream, kind))
    view = memoryview(buf)
    readinto = getattr(stream, "readinto", None)
    while True:
        try:
            if readinto is not None:
                n = readinto(view)
                chunk = view[:n] if n else b""
            else:  # pragma: no cover - every stream used here has readinto
                chunk = stream.read(CHUNK_SIZE)
        except errors as exc:
            if kind is None:
                reason = getattr(exc, "strerror", None) or exc
                raise DataFormatError(name, None, f"cannot read: {reason}") from None
            raise DataFormatError(name, None, f"cannot decompress ({kind}): {exc}") from None
        if not chunk:
            return
        reader.feed(chunk)
        if available is not None and reader.held * GROWTH + CHUNK_GROWTH > available:
            raise DataFormatError(
                name,
                reader.lines or None,
                f"the data need more memory than is available ({reader.held >> 20} MiB "
                f"parsed by this line, {max(0, available) >> 20} MiB available)",
            )

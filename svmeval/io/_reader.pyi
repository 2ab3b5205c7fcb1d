"""Types of svmeval.io._reader, the C parser of the LIBSVM format (_reader.c)."""

import numpy as np
from _typeshed import ReadableBuffer

_Buffer = ReadableBuffer | np.ndarray

class ParseError(Exception):
    """args: (line, kind, token, detail): the physical line, the kind of fault, the offending
    token and a detail (bytes or None)."""

class Reader:
    """A streaming, strict LIBSVM-format parser; a line longer than ``max_line`` bytes is a
    ParseError."""

    def __init__(self, multilabel: bool = False, max_line: int = ...) -> None: ...
    def feed(self, data: _Buffer, /) -> None: ...
    def finish(
        self,
    ) -> tuple[
        bytearray | None, bytearray, bytearray, bytearray, int, bytearray | None, bytearray | None
    ]: ...
    @property
    def lines(self) -> int: ...
    @property
    def held(self) -> int: ...

def parse_number(text: _Buffer, /) -> tuple[float, int]: ...

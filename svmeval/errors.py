"""Typed errors. The library raises these; the CLI turns each into one line on stderr.

Messages are one line whatever the input: :func:`show_path` escapes a file name that holds a
newline, an escape sequence or bytes that are not UTF-8, and :func:`show_label` prints a label
with as many digits as it takes to tell it from every other double.
"""

from __future__ import annotations

import math

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def show_path(name) -> str:
    """A file name for a one-line message.

    A printable name without quotes or backslashes is shown as is; any other name is shown in
    double quotes with ``\\n``, ``\\t``, ``\\\\``, ``\\"``, ``\\xNN`` (a control character or a byte
    that is not UTF-8) and ``\\uNNNN`` escapes, so it stays on one line and cannot be mistaken for
    another name.
    """
    if isinstance(name, bytes):
        name = name.decode("utf-8", "surrogateescape")
    name = str(name)
    if name.isprintable() and '"' not in name and "\\" not in name:
        return name
    out = []
    for ch in name:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif "\udc80" <= ch <= "\udcff":  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def show_label(value) -> str:
    """A label for a message: C's ``%g`` where that gives back the same double (``1``, ``-1``,
    ``2.5``), else the shortest text that does (``1.0000000000000002``), so two different labels
    never print alike."""
    v = float(value)
    text = f"{v:g}"
    if math.isfinite(v) and float(text) != v:
        text = str(int(v)) if v.is_integer() and abs(v) < 1e17 else repr(v)
    return text


class SvmevalError(Exception):
    """Base class of every error svmeval reports to the user.

    Examples
    --------
    >>> from svmeval import SvmevalError, read_dataset
    >>> try:
    ...     read_dataset("no_such_file.txt")
    ... except SvmevalError as error:
    ...     print(error)
    no_such_file.txt: cannot read: No such file or directory
    """


class DataFormatError(SvmevalError):
    """A data or predictions file that cannot be read: carries the file name and line number.

    The file name is shown escaped (:func:`show_path`), so the message is one line.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import DataFormatError, read_dataset
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.txt"
    >>> _ = path.write_text("1 1:0.5\\n-1 2:x\\n")
    >>> try:
    ...     read_dataset(path)
    ... except DataFormatError as error:
    ...     print(error.line, error.message)
    2 feature "2:x": value "x" is not a number
    """

    def __init__(self, file: str, line: int | None, message: str):
        self.file = str(file)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{show_path(self.file)}: {self.message}"
        return f"{show_path(self.file)}:{self.line}: {self.message}"


class OptionError(SvmevalError):
    """A command-line option that is unknown or malformed (the CLI prints the usage too).

    Examples
    --------
    >>> from svmeval import OptionError, SvmParams
    >>> try:
    ...     SvmParams.parse("-c x")
    ... except OptionError as error:
    ...     print(error)
    option -c: 'x' is not a number
    """


class ParameterError(SvmevalError):
    """A parameter LIBSVM cannot take: a value that does not fit its C field (NaN, infinity, an
    integer beyond C ``int``), or a combination svm_check_parameter rejects (its own message).

    Examples
    --------
    >>> from svmeval import ParameterError, cross_validate
    >>> try:
    ...     cross_validate("data/wine.scale", "-s 1 -n 2")
    ... except ParameterError as error:
    ...     print(error)
    nu <= 0 or nu > 1
    """


class ArgumentError(SvmevalError):
    """A library argument whose value the function does not take, or that does not fit the
    data: ``argument`` names it in the library's words (the command line names its own flag
    instead), ``message`` says what is wrong with it.

    Every public function checks its arguments before any work.

    Examples
    --------
    >>> from svmeval import ArgumentError, cross_validate, summarize
    >>> try:
    ...     summarize(cross_validate("data/wine.scale", folds=3), pos_label=1)
    ... except ArgumentError as error:
    ...     print(error.argument, "-", error.message)
    pos_label - applies to two-class data only
    """

    def __init__(self, argument: str, message: str, *, text: str | None = None):
        self.argument = argument
        self.message = message
        super().__init__(text if text is not None else f"{argument}: {message}")


class InvalidParameterError(ArgumentError, ValueError, TypeError):
    """An argument of a type or value the function does not take, found at its door: an
    :class:`~svmeval.ArgumentError`, and like scikit-learn's own ``InvalidParameterError`` both a
    ValueError and a TypeError.

    Examples
    --------
    >>> from svmeval import render
    >>> from svmeval.errors import InvalidParameterError
    >>> try:
    ...     render(None, format="pdf")
    ... except InvalidParameterError as error:
    ...     print(error.argument)
    format
    """

"""Typed errors. The library raises these; the CLI turns each into one line on stderr."""

from __future__ import annotations


class SvmevalError(Exception):
    """Base class of every error svmeval reports to the user."""


class DataFormatError(SvmevalError):
    """A data or predictions file that cannot be read: carries the file name and line number."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file = str(file)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.line}: {self.message}"


class OptionError(SvmevalError):
    """A command-line option that is unknown or malformed (the CLI prints the usage too)."""


class ParameterError(SvmevalError):
    """A parameter combination LIBSVM's svm_check_parameter rejects (its own message)."""


class ArgumentError(SvmevalError):
    """A library argument whose value does not fit the data (``argument`` names it, so the
    command line can name its own flag instead)."""

    def __init__(self, argument: str, message: str):
        self.argument = argument
        self.message = message
        super().__init__(f"{argument}: {message}")

"""One runner for every command: parse, check every output, run; errors become one line.

:func:`main` is what each command's ``main`` calls with its :class:`Command`: the options are
read (an option error is one line, never the usage: an unknown option's names the nearest
valid option, or ``--help`` where none is near; no arguments at all give the short usage,
exit status 1, in every command alike), ``--help`` writes the usage to standard output (a closed or full standard output is one line too), then
every output path of the run is checked before any work (:func:`svmeval.io.output.check_outputs`:
not an input, not another output, through any spelling or link; directories and missing
parents refused), and the run's typed errors become one line and exit status 1. A Ctrl-C is
a KeyboardInterrupt out of :func:`main`, which the commands' launcher (``svmeval.cli.__main__``)
turns into ``PROG: interrupted`` and status 130; a reader that went away ends the command
quietly with status 1.
Once a Ctrl-C was seen, whatever became of its KeyboardInterrupt (Python drops one raised inside
a weakref callback of the import machinery, and the run goes on), no other line is written: an
error that follows it (the end of a half-read input taken for an empty file) ends the command
as interrupted.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from svmeval._version import __version__
from svmeval.cli.scan import asks_for
from svmeval.cli.usage import short_usage
from svmeval.errors import (
    ArgumentError,
    DataFormatError,
    OptionError,
    ParameterError,
    SvmevalError,
    show_path,
)
from svmeval.io import output

#: library arguments as the command lines spell them
FLAGS = {
    "pos_label": "--pos-label",
    "zero_division": "--zero-division",
    "repeat": "--repeat",
    "seed": "--seed",
    "jobs": "--jobs",
    "client": "--dask",
    "criterion": "--criterion",
    "confidence": "--confidence",
    "confidence_level": "--confidence",
    "rope": "--rope",
    "test": "--test",
    "nr_fold": "-v",
    "folds": "-v",
    "kernel_memory": "--kernel-memory",
    "log2c": "-log2c",
    "log2g": "-log2g",
    "log2p": "--log2p",
    "log2w": "-log2w",
    "scale": "--scale",
    "select": "--select",
}


@dataclass(frozen=True)
class Command:
    """A command line: its program name, usage, and three functions of its options:
    ``parse(argv)``, ``files(options) -> (outputs, inputs)`` (each ``(what, path)``) and
    ``run(options) -> status``."""

    prog: str
    usage: str
    parse: Callable
    files: Callable
    run: Callable
    name: str = "svmeval"  # the option table's name of the command (svmeval, grid, compare)


class _Bar:
    current = None  # the progress bar on screen, ended before any message or stdout line


class _Line:
    current: str | None = None  # the command line being run, as a shell would take it
    prog: str = "svmeval"  # the program being run
    said: set = set()  # the missing extras said so far in this run (each said once)


class _Interrupted:
    hints: list = []  # functions saying how to continue an interrupted run (None: nothing)


def on_interrupt(hint: Callable[[], str | None]) -> None:
    """Have ``hint()`` (how to continue the run, or None) said after ``PROG: interrupted``
    if a Ctrl-C ends the command; the first hint registered that says something is said."""
    _Interrupted.hints.append(hint)


def interrupted_line(prog: str) -> str:
    """The line a Ctrl-C ends a command with (written by the commands' launcher): ``PROG:
    interrupted``, and how to continue where the run kept its work (a store, a grid's -out
    file)."""
    for hint in _Interrupted.hints:
        try:
            text = hint()
        except Exception:  # noqa: BLE001 - a hint never hides the interrupt
            continue
        if text:
            return f"{prog}: interrupted ({text})"
    return f"{prog}: interrupted"


def command_line() -> str | None:
    """The command line being run (program and arguments, quoted as a shell takes them)."""
    return _Line.current


def render_report(result, format: str, *, digits=None, full: bool = False, arrays=None) -> str:
    """A command's report of ``result``: :func:`svmeval.report.render`'s, and for "html" the
    page with the command line in its provenance (and a summary's per-sample ``arrays`` for
    its figure sheet)."""
    if format == "html":
        import importlib.util

        from svmeval.report.html import render_html

        if importlib.util.find_spec("matplotlib") is None:  # the page says why, stderr too
            no_picture(_Line.prog, "--format html")

        return render_html(result, digits=digits, command=command_line(), arrays=arrays)
    from svmeval.report import render

    return render(result, format=format, digits=digits, full=full)


def show_bar(bar):
    """Make ``bar`` the one ended before messages; returns it."""
    _Bar.current = bar
    return bar


def end_bar_line() -> None:
    """End a progress bar's line (a message or a stdout line is about to be written)."""
    bar = _Bar.current
    if bar is not None:
        bar.close()


def main(command: Command, argv: list[str] | None = None) -> int:
    """Run ``command`` on ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    import shlex

    _Line.current = shlex.join([command.prog, *argv])
    _Line.prog, _Line.said = command.prog, set()
    _Interrupted.hints.clear()
    try:
        if asks_for(argv) == "--version":
            line = f"{command.prog} {__version__}\n"
            output.write_outputs([(output.resolve(output.STDOUT, "the version"), line)])
            return 0
        if not argv:  # the short usage, alike in every command: svm-train's habit, exit 1
            return fail(short_usage(command.name).rstrip())
        try:
            options = command.parse(argv)
        except OptionError as exc:  # one line (an unknown option's names its nearest or --help)
            return fail(f"{command.prog}: {exc}")
        if options is None:  # --help
            output.write_outputs([(output.resolve(output.STDOUT, "the usage"), command.usage)])
            return 0
        check_files(command, options)  # before any work
        path = getattr(options, "store", None)
        if path is None:
            return command.run(options)
        with results_store(command, options, path, argv) as counts:
            status = command.run(options)
            _write_line(f"{command.prog}: {counts.line()}")
            return status
    except SvmevalError as exc:
        return fail(error_line(exc, command.prog))
    except BrokenPipeError:
        # the reader went away: nothing more to say (nor any more output to flush)
        with _quietly():
            sys.stderr.close()
        return 1
    finally:
        end_bar_line()
        _Bar.current = None


@contextlib.contextmanager
def results_store(command: Command, options, path: str, argv: list[str]):
    """The results store of ``--store FILE``, opened (and checked) before any work, its file
    created only at the first fold written, and in use by every run of the command
    (:func:`svmeval.cv.run.store_session.opened`): yields its counts. FILE may be none of the command's
    other files."""
    import shlex

    from svmeval.cv.run.store_session import opened

    if path == output.STDOUT:
        raise OptionError("--store -: a store is a file, not standard input or output")
    outputs, inputs = command.files(options)
    mine = os.path.realpath(path)
    for what, other in list(outputs) + list(inputs):
        if isinstance(other, str) and other != output.STDOUT and os.path.realpath(other) == mine:
            raise OptionError(f"--store {show_path(path)} is also {what}")
    line = " ".join(shlex.quote(a) for a in [command.prog, *argv])
    with opened(path, line) as counts:
        if not counts.reuse_only and not counts.store.read_only:
            on_interrupt(lambda: "the same command continues from the store")
        yield counts


def printable(text) -> str:
    """``text`` (from a file someone may have sent) safe on one line of a terminal: its
    control characters as ``\\xNN`` escapes."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


def check_files(command: Command, options) -> list:
    """Every output of the run resolved and checked against its inputs and each other."""
    outputs, inputs = command.files(options)
    if any(path == output.STDOUT for _, path in inputs):
        output.check_readable_stdin()
    return output.check_outputs(outputs, inputs)


def error_line(exc: SvmevalError, prog: str) -> str:
    """The one line a typed error becomes on the command line (every svmeval command)."""
    if isinstance(exc, ParameterError):
        return f"ERROR: {exc}"  # svm-train's words for svm_check_parameter
    if isinstance(exc, DataFormatError):
        return f"{prog}: {exc}"  # PROG: FILE:LINE: reason
    if isinstance(exc, ArgumentError):  # the library names its argument; say the flag instead
        flag = FLAGS.get(exc.argument, exc.argument)
        text = str(exc)
        if text == f"{exc.argument}: {exc.message}":
            gap = "" if exc.argument == "regression" else " "
            return f"{prog}: {flag}{gap}{exc.message}"
        if text == f"{exc.argument} {exc.message}":  # "seed must be ...": "--seed must be ..."
            return f"{prog}: {flag}{text[len(exc.argument) :]}"
        return f"{prog}: {text}"  # a sentence of its own ("unknown criterion 'x': ...")
    return f"{prog}: {exc}"


def fail(message: str) -> int:
    """One line on stderr (after ending a progress bar's line), exit status 1; after a Ctrl-C,
    a KeyboardInterrupt instead (the interrupt is the only thing reported)."""
    if output.INTERRUPTS:
        raise KeyboardInterrupt
    _write_line(message)
    return 1


def say_on_stderr(message: str) -> None:
    """One line on standard error (a note beside the report), after a progress bar's line."""
    _write_line(message)


def _write_line(message: str) -> None:
    end_bar_line()
    with _quietly():  # a closed or full stderr cannot take the message: the status says it
        sys.stderr.write(message + "\n")
        sys.stderr.flush()


def no_picture(prog: str, option: str = "--plot") -> None:
    """The line a command prints where ``option`` asks for a picture and matplotlib is
    missing: the command that installs it into the Python running svmeval; the run still
    succeeds. Said once a run, however many pictures go undrawn."""
    from svmeval._extras import install_command

    if "plot" in _Line.said:
        return
    _Line.said.add("plot")
    _write_line(
        f"{prog}: {option}: no picture drawn: matplotlib is not installed; "
        f"install it with: {install_command('plot')}"
    )


def say(line: str) -> None:
    """One line on standard output, flushed (grid.py's lines, as they come): a full or closed
    standard output is one line, not a traceback."""
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or "closed"
        with _quietly():  # what could not be written must not be tried again at exit
            sys.stdout = open(os.devnull, "w")
        raise output.OutputError(f"standard output: cannot write: {reason}") from None


def read_single_label(path: str, prog: str):
    """The data set of a command that takes one label a sample (svmeval-grid,
    svmeval-compare): multi-label data are refused with words that fit the command."""
    from svmeval.io.data import read_dataset

    try:
        return read_dataset(path)
    except DataFormatError as exc:
        if not exc.message.endswith("use --multilabel"):
            raise
        message = exc.message[: -len("use --multilabel")]
        raise DataFormatError(
            exc.file,
            exc.line,
            f"{message}{prog} takes one label a sample "
            "(svmeval --multilabel -v k evaluates multi-label data)",
        ) from None


class _quietly:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is not None and issubclass(kind, (OSError, ValueError, AttributeError))

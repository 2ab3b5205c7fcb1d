"""``svmeval`` as a drop-in for svm-train, served light: ``svmeval [svm-train's options] -v k
FILE`` of two classes, as LIBSVM's ``tools/grid.py`` and shell loops call it once per
configuration.

Such a call prints svm-train's lines (the accuracy line, each class's precision, recall and
F1). :func:`serve` answers it with the standard library, the C reader, svm-train's option
syntax (:mod:`svmeval.io.svm_train_syntax`, the parser the full command reads the same options
with), LIBSVM's library through the engine's ctypes core (:mod:`svmeval.cv.run.light`, the
engine's light mode), the two-class counts and the lines: no numpy, no option table, no
summary. This module only decides whether to serve a call. Every other command line, and every call the light mode
does not serve, gets None and runs as the full command (:mod:`svmeval.cli.svmeval`), which
reports any problem in its own words: the light path never writes an error of its own, so a bad
option, a bad value or a bad data file says exactly what the full command says.

Served: svm-train's options ``-s -t -d -g -r -c -n -p -m -e -h -b`` (each once, the value as C
reads it: an integer ``[+-]digits``, a number read by C ``strtod``), ``-v k`` and ``-q``, and
one data file (not ``-``), with the report on a pipe, a terminal or a device (a regular file
gets the full command's checks and atomic write); without ``-q``, LIBSVM's messages and, on a
terminal, the progress bar come as the full command writes them.
"""

from __future__ import annotations

import os
import stat

from svmeval.errors import OptionError
from svmeval.io.svm_train_syntax import (
    FIELD_OF_FLAG,
    INT_FIELDS,
    parse_c_double,
    parse_c_int,
    read_option,
)

#: svm-train's training options: flag -> (struct svm_parameter's field, an int field), as
#: svm-train's syntax declares them (:mod:`svmeval.io.svm_train_syntax`)
FLAGS = {flag: (field, field in INT_FIELDS) for flag, field in FIELD_OF_FLAG.items()}
#: the data files read light: regular files up to this size (a run the light mode serves has
#: a few thousand rows at most; a larger file goes to the full command, read once)
MAX_FILE_BYTES = 4 << 20


def _c_int(text: str) -> int | None:
    """``text`` as svm-train's syntax reads an int option's value, or None where it refuses
    it (the full command then says why)."""
    try:
        return parse_c_int("-v", text)
    except OptionError:
        return None


def _c_double(text: str) -> float | None:
    """``text`` as svm-train's syntax reads a number option's value, or None where it
    refuses it (the full command then says why)."""
    try:
        return parse_c_double("-c", text)
    except OptionError:
        return None


def parse(argv: list[str]):
    """``(params, folds, quiet, data_file)`` of a command line the light path serves, else
    None. Each option is read by svm-train's syntax (the full command's parser); this only
    decides what it serves: each option once, ``-v k`` with k >= 2, one data file."""
    params: dict = {}
    folds: int | None = None
    quiet = False
    files: list[str] = []
    i = 0
    try:
        while i < len(argv):
            token = argv[i]
            i += 1
            if token == "-q" and not quiet:
                quiet = True
            elif token == "-v" and folds is None and i < len(argv):
                folds = parse_c_int(token, argv[i])
                i += 1
                if folds < 2:
                    return None
            elif token in FLAGS and FLAGS[token][0] not in params and i < len(argv):
                field, value = read_option(token, argv[i])
                i += 1
                params[field] = value
            elif token.startswith("-") or files:  # another option, "-", a second file name
                return None
            else:
                files.append(token)
    except OptionError:  # a value svm-train's syntax refuses: the full command says why
        return None
    if folds is None or not files:
        return None
    return params, folds, quiet, files[0]


def served_streams(data_file: str) -> bool:
    """The report goes to a pipe, a terminal or a device; the data file is a regular file of
    at most :data:`MAX_FILE_BYTES`."""
    try:
        if stat.S_ISREG(os.fstat(1).st_mode):
            return False
        st = os.stat(data_file)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES


def serve(argv: list[str], interrupts=()) -> int | None:
    """Run the command line ``argv`` light and return its exit status, or None where the full
    command must run it (nothing has been written then). ``interrupts``: non-empty once a
    Ctrl-C was seen (the report is then not written)."""
    parsed = parse(argv)
    if parsed is None:
        return None
    params, folds, quiet, data_file = parsed
    raw = two_class_file(data_file)
    if raw is None:
        return None
    from svmeval.cv.run.light import cross_validate_plain

    def progress():  # the full command's bar (a terminal, without -q), made once served
        from svmeval.progress import make_progress

        return make_progress(enabled=not quiet, total=min(folds, raw.n_samples))

    done = cross_validate_plain(
        raw, params, folds, quiet=quiet, progress=progress, interrupts=interrupts
    )
    return None if done is None else report(done, interrupts)


def two_class_file(data_file: str):
    """The arrays of ``data_file`` (:class:`svmeval.io.raw.RawArrays`) where a light path
    serves it: the streams :func:`served_streams` allows, a file the C reader reads, two
    classes; else None (the full command reads it and says what is wrong, if anything)."""
    if not served_streams(data_file):
        return None
    from svmeval.errors import SvmevalError
    from svmeval.io.raw import read_arrays

    try:
        raw = read_arrays(data_file)
    except (SvmevalError, OSError):  # the full command says what is wrong with it
        return None
    if raw.y is None or len(set(memoryview(raw.y).cast("d").tolist())) != 2:
        return None  # one class, or more: the full report
    return raw


def report(done: tuple, interrupts=(), prog: str = "svmeval") -> int | None:
    """Write the accuracy line and the per-class lines of a light run's ``(y_true, y_pred)``
    on standard output, then the no-label-1 note on standard error (in ``prog``'s name), as
    the full command ``prog`` does; the exit status, or None where the predictions are not of
    two classes. A Ctrl-C seen (``interrupts``) writes nothing."""
    from svmeval.metrics.two_class import svm_train_classes
    from svmeval.report.svm_train import accuracy_lines

    y_true, y_pred = done
    labels, correct, classes = svm_train_classes(y_true, y_pred)
    if len(labels) != 2:  # pragma: no cover - the library predicts the training labels
        return None
    if interrupts:
        raise KeyboardInterrupt
    status = write_report(accuracy_lines(100.0 * correct / len(y_true), classes).encode(), prog)
    note = no_label_one(labels, prog)
    if note is not None and status == 0:
        say(note)
    return status


def say(line: str) -> None:
    """One line on standard error (a note beside the report); a closed or full stderr is
    ignored, as the full command ignores it."""
    import sys

    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def no_label_one(labels, prog: str = "svmeval") -> str | None:
    """The line standard error gets beside svm-train's lines of two-class data that hold no
    label 1 (the patched svm-train's "+1" class, every other label its "-1" class: its +1
    block is then undefined), in the command ``prog``'s name, or None for other data."""
    if len(labels) != 2 or 1.0 in labels:
        return None
    from svmeval.errors import show_label

    shown = " and ".join(show_label(v) for v in labels)
    return (
        f"{prog}: no label 1 in these data (labels {shown}): svm-train's per-class lines "
        "count label 1 as positive and every other label as negative; --full reports each "
        "label's precision, recall and F1"
    )


def write_report(data: bytes, prog: str = "svmeval") -> int:
    """The report on standard output (descriptor 1, not a regular file); a reader that went
    away ends the command quietly with status 1, as the full command ``prog``."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(1, view) :]
    except BrokenPipeError:
        return 1
    except OSError as exc:
        from svmeval.cli import runner
        from svmeval.io import output

        return runner.fail(
            runner.error_line(output.cannot_write("standard output", output.reason_of(exc)), prog)
        )
    return 0

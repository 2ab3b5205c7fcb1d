"""``svmeval-linear`` as a drop-in for LIBLINEAR's ``train -v k``, served light: ``svmeval-linear
[train's options] -v k FILE`` of two classes, as a script calls it once per configuration.

Such a call prints LIBLINEAR's accuracy line and each class's precision, recall and F1.
:func:`serve` answers it with the standard library, the C reader, ``train``'s option syntax
(:mod:`svmeval.io.liblinear_syntax`, which the full command reads the same options with),
LIBLINEAR's library through its ctypes core (:mod:`svmeval.cv.run.linear_light`, LIBLINEAR's
light mode), the two-class counts and the lines (those of ``svmeval``'s drop-in,
:mod:`svmeval.cli.dropin`): no numpy, no option table, no summary. This module only decides
whether to serve a call. Every other command line, and every call the light mode does not
serve, gets None and runs as the full command (:mod:`svmeval.cli.linear`), which reports any
problem in its own words: the light path never writes an error of its own.

Served: ``train``'s training options ``-s -c -p -n -e -B -wi -R`` (each once, a weight once a
label; the value as C reads it), ``-v k`` and ``-q``, a classifier (``-s 0`` to ``7``), one
data file (not ``-``; a model file name after it, which ``-v`` never writes), with the report
on a pipe, a terminal or a device; the folds of ``-s 0`` and ``-s 2`` only where training them
side by side could not make the full command faster (:func:`svmeval.cv.cost.linear_light`).
Without ``-q``, LIBLINEAR's messages come on standard error as the full command writes them.
"""

from __future__ import annotations

from svmeval.errors import OptionError
from svmeval.io.liblinear_syntax import is_valued, read_folds, read_option

#: the command's name (the full command's too: :mod:`svmeval.cli.linear`)
PROG = "svmeval-linear"


def parse(argv: list[str]):
    """``(values, weight, folds, quiet, data_file)`` of a command line the light path serves,
    else None. Each option is read by ``train``'s syntax (the full command's reader); this
    only decides what it serves: each option once, a weight once a label, ``-v k``, one data
    file and at most a model file's name."""
    values: dict = {}
    weight: list = []
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
            elif token == "-R" and "regularize_bias" not in values:
                values["regularize_bias"] = 0
            elif token == "-v" and folds is None and i < len(argv):
                folds = read_folds(argv[i])
                i += 1
            elif is_valued(token) and i < len(argv):
                field, value = read_option(token, argv[i])
                i += 1
                if isinstance(value, tuple):  # -wLABEL: a weight once a label
                    if value[0] in dict(weight):
                        return None
                    weight.append(value)
                elif field in values:
                    return None
                else:
                    values[field] = value
            elif token.startswith("-") or len(files) == 2:  # another option, "-", a third file
                return None
            else:
                files.append(token)
    except OptionError:  # a value train's syntax refuses: the full command says why
        return None
    if folds is None or not files:
        return None
    return values, tuple(weight), folds, quiet, files[0]


def serve(argv: list[str], interrupts=()) -> int | None:
    """Run svmeval-linear's command line ``argv`` light and return its exit status, or None
    where the full command must run it (nothing has been written then). ``interrupts``:
    non-empty once a Ctrl-C was seen (the report is then not written)."""
    parsed = parse(argv)
    if parsed is None:
        return None
    values, weight, folds, quiet, data_file = parsed
    from svmeval.cli.dropin import report, two_class_file

    raw = two_class_file(data_file)
    if raw is None:
        return None
    from svmeval.cv.run.linear_light import cross_validate_linear_plain

    done = cross_validate_linear_plain(raw, values, weight, folds, quiet=quiet)
    return None if done is None else report(done, interrupts, PROG)


def no_label_one_note(labels) -> str | None:
    """svmeval's no-label-1 note (:func:`svmeval.cli.dropin.no_label_one`) in svmeval-linear's
    name, for two-class data whose ``labels`` (ascending) hold no label 1; else None."""
    from svmeval.cli.dropin import no_label_one

    return no_label_one(labels, PROG)

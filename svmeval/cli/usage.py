"""The usage text of each command, made from the option table (:mod:`svmeval.cli.options`)."""

from __future__ import annotations

import textwrap

from svmeval.cli.option_type import COLUMNS
from svmeval.cli.options import (
    GRID,
    GRID_PY_OPTIONS,
    LONG_OPTIONS,
    PROGRAMS,
    STORE,
    SVM_TRAIN_OPTIONS,
    SVMEVAL,
)

__all__ = ["help_hint", "short_usage", "usage_text"]


def _svm_flags() -> str:
    return " ".join(f for o in SVM_TRAIN_OPTIONS if o.svm for f in o.flags)


def usage_text(command: str = SVMEVAL) -> str:
    """The usage text of ``command``, made from the option declarations."""
    program = PROGRAMS[command]
    longs = "".join(o.usage(command) for o in LONG_OPTIONS if command in o.commands)
    if command == SVMEVAL:
        return (
            f"Usage: {program} [options] training_set_file [model_file]\n"
            f"       {program} --score PREDICTIONS_FILE [options] data_file\n"
            "options (as svm-train):\n"
            + "".join(o.usage(command) for o in SVM_TRAIN_OPTIONS)
            + "options svmeval adds:\n"
            + longs
        )
    fold = SVM_TRAIN_OPTIONS[-2].usage(command)
    if command == GRID:
        return (
            f"Usage: {program} [grid_options] [svm_options] dataset\n\n"
            "grid_options (LIBSVM's grid.py options, same meanings and defaults):\n"
            + "".join(o.usage(command) for o in GRID_PY_OPTIONS[:2])
            + fold
            + "".join(o.usage(command) for o in GRID_PY_OPTIONS[2:])
            + f"\noptions {program} adds:\n"
            + longs
            + "\n"
            + _paragraph(
                f"svm_options: svm-train's options ({_svm_flags()} -q), as svmeval reads "
                "them; -c and -g only where -log2c / -log2g is null."
            )
        )
    return (
        f"Usage: {program} [options] data_file -- A_OPTIONS -- B_OPTIONS\n"
        f"       {program} [options] data_file... -- A_OPTIONS -- B_OPTIONS [-- ...]\n"
        f"       {program} --mcnemar PREDICTIONS_A PREDICTIONS_B data_file\n"
        + _paragraph(
            "Runs repeated k-fold cross-validation of LIBSVM configurations (svm-train "
            "options A, B, ...) on the same seeded folds and tests whether they differ in a "
            "figure; several data sets or configurations: the benchmark table, ranks, "
            "Friedman, Nemenyi, Wilcoxon-Holm, win/tie/loss."
        )
        + "options:\n"
        + fold
        + SVM_TRAIN_OPTIONS[-1].usage(command)
        + longs
        + _paragraph(f"A_OPTIONS, B_OPTIONS: svm-train's training options ({_svm_flags()}).")
    )


def _paragraph(text: str) -> str:
    """A paragraph of a usage, filled into 80 columns without indenting its lines."""
    return "".join(line + "\n" for line in textwrap.wrap(text, COLUMNS, break_on_hyphens=False))


def help_hint(command: str = SVMEVAL) -> str:
    """The line that follows an option error and the short usage: where every option is."""
    return f"Try '{PROGRAMS[command]} --help' for every option."


def short_usage(command: str = SVMEVAL) -> str:
    """What a command given no arguments prints (on standard error, exit status 1): its usage
    lines and where every option is, at most three lines, for every command alike."""
    program = PROGRAMS[command]
    if command == SVMEVAL:  # svm-train's first usage line: the usage svm-train prints, shortened
        lines = [
            f"Usage: {program} [options] training_set_file [model_file]",
            f"       {program} --score PREDICTIONS_FILE [options] data_file",
        ]
    elif command == GRID:
        lines = [f"Usage: {program} [grid_options] [svm_options] dataset"]
    elif command == STORE:
        lines = [f"Usage: {program} [options] store_file"]
    else:
        lines = [
            f"Usage: {program} [options] data_file... -- A_OPTIONS -- B_OPTIONS [-- ...]",
            f"       {program} --mcnemar PREDICTIONS_A PREDICTIONS_B data_file",
        ]
    return "\n".join(lines + [help_hint(command)]) + "\n"

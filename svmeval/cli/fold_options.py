"""The options that say where a cross-validation's folds come from when they are not LIBSVM's
(``--groups FILE``, ``--given-folds FILE``; ``-v groups`` is -v's own reader), which
:mod:`svmeval.cli.options` adds to its table.
"""

from __future__ import annotations

from svmeval.cli.option_type import COMPARE, GRID, SVMEVAL, Option
from svmeval.cli.values import GROUP_FOLDS
from svmeval.errors import OptionError, SvmevalError, show_path

__all__ = ["FOLD_OPTIONS", "FOLD_SOURCES", "check_fold_options", "fold_inputs", "fold_sources"]

#: the commands that take --groups and --given-folds
FOLD_SOURCES = frozenset({SVMEVAL, GRID, COMPARE})

FOLD_OPTIONS = (
    Option(
        ("--groups",),
        "FILE",
        "groups",
        "str",
        "each row's group, one id (any text) a line in the data file's order: no group\n"
        "\tis in two folds; classes and fold sizes balanced as the groups allow (the same\n"
        "\tfolds for the same --seed). -v groups: one fold a group (leave-one-group-out)",
        commands=FOLD_SOURCES,
    ),
    Option(
        ("--given-folds",),
        "FILE",
        "given_folds",
        "str",
        "cross-validate on these folds instead of LIBSVM's: one fold, 1..k, a line in the\n"
        "\tdata file's order (what --folds FILE writes); -v may be left out",
        commands=FOLD_SOURCES,
    ),
)


def check_fold_options(o) -> None:
    """-v groups, --groups and --given-folds of a command's options ``o`` (``nr_fold``,
    ``groups``, ``given_folds``, ``repeat``), before any file is read."""
    if o.nr_fold == GROUP_FOLDS and o.groups is None:
        raise OptionError("-v groups: one fold a group needs --groups FILE")
    if o.groups is not None and o.given_folds is not None:
        raise OptionError("--groups and --given-folds: the folds come from one of them")
    if o.given_folds is not None and getattr(o, "repeat", 1) != 1:
        raise OptionError("--given-folds: the folds are given, so every repetition's are the same")


def fold_sources(o, n_rows: int, default: int = 0) -> tuple[int, dict]:
    """``(k, the library's groups= or given_folds=)`` of the options ``o``: the file read and
    checked against the data's ``n_rows`` rows (one line naming the file and the line where
    it does not fit), before any work. With --given-folds, -v must say the file's k, unless
    it is the command's ``default`` (-v left out)."""
    if o.groups is None and o.given_folds is None:
        return o.nr_fold, {}
    from svmeval.cv.plan.given import fold_source

    source = fold_source(o.groups, o.given_folds, n_rows)
    if source is None:  # pragma: no cover - one of them is given
        return o.nr_fold, {}
    if o.given_folds is not None:
        if o.nr_fold not in (default, source.n_groups):
            raise SvmevalError(
                f"{show_path(source.origin)}: {source.n_groups} folds; -v asks for {o.nr_fold}"
            )
        return source.n_groups, {"given_folds": o.given_folds}
    folds = source.n_groups if o.nr_fold == GROUP_FOLDS else o.nr_fold
    if folds > source.n_groups:
        raise SvmevalError(
            f"{show_path(source.origin)}: {source.n_groups} groups: -v {folds} needs "
            f"at least {folds} (-v groups: one fold a group)"
        )
    return folds, {"groups": o.groups}


def fold_inputs(o) -> list[tuple[str, str]]:
    """The files --groups and --given-folds read (no output may be one of them)."""
    out = []
    if o.groups:
        out.append(("the groups file", o.groups))
    if o.given_folds:
        out.append(("the folds file", o.given_folds))
    return out

"""The options of preprocessing learned inside the folds (``--scale``, ``--scale-x L,U``,
``--scale-y L,U``, ``--select K``), which :mod:`svmeval.cli.options` adds to its table: what
they go with, the :class:`~svmeval.preprocess.ScaleSpec` they ask for, and the block a report
with ``--select`` ends with.
"""

from __future__ import annotations

from svmeval.cli.option_type import ALL, SVMEVAL, Option
from svmeval.cli.values import parse_limits, parse_select
from svmeval.errors import OptionError
from svmeval.params import INT_MAX, SvmParams

__all__ = [
    "PREPROCESS_OPTIONS",
    "check_compare_preprocessing",
    "check_grid_preprocessing",
    "check_preprocessing",
    "preprocessing_flags",
    "preprocessing_key",
    "scale_spec",
    "with_selection",
]

#: the commands that take the preprocessing options (--leak: svmeval's alone)
_EVERY = ALL

PREPROCESS_OPTIONS = (
    Option(
        ("--leak",),
        "",
        "leak",
        "flag",
        "with --scale or --select: also run the same configuration on the same folds\n"
        "\twith the preprocessing learned on the whole file first (svm-scale of the whole\n"
        "\tfile, as tools/easy.py; fselect.py's ranking of it); report both figures, their\n"
        "\tdifference and the corrected resampled t-test over the folds; with --select\n"
        "\tK1,K2,...: fselect.py's figure (the whole file ranked, the best size by CV)\n"
        "\tbeside nested CV's (each outer training set ranks and chooses its own)",
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--scale",),
        "",
        "scale",
        "flag",
        "scale inside the folds as svm-scale -l -1 -u 1: each fold's training rows on\n"
        "\ttheir own ranges (svm-scale -s), its test rows with those factors (-r);\n"
        "\tsvmeval without -v trains on the whole file scaled and writes its range file\n"
        "\tbeside the model as MODEL.range (--select: MODEL.features, the features kept)",
        commands=_EVERY,
    ),
    Option(
        ("--scale-x",),
        "L,U",
        "scale_x",
        "str",
        "as --scale, to [L, U] (svm-scale's -l L -u U; --scale-x 0,1 keeps sparse rows\n\tsparse)",
        commands=_EVERY,
        read=parse_limits,
    ),
    Option(
        ("--scale-y",),
        "L,U",
        "scale_y",
        "str",
        "regression (-s 3, -s 4): also scale the targets to [L, U] on each training\n"
        "\tfold (svm-scale's -y L U); predictions are reported in the data's units",
        commands=_EVERY,
        read=parse_limits,
    ),
    Option(
        ("--select",),
        "K",
        "select",
        "int",
        "keep the K features of highest F-score (LIBSVM's tools/fselect.py), ranked on\n"
        "\teach training fold after any scaling (svmeval's report then says how often\n"
        '\teach feature was kept; --format json: "selected", each fold\'s features;\n'
        "\tC-SVC, nu-SVC). Sizes K1,K2,... (or fselect: fselect.py's list of sizes)\n"
        "\tare searched: by svmeval-grid with C and gamma, by svmeval --leak",
        range=(1, INT_MAX, None),
        commands=_EVERY,
        read=parse_select,
    ),
)


def preprocessing_flags(options) -> list[str]:
    """The preprocessing flags a command line gives."""
    return [
        flag
        for flag, value in (
            ("--scale", options.scale),
            ("--scale-x", options.scale_x),
            ("--scale-y", options.scale_y),
            ("--select", options.select),
        )
        if value
    ]


def scale_spec(options):
    """The :class:`~svmeval.preprocess.ScaleSpec` of --scale, --scale-x and --scale-y (None:
    no scaling)."""
    if not (options.scale or options.scale_x or options.scale_y):
        return None
    from svmeval.preprocess import ScaleSpec

    lower, upper = options.scale_x or (-1.0, 1.0)
    return ScaleSpec(lower, upper, y=options.scale_y)


def preprocessing_key(options) -> str:
    """What a command line's preprocessing options learn inside the folds, as a results
    store's key and a ``-out`` file's line hold it ("" for none; sizes searched: ``select``
    and the list as given)."""
    from svmeval.preprocess import Preprocessing

    if is_search(options.select):
        learned = Preprocessing.of(scale_spec(options), None)
        scaled = "" if learned is None else learned.key() + "; "
        return f"{scaled}select {sizes_text(options.select)}"
    learned = Preprocessing.of(scale_spec(options), options.select)
    return "" if learned is None else learned.key()


def is_search(select) -> bool:
    """Whether ``--select`` gives sizes to search (a list, or fselect), not one K."""
    return isinstance(select, (tuple, str))


def sizes_text(select) -> str:
    """``--select``'s sizes as the command line gave them."""
    return select if isinstance(select, str) else ",".join(map(str, select))


def refuse_sizes(options, where: str) -> None:
    """A list of sizes where only one K means something: one line naming what searches it."""
    if is_search(options.select):
        raise OptionError(
            f"--select {sizes_text(options.select)}: sizes are searched by svmeval-grid "
            f"(or compared by svmeval --leak); {where} takes one K"
        )


def check_preprocessing(options) -> None:
    """--scale, --scale-x, --scale-y and --select: what they go with."""
    used = preprocessing_flags(options)
    if not used:
        if options.leak:
            raise OptionError("--leak measures what --scale or --select avoids: give one")
        return
    named = ", ".join(used)
    others = [
        flag
        for flag, value in (
            ("--score", options.score is not None),
            ("--multilabel", options.multilabel),
            ("--permutations (--leak)", options.leak and options.permutations is not None),
            ("--threshold (--leak)", options.leak and options.threshold is not None),
            (
                "--format csv/html (--leak: text or json)",
                options.leak and options.format not in ("text", "json"),
            ),
            (
                "--predictions/--folds/--output/--plot (--leak)",
                options.leak
                and any((options.predictions, options.folds_file, options.output, options.plot)),
            ),
        )
        if value
    ]
    if others:
        raise OptionError(f"{named}: not with {', '.join(others)}")
    if options.params.kernel_type == 4:
        raise OptionError(f"{named}: a precomputed kernel (-t 4) has no features to scale")
    if options.scale_y and not options.params.is_regression:
        raise OptionError("--scale-y scales regression targets: only with -s 3 or -s 4")
    if options.select and not options.params.is_classification:
        raise OptionError("--select ranks features by F-score over classes: -s 0 or -s 1 only")
    if not options.leak:
        refuse_sizes(options, "a cross-validation of one configuration")


def with_selection(options, result, report: str) -> str:
    """``report``, followed in text by how many folds kept each feature (--select); in JSON
    with each fold's kept features as ``"selected"``, the key ``CVResult.to_dict()`` gives."""
    if options.format not in ("text", "json") or not result.selected:
        return report
    from svmeval.report.preprocessing import selection_json, selection_lines

    if options.format == "json":
        return selection_json(report, result)

    gap = "" if report.endswith("\n\n") else "\n"
    return report + gap + selection_lines(result)


def check_grid_preprocessing(o) -> None:
    """svmeval-grid's --scale, --scale-x, --scale-y and --select: what they go with."""
    used = preprocessing_flags(o)
    if not used:
        return
    named = ", ".join(used)
    if o.refit is not None and is_search(o.select):  # the refit model needs one K
        raise OptionError(f"--select {sizes_text(o.select)}: not with --refit (give one K)")
    if o.params.kernel_type == 4:
        raise OptionError(f"{named}: a precomputed kernel (-t 4) has no features to scale")
    if o.scale_y and not o.params.is_regression:
        raise OptionError("--scale-y scales regression targets: only with -s 3 or -s 4")
    if o.select and not o.params.is_classification:
        raise OptionError("--select ranks features by F-score over classes: -s 0 or -s 1 only")


def check_compare_preprocessing(o) -> None:
    """svmeval-compare's --scale, --scale-x, --scale-y and --select: what they go with (every
    configuration's folds learn the same preprocessing)."""
    used = preprocessing_flags(o)
    if not used:
        return
    named = ", ".join(used)
    if o.mcnemar:  # no folds are run
        raise OptionError(f"{named}: not with --mcnemar")
    params = o.params or (o.params_a, o.params_b)
    if any(not isinstance(p, SvmParams) for p in params):  # a linear: configuration
        raise OptionError(
            f"{named}: learned inside LIBSVM's folds only, not with a LIBLINEAR configuration"
        )
    if any(p.kernel_type == 4 for p in params):
        raise OptionError(f"{named}: a precomputed kernel (-t 4) has no features to scale")
    if o.scale_y and not all(p.is_regression for p in params):
        raise OptionError("--scale-y scales regression targets: only with -s 3 or -s 4")
    if o.select and not all(p.is_classification for p in params):
        raise OptionError("--select ranks features by F-score over classes: -s 0 or -s 1 only")
    refuse_sizes(o, "a comparison")


def run_leak(options, dataset, folds: int, sources: dict) -> str:
    """--leak's report: :func:`~svmeval.workflows.leak.leak_check` of the command line."""
    from svmeval.report import render
    from svmeval.workflows.leak import leak_check

    result = leak_check(
        dataset,
        options.params,
        folds,
        scale=scale_spec(options),
        select=options.select,
        **sources,
        seed=options.seed,
        repeat=options.repeat,
        jobs=options.jobs,
        quiet=options.quiet,
    )
    return render(result, format=options.format, digits=options.digits)

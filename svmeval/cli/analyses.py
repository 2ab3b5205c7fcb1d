"""What ``svmeval`` runs beside a plain cross-validation: the permutation test
(``--permutations N``) and the tuned decision threshold (``--threshold CRITERION``): their
options checked before any data are read (:func:`check_permutations`,
:func:`check_threshold`), the run (:func:`run`: the library's result, which the command
renders) and its picture (:func:`draw`)."""

from __future__ import annotations

from svmeval.cli import runner
from svmeval.errors import ArgumentError, OptionError, SvmevalError, show_path
from svmeval.progress import make_progress

__all__ = ["check_permutations", "check_threshold", "draw", "run"]

PROG = "svmeval"


def check_permutations(options) -> None:
    """--permutations: a single-label cross-validation's figure, its report alone."""
    if not options.cross_validation or options.score is not None:
        raise OptionError("--permutations tests a cross-validation: give -v k")
    others = [
        flag
        for flag, given in (
            ("--multilabel", options.multilabel),
            ("--repeat", options.repeat != 1),
            ("--predictions", options.predictions),
            ("--folds", options.folds_file),
            ("--ci", options.ci is not None),
            ("-b 1", options.params.probability),
            ("-s 2", options.params.svm_type == 2),
        )
        if given
    ]
    if others:
        raise OptionError(f"--permutations: not with {', '.join(others)}")


def check_threshold(options) -> None:
    """--threshold: a single-label cross-validation, its report alone."""
    if not options.cross_validation or options.score is not None:
        raise OptionError("--threshold tunes on a cross-validation's scores: give -v k")
    others = [
        flag
        for flag, given in (
            ("--multilabel", options.multilabel),
            ("--permutations", options.permutations is not None),
            ("--criterion", options.criterion is not None),
            ("--predictions", options.predictions),
            ("--folds", options.folds_file),
            ("--ci", options.ci is not None),
            ("--full", options.full),
        )
        if given
    ]
    if others:
        raise OptionError(f"--threshold: not with {', '.join(others)}")
    from svmeval.workflows.threshold import parse_criterion

    try:  # refused before the data are read
        parse_criterion(options.threshold)
    except ArgumentError as exc:
        raise OptionError(f"--threshold {exc.message}") from None


def run(options, dataset):
    """The permutation test's or the tuned threshold's result, as the options ask."""
    if options.permutations is not None:
        return _permutations(options, dataset)
    return _threshold(options, dataset)


def _permutations(options, dataset):
    """--permutations N -v k: the permutation test."""
    from svmeval.cli.fold_options import fold_sources
    from svmeval.workflows.permutation import permutation_test

    folds, sources = fold_sources(options, dataset.n_samples)
    return permutation_test(
        dataset,
        options.params,
        folds,
        **sources,
        permutations=options.permutations,
        seed=options.seed,
        criterion=options.criterion,
        pos_label=options.pos_label,
        zero_division=options.zero_division,
        jobs=options.jobs,
        client=options.dask,
        progress=runner.show_bar(make_progress(enabled=not options.quiet, unit="permutations")),
    )


def _threshold(options, dataset):
    """--threshold CRITERION -v k [--repeat R] [--dask ADDRESS]: the tuned threshold (inner
    folds: k too)."""
    from svmeval.cli.fold_options import fold_sources
    from svmeval.workflows.threshold import tune_threshold

    folds, sources = fold_sources(options, dataset.n_samples)
    try:
        return tune_threshold(
            dataset,
            options.params,
            folds,
            **sources,
            criterion=options.threshold,
            inner_folds=options.nr_fold if options.given_folds is None else 5,
            seed=options.seed,
            repeat=options.repeat,
            pos_label=options.pos_label,
            jobs=options.jobs,
            client=options.dask,
            progress=runner.show_bar(
                make_progress(enabled=not options.quiet, unit="cross-validations")
            ),
        )
    except ArgumentError as exc:  # the library's criterion and params: this command's words
        if exc.argument == "criterion":
            raise SvmevalError(f"--threshold {exc.message}") from None
        if exc.argument == "data":  # two-class data: the file that is not
            raise SvmevalError(f"{show_path(dataset.name)}: --threshold: {exc.message}") from None
        if exc.argument == "params":
            raise SvmevalError(f"--threshold: {exc.message}") from None
        raise


def draw(result, path: str | None) -> None:
    """--plot: the result's picture (the null distribution; the sheet with the operating
    points); without matplotlib one line says how to install it and the run still succeeds."""
    if not path:
        return
    from svmeval.report import plot as sheet
    from svmeval.report.pictures import plot

    try:
        plot(result, path)
    except sheet.PlotUnavailable:
        runner.no_picture(PROG)

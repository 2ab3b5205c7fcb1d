"""What ``svmeval`` runs beside a plain cross-validation: the permutation test
(``--permutations N``) and the tuned decision threshold (``--threshold CRITERION``): their
options checked before any data are read (:func:`check_permutations`,
:func:`check_threshold`), the run (:func:`run`: the library's result, which the command
renders) and its picture (:func:`draw`)."""

from __future__ import annotations

from contextlib import contextmanager

from svmeval.cli import runner
from svmeval.cli.preprocess_options import scale_spec
from svmeval.errors import ArgumentError, OptionError, SvmevalError, show_path
from svmeval.progress import make_progress

__all__ = ["check_linear", "check_permutations", "check_threshold", "draw", "run", "run_linear"]

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
    _check_criterion(options.threshold)


def _check_criterion(text: str) -> None:
    from svmeval.workflows.threshold import parse_criterion

    try:  # refused before the data are read
        parse_criterion(text)
    except ArgumentError as exc:
        raise OptionError(f"--threshold {exc.message}") from None


def _refuse(flag: str, others) -> None:
    """``flag: not with A, B`` for the options of ``others`` ((flag, given) pairs) given."""
    given = [other for other, is_given in others if is_given]
    if given:
        raise OptionError(f"{flag}: not with {', '.join(given)}")


def check_linear(options) -> None:
    """svmeval-linear's --permutations and --threshold (``options``: its LinearOptions), as
    svmeval's: a cross-validation (-v n), its report alone."""
    from svmeval.params import LinearParams

    if options.permutations is None and options.threshold is None:
        return
    solver = options.values.get("solver_type", 1)
    one_class = solver == 21
    flag = "--permutations" if options.permutations is not None else "--threshold"
    common = (("-C", options.search), ("--store", options.store is not None))
    if options.permutations is not None:
        _refuse(flag, (*common, ("--repeat", options.repeat != 1), ("--full", options.full)))
        if one_class:
            raise OptionError("--permutations: a one-class SVM (-s 21) has no figure to test")
    if options.threshold is not None:
        _refuse(
            "--threshold",
            (
                *common,
                ("--permutations", options.permutations is not None),
                ("--criterion", options.criterion is not None),
                ("--full", options.full),
            ),
        )
        if one_class:
            raise OptionError(
                "--threshold: a one-class SVM (-s 21) has no classes to move a decision "
                "threshold between"
            )
        if LinearParams(solver_type=solver).is_regression:
            raise OptionError(
                "--threshold: a regression (-s 11, -s 12, -s 13) has no decision threshold"
            )
        _check_criterion(options.threshold)


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
        scale=scale_spec(options),
        select=options.select,
    )


def _threshold(options, dataset):
    """--threshold CRITERION -v k [--repeat R] [--dask ADDRESS]: the tuned threshold (inner
    folds: k too)."""
    from svmeval.cli.fold_options import fold_sources
    from svmeval.workflows.threshold import tune_threshold

    folds, sources = fold_sources(options, dataset.n_samples)
    with _threshold_words(dataset):
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
            scale=scale_spec(options),
            select=options.select,
        )


@contextmanager
def _threshold_words(dataset):
    """The library's criterion, data and params refused in the command's words."""
    try:
        yield
    except ArgumentError as exc:
        if exc.argument == "criterion":
            raise SvmevalError(f"--threshold {exc.message}") from None
        if exc.argument == "data":  # two-class data: the file that is not
            raise SvmevalError(f"{show_path(dataset.name)}: --threshold: {exc.message}") from None
        if exc.argument == "params":
            raise SvmevalError(f"--threshold: {exc.message}") from None
        raise


def run_linear(options, dataset, params):
    """svmeval-linear's --permutations N or --threshold CRITERION with -v n: the library's
    permutation_test or tune_threshold of the LinearParams ``params``, on svmeval's folds
    (LIBSVM's draw after srand(--seed), as the library runs a LinearParams), the inner
    folds of --threshold n too; with --dask, on the cluster."""
    seed = options.seed
    bar = runner.show_bar(
        make_progress(
            enabled=not options.quiet,
            unit="permutations" if options.permutations is not None else "cross-validations",
        )
    )
    if options.permutations is not None:
        from svmeval.workflows.permutation import permutation_test

        return permutation_test(
            dataset,
            params,
            options.nr_fold,
            permutations=options.permutations,
            seed=seed,
            criterion=options.criterion,
            progress=bar,
            client=options.dask,
            jobs=options.jobs,
        )
    from svmeval.workflows.threshold import tune_threshold

    with _threshold_words(dataset):
        return tune_threshold(
            dataset,
            params,
            options.nr_fold,
            criterion=options.threshold,
            inner_folds=options.nr_fold,
            seed=seed,
            repeat=options.repeat,
            progress=bar,
            client=options.dask,
            jobs=options.jobs,
        )


def draw(result, path: str | None, prog: str = PROG) -> None:
    """--plot: the result's picture (the null distribution; the sheet with the operating
    points); without matplotlib one line says how to install it and the run still succeeds."""
    if not path:
        return
    from svmeval.report import plot as sheet
    from svmeval.report.pictures import plot

    try:
        plot(result, path)
    except sheet.PlotUnavailable:
        runner.no_picture(prog)

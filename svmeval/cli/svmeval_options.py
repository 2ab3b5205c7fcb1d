"""What one ``svmeval`` command line asks for (:class:`Options`): its options read with the
option table's rules (:func:`~svmeval.cli.scan.scan` over :data:`~svmeval.cli.options.SVMEVAL`'s
options) and checked together, each wrong combination refused with one line
(:class:`~svmeval.errors.OptionError`) before any file is read."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from svmeval.cli import analyses
from svmeval.cli.fold_options import check_fold_options
from svmeval.cli.options import SVMEVAL, TABLE_FORMATS
from svmeval.cli.preprocess_options import check_preprocessing
from svmeval.cli.scan import asks_for_help, scan
from svmeval.cli.values import GROUP_FOLDS, check_jobs_or_dask
from svmeval.errors import OptionError, ParameterError, show_path
from svmeval.params import SvmParams


@dataclass(frozen=True)
class Options:
    """Everything one svmeval command line asks for."""

    params: SvmParams = field(default_factory=SvmParams)
    nr_fold: int = 0  # 0: train mode (no -v)
    quiet: bool = False
    data_file: str = ""
    model_file: str = ""  # "" where the run writes no model (-v, --score)
    seed: int = 1
    repeat: int = 1
    jobs: int | None = None
    dask: str | None = None
    store: str | None = None  # --store FILE: the results store
    pos_label: float | None = None
    predictions: str | None = None
    folds_file: str | None = None
    groups: str | None = None  # --groups FILE
    given_folds: str | None = None  # --given-folds FILE
    scale: bool = False  # --scale, --scale-x L,U, --scale-y L,U, --select K: inside the folds
    scale_x: tuple | None = None
    scale_y: tuple | None = None
    select: int | tuple[int, ...] | str | None = None
    leak: bool = False
    score: str | None = None
    multilabel: bool = False
    format: str = "text"
    digits: int = 4
    zero_division: float = 0.0
    output: str | None = None
    plot: str | None = None
    full: bool = False
    ci: float | None = None
    bootstrap: int = 1000
    permutations: int | None = None
    threshold: str | None = None
    criterion: str | None = None
    help: bool = False

    @property
    def cross_validation(self) -> bool:
        return self.nr_fold >= 2 or self.nr_fold == GROUP_FOLDS or self.given_folds is not None


def parse_args(argv: list[str]) -> Options:
    """Parse a command line (without the program name) into :class:`Options`; every problem
    raises :class:`OptionError`. svm-train's options may come before or after the file names;
    ``-`` alone is a file (standard input); a long option's value may follow ``=``."""
    if asks_for_help(argv):
        return Options(help=True)
    found = scan(argv, SVMEVAL)
    try:
        svm_params = SvmParams(**found.params, weight=tuple(found.weights))
    except ParameterError as exc:  # pragma: no cover - every value is checked above
        raise OptionError(str(exc)) from None
    options = Options(params=svm_params, **found.values)
    return _check(options, found.positional + (found.rest or []))


def _only_with_cv(options: Options) -> list[str]:
    return [
        name
        for name, value in (
            ("--predictions", options.predictions),
            ("--folds", options.folds_file),
            ("--groups", options.groups),
            ("--repeat", options.repeat != 1),
            ("--dask", options.dask),
            ("--output", options.output),
            ("--full", options.full),
            ("--plot", options.plot),
        )
        if value
    ]


def _check(options: Options, positional: list[str]) -> Options:
    if not positional:
        raise OptionError("no data file given")
    if len(positional) > 2:
        raise OptionError(f"too many file names: {' '.join(map(show_path, positional))}")
    data_file = positional[0]
    model_file = positional[1] if len(positional) == 2 else None
    if options.score is not None and model_file is not None:
        raise OptionError("--score takes one data file, not a model file")
    if options.score is None and not options.cross_validation:
        if model_file is None:
            model_file = os.path.basename(data_file) + ".model"
        used = _only_with_cv(options)
        if used:
            raise OptionError(f"{', '.join(used)}: only with -v k (cross-validation) or --score")
        if options.leak:  # the model is trained on the whole file: nothing to compare
            raise OptionError("--leak: only with -v k (cross-validation)")
    if options.score is not None and (
        options.cross_validation or options.predictions or options.dask or options.folds_file
    ):
        raise OptionError(
            "--score reports on existing predictions: no -v, no --predictions, "
            "no --folds, no --dask"
        )
    _check_fold_sources(options)
    check_preprocessing(options)
    if options.format in TABLE_FORMATS:
        raise OptionError(
            f"--format {options.format}: svmeval-compare's benchmark table only "
            "(svmeval: text, json, csv or html)"
        )
    if options.threshold is not None:
        analyses.check_threshold(options)
    if options.permutations is not None:
        analyses.check_permutations(options)
    elif options.criterion is not None:
        raise OptionError(
            "--criterion: svmeval reports every figure; it chooses the one that --permutations tests"
        )
    if options.ci is None and options.bootstrap != 1000:
        raise OptionError("--bootstrap sets the resamples of --ci: give --ci LEVEL too")
    if options.ci is not None and (
        options.multilabel
        or options.score is not None
        or not options.cross_validation
        or not options.params.is_classification
    ):
        raise OptionError(
            "--ci: confidence intervals of a classification's cross-validation (-v k) "
            "only: not with --multilabel, --score, -s 2, -s 3 or -s 4"
        )
    if options.store is not None and not options.cross_validation:
        raise OptionError("--store keeps the folds of a cross-validation: only with -v k")
    if options.dask is not None and options.multilabel:
        raise OptionError("--dask runs single-label cross-validation; not with --multilabel")
    check_jobs_or_dask(options.jobs, options.dask)
    return replace(options, data_file=data_file, model_file=model_file or "")


def _check_fold_sources(options: Options) -> None:
    """--groups, --given-folds and -v groups: what they go with."""
    check_fold_options(options)
    if options.given_folds is None and options.groups is None:
        return
    flag = "--groups" if options.groups is not None else "--given-folds"
    if options.score is not None:
        raise OptionError(f"{flag}: cross-validation's folds; not with --score")
    if options.threshold is not None and options.nr_fold == GROUP_FOLDS:
        raise OptionError("--threshold: -v k with --groups (the inner folds are k too)")

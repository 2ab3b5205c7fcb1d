"""``svmeval``: svm-train's command line (train, or -v k cross-validation) with svmeval's
report, and ``--score`` of an existing predictions file. Thin over the library: parse, call,
print (:mod:`svmeval.cli.runner` turns errors into one line and checks the outputs first). The
command line is read into :class:`~svmeval.cli.svmeval_options.Options` and checked by
:mod:`svmeval.cli.svmeval_options` (``Options`` and ``parse_args`` are kept here too)."""

from __future__ import annotations

import time
import warnings
from dataclasses import replace

from svmeval.cli import analyses, runner
from svmeval.cli.fold_options import fold_inputs, fold_sources
from svmeval.cli.options import SVMEVAL
from svmeval.cli.preprocess_options import run_leak, scale_spec, with_selection
from svmeval.cli.svmeval_options import Options, parse_args
from svmeval.cli.usage import usage_text

# Only what every run needs is imported here: LIBSVM, numpy, the summaries and the reporters
# are imported by the functions that use them, so that --help and option errors answer at once
# and a Ctrl-C while they load is reported as any other.
from svmeval.errors import ArgumentError, SvmevalError, show_path
from svmeval.io import output
from svmeval.progress import make_progress

PROG = "svmeval"
USAGE = usage_text(SVMEVAL)


def _parse(argv: list[str]) -> Options | None:
    options = parse_args(argv)
    if options.help:
        return None
    if options.quiet:  # -q silences numpy's warnings too
        warnings.simplefilter("ignore")
    if options.plot:
        from svmeval.report import plot

        plot.check_path(options.plot)  # a name it cannot write is refused before the run
    return options


def main(argv: list[str] | None = None) -> int:
    return runner.main(COMMAND, argv)


def outputs_of(options: Options) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(outputs, inputs)`` of a run, each ``(what, path)``: what it writes and reads."""
    inputs = [("the data file", options.data_file)]
    if options.score is not None:
        inputs.append(("the predictions file", options.score))
    if options.score is None and not options.cross_validation:
        from svmeval.cv.run.preprocessed import side_files
        from svmeval.preprocess import Preprocessing

        learned = Preprocessing.of(scale_spec(options), options.select)
        return [("the model file", options.model_file)] + [
            (what, path) for what, path in side_files(options.model_file, learned)
        ], inputs
    outputs = []
    if options.predictions:
        outputs.append(("--predictions", options.predictions))
    if options.folds_file:
        outputs.append(("--folds", options.folds_file))
    inputs += fold_inputs(options)
    outputs.append(("-o", options.output) if options.output else ("the report", output.STDOUT))
    if options.plot:  # written after the report, by its own atomic write
        outputs.append(("--plot", options.plot))
    return outputs, inputs


def check_outputs(options: Options) -> list:
    """Every output checked (and refused if it is an input or another output), and standard
    input checked when the data come from it."""
    return runner.check_files(COMMAND, options)


def run(options: Options) -> int:
    if options.score is not None:
        return score(options, options.score)
    from svmeval.cv import engine
    from svmeval.io import data

    dataset = data.read_dataset(options.data_file, multilabel=options.multilabel)
    if options.multilabel:
        return run_multilabel(options, dataset)
    if options.permutations is not None or options.threshold is not None:
        result = analyses.run(options, dataset)
        emit(options, runner.render_report(result, options.format, digits=options.digits))
        analyses.draw(result, options.plot)  # the picture, after the report
        return 0
    if not options.cross_validation:
        return train(options, dataset)
    folds, sources = fold_sources(options, dataset.n_samples)
    if options.leak:
        emit(options, run_leak(options, dataset, folds, sources))
        return 0
    result = engine.cross_validate(
        dataset,
        options.params,
        folds,
        **sources,
        seed=options.seed,
        repeat=options.repeat,
        jobs=options.jobs,
        quiet=options.quiet,
        client=options.dask,
        progress=runner.show_bar(
            make_progress(
                enabled=not options.quiet,
                total=options.repeat * min(folds, dataset.n_samples),  # 0/N at once
            )
        ),
        scale=scale_spec(options),
        select=options.select,
    )
    predictions = None
    if options.predictions:
        from svmeval.io.predictions import format_predictions

        predictions = format_predictions(result)
    lines = svm_train_report(options, result)
    if lines is not None:
        emit(options, with_selection(options, result, lines), predictions=predictions, folds=result)
        note_no_label_one(options, sorted(set(result.y_true.tolist())))
        return 0
    from svmeval.summary import summarize

    summary = summarize(
        result,
        pos_label=options.pos_label,
        zero_division=options.zero_division,
        meta={"data_file": options.data_file},
        ci=options.ci,
        bootstrap=options.bootstrap,
        seed=options.seed,
    )
    arrays = {}
    if options.format == "html" or options.plot:  # the page's and the sheet's curves
        from svmeval.report import plot

        arrays = plot.result_arrays(result)
    emit(
        options,
        with_selection(options, result, _report(options, summary, arrays)),
        predictions=predictions,
        folds=result,
    )
    if summary.is_binary:
        note_no_label_one(options, summary.classification.labels.tolist())
    draw(options, summary, arrays)
    return 0


def svm_train_report(options: Options, result) -> str | None:
    """The text report when it is svm-train's lines alone (a classifier's cross-validation of
    two classes, once, without --full, --ci or --plot), from the counts of right and
    wrong predictions; None where the report needs the summary (more classes, a regression,
    repetitions, intervals, another format). Neither the figure registry nor the summaries
    are loaded for it: a script that calls svmeval once per configuration pays for what it
    reads."""
    if (
        options.format != "text"
        or options.full
        or options.groups is not None
        or options.given_folds is not None
        or options.plot
        or options.ci is not None
        or options.repeat != 1
        or options.params.is_regression
    ):
        return None
    from svmeval.metrics.two_class import svm_train_classes
    from svmeval.report.svm_train import accuracy_lines

    labels, correct, classes = svm_train_classes(
        result.y_true, result.y_pred, pos_label=options.pos_label
    )
    if len(labels) != 2:  # one class or more: the report adds its tables
        return None
    return accuracy_lines(100.0 * correct / len(result.y_true), classes)


def note_no_label_one(options: Options, labels) -> None:
    """Say on standard error, where svm-train's lines of two-class data without label 1 are the
    whole report (text, no --pos-label, no table after them), that their "+1" class is label 1
    and where each label's figures are."""
    from svmeval.cli.dropin import no_label_one

    alone = not (options.full or options.repeat != 1 or options.ci is not None)
    note = no_label_one(labels)
    if note is not None and alone and options.format == "text" and options.pos_label is None:
        runner.say_on_stderr(note)


def run_multilabel(options: Options, dataset) -> int:
    """--multilabel -v k: binary-relevance cross-validation."""
    from svmeval.cv import multilabel
    from svmeval.io.predictions import format_label_set_predictions
    from svmeval.summary import summarize

    if not options.cross_validation:
        raise SvmevalError("--multilabel needs -v k (binary-relevance cross-validation)")
    if options.repeat > 1 or options.pos_label is not None:
        raise SvmevalError("--repeat and --pos-label do not apply to --multilabel")
    folds, sources = fold_sources(options, dataset.n_samples)
    try:
        result = multilabel.cross_validate_multilabel(
            dataset,
            options.params,
            folds,
            **sources,
            seed=options.seed,
            jobs=options.jobs,
            quiet=options.quiet,
            progress=runner.show_bar(
                make_progress(enabled=not options.quiet, unit="label x fold tasks")
            ),
        )
    except ArgumentError as exc:  # the configuration is the options given with --multilabel
        if exc.argument != "params":
            raise
        raise SvmevalError(f"--multilabel: {exc.message}") from None
    summary = summarize(
        result, zero_division=options.zero_division, meta={"data_file": options.data_file}
    )
    emit(
        options,
        _report(options, summary, {}),
        predictions=format_label_set_predictions(result) if options.predictions else None,
        folds=result,
    )
    draw(options, summary, {})
    return 0


def score_multilabel(options: Options, dataset, predictions_file: str, began: tuple = ()) -> int:
    from svmeval.io.predictions import read_label_set_predictions
    from svmeval.summary import score_label_sets

    sets = read_label_set_predictions(predictions_file, expected=dataset.n_samples)
    summary = score_label_sets(
        dataset,
        sets,
        zero_division=options.zero_division,
        meta={
            "mode": "score",
            "data_file": options.data_file,
            "predictions_file": predictions_file,
        },
    )
    summary = _recorded(options, summary, dataset, "score_label_sets", began)
    emit(options, _report(options, summary, {}))
    draw(options, summary, {})
    return 0


def train(options: Options, dataset) -> int:
    """svm-train without -v: train on the whole file and save the model."""
    from svmeval.cv.training import train_and_save

    train_and_save(
        dataset,
        options.params,
        options.model_file,
        seed=options.seed,
        quiet=options.quiet,
        scale=scale_spec(options),
        select=options.select,
    )
    return 0


def score(options: Options, predictions_file: str) -> int:
    """--score: report on an existing predictions file against a data file's labels."""
    from svmeval.io import data
    from svmeval.io.predictions import read_predictions, read_probabilities
    from svmeval.summary import summarize_predictions
    from svmeval.summary.single import FractionalPredictions

    began = (time.time(), time.perf_counter())
    dataset = data.read_dataset(options.data_file, multilabel=options.multilabel)
    if options.multilabel:
        return score_multilabel(options, dataset, predictions_file, began)
    y_pred = read_predictions(predictions_file, expected=dataset.n_samples)
    try:
        summary = summarize_predictions(
            dataset.y,
            y_pred,
            regression=options.params.is_regression,
            pos_label=options.pos_label,
            zero_division=options.zero_division,
            meta={"data_file": options.data_file, "predictions_file": predictions_file},
        )
    except FractionalPredictions:
        raise SvmevalError(
            f"{show_path(predictions_file)}: predictions are not class labels "
            "(not integers); "
            "give -s 3 or -s 4 to score a regression"
        ) from None
    summary = _recorded(options, summary, dataset, "summarize_predictions", began)
    arrays: dict[str, object] = {"y_true": dataset.y, "y_pred": y_pred}
    page = options.format == "html"  # its sheet draws the curves of -b 1 predictions too
    if not page:
        emit(options, _report(options, summary, arrays))
    probabilities = read_probabilities(predictions_file) if options.plot or page else None
    if probabilities is not None:  # -b 1 predictions: the curves too
        arrays.update(
            scores=probabilities[1], score_labels=probabilities[0], score_source="probabilities"
        )
    if page:
        emit(options, _report(options, summary, arrays))
    draw(options, summary, arrays)
    return 0


def _recorded(options: Options, summary, dataset, function: str, began: tuple):
    """For the HTML page, the scored summary with its provenance: the data set read, the
    predictions file, when the scoring began and how long it took."""
    if options.format != "html" or not began:
        return summary
    from svmeval.cv.collect.provenance import make_record

    call = f"{function}(labels of {options.data_file!r}, predictions of {options.score!r})"
    seconds = time.perf_counter() - began[1]
    return replace(summary, provenance=make_record(call, began[0], seconds, [dataset]))


def _report(options: Options, summary, arrays: dict) -> str:
    """The report in ``--format``; the HTML page draws its sheet from ``arrays``."""
    return runner.render_report(
        summary, options.format, digits=options.digits, full=options.full, arrays=arrays
    )


def draw(options: Options, summary, arrays: dict) -> None:
    """--plot: the figure sheet, after the report; without matplotlib one line says how to
    install it and the run still succeeds."""
    if not options.plot:
        return
    from svmeval.report import plot

    try:
        plot.write_sheet(
            options.plot,
            summary,
            title=plot.sheet_title(summary, options=plot.params_flags(options.params.as_dict())),
            **arrays,
        )
    except plot.PlotUnavailable:
        runner.no_picture(PROG)


def emit(options: Options, text: str, *, predictions: str | None = None, folds=None) -> None:
    """Write the report (and the predictions, and the folds of the CV result ``folds``) where
    the options say: all whole, or none."""
    runner.end_bar_line()
    targets = {t.what: t for t in check_outputs(options)}  # again: the files may have changed
    items: list[tuple[output.Target | str, str | bytes]] = []
    if options.predictions and predictions is not None:
        items.append((targets["--predictions"], predictions))
    if options.folds_file:
        from svmeval.cli.nested import folds_text

        items.append((targets["--folds"], folds_text(folds)))
    items.append((targets["-o" if options.output else "the report"], text))
    output.write_outputs(items)


COMMAND = runner.Command(PROG, USAGE, _parse, outputs_of, run, name=SVMEVAL)

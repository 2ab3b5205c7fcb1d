"""The command line, thin over the library: parse, call, print; errors become one line and exit 1."""

from __future__ import annotations

import os
import sys
import warnings

# Only what every run needs is imported here: LIBSVM, numpy, the summaries and the reporters
# are imported by the functions that use them, so that --help and option errors answer at once
# and a Ctrl-C while they load is reported as any other.
from .errors import (
    ArgumentError,
    DataFormatError,
    OptionError,
    ParameterError,
    SvmevalError,
    show_path,
)
from .io import output
from .options import USAGE, Options, parse_args
from .progress import make_progress

PROG = "svmeval"

#: library arguments as the command line spells them
FLAGS = {"pos_label": "--pos-label", "zero_division": "--zero-division", "repeat": "--repeat",
         "seed": "--seed", "jobs": "--jobs", "client": "--dask"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        options = parse_args(argv)
    except OptionError as exc:
        sys.stderr.write(f"{PROG}: {exc}\n{USAGE}")
        return 1
    if options.help:
        options = None
    elif options.quiet:  # -q silences numpy's warnings too
        warnings.simplefilter("ignore")
    return run_reporting_errors(options)


def run_reporting_errors(options: Options | None) -> int:
    """Run, turning every expected error into one line on stderr and an exit status."""
    try:
        if options is None:  # --help
            output.write_outputs([(output.resolve(output.STDOUT, "the usage"), USAGE)])
            return 0
        check_outputs(options)  # before any work
        return run(options)
    except SvmevalError as exc:
        return _fail(error_line(exc, PROG))
    except KeyboardInterrupt:
        # Folds still training in LIBSVM's C code cannot be stopped from Python, and the
        # interpreter would wait for them at exit: leave at once. Output files are written only
        # whole (temporary file + rename), so none is left half-written.
        _fail(f"{PROG}: interrupted")
        os._exit(130)
    except BrokenPipeError:
        # the reader went away: nothing more to say (nor any more output to flush)
        with _quietly():
            sys.stderr.close()
        return 1
    finally:
        _close_bar()


def error_line(exc: SvmevalError, prog: str) -> str:
    """The one line a typed error becomes on the command line (every svmeval command)."""
    if isinstance(exc, ParameterError):
        return f"ERROR: {exc}"  # svm-train's words for svm_check_parameter
    if isinstance(exc, DataFormatError):
        return str(exc)  # FILE:LINE: reason
    if isinstance(exc, ArgumentError):  # the library names its argument; say the flag instead
        gap = "" if exc.argument == "regression" else " "
        return f"{prog}: {FLAGS.get(exc.argument, exc.argument)}{gap}{exc.message}"
    return f"{prog}: {exc}"


def _fail(message: str) -> int:
    """One line on stderr (after ending a progress bar's line), exit status 1."""
    _close_bar()
    with _quietly():  # a closed or full stderr cannot take the message: the status says it
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    return 1


class _quietly:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is not None and issubclass(kind, (OSError, ValueError, AttributeError))


def outputs_of(options: Options) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(outputs, inputs)`` of a run, each ``(what, path)``: what it writes and reads."""
    inputs = [("the data file", options.data_file)]
    if options.score is not None:
        inputs.append(("the predictions file", options.score))
    if options.score is None and not options.cross_validation:
        return [("the model file", options.model_file)], inputs
    outputs = []
    if options.predictions:
        outputs.append(("--predictions", options.predictions))
    outputs.append(("-o", options.output) if options.output else ("the report", output.STDOUT))
    if options.plot:  # written after the report, by its own atomic write
        outputs.append(("--plot", options.plot))
    return outputs, inputs


def check_outputs(options: Options) -> list:
    """Every output checked (and refused if it is an input or another output), and standard
    input checked when the data come from it."""
    if options.data_file == output.STDOUT:
        output.check_readable_stdin()
    return output.check_outputs(*outputs_of(options))


def _close_bar() -> None:
    if _BAR is not None:
        _BAR.close()


def run(options: Options) -> int:
    from .report import plot

    if options.plot:
        plot.check_path(options.plot)  # a name it cannot write is refused before the run
    if options.score is not None:
        return score(options)
    from . import report
    from .cv import engine
    from .io import data
    from .io.predictions import format_predictions
    from .summary import summarize

    dataset = data.read_dataset(options.data_file, multilabel=options.multilabel)
    if options.multilabel:
        return run_multilabel(options, dataset)
    if not options.cross_validation:
        return train(options, dataset)
    result = engine.cross_validate(
        dataset, options.params, options.nr_fold, seed=options.seed, repeat=options.repeat,
        jobs=options.jobs, quiet=options.quiet, client=options.dask,
        progress=_start_bar(make_progress(enabled=not options.quiet)))
    summary = summarize(result, pos_label=options.pos_label,
                        zero_division=options.zero_division,
                        meta={"data_file": options.data_file})
    emit(options, report.render(summary, format=options.format, digits=options.digits,
                                full=options.full),
         predictions=format_predictions(result) if options.predictions else None)
    draw(options, summary, plot.result_arrays(result))
    return 0


def run_multilabel(options: Options, dataset) -> int:
    """--multilabel -v k: binary-relevance cross-validation."""
    from . import report
    from .cv import multilabel
    from .io.predictions import format_label_set_predictions
    from .summary import summarize

    if not options.cross_validation:
        raise SvmevalError("--multilabel needs -v k (binary-relevance cross-validation)")
    if options.repeat > 1 or options.pos_label is not None:
        raise SvmevalError("--repeat and --pos-label do not apply to --multilabel")
    result = multilabel.cross_validate_multilabel(
        dataset, options.params, options.nr_fold, seed=options.seed, jobs=options.jobs,
        quiet=options.quiet,
        progress=_start_bar(make_progress(enabled=not options.quiet, unit="label x fold tasks")))
    summary = summarize(result, zero_division=options.zero_division,
                        meta={"data_file": options.data_file})
    emit(options, report.render(summary, format=options.format, digits=options.digits,
                                full=options.full),
         predictions=format_label_set_predictions(result) if options.predictions else None)
    draw(options, summary, {})
    return 0


def score_multilabel(options: Options, dataset) -> int:
    from . import report
    from .io.predictions import read_label_set_predictions
    from .summary import score_label_sets

    sets = read_label_set_predictions(options.score, expected=dataset.n_samples)
    summary = score_label_sets(
        dataset, sets, zero_division=options.zero_division,
        meta={"mode": "score", "data_file": options.data_file, "predictions_file": options.score})
    emit(options, report.render(summary, format=options.format, digits=options.digits,
                                full=options.full))
    draw(options, summary, {})
    return 0


def train(options: Options, dataset) -> int:
    """svm-train without -v: train on the whole file and save the model."""
    from .cv import engine

    engine.train_and_save(dataset, options.params, options.model_file, seed=options.seed,
                          quiet=options.quiet)
    return 0


def score(options: Options) -> int:
    """--score: report on an existing predictions file against a data file's labels."""
    from . import report
    from .io import data
    from .io.predictions import read_predictions, read_probabilities
    from .summary import summarize_predictions
    from .summary.single import FractionalPredictions

    dataset = data.read_dataset(options.data_file, multilabel=options.multilabel)
    if options.multilabel:
        return score_multilabel(options, dataset)
    y_pred = read_predictions(options.score, expected=dataset.n_samples)
    try:
        summary = summarize_predictions(
            dataset.y, y_pred, regression=options.params.is_regression,
            pos_label=options.pos_label, zero_division=options.zero_division,
            meta={"data_file": options.data_file, "predictions_file": options.score})
    except FractionalPredictions:
        raise SvmevalError(f"{show_path(options.score)}: predictions are not class labels "
                           "(not integers); "
                           "give -s 3 or -s 4 to score a regression") from None
    emit(options, report.render(summary, format=options.format, digits=options.digits,
                                full=options.full))
    arrays = {"y_true": dataset.y, "y_pred": y_pred}
    probabilities = read_probabilities(options.score) if options.plot else None
    if probabilities is not None:  # -b 1 predictions: the curves too
        arrays.update(scores=probabilities[1], score_labels=probabilities[0],
                      score_source="probabilities")
    draw(options, summary, arrays)
    return 0


_BAR = None  # the progress bar on screen, ended before any message


def _start_bar(bar):
    global _BAR
    _BAR = bar
    return bar


def draw(options: Options, summary, arrays: dict) -> None:
    """--plot: the figure sheet, after the report; without matplotlib one line says how to
    install it and the run still succeeds."""
    if not options.plot:
        return
    from .report import plot

    try:
        plot.write_sheet(options.plot, summary, title=plot.sheet_title(
            summary, options=plot.params_flags(options.params.as_dict())), **arrays)
    except plot.PlotUnavailable:
        sys.stderr.write(f"{PROG}: --plot needs matplotlib: {plot.INSTALL_HINT} "
                         f"(no picture written)\n")


def emit(options: Options, text: str, *, predictions: str | None = None) -> None:
    """Write the report (and the predictions) where the options say: all whole, or none."""
    _close_bar()
    targets = {t.what: t for t in check_outputs(options)}  # again: the files may have changed
    items = [(targets["--predictions"], predictions)] if options.predictions else []
    items.append((targets["-o" if options.output else "the report"], text))
    output.write_outputs(items)

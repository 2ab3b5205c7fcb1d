"""``svmeval-compare``: two LIBSVM configurations on the same folds, or McNemar's test of two
predictions files. Thin over :func:`svmeval.workflows.compare.compare` and
:func:`svmeval.workflows.mcnemar.mcnemar_files`; the options come from the one table
(:mod:`svmeval.cli.options`), and the runner checks every output before any work.

Command line::

    svmeval-compare [options] DATA -- A_OPTIONS -- B_OPTIONS
    svmeval-compare [options] DATA... -- A_OPTIONS -- B_OPTIONS [-- C_OPTIONS ...]
    svmeval-compare --mcnemar PRED_A PRED_B DATA

One data set and two configurations: :func:`~svmeval.workflows.compare.compare`'s report. Several data
sets or configurations (or ``--format markdown|latex``, ``--plot``, ``--test 5x2cv``): the
benchmark (:mod:`svmeval.cli.benchmark`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from svmeval.cli import runner
from svmeval.cli.fold_options import check_fold_options, fold_inputs, fold_sources
from svmeval.cli.options import COMPARE, LINEAR_PREFIX, TABLE_FORMATS, TRAINING
from svmeval.cli.preprocess_options import check_compare_preprocessing, scale_spec
from svmeval.cli.scan import MisplacedOption, asks_for_help, scan
from svmeval.cli.usage import usage_text
from svmeval.cli.values import check_jobs_or_dask
from svmeval.errors import OptionError, ParameterError, show_path
from svmeval.io import output
from svmeval.params import SvmParams
from svmeval.progress import make_progress

PROG = "svmeval-compare"
USAGE = usage_text(COMPARE)


@dataclass(frozen=True)
class CompareOptions:
    """Everything one svmeval-compare command line asks for."""

    files: tuple = ()
    a: tuple = ()  # A's svm-train options, as given
    b: tuple = ()
    params_a: SvmParams = field(default_factory=SvmParams)
    params_b: SvmParams = field(default_factory=SvmParams)
    nr_fold: int = 10
    repeat: int = 10
    seed: int = 1
    criterion: str | None = None
    pos_label: float | None = None
    zero_division: float = 0.0
    jobs: int | None = None
    dask: str | None = None
    store: str | None = None  # --store FILE: the results store
    confidence: float = 0.95
    format: str = "text"
    output: str | None = None
    mcnemar: bool = False
    quiet: bool = True  # LIBSVM's chatter is never shown; -q: no progress bar either
    configurations: tuple = ()  # every configuration's svm-train options, as given
    params: tuple = ()  # their SvmParams
    rope: float | None = None
    draws: int = 50_000  # the Bayesian signed-rank test's Monte-Carlo draws
    test: str = "corrected"
    plot: str | None = None
    given: frozenset = frozenset()  # the options given on the line (their fields)
    groups: str | None = None  # --groups FILE
    given_folds: str | None = None  # --given-folds FILE
    # several data files: each one's --groups and --given-folds, in order ("-": none)
    groups_files: tuple = ()
    given_folds_files: tuple = ()
    scale: bool = False  # --scale, --scale-x L,U, --scale-y L,U, --select K: inside the folds
    scale_x: tuple | None = None
    scale_y: tuple | None = None
    select: int | tuple[int, ...] | str | None = None

    @property
    def benchmark(self) -> bool:
        """A run of several data sets or configurations (the benchmark's report)."""
        return not self.mcnemar and (
            len(self.files) > 1
            or len(self.configurations) > 2
            or self.format in TABLE_FORMATS
            or self.plot is not None
            or self.test != "corrected"
        )


def parse_compare_args(argv: list[str]) -> CompareOptions | None:
    """The options before the first ``--``, then A's and B's svm-train options (None:
    ``--help``)."""
    if asks_for_help(argv):
        return None
    head = scan(argv, COMPARE)
    values = head.values
    files = tuple(head.positional)
    if "draws" in values and (
        values.get("rope") is None or values.get("mcnemar") or len(files) < 2
    ):
        raise OptionError(
            "--draws sets the Monte-Carlo draws of the Bayesian signed-rank test over data "
            "sets: give --rope R and two or more data files"
        )
    if values.get("mcnemar"):
        if values.get("groups") or values.get("given_folds"):
            raise OptionError("--groups, --given-folds: not with --mcnemar (no folds are run)")
        if head.rest is not None:
            raise OptionError("--mcnemar takes two predictions files and a data file, no --")
        if len(files) != 3:
            raise OptionError("--mcnemar needs PREDICTIONS_A PREDICTIONS_B data_file")
        if {"rope", "test", "plot"} & set(values) or values.get("format") in TABLE_FORMATS:
            raise OptionError("--rope, --test, --plot, --format markdown|latex: not with --mcnemar")
        o = CompareOptions(files=files, **values)
        check_compare_preprocessing(o)
        return o
    if head.rest is None or not head.rest or "--" not in head.rest:
        raise OptionError("give the data file, then -- A's svm-train options -- B's")
    if not files:
        raise OptionError("give the data file(s) before the first --")
    check_jobs_or_dask(values.get("jobs"), values.get("dask"))
    configurations = _split(head.rest)
    params = tuple(training_params(c, _letter(i)) for i, c in enumerate(configurations))
    o = CompareOptions(
        files=files,
        a=configurations[0],
        b=configurations[1],
        params_a=params[0],
        params_b=params[1],
        configurations=configurations,
        params=params,
        given=frozenset(values),
        groups_files=tuple(head.every.get("groups", ())),
        given_folds_files=tuple(head.every.get("given_folds", ())),
        **values,
    )
    if o.given_folds is not None and "repeat" not in o.given:
        o = replace(o, repeat=1)  # given folds: one cross-validation of each configuration
    check_compare_preprocessing(o)
    if o.benchmark:
        from svmeval.cli.benchmark import check_benchmark, check_fold_files

        return check_benchmark(check_fold_files(o))
    for flag, every in (("--groups", o.groups_files), ("--given-folds", o.given_folds_files)):
        if len(every) > 1:
            raise OptionError(f"{flag}: given more than once for one data file")
    check_fold_options(o)
    return o


def _letter(i: int) -> str:
    """A, B, ..., Z, then C27, C28, ...: a configuration's name in messages."""
    return chr(ord("A") + i) if i < 26 else f"C{i + 1}"


def _split(rest: list) -> tuple:
    """The configurations' svm-train options: what the ``--`` that follow the first separate."""
    out: list[tuple[str, ...]] = []
    current: list[str] = []
    for token in rest:
        if token == "--":
            out.append(tuple(current))
            current = []
        else:
            current.append(token)
    out.append(tuple(current))
    return tuple(out)


def training_params(tokens, which: str) -> SvmParams:
    """The :class:`~svmeval.params.SvmParams` of svm-train's training options (no file
    names, no -v, no svmeval options: those go before the first ``--``); for options that
    start with ``linear:``, the :class:`~svmeval.params.LinearParams` of LIBLINEAR's
    training options after it (:func:`svmeval.cli.linear.linear_configuration`)."""
    if tokens and tokens[0] == LINEAR_PREFIX:
        from svmeval.cli.linear import linear_configuration

        return linear_configuration(tokens[1:], which)
    try:
        found = scan(list(tokens), TRAINING)
    except MisplacedOption as exc:
        raise OptionError(
            f"{which} options: only svm-train's training options belong there "
            f"({exc.flag} is given); -v, --seed, --repeat go before the first "
            "--"
        ) from None
    except OptionError as exc:
        raise OptionError(f"{which} options: {exc}") from None
    if found.positional or found.rest is not None:
        stray = found.positional[0] if found.positional else "--"
        raise OptionError(
            f"{which} options: {show_path(stray)} is not an option (the data "
            "file goes before the first --)"
        )
    try:
        return SvmParams(**found.params, weight=tuple(found.weights))
    except ParameterError as exc:  # pragma: no cover - every value is checked by the table
        raise OptionError(f"{which} options: {exc}") from None


def files_of(o: CompareOptions) -> tuple[list, list]:
    """``(outputs, inputs)``: the report; the data file (and the predictions files)."""
    outputs = [("-o", o.output) if o.output else ("the report", output.STDOUT)]
    if o.plot:
        outputs.append(("--plot", o.plot))
    if o.mcnemar:
        inputs = [
            ("predictions file A", o.files[0]),
            ("predictions file B", o.files[1]),
            ("the data file", o.files[2]),
        ]
    else:
        inputs = [("the data file", f) for f in o.files]
        if o.benchmark:
            from svmeval.cli.benchmark import fold_files

            inputs += fold_files(o)
        else:
            inputs += fold_inputs(o)
    return outputs, inputs


def main(argv: list[str] | None = None) -> int:
    return runner.main(COMMAND, argv)


def run(o: CompareOptions) -> int:
    from svmeval.workflows.compare import compare
    from svmeval.workflows.mcnemar import mcnemar_files

    if o.benchmark:
        from svmeval.cli.benchmark import run_benchmark_line

        return run_benchmark_line(o, COMMAND)
    if o.mcnemar:
        result = mcnemar_files(o.files[2], o.files[0], o.files[1])
    else:
        dataset = runner.read_single_label(o.files[0], PROG)
        folds, sources = fold_sources(o, dataset.n_samples, default=10)
        total = 2 * o.repeat * min(folds, dataset.n_samples)  # drawn at once: 0/total
        bar = runner.show_bar(make_progress(enabled="quiet" not in o.given, total=total))
        result = compare(
            dataset,
            _given(o.a, o.params_a),  # the options as given: the report shows them so
            _given(o.b, o.params_b),
            folds,
            **sources,
            repeat=o.repeat,
            seed=o.seed,
            criterion=o.criterion,
            pos_label=o.pos_label,
            zero_division=o.zero_division,
            confidence_level=o.confidence,
            jobs=o.jobs,
            client=o.dask,
            rope=o.rope,
            progress=bar,
            scale=scale_spec(o),
            select=o.select,
        )
        runner.end_bar_line()
    text = runner.render_report(result, o.format)
    targets = runner.check_files(COMMAND, o)  # again: the files may have changed meanwhile
    output.write_outputs([(targets[0], text)])
    return 0


def _given(tokens: tuple, params):
    """A configuration for :func:`~svmeval.workflows.compare.compare`: svm-train's options as
    given, or a LIBLINEAR configuration's LinearParams."""
    from svmeval.params import LinearParams

    return params if isinstance(params, LinearParams) else " ".join(tokens)


COMMAND = runner.Command(PROG, USAGE, parse_compare_args, files_of, run, name=COMPARE)

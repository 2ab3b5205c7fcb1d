"""svmeval-linear: a drop-in for LIBLINEAR's ``train -v n``, with svmeval's per-class report.

Every option of LIBLINEAR 2.50's ``train`` with its meaning and default (train.c's
``parse_command_line``, the tolerance ``-e`` per solver), read as svmeval reads svm-train's
(the whole value as C's ``atoi``/``strtod`` reads it, each integer within its C ``int``, each
number finite). The cross-validation is LIBLINEAR's own (:mod:`svmeval.cv.run.linear`): its first
line is ``train -v n``'s, byte for byte; two-class data get the per-class lines of
``svmeval``'s drop-in after it (+1 positive), more classes, ``--full`` and the other formats
svmeval's whole report.

LIBLINEAR's own words where ``train`` has them (``n-fold cross validation: n must >= 2``,
``ERROR: C <= 0`` from its ``check_parameter``); svmeval's one line where it has none. Nothing
reaches LIBLINEAR's C code that it cannot take: an unknown solver is refused with its own
``unknown solver type`` before any call, ``-n`` outside (0, 1] with ``-s 21`` (LIBLINEAR
writes past an array for nu > 1) with svmeval's line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from svmeval.cli import runner
from svmeval.cli.linear_dropin import PROG  # the command's name, the light path's too
from svmeval.cli.options import LINEAR_PREFIX
from svmeval.errors import OptionError, SvmevalError
from svmeval.io import output
from svmeval.io.liblinear_syntax import is_valued, read_folds, read_option

USAGE = f"""\
Usage: {PROG} [options] training_set_file [model_file]
Runs LIBLINEAR's own cross-validation (as its train -v n) and reports its line
and every per-class figure. options (as LIBLINEAR's train):
-s type : set type of solver (default 1)
  for multi-class classification
\t 0 -- L2-regularized logistic regression (primal)
\t 1 -- L2-regularized L2-loss support vector classification (dual)
\t 2 -- L2-regularized L2-loss support vector classification (primal)
\t 3 -- L2-regularized L1-loss support vector classification (dual)
\t 4 -- support vector classification by Crammer and Singer
\t 5 -- L1-regularized L2-loss support vector classification
\t 6 -- L1-regularized logistic regression
\t 7 -- L2-regularized logistic regression (dual)
  for regression
\t11 -- L2-regularized L2-loss support vector regression (primal)
\t12 -- L2-regularized L2-loss support vector regression (dual)
\t13 -- L2-regularized L1-loss support vector regression (dual)
  for outlier detection
\t21 -- one-class support vector machine (dual)
-c cost : set the parameter C (default 1)
-p epsilon : set the epsilon in loss function of SVR (default 0.1)
-n nu : set the parameter nu of one-class SVM (default 0.5)
-e epsilon : set tolerance of termination criterion (default 0.01 for -s 0,
\t2, 5, 6 and 21; 0.0001 for -s 11; 0.1 for -s 1, 3, 4, 7, 12 and 13)
-B bias : if bias >= 0, instance x becomes [x; bias]; if < 0, no bias term
\tadded (default -1)
-R : not regularize the bias; must with -B 1 to have the bias (for -s 0, 2,
\t5, 6, 11)
-wi weight : weights adjust the parameter C of class i
-v n : n-fold cross validation mode (needed without -C)
-C : find parameters (C for -s 0, 2 and C, p for -s 11; 5 folds unless -v;
\t-s 2 unless -s): LIBLINEAR's warm-started search, then every C's figures
-q : quiet mode (no outputs)
options svmeval adds:
--full : svmeval's whole report (per-class table, averages, confusion matrix,
\tevery figure) for two classes too
--format FORMAT : the report as text (default), json or csv (-C: text or json)
--criterion NAME : with -C, the best C by this figure too; with
\t--permutations, the figure tested (svmeval-grid's --criterion names,
\te.g. macro_f1, mcc)
--plot FILE : with -C, the figures of every C drawn against log2(C); with
\t--permutations or --threshold, their picture (PNG, SVG or PDF by the
\tname's suffix; needs matplotlib)
--repeat R : repeat the cross-validation R times (seeds 1..R, as svmeval
	--repeat) and report svmeval's whole report with mean +- sd (-v only;
	with --threshold, the whole estimate R times)
--store FILE : keep the folds' results in the results store FILE (SQLite,
	created if missing) and take them from it when it holds them (-v only)
--permutations N : permutation test (with -v n): the figure (--criterion,
	default accuracy, mse for regression) of N permutations of the labels,
	each cross-validated on svmeval's folds (LIBSVM's draw after
	srand(--seed)), LIBLINEAR trained fold by fold; p = (1 + #{{permuted at
	least as good}}) / (N + 1); --plot FILE: the null distribution
--threshold CRITERION : two-class data (with -v n, a classifier): move the
	decision threshold on LIBLINEAR's decision values to the best CRITERION:
	f1 (f1:LABEL), mcc, balanced_accuracy or cost:FP,FN, as svmeval
	--threshold; the folds svmeval's (srand(--seed)), each fold's nested
	choice on an n-fold CV of its training rows
--seed N : seed C rand() with N before the folds (default 1, train's own):
	LIBLINEAR's own draw for -v n and -C (--repeat R: seeds N, N+1, ...),
	svmeval's folds for --permutations and --threshold
--dask ADDRESS : run each repetition (-v) or the search (-C) as one task on a
	Dask cluster: tcp://HOST:PORT of a running scheduler, or local[:N] for N
	worker processes here; results identical to a local run (the dask extra)
--jobs N : train N folds at once (default: the number of cores) with -s 0, 2
	and 11, whose training draws nothing from rand(); the other solvers'
	folds run one after another in LIBLINEAR's one call. Results are
	identical for every N; --jobs 1 is LIBLINEAR's own cross_validation
--help : show this help
--version : show svmeval's version
model_file: accepted as train accepts it, and never written (-v trains no
model).
"""

#: svmeval's options svmeval-linear takes, read by svmeval's declarations: flag -> field
SVMEVAL_OPTIONS = {
    "--repeat": "repeat",
    "--permutations": "permutations",
    "--threshold": "threshold",
    "--seed": "seed",
    "--jobs": "jobs",
}
_FORMATS = ("text", "json", "csv")


@dataclass(frozen=True)
class LinearOptions:
    """One svmeval-linear command line."""

    data_file: str = ""
    values: dict = field(default_factory=dict)
    weight: tuple = ()
    regularize_bias: int = 1
    nr_fold: int = 5  # -v n; -C without -v: 5, as train
    quiet: bool = False
    full: bool = False
    format: str = "text"
    search: bool = False
    criterion: str | None = None
    plot: str | None = None
    solver_given: bool = False
    store: str | None = None
    repeat: int = 1
    permutations: int | None = None  # --permutations N, --threshold CRITERION, --seed N:
    threshold: str | None = None  # as svmeval declares them (svmeval.cli.options)
    seed: int = 1
    dask: str | None = None
    jobs: int | None = None  # --jobs N: the threads the folds of -s 0, 2, 11 train on


def parse_linear_args(argv: list[str]) -> LinearOptions | None:
    """The command line (None: ``--help``); every problem is an :class:`OptionError`."""
    if "--help" in argv:
        return None
    values: dict = {}
    weight: list = []
    flags: dict = {"regularize_bias": 1, "quiet": False, "full": False, "format": "text"}
    flags.update(search=False, criterion=None, plot=None, store=None, repeat=1)
    flags.update(permutations=None, threshold=None, seed=1, dask=None, jobs=None)
    folds = None
    files: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg in ("--full", "-q", "-R"):
            key = {"--full": "full", "-q": "quiet", "-R": "regularize_bias"}[arg]
            flags[key] = 0 if arg == "-R" else True
            continue
        if arg == "-C":
            flags["search"] = True
            continue
        name, eq, inline = arg.partition("=")
        takes = name in ("--format", "--criterion", "--plot", "--store", "--dask", *SVMEVAL_OPTIONS)
        takes = takes or (not eq and (is_valued(arg) or arg == "-v"))
        takes = takes or (arg[:2] == "-w" and len(arg) > 2)
        if takes:
            if eq:
                text = inline
            elif i < len(argv):
                text, i = argv[i], i + 1
            else:
                raise OptionError(f"option {name} needs a value")
            if name == "--format":
                if text not in _FORMATS:
                    raise OptionError(f"--format {runner.printable(text)}: text, json or csv")
                flags["format"] = text
            elif name == "--criterion":
                flags["criterion"] = _criterion(text)
            elif name == "--plot":
                if text == "":
                    raise OptionError("option --plot: the value is empty")
                from svmeval.report.plot import check_path

                check_path(text)  # its suffix, before any work
                flags["plot"] = text
            elif name in SVMEVAL_OPTIONS:
                flags[SVMEVAL_OPTIONS[name]] = _svmevals(name, text)
            elif name == "--dask":
                from svmeval.cli.values import parse_dask_address

                flags["dask"] = parse_dask_address(name, text)
            elif name == "--store":
                if text == "":
                    raise OptionError("option --store: the value is empty")
                flags["store"] = text
            elif arg == "-v":
                folds = read_folds(text)
            else:
                _read_into(values, weight, arg, text)
        elif arg.startswith("-") and arg != "-":
            raise OptionError(f"unknown option: {runner.printable(arg)}")
        else:
            files.append(arg)
    if not files:
        raise OptionError("no data file (Usage: svmeval-linear [options] training_set_file)")
    if len(files) > 2:
        raise OptionError(f"one data file and at most one model file, not {len(files)} file names")
    if flags["search"]:
        return check_linear(_search_options(files[0], values, weight, folds, flags))
    if folds is None:
        raise OptionError(
            "-v n is needed: svmeval-linear reports LIBLINEAR's n-fold cross-validation "
            "(train without -v trains and saves a model)"
        )
    analysis = flags["permutations"] is not None or flags["threshold"] is not None
    if flags["criterion"] is not None and not analysis:
        raise OptionError(
            "--criterion goes with -C (the best C by that figure) or --permutations "
            "(the figure it tests)"
        )
    if flags["plot"] is not None and not analysis:
        raise OptionError(
            "--plot goes with -C (the figures of every C), --permutations or --threshold"
        )
    return check_linear(
        LinearOptions(
            data_file=files[0],
            values=values,
            weight=tuple(weight),
            nr_fold=folds,
            solver_given="solver_type" in values,
            **flags,
        )
    )


def _read_into(values: dict, weight: list, flag: str, text: str) -> None:
    """One of train's training options (train's syntax reads it): its field into ``values``,
    or its ``(label, factor)`` pair onto ``weight``."""
    name, value = read_option(flag, text)
    if name == "weight":
        weight.append(value)
    else:
        values[name] = value


def check_linear(o: LinearOptions) -> LinearOptions:
    """--permutations and --threshold: what they go with (:mod:`svmeval.cli.analyses`);
    --jobs and --dask not together."""
    from svmeval.cli.analyses import check_linear as check
    from svmeval.cli.values import check_jobs_or_dask

    check_jobs_or_dask(o.jobs, o.dask)
    check(o)
    return o


def _svmevals(flag: str, text: str):
    """The value of one of svmeval's options, read by svmeval's declaration of it."""
    from svmeval.cli.options import SVMEVAL, options_of

    if text == "":
        raise OptionError(f"option {flag}: the value is empty")
    return options_of(SVMEVAL)[flag].value(flag, text)


def _search_options(data_file, values, weight, folds, flags) -> LinearOptions:
    """-C as train takes it: 5 folds unless -v; -s 2 unless -s (said on stderr, as train
    says it, when the run starts); -s 0, 2 or 11 only."""
    solver = values.get("solver_type")
    if solver is not None and solver not in (0, 2, 11):
        raise OptionError("Warm-start parameter search only available for -s 0, -s 2 and -s 11")
    if flags["format"] == "csv":
        raise OptionError("--format csv: -C's report is text or json")
    if flags["store"] is not None:
        raise OptionError("--store keeps the folds of a cross-validation: only with -v n")
    if flags["repeat"] != 1:
        raise OptionError("--repeat repeats a cross-validation: only with -v n")
    return LinearOptions(
        data_file=data_file,
        values={"solver_type": 2, **values},
        weight=tuple(weight),
        nr_fold=5 if folds is None else folds,
        solver_given=solver is not None,
        **flags,
    )


#: the word that starts a LIBLINEAR configuration among svmeval-compare's configurations
PREFIX = LINEAR_PREFIX


def linear_configuration(tokens, which: str):
    """The :class:`~svmeval.params.LinearParams` of LIBLINEAR's ``train`` training options
    (``-s -c -p -n -e -B -R -wi``, read as svmeval-linear reads them): svmeval-compare's
    configuration ``which`` given as ``linear: OPTIONS``."""
    from svmeval.params import LinearParams

    values: dict = {}
    weight: list = []
    regularize_bias = 1
    tokens = list(tokens)
    i = 0
    while i < len(tokens):
        arg = tokens[i]
        i += 1
        if arg == "-R":
            regularize_bias = 0
            continue
        if is_valued(arg):
            if i >= len(tokens):
                raise OptionError(f"{which} options (linear:): option {arg} needs a value")
            text, i = tokens[i], i + 1
            try:
                _read_into(values, weight, arg, text)
            except OptionError as exc:
                raise OptionError(f"{which} options (linear:): {exc}") from None
            continue
        raise OptionError(
            f"{which} options (linear:): {runner.printable(arg)} is not one of LIBLINEAR's "
            "training options (-s, -c, -p, -n, -e, -B, -R, -wi)"
        )
    params = LinearParams(**values, regularize_bias=regularize_bias, weight=tuple(weight))
    try:
        params.check()
    except SvmevalError as exc:
        raise OptionError(f"{which} options (linear:): {exc}") from None
    return params


def _criterion(text: str) -> str:
    from svmeval.metrics.figures import FIGURES

    if text not in FIGURES:
        raise OptionError(
            f"--criterion {runner.printable(text)}: not a figure's name "
            "(svmeval-grid --help lists them)"
        )
    return text


def files_of(o: LinearOptions) -> tuple[list, list]:
    outputs = [("the report", output.STDOUT)]
    if o.plot is not None:
        outputs.append(("--plot", o.plot))
    return outputs, [("the data", o.data_file)]


def run(o: LinearOptions) -> int:
    from svmeval.cv.run.linear import LinearParams, cross_validate_linear

    params = LinearParams(**o.values, regularize_bias=o.regularize_bias, weight=o.weight)
    if params.solver_type == 21 and not 0 < params.nu <= 1:  # LIBLINEAR checks none
        raise SvmevalError("-n: nu must be in (0, 1] for -s 21 (one-class SVM)")
    if o.search and not o.solver_given:
        runner.say_on_stderr("Solver not specified. Using -s 2")
    dataset = runner.read_single_label(o.data_file, PROG)
    if o.permutations is not None or o.threshold is not None:
        from svmeval.cli import analyses

        result = analyses.run_linear(o, dataset, params)
        text = runner.render_report(result, o.format)
        output.write_outputs([(output.resolve(output.STDOUT, "the report"), text)])
        analyses.draw(result, o.plot, PROG)  # the picture, after the report
        return 0
    if o.search:
        from svmeval.cli.linear_report import search_report

        text = search_report(o, dataset, params)
        output.write_outputs([(output.resolve(output.STDOUT, "the report"), text)])
        return 0
    if o.repeat == 1 and o.dask is None:
        from svmeval.cv.run.store_session import current

        result = cross_validate_linear(
            dataset, params, o.nr_fold, seed=o.seed, quiet=o.quiet, store=current(), jobs=o.jobs
        )
    else:
        from svmeval.cv.engine import cross_validate

        result = cross_validate(
            dataset,
            params,
            o.nr_fold,
            seed=o.seed,
            repeat=o.repeat,
            quiet=o.quiet,
            client=o.dask,
            jobs=o.jobs,
        )
    lines = _two_class_lines(o, result)
    if lines is not None:
        text = lines
    else:
        from svmeval.summary import summarize

        summary = summarize(result, meta={"data_file": o.data_file, "library": "liblinear"})
        text = runner.render_report(summary, o.format, full=o.full)
    output.write_outputs([(output.resolve(output.STDOUT, "the report"), text)])
    if text.startswith("Cross Validation Accuracy") and not o.full and o.repeat == 1:
        from svmeval.cli.linear_dropin import no_label_one_note

        note = no_label_one_note(sorted(set(result.y_true.tolist())))
        if note is not None and result.params.is_classification:
            runner.say_on_stderr(note)
    return 0


def _two_class_lines(o: LinearOptions, result) -> str | None:
    """LIBLINEAR's accuracy line and the drop-in's per-class lines (+1 positive), for a
    classifier's two classes in text without --full; None where the whole report is due."""
    if o.format != "text" or o.full or o.repeat != 1 or not result.params.is_classification:
        return None
    from svmeval.metrics.two_class import svm_train_classes
    from svmeval.report.svm_train import accuracy_lines

    labels, correct, classes = svm_train_classes(result.y_true, result.y_pred)
    if len(labels) != 2:
        return None
    return accuracy_lines(100.0 * correct / len(result.y_true), classes)


COMMAND = runner.Command(PROG, USAGE, parse_linear_args, files_of, run, name="linear")


def main(argv: list[str] | None = None) -> int:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # as train: its usage line, and where every option is; exit status 1
        return runner.fail(
            f"Usage: {PROG} [options] training_set_file [model_file]\n"
            f"Try '{PROG} --help' for every option."
        )
    return runner.main(COMMAND, argv)

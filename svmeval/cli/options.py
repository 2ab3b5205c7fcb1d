"""Every option of svmeval, svmeval-grid and svmeval-compare, declared once.

An :class:`~svmeval.cli.option_type.Option` says its flag(s), its value (kind, range or reader), where it lands, its help
line, its default as each command's usage shows it, and the commands that take it. The usage
texts (:func:`usage_text`) and the parser (:func:`scan`) are made from these declarations, and
every value is read with svm-train's C rules (:mod:`svmeval.cli.values`): the same text means
the same thing, or is refused with the same words, in all three commands.

svm-train's options are declared in :mod:`svmeval.cli.svm_train_options`, grid.py's in
:mod:`svmeval.cli.grid_options`, the folds' and the preprocessing's beside their checks; this
module holds the long options and puts them all in one table (:data:`TABLE`).
"""

from __future__ import annotations

from svmeval.cli.fold_options import FOLD_OPTIONS
from svmeval.cli.grid_options import GRID_PY_OPTIONS
from svmeval.cli.option_type import COMPARE, GRID, SVMEVAL, Option
from svmeval.cli.preprocess_options import PREPROCESS_OPTIONS
from svmeval.cli.svm_train_options import SVM_TRAIN_OPTIONS
from svmeval.cli.values import (
    parse_choice,
    parse_dask_address,
    parse_log2_range,
    parse_megabytes,
    parse_nonnegative,
    parse_open_unit,
    parse_weight_range,
)
from svmeval.params import INT_MAX

STORE = "store"  # svmeval-store: its few options are its own (svmeval.cli.store)
PROGRAMS = {
    SVMEVAL: "svmeval",
    GRID: "svmeval-grid",
    COMPARE: "svmeval-compare",
    STORE: "svmeval-store",
}

FORMATS = ("text", "json", "csv")
TABLE_FORMATS = ("markdown", "latex")  # svmeval-compare's benchmark table, as papers print it
#: the word that starts a LIBLINEAR configuration among svmeval-compare's configurations
LINEAR_PREFIX = "linear:"
HTML = "html"  # one self-contained page (svmeval.report.html), every command
TESTS = ("corrected", "5x2cv")
ZERO_DIVISION = {"0": 0.0, "1": 1.0, "nan": float("nan")}


def _choice(choices: dict):  # the reader of a value that is one of choices (text -> value)
    return lambda flag, text: parse_choice(flag, text, choices)


_SEED, _ONE_UP = (0, 2**32 - 1, "C srand's unsigned int"), (1, INT_MAX, None)
_NOT_GRID = frozenset({SVMEVAL, COMPARE})
_SVMEVAL_GRID, _REPEAT_GRID = (
    frozenset({SVMEVAL, GRID}),
    ("\n\t(svmeval-grid: with --nested only, repeats the outer cross-validation)"),
)

#: the long options (and -o), in the order the usages list them
LONG_OPTIONS = (
    Option(
        ("--seed",),
        "N",
        "seed",
        "int",
        "seed C rand() with N before every cross-validation (default 1, what svm-train\n"
        "\tdoes in a fresh process); folds and predictions equal svm-train's",
        range=_SEED,
    ),
    Option(
        ("--repeat",),
        "R",
        "repeat",
        "int",
        "repeat the cross-validation R times and report mean +- sd; repetition r uses\n"
        "\tseed N+r (modulo 2^32), skipping a seed that draws as one already used (glibc's\n"
        "\tsrand(0) is srand(1): --seed 0 --repeat 3 uses 0, 2, 3), so every repetition "
        "differs" + _REPEAT_GRID,
        range=_ONE_UP,
        defaults=((COMPARE, "10"),),
    ),
    Option(
        ("--criterion",),
        "NAME",
        "criterion",
        "str",
        "the figure to optimise (svmeval-grid), compare or test (svmeval\n"
        "\t--permutations), a name of svmeval's figure registry (default accuracy; mse\n"
        "\tfor -s 3 / -s 4): accuracy balanced_accuracy mcc kappa precision recall f1\n"
        "\tmacro_f1 micro_f1 weighted_f1 roc_auc average_precision ..., for regression\n"
        "\tmse scc; each figure's direction comes from the registry and an undefined\n"
        "\tvalue ranks below every number",
        commands=frozenset({GRID, COMPARE, SVMEVAL}),
    ),
    Option(
        ("--log2p",),
        "begin,end,step",
        "log2p",
        "str",
        "also search epsilon of epsilon-SVR (-s 3): p = 2^value",
        commands=frozenset({GRID}),
        read=parse_log2_range,
    ),
    Option(
        ("-log2w",),
        "LABEL begin,end,step",
        "log2w",
        "str",
        "also search the weight of class LABEL (svm-train's -wLABEL, C-SVC):\n"
        "\tw = 2^value multiplies that class's C; each C x gamma cell for each weight\n"
        "\t(with it, -log2c null -log2g null searches the weight alone)",
        commands=frozenset({GRID}),
        read=parse_weight_range,
        nargs=2,
    ),
    Option(
        ("--jobs",),
        "N",
        "jobs",
        "int",
        "train N folds at once (default: the number of cores); results are identical\n"
        "\tfor every N. With -b 1, LIBSVM's probability training draws from rand(), so folds\n"
        "\trun one after another to keep results identical to svm-train's",
        range=_ONE_UP,
    ),
    Option(
        ("--dask",),
        "ADDRESS",
        "dask",
        "str",
        "run the folds (of every repetition) on a Dask cluster: tcp://HOST:PORT of a\n"
        "\trunning scheduler, or local[:N] for N worker processes here (default and at most:\n"
        "\tthe cores; local:N above them is refused); results identical to a local run\n"
        "\t(needs dask and distributed: the dask extra)",
        read=parse_dask_address,
    ),
    Option(
        ("--pos-label",),
        "L",
        "pos_label",
        "double",
        "the positive class of two-class data (default: 1 if present, else the larger label)",
    ),
    Option(
        ("--confidence",),
        "C",
        "confidence",
        "double",
        "level of the confidence interval of the difference",
        "0.95",
        commands=frozenset({COMPARE}),
        read=parse_open_unit,
    ),
    Option(
        ("--nested",),
        "K",
        "nested",
        "int",
        "nested cross-validation: K outer folds (svmeval -v K --seed N's), the grid on\n"
        "\teach outer training set; svmeval's report of the outer predictions, each fold's\n"
        "\tchosen cell and inner value, their spread. No -out, -png, -resume, --results,\n"
        "\t--refit with it (the final model: svmeval-grid without --nested)",
        range=(2, INT_MAX, None),
        commands=frozenset({GRID}),
    ),
    Option(
        ("--predictions",),
        "FILE",
        "predictions",
        "str",
        "write the CV predictions, one per line in input order (as svm-predict)"
        "\n\t(svmeval-grid: the outer predictions of --nested; with --repeat the first\n"
        "\trepetition's)",
        commands=_SVMEVAL_GRID,
    ),
    Option(
        ("--folds",),
        "FILE",
        "folds_file",
        "str",
        "write the (outer) fold, 1..k, that tested each sample, one per line in input\n"
        "\torder (with --repeat the first repetition's)",
        commands=_SVMEVAL_GRID,
    ),
    *FOLD_OPTIONS,
    *PREPROCESS_OPTIONS,
    Option(
        ("--score",),
        "PREDICTIONS_FILE",
        "score",
        "str",
        "report on an existing predictions file (svm-predict's format)\n"
        "\tagainst the labels of data_file, instead of running cross-validation",
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--mcnemar",),
        "",
        "mcnemar",
        "flag",
        "McNemar's test alone, of two predictions files of the samples of data_file",
        commands=frozenset({COMPARE}),
    ),
    Option(
        ("--multilabel",),
        "",
        "multilabel",
        "flag",
        "multi-label data (labels l1,l2,...): binary-relevance cross-validation",
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--format",),
        "FORMAT",
        "format",
        "str",
        "text (default), json, csv (svmeval-grid: with --nested only) or\n\thtml (one "
        "self-contained page: tables, pictures, provenance);\n\tsvmeval-compare also "
        "markdown or latex (the benchmark table)",
        read=_choice({f: f for f in FORMATS + TABLE_FORMATS + (HTML,)}),
    ),
    Option(
        ("--rope",),
        "R",
        "rope",
        "double",
        "add the Bayesian correlated t-test (Corani & Benavoli 2015) of B - A with a\n"
        "\tregion of practical equivalence of half-width R (the criterion's units), per "
        "data set;\n\twith two or more data sets also the Bayesian signed-rank test over "
        "them\n\t(Benavoli et al. 2017; --draws Monte-Carlo draws, seeded by --seed)",
        commands=frozenset({COMPARE}),
        read=parse_nonnegative,
    ),
    Option(
        ("--draws",),
        "N",
        "draws",
        "int",
        "the Monte-Carlo draws of --rope's Bayesian signed-rank test over two or more data\n"
        "\tsets (the report states them and their seed, --seed)",
        "50000",
        range=(1, 10_000_000, None),
        commands=frozenset({COMPARE}),
    ),
    Option(
        ("--test",),
        "NAME",
        "test",
        "str",
        "the per-data-set test of the win/tie/loss "
        "counts: corrected (resampled\n\tt-test) or 5x2cv (5x2cv paired t-test and "
        "Alpaydin's F: -v 2 --repeat 5)",
        "corrected",
        commands=frozenset({COMPARE}),
        read=_choice({t: t for t in TESTS}),
    ),
    Option(
        ("--full",),
        "",
        "full",
        "flag",
        "for two-class data, follow svm-train's lines with the full text report (per-class\n"
        "\ttable, averages, confusion matrix, overall figures); multiclass data always gets "
        "it",
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--permutations",),
        "N",
        "permutations",
        "int",
        "permutation test: the -v k figure (--criterion, default accuracy, mse for\n"
        "\tregression) of N permutations of the labels, each with LIBSVM's folds of the\n"
        "\tpermuted labels after srand(--seed), one kernel shared; p = (1 + #{permuted\n"
        "\tat least as good}) / (N + 1)",
        range=(1, 100_000, None),
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--threshold",),
        "CRITERION",
        "threshold",
        "str",
        "two-class data: move the decision threshold on the -v k decision values (-b 1:\n"
        "\tprobabilities) to the best CRITERION: f1 (of the positive class; f1:LABEL makes\n"
        "\tLABEL positive), mcc, balanced_accuracy or cost:FP,FN (least FP x false\n"
        "\tpositives + FN x false negatives); reports LIBSVM's own threshold, the tuned\n"
        "\tone (optimistic) and a nested estimate (each fold's threshold chosen on a\n"
        "\tk-fold CV of its training rows); --repeat R: the whole estimate R times, and\n"
        "\tits spread",
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--ci",),
        "LEVEL",
        "ci",
        "double",
        "bootstrap confidence intervals (BCa and percentile) at LEVEL, e.g. 0.95, of a\n"
        "\tclassification's pooled figures: the samples' CV predictions resampled, seed\n"
        "\t--seed (with --repeat: of the repetitions' mean, each resampled sample with\n"
        "\tits prediction in every repetition)",
        commands=frozenset({SVMEVAL}),
        read=parse_open_unit,
    ),
    Option(
        ("--bootstrap",),
        "B",
        "bootstrap",
        "int",
        "the bootstrap resamples of --ci",
        "1000",
        range=(1, 1_000_000, None),
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--digits",),
        "N",
        "digits",
        "int",
        "digits after the decimal point in the text report's tables",
        "4",
        range=(0, 15, None),
        commands=frozenset({SVMEVAL}),
    ),
    Option(
        ("--zero-division",),
        "POLICY",
        "zero_division",
        "str",
        "how undefined per-class values (0/0) enter averages: 0 (default),\n\t1, or nan (left out)",
        read=_choice(ZERO_DIVISION),
    ),
    Option(
        ("-o", "--output"),
        "FILE",
        "output",
        "str",
        "write the report to FILE (atomically) instead of standard output",
        commands=_NOT_GRID,
    ),
    Option(
        ("--plot",),
        "FILE",
        "plot",
        "str",
        "also draw the run's figure sheet (svmeval-compare: the critical-difference\n"
        "\tdiagram) to FILE (.png, .svg or .pdf; needs matplotlib: the plot extra)",
        commands=_NOT_GRID,
    ),
    Option(
        ("--results",),
        "FILE",
        "results",
        "str",
        "every figure of every cell with its mean and sd over folds (.csv, .json,\n\tor .html: the page of --format html)",
        commands=frozenset({GRID}),
    ),
    Option(
        ("--refit",),
        "MODEL_FILE",
        "refit",
        "str",
        "train on the whole data at the best cell and save the model as svm-train;\n"
        "\twith --scale, the whole file's svm-scale range file beside it as\n"
        "\tMODEL_FILE.range (svm-scale -r reads it), with --select the features kept\n"
        "\tas MODEL_FILE.features (one index a line)",
        commands=frozenset({GRID}),
    ),
    Option(
        ("--kernel-memory",),
        "MB",
        "kernel_memory",
        "double",
        "memory for the kernel matrices shared by the cells of one gamma\n"
        "\t(default 2048); above it, or where sharing does not pay, LIBSVM computes its "
        "own;\n\t0: no matrix is shared",
        commands=frozenset({GRID}),
        read=parse_megabytes,
    ),
    Option(
        ("--store",),
        "FILE",
        "store",
        "str",
        "keep every fold's result in the results store FILE (SQLite, created if missing)\n"
        "\tand take the folds it already holds: an interrupted run started again goes on\n"
        "\twhere it stopped, with the same output (svmeval-store FILE lists it)",
    ),
    Option(("--help",), "", "help", "flag", "show this help"),
    Option(("--version",), "", "version", "flag", "show svmeval's version"),
)


#: svm-train's options that set a training parameter (compare's A and B options)
TRAINING = "training"
_TRAINING_FLAGS = frozenset(f for o in SVM_TRAIN_OPTIONS if o.svm for f in o.flags)
TABLE = SVM_TRAIN_OPTIONS + GRID_PY_OPTIONS + LONG_OPTIONS


def _takes(option: Option, command: str) -> bool:
    if command == TRAINING:
        return option.svm
    if command == COMPARE and option in SVM_TRAIN_OPTIONS:
        return not option.svm  # -v, -q before the first --; training options after it
    return command in option.commands


def options_of(command: str) -> dict[str, Option]:
    """flag -> declaration, for the options ``command`` takes (``-w`` stands for ``-wi``,
    whose label is part of the flag)."""
    table = {flag: o for o in TABLE if _takes(o, command) for flag in o.flags}
    if "-wi" in table:
        table["-w"] = table.pop("-wi")
    return table

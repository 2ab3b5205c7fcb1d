"""The command line: svm-train's options with their meaning and defaults, plus svmeval's long options.

``parse_args(argv) -> Options``; every problem raises :class:`OptionError` (the CLI prints it and
the usage, exit 1). Values are checked strictly: svm-train's ``atoi("abc") == 0`` becomes an error.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, replace

from .errors import OptionError, ParameterError, show_path
from .params import INT_MAX, INT_MIN, SvmParams

@dataclass(frozen=True)
class Option:
    """One command-line option, declared once: its flag(s), its value (``metavar``, ``kind``:
    "int", "double", "str" or "flag"), where it lands (``field`` of :class:`SvmParams` when
    ``svm`` else of :class:`Options`), its default as the usage shows it, its help (and
    ``more``: the usage's further lines), and for integers their range ``(low, high, what)``.
    The parser, the usage text and the range checks are all made from these declarations."""

    flags: tuple[str, ...]
    metavar: str
    field: str
    kind: str
    help: str
    default: str | None = None
    more: str = ""
    svm: bool = False
    range: tuple = (INT_MIN, INT_MAX, "a C int")
    sep: str = " : "

    def usage(self) -> str:
        names = ", ".join(f"{f} {self.metavar}".rstrip() for f in self.flags)
        line = f"{names}{self.sep}{self.help}"
        if self.default is not None:
            line += f" (default {self.default})"
        return line + "\n" + self.more


def _svm(flag, metavar, field, kind, help, default=None, more="", sep=" : "):
    return Option((flag,), metavar, field, kind, help, default, more, svm=True, sep=sep)


#: svm-train's options, in its usage order, with its words
SVM_TRAIN_OPTIONS = (
    _svm("-s", "svm_type", "svm_type", "int", "set type of SVM", "0", more=(
        "\t0 -- C-SVC\t\t(multi-class classification)\n"
        "\t1 -- nu-SVC\t\t(multi-class classification)\n"
        "\t2 -- one-class SVM\n"
        "\t3 -- epsilon-SVR\t(regression)\n"
        "\t4 -- nu-SVR\t\t(regression)\n")),
    _svm("-t", "kernel_type", "kernel_type", "int", "set type of kernel function", "2", more=(
        "\t0 -- linear: u'*v\n"
        "\t1 -- polynomial: (gamma*u'*v + coef0)^degree\n"
        "\t2 -- radial basis function: exp(-gamma*|u-v|^2)\n"
        "\t3 -- sigmoid: tanh(gamma*u'*v + coef0)\n"
        "\t4 -- precomputed kernel (kernel values in training_set_file)\n")),
    _svm("-d", "degree", "degree", "int", "set degree in kernel function", "3"),
    _svm("-g", "gamma", "gamma", "double", "set gamma in kernel function", "1/num_features"),
    _svm("-r", "coef0", "coef0", "double", "set coef0 in kernel function", "0"),
    _svm("-c", "cost", "C", "double",
         "set the parameter C of C-SVC, epsilon-SVR, and nu-SVR", "1"),
    _svm("-n", "nu", "nu", "double",
         "set the parameter nu of nu-SVC, one-class SVM, and nu-SVR", "0.5"),
    _svm("-p", "epsilon", "p", "double", "set the epsilon in loss function of epsilon-SVR",
         "0.1"),
    _svm("-m", "cachesize", "cache_size", "double", "set cache memory size in MB", "100"),
    _svm("-e", "epsilon", "eps", "double", "set tolerance of termination criterion", "0.001"),
    _svm("-h", "shrinking", "shrinking", "int",
         "whether to use the shrinking heuristics, 0 or 1", "1"),
    _svm("-b", "probability_estimates", "probability", "int",
         "whether to train a SVC or SVR model for probability estimates, 0 or 1", "0"),
    _svm("-wi", "weight", "weight", "double",
         "set the parameter C of class i to weight*C, for C-SVC", "1"),
    Option(("-v",), "n", "nr_fold", "int", "n-fold cross validation mode", sep=": ",
           range=(2, INT_MAX, None)),
    Option(("-q",), "", "quiet", "flag", "quiet mode (no outputs)"),
)

#: the options svmeval adds (long, but for -o)
SVMEVAL_OPTIONS = (
    Option(("--seed",), "N", "seed", "int",
           "seed C rand() with N before every cross-validation (default 1, what svm-train\n"
           "\tdoes in a fresh process); folds and predictions equal svm-train's",
           range=(0, 2**32 - 1, "C srand's unsigned int")),
    Option(("--repeat",), "R", "repeat", "int",
           "repeat the cross-validation R times and report mean +- sd; repetition r uses\n"
           "\tseed N+r (modulo 2^32), skipping a seed that draws as one already used (glibc's\n"
           "\tsrand(0) is srand(1): --seed 0 --repeat 3 uses 0, 2, 3), so every repetition "
           "differs", range=(1, INT_MAX, None)),
    Option(("--jobs",), "N", "jobs", "int",
           "train N folds at once (default: the number of cores); results are identical\n"
           "\tfor every N. With -b 1, LIBSVM's probability training draws from rand(), so folds\n"
           "\trun one after another to keep results identical to svm-train's",
           range=(1, INT_MAX, None)),
    Option(("--dask",), "ADDRESS", "dask", "str",
           "run the folds (of every repetition) on a Dask cluster: tcp://HOST:PORT of a\n"
           "\trunning scheduler, or local[:N] for N worker processes here (default: the cores);\n"
           "\tresults identical to a local run (needs pip install 'svmeval[dask]')"),
    Option(("--pos-label",), "L", "pos_label", "double",
           "the positive class of two-class data (default: 1 if present, else the larger "
           "label)"),
    Option(("--predictions",), "FILE", "predictions", "str",
           "write the CV predictions, one per line in input order (as svm-predict)"),
    Option(("--score",), "PREDICTIONS_FILE", "score", "str",
           "report on an existing predictions file (svm-predict's format)\n"
           "\tagainst the labels of data_file, instead of running cross-validation"),
    Option(("--multilabel",), "", "multilabel", "flag",
           "multi-label data (labels l1,l2,...): binary-relevance cross-validation"),
    Option(("--format",), "FORMAT", "format", "str", "text (default), json or csv"),
    Option(("--full",), "", "full", "flag",
           "for two-class data, follow svm-train's lines with the full text report (per-class\n"
           "\ttable, averages, confusion matrix, overall figures); multiclass data always gets "
           "it"),
    Option(("--digits",), "N", "digits", "int",
           "digits after the decimal point in the text report's tables", "4",
           range=(0, 15, None)),
    Option(("--zero-division",), "POLICY", "zero_division", "str",
           "how undefined per-class values (0/0) enter averages: 0 (default),\n"
           "\t1, or nan (left out)"),
    Option(("-o", "--output"), "FILE", "output", "str",
           "write the report to FILE (atomically) instead of standard output"),
    Option(("--plot",), "FILE", "plot", "str",
           "also draw the run's figure sheet to FILE (.png, .svg or .pdf; needs\n"
           "\tpip install 'svmeval[plot]')"),
    Option(("--help",), "", "help", "flag", "show this help"),
)


def usage_text(program: str = "svmeval") -> str:
    """The usage text, made from the option declarations."""
    return (f"Usage: {program} [options] training_set_file [model_file]\n"
            f"       {program} --score PREDICTIONS_FILE [options] data_file\n"
            "options (as svm-train):\n"
            + "".join(o.usage() for o in SVM_TRAIN_OPTIONS)
            + "options svmeval adds:\n"
            + "".join(o.usage() for o in SVMEVAL_OPTIONS))


#: flag -> its declaration (``-w`` stands for ``-wi``, whose label is part of the flag)
_BY_FLAG = {flag: o for o in SVM_TRAIN_OPTIONS + SVMEVAL_OPTIONS for flag in o.flags}
_BY_FLAG["-w"] = _BY_FLAG.pop("-wi")


USAGE = usage_text()

FORMATS = ("text", "json", "csv")
ZERO_DIVISION = {"0": 0.0, "1": 1.0, "nan": float("nan")}


@dataclass(frozen=True)
class Options:
    """Everything one command line asks for."""

    params: SvmParams = field(default_factory=SvmParams)
    nr_fold: int = 0  # 0: train mode (no -v)
    quiet: bool = False
    data_file: str = ""
    model_file: str | None = None
    seed: int = 1
    repeat: int = 1
    jobs: int | None = None
    dask: str | None = None
    pos_label: float | None = None
    predictions: str | None = None
    score: str | None = None
    multilabel: bool = False
    format: str = "text"
    digits: int = 4
    zero_division: float | str = "0"
    output: str | None = None
    plot: str | None = None
    full: bool = False
    help: bool = False

    @property
    def cross_validation(self) -> bool:
        return self.nr_fold >= 2


_INT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_SHOWN = 40  # characters of a value quoted in a message


def _shown(text: str) -> str:
    """A value for a message: quoted and escaped (one line), long values cut."""
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "...")


def parse_c_int(flag: str, text: str, low: int = INT_MIN, high: int = INT_MAX,
                what: str = "a C int") -> int:
    """An integer option value as C's ``atoi`` reads it, but strict: the whole value must be
    ``[+-]digits`` in ASCII (Python's ``int()`` also takes ``1_000``, blanks and non-ASCII
    digits; ``atoi`` stops at them), and it must lie in ``low..high`` (default: C ``int``, the
    type the value lands in). Raises :class:`OptionError` naming ``flag``."""
    if not isinstance(text, str) or not _INT_TEXT.fullmatch(text):
        raise OptionError(f"option {flag}: {_shown(str(text))} is not an integer")
    digits = text.lstrip("+-").lstrip("0")
    value = int(text) if len(digits) <= 20 else None  # beyond any range checked here
    if value is None or not low <= value <= high:
        where = f"{what} holds {low} to {high}" if what else f"{low} to {high}"
        raise OptionError(f"option {flag}: {_shown(text)} is out of range ({where})")
    return value


def parse_c_double(flag: str, text: str) -> float:
    """A number option value as C's ``strtod``/``atof`` reads it in the C locale (decimal or
    hexadecimal, ``1e-3``, ``.5``, ``3.``), but strict: the whole value must be the number (no
    blanks, no ``1_000``, no non-ASCII digits, which Python's ``float()`` takes), and it must be
    finite (``nan``, ``inf`` and overflowing values are refused). A value that underflows is the
    double ``strtod`` returns, as ``atof`` gives svm-train."""
    from .io._reader import parse_number  # C strtod in the C locale

    if not isinstance(text, str) or not text.isascii():
        raise OptionError(f"option {flag}: {_shown(str(text))} is not a number")
    value, status = parse_number(text.encode("ascii"))
    if status == 1:
        raise OptionError(f"option {flag}: {_shown(text)} is not a number")
    if status == 2 or not math.isfinite(value):
        raise OptionError(f"option {flag}: {_shown(text)} is not a finite number")
    return value


def _number(opt: str, text: str, kind):
    return parse_c_int(opt, text) if kind is int else parse_c_double(opt, text)


def _value(option: Option, flag: str, text: str):
    if option.kind == "int":
        return parse_c_int(flag, text, *option.range)
    if option.kind == "double":
        return parse_c_double(flag, text)
    return text


def parse_args(argv: list[str]) -> Options:
    """Parse a command line (without the program name) into :class:`Options`.

    svm-train's options may come before or after the file names; ``-`` alone is a file
    (standard input); a long option's value may follow ``=``.
    """
    params: dict = {}
    weights: list[tuple[int, float]] = []
    opts: dict = {}
    positional: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            positional.extend(argv[i:])
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        label = None
        if flag.startswith("-w") and not flag.startswith("--"):
            if len(flag) == 2:
                raise OptionError("option -w needs a class label: -wi weight (e.g. -w1 2)")
            label = parse_c_int("-w", flag[2:])
            flag = "-w"
        option = _BY_FLAG.get(flag)
        if option is None:
            raise OptionError(f"unknown option: {show_path(flag)}")
        if option.kind == "flag":
            if eq:
                raise OptionError(f"option {flag} takes no value")
            opts[option.field] = True
            continue
        if not eq:
            if i >= len(argv):
                raise OptionError(f"option {arg} needs a value")
            value = argv[i]
            i += 1
        if flag == "-v":
            nr_fold = parse_c_int("-v", value)
            if nr_fold < 2:
                raise OptionError("n-fold cross validation: n must >= 2")
            opts["nr_fold"] = nr_fold
        elif label is not None:
            weights.append((label, _value(option, arg, value)))
        elif option.svm:
            params[option.field] = _value(option, arg, value)
        else:
            opts[option.field] = _value(option, flag, value)
    if opts.get("help"):
        return Options(help=True)
    try:
        svm_params = SvmParams(**params, weight=tuple(weights))
    except ParameterError as exc:  # pragma: no cover - every value is checked above
        raise OptionError(str(exc)) from None
    options = Options(params=svm_params, **opts)
    return _check(options, positional)


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
        used = [name for name, value in (("--predictions", options.predictions),
                                         ("--repeat", options.repeat != 1),
                                         ("--dask", options.dask),
                                         ("--output", options.output), ("--full", options.full),
                                         ("--plot", options.plot))
                if value]
        if used:
            raise OptionError(f"{', '.join(used)}: only with -v k (cross-validation) or --score")
    if options.score is not None and (options.cross_validation or options.predictions
                                      or options.dask):
        raise OptionError("--score reports on existing predictions: no -v, no --predictions, "
                          "no --dask")
    if options.dask is not None and options.multilabel:
        raise OptionError("--dask runs single-label cross-validation; not with --multilabel")
    if options.dask is not None and options.jobs is not None:
        raise OptionError("--jobs sets the local threads; with --dask the cluster's workers "
                          "run the folds")
    if options.format not in FORMATS:
        raise OptionError(f"--format: {options.format!r} is not one of {', '.join(FORMATS)}")
    zd = ZERO_DIVISION.get(str(options.zero_division).strip().lower())
    if zd is None:
        raise OptionError(f"--zero-division: {options.zero_division!r} is not one of 0, 1, nan")
    return replace(options, data_file=data_file, model_file=model_file, zero_division=zd)

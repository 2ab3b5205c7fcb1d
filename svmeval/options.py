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

USAGE = """\
Usage: svmeval [options] training_set_file [model_file]
       svmeval --score PREDICTIONS_FILE [options] data_file
options (as svm-train):
-s svm_type : set type of SVM (default 0)
	0 -- C-SVC		(multi-class classification)
	1 -- nu-SVC		(multi-class classification)
	2 -- one-class SVM
	3 -- epsilon-SVR	(regression)
	4 -- nu-SVR		(regression)
-t kernel_type : set type of kernel function (default 2)
	0 -- linear: u'*v
	1 -- polynomial: (gamma*u'*v + coef0)^degree
	2 -- radial basis function: exp(-gamma*|u-v|^2)
	3 -- sigmoid: tanh(gamma*u'*v + coef0)
	4 -- precomputed kernel (kernel values in training_set_file)
-d degree : set degree in kernel function (default 3)
-g gamma : set gamma in kernel function (default 1/num_features)
-r coef0 : set coef0 in kernel function (default 0)
-c cost : set the parameter C of C-SVC, epsilon-SVR, and nu-SVR (default 1)
-n nu : set the parameter nu of nu-SVC, one-class SVM, and nu-SVR (default 0.5)
-p epsilon : set the epsilon in loss function of epsilon-SVR (default 0.1)
-m cachesize : set cache memory size in MB (default 100)
-e epsilon : set tolerance of termination criterion (default 0.001)
-h shrinking : whether to use the shrinking heuristics, 0 or 1 (default 1)
-b probability_estimates : whether to train a SVC or SVR model for probability estimates, 0 or 1 (default 0)
-wi weight : set the parameter C of class i to weight*C, for C-SVC (default 1)
-v n: n-fold cross validation mode
-q : quiet mode (no outputs)
options svmeval adds:
--seed N : seed C rand() with N before every cross-validation (default 1, what svm-train
	does in a fresh process); folds and predictions equal svm-train's
--repeat R : repeat the cross-validation R times and report mean +- sd; repetition r uses
	seed N+r (modulo 2^32), skipping a seed that draws as one already used (glibc's
	srand(0) is srand(1): --seed 0 --repeat 3 uses 0, 2, 3), so every repetition differs
--jobs N : train N folds at once (default: the number of cores); results are identical
	for every N. With -b 1, LIBSVM's probability training draws from rand(), so folds
	run one after another to keep results identical to svm-train's
--pos-label L : the positive class of two-class data (default: 1 if present, else the larger label)
--predictions FILE : write the CV predictions, one per line in input order (as svm-predict)
--score PREDICTIONS_FILE : report on an existing predictions file (svm-predict's format)
	against the labels of data_file, instead of running cross-validation
--multilabel : multi-label data (labels l1,l2,...): binary-relevance cross-validation
--format FORMAT : text (default), json or csv
--full : for two-class data, follow svm-train's lines with the full text report (per-class
	table, averages, confusion matrix, overall figures); multiclass data always gets it
--digits N : digits after the decimal point in the text report's tables (default 4)
--zero-division POLICY : how undefined per-class values (0/0) enter averages: 0 (default),
	1, or nan (left out)
-o FILE, --output FILE : write the report to FILE (atomically) instead of standard output
--plot FILE : also draw the run's figure sheet to FILE (.png, .svg or .pdf; needs
	pip install 'svmeval[plot]')
--help : show this help
"""

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


# svm-train's one-letter options that take a value: letter -> (SvmParams field, type)
_PARAM_OPTIONS = {
    "s": ("svm_type", int),
    "t": ("kernel_type", int),
    "d": ("degree", int),
    "g": ("gamma", float),
    "r": ("coef0", float),
    "n": ("nu", float),
    "m": ("cache_size", float),
    "c": ("C", float),
    "e": ("eps", float),
    "p": ("p", float),
    "h": ("shrinking", int),
    "b": ("probability", int),
}

# svmeval's long options that take a value: name -> (Options field, converter)
_LONG_OPTIONS = {
    "seed": ("seed", int),
    "repeat": ("repeat", int),
    "jobs": ("jobs", int),
    "digits": ("digits", int),
    "pos-label": ("pos_label", float),
    "predictions": ("predictions", str),
    "score": ("score", str),
    "format": ("format", str),
    "zero-division": ("zero_division", str),
    "output": ("output", str),
    "plot": ("plot", str),
}
_LONG_FLAGS = {"multilabel": "multilabel", "help": "help", "full": "full"}

# the integer long options' ranges: (low, high, what the range is)
_LONG_RANGES = {
    "seed": (0, 2**32 - 1, "C srand's unsigned int"),
    "repeat": (1, INT_MAX, None),
    "jobs": (1, INT_MAX, None),
    "digits": (0, 15, None),
}


def parse_args(argv: list[str]) -> Options:
    """Parse a command line (without the program name) into :class:`Options`.

    svm-train's options may come before or after the file names; ``-`` alone is a file
    (standard input).
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
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name in _LONG_FLAGS and not eq:
                opts[_LONG_FLAGS[name]] = True
                continue
            if name not in _LONG_OPTIONS:
                raise OptionError(f"unknown option: {show_path(arg.partition('=')[0])}")
            if not eq:
                if i >= len(argv):
                    raise OptionError(f"option --{name} needs a value")
                value = argv[i]
                i += 1
            key, kind = _LONG_OPTIONS[name]
            if kind is int:
                opts[key] = parse_c_int(f"--{name}", value, *_LONG_RANGES[name])
            elif kind is float:
                opts[key] = parse_c_double(f"--{name}", value)
            else:
                opts[key] = value
            continue
        if arg == "-o":
            if i >= len(argv):
                raise OptionError("option -o needs a value")
            opts["output"] = argv[i]
            i += 1
            continue
        if arg == "-q":
            opts["quiet"] = True
            continue
        letter = arg[1]
        if letter == "w":
            label_text = arg[2:]
            label = parse_c_int("-w", label_text) if label_text else None
            if label is None:
                raise OptionError("option -w needs a class label: -wi weight (e.g. -w1 2)")
        elif letter not in _PARAM_OPTIONS and letter != "v" or len(arg) != 2:
            raise OptionError(f"unknown option: {show_path(arg)}")
        if i >= len(argv):
            raise OptionError(f"option {arg} needs a value")
        value = argv[i]
        i += 1
        if letter == "w":
            weights.append((label, _number(arg, value, float)))
        elif letter == "v":
            nr_fold = _number("-v", value, int)
            if nr_fold < 2:
                raise OptionError("n-fold cross validation: n must >= 2")
            opts["nr_fold"] = nr_fold
        else:
            key, kind = _PARAM_OPTIONS[letter]
            params[key] = _number(arg, value, kind)
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
                                         ("--output", options.output), ("--full", options.full),
                                         ("--plot", options.plot))
                if value]
        if used:
            raise OptionError(f"{', '.join(used)}: only with -v k (cross-validation) or --score")
    if options.score is not None and (options.cross_validation or options.predictions):
        raise OptionError("--score reports on existing predictions: no -v, no --predictions")
    if options.format not in FORMATS:
        raise OptionError(f"--format: {options.format!r} is not one of {', '.join(FORMATS)}")
    zd = ZERO_DIVISION.get(str(options.zero_division).strip().lower())
    if zd is None:
        raise OptionError(f"--zero-division: {options.zero_division!r} is not one of 0, 1, nan")
    return replace(options, data_file=data_file, model_file=model_file, zero_division=zd)

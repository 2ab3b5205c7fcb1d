"""``svmeval-grid``: LIBSVM's grid.py command line, over svmeval's cross-validation.

The same options, defaults and output as grid.py (stdout lines, ``-out`` file, ``-resume``), any
figure as the criterion, every cell's figures on request, and a final model. Thin over
:func:`svmeval.grid.search.grid_search`; every error is one line on stderr and exit status 1.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, field

from ..cli import error_line
from ..errors import OptionError, SvmevalError
from ..progress import ProgressBar, _is_terminal
from . import rules

PROG = "svmeval-grid"

USAGE = """\
Usage: svmeval-grid [grid_options] [svm_options] dataset

grid_options (LIBSVM's grid.py options, same meanings and defaults):
-log2c {begin,end,step | "null"} : set the range of c (default -5,15,2)
    begin,end,step -- c_range = 2^{begin,...,begin+k*step,...,end}
    "null"         -- do not grid with c
-log2g {begin,end,step | "null"} : set the range of g (default 3,-15,-2)
    begin,end,step -- g_range = 2^{begin,...,begin+k*step,...,end}
    "null"         -- do not grid with g
-v n : n-fold cross validation (default 5)
-svmtrain pathname : accepted for grid.py command lines; no effect (LIBSVM runs in-process)
-gnuplot {pathname | "null"} : "null" -- draw no picture (as grid.py without gnuplot); a
    pathname is accepted and has no effect (-png is drawn with matplotlib)
-out {pathname | "null"} : (default dataset.out)
    pathname -- set output file path and name
    "null"   -- do not output file
-png pathname : set graphic output file path and name (default dataset.png); needs the
    optional matplotlib: pip install 'svmeval[plot]'
-resume [pathname] : resume the grid task using an existing output file (default pathname is
    dataset.out); svmeval-grid's and grid.py's files both work

options svmeval-grid adds:
--criterion NAME : the figure to optimise (default accuracy; mse for -s 3 / -s 4). Two-class:
    accuracy balanced_accuracy mcc kappa precision recall f1 macro_f1 macro_harmonic_f1
    micro_f1 weighted_f1 roc_auc average_precision; multiclass: the same without precision,
    recall, f1, roc_auc, average_precision, plus macro_roc_auc macro_average_precision
    label_ranking_average_precision; regression: mse (minimised) scc. Each figure's
    direction comes from svmeval's registry; an undefined value ranks below every number
--log2p begin,end,step : also search epsilon of epsilon-SVR (-s 3): p = 2^value
--jobs N : folds trained at once (default: the cores); the results do not depend on it
--dask ADDRESS : run the cells' folds on a Dask cluster: tcp://HOST:PORT of a running
    scheduler, or local[:N] for N worker processes here (default: the cores); the same
    lines, -out file and best cell as a local run (needs pip install 'svmeval[dask]')
--seed N : seed C rand() with N before the folds are drawn (default 1, svm-train's)
--pos-label L : the positive class of two-class data (default: 1 if present, else the larger)
--zero-division 0|1|nan : how undefined per-class values enter averages (default 0)
--results FILE : every figure of every cell with its mean and sd over folds (.csv or .json)
--refit MODEL_FILE : train on the whole data at the best cell and save the model as svm-train
--kernel-memory MB : memory for the kernel matrices shared by the cells of one gamma
    (default 2048); above it, or where sharing does not pay, LIBSVM computes its own
--help : show this help

svm_options: svm-train's options (-s -t -d -r -n -p -m -e -h -b -wi -q), as svmeval reads them;
-c and -g only where -log2c / -log2g is null.
"""

_VALUE_OPTIONS = {"-log2c", "-log2g", "-v", "-svmtrain", "-gnuplot", "-out", "-png"}
_LONG = {"criterion": str, "log2p": str, "jobs": int, "dask": str, "seed": int,
         "pos-label": float,
         "zero-division": str, "results": str, "refit": str, "kernel-memory": float}


@dataclass
class GridOptions:
    dataset: str = ""
    log2c: tuple | None = rules.DEFAULT_LOG2C
    log2g: tuple | None = rules.DEFAULT_LOG2G
    log2p: tuple | None = None
    fold: str = "5"
    out: str | None = None
    png: str | None = None
    resume: str | None = None
    draw: bool = True
    long: dict = field(default_factory=dict)
    svm_args: list = field(default_factory=list)
    help: bool = False


def parse_grid_args(argv: list[str]) -> GridOptions:
    """grid.py's command line: options, then the data set as the last argument."""
    if "--help" in argv or "-help" in argv:
        return GridOptions(help=True)
    if not argv:
        raise OptionError("no data file given")
    o = GridOptions(dataset=argv[-1])
    if o.dataset.startswith("-") and o.dataset != "-":
        raise OptionError("no data file given (the data set is the last argument)")
    title = os.path.basename(o.dataset)
    o.out, o.png = f"{title}.out", f"{title}.png"
    args = argv[:-1]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-resume":
            if i < len(args) and not args[i].startswith("-"):
                o.resume = args[i]
                i += 1
            else:
                o.resume = f"{title}.out"
            continue
        if arg in _VALUE_OPTIONS:
            if i >= len(args):
                raise OptionError(f"option {arg} needs a value")
            value = args[i]
            i += 1
            if arg == "-log2c":
                o.log2c = rules.parse_range("-log2c", value)
            elif arg == "-log2g":
                o.log2g = rules.parse_range("-log2g", value)
            elif arg == "-v":
                o.fold = value
            elif arg == "-out":
                o.out = None if value == "null" else value
            elif arg == "-png":
                o.png = value
            elif arg == "-gnuplot":
                o.draw = value != "null"
            continue  # -svmtrain, a -gnuplot path: accepted, no effect
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name not in _LONG:
                raise OptionError(f"unknown option: --{name}")
            if not eq:
                if i >= len(args):
                    raise OptionError(f"option --{name} needs a value")
                value = args[i]
                i += 1
            kind = _LONG[name]
            if kind is not str:
                try:
                    value = kind(value)
                except ValueError:
                    what = "an integer" if kind is int else "a number"
                    raise OptionError(f"option --{name}: {value!r} is not {what}") from None
            o.long[name] = value
            continue
        o.svm_args.append(arg)
    if "log2p" in o.long:
        o.log2p = rules.parse_range("--log2p", o.long["log2p"])
    if o.log2c is None and o.log2g is None:
        raise OptionError("-log2c and -log2g should not be null simultaneously")
    for flag, axis, name in (("-c", o.log2c, "-log2c"), ("-g", o.log2g, "-log2g"),
                             ("-p", o.log2p, "--log2p")):
        if flag in o.svm_args and axis is not None:
            raise OptionError(f"{flag} is searched: use {name} (or {name} null)"
                              if flag != "-p" else "-p is searched: use --log2p")
    return o


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        return _main(argv)
    except SvmevalError as exc:
        return _fail(error_line(exc, PROG))
    except KeyboardInterrupt:
        # every finished cell is already in the -out file (a flushed line each); folds still
        # inside LIBSVM cannot be stopped: leave at once
        _fail(f"{PROG}: interrupted")
        os._exit(130)
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    finally:
        if _STATE.bar is not None:
            _STATE.bar.close()


class _State:
    bar = None


_STATE = _State()


def _fail(message: str) -> int:
    if _STATE.bar is not None:
        _STATE.bar.close()
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    return 1


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _main(argv: list[str]) -> int:
    from ..options import parse_args
    from .search import check_criterion, grid_search

    o = parse_grid_args(argv)
    if o.help:
        sys.stdout.write(USAGE)
        return 0
    svm = parse_args(o.svm_args + ["-v", o.fold, o.dataset])
    long = o.long
    criterion = long.get("criterion")
    if criterion is not None:
        check_criterion(criterion)  # unknown names before reading anything
    zero_division = _zero_division(long.get("zero-division", "0"))
    jobs, seed = long.get("jobs"), long.get("seed", 1)
    if jobs is not None and jobs < 1:
        raise OptionError("--jobs must be >= 1")
    address = long.get("dask")
    if address is not None:
        from ..cv.cluster import parse_address
        parse_address(address)
        if jobs is not None:
            raise OptionError("--jobs sets the local threads; with --dask the cluster's "
                              "workers run the folds")
    if not 0 <= seed <= 2**32 - 1:
        raise OptionError("--seed must be between 0 and 4294967295 (C srand's unsigned int)")
    memory = long.get("kernel-memory")
    if memory is not None and not memory >= 0:
        raise OptionError("--kernel-memory must be >= 0 (MB)")
    results = long.get("results")
    if results is not None and os.path.splitext(results)[1].lower() not in (".csv", ".json"):
        raise OptionError(f"--results {results}: the file name must end in .csv or .json")
    if not o.draw:
        o.png = None
    outputs = [p for p in (o.out, o.png, results, long.get("refit")) if p]
    for path in outputs:
        if o.dataset != "-" and _same_file(path, o.dataset):
            raise OptionError(f"{path}: is the data set; output would overwrite it")
    resume = rules.read_out(o.resume) if o.resume else {}

    from ..io.data import read_dataset
    dataset = read_dataset(o.dataset)
    out_file = None
    quiet = svm.quiet

    def on_start():
        nonlocal out_file
        if o.out:
            try:
                out_file = open(o.out, "a" if o.resume else "w", encoding="utf-8")
            except OSError as exc:
                raise SvmevalError(f"{o.out}: cannot write: {exc.strerror}") from None

    def on_finish(r):
        if out_file is not None:
            out_file.write(rules.out_line(r.cell, r.value))
            out_file.flush()

    def on_cell(r, best):
        _end_bar_line()
        print(rules.stdout_line("resumed" if r.resumed else "local", r.cell, r.value,
                                best.cell, best.value), flush=True)

    def progress(done, total, best):
        if _STATE.bar is not None:
            _STATE.bar.best = best
            _STATE.bar(done, total)

    if not quiet and _is_terminal(sys.stderr):
        _STATE.bar = _GridBar(sys.stderr)
    try:
        result = grid_search(dataset, svm.params, log2c=o.log2c, log2g=o.log2g, log2p=o.log2p,
                             folds=svm.nr_fold, criterion=criterion, seed=seed, jobs=jobs,
                             pos_label=long.get("pos-label"), zero_division=zero_division,
                             resume=resume, kernel_memory=memory, on_start=on_start,
                             on_cell=on_cell, on_finish=on_finish, progress=progress,
                             client=address)
    finally:
        if out_file is not None:
            out_file.close()
    if _STATE.bar is not None:
        _STATE.bar.close()
        _STATE.bar = None
    print(rules.last_line(result.best.cell, result.best.value), flush=True)
    if o.png:
        from .plot import plot_grid
        plot_grid(result, o.png, title=os.path.basename(o.dataset))
    if results:
        from ..io.output import atomic_write
        from ..report import render
        kind = "json" if results.lower().endswith(".json") else "csv"
        atomic_write(results, render(result, format=kind))
    if long.get("refit"):
        from ..cv.engine import train_and_save
        train_and_save(dataset, result.best_params, long["refit"], seed=seed)
    return 0


def _end_bar_line():
    """A stdout line while the bar is drawn on the same terminal: end the bar's line first."""
    bar = _STATE.bar
    if bar is not None and bar._open:
        bar.stream.write("\r\033[K")
        bar.stream.flush()
        bar._open = False
        bar._width = 0


def _zero_division(text):
    from ..options import ZERO_DIVISION
    value = ZERO_DIVISION.get(str(text).strip().lower())
    if value is None:
        raise OptionError(f"--zero-division: {text!r} is not one of 0, 1, nan")
    return value


class _GridBar(ProgressBar):
    """The progress bar with the best value so far: ``[####----] 12/110 cells  best 84.07 …``."""

    def __init__(self, stream):
        super().__init__(stream, unit="cells")
        self.best = None

    def line(self, done: int, total: int) -> str:
        text = super().line(done, total)
        if self.best is None:
            return text
        value = self.best.value
        shown = "undefined" if math.isnan(value) else f"{value:.6g}"
        head, sep, tail = text.partition("  elapsed")
        return f"{head}  best {shown}{sep}{tail}"

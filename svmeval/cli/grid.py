"""``svmeval-grid``: LIBSVM's grid.py command line, over svmeval's cross-validation.

The same options, defaults and output as grid.py (stdout lines, ``-out`` file, ``-resume``), any
figure as the criterion, every cell's figures on request, and a final model. Thin over
:func:`svmeval.workflows.grid.grid_search`; the options come from the one table
(:mod:`svmeval.cli.options`), and the runner checks every output before any work.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from dataclasses import dataclass, field, replace
from typing import TextIO

from svmeval.cli import runner
from svmeval.cli.fold_options import check_fold_options, fold_inputs, fold_sources
from svmeval.cli.options import GRID
from svmeval.cli.preprocess_options import (
    check_grid_preprocessing,
    is_search,
    preprocessing_flags,
    preprocessing_key,
    scale_spec,
)
from svmeval.cli.scan import asks_for_help, scan
from svmeval.cli.usage import usage_text
from svmeval.cli.values import GROUP_FOLDS, check_jobs_or_dask
from svmeval.errors import OptionError, ParameterError, SvmevalError, show_path
from svmeval.io import output
from svmeval.params import SvmParams
from svmeval.progress import ProgressBar, is_terminal
from svmeval.workflows import grid_rules as rules

PROG = "svmeval-grid"
USAGE = usage_text(GRID)


@dataclass(frozen=True)
class GridOptions:
    """Everything one svmeval-grid command line asks for."""

    dataset: str = ""
    params: SvmParams = field(default_factory=SvmParams)
    log2c: tuple | None = rules.DEFAULT_LOG2C
    log2g: tuple | None = rules.DEFAULT_LOG2G
    log2p: tuple | None = None
    log2w: tuple | None = None  # (label, begin, end, step): -log2w LABEL begin,end,step
    nr_fold: int = 5
    out: str | None = None
    png: str | None = None
    resume: str | None = None
    criterion: str | None = None  # None: accuracy, mse for -s 3 / -s 4
    jobs: int | None = None
    dask: str | None = None
    store: str | None = None  # --store FILE: the results store
    seed: int = 1
    pos_label: float | None = None
    zero_division: float = 0.0
    results: str | None = None
    refit: str | None = None
    kernel_memory: float | None = None
    quiet: bool = False
    nested: int | None = None  # --nested K: nested cross-validation (svmeval.cli.nested)
    repeat: int = 1
    predictions: str | None = None
    folds_file: str | None = None
    groups: str | None = None  # --groups FILE
    given_folds: str | None = None  # --given-folds FILE
    format: str = "text"
    scale: bool = False  # --scale, --scale-x L,U, --scale-y L,U, --select K: inside the folds
    scale_x: tuple | None = None
    scale_y: tuple | None = None
    select: int | tuple[int, ...] | str | None = None


#: --results FILE: the format by the file's suffix
RESULTS = {".csv": "csv", ".json": "json", ".html": "html"}

_IGNORED = ("svmtrain", "gnuplot", "help")  # grid.py's, read and without effect here

#: the files a grid writes: each given as "null" is not written, as grid.py's -out null
NULL_FILES = ("out", "png", "results", "refit", "predictions", "folds_file")


def parse_grid_args(argv: list[str]) -> GridOptions | None:
    """grid.py's command line: options, then the data set as the last argument (None:
    ``--help``)."""
    if asks_for_help(argv) or "-help" in argv:
        return None
    if not argv:
        raise OptionError("no data file given")
    dataset = argv[-1]
    if dataset.startswith("-") and dataset != "-":
        raise OptionError("no data file given (the data set is the last argument)")
    found = scan(argv[:-1], GRID)
    stray = found.positional + (["--"] + found.rest if found.rest is not None else [])
    if stray:
        raise OptionError(
            f"too many file names: {' '.join(map(show_path, stray))} "
            "(the data set is the last argument)"
        )
    values = dict(found.values)
    draw = values.pop("gnuplot", None) != "null"
    for name in NULL_FILES:  # grid.py's "null": no such file (-out null, -png null, ...)
        if values.get(name) == "null":
            values[name] = None
    for name in _IGNORED:
        values.pop(name, None)
    if values.get("nested") is not None:
        from svmeval.cli.nested import check_nested

        check_nested(values)
    title = os.path.basename(dataset)
    nested = values.get("nested") is not None
    values["out"] = values.pop("out", None if nested else f"{title}.out")
    values["png"] = values.get("png", None if nested else f"{title}.png") if draw else None
    if values.get("resume") == "":
        values["resume"] = f"{title}.out"
    try:
        params = SvmParams(**found.params, weight=tuple(found.weights))
    except ParameterError as exc:  # pragma: no cover - every value is checked by the table
        raise OptionError(str(exc)) from None
    return _check(GridOptions(dataset=dataset, params=params, **values), found.params)


def _check(o: GridOptions, given: dict) -> GridOptions:
    from svmeval.workflows.grid import check_criterion, default_criterion

    if o.log2c is None and o.log2g is None and o.log2w is None and not is_search(o.select):
        raise OptionError("-log2c and -log2g should not be null simultaneously")
    for name, axis, flag in (("C", o.log2c, "-c"), ("gamma", o.log2g, "-g"), ("p", o.log2p, "-p")):
        if name in given and axis is not None:
            raise OptionError(
                f"{flag} is searched: use --log2p"
                if flag == "-p"
                else f"{flag} is searched: use -log2{flag[1]} (or -log2{flag[1]} null)"
            )
    check_jobs_or_dask(o.jobs, o.dask)
    if o.results is not None and os.path.splitext(o.results)[1].lower() not in RESULTS:
        raise OptionError(
            f"--results {show_path(o.results)}: the file name must end in .csv, .json or .html"
        )
    check_fold_options(o)
    check_grid_preprocessing(o)
    if o.nested is not None and o.nr_fold == GROUP_FOLDS:
        raise OptionError("-v groups: not with --nested (give the inner grids' -v k)")
    if o.nested is None:
        from svmeval.cli.nested import check_plain

        check_plain(o)
    criterion = o.criterion or default_criterion(o.params)
    check_criterion(criterion)  # unknown names before reading anything
    return replace(o, criterion=criterion)


def files_of(o: GridOptions) -> tuple[list, list]:
    """``(outputs, inputs)`` of a search: grid.py's lines on standard output, the ``-out``
    file (appended to when it is the file resumed from), the picture, the results and the
    model; read: the data set and the file resumed from."""
    if o.nested is not None:
        from svmeval.cli.nested import files_of_nested

        return files_of_nested(o)
    outputs = [("the grid's lines", output.STDOUT)]
    outputs += [
        (flag, path)
        for flag, path in (
            ("-out", o.out),
            ("-png", o.png),
            ("--results", o.results),
            ("--refit", o.refit),
        )
        if path
    ]
    outputs += refit_side_files(o)
    inputs = [("the data set", o.dataset)] + fold_inputs(o)
    if o.resume and not (o.out and _same_file(o.resume, o.out)):
        inputs.append(("the -resume file", o.resume))
    return outputs, inputs


def refit_side_files(o: GridOptions) -> list[tuple[str, str]]:
    """``(what, path)`` of the files --refit's model comes with when it is trained on
    preprocessed rows (--scale: MODEL.range; --select: MODEL.features), none otherwise."""
    if o.refit is None or not preprocessing_flags(o):
        return []
    from svmeval.cv.run.preprocessed import side_files
    from svmeval.preprocess import Preprocessing

    learned = Preprocessing.of(scale_spec(o), o.select)
    return [(f"--refit's {what[4:]}", path) for what, path in side_files(o.refit, learned)]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def main(argv: list[str] | None = None) -> int:
    return runner.main(COMMAND, argv)


def run(o: GridOptions) -> int:
    from svmeval.workflows.grid import grid_search

    if o.nested is not None:
        from svmeval.cli.nested import run_nested

        return run_nested(o, COMMAND)

    from svmeval.workflows.grid import default_criterion

    criterion = o.criterion or default_criterion(o.params)  # as the options were checked
    targets = {t.what: t for t in runner.check_files(COMMAND, o)}
    weight = None if o.log2w is None else o.log2w[0]
    learned = preprocessing_key(o)
    sizes = is_search(o.select)
    resume = rules.read_resume(o.resume, criterion, weight, learned, sizes) if o.resume else {}
    if o.resume and o.out and not _same_file(o.resume, o.out) and os.path.isfile(o.out):
        text = rules.read_out_text(o.out)  # the file appended to: the same preprocessing
        rules.check_learned(o.out, text, rules.parse_out(text), learned)
    dataset = runner.read_single_label(o.dataset, PROG)
    folds, sources = fold_sources(o, dataset.n_samples, default=5)
    out = _OutFile(targets.get("-out"), append=bool(o.resume), criterion=criterion)
    out.learned = learned
    runner.on_interrupt(lambda: _how_to_resume(o, out))

    lines = o.format != "html"  # grid.py's lines, or the page alone on standard output

    def on_cell(r, best):  # each cell as soon as it is known: its line, and its -out line
        _clear_line(bar)
        if lines:
            runner.say(
                rules.stdout_line(
                    "resumed" if r.resumed else "local",
                    r.cell,
                    r.rate,
                    best.cell,
                    best.rate,
                    best_resumed=best.resumed,
                )
            )
        if not r.resumed:
            out.write_cell(r)

    def progress(done, total, best):
        if bar is not None:
            bar.best = best
            bar(done, total)

    bar = None
    if not o.quiet and is_terminal(sys.stderr):
        bar = runner.show_bar(_GridBar(sys.stderr))
    share = False if o.kernel_memory == 0 else None  # 0 MB: no matrix shared
    try:
        result = grid_search(
            dataset,
            o.params,
            log2c=o.log2c,
            log2g=o.log2g,
            log2p=o.log2p,
            log2w=o.log2w,
            folds=folds,
            **sources,
            criterion=o.criterion,
            seed=o.seed,
            jobs=o.jobs,
            pos_label=o.pos_label,
            zero_division=o.zero_division,
            resume=resume,
            kernel_memory=o.kernel_memory or None,
            share=share,
            on_cell=on_cell,
            progress=progress,
            client=o.dask,
            scale=scale_spec(o),
            select=o.select,
        )
    finally:
        out.close()
    runner.end_bar_line()
    if lines:
        runner.say(rules.last_line(result.best.cell, result.best.rate, resumed=result.best.resumed))
    _write_after(o, targets, result, dataset)
    if not lines:
        page = runner.render_report(result, "html")
        output.write_outputs([(runner.check_files(COMMAND, o)[0], page)])
    return 0


def _how_to_resume(o: GridOptions, out: _OutFile) -> str | None:
    """How an interrupted search continues from its ``-out`` file (None: it wrote no cell
    there, or the file is not one a run can read again)."""
    if not out.cells or o.out is None or out.target.kind not in ("file", "inplace"):
        return None
    import shlex

    name = shlex.quote(runner.printable(o.out))
    if o.resume and _same_file(o.resume, o.out):
        return f"the same command continues from {name}"
    return f"run it again with -resume {name} to continue"


def _write_after(o: GridOptions, targets: dict, result, dataset) -> None:
    """The picture, the results and the model: all written, or none."""
    wanted = [flag for flag in ("-png", "--results", "--refit") if flag in targets]
    if "--refit" in wanted:  # the model's range and features files, with it or not at all
        wanted += [what for what, _ in refit_side_files(o)]
    if "-png" in wanted and importlib.util.find_spec("matplotlib") is None:
        runner.no_picture(PROG, f"-png {show_path(o.png)}")
        wanted.remove("-png")
    if not wanted:
        return
    with output.atomic_paths([targets[flag] for flag in wanted]) as paths:
        where = dict(zip(wanted, paths))
        if "-png" in where:
            from svmeval.report.grid_plot import plot_grid

            plot_grid(result, where["-png"], title=os.path.basename(o.dataset))
        if "--results" in where and o.results is not None:
            kind = RESULTS[os.path.splitext(o.results)[1].lower()]
            with open(where["--results"], "w", encoding="utf-8") as fh:
                fh.write(runner.render_report(result, kind))
        if "--refit" in where:
            from svmeval.cv.engine import preprocessing_of
            from svmeval.cv.training import save_model_files

            learned = preprocessing_of(scale_spec(o), o.select, dataset, [result.best_params])
            paths = [where["--refit"]] + [where[what] for what, _ in refit_side_files(o)]
            save_model_files(dataset, result.best_params, paths, seed=o.seed, preprocessing=learned)


class _OutFile:
    """The ``-out`` file, written as it goes (grid.py's contract): a line per cell as soon as
    it is finished, flushed, so that a search stopped at any moment leaves every cell it
    finished. The cells come in grid.py's job order (the order grid.py with its one local
    worker writes) unless kernels are shared gamma by gamma or the search is interrupted; the
    first line out of that order follows :data:`~svmeval.workflows.grid_rules.ORDER_LINE`, so
    that resuming from the file (the cells before that line first, in the file's order, as
    grid.py; the others in grid.py's job order) finds the whole run's best. The file is opened
    when the first cell's line is due, so a run that fails before (a data set or an argument
    refused, a Ctrl-C) leaves no file, and an existing one untouched. Resuming appends, after
    cutting a last line that lacks its newline (a run stopped while writing it: that cell is
    searched again); a new file of a criterion other than accuracy opens with the line that
    records it."""

    def __init__(self, target, *, append: bool, criterion: str):
        self.target, self.append, self.criterion = target, append, criterion
        self.fh: TextIO | None = None
        self.marked = False  # the order line written
        self.cells = 0  # cells written
        self.learned = ""  # the preprocessing learned inside the folds (its line)

    def write_cell(self, r) -> None:
        """The ``-out`` line of a cell's result ``r``, after the order line if ``r`` is the
        first cell written out of the search's order."""
        if self.target is None:
            return
        if self.fh is None:
            self._open()
        if r.ahead and not self.marked:
            self.write(rules.ORDER_LINE)
            self.marked = True
        self.write(rules.out_line(r.cell, r.rate))
        self.cells += 1

    def _open(self) -> None:
        path = self.target.real if self.target.real else self.target.path
        try:
            if self.target.kind == "fd":
                fh = open(self.target.fd, "w", encoding="utf-8", closefd=False)
            else:
                if self.append and self.target.kind in ("file", "inplace"):
                    _cut_partial_line(path)
                fh = open(path, "a" if self.append else "w", encoding="utf-8")
            self.fh = fh
            if fh.seekable() and fh.tell() == 0 or not self.append:
                self.write(rules.criterion_line(self.criterion))
                self.write(rules.preprocessing_line(self.learned))
            elif self.learned and rules.out_preprocessing(rules.read_out_text(path)) is None:
                self.write(rules.preprocessing_line(self.learned))
        except OSError as exc:
            raise self._error(exc) from None

    def write(self, line: str) -> None:
        if self.fh is None or not line:
            return
        try:
            self.fh.write(line)
            self.fh.flush()
        except OSError as exc:
            raise self._error(exc) from None

    def close(self) -> None:
        if self.fh is not None:
            fh, self.fh = self.fh, None
            try:
                fh.close()
            except OSError:
                pass  # what could not be written was reported by write()

    def _error(self, exc: OSError) -> SvmevalError:
        return output.OutputError(
            f"-out {show_path(self.target.path)}: cannot write: {exc.strerror or exc}"
        )


def _cut_partial_line(path: str) -> None:
    """Cut what follows the last newline of ``path`` (nothing when it ends with one)."""
    try:
        with open(path, "rb+") as fh:
            size = fh.seek(0, os.SEEK_END)
            keep = size
            while keep > 0:
                step = min(keep, 65536)
                fh.seek(keep - step)
                chunk = fh.read(step)
                at = chunk.rfind(b"\n")
                if at >= 0:
                    keep = keep - step + at + 1
                    break
                keep -= step
            if keep != size:
                fh.truncate(keep)
    except FileNotFoundError:
        return


def _clear_line(bar) -> None:
    """A stdout line while the bar is drawn on the same terminal: blank the bar's line first
    (the bar is drawn again on the next progress)."""
    if bar is not None:
        with output.STDERR_LOCK:
            bar.clear()


class _GridBar(ProgressBar):
    """The progress bar with the best value so far: ``[####----] 12/110 cells  best 84.07 …``."""

    def __init__(self, stream):
        super().__init__(stream, unit="cells")
        self.best = None

    def line(self, done: int, total: int) -> str:
        text = super().line(done, total)
        if self.best is None:
            return text
        value = self.best.rate
        shown = "undefined" if math.isnan(value) else f"{value:.6g}"
        head, sep, tail = text.partition("  elapsed")
        return f"{head}  best {shown}{sep}{tail}"


COMMAND = runner.Command(PROG, USAGE, parse_grid_args, files_of, run, name=GRID)

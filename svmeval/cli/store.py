"""svmeval-store: what a results store holds, a run's report exported from it, units deleted.

A command of its own rather than a mode of ``svmeval``: a store holds the runs of all three
commands, and ``svmeval``'s options are svm-train's, which these operations have nothing to do
with. It keeps the commands' conventions: strict options, ``--help``, ``--version``, one line
and exit status 1 for any error.

Nothing a store holds is trusted: names, options and command lines are shown with their
control characters escaped; an exported run is the recorded command line read again by that
command's own option parser (never a shell), with every output file of it dropped (the report
goes to standard output) and every fold taken from the store: a fold the store lacks is an
error, nothing is trained. A run made by a function of the library (``store=``) is exported as
the command line that makes the same run (:mod:`svmeval.cli.calls`), which the listing shows;
a call no command makes is listed with the reason, and its export refused with it.
"""

from __future__ import annotations

import json
import os
import shlex
import textwrap
from dataclasses import dataclass, replace

from svmeval.cli import runner
from svmeval.cli.option_type import COLUMNS
from svmeval.cli.options import STORE
from svmeval.errors import OptionError, SvmevalError
from svmeval.io import output

PROG = "svmeval-store"

USAGE = f"""\
Usage: {PROG} [options] store_file
Lists what a results store (made with --store FILE) holds: its data sets, the
configurations and folds stored for each, and the runs that used it; exports a
run's report as its command printed it, from the store alone; deletes units.
options:
--runs : list the runs only (each with its number, when, its counts and its
\tcommand line)
--format FORMAT : the listing as text (default) or json; with --export, the
\treport's format (as the run's command takes it: text, json, csv,
\tmarkdown, latex, html)
--export RUN : print the report of run RUN (its number in the listing) as its
\tcommand printed it (a run made from Python: as the command line listed
\twith it prints it), every fold taken from the store (nothing is trained;
\tthe data files must still be where the run read them); no other file is
\twritten
--delete-data DATA : delete the units of a data set (its name or digest as
\tlisted)
--delete-configuration OPTIONS : delete the units of a configuration (its
\toptions as listed, e.g. "-g 0.5 -c 8"); with --delete-data, only that
\tdata set's
--help : show this help
--version : show svmeval's version
"""


@dataclass(frozen=True)
class StoreOptions:
    """One svmeval-store command line."""

    path: str = ""
    runs: bool = False
    format: str | None = None
    export: int | None = None
    delete_data: str | None = None
    delete_configuration: str | None = None


_VALUED = {
    "--format": "format",
    "--export": "export",
    "--delete-data": "delete_data",
    "--delete-configuration": "delete_configuration",
}


def parse_store_args(argv: list[str]) -> StoreOptions | None:
    """The command line (None: ``--help``); every problem is an :class:`OptionError`."""
    if "--help" in argv:
        return None
    values: dict = {}
    files = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        flag, eq, inline = arg.partition("=")
        if arg == "--runs":
            values["runs"] = True
        elif flag in _VALUED:
            if eq:
                value = inline
            elif i < len(argv):
                value, i = argv[i], i + 1
            else:
                raise OptionError(f"option {flag} needs a value")
            if value == "":
                raise OptionError(f"option {flag}: the value is empty")
            if _VALUED[flag] in values:
                raise OptionError(f"option {flag} is given twice")
            values[_VALUED[flag]] = value
        elif arg.startswith("-") and arg != "-":
            raise OptionError(f"unknown option: {runner.printable(arg)}")
        else:
            files.append(arg)
    if len(files) != 1:
        raise OptionError("give one store file" if not files else "give only one store file")
    if "export" in values:
        text = values["export"]
        if not text.isdigit() or int(text) < 1 or len(text) > 18:
            raise OptionError(f"--export {runner.printable(text)}: a run's number (1, 2, ...)")
        values["export"] = int(text)
    fmt = values.get("format")
    if fmt is not None and "export" not in values and fmt not in ("text", "json"):
        raise OptionError(f"--format {runner.printable(fmt)}: the listing is text or json")
    deleting = "delete_data" in values or "delete_configuration" in values
    if sum(("export" in values, deleting, bool(values.get("runs")))) > 1:
        raise OptionError("--export, --delete-* and --runs go one at a time")
    return StoreOptions(path=files[0], **values)


def files_of(o: StoreOptions) -> tuple[list, list]:
    return [("the listing", output.STDOUT)], [("the store", o.path)]


def main(argv: list[str] | None = None) -> int:
    return runner.main(COMMAND, argv)


def run(o: StoreOptions) -> int:
    from svmeval.store import Store

    if o.export is not None:
        return export(o)
    with Store(o.path, create=False) as store:
        if o.delete_data is not None or o.delete_configuration is not None:
            n = store.delete(data=o.delete_data, configuration=o.delete_configuration)
            runner.say(f"{n} units deleted")
            return 0
        listing = {
            "store": store.meta(),
            "data_sets": [] if o.runs else store.datasets(),
            "configurations": [] if o.runs else [_library_key(u) for u in store.units()],
            "runs": [_with_command(r) for r in store.runs()],
        }
    text = json.dumps(listing, indent=2) + "\n" if o.format == "json" else _text(listing, o.runs)
    output.write_outputs([(runner.check_files(COMMAND, o)[0], text)])
    return 0


def _text(listing: dict, runs_only: bool) -> str:
    p = runner.printable
    meta = listing["store"]
    lines = _entry(
        f"{p(meta.get('format', ''))}, schema {p(meta.get('schema', ''))},",
        f"created {p(meta.get('created', ''))} by svmeval {p(meta.get('svmeval', ''))}",
    )
    lines[0] = lines[0][2:]  # the store's own line is not an item
    if not runs_only:
        lines.append("data sets:")
        for d in listing["data_sets"]:
            lines += _entry(
                p(d["data_name"]),
                f"sha256 {p(d['data'])[:16]}",
                f"{_count(d['units'], 'unit')}, {_count(d['configurations'], 'configuration')},",
                f"{p(d['first'])} to {p(d['last'])}",
            )
        lines.append("configurations (data set, kind, options, folds, seed: units stored):")
        for u in listing["configurations"]:
            lines += _entry(
                p(u["data_name"]),
                p(u["kind"]),
                f"{p(u['configuration']) or '(defaults)'} -v {u['n_folds']} --seed {u['seed']}: "
                f"{_count(u['folds'], 'unit')},",
                f"{u['seconds']:.3g} s, svmeval {p(u['svmeval'])}, {_library(u)}",
            )
    lines.append("runs (number, started, ended, units reused and computed, command):")
    for r in listing["runs"]:
        ended = p(r["finished"]) if r["finished"] else "interrupted"
        said = []
        if r["equivalent"] is not None:
            said = [f"as {p(r['equivalent'])}"]
        elif r["call"] is not None or r["not_exported"] is not None:
            said = [f"(no command: {p(r['not_exported'])})"]
        lines += _entry(
            str(r["id"]),
            p(r["started"]),
            ended,
            f"{r['reused']} reused, {r['computed']} computed",
            p(r["command"]),
        )
        for part in said:  # a line of its own: the command line, or why there is none
            lines += _wrapped(part)
    return "\n".join(lines) + "\n"


def _with_command(run_: dict) -> dict:
    """A listed run with its call read (``call``: the JSON object, or None for a command's
    run), the command line that makes it (``equivalent``: a run of the library's that a
    command makes, else None) and, for a function's run no command makes, why
    (``not_exported``)."""
    argv, why = _command_of(run_)
    text = run_.get("call")
    try:
        call = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):  # a store is data: a call edited by hand
        call = text
    from_call = text is not None or why is not None
    return {
        **run_,
        "call": call,
        "equivalent": " ".join(shlex.quote(a) for a in argv) if argv and from_call else None,
        "not_exported": why,
    }


def _command_of(run_: dict) -> tuple[list[str] | None, str | None]:
    """``(argv, None)``: the command line of run ``run_`` (its own, or the one that makes the
    run of a library's call); ``(None, why)`` where no command makes it."""
    from svmeval.cli.calls import NoCommand, equivalent

    text = run_.get("call")
    if text is not None:
        try:
            argv = equivalent(json.loads(str(text)))
        except (ValueError, RecursionError):
            return None, "its call is not recorded as svmeval records calls"
        except NoCommand as exc:
            return None, str(exc)
        try:  # the line as its command reads it (a value the library took, the command not)
            _commands()[argv[0]].parse(argv[1:])
        except SvmevalError as exc:
            return None, f"{argv[0]} refuses the line that would make it ({exc})"
        return argv, None
    try:
        argv = shlex.split(str(run_["command"]))
    except ValueError:
        argv = []
    if argv and argv[0] in _COMMANDS:
        return argv, None
    command = runner.printable(str(run_["command"])[:60])
    return None, (
        f"made by {command}, not by a command, and its arguments are not recorded (svmeval "
        "records a function's arguments since schema version 2)"
    )


_COMMANDS = ("svmeval", "svmeval-grid", "svmeval-compare", "svmeval-linear")


def _commands() -> dict:
    """Each command a store's run may be exported with, by its program name."""
    from svmeval.cli import compare, grid, linear, svmeval

    return {
        "svmeval": svmeval.COMMAND,
        "svmeval-grid": grid.COMMAND,
        "svmeval-compare": compare.COMMAND,
        "svmeval-linear": linear.COMMAND,
    }


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _entry(*parts: str) -> list[str]:
    """One listed item in 80 columns: its parts in the order of the heading's words, each
    after a comma and one space (after one space where a part ends with its own comma or
    colon), a part that does not fit the line starting the next one (indented), a part wider
    than a line broken by words."""
    lines = ["  " + parts[0]]
    for n, part in enumerate(parts[1:], 2):
        if not lines[-1].endswith((",", ":")):
            lines[-1] += ","
        comma = 0 if n == len(parts) or part.endswith((",", ":")) else 1  # room for its own
        if len(lines[-1]) + 1 + len(part) + comma <= COLUMNS:
            lines[-1] += " " + part
            continue
        lines += _wrapped(part, COLUMNS - comma)
    return lines


def _wrapped(part: str, width: int = COLUMNS) -> list[str]:
    """``part`` on lines of its own, indented, broken by words (never inside one)."""
    return textwrap.wrap(
        part,
        width,
        initial_indent=_MORE,
        subsequent_indent=_MORE,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [_MORE]


_MORE = " " * 6  # the indent of an item's further lines

#: the options of each command's Options that name a file the run writes
_OUTPUTS = (
    "out",
    "png",
    "results",
    "refit",
    "output",
    "plot",
    "predictions",
    "folds_file",
    "resume",
)


def export(o: StoreOptions) -> int:
    """Run ``o.export``'s command line again on the store alone, its report to stdout."""
    from svmeval.cv.run.store_session import reuse_only
    from svmeval.store import Store, StoreError

    path = os.path.abspath(o.path)
    with Store(path, create=False) as store:
        found = [r for r in store.runs() if r["id"] == o.export]
    if not found:
        raise StoreError(f"{runner.printable(o.path)}: no run {o.export} (see {PROG} --runs)")
    run_ = found[0]
    commands = _commands()
    argv, why = _command_of(run_)
    if argv is None or argv[0] not in commands:
        raise StoreError(f"run {o.export} cannot be exported: {runner.printable(why)}")
    command = commands[argv[0]]
    argv = _without_format(argv[1:])
    if o.format is not None:  # before any "--" (svmeval-compare's configurations follow it)
        argv = ["--format", o.format, *argv]
    options = command.parse(argv)
    if options is None or getattr(options, "score", None) or getattr(options, "mcnemar", False):
        raise StoreError(f"run {o.export} has no cross-validation to export")
    if hasattr(options, "cross_validation") and not options.cross_validation:
        raise StoreError(f"run {o.export} trained a model (no -v): nothing to export")
    # no file written, and no cluster reached (an address from a store is not trusted):
    # the folds come from the store, the same on any executor
    dropped = {f: None for f in (*_OUTPUTS, "dask") if hasattr(options, f)}
    options = replace(options, store=path, **dropped)
    cwd = run_.get("cwd") or os.getcwd()
    here = os.getcwd()
    try:
        os.chdir(cwd)  # the data files as the run named them
    except OSError as exc:
        raise StoreError(
            f"run {o.export} ran in {runner.printable(cwd)}: {exc.strerror or exc}"
        ) from None
    try:
        _check_datasets(run_, int(run_["id"]))
        runner.check_files(command, options)
        try:
            with reuse_only(), runner.results_store(command, options, path, argv) as counts:
                status = command.run(options)
            del counts
        except StoreError as exc:
            if getattr(exc, "folds_missing", 0):
                _check_unchanged(command, options, path, int(run_["id"]))
            raise
    finally:
        os.chdir(here)
    return status


def _library_key(u: dict) -> dict:
    """A listed configuration with its library's version under its library's name:
    ``liblinear`` for LIBLINEAR's units, ``libsvm`` for LIBSVM's."""
    if u.get("kind") not in _LIBLINEAR_KINDS:
        return u
    return {("liblinear" if k == "libsvm" else k): v for k, v in u.items()}


#: the kinds of LIBLINEAR's units: its cross-validation's, and its folds on svmeval's
#: (svmeval.cv.run.linear_store.UNIT_KIND, FOLDS_KIND)
_LIBLINEAR_KINDS = ("liblinear-cv-fold", "liblinear-fold")


def _library(u: dict) -> str:
    """The library and version that computed a configuration's units: LIBLINEAR's for its
    units (kinds ``liblinear-cv-fold`` and ``liblinear-fold``), else LIBSVM's."""
    if u["kind"] in _LIBLINEAR_KINDS:
        return f"LIBLINEAR {runner.printable(u['liblinear'])}"
    return f"LIBSVM {runner.printable(u['libsvm'])}"


def _check_datasets(run_: dict, number: int) -> None:
    """A library's run given a Dataset: the file of its name must hold the same rows (its
    digest as recorded), else the export says so (rather than missing every fold)."""
    from svmeval.io.data import read_dataset
    from svmeval.store import StoreError

    try:
        call = json.loads(str(run_["call"])) if run_.get("call") is not None else {}
    except (ValueError, RecursionError):  # pragma: no cover - refused by _command_of already
        return
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
        return
    arguments = call.get("arguments", {})
    given = arguments.get("datasets") or [arguments.get("data")]
    multilabel = call.get("function") == "cross_validate_multilabel"
    for data in given:
        if isinstance(data, dict) and "dataset" in data and "digest" in data:
            name = str(data["dataset"])
            if read_dataset(name, multilabel=multilabel).digest() != data["digest"]:
                raise StoreError(
                    f"run {number} was given a Dataset named {runner.printable(name)} whose "
                    "rows are not that file's now"
                )


def _check_unchanged(command, options, path: str, number: int) -> None:
    """Folds missing in an export: a data file whose rows the store holds under its name in no
    version is a file changed since the run, and the export says so."""
    from svmeval.io.data import read_dataset
    from svmeval.store import Store, StoreError

    with Store(path, create=False) as store:
        stored = store.datasets()
    names = {str(d["data_name"]) for d in stored}
    digests = {str(d["data"]) for d in stored}
    multilabel = bool(getattr(options, "multilabel", False))
    for _, name in command.files(options)[1]:
        if name in names and read_dataset(name, multilabel=multilabel).digest() not in digests:
            raise StoreError(
                f"{runner.printable(name)}: its rows are not those the store holds for that "
                f"file: it changed since run {number} (an export trains nothing)"
            )


def _without_format(argv: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--":
            return out + argv[i:]
        if argv[i] == "--format":
            i += 2
            continue
        if argv[i].startswith("--format="):
            i += 1
            continue
        out.append(argv[i])
        i += 1
    return out


COMMAND = runner.Command(PROG, USAGE, parse_store_args, files_of, run, name=STORE)

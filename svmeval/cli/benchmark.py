"""``svmeval-compare DATA... -- A -- B [-- C ...]``: many data sets x many configurations.

Thin over :func:`svmeval.workflows.benchmark.benchmark`: every configuration on every data set
over the same seeded folds, the :class:`~svmeval.workflows.benchmark.Benchmark` rendered as text, json,
csv, markdown or latex (:mod:`svmeval.report.benchmark`), and ``--plot FILE`` its
critical-difference diagram (:mod:`svmeval.report.cd_plot`). ``--test 5x2cv`` is 5
repetitions of 2-fold cross-validation: a contradicting ``-v`` or ``--repeat`` is refused.
``--confidence C`` sets the tests' level, 1 - C. ``--groups FILE`` and ``--given-folds FILE``
come once per data file, in the data files' order, ``-`` for one on LIBSVM's folds
(:func:`check_fold_files`).
"""

from __future__ import annotations

from dataclasses import replace

from svmeval.cli import runner
from svmeval.cli.preprocess_options import scale_spec
from svmeval.errors import OptionError
from svmeval.io import output
from svmeval.progress import make_progress

PROG = "svmeval-compare"


def check_benchmark(o):
    """The options of a benchmark line, checked before any work."""
    if o.dask is not None:
        raise OptionError(
            "--dask: not with several data sets or configurations (they run "
            "here; --jobs sets the threads)"
        )
    if o.test == "5x2cv":
        wrong = [
            f"{flag} {getattr(o, name)}"
            for name, flag, want in (("nr_fold", "-v", 2), ("repeat", "--repeat", 5))
            if name in o.given and getattr(o, name) != want
        ]
        if wrong:
            raise OptionError(
                f"--test 5x2cv is 5 repetitions of 2-fold cross-validation: not {', '.join(wrong)}"
            )
        o = replace(o, nr_fold=2, repeat=5)
    if o.plot:
        from svmeval.report import plot

        plot.check_path(o.plot)
    return o


NONE = "-"  # --groups - / --given-folds -: this data file is cross-validated on LIBSVM's folds


def check_fold_files(o):
    """A benchmark line's --groups and --given-folds, before any file is read: none, or one
    of each given per data file, in their order (``-``: LIBSVM's folds); a data file takes
    groups or given folds, not both; -v groups needs groups for every data file."""
    from svmeval.cli.values import GROUP_FOLDS

    n = len(o.files)
    for flag, every in (("--groups", o.groups_files), ("--given-folds", o.given_folds_files)):
        if every and len(every) != n:
            raise OptionError(
                f"{flag}: given {_times(len(every))} for {n} data files: give one per data "
                f"file, in their order ({flag} - for one on LIBSVM's folds)"
            )
    groups = o.groups_files or (NONE,) * n
    given = o.given_folds_files or (NONE,) * n
    for path, g, f in zip(o.files, groups, given):
        if g != NONE and f != NONE:
            raise OptionError(
                f"--groups, --given-folds: {path}: the folds come from one of them, not both"
            )
    if o.nr_fold == GROUP_FOLDS and NONE in groups:
        raise OptionError("-v groups: one fold a group needs --groups FILE for every data file")
    if all(f == NONE for f in given) and o.given_folds_files and "repeat" not in o.given:
        o = replace(o, repeat=10)  # no data file takes given folds: the default repetitions
    return replace(o, groups_files=groups, given_folds_files=given)


def fold_files(o) -> list[tuple[str, str]]:
    """The files the --groups and --given-folds of a benchmark line read."""
    return [("the groups file", g) for g in o.groups_files if g != NONE] + [
        ("the folds file", f) for f in o.given_folds_files if f != NONE
    ]


def _fold_plan(o, datasets: list) -> tuple[int, dict]:
    """``(k, the benchmark's groups= and given_folds=)``: each file read and checked against
    its data file's rows, before any work; k the same on every data file (-v groups: the
    groups' number; -v left out: the folds given, where a data file has them)."""
    from svmeval.cli.fold_options import fold_sources
    from svmeval.cli.values import GROUP_FOLDS

    ks, groups, given = [], [], []
    # -v left out: the folds given say k (-v's default is no sentinel a file can say)
    default = o.nr_fold if "nr_fold" not in o.given else GROUP_FOLDS
    for ds, g, f in zip(datasets, o.groups_files, o.given_folds_files):
        k, sources = 0, dict[str, str]()
        if g != NONE or f != NONE:
            one = replace(o, groups=None if g == NONE else g, given_folds=None if f == NONE else f)
            k, sources = fold_sources(one, ds.n_samples, default=default)
        ks.append((k, ds.name))
        groups.append(sources.get("groups"))
        given.append(sources.get("given_folds"))
    known = {k for k, _ in ks if k}
    if len(known) > 1:
        shown = ", ".join(f"{name} {k}" for k, name in ks if k)
        raise OptionError(f"the folds differ between data files ({shown}): a benchmark takes one k")
    k = known.pop() if known else o.nr_fold
    out: dict = {}
    if any(g is not None for g in groups):
        out["groups"] = groups
    if any(f is not None for f in given):
        out["given_folds"] = given
    return k, out


def names_of(configurations: tuple) -> list[str]:
    """Each configuration's name in the report: its svm-train options (or "defaults")."""
    return [" ".join(c) or "defaults" for c in configurations]


def run_benchmark_line(o, command: runner.Command) -> int:
    from svmeval.workflows.benchmark import benchmark

    datasets = [runner.read_single_label(path, PROG) for path in o.files]
    folds, sources = _fold_plan(o, datasets)
    configurations = dict(zip(names_of(o.configurations), o.params))
    if len(configurations) < len(o.params):
        raise OptionError("two configurations have the same options: give each its own")
    total = sum(len(o.params) * o.repeat * min(folds, ds.n_samples) for ds in datasets)
    bar = runner.show_bar(make_progress(enabled="quiet" not in o.given, total=total))
    bench = benchmark(
        datasets,
        configurations,
        folds,
        **sources,
        repeat=o.repeat,
        seed=o.seed,
        criterion=o.criterion,
        pos_label=o.pos_label,
        zero_division=o.zero_division,
        jobs=o.jobs,
        client=o.dask,
        confidence_level=o.confidence,
        scale=scale_spec(o),
        select=o.select,
        rope=o.rope,
        draws=o.draws,
        test=o.test,
        progress=bar,
    )
    runner.end_bar_line()
    text = runner.render_report(bench, o.format)
    targets = {t.what: t for t in runner.check_files(command, o)}  # the files may have changed
    report = targets["-o" if o.output else "the report"]
    if not o.plot:
        output.write_outputs([(report, text)])
        return 0
    from svmeval.report.cd_plot import draw_cd_diagram
    from svmeval.report.plot import PlotUnavailable, check_path

    try:
        figure = draw_cd_diagram(bench)
    except PlotUnavailable:  # the report all the same, and one line: how to get the picture
        output.write_outputs([(report, text)])
        runner.no_picture(command.prog, "--plot")
        return 0
    with output.atomic_paths([targets["--plot"]]) as (path,):
        figure.savefig(path, format=check_path(o.plot), dpi=130)
        output.write_outputs([(report, text)])
    return 0


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")

"""``svmeval-compare DATA... -- A -- B [-- C ...]``: many data sets x many configurations.

Thin over :func:`svmeval.workflows.benchmark.benchmark`: every configuration on every data set
over the same seeded folds, the :class:`~svmeval.workflows.benchmark.Benchmark` rendered as text, json,
csv, markdown or latex (:mod:`svmeval.report.benchmark`), and ``--plot FILE`` its
critical-difference diagram (:mod:`svmeval.report.cd_plot`). ``--test 5x2cv`` is 5
repetitions of 2-fold cross-validation: a contradicting ``-v`` or ``--repeat`` is refused.
``--confidence C`` sets the tests' level, 1 - C.
"""

from __future__ import annotations

from dataclasses import replace

from svmeval.cli import runner
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


def names_of(configurations: tuple) -> list[str]:
    """Each configuration's name in the report: its svm-train options (or "defaults")."""
    return [" ".join(c) or "defaults" for c in configurations]


def run_benchmark_line(o, command: runner.Command) -> int:
    from svmeval.workflows.benchmark import benchmark

    datasets = [runner.read_single_label(path, PROG) for path in o.files]
    configurations = dict(zip(names_of(o.configurations), o.params))
    if len(configurations) < len(o.params):
        raise OptionError("two configurations have the same options: give each its own")
    folds = sum(len(o.params) * o.repeat * min(o.nr_fold, ds.n_samples) for ds in datasets)
    bar = runner.show_bar(make_progress(enabled="quiet" not in o.given, total=folds))
    bench = benchmark(
        datasets,
        configurations,
        o.nr_fold,
        repeat=o.repeat,
        seed=o.seed,
        criterion=o.criterion,
        pos_label=o.pos_label,
        zero_division=o.zero_division,
        jobs=o.jobs,
        client=o.dask,
        confidence_level=o.confidence,
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

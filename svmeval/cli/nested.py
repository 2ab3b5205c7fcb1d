"""``svmeval-grid --nested K``: nested cross-validation of the grid search.

Thin over :func:`svmeval.workflows.nested.nested_cv`: the outer folds are ``svmeval -v K --seed N``'s,
each outer training set gets the grid ``svmeval-grid`` would run on it (its ``-v``, ranges,
criterion, seed). The report of the outer predictions (:func:`svmeval.report.render` of the
:class:`~svmeval.workflows.nested.NestedResult`) goes to standard output; ``--predictions`` and
``--folds`` write the outer predictions and folds. A search per outer fold has no grid.py
``-out`` file, picture, ``-resume``, ``--results`` or final model: those are refused.
"""

from __future__ import annotations

from dataclasses import replace

from svmeval.cli import runner
from svmeval.cli.fold_options import fold_inputs, fold_sources
from svmeval.cli.options import TABLE_FORMATS
from svmeval.cli.preprocess_options import scale_spec
from svmeval.errors import OptionError
from svmeval.io import output
from svmeval.progress import make_progress

#: options that make no sense with --nested, and why
REFUSED = {
    "out": "-out",
    "png": "-png",
    "resume": "-resume",
    "results": "--results",
    "refit": "--refit",
}


def check_nested(values: dict) -> None:
    """The option values of a --nested line, refusing what a nested run cannot do."""
    if values.get("format") in TABLE_FORMATS:
        raise OptionError(
            f"--format {values['format']}: svmeval-compare's benchmark table "
            "only (svmeval-grid --nested: text, json, csv or html)"
        )
    given = [
        flag
        for name, flag in REFUSED.items()
        if values.get(name) is not None  # "null": no file (svmeval.cli.grid.NULL_FILES)
    ]
    if given:
        raise OptionError(
            f"{', '.join(given)}: not with --nested (each outer fold runs its own "
            "grid; run svmeval-grid without --nested for the grid's files and "
            "the final model)"
        )


def check_plain(o) -> None:
    """Options a grid search without --nested refuses (they belong to --nested; a grid's
    report is grid.py's lines, or with ``--format html`` its page)."""
    used = [
        flag
        for flag, value in (
            ("--repeat", o.repeat != 1),
            ("--predictions", o.predictions),
            ("--folds", o.folds_file),
            ("--format", o.format not in ("text", "html")),
        )
        if value
    ]
    if used:
        raise OptionError(f"{', '.join(used)}: only with --nested K")


def files_of_nested(o) -> tuple[list, list]:
    """``(outputs, inputs)`` of a nested run: the report, the predictions, the folds."""
    outputs = [("the report", output.STDOUT)]
    outputs += [
        (flag, path)
        for flag, path in (("--predictions", o.predictions), ("--folds", o.folds_file))
        if path
    ]
    return outputs, [("the data set", o.dataset)] + fold_inputs(o)


def folds_text(result) -> str:
    """The fold (1..k) that tested each sample, one per line in input order."""
    return "".join(f"{int(f) + 1}\n" for f in result.fold.tolist())


def run_nested(o, command: runner.Command) -> int:
    from svmeval.io.predictions import format_predictions
    from svmeval.workflows.nested import nested_cv

    dataset = runner.read_single_label(o.dataset, "svmeval-grid")
    outer, sources = fold_sources(replace(o, nr_fold=o.nested), dataset.n_samples)
    bar = runner.show_bar(make_progress(enabled=not o.quiet, unit="outer folds"))
    result = nested_cv(
        dataset,
        o.params,
        outer,
        **sources,
        log2c=o.log2c,
        log2g=o.log2g,
        log2p=o.log2p,
        log2w=o.log2w,
        inner_folds=o.nr_fold,
        criterion=o.criterion,
        seed=o.seed,
        repeat=o.repeat,
        pos_label=o.pos_label,
        zero_division=o.zero_division,
        jobs=o.jobs,
        client=o.dask,
        kernel_memory=o.kernel_memory or None,
        share=False if o.kernel_memory == 0 else None,
        progress=bar,
        scale=scale_spec(o),
        select=o.select,
    )
    text = runner.render_report(result, o.format)
    runner.end_bar_line()
    targets = {t.what: t for t in runner.check_files(command, o)}  # the files may have changed
    items = []
    if o.predictions:
        items.append((targets["--predictions"], format_predictions(result.outer)))
    if o.folds_file:
        items.append((targets["--folds"], folds_text(result.outer)))
    items.append((targets["the report"], text))
    output.write_outputs(items)
    return 0

"""Results as data: every result as a table (a pandas DataFrame) and as plain JSON types.

A results table has one row per (data set, configuration, repetition, fold): the columns
``dataset``, ``configuration`` (svm-train's flags that differ from its defaults; "A" / "B" in a
comparison), ``repetition`` (0, 1, …), ``seed``, ``fold`` (0 … k-1, the fold ids of
``CVResult.fold``), ``n_test`` (the fold's samples, where known), then the figures by their
registry names (:data:`svmeval.metrics.FIGURES`), so that
``frame.groupby(["dataset", "configuration"])`` gives what a paper tabulates.

pandas is an optional extra (``pip install 'svmeval[frame]'``), imported only here and only
when a table is made.
"""

from __future__ import annotations

from svmeval.errors import SvmevalError
from svmeval.report.jsonfmt import plain

__all__ = ["INSTALL_HINT", "KEYS", "benchmark_frame", "comparison_frame", "cv_dict", "cv_frame", "grid_frame",
           "nested_frame", "summary_dict", "summary_frame", "summary_rows"]

INSTALL_HINT = "pip install 'svmeval[frame]'"

#: the columns that say which run and fold a row is; the figures follow them
KEYS = ("dataset", "configuration", "repetition", "seed", "fold", "n_test")


def _pandas():
    try:
        import pandas
    except ImportError:
        raise SvmevalError(f"to_frame() needs pandas: {INSTALL_HINT}") from None
    return pandas


def _frame(rows: list[dict]):
    return _pandas().DataFrame.from_records(rows)


def _flags(parameters: dict) -> str:
    from svmeval.report.plot import params_flags
    return params_flags(parameters)


def summary_rows(summary, *, repetition: int = 0, configuration: str | None = None,
                 dataset: str | None = None) -> list[dict]:
    """The rows of one run's folds; a summary without folds (predictions from elsewhere) is one
    row with ``fold`` None and the pooled figures."""
    meta = summary.meta
    head = {"dataset": meta.get("data_file", "") if dataset is None else dataset,
            "configuration": (_flags(meta.get("parameters", {})) if configuration is None
                              else configuration),
            "repetition": repetition, "seed": meta.get("seed")}
    if not summary.fold_figures:
        return [{**head, "fold": None, "n_test": summary.n_samples, **summary.figures}]
    return [{**head, "fold": i, "n_test": summary.fold_sizes[i], **figures}
            for i, figures in enumerate(summary.fold_figures)]


def summary_frame(summary):
    """A :class:`~svmeval.summary.Summary` as a results table (its first repetition's folds)."""
    return _frame(summary_rows(summary))


def summary_dict(summary) -> dict:
    """The JSON report's object of a :class:`~svmeval.summary.Summary`."""
    from svmeval.report import jsonfmt, multilabel
    if summary.kind == "multilabel":
        return multilabel.report_object(summary)
    return jsonfmt.report_object(summary)


def _runs(result) -> list:
    if len(getattr(result, "repeats", ())) and not result.repeat_results:
        raise SvmevalError("to_frame() of a repeated cross-validation needs every "
                           "repetition's predictions: cross_validate(..., keep_repeats=True)")
    return [result, *getattr(result, "repeat_results", ())]


def cv_frame(result, *, pos_label=None, zero_division=0.0):
    """A cross-validation result (single- or multi-label) as a results table: every
    repetition's folds."""
    from svmeval.summary import summarize
    _pandas()
    rows = []
    for r, run in enumerate(_runs(result)):
        summary = summarize(run, pos_label=pos_label, zero_division=zero_division)
        rows += summary_rows(summary, repetition=r, dataset=getattr(result, "data_name", None))
    return _frame(rows)


def cv_dict(result) -> dict:
    """A cross-validation result's arrays and run as plain JSON types (NaN as None)."""
    names = ("labels", "y_true", "y_pred", "fold", "scores", "decision_values", "probabilities",
             "label_names", "Y_true", "Y_pred")
    out = {"data_file": getattr(result, "data_name", ""), "n_folds": result.n_folds,
           "seed": result.seed, "seeds": [result.seed] + [r.seed for r in
                                                          getattr(result, "repeats", ())],
           "parameters": result.params.as_dict()}
    for name in names:
        if hasattr(result, name):
            out[name] = getattr(result, name)
    return plain(out)


def grid_frame(result):
    """A :class:`~svmeval.workflows.grid.GridResult` as a results table: one row per (cell, fold) with
    the cell's ``log2c``, ``log2g``, ``log2p``, ``C``, ``gamma``, ``p``, ``value`` (the
    criterion as the search compared it), ``resumed`` and ``best``; a cell resumed from an
    ``-out`` file is one row with ``fold`` None and its value alone."""
    _pandas()
    rows = []
    base = result.params.as_dict()
    for r in result.cells:
        c = r.cell
        cell = {"log2c": c.log2c, "log2g": c.log2g, "log2p": c.log2p, "C": c.C,
                "gamma": c.gamma, "p": c.p, "value": r.value, "resumed": r.resumed,
                "best": r is result.best}
        flags = _flags({**base, **{k: v for k, v in (("C", c.C), ("gamma", c.gamma),
                                                     ("p", c.p)) if v is not None}})
        if r.summary is None:
            rows.append({"dataset": result.data_name, "configuration": flags, "repetition": 0,
                         "seed": result.seed, "fold": None, "n_test": None, **cell})
            continue
        for row in summary_rows(r.summary, configuration=flags, dataset=result.data_name):
            figures = {k: row.pop(k) for k in list(row) if k not in KEYS}
            rows.append({**row, **cell, **figures})
    return _frame(rows)


def comparison_frame(c):
    """A :class:`~svmeval.workflows.compare.Comparison` as a results table: configurations "A" and "B"
    (their svm-train options in ``options``), the criterion's value on every fold."""
    per = len(c.folds_a) // c.repeat
    rows = []
    for name, options, values in (("A", c.options_a, c.folds_a), ("B", c.options_b, c.folds_b)):
        for i, value in enumerate(values):
            rows.append({"dataset": c.data_name, "configuration": name, "options": options,
                         "repetition": i // per, "seed": c.seeds[i // per], "fold": i % per,
                         c.criterion: float(value)})
    return _frame(rows)


def nested_frame(result):
    """A :class:`~svmeval.workflows.nested.NestedResult` as a results table: one row per (repetition,
    outer fold) with the chosen cell (``log2c``, ``log2g``, ``log2p``, ``C``, ``gamma``,
    ``p``), ``inner_value`` (the criterion on the inner folds) and the outer fold's figures;
    ``configuration`` is the base parameters' flags (each fold's own C / gamma are its
    columns)."""
    from svmeval.summary import summarize
    _pandas()
    runs = [result.outer, *result.repeat_results]
    rows = []
    for r, run in enumerate(runs):
        summary = summarize(run, pos_label=result.pos_label,
                            zero_division=result.zero_division)
        chosen = [f for f in result.folds if f.repetition == r]
        for f, row in zip(chosen, summary_rows(summary, repetition=r,
                                               dataset=result.outer.data_name)):
            c = f.cell
            figures = {k: row.pop(k) for k in list(row) if k not in KEYS}
            rows.append({**row, "seed": f.seed, "log2c": c.log2c, "log2g": c.log2g,
                         "log2p": c.log2p, "C": c.C, "gamma": c.gamma, "p": c.p,
                         "inner_value": f.value, **figures})
    return _frame(rows)


def benchmark_frame(bench):
    """A :class:`~svmeval.workflows.benchmark.Benchmark` as a results table: one row per (data set,
    configuration, repetition, fold) with the criterion's value (NaN where undefined)."""
    _pandas()
    per = bench.values.shape[2] // bench.repeat
    rows = [{"dataset": name, "configuration": config, "repetition": f // per, "seed": None,
             "fold": f % per, "n_test": None, bench.criterion: float(bench.values[i, j, f])}
            for i, name in enumerate(bench.datasets)
            for j, config in enumerate(bench.configurations)
            for f in range(bench.values.shape[2])]
    return _frame(rows)

"""svmeval-linear -C: LIBLINEAR's lines of its warm-started search over C, byte for byte, then
the figures of every C and, with ``--criterion``, the best C by that figure.

``train -C`` prints ``Doing parameter search with k-fold cross validation.``, one
``log2c=`` line a C (LIBLINEAR's print hook: none with ``-q``), ``WARNING: maximum C
reached.`` where the search ran past the largest C, and its best C. The same lines come
first here, then a table of the figures of each C (``--format json``: every figure of each C).
"""

from __future__ import annotations

import json
import math

__all__ = ["search_report"]

#: the columns of the text table: classification, regression
COLUMNS = {
    False: ("accuracy", "macro_f1", "mcc", "kappa", "balanced_accuracy"),
    True: ("mse", "scc"),
}
TITLES = {
    "accuracy": "accuracy",
    "macro_f1": "macro F1",
    "mcc": "MCC",
    "kappa": "kappa",
    "balanced_accuracy": "bal. acc.",
    "mse": "MSE",
    "scc": "SCC",
}


def search_report(o, dataset, params) -> str:
    """The report of ``svmeval-linear -C`` (options ``o``) on ``dataset``."""
    from svmeval.cv.run.linear_search import search_c_linear
    from svmeval.summary import summarize

    start = (o.values.get("C"), o.values.get("p"))
    if o.dask is not None:  # the whole search one task on the cluster
        from svmeval.cv.run.linear_search import search_on

        search = search_on(
            o.dask, dataset, params, o.nr_fold, seed=o.seed, start=start, keep_scores=False
        )
    else:
        search = search_c_linear(
            dataset, params, o.nr_fold, start_C=start[0], start_p=start[1], seed=o.seed, jobs=o.jobs
        )
    regression = params.solver_type == 11
    figures = [
        summarize(step.result, per_fold=False, meta={"data_file": o.data_file}).figures
        for step in search.steps
    ]
    best = _best(search, figures, o.criterion, regression)
    if o.plot is not None:
        _draw(o, search, figures, best)
    if o.format == "json":
        return _json(o, search, figures, best)
    out = [f"Doing parameter search with {o.nr_fold}-fold cross validation.\n"]
    if not o.quiet:
        out += list(search.lines)
    if regression:
        out.append(
            f"Best C = {search.best_C:g} Best p = {search.best_p:g}  "
            f"CV MSE = {search.best_score:g}\n"
        )
    else:
        out.append(f"Best C = {search.best_C:g}  CV accuracy = {100.0 * search.best_score:g}%\n")
    out.append(
        f"\nevery C's figures ({search.n_folds}-fold, LIBLINEAR's folds and warm starts; "
        "--format json:\nevery figure):\n"
    )
    columns = list(COLUMNS[regression])
    if o.criterion is not None and o.criterion not in columns:
        columns.append(o.criterion)
    head = f"{'log2c':>7} {'C':>10}" + (f" {'p':>8}" if regression else "")
    out.append(head + "".join(f" {TITLES.get(c, c)[:10]:>10}" for c in columns) + "\n")
    for step, values in zip(search.steps, figures):
        line = f"{_log2(step.C):7.2f} {step.C:10.4g}" + (f" {step.p:8.4g}" if regression else "")
        out.append(line + "".join(f" {_value(values.get(c)):>10}" for c in columns) + "\n")
    if best is not None:
        step, value = best
        where = f"C = {step.C:g}" + (f", p = {step.p:g}" if regression else "")
        out.append(f"\nbest by {o.criterion}: {where} ({o.criterion} = {_value(value)})\n")
    return "".join(out)


def _draw(o, search, figures, best) -> None:
    """--plot FILE: the picture, or one line saying how to install matplotlib (the run
    still succeeds)."""
    import os

    from svmeval.cli import runner
    from svmeval.report.linear_plot import write_search_plot
    from svmeval.report.plot import PlotUnavailable

    try:
        write_search_plot(
            o.plot,
            search,
            figures,
            criterion=o.criterion,
            best=best,
            title=f"{os.path.basename(o.data_file)}: ",
        )
    except PlotUnavailable:
        runner.no_picture("svmeval-linear")


def _best(search, figures, criterion, regression):
    """The first step with the best value of ``criterion`` (LIBLINEAR's order; its own rule
    keeps the first of equal scores too), or None without a criterion."""
    if criterion is None:
        return None
    from svmeval.errors import SvmevalError
    from svmeval.metrics.figures import FIGURES

    values = [f.get(criterion, math.nan) for f in figures]
    if all(math.isnan(v) for v in values):
        kind = "regression" if regression else "classification"
        raise SvmevalError(
            f"--criterion {criterion}: not a figure of this {kind} run (LIBLINEAR's "
            "cross-validation keeps no decision values)"
        )
    sign = 1.0 if FIGURES[criterion].greater_is_better else -1.0
    # the first of the best defined values (at least one is defined: checked above)
    defined = [i for i, v in enumerate(values) if not math.isnan(v)]
    best_index = max(defined, key=lambda i: (sign * values[i], -i))
    return search.steps[best_index], values[best_index]


def _json(o, search, figures, best) -> str:
    doc = {
        "library": "liblinear",
        "parameters": search.params.as_dict(),
        "n_folds": search.n_folds,
        "liblinear": {
            "best_C": search.best_C,
            "best_p": search.best_p,
            "best_score": search.best_score,
            "lines": list(search.lines),
        },
        "steps": [
            {"C": step.C, "p": step.p, "score": step.score, "figures": _plain(values)}
            for step, values in zip(search.steps, figures)
        ],
        "criterion": o.criterion,
        "best": None
        if best is None
        else {"C": best[0].C, "p": best[0].p, "value": _number(best[1])},
    }
    return json.dumps(doc, indent=2) + "\n"


def _plain(values: dict) -> dict:
    return {k: _number(v) for k, v in values.items()}


def _number(v):
    v = float(v)
    return None if math.isnan(v) else v


def _log2(C: float) -> float:
    return math.log(C) / math.log(2.0) if C > 0 else -math.inf


def _value(v) -> str:
    if v is None or math.isnan(v):
        return "n/a"
    return f"{v:.4f}"

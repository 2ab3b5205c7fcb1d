"""Is B really better than A? Two LIBSVM configurations on the same repeated cross-validation.

``compare(dataset, params_a, params_b, nr_fold=10, repeat=10, criterion=...)`` runs R
repetitions of k-fold cross-validation of both configurations on the same seeded folds (seeds
``seed`` .. , as :func:`svmeval.cv.cross_validate`), takes the chosen figure of every fold, and
tests the R x k paired differences B - A with the corrected resampled t-test (Nadeau & Bengio
2003; Bouckaert & Frank 2004), the plain paired t-test beside it (optimistic), and McNemar's
test on the pooled predictions of the first repetition (classification).

The command line, ``svmeval-compare``, is :mod:`svmeval.cli.compare`.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass

import numpy as np

from .errors import SvmevalError, show_path
from .metrics.figures import FIGURES, criteria_for
from .metrics.significance import (
    MCNEMAR_EXACT_BELOW,
    McNemarResult,
    TTestResult,
    corrected_resampled_ttest,
    mcnemar,
)

__all__ = ["Comparison", "compare", "mcnemar_files", "render"]

@dataclass(frozen=True, eq=False)
class Comparison:
    """Two configurations on the same folds.

    ``criterion``: the registry name of the figure; ``greater_is_better`` its direction;
    ``folds_a`` / ``folds_b``: its value on each of the R x k folds (repetition-major);
    ``ttest``: the :class:`~svmeval.metrics.significance.TTestResult` of B - A (folds where
    either value is undefined left out; ``n_undefined`` counts them); ``mcnemar``: McNemar's
    test on the first repetition's pooled predictions (None for regression).
    """

    data_name: str
    criterion: str
    greater_is_better: bool
    n_folds: int
    repeat: int
    seeds: tuple
    n_samples: int
    options_a: str
    options_b: str
    folds_a: np.ndarray
    folds_b: np.ndarray
    n_undefined: int
    ttest: TTestResult
    mcnemar: McNemarResult | None

    @property
    def mean_a(self) -> float:
        return float(np.nanmean(self.folds_a))

    @property
    def mean_b(self) -> float:
        return float(np.nanmean(self.folds_b))

    @property
    def sd_a(self) -> float:
        return float(np.nanstd(self.folds_a, ddof=1))

    @property
    def sd_b(self) -> float:
        return float(np.nanstd(self.folds_b, ddof=1))


def _figure_kind(params, dataset) -> str:
    if params.is_regression:
        return "regression"
    return "binary" if len(np.unique(dataset.y)) == 2 else "multiclass"


def _runs(dataset, params, nr_fold, seed, repeat, jobs):
    from .cv import cross_validate
    first = cross_validate(dataset, params, nr_fold, seed=seed, repeat=repeat, jobs=jobs,
                           keep_repeats=True)
    return [first, *first.repeat_results]


def _fold_values(runs, criterion, pos_label, zero_division) -> np.ndarray:
    from .summary import summarize
    values = []
    for run in runs:
        summary = summarize(run, pos_label=pos_label, zero_division=zero_division)
        values.extend(f.get(criterion, math.nan) for f in summary.fold_figures)
    return np.array(values, dtype=np.float64)


def default_criterion(params) -> str:
    return "mse" if params.is_regression else "accuracy"


def compare(dataset, params_a, params_b, nr_fold: int = 10, *, repeat: int = 10, seed: int = 1,
            criterion: str | None = None, pos_label=None, zero_division=0.0,
            jobs: int | None = None, confidence: float = 0.95, options_a: str = "",
            options_b: str = "") -> Comparison:
    """Compare two :class:`~svmeval.params.SvmParams` on ``dataset`` (see the module's notes).

    Both run ``repeat`` cross-validations with the same seeds, so fold j of repetition r holds
    the same samples for A and B. ``options_a`` / ``options_b``: how to show them in reports."""
    if nr_fold < 2:
        raise SvmevalError("nr_fold must be >= 2")
    if repeat < 1:
        raise SvmevalError("repeat must be >= 1")
    if repeat * nr_fold < 2:
        raise SvmevalError("the t-test needs at least two folds")
    if getattr(dataset, "y", None) is None:
        raise SvmevalError(f"{dataset.name}: multi-label data cannot be compared")
    if params_a.is_regression != params_b.is_regression:
        raise SvmevalError("A and B must both be classifiers or both regressions")
    if params_a.svm_type == 2 or params_b.svm_type == 2:
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")
    kind = _figure_kind(params_a, dataset)
    criterion = criterion or default_criterion(params_a)
    if criterion not in criteria_for(kind):
        raise SvmevalError(f"criterion {criterion!r} is not a figure of {kind} data "
                           f"(one of {', '.join(criteria_for(kind))})")
    runs_a = _runs(dataset, params_a, nr_fold, seed, repeat, jobs)
    runs_b = _runs(dataset, params_b, nr_fold, seed, repeat, jobs)
    folds_a = _fold_values(runs_a, criterion, pos_label, zero_division)
    folds_b = _fold_values(runs_b, criterion, pos_label, zero_division)
    defined = ~(np.isnan(folds_a) | np.isnan(folds_b))
    if np.count_nonzero(defined) < 2:
        raise SvmevalError(f"{criterion} is undefined on all but {np.count_nonzero(defined)} "
                           "folds: choose another criterion")
    sizes = np.bincount(runs_a[0].fold, minlength=nr_fold)
    n = len(runs_a[0].y_true)
    ratio = float(sizes.mean() / (n - sizes.mean()))  # n_test / n_train = 1 / (k - 1)
    ttest = corrected_resampled_ttest(folds_b[defined] - folds_a[defined], ratio,
                                      confidence=confidence)
    test = None
    if not params_a.is_regression:
        test = mcnemar(runs_a[0].y_true, runs_a[0].y_pred, runs_b[0].y_pred)
    return Comparison(data_name=getattr(dataset, "name", ""), criterion=criterion,
                      greater_is_better=FIGURES[criterion].greater_is_better, n_folds=nr_fold,
                      repeat=repeat, seeds=tuple(r.seed for r in runs_a), n_samples=n,
                      options_a=options_a, options_b=options_b, folds_a=folds_a,
                      folds_b=folds_b, n_undefined=int(np.count_nonzero(~defined)),
                      ttest=ttest, mcnemar=test)


def mcnemar_files(pred_a: str, pred_b: str, data_file: str) -> McNemarResult:
    """McNemar's test of two predictions files (svm-predict's format) of ``data_file``."""
    from .io import read_dataset
    from .io.predictions import read_predictions
    dataset = read_dataset(data_file)
    if dataset.y is None:
        raise SvmevalError(f"{data_file}: multi-label data: McNemar's test needs one label a sample")
    a = read_predictions(pred_a, expected=dataset.n_samples)
    b = read_predictions(pred_b, expected=dataset.n_samples)
    for path, values in ((pred_a, a), (pred_b, b)):
        if not np.all(values == np.trunc(values)):
            raise SvmevalError(f"{show_path(path)}: predictions are not class labels (not "
                               "integers): McNemar's test compares two classifiers")
    return mcnemar(dataset.y, a, b)


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


def _num(value: float, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def _p(value: float) -> str:
    return "n/a" if math.isnan(value) else (f"{value:.4g}" if value >= 1e-4 else f"{value:.2e}")


def _mcnemar_lines(m: McNemarResult) -> list[str]:
    lines = [f"  A right, B wrong: {m.a_only}    A wrong, B right: {m.b_only}    "
             f"both right: {m.both_right}    both wrong: {m.both_wrong}"]
    if m.method == "exact":
        lines.append(f"  exact binomial test (b + c = {m.a_only + m.b_only} < "
                     f"{MCNEMAR_EXACT_BELOW}): p = {_p(m.p)}")
    else:
        lines.append(f"  chi-square with continuity correction (b + c = {m.a_only + m.b_only} "
                     f">= {MCNEMAR_EXACT_BELOW}): {m.statistic:.4g}, 1 df, p = {_p(m.p)}")
    return lines


def _figure_title(name: str) -> str:
    title = FIGURES[name].title
    return name if title == name else f"{name} ({title})"


def _text(c: Comparison) -> str:
    t = c.ttest
    direction = "greater is better" if c.greater_is_better else "smaller is better"
    seeds = f"seed {c.seeds[0]}" if len(c.seeds) == 1 else f"seeds {c.seeds[0]}..{c.seeds[-1]}"
    n = len(c.folds_a)
    out = [f"{c.data_name}: {c.repeat} x {c.n_folds}-fold cross-validation ({seeds}), "
           f"the same folds for A and B",
           f"A: {c.options_a or '(svm-train defaults)'}",
           f"B: {c.options_b or '(svm-train defaults)'}",
           "",
           f"{_figure_title(c.criterion)} ({direction}) over {n} folds:",
           f"{'':>8}{'mean':>10}{'sd':>10}",
           f"{'A':>8}{_num(c.mean_a):>10}{_num(c.sd_a):>10}",
           f"{'B':>8}{_num(c.mean_b):>10}{_num(c.sd_b):>10}",
           f"{'B - A':>8}{_num(t.mean):>10}{_num(t.sd):>10}"]
    if c.n_undefined:
        out.append(f"  ({c.n_undefined} folds where {c.criterion} is undefined left out)")
    level = f"{100 * t.confidence:g}%"
    out += ["",
            f"corrected resampled t-test (Nadeau & Bengio 2003): t = {_num(t.t, 3)}, "
            f"df = {t.df}, p = {_p(t.p)}",
            f"  variance x (1/{t.n} + n_test/n_train = {t.test_train_ratio:.4g}); "
            f"{level} CI of B - A: [{_num(t.ci[0])}, {_num(t.ci[1])}]",
            f"plain paired t-test (optimistic: the folds share training data): "
            f"t = {_num(t.t_uncorrected, 3)}, p = {_p(t.p_uncorrected)}"]
    if c.mcnemar is not None:
        out += ["", f"McNemar's test, first repetition's pooled predictions "
                    f"({c.mcnemar.n} samples):"] + _mcnemar_lines(c.mcnemar)
    return "\n".join(out) + "\n"


def _plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _mcnemar_object(m: McNemarResult) -> dict:
    return {"n": m.n, "both_right": m.both_right, "both_wrong": m.both_wrong,
            "a_right_b_wrong": m.a_only, "a_wrong_b_right": m.b_only, "method": m.method,
            "exact_below": MCNEMAR_EXACT_BELOW, "statistic": _plain(m.statistic), "p": m.p}


def _object(c: Comparison) -> dict:
    t = c.ttest
    return {
        "data_file": c.data_name, "criterion": c.criterion,
        "greater_is_better": c.greater_is_better, "n_folds": c.n_folds, "repeat": c.repeat,
        "seeds": list(c.seeds), "n_samples": c.n_samples,
        "a": {"options": c.options_a, "mean": _plain(c.mean_a), "sd": _plain(c.sd_a),
              "folds": [_plain(float(v)) for v in c.folds_a]},
        "b": {"options": c.options_b, "mean": _plain(c.mean_b), "sd": _plain(c.sd_b),
              "folds": [_plain(float(v)) for v in c.folds_b]},
        "difference": {"mean": t.mean, "sd": t.sd, "n": t.n, "undefined_folds": c.n_undefined},
        "corrected_ttest": {"t": _plain(t.t), "df": t.df, "p": t.p,
                            "test_train_ratio": t.test_train_ratio,
                            "confidence": t.confidence, "ci": list(t.ci)},
        "uncorrected_ttest": {"t": _plain(t.t_uncorrected), "df": t.df, "p": t.p_uncorrected,
                              "ci": list(t.ci_uncorrected), "optimistic": True},
        "mcnemar": _mcnemar_object(c.mcnemar) if c.mcnemar is not None else None,
    }


def _csv(rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("test", "name", "value"))
    for test, name, value in rows:
        if isinstance(value, float):
            value = "" if not math.isfinite(value) else repr(value)
        w.writerow((test, name, value))
    return buf.getvalue()


def _csv_rows(c: Comparison):
    t = c.ttest
    yield from (("run", "data_file", c.data_name), ("run", "criterion", c.criterion),
                ("run", "n_folds", c.n_folds), ("run", "repeat", c.repeat),
                ("a", "options", c.options_a), ("a", "mean", c.mean_a), ("a", "sd", c.sd_a),
                ("b", "options", c.options_b), ("b", "mean", c.mean_b), ("b", "sd", c.sd_b),
                ("difference", "mean", t.mean), ("difference", "sd", t.sd),
                ("difference", "n", t.n),
                ("corrected_ttest", "t", t.t), ("corrected_ttest", "df", t.df),
                ("corrected_ttest", "p", t.p), ("corrected_ttest", "ci_low", t.ci[0]),
                ("corrected_ttest", "ci_high", t.ci[1]),
                ("uncorrected_ttest", "t", t.t_uncorrected),
                ("uncorrected_ttest", "p", t.p_uncorrected))
    if c.mcnemar is not None:
        yield from _mcnemar_csv_rows(c.mcnemar)


def _mcnemar_csv_rows(m: McNemarResult):
    for key, value in _mcnemar_object(m).items():
        yield ("mcnemar", key, value if value is not None else math.nan)


def render(result, *, format: str = "text") -> str:
    """The report of a :class:`Comparison` (or of a McNemar result alone) in ``format``."""
    if isinstance(result, McNemarResult):
        if format == "json":
            return json.dumps({"mcnemar": _mcnemar_object(result)}, indent=2) + "\n"
        if format == "csv":
            return _csv(_mcnemar_csv_rows(result))
        return "\n".join([f"McNemar's test ({result.n} samples):"]
                         + _mcnemar_lines(result)) + "\n"
    if format == "json":
        return json.dumps(_object(result), indent=2) + "\n"
    if format == "csv":
        return _csv(_csv_rows(result))
    return _text(result)


if __name__ == "__main__":  # ``python -m svmeval.compare``: the command (svmeval.cli.compare)
    from ._entry import compare_main

    compare_main()

"""The reports of a comparison (:class:`~svmeval.workflows.compare.Comparison`) and of McNemar's test
alone (:class:`~svmeval.stats.significance.McNemarResult`): text, JSON and CSV.

Their JSON objects are the results' own ``to_dict()``."""

from __future__ import annotations

import io
import json
import math

from svmeval.metrics.figures import FIGURES
from svmeval.report._layout import fit, wrap
from svmeval.report._views import View
from svmeval.stats.significance import MCNEMAR_EXACT_BELOW, McNemarResult

__all__ = ["render_comparison", "render_mcnemar"]


def _num(value: float, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def _p(value: float) -> str:
    return "n/a" if math.isnan(value) else (f"{value:.4g}" if value >= 1e-4 else f"{value:.2e}")


def _mcnemar_lines(m: McNemarResult) -> list[str]:
    lines = [
        f"  A right, B wrong: {m.a_only}    A wrong, B right: {m.b_only}",
        f"  both right: {m.both_right}    both wrong: {m.both_wrong}",
    ]
    if m.method == "exact":
        lines.append(
            f"  exact binomial test (b + c = {m.a_only + m.b_only} < "
            f"{MCNEMAR_EXACT_BELOW}): p = {_p(m.p)}"
        )
    else:
        lines.append(
            f"  chi-square with continuity correction (b + c = {m.a_only + m.b_only} "
            f">= {MCNEMAR_EXACT_BELOW}): p = {_p(m.p)}"
        )
        lines.append(f"    chi-square = {m.statistic:.4g}, 1 df")
    return lines


def _figure_title(name: str) -> str:
    title = FIGURES[name].title
    return name if title == name else f"{name} ({title})"


def _text(c) -> str:
    t = c.ttest
    direction = "greater is better" if c.greater_is_better else "smaller is better"
    seeds = f"seed {c.seeds[0]}" if len(c.seeds) == 1 else f"seeds {c.seeds[0]}..{c.seeds[-1]}"
    n = len(c.folds_a)
    same = "the same folds for A and B"
    if getattr(c, "fold_source", ""):
        same = f"the same {c.fold_source} folds for A and B"
    out = [
        *wrap(
            f"{c.data_name}: {c.repeat} x {c.n_folds}-fold cross-validation ({seeds}), {same}",
            keep=(same,),
        ),
        f"A: {c.options_a or '(svm-train defaults)'}",
        f"B: {c.options_b or '(svm-train defaults)'}",
        *_preprocessing_lines(c),
        "",
        f"{_figure_title(c.criterion)} ({direction}) over {n} folds:",
        f"{'':>8}{'mean':>10}{'sd':>10}",
        f"{'A':>8}{_num(c.mean_a):>10}{_num(c.sd_a):>10}",
        f"{'B':>8}{_num(c.mean_b):>10}{_num(c.sd_b):>10}",
        f"{'B - A':>8}{_num(t.mean):>10}{_num(t.sd):>10}",
    ]
    if c.n_undefined:
        out.append(f"  ({c.n_undefined} folds where {c.criterion} is undefined left out)")
    level = f"{100 * t.confidence:g}%"
    out += [
        "",
        f"corrected resampled t-test (Nadeau & Bengio 2003): p = {_p(t.p)}",
        f"  t = {_num(t.t, 3)}, df = {t.df}, "
        f"variance x (1/{t.n} + n_test/n_train = {t.test_train_ratio:.4g})",
        f"  {level} CI of B - A: [{_num(t.ci[0])}, {_num(t.ci[1])}]",
        f"plain paired t-test (optimistic: the folds share training data): "
        f"p = {_p(t.p_uncorrected)}",
        f"  t = {_num(t.t_uncorrected, 3)}",
    ]
    if c.bayesian is not None:
        out += ["", _bayesian_sentence(c)]
    if c.mcnemar is not None:
        out += [
            "",
            f"McNemar's test, first repetition's pooled predictions ({c.mcnemar.n} samples):",
        ] + _mcnemar_lines(c.mcnemar)
    out += [""] + wrap(f"verdict: {c.verdict.text}")
    return "\n".join(fit(out)) + "\n"


def _preprocessing_lines(c) -> list[str]:
    """The preprocessing both configurations learned inside each fold (none: no line)."""
    if not getattr(c, "preprocessing", ""):
        return []
    return wrap(f"A and B learned on each fold's training rows: {c.preprocessing}")


def _bayesian_sentence(c) -> str:
    b = c.bayesian
    better_b, better_a = (b.p_right, b.p_left) if c.greater_is_better else (b.p_left, b.p_right)
    return (
        f"Bayesian correlated t-test (Corani & Benavoli 2015), rope ±{b.rope:g}: B is "
        f"practically equivalent to A with probability {b.p_rope:.3f}; B is better with "
        f"probability {better_b:.3f}, A with probability {better_a:.3f}"
    )


def _csv(rows) -> str:
    import csv  # the CSV format's alone

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("test", "name", "value"))
    for test, name, value in rows:
        if isinstance(value, float):
            value = "" if not math.isfinite(value) else repr(value)
        w.writerow((test, name, value))
    return buf.getvalue()


def _csv_rows(c):
    t = c.ttest
    yield from (
        ("run", "data_file", c.data_name),
        ("run", "criterion", c.criterion),
        ("run", "n_folds", c.n_folds),
        ("run", "repeat", c.repeat),
        *((("run", "preprocessing", c.preprocessing),) if c.preprocessing else ()),
        ("a", "options", c.options_a),
        ("a", "mean", c.mean_a),
        ("a", "sd", c.sd_a),
        ("b", "options", c.options_b),
        ("b", "mean", c.mean_b),
        ("b", "sd", c.sd_b),
        ("difference", "mean", t.mean),
        ("difference", "sd", t.sd),
        ("difference", "n", t.n),
        ("corrected_ttest", "t", t.t),
        ("corrected_ttest", "df", t.df),
        ("corrected_ttest", "p", t.p),
        ("corrected_ttest", "ci_low", t.ci[0]),
        ("corrected_ttest", "ci_high", t.ci[1]),
        ("uncorrected_ttest", "t", t.t_uncorrected),
        ("uncorrected_ttest", "p", t.p_uncorrected),
    )
    if c.mcnemar is not None:
        yield from _mcnemar_csv_rows(c.mcnemar)


def _mcnemar_csv_rows(m: McNemarResult):
    for key, value in m.to_dict().items():
        yield ("mcnemar", key, value if value is not None else math.nan)


def render_comparison(c, format: str) -> str:
    """The report of a :class:`~svmeval.workflows.compare.Comparison` in ``format``."""
    if format == "json":
        return json.dumps(c.to_dict(), indent=2) + "\n"
    if format == "csv":
        return _csv(_csv_rows(c))
    return _text(c)


def render_mcnemar(m: McNemarResult, format: str) -> str:
    """The report of McNemar's test alone in ``format``."""
    if format == "json":
        return json.dumps({"mcnemar": m.to_dict()}, indent=2) + "\n"
    if format == "csv":
        return _csv(_mcnemar_csv_rows(m))
    return "\n".join(fit([f"McNemar's test ({m.n} samples):"] + _mcnemar_lines(m))) + "\n"


# --- the views of a Comparison and of McNemar's test alone (svmeval.report._views) -----------
def _describe_comparison(result) -> tuple[str, str]:
    return f"Comparison on {result.data_name or 'data'}", (
        f"A: {result.options_a or 'defaults'}  |  B: {result.options_b or 'defaults'}; "
        f"{result.n_folds}-fold CV x {result.repeat}; criterion {result.criterion}"
    )


def _describe_mcnemar(result) -> tuple[str, str]:
    return "McNemar's test", "two sets of predictions of the same samples"


COMPARISON = View(
    render=lambda result, format, digits, full: render_comparison(result, format),
    describe=_describe_comparison,
    text=lambda result, digits: render_comparison(result, "text"),
)
MCNEMAR = View(
    render=lambda result, format, digits, full: render_mcnemar(result, format),
    describe=_describe_mcnemar,
    text=lambda result, digits: render_mcnemar(result, "text"),
)

"""The views of a cross-validation's result (:class:`~svmeval.cv.CVResult`,
:class:`~svmeval.cv.MultilabelCVResult`) and of its :class:`~svmeval.summary.Summary`: the
summary's text, JSON and CSV reporters, its figure sheet, and the HTML page's title, text and
tables (a cross-validation is summarized first, with :func:`~svmeval.summarize`'s defaults)."""

from __future__ import annotations

from svmeval.report._views import View

__all__ = ["CV_RESULT", "MULTILABEL_CV_RESULT", "SUMMARY", "summary_of"]


def _render_summary(summary, format: str, digits: int, full: bool) -> str:
    from svmeval.report._render import render_summary

    return render_summary(summary, format, digits, full)


def _render_cv(result, format: str, digits: int, full: bool) -> str:
    from svmeval.summary import summarize

    return _render_summary(summarize(result), format, digits, full)


def summary_of(result):
    """A cross-validation's summary, as its HTML page shows it (the data set named)."""
    from svmeval.summary import summarize

    return summarize(result, meta={"data_file": result.data_name})


def _describe_summary(result) -> tuple[str, str]:
    meta = result.meta
    data = meta.get("data_file") or "data"
    if meta.get("mode") == "score":
        return (
            f"Predictions {meta.get('predictions_file', '')} scored against {data}",
            f"{result.n_samples} samples, {result.figure_kind}",
        )
    line = f"{meta.get('n_folds', '?')}-fold cross-validation, seed {meta.get('seed', '?')}"
    if (meta.get("repeat") or 1) > 1:
        line += f", {meta['repeat']} repetitions"
    return f"Cross-validation of {data}", f"{line}; {result.n_samples} samples, " + (
        result.figure_kind
    )


def _describe_cv(result) -> tuple[str, str]:
    return f"Cross-validation of {result.data_name or 'data'}", (
        f"{result.n_folds}-fold cross-validation, seed {result.seed}; {result.n_samples} samples"
    )


def _text_summary(result, digits: int) -> str:
    from svmeval.report import multilabel, text

    if result.kind == "multilabel":
        return multilabel.render(result, format="text", digits=digits, full=True)
    return text.render(result, digits=digits, full=True)


def _text_cv(result, digits: int) -> str:
    return _text_summary(summary_of(result), digits)


def _data_cv(result) -> dict:
    return summary_of(result).to_dict()


def _pictures_summary(result, svg, arrays):
    from svmeval.report.plot import draw_sheet
    from svmeval.report.svg import Picture

    yield Picture("The figure sheet", svg(draw_sheet(result, **(arrays or {}))))


def _pictures_cv(result, svg, arrays):
    from svmeval.report import pictures
    from svmeval.report.svg import Picture

    yield Picture("The figure sheet", svg(pictures.plot(result)))


def _figure_summary(result, title, pos_label, zero_division):
    from svmeval.report.plot import draw_sheet

    return draw_sheet(result, title=title)


def _sheet(result, title, zero_division, **kwargs):
    """The figure sheet of a cross-validation: its summary with the per-sample curves."""
    from svmeval.report import plot as sheet
    from svmeval.summary import summarize

    summary = summarize(
        result, zero_division=zero_division, meta={"data_file": result.data_name}, **kwargs
    )
    return sheet.draw_sheet(summary, title=title, **sheet.result_arrays(result))


def _figure_single(result, title, pos_label, zero_division):
    return _sheet(result, title, zero_division, pos_label=pos_label)


def _figure_multilabel(result, title, pos_label, zero_division):
    return _sheet(result, title, zero_division)


SUMMARY = View(
    render=_render_summary,
    describe=_describe_summary,
    text=_text_summary,
    pictures=_pictures_summary,
    figure=_figure_summary,
)
CV_RESULT = View(
    render=_render_cv,
    describe=_describe_cv,
    text=_text_cv,
    data=_data_cv,
    pictures=_pictures_cv,
    figure=_figure_single,
)
MULTILABEL_CV_RESULT = View(
    render=_render_cv,
    describe=_describe_cv,
    text=_text_cv,
    data=_data_cv,
    pictures=_pictures_cv,
    figure=_figure_multilabel,
)

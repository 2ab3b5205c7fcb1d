"""What a reader sees in the pictures and pages, checked by geometry and against the other
outputs of the same result: the grid's contour keeps its labels inside the plot and labels its
colour bar with the decimals its levels need; the critical-difference bar stays on its axis;
the HTML folds table numbers its folds and names its columns as the text report does; a nested
CV's text table shows the inner values its JSON shows; the benchmark's text table ends no line
with a space."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from svmeval import benchmark, cross_validate, grid_search, nested_cv, render

from conftest import ROOT

pytest.importorskip("matplotlib")

BREAST = str(ROOT / "data" / "breast_cancer.scale")
WINE = str(ROOT / "data" / "wine.scale")


def _renderer(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


@pytest.fixture(scope="module")
def mcc_grid():
    return grid_search(BREAST, log2c=(-1, 7, 2), log2g=(-7, -1, 2), criterion="mcc")


def test_grid_contour_labels_inside_the_plot_and_a_short_colour_bar(mcc_grid):
    from matplotlib.contour import ContourSet

    from svmeval.report.grid_plot import draw_grid

    fig = draw_grid(mcc_grid, title="breast_cancer.scale")
    renderer = _renderer(fig)
    plot, bar = fig.axes[0], fig.axes[1]
    box = plot.get_window_extent(renderer)
    labels = [t for a in plot.get_children() if isinstance(a, ContourSet) for t in a.labelTexts]
    assert labels  # the contours are labelled
    for t in labels:
        b = t.get_window_extent(renderer)
        assert box.x0 <= b.x0 and b.x1 <= box.x1 and box.y0 <= b.y0 and b.y1 <= box.y1, t
    ticks = [t.get_text() for t in bar.get_yticklabels() if t.get_text()]
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks)
    # the decimals the levels' step needs, no more: 0.964, not 0.96400
    step = float(np.median(np.diff(bar.get_yticks())))
    needed = next(d for d in range(10) if abs(round(step, d) - step) < 1e-9)
    assert {len(t.partition(".")[2]) for t in ticks} == {needed}, ticks
    # each label is its tick's value to the decimals shown
    for t, v in zip(bar.get_yticklabels(), bar.get_yticks()):
        if t.get_text():
            decimals = len(t.get_text().partition(".")[2])
            assert float(t.get_text()) == pytest.approx(v, abs=0.5 * 10.0**-decimals)


def test_the_critical_difference_bar_stays_on_its_axis():
    from matplotlib.lines import Line2D

    from svmeval.report.cd_plot import draw_cd_diagram

    bench = benchmark([BREAST, WINE], {"-c 1": "-c 1", "-t 0": "-t 0", "-c 8": "-c 8"}, folds=3)
    k = len(bench.configurations)
    assert bench.critical_difference > k - 1  # two data sets: longer than the axis
    fig = draw_cd_diagram(bench)
    renderer = _renderer(fig)
    ax = fig.axes[0]
    to_pixels = ax.transData.transform
    right_end = to_pixels((k, 0))[0]
    at_bar = [a for a in ax.get_children() if isinstance(a, Line2D) and set(a.get_ydata()) == {1.0}]
    for line in at_bar:
        assert max(line.get_xdata()) <= k
    for arrow in ax.texts:  # the bar drawn as an arrow, and its label: within the axis
        if arrow.get_text() == "" or arrow.get_text().startswith("CD"):
            b = arrow.get_window_extent(renderer)
            assert b.x1 <= right_end + 1 or arrow.get_text().startswith("CD")
    label = next(t.get_text() for t in ax.texts if t.get_text().startswith("CD"))
    assert f"CD = {bench.critical_difference:.2f} > {k - 1}" in label


def test_the_html_folds_table_numbers_its_folds_in_the_reports_words():
    result = cross_validate(WINE, folds=4)
    page = render(result, format="html")
    table = page.split("<h3>folds</h3>", 1)[1].split("</table>", 1)[0]
    heads = [html.unescape(h) for h in re.findall(r'<th scope="col">([^<]*)</th>', table)]
    assert heads[0] == "fold" and not [h for h in heads if "_" in h], heads
    first_cells = re.findall(r"<tr><td[^>]*>([^<]*)</td>", table)
    assert first_cells == ["1", "2", "3", "4"]
    text = render(result, full=True)
    for head in heads[1:]:  # every column is a figure the text report names so
        assert re.search(rf"^\s*{re.escape(head)}\s", text, re.M), head


def test_a_nested_cv_text_table_shows_the_values_of_its_json():
    result = nested_cv(BREAST, folds=3, log2c=(-1, 3, 2), log2g=(-5, -1, 2), inner_folds=3)
    folds = json.loads(render(result, format="json"))["nested"]["folds"]
    text = render(result).split("Nested cross validation", 1)[1].splitlines()
    head = text[1].split()
    assert head[-2:] == ["inner", "accuracy"]
    shown = [float(line.split()[-1]) for line in text[2 : 2 + len(folds)]]
    assert shown == pytest.approx([f["value"] for f in folds], rel=1e-5)
    assert all(0 <= v <= 1 for v in shown)


def test_the_benchmark_text_table_ends_no_line_with_a_space():
    bench = benchmark([BREAST, WINE], {"-c 1": "-c 1", "-c 8 -g 0.05": "-c 8 -g 0.05"}, folds=3)
    text = render(bench)
    assert "*" in text  # the best mean marked, the column's room for it kept inside the line
    assert [line for line in text.splitlines() if line != line.rstrip()] == []
    assert np.all(bench.best.sum(axis=1) >= 1)

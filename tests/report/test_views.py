"""Every result is shown through the one view its type declares (svmeval.report._views): a
new result type is shown by its own module and its view alone, and every result type of
svmeval declares one."""

from __future__ import annotations

import json
import textwrap

import pytest

import svmeval
from svmeval.report._views import View, view_of

#: a result type of another package, and its view: nothing of svmeval is changed for it
TOY = """
import json
from dataclasses import dataclass

from svmeval.report._views import View


@dataclass(frozen=True)
class Toy:
    __svmeval_view__ = "toy_view:VIEW"

    name: str
    value: float

    def to_dict(self):
        return {"name": self.name, "value": self.value}


def _render(result, format, digits, full):
    if format == "json":
        return json.dumps(result.to_dict()) + "\\n"
    return f"{result.name} = {result.value:.{digits}f}\\n"


def _figure(result, title, pos_label, zero_division):
    from matplotlib.figure import Figure

    figure = Figure()
    figure.add_subplot().bar([result.name], [result.value])
    figure.suptitle(title or result.name)
    return figure


def _pictures(result, svg, arrays):
    from svmeval.report.svg import Picture

    yield Picture("the toy's bar", svg(_figure(result, None, None, 0.0)))


VIEW = View(
    render=_render,
    formats=("text", "json"),
    describe=lambda result: (f"Toy {result.name}", "a result shown by its own view"),
    text=lambda result, digits: _render(result, "text", digits, False),
    pictures=_pictures,
    figure=_figure,
)
"""


@pytest.fixture
def toy(tmp_path, monkeypatch):
    (tmp_path / "toy_view.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_view

    yield toy_view.Toy("spam", 2.0 / 3.0)
    monkeypatch.delitem(__import__("sys").modules, "toy_view")


def test_a_new_result_type_is_shown_by_its_own_view_alone(toy):
    assert svmeval.render(toy) == "spam = 0.6667\n"
    assert svmeval.render(toy, digits=2) == "spam = 0.67\n"
    assert json.loads(svmeval.render(toy, format="json")) == {"name": "spam", "value": 2 / 3}
    with pytest.raises(svmeval.SvmevalError, match="one of text, json, html for a Toy"):
        svmeval.render(toy, format="csv")


def test_a_new_result_types_page_and_picture_come_from_its_view(toy):
    pytest.importorskip("matplotlib")
    page = svmeval.render(toy, format="html")
    assert "<title>Toy spam · svmeval</title>" in page
    assert '<p class="lead">a result shown by its own view</p>' in page
    assert "<pre>spam = 0.6667</pre>" in page
    assert "<figcaption>the toy&#x27;s bar</figcaption>" in page
    assert page.count("<svg") == 1
    figure = svmeval.plot(toy, title="T")
    assert figure._suptitle.get_text() == "T"
    assert [p.get_height() for p in figure.axes[0].patches] == [2 / 3]


#: render()'s result types, as its documentation lists them
RENDERED = (
    "CVResult",
    "MultilabelCVResult",
    "Summary",
    "GridResult",
    "NestedResult",
    "Comparison",
    "Benchmark",
    "McNemarResult",
    "PermutationTest",
    "TunedThreshold",
)
#: plot()'s, as its documentation lists them
DRAWN = (
    "CVResult",
    "MultilabelCVResult",
    "Summary",
    "GridResult",
    "NestedResult",
    "Benchmark",
    "PermutationTest",
    "TunedThreshold",
)


@pytest.mark.parametrize("name", RENDERED)
def test_every_result_type_declares_its_view(name):
    cls = getattr(svmeval, name)
    view = view_of(object.__new__(cls))
    assert isinstance(view, View)
    assert set(view.formats) >= {"text", "json", "csv"}
    assert (view.figure is not None) == (name in DRAWN)
    assert (view.pictures is not None) == (name in DRAWN)


@pytest.mark.parametrize("value", [object(), 3, "x", None, svmeval.CVResult])
def test_what_declares_no_view_is_refused_by_each_way_of_showing(value):
    assert view_of(value) is None
    for fmt in ("text", "html"):
        with pytest.raises(svmeval.SvmevalError, match="render\\(\\) takes a CVResult") as info:
            svmeval.render(value, format=fmt)
        assert isinstance(info.value, TypeError)
    with pytest.raises(svmeval.SvmevalError, match="plot\\(\\) draws a CVResult"):
        svmeval.plot(value)

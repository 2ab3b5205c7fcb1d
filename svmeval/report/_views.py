"""What each result type is, for showing it: one :class:`View` a type, and the one lookup that
every way of showing a result goes through.

A result type names its view in a class attribute, ``__svmeval_view__ = "MODULE:NAME"`` (a
module of :mod:`svmeval.report` and the :class:`View` it defines), declared once beside the
type. ``render(format=...)``, the HTML page (:mod:`svmeval.report.html`), its SVG pictures
(:mod:`svmeval.report.svg`) and ``plot()`` (:mod:`svmeval.report.pictures`) ask
:func:`view_of` and nothing else: no list of result types is written anywhere in
:mod:`svmeval.report`, and this package imports no result type of a higher layer's own
(``workflows/``): the result carries the name of its view, and the view is imported when the
result is first shown. A new result type is its own module and its view, nothing threaded by
hand.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from svmeval.errors import SvmevalError

__all__ = ["RenderTypeError", "View", "view_of"]


class RenderTypeError(SvmevalError, TypeError):
    """render() of something that is not a result it can report."""


def _to_dict(result) -> dict:
    return result.to_dict()


@dataclass(frozen=True)
class View:
    """How one result type is shown.

    ``render(result, format, digits, full) -> str``: its report in ``formats`` (besides
    "html", which every view has); ``digits``: the default decimals of that report (None: the
    renderer's own); ``describe(result) -> (title, line)``: the HTML page's title and the line
    under it; ``text(result, digits) -> str``: the page's text report (its verdicts);
    ``data(result) -> dict``: the page's tables, as the JSON report has them;
    ``pictures(result, svg, arrays) -> list[Picture]``: the page's pictures (``svg`` turns a
    figure into inline SVG), None for a result with none; ``figure(result, title, pos_label,
    zero_division)``: what ``plot()`` draws, None for a result it does not draw."""

    render: Callable[..., str]
    describe: Callable[..., tuple[str, str]]
    text: Callable[..., str]
    formats: tuple[str, ...] = ("text", "json", "csv")
    digits: int | None = 4
    data: Callable[..., dict] = field(default=_to_dict)
    pictures: Callable[..., list] | None = None
    figure: Callable[..., object] | None = None


def view_of(result) -> View | None:
    """The :class:`View` of ``result``'s type, None for an object that is not a result of
    svmeval (a type itself included)."""
    if isinstance(result, type):
        return None
    name = getattr(type(result), "__svmeval_view__", None)
    if not name:
        return None
    module, _, attribute = name.partition(":")
    view = getattr(importlib.import_module(module), attribute)
    if not isinstance(view, View):
        raise TypeError(f"{name} is not a View")
    return view

"""``plot(result)``: the picture of any result, as a matplotlib Figure or a file.

A cross-validation (or a nested one's outer predictions): the figure sheet
(:mod:`svmeval.report.plot`); a grid search: the criterion over log2 C and log2 gamma with the
chosen cell (:mod:`svmeval.report.grid_plot`); a benchmark: the critical-difference diagram
(:mod:`svmeval.report.cd_plot`); a permutation test: its null distribution with the observed
figure (:mod:`svmeval.report.permutation`); a tuned threshold: the figure sheet with its operating
points marked. matplotlib (the ``plot`` extra) is imported only when a
picture is drawn.
"""

from __future__ import annotations

import os

from svmeval._args import checked
from svmeval.errors import SvmevalError

__all__ = ["plot"]


def figure_of(result, title, pos_label, zero_division):
    """What ``plot()`` draws of ``result``: its view's figure."""
    from svmeval.report._views import view_of

    view = view_of(result)
    if view is None or view.figure is None:
        raise PictureTypeError(
            f"plot() draws a CVResult, MultilabelCVResult, Summary, GridResult, NestedResult, "
            f"Benchmark, PermutationTest or TunedThreshold, not {type(result).__name__}"
        )
    return view.figure(result, title, pos_label, zero_division)


class PictureTypeError(SvmevalError, TypeError):
    """plot() of something svmeval draws no picture of."""


@checked
def plot(
    result,
    file: str | os.PathLike | None = None,
    *,
    title: str | None = None,
    pos_label=None,
    zero_division=0.0,
):
    """The picture of a result: drawn, and written to ``file`` if one is given.

    Parameters
    ----------
    result : CVResult, MultilabelCVResult, Summary, GridResult, NestedResult, Benchmark, PermutationTest or TunedThreshold
        A cross-validation (or a nested CV's outer predictions): the figure sheet (confusion
        matrix, ROC and precision-recall curves, per-fold figures; for regression the
        predictions and residuals); a :class:`Summary` alone: its sheet without the curves;
        a grid search: the criterion over the grid with the chosen cell; a benchmark: the
        critical-difference diagram (Demšar 2006); a permutation test: the histogram of the
        permutations' figures with the observed one; a tuned threshold: the figure sheet of its
        cross-validation, LIBSVM's, the tuned and the nested operating points marked on the
        ROC and precision-recall curves.
    file : str or os.PathLike, optional
        Where to write the picture, PNG, SVG or PDF by its suffix (written whole or not at
        all).
    title : str, optional
        The picture's title (default: the data set and the run).
    pos_label, zero_division
        As :func:`summarize` takes them, for a cross-validation's sheet.

    Returns
    -------
    matplotlib.figure.Figure
        Drawn without pyplot (no display is needed).

    Raises
    ------
    SvmevalError
        matplotlib is missing (the ``plot`` extra), the file name has no known
        suffix, or ``result`` is not one svmeval draws.

    Examples
    --------
    >>> from svmeval import cross_validate, plot
    >>> figure = plot(cross_validate("data/breast_cancer.scale", folds=5))
    >>> len(figure.axes) >= 4
    True
    """
    from svmeval.report.plot import check_path

    fmt = check_path(os.fspath(file)) if file is not None else None
    figure = figure_of(result, title, pos_label, zero_division)
    if file is not None:
        from svmeval.io.output import atomic_path

        with atomic_path(os.fspath(file)) as tmp:
            figure.savefig(tmp, format=fmt, dpi=120)
    return figure

"""McNemar's test of two classifiers from their predictions files (svm-predict's format).

The command line, ``svmeval-compare --mcnemar``, is :mod:`svmeval.cli.compare`.
"""

from __future__ import annotations

import os

import numpy as np

from svmeval._args import checked
from svmeval.cv.collect.provenance import recorded
from svmeval.errors import SvmevalError, show_path
from svmeval.io.data import DataSource
from svmeval.stats.significance import McNemarResult, mcnemar

__all__ = ["mcnemar_files"]


@recorded
@checked
def mcnemar_files(
    data: DataSource,
    predictions_a: str | os.PathLike[str],
    predictions_b: str | os.PathLike[str],
) -> McNemarResult:
    """McNemar's test of two classifiers' predictions files (svm-predict's format) of ``data``.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data the predictions are of (its labels are the truth).
    predictions_a, predictions_b : str or os.PathLike
        The two predictions files: one label a line, in the data's order.

    Returns
    -------
    McNemarResult
        The 2 x 2 counts, the method (exact binomial below 25 discordant pairs, else
        chi-square with continuity correction) and the p-value.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import mcnemar_files, read_dataset
    >>> truth = read_dataset("data/breast_cancer.scale").y
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a").write_text("".join(f"{y:g}\\n" for y in truth))
    >>> wrong = truth.copy(); wrong[:30] = -wrong[:30]
    >>> _ = (folder / "b").write_text("".join(f"{y:g}\\n" for y in wrong))
    >>> m = mcnemar_files("data/breast_cancer.scale", folder / "a", folder / "b")
    >>> m.a_only, m.b_only, m.method, m.p < 1e-6
    (30, 0, 'chi2', True)
    """
    from svmeval.cv.plan import checks
    from svmeval.io.predictions import read_predictions

    dataset = checks.as_dataset(data)
    pred_a, pred_b = os.fspath(predictions_a), os.fspath(predictions_b)
    if dataset.y is None:
        raise SvmevalError(
            f"{show_path(dataset.name)}: multi-label data: McNemar's test needs one label a sample"
        )
    a = read_predictions(pred_a, expected=dataset.n_samples)
    b = read_predictions(pred_b, expected=dataset.n_samples)
    for path, values in ((pred_a, a), (pred_b, b)):
        if not np.all(values == np.trunc(values)):
            raise SvmevalError(
                f"{show_path(path)}: predictions are not class labels (not "
                "integers): McNemar's test compares two classifiers"
            )
    return mcnemar(dataset.y, a, b)

"""The label sets of a multi-label :class:`~svmeval.io.data.Dataset`: as indicator matrices and
as sorted tuples."""

from __future__ import annotations

import numpy as np

from svmeval.errors import SvmevalError, show_label, show_path

__all__ = ["check_multilabel", "dataset_indicator", "dataset_label_sets"]


def check_multilabel(dataset) -> None:
    if not getattr(dataset, "is_multilabel", False):
        raise SvmevalError(
            f"{show_path(dataset.name)}: not read as multi-label data "
            "(read_dataset(path, multilabel=True))"
        )


def dataset_indicator(dataset, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """``(Y, label_names)`` of a multi-label :class:`~svmeval.io.data.Dataset`.

    ``label_names``: float64, ascending, the labels seen in the file (or ``labels``, which must
    hold them all); ``Y``: int8 n_samples x n_labels, ``Y[i, j] = 1`` iff sample i has
    ``label_names[j]`` (a label repeated on a line counts once).
    """
    check_multilabel(dataset)
    values = np.asarray(dataset.label_values, dtype=np.float64)
    names = np.unique(values) if labels is None else np.unique(np.asarray(labels, np.float64))
    missing = np.setdiff1d(np.unique(values), names)
    if missing.size:
        raise SvmevalError(
            f"{show_path(dataset.name)}: label {show_label(missing[0])} is not "
            "among the labels given"
        )
    n = dataset.n_samples
    rows = np.repeat(np.arange(n), np.diff(np.asarray(dataset.label_indptr)))
    Y = np.zeros((n, len(names)), dtype=np.int8)
    Y[rows, np.searchsorted(names, values)] = 1
    return Y, names


def dataset_label_sets(dataset) -> list[tuple]:
    """Each sample's labels as a sorted tuple of floats (duplicates removed)."""
    check_multilabel(dataset)
    ip, v = dataset.label_indptr, dataset.label_values
    return [tuple(sorted(set(v[ip[i] : ip[i + 1]].tolist()))) for i in range(dataset.n_samples)]

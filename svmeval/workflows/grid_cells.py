"""A grid's cells: its ranges checked against the configuration and the data, in grid.py's
job order (:func:`~svmeval.workflows.grid_rules.job_order`)."""

from __future__ import annotations

import numpy as np

from svmeval._args.checks import check_weight_range
from svmeval.errors import ArgumentError
from svmeval.params import C_SVC, EPSILON_SVR, SvmParams
from svmeval.workflows import grid_rules as rules

__all__ = ["check_weight_label", "job_order_checked"]


def job_order_checked(params: SvmParams, log2c, log2g, log2p, log2w=None) -> list:
    """The cells in grid.py's job order, every range checked."""
    log2c = None if log2c is None else rules.check_range("log2c", log2c)
    log2g = None if log2g is None else rules.check_range("log2g", log2g)
    if log2p is not None:
        log2p = rules.check_range("log2p", log2p)
        if params.svm_type != EPSILON_SVR:
            raise ArgumentError("log2p", "searches epsilon-SVR's epsilon: it needs -s 3")
    if log2w is not None:
        log2w = check_weight_range(log2w)
        label = log2w[0]
        if params.svm_type != C_SVC:
            raise ArgumentError(
                "log2w",
                "searches the weight of a class of C-SVC (-s 0): LIBSVM's nu-SVC, one-class "
                "and regression solvers take no class weight",
            )
        fixed = [w for k, w in params.weight if k == label]
        if fixed:
            raise ArgumentError(
                "log2w",
                f"searches the weight of class {label}, which the configuration fixes too "
                f"(-w{label} {fixed[0]:g}): leave one of them out",
            )
    return rules.job_order(log2c, log2g, log2p, log2w)


def check_weight_label(dataset, label: int) -> None:
    """The class ``label`` whose weight is searched must be one of the data's classes
    (LIBSVM's classes are the labels cast to C ``int``; a weight of a class the data lack
    would only draw a warning from LIBSVM, and every cell would be the same)."""
    classes = sorted({int(v) for v in np.unique(np.asarray(dataset.y))})
    if label not in classes:
        raise ArgumentError(
            "log2w",
            f"names class {label}, which the data lack (their labels: "
            f"{', '.join(map(str, classes))})",
        )

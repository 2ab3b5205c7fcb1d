"""A grid's cells: its ranges checked against the configuration and the data, in grid.py's
job order (:func:`~svmeval.workflows.grid_rules.job_order`); the sizes of a search of the
number of features, and its cells as runs of one preprocessing each."""

from __future__ import annotations

import numpy as np

from svmeval._args.checks import check_weight_range
from svmeval.errors import ArgumentError
from svmeval.params import C_SVC, EPSILON_SVR, SvmParams
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_arguments import GridArguments

__all__ = ["check_weight_label", "job_order_checked", "preprocessing_parts", "search_sizes"]


def job_order_checked(params: SvmParams, arguments: GridArguments, sizes=None) -> list:
    """The cells of a search of ``arguments``' ranges in grid.py's job order, every range
    checked (``sizes``: the sizes searched, a tuple of distinct ints, None: not searched)."""
    log2c, log2g, log2p, log2w = arguments.log2c, arguments.log2g, arguments.log2p, arguments.log2w
    log2c = None if log2c is None else rules.check_range("log2c", log2c)
    log2g = None if log2g is None else rules.check_range("log2g", log2g)
    if log2p is not None:
        log2p = rules.check_range("log2p", log2p)
        if params.svm_type != EPSILON_SVR:
            raise ArgumentError("log2p", "searches epsilon-SVR's epsilon: it needs -s 3")
    if log2w is not None:
        log2w = check_weight_range(log2w)
        label = None if log2w is None else log2w[0]
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
    return rules.job_order(log2c, log2g, log2p, log2w, sizes)


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


def search_sizes(select, scale, dataset, params) -> tuple[int, ...] | None:
    """The sizes a search of the number of features tries (None: ``select`` is one K or
    None), checked against the data: ``"fselect"`` made from the data's F-scores (after
    any scaling) as fselect.py makes its list."""
    from svmeval.preprocess import Preprocessing, as_scale_spec, check_sizes

    value = check_sizes(select)
    if value is None or isinstance(value, int):
        return None
    if not params.is_classification:  # before any F-score is computed
        raise ArgumentError("select", "F-scores need classes: C-SVC and nu-SVC only")
    if isinstance(value, str):  # fselect.py's list, made from the data
        from svmeval.preprocess.selection import EMPTY_FSELECT, fselect_sizes

        if len(dataset.indices) and int(dataset.indices.min()) < 1:
            from svmeval.errors import show_path

            raise ArgumentError(
                "select",
                f"{show_path(dataset.name)} has feature index 0: svm-scale and fselect.py "
                "start at 1",
            )
        learned = Preprocessing(as_scale_spec(scale), None).learn(
            dataset.indptr, dataset.indices, dataset.values, dataset.y
        )
        made = fselect_sizes(learned.scores)
        if not made:
            raise ArgumentError("select", EMPTY_FSELECT)
        return made
    width = dataset.n_features
    above = [k for k in value if k > width]
    if above:
        raise ArgumentError(
            "select",
            f"size {above[0]} is more than the data's {width} features (a larger size "
            "would keep them all, as the largest does)",
        )
    return value


def preprocessing_parts(grid, todo: list) -> list:
    """The cells to search as runs of one preprocessing each, in their order: all of them
    (the search's preprocessing), or with sizes searched, the cells of each size in turn
    (each its size's selection, after the search's scaling)."""
    if not todo:
        return []
    if grid.sizes is None:
        return [(todo, grid.preprocessing)]
    from svmeval.preprocess import Preprocessing

    scale = None if grid.preprocessing is None else grid.preprocessing.scale
    parts: list = []
    for cell in todo:  # the sizes are the outer axis: each size's cells come together
        if not parts or parts[-1][1].select != cell.select:
            parts.append(([], Preprocessing(scale, cell.select)))
        parts[-1][0].append(cell)
    return parts

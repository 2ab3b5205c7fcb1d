"""Comparisons with LIBLINEAR configurations (:class:`~svmeval.params.LinearParams`): a LIBSVM
configuration against a LIBLINEAR one, on the LIBSVM side's folds, and two LIBLINEAR
configurations, on LIBLINEAR's own folds (or the folds grouped or given). Both end in
:func:`svmeval.workflows.compare._comparison`, as a comparison of two LIBSVM configurations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from svmeval._classes import class_code
from svmeval.errors import ArgumentError, SvmevalError
from svmeval.params import LinearParams, SvmParams, linear_configuration

__all__ = ["LinearRuns", "linear_runs", "linear_shown", "shown"]


@dataclass(frozen=True)
class LinearRuns:
    """What a comparison's tests take: both sides' runs (repetition-major), the criterion's
    figure, the positive class, the data's name and each side's options as shown."""

    runs_a: list
    runs_b: list
    figure: object
    pos_label: object
    data_name: str
    options_a: str
    options_b: str


def linear_runs(data, configurations, run, **arguments) -> LinearRuns:
    """The runs of a comparison where A, B or both are LIBLINEAR's."""
    if all(isinstance(p, LinearParams) for p in configurations):
        return _two_linear(data, configurations, run, **arguments)
    return _one_linear(data, configurations, run, **arguments)


def _one_linear(data, configurations, run, *, groups, given_folds, **arguments) -> LinearRuns:
    """A LIBSVM configuration against a LIBLINEAR one (either side): the LIBSVM side's
    cross-validations as :func:`compare` runs them, and on each one's folds the LIBLINEAR
    side trained fold by fold (:func:`svmeval.cv.run.linear_folds.linear_on_folds`)."""
    from svmeval.cv import engine
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.given import fold_source
    from svmeval.cv.run.linear_folds import check_linear, linear_on_folds

    side = 0 if isinstance(configurations[1], LinearParams) else 1  # the LIBSVM side
    name = "ab"[side]
    linear = configurations[1 - side]
    linear.check()
    dataset, (params,) = checks.as_dataset_and_params(
        data, "a comparison", **{name: configurations[side]}
    )
    pos_label = class_code(arguments["pos_label"], dataset.classes)
    labels = cast(np.ndarray, dataset.y)
    if linear.solver_type == 21:
        raise SvmevalError("one-class SVMs (-s 21) cannot be compared")
    kind = checks.common_kind(labels, (params,))
    if linear.is_regression != params.is_regression:
        raise SvmevalError("A and B must both be classifiers or both regressions")
    figure = checks.check_criterion(
        arguments["criterion"] or checks.default_criterion(params), kind, (params,)
    )
    if params.is_classification:
        checks.check_pos_label(labels, pos_label)
    check_linear(dataset, linear)  # LIBLINEAR's check_parameter, before any fold
    source = fold_source(groups, given_folds, dataset.n_samples)
    if source is not None and not source.grouped and run.repeat != 1:
        raise ArgumentError(
            "repeat", "must be 1 with given_folds: every repetition would have the same folds"
        )
    (runs,) = engine.run_configurations(
        dataset,
        [params],
        run.folds,
        engine.repetition_seeds(run.seed, run.repeat),
        arguments["jobs"],
        arguments["client"],
        arguments["progress"],
        source,
    )
    other = [linear_on_folds(dataset, linear, r) for r in runs]
    pair = (runs, other) if side == 0 else (other, runs)
    options = (shown(configurations[side], params), linear_shown(linear))
    if side == 1:
        options = options[::-1]
    return LinearRuns(*pair, figure, pos_label, getattr(dataset, "name", ""), *options)


def _two_linear(data, configurations, run, *, groups, given_folds, **arguments) -> LinearRuns:
    """Two LIBLINEAR configurations: each repetition's folds LIBLINEAR's own (``train -v``'s
    shuffle after ``srand(seed)``, the same for both), each side LIBLINEAR's own
    cross-validation on them (:func:`svmeval.cv.run.linear.cross_validate_linear`); with
    ``groups`` or ``given_folds``, those folds, LIBLINEAR trained fold by fold on them
    (:func:`svmeval.cv.run.linear_folds.linear_seeded`)."""
    from svmeval.cv import engine
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.given import fold_source
    from svmeval.cv.run.linear import cross_validate_linear
    from svmeval.cv.run.linear_folds import check_linear, linear_seeded

    if arguments["client"] is not None:
        raise ArgumentError(
            "client",
            "does not apply to two LIBLINEAR configurations (LIBLINEAR's cross-validation "
            "runs its folds one after another in this process)",
        )
    for params in configurations:
        params.check()
    dataset = checks.as_dataset(data, "data")
    labels = checks.single_label(dataset, "a comparison")
    dataset = checks.classes_for(dataset, data, list(configurations))
    labels = cast(np.ndarray, dataset.y)
    pos_label = class_code(arguments["pos_label"], dataset.classes)
    kind = checks.common_kind(labels, configurations)
    a = configurations[0]
    figure = checks.check_criterion(
        arguments["criterion"] or checks.default_criterion(a), kind, configurations
    )
    if a.is_classification:
        checks.check_pos_label(labels, pos_label)
    for params in configurations:
        check_linear(dataset, params)  # LIBLINEAR's check_parameter, before any fold
    source = fold_source(groups, given_folds, dataset.n_samples)
    if source is not None and not source.grouped and run.repeat != 1:
        raise ArgumentError(
            "repeat", "must be 1 with given_folds: every repetition would have the same folds"
        )
    seeds = engine.repetition_seeds(run.seed, run.repeat)
    if source is None:
        runs = [
            [cross_validate_linear(dataset, p, run.folds, seed=s) for s in seeds]
            for p in configurations
        ]
    else:
        runs = [
            [linear_seeded(dataset, p, run.folds, s, source) for s in seeds] for p in configurations
        ]
    return LinearRuns(
        runs[0],
        runs[1],
        figure,
        pos_label,
        getattr(dataset, "name", ""),
        linear_shown(configurations[0]),
        linear_shown(configurations[1]),
    )


def linear_shown(params: LinearParams) -> str:
    """A LIBLINEAR configuration in reports: ``linear:`` and its train options."""
    return linear_configuration(params)


def shown(config, params: SvmParams) -> str:
    """How a configuration is shown in reports: its options as given, or its flags."""
    return " ".join(config.split()) if isinstance(config, str) else params.flags()

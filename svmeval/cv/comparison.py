"""Two configurations cross-validated on the same folds, every argument checked first
(:func:`comparison_runs`): compare's runs, LIBSVM's against LIBSVM's through the evaluation
core (:func:`svmeval.cv.engine.run_configurations`), or a LIBLINEAR side trained on the LIBSVM
side's folds, or LIBLINEAR's two (:mod:`svmeval.cv.run.linear_folds`): a run's entry, as
:mod:`svmeval.cv.engine`."""

from __future__ import annotations

import contextlib
from typing import cast

import numpy as np

from svmeval.cv.collect.results import ComparisonRuns
from svmeval.cv.engine import run_configurations
from svmeval.cv.plan import checks
from svmeval.cv.plan.checks import ComparisonArguments, RunArguments
from svmeval.cv.plan.cv_plan import repetition_seeds
from svmeval.cv.plan.given import repeated_fold_source
from svmeval.cv.run.preprocessed import preprocessing_of
from svmeval.errors import SvmevalError
from svmeval.params import LinearParams, SvmParams, linear_configuration

__all__ = ["comparison_runs", "shown"]


def comparison_runs(data, a, b, arguments: ComparisonArguments) -> ComparisonRuns:
    """A and B cross-validated on the same folds of ``data``, every argument checked first."""
    from svmeval.cv.run.linear_folds import two_linear_runs
    from svmeval.errors import ArgumentError

    run = arguments.checked_run()
    linear = [isinstance(p, LinearParams) for p in (a, b)]
    scaled = arguments.scale is not None and arguments.scale is not False
    if any(linear) and (scaled or arguments.select is not None):
        raise ArgumentError(
            "scale" if scaled else "select",
            "is learned inside LIBSVM's folds only: not with a LIBLINEAR configuration",
        )
    if all(linear):
        return two_linear_runs(data, (a, b), run, arguments)
    if any(linear):
        return _one_linear(data, (a, b), run, arguments)
    return _two_libsvm(data, (a, b), run, arguments)


def _two_libsvm(data, configurations, run: RunArguments, arguments) -> ComparisonRuns:
    """Two LIBSVM configurations: the evaluation core's two candidates on R seeds' folds."""
    a, b = configurations
    params_a, params_b = checks.as_params(a, "a"), checks.as_params(b, "b")
    door = checks.run_data(data, "a comparison", [params_a, params_b], arguments.pos_label)
    dataset, pos_label = door.dataset, door.pos_label
    preprocessing = preprocessing_of(
        arguments.scale, arguments.select, dataset, [params_a, params_b]
    )
    labels = cast(np.ndarray, dataset.y)  # one label a sample: the door refused others
    figure = checks.check_criterion(
        arguments.criterion or checks.default_criterion(params_a),
        checks.common_kind(labels, (params_a, params_b)),
        (params_a, params_b),
    )
    if params_a.is_classification:  # before any work, not when the folds are summarized
        checks.check_pos_label(labels, pos_label)
    source = repeated_fold_source(
        arguments.groups, arguments.given_folds, dataset.n_samples, run.repeat
    )
    runs_a, runs_b = run_configurations(
        dataset,
        [params_a, params_b],
        run.folds,
        repetition_seeds(run.seed, run.repeat),
        arguments.jobs,
        arguments.client,
        arguments.progress,
        source,
        preprocessing,
    )
    return ComparisonRuns(
        runs_a,
        runs_b,
        figure,
        pos_label,
        getattr(dataset, "name", ""),
        shown(a, params_a),
        shown(b, params_b),
    )


def _one_linear(data, configurations, run: RunArguments, arguments) -> ComparisonRuns:
    """A LIBSVM configuration against a LIBLINEAR one (either side): the LIBSVM side's
    cross-validations as two LIBSVM configurations run, and on each one's folds the LIBLINEAR
    side trained fold by fold (:func:`svmeval.cv.run.linear_folds.linear_on_folds`)."""
    from svmeval.cv.run.linear_folds import check_linear, linear_on_folds_of

    side = 0 if isinstance(configurations[1], LinearParams) else 1  # the LIBSVM side
    name = "ab"[side]
    linear = configurations[1 - side]
    linear.check()
    params = checks.as_params(configurations[side], name)
    door = checks.run_data(data, "a comparison", [params], arguments.pos_label)
    dataset, pos_label = door.dataset, door.pos_label
    labels = cast(np.ndarray, dataset.y)
    if linear.solver_type == 21:
        raise SvmevalError("one-class SVMs (-s 21) cannot be compared")
    kind = checks.common_kind(labels, (params,))
    if linear.is_regression != params.is_regression:
        raise SvmevalError("A and B must both be classifiers or both regressions")
    figure = checks.check_criterion(
        arguments.criterion or checks.default_criterion(params), kind, (params,)
    )
    if params.is_classification:
        checks.check_pos_label(labels, pos_label)
    check_linear(dataset, linear)  # LIBLINEAR's check_parameter, before any fold
    source = repeated_fold_source(
        arguments.groups, arguments.given_folds, dataset.n_samples, run.repeat
    )
    with contextlib.ExitStack() as stack:
        client = arguments.client
        if client is not None:  # one connection for both sides
            from svmeval.cv.run import cluster

            client = stack.enter_context(cluster.client_for(client))
        (runs,) = run_configurations(
            dataset,
            [params],
            run.folds,
            repetition_seeds(run.seed, run.repeat),
            arguments.jobs,
            client,
            arguments.progress,
            source,
        )
        other = linear_on_folds_of(dataset, linear, runs, client)
    pair = (runs, other) if side == 0 else (other, runs)
    options = (shown(configurations[side], params), linear_configuration(linear))
    if side == 1:
        options = options[::-1]
    return ComparisonRuns(*pair, figure, pos_label, getattr(dataset, "name", ""), *options)


def shown(config, params: SvmParams) -> str:
    """How a configuration is shown in reports: its options as given, or its flags."""
    return " ".join(config.split()) if isinstance(config, str) else params.flags()

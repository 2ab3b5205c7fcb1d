"""Cross-validation as svm-train runs it, and svm-train without ``-v``.

:func:`cross_validate` (:func:`run_cv` with the engine's own arguments) is the evaluation core's (:mod:`svmeval.cv.run.evaluate`) one candidate
over R seeds: LIBSVM's own folds after ``srand(seed)``, each fold's training set in LIBSVM's
order and the same predict call (:class:`~svmeval.cv.plan.cv_plan.CVPlan`), so predictions are
bit-identical to LIBSVM's ``svm_cross_validation``, with what LIBSVM throws away kept: decision
values, probabilities, the fold of each sample. Results do not depend on ``jobs`` or ``client``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

import numpy as np

from svmeval._args import checked
from svmeval.cv import _libsvm, _model
from svmeval.cv.collect.provenance import recorded
from svmeval.cv.collect.results import (  # noqa: F401
    ComparisonRuns,
    CVResult,
    Repetition,
    repetition,
)
from svmeval.cv.plan import checks
from svmeval.cv.plan.checks import (
    ComparisonArguments,
    RunArguments,
    check_execution,
    check_folds,
    check_inputs,
    check_repeat,
    check_seed,
)
from svmeval.cv.plan.cv_plan import CVPlan, FoldOutput, repetition_seeds  # noqa: F401
from svmeval.cv.plan.folds import libsvm_folds  # noqa: F401 - where the tests draw LIBSVM's folds
from svmeval.cv.plan.given import FoldAssignment, repeated_fold_source
from svmeval.cv.run.evaluate import evaluate
from svmeval.cv.run.executors import executor_for
from svmeval.cv.run.preprocessed import preprocessing_of, selected_features
from svmeval.cv.run.store_use import FoldByFold  # noqa: F401 - nested CV's outer loop, with a store
from svmeval.cv.schedule import run_tasks
from svmeval.errors import SvmevalError, show_path
from svmeval.io.data import Dataset, DataSource
from svmeval.params import Configuration, LinearParams, SvmParams, linear_configuration
from svmeval.preprocess import Preprocessing, ScaleLike
from svmeval.store import StoreLike


def c_state(func):
    """``func`` holding C's global state (``rand()``, LIBSVM's print hook, the OpenMP setting)
    for the whole of each call: a run made of several cross-validations (a grid, a nested
    cross-validation, a benchmark) is decorated so, and no other run in the process draws
    from ``rand()`` or prints in between. Reentrant: the runs it calls hold it too."""
    return _libsvm.c_state(func)


def check_parameters(problem, candidates) -> None:
    """Raise :class:`~svmeval.errors.ParameterError` with LIBSVM's own message where
    svm_check_parameter objects to one of ``candidates`` (resolved :class:`SvmParams`) on
    ``problem``, before any of them trains."""
    for candidate in candidates:
        _libsvm.check_parameter(problem, candidate)


def prepare(
    dataset, params: SvmParams, *, y: np.ndarray | None = None, quiet: bool = True, problem=None
):
    """Check everything before LIBSVM sees it; return ``(problem, resolved params)``.

    ``dataset`` checked at the run's door (:func:`~svmeval.cv.plan.checks.as_dataset`, a precomputed
    kernel's rows included); gamma 0 becomes 1/num_features as in svm-train;
    svm_check_parameter's objections raise :class:`ParameterError`.
    """
    labels = check_inputs(dataset, params, y)
    params = params.resolved(dataset.n_features)
    if problem is None:
        problem = _libsvm.make_problem(dataset, labels)
    elif y is not None:
        problem = problem.subset(np.arange(problem.n_samples), labels)
    _libsvm.check_parameter(problem, params)
    _libsvm.set_quiet(quiet)
    return problem, params


@recorded
@checked
def cross_validate(
    data: DataSource,
    params: Configuration | LinearParams = None,
    folds: int = 5,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    seed: int = 1,
    repeat: int = 1,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    quiet: bool = True,
    keep_decision_values: bool = False,
    keep_repeats: bool = False,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | None = None,
) -> CVResult:
    """k-fold cross-validation exactly as LIBSVM's ``svm-train -v k``, every prediction kept.

    LIBSVM's own folds after ``srand(seed)``, each fold's training set in LIBSVM's order and
    the same predict call, so the predictions are bit-identical to LIBSVM's
    ``svm_cross_validation``; what LIBSVM throws away is kept: decision values, class scores,
    probabilities (``-b 1``), the fold of each sample. Results do not depend on ``jobs`` or
    ``client``.

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data: a :class:`Dataset`, a LIBSVM-format file name (read first) or arrays in
        memory, ``(X, y)`` as :meth:`Dataset.from_arrays` takes them (column j is feature
        j + 1). One label a sample (multi-label data: :func:`cross_validate_multilabel`).
    params : SvmParams or str or LinearParams, optional
        The configuration: :class:`SvmParams` or svm-train's training options
        (``"-c 8 -g 0.05"``); default svm-train's defaults. gamma 0 is 1/num_features.
        A :class:`LinearParams` runs LIBLINEAR's own cross-validation instead (its
        ``train -v k``: its unstratified folds after ``srand(seed)``; the ``linear`` extra),
        with ``folds``, ``seed``, ``repeat`` (seeds ``seed``, ``seed + 1``, ...),
        ``keep_repeats``, ``quiet`` and ``store`` only.
    folds : int, default 5
        k, at least 2; more folds than samples is leave-one-out (``result.n_folds`` tells the
        folds drawn). With ``groups``: k folds of whole groups (the number of groups:
        leave-one-group-out). Not used with ``given_folds``.
    groups : array-like or str or os.PathLike, optional
        Each row's group (any ids, one a row; a file name: one id a line): no group is in two
        folds; within that, classes and fold sizes are balanced (:doc:`/guide/folds`). The folds
        are the same for the same ``seed``.
    given_folds : array-like or iterable or str or os.PathLike, optional
        The folds to use instead of LIBSVM's: each row's fold id (integers; a file name: one
        fold 1..k a line, the format ``svmeval --folds FILE`` writes), or scikit-learn's
        ``(train, test)`` index pairs (``splitter.split(X, y)``), whose test sets must
        partition the rows, each training set the rest. Each fold trains on its rows in
        ascending row order.
    seed : int, default 1
        C ``srand``'s seed before the folds are drawn (0 to 2**32 - 1); 1 gives svm-train's
        folds.
    repeat : int, default 1
        R cross-validations, with seeds ``seed``, ``seed + 1``, ...; the result is the first
        one's, with the others' figures in ``repeats``.
    jobs : int, optional
        Folds trained at once on this machine (default: the cores). Results are identical for
        every value. With ``-b 1`` the folds run in order (probability training draws from C
        ``rand()``).
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address (``tcp://host:8786``, ``local[:N]``): the folds
        run as tasks on that cluster, with results identical to a local run.
    progress : callable, optional
        ``progress(done, total)``, called as folds end (over every repetition).
    quiet : bool, default True
        Silence LIBSVM's training messages (else they go to standard error).
    keep_decision_values : bool, default False
        Keep the n x k(k-1)/2 one-vs-one decision values of k > 2 classes (by default only
        the n x k class scores they give).
    keep_repeats : bool, default False
        Keep every further repetition's whole result in ``repeat_results``
        (``to_frame()`` of a repeated run needs them).
    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): the folds it holds are taken from it, the others computed and written to it
        one by one as they end. The result is the same as without a store.
    scale : bool or (float, float) or ScaleSpec, optional
        Scale inside the folds, as svm-scale: each fold's training rows as ``svm-scale -l
        lower -u upper -s range`` scales them, its test rows as ``svm-scale -r range`` (the
        training rows' factors), each value as svm-train reads svm-scale's ``%g`` back. True:
        svm-scale's defaults, -1 and 1; a :class:`~svmeval.preprocess.ScaleSpec` for ``-y``
        (regression targets; predictions are given back in the data's units) or full
        precision (:doc:`/guide/preprocessing`).
    select : int, optional
        Keep the K features of highest F-score (``tools/fselect.py``'s), ranked on each fold's
        training rows (after scaling), ties by feature index. C-SVC and nu-SVC only.
        ``result.selected`` holds each fold's features.

    Returns
    -------
    CVResult
        Every sample's label, prediction, fold and scores; :func:`summarize` gives its figures.

    Raises
    ------
    DataFormatError
        The file cannot be read (the message names file and line).
    ParameterError, OptionError
        A configuration LIBSVM would refuse, or malformed options.
    SvmevalError
        Any other argument that cannot be used (the base of every svmeval error).

    See Also
    --------
    summarize : every figure of the result.
    grid_search : cross-validate a grid of C and gamma.

    Examples
    --------
    >>> from svmeval import cross_validate, summarize
    >>> result = cross_validate("data/breast_cancer.scale", "-c 2", folds=5)
    >>> result.n_samples, result.n_folds
    (569, 5)
    >>> round(summarize(result).figures["accuracy"], 4)
    0.9684
    """
    call = dict(locals())
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.given import fold_source
    from svmeval.cv.run.store_session import opened
    from svmeval.params import given_configuration

    given = params
    if isinstance(params, LinearParams):  # LIBLINEAR's train -v (the linear extra)
        from svmeval.cv.run.linear import cross_validate_call

        return cross_validate_call(call, checks.run_data(data, None, [params]), cross_validate)
    params = checks.as_params(params, "params")
    data = checks.run_data(data, None, [params]).dataset
    source = fold_source(groups, given_folds, len(data.y) if data.y is not None else None)
    preprocessing = preprocessing_of(scale, select, data, [params])
    with opened(store, "cross_validate", (cross_validate, call)) as counts:
        result = run_cv(
            data,
            params,
            folds,
            seed=seed,
            repeat=repeat,
            jobs=jobs,
            client=client,
            progress=progress,
            quiet=quiet,
            keep_decision_values=keep_decision_values,
            keep_repeats=keep_repeats,
            store=counts,
            fold_source=source,
            preprocessing=preprocessing,
        )
    configuration = given_configuration(given, params)
    return replace(
        result,
        configuration=configuration,
        repeat_results=tuple(
            replace(r, configuration=configuration) for r in result.repeat_results
        ),
    )


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def run_cv(
    dataset,
    params: SvmParams,
    folds: int,
    *,
    seed: int = 1,
    repeat: int = 1,
    quiet: bool = True,
    y: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
    problem=None,
    keep_decision_values: bool = False,
    keep_repeats: bool = False,
    share: bool | None = None,
    jobs: int | None = None,
    client=None,
    store=None,
    warn_folds: bool = True,
    fold_source=None,
    preprocessing=None,
) -> CVResult:
    """:func:`cross_validate` with the engine's own arguments: ``y`` (labels replacing the
    data set's), ``problem`` (the data's LIBSVM problem, if built), ``share`` (whether the folds
    train on one kernel matrix computed once, :class:`~svmeval.cv.run.kernel.SharedKernel`: None
    where the cost model says it pays, before the run or from its first training
    (:mod:`svmeval.cv.run.probe`), True always, False never; never with ``-b 1``, a
    precomputed kernel or matrices over :data:`~svmeval.cv.run.kernel.DEFAULT_MEMORY_MB`),
    ``store`` (the run's :class:`~svmeval.cv.run.store_session.StoreCounts`), ``warn_folds`` (False:
    LIBSVM's leave-one-out warning, more folds than samples, is not given: a run of several
    cross-validations that gave it already), ``fold_source`` (a
    :class:`~svmeval.cv.plan.given.FoldSource`: folds given or grouped instead of LIBSVM's),
    ``preprocessing`` (a :class:`~svmeval.preprocess.Preprocessing` learned inside each fold,
    :func:`preprocessing_of`)."""
    folds, seed, repeat = check_folds(folds), check_seed(seed), check_repeat(repeat)
    check_execution(jobs, client)
    problem, params = prepare(dataset, params, y=y, quiet=quiet, problem=problem)
    if client is not None and y is not None:
        dataset = replace(dataset, y=problem.y)
    options = CVOptions(
        keep_decision_values=keep_decision_values,
        keep_repeats=keep_repeats,
        share=share,
        progress=progress,
        jobs=jobs,
        client=client,
        store=store,
        warn_folds=warn_folds,
        fold_source=fold_source,
        preprocessing=preprocessing,
    )
    return _repetitions(dataset, problem, params, folds, repetition_seeds(seed, repeat), options)


@dataclass(frozen=True)
class CVOptions:
    """What :func:`run_cv` passes on beside the data, the configuration and the folds: what
    each fold keeps, how the folds run (``share``, ``jobs``, ``client``, ``progress``), the
    run's store, whether LIBSVM's leave-one-out warning is given, the folds' source and the
    preprocessing learned inside each fold (:func:`run_cv` says what each means)."""

    keep_decision_values: bool = False
    keep_repeats: bool = False
    share: bool | None = None
    progress: Callable[[int, int], None] | None = None
    jobs: int | None = None
    client: object = None
    store: object = None
    warn_folds: bool = True
    fold_source: object = None
    preprocessing: Preprocessing | None = None


def _repetitions(
    dataset, problem, params: SvmParams, folds: int, seeds: list[int], options: CVOptions
) -> CVResult:
    """One candidate over every seed's folds: the first repetition's result, with the others'
    figures (and, with ``options.keep_repeats``, their results) in repetition order."""
    keep_repeats, preprocessing = options.keep_repeats, options.preprocessing
    first, repeats, results = [], [], []

    def finish(unit, result: CVResult) -> None:
        if unit.repetition == 0:
            first.append(result)
        else:
            repeats.append((unit.repetition, repetition(result)))
            if keep_repeats:
                results.append((unit.repetition, result))

    with executor_for(options.jobs, options.client) as executor:
        evaluate(
            dataset,
            problem,
            [params],
            seeds,
            folds,
            executor=executor,
            finish=finish,
            keep_decision_values=options.keep_decision_values,
            share=options.share,
            progress=options.progress,
            store=options.store,
            warn_folds=options.warn_folds,
            fold_source=options.fold_source,
            preprocessing=preprocessing,
        )
    selected = None
    if preprocessing is not None and preprocessing.select is not None:
        selected = selected_features(dataset, problem.y, first[0].folds, preprocessing)
    return replace(
        first[0],
        preprocessing="" if preprocessing is None else preprocessing.key(),
        selected=selected,
        repeats=tuple(x for _, x in sorted(repeats, key=lambda t: t[0])),
        repeat_results=tuple(
            replace(x, classes=getattr(dataset, "classes", None))
            for _, x in sorted(results, key=lambda t: t[0])
        ),
        data_name=getattr(dataset, "name", ""),
        classes=getattr(dataset, "classes", None),
    )


def run_configurations(
    dataset,
    params: list,
    folds,
    seeds,
    jobs,
    client,
    progress=None,
    source=None,
    preprocessing=None,
) -> list[list]:
    """Every configuration's cross-validations on every seed's folds of one data set (the
    evaluation core's candidates x R seeds, run at once: compare's and a benchmark's runs), the
    data set checked at the run's door: one list of CV results per configuration,
    repetition-major. ``preprocessing``: learned on each fold's training rows, for every
    configuration alike (each fold's rows made once for all of them)."""
    problem, first = prepare(dataset, params[0])
    resolved = [first] + [prepare(dataset, p, problem=problem)[1] for p in params[1:]]
    runs: list[list] = [[None] * len(seeds) for _ in params]

    def finish(unit, result) -> None:
        runs[unit.candidate][unit.repetition] = result

    with executor_for(jobs, client) as executor:
        evaluate(
            dataset,
            problem,
            resolved,
            seeds,
            folds,
            executor=executor,
            finish=finish,
            progress=progress,
            fold_source=source,
            preprocessing=preprocessing,
        )
    if preprocessing is not None:
        key = preprocessing.key()
        runs = [[replace(r, preprocessing=key) for r in rs] for rs in runs]
    return runs


@checked
def train_and_save(
    data: DataSource,
    params: Configuration,
    model_file: str | os.PathLike[str],
    *,
    seed: int = 1,
    quiet: bool = True,
    scale: ScaleLike = None,
    select: int | None = None,
) -> None:
    """svm-train without ``-v``: train on every sample and save the model file svm-train
    writes (``svm-predict`` reads it).

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The training data (a file name is read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them).
    params : SvmParams or str or None
        The configuration, or svm-train's options; None is svm-train's defaults.
    model_file : str or os.PathLike
        Where the model is written.
    seed : int, default 1
        C ``srand``'s seed before training (``-b 1`` draws from ``rand()``), as a fresh
        svm-train.
    quiet : bool, default True
        Silence LIBSVM's training messages.
    scale, select : optional
        Preprocessing learned on every sample first, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features), the model trained on the rows
        it makes. The model file then comes with what it needs beside it: with ``scale``,
        ``MODEL.range``, the range file ``svm-scale -s`` writes (``svm-scale -r
        MODEL.range`` scales the rows the model predicts; with ``-y``, its predictions are
        scaled targets, the range file's ``y`` lines map them back); with ``select``,
        ``MODEL.features``, the features kept (one index a line, ascending: the rows the
        model predicts keep only those, after scaling). All are written, or none.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import train_and_save
    >>> model = pathlib.Path(tempfile.mkdtemp()) / "breast_cancer.model"
    >>> train_and_save("data/breast_cancer.scale", "-c 2", model)
    >>> model.read_text().splitlines()[:2]
    ['svm_type c_svc', 'kernel_type rbf']
    """
    from svmeval.cv.plan import checks

    params = checks.as_params(params)
    dataset = checks.as_dataset(data, precomputed=checks.uses_precomputed([params]))
    model_file = os.fspath(model_file)
    if scale is None and select is None:
        return save_model_files(dataset, params, [model_file], seed=seed, quiet=quiet)
    from svmeval.cv.run.preprocessed import side_files
    from svmeval.io import output

    preprocessing = preprocessing_of(scale, select, dataset, [params])
    paths = [model_file] + [path for _, path in side_files(model_file, preprocessing)]
    if len(set(map(os.path.abspath, paths))) < len(paths):  # pragma: no cover - suffixes
        raise SvmevalError(f"{show_path(model_file)}: its side files would overwrite it")
    with output.atomic_paths(paths, "the model file") as temporary:
        save_model_files(
            dataset, params, temporary, seed=seed, quiet=quiet, preprocessing=preprocessing
        )


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def save_model_files(
    dataset,
    params: SvmParams,
    paths: list[str],
    *,
    seed: int = 1,
    quiet: bool = True,
    preprocessing=None,
) -> None:
    """The model trained on ``dataset`` saved to ``paths[0]``; with ``preprocessing``
    (learned on every row first), the texts of its side files
    (:func:`svmeval.cv.run.preprocessed.side_files`) to the other paths."""
    seed = check_seed(seed)
    if isinstance(dataset, Dataset) and dataset.y is None:
        raise SvmevalError(
            f"{show_path(dataset.name)}: multi-label data: train_and_save trains on one label a "
            "sample (cross_validate_multilabel evaluates multi-label data)"
        )
    problem, params = prepare(dataset, params, quiet=quiet)
    texts: list[str] = []
    if preprocessing is not None:
        from svmeval.cv.run.preprocessed import side_texts, whole_problem

        problem, fitted = whole_problem(dataset, problem, preprocessing)
        texts = side_texts(fitted)
    _libsvm.srand(seed)
    models = []
    # trained on a worker thread while the calling thread waits: a Ctrl-C is acted on at once,
    # not when LIBSVM returns (the training's OpenMP threads as the caller's would be)
    run_tasks([lambda _share: models.append(_model.Model(problem, params))], jobs=1)
    models[0].save(paths[0])
    for path, text in zip(paths[1:], texts):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


# --- a comparison of two configurations on the same folds ---------------------------------
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

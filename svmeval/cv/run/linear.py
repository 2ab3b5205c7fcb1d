"""LIBLINEAR's cross-validation: its own ``cross_validation`` through the library of the official
bindings (``liblinear-official``, the ``linear`` extra), as LIBLINEAR's ``train -v k`` runs it.

``train`` never seeds C ``rand()``: a fresh process draws as after ``srand(1)``. Its
``cross_validation`` shuffles the rows with ``rand()`` (no stratification: every solver alike),
cuts fold ``i`` at ``i*l/k``, and each fold's training draws from the same ``rand()`` (the dual
solvers shuffle their coordinates): the folds must run one after another in one C call. Here
``rand()`` is seeded with 1, the folds are drawn as LIBLINEAR draws them (to know which fold
tested each row), ``rand()`` is seeded with 1 again and LIBLINEAR's own ``cross_validation``
runs on the whole problem: its predictions are ``train -v k``'s, byte for byte. The solvers
whose training draws nothing from ``rand()`` (``-s 0, 2, 11``) train their folds side by side
instead, on the same folds, with the same predictions (:mod:`svmeval.cv.run.linear_threads`).
The result is
a :class:`~svmeval.cv.collect.results.CVResult` whose ``params`` is a :class:`LinearParams`: every
summary and report takes it as it takes LIBSVM's.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from svmeval.cv import bounded_waits, schedule
from svmeval.cv.run import linear_threads
from svmeval.errors import ParameterError, SvmevalError
from svmeval.params import LinearParams, linear_configuration

if TYPE_CHECKING:
    from svmeval.cv.collect.results import CVResult

__all__ = [
    "LinearParams",
    "check_linear",
    "cross_validate_linear",
    "liblinear_version",
    "linear_cross_validation",
    "linear_target",
]


def liblinear_version() -> int:
    """LIBLINEAR's own version number (``liblinear_version``: 250 for 2.50)."""
    from svmeval.cv import _liblinear

    return int(_liblinear.library().version)


def cross_validate_linear(
    dataset,
    params: LinearParams,
    folds: int = 5,
    *,
    seed: int = 1,
    quiet: bool = True,
    store=None,
    jobs: int | None = None,
):
    """LIBLINEAR's ``train -v folds`` on ``dataset`` (a :class:`~svmeval.io.data.Dataset` or a
    file name): its own ``cross_validation`` after ``srand(seed)`` (``train``'s process draws
    as after ``srand(1)``), every row's prediction.

    Returns a :class:`~svmeval.cv.collect.results.CVResult` (``params`` a :class:`LinearParams`;
    no decision values). Raises :class:`~svmeval.errors.ParameterError` with LIBLINEAR's own
    message where ``check_parameter`` objects, and :class:`~svmeval.errors.SvmevalError` where
    LIBLINEAR's bindings are not installed.

    ``store``: the run's results store (a :class:`~svmeval.cv.run.store_session.StoreCounts`, None:
    none): the folds are taken from it where it holds them all, else computed and written
    to it (:mod:`svmeval.cv.run.linear_store`). ``jobs``: the threads the folds of the solvers
    that draw nothing from ``rand()`` (``-s 0, 2, 11``) train on (None: the cores; 1: LIBLINEAR's
    one C call); the predictions are the same for every ``jobs``.
    """
    from svmeval.cv.plan.folds import check_folds
    from svmeval.io.data import Dataset, read_dataset

    folds = check_folds(folds)
    if not isinstance(params, LinearParams):
        raise SvmevalError("params: a LinearParams is needed")
    params.check()
    if not isinstance(dataset, Dataset):
        dataset = read_dataset(dataset)
    return linear_cross_validation(
        dataset, params, folds, seed=seed, quiet=quiet, store=store, jobs=jobs
    )


def check_linear(dataset, params) -> None:
    """Refuse ``params`` on ``dataset`` as LIBLINEAR's ``check_parameter`` refuses it (a
    :class:`~svmeval.errors.ParameterError` with its message), before any fold is trained."""
    from svmeval.cv import _liblinear
    from svmeval.errors import ParameterError

    params.check()
    c = _liblinear.library()
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    message = c.check_parameter(problem.address, _address(param))
    del kept
    if message:
        raise ParameterError(message.decode())


def linear_cross_validation(
    dataset,
    params: LinearParams,
    folds: int,
    *,
    seed: int = 1,
    quiet: bool = True,
    store=None,
    computed: tuple | None = None,
    printer=None,
    jobs: int | None = None,
):
    """:func:`cross_validate_linear` of a :class:`~svmeval.io.data.Dataset`, ``folds`` and
    ``params`` checked (``params.check()``). ``computed``: ``(every row's prediction,
    seconds, LIBLINEAR's messages)`` of this cross-validation, computed elsewhere (on a Dask
    worker: :func:`linear_target`), taken where the store
    does not hold its folds (the messages written on stderr unless ``quiet``). ``printer``:
    LIBLINEAR's print hook where not ``quiet`` (None: stderr). ``jobs``: the threads the
    folds of ``-s 0, 2, 11`` train on (None: the cores; :mod:`svmeval.cv.run.linear_threads`;
    one, LIBLINEAR's own call, with a ``printer``)."""
    from svmeval.cv import _liblinear
    from svmeval.cv.collect.provenance import note_dataset, note_liblinear
    from svmeval.cv.plan.folds import check_samples, group_classes, libsvm_folds

    if dataset.y is None:
        raise SvmevalError("LIBLINEAR's cross-validation takes single-label data")
    l = dataset.n_samples
    check_samples(l)
    labels = (
        group_classes(dataset.y)[0].astype(np.float64)  # (int)label must fit a C int
        if params.is_classification
        else np.array([], dtype=np.float64)
    )
    c = _liblinear.library()
    note_dataset(dataset)
    note_liblinear(c.version)
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    target = np.empty(l, dtype=np.float64)
    schedule.wait_abandoned()  # an interrupted run's call may still be drawing from rand()
    with _liblinear.STATE_LOCK:
        message = c.check_parameter(problem.address, _address(param))
        if message:
            raise ParameterError(message.decode())
        c.set_print(c.print_null if quiet else printer or c.print_stderr)
        c.srand(seed)  # 1: a fresh train process's rand()
        plan = libsvm_folds(dataset.y, folds, stratified=False, rand=c.rand, shuffle=c.shuffle)
        use = found = None
        if store is not None:
            from svmeval.cv.run.linear_store import LinearStoreUse

            use = LinearStoreUse(store, dataset, params, (folds, seed), c.version, plan, labels)
            found = use.find()
        if found is not None:
            target = found
        else:
            if use is not None:
                from svmeval.cv.run.store_session import missing

                missing(store, plan.n_folds)
            start = time.perf_counter()
            if computed is not None:
                target, seconds = np.array(computed[0], dtype=np.float64), float(computed[1])
                if not quiet and computed[2]:
                    from svmeval.cv.c_library import write_message

                    write_message(computed[2])
            else:
                # -s 0, 2, 11 (no rand() in training): the folds side by side; on a worker
                # (printer) LIBLINEAR's one call, its messages kept by the printer
                threads = 1
                if printer is None:
                    threads = linear_threads.fold_threads(params.solver_type, jobs, plan.n_folds)
                if threads > 1:
                    linear_threads.run_cross_validation(
                        c, problem, param, plan, folds, target, jobs=threads, quiet=quiet
                    )
                else:
                    c.srand(seed)
                    _in_helper_thread(
                        c.cross_validation,
                        (
                            problem.address,
                            _address(param),
                            folds,
                            target.ctypes.data_as(_c_double_p()),
                        ),
                        (problem, param, kept, target),
                    )
                seconds = time.perf_counter() - start
            if use is not None:
                use.write(target, seconds)
    del kept
    return linear_result(dataset, dataset.y, target, plan, labels, params, seed)


def linear_target(dataset, params, folds: int, seed: int, quiet: bool = True) -> tuple:
    """On a worker: one repetition of LIBLINEAR's own cross-validation
    (:func:`~svmeval.cv.run.linear.linear_cross_validation`, ``srand(seed)`` then its
    ``cross_validation``): ``(every row's prediction, seconds, LIBLINEAR's messages)`` (the
    messages, kept unless ``quiet``, are the client's to write, as the local run writes
    them)."""
    from svmeval.cv import _liblinear
    from svmeval.cv.c_library import PRINT

    said: list = []
    printer = PRINT(said.append)
    start = time.perf_counter()
    try:
        result = linear_cross_validation(
            dataset, params, folds, seed=seed, quiet=quiet, printer=printer
        )
    finally:  # the hook never left pointing at a callback about to be freed
        c = _liblinear.library()
        with _liblinear.STATE_LOCK:
            c.set_print(c.print_null)
    return result.y_pred, time.perf_counter() - start, b"".join(said)


def linear_held(dataset, params: LinearParams, folds: int, seed: int, store) -> bool:
    """Whether the run's store (a :class:`~svmeval.cv.run.store_session.StoreCounts`) holds
    every fold of LIBLINEAR's cross-validation of ``params`` for ``seed`` (nothing counted,
    nothing computed)."""
    from svmeval.cv import _liblinear
    from svmeval.cv.plan.folds import group_classes, libsvm_folds
    from svmeval.cv.run.linear_store import LinearStoreUse

    labels = (
        group_classes(dataset.y)[0].astype(np.float64)
        if params.is_classification
        else np.array([], dtype=np.float64)
    )
    c = _liblinear.library()
    with _liblinear.STATE_LOCK:
        c.srand(seed)
        plan = libsvm_folds(dataset.y, folds, stratified=False, rand=c.rand)
    use = LinearStoreUse(store, dataset, params, (folds, seed), c.version, plan, labels)
    return use.holds()


def linear_result(dataset, y, target, plan, labels, params, seed, scores=None) -> CVResult:
    """A LIBLINEAR cross-validation of ``dataset`` as a CVResult: ``target`` the prediction
    of every row of ``y`` on ``plan``'s folds (``scores``: each class's decision value, or
    None where LIBLINEAR's own cross-validation keeps none)."""
    from svmeval.cv.collect.results import CVResult

    return CVResult(
        y_true=np.array(y, dtype=np.float64),
        y_pred=target,
        fold=plan.fold_of(),
        decision_values=None,
        probabilities=None,
        labels=labels,
        params=params,
        n_folds=plan.n_folds,
        seed=seed,
        folds=plan,
        data_name=dataset.name,
        configuration=linear_configuration(params),
        classes=dataset.classes,
        scores=scores,
    )


def _in_helper_thread(function, args: tuple, alive: tuple) -> None:
    """``function(*args)`` (a long C call) on a helper thread while this one waits
    :data:`~svmeval.cv.bounded_waits.WAIT_STEP` at a time: a Ctrl-C raises KeyboardInterrupt here at
    once, the call goes on with ``alive`` (the memory it uses) held, and the next run waits for
    it (:func:`svmeval.cv.schedule.left_running`)."""
    import threading
    from concurrent.futures import Future

    done: Future = Future()

    def run() -> None:
        try:
            function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            done.set_exception(exc)
        else:
            done.set_result(alive)

    threading.Thread(target=run, name="svmeval-liblinear", daemon=True).start()
    try:
        bounded_waits.wait_all([done])
    except BaseException:
        schedule.left_running(done)
        raise
    done.result()


def _address(struct) -> int:
    import ctypes

    return ctypes.addressof(struct)


def _c_double_p():
    import ctypes

    return ctypes.POINTER(ctypes.c_double)


#: cross_validate's arguments a LIBLINEAR configuration leaves at their defaults
_NOT_LIBLINEAR = {
    "groups": None,
    "given_folds": None,
    "progress": None,
    "keep_decision_values": False,
    "scale": None,  # learned inside LIBSVM's folds only (scale=False: none asked, taken)
    "select": None,
}


_LIBLINEAR_OWN = "does not apply to a LinearParams (LIBLINEAR's own cross-validation)"


def _on_cluster(client, dataset, params, folds: int, seeds: list, counts, quiet=True) -> dict:
    """seed -> ``(predictions, seconds, messages)`` of each repetition the store does not hold, each
    computed as one task on the cluster of ``client``
    (:func:`linear_target`); LIBLINEAR's ``check_parameter``
    and the store's refusals (read-only, an export) come first, here."""
    from svmeval.cv.run.linear_cluster import linear_cluster
    from svmeval.cv.run.store_session import missing

    check_linear(dataset, params)
    todo = [
        s for s in seeds if counts is None or not linear_held(dataset, params, folds, s, counts)
    ]
    if counts is not None:
        missing(counts, sum(min(folds, dataset.n_samples) for _ in todo))
    if not todo:
        return {}
    with linear_cluster(client) as on:
        found = on.run(dataset, [(linear_target, (params, folds, s, quiet)) for s in todo])
    return dict(zip(todo, found))


def cross_validate_call(call: dict, door, entry) -> CVResult:
    """cross_validate of a :class:`~svmeval.params.LinearParams`: LIBLINEAR's own
    cross-validation after ``srand(seed)`` (:func:`cross_validate_linear`) for each
    repetition; ``call``: cross_validate's arguments, ``door``: its data as the run's door
    gives them (:func:`~svmeval.cv.plan.checks.run_data`), ``entry``: cross_validate itself
    (the run's provenance names it)."""
    from svmeval.cv.collect.results import repetition
    from svmeval.cv.plan.cv_plan import repetition_seeds
    from svmeval.cv.plan.folds import check_folds
    from svmeval.errors import ArgumentError

    for name, default in _NOT_LIBLINEAR.items():
        if name == "scale" and call[name] is False:
            continue
        if call[name] is not default and call[name] != default:
            raise ArgumentError(name, _LIBLINEAR_OWN)
    from svmeval.cv.run.store_session import opened

    params = call["params"]
    seeds = repetition_seeds(call["seed"], call["repeat"])
    with opened(call["store"], "cross_validate", (entry, call)) as counts:
        folds = check_folds(call["folds"])
        params.check()
        computed: dict = {}
        if call["client"] is not None:  # each repetition one task on the cluster
            computed = _on_cluster(
                call["client"], door.dataset, params, folds, seeds, counts, call["quiet"]
            )
        runs = [
            linear_cross_validation(
                door.dataset,
                params,
                folds,
                seed=s,
                quiet=call["quiet"],
                store=counts,
                computed=computed.get(s),
                jobs=call["jobs"],
            )
            for s in seeds
        ]
    if len(runs) == 1:
        return runs[0]
    return replace(
        runs[0],
        repeats=tuple(repetition(r) for r in runs[1:]),
        repeat_results=tuple(runs[1:]) if call["keep_repeats"] else (),
    )

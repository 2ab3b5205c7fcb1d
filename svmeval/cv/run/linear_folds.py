"""A LIBLINEAR configuration on folds that are not LIBLINEAR's: a LIBSVM cross-validation's.

LIBLINEAR's ``cross_validation`` draws its own folds (an unstratified shuffle), LIBSVM's are
stratified for classifiers: a comparison of the two needs one set of folds for both. Here the
folds are the LIBSVM run's (svmeval's seeded folds, :func:`svmeval.cv.plan.folds.libsvm_folds`, or
the folds given or grouped), and LIBLINEAR trains each fold as its ``train`` trains a problem:
after ``srand(seed)`` (the run's seed), fold after fold, each on its training rows in
LIBSVM's order (``perm[:begin] + perm[end:]``), with LIBLINEAR's own ``train`` and
``predict`` through the library of the official bindings; every test row is predicted by its
fold's model.

Without a LIBSVM run (:func:`linear_seeded`: a benchmark, a permutation test, two LIBLINEAR
configurations on given folds), the folds are the ones svmeval draws for LIBSVM: after
``srand(seed)``, LIBSVM's draw (stratified for LIBLINEAR's classifiers, as for C-SVC), or the
folds given or grouped; LIBLINEAR then trains them as above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from svmeval.cv.run.linear import check_linear
from svmeval.params import linear_configuration

if TYPE_CHECKING:
    from svmeval.cv.collect.results import ComparisonRuns

__all__ = [
    "check_linear",
    "linear_fold",
    "linear_on_folds",
    "linear_on_folds_of",
    "linear_seeded",
    "linear_seeded_on",
    "seeded_on_cluster",
    "seeded_plan",
    "two_linear_runs",
]


def linear_on_folds(dataset, params, run, target=None):
    """LIBLINEAR's predictions of ``params`` (a :class:`~svmeval.params.LinearParams`) on the
    folds of ``run`` (a LIBSVM :class:`~svmeval.cv.collect.results.CVResult` of ``dataset``): a
    :class:`~svmeval.cv.collect.results.CVResult` with ``run``'s folds, seed and labels
    (``target``: those predictions, computed elsewhere)."""
    from dataclasses import replace

    if target is None:
        target = _predict_folds(dataset, params, run.folds, run.seed)
    return replace(
        run,
        y_pred=target,
        decision_values=None,
        probabilities=None,
        scores=None,
        params=params,
        configuration=linear_configuration(params),
        repeat_results=(),
        repeats=(),
        provenance=None,
    )


def linear_on_folds_of(dataset, params, runs: list, client=None) -> list:
    """:func:`linear_on_folds` of each of ``runs``; with ``client``, each run's folds one
    task on that cluster (:func:`_predict_folds`)."""
    if client is None:
        return [linear_on_folds(dataset, params, r) for r in runs]
    from svmeval.cv.run.linear_cluster import linear_cluster

    with linear_cluster(client) as on:
        found = _on_plans(on, dataset, [(params, r.folds, r.seed, None, None) for r in runs])
    return [linear_on_folds(dataset, params, r, target) for r, (target, _) in zip(runs, found)]


def linear_seeded(dataset, params, folds: int, seed: int, source=None, y=None):
    """LIBLINEAR's predictions of ``params`` on svmeval's folds of ``dataset`` for ``seed``:
    LIBSVM's draw after ``srand(seed)`` (stratified for classifiers), or the folds of
    ``source`` (a :class:`~svmeval.cv.plan.given.FoldSource`); ``y``: the labels to train and
    test on (a permutation's; None: the data's). A :class:`~svmeval.cv.collect.results.CVResult`
    whose ``scores`` (classifiers) are LIBLINEAR's decision values: for two classes ``d``
    towards the model's first class and ``-d`` towards the other, for more each class's
    one-vs-rest value (NaN for a class a fold's model lacks)."""
    from svmeval.cv.run.linear import linear_result

    plan, y, labels = _seeded_plan(dataset, params, folds, seed, source, y)
    scores = np.full((len(y), len(labels)), np.nan) if params.is_classification else None
    target = _predict_folds(dataset, params, plan, seed, y, scores, labels)
    return linear_result(dataset, y, target, plan, labels, params, seed, scores)


def _seeded_plan(dataset, params, folds: int, seed: int, source, y) -> tuple:
    """``(folds drawn, labels, classes)`` of :func:`linear_seeded`."""
    from svmeval.cv import _liblinear
    from svmeval.cv.plan.folds import group_classes, libsvm_folds

    y = np.asarray(dataset.y if y is None else y, dtype=np.float64)
    c = _liblinear.library()
    classifier = params.is_classification
    with _liblinear.STATE_LOCK:
        c.srand(seed)
        if source is not None:
            plan = source.folds(y, folds, seed, classifier)
            source.check_training(y, classifier, plan)
        else:
            plan = libsvm_folds(y, folds, stratified=classifier, rand=c.rand)
    labels = (
        group_classes(y)[0].astype(np.float64) if classifier else np.array([], dtype=np.float64)
    )
    return plan, y, labels


def seeded_on_cluster(on_cluster, dataset, specs: list, progress=None) -> list:
    """:func:`linear_seeded` of each ``(params, folds, seed, source, y)`` of ``specs``: the
    folds drawn here, each repetition's training one task on ``on_cluster`` (a
    :class:`~svmeval.cv.run.linear_cluster.LinearCluster`) unless the run's results store
    holds it (the store written as the local run writes it); ``progress(done, total)``."""
    from svmeval.cv.run.linear import linear_result

    items, drawn = [], []
    for params, folds, seed, source, y in specs:
        plan, y, labels = _seeded_plan(dataset, params, folds, seed, source, y)
        items.append((params, plan, seed, y, labels))
        drawn.append((y, labels))
    found = _on_plans(on_cluster, dataset, items, progress)
    return [
        linear_result(dataset, y, target, item[1], labels, item[0], item[2], scores)
        for item, (y, labels), (target, scores) in zip(items, drawn, found)
    ]


def linear_seeded_on(on_cluster, dataset, params, folds: int, seed: int, source=None):
    """:func:`linear_seeded` here (``on_cluster`` None), or on ``on_cluster``
    (:func:`seeded_on_cluster`)."""
    if on_cluster is None:
        return linear_seeded(dataset, params, folds, seed, source)
    return seeded_on_cluster(on_cluster, dataset, [(params, folds, seed, source, None)])[0]


def _on_plans(on_cluster, dataset, items: list, progress=None) -> list:
    """``(predictions, decision values or None)`` of each ``(params, plan, seed, y,
    labels)`` of ``items`` (``labels`` None: no decision values kept): from the run's store
    where it holds them all, else one task each on ``on_cluster`` (:func:`_trained_task`),
    written to the store as :func:`_predict_folds` writes them."""
    from svmeval.cv.run.store_session import current

    counts = current()
    out: list = [None] * len(items)
    uses, todo, calls = {}, [], []
    for k, (params, plan, seed, y, labels) in enumerate(items):
        width = None if labels is None or not params.is_classification else len(labels)
        if counts is not None:
            use = _store_use(counts, dataset, params, plan, seed, y, labels, width)
            target = use.find()
            if target is not None:
                out[k] = (target, use.scores)
                continue
            uses[k] = use
        todo.append(k)
        calls.append((_trained_task, (params, plan, seed, y, width, labels)))
    shown = None
    if progress is not None:
        shown = lambda done, total: progress(done + len(items) - total, len(items))  # noqa: E731
    for k, (target, scores, seconds) in zip(todo, on_cluster.run(dataset, calls, shown)):
        out[k] = (target, scores)
        if k in uses and counts is not None and not (counts.reuse_only or counts.store.read_only):
            uses[k].write(target, seconds, scores)
    return out


def _trained_task(dataset, params, plan, seed: int, y, width, labels) -> tuple:
    """On a worker: :func:`_trained_folds` (decision values kept for ``width`` classes, where
    given): ``(predictions, decision values or None, seconds)``."""
    import time

    scores = None if width is None else np.full((dataset.n_samples, width), np.nan)
    start = time.perf_counter()
    target = _trained_folds(dataset, params, plan, seed, y, scores, labels)
    return target, scores, time.perf_counter() - start


def seeded_plan(dataset, params, folds: int, seed: int):
    """svmeval's folds of ``dataset`` for ``seed`` (LIBSVM's draw after ``srand(seed)``,
    stratified for classifiers), drawn from C ``rand()`` as LIBLINEAR's runs here share it."""
    from svmeval.cv import _liblinear
    from svmeval.cv.plan.folds import libsvm_folds

    c = _liblinear.library()
    with _liblinear.STATE_LOCK:
        c.srand(seed)
        return libsvm_folds(
            np.asarray(dataset.y, dtype=np.float64),
            folds,
            stratified=params.is_classification,
            rand=c.rand,
        )


def linear_fold(dataset, params, train, test, seed: int, target, scores=None, labels=None):
    """One fold: LIBLINEAR's ``train`` of ``params`` on rows ``train`` (in that order) after
    ``srand(seed)``, its predictions of rows ``test`` written into ``target`` (and their
    decision values into ``scores``, columns ``labels``, where given)."""
    from svmeval.cv.plan.folds import Folds

    one = Folds(
        perm=np.concatenate((np.asarray(test), np.asarray(train))).astype(np.int64),
        fold_start=np.array([0, len(test), len(test)], dtype=np.int64),
        stratified=False,
    )
    values = None if scores is None else np.full_like(scores, np.nan)
    found = _predict_folds(dataset, params, _FirstFold(one), seed, None, values, labels)
    target[test] = found[test]
    if scores is not None and values is not None:
        scores[test] = values[test]


class _FirstFold:
    """The first fold of ``folds`` alone (its training rows: the others, in their order)."""

    def __init__(self, folds):
        self.folds, self.n_folds = folds, 1

    def train(self, i: int) -> np.ndarray:
        return self.folds.train(i)

    def test(self, i: int) -> np.ndarray:
        return self.folds.test(i)


def _predict_folds(dataset, params, folds, seed: int, y=None, scores=None, labels=None):
    """:func:`_trained_folds`, taken from the run's results store where it holds them all,
    else computed and written to it (one unit of work:
    :class:`~svmeval.cv.run.linear_store.OnFoldsStoreUse`). A store that may only be read,
    or an export, computes what it lacks and writes nothing (LIBLINEAR's folds on svmeval's
    were not stored before)."""
    import time

    from svmeval.cv.run.store_session import current

    counts = current()
    if counts is None or not hasattr(folds, "perm"):
        return _trained_folds(dataset, params, folds, seed, y, scores, labels)
    params.check()
    width = None if scores is None else scores.shape[1]
    use = _store_use(counts, dataset, params, folds, seed, y, labels, width)
    found = use.find()
    if found is not None:
        if scores is not None and use.scores is not None:
            scores[:] = use.scores
        return found
    start = time.perf_counter()
    target = _trained_folds(dataset, params, folds, seed, y, scores, labels)
    if not counts.reuse_only and not counts.store.read_only:
        use.write(target, time.perf_counter() - start, scores)
    return target


def _store_use(counts, dataset, params, plan, seed: int, y, labels, width):
    """The :class:`~svmeval.cv.run.linear_store.OnFoldsStoreUse` of LIBLINEAR on ``plan``
    (``y``: the labels trained on, None: the data's; ``labels``: the classes, None: the
    data's)."""
    from svmeval.cv import _liblinear
    from svmeval.cv.run.linear_store import OnFoldsStoreUse

    if y is not None:
        from dataclasses import replace

        dataset = replace(dataset, y=np.asarray(y, dtype=np.float64))
    classes = labels if labels is not None else _classes(dataset, params)
    version = _liblinear.library().version
    return OnFoldsStoreUse(counts, dataset, params, plan, seed, version, classes, width)


def _classes(dataset, params) -> np.ndarray:
    """The classes of ``dataset`` as LIBLINEAR predicts them (none for a regression)."""
    from svmeval.cv.plan.folds import group_classes

    if not params.is_classification:
        return np.array([], dtype=np.float64)
    return group_classes(dataset.y)[0].astype(np.float64)


def _trained_folds(dataset, params, folds, seed: int, y=None, scores=None, labels=None):
    """Every row's prediction by its fold's model: LIBLINEAR's ``train`` on the fold's
    training rows (in :meth:`~svmeval.cv.plan.folds.Folds.train`'s order) after ``srand(seed)``,
    fold after fold, then ``predict``; ``y`` the labels (None: the data's). ``scores``
    (rows x ``labels``), where given, receives each test row's decision values."""
    from svmeval.cv import _liblinear, schedule
    from svmeval.cv.collect.provenance import note_liblinear
    from svmeval.cv.run.linear import _address
    from svmeval.cv.run.store_session import library_used
    from svmeval.errors import ParameterError

    params.check()
    c = _liblinear.library()
    note_liblinear(c.version)
    library_used("liblinear", c.version)
    if y is not None:
        from dataclasses import replace

        dataset = replace(dataset, y=np.asarray(y, dtype=np.float64))
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    target = np.empty(problem.n_samples, dtype=np.float64)
    values = np.zeros(max(len(labels) if labels is not None else 0, 2), dtype=np.float64)
    out = values.ctypes.data
    schedule.wait_abandoned()  # an interrupted run's call may still be drawing from rand()
    with _liblinear.STATE_LOCK:
        message = c.check_parameter(problem.address, _address(param))
        if message:
            raise ParameterError(message.decode())
        c.set_print(c.print_null)
        c.srand(seed)
        for i in range(folds.n_folds):
            sub = problem.subset(folds.train(i))
            model = c.train(sub.address, _address(param))
            try:
                if scores is None:
                    for row in folds.test(i):
                        target[row] = c.predict(model, int(problem.rows[row]))
                    continue
                columns, pair = _score_columns(model.contents, labels, params.solver_type)
                for row in folds.test(i):
                    target[row] = c.predict_values(model, int(problem.rows[row]), out)
                    if pair:
                        scores[row, columns] = (values[0], -values[0])
                    else:
                        scores[row, columns] = values[: len(columns)]
            finally:
                c.free_model(_pointer_to(model))
    del kept
    return target


def _score_columns(model, labels, solver_type: int) -> tuple[list, bool]:
    """``(columns, pair)``: the columns of ``labels`` that a fold's model's decision values
    go to, in the model's class order, and whether it gives one value for two classes
    (``d`` towards its first class: linear.cpp's ``nr_w`` 1, every solver but
    Crammer-Singer's)."""
    nr_class = int(model.nr_class)
    model_labels = [float(model.label[j]) for j in range(nr_class)]
    place = {float(v): k for k, v in enumerate(labels)}
    columns = [place[v] for v in model_labels]
    return columns, nr_class == 2 and solver_type != 4


def _pointer_to(model):
    import ctypes

    return ctypes.byref(model)


def two_linear_runs(data, configurations, run, arguments) -> ComparisonRuns:
    """Two LIBLINEAR configurations: each repetition's folds LIBLINEAR's own (``train -v``'s
    shuffle after ``srand(seed)``, the same for both), each side LIBLINEAR's own
    cross-validation on them (:func:`svmeval.cv.run.linear.linear_cross_validation`); with
    ``groups`` or ``given_folds``, those folds, LIBLINEAR trained fold by fold on them
    (:func:`svmeval.cv.run.linear_folds.linear_seeded`)."""
    from svmeval.cv.collect.results import ComparisonRuns
    from svmeval.cv.plan import checks
    from svmeval.cv.plan.cv_plan import repetition_seeds
    from svmeval.cv.plan.given import repeated_fold_source
    from svmeval.cv.run.linear import linear_cross_validation

    for params in configurations:
        params.check()
    door = checks.run_data(data, "a comparison", configurations, arguments.pos_label)
    dataset, pos_label = door.dataset, door.pos_label
    labels = cast(np.ndarray, dataset.y)  # one label a sample: the door refused others
    kind = checks.common_kind(labels, configurations)
    a = configurations[0]
    figure = checks.check_criterion(
        arguments.criterion or checks.default_criterion(a), kind, configurations
    )
    if a.is_classification:
        checks.check_pos_label(labels, pos_label)
    for params in configurations:
        check_linear(dataset, params)  # LIBLINEAR's check_parameter, before any fold
    source = repeated_fold_source(
        arguments.groups, arguments.given_folds, dataset.n_samples, run.repeat
    )
    seeds = repetition_seeds(run.seed, run.repeat)
    if arguments.client is not None:  # each repetition of each side one task
        runs = _on_cluster(arguments.client, dataset, configurations, run.folds, seeds, source)
    elif source is None:
        runs = [
            [linear_cross_validation(dataset, p, run.folds, seed=s) for s in seeds]
            for p in configurations
        ]
    else:
        runs = [
            [linear_seeded(dataset, p, run.folds, s, source) for s in seeds] for p in configurations
        ]
    return ComparisonRuns(
        runs[0],
        runs[1],
        figure,
        pos_label,
        getattr(dataset, "name", ""),
        linear_configuration(configurations[0]),
        linear_configuration(configurations[1]),
    )


def _on_cluster(client, dataset, configurations, folds: int, seeds: list, source) -> list:
    """:func:`two_linear_runs`' runs, each repetition of each configuration one task on the
    cluster of ``client`` (:mod:`svmeval.cv.run.linear_cluster`): LIBLINEAR's own
    cross-validation, or LIBLINEAR trained fold by fold on ``source``'s folds."""
    from svmeval.cv.run.linear import linear_cross_validation, linear_target
    from svmeval.cv.run.linear_cluster import linear_cluster

    if source is not None:  # svmeval's folds: drawn here, trained there
        specs = [(p, folds, s, source, None) for p in configurations for s in seeds]
        with linear_cluster(client) as on:
            found = seeded_on_cluster(on, dataset, specs)
    else:  # LIBLINEAR's own: each repetition's result made here from its predictions
        calls = [(linear_target, (p, folds, s)) for p in configurations for s in seeds]
        with linear_cluster(client) as on:
            found = on.run(dataset, calls)
        found = [
            linear_cross_validation(dataset, p, folds, seed=s, computed=f)
            for (_, (p, _, s)), f in zip(calls, found)
        ]
    n = len(seeds)
    return [found[k * n : (k + 1) * n] for k in range(len(configurations))]

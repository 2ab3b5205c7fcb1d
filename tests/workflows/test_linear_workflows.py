"""LIBLINEAR configurations (LinearParams) in benchmark, permutation_test and compare of two
LIBLINEAR configurations.

Oracles: the official LIBLINEAR bindings called here (``train`` and ``predict`` fold by fold
after ``srand(seed)`` on svmeval's folds, or LIBLINEAR's own ``cross_validation`` after
``srand(seed)``); LIBLINEAR's shuffle written out here from linear.cpp; LIBSVM's own
cross-validation (``libsvm_cv``) for the LIBSVM side; scikit-learn's accuracy of each fold;
scipy's t distribution and paired t-test.
"""

from __future__ import annotations

import csv
import ctypes
import dataclasses
import io
import math

import numpy as np
import pytest

from commands import run
from conftest import ROOT, data_set, libsvm_cv

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
stats = pytest.importorskip("scipy.stats")
sk_metrics = pytest.importorskip("sklearn.metrics")

from liblinear import liblinear as ll_c  # noqa: E402
from liblinear import liblinearutil as ll  # noqa: E402

import svmeval  # noqa: E402
from svmeval import LinearParams  # noqa: E402

LIBC = ctypes.CDLL(None)
LIBC.srand.argtypes = [ctypes.c_uint]
LIBC.rand.restype = ctypes.c_int


def bindings_on_folds(y, x, options: str, fold, seed: int, order=None) -> np.ndarray:
    """Every row's prediction by the bindings' train/predict, fold by fold in fold order
    after srand(seed); fold i trains on ``order``'s rows not in fold i (``order``: the rows
    in the order they are trained in; None: ascending)."""
    param = ll.parameter(options + " -q")
    out = np.full(len(y), np.nan)
    order = np.arange(len(y)) if order is None else order
    LIBC.srand(seed)
    for i in range(int(fold.max()) + 1):
        train = [r for r in order if fold[r] != i]
        test = np.flatnonzero(fold == i)
        prob = ll.problem([y[r] for r in train], [x[r] for r in train], bias=param.bias)
        model = ll.train(prob, param)
        labels, _, _ = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")
        out[test] = labels
    return out


def libsvm_training_order(result, i: int) -> np.ndarray:
    """Fold i's training rows in LIBSVM's order: perm[:begin] + perm[end:]."""
    return result.folds.train(i)


def on_libsvm_folds(y, x, options, svm, seed) -> np.ndarray:
    """The bindings fold by fold on the folds of a LIBSVM run ``svm`` (checked against
    LIBSVM's own cross-validation by the caller), each fold's rows in LIBSVM's order."""
    param = ll.parameter(options + " -q")
    out = np.full(len(y), np.nan)
    LIBC.srand(seed)
    for i in range(svm.n_folds):
        train = libsvm_training_order(svm, i)
        test = np.flatnonzero(svm.fold == i)
        prob = ll.problem([y[r] for r in train], [x[r] for r in train], bias=param.bias)
        model = ll.train(prob, param)
        labels, _, _ = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")
        out[test] = labels
    return out


def liblinear_cv(y, x, options: str, k: int, seed: int) -> np.ndarray:
    """LIBLINEAR's own cross_validation (the bindings' library) after srand(seed)."""
    param = ll.parameter(options + " -q")
    prob = ll.problem(y, x, bias=param.bias)
    target = (ctypes.c_double * len(y))()
    LIBC.srand(seed)
    ll_c.liblinear.cross_validation(prob, param, k, target)
    return np.array(target[:])


def liblinear_folds(l: int, k: int, seed: int) -> np.ndarray:
    """linear.cpp's cross_validation shuffle after srand(seed): perm by rand(), fold i the
    places i*l/k .. (i+1)*l/k."""
    LIBC.srand(seed)
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    fold = np.empty(l, dtype=np.int64)
    for i in range(k):
        fold[perm[i * l // k : (i + 1) * l // k]] = i
    return fold


def accuracies(y, pred, fold, k) -> list:
    return [sk_metrics.accuracy_score(y[fold == i], pred[fold == i]) for i in range(k)]


@pytest.fixture(scope="module")
def heart():
    path = str(data_set("heart_scale"))
    y, x = ll.svm_read_problem(path)
    return path, np.array(y), x


def test_benchmark_runs_liblinear_on_libsvms_seeded_folds(heart):
    path, y, x = heart
    k, seeds = 5, (3, 4)
    b = svmeval.benchmark(
        [path],
        {"rbf": "-c 1", "lin": LinearParams(solver_type=2), "lr": LinearParams(solver_type=0)},
        k,
        repeat=2,
        seed=3,
    )
    want = {"rbf": [], "lin": [], "lr": []}
    for seed in seeds:
        svm = svmeval.cross_validate(path, "-c 1", k, seed=seed)
        np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-c 1", k, seed))
        want["rbf"] += accuracies(y, svm.y_pred, svm.fold, k)
        for name, options in (("lin", "-s 2"), ("lr", "-s 0")):
            pred = on_libsvm_folds(y, x, options, svm, seed)
            want[name] += accuracies(y, pred, svm.fold, k)
    assert b.configurations == ("rbf", "lin", "lr")
    for j, name in enumerate(b.configurations):
        assert b.values[0, j] == pytest.approx(want[name], rel=1e-12)
    # the corrected resampled t-test of lin - rbf, with scipy's t distribution
    d = np.array(want["lin"]) - np.array(want["rbf"])
    ratio = 1 / (k - 1)
    t = d.mean() / math.sqrt((1 / len(d) + ratio) * d.var(ddof=1))
    pair = next(p for p in b.pairs if (p.a, p.b) == ("rbf", "lin"))
    test = pair.per_dataset[0].ttest
    assert test.t == pytest.approx(t, rel=1e-9)
    assert test.p == pytest.approx(2 * stats.t.sf(abs(t), len(d) - 1), rel=1e-8)


def test_benchmark_of_liblinear_configurations_alone(heart):
    """No LIBSVM configuration: the folds are still LIBSVM's draw after srand(seed)
    (stratified for classifiers), here those of a LIBSVM run of the same seed."""
    path, y, x = heart
    k = 4
    b = svmeval.benchmark(
        [path], [LinearParams(solver_type=2), LinearParams(solver_type=3, C=0.5)], k, repeat=1
    )
    assert b.configurations == ("linear: -s 2", "linear: -s 3 -c 0.5")
    svm = svmeval.cross_validate(path, "-t 0", k, seed=1)
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-t 0", k, 1))
    for j, options in enumerate(("-s 2", "-s 3 -c 0.5")):
        pred = on_libsvm_folds(y, x, options, svm, 1)
        assert b.values[0, j] == pytest.approx(accuracies(y, pred, svm.fold, k), rel=1e-12)


def test_svmeval_compare_benchmark_mode_takes_linear_configurations(heart):
    path, y, x = heart
    wine = str(ROOT / "data" / "wine.scale")
    out = run(
        "compare",
        ["-v", "3", "--repeat", "1", "--format", "csv", path, wine, "--", "-c", "1", "--",
         "linear:", "-s", "2"],
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lib = svmeval.benchmark(
        [path, wine], {"-c 1": "-c 1", "linear: -s 2": LinearParams(solver_type=2)}, 3, repeat=1
    )
    assert "linear: -s 2" in out.stdout
    svm = svmeval.cross_validate(path, "-c 1", 3, seed=1)
    pred = on_libsvm_folds(y, x, "-s 2", svm, 1)
    assert lib.values[0, 1] == pytest.approx(accuracies(y, pred, svm.fold, 3), rel=1e-12)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert rows[0]["dataset"] == path
    assert float(rows[0]["linear: -s 2"]) == pytest.approx(
        np.mean(accuracies(y, pred, svm.fold, 3)), rel=1e-12
    )


def test_permutation_test_of_a_liblinear_configuration(heart):
    path, y, x = heart
    k, n, seed = 3, 6, 2
    t = svmeval.permutation_test(path, LinearParams(solver_type=2), k, permutations=n, seed=seed)
    rng = np.random.default_rng(seed)
    orders = [np.arange(len(y))] + [rng.permutation(len(y)) for _ in range(n)]
    values = []
    dataset = svmeval.read_dataset(path)
    for order in orders:
        yp = y[order]
        permuted = dataclasses.replace(dataset, y=yp)
        svm = svmeval.cross_validate(permuted, "-t 0", k, seed=seed)  # LIBSVM's folds of yp
        pred = on_libsvm_folds(list(yp), x, "-s 2", svm, seed)
        values.append(sk_metrics.accuracy_score(yp, pred))
    assert t.observed == pytest.approx(values[0], rel=1e-12)
    assert t.permuted == pytest.approx(values[1:], rel=1e-12)
    beyond = sum(v >= values[0] for v in values[1:])
    assert t.p == pytest.approx((1 + beyond) / (n + 1))
    assert t.options == "linear: -s 2"
    assert "LIBLINEAR's train learns each fold" in svmeval.render(t)


def test_compare_two_liblinear_configurations_on_liblinears_own_folds(heart):
    path, y, x = heart
    k, seeds = 5, (1, 2)
    c = svmeval.compare(
        path, LinearParams(solver_type=2), LinearParams(solver_type=0, C=4.0), k, repeat=2
    )
    want_a, want_b = [], []
    for seed in seeds:
        fold = liblinear_folds(len(y), k, seed)
        want_a += accuracies(y, liblinear_cv(list(y), x, "-s 2", k, seed), fold, k)
        want_b += accuracies(y, liblinear_cv(list(y), x, "-s 0 -c 4", k, seed), fold, k)
    assert (c.options_a, c.options_b) == ("linear: -s 2", "linear: -s 0 -c 4")
    assert c.folds_a == pytest.approx(want_a, rel=1e-12)
    assert c.folds_b == pytest.approx(want_b, rel=1e-12)
    assert c.ttest.p_uncorrected == pytest.approx(stats.ttest_rel(want_b, want_a).pvalue, rel=1e-8)


def test_compare_two_liblinear_configurations_on_given_folds(heart):
    path, y, x = heart
    k = 3
    fold = np.arange(len(y)) % k
    c = svmeval.compare(
        path, LinearParams(solver_type=2), LinearParams(solver_type=3), given_folds=fold, repeat=1
    )
    assert c.folds_a == pytest.approx(
        accuracies(y, bindings_on_folds(y, x, "-s 2", fold, 1), fold, k), rel=1e-12
    )
    assert c.folds_b == pytest.approx(
        accuracies(y, bindings_on_folds(y, x, "-s 3", fold, 1), fold, k), rel=1e-12
    )


def test_svmeval_compare_takes_two_linear_configurations(heart):
    path, y, x = heart
    out = run(
        "compare",
        ["-v", "4", "--format", "json", path, "--", "linear:", "-s", "2", "--", "linear:",
         "-s", "1", "-c", "2"],
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    import json

    report = json.loads(out.stdout)
    fold = liblinear_folds(len(y), 4, 1)
    want = accuracies(y, liblinear_cv(list(y), x, "-s 1 -c 2", 4, 1), fold, 4)
    assert report["b"]["options"] == "linear: -c 2"  # -s 1: the default
    assert report["b"]["folds"][:4] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda p: svmeval.benchmark([p], ["-c 1", LinearParams()], 3, scale=True), "scale"),
        (lambda p: svmeval.benchmark([p], ["-c 1", LinearParams()], 3, select=3), "select"),
        (lambda p: svmeval.tune_threshold(p, LinearParams(solver_type=11), 3), "params"),
        (lambda p: svmeval.tune_threshold(p, LinearParams(solver_type=21), 3), "params"),
    ],
)
def test_what_does_not_apply_to_liblinear_is_named(heart, call, argument):
    with pytest.raises(svmeval.ArgumentError) as caught:
        call(heart[0])
    assert caught.value.argument == argument


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda p: svmeval.benchmark([p], ["-c 1", LinearParams(solver_type=21)], 3), "-s 21"),
        (
            lambda p: svmeval.benchmark([p], ["-c 1", LinearParams(solver_type=11)], 3),
            "all be classifiers",
        ),
        (lambda p: svmeval.benchmark([p], ["-c 1", LinearParams(C=-1)], 3), "C <= 0"),
        (lambda p: svmeval.compare(p, LinearParams(), LinearParams(solver_type=9)), "unknown"),
        (lambda p: svmeval.permutation_test(p, LinearParams(solver_type=21), 3), "-s 21"),
        (
            lambda p: svmeval.benchmark([p], ["-c 1", LinearParams()], 3, criterion="log_loss"),
            "LIBLINEAR",
        ),
    ],
)
def test_bad_liblinear_configurations_are_refused_before_any_fold(heart, call, words):
    with pytest.raises(svmeval.SvmevalError, match=words):
        call(heart[0])


def decision_values_on_libsvm_folds(y, x, options, svm, seed, labels):
    """The bindings' decision values on a LIBSVM run's folds: a rows x ``labels`` matrix
    (two classes: d towards the model's first class, -d towards the other)."""
    param = ll.parameter(options + " -q")
    out = np.full((len(y), len(labels)), np.nan)
    place = {float(v): k for k, v in enumerate(labels)}
    LIBC.srand(seed)
    for i in range(svm.n_folds):
        train = libsvm_training_order(svm, i)
        test = np.flatnonzero(svm.fold == i)
        prob = ll.problem([y[r] for r in train], [x[r] for r in train], bias=param.bias)
        model = ll.train(prob, param)
        _, _, values = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")
        columns = [place[float(v)] for v in model.get_labels()]
        values = np.array(values)
        if len(columns) == 2 and values.shape[1] == 1:
            out[np.ix_(test, columns)] = np.column_stack((values[:, 0], -values[:, 0]))
        else:
            out[np.ix_(test, columns)] = values
    return out


def test_tune_threshold_of_a_liblinear_configuration(heart):
    path, y, x = heart
    k = 4
    t = svmeval.tune_threshold(path, LinearParams(solver_type=2), k, criterion="f1")
    svm = svmeval.cross_validate(path, "-t 0", k, seed=1)  # svmeval's folds of seed 1
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-t 0", k, 1))
    labels = t.cv.labels
    scores = decision_values_on_libsvm_folds(y, x, "-s 2", svm, 1, labels)
    np.testing.assert_allclose(t.cv.scores, scores, rtol=1e-12)
    pos = t.positive
    s = scores[:, list(labels).index(pos)]
    # the tuned threshold: the best F1 (scikit-learn) over the midpoints of the scores
    distinct = np.unique(s)
    candidates = np.concatenate(([-np.inf], (distinct[1:] + distinct[:-1]) / 2, [np.inf]))
    f1 = [sk_metrics.f1_score(y == pos, s >= c, zero_division=0) for c in candidates]
    assert t.value == pytest.approx(max(f1), rel=1e-12)
    tuned = np.where(s >= t.threshold, pos, t.negative)
    assert t.tuned["f1"] == pytest.approx(sk_metrics.f1_score(y, tuned, pos_label=pos), rel=1e-12)
    own = on_libsvm_folds(y, x, "-s 2", svm, 1)
    assert t.libsvm["f1"] == pytest.approx(sk_metrics.f1_score(y, own, pos_label=pos), rel=1e-12)
    assert "LIBLINEAR's own" in svmeval.render(t)


def test_benchmark_ranks_liblinear_by_its_decision_values(heart):
    """A ranking criterion takes LIBLINEAR's decision values: ROC AUC of each fold against
    scikit-learn's on the bindings' values; three classes: the one-vs-rest values."""
    path, y, x = heart
    k = 3
    b = svmeval.benchmark(
        [path], [LinearParams(solver_type=2), LinearParams(solver_type=0)], k, criterion="roc_auc"
    )
    svm = svmeval.cross_validate(path, "-t 0", k, seed=1)
    labels = svm.labels
    pos = 1.0
    for j, options in enumerate(("-s 2", "-s 0")):
        scores = decision_values_on_libsvm_folds(y, x, options, svm, 1, labels)
        s = scores[:, list(labels).index(pos)]
        want = [
            sk_metrics.roc_auc_score(y[svm.fold == i] == pos, s[svm.fold == i]) for i in range(k)
        ]
        assert b.values[0, j, :k] == pytest.approx(want, rel=1e-12)


def test_permutation_test_of_multiclass_liblinear_scores():
    wine = str(ROOT / "data" / "wine.scale")
    y, x = ll.svm_read_problem(wine)
    y = np.array(y)
    t = svmeval.permutation_test(
        wine, LinearParams(solver_type=4), 3, permutations=2, criterion="macro_roc_auc"
    )
    svm = svmeval.cross_validate(wine, "-t 0", 3, seed=1)
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(wine, "-t 0", 3, 1))
    scores = decision_values_on_libsvm_folds(y, x, "-s 4", svm, 1, svm.labels)
    want = np.mean(
        [sk_metrics.roc_auc_score(y == c, scores[:, j]) for j, c in enumerate(svm.labels)]
    )
    assert t.observed == pytest.approx(want, rel=1e-12)


def warm_started_predictions(y, x, options: str, k: int, Cs, values=None) -> list:
    """Each C's predictions of LIBLINEAR's warm-started search, written out here with the
    bindings: LIBLINEAR's shuffle after srand(1), each fold trained at each C from its weights
    at the C before (param.init_sol), then predicted (primal solvers: no rand() in training)."""
    fold = liblinear_folds(len(y), k, 1)
    previous: list = [None] * k
    out = []
    for C in Cs:
        pred = np.full(len(y), np.nan)
        for i in range(k):
            train = np.flatnonzero(fold != i)  # linear.cpp's order: the shuffle's, kept below
            param = ll.parameter(f"{options} -c {C!r} -q")
            if previous[i] is not None:
                init = (ctypes.c_double * len(previous[i]))(*previous[i])
                param.init_sol = ctypes.cast(init, ctypes.POINTER(ctypes.c_double))
            prob = ll.problem([y[r] for r in train], [x[r] for r in train])
            model = ll.train(prob, param)
            previous[i] = [model.w[j] for j in range(model.nr_feature)]
            test = np.flatnonzero(fold == i)
            labels, _, dec = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")
            pred[test] = labels
            if values is not None:  # two classes: d towards the model's first class
                first = float(model.get_labels()[0])
                values.setdefault(C, np.full(len(y), np.nan))[test] = [
                    v[0] if first == 1.0 else -v[0] for v in dec
                ]
        out.append(pred)
    return out


def test_grid_search_of_a_linear_configuration_is_liblinears_search(heart):
    path, y, x = heart
    g = svmeval.grid_search(path, LinearParams(solver_type=2), 5)
    Cs = [r.cell.C for r in g.cells]
    assert all(r.cell.log2g is None and r.cell.gamma is None for r in g.cells)
    assert Cs == [Cs[0] * 2**i for i in range(len(Cs))] and Cs[-1] <= 1024
    # LIBLINEAR's own search (the bindings' train -C): its best C and rate
    LIBC.srand(1)  # train's process: the search's shuffle after srand(1)
    best_C, _, best_rate = ll.train(ll.problem(list(y), x), "-C -s 2 -v 5 -q")
    assert g.best.cell.C == best_C
    assert g.best.value == pytest.approx(best_rate, abs=1e-6)
    assert g.best_params == LinearParams(solver_type=2, C=best_C)


def test_grid_search_of_a_linear_configuration_by_another_criterion(heart):
    path, y, x = heart
    g = svmeval.grid_search(path, LinearParams(solver_type=0), 5, criterion="mcc")
    Cs = [r.cell.C for r in g.cells]
    predictions = warm_started_predictions(y, x, "-s 0", 5, Cs)
    mcc = [sk_metrics.matthews_corrcoef(y, p) for p in predictions]
    assert [r.value for r in g.cells] == pytest.approx(mcc, rel=1e-9)
    accuracy = [sk_metrics.accuracy_score(y, p) for p in predictions]
    assert [r.figures["accuracy"] for r in g.cells] == pytest.approx(accuracy, rel=1e-12)
    assert g.best.cell.C == Cs[int(np.argmax(mcc))]  # the first best: the smallest C
    frame = g.to_frame()
    want = {f"linear: -s 0 -c {C:g}" if C != 1 else "linear: -s 0" for C in Cs}  # -c 1: default
    assert set(frame["configuration"]) == want
    text = svmeval.render(g)
    assert text.splitlines()[0] == f"log2c={math.log2(Cs[0])} rate={mcc[0]:g}"


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"log2g": (1, -3, -2)}, "log2g"),
        ({"log2c": (1, 3, 1)}, "log2c"),
        ({"log2p": (-1, 1, 1)}, "log2p"),
        ({"groups": [0, 1] * 135}, "groups"),
        ({"scale": True}, "scale"),
        ({"store": "x.sqlite"}, "store"),
    ],
)
def test_grid_search_names_what_does_not_apply_to_liblinear(heart, kwargs, argument, tmp_path):
    with pytest.raises(svmeval.ArgumentError) as caught:
        svmeval.grid_search(heart[0], LinearParams(solver_type=2), 5, **kwargs)
    assert caught.value.argument == argument
    assert "LinearParams" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "x.sqlite").exists()


@pytest.mark.parametrize("solver", [1, 3, 12, 13])
def test_grid_search_takes_liblinears_searched_solvers(heart, solver):
    with pytest.raises(svmeval.ArgumentError, match=r"-s 0 and -s 2 \(C\) and -s 11"):
        svmeval.grid_search(heart[0], LinearParams(solver_type=solver), 5)


def test_nested_cv_of_a_linear_configuration(heart):
    """Outer folds: svmeval's (a LIBSVM run's of the seed); inner: LIBLINEAR's own search
    (the bindings' train -C after srand(seed)) on the outer training rows, in their order;
    the chosen C trained there after srand(seed) predicts the outer test rows."""
    path, y, x = heart
    k, inner, seed = 4, 3, 2
    n = svmeval.nested_cv(path, LinearParams(solver_type=2), k, inner_folds=inner, seed=seed)
    svm = svmeval.cross_validate(path, "-t 0", k, seed=seed)
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-t 0", k, seed))
    want = np.full(len(y), np.nan)
    for i in range(k):
        train = svm.folds.train(i)
        test = np.flatnonzero(svm.fold == i)
        LIBC.srand(seed)
        prob = ll.problem([y[r] for r in train], [x[r] for r in train])
        best_C, _, rate = ll.train(prob, f"-C -s 2 -v {inner} -q")
        assert n.folds[i].params == LinearParams(solver_type=2, C=best_C)
        assert n.folds[i].value == pytest.approx(rate, abs=1e-6)
        LIBC.srand(seed)
        model = ll.train(prob, f"-s 2 -c {best_C!r} -q")
        want[test] = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")[0]
    np.testing.assert_array_equal(n.outer.y_pred, want)
    assert n.summary().figures["accuracy"] == pytest.approx(
        sk_metrics.accuracy_score(y, want), rel=1e-12
    )
    assert "log2c" in svmeval.render(n)


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"log2g": (1, -3, -2)}, "log2g"),
        ({"jobs": 2}, "jobs"),
        ({"groups": [0, 1] * 135}, "groups"),
    ],
)
def test_nested_cv_names_what_does_not_apply_to_liblinear(heart, kwargs, argument):
    with pytest.raises(svmeval.ArgumentError) as caught:
        svmeval.nested_cv(heart[0], LinearParams(solver_type=2), 3, **kwargs)
    assert caught.value.argument == argument


def test_grid_search_of_a_linear_configuration_by_roc_auc(heart):
    """A ranking criterion takes each C's warm-started decision values (the positive class's
    column), against scikit-learn's ROC AUC on the bindings' values."""
    path, y, x = heart
    g = svmeval.grid_search(path, LinearParams(solver_type=0), 4, criterion="roc_auc")
    Cs = [r.cell.C for r in g.cells]
    values: dict = {}
    warm_started_predictions(y, x, "-s 0", 4, Cs, values)
    auc = [sk_metrics.roc_auc_score(y == 1, values[C]) for C in Cs]
    assert [r.value for r in g.cells] == pytest.approx(auc, rel=1e-9)
    assert g.best.cell.C == Cs[int(np.argmax(auc))]

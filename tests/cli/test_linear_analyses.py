"""svmeval-linear -v n --permutations N and --threshold CRITERION: the command's report is the
library's permutation_test / tune_threshold of its LinearParams, whose figures are checked
here against a loop of LIBLINEAR's bindings (train/predict fold by fold after srand) on
svmeval's folds (LIBSVM's own fold draw, checked against LIBSVM's cross-validation), with
scikit-learn's figures and the permutation p-value counted here; bad values and combinations
are one line on stderr, exit status 1."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from commands import run
from conftest import data_set, libsvm_cv

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
sk_metrics = pytest.importorskip("sklearn.metrics")

from test_linear_workflows import (  # noqa: E402
    LIBC,
    decision_values_on_libsvm_folds,
    liblinear_cv,
    liblinear_folds,
    ll,
    on_libsvm_folds,
)

import svmeval  # noqa: E402
from svmeval import LinearParams  # noqa: E402


@pytest.fixture(scope="module")
def heart():
    path = str(data_set("heart_scale"))
    y, x = ll.svm_read_problem(path)
    return path, np.array(y), x


def _json(args) -> dict:
    done = run("linear", ["-q", *args, "--format", "json"])
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return json.loads(done.stdout)


def _permuted_values(path, y, x, options, svm_options, k, n, seed, figure) -> list:
    """The figure of the data and of each of n permutations (numpy's default_rng(seed)), each
    cross-validated by the bindings on LIBSVM's folds of its permuted labels after srand(seed)."""
    rng = np.random.default_rng(seed)
    orders = [np.arange(len(y))] + [rng.permutation(len(y)) for _ in range(n)]
    dataset = svmeval.read_dataset(path)
    values = []
    for p, order in enumerate(orders):
        yp = y[order]
        svm = svmeval.cross_validate(dataclasses.replace(dataset, y=yp), svm_options, k, seed=seed)
        if p == 0:  # svmeval's folds are LIBSVM's own
            np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, svm_options, k, seed))
        values.append(figure(yp, on_libsvm_folds(list(yp), x, options, svm, seed)))
    return values


@pytest.mark.parametrize(
    "name, options, svm_options, criterion, figure, better",
    [
        ("heart_scale", "-s 0", "-t 0", "mcc", sk_metrics.matthews_corrcoef, np.greater_equal),
        ("housing_scale", "-s 11", "-s 3 -t 0", None, sk_metrics.mean_squared_error, np.less_equal),
    ],
)
def test_permutations_are_the_librarys_and_a_loop_of_the_bindings(
    name, options, svm_options, criterion, figure, better
):
    path = str(data_set(name))
    y, x = ll.svm_read_problem(path)
    y = np.array(y)
    k, n, seed = 4, 7, 3
    more = [] if criterion is None else ["--criterion", criterion]
    args = [*options.split(), "-v", str(k), "--permutations", str(n), "--seed", str(seed)]
    got = _json([*args, *more, path])
    solver = int(options.split()[1])
    api = svmeval.permutation_test(
        path, LinearParams(solver_type=solver), k, permutations=n, seed=seed, criterion=criterion
    )
    assert got == json.loads(json.dumps(api.to_dict()))
    values = _permuted_values(path, y, x, options, svm_options, k, n, seed, figure)
    assert got["observed"] == pytest.approx(values[0], rel=1e-9)
    assert got["permuted"] == pytest.approx(values[1:], rel=1e-9)
    beyond = int(np.count_nonzero(better(values[1:], values[0])))
    assert got["beyond"] == beyond and got["p"] == pytest.approx((beyond + 1) / (n + 1))
    text = run("linear", ["-q", *args, *more, path])
    assert text.returncode == 0 and text.stdout == svmeval.render(api)


def _choose(truth, scores, criterion) -> float:
    """The threshold the module notes describe, written out: the midpoints of adjacent
    distinct scores, -inf and inf; the best criterion (scikit-learn's), of equal values the
    one nearest 0, then the lower."""
    distinct = np.unique(scores)
    candidates = np.concatenate(([-np.inf], (distinct[1:] + distinct[:-1]) / 2, [np.inf]))
    values = np.array([criterion(truth, scores >= c) for c in candidates])
    best = np.flatnonzero(values == values.max())
    return float(min(candidates[best], key=lambda c: (abs(c), c)))


def _f1(truth, pred) -> float:
    return sk_metrics.f1_score(truth, pred, zero_division=0)


def test_threshold_is_the_librarys_and_a_loop_of_the_bindings(heart, tmp_path):
    """The tuned threshold and the nested estimate: every outer fold's threshold chosen on
    the bindings' decision values of an inner cross-validation of its training rows (svmeval's
    folds of those rows, LIBSVM's own draw), applied to its test rows."""
    path, y, x = heart
    k, inner, seed = 3, 3, 2
    got = _json(["-s", "2", "-v", str(k), "--threshold", "f1", "--seed", str(seed), path])
    api = svmeval.tune_threshold(
        path, LinearParams(solver_type=2), k, criterion="f1", inner_folds=inner, seed=seed
    )
    assert got == json.loads(json.dumps(api.to_dict()))
    svm = svmeval.cross_validate(path, "-t 0", k, seed=seed)
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-t 0", k, seed))
    labels = np.array([1.0, -1.0])
    scores = decision_values_on_libsvm_folds(y, x, "-s 2", svm, seed, labels)[:, 0]
    threshold = _choose(y == 1, scores, _f1)
    assert got["tuned"]["threshold"] == pytest.approx(threshold, rel=1e-12)
    assert got["tuned"]["f1"] == pytest.approx(_f1(y == 1, scores >= threshold), rel=1e-12)
    honest = np.empty(len(y), dtype=bool)
    for i in range(k):
        train = svm.folds.train(i)  # the outer training rows, in LIBSVM's order
        test = np.flatnonzero(svm.fold == i)
        sub = tmp_path / f"train{i}"
        sub.write_text(
            "".join(
                f"{y[r]:g} " + " ".join(f"{j}:{v!r}" for j, v in sorted(x[r].items())) + "\n"
                for r in train
            )
        )
        inner_svm = svmeval.cross_validate(str(sub), "-t 0", inner, seed=seed)
        np.testing.assert_array_equal(inner_svm.y_pred, libsvm_cv(str(sub), "-t 0", inner, seed))
        yi, xi = y[train], [x[r] for r in train]
        inner_scores = decision_values_on_libsvm_folds(yi, xi, "-s 2", inner_svm, seed, labels)
        t = _choose(yi == 1, inner_scores[:, 0], _f1)
        assert got["folds"][i]["threshold"] == pytest.approx(t, rel=1e-12)
        honest[test] = scores[test] >= t
    assert got["honest"]["f1"] == pytest.approx(_f1(y == 1, honest), rel=1e-12)
    text = run("linear", ["-q", "-s", "2", "-v", "3", "--threshold", "f1", "--seed", "2", path])
    assert text.returncode == 0 and text.stdout == svmeval.render(api)


def test_threshold_repeat_and_csv_are_the_librarys(heart):
    path = heart[0]
    done = run(
        "linear", ["-q", "-v", "3", "--threshold", "mcc", "--repeat", "2", "--format", "csv", path]
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    api = svmeval.tune_threshold(path, LinearParams(), 3, criterion="mcc", inner_folds=3, repeat=2)
    assert done.stdout == svmeval.render(api, format="csv")
    assert len({line.split(",")[1] for line in done.stdout.splitlines()[1:]}) == 2


def test_pictures_of_permutations_and_threshold(heart, tmp_path):
    pytest.importorskip("matplotlib")
    for option, value in (("--permutations", "5"), ("--threshold", "f1")):
        picture = tmp_path / f"{option[2:]}.png"
        done = run("linear", ["-q", "-v", "3", option, value, "--plot", str(picture), heart[0]])
        assert done.returncode == 0, done.stderr
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, line",
    [
        (["-v", "5", "--permutations", "0"], "option --permutations: '0' is out of range"),
        (["-v", "5", "--permutations", "1_0"], "option --permutations: '1_0' is not an integer"),
        (["-v", "5", "--permutations", "100001"], "is out of range (1 to 100000)"),
        (["-v", "5", "--permutations="], "option --permutations: the value is empty"),
        (["-v", "5", "--permutations"], "option --permutations: '"),  # the file: no integer
        (["-v", "5", "--threshold", "f2"], "--threshold 'f2' is not one of f1, f1:LABEL"),
        (["-v", "5", "--threshold", ""], "option --threshold: the value is empty"),
        (["-v", "5", "--threshold", "cost:1"], "--threshold "),
        (["-v", "5", "--threshold", "f1", "--seed", "-1"], "option --seed: '-1' is out of range"),
        (["-C", "--permutations", "5"], "--permutations: not with -C"),
        (["-C", "--threshold", "f1"], "--threshold: not with -C"),
        (["-v", "5", "--permutations", "5", "--repeat", "2"], "--permutations: not with --repeat"),
        (["-v", "5", "--permutations", "5", "--store", "s.db"], "--permutations: not with --store"),
        (["-v", "5", "--threshold", "f1", "--full"], "--threshold: not with --full"),
        (
            ["-v", "5", "--threshold", "f1", "--criterion", "mcc"],
            "--threshold: not with --criterion",
        ),
        (
            ["-v", "5", "--threshold", "f1", "--permutations", "5"],
            "--threshold: not with --permutations",
        ),
        (["-v", "5", "-s", "11", "--threshold", "f1"], "a regression (-s 11, -s 12, -s 13)"),
        (["-v", "5", "-s", "13", "--threshold", "mcc"], "has no decision threshold"),
        (["-v", "5", "-s", "21", "--threshold", "f1"], "a one-class SVM (-s 21) has no classes"),
        (["-v", "5", "-s", "21", "--permutations", "5"], "a one-class SVM (-s 21) has no figure"),
        (["--permutations", "5"], "-v n is needed"),
        (["-v", "5", "--criterion", "mcc"], "--criterion goes with -C"),
        (["-v", "5", "--plot", "x.png"], "--plot goes with -C"),
        (["-v", "5", "--permutations", "3", "--criterion", "bogus"], "--criterion bogus:"),
        (["-v", "5", "--permutations", "3", "--criterion", "mse"], "criterion 'mse'"),
        (["-v", "5", "-s", "11", "--permutations", "3", "--criterion", "mcc"], "'mcc'"),
    ],
)
def test_bad_values_and_combinations_are_one_line(heart, tmp_path, args, line):
    done = run("linear", [*args, heart[0]], cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert done.stderr.startswith("svmeval-linear: ") and done.stderr.count("\n") == 1
    assert line in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_three_classes_refused_by_threshold_naming_the_file(tmp_path):
    from conftest import LOCAL

    done = run("linear", ["-q", "-v", "3", "--threshold", "f1", str(LOCAL / "wine.scale")])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"svmeval-linear: {LOCAL / 'wine.scale'}: --threshold: a decision threshold needs two "
        "classes; the data have 3\n"
    )


def test_seeded_folds_are_not_train_vs(heart):
    """One answer for the folds: svmeval's of --seed (LIBSVM's stratified draw), whose
    figure --permutations reports, not train -v n's unstratified shuffle."""
    path, y, x = heart
    got = _json(["-s", "0", "-v", "4", "--permutations", "1", path])
    svm = svmeval.cross_validate(path, "-t 0", 4, seed=1)
    seeded = sk_metrics.accuracy_score(y, on_libsvm_folds(list(y), x, "-s 0", svm, 1))
    assert got["observed"] == pytest.approx(seeded, rel=1e-12)
    assert not np.array_equal(svm.fold, liblinear_folds(len(y), 4, 1))


@pytest.mark.parametrize("seed", [3, 0])
def test_seed_seeds_liblinears_own_draw_for_v_and_c(heart, seed):
    """-v n --seed N: LIBLINEAR's own cross_validation after srand(N) (the bindings'), its
    accuracy line; -C --seed N: the bindings' train -C after srand(N); --repeat R --seed N:
    the library's cross_validate of seed N, R times."""
    path, y, x = heart
    done = run("linear", ["-q", "-v", "5", "--seed", str(seed), path])
    assert done.returncode == 0, done.stderr
    pred = liblinear_cv(list(y), x, "-s 1", 5, seed)
    accuracy = 100.0 * np.count_nonzero(pred == y) / len(y)
    assert done.stdout.startswith(f"Cross Validation Accuracy = {accuracy:g}%\n")
    done = run("linear", ["-q", "-C", "-s", "2", "--seed", str(seed), path])
    LIBC.srand(seed)
    best_C, _, rate = ll.train(ll.problem(list(y), x), "-C -s 2 -v 5 -q")
    assert f"Best C = {best_C:g}  CV accuracy = {100.0 * rate:g}%\n" in done.stdout
    got = _json(["-v", "5", "--seed", str(seed), "--repeat", "2", path])
    api = svmeval.cross_validate(path, LinearParams(), 5, seed=seed, repeat=2)
    want = svmeval.summarize(api).to_dict()
    assert got["figures"] == json.loads(json.dumps(want["figures"]))

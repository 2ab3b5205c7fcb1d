"""svmeval-linear and svmeval.cv.run.linear: LIBLINEAR's ``train -v n`` with svmeval's report.

Oracles: LIBLINEAR's ``train`` binary built from LIBLINEAR's source (``SVMEVAL_LIBLINEAR_SOURCE``,
else those tests skip), its first line(s) byte for byte; the official bindings'
``cross_validation`` called here after ``srand(1)`` (every prediction); LIBLINEAR's shuffle
written out here from linear.cpp (every fold); scikit-learn's metrics on the predictions
(every figure).
"""

from __future__ import annotations

import ctypes
import math
import subprocess

import numpy as np
import pytest

from commands import run
from conftest import data_set

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")

from liblinear import liblinear as ll_c  # noqa: E402
from liblinear import liblinearutil as ll  # noqa: E402

from svmeval.cv.run.linear import LinearParams, cross_validate_linear  # noqa: E402

LIBC = ctypes.CDLL(None)
LIBC.srand.argtypes, LIBC.rand.restype = [ctypes.c_uint], ctypes.c_int


def relabelled(path, tmp_path, mapping: dict, name: str):
    """``path`` with its labels renamed by ``mapping`` (text of the label -> new text)."""
    out = tmp_path / name
    lines = []
    for line in open(path).read().splitlines(True):
        label, _, rest = line.partition(" ")
        lines.append(f"{mapping.get(label, label)} {rest}")
    out.write_text("".join(lines))
    return out


def head(path, tmp_path, n: int, name: str):
    out = tmp_path / name
    with open(path) as fh:
        out.write_text("".join(line for _, line in zip(range(n), fh)))
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("linear-data")
    heart = data_set("heart_scale")
    return {
        "heart": heart,
        "iris": data_set("iris.scale"),
        "housing": data_set("housing_scale"),
        "a9a": head(data_set("a9a"), tmp, 3000, "a9a.head"),
        "odd": relabelled(heart, tmp, {"+1": "3", "1": "3", "-1": "7"}, "heart.3-7"),
    }


# (data set, train's options): every solver where -v applies, -B, -R, -wi, -e, -c, -p, -n
CASES = (
    [("heart", f"-s {s}") for s in (0, 1, 2, 3, 4, 5, 6, 7, 21)]
    + [("iris", f"-s {s}") for s in (0, 1, 2, 3, 4, 5, 6, 7)]
    + [("housing", f"-s {s}") for s in (11, 12, 13)]
    + [("a9a", f"-s {s}") for s in (0, 1, 2, 5)]
    + [
        ("heart", "-s 0 -B 1"),
        ("heart", "-s 2 -B 1 -R"),
        ("heart", "-s 1 -w1 3 -w-1 0.5"),
        ("heart", "-s 3 -e 0.001 -c 4"),
        ("heart", "-s 21 -n 0.2"),
        ("iris", "-s 4 -B 1 -w2 2"),
        ("housing", "-s 11 -p 0.5 -B 1"),
        ("housing", "-s 12 -e 0.01 -c 0.5"),
        ("odd", "-s 1"),
        ("odd", "-s 0 -w7 2"),
        ("a9a", "-s 2 -B 1 -c 0.25"),
    ]
)
FOLDS = (5, 3)


def bindings_cv(path, options: str, nr_fold: int) -> np.ndarray:
    """The official bindings' cross_validation after srand(1), as train -v runs it."""
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(options + " -q")
    prob = ll.problem(y, x, bias=param.bias)
    target = (ctypes.c_double * len(y))()
    LIBC.srand(1)
    ll_c.liblinear.cross_validation(prob, param, nr_fold, target)
    return np.array(target[:])


def params_of(options: str) -> LinearParams:
    """LinearParams of train's options (written independently of the command's parser)."""
    words = options.split()
    values: dict = {"weight": []}
    fields = {"-s": "solver_type", "-c": "C", "-p": "p", "-n": "nu", "-e": "eps", "-B": "bias"}
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-R":
            values["regularize_bias"] = 0
            i += 1
            continue
        if w[:2] == "-w":
            values["weight"].append((int(w[2:]), float(words[i + 1])))
        elif w == "-s":
            values["solver_type"] = int(words[i + 1])
        else:
            values[fields[w]] = float(words[i + 1])
        i += 2
    values["weight"] = tuple(values["weight"])
    return LinearParams(**values)


def liblinear_folds(l: int, nr_fold: int) -> np.ndarray:
    """linear.cpp's cross_validation: perm shuffled with rand() after srand(1), fold i is
    perm[i*l/k : (i+1)*l/k]."""
    LIBC.srand(1)
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    fold = np.empty(l, dtype=np.int64)
    for f in range(nr_fold):
        fold[perm[f * l // nr_fold : (f + 1) * l // nr_fold]] = f
    return fold


@pytest.mark.parametrize("nr_fold", FOLDS)
@pytest.mark.parametrize("name,options", CASES)
def test_predictions_and_folds_are_liblinears(files, name, options, nr_fold):
    path = files[name]
    result = cross_validate_linear(str(path), params_of(options), nr_fold)
    np.testing.assert_array_equal(result.y_pred, bindings_cv(path, options, nr_fold))
    np.testing.assert_array_equal(result.fold, liblinear_folds(result.n_samples, nr_fold))
    assert result.n_folds == nr_fold


@pytest.mark.parametrize("name,options", CASES)
def test_first_lines_are_train_v_byte_for_byte(files, liblinear_train, name, options):
    path = files[name]
    lines = 2 if name == "housing" else 1
    train = subprocess.run(
        [str(liblinear_train), *options.split(), "-q", "-v", "5", str(path)],
        capture_output=True,
        check=True,
    )
    assert len(train.stdout.splitlines()) == lines
    done = run("linear", [*options.split(), "-q", "-v", "5", path], text=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines(True)[:lines] == train.stdout.splitlines(True)
    if name == "odd":  # labels 3 and 7: the drop-in's note that its +1 class is label 1
        assert done.stderr.startswith(b"svmeval-linear: no label 1 in these data")
    else:
        assert done.stderr == b""


def test_train_without_q_its_messages_go_to_stderr_only(files, liblinear_train):
    path = files["heart"]
    train = subprocess.run(
        [str(liblinear_train), "-s", "2", "-v", "5", str(path)], capture_output=True, check=True
    )
    accuracy = [b for b in train.stdout.splitlines(True) if b.startswith(b"Cross")]
    chatter = [b for b in train.stdout.splitlines(True) if not b.startswith(b"Cross")]
    assert chatter  # train writes its solver's lines to stdout
    done = run("linear", ["-s", "2", "-v", "5", path], text=False)
    assert done.stdout.splitlines(True)[:1] == accuracy
    assert done.stderr.splitlines(True) == chatter  # the same lines, on stderr


@pytest.mark.parametrize("name,options", [c for c in CASES if c[0] in ("heart", "odd", "a9a")])
def test_two_class_lines_are_the_dropins_from_the_counts(files, name, options):
    path = files[name]
    done = run("linear", [*options.split(), "-q", "-v", "5", path])
    assert done.returncode == 0, done.stderr
    y = np.array(ll.svm_read_problem(str(path))[0])
    pred = bindings_cv(path, options, 5)
    pos = y == 1
    tp, fn = np.sum(pos & (pred == 1)), np.sum(pos & (pred != 1))
    fp, tn = np.sum(~pos & (pred == 1)), np.sum(~pos & (pred != 1))

    def g(a, b):  # C's double division and %g, -nan for 0/0
        return "-nan" if a + b == 0 else f"{a / (a + b):g}"

    def f1(p_num, p_den, r_num, r_den):
        if p_den == 0 or r_den == 0:
            return "-nan"
        p, r = p_num / p_den, r_num / r_den
        return "-nan" if p + r == 0 else f"{2 * p * r / (p + r):g}"

    positive = "+1" if 1 in y else None
    expected_head = f"Cross Validation Accuracy = {100.0 * np.sum(pred == y) / len(y):g}%\n"
    assert done.stdout.startswith(expected_head)
    if positive is None:  # no label 1: said on stderr
        assert "no label 1" in done.stderr
        return
    assert done.stdout == expected_head + (
        f"Positive (+1) class:\n  precision = {g(tp, fp)}\n     recall = {g(tp, fn)}\n"
        f"   F1 value = {f1(tp, tp + fp, tp, tp + fn)}\n\n"
        f"Negative (-1) class:\n  precision = {g(tn, fn)}\n     recall = {g(tn, fp)}\n"
        f"   F1 value = {f1(tn, tn + fn, tn, tn + fp)}\n\n"
    )


@pytest.mark.parametrize(
    "name,options", [("iris", "-s 4"), ("iris", "-s 0 -B 1"), ("heart", "-s 2"), ("odd", "-s 1")]
)
def test_every_figure_is_scikit_learns(files, name, options):
    metrics = pytest.importorskip("sklearn.metrics")
    from svmeval import summarize

    path = files[name]
    result = cross_validate_linear(str(path), params_of(options), 5)
    y, pred = result.y_true, bindings_cv(path, options, 5)
    s = summarize(result)
    labels = np.unique(np.concatenate([y, pred]))
    c = s.classification
    np.testing.assert_array_equal(c.labels, labels)
    np.testing.assert_array_equal(c.confusion_matrix, metrics.confusion_matrix(y, pred))
    p, r, f, support = metrics.precision_recall_fscore_support(y, pred, zero_division=0)
    np.testing.assert_allclose(c.precision, p, rtol=1e-12)
    np.testing.assert_allclose(c.recall, r, rtol=1e-12)
    np.testing.assert_allclose(c.f1, f, rtol=1e-12)
    np.testing.assert_array_equal(c.support, support)
    expected = {
        "accuracy": metrics.accuracy_score(y, pred),
        "balanced_accuracy": metrics.balanced_accuracy_score(y, pred),
        "mcc": metrics.matthews_corrcoef(y, pred),
        "kappa": metrics.cohen_kappa_score(y, pred),
        "macro_f1": metrics.f1_score(y, pred, average="macro", zero_division=0),
        "micro_f1": metrics.f1_score(y, pred, average="micro", zero_division=0),
        "weighted_f1": metrics.f1_score(y, pred, average="weighted", zero_division=0),
    }
    for key, value in expected.items():
        assert s.figures[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
    folds = liblinear_folds(len(y), 5)
    for k, figures in enumerate(s.fold_figures):
        mine = folds == k
        assert figures["accuracy"] == pytest.approx(metrics.accuracy_score(y[mine], pred[mine]))
        assert figures["mcc"] == pytest.approx(metrics.matthews_corrcoef(y[mine], pred[mine]))


@pytest.mark.parametrize("options", ["-s 11", "-s 12 -B 1", "-s 13 -p 0.5"])
def test_regression_figures_are_scikit_learns(files, options):
    metrics = pytest.importorskip("sklearn.metrics")
    from svmeval import summarize

    path = files["housing"]
    result = cross_validate_linear(str(path), params_of(options), 5)
    y, pred = result.y_true, bindings_cv(path, options, 5)
    s = summarize(result)
    assert s.figures["mse"] == pytest.approx(metrics.mean_squared_error(y, pred), rel=1e-12)
    assert s.figures["scc"] == pytest.approx(np.corrcoef(y, pred)[0, 1] ** 2, rel=1e-9)


def test_multiclass_report_is_the_whole_table(files):
    done = run("linear", ["-s", "4", "-q", "-v", "5", files["iris"]])
    assert done.returncode == 0, done.stderr
    assert "confusion matrix" in done.stdout and "macro" in done.stdout
    assert all(len(line) <= 80 for line in done.stdout.splitlines())


def test_full_and_json_reports(files):
    import json

    full = run("linear", ["-q", "-v", "5", "--full", files["heart"]])
    assert full.returncode == 0 and "confusion matrix" in full.stdout
    done = run("linear", ["-q", "-v", "5", "--format", "json", files["heart"]])
    report = json.loads(done.stdout)
    assert report["parameters"]["library"] == "liblinear"
    assert report["parameters"]["solver_type"] == 1 and report["parameters"]["eps"] == 0.1
    pred = bindings_cv(files["heart"], "-s 1", 5)
    y = np.array(ll.svm_read_problem(str(files["heart"]))[0])
    assert report["figures"]["accuracy"] == pytest.approx(np.mean(pred == y), rel=1e-12)


def test_default_tolerance_per_solver_is_trains():
    # train.c's parse_command_line: eps INF, then per solver
    expected = {0: 0.01, 2: 0.01, 11: 0.0001, 1: 0.1, 3: 0.1, 4: 0.1, 7: 0.1}
    expected.update({5: 0.01, 6: 0.01, 12: 0.1, 13: 0.1, 21: 0.01})
    for solver, eps in expected.items():
        assert LinearParams(solver_type=solver).resolved_eps == eps
        assert ll.parameter(f"-s {solver} -q").eps == eps  # the bindings' own table


HEART = "HEART"
BAD = [
    (["-v", "1", HEART], "svmeval-linear: n-fold cross validation: n must >= 2"),
    (["-v", "x", HEART], "svmeval-linear: option -v: 'x' is not an integer"),
    (["-s", "9", "-v", "5", HEART], "ERROR: unknown solver type"),
    (["-s", "-1", "-v", "5", HEART], "ERROR: unknown solver type"),
    (
        ["-s", "99999999999", "-v", "5", HEART],
        "svmeval-linear: option -s: '99999999999' is out of range "
        "(a C int holds -2147483648 to 2147483647)",
    ),
    (["-c", "0", "-v", "5", HEART], "ERROR: C <= 0"),
    (["-e", "-1", "-v", "5", HEART], "ERROR: eps <= 0"),
    (["-s", "11", "-p", "-1", "-v", "5", HEART], "ERROR: p < 0"),
    (["-R", "-v", "5", HEART], "ERROR: To not regularize bias, must specify -B 1 along with -R"),
    (
        ["-s", "1", "-B", "1", "-R", "-v", "5", HEART],
        "ERROR: -R option supported only for solver L2R_LR, L2R_L2LOSS_SVC, L1R_L2LOSS_SVC, "
        "L1R_LR, and L2R_L2LOSS_SVR",
    ),
    (
        ["-s", "21", "-B", "1", "-v", "5", HEART],
        "ERROR: prob->bias >=0, but this is ignored in ONECLASS_SVM",
    ),
    (
        ["-s", "21", "-n", "2", "-v", "5", HEART],
        "svmeval-linear: -n: nu must be in (0, 1] for -s 21 (one-class SVM)",
    ),
    (
        ["-s", "21", "-n", "0", "-v", "5", HEART],
        "svmeval-linear: -n: nu must be in (0, 1] for -s 21 (one-class SVM)",
    ),
    (["-c", "abc", "-v", "5", HEART], "svmeval-linear: option -c: 'abc' is not a number"),
    (["-c", "nan", "-v", "5", HEART], "svmeval-linear: option -c: 'nan' is not a finite number"),
    (["-B", "inf", "-v", "5", HEART], "svmeval-linear: option -B: 'inf' is not a finite number"),
    (["-wx", "2", "-v", "5", HEART], "svmeval-linear: option -w: 'x' is not an integer"),
    (["-x", "-v", "5", HEART], "svmeval-linear: unknown option: -x"),
    (
        ["-v", "5"],
        "svmeval-linear: no data file (Usage: svmeval-linear [options] training_set_file)",
    ),
    (["-v", "5", "-c"], "svmeval-linear: option -c needs a value"),
    (
        ["-v", "5", "no_such_file"],
        "svmeval-linear: no_such_file: cannot read: No such file or directory",
    ),
    (
        [HEART],
        "svmeval-linear: -v n is needed: svmeval-linear reports LIBLINEAR's n-fold "
        "cross-validation (train without -v trains and saves a model)",
    ),
    (["-v", "5", "--format", "xml", HEART], "svmeval-linear: --format xml: text, json or csv"),
    (
        ["-v", "5", HEART, "model", "more"],
        "svmeval-linear: one data file and at most one model file, not 3 file names",
    ),
]


@pytest.mark.parametrize("args,line", BAD)
def test_bad_options_and_values_are_one_line(files, args, line, tmp_path):
    args = [str(files["heart"]) if a == HEART else a for a in args]
    done = run("linear", args, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", line + "\n")
    assert list(tmp_path.iterdir()) == []  # no model file, nothing half-written


def test_bad_data_file_names_file_and_line(tmp_path):
    bad = tmp_path / "bad"
    bad.write_text("1 1:0.5\n-1 2:x\n")
    done = run("linear", ["-v", "2", bad], cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"svmeval-linear: {bad}:2: ") and done.stderr.count("\n") == 1


def test_labels_beyond_a_c_int_never_reach_liblinear(tmp_path):
    bad = tmp_path / "big"
    bad.write_text("1e12 1:0.5\n-1 2:1\n1e12 1:1\n-1 2:2\n")
    done = run("linear", ["-v", "2", bad], cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "does not fit a C int" in done.stderr and done.stderr.count("\n") == 1


def test_no_arguments_is_the_short_usage():
    done = run("linear", [])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Usage: svmeval-linear [options] training_set_file")


def test_help_fits_80_columns():
    done = run("linear", ["--help"])
    assert done.returncode == 0
    assert all(len(line.expandtabs()) <= 80 for line in done.stdout.splitlines())
    for flag in ("-s", "-c", "-p", "-n", "-e", "-B", "-R", "-wi", "-v", "-C", "-q", "--full"):
        assert f"\n{flag} " in done.stdout


def test_without_the_bindings_one_line_says_how_to_install(files, monkeypatch):
    from svmeval.cv import c_library, liblinear_core

    real = c_library.library_file
    monkeypatch.setattr(
        c_library,
        "library_file",
        lambda package="libsvm": None if package == "liblinear" else real(package),
    )
    monkeypatch.setattr(liblinear_core, "_C", [])
    done = run("linear", ["-v", "5", files["heart"]])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.endswith("-m pip install 'liblinear-official>=2.50,<2.51'\n")
    assert done.stderr.startswith("svmeval-linear: LIBLINEAR's official bindings")


def test_more_folds_than_rows_is_leave_one_out_as_liblinear(tmp_path):
    small = tmp_path / "small"
    small.write_text("".join(f"{1 if i % 2 else -1} 1:{i / 10}\n" for i in range(7)))
    result = cross_validate_linear(str(small), LinearParams(), 20)
    assert result.n_folds == 7
    np.testing.assert_array_equal(result.y_pred, bindings_cv(small, "-s 1", 20))


def test_python_module_form_runs_the_command(files):
    import sys

    path = files["heart"]
    done = subprocess.run(
        [sys.executable, "-m", "svmeval.cli", "linear", "-q", "-v", "5", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    y = np.array(ll.svm_read_problem(str(path))[0])
    pred = bindings_cv(path, "-s 1", 5)
    accuracy = 100.0 * np.sum(pred == y) / len(y)
    assert done.stdout.startswith(f"Cross Validation Accuracy = {accuracy:g}%\n")


# --- -C: LIBLINEAR's warm-started search over C -------------------------------------------
SEARCHES = [
    ("heart", "-s 2"),
    ("heart", "-s 0"),
    ("heart", "-s 2 -B 1 -c 0.5"),
    ("iris", "-s 0"),
    ("iris", "-s 2 -w2 2"),
    ("odd", "-s 2"),
    ("a9a", "-s 2"),
    ("housing", "-s 11"),
    ("housing", "-s 11 -B 1 -p 3"),
]


def search_stdout(done_stdout: bytes) -> bytes:
    """The lines before svmeval's own table (LIBLINEAR's, as train -C prints them)."""
    return done_stdout.split(b"\n\n", 1)[0] + b"\n"


@pytest.mark.parametrize("quiet", [True, False])
@pytest.mark.parametrize("name,options", SEARCHES)
def test_search_lines_are_train_C_byte_for_byte(files, liblinear_train, name, options, quiet):
    path = files[name]
    q = ["-q"] if quiet else []
    train = subprocess.run(
        [str(liblinear_train), "-C", *options.split(), *q, "-v", "3", str(path)],
        capture_output=True,
        check=True,
    )
    done = run("linear", ["-C", *options.split(), *q, "-v", "3", path], text=False)
    assert done.returncode == 0, done.stderr
    assert search_stdout(done.stdout) == train.stdout
    assert done.stderr == train.stderr == b""


def test_search_without_solver_says_so_as_train(files, liblinear_train):
    path = files["heart"]
    train = subprocess.run(
        [str(liblinear_train), "-C", "-q", str(path)], capture_output=True, check=True
    )
    done = run("linear", ["-C", "-q", path], text=False)
    assert (search_stdout(done.stdout), done.stderr) == (train.stdout, train.stderr)
    assert train.stderr == b"Solver not specified. Using -s 2\n"


class _Problem(ctypes.Structure):  # struct problem, declared here (the test's own view)
    _fields_ = [
        ("l", ctypes.c_int),
        ("n", ctypes.c_int),
        ("y", ctypes.POINTER(ctypes.c_double)),
        ("x", ctypes.POINTER(ctypes.POINTER(ll_c.feature_node))),
        ("bias", ctypes.c_double),
    ]


def bindings_warm_chain(path, options: str, nr_fold: int, steps):
    """Each step's predictions by LIBLINEAR's train and predict through the bindings: the
    folds of linear.cpp's shuffle after srand(1), each fold warm-started (init_sol) from its
    weights at the step before of the same p, as find_parameter_C trains them."""
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(options + " -q")
    prob = ll.problem(y, x, bias=param.bias)
    l = len(y)
    fold = liblinear_folds(l, nr_fold)  # draws the shuffle: rand() then as the search's
    LIBC.srand(1)
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    starts = [i * l // nr_fold for i in range(nr_fold + 1)]
    subs, keep = [], []
    for f in range(nr_fold):
        rows = perm[: starts[f]] + perm[starts[f + 1] :]
        ys = (ctypes.c_double * len(rows))(*[y[r] for r in rows])
        xs = (ctypes.POINTER(ll_c.feature_node) * len(rows))(*[prob.x[r] for r in rows])
        keep += [ys, xs]
        subs.append(_Problem(len(rows), prob.n, ys, xs, prob.bias))
    ll_c.liblinear.set_print_string_function(ll_c.ctypes_print_null)
    out, prev, last_p = [], [None] * nr_fold, None
    for step in steps:
        if step.p != last_p:
            prev, last_p = [None] * nr_fold, step.p
        param.C, param.p = step.C, step.p
        target = np.empty(l)
        for f in range(nr_fold):
            param.init_sol = prev[f]
            sub = ctypes.cast(ctypes.pointer(subs[f]), ctypes.POINTER(ll_c.problem))
            model = ll_c.liblinear.train(sub, param)
            size = prob.n * (1 if model.contents.nr_class == 2 else model.contents.nr_class)
            prev[f] = (ctypes.c_double * size)(*model.contents.w[:size])
            for r in np.flatnonzero(fold == f):
                target[r] = ll_c.liblinear.predict(model, prob.x[r])
            ll_c.liblinear.free_and_destroy_model(ctypes.pointer(model))
        out.append(target)
    param.init_sol = None
    return out


@pytest.mark.parametrize(
    "name,options",
    [("heart", "-s 2"), ("iris", "-s 0"), ("heart", "-s 0 -B 1"), ("housing", "-s 11")],
)
def test_every_steps_predictions_are_liblinears_warm_started(files, name, options):
    from svmeval.cv.run.linear_search import search_c_linear

    path = files[name]
    search = search_c_linear(str(path), params_of(options), 3)
    steps = search.steps if name != "housing" else search.steps[:40]
    expected = bindings_warm_chain(path, options, 3, steps)
    for step, target in zip(steps, expected):
        np.testing.assert_array_equal(step.result.y_pred, target)
        np.testing.assert_array_equal(step.result.fold, liblinear_folds(len(target), 3))
        assert step.result.params.C == step.C


def test_search_first_step_is_the_bindings_cross_validation(files):
    from svmeval.cv.run.linear_search import search_c_linear

    search = search_c_linear(str(files["heart"]), params_of("-s 2"), 5)
    first = search.steps[0]
    np.testing.assert_array_equal(
        first.result.y_pred, bindings_cv(files["heart"], f"-s 2 -c {first.C!r}", 5)
    )


def test_search_figures_and_best_by_criterion_are_scikit_learns(files):
    import json

    metrics = pytest.importorskip("sklearn.metrics")
    path = files["iris"]
    done = run("linear", ["-C", "-s", "0", "-q", "--criterion", "mcc", "--format", "json", path])
    report = json.loads(done.stdout)
    y = np.array(ll.svm_read_problem(str(path))[0])
    steps = report["steps"]
    chain = bindings_warm_chain(path, "-s 0", 5, [_Step(s["C"], s["p"]) for s in steps])
    mcc = [metrics.matthews_corrcoef(y, pred) for pred in chain]
    for s, pred, value in zip(steps, chain, mcc):
        assert s["figures"]["accuracy"] == pytest.approx(metrics.accuracy_score(y, pred))
        assert s["figures"]["macro_f1"] == pytest.approx(metrics.f1_score(y, pred, average="macro"))
        assert s["figures"]["mcc"] == pytest.approx(value)
    best = int(np.argmax(mcc))  # the first of the largest
    assert report["best"]["C"] == steps[best]["C"]
    assert report["best"]["value"] == pytest.approx(mcc[best])


class _Step:
    def __init__(self, C, p):
        self.C, self.p = C, p


SEARCH_BAD = [
    (
        ["-C", "-s", "1", HEART],
        "svmeval-linear: Warm-start parameter search only available for -s 0, -s 2 and -s 11",
    ),
    (
        ["-C", "-s", "0", "--criterion", "roc_auc", HEART],
        "svmeval-linear: --criterion roc_auc: not a figure of this classification run (LIBLINEAR's cross-validation keeps no decision values)",
    ),
    (
        ["-C", "-s", "0", "--criterion", "bogus", HEART],
        "svmeval-linear: --criterion bogus: not a figure's name (svmeval-grid --help lists them)",
    ),
    (
        ["-v", "5", "--criterion", "mcc", HEART],
        "svmeval-linear: --criterion goes with -C (the best C by that figure) or "
        "--permutations (the figure it tests)",
    ),
    (
        ["-C", "-s", "0", "--format", "csv", HEART],
        "svmeval-linear: --format csv: -C's report is text or json",
    ),
]


@pytest.mark.parametrize("args,line", SEARCH_BAD)
def test_bad_search_options_are_one_line(files, args, line, tmp_path):
    args = [str(files["heart"]) if a == HEART else a for a in args]
    done = run("linear", args, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", line + "\n")


# --- the Python API: cross_validate takes a LinearParams ------------------------------------
def bindings_cv_seeded(path, options: str, nr_fold: int, seed: int) -> np.ndarray:
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(options + " -q")
    prob = ll.problem(y, x, bias=param.bias)
    target = (ctypes.c_double * len(y))()
    LIBC.srand(seed)
    ll_c.liblinear.cross_validation(prob, param, nr_fold, target)
    return np.array(target[:])


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("name,options", [("heart", "-s 1"), ("iris", "-s 4 -B 1")])
def test_cross_validate_takes_a_linear_configuration(files, name, options, seed):
    import svmeval

    path = files[name]
    result = svmeval.cross_validate(str(path), params_of(options), 5, seed=seed)
    np.testing.assert_array_equal(result.y_pred, bindings_cv_seeded(path, options, 5, seed))
    # named as LIBLINEAR's (svm-train's -s 2 would be a one-class SVM)
    flags = params_of(options).flags()
    assert result.seed == seed and result.configuration == f"linear: {flags}".strip()


def test_cross_validate_of_arrays_is_that_of_the_file(files):
    import svmeval

    ds = svmeval.read_dataset(files["heart"])
    X = np.zeros((ds.n_samples, ds.n_features))
    for i in range(ds.n_samples):
        a, b = ds.indptr[i], ds.indptr[i + 1]
        X[i, ds.indices[a:b] - 1] = ds.values[a:b]
    from_arrays = svmeval.cross_validate((X, ds.y), svmeval.LinearParams(solver_type=2), 5)
    np.testing.assert_array_equal(from_arrays.y_pred, bindings_cv(files["heart"], "-s 2", 5))


def test_a_linear_result_s_frame_and_reports_are_scikit_learns(files):
    import json

    import svmeval

    metrics = pytest.importorskip("sklearn.metrics")
    pytest.importorskip("pandas")
    path = files["iris"]
    result = svmeval.cross_validate(str(path), svmeval.LinearParams(solver_type=4), 5)
    y, pred = result.y_true, bindings_cv(path, "-s 4", 5)
    folds = liblinear_folds(len(y), 5)
    frame = result.to_frame()
    for k in range(5):
        mine = folds == k
        row = frame.iloc[k]
        assert row["accuracy"] == pytest.approx(metrics.accuracy_score(y[mine], pred[mine]))
        assert row["macro_f1"] == pytest.approx(
            metrics.f1_score(y[mine], pred[mine], average="macro", zero_division=0)
        )
    summary = svmeval.summarize(result)
    report = json.loads(svmeval.render(summary, format="json"))
    assert report["parameters"]["solver_name"] == "MCSVM_CS"
    assert report["figures"]["mcc"] == pytest.approx(metrics.matthews_corrcoef(y, pred))


@pytest.mark.parametrize(
    "keyword,value",
    [
        ("groups", [0, 1] * 135),
        ("keep_decision_values", True),
        ("scale", True),  # learned inside LIBSVM's folds only: never silently left out
        ("scale", (0, 1)),
        ("select", 3),
    ],
)
def test_what_liblinears_cv_does_not_do_is_refused_by_name(files, keyword, value):
    import svmeval

    with pytest.raises(svmeval.ArgumentError, match=keyword):
        svmeval.cross_validate(str(files["heart"]), svmeval.LinearParams(), 5, **{keyword: value})


def test_scale_false_asks_nothing_of_a_liblinear_run(files):
    import svmeval

    asked = svmeval.cross_validate(str(files["heart"]), svmeval.LinearParams(), 5, scale=False)
    plain = svmeval.cross_validate(str(files["heart"]), svmeval.LinearParams(), 5)
    assert (asked.y_pred == plain.y_pred).all()


def test_other_runs_refuse_a_linear_configuration_in_words(files):
    import svmeval

    with pytest.raises(svmeval.ParameterError, match="not taken by this run") as caught:
        svmeval.cross_validate_multilabel(str(files["heart"]), svmeval.LinearParams())
    assert "grid_search" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "params,message",
    [
        ({"solver_type": 8}, "unknown solver type"),
        ({"C": float("nan")}, "C is not a finite number"),
        ({"weight": ((2**40, 1.0),)}, "is not a C int"),
        ({"weight": ((1, float("inf")),)}, "not a finite number"),
        ({"solver_type": 21, "nu": 1.5}, "nu <= 0 or nu > 1"),
        ({"regularize_bias": 2}, "regularize_bias"),
    ],
)
def test_values_c_cannot_take_are_refused_before_liblinear(files, params, message):
    import svmeval

    with pytest.raises(svmeval.ParameterError, match=message):
        svmeval.cross_validate(str(files["heart"]), svmeval.LinearParams(**params), 5)


def test_the_commands_page_shows_its_whole_usage():
    from pathlib import Path

    from svmeval.cli.linear import USAGE

    page = (Path(__file__).parents[2] / "docs" / "commands" / "svmeval-linear.md").read_text()
    assert USAGE.rstrip() in page


def test_search_with_more_folds_than_rows_warns_as_train(liblinear_train, tmp_path):
    small = tmp_path / "small"
    small.write_text(
        "".join(f"{1 if i % 3 else -1} 1:{i / 10} 2:{(i * 7) % 5}\n" for i in range(9))
    )
    train = subprocess.run(
        [str(liblinear_train), "-C", "-s", "2", "-v", "20", str(small)],
        capture_output=True,
        check=True,
    )
    done = run("linear", ["-C", "-s", "2", "-v", "20", small], text=False)
    assert (search_stdout(done.stdout), done.stderr) == (train.stdout, train.stderr)
    assert train.stderr.startswith(b"WARNING: # folds > # data.")


def test_a_linear_run_records_liblinears_version(files):
    import svmeval
    from svmeval.report.html import render_html

    number = ctypes.c_int.in_dll(ll_c.liblinear, "liblinear_version").value  # the bindings'
    shown = f"{number // 100}.{number % 100:02d}"
    result = svmeval.cross_validate(str(files["heart"]), svmeval.LinearParams(), 5)
    assert result.provenance.liblinear_version == shown
    assert result.provenance.to_dict()["liblinear_version"] == shown
    page = render_html(svmeval.summarize(result))
    assert f'<th scope="row">LIBLINEAR</th><td>{shown}</td>' in page
    libsvm_run = svmeval.cross_validate(str(files["heart"]), "-c 2", 5)
    assert "liblinear_version" not in libsvm_run.provenance.to_dict()  # as before


def test_ctrl_c_leaves_a_long_liblinear_call_at_once(files, monkeypatch):
    """A Ctrl-C during LIBLINEAR's cross_validation (C code: the interrupt cannot stop it)
    reaches the caller while the call still runs; the next run waits for the call to end."""
    import signal
    import threading

    from svmeval.cv import _liblinear, schedule

    c = _liblinear.library()
    entered, release = threading.Event(), threading.Event()
    fallback = []

    def uninterruptible(*args):  # as a C call: a KeyboardInterrupt waits until it returns
        entered.set()
        while not release.is_set():
            try:
                release.wait()
            except KeyboardInterrupt:
                pass

    def interrupt(main: int) -> None:
        if entered.wait(60):
            signal.pthread_kill(main, signal.SIGINT)
        if not release.wait(60):  # never reached the caller: end the call, the test fails
            fallback.append(True)
            release.set()

    monkeypatch.setattr(c, "cross_validation", uninterruptible)
    helper = threading.Thread(target=interrupt, args=(threading.get_ident(),))
    helper.start()
    with pytest.raises(KeyboardInterrupt):
        cross_validate_linear(str(files["heart"]), LinearParams(), 5)
    assert not release.is_set() and not fallback  # left while the call was still running
    release.set()
    helper.join(60)
    schedule.wait_abandoned()  # returns once the call has ended
    assert not fallback


def test_search_picture_draws_scikit_learns_figures_of_every_c(files):
    metrics = pytest.importorskip("sklearn.metrics")
    pytest.importorskip("matplotlib")
    from svmeval.cv.run.linear_search import search_c_linear
    from svmeval.report.linear_plot import draw_search
    from svmeval.summary import summarize

    path = files["iris"]
    search = search_c_linear(str(path), params_of("-s 0"), 5)
    figures = [summarize(s.result, per_fold=False).figures for s in search.steps]
    fig = draw_search(search, figures)
    lines = {line.get_label(): line for line in fig.axes[0].get_lines()}
    y = np.array(ll.svm_read_problem(str(path))[0])
    chain = bindings_warm_chain(path, "-s 0", 5, search.steps)
    np.testing.assert_allclose(
        lines["mcc"].get_ydata(), [metrics.matthews_corrcoef(y, p) for p in chain], rtol=1e-12
    )
    np.testing.assert_allclose(
        lines["accuracy"].get_xdata(), [math.log2(s.C) for s in search.steps], rtol=1e-12
    )


def test_search_picture_file_and_without_matplotlib_one_line(files, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    done = run("linear", ["-C", "-s", "0", "-q", "--plot", "c.png", files["iris"]], cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from svmeval.report import linear_plot
    from svmeval.report.plot import PlotUnavailable

    def missing():
        raise PlotUnavailable("no matplotlib")

    monkeypatch.setattr(linear_plot, "figure_class", missing)
    done = run("linear", ["-C", "-s", "0", "-q", "--plot", "d.png", files["iris"]], cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("Doing parameter search")
    assert done.stderr.count("\n") == 1 and "matplotlib is not installed" in done.stderr
    assert not (tmp_path / "d.png").exists()


@pytest.mark.parametrize(
    "args,line",
    [
        (
            ["-C", "--plot", "c.txt"],
            "svmeval-linear: c.txt: the picture's name must end in .png, .svg, .pdf",
        ),
        (
            ["-v", "5", "--plot", "c.png"],
            "svmeval-linear: --plot goes with -C (the figures of every C), --permutations "
            "or --threshold",
        ),
    ],
)
def test_bad_plot_options_before_any_work(files, tmp_path, args, line):
    done = run("linear", [*args, files["heart"]], cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", line + "\n")


@pytest.mark.parametrize(
    "rows",
    [
        "3 1:1\n3 1:2\n3 1:1.5\n3 2:1\n3 2:0.5\n",  # one class: LIBLINEAR's model has one label
        "1 1:0\n-1 1:0\n1 2:0\n-1 2:0\n1 1:0\n-1 1:0\n",  # every value 0: calc_start_C's 1/0
    ],
)
@pytest.mark.parametrize("solver", ["0", "2"])
def test_search_edge_data_as_train_C(liblinear_train, tmp_path, rows, solver):
    path = tmp_path / "edge"
    path.write_text(rows)
    train = subprocess.run(
        [str(liblinear_train), "-C", "-s", solver, "-v", "2", str(path)],
        capture_output=True,
        check=True,
    )
    done = run("linear", ["-C", "-s", solver, "-v", "2", path], text=False)
    assert done.returncode == 0, done.stderr
    assert (search_stdout(done.stdout), done.stderr) == (train.stdout, train.stderr)

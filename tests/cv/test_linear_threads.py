"""LIBLINEAR's folds side by side (-s 0, 2, 11: their training draws nothing from rand()):
the predictions are those of LIBLINEAR's own cross_validation through its official bindings,
called here after srand, and the command's bytes are LIBLINEAR's ``train``'s (built from
``SVMEVAL_LIBLINEAR_SOURCE``) for every --jobs."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from commands import run
from conftest import data_set

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")

from test_linear import (  # noqa: E402
    bindings_cv,
    bindings_cv_seeded,
    bindings_warm_chain,
    head,
    liblinear_folds,
    params_of,
    relabelled,
)

from svmeval.cv import _liblinear, schedule  # noqa: E402
from svmeval.cv.run import linear_threads  # noqa: E402
from svmeval.cv.run.linear import cross_validate_linear  # noqa: E402
from svmeval.cv.run.linear_search import search_c_linear  # noqa: E402


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("linear-threads")
    heart = data_set("heart_scale")
    return {
        "heart": heart,
        "iris": data_set("iris.scale"),
        "housing": data_set("housing_scale"),
        "a9a": head(data_set("a9a"), tmp, 3000, "a9a.head"),
        "odd": relabelled(heart, tmp, {"+1": "3", "1": "3", "-1": "7"}, "heart.3-7"),
        "forty": head(heart, tmp, 40, "heart.40"),
    }


@pytest.fixture(params=["threads", "inline"])
def where(request, monkeypatch):
    """The folds on worker threads even for small data (the scheduler's inline bound set to
    0), or as the scheduler chooses (small data: one after another on the calling thread)."""
    if request.param == "threads":
        monkeypatch.setattr(schedule, "INLINE_ROWS", 0)
    return request.param


@pytest.fixture
def runners(monkeypatch):
    """Which runner each cross-validation took: 'threads' or LIBLINEAR's one C call."""
    taken: list = []
    threaded = linear_threads.run_cross_validation

    def spy_threads(*args, **kwargs):
        taken.append("threads")
        return threaded(*args, **kwargs)

    c = _liblinear.library()
    one_call = c.cross_validation

    def spy_one_call(*args):
        taken.append("one call")
        return one_call(*args)

    monkeypatch.setattr(linear_threads, "run_cross_validation", spy_threads)
    monkeypatch.setattr(c, "cross_validation", spy_one_call)
    return taken


# (data set, options, folds): -B, -R, -wi, odd labels, more folds than a class has rows (iris:
# 50 a class), as many folds as rows (leave-one-out) and more (LIBLINEAR's leave-one-out)
CASES = [
    ("a9a", "-s 2", 5),
    ("a9a", "-s 0 -B 1", 5),
    ("a9a", "-s 2 -B 1 -R -c 0.25", 3),
    ("heart", "-s 0 -w1 3 -w-1 0.5", 5),
    ("heart", "-s 2 -B 1", 10),
    ("odd", "-s 0 -w7 2", 5),
    ("odd", "-s 2", 4),
    ("iris", "-s 0", 60),
    ("iris", "-s 2 -B 1 -w2 2", 5),
    ("housing", "-s 11", 5),
    ("housing", "-s 11 -p 0.5 -B 1", 7),
    ("forty", "-s 2", 40),
    ("forty", "-s 0", 55),
    ("forty", "-s 11", 40),
]


@pytest.mark.parametrize("jobs", [2, 3])
@pytest.mark.parametrize("name,options,k", CASES)
def test_folds_side_by_side_are_liblinears_cross_validation(
    files, where, runners, name, options, k, jobs
):
    path = files[name]
    result = cross_validate_linear(str(path), params_of(options), k, jobs=jobs)
    np.testing.assert_array_equal(result.y_pred, bindings_cv(path, options, k))
    l = result.n_samples
    np.testing.assert_array_equal(result.fold, liblinear_folds(l, min(k, l)))
    assert result.n_folds == min(k, result.n_samples)
    assert runners == ["threads"]


@pytest.mark.parametrize(
    "options,jobs,taken",
    [
        ("-s 2", 1, "one call"),  # --jobs 1: LIBLINEAR's own cross_validation
        ("-s 0", 1, "one call"),
        ("-s 2", 2, "threads"),
        ("-s 1", 2, "one call"),  # the dual solvers draw from rand(): one call always
        ("-s 5", 3, "one call"),
        ("-s 21", 2, "one call"),
    ],
)
def test_which_runner_by_solver_and_jobs(files, runners, options, jobs, taken):
    path = files["heart"]
    result = cross_validate_linear(str(path), params_of(options), 5, jobs=jobs)
    np.testing.assert_array_equal(result.y_pred, bindings_cv(path, options, 5))
    assert runners == [taken]


def test_jobs_none_is_the_cores(files, runners, monkeypatch):
    monkeypatch.setattr(schedule, "available_cores", lambda: 1)
    cross_validate_linear(str(files["heart"]), params_of("-s 2"), 5)
    monkeypatch.setattr(schedule, "available_cores", lambda: 4)
    cross_validate_linear(str(files["heart"]), params_of("-s 2"), 5)
    assert runners == ["one call", "threads"]


def test_cross_validate_takes_jobs_with_a_linear_configuration(files, where):
    import svmeval

    path = files["a9a"]
    result = svmeval.cross_validate(str(path), params_of("-s 0"), 5, jobs=2, repeat=2)
    np.testing.assert_array_equal(result.y_pred, bindings_cv_seeded(path, "-s 0", 5, 1))
    again = svmeval.cross_validate(
        str(path), params_of("-s 0"), 5, jobs=2, repeat=2, seed=2, keep_repeats=True
    )
    np.testing.assert_array_equal(
        again.repeat_results[0].y_pred, bindings_cv_seeded(path, "-s 0", 5, 3)
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    "name,options,k",
    [("a9a", "-s 2", 5), ("a9a", "-s 0 -B 1", 5), ("housing", "-s 11", 5), ("forty", "-s 2", 60)],
)
def test_command_is_train_v_byte_for_byte_for_every_jobs(
    files, liblinear_train, where, name, options, k, jobs
):
    path = files[name]
    for quiet in (["-q"], []):
        train = subprocess.run(
            [str(liblinear_train), *options.split(), *quiet, "-v", str(k), str(path)],
            capture_output=True,
            check=True,
        )
        args = [*options.split(), *quiet, "--jobs", jobs, "-v", str(k), path]
        done = run("linear", args, text=False)
        assert done.returncode == 0, done.stderr
        accuracy = [
            b for b in train.stdout.splitlines(True) if b.startswith((b"Cross", b"Squared"))
        ]
        chatter = [b for b in train.stdout.splitlines(True) if b not in accuracy]
        assert done.stdout.splitlines(True)[: len(accuracy)] == accuracy
        # train's solver lines (its stdout) are svmeval-linear's stderr, in fold order, after
        # LIBLINEAR's own leave-one-out warning
        assert done.stderr == train.stderr + b"".join(chatter)


@pytest.mark.parametrize("value", ["0", "x", "-2", "2147483648"])
def test_bad_jobs_is_svmevals_one_line(files, value):
    done = run("linear", ["-s", "2", "-v", "5", "--jobs", value, files["heart"]])
    svmeval = run("svmeval", ["-v", "5", "--jobs", value, files["heart"]])
    assert done.returncode == svmeval.returncode == 1 and done.stdout == ""
    assert svmeval.stderr.startswith("svmeval: option --jobs: ")
    assert done.stderr == svmeval.stderr.replace("svmeval:", "svmeval-linear:", 1)
    last = run("linear", ["-s", "2", "-v", "5", files["heart"], "--jobs"])
    assert last.returncode == 1
    assert last.stderr == "svmeval-linear: option --jobs needs a value\n"


# --- -C: each C's folds side by side, each warm-started from its own weights ---------------
@pytest.mark.parametrize(
    "name,options",
    [("a9a", "-s 2"), ("iris", "-s 0"), ("heart", "-s 0 -B 1"), ("housing", "-s 11")],
)
def test_search_folds_side_by_side_are_liblinears_warm_started(files, where, name, options):
    path = files[name]
    search = search_c_linear(str(path), params_of(options), 3, jobs=2)
    one = search_c_linear(str(path), params_of(options), 3, jobs=1)
    assert search.lines == one.lines
    assert (search.best_C, search.best_p, search.best_score) == (
        one.best_C,
        one.best_p,
        one.best_score,
    )
    steps = search.steps if name != "housing" else search.steps[:40]
    expected = bindings_warm_chain(path, options, 3, steps)
    for step, target in zip(steps, expected):
        np.testing.assert_array_equal(step.result.y_pred, target)


def test_search_keeps_liblinears_decision_values_for_every_jobs(files, where):
    """keep_scores: each test row's decision value from LIBLINEAR's predict_values through
    the bindings (two classes: d towards the model's first class, -d towards the other), the
    fold trained on cross_validation's rows in its order."""
    import ctypes

    from liblinear import liblinear as ll_c
    from liblinear import liblinearutil as ll
    from test_linear import LIBC, _Problem

    path = files["a9a"]
    search = search_c_linear(str(path), params_of("-s 2"), 3, jobs=2, keep_scores=True)
    first = search.steps[0]
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(f"-s 2 -c {first.C!r} -q")
    prob = ll.problem(y, x, bias=param.bias)
    l = len(y)
    LIBC.srand(1)
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    starts = [i * l // 3 for i in range(4)]
    ll_c.liblinear.set_print_string_function(ll_c.ctypes_print_null)
    for f in range(3):
        rows = perm[: starts[f]] + perm[starts[f + 1] :]
        ys = (ctypes.c_double * len(rows))(*[y[r] for r in rows])
        xs = (ctypes.POINTER(ll_c.feature_node) * len(rows))(*[prob.x[r] for r in rows])
        sub = _Problem(len(rows), prob.n, ys, xs, prob.bias)
        model = ll_c.liblinear.train(
            ctypes.cast(ctypes.pointer(sub), ctypes.POINTER(ll_c.problem)), param
        )
        first_label = float(model.contents.label[0])
        column = list(first.result.labels).index(first_label)
        dec = (ctypes.c_double * 1)()
        for r in perm[starts[f] : starts[f + 1]]:
            ll_c.liblinear.predict_values(model, prob.x[r], dec)
            assert first.result.scores[r, column] == dec[0]
            assert first.result.scores[r, 1 - column] == -dec[0]
        ll_c.liblinear.free_and_destroy_model(ctypes.pointer(model))


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name,options", [("a9a", "-s 2"), ("housing", "-s 11 -B 1")])
def test_search_command_is_train_C_byte_for_byte(files, liblinear_train, name, options, jobs):
    path = files[name]
    train = subprocess.run(
        [str(liblinear_train), "-C", *options.split(), "-v", "4", str(path)],
        capture_output=True,
        check=True,
    )
    done = run("linear", ["-C", *options.split(), "--jobs", jobs, "-v", "4", path], text=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(b"\n\n", 1)[0] + b"\n" == train.stdout
    assert done.stderr == train.stderr == b""


def test_ctrl_c_during_threaded_folds_exits_130_at_once(tmp_path):
    """Ctrl-C once the first fold has printed (its messages come as it ends): the command
    exits 130 with its one line, sooner than that fold took, however loaded the machine."""
    rng = np.random.default_rng(0)
    data = tmp_path / "dense"
    rows = rng.uniform(-1, 1, (12000, 40))
    labels = np.where(rows @ rng.normal(size=40) + rng.normal(scale=2.0, size=12000) > 0, 1, -1)
    data.write_text(
        "".join(
            f"{y:+d} " + " ".join(f"{j}:{v:.6g}" for j, v in enumerate(row, 1)) + "\n"
            for y, row in zip(labels, rows)
        )
    )
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "svmeval.cli", "linear", "-s", "0", "-e", "1e-9", "-c", "1e4"]
        + ["--jobs", "2", "-v", "10", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    line = proc.stderr.readline()  # the first fold's lines: it has ended
    assert line.startswith(b"init f"), line
    first_fold = time.monotonic() - started
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    stderr = proc.stderr.read()
    stdout = proc.stdout.read()
    proc.wait()
    assert time.monotonic() - sent < first_fold
    assert proc.returncode == 130
    assert stderr.decode().endswith("svmeval-linear: interrupted\n") and b"Traceback" not in stderr
    assert stdout == b""


def test_a_run_after_an_interrupted_one_is_liblinears(files, monkeypatch):
    """A KeyboardInterrupt while the folds train: raised at once; the folds left inside
    LIBLINEAR end on their own, and the next run (which waits for them) is LIBLINEAR's."""
    import threading

    from _signals import BOUND, LIMIT, sigint_when

    monkeypatch.setattr(schedule, "INLINE_ROWS", 0)
    c = _liblinear.library()
    train = c.train
    ready, release = threading.Event(), threading.Event()

    def held(*args):
        ready.set()
        release.wait(LIMIT)
        return train(*args)

    monkeypatch.setattr(c, "train", held)
    path = files["heart"]
    delay = sigint_when(
        ready, release, lambda: cross_validate_linear(str(path), params_of("-s 2"), 5, jobs=2)
    )
    assert delay < BOUND
    monkeypatch.setattr(c, "train", train)
    release.set()
    result = cross_validate_linear(str(path), params_of("-s 2"), 5, jobs=2)
    np.testing.assert_array_equal(result.y_pred, bindings_cv(path, "-s 2", 5))

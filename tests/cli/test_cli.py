"""The command line as a user meets it: exit codes, one-line errors, files, formats."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import commands
from conftest import HAVE_SHARED, ROOT, data_set, shared_file, zero_one_data

SMALL = ROOT / "data" / "breast_cancer.scale"
WINE = ROOT / "data" / "wine.scale"


def svmeval(*args, cwd=None, stdin=None):
    return commands.run("svmeval", args, cwd=cwd, input=stdin)


@pytest.mark.parametrize(
    "args,message",
    [
        (["-x", "1", SMALL], "svmeval: unknown option: -x"),
        (["-c", "abc", SMALL], "svmeval: option -c: 'abc' is not a number"),
        (["-t", "1.5", SMALL], "svmeval: option -t: '1.5' is not an integer"),
        (["-v", "1", SMALL], "svmeval: n-fold cross validation: n must >= 2"),
        (["-v"], "svmeval: option -v needs a value"),
        (["-q", "-v", "5"], "svmeval: no data file given"),
        (
            ["--format", "xml", "-v", "5", SMALL],
            "svmeval: --format: 'xml' is not one of text, json, csv",
        ),
        (["--bogus", SMALL], "svmeval: unknown option: --bogus"),
        (["-w", "2", SMALL], "svmeval: option -w needs a class label"),
        (
            ["--zero-division", "2", "-v", "5", SMALL],
            "svmeval: --zero-division: '2' is not one of 0, 1, nan",
        ),
        (
            ["--predictions", "p", SMALL],
            "svmeval: --predictions: only with -v k (cross-validation) or --score",
        ),
        (
            ["--score", "p", "-v", "5", SMALL],
            "svmeval: --score reports on existing predictions: no -v",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_1(args, message):
    done = svmeval(*args)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["-c", "-1"], "ERROR: C <= 0"),
        (["-s", "7"], "ERROR: unknown svm type"),
        (["-t", "9"], "ERROR: unknown kernel type"),
        (["-s", "1", "-n", "0.99"], "ERROR: specified nu is infeasible"),
        (["-e", "0"], "ERROR: eps <= 0"),
        (["-m", "0"], "ERROR: cache_size <= 0"),
        (["-b", "2"], "ERROR: probability != 0 and probability != 1"),
    ],
)
def test_parameters_libsvm_rejects(args, message):
    """svm_check_parameter's own message, as svm-train prints it; nothing reaches training."""
    done = svmeval("-q", "-v", "5", *args, SMALL)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", message + "\n")


def test_unreadable_and_malformed_data(tmp_path):
    done = svmeval("-q", "-v", "5", tmp_path / "missing")
    assert done.returncode == 1
    assert done.stderr.startswith(f"svmeval: {tmp_path / 'missing'}:")
    assert len(done.stderr.splitlines()) == 1
    bad = tmp_path / "bad"
    bad.write_text("+1 1:0.5\n-1 1:x\n")
    done = svmeval("-q", "-v", "2", bad)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"svmeval: {bad}:2: ")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_help_goes_to_stdout():
    done = svmeval("--help")
    assert done.returncode == 0
    for option in (
        "--seed",
        "--jobs",
        "--repeat",
        "--predictions",
        "--score",
        "--format",
        "--pos-label",
        "--multilabel",
        "--zero-division",
        "--output",
        "-wi weight",
    ):
        assert option in done.stdout


def test_predictions_file_and_score_round_trip(tmp_path):
    from svmeval.cv.engine import cross_validate
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    pred = tmp_path / "cv.pred"
    done = svmeval("-q", "-v", "5", "--predictions", pred, SMALL)
    assert done.returncode == 0, done.stderr
    expected = cross_validate(read_dataset(str(SMALL)), SvmParams(), 5).y_pred
    lines = pred.read_text().splitlines()
    assert np.array_equal(np.array([float(v) for v in lines]), expected)
    assert lines == [f"{v:.17g}" for v in expected]  # svm-predict's %.17g
    scored = svmeval("--score", pred, SMALL, "--full")
    cv = svmeval("-q", "-v", "5", "--full", SMALL)
    y = np.array([float(line.split()[0]) for line in SMALL.read_text().splitlines()])
    correct = int((y == expected).sum())
    assert (
        scored.stdout.splitlines()[0]
        == f"Accuracy = {100.0 * correct / len(y):g}% ({correct}/{len(y)}) (classification)"
    )
    # the tables after the first lines are the same figures
    assert (
        scored.stdout.split("\n\n", 2)[-1].split("figure")[0]
        == cv.stdout.split("\n\n", 3)[-1].split("figure")[0]
    )


def test_probability_predictions_have_svm_predict_header(tmp_path):
    pred = tmp_path / "cv.pred"
    done = svmeval("-q", "-b", "1", "-v", "5", "--predictions", pred, SMALL)
    assert done.returncode == 0, done.stderr
    lines = pred.read_text().splitlines()
    assert lines[0] == "labels 1 -1"
    fields = [line.split() for line in lines[1:]]
    assert all(len(f) == 3 for f in fields)
    probs = np.array([[float(v) for v in f[1:]] for f in fields])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    scored = svmeval("--score", pred, SMALL)
    assert scored.returncode == 0, scored.stderr


@pytest.mark.parametrize(
    "content,line,message",
    [
        ("1\n-1\nabc\n", 3, "prediction 'abc' is not a number"),
        ("1\n\n", 2, "empty line"),
        ("1\n" * 600, 570, "more predictions than the 569 samples"),
        ("1\n" * 10, 11, "10 predictions, but the data file has 569 samples"),
        ("1 0.5 x\n", 1, "probability 'x' is not a number"),
    ],
)
def test_score_errors_name_file_and_line(tmp_path, content, line, message):
    pred = tmp_path / "p"
    pred.write_text(content)
    done = svmeval("--score", pred, SMALL)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"svmeval: {pred}:{line}: {message}")


def test_output_file_is_written_whole_and_stdout_stays_empty(tmp_path):
    out = tmp_path / "report.json"
    done = svmeval("-q", "-v", "5", "--format", "json", "-o", out, WINE)
    assert done.returncode == 0 and done.stdout == ""
    report = json.loads(out.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]  # no temporary left
    for key in (
        "schema_version",
        "n_samples",
        "labels",
        "accuracy",
        "balanced_accuracy",
        "mcc",
        "kappa",
        "classes",
        "averages",
        "confusion_matrix",
        "zero_division",
        "n_folds",
        "seed",
        "parameters",
    ):
        assert key in report
    assert set(report["averages"]) == {"macro", "macro_harmonic", "micro", "weighted"}
    for entry in report["classes"]:
        assert {
            "label",
            "support",
            "tp",
            "fp",
            "fn",
            "tn",
            "precision",
            "recall",
            "f1",
            "specificity",
            "npv",
            "accuracy",
        } <= set(entry)


def test_output_to_unwritable_place_fails_cleanly(tmp_path):
    done = svmeval("-q", "-v", "5", "-o", tmp_path / "no" / "such" / "dir" / "r.txt", SMALL)
    assert done.returncode == 1
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr


def test_json_matches_scikit_learn(tmp_path):
    metrics = pytest.importorskip("sklearn.metrics")
    pred = tmp_path / "p"
    done = svmeval("-q", "-v", "5", "--format", "json", "--predictions", pred, WINE)
    report = json.loads(done.stdout)
    y = np.array([float(line.split()[0]) for line in WINE.read_text().splitlines()])
    p = np.loadtxt(pred)
    assert report["accuracy"] == pytest.approx(metrics.accuracy_score(y, p), abs=1e-15)
    assert report["mcc"] == pytest.approx(metrics.matthews_corrcoef(y, p), abs=1e-12)
    assert report["kappa"] == pytest.approx(metrics.cohen_kappa_score(y, p), abs=1e-12)
    for avg in ("macro", "micro", "weighted"):
        assert report["averages"][avg]["f1"] == pytest.approx(
            metrics.f1_score(y, p, average=avg), abs=1e-12
        )
    assert report["confusion_matrix"] == metrics.confusion_matrix(y, p).tolist()


def test_csv_has_a_row_per_class_and_average():
    done = svmeval("-q", "-v", "5", "--format", "csv", WINE)
    rows = [line.split(",") for line in done.stdout.splitlines()]
    assert rows[0][:5] == ["row", "name", "precision", "recall", "f1"]
    assert [r[1] for r in rows[1:8]] == [
        "1",
        "2",
        "3",
        "macro",
        "macro_harmonic",
        "micro",
        "weighted",
    ]
    # then one row per scalar figure of a multiclass run, value beside its fold mean and sd
    figures = {r[1]: r for r in rows[8:]}
    assert all(r[0] == "figure" for r in rows[8:])
    assert {"accuracy", "mcc", "kappa", "macro_f1", "macro_roc_auc"} <= set(figures)
    from svmeval.cv.engine import cross_validate
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams

    y = read_dataset(str(WINE)).y
    p = cross_validate(read_dataset(str(WINE)), SvmParams(), 5).y_pred
    assert float(figures["accuracy"][-3]) == pytest.approx(float(np.mean(y == p)), abs=1e-15)


def test_pos_label_picks_the_positive_block(tmp_path):
    data = zero_one_data(tmp_path)  # labels 0 / 1
    default = svmeval("-q", "-v", "5", data).stdout.splitlines()
    assert default[1] == "Positive (+1) class:"
    assert default[6] == "Negative (-1) class:"  # the patched svm-train's header, for 0 too
    swapped = svmeval("-q", "-v", "5", "--pos-label", "0", data).stdout.splitlines()
    assert swapped[1] == "Positive (0) class:"
    assert swapped[2] == default[7]  # the same precision, now of the positive block
    bad = svmeval("-q", "-v", "5", "--pos-label", "3", data)
    assert bad.returncode == 1 and "--pos-label 3 is not one of the labels (0, 1)" in bad.stderr


def test_larger_label_is_positive_without_label_1(tmp_path):
    """The figures' positive class is the larger label; svm-train's lines stay the patch's
    (its +1 class is label 1, none here: 0/0), --pos-label 4 heads them with the labels."""
    data = tmp_path / "d"
    rows = SMALL.read_text().replace("+1 ", "4 ").replace("-1 ", "2 ")
    data.write_text(rows)
    out = svmeval("-q", "-v", "5", data).stdout.splitlines()
    assert out[1:3] == ["Positive (+1) class:", "  precision = -nan"]
    assert out[6:8] == ["Negative (-1) class:", "  precision = 1"]
    assert (
        json.loads(svmeval("-q", "-v", "5", "--format", "json", data).stdout)["positive_label"] == 4
    )
    out = svmeval("-q", "-v", "5", "--pos-label", "4", data).stdout.splitlines()
    assert out[1] == "Positive (+4) class:" and out[6] == "Negative (+2) class:"


def test_seed_is_reported_and_changes_folds():
    a = json.loads(svmeval("-q", "-v", "5", "--format", "json", SMALL).stdout)
    b = json.loads(svmeval("-q", "-v", "5", "--format", "json", "--seed", "5", SMALL).stdout)
    assert (a["seed"], b["seed"]) == (1, 5)
    assert a["folds"] != b["folds"]


def test_repeat_reports_every_repetition():
    r = json.loads(svmeval("-q", "-v", "5", "--format", "json", "--repeat", "3", SMALL).stdout)
    assert len(r["repeats"]) == 3 and len(r["folds"]) == 5
    seeds = [
        json.loads(svmeval("-q", "-v", "5", "--format", "json", "--seed", s, SMALL).stdout)
        for s in (1, 2, 3)
    ]
    assert [x["accuracy"] for x in r["repeats"]] == [s["accuracy"] for s in seeds]
    assert r["repeat_spread"]["accuracy"]["mean"] == pytest.approx(
        np.mean([s["accuracy"] for s in seeds])
    )


def test_make_demo_data_is_two_class():
    done = svmeval("-q", "-v", "5", SMALL)
    assert done.returncode == 0
    assert done.stdout.startswith("Cross Validation Accuracy = ")
    assert "Positive (+1) class:" in done.stdout


def test_multilabel_command_line(tmp_path):
    metrics = pytest.importorskip("sklearn.metrics")
    data = tmp_path / "yeast60"
    data.write_text("".join(shared_file("data", "yeast_train").read_text().splitlines(True)[:60]))
    pred = tmp_path / "p"
    done = svmeval(
        "-q",
        "--multilabel",
        "-v",
        "5",
        "-c",
        "4",
        "-g",
        "0.1",
        "--predictions",
        pred,
        "--format",
        "json",
        data,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    labels = list(range(14))
    truth = [[int(v) for v in line.split()[0].split(",")] for line in data.read_text().splitlines()]
    guess = [
        [int(v) for v in line.split(",")] if line else [] for line in pred.read_text().splitlines()
    ]
    from sklearn.preprocessing import MultiLabelBinarizer

    mlb = MultiLabelBinarizer(classes=labels)
    Yt, Yp = mlb.fit_transform(truth), mlb.transform(guess)
    assert report["averages"]["samples"]["f1"] == pytest.approx(
        metrics.f1_score(Yt, Yp, average="samples", zero_division=0), abs=1e-12
    )
    assert report["averages"]["micro"]["f1"] == pytest.approx(
        metrics.f1_score(Yt, Yp, average="micro"), abs=1e-12
    )
    scored = svmeval("--multilabel", "--score", pred, data, "--format", "json")
    assert json.loads(scored.stdout)["averages"] == report["averages"]
    missing = svmeval("-q", "-v", "5", data)
    assert missing.returncode == 1 and "use --multilabel" in missing.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_traceback_or_output(tmp_path, jobs):
    import signal
    import time

    data = tmp_path / "slow"  # several seconds of cross-validation on two cores
    if HAVE_SHARED:
        data.write_text("".join(shared_file("data", "a9a").read_text().splitlines(True)[:12000]))
    else:  # random labels: every sample is a support vector
        rng = np.random.default_rng(0)
        data.write_text(
            "".join(
                f"{rng.choice(['+1', '-1'])} "
                + " ".join(f"{j}:{v:.6g}" for j, v in enumerate(row, 1))
                + "\n"
                for row in rng.uniform(-1, 1, (4000, 10))
            )
        )
    out = tmp_path / "report.txt"
    started = time.monotonic()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "svmeval",
            "-v",
            "5",
            "-c",
            "32",
            "--jobs",
            jobs,
            "-o",
            str(out),
            str(data),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # a shell's background job inherits SIGINT ignored: undo that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    line = proc.stderr.readline()  # LIBSVM's chatter: wait until a fold has been trained
    while line and not line.startswith(b"optimization finished"):
        line = proc.stderr.readline()
    assert line, "the run ended before its first fold was trained"
    first_fold = time.monotonic() - started
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    stderr = proc.stderr.read()  # a report, had there been one, is a few lines: no deadlock
    stdout = proc.stdout.read()
    proc.wait()
    # at once, not when the running folds end: sooner than the first fold took, however
    # loaded the machine (both times stretch alike)
    assert time.monotonic() - sent < first_fold
    assert proc.returncode == 130
    assert stderr.decode().endswith("svmeval: interrupted\n") and b"Traceback" not in stderr
    assert stdout == b""
    assert list(tmp_path.iterdir()) == [data]


def test_score_regression_predictions(tmp_path):
    data = data_set("housing_scale")
    pred = tmp_path / "p"
    cv = svmeval("-q", "-s", "3", "-v", "5", "--predictions", pred, data)
    scored = svmeval("-s", "3", "--score", pred, data)
    assert scored.returncode == 0, scored.stderr
    # svm-predict's regression lines carry svm-train's figures
    mse = cv.stdout.splitlines()[0].split(" = ")[1]
    assert scored.stdout.splitlines()[0] == f"Mean squared error = {mse} (regression)"
    wrong = svmeval("--score", pred, data)
    assert wrong.returncode == 1
    assert wrong.stderr == (
        f"svmeval: {pred}: predictions are not class labels (not integers); "
        "give -s 3 or -s 4 to score a regression\n"
    )

"""svmeval-grid against independent oracles: LIBSVM's own CV (svm_train -v after srand(1), as
grid.py runs svm-train once per cell), scikit-learn's metrics on LIBSVM's CV predictions, and
grid.py's rules (tests/workflows/test_grid_rules.py proves those on worked examples)."""

from __future__ import annotations

import ctypes
import importlib
import json
import math
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from svmeval.cli.svmeval import parse_args
from svmeval.cv import _libsvm
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid import grid_search

import commands
from conftest import shared_file

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")

SMALL_C = (-1.0, 3.0, 2.0)
SMALL_G = (-5.0, -1.0, 2.0)


def grid_cli(*args, cwd=None):
    return commands.run("grid", args, cwd=cwd)


def params_of(options: str):
    return parse_args(options.split() + ["-v", "5", "x"]).params


def svm_train_rate(path, options):
    """What svm-train -v 5 prints for one cell (a fresh process: srand(1)), as grid.py reads it."""
    y, x = svmutil.svm_read_problem(str(path))
    _libsvm.srand(1)
    _libsvm.set_omp_threads(1)
    value = svmutil.svm_train(y, x, f"-q -v 5 {options}")
    return value


def libsvm_cv_predictions(path, options, k=5):
    y, x = svmutil.svm_read_problem(str(path))
    prob = libsvm_svm.svm_problem(y, x)
    param = libsvm_svm.svm_parameter(options + " -q")
    target = (ctypes.c_double * len(y))()
    _libsvm.srand(1)
    _libsvm.set_omp_threads(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, k, target)
    return np.array(y), np.array(target[:])


@pytest.mark.parametrize("name", ["heart_scale", "iris.scale"])
@pytest.mark.parametrize("share", [False, True])
def test_each_cell_accuracy_equals_svm_train(name, share):
    path = shared_file("data", name)
    result = grid_search(str(path), log2c=SMALL_C, log2g=SMALL_G, share=share, jobs=2)
    assert len(result.cells) == 9
    for r in result.cells:
        expected = svm_train_rate(path, f"-c {r.cell.C} -g {r.cell.gamma}")
        assert r.rate == float(f"{expected:g}"), r.cell  # grid.py's rate, in percent
        assert r.value == pytest.approx(expected / 100, abs=5e-7)  # a fraction
        assert r.figures["accuracy"] * 100 == pytest.approx(expected, abs=1e-9)
    # the best cell is grid.py's, taking these cells in its job order
    order = rules.job_order(SMALL_C, SMALL_G)
    assert [r.cell for r in result.cells] == order
    best = rules.choose_best(order, [r.rate for r in result.cells])
    assert result.best is result.cells[best]


def test_jobs_and_sharing_do_not_change_results():
    path = shared_file("data", "heart_scale")
    runs = [
        grid_search(str(path), log2c=SMALL_C, log2g=SMALL_G, criterion="mcc", jobs=j, share=s)
        for j, s in ((1, False), (2, True), (3, False))
    ]
    for other in runs[1:]:
        assert [r.value for r in other.cells] == [r.value for r in runs[0].cells]
        assert other.best.cell == runs[0].best.cell


@pytest.mark.parametrize(
    "name,criterion",
    [
        ("heart_scale", "mcc"),
        ("heart_scale", "f1"),
        ("iris.scale", "macro_f1"),
        ("iris.scale", "balanced_accuracy"),
    ],
)
def test_criterion_equals_sklearn_on_libsvm_cv_predictions(name, criterion):
    metrics = pytest.importorskip("sklearn.metrics")
    path = shared_file("data", name)
    result = grid_search(
        str(path), log2c=(1.0, 3.0, 2.0), log2g=(-3.0, -1.0, 2.0), criterion=criterion
    )
    for r in result.cells:
        y, pred = libsvm_cv_predictions(path, f"-c {r.cell.C} -g {r.cell.gamma}")
        expected = {
            "mcc": lambda: metrics.matthews_corrcoef(y, pred),
            "f1": lambda: metrics.f1_score(y, pred, pos_label=1),
            "macro_f1": lambda: metrics.f1_score(y, pred, average="macro"),
            "balanced_accuracy": lambda: metrics.balanced_accuracy_score(y, pred),
        }[criterion]()
        assert r.value == pytest.approx(expected, abs=1e-12)
    assert result.best.value == max(r.value for r in result.cells)


def test_epsilon_svr_grid_minimises_mse():
    path = shared_file("data", "housing_scale")
    result = grid_search(
        str(path),
        params_of("-s 3"),
        log2c=(0.0, 2.0, 2.0),
        log2g=(-3.0, -1.0, 2.0),
        log2p=(-3.0, -1.0, 2.0),
        share=True,
    )
    assert result.criterion == "mse" and not result.greater_is_better
    assert len(result.cells) == 8
    for r in result.cells:
        expected = svm_train_rate(path, f"-s 3 -c {r.cell.C} -g {r.cell.gamma} -p {r.cell.p}")
        assert r.value == pytest.approx(expected, rel=1e-12)
    assert result.best.value == min(r.value for r in result.cells)
    assert result.best_params.p == result.best.cell.p


def test_undefined_criterion_ranks_below_numbers(tmp_path):
    """ijcnn1's head with tiny C: +1 is never predicted, so precision is undefined (nan with
    --zero-division nan); a cell with a number must win over it."""
    path = shared_file("data", "ijcnn1.t.head1500")
    lines = path.read_text().splitlines()[:400]
    small = tmp_path / "ijcnn"
    small.write_text("\n".join(lines) + "\n")
    result = grid_search(
        str(small),
        log2c=(-5.0, 11.0, 16.0),
        log2g=(1.0, 1.0, 1.0),
        criterion="precision",
        zero_division=math.nan,
    )
    values = [r.value for r in result.cells]
    assert any(math.isnan(v) for v in values) and any(not math.isnan(v) for v in values)
    assert not math.isnan(result.best.value)


def run_cli_grid(tmp_path, *extra, name="heart_scale"):
    path = shared_file("data", name)
    out = tmp_path / "grid.out"
    done = grid_cli(
        "-log2c",
        "-1,3,2",
        "-log2g",
        "-5,-1,2",
        "-out",
        out,
        "-png",
        tmp_path / "g.png",
        *extra,
        path,
        cwd=tmp_path,
    )
    return done, out


def test_cli_stdout_and_out_file_as_grid_py(tmp_path):
    done, out = run_cli_grid(tmp_path, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 10
    order = rules.job_order(SMALL_C, SMALL_G)
    values = []
    best = None
    for cell, line in zip(order, lines):
        head, _, tail = line.partition(" (best ")
        worker, c, g, value = head.split()
        assert (worker, float(c), float(g)) == ("[local]", cell.log2c, cell.log2g)
        values.append(float(value))
        best = rules.choose_best(order[: len(values)], values)
        b = order[best]
        assert tail == f"c={2.0**b.log2c}, g={2.0**b.log2g}, rate={values[best]})"
    b = order[best]
    assert lines[-1] == f"{2.0**b.log2c} {2.0**b.log2g} {values[best]}"
    # the -out file: grid.py's lines, the values printed; it reads back to the same cells
    written = rules.read_out(str(out))
    assert set(written) == set(order)
    assert [written[c] for c in order] == values
    for line in out.read_text().splitlines():
        assert (
            line
            == rules.out_line(
                *next((c, v) for c, v in written.items() if rules.out_line(c, v) == line + "\n")
            )[:-1]
        )


def test_resume_from_a_partial_out_gives_the_uninterrupted_answer(tmp_path):
    full, out = run_cli_grid(tmp_path)
    assert full.returncode == 0
    # an interrupted run: only some cells finished (in whatever order they finished)
    kept = out.read_text().splitlines()[::3]
    partial = tmp_path / "partial.out"
    partial.write_text("\n".join(kept) + "\n")
    resumed = grid_cli(
        "-log2c",
        "-1,3,2",
        "-log2g",
        "-5,-1,2",
        "-resume",
        partial,
        "-out",
        partial,
        "-png",
        tmp_path / "r.png",
        shared_file("data", "heart_scale"),
        cwd=tmp_path,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-1] == full.stdout.splitlines()[-1]
    assert resumed.stdout.count("[resumed]") == len(kept)
    assert resumed.stdout.count("[local]") == 9 - len(kept)
    # the resumed file now holds every cell, with the uninterrupted run's values
    assert rules.read_out(str(partial)) == rules.read_out(str(out))


def test_ctrl_c_exits_130_and_resume_finishes(tmp_path):
    path = shared_file("data", "heart_scale")
    out = tmp_path / "g.out"
    args = [
        sys.executable,
        "-m",
        "svmeval.cli",
        "grid",
        "-q",
        "-log2c",
        "-1,5,2",
        "-log2g",
        "-7,1,2",
        "--jobs",
        "1",
        "-out",
        str(out),
        "-png",
        str(tmp_path / "g.png"),
        str(path),
    ]
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or not out.read_text()):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the grid finished before the interrupt")
    assert proc.returncode == 130
    # the last line says how to go on: the -out file holds the finished cells
    assert "Traceback" not in stderr and stderr.splitlines()[-1] == (
        f"svmeval-grid: interrupted (run it again with -resume {out} to continue)"
    ), stderr
    finished = rules.read_out(str(out))
    assert 1 <= len(finished) < 20
    resumed = subprocess.run(
        args[:-1] + ["-resume", str(out), str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(rules.read_out(str(out))) == 20
    whole = grid_search(str(path), log2c=(-1.0, 5.0, 2.0), log2g=(-7.0, 1.0, 2.0))
    b = whole.best
    assert (
        resumed.stdout.splitlines()[-1] == f"{b.cell.C} {b.cell.gamma} {b.rate}"
    )  # grid.py's last line


@pytest.mark.parametrize(
    "args,message",
    [
        (["-log2c", "1,5,0"], "svmeval-grid: -log2c: 1,5,0: the step is 0"),
        (["-log2c", "-5,15,-2"], "svmeval-grid: -log2c: -5,15,-2: the step goes away from the end"),
        (["-log2g", "3,-15,2"], "svmeval-grid: -log2g: 3,-15,2: the step goes away from the end"),
        (
            ["-log2c", "a,b,c"],
            "svmeval-grid: -log2c: 'a,b,c' is not begin,end,step: numbers needed",
        ),
        (["-log2c", "1,2"], "svmeval-grid: -log2c: '1,2' is not begin,end,step (or null)"),
        (
            ["-log2c", "null", "-log2g", "null"],
            "svmeval-grid: -log2c and -log2g should not be null",
        ),
        (
            ["--criterion", "bogus"],
            "svmeval-grid: unknown criterion 'bogus': valid criteria: accuracy,",
        ),
        (
            ["--criterion", "mse"],
            "svmeval-grid: criterion 'mse' does not apply for binary data: "
            "valid criteria for binary data: accuracy,",
        ),
        (
            ["--criterion", "macro_roc_auc"],
            "svmeval-grid: criterion 'macro_roc_auc' does not apply",
        ),
        (
            ["-s", "3", "--criterion", "accuracy"],
            "svmeval-grid: criterion 'accuracy' does not apply "
            "for regression data: valid criteria for "
            "regression data: mse, scc",
        ),
        (["--log2p", "0,1,0"], "svmeval-grid: --log2p: 0,1,0: the step is 0"),
        (
            ["--log2p", "-1,1,1"],
            "svmeval-grid: --log2p searches epsilon-SVR's epsilon: it needs -s 3",
        ),
        (
            ["-log2w", "3", "-1,1,1"],
            "svmeval-grid: -log2w names class 3, which the data lack (their labels: -1, 1)",
        ),
        (["-log2w", "1", "-1,1"], "svmeval-grid: -log2w: '-1,1' is not begin,end,step"),
        (["-log2w", "1", "1,2,0"], "svmeval-grid: -log2w: 1,2,0: the step is 0"),
        (["-log2w", "1"], "svmeval-grid: option -log2w needs LABEL begin,end,step"),
        (
            ["-log2w", "one", "-1,1,1"],
            "svmeval-grid: -log2w: 'one' is not a class label (an integer, as in -wLABEL)",
        ),
        (["-log2w", "1.5", "-1,1,1"], "svmeval-grid: -log2w: '1.5' is not a class label"),
        (
            ["-s", "3", "-log2w", "1", "-1,1,1"],
            "svmeval-grid: -log2w searches the weight of a class of C-SVC (-s 0)",
        ),
        (
            ["-s", "2", "-log2w", "1", "-1,1,1"],
            "svmeval-grid: -log2w searches the weight of a class of C-SVC (-s 0)",
        ),
        (
            ["-w1", "2", "-log2w", "1", "-1,1,1"],
            "svmeval-grid: -log2w searches the weight of class 1, which the configuration "
            "fixes too (-w1 2)",
        ),
        (["-c", "4"], "svmeval-grid: -c is searched: use -log2c"),
        (["-x", "1"], "svmeval-grid: unknown option: -x"),
        (["--bogus", "1"], "svmeval-grid: unknown option: --bogus"),
        (["-v", "1"], "svmeval-grid: n-fold cross validation: n must >= 2"),
        (
            ["--results", "r.txt"],
            "svmeval-grid: --results r.txt: the file name must end in .csv, .json or .html",
        ),
        (["-e", "0"], "ERROR: eps <= 0"),
    ],
)
def test_bad_arguments_one_line_exit_1_before_training(tmp_path, args, message):
    path = shared_file("data", "heart_scale")
    done = grid_cli(*args, path, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(message), done.stderr
    assert not (tmp_path / "heart_scale.out").exists()  # nothing trained, nothing written


def test_out_file_never_overwrites_the_data(tmp_path):
    data = tmp_path / "heart"
    data.write_text(shared_file("data", "heart_scale").read_text())
    done = grid_cli("-out", data, data, cwd=tmp_path)
    assert done.returncode == 1 and "refusing to write over an input" in done.stderr
    assert data.read_text() == shared_file("data", "heart_scale").read_text()


def test_results_files_and_refit_model(tmp_path):
    done, _ = run_cli_grid(
        tmp_path,
        "--criterion",
        "mcc",
        "--results",
        tmp_path / "r.json",
        "--refit",
        tmp_path / "best.model",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["criterion"] == "mcc" and len(data["cells"]) == 9
    cell = data["cells"][0]
    assert {"accuracy", "mcc", "f1", "roc_auc"} <= set(cell["figures"])
    assert set(cell["fold_spread"]["mcc"]) == {"mean", "sd"}
    best = data["best"]
    c, g, value = done.stdout.splitlines()[-1].split()
    # grid.py's lines carry %g (svm-train's rates), the results file every digit
    assert (best["C"], best["gamma"], float(f"{best['value']:g}")) == (
        float(c),
        float(g),
        float(value),
    )
    # the model svm-train writes for the best cell
    y, x = svmutil.svm_read_problem(str(shared_file("data", "heart_scale")))
    _libsvm.srand(1)
    model = svmutil.svm_train(y, x, f"-q -c {best['C']} -g {best['gamma']}")
    svmutil.svm_save_model(str(tmp_path / "libsvm.model"), model)
    assert (tmp_path / "best.model").read_bytes() == (tmp_path / "libsvm.model").read_bytes()
    done, _ = run_cli_grid(tmp_path, "--results", tmp_path / "r.csv")
    rows = (tmp_path / "r.csv").read_text().splitlines()
    assert len(rows) == 10
    head = rows[0].split(",")
    assert head[:3] == ["log2c", "log2g", "log2p"] and "mcc_fold_sd" in head


def test_png_or_one_line_saying_how_to_get_it(tmp_path):
    done, _ = run_cli_grid(tmp_path)
    assert done.returncode == 0
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        assert done.stderr.count("\n") == 1
        assert "-m pip install 'matplotlib>=3.5'" in done.stderr
    else:
        assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_help_and_console_script():
    done = grid_cli("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: svmeval-grid [grid_options] [svm_options] dataset")
    assert "-svmtrain pathname : accepted" in done.stdout
    import svmeval

    assert callable(svmeval.grid_search)


# --- defects of the library found and fixed: each test fails on the code before the fix ------
def _heart():
    from svmeval import read_dataset

    from conftest import data_set

    return read_dataset(str(data_set("heart_scale")))


def test_grid_fully_resumed_on_a_dask_address_runs_nothing():
    """Every cell known: nothing to train, so no cluster is needed (it failed with "'str'
    object has no attribute 'scatter'"); the best cell is grid.py's pick of the given values."""
    order = rules.job_order(
        rules.check_range("-log2c", SMALL_C), rules.check_range("-log2g", SMALL_G), None
    )
    values = {cell: 70.0 + k for k, cell in enumerate(order)}
    values[order[4]] = 99.0
    started = []
    result = grid_search(
        _heart(),
        log2c=SMALL_C,
        log2g=SMALL_G,
        resume=values,
        client="local:2",
        on_start=lambda: started.append(1),
    )
    assert started == [1]
    assert result.best.cell == order[4] and result.best.rate == 99.0
    assert [r.rate for r in result.cells] == [values[c] for c in order]
    assert all(r.resumed for r in result.cells)


@pytest.mark.parametrize(
    "arguments,message",
    [
        (dict(folds=2.5), "folds must be an integer, got 2.5"),
        (dict(folds="5"), "folds must be an integer, got '5'"),
        (dict(folds=1), "n-fold cross validation: n must >= 2, got folds = 1"),
        (dict(resume=[1, 2]), "resume must be a mapping of cell -> value, got list"),
        (dict(resume={rules.Cell(1.0, 1.0): "x"}), "must be a number, got 'x'"),
    ],
)
def test_grid_search_arguments_of_the_wrong_type_are_svmeval_errors(arguments, message):
    from svmeval import SvmevalError

    with pytest.raises(SvmevalError, match=message.replace("(", r"\(").replace(")", r"\)")):
        grid_search(_heart(), log2c=SMALL_C, log2g=SMALL_G, **arguments)


@pytest.mark.parametrize("seed", [-1, 2**32, 2**32 + 1, 1.0, True])
def test_grid_search_seed_outside_c_unsigned_int_is_refused(seed):
    """C srand takes an unsigned int: 0 .. 4294967295 (2**32 + 1 was accepted and wrapped)."""
    from svmeval import SvmevalError

    with pytest.raises(SvmevalError, match="seed must be an integer from 0 to 4294967295"):
        grid_search(_heart(), log2c=SMALL_C, log2g=SMALL_G, seed=seed)

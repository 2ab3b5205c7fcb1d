"""A class weight as a search axis (``log2w=(label, begin, end, step)``, ``-log2w LABEL
begin,end,step``) against independent oracles: every cell's CV is LIBSVM's own
``svm_cross_validation`` after ``srand(1)`` with that cell's ``-wLABEL W`` option string (what
svm-train -v prints for it), scikit-learn's F1 on those predictions, grid.py's update rule
(transcribed in tests/workflows/test_nested.py) over the cells taken weight by weight, and a nested CV
written with LIBSVM's bindings."""

from __future__ import annotations

import ctypes
import json

import numpy as np
import pytest

from svmeval.errors import ArgumentError
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid import grid_search
from svmeval.workflows.nested import nested_cv

import commands
from conftest import data_set, shared_file

libsvm_svm = pytest.importorskip("libsvm.svm")
svmutil = pytest.importorskip("libsvm.svmutil")

SMALL_C = (-1.0, 3.0, 2.0)
SMALL_G = (-5.0, -1.0, 2.0)


def ijcnn1_head(tmp_path, rows=1000):
    """An imbalanced real set: ijcnn1.t's first rows (911 of class -1, 89 of class 1)."""
    lines = shared_file("data", "ijcnn1.t.head1500").read_text().splitlines(True)[:rows]
    path = tmp_path / "ijcnn1_head"
    path.write_text("".join(lines))
    return path


def libsvm_cv(path, options, k=5, seed=1):
    """LIBSVM's own CV with svm-train's option string (``-w1 2`` included), after srand(seed):
    the labels and the CV predictions."""
    from svmeval.cv import _libsvm

    y, x = svmutil.svm_read_problem(str(path))
    prob = libsvm_svm.svm_problem(y, x)
    param = libsvm_svm.svm_parameter(options + " -q")
    if param.gamma == 0:
        param.gamma = 1.0 / prob.n
    target = (ctypes.c_double * len(y))()
    _libsvm.srand(seed)
    _libsvm.set_omp_threads(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, k, target)
    return np.array(y), np.array(target[:])


def options_of(cell, fixed: str = "") -> str:
    """svm-train's options of a cell, written here from its logs (not from svmeval's params)."""
    parts = [fixed] if fixed else []
    if cell.log2c is not None:
        parts.append(f"-c {2.0**cell.log2c!r}")
    if cell.log2g is not None:
        parts.append(f"-g {2.0**cell.log2g!r}")
    parts.append(f"-w{cell.w_label} {2.0**cell.log2w!r}")
    return " ".join(parts)


def grid_py_best(cells, values):
    """grid.py's update_param over the cells in order, ties needing the same gamma and
    weight (a transcription, independent of svmeval's Leader / choose_best)."""
    best = None
    for cell, value in zip(cells, values):
        if best is None or value > values[best]:
            best = cells.index(cell)
            continue
        b = cells[best]
        if (
            value == values[best]
            and (cell.log2g, cell.log2w) == (b.log2g, b.log2w)
            and cell.log2c is not None
            and cell.log2c < b.log2c
        ):
            best = cells.index(cell)
    return best


# --- every cell = svm-train with its -w option ------------------------------------------------
@pytest.mark.parametrize("share", [False, True])
def test_each_weight_cell_is_svm_trains_cv_with_its_w_option(share):
    path = data_set("heart_scale")
    result = grid_search(
        str(path), log2c=SMALL_C, log2g=SMALL_G, log2w=(-1, -1.0, 1.0, 1.0), share=share, jobs=2
    )
    assert len(result.cells) == 27
    # the C x gamma grid in grid.py's order, for each weight in turn
    plain = rules.job_order(SMALL_C, SMALL_G)
    assert [(r.cell.log2c, r.cell.log2g, r.cell.log2w) for r in result.cells] == [
        (c.log2c, c.log2g, w) for w in (-1.0, 0.0, 1.0) for c in plain
    ]
    for r in result.cells:
        y, pred = libsvm_cv(path, options_of(r.cell))
        correct = int(np.count_nonzero(y == pred))
        assert r.rate == float(f"{100.0 * correct / len(y):g}"), r.cell  # svm-train's rate
        assert r.params.weight == ((-1, 2.0**r.cell.log2w),)
    best = grid_py_best([r.cell for r in result.cells], [r.rate for r in result.cells])
    assert result.best is result.cells[best]
    assert result.best_params.weight == ((-1, result.best.cell.w),)


def test_each_weight_cell_on_imbalanced_data_by_f1_with_another_class_weight_fixed(tmp_path):
    metrics = pytest.importorskip("sklearn.metrics")
    path = ijcnn1_head(tmp_path)
    result = grid_search(
        str(path),
        "-w-1 0.5",
        log2c=(1.0, 5.0, 2.0),
        log2g=(-3.0, -1.0, 2.0),
        log2w=(1, 0.0, 3.0, 1.0),
        criterion="f1",
        jobs=2,
    )
    values = []
    for r in result.cells:
        y, pred = libsvm_cv(path, options_of(r.cell, fixed="-w-1 0.5"))
        expected = metrics.f1_score(y, pred, pos_label=1)
        assert r.value == pytest.approx(expected, abs=1e-12), r.cell
        values.append(expected)
    best = grid_py_best([r.cell for r in result.cells], [r.rate for r in result.cells])
    assert result.best is result.cells[best]
    # the weight matters on these data: at C = 2, gamma = 1/8, F1 goes from 0 (class 1 never
    # predicted) to far above it as class 1's weight grows
    line = [v for r, v in zip(result.cells, values) if (r.cell.log2c, r.cell.log2g) == (1, -3)]
    assert line[0] == 0.0 and max(line) > 0.2
    assert result.best_params.weight == ((-1, 0.5), (1, result.best.cell.w))


def test_the_weight_alone_is_a_line_of_cells_in_the_ranges_order(tmp_path):
    path = ijcnn1_head(tmp_path, rows=600)
    result = grid_search(str(path), log2c=None, log2g=None, log2w=(1, 0, 4, 1), criterion="f1")
    assert [r.cell.log2w for r in result.cells] == [0.0, 1.0, 2.0, 3.0, 4.0]
    metrics = pytest.importorskip("sklearn.metrics")
    expected = []
    for r in result.cells:
        y, pred = libsvm_cv(path, f"-w1 {2.0**r.cell.log2w!r}")  # gamma: 1/num_features
        expected.append(metrics.f1_score(y, pred, pos_label=1))
        assert r.value == pytest.approx(expected[-1], abs=1e-12)
    # ties: the first weight in the range's order wins (no C to break them)
    assert result.best is result.cells[int(np.argmax(expected))]


def test_kernels_are_shared_across_weights_and_give_the_same_cells(monkeypatch):
    """The weight does not change the kernel: one matrix per gamma serves every C and weight
    (three kernels for 27 cells); the cells are those computed without any shared matrix."""
    from svmeval.cv.run import kernel

    made = []

    class Counted(kernel.SharedKernel):
        def __init__(self, problem, params, *args, **kwargs):
            made.append(params.gamma)
            super().__init__(problem, params, *args, **kwargs)

    path = data_set("heart_scale")
    kwargs = dict(log2c=SMALL_C, log2g=SMALL_G, log2w=(1, -1, 1, 1), jobs=2)
    monkeypatch.setattr(kernel, "SharedKernel", Counted)
    shared = grid_search(str(path), share=True, **kwargs)
    assert sorted(made) == [2.0**-5, 2.0**-3, 2.0**-1]
    alone = grid_search(str(path), share=False, **kwargs)
    assert len(made) == 3
    assert [r.rate for r in shared.cells] == [r.rate for r in alone.cells]


# --- the -out file, the lines, resuming ---------------------------------------------------------
def test_out_stdout_and_last_lines_of_a_weight_cell():
    cell = rules.Cell(3.0, -5.0, log2w=1.0, w_label=1)
    other = rules.Cell(-1.0, -5.0, log2w=-2.0, w_label=1)
    assert rules.out_line(cell, 83.7037) == "log2c=3.0 log2g=-5.0 log2w1=1.0 rate=83.7037\n"
    assert rules.out_line(rules.Cell(None, None, log2w=0.5, w_label=-1), 0.25) == (
        "log2w-1=0.5 rate=0.25\n"
    )
    assert rules.stdout_line("local", other, 80.0, cell, 83.7037) == (
        "[local] -1.0 -5.0 -2.0 80.0 (best c=8.0, g=0.03125, w1=2.0, rate=83.7037)"
    )
    assert rules.last_line(cell, 83.7037) == "8.0 0.03125 2.0 83.7037"
    text = "".join(rules.out_line(c, v) for c, v in ((cell, 83.7037), (other, 80.0)))
    assert rules.parse_out(text) == {cell: 83.7037, other: 80.0}
    # a plain grid's line is another cell: never read as a weight cell
    assert rules.parse_out("log2c=3.0 log2g=-5.0 rate=83.7037\n") == {
        rules.Cell(3.0, -5.0): 83.7037
    }
    assert rules.Cell(3.0, -5.0) != cell


def grid_cli(*args, cwd):
    return commands.run("grid", ["-gnuplot", "null", *args], cwd=cwd, timeout=600)


def test_a_cut_weight_file_resumed_ends_on_the_whole_runs_answer(tmp_path):
    path = data_set("heart_scale")
    axes = ["-log2c", "-1,3,2", "-log2g", "-5,-1,2", "-log2w", "1", "-1,1,1"]
    whole = grid_cli(*axes, "-out", "whole.out", path, cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    lines = (tmp_path / "whole.out").read_text().splitlines(True)
    assert len(lines) == 27 and all(" log2w1=" in line for line in lines)
    # the stdout lines are the -out lines' cells, the best line C, gamma, w, rate
    library = grid_search(str(path), log2c=SMALL_C, log2g=SMALL_G, log2w=(1, -1.0, 1.0, 1.0))
    assert whole.stdout.splitlines()[-1] == rules.last_line(library.best.cell, library.best.rate)
    assert rules.parse_out("".join(lines)) == {r.cell: r.rate for r in library.cells}
    for k in (1, 10, 26):
        cut = tmp_path / f"cut{k}.out"
        cut.write_text("".join(lines[:k]))
        done = grid_cli(*axes, "-out", cut.name, "-resume", cut.name, path, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]
        assert sum(line.startswith("[resumed]") for line in done.stdout.splitlines()) == k
        assert rules.read_out(str(cut)) == rules.parse_out("".join(lines))


def test_weight_cells_run_gamma_by_gamma_and_a_cut_file_resumes_to_the_same_best():
    """Kernels shared one gamma at a time: each gamma's cells of every weight run together,
    out of the search's order (the -out lines get the order line); the file cut after any of
    its lines and resumed ends on the whole search's best cell, which is grid.py's rule over
    the cells in the search's order."""
    from svmeval.cv.run.kernel import matrix_bytes
    from svmeval.io.data import read_dataset
    from svmeval.params import RBF

    path = data_set("heart_scale")
    one_gamma = matrix_bytes(read_dataset(str(path)).n_samples, RBF) / 2**20
    kw = dict(
        log2c=SMALL_C,
        log2g=SMALL_G,
        log2w=(1, -1, 1, 1),
        share=True,
        kernel_memory=1.5 * one_gamma,  # one gamma's kernel at a time, not the three
    )
    lines: list = []

    def on_cell(r, best):
        if r.ahead and rules.ORDER_LINE not in lines:
            lines.append(rules.ORDER_LINE)
        lines.append(rules.out_line(r.cell, r.rate))

    whole = grid_search(str(path), on_cell=on_cell, **kw)
    assert rules.ORDER_LINE in lines  # the cells came gamma by gamma, out of order
    order = rules.job_order(SMALL_C, SMALL_G, None, (1, -1, 1, 1))
    rates = {r.cell: r.rate for r in whole.cells}
    assert whole.best.cell == order[grid_py_best(order, [rates[c] for c in order])]
    for k in (1, 5, 12, 20, len(lines) - 1):
        again = grid_search(str(path), resume=rules.parse_out("".join(lines[:k])), **kw)
        assert again.best.cell == whole.best.cell, k


@pytest.mark.parametrize(
    "written, resumed, message",
    [
        (
            ["-log2w", "1", "-1,1,1"],
            [],
            "holds cells of class 1's weight (log2w1); a search without a class weight "
            "cannot take them (resume with -log2w 1, or from another -out file)",
        ),
        (
            [],
            ["-log2w", "1", "-1,1,1"],
            "holds cells without a class weight; a search of class 1's weight (log2w1) "
            "cannot take them (resume without -log2w, or from another -out file)",
        ),
        (
            ["-log2w", "1", "-1,1,1"],
            ["-log2w", "-1", "-1,1,1"],
            "holds cells of class 1's weight (log2w1); a search of class -1's weight",
        ),
    ],
)
def test_resuming_a_file_of_another_weight_axis_is_refused_in_one_line(
    tmp_path, written, resumed, message
):
    path = data_set("heart_scale")
    grid = ["-log2c", "1,3,2", "-log2g", "-3,-1,2"]
    first = grid_cli(*grid, *written, "-out", "first.out", path, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "first.out").read_bytes()
    done = grid_cli(
        *grid, *resumed, "-out", "first.out", "-resume", "first.out", path, cwd=tmp_path
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"svmeval-grid: first.out: {message}"), done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert (tmp_path / "first.out").read_bytes() == before  # nothing appended


def test_the_library_refuses_resumed_cells_of_another_weight_axis():
    path = data_set("heart_scale")
    with pytest.raises(ArgumentError, match="holds cells without a class weight") as caught:
        grid_search(
            str(path),
            log2c=SMALL_C,
            log2g=SMALL_G,
            log2w=(1, 0, 1, 1),
            resume={rules.Cell(1.0, -1.0): 80.0},
        )
    assert caught.value.argument == "resume"


# --- bad input: typed errors in the library ------------------------------------------------
@pytest.mark.parametrize(
    "options, log2w, message",
    [
        ("", (3, 0, 1, 1), "log2w: names class 3, which the data lack (their labels: -1, 1)"),
        ("-s 3", (1, 0, 1, 1), "log2w: searches the weight of a class of C-SVC"),
        ("-s 2", (1, 0, 1, 1), "log2w: searches the weight of a class of C-SVC"),
        ("-s 1", (1, 0, 1, 1), "log2w: searches the weight of a class of C-SVC"),
        ("-w1 2", (1, 0, 1, 1), "log2w: searches the weight of class 1, which the configuration"),
        ("", ("x", 0, 1, 1), "the class label must be an integer"),
        ("", (1.5, 0, 1, 1), "the class label must be an integer"),
        ("", (1, 0, 1), "is not (label, begin, end, step)"),
        ("", (1, 0, 1, 0), "the step is 0"),
    ],
)
@pytest.mark.parametrize("run", [grid_search, nested_cv])
def test_bad_weight_arguments_are_typed_errors_before_any_fold(run, options, log2w, message):
    from svmeval.cv.run import executors

    path = data_set("heart_scale")
    with executors.recording() as record:
        with pytest.raises(ArgumentError) as caught:
            run(str(path), options, log2c=SMALL_C, log2g=SMALL_G, log2w=log2w)
    assert record == []  # nothing trained
    assert caught.value.argument == "log2w"
    assert message in str(caught.value) and str(caught.value).startswith("log2w")


# --- the reports --------------------------------------------------------------------------
def test_results_json_csv_and_frame_carry_the_weight(tmp_path):
    path = data_set("heart_scale")
    done = grid_cli(
        "-log2c", "1,3,2", "-log2g", "-3,-1,2", "-log2w", "-1", "0,1,1",
        "--results", "r.json", "-out", "null", path, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["best"]["w_label"] == -1
    assert [(c["log2w"], c["w"]) for c in data["cells"]] == [(0.0, 1.0)] * 4 + [(1.0, 2.0)] * 4
    done = grid_cli(
        "-log2c", "1,3,2", "-log2g", "-3,-1,2", "-log2w", "-1", "0,1,1",
        "--results", "r.csv", "-out", "null", path, cwd=tmp_path,
    )  # fmt: skip
    head, *rows = (tmp_path / "r.csv").read_text().splitlines()
    columns = head.split(",")
    assert columns[:9] == ["log2c", "log2g", "log2p", "log2w", "w_label", "C", "gamma", "p", "w"]
    assert {r.split(",")[4] for r in rows} == {"-1"}
    pytest.importorskip("pandas")
    result = grid_search(str(path), log2c=(1, 3, 2), log2g=(-3, -1, 2), log2w=(-1, 0, 1, 1))
    frame = result.to_frame()
    assert set(frame["w_label"]) == {-1}
    assert set(frame["configuration"]) >= {"-g 0.5 -c 2 -w-1 1", "-g 0.125 -c 8 -w-1 2"}
    # a plain grid's results have no weight column
    plain = grid_search(str(path), log2c=(1, 3, 2), log2g=(-3, -1, 2))
    assert "log2w" not in plain.to_dict()["best"] and "w" not in plain.to_frame().columns


def test_the_store_keys_each_weight_apart(tmp_path):
    """A cell of weight 1 (log2w = 0) trains as the cell without a weight, but its resolved
    parameters hold -w1 1: the store keeps it apart, and serves each run its own folds."""
    from svmeval import open_store

    path = data_set("heart_scale")
    store = tmp_path / "s.db"
    weighted = grid_search(
        str(path), log2c=(1, 1, 1), log2g=(-3, -3, 1), log2w=(1, -1, 0, 1), store=store
    )
    plain = grid_search(str(path), log2c=(1, 1, 1), log2g=(-3, -3, 1), store=store)
    with open_store(store) as opened:
        units = opened.units()
    assert sorted(u["configuration"] for u in units) == [
        "-g 0.125 -c 2",
        "-g 0.125 -c 2 -w1 0.5",
        "-g 0.125 -c 2 -w1 1",
    ]
    assert [u["folds"] for u in units] == [5, 5, 5]  # three cells' five folds, none shared
    assert plain.cells[0].rate == weighted.cells[1].rate  # -w1 1 changes nothing
    again = grid_search(
        str(path), log2c=(1, 1, 1), log2g=(-3, -3, 1), log2w=(1, -1, 0, 1), store=store
    )
    assert [r.rate for r in again.cells] == [r.rate for r in weighted.cells]


# --- nested CV --------------------------------------------------------------------------------
def test_nested_cv_with_a_weight_equals_libsvms_nested_cv(tmp_path):
    from test_nested import LIBC, grid_jobs, one_openmp_thread, svm_cpp_folds

    path = ijcnn1_head(tmp_path, rows=400)
    log2c, log2g, weights = (1.0, 3.0, 2.0), (-3.0, -1.0, 2.0), (0.0, 2.0, 1.0)
    metrics = pytest.importorskip("sklearn.metrics")
    one_openmp_thread()
    y, x = svmutil.svm_read_problem(str(path))
    LIBC.srand(1)
    perm, fold_start = svm_cpp_folds(y, 3, stratified=True)
    expected, chosen = np.empty(len(y)), []
    for i in range(3):
        b, e = fold_start[i], fold_start[i + 1]
        train, test = perm[:b] + perm[e:], perm[b:e]
        ytr, xtr = [y[j] for j in train], [x[j] for j in train]
        best = None
        for w in rules.range_f(*weights):
            for c, g in grid_jobs(log2c, log2g):
                prob = libsvm_svm.svm_problem(ytr, xtr)
                param = libsvm_svm.svm_parameter(f"-c {2.0**c} -g {2.0**g} -w1 {2.0**w} -q")
                target = (ctypes.c_double * len(ytr))()
                LIBC.srand(1)
                libsvm_svm.libsvm.svm_cross_validation(prob, param, 3, target)
                value = metrics.f1_score(ytr, np.array(target[:]), pos_label=1)
                if (
                    best is None
                    or value > best[0]
                    or (value == best[0] and (g, w) == best[2:] and c < best[1])
                ):
                    best = (value, c, g, w)
        _, c, g, w = best
        model = svmutil.svm_train(ytr, xtr, f"-c {2.0**c} -g {2.0**g} -w1 {2.0**w} -q")
        expected[test] = svmutil.svm_predict(
            [y[j] for j in test], [x[j] for j in test], model, "-q"
        )[0]
        chosen.append((c, g, w))
    result = nested_cv(
        str(path), folds=3, inner_folds=3, log2c=log2c, log2g=log2g, log2w=(1, *weights),
        criterion="f1", jobs=2,
    )  # fmt: skip
    assert [(f.cell.log2c, f.cell.log2g, f.cell.log2w) for f in result.folds] == chosen
    assert np.array_equal(result.outer.y_pred, expected)
    assert all(f.params.weight == ((1, f.cell.w),) for f in result.folds)
    assert result.to_dict()["nested"]["folds"][0]["w_label"] == 1


# --- the picture ----------------------------------------------------------------------------
def _star(ax):
    star = [line for line in ax.get_lines() if line.get_marker() == "*"][0]
    return float(star.get_xdata()[0]), float(star.get_ydata()[0])


def test_the_picture_of_a_weight_search_shows_the_planes_named_in_its_docs():
    """C, gamma and a weight: the C x gamma plane at the best weight beside the criterion over
    the weight at the best C and gamma; one of C and gamma: its plane with the weight; the
    weight alone: a line. The best cell is starred where each panel shows it."""
    pytest.importorskip("matplotlib")
    from svmeval.report.grid_plot import draw_grid

    path = data_set("heart_scale")
    full = grid_search(str(path), log2c=SMALL_C, log2g=SMALL_G, log2w=(1, -1, 1, 1))
    fig = draw_grid(full, title="heart")
    plane, line = fig.axes[0], fig.axes[1]
    best = full.best.cell
    assert (plane.get_xlabel(), plane.get_ylabel()) == ("log2(C)", "log2(gamma)")
    assert _star(plane) == (best.log2c, best.log2g)
    assert line.get_xlabel() == "log2(w1), the weight of class 1"
    assert _star(line) == (best.log2w, full.best.rate)
    xs, ys = (a.tolist() for a in line.get_lines()[0].get_data())
    at_best = {r.cell.log2w: r.rate for r in full.cells if r.cell.tie[:1] == (best.log2g,)
               and r.cell.log2c == best.log2c}  # fmt: skip
    assert dict(zip(xs, ys)) == at_best
    with_c = grid_search(str(path), log2c=SMALL_C, log2g=None, log2w=(1, -1, 1, 1))
    ax = draw_grid(with_c).axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("log2(C)", "log2(w1), the weight of class 1")
    assert _star(ax) == (with_c.best.cell.log2c, with_c.best.cell.log2w)
    alone = grid_search(str(path), log2c=None, log2g=None, log2w=(1, -1, 1, 1))
    ax = draw_grid(alone).axes[0]
    assert ax.get_xlabel() == "log2(w1), the weight of class 1"
    assert _star(ax) == (alone.best.cell.log2w, alone.best.rate)


def test_the_nested_pages_picture_names_each_folds_chosen_weight():
    """The HTML page's nested picture: the chosen (C, gamma) points, each labelled with how
    many outer folds chose it at which weight; the weight alone: a line of weights."""
    pytest.importorskip("matplotlib")
    from collections import Counter

    from svmeval.report.svg import _nested_spread

    path = data_set("heart_scale")
    for kw, x_label in (
        (dict(log2c=(1, 3, 2), log2g=(-5, -3, 2)), "log2 C"),
        (dict(log2c=None, log2g=None), "log2 weight of class 1"),
    ):
        result = nested_cv(str(path), folds=3, inner_folds=3, log2w=(1, -1, 1, 1), **kw)
        right = _nested_spread(result).axes[1]
        assert right.get_xlabel() == x_label
        shown = sorted(t.get_text() for t in right.texts)
        chosen = Counter((f.cell.log2c, f.cell.log2g, f.cell.log2w) for f in result.folds)
        if kw["log2c"] is None:
            assert shown == sorted(f"x{n}" for n in chosen.values())
        else:
            assert shown == sorted(f"x{n}, w=2^{w:g}" for (_, _, w), n in chosen.items())

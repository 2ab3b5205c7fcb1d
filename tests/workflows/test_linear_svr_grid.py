"""grid_search and nested_cv of LIBLINEAR's -s 11 (L2-loss SVR, primal): LIBLINEAR's own
search of C and p together (train -C), each (C, p) a cell with every figure. Oracles:
LIBLINEAR's train -C built from its source (its log2c/p/MSE lines and best line), a loop of
LIBLINEAR's bindings (the shuffle after srand(1), each fold warm-started at each C from its
weights at the C before, for each p in turn) with scikit-learn's and scipy's figures, and the
bindings' own train -C for the best cell and for nested_cv's inner choice."""

from __future__ import annotations

import ctypes
import math
import re
import subprocess

import numpy as np
import pytest

from conftest import data_set, libsvm_cv

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")
sk_metrics = pytest.importorskip("sklearn.metrics")
stats = pytest.importorskip("scipy.stats")

from test_linear_workflows import LIBC, ll  # noqa: E402

import svmeval  # noqa: E402
from svmeval import LinearParams  # noqa: E402

K = 3


@pytest.fixture(scope="module")
def housing():
    path = str(data_set("housing_scale"))
    y, x = ll.svm_read_problem(path)
    return path, np.array(y), x


@pytest.fixture(scope="module")
def grid(housing):
    return svmeval.grid_search(housing[0], LinearParams(solver_type=11), K)


def _shuffle(l: int, seed: int) -> list:
    """linear.cpp's find_parameters shuffle after srand(seed): perm by rand()."""
    LIBC.srand(seed)
    perm = list(range(l))
    for i in range(l):
        j = i + LIBC.rand() % (l - i)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def _bindings_search(y, x, k: int, steps) -> list:
    """Each (C, p) step's predictions by the bindings: LIBLINEAR's shuffle after srand(1),
    fold i the places i*l/k .. (i+1)*l/k, its training rows perm[:begin] + perm[end:] in that
    order (as find_parameters builds them); for each p, each fold trained at each of its Cs
    from its weights at the C before (param.init_sol; -s 11 draws no rand() while it
    trains), then predicted."""
    l = len(y)
    perm = _shuffle(l, 1)
    bounds = [i * l // k for i in range(k + 1)]
    folds = []  # each fold's training problem (the same at every step) and its test rows
    for i in range(k):
        begin, end = bounds[i], bounds[i + 1]
        train, test = perm[:begin] + perm[end:], perm[begin:end]
        problem = ll.problem([y[r] for r in train], [x[r] for r in train])
        folds.append((problem, test, [y[r] for r in test], [x[r] for r in test]))
    out, previous, last_p = [], [None] * k, None
    for C, p in steps:
        if p != last_p:
            previous, last_p = [None] * k, p
        pred = np.full(l, np.nan)
        for i, (problem, test, y_test, x_test) in enumerate(folds):
            param = ll.parameter(f"-s 11 -c {C!r} -p {p!r} -q")
            if previous[i] is not None:
                init = (ctypes.c_double * len(previous[i]))(*previous[i])
                param.init_sol = ctypes.cast(init, ctypes.POINTER(ctypes.c_double))
            model = ll.train(problem, param)
            previous[i] = [model.w[j] for j in range(model.nr_feature)]
            pred[test] = ll.predict(y_test, x_test, model, "-q")[0]
        out.append(pred)
    return out


def _scc(y, pred) -> float:
    """The squared correlation (scipy's Pearson r squared); undefined (NaN) where the
    predictions are constant."""
    if np.all(pred == pred[0]):
        return math.nan
    return float(stats.pearsonr(y, pred)[0] ** 2)


def test_every_cells_figures_are_the_bindings_warm_started_search(housing, grid):
    path, y, x = housing
    steps = [(r.cell.C, r.cell.p) for r in grid.cells]
    predictions = _bindings_search(y, x, K, steps)
    mse = [sk_metrics.mean_squared_error(y, p) for p in predictions]
    scc = [_scc(y, p) for p in predictions]
    assert [r.value for r in grid.cells] == pytest.approx(mse, rel=1e-9)
    assert [r.figures["mse"] for r in grid.cells] == pytest.approx(mse, rel=1e-9)
    assert [r.figures["scc"] for r in grid.cells] == pytest.approx(
        scc, rel=1e-9, abs=1e-12, nan_ok=True
    )
    # the p values: LIBLINEAR's 20, i * max|y| / 20, largest first, 0 included
    ps = list(dict.fromkeys(p for _, p in steps))
    assert ps == [i * float(np.max(np.abs(y))) / 20 for i in range(19, -1, -1)]
    assert all(r.cell.log2p is None and r.cell.log2g is None for r in grid.cells)
    # LIBLINEAR's own choice (the bindings' train -C): the first smallest MSE in its order
    LIBC.srand(1)
    best_C, best_p, best_mse = ll.train(ll.problem(list(y), x), f"-C -s 11 -v {K} -q")
    first = int(np.argmin(mse))
    assert (grid.best.cell.C, grid.best.cell.p) == steps[first] == (best_C, best_p)
    assert grid.best.value == pytest.approx(best_mse, rel=1e-9)
    assert grid.best_params == LinearParams(solver_type=11, C=best_C, p=best_p)


def test_another_regression_criterion_chooses_among_the_same_cells(housing, grid):
    path, y, x = housing
    g = svmeval.grid_search(path, LinearParams(solver_type=11), K, criterion="scc")
    assert [(r.cell.C, r.cell.p) for r in g.cells] == [(r.cell.C, r.cell.p) for r in grid.cells]
    values = [r.figures["scc"] for r in grid.cells]
    assert [r.value for r in g.cells] == pytest.approx(values, rel=1e-12, nan_ok=True)
    defined = [k for k in range(len(values)) if not math.isnan(values[k])]
    best = max(defined, key=lambda k: (values[k], -k))  # the first largest
    assert g.best is g.cells[best] and g.greater_is_better


def test_cells_are_train_C_lines(housing, grid, liblinear_train):
    """Every step's line of LIBLINEAR's train -C -s 11 (built from its source): log2 C, p and
    the MSE as %g, in order, and its best C, p and MSE."""
    path = housing[0]
    train = subprocess.run(
        [str(liblinear_train), "-C", "-s", "11", "-v", str(K), path],
        capture_output=True,
        check=True,
        text=True,
    )
    lines = re.findall(
        r"^log2c=\s*(\S+)\tp=\s*(\S+)\tMean squared error=(\S+)$", train.stdout, re.M
    )
    assert len(lines) == len(grid.cells)
    for (log2c, p, mse), r in zip(lines, grid.cells):
        assert (log2c, p, mse) == (f"{r.cell.log2c:.2f}", f"{r.cell.p:.2f}", f"{r.value:g}")
    best = re.search(r"^Best C = (\S+) Best p = (\S+)  CV MSE = (\S+)$", train.stdout, re.M)
    assert best is not None
    c = grid.best.cell
    assert best.groups() == (f"{c.C:g}", f"{c.p:g}", f"{grid.best.value:g}")


def test_reports_and_tables_name_p_itself(grid):
    frame = grid.to_frame()
    assert frame["log2p"].isna().all()
    assert sorted(set(frame["p"])) == sorted({r.cell.p for r in grid.cells})
    assert (frame["p"] == 0).any()  # p = 0: no log2, the value itself
    d = grid.to_dict()
    assert d["best"]["p"] == grid.best.cell.p and d["best"]["log2p"] is None
    text = svmeval.render(grid)
    first = grid.cells[0]
    assert text.splitlines()[0] == f"log2c={first.cell.log2c} p={first.cell.p} rate={first.value:g}"
    c = grid.best.cell
    assert text.splitlines()[-1] == f"{c.C} {c.p} {grid.best.value:g}"
    csv = svmeval.render(grid, format="csv").splitlines()
    head = csv[0].split(",")
    assert float(csv[1].split(",")[head.index("p")]) == first.cell.p
    assert "<svg" in svmeval.render(grid, format="html")


def test_the_picture_is_the_c_by_p_plane(grid, tmp_path):
    pytest.importorskip("matplotlib")
    from svmeval.report.grid_plot import draw_grid

    fig = draw_grid(grid, title="housing")
    ax = fig.axes[0]
    assert ax.get_xlabel() == "log2(C)" and ax.get_ylabel().startswith("p,")
    low, high = ax.get_ylim()
    ps = [r.cell.p for r in grid.cells]
    assert low < min(ps) == 0 and high > max(ps)
    assert "p = " in ax.get_title()


def test_nested_cv_of_s_11(housing):
    """Outer folds: svmeval's (a LIBSVM epsilon-SVR run's of the seed, checked against LIBSVM's
    own); inner: the bindings' train -C -s 11 after srand(seed) on the outer training rows in
    their order; the chosen C and p trained there after srand(seed) predict the test rows."""
    path, y, x = housing
    k, inner, seed = 3, 3, 2
    n = svmeval.nested_cv(path, LinearParams(solver_type=11), k, inner_folds=inner, seed=seed)
    svm = svmeval.cross_validate(path, "-s 3 -t 0", k, seed=seed)
    np.testing.assert_array_equal(svm.y_pred, libsvm_cv(path, "-s 3 -t 0", k, seed))
    want = np.full(len(y), np.nan)
    for i in range(k):
        train = svm.folds.train(i)
        test = np.flatnonzero(svm.fold == i)
        prob = ll.problem([y[r] for r in train], [x[r] for r in train])
        LIBC.srand(seed)
        best_C, best_p, mse = ll.train(prob, f"-C -s 11 -v {inner} -q")
        assert n.folds[i].params == LinearParams(solver_type=11, C=best_C, p=best_p)
        assert (n.folds[i].cell.C, n.folds[i].cell.p) == (best_C, best_p)
        assert n.folds[i].value == pytest.approx(mse, rel=1e-9)
        LIBC.srand(seed)
        model = ll.train(prob, f"-s 11 -c {best_C!r} -p {best_p!r} -q")
        want[test] = ll.predict([y[r] for r in test], [x[r] for r in test], model, "-q")[0]
    np.testing.assert_allclose(n.outer.y_pred, want, rtol=1e-12)
    assert n.summary().figures["mse"] == pytest.approx(
        sk_metrics.mean_squared_error(y, want), rel=1e-9
    )
    chosen = [f.cell.p for f in n.folds]
    assert n.spread()["p"]["mean"] == pytest.approx(np.mean(chosen))
    text = svmeval.render(n)
    assert re.search(r"^fold\s+log2c\s+p\s+inner mse$", text, re.M)
    assert math.isfinite(n.to_dict()["nested"]["folds"][0]["p"])

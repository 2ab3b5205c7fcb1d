"""The number of features as a search axis (``select=[K1, K2, ...]``, ``--select K1,K2``):
each fold's ranking against fselect.py's formula computed here and LIBSVM's bindings trained
on the selected columns; the chosen size against a loop over the sizes of
``cross_validate(select=K)`` on the same folds and grid.py's rule written here; fselect.py's
list of sizes against its ``feat_num_try`` written here; nested cross-validation against an
explicit outer loop."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_preprocess_cv import K, fselect_top

from svmeval import cross_validate, grid_search, nested_cv
from svmeval.errors import ArgumentError, InvalidParameterError

import commands
from conftest import LOCAL, data_set

svmutil = pytest.importorskip("libsvm.svmutil")

RANGES = dict(log2c=(1, 5, 2), log2g=(-1, -3, -2))


def local(name: str) -> Path:
    """A data set of the checkout's data/ (three classes: wine.scale)."""
    return LOCAL / name


def _rows(path: Path):
    y, x = svmutil.svm_read_problem(str(path))
    return list(y), list(x)


def cal_fscore(labels, rows) -> dict:
    """tools/fselect.py's cal_Fscore as it is written (features 1 to the largest index)."""
    n = float(len(rows))
    count: dict = {}
    for label in labels:
        count[label] = count.get(label, 0) + 1
    max_idx = max((f for row in rows for f in row), default=0)
    total = [0.0] * max_idx
    s = {la: [0.0] * max_idx for la in count}
    q = {la: [0.0] * max_idx for la in count}
    for label, row in zip(labels, rows):
        for f, v in row.items():
            total[f - 1] += v
            s[label][f - 1] += v
            q[label][f - 1] += v**2
    scores = {}
    for f in range(max_idx):
        sb = sum(count[la] * (s[la][f] / count[la] - total[f] / n) ** 2 for la in count)
        sw = 1e-12
        for la in count:
            sw += q[la][f] - s[la][f] ** 2 / count[la]
        scores[f + 1] = sb / sw
    return scores


def feat_num_try(scores: dict) -> list:
    """tools/fselect.py's feat_num_try over its sorted F-scores, as it is written."""
    f_tuple = sorted(scores.items(), key=lambda t: -t[1])
    for i in range(len(f_tuple)):
        if f_tuple[i][1] < 1e-20:
            i = i - 1
            break
    v = []
    max_index = i + 1
    while max_index > 1:
        v.append(max_index)
        max_index //= 2
    return v[:8]


def with_flat_features(tmp_path: Path, name: str, extra: int) -> Path:
    """``name`` with ``extra`` features past its last one that are the same in every row
    (F-score 0: fselect.py's list stops before them)."""
    lines = data_set(name).read_text().splitlines()
    m = max(int(p.split(":")[0]) for line in lines for p in line.split()[1:])
    flat = " ".join(f"{m + j}:1" for j in range(1, extra + 1))
    path = tmp_path / f"{name}_flat"
    path.write_text("".join(f"{line.rstrip()} {flat}\n" for line in lines))
    return path


@pytest.mark.parametrize("name,extra", [("heart_scale", 0), ("heart_scale", 5), ("dna.scale", 3)])
def test_fselect_word_is_fselect_py_s_list(tmp_path, name, extra):
    from svmeval.preprocess import Preprocessing, fselect_sizes

    path = with_flat_features(tmp_path, name, extra) if extra else data_set(name)
    y, x = _rows(path)
    want = feat_num_try(cal_fscore(y, x))
    from svmeval import read_dataset

    ds = read_dataset(str(path))
    learned = Preprocessing().learn(ds.indptr, ds.indices, ds.values, ds.y)
    assert list(fselect_sizes(learned.scores)) == want
    grid = grid_search(str(path), log2c=None, log2g=None, folds=3, select="fselect")
    assert [r.cell.select for r in grid.cells] == want


def _given(n: int) -> np.ndarray:
    return np.arange(n) % K + 1


def test_every_cell_is_libsvm_on_the_fold_s_own_top_k(tmp_path):
    """Each (size, C, gamma) cell: every fold ranks its own training rows by fselect.py's
    F-score (computed here), keeps the top K, and LIBSVM's bindings train and predict."""
    path = data_set("heart_scale")
    y, x = _rows(path)
    n = len(y)
    sizes = [3, 8]
    grid = grid_search(
        str(path), log2c=(1, 3, 2), log2g=(-3, -3, 1), given_folds=_given(n), select=sizes
    )
    assert [r.cell.select for r in grid.cells] == [3, 3, 8, 8]
    for r in grid.cells:
        pred = np.empty(n)
        for fold in range(K):
            train = [i for i in range(n) if i % K != fold]
            test = [i for i in range(n) if i % K == fold]
            keep = fselect_top([y[i] for i in train], [x[i] for i in train], r.cell.select)
            tx = [{f: v for f, v in x[i].items() if f in keep} for i in train]
            vx = [{f: v for f, v in x[i].items() if f in keep} for i in test]
            options = f"-c {r.cell.C!r} -g {r.cell.gamma!r} -q"
            model = svmutil.svm_train([y[i] for i in train], tx, options)
            p, _, _ = svmutil.svm_predict([y[i] for i in test], vx, model, "-q")
            pred[test] = p
        want = float(f"{100.0 * np.count_nonzero(pred == np.array(y)) / n:g}")
        assert r.rate == want, r.cell


def test_one_ranking_per_fold_serves_every_size(monkeypatch):
    import svmeval.preprocess as preprocess

    calls = []
    real = preprocess.f_scores

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(preprocess, "f_scores", counted)
    grid_search(str(data_set("heart_scale")), folds=3, select=[2, 5, 9], **RANGES)
    assert len(calls) == 3  # one ranking a fold, for 3 sizes x 4 cells


def _grid_py_best(cells, rates):
    """grid.py's update_param over the cells in their order (ties: same gamma and size,
    smaller C)."""
    best = None
    for k, (c, rate) in enumerate(zip(cells, rates)):
        if best is None or rate > rates[best]:
            best = k
        elif (
            rate == rates[best]
            and (c.log2g, c.select) == (cells[best].log2g, cells[best].select)
            and c.log2c < cells[best].log2c
        ):
            best = k
    return best


@pytest.mark.parametrize("path", [data_set("heart_scale"), local("wine.scale")])
def test_the_chosen_size_is_the_loop_over_sizes_of_cross_validate(path):
    path = str(path)
    sizes = [9, 2, 5]
    grid = grid_search(path, folds=4, select=sizes, **RANGES)
    rates = []
    for r in grid.cells:
        c = r.cell
        run = cross_validate(path, f"-c {c.C!r} -g {c.gamma!r}", 4, select=c.select, quiet=True)
        correct = np.count_nonzero(run.y_true == run.y_pred)
        rates.append(float(f"{100.0 * correct / len(run.y_true):g}"))
    assert [r.rate for r in grid.cells] == rates
    assert [r.cell.select for r in grid.cells] == [k for k in sizes for _ in range(6)]
    best = grid.cells[_grid_py_best([r.cell for r in grid.cells], rates)]
    assert grid.best is best
    assert grid.best_select == best.cell.select
    assert grid.to_dict()["best"]["select"] == best.cell.select


def test_the_size_alone_ties_keep_the_first_size_as_fselect_py():
    path = str(data_set("heart_scale"))
    sizes = [10, 6, 3]
    grid = grid_search(path, log2c=None, log2g=None, folds=5, select=sizes)
    rates = []
    for k in sizes:
        run = cross_validate(path, None, 5, select=k, quiet=True)
        correct = np.count_nonzero(run.y_true == run.y_pred)
        rates.append(float(f"{100.0 * correct / len(run.y_true):g}"))
    assert [r.rate for r in grid.cells] == rates
    assert grid.best_select == sizes[rates.index(max(rates))]  # est_acc.index(max(est_acc))


def test_one_size_keeps_today_s_search():
    path = str(data_set("heart_scale"))
    one = grid_search(path, folds=3, select=5, **RANGES)
    assert all(r.cell.select is None for r in one.cells)
    assert "select" not in one.to_dict()["best"] and "select_sizes" not in one.to_dict()
    listed = grid_search(path, folds=3, select=[5], **RANGES)
    assert [r.rate for r in listed.cells] == [r.rate for r in one.cells]
    assert listed.best_select == 5


@pytest.mark.parametrize(
    "select,error",
    [
        ([0, 5], "from 1 to"),
        ([5, 5], "twice"),
        ([], "empty"),
        ("a", "fselect"),
        ([2, 99], "size 99 is more than the data's [0-9]+ features"),
        ([2.5], "integer"),
    ],
)
def test_bad_sizes_are_refused(select, error):
    with pytest.raises((ArgumentError, InvalidParameterError), match=error):
        grid_search(str(data_set("heart_scale")), folds=3, select=select, **RANGES)


def test_a_run_of_one_configuration_takes_one_size():
    with pytest.raises(InvalidParameterError, match="give one K here"):
        cross_validate(str(data_set("heart_scale")), None, 3, select=[2, 3])


def test_sizes_need_classes():
    with pytest.raises(ArgumentError, match="C-SVC and nu-SVC"):
        grid_search(str(data_set("heart_scale")), "-s 3", folds=3, select=[2, 3], **RANGES)


def test_nested_sizes_are_an_explicit_outer_loop(tmp_path):
    """Each outer fold: the inner grid of sizes on its training rows alone, then its chosen
    size's top features ranked on those rows (fselect.py's formula, here) and LIBSVM's
    bindings with its chosen C and gamma."""
    path = data_set("heart_scale")
    lines = path.read_text().splitlines(True)
    y, x = _rows(path)
    y = np.array(y)
    sizes = [3, 9]
    result = nested_cv(str(path), folds=3, inner_folds=3, seed=2, select=sizes, **RANGES)
    for f in result.folds:
        rows = tmp_path / f"outer_train{f.fold}"
        rows.write_text("".join(lines[i] for i in f.train_rows))
        inner = grid_search(str(rows), folds=3, seed=2, select=sizes, **RANGES)
        assert f.cell == inner.best.cell and f.cell.select in sizes
        keep = fselect_top(y[f.train_rows].tolist(), [x[i] for i in f.train_rows], f.cell.select)
        tx = [{k: v for k, v in x[i].items() if k in keep} for i in f.train_rows]
        vx = [{k: v for k, v in x[i].items() if k in keep} for i in f.test_rows]
        model = svmutil.svm_train(
            y[f.train_rows].tolist(), tx, f"-c {f.params.C!r} -g {f.params.gamma!r} -q"
        )
        want, _, _ = svmutil.svm_predict(y[f.test_rows].tolist(), vx, model, "-q")
        np.testing.assert_array_equal(result.outer.y_pred[f.test_rows], want)
    nested = result.to_dict()["nested"]
    assert [g["select"] for g in nested["folds"]] == [f.cell.select for f in result.folds]
    assert "select 3,9" in nested["preprocessing"]


def test_the_store_tells_sizes_apart(tmp_path):
    from svmeval import open_store

    path = str(data_set("heart_scale"))
    store = tmp_path / "runs.db"
    ranges = dict(log2c=(1, 3, 2), log2g=(-1, -1, 1))
    with open_store(store) as s:
        first = grid_search(path, folds=3, store=s, select=[2, 6], **ranges)
        assert s.reused == 0
    with open_store(store) as s:
        again = grid_search(path, folds=3, store=s, select=[2, 6], **ranges)
        assert s.computed == 0
    assert [r.rate for r in again.cells] == [r.rate for r in first.cells]
    with open_store(store) as s:
        other = grid_search(path, folds=3, store=s, select=[4], **ranges)
        assert s.reused == 0
    with open_store(store) as s:  # one K is the same computation as that size in a list
        grid_search(path, folds=3, store=s, select=6, **ranges)
        assert s.computed == 0
    assert other.best_select == 4


# --- the command line ------------------------------------------------------------------------
ARGS = ["-v", "3", "-log2c", "1,5,2", "-log2g", "-1,-3,-2"]


def test_the_command_shows_the_size_on_every_line(tmp_path):
    path = str(data_set("heart_scale"))
    out = commands.run("grid", [*ARGS, "--select", "9,2", "-out", "h.out", path], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    want = grid_search(path, folds=3, select=[9, 2], **RANGES)
    lines = out.stdout.splitlines()
    assert len(lines) == 13
    best = want.best
    assert lines[-1] == f"{best.cell.C} {best.cell.gamma} {best.cell.select} {best.rate}"
    heads = sorted(line.split(" (best ")[0] for line in lines[:-1])
    assert heads == sorted(
        f"[local] {r.cell.log2c} {r.cell.log2g} {r.cell.select} {r.rate}" for r in want.cells
    )
    assert all(", select=" in line for line in lines[:-1])
    written = (tmp_path / "h.out").read_text().splitlines()
    assert written[0] == "# svmeval-grid preprocessing select 9,2"
    cells = [line for line in written if "rate=" in line]
    assert sorted(cells) == sorted(
        f"log2c={r.cell.log2c} log2g={r.cell.log2g} select={r.cell.select} rate={r.rate}"
        for r in want.cells
    )


def test_resuming_a_search_of_sizes_ends_on_the_same_best(tmp_path):
    path = str(data_set("heart_scale"))
    whole = commands.run("grid", [*ARGS, "--select", "9,2", "-out", "a.out", path], cwd=tmp_path)
    text = (tmp_path / "a.out").read_text().splitlines(True)
    (tmp_path / "b.out").write_text("".join(text[:8]))  # stopped part-way
    kept = sum("rate=" in line for line in text[:8])
    again = commands.run(
        "grid", [*ARGS, "--select", "9,2", "-resume", "b.out", "-out", "b.out", path], cwd=tmp_path
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]
    assert sum("[resumed]" in line for line in again.stdout.splitlines()) == kept
    plain = commands.run("grid", [*ARGS, "-resume", "a.out", "-out", "c.out", path], cwd=tmp_path)
    other = commands.run(
        "grid", [*ARGS, "--select", "9", "-resume", "a.out", "-out", "d.out", path], cwd=tmp_path
    )
    for refused in (plain, other):
        assert refused.returncode == 1 and refused.stdout == ""
        assert len(refused.stderr.splitlines()) == 1
        assert "a.out: holds cells that learned select 9,2" in refused.stderr
        assert not (tmp_path / "c.out").exists() and not (tmp_path / "d.out").exists()


def test_the_results_files_name_the_size(tmp_path):
    path = str(data_set("heart_scale"))
    args = [*ARGS, "--select", "3,7", "-out", "null", "--results"]
    out = commands.run("grid", [*args, "r.json", path], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads((tmp_path / "r.json").read_text())
    assert got["select_sizes"] == [3, 7]
    assert [c["select"] for c in got["cells"]] == [3] * 6 + [7] * 6
    out = commands.run("grid", [*args, "r.csv", path], cwd=tmp_path)
    rows = (tmp_path / "r.csv").read_text().splitlines()
    head = rows[0].split(",")
    at = head.index("select")
    assert head[at - 1] == "p" and [r.split(",")[at] for r in rows[1:]] == ["3"] * 6 + ["7"] * 6


def test_the_size_alone_and_fselect_s_list_on_the_command_line(tmp_path):
    path = str(data_set("heart_scale"))
    y, x = _rows(Path(path))
    want = feat_num_try(cal_fscore(y, x))
    args = ["-v", "3", "-log2c", "null", "-log2g", "null", "-out", "null", "-png", "null"]
    out = commands.run("grid", [*args, "--select", "fselect", path], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown = [int(line.split()[1]) for line in out.stdout.splitlines()[:-1]]
    assert shown == want
    assert out.stdout.splitlines()[-1].split()[0] == out.stdout.split("select=")[-1].split(",")[0]


@pytest.mark.parametrize(
    "value,message",
    [
        ("0,5", "option --select: '0' is out of range (1 to 2147483647)"),
        ("5,5", "option --select: '5,5' gives the size 5 twice"),
        ("a", "option --select: 'a' is not K, sizes K1,K2,... or fselect"),
        ("4,", "option --select: '4,' has an empty size"),
        ("2,40", "--select size 40 is more than the data's "),
    ],
)
def test_bad_sizes_on_the_command_line(tmp_path, value, message):
    path = str(data_set("heart_scale"))
    out = commands.run("grid", [*ARGS, "--select", value, path], cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(f"svmeval-grid: {message}")
    assert len(out.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command,args",
    [
        ("svmeval", ["-v", "3", "--select", "3,5", "DATA"]),
        ("compare", ["-v", "3", "--select", "3,5", "DATA", "--", "-c", "1", "--", "-c", "2"]),
    ],
)
def test_one_configuration_refuses_sizes(tmp_path, command, args):
    path = str(data_set("heart_scale"))
    args = [path if a == "DATA" else a for a in args]
    out = commands.run(command, args, cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert "--select 3,5: sizes are searched by svmeval-grid" in out.stderr
    assert len(out.stderr.splitlines()) == 1


def test_the_picture_is_the_best_size_s(tmp_path):
    pytest.importorskip("matplotlib")
    from svmeval.report.grid_plot import draw_grid

    grid = grid_search(str(data_set("heart_scale")), folds=3, select=[3, 9], **RANGES)
    fig = draw_grid(grid, title="heart")
    assert f"select = {grid.best_select} features" in fig.axes[0].get_title()
    alone = grid_search(str(data_set("heart_scale")), log2c=None, log2g=None, select=[3, 9])
    line = draw_grid(alone).axes[0]
    assert line.get_xlabel().startswith("select")


def test_fselect_s_empty_list_is_refused_in_one_line(tmp_path):
    # every feature the same in every row: F-score 0, fselect.py's list is empty
    (tmp_path / "flat").write_text("".join(f"{(-1) ** i} 1:1 2:0.5\n" for i in range(20)))
    for command, args in (("grid", []), ("svmeval", ["-v", "5", "--leak"])):
        out = commands.run(command, [*args, "--select", "fselect", "flat"], cwd=tmp_path)
        assert out.returncode == 1 and out.stdout == ""
        assert "--select fselect: fselect.py's list of sizes is empty" in out.stderr
        assert len(out.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flat"]

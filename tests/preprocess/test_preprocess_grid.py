"""svmeval-grid and grid_search with scaling and selection inside the folds: each cell's rate
is the accuracy of svm-scale's files (-s / -r on the fold's rows) trained and predicted by
LIBSVM's bindings with the cell's C and gamma, fold by fold (tests/preprocess/test_preprocess_cv.py's
hand pipeline)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_preprocess_cv import K, hand_pipeline

from svmeval import grid_search

import commands
from conftest import data_set


@pytest.mark.parametrize("share", [None, True])
def test_every_cell_is_the_hand_pipeline(svm_scale, tmp_path, share):
    """share=True: each fold's kernel matrix computed once from the fold's rows and shared
    by the cell's C values (as the cost model decides where it pays)."""
    path = data_set("parkinsons")
    n = len(Path(path).read_text().splitlines())
    y = np.array([float(line.split()[0]) for line in Path(path).read_text().splitlines()])
    grid = grid_search(
        str(path),
        log2c=(1, 5, 2),
        log2g=(-1, -3, -2),
        given_folds=np.arange(n) % K + 1,
        scale=(0, 1),
        select=10,
        share=share,
    )
    assert len(grid.cells) == 6
    for cell in grid.cells:
        options = f"-c {2**cell.cell.log2c:g} -g {2**cell.cell.log2g:g}"
        pred = hand_pipeline(svm_scale, tmp_path, path, options, 0, 1, select=10)
        assert cell.value == pytest.approx(np.mean(pred == y))


def test_the_store_keys_the_preprocessing(tmp_path):
    from svmeval import open_store

    path = str(data_set("svmguide1"))
    ranges = dict(log2c=(1, 3, 2), log2g=(1, 1, 1))
    store = tmp_path / "runs.db"
    plain = grid_search(path, store=store, **ranges)
    with open_store(store) as s:
        scaled = grid_search(path, store=s, scale=True, **ranges)
        assert (s.reused, s.computed) == (0, 2 * 5)
    assert [c.value for c in scaled.cells] != [c.value for c in plain.cells]
    with open_store(store) as s:
        again = grid_search(path, store=s, scale=True, **ranges)
        assert (s.reused, s.computed) == (2 * 5, 0)
    assert [c.value for c in again.cells] == [c.value for c in scaled.cells]


def test_the_command_prints_the_cells(tmp_path):
    path = data_set("svmguide1")
    args = ["-log2c", "1,3,2", "-log2g", "1,-1,-2", "-out", "null", "-png", "null"]
    out = commands.run("grid", [*args, "--scale", str(path)], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    grid = grid_search(str(path), log2c=(1, 3, 2), log2g=(1, -1, -2), scale=True)
    best = grid.best
    c, g, rate = out.stdout.splitlines()[-1].split()
    assert (float(c), float(g)) == (2**best.cell.log2c, 2**best.cell.log2g)
    assert float(rate) == pytest.approx(best.rate, abs=1e-4)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scale", "--dask", "tcp://x:1"], "svmeval-grid: --scale: not with --dask"),
        (["--select", "2", "--refit", "m"], "svmeval-grid: --select: not with --refit"),
        (["--scale-y", "0,1"], "svmeval-grid: --scale-y scales regression targets"),
        (["--leak", "--scale"], "svmeval-grid: "),
    ],
)
def test_bad_options(tmp_path, args, message):
    out = commands.run("grid", [*args, str(data_set("svmguide1"))], cwd=tmp_path)
    assert out.returncode == 1 and out.stderr.startswith(message), out.stderr
    assert out.stderr.count("\n") == 1 and not list(tmp_path.iterdir())


def test_shared_fold_kernels_are_made_once_per_fold_and_gamma(monkeypatch):
    """With share=True a grid computes one kernel matrix per fold and gamma, not per cell."""
    from svmeval.cv.run import kernel

    made = []
    real = kernel.SharedKernel.__init__

    def counting(self, features, params, **kwargs):
        made.append(params.gamma)
        real(self, features, params, **kwargs)

    monkeypatch.setattr(kernel.SharedKernel, "__init__", counting)
    grid_search(
        str(data_set("parkinsons")), log2c=(1, 5, 2), log2g=(-1, -3, -2), scale=True, share=True
    )
    assert sorted(made) == sorted([0.5] * 5 + [0.125] * 5)


RESUME = ["-log2c", "1,5,2", "-log2g", "1,1,1", "-png", "null"]


def _grid(tmp_path, *args):
    return commands.run("grid", [*RESUME, *args, str(data_set("svmguide1"))], cwd=tmp_path)


def test_resume_takes_only_the_cells_of_the_same_preprocessing(tmp_path):
    """A -out file of a search with --scale records it; resuming from it takes the same
    options, and a plain search (or another scaling) is refused in one line."""
    first = commands.run(
        "grid",
        ["-log2c", "1,3,2", "-log2g", "1,1,1", "-png", "null", "-out", "g.out", "--scale"]
        + [str(data_set("svmguide1"))],
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "g.out").read_bytes()
    assert before.startswith(b"# svmeval-grid preprocessing scale -l -1 -u 1\n")
    for extra, said in (([], "a search without preprocessing"), (["--scale-x", "0,1"], "0 -u 1")):
        out = _grid(tmp_path, "-out", "g.out", "-resume", "g.out", *extra)
        assert out.returncode == 1 and out.stdout == "", out.stderr
        assert out.stderr.count("\n") == 1 and said in out.stderr, out.stderr
        assert "holds cells that learned scale -l -1 -u 1" in out.stderr
        assert (tmp_path / "g.out").read_bytes() == before
    out = _grid(tmp_path, "-out", "g.out", "-resume", "g.out", "--scale")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("[resumed]") == 2 and out.stdout.count("[local]") == 1
    whole = grid_search(str(data_set("svmguide1")), log2c=(1, 5, 2), log2g=(1, 1, 1), scale=True)
    c, g, rate = out.stdout.splitlines()[-1].split()
    assert float(rate) == pytest.approx(whole.best.rate, abs=1e-4)
    text = (tmp_path / "g.out").read_text()
    assert text.count("# svmeval-grid preprocessing") == 1 and text.count("rate=") == 3


def test_a_plain_out_file_is_not_resumed_with_preprocessing(tmp_path):
    plain = _grid(tmp_path, "-log2c", "1,1,1", "-out", "plain.out")
    assert plain.returncode == 0, plain.stderr
    before = (tmp_path / "plain.out").read_bytes()
    assert not before.startswith(b"#")  # grid.py's file, byte for byte as before
    out = _grid(tmp_path, "-out", "plain.out", "-resume", "plain.out", "--select", "2")
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr
    assert "holds plain cells; a search learning select 2 cannot take them" in out.stderr
    # nor appended to: an -out file other than the one resumed from is checked too
    (tmp_path / "empty.out").write_text("")
    out = _grid(tmp_path, "-out", "plain.out", "-resume", "empty.out", "--scale")
    assert out.returncode == 1 and "plain.out: holds plain cells" in out.stderr, out.stderr
    assert (tmp_path / "plain.out").read_bytes() == before

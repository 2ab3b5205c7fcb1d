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
from conftest import LOCAL, data_set


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
        (["--scale-y", "0,1"], "svmeval-grid: --scale-y scales regression targets"),
        (["--leak", "--scale"], "svmeval-grid: "),
    ],
)
def test_bad_options(tmp_path, args, message):
    out = commands.run("grid", [*args, str(data_set("svmguide1"))], cwd=tmp_path)
    assert out.returncode == 1 and out.stderr.startswith(message), out.stderr
    assert out.stderr.count("\n") == 1 and not list(tmp_path.iterdir())


def test_shared_fold_kernels_are_made_once_per_fold_and_gamma(monkeypatch):
    """With share=True a grid computes one kernel matrix per fold and gamma, not per cell,
    and (RBF) each fold's distances once for every gamma; other kernels one matrix per fold
    and kernel parameters from the features."""
    from svmeval.cv.run import kernel, preprocessed

    made, distances, shared = [], [], []

    def counting(cls, log, what):
        real = cls.__init__

        def init(self, first, second, **kwargs):
            log.append(what(first, second))
            real(self, first, second, **kwargs)

        monkeypatch.setattr(cls, "__init__", init)

    counting(preprocessed.FoldKernel, made, lambda d, gamma: gamma)
    counting(preprocessed.FoldDistances, distances, lambda rows, train: len(train))
    counting(kernel.SharedKernel, shared, lambda rows, params: params.coef0)
    path = str(data_set("parkinsons"))
    grid_search(path, log2c=(1, 5, 2), log2g=(-1, -3, -2), scale=True, share=True)
    assert sorted(made) == sorted([0.5] * 5 + [0.125] * 5)
    assert len(distances) == 5 and not shared
    grid_search(path, "-t 1 -d 2", log2c=(1, 3, 2), log2g=(-1, -3, -2), scale=True, share=True)
    assert len(shared) == 10 and len(made) == 10


@pytest.mark.parametrize("name", ["parkinsons", "wine.scale", "a9a"])
def test_fold_kernels_give_the_features_bits(name):
    """Every cell's predictions and decision values trained on each fold's shared kernel
    (its distances kept for every gamma) are those of LIBSVM trained on the fold's
    preprocessed features, bit for bit (LIBSVM's folds, two classes and three, sparse rows
    kept sparse by --scale-x 0,1 and rows made dense by -1,1)."""
    from svmeval.cv import engine
    from svmeval.cv.run.evaluate import evaluate
    from svmeval.cv.run.executors import executor_for
    from svmeval.io.data import read_dataset, rows_of
    from svmeval.params import SvmParams
    from svmeval.preprocess import Preprocessing, ScaleSpec

    path = data_set(name) if name != "wine.scale" else LOCAL / name
    dataset = read_dataset(str(path))
    if dataset.n_samples > 600:
        dataset = rows_of(dataset, np.arange(600))
    candidates = [SvmParams.parse(f"-c {c} -g {g}") for g in (0.5, 0.03125) for c in (1, 8)]
    problem, _ = engine.prepare(dataset, candidates[0])
    candidates = [engine.prepare(dataset, p, problem=problem)[1] for p in candidates]
    for lower in (0.0, -1.0):
        learned = Preprocessing(ScaleSpec(lower, 1.0), 20 if name == "a9a" else None)
        runs = {}
        for share in (True, False):
            got: dict = {}
            with executor_for(2) as executor:
                evaluate(
                    dataset, problem, candidates, [3], 4, executor=executor,
                    finish=lambda u, r, got=got: got.__setitem__(u.candidate, r),
                    share=share, preprocessing=learned, keep_decision_values=True,
                )  # fmt: skip
            runs[share] = got
        for c in range(len(candidates)):
            shared, features = runs[True][c], runs[False][c]
            assert np.array_equal(shared.y_pred, features.y_pred)
            assert np.array_equal(shared.decision_values, features.decision_values)


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


def _fold_oracle(rows_csr, n_features: int, train: np.ndarray, gamma: float) -> tuple:
    """LIBSVM's RBF values of a fold's scaled rows, computed here: training's
    exp(-gamma (x_i.x_i + x_j.x_j - 2 x_i.x_j)) of every two training rows and prediction's
    exp(-gamma ||x_t - x_j||^2) of every test row to every training row, each sum taken in
    ascending feature order (numpy's elementwise products and sums, IEEE double as C's, no
    fused multiply-add; the absent features' zero terms change no sum) and exp the C
    library's (math.exp)."""
    import math

    indptr, indices, values = rows_csr
    n = len(indptr) - 1
    x = np.zeros((n, n_features + 1))
    for i in range(n):
        x[i, indices[indptr[i] : indptr[i + 1]]] = values[indptr[i] : indptr[i + 1]]
    test = np.setdiff1d(np.arange(n), train)
    a, b, t = x[train], x[train], x[test]
    dot, square, dist = np.zeros((len(a), len(b))), np.zeros(n), np.zeros((len(t), len(b)))
    for k in range(x.shape[1]):  # one feature after the other: each sum in LIBSVM's order
        dot += a[:, k, None] * b[None, :, k]
        square += x[:, k] * x[:, k]
        diff = t[:, k, None] - b[None, :, k]
        dist += diff * diff
    d_train = (square[train][:, None] + square[train][None, :]) - 2 * dot
    exp = np.vectorize(lambda v: math.exp(-gamma * v))
    return exp(d_train), exp(dist), test, d_train, dist


@pytest.mark.parametrize("lower", [0.0, -1.0])
def test_a_refilled_fold_matrix_holds_each_gammas_kernel(lower):
    """A fold's matrix refilled for the next gamma (and the next, and the first again) holds
    LIBSVM's RBF values of the fold's scaled rows (computed here) wherever the fold reads it,
    and is byte for byte the matrix a fresh one of that gamma would be."""
    from svmeval.cv.run.preprocessed import FoldDistances, FoldKernel, FoldTransform
    from svmeval.io.data import read_dataset
    from svmeval.preprocess import Preprocessing, ScaleSpec

    dataset = read_dataset(str(LOCAL / "wine.scale"))
    n = dataset.n_samples
    train = np.random.default_rng(5).permutation(n)[: 2 * n // 3].astype(np.int64)
    transform = FoldTransform(dataset, Preprocessing(ScaleSpec(lower, 1.0)))
    rows, fitted = transform.problem(train, dataset.y)
    scaled = fitted.transform(dataset.indptr, dataset.indices, dataset.values)
    distances = FoldDistances(rows, train)
    kernel = FoldKernel(distances, 0.5)
    buffer = kernel.nodes
    for gamma in (0.03125, 2.0, 0.5):
        kernel = FoldKernel(distances, gamma, reuse=kernel)
        assert kernel.nodes is buffer
        fresh = FoldKernel(distances, gamma)
        assert kernel.nodes.tobytes() == fresh.nodes.tobytes()
        k_train, k_pred, test, d_train, d_pred = _fold_oracle(
            scaled, dataset.n_features, train, gamma
        )
        assert np.array_equal(distances.dtrain, d_train)
        assert np.array_equal(distances.dpred, d_pred)
        matrix = kernel.nodes.reshape(n, n + 2)
        serials = train + 1
        assert np.array_equal(matrix["index"][:, 0], np.zeros(n))
        assert np.array_equal(matrix["value"][:, 0], np.arange(1, n + 1))
        assert np.all(matrix["index"][:, n + 1] == -1)
        for held, kernel_rows, expected in ((train, train, k_train), (test, test, k_pred)):
            block = matrix[kernel_rows][:, serials]
            assert np.all(block["index"] == serials[None, :])
            assert np.array_equal(block["value"], expected), (gamma, held is train)


def test_a_fold_matrix_nobody_uses_is_refilled_for_the_next_gamma():
    """The kernels of one fold share one matrix gamma after gamma once no unit uses the
    previous one; one still in use is left alone (the next gamma gets a new matrix), and
    the values are LIBSVM's (computed here) either way."""
    from svmeval.cv.run.preprocessed import FoldTransform
    from svmeval.io.data import read_dataset
    from svmeval.params import SvmParams
    from svmeval.preprocess import Preprocessing, ScaleSpec

    dataset = read_dataset(str(LOCAL / "wine.scale"))
    n = dataset.n_samples
    train = np.arange(0, n, 3, dtype=np.int64)
    transform = FoldTransform(dataset, Preprocessing(ScaleSpec()), share_kernels=True, memory_mb=64)
    rows, fitted = transform.problem(train, dataset.y)
    scaled = fitted.transform(dataset.indptr, dataset.indices, dataset.values)

    def params(gamma):
        return SvmParams.parse(f"-g {gamma}")

    def check(kernel, gamma):
        k_train = _fold_oracle(scaled, dataset.n_features, train, gamma)[0]
        matrix = kernel.nodes.reshape(n, n + 2)
        assert np.array_equal(matrix[train][:, train + 1]["value"], k_train)

    with transform.kernel(train, dataset.y, rows, params(0.5)) as first:
        check(first, 0.5)
        with transform.kernel(train, dataset.y, rows, params(0.5)) as again:
            assert again is first  # the C values of one gamma share it
        with transform.kernel(train, dataset.y, rows, params(0.125)) as busy:
            assert not np.shares_memory(busy.nodes, first.nodes)  # first is still in use
            check(busy, 0.125)
    buffers = {id(first.nodes), id(busy.nodes)}
    for gamma in (2.0, 0.03125, 0.5):
        with transform.kernel(train, dataset.y, rows, params(gamma)) as kernel:
            assert id(kernel.nodes) in buffers
            check(kernel, gamma)

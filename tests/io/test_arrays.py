"""Data from memory: every run takes ``(X, y)`` as well as a file, and gives what it gives on
the file.

Oracles: scikit-learn's ``load_svmlight_file`` (X and y as a research script holds them, read
from the very file the run on the file reads) and ``dump_svmlight_file`` (the file svm-train
would read for arrays in memory), LIBSVM's own ``svm_cross_validation`` on the file, and the
arrays' own values for the positions named in error messages.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from svmeval import (
    DataFormatError,
    Dataset,
    SvmevalError,
    benchmark,
    compare,
    cross_validate,
    cross_validate_multilabel,
    grid_search,
    nested_cv,
    read_dataset,
    train_and_save,
)

from conftest import DATA, HAVE_SHARED, ROOT, data_set, libsvm_cv

sklearn_datasets = pytest.importorskip("sklearn.datasets")
sp = pytest.importorskip("scipy.sparse")
pd = pytest.importorskip("pandas")


def _forms(X):
    """CSR as read, a dense array, a DataFrame of it, and a sparse DataFrame."""
    dense = X.toarray()
    return {
        "csr": X,
        "dense": dense,
        "frame": pd.DataFrame(dense, columns=[f"f{j}" for j in range(dense.shape[1])]),
        "sparse frame": pd.DataFrame.sparse.from_spmatrix(X),
    }


@pytest.mark.parametrize("name", ["heart_scale", "iris.scale"])
@pytest.mark.parametrize("form", ["csr", "dense", "frame", "sparse frame"])
def test_arrays_read_by_sklearn_give_the_file_runs_predictions(name, form):
    """X, y from load_svmlight_file of a real data set (two-class and multiclass), in every
    form a script holds them: the predictions and decision values of the run on the file,
    which are LIBSVM's own cross-validation's."""
    path = data_set(name)
    X, y = sklearn_datasets.load_svmlight_file(str(path))
    on_file = cross_validate(path, "-c 2", keep_decision_values=True)
    in_memory = cross_validate((_forms(X)[form], y), "-c 2", keep_decision_values=True)
    assert np.array_equal(in_memory.y_pred, on_file.y_pred)
    assert np.array_equal(in_memory.y_pred, libsvm_cv(path, "-c 2"))
    assert np.array_equal(in_memory.decision_values, on_file.decision_values)
    assert np.array_equal(in_memory.y_true, y)
    assert in_memory.params == on_file.params  # gamma's default: 1 / the same feature count


def _awkward_arrays(seed=0, n=120, d=9):
    """Values of at most 16 significant digits (so that dump_svmlight_file's %.16g writes them
    exactly), a third of them zero, the last column all zero (svm-train counts no feature
    there), integer labels 1..3."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 6)
    X[rng.random((n, d)) < 0.33] = 0.0
    X[:, -1] = 0.0
    X[5] = 0.0  # a sample without features
    y = rng.integers(1, 4, size=n)
    return X, y


def test_the_dataset_is_the_file_dump_svmlight_file_writes(tmp_path):
    """Column j is feature j + 1, zeros dropped, n_features the last column holding a value:
    the Dataset read back from dump_svmlight_file's file, array for array; a sparse matrix
    with stored zeros, unsorted and duplicate entries holds the same matrix."""
    X, y = _awkward_arrays()
    path = tmp_path / "dumped.txt"
    sklearn_datasets.dump_svmlight_file(X, y, str(path), zero_based=False)
    oracle = read_dataset(path)
    coo = sp.coo_matrix(X)
    rows = np.concatenate([coo.row[::-1], [0, 3]])  # reversed, a stored zero, a split value
    cols = np.concatenate([coo.col[::-1], [X.shape[1] - 1, 0]])
    vals = np.concatenate([coo.data[::-1], [0.0, 0.0]])
    half = X[3, 0] / 2 if X[3, 0] else 0.0
    vals[np.flatnonzero((rows == 3) & (cols == 0))[:1]] = half
    vals[-1] = X[3, 0] - half
    messy = sp.csr_matrix((vals, (rows, cols)), shape=X.shape)
    messy.has_canonical_format = False
    for X_in in (X, messy, X.tolist()):
        ds = Dataset.from_arrays(X_in, list(y))
        for field in ("indptr", "indices", "values", "y"):
            assert np.array_equal(getattr(ds, field), getattr(oracle, field)), field
        assert ds.n_features == oracle.n_features == X.shape[1] - 1
        assert ds.name == "(X, y)"


def test_a_run_on_arrays_is_the_run_on_the_dumped_file(tmp_path):
    X, y = _awkward_arrays(seed=1)
    path = tmp_path / "dumped.txt"
    sklearn_datasets.dump_svmlight_file(X, y, str(path), zero_based=False)
    for options in ("-c 2", "-t 0 -c 0.5", "-s 3 -p 0.2"):
        on_file = cross_validate(path, options, folds=4, keep_decision_values=True)
        in_memory = cross_validate((X, y), options, folds=4, keep_decision_values=True)
        assert np.array_equal(in_memory.y_pred, on_file.y_pred), options
        assert np.array_equal(in_memory.decision_values, on_file.decision_values), options


def test_multilabel_indicator_matrix_is_the_dumped_multilabel_file(tmp_path):
    """Y's column j is label j, as dump_svmlight_file(..., multilabel=True) writes it."""
    rng = np.random.default_rng(2)
    X, _ = _awkward_arrays(seed=2, n=90)
    Y = (rng.random((90, 4)) < 0.4).astype(np.int64)
    Y[:, 2] = 0  # a label no sample has: absent from the file too
    path = tmp_path / "dumped_ml.txt"
    sklearn_datasets.dump_svmlight_file(X, Y, str(path), zero_based=False, multilabel=True)
    on_file = cross_validate_multilabel(path, "-c 2", folds=3)
    for Y_in in (Y, sp.csr_matrix(Y), pd.DataFrame(Y), Y.astype(bool)):
        in_memory = cross_validate_multilabel((X, Y_in), "-c 2", folds=3)
        assert np.array_equal(in_memory.label_names, on_file.label_names)
        assert np.array_equal(in_memory.Y_true, on_file.Y_true)
        assert np.array_equal(in_memory.Y_pred, on_file.Y_pred)
        assert np.array_equal(in_memory.scores, on_file.scores)


@pytest.mark.skipif(
    not (HAVE_SHARED and (DATA / "yeast_train").exists()), reason="../shared/data/yeast_train"
)
def test_multilabel_arrays_read_by_sklearn_give_the_file_runs_predictions(tmp_path):
    """yeast's first 300 samples as load_svmlight_file(multilabel=True) reads them, the label
    sets as the indicator matrix of the sorted labels (scikit-learn's MultiLabelBinarizer)."""
    path = tmp_path / "yeast300"
    with open(DATA / "yeast_train") as lines:
        path.write_text("".join(next(lines) for _ in range(300)))
    X, label_sets = sklearn_datasets.load_svmlight_file(str(path), multilabel=True)
    binarizer = pytest.importorskip("sklearn.preprocessing").MultiLabelBinarizer()
    Y = binarizer.fit_transform(label_sets)
    on_file = cross_validate_multilabel(path, "-c 2", folds=3)
    in_memory = cross_validate_multilabel((X, Y), "-c 2", folds=3)
    assert np.array_equal(on_file.label_names, binarizer.classes_)
    assert np.array_equal(in_memory.label_names, np.arange(len(binarizer.classes_)))
    assert np.array_equal(in_memory.Y_true, on_file.Y_true)
    assert np.array_equal(in_memory.Y_pred, on_file.Y_pred)
    assert np.array_equal(in_memory.scores, on_file.scores)


# --- every run takes (X, y) --------------------------------------------------------------------
@pytest.fixture(scope="module")
def small():
    """breast_cancer's first 150 samples: the file and (X, y) as scikit-learn reads it."""
    path = ROOT / "data" / "breast_cancer.scale"
    X, y = sklearn_datasets.load_svmlight_file(str(path))
    return path, X, y


def _without_names(value):
    """A to_dict() with the data set's name left out (a file's name against "(X, y)")."""
    if isinstance(value, dict):
        return {
            k: _without_names(v)
            for k, v in value.items()
            if k not in ("dataset", "data_file", "data_name", "datasets")
        }
    if isinstance(value, list):
        return [_without_names(v) for v in value]
    return value


GRID = {"log2c": (-1, 3, 2), "log2g": (-3, -1, 1)}


@pytest.mark.parametrize(
    "run",
    [
        lambda data: grid_search(data, None, 3, **GRID),
        lambda data: nested_cv(data, None, 3, inner_folds=3, **GRID),
        lambda data: compare(data, "-c 1", "-t 0", 3, repeat=2),
        lambda data: cross_validate(data, "-c 4 -b 1", 3, repeat=2),
    ],
    ids=["grid_search", "nested_cv", "compare", "cross_validate -b 1, repeat"],
)
def test_every_run_on_arrays_is_the_run_on_the_file(small, run):
    path, X, y = small
    on_file, in_memory = run(path).to_dict(), run((X, y)).to_dict()
    assert json.dumps(_without_names(in_memory), sort_keys=True, default=str) == json.dumps(
        _without_names(on_file), sort_keys=True, default=str
    )


def test_benchmark_takes_arrays_named_and_unnamed(small):
    path, X, y = small
    configs = {"rbf": "-c 1", "linear": "-t 0"}
    on_file = benchmark([path, ROOT / "data" / "wine.scale"], configs, 3, repeat=2)
    X2, y2 = sklearn_datasets.load_svmlight_file(str(ROOT / "data" / "wine.scale"))
    named = Dataset.from_arrays(X2.toarray(), y2, name="wine")
    in_memory = benchmark([(X, y), named], configs, 3, repeat=2)
    assert in_memory.datasets == ("(X, y)", "wine")
    assert np.array_equal(in_memory.values, on_file.values)
    alone = benchmark((X, y), configs, 3, repeat=2)  # one data set, not a sequence of two
    assert alone.datasets == ("(X, y)",) and np.array_equal(alone.values, on_file.values[:1])
    with pytest.raises(SvmevalError, match=r"two data sets are named '\(X, y\)'.*name="):
        benchmark([(X, y), (X2, y2)], configs, 3, repeat=2)


def test_train_and_save_on_arrays_writes_the_files_model(small, tmp_path):
    path, X, y = small
    train_and_save(path, "-c 2 -b 1", tmp_path / "file.model")
    train_and_save((pd.DataFrame(X.toarray()), pd.Series(y)), "-c 2 -b 1", tmp_path / "xy.model")
    assert (tmp_path / "xy.model").read_bytes() == (tmp_path / "file.model").read_bytes()


def test_a_data_set_from_memory_is_named_in_frames_and_reports(small):
    _, X, y = small
    frame = cross_validate((X, y), folds=3).to_frame()
    assert set(frame["dataset"]) == {"(X, y)"}
    named = cross_validate(Dataset.from_arrays(X, y, name="breast cancer"), folds=3)
    assert set(named.to_frame()["dataset"]) == {"breast cancer"}
    grid = grid_search((X, y), None, 3, **GRID)
    assert set(grid.to_frame()["dataset"]) == {"(X, y)"}


# --- what cannot be a data set -----------------------------------------------------------------
def _frame_with_text():
    return pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": ["x", "y", "z"]})


NAN_AT_1_2 = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, np.nan], [1.0, 1.0, 1.0]])
Y3 = [1, -1, 1]


@pytest.mark.parametrize(
    "X, y, kwargs, message",
    [
        (NAN_AT_1_2, Y3, {}, r"^\(X, y\): X row 1, column 2: value nan is not finite"),
        (sp.csr_matrix(NAN_AT_1_2), Y3, {}, r"X row 1, column 2: value nan is not finite"),
        (pd.DataFrame(NAN_AT_1_2), Y3, {}, r"X row 1, column 2: value nan is not finite"),
        (
            pd.DataFrame({"a": [1, 2, 3], "b": pd.array([1, None, 3], dtype="Int64")}),
            Y3,
            {},
            r"X row 1, column 1: value nan is not finite",
        ),
        (
            np.array([[1.0, 0.0], [0.0, -np.inf], [2.0, 2.0]]),
            Y3,
            {"name": "mine"},
            r"^mine: X row 1, column 1: value -inf is not finite",
        ),
        ([[1, 2], [3, 4, 5], [6, 7]], Y3, {}, r"X row 1: 3 values where row 0 has 2 \(ragged"),
        ([[1, 2], [3, "a"], [6, 7]], Y3, {}, r"X row 1, column 1: value 'a' is not a number"),
        ([[1, 2], [3, None], [6, 7]], Y3, {}, r"X row 1, column 1: value None is not a number"),
        (np.ones((3, 2, 2)), Y3, {}, r"X must be 2-D .* got shape \(3, 2, 2\)"),
        (np.ones(3), Y3, {}, r"X must be 2-D .* got shape \(3,\)"),
        (None, Y3, {}, r"X must be 2-D .* got None"),
        (np.ones((3, 2)), {1: 2}, {}, r"y must be 1-D, one label a sample, got a dict"),
        (
            np.ma.masked_array(np.ones((3, 2)), mask=[[0, 0], [0, 0], [1, 0]]),
            Y3,
            {},
            r"X row 2, column 0: value is masked \(LIBSVM takes no missing values\)",
        ),
        (np.ones((3, 2)), [1, -1], {}, r"X has 3 rows but y has 2 labels"),
        (np.ones((3, 2)), [1, -1, 1, 1], {}, r"X has 3 rows but y has 4 labels"),
        (np.ones((3, 2)), np.ones((3, 1)), {}, r"y must be 1-D.*got shape \(3, 1\).*multilabel"),
        (np.ones((3, 2)), [1.0, np.nan, 1.0], {}, r"y row 1: label nan is not finite"),
        (
            np.ones((3, 2)),
            [1, "b", 1],
            {},
            r"y row 1: label 'b' \(str\) cannot be ordered with label 1 of row 0 \(int\)",
        ),
        (np.ones((3, 2)), ["a", None, "b"], {}, r"y row 1: label None is missing"),
        (np.ones((3, 2)), [1, 2j, 1], {}, r"y row 1: label 2j is a complex number"),
        (_frame_with_text(), Y3, {}, r"X column 1 \('b'\) is not numeric \(dtype (str|object)\)"),
        (
            pd.DataFrame({"a": [1.0, 2.0, 3.0], "t": pd.to_datetime(["2020"] * 3)}),
            Y3,
            {},
            r"X column 1 \('t'\) is not numeric",
        ),
        (
            np.array([[1, 0], [0, 1 + 2j], [1, 1]]),
            Y3,
            {},
            r"X row 1, column 1: value \(1\+2j\) is a complex number",
        ),
        (
            sp.csr_matrix(np.array([[1, 0], [0, 1 + 2j], [1, 1]])),
            Y3,
            {},
            r"X row 1, column 1: value \(1\+2j\) is a complex number",
        ),
        (np.zeros((0, 2)), [], {}, r"no samples"),
        (
            np.ones((3, 2)),
            np.array([[1, 0], [0, 2], [1, 1]]),
            {"multilabel": True},
            r"y row 1, column 1: 2 is not 0 or 1",
        ),
        (np.ones((3, 2)), Y3, {"multilabel": True}, r"y must be a 0/1 indicator matrix"),
        (np.ones((3, 2)), Y3, {"name": 3}, r"name must be a string"),
    ],
)
def test_bad_arrays_are_refused_naming_row_and_column(X, y, kwargs, message):
    with pytest.raises(DataFormatError, match=message):
        Dataset.from_arrays(X, y, **kwargs)


def test_bad_arrays_are_refused_by_every_run_before_any_work(small):
    _, X, y = small
    dense = X.toarray()
    dense[7, 4] = np.inf
    for run in (
        lambda d: cross_validate(d),
        lambda d: grid_search(d),
        lambda d: nested_cv(d),
        lambda d: compare(d, "-c 1", "-c 2"),
        lambda d: benchmark([d, "data/wine.scale"], ["-c 1", "-c 2"]),
        lambda d: train_and_save(d, "-c 1", "never.model"),
    ):
        with pytest.raises(DataFormatError, match=r"X row 7, column 4: value inf"):
            run((dense, y))
    with pytest.raises(SvmevalError, match=r"data as a tuple must be \(X, y\).*a tuple of 3"):
        cross_validate((X, y, y))
    with pytest.raises(SvmevalError, match=r"multi-label"):
        cross_validate_multilabel((X, y))  # y is not an indicator matrix


def test_numpy_input_loads_neither_scipy_nor_pandas():
    """import svmeval stays light, and arrays are recognised without importing SciPy or
    pandas (an object of theirs is known by its type's module)."""
    code = (
        "import sys, numpy as np, svmeval\n"
        "X = np.array([[0.5, 0.0], [0.0, 1.0], [1.0, 1.0], [0.2, 0.1]] * 5)\n"
        "r = svmeval.cross_validate((X, [1, -1, 1, -1] * 5), '-c 2', folds=2)\n"
        "print(sorted(m for m in ('scipy', 'pandas') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"

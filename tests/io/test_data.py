"""The LIBSVM-format reader: valid inputs, the shared data sets, compression, stdin, multi-label."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svmeval.errors import DataFormatError
from svmeval.io import _streams
from svmeval.io.data import Dataset, read_dataset

from conftest import DATA, HAVE_SHARED, data_set, data_sets, shared_file

# the shared data sets where ../shared holds them, else those of data/ (see conftest)
SINGLE_LABEL_FILES = data_sets(
    "a9a",
    "breast-cancer_scale",
    "dna.scale",
    "heart_scale",
    "housing_scale",
    "iris.scale",
    "letter.scale",
    "mushrooms",
    "satimage.scale",
    "svmguide1",
) + ([DATA / "ijcnn1.t.bz2"] if HAVE_SHARED else [])


def write(tmp_path: Path, content: bytes, name: str = "data") -> Path:
    p = tmp_path / name
    p.write_bytes(content)
    return p


def read(tmp_path: Path, content: bytes, **kw) -> Dataset:
    return read_dataset(write(tmp_path, content), **kw)


def rows(ds: Dataset) -> list[dict[int, float]]:
    return [
        dict(zip(ds.indices[a:b].tolist(), ds.values[a:b].tolist()))
        for a, b in zip(ds.indptr[:-1], ds.indptr[1:])
    ]


def check_invariants(ds: Dataset) -> None:
    n = ds.n_samples
    assert ds.indptr.dtype == np.int64 and ds.indices.dtype == np.int32
    assert ds.values.dtype == np.float64
    assert ds.indptr[0] == 0 and ds.indptr[-1] == len(ds.indices) == len(ds.values)
    assert np.all(np.diff(ds.indptr) >= 0)
    assert np.all(np.isfinite(ds.values))
    for a, b in zip(ds.indptr[:-1], ds.indptr[1:]):
        assert np.all(np.diff(ds.indices[a:b]) > 0)
    assert np.all(ds.indices >= 0)
    assert ds.n_features == (int(ds.indices.max()) if len(ds.indices) else 0)
    if ds.is_multilabel:
        assert ds.y is None and len(ds.label_indptr) == n + 1
        assert ds.label_indptr[-1] == len(ds.label_values)
        assert np.all(np.isfinite(ds.label_values))
    else:
        assert ds.y.dtype == np.float64 and len(ds.y) == n and np.all(np.isfinite(ds.y))


# --- valid inputs -----------------------------------------------------------------------------


def test_numbers_as_strtod_reads_them(tmp_path):
    ds = read(tmp_path, b"+1 1:1 2:-1.0 3:2.000000 4:1e-3 5:3504. 6:-.5 7:1E+2 8:0x1p3\n-1.5e0\n")
    assert ds.y.tolist() == [1.0, -1.5]
    assert rows(ds) == [
        {1: 1.0, 2: -1.0, 3: 2.0, 4: 1e-3, 5: 3504.0, 6: -0.5, 7: 100.0, 8: 8.0},
        {},
    ]
    assert ds.n_features == 8 and ds.indptr.tolist() == [0, 8, 8]
    check_invariants(ds)


def test_long_and_awkward_numbers_match_python_float(tmp_path):
    vals = [
        "0.1000000000000000055511151231257827",
        "123456789012345678901234567890",
        "2.2250738585072014e-308",
        "1.7976931348623157e308",
        "0.30000000000000004",
        "-0",
        "00012.5000",
        "9007199254740993",
        "1e22",
        "1e23",
        "123456789e-30",
    ]
    line = "0 " + " ".join(f"{i}:{v}" for i, v in enumerate(vals, 1)) + "\n"
    ds = read(tmp_path, line.encode())
    assert ds.values.tolist() == [float(v) for v in vals]
    assert np.signbit(ds.values[5])


def test_index_zero_label_only_lines_and_layout(tmp_path):
    content = b"1 0:5 3:1\n-1\n  2\t 1:2  \t\n3 +4:1 0007:2\n"
    ds = read(tmp_path, content)
    assert ds.y.tolist() == [1, -1, 2, 3]
    assert rows(ds) == [{0: 5.0, 3: 1.0}, {}, {1: 2.0}, {4: 1.0, 7: 2.0}]
    assert ds.n_features == 7
    check_invariants(ds)


@pytest.mark.parametrize(
    "content",
    [
        b"1 1:2 3:4\n-1 2:5\n",  # LF
        b"1 1:2 3:4\r\n-1 2:5\r\n",  # CRLF
        b"1 1:2 3:4 \n-1 2:5 \t\n",  # trailing blanks (a9a has a space on every line)
        b"1 1:2 3:4 \r\n-1 2:5\t\r\n",  # trailing blanks and CRLF
        b"1 1:2 3:4\n-1 2:5",  # no final newline
        b"1 1:2 3:4\r\n-1 2:5\r",  # CRLF, the last line without its LF
        b"\t1\t1:2\t3:4\n -1 2:5\n",  # leading blanks and tabs as separators
    ],
)
def test_line_endings_and_blanks(tmp_path, content):
    ds = read(tmp_path, content)
    assert ds.y.tolist() == [1.0, -1.0]
    assert rows(ds) == [{1: 2.0, 3: 4.0}, {2: 5.0}]


def test_only_labels_gives_no_features(tmp_path):
    ds = read(tmp_path, b"1\n2\n")
    assert ds.n_features == 0 and len(ds.indices) == 0 and ds.indptr.tolist() == [0, 0, 0]


def test_long_lines_and_chunk_boundaries(tmp_path, monkeypatch):
    rng = np.random.default_rng(5)
    lines = []
    for i in range(300):
        idx = np.sort(rng.choice(5000, size=rng.integers(0, 400), replace=False)) + 1
        vals = rng.normal(size=len(idx))
        lines.append(
            f"{i % 3} " + " ".join(f"{a}:{float(v)!r}" for a, v in zip(idx.tolist(), vals))
        )
    content = ("\r\n".join(lines)).encode()
    expected = read(tmp_path, content)
    for chunk in (1, 2, 7, 4096):
        monkeypatch.setattr(_streams, "CHUNK_SIZE", chunk)
        ds = read(tmp_path, content)
        assert np.array_equal(ds.y, expected.y)
        assert np.array_equal(ds.indptr, expected.indptr)
        assert np.array_equal(ds.indices, expected.indices)
        assert np.array_equal(ds.values, expected.values)
    assert rows(expected)[3] == {
        int(k): float(v) for k, v in (t.split(":") for t in lines[3].split()[1:])
    }


def test_error_line_number_after_many_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(_streams, "CHUNK_SIZE", 13)
    p = write(tmp_path, b"1 1:1 2:2\n" * 999 + b"1 1:1 2:x\n1 1:1\n")
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert err.value.line == 1000
    assert str(err.value) == f'{p}:1000: feature "2:x": value "x" is not a number'


def test_arrays_are_writable_numpy_arrays(tmp_path):
    ds = read(tmp_path, b"1 1:2\n")
    ds.values[0] = 3.0  # the buffers are handed over without a copy, and are ours
    assert ds.values[0] == 3.0


def test_pathlike_and_name(tmp_path):
    p = write(tmp_path, b"1 1:2\n")
    assert read_dataset(p).name == str(p)
    assert read_dataset(str(p)).name == str(p)


# --- compression and stdin --------------------------------------------------------------------

CONTENT = b"1 1:0.5 3:-1\n-1 2:1e-3\n"
COMPRESSORS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


@pytest.mark.parametrize("suffix", ["gz", "bz2", "xz"])
@pytest.mark.parametrize("named", [True, False])
def test_compressed_by_content_or_suffix(tmp_path, suffix, named):
    name = f"d.{suffix}" if named else "d"
    ds = read_dataset(write(tmp_path, COMPRESSORS[suffix](CONTENT), name))
    assert ds.y.tolist() == [1, -1] and rows(ds) == [{1: 0.5, 3: -1.0}, {2: 1e-3}]


def test_concatenated_gzip_members(tmp_path):
    ds = read_dataset(write(tmp_path, gzip.compress(b"1 1:1\n") + gzip.compress(b"2 2:2\n")))
    assert ds.y.tolist() == [1, 2]


def test_plain_file_with_compressed_suffix_is_an_error(tmp_path):
    p = write(tmp_path, CONTENT, "d.gz")
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert err.value.line is None
    assert str(err.value).startswith(f"{p}: cannot decompress (gzip): ")


@pytest.mark.parametrize("suffix", ["gz", "bz2", "xz"])
def test_truncated_compressed_file(tmp_path, suffix):
    blob = COMPRESSORS[suffix](CONTENT * 50)
    p = write(tmp_path, blob[: len(blob) // 2], f"d.{suffix}")
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    kind = {"gz": "gzip", "bz2": "bzip2", "xz": "xz"}[suffix]
    assert err.value.line is None
    assert str(err.value).startswith(f"{p}: cannot decompress ({kind}): ")


def _stdin_read(payload: bytes, multilabel: bool = False) -> str:
    code = (
        "from svmeval.io.data import read_dataset\n"
        "from svmeval.errors import DataFormatError\n"
        "try:\n"
        f"    ds = read_dataset('-', multilabel={multilabel})\n"
        "    print(ds.name, ds.n_samples, ds.n_features, ds.values.tolist())\n"
        "except DataFormatError as e:\n"
        "    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, check=True)
    return r.stdout.decode().strip()


def test_stdin_plain_and_compressed():
    assert _stdin_read(CONTENT) == "<stdin> 2 3 [0.5, -1.0, 0.001]"
    assert _stdin_read(gzip.compress(CONTENT)) == "<stdin> 2 3 [0.5, -1.0, 0.001]"
    assert _stdin_read(bz2.compress(CONTENT)) == "<stdin> 2 3 [0.5, -1.0, 0.001]"
    assert _stdin_read(lzma.compress(CONTENT)) == "<stdin> 2 3 [0.5, -1.0, 0.001]"
    assert _stdin_read(b"1 1:1\n\n") == "<stdin>:2: empty line (each line must hold a label)"
    assert _stdin_read(b"") == "<stdin>: no samples: the file is empty"
    assert _stdin_read(b"1") == "<stdin> 1 0 []"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("compress", [False, True])
def test_named_pipe(tmp_path, compress):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    payload = gzip.compress(CONTENT) if compress else CONTENT

    def writer():
        with open(fifo, "wb") as f:
            f.write(payload)

    t = threading.Thread(target=writer)
    t.start()
    try:
        ds = read_dataset(fifo)
    finally:
        t.join()
    assert ds.name == str(fifo) and rows(ds) == [{1: 0.5, 3: -1.0}, {2: 1e-3}]


def test_stdin_in_process(monkeypatch):
    import io

    class FakeStdin:
        buffer = io.BytesIO(b"3 2:1\n")

    monkeypatch.setattr(sys, "stdin", FakeStdin)
    ds = read_dataset("-")
    assert ds.name == "<stdin>" and ds.y.tolist() == [3.0] and rows(ds) == [{2: 1.0}]


# --- multi-label ------------------------------------------------------------------------------


def test_multilabel_lines(tmp_path):
    content = b"1,3 1:1\n2 2:1\n 3:1\n4:2 5:1\n0,5,2\n"
    ds = read(tmp_path, content, multilabel=True)
    assert ds.y is None and ds.is_multilabel
    labels = [
        ds.label_values[a:b].tolist() for a, b in zip(ds.label_indptr[:-1], ds.label_indptr[1:])
    ]
    assert labels == [[1, 3], [2], [], [], [0, 5, 2]]
    assert rows(ds) == [{1: 1.0}, {2: 1.0}, {3: 1.0}, {4: 2.0, 5: 1.0}, {}]
    assert ds.label_indptr.dtype == np.int64 and ds.label_values.dtype == np.float64
    check_invariants(ds)


def test_single_label_file_read_as_multilabel(tmp_path):
    ds = read(tmp_path, b"1 1:1\n-1 2:1\n", multilabel=True)
    assert ds.label_values.tolist() == [1, -1] and ds.label_indptr.tolist() == [0, 1, 2]


def test_comma_without_multilabel_says_so(tmp_path):
    p = write(tmp_path, b"1 1:1\n1,2 1:1\n")
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert str(err.value) == (
        f'{p}:2: label "1,2" contains a comma: the file looks multi-label; use --multilabel'
    )


# --- the shared data sets against scikit-learn and libsvm -------------------------------------


@pytest.mark.parametrize("path", SINGLE_LABEL_FILES, ids=lambda p: p.name)
def test_shared_file_matches_sklearn(path):
    from sklearn.datasets import load_svmlight_file

    ds = read_dataset(path)
    check_invariants(ds)
    zero_based = bool(len(ds.indices)) and int(ds.indices.min()) == 0
    X, y = load_svmlight_file(str(path), zero_based=zero_based, dtype=np.float64)
    X.sort_indices()
    assert np.array_equal(ds.y, y)
    assert np.array_equal(ds.indptr, X.indptr)
    assert np.array_equal(ds.indices, X.indices + (0 if zero_based else 1))
    assert np.array_equal(ds.values, X.data)
    assert ds.n_features == X.shape[1] - (1 if zero_based else 0)


def test_shared_multilabel_file_matches_sklearn():
    from sklearn.datasets import load_svmlight_file

    path = shared_file("data", "yeast_train")
    ds = read_dataset(path, multilabel=True)
    check_invariants(ds)
    X, y = load_svmlight_file(str(path), multilabel=True, zero_based=False)
    X.sort_indices()
    ours = [
        tuple(sorted(ds.label_values[a:b].tolist()))
        for a, b in zip(ds.label_indptr[:-1], ds.label_indptr[1:])
    ]
    assert ours == [tuple(t) for t in y]
    assert np.array_equal(ds.indptr, X.indptr)
    assert np.array_equal(ds.indices, X.indices + 1)
    assert np.array_equal(ds.values, X.data)
    with pytest.raises(DataFormatError, match="looks multi-label; use --multilabel"):
        read_dataset(path)


@pytest.mark.parametrize(
    "path", [p for p in SINGLE_LABEL_FILES if p.suffix != ".bz2"], ids=lambda p: p.name
)
def test_shared_file_matches_libsvm_read_problem(path):
    from libsvm.svmutil import svm_read_problem

    y, x = svm_read_problem(str(path))
    ds = read_dataset(path)
    assert ds.y.tolist() == y
    assert rows(ds) == x


CV_SCRIPT = """
import ctypes, sys
from libsvm.svm import svm_problem
from libsvm.svmutil import svm_read_problem, svm_train
from svmeval.io.data import read_dataset

path = sys.argv[1]
srand = ctypes.CDLL(None).srand
y, x = svm_read_problem(path)
srand(1)
theirs = svm_train(svm_problem(y, x), "-v 5 -q -c 4")
ds = read_dataset(path)
rows = [dict(zip(ds.indices[a:b].tolist(), ds.values[a:b].tolist()))
        for a, b in zip(ds.indptr[:-1], ds.indptr[1:])]
srand(1)
ours = svm_train(svm_problem(ds.y.tolist(), rows), "-v 5 -q -c 4")
print("RESULT", repr(theirs), repr(ours))
"""


def test_cross_validation_through_both_readers_is_identical():
    # in a child process: a fresh C rand() state, and one OpenMP thread (LIBSVM's kernel
    # threads spin for seconds on a busy machine)
    path = data_set("heart_scale")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run(
        [sys.executable, "-c", CV_SCRIPT, str(path)],
        capture_output=True,
        check=True,
        env=env,
        text=True,
    ).stdout.splitlines()
    result = [line.split() for line in out if line.startswith("RESULT ")]
    assert len(result) == 1 and result[0][1] == result[0][2], out

"""Malformed LIBSVM input: each kind of error, its exact message and its line number."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from svmeval.errors import DataFormatError
from svmeval.io.data import Dataset, check_precomputed, read_dataset

NONFINITE = "is not finite (LIBSVM cannot use NaN or infinity)"
RANGE = "is too large for a double"
UNDERFLOW = "is too small for a double (strtod underflows; svm-train refuses it)"
LABEL_UNDERFLOW = (
    "is too small for a double (strtod underflows; svm-train reads it, and LIBSVM, "
    "which groups classes by a label's integer part, trains it as class 0)"
)
ASCENDING = "(indices must be strictly ascending)"

# (id, content, line, message)
CASES = [
    ("empty-line", b"1 1:2\n\n1 1:2\n", 2, "empty line (each line must hold a label)"),
    ("blank-line", b"1 1:2\n1 1:2\n \t \n", 3, "empty line (each line must hold a label)"),
    ("empty-line-crlf", b"1 1:2\r\n\r\n", 2, "empty line (each line must hold a label)"),
    ("trailing-empty-line", b"1 1:2\n\n", 2, "empty line (each line must hold a label)"),
    ("blank-last-line", b"1 1:2\n  ", 2, "empty line (each line must hold a label)"),
    ("label-word", b"abc 1:2\n", 1, 'label "abc" is not a number'),
    ("label-trailing-junk", b"1 1:2\n2x 1:2\n", 2, 'label "2x" is not a number'),
    ("label-double-exponent", b"1e5e5 1:1\n", 1, 'label "1e5e5" is not a number'),
    ("label-nan", b"1 1:2\nnan 1:2\n", 2, f'label "nan" {NONFINITE}'),
    ("label-inf", b"-inf 1:2\n", 1, f'label "-inf" {NONFINITE}'),
    ("label-overflow", b"1e999 1:2\n", 1, f'label "1e999" {RANGE}'),
    (
        "label-comma",
        b"1,2 1:3\n",
        1,
        'label "1,2" contains a comma: the file looks multi-label; use --multilabel',
    ),
    ("label-missing", b"1:2 3:4\n", 1, 'label "1:2" is not a number (the line has no label?)'),
    ("label-binary", b"\xff\xfe 1:2\n", 1, 'label "\\xff\\xfe" is not a number'),
    ("feature-no-colon", b"1 1:2 3\n", 1, 'feature "3" is not of the form idx:val (no ":")'),
    ("feature-comment", b"1 1:2 # note\n", 1, 'feature "#" is not of the form idx:val (no ":")'),
    ("index-missing", b"1 :2\n", 1, 'feature ":2": the index before the colon is missing'),
    ("index-word", b"1 a:2\n", 1, 'feature "a:2": index "a" is not an integer'),
    ("index-fraction", b"1 1.5:2\n", 1, 'feature "1.5:2": index "1.5" is not an integer'),
    ("index-sign-only", b"1 +:1\n", 1, 'feature "+:1": index "+" is not an integer'),
    ("index-qid", b"1 qid:3 1:2\n", 1, 'feature "qid:3": index "qid" is not an integer'),
    ("index-negative", b"1 -1:2\n", 1, 'feature "-1:2": index -1 is negative'),
    (
        "index-too-large",
        b"1 3000000000:2\n",
        1,
        'feature "3000000000:2": index 3000000000 is too large (the largest is 2147483647)',
    ),
    (
        "index-descending",
        b"1 3:1 2:1\n",
        1,
        f'feature "2:1": index 2 does not follow the previous index 3 {ASCENDING}',
    ),
    (
        "index-repeated",
        b"1 1:1\n1 3:1 3:1\n",
        2,
        f'feature "3:1": index 3 does not follow the previous index 3 {ASCENDING}',
    ),
    ("value-missing", b"1 3:\n", 1, 'feature "3:": the value after the colon is missing'),
    ("value-word", b"1 3:abc\n", 1, 'feature "3:abc": value "abc" is not a number'),
    ("value-two-colons", b"1 3:1:2\n", 1, 'feature "3:1:2": value "1:2" is not a number'),
    ("value-decimal-comma", b"1 3:1,5\n", 1, 'feature "3:1,5": value "1,5" is not a number'),
    ("value-nan", b"1 3:nan\n", 1, f'feature "3:nan": value "nan" {NONFINITE}'),
    ("value-inf", b"1 3:-Infinity\n", 1, f'feature "3:-Infinity": value "-Infinity" {NONFINITE}'),
    ("value-overflow", b"1 3:1e999\n", 1, f'feature "3:1e999": value "1e999" {RANGE}'),
    ("value-underflow", b"1 3:1e-400\n", 1, f'feature "3:1e-400": value "1e-400" {UNDERFLOW}'),
    (
        "value-subnormal",
        b"1 3:4.9e-324\n",
        1,
        f'feature "3:4.9e-324": value "4.9e-324" {UNDERFLOW}',
    ),
    ("label-underflow", b"-1e-400\n", 1, f'label "-1e-400" {LABEL_UNDERFLOW}'),
    ("label-subnormal", b"1 1:1\n4.9e-324 1:2\n", 2, f'label "4.9e-324" {LABEL_UNDERFLOW}'),
    ("value-nul", b"1 1:2\x00\n", 1, 'feature "1:2\\x00": value "2\\x00" is not a number'),
    ("cr-inside-line", b"1 1:2\r2 1:3\r\n", 1, 'feature "1:2\\r2": value "2\\r2" is not a number'),
    ("crlf-error-line", b"1 1:2 \r\n2 1:x\r\n", 2, 'feature "1:x": value "x" is not a number'),
    ("tab-separated", b"1\t1:2\t\t3:x\n", 1, 'feature "3:x": value "x" is not a number'),
    ("no-final-newline", b"1 1:2\n2 1:x", 2, 'feature "1:x": value "x" is not a number'),
    (
        "long-token",
        b"1 1:" + b"9" * 100 + b"x\n",
        1,
        'feature "1:' + "9" * 55 + '...": value "' + "9" * 57 + '..." is not a number',
    ),
    ("quote-in-token", b'1 1:"2"\n', 1, 'feature "1:\\"2\\"": value "\\"2\\"" is not a number'),
]

MULTILABEL_CASES = [
    ("labelset-empty-item", b"1,,2 1:3\n", 1, 'label set "1,,2": label "" is not a number'),
    ("labelset-trailing-comma", b"1, 1:3\n", 1, 'label set "1,": label "" is not a number'),
    ("labelset-word", b"0 1:1\n1,x 1:3\n", 2, 'label set "1,x": label "x" is not a number'),
    ("labelset-nan", b"1,nan 1:3\n", 1, f'label set "1,nan": label "nan" {NONFINITE}'),
    ("labelset-overflow", b"1e400 1:3\n", 1, f'label set "1e400": label "1e400" {RANGE}'),
    (
        "labelset-underflow",
        b"2,1e-400 1:1\n",
        1,
        'label set "2,1e-400": label "1e-400" is too small for a double (strtod underflows)',
    ),
    ("labelset-then-bad-feature", b"1,2 3:x\n", 1, 'feature "3:x": value "x" is not a number'),
    ("labelset-empty-line", b"1,2 3:1\n\n", 2, "empty line (each line must hold a label)"),
]


@pytest.mark.parametrize("content,line,message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_line(tmp_path, content, line, message):
    p = tmp_path / "bad"
    p.write_bytes(content)
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert (err.value.file, err.value.line, err.value.message) == (str(p), line, message)
    assert str(err.value) == f"{p}:{line}: {message}"


@pytest.mark.parametrize(
    "content,line,message", [c[1:] for c in MULTILABEL_CASES], ids=[c[0] for c in MULTILABEL_CASES]
)
def test_malformed_multilabel_line(tmp_path, content, line, message):
    p = tmp_path / "bad"
    p.write_bytes(content)
    with pytest.raises(DataFormatError) as err:
        read_dataset(p, multilabel=True)
    assert str(err.value) == f"{p}:{line}: {message}"


def test_malformed_line_in_compressed_file(tmp_path):
    p = tmp_path / "bad.gz"
    p.write_bytes(gzip.compress(b"1 1:1\n2 2:1 1:1\n"))
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert str(err.value) == (
        f'{p}:2: feature "1:1": index 1 does not follow the previous index 2 {ASCENDING}'
    )


@pytest.mark.parametrize("content", [b"", gzip.compress(b"")], ids=["plain", "gzip"])
def test_empty_file(tmp_path, content):
    p = tmp_path / "empty"
    p.write_bytes(content)
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert err.value.line is None
    assert str(err.value) == f"{p}: no samples: the file is empty"


def test_missing_file(tmp_path):
    p = tmp_path / "nope"
    with pytest.raises(DataFormatError) as err:
        read_dataset(p)
    assert str(err.value) == f"{p}: cannot read: No such file or directory"


def test_directory(tmp_path):
    with pytest.raises(DataFormatError) as err:
        read_dataset(tmp_path)
    assert str(err.value) == f"{tmp_path}: cannot read: Is a directory"


# --- -t 4: precomputed kernels ----------------------------------------------------------------

GOOD_KERNEL = b"1 0:1 1:1 2:0.5 3:0.2\n-1 0:2 1:0.5 2:1 3:0.1\n1 0:3 1:0.2 2:0.1 3:1\n"


def kernel(tmp_path: Path, content: bytes) -> Dataset:
    p = tmp_path / "k"
    p.write_bytes(content)
    return read_dataset(p)


def test_precomputed_good(tmp_path):
    check_precomputed(kernel(tmp_path, GOOD_KERNEL))
    # serial numbers need not be in order, and columns past l are harmless
    check_precomputed(kernel(tmp_path, b"1 0:2 1:1 2:0.5 3:9\n-1 0:1 1:0.5 2:1\n"))


@pytest.mark.parametrize(
    "line2,message",
    [
        (
            b"-1 1:0.5 2:1 3:0.1",
            'the first feature must be 0:serial_number, found first feature "1:0.5"',
        ),
        (b"-1", "the first feature must be 0:serial_number, found no features"),
        (
            b"-1 0:0 1:0.5 2:1 3:0.1",
            'serial number "0:0" is not an integer in 1..3 (the number of samples)',
        ),
        (
            b"-1 0:4 1:0.5 2:1 3:0.1",
            'serial number "0:4" is not an integer in 1..3 (the number of samples)',
        ),
        (
            b"-1 0:1.5 1:0.5 2:1 3:0.1",
            'serial number "0:1.5" is not an integer in 1..3 (the number of samples)',
        ),
        (
            b"-1 0:-2 1:0.5 2:1 3:0.1",
            'serial number "0:-2" is not an integer in 1..3 (the number of samples)',
        ),
        (
            b"-1 0:2 1:0.5 3:0.1",
            "index 2 is missing; each line needs the kernel values "
            "1:K(x,x1) ... 3:K(x,x3), one per sample",
        ),
        (
            b"-1 0:2 1:0.5 2:1",
            "index 3 is missing; each line needs the kernel values "
            "1:K(x,x1) ... 3:K(x,x3), one per sample",
        ),
        (
            b"-1 0:2",
            "index 1 is missing; each line needs the kernel values "
            "1:K(x,x1) ... 3:K(x,x3), one per sample",
        ),
    ],
)
def test_precomputed_bad_second_line(tmp_path, line2, message):
    lines = GOOD_KERNEL.splitlines()
    ds = kernel(tmp_path, b"\n".join([lines[0], line2, lines[2]]) + b"\n")
    with pytest.raises(DataFormatError) as err:
        check_precomputed(ds)
    assert str(err.value) == f"{ds.name}:2: precomputed kernel: {message}"


def test_precomputed_reports_first_bad_line(tmp_path):
    ds = kernel(tmp_path, b"1 0:1 1:1\n1 0:2 1:1\n1 0:3 1:1 2:1 3:1\n")
    with pytest.raises(DataFormatError) as err:
        check_precomputed(ds)
    assert err.value.line == 1
    assert "index 2 is missing" in err.value.message


def test_precomputed_dataset_built_by_hand():
    ds = Dataset(
        y=np.array([1.0]),
        indptr=np.array([0, 2], dtype=np.int64),
        indices=np.array([0, 1], dtype=np.int32),
        values=np.array([1.0, 1.0]),
        n_features=1,
        name="mem",
    )
    check_precomputed(ds)


def test_a_subnormal_label_is_what_the_message_says_to_libsvm(tmp_path):
    """The oracle: LIBSVM's own training and cross-validation (svm-train's C code, through the
    official bindings) given the label svm-train's reader keeps (it checks no errno for a
    label). LIBSVM trains it as class 0: its rows are predicted 0, never the label itself, so
    svm-train's accuracy counts them wrong, as the message says."""
    import ctypes

    svm = pytest.importorskip("libsvm.svm")
    tiny = 4.9e-324
    assert 0 < tiny < np.finfo(float).tiny  # subnormal
    y = [1.0, 2.0, 3.0, tiny] * 10
    x = [{1: float(c), 2: 0.5 * c} for c in (1, 2, 3, 4)] * 10  # four well-separated points
    prob = svm.svm_problem(y, x)
    param = svm.svm_parameter("-q -c 10 -g 0.5")
    model = svm.libsvm.svm_train(prob, param)
    labels = (ctypes.c_int * 4)()
    svm.libsvm.svm_get_labels(model, labels)
    assert sorted(labels[:]) == [0, 1, 2, 3]  # the subnormal label became class 0
    target = (ctypes.c_double * len(y))()
    svm.libsvm.svm_cross_validation(prob, param, 5, target)
    predicted = np.array(target[:])
    assert (predicted[3::4] == 0.0).all() and tiny not in predicted
    np.testing.assert_array_equal(predicted[np.array(y) != tiny], np.array(y)[np.array(y) != tiny])
    assert np.mean(predicted == np.array(y)) == 0.75  # svm-train's accuracy: that class wrong
    p = tmp_path / "tiny"
    p.write_text("".join(f"{label!r} 1:{row[1]} 2:{row[2]}\n" for label, row in zip(y, x)))
    with pytest.raises(DataFormatError, match="trains it as class 0"):
        read_dataset(p)


def gzip_bomb(path: Path, gib: float) -> Path:
    """A gzip file of ``gib`` GiB of short valid lines: one compressed member, repeated."""
    block = b"1 1:1\n" * 699050  # 4 MiB of lines
    member = gzip.compress(block, compresslevel=9)
    path.write_bytes(member * int(gib * (1 << 30) / len(block)))
    return path


def test_a_gzip_bomb_of_short_lines_is_one_line_naming_the_file(tmp_path):
    """3 GiB of valid lines under a 2 GiB address-space limit: one line, not a MemoryError."""
    import os
    import resource
    import subprocess
    import sys

    from conftest import ROOT

    bomb = gzip_bomb(tmp_path / "bomb.gz", 3)
    limit = 2 << 30

    def pre():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "svmeval", "-q", "-v", "5", str(bomb)],
        capture_output=True,
        text=True,
        preexec_fn=pre,
        timeout=1800,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith(f"svmeval: {bomb}:")  # PROG: FILE:LINE: message
    assert "the data need more memory than is available" in lines[0]

"""Property tests of the reader: random bytes and near-valid lines never crash it, numbers parse
exactly as C strtod parses them, and valid files round-trip."""

from __future__ import annotations

import ctypes
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmeval.errors import DataFormatError
from svmeval.io import _reader
from svmeval.io.data import check_precomputed, read_dataset

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory() as d:
        yield Path(d) / "fuzz"


def read_or_error(path: Path, content: bytes, multilabel: bool):
    path.write_bytes(content)
    try:
        ds = read_dataset(path, multilabel=multilabel)
    except DataFormatError as err:
        assert err.file == str(path)
        n_lines = content.count(b"\n") + (0 if content.endswith(b"\n") else 1)
        if err.line is None:  # an empty file, or one that looks compressed and is not
            assert err.message == "no samples: the file is empty" or err.message.startswith(
                "cannot decompress"
            )
        else:
            assert 1 <= err.line <= n_lines
            assert str(err).startswith(f"{path}:{err.line}: ")
        assert err.message and err.message.isprintable()
        return None
    n = ds.n_samples
    assert n == content.count(b"\n") + (0 if content.endswith(b"\n") else 1)
    assert ds.indptr[0] == 0 and ds.indptr[-1] == len(ds.indices) == len(ds.values)
    assert np.all(np.diff(ds.indptr) >= 0) and np.all(np.isfinite(ds.values))
    assert np.all(ds.indices >= 0)
    for a, b in zip(ds.indptr[:-1], ds.indptr[1:]):
        assert np.all(np.diff(ds.indices[a:b]) > 0)
    if multilabel:
        assert ds.y is None and len(ds.label_indptr) == n + 1
    else:
        assert len(ds.y) == n and np.all(np.isfinite(ds.y))
    try:
        check_precomputed(ds)
    except DataFormatError as err:
        assert 1 <= err.line <= n
    return ds


@FUZZ
@given(content=st.binary(max_size=300), multilabel=st.booleans())
def test_random_bytes(scratch, content, multilabel):
    read_or_error(scratch, content, multilabel)


TOKENS = [
    "1",
    "-1",
    "+1",
    "0",
    "2.5",
    "1e3",
    "3504.",
    ".5",
    "-.5e-2",
    "0x1p3",
    "nan",
    "-inf",
    "1e999",
    "1e-400",
    "1,2",
    "1,",
    ",",
    "",
    "x",
    "#",
    "qid:1",
    "1:1",
    "0:3",
    "2:-1",
    "3:",
    ":4",
    "-2:1",
    "7:x",
    "2:nan",
    "9:1e999",
    "1:2:3",
    "99999999999:1",
    "+5:1",
    "-0:1",
    "4:0x10",
    "5:1,5",
    "\x00",
    "\xff",
    "\r",
    "3:1\r",
]
SEPARATORS = [" ", "\t", "  ", " \t"]


@st.composite
def near_valid_file(draw):
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        toks = draw(st.lists(st.sampled_from(TOKENS), max_size=6))
        line = ""
        for t in toks:
            line += draw(st.sampled_from(SEPARATORS)) + t if line else t
        if draw(st.booleans()):
            line = draw(st.sampled_from(SEPARATORS)) + line
        if draw(st.booleans()):
            line += draw(st.sampled_from(SEPARATORS))
        lines.append(line)
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines)
    if lines and draw(st.booleans()):
        text += ending
    return text.encode("latin-1")


@FUZZ
@given(content=near_valid_file(), multilabel=st.booleans())
def test_near_valid_lines(scratch, content, multilabel):
    read_or_error(scratch, content, multilabel)


# strtod reports ERANGE for subnormal numbers, which the reader refuses as svm-train does
finite = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda v: v == 0 or 1e-300 < abs(v) < 1e300
)


@st.composite
def valid_file(draw):
    n = draw(st.integers(1, 8))
    ys, rows, lines = [], [], []
    for _ in range(n):
        y = draw(finite)
        idx = sorted(draw(st.sets(st.integers(0, 2**31 - 1), max_size=6)))
        vals = [draw(finite) for _ in idx]
        fmt = draw(st.sampled_from(["{!r}", "{:.17g}", "{:.3e}", "{:+.20f}"]))
        text = [fmt.format(v) for v in vals]
        ys.append(y)
        rows.append(dict(zip(idx, [float(t) for t in text])))
        lines.append(" ".join([repr(y)] + [f"{i}:{t}" for i, t in zip(idx, text)]))
    ending = draw(st.sampled_from(["\n", "\r\n", " \n", "\t\r\n"]))
    return (ending.join(lines) + draw(st.sampled_from(["", ending]))).encode(), ys, rows


@FUZZ
@given(case=valid_file())
def test_valid_files_round_trip(scratch, case):
    content, ys, rows = case
    ds = read_or_error(scratch, content, False)
    assert ds is not None
    assert ds.y.tolist() == ys
    got = [
        dict(zip(ds.indices[a:b].tolist(), ds.values[a:b].tolist()))
        for a, b in zip(ds.indptr[:-1], ds.indptr[1:])
    ]
    assert got == rows
    assert ds.n_features == max((max(r) for r in rows if r), default=0)


# --- numbers: the reader's conversion is C strtod's -------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)
_strtod = _libc.strtod
_strtod.restype = ctypes.c_double
_strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]


def libc_strtod(text: bytes):
    """(value, status) as the reader defines status, computed by the C library's strtod."""
    buf = ctypes.create_string_buffer(text)
    end = ctypes.c_char_p()
    ctypes.set_errno(0)
    v = _strtod(buf, ctypes.byref(end))
    err = ctypes.get_errno()
    consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
    if not text or text[:1].isspace() or consumed != len(text):
        return None, 1
    return v, (3 if abs(v) < 1 else 2) if err else 0


decimal_text = st.from_regex(r"\A[+-]?(\d{0,25}(\.\d{0,25})?)([eE][+-]?\d{1,4})?\Z", fullmatch=True)


@settings(max_examples=1000, deadline=None)
@given(text=st.one_of(decimal_text, st.text(alphabet="0123456789.eE+-xXpPaAnNiIfF", max_size=12)))
def test_numbers_parse_as_strtod(text):
    raw = text.encode()
    value, status = _reader.parse_number(raw)
    want_value, want_status = libc_strtod(raw)
    assert status == want_status, text
    if status != 1:
        assert value == want_value or (math.isnan(value) and math.isnan(want_value)), text
        assert math.copysign(1, value) == math.copysign(1, want_value), text


@settings(max_examples=500, deadline=None)
@given(x=finite)
def test_shortest_repr_round_trips(x):
    for text in (repr(x), f"{x:.17g}", f"{x:.6f}", f"{x:e}"):
        value, status = _reader.parse_number(text.encode())
        if status == 0:
            assert value == float(text)
        else:  # only an underflow to a subnormal or zero reports ERANGE
            assert status == 3 and abs(float(text)) < 2.2250738585072014e-308


def test_numbers_ignore_the_process_locale():
    import locale

    old = locale.setlocale(locale.LC_NUMERIC)
    for name in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", "fr_FR"):
        try:
            locale.setlocale(locale.LC_NUMERIC, name)
            break
        except locale.Error:
            continue
    else:
        pytest.skip("no locale with a decimal comma is installed")
    try:
        assert locale.localeconv()["decimal_point"] == ","
        assert _reader.parse_number(b"1.5e-300") == (1.5e-300, 0)  # the strtod path
        assert _reader.parse_number(b"2.5") == (2.5, 0)
        assert _reader.parse_number(b"2,5")[1] == 1
    finally:
        locale.setlocale(locale.LC_NUMERIC, old)


# --- mutated LIBSVM files: the reader and the command line ------------------------------------

import random  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

SEED_FILE = Path(__file__).resolve().parents[2] / "data" / "breast_cancer.scale"
INSERTS = [
    b"nan",
    b"inf",
    b"1e999",
    b"1e-400",
    b"-",
    b":",
    b",",
    b"\n",
    b"\r",
    b"\t",
    b" ",
    b"\x00",
    b"\xff",
    b"2147483648",
    b"99999999999",
    b"4294967296",
    b"0x1p3",
    b"#",
    b"1:1",
    b"0:0",
    b"\xe2\x80\x83",
    b"\x1b[31m",
    b"1_0",
]


def mutate(rng: random.Random, base: bytes) -> bytes:
    """A few random edits of a valid file: bytes flipped, dropped, duplicated, inserted."""
    data = bytearray(base)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(data) + 1)
        op = rng.randrange(5)
        if op == 0 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            del data[pos : pos + rng.randint(1, 8)]
        elif op == 2:
            data[pos:pos] = rng.choice(INSERTS)
        elif op == 3:
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
        else:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
    return bytes(data)


def small_base(rng: random.Random) -> bytes:
    lines = SEED_FILE.read_bytes().splitlines(keepends=True)
    start = rng.randrange(len(lines) - 12)
    return b"".join(lines[start : start + rng.randint(2, 12)])


def test_mutated_files_read_or_fail_on_one_line(scratch):
    """Deterministic mutations (seed 20240), a few seconds at most."""
    rng = random.Random(20240)
    deadline = time.monotonic() + 4.0
    for _ in range(3000):
        if time.monotonic() > deadline:
            break
        content = mutate(rng, small_base(rng))
        read_or_error(scratch, content, rng.random() < 0.2)


def _one_refusal_line(name: str, done) -> None:
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1), done.stderr
    if done.returncode == 1:
        assert done.stderr.count("\n") == 1, done.stderr
        line = done.stderr
        if line.startswith(name + ":"):  # a data error: FILE:LINE: message
            assert re.match(re.escape(name) + r":\d+: \S", line), line
        else:
            assert line.startswith(("svmeval: ", "ERROR: ")), line


def test_mutated_files_through_the_command_line(tmp_path):
    """The CLI in-process on deterministic mutations (time-bounded), then a few as a process:
    exit 0, or one line on stderr and exit 1; a data refusal is FILE:LINE:."""
    from svmeval.cli import svmeval as cli

    rng = random.Random(777)
    path = tmp_path / "mutated"
    deadline = time.monotonic() + 4.0
    runs = 0
    while time.monotonic() < deadline and runs < 200:
        path.write_bytes(mutate(rng, small_base(rng)))
        args = ["-q", "-v", str(rng.choice([2, 3, 5])), "--format", "json", str(path)]
        err = _Capture()
        out = _Capture()
        old = sys.stderr, sys.stdout
        sys.stderr, sys.stdout = err, out
        try:
            rc = cli.main(args)
        finally:
            sys.stderr, sys.stdout = old
        _one_refusal_line(str(path), subprocess.CompletedProcess(args, rc, out.text, err.text))
        runs += 1
    assert runs >= 1
    for _ in range(3):
        path.write_bytes(mutate(rng, small_base(rng)))
        done = subprocess.run(
            [sys.executable, "-m", "svmeval", "-q", "-v", "3", str(path)],
            capture_output=True,
            text=True,
        )
        _one_refusal_line(str(path), done)


class _Capture:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s
        return len(s)

    def flush(self):
        pass

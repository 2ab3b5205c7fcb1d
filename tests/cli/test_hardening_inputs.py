"""Hostile input, one class of fault at a time: numbers as C reads them and range-checked, nothing
invalid reaching LIBSVM, true one-line messages, typed API errors, bounded lines.

Oracles: the C library (atoi, strtod, srand/rand, the range of a C int through ctypes), LIBSVM's
own svm_cross_validation, and the round trip of what svmeval writes."""

from __future__ import annotations

import ctypes
import gzip
import math
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmeval.cli.svmeval import Options, parse_args
from svmeval.cv import _libsvm
from svmeval.cv.engine import cross_validate, repetition_seeds, run_cv
from svmeval.cv.plan.folds import group_classes, libsvm_folds
from svmeval.cv.training import train_and_save
from svmeval.errors import (
    DataFormatError,
    OptionError,
    ParameterError,
    SvmevalError,
    show_label,
    show_path,
)
from svmeval.io.data import Dataset, read_dataset
from svmeval.io.predictions import format_predictions, read_predictions
from svmeval.params import SvmParams

import commands
from conftest import ROOT

SMALL = ROOT / "data" / "breast_cancer.scale"

_libc = ctypes.CDLL(None)
_libc.atoi.argtypes = [ctypes.c_char_p]
_libc.atoi.restype = ctypes.c_int
_libc.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
_libc.strtod.restype = ctypes.c_double
_libc.srand.argtypes = [ctypes.c_uint]
_libc.rand.restype = ctypes.c_int


def fits_c_int(v: int) -> bool:
    return ctypes.c_int(v).value == v


def c_strtod_whole(text: str):
    """strtod's value when it consumes the whole ASCII text, else None."""
    if not text.isascii() or not text or text[0].isspace():
        return None
    buf = ctypes.create_string_buffer(text.encode())
    end = ctypes.c_char_p()
    v = _libc.strtod(buf, ctypes.byref(end))
    consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
    return v if consumed == len(text.encode()) else None


def svmeval(*args, stdin=None):
    return commands.run("svmeval", args, input=stdin)


def tiny(tmp_path, text, name="d"):
    path = tmp_path / name
    path.write_text(text)
    return path


# --- 1. numbers as C reads them, range-checked ----------------------------------------------

INT_FLAGS = ["-s", "-t", "-d", "-h", "-b", "-v"]


@pytest.mark.parametrize("flag", INT_FLAGS + ["-w"])
@pytest.mark.parametrize("value", [2**31, -(2**31) - 1, 2**32, 4294967300, 2**63, 10**30])
def test_integer_options_beyond_c_int_are_refused(flag, value):
    assert not fits_c_int(value)
    argv = ([f"-w{value}", "1"] if flag == "-w" else [flag, str(value)]) + ["x"]
    with pytest.raises(OptionError, match="out of range"):
        parse_args(argv)


@pytest.mark.parametrize(
    "flag,field",
    [
        ("-s", "svm_type"),
        ("-t", "kernel_type"),
        ("-d", "degree"),
        ("-h", "shrinking"),
        ("-b", "probability"),
    ],
)
@pytest.mark.parametrize("value", [2**31 - 1, -(2**31), 0, -1])
def test_integer_options_at_the_c_int_limits_reach_params(flag, field, value):
    assert fits_c_int(value)
    assert getattr(parse_args([flag, str(value), "x"]).params, field) == value


@pytest.mark.parametrize(
    "text", ["1_000", " 5", "5 ", "\u0663", "５", "5x", "0x10", "1e3", "", "++1", "1.0", "\t7"]
)
def test_integer_options_refuse_what_python_int_takes_and_atoi_stops_at(text):
    with pytest.raises(OptionError, match="is not an integer" if text else "the value is empty"):
        parse_args(["-d", text, "x"])


@pytest.mark.parametrize(
    "text",
    [
        "1_000",
        " 1",
        "1 ",
        "\u0661.5",
        "nan",
        "-inf",
        "infinity",
        "1e999",
        "-1e400",
        "1,5",
        "",
        "0x",
        "1e",
    ],
)
@pytest.mark.parametrize("flag", ["-c", "-g", "-r", "-n", "-p", "-m", "-e", "--pos-label"])
def test_number_options_refuse_nan_inf_and_non_c_syntax(flag, text):
    with pytest.raises(OptionError, match="is not a (finite )?number" if text else "is empty"):
        parse_args([flag, text, "-v", "2", "x"])


def test_weight_value_must_be_finite():
    with pytest.raises(OptionError, match="-w1: 'nan' is not a finite number"):
        parse_args(["-w1", "nan", "x"])


RANGE = " is out of range (a C int holds -2147483648 to 2147483647)"


@pytest.mark.parametrize(
    "args,message",
    [
        (["-s", "4294967296", "-v", "5"], "svmeval: option -s: '4294967296'" + RANGE),
        (["-t", "4294967300", "-v", "5"], "svmeval: option -t: '4294967300'" + RANGE),
        (["-v", "5", "-w4294967297", "2"], "svmeval: option -w: '4294967297'" + RANGE),
        (["-c", "nan", "-v", "5"], "svmeval: option -c: 'nan' is not a finite number"),
        (["-v", "1_0"], "svmeval: option -v: '1_0' is not an integer"),
    ],
)
def test_cli_refuses_what_crashed_libsvm(args, message):
    done = svmeval("-q", *args, SMALL)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[0] == message
    assert "Traceback" not in done.stderr


FLAG_VALUES = st.one_of(
    st.text(max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.floats().map(repr),
    st.sampled_from(["0x1p3", "1e-400", "+1", "-0", "1_0", "\u0663", " 1", "nan", "inf"]),
)
ARGS = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "-s",
                "-t",
                "-d",
                "-g",
                "-r",
                "-c",
                "-n",
                "-p",
                "-m",
                "-e",
                "-h",
                "-b",
                "-v",
                "-q",
                "-w1",
                "-w",
                "-o",
                "--seed",
                "--repeat",
                "--jobs",
                "--pos-label",
                "--digits",
                "--format",
                "--zero-division",
                "--score",
                "--predictions",
                "--full",
                "--multilabel",
                "--",
                "-",
                "data",
                "model",
                "-x",
                "--seed=3",
            ]
        ),
        FLAG_VALUES,
    ),
    max_size=10,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=ARGS)
def test_parser_gives_options_or_option_error(argv):
    try:
        options = parse_args(argv)
    except OptionError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert isinstance(options, Options)
    p = options.params
    for v in (p.svm_type, p.kernel_type, p.degree, p.shrinking, p.probability, options.nr_fold):
        assert isinstance(v, int) and fits_c_int(v)
    for v in (p.gamma, p.coef0, p.C, p.nu, p.p, p.cache_size, p.eps):
        assert math.isfinite(v)
    assert 0 <= options.seed < 2**32


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(FLAG_VALUES, st.from_regex(r"\A[+-]?[0-9]{1,12}\Z")))
def test_integer_option_is_atoi_when_accepted(text):
    try:
        value = parse_args(["-d", text, "x"]).params.degree
    except OptionError:
        assert not re.fullmatch(r"[+-]?[0-9]+", text, re.ASCII) or not fits_c_int(int(text))
        return
    assert value == _libc.atoi(text.encode())  # C's reading, where the value fits


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(FLAG_VALUES, st.floats(allow_nan=False).map(lambda v: f"{v:.5e}")))
def test_number_option_is_strtod_when_accepted(text):
    want = c_strtod_whole(text)
    try:
        value = parse_args(["-c", text, "x"]).params.C
    except OptionError:
        assert want is None or not math.isfinite(want)
        return
    assert want is not None and value == want


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(C=float("nan")),
        dict(gamma=float("inf")),
        dict(eps=-float("inf")),
        dict(nu="0.5"),
        dict(svm_type=2**32),
        dict(kernel_type=4294967300),
        dict(degree=3.5),
        dict(shrinking=None),
        dict(probability=-(2**31) - 1),
        dict(cache_size=10**400),
        dict(weight=((2**31, 1.0),)),
        dict(weight=((1, float("nan")),)),
        dict(weight=(1, 2)),
        dict(p=float("nan")),
    ],
)
def test_svm_params_refuse_what_c_cannot_hold(kwargs):
    with pytest.raises(ParameterError, match="SvmParams"):
        SvmParams(**kwargs)


def test_svm_params_normalise_numpy_and_bool_values():
    p = SvmParams(degree=np.int64(2), C=np.float32(0.5), probability=True, weight=[(np.int8(1), 2)])
    assert (p.degree, p.C, p.probability, p.weight) == (2, 0.5, 1, ((1, 2.0),))
    assert type(p.degree) is int and type(p.C) is float


def test_labels_beyond_c_int_give_one_line_not_other_folds(tmp_path):
    # LIBSVM groups classes by (int)label; a label whose truncation leaves C int is refused
    path = tiny(tmp_path, "1 1:1\n2147483648 1:2\n1 1:3\n2147483648 1:4\n")
    done = svmeval("-q", "-v", "2", path)
    assert done.returncode == 1 and done.stdout == ""
    assert (
        done.stderr == f"svmeval: {path}:2: label 2147483648 does not fit a C int: LIBSVM groups "
        "C-SVC "
        "and nu-SVC classes by (int)label (regression: -s 3 or -s 4)\n"
    )
    assert svmeval("-q", "-s", "3", "-v", "2", path).returncode == 0  # regression: doubles
    with pytest.raises(SvmevalError, match="does not fit a C int"):
        group_classes(np.array([1.0, -2147483649.0]))


def test_labels_at_the_c_int_limits_group_as_c_casts_them():
    y = np.array([2147483647.9, -2147483648.5, 2147483647.0, 3.7, 3.2])
    labels, _, count, _ = group_classes(y)
    casts = [ctypes.c_int(int(math.trunc(v))).value for v in y]  # (int)v, defined here
    assert labels.tolist() == list(dict.fromkeys(casts))
    assert count.tolist() == [2, 1, 2]


# --- 5. nothing invalid reaches LIBSVM ------------------------------------------------------


def test_one_sample_is_refused_before_libsvm(tmp_path):
    path = tiny(tmp_path, "1 1:1\n")
    done = svmeval("-q", "-v", "5", path)
    assert done.returncode == 1
    assert done.stderr == "svmeval: cross-validation needs at least 2 samples; the data have 1\n"
    with pytest.raises(SvmevalError, match="at least 2 samples"):
        libsvm_folds(np.ones(1), 5, stratified=True, rand=lambda: 0)


def test_two_samples_with_five_folds_are_libsvm_leave_one_out(tmp_path, capsys):
    libsvm_svm = pytest.importorskip("libsvm.svm")
    path = tiny(tmp_path, "1 1:1\n-1 1:-1\n")
    y, x = [1.0, -1.0], [{1: 1.0}, {1: -1.0}]
    prob = libsvm_svm.svm_problem(y, x)
    param = libsvm_svm.svm_parameter("-q -g 1")
    target = (ctypes.c_double * 2)()
    _libsvm.srand(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, 5, target)
    result = cross_validate(read_dataset(path), SvmParams(), 5, seed=1)
    assert result.n_folds == 2
    assert result.y_pred.tolist() == list(target)
    assert "Will use # folds = # data" in capsys.readouterr().err


GOOD = dict(
    y=np.array([1.0, -1.0]),
    indptr=np.array([0, 2, 3]),
    indices=np.array([1, 3, 2]),
    values=np.array([0.5, 1.0, -1.0]),
    n_features=3,
    name="hand",
)


@pytest.mark.parametrize(
    "change,message",
    [
        (dict(indptr=np.array([0, 3, 2])), "hand:2: Dataset indptr decreases"),
        (dict(indptr=np.array([1, 2, 3])), "must start at 0"),
        (dict(indptr=np.array([0, 2, 4])), "lengths differ"),
        (dict(values=np.array([0.5, 1.0])), "lengths differ"),
        (dict(indices=np.array([3, 1, 2])), "hand:1: feature index 1 does not follow"),
        (dict(indices=np.array([1, 1, 2])), "hand:1: feature index 1 does not follow"),
        (dict(indices=np.array([1, 3, -2])), "hand:2: feature index -2 is negative"),
        (dict(indices=np.array([1, 3, 2**31])), "beyond int32"),
        (dict(indices=np.array([1.0, 3.0, 2.0])), "must hold integers"),
        (dict(values=np.array([0.5, np.nan, 1.0])), "hand:1: feature 3: value nan is not finite"),
        (dict(values=np.array([0.5, 1.0, np.inf])), "hand:2: feature 2: value inf is not finite"),
        (dict(y=np.array([1.0, np.nan])), "hand:2: label nan is not finite"),
        (dict(y=np.array([[1.0], [-1.0]])), "y must be 1-D"),
        (dict(y=np.array([1.0, -1.0, 1.0])), "3 labels for 2 samples"),
        (dict(y=np.array(["a", "b"])), "y must hold numbers"),
        (dict(y=None), "labels are needed"),
        (
            dict(
                indptr=np.array([0]),
                y=np.array([]),
                indices=np.array([], np.int32),
                values=np.array([]),
            ),
            "no samples",
        ),
        (dict(n_features=2), "below the largest feature index 3"),
        (dict(n_features=2.5), "n_features must be an integer"),
    ],
)
def test_hand_built_dataset_is_checked(change, message):
    with pytest.raises(DataFormatError, match=re.escape(message)):
        Dataset(**{**GOOD, **change})


def test_dataset_changed_after_construction_is_checked_before_libsvm():
    ds = Dataset(**{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in GOOD.items()})
    ds.values[0] = np.nan  # the Dataset holds the caller's arrays
    with pytest.raises(DataFormatError, match="not finite"):
        cross_validate(ds, SvmParams(), 2)


def test_hand_built_dataset_equals_the_file(tmp_path):
    ds = Dataset(**GOOD)
    path = tiny(tmp_path, "1 1:0.5 3:1\n-1 2:-1\n")
    cv = cross_validate(ds, SvmParams(), 2)
    assert cv.y_pred.tolist() == cross_validate(read_dataset(path), SvmParams(), 2).y_pred.tolist()


# --- 7. the API fails as clearly as the CLI --------------------------------------------------


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda ds: cross_validate(ds, SvmParams(), 1), SvmevalError, "n must >= 2"),
        (lambda ds: cross_validate(ds, SvmParams(), 5.0), SvmevalError, "folds must be an integer"),
        (lambda ds: cross_validate(ds, SvmParams(), 2**31), SvmevalError, "fit a C int"),
        (lambda ds: cross_validate(ds, SvmParams(), 2, seed=-1), SvmevalError, "seed must be"),
        (lambda ds: cross_validate(ds, SvmParams(), 2, seed=2**32), SvmevalError, "seed must be"),
        (lambda ds: cross_validate(ds, SvmParams(), 2, jobs=0), SvmevalError, "jobs must be"),
        (lambda ds: cross_validate(ds, {"C": 1}, 2), ParameterError, "params must be"),
        (lambda ds: cross_validate(42, SvmParams(), 2), SvmevalError, "data must be"),
        (lambda ds: run_cv(ds, SvmParams(), 2, y=[1.0]), SvmevalError, "y must be 1-D"),
        (lambda ds: run_cv(ds, SvmParams(), 2, y=[[1.0, -1.0]]), SvmevalError, "y must be 1-D"),
        (lambda ds: run_cv(ds, SvmParams(), 2, y=[1.0, np.nan]), SvmevalError, "not finite"),
        (
            lambda ds: train_and_save(ds, SvmParams(), "/nonexistent/m", seed=-5),
            SvmevalError,
            "seed must be",
        ),
        (lambda ds: read_dataset(None), DataFormatError, "not a file name"),
        (lambda ds: read_dataset(SMALL, max_line_bytes=0), SvmevalError, "max_line_bytes"),
    ],
)
def test_api_errors_are_typed(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call(Dataset(**GOOD))


# --- 6. messages true and safe ---------------------------------------------------------------


def test_file_names_are_shown_escaped_on_one_line(tmp_path):
    path = tmp_path / "bad\nname\x1b[31m\\"
    path.write_text("1 1:1\n1 x\n")
    done = svmeval("-q", "-v", "2", path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    shown = '"' + str(tmp_path) + '/bad\\nname\\x1b[31m\\\\"'
    assert done.stderr.startswith("svmeval: " + shown + ":2: ")
    assert show_path("plain/name.txt") == "plain/name.txt"
    assert show_path(b"caf\xe9") == '"caf\\xe9"'
    assert show_path('"quoted"') == '"\\"quoted\\""'


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=20))
def test_shown_paths_are_one_printable_line_and_distinct(name):
    shown = show_path(name)
    assert shown.isprintable()
    other = name + "\n"
    assert show_path(other) != shown


@settings(max_examples=300, deadline=None)
@given(a=st.floats(allow_nan=False, allow_infinity=False))
def test_labels_in_messages_round_trip(a):
    assert float(show_label(a)) == a
    b = math.nextafter(a, math.inf)
    if math.isfinite(b):
        assert show_label(a) != show_label(b)


def test_pos_label_message_tells_close_labels_apart():
    from svmeval.summary.single import positive_label

    with pytest.raises(SvmevalError) as err:
        positive_label(np.array([1.0, 1.0000000000000002]), 3.0)
    assert str(err.value) == "pos_label: 3 is not one of the labels (1, 1.0000000000000002)"


def test_quiet_silences_numpy_warnings(tmp_path):
    code = (
        "import sys, warnings, numpy as np; import svmeval.cli.svmeval as c\n"
        "import svmeval.cv.engine as m; s = m.cross_validate\n"
        "def noisy(*a, **k):\n"
        "    np.float64(1) / np.float64(0); warnings.warn('w', RuntimeWarning)\n"
        "    return s(*a, **k)\n"
        "m.cross_validate = noisy; sys.exit(c.main(sys.argv[1:]))\n"
    )
    args = [sys.executable, "-c", code, "-v", "2", str(SMALL)]
    loud = subprocess.run(args, capture_output=True, text=True)
    quiet = subprocess.run(args[:3] + ["-q"] + args[3:], capture_output=True, text=True)
    assert loud.returncode == quiet.returncode == 0
    assert "RuntimeWarning" in loud.stderr
    assert quiet.stderr == ""


def _draws(seed, n=8):
    _libc.srand(seed)
    return tuple(_libc.rand() for _ in range(n))


@settings(max_examples=200, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 5), st.integers(0, 2**32 - 1), st.integers(2**32 - 5, 2**32 - 1)),
    repeat=st.integers(1, 6),
)
def test_repetition_seeds_draw_distinct_sequences(seed, repeat):
    seeds = repetition_seeds(seed, repeat)
    assert len(seeds) == repeat and seeds[0] == seed
    assert all(0 <= s < 2**32 for s in seeds)
    assert len({_draws(s) for s in seeds}) == repeat  # the C library's own rand()


def test_seed_zero_repeat_two_differs_on_the_command_line():
    import json

    assert _draws(0) == _draws(1)  # the trap: glibc seeds srand(0) as srand(1)
    done = svmeval("-q", "-v", "5", "--seed", "0", "--repeat", "2", "--format", "json", SMALL)
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["repeats"]
    assert first != second


@pytest.mark.parametrize(
    "labels,probability",
    [([1234567.0, -7654321.0], False), ([1234567.0, 2000001.0], True), ([0.1, 1e300], False)],
)
def test_predictions_files_read_back_exactly(tmp_path, labels, probability):
    class R:  # what format_predictions reads of a CV result
        y_pred = np.array(labels * 3)
        labels_ = np.array(labels)
        probabilities = np.full((6, 2), 0.5) if probability else None

    R.labels = R.labels_
    path = tmp_path / "p"
    path.write_text(format_predictions(R))
    assert read_predictions(str(path), expected=6).tolist() == R.y_pred.tolist()


def test_non_finite_predictions_are_never_written():
    class R:
        y_pred = np.array([1.0, np.nan])
        probabilities = None

    with pytest.raises(SvmevalError, match="prediction 2 is nan"):
        format_predictions(R)


def test_score_reads_back_cv_predictions_with_large_labels(tmp_path):
    # -b 1 lines once held labels as %g: 3000001 came back as 3e+06
    text = SMALL.read_text().replace("+1 ", "3000001 ").replace("-1 ", "-2500000 ")
    data = tiny(tmp_path, text)
    pred = tmp_path / "pred"
    cv = svmeval("-q", "-b", "1", "-v", "3", "--predictions", pred, "--format", "json", data)
    assert cv.returncode == 0, cv.stderr
    scored = svmeval("-q", "--score", pred, "--format", "json", data)
    assert scored.returncode == 0, scored.stderr
    import json

    assert json.loads(cv.stdout)["accuracy"] == json.loads(scored.stdout)["accuracy"]
    assert set(read_predictions(str(pred)).tolist()) <= {3000001.0, -2500000.0}


@pytest.mark.parametrize("token", ["1_0", "\u0661", "1e5x", "nan", "inf"])
def test_predictions_numbers_are_c_numbers(tmp_path, token):
    path = tiny(tmp_path, f"1\n{token}\n", "p")
    with pytest.raises(DataFormatError, match=r":2: prediction"):
        read_predictions(str(path), expected=2)


# --- 3. lines have a cap ----------------------------------------------------------------------


def test_dev_zero_is_one_line_not_memory_error():
    done = svmeval("-q", "-v", "5", "/dev/zero")
    assert done.returncode == 1
    assert done.stderr == (
        "svmeval: /dev/zero:1: line longer than 67108864 bytes, the most a line may "
        "hold (not a LIBSVM data file?)\n"
    )
    done = svmeval("-q", "--score", "/dev/zero", SMALL)
    assert done.returncode == 1
    assert done.stderr.startswith("svmeval: /dev/zero:1: line longer than 67108864 bytes")


def test_gzip_bomb_and_huge_line_stop_at_the_cap(tmp_path):
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"1 1:1\n" + b"\0" * (1 << 20)))
    with pytest.raises(DataFormatError, match=r"bomb.gz:2: line longer than 4096 bytes"):
        read_dataset(bomb, max_line_bytes=4096)
    long = tiny(tmp_path, "1 1:1\n" + "1 " + " ".join(f"{i}:1" for i in range(1, 3000)) + "\n")
    with pytest.raises(DataFormatError, match=r":2: line longer than 1000 bytes"):
        read_dataset(long, max_line_bytes=1000)
    assert read_dataset(long).n_samples == 2


# svm-train's usage text (LIBSVM 3.37, svm-train.c exit_with_help), the lines svmeval's usage
# must repeat word for word (its one line wider than 80 columns, -b, filled into two): the
# option declarations generate them
SVM_TRAIN_USAGE_OPTIONS = """\
-s svm_type : set type of SVM (default 0)
	0 -- C-SVC		(multi-class classification)
	1 -- nu-SVC		(multi-class classification)
	2 -- one-class SVM
	3 -- epsilon-SVR	(regression)
	4 -- nu-SVR		(regression)
-t kernel_type : set type of kernel function (default 2)
	0 -- linear: u'*v
	1 -- polynomial: (gamma*u'*v + coef0)^degree
	2 -- radial basis function: exp(-gamma*|u-v|^2)
	3 -- sigmoid: tanh(gamma*u'*v + coef0)
	4 -- precomputed kernel (kernel values in training_set_file)
-d degree : set degree in kernel function (default 3)
-g gamma : set gamma in kernel function (default 1/num_features)
-r coef0 : set coef0 in kernel function (default 0)
-c cost : set the parameter C of C-SVC, epsilon-SVR, and nu-SVR (default 1)
-n nu : set the parameter nu of nu-SVC, one-class SVM, and nu-SVR (default 0.5)
-p epsilon : set the epsilon in loss function of epsilon-SVR (default 0.1)
-m cachesize : set cache memory size in MB (default 100)
-e epsilon : set tolerance of termination criterion (default 0.001)
-h shrinking : whether to use the shrinking heuristics, 0 or 1 (default 1)
-b probability_estimates : whether to train a SVC or SVR model for probability
	estimates, 0 or 1 (default 0)
-wi weight : set the parameter C of class i to weight*C, for C-SVC (default 1)
-v n: n-fold cross validation mode
-q : quiet mode (no outputs)
"""


def test_usage_is_generated_from_the_declarations_with_svm_trains_words():
    from svmeval.cli.options import LONG_OPTIONS, SVM_TRAIN_OPTIONS
    from svmeval.cli.svmeval import USAGE
    from svmeval.params import SvmParams

    SVMEVAL_OPTIONS = tuple(o for o in LONG_OPTIONS if "svmeval" in o.commands)

    assert SVM_TRAIN_USAGE_OPTIONS in USAGE
    # every declared option is in the usage, and the declared svm-train defaults are
    # SvmParams' own (gamma 0 means 1/num_features, as svm-train says)
    for option in SVM_TRAIN_OPTIONS + SVMEVAL_OPTIONS:
        assert all(flag in USAGE for flag in option.flags)
        if option.svm and option.field != "weight":
            default = getattr(SvmParams(), option.field)
            shown = "1/num_features" if option.field == "gamma" else f"{default:g}"
            assert option.default == shown, option.flags


def test_every_declared_option_parses(tmp_path):
    from svmeval.cli.options import LONG_OPTIONS, SVM_TRAIN_OPTIONS
    from svmeval.cli.svmeval import parse_args

    SVMEVAL_OPTIONS = tuple(o for o in LONG_OPTIONS if "svmeval" in o.commands)
    values = {"int": "2", "double": "0.5", "str": "text"}
    # an option that qualifies another comes with it (each refused alone, tested elsewhere)
    NEEDS = {
        "criterion": ["--permutations", "9"],
        "bootstrap": ["--ci", "0.9"],
        "leak": ["--scale"],
        "scale_y": ["-s", "3"],
    }
    # options whose value is a pair: given "0,1", parsed (0.0, 1.0)
    PAIRS = {"scale_x", "scale_y"}
    for option in SVM_TRAIN_OPTIONS + SVMEVAL_OPTIONS:
        if option.field in (
            "help",
            "version",
            "score",
            "predictions",
            "plot",
            "output",
            "format",
            "zero_division",
            "pos_label",
            "full",
            "threshold",
        ):
            continue  # each checked with its own rules elsewhere
        flag = "-w1" if option.flags == ("-wi",) else option.flags[0]
        text = "local:1" if option.field == "dask" else values.get(option.kind)
        text = "0,1" if option.field in PAIRS else text
        args = [flag] + ([] if option.kind == "flag" else [text])
        options = parse_args(args + NEEDS.get(option.field, []) + ["-v", "5", "data"])
        target = options.params if option.svm else options
        if option.field == "weight":
            assert options.params.weight == ((1, 0.5),)
        elif option.field == "nr_fold":
            continue
        elif option.field in PAIRS:
            assert getattr(target, option.field) == (0.0, 1.0), flag
        else:
            expected = {"int": 2, "double": 0.5, "str": text, "flag": True}[option.kind]
            assert getattr(target, option.field) == expected, flag

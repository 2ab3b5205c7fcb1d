"""svmeval-linear's drop-in call served light (``svmeval-linear [train's options] -v k FILE`` of
two classes): the full command's bytes (stdout, stderr, exit status) without importing numpy,
LIBLINEAR's ``train -v``'s accuracy line, and every call it does not serve, every bad option
and every bad file answered by the full command in its own words.

Oracles: the full command itself, its light path switched off in the test (every byte and the
status); LIBLINEAR's ``train`` built from its source (``SVMEVAL_LIBLINEAR_SOURCE``, else those
tests skip): its accuracy line byte for byte; ``-X importtime`` of a fresh interpreter."""

from __future__ import annotations

import ast
import ctypes
import subprocess
import sys
from pathlib import Path

import pytest

from svmeval.cli import linear_dropin
from svmeval.cv import c_library
from svmeval.cv.run import linear_light

import commands

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "data" / "breast_cancer.scale"  # 569 rows, labels +1 / -1
WINE = ROOT / "data" / "wine.scale"  # three classes

pytestmark = pytest.mark.skipif(
    c_library.library_file("liblinear") is None,
    reason="LIBLINEAR's bindings (liblinear-official, the linear extra) are not installed",
)


def relabelled(tmp_path, mapping: dict, name: str) -> Path:
    """SMALL with its labels renamed by ``mapping`` (the label's text -> the new text)."""
    out = tmp_path / name
    lines = []
    for line in SMALL.read_text().splitlines(True):
        label, _, rest = line.partition(" ")
        lines.append(f"{mapping.get(label, label)} {rest}")
    out.write_text("".join(lines))
    return out


@pytest.fixture
def data(tmp_path):
    one = tmp_path / "one_class"
    one.write_text("".join(f"1 1:{i / 10} 2:{(i * 7 % 10) / 10}\n" for i in range(30)))
    return {
        "small": SMALL,
        "odd": relabelled(tmp_path, {"+1": "7", "-1": "2"}, "small.2-7"),
        "no_one": relabelled(tmp_path, {"+1": "-3", "-1": "0"}, "small.0-m3"),
        "wine": WINE,
        "one_class": one,
    }


class Served:
    """The light path's answer to each call (None: the full command ran it)."""

    def __init__(self, monkeypatch, light: bool = True):
        self.calls: list = []
        real = linear_dropin.serve

        def serve(argv, interrupts=()):
            status = real(argv, interrupts) if light else None
            self.calls.append(status)
            return status

        monkeypatch.setattr(linear_dropin, "serve", serve)


def both(monkeypatch, args, cwd):
    """``(light, full)``: svmeval-linear ``args`` as the launcher runs it, then with its light
    path switched off (the full command alone), and whether the first was served light."""
    seen = Served(monkeypatch)
    lit = commands.run("linear", args, cwd=cwd, text=False, timeout=120)
    Served(monkeypatch, light=False)
    full = commands.run("linear", args, cwd=cwd, text=False, timeout=120)
    return lit, full, seen.calls == [lit.returncode]


def same(lit, full) -> None:
    assert (lit.returncode, lit.stdout, lit.stderr) == (full.returncode, full.stdout, full.stderr)


SERVED = [
    *[f"-s {s}" for s in range(8)],
    *[f"-q -s {s}" for s in range(8)],
    "-B 1",
    "-q -s 2 -B 1",
    "-q -s 0 -B 0.5",
    "-q -s 2 -B 1 -R",
    "-q -s 3 -B 0",
    "-q -w1 2",
    "-q -s 0 -w-1 0.5 -w1 0.25",
    "-s 5 -w-1 3",
    "-q -e 0.5",
    "-q -s 2 -e 0.1",
    "-q -c 0.25",
    "-q -s 6 -c 4",
    "-q -s 2 -c 0x1p-3",
    "-q -c 8 -e 0.001",
    "-q -s 1 -v 3",
    "-q -s 0 -v 2",
]


@pytest.mark.parametrize("options", SERVED)
@pytest.mark.parametrize("name", ["small", "odd", "no_one"])
def test_served_calls_are_the_full_commands_bytes(monkeypatch, tmp_path, data, name, options):
    """Every classifier, -B, -R, -wi, -e, -c, quiet or not, labels +1/-1, 2/7 and 0/-3 (the
    note that no label is 1): the light path serves the call, with the full command's stdout,
    stderr and status."""
    args = [*options.split(), *([] if "-v" in options else ["-v", "5"]), data[name]]
    lit, full, served = both(monkeypatch, args, tmp_path)
    assert served
    assert lit.returncode == 0, lit.stderr
    same(lit, full)
    assert lit.stdout.startswith(b"Cross Validation Accuracy = ")
    assert (b"no label 1" in lit.stderr) == (name != "small")


NOT_SERVED = [
    ("small", "-s 11"),  # regression: the full report
    ("small", "-s 12 -q"),
    ("small", "-s 13 -p 0.5"),
    ("small", "-s 21 -q"),  # one-class
    ("small", "-s 21 -n 2"),  # svmeval's refusal
    ("wine", "-s 2 -q"),  # three classes
    ("wine", "-s 4"),
    ("one_class", "-q"),  # one class
    ("small", "-q --full"),
    ("small", "-q --jobs 1"),
    ("small", "-q --seed 2"),
    ("small", "-q --repeat 2"),
    ("small", "-q --format json"),
    ("small", "-q -c 1 -c 2"),  # an option twice
    ("small", "-q -w1 2 -w1 3"),  # a label's weight twice
    ("small", "-q -v 1000"),  # more folds than rows: LIBLINEAR's leave-one-out
    ("small", "-s 9"),  # bad values: the full command's words
    ("small", "-s 8 -q"),
    ("small", "-c 0"),
    ("small", "-c -1"),
    ("small", "-c 1e999"),
    ("small", "-c 8x"),
    ("small", "-e 0"),
    ("small", "-e -0.1"),
    ("small", "-v 1"),
    ("small", "-B nan"),
    ("small", "-w1"),
    ("small", "-x 1"),
    ("small", "-q -C"),
    ("small", "--help"),
]


@pytest.mark.parametrize("name,options", NOT_SERVED)
def test_other_calls_are_the_full_commands(monkeypatch, tmp_path, data, name, options):
    """Regression, one-class, multiclass or one-class data, svmeval's own options, an option
    twice, bad options and values: the full command runs them, with its own bytes."""
    args = [*options.split(), *([] if "-v" in options.split() else ["-v", "5"]), data[name]]
    lit, full, served = both(monkeypatch, args, tmp_path)
    assert not served
    same(lit, full)


BAD_FILES = {
    "bad_token": "+1 1:0.5\n-1 1:abc\n",
    "out_of_order": "+1 2:0.5 1:0.1\n-1 1:0.2\n",
    "empty": "",
    "nan": "+1 1:nan\n-1 1:0.2\n",
    "big_label": "+1 1:0.5\n3e10 1:0.2\n+1 1:0.1\n3e10 1:0.7\n",
    "fractional": "+1 1:0.5\n0.5 1:0.2\n+1 1:0.1\n0.5 1:0.7\n",
    "multilabel": "1,2 1:0.5\n2 1:0.2\n1 1:0.1\n",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_data_answered_by_the_full_command(monkeypatch, tmp_path, name):
    """A file the light path cannot serve gets exactly what the full command gives it: its
    error line (file and line), or its report."""
    path = tmp_path / name
    path.write_text(BAD_FILES[name])
    lit, full, served = both(monkeypatch, ["-q", "-v", "2", path], tmp_path)
    same(lit, full)
    assert not served
    if name not in ("big_label", "fractional"):
        assert lit.returncode == 1
        assert lit.stderr.decode().startswith(f"svmeval-linear: {path}:")


@pytest.mark.parametrize("args", [["-q", "-v", "5", "missing"], ["-q", "-v", "5", "."]])
def test_a_file_that_cannot_be_read_is_the_full_commands(monkeypatch, tmp_path, args):
    lit, full, served = both(monkeypatch, args, tmp_path)
    same(lit, full)
    assert lit.returncode == 1 and not served


def test_a_model_file_name_is_taken_and_never_written(monkeypatch, tmp_path):
    lit, full, served = both(monkeypatch, ["-q", "-v", "5", SMALL, "model"], tmp_path)
    assert served
    same(lit, full)
    assert not (tmp_path / "model").exists()


@pytest.mark.parametrize("options", ["-s 2", "-s 0 -B 1", "-s 1", "-s 3 -c 0.5 -w1 2", "-s 6"])
@pytest.mark.parametrize("name", ["small", "odd"])
def test_the_accuracy_line_is_train_vs(liblinear_train, tmp_path, data, name, options):
    """LIBLINEAR's own ``train -v 5``: the light path's first line, byte for byte; without
    ``-q``, train's solver lines (on its stdout) are the light path's stderr."""
    path = data[name]
    train = subprocess.run(
        [str(liblinear_train), *options.split(), "-v", "5", str(path)],
        capture_output=True,
        check=True,
    )
    accuracy = [b for b in train.stdout.splitlines(True) if b.startswith(b"Cross")]
    chatter = [b for b in train.stdout.splitlines(True) if not b.startswith(b"Cross")]
    done = commands.run("linear", [*options.split(), "-v", "5", path], text=False, timeout=120)
    assert done.returncode == 0
    assert done.stdout.splitlines(True)[:1] == accuracy
    note = [b"svmeval-linear: no label 1"] if name == "odd" else []
    said = [b for b in done.stderr.splitlines(True) if not b.startswith(b"svmeval-linear:")]
    warned = train.stderr.splitlines(True)  # LIBLINEAR's own fprintf(stderr): a weight's label
    assert [b for b in said if b not in warned] == chatter
    assert [b for b in said if b in warned] == warned
    assert [b[:26] for b in done.stderr.splitlines() if b.startswith(b"svmeval-linear:")] == note


def imported(stderr: bytes) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.mark.parametrize("quiet", [["-q"], []])
def test_a_light_call_imports_no_numpy(tmp_path, quiet):
    """A served call, in a fresh interpreter, runs through train's syntax and LIBLINEAR's core
    without numpy, the option table, the parameters' dataclass, LIBLINEAR's Python bindings
    or the full command's modules; its report is the full command's."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "svmeval.cli", "linear", *quiet, "-s", "2"]
        + ["-v", "5", str(SMALL)],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = imported(done.stderr)
    assert {
        "svmeval.cli.linear_dropin",
        "svmeval.cv.run.linear_light",
        "svmeval.cv.liblinear_core",
        "svmeval.io.liblinear_syntax",
    } <= modules
    heavy = ("numpy", "scipy", "liblinear", "libsvm", "dataclasses")
    assert not {m for m in modules if m.split(".")[0] in heavy}
    full = {"svmeval.cli.linear", "svmeval.cli.runner", "svmeval.params", "svmeval.cv._liblinear"}
    assert not full & modules
    assert (
        done.stdout
        == commands.run(
            "linear", ["--jobs", "1", *quiet, "-s", "2", "-v", "5", SMALL]
        ).stdout.encode()
    )


def test_a_report_into_a_regular_file_is_the_full_commands(tmp_path):
    """Standard output on a regular file: the full command (its checks, its atomic write)."""
    out = tmp_path / "report.txt"
    with open(out, "wb") as fh:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "svmeval.cli", "linear", "-q", "-v", "5"]
            + [str(SMALL)],
            stdout=fh,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    assert done.returncode == 0
    assert "svmeval.cv.run.linear_light" not in imported(done.stderr)
    assert out.read_bytes() == commands.run("linear", ["-q", "-v", "5", SMALL]).stdout.encode()


def test_the_light_path_and_the_full_path_share_the_core():
    """The same objects, not equal copies: one set of LIBLINEAR's structures, one loading of
    its library, one reader of train's options."""
    from svmeval.cli import linear
    from svmeval.cv import _liblinear, liblinear_core
    from svmeval.io import liblinear_syntax
    from svmeval.params import DEFAULT_EPS, SOLVERS, LinearParams

    for name in ("Problem", "Parameter", "Model", "STATE_LOCK", "library", "make_parameter"):
        assert getattr(_liblinear, name) is getattr(liblinear_core, name)
    assert linear_light.liblinear_core is liblinear_core
    assert _liblinear.library() is liblinear_core.library()
    path = c_library.library_file("liblinear")
    assert ctypes.CDLL(path)._handle == liblinear_core.library().lib._handle
    assert linear.read_option is liblinear_syntax.read_option
    assert linear_dropin.read_option is liblinear_syntax.read_option
    assert linear.PROG is linear_dropin.PROG
    assert DEFAULT_EPS is liblinear_syntax.DEFAULT_EPS and SOLVERS is liblinear_syntax.SOLVERS
    defaults = LinearParams()
    assert {k: getattr(defaults, k) for k in liblinear_syntax.DEFAULTS} == liblinear_syntax.DEFAULTS


def test_the_launcher_and_the_tests_serve_the_same_commands_light():
    """tests/commands.py runs a command as the launcher does: the same light paths."""
    source = (ROOT / "svmeval" / "cli" / "__main__.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "_LIGHT":
            assert ast.literal_eval(node.value) == commands.LIGHT
            return
    raise AssertionError("the launcher's _LIGHT table is not found")


@pytest.mark.parametrize(
    "argv",
    [
        ["-q", "-v", "5", "f"],
        ["f", "-v", "5", "-c", "8", "-s", "2"],
        ["-v", "+05", "-B", "-1", "f"],
        ["-v", "5", "-w1", "2", "-w-1", "3", "-R", "f", "model"],
    ],
)
def test_served_command_lines(argv):
    assert linear_dropin.parse(argv) is not None


@pytest.mark.parametrize(
    "argv",
    [
        ["f"],  # train mode
        ["-v", "5"],
        ["-v", "5", "f", "g", "h"],
        ["-v", "5", "-"],  # standard input
        ["-v", "1", "f"],
        ["-v", "5", "-s", "1", "-s", "2", "f"],  # an option twice
        ["-v", "5", "-R", "-R", "f"],
        ["-v", "5", "-w1", "2", "-w1", "3", "f"],
        ["-v", "5", "--full", "f"],
        ["-v", "5", "-C", "f"],
        ["-v", "5", "-c"],
        ["-v", "5", "-c", "x", "f"],
        ["-v", "5", "--jobs", "1", "f"],
        ["--help"],
    ],
)
def test_command_lines_left_to_the_full_command(argv):
    assert linear_dropin.parse(argv) is None


def test_threaded_solvers_are_served_only_where_threads_cannot_be_faster(monkeypatch):
    """-s 0 and -s 2 (whose folds the full command trains on the cores): served in one call on
    one core, and on more only while the time the threads could save is below the full path's
    longer start (a9a -v 5 on two cores: measured faster light; -v 10, or eight cores: not);
    the dual and L1 solvers (one call in the full command too) always, up to the rows the
    light path's work a row pays for."""
    fields = {"C": 1.0, "eps": 0.01}
    rows, a9a = 32_561, 451_592  # a9a's rows and nonzeros

    def served(solver, nonzeros, folds, cores, n=rows, **more):
        monkeypatch.setattr(linear_light, "machine_cores", lambda: cores)
        return linear_light.served_alone(solver, n, nonzeros, folds, {**fields, **more}, ())

    assert served(2, a9a, 5, 2) and served(0, a9a, 5, 2)
    assert not served(2, a9a, 10, 2) and not served(2, a9a, 5, 8)
    assert served(2, 10 * a9a, 10, 1)
    assert not served(2, 1000, 5, 2, C=2.0) and not served(0, 1000, 5, 2, eps=0.001)
    assert served(2, 1000, 5, 2, eps=0.1) and served(2, 1000, 5, 2, C=0.5)
    assert served(1, 10 * a9a, 10, 16) and served(5, 10 * a9a, 10, 16)
    assert not served(1, 1000, 5, 1, n=100_000)  # the light path's rows cost more than it saves
    monkeypatch.setattr(linear_light, "machine_cores", lambda: 2)
    assert not linear_light.served_alone(2, 100, 1000, 5, fields, ((1, 2.0),))  # C x weight > 1


EMPTY_ROWS = "1 1:0.5 3:1\n-1\n1 2:0.3\n-1 1:-0.2 3:0.1\n1 3:0.9\n-1 2:-1\n1 1:1 2:1\n-1\n"


@pytest.mark.parametrize("extra", [None, (4, 1.0), (4, 0.25)])
def test_rows_are_laid_out_as_train_lays_them(tmp_path, extra):
    """Each row's nodes, read from its address up to the terminator, are its file line's
    ``index:value`` pairs (parsed here), then the bias node where one is asked, as LIBLINEAR's
    train lays out the rows it reads (rows without features included)."""
    from svmeval.cv.c_library import Node
    from svmeval.cv.run import light
    from svmeval.io.raw import read_arrays

    path = tmp_path / "empty_rows"
    path.write_text(EMPTY_ROWS)
    nodes, rows = light.rows_of(read_arrays(str(path)), extra)
    for line, address in zip(EMPTY_ROWS.splitlines(), rows):
        want = [(int(i), float(v)) for i, v in (p.split(":") for p in line.split()[1:])]
        want += [extra] if extra else []
        got = []
        node = Node.from_address(address)
        while node.index != -1:
            got.append((node.index, node.value))
            node = Node.from_address(ctypes.addressof(node) + ctypes.sizeof(Node))
        assert got == want
    assert len(rows) == len(EMPTY_ROWS.splitlines())


@pytest.mark.parametrize("options", ["-B 1", "-s 2 -B 2", "-s 0", "-s 3 -B 0"])
def test_rows_without_features_are_served_as_the_full_command(monkeypatch, tmp_path, options):
    path = tmp_path / "empty_rows"
    path.write_text(EMPTY_ROWS)
    lit, full, served = both(monkeypatch, ["-q", *options.split(), "-v", "2", path], tmp_path)
    assert served
    same(lit, full)


def test_an_extension_without_the_layout_leaves_the_call_to_the_full_command(monkeypatch, tmp_path):
    """An extension built before svmeval_rows_nodes: the light paths serve nothing (no error of
    their own), the full commands answer."""
    monkeypatch.setattr(c_library, "rows_nodes", lambda: None)
    lit, full, served = both(monkeypatch, ["-q", "-v", "5", SMALL], tmp_path)
    assert not served
    same(lit, full)
    assert lit.returncode == 0 and lit.stdout.startswith(b"Cross Validation Accuracy = ")
    from svmeval.cv.run import light
    from svmeval.io.raw import read_arrays

    small = read_arrays(str(SMALL))
    assert light.cross_validate_plain(small, {}, 5) is None  # svmeval's drop-in: the same
    monkeypatch.undo()
    assert light.cross_validate_plain(small, {}, 5) is not None

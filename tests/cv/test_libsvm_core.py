"""One LIBSVM core (:mod:`svmeval.cv.c_library`) under the drop-in's light mode and the
engine: the light path decides whether to serve a call and writes nothing of the engine's work
a second time (no ctypes structure, no library loading, no entry point, no srand, no print
hook, no message writer of its own)."""

from __future__ import annotations

import ast
import ctypes
import subprocess
import sys
from pathlib import Path

import pytest

from svmeval.cv import c_library
from svmeval.cv.run import light
from svmeval.io import svm_train_syntax
from svmeval.params import SvmParams

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "svmeval"
SMALL = ROOT / "data" / "breast_cancer.scale"
SOURCES = sorted(PACKAGE.rglob("*.py"))
LIGHT_PATH = [
    PACKAGE / "cli" / "dropin.py",
    PACKAGE / "cv" / "run" / "light.py",
    PACKAGE / "cli" / "linear_dropin.py",
    PACKAGE / "cv" / "run" / "linear_light.py",
]


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def structures(path: Path) -> list[str]:
    """The classes ``path`` defines on a ctypes base (Structure, Union, a CFUNCTYPE)."""
    out = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(b) for b in node.bases}
            if bases & {"ctypes.Structure", "Structure", "ctypes.Union", "Union"}:
                out.append(node.name)
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("CFUNCTYPE"):
            out.append("CFUNCTYPE")
    return out


def strings(path: Path) -> set[str]:
    return {
        n.value
        for n in ast.walk(tree(path))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_one_copy_of_libsvms_structures(path):
    """Only the core declares LIBSVM's structures and its print-hook type (LIBLINEAR's, which
    are not LIBSVM's, are declared once, in its own module)."""
    if path == PACKAGE / "cv" / "c_library.py":
        assert structures(path) == ["Node", "Problem", "Parameter", "CFUNCTYPE"]
    elif path == PACKAGE / "cv" / "liblinear_core.py":
        assert structures(path) == ["Problem", "Parameter", "Model"]
    else:
        assert structures(path) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_one_place_finds_and_declares_libsvm(path):
    """LIBSVM's file, its C entry points and C's srand are found and declared in the core."""
    names = {"clib.cp", "svm_cross_validation", "svm_set_print_string_function", "srand"}
    found = names & strings(path)
    attributes = {n.attr for n in ast.walk(tree(path)) if isinstance(n, ast.Attribute)}
    if path == PACKAGE / "cv" / "c_library.py":
        assert found == {"clib.cp", "svm_cross_validation", "svm_set_print_string_function"}
        assert "srand" in attributes
    else:
        assert found == set()
        assert not {"CDLL", "argtypes", "restype"} & attributes or path.name in (
            "_libsvm.py",  # the engine's own C loops over rows (predict_values' address)
            "_model.py",
            "kernel.py",
            "liblinear_core.py",  # LIBLINEAR's library, found by the core's library_file
        )


@pytest.mark.parametrize("path", LIGHT_PATH, ids=lambda p: p.name)
def test_the_light_path_loads_and_writes_nothing_itself(path):
    """The light path holds no library loading and no writer of LIBSVM's messages (the
    drop-in's own note aside: the command's line)."""
    text = path.read_text(encoding="utf-8")
    for own in ("CDLL", "STDERR_LOCK", "clear_line"):
        assert own not in text, f"{path.name} has its own {own}"
    if path.name in ("light.py", "linear_dropin.py", "linear_light.py"):
        assert "sys.stderr" not in text


def test_the_light_path_and_the_engine_share_the_core():
    """The same objects, not equal copies: the light mode's structures and defaults are the
    core's and the syntax's; the engine's problems, parameters and print hooks are the
    core's (LIBSVM loaded by the engine in this process)."""
    from svmeval.cv import _libsvm

    assert light.Node is c_library.Node and light.PRINT is c_library.PRINT
    assert light.DEFAULTS is svm_train_syntax.DEFAULTS
    c = _libsvm.library()
    assert c.set_print.argtypes == [c_library.PRINT]
    problem = _libsvm.Problem.from_csr([1.0, -1.0], [0, 1, 2], [1, 1], [0.5, -0.5])
    assert isinstance(problem._struct, c_library.Problem)
    param = _libsvm.Parameter(SvmParams(C=8, weight=((1, 2.0),)))
    assert isinstance(param._struct, c_library.Parameter)
    assert (param._struct.C, param._struct.nr_weight, param._struct.weight[0]) == (8.0, 1, 2.0)
    # the light mode's library is the engine's: the same file, so one handle in the process
    path = c_library.library_file()
    assert path is not None
    assert ctypes.CDLL(path)._handle == c.svm.libsvm._handle


def test_a_light_call_imports_the_core(tmp_path):
    """A served drop-in call runs through the core and the syntax, without numpy."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "svmeval", "-q", "-v", "5", str(SMALL)],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert {
        "svmeval.cv.run.light",
        "svmeval.cv.c_library",
        "svmeval.io.svm_train_syntax",
    } <= modules
    assert not {m for m in modules if m.split(".")[0] in ("numpy", "libsvm", "dataclasses")}

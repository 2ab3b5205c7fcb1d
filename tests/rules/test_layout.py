"""The layout keeps the data flow visible: LIBSVM and ctypes only under svmeval/cv/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "svmeval"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_cv_imports_libsvm_or_ctypes(path):
    inside_cv = path.relative_to(PACKAGE).parts[0] == "cv"
    found = imported_modules(path) & {"libsvm", "ctypes"}
    assert inside_cv or not found, f"{path.relative_to(PACKAGE)} imports {sorted(found)}"


def test_the_scan_sees_imports():
    assert "ctypes" in imported_modules(PACKAGE / "cv" / "_libsvm.py")
    assert "libsvm" in imported_modules(PACKAGE / "cv" / "_bindings.py")


# lines as ruff formats them (one argument a line where a call does not fit in 100 columns)
MODULE_LINES, FUNCTION_LINES = 500, 100


def _docstring_lines(tree) -> dict:
    """node -> the lines of its docstring, for the module, its classes and functions."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                out[node] = body[0].end_lineno - body[0].lineno + 1
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_and_functions_stay_small(path):
    """One module, one job: at most 500 lines of code a module and 100 a function (its
    decorators included), so that a module over the limit is split by job, not left to grow.
    Docstrings do not count: a public function's reference (Parameters, Returns, Examples) is
    as long as it needs to be."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    docs = _docstring_lines(tree)
    code = text.count("\n") - sum(docs.values())
    assert code <= MODULE_LINES, f"{path.relative_to(PACKAGE)}: over {MODULE_LINES}"
    long = [
        f"{node.name} ({length} lines)"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (length := node.end_lineno - node.lineno + 1 - docs.get(node, 0)) > FUNCTION_LINES
    ]
    assert not long, f"{path.relative_to(PACKAGE)}: {', '.join(long)}"

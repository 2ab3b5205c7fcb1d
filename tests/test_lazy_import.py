"""`import svmeval` and `import svmeval.metrics` load neither LIBSVM nor scipy, import nothing of
the cross-validation package and change no environment variable; the public names still work."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CHECK = """
import json, os, sys
before = dict(os.environ)
import svmeval
import svmeval.metrics
print(json.dumps({
    "modules": sorted(m for m in sys.modules
                      if m.split(".")[0] in ("libsvm", "scipy", "sklearn")
                      or m.startswith("svmeval.cv")),
    "environ_changed": sorted(k for k in set(before) | set(os.environ)
                              if before.get(k) != os.environ.get(k)),
}))
"""


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout


def test_import_loads_neither_libsvm_nor_scipy_and_sets_nothing():
    seen = json.loads(run_python(CHECK))
    assert seen == {"modules": [], "environ_changed": []}


def test_public_names_load_on_first_use():
    out = run_python(
        "import sys, svmeval\n"
        "from svmeval import SvmParams, SvmevalError, read_dataset\n"
        "print('svmeval.cv' in sys.modules)\n"
        "from svmeval import cross_validate, summarize\n"
        "from svmeval.cv import cross_validate as cv\n"
        "print('svmeval.cv' in sys.modules, cross_validate is cv, svmeval.summarize is summarize)\n"
    )
    assert out.split() == ["False", "True", "True", "True"]


def test_every_public_name_resolves_and_unknown_names_raise():
    import svmeval

    for name in svmeval.__all__:
        assert getattr(svmeval, name) is not None
        assert name in dir(svmeval)
    with pytest.raises(AttributeError, match="no_such_name"):
        svmeval.no_such_name  # noqa: B018


def test_type_checkers_see_every_public_name_from_its_module():
    """``svmeval/__init__.py`` imports, under ``if TYPE_CHECKING:`` only, every name of its
    lazy table from the module that table names (so that mypy and IDEs see the real
    signatures), and its ``__all__`` is that table's names and ``__version__``."""
    import ast
    from pathlib import Path

    import svmeval

    source = Path(svmeval.__file__).read_text(encoding="utf-8")
    seen = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                seen.update({alias.name: statement.module for alias in statement.names})
    assert seen == svmeval._LAZY
    assert sorted(svmeval.__all__) == sorted([*svmeval._LAZY, "__version__"])

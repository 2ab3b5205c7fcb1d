"""The README's Python examples run: every ```python block is executed as a user runs it, in a
folder of its own that holds the data sets (the project's data/ and ../shared/data's files)
(a block may be left out only by an HTML comment just above it that says why it is not run, and
none of the "Three examples" section's may); the public names behave as the README says."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import DATA, HAVE_SHARED, ROOT

README = ROOT / "README.md"
BLOCK = re.compile(
    r"(?:<!-- (?P<skip>not run by the tests: [^>]*?) -->\n)?```python\n"
    r"(?P<code>.*?)^```",
    re.S | re.M,
)


def python_blocks() -> list[tuple[int, str, str | None, str]]:
    """(line, section, reason not run or None, code) of every Python block in the README."""
    text = README.read_text(encoding="utf-8")
    out = []
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        headings = re.findall(r"^## (.+)$", text[: m.start()], re.M)
        out.append((line, headings[-1] if headings else "", m.group("skip"), m.group("code")))
    return out


BLOCKS = python_blocks()


def test_the_examples_section_has_python_examples_and_runs_them_all():
    section = [b for b in BLOCKS if b[1] == "Three examples"]
    assert len(section) >= 2
    assert all(skip is None for _, _, skip, _ in section)


@pytest.mark.parametrize(
    "line, section, skip, code", BLOCKS, ids=[f"README.md:{b[0]}" for b in BLOCKS]
)
def test_readme_python_block_runs(line, section, skip, code, monkeypatch, capsys, tmp_path):
    if skip:
        pytest.skip(f"README.md:{line}: {skip}")
    pytest.importorskip("pandas")  # the extra 'frame', part of the test extras
    shared = [p.name for p in DATA.iterdir()] if DATA.is_dir() else []
    if not HAVE_SHARED and any(f'"{name}"' in code for name in shared):
        pytest.skip(f"README.md:{line}: its data sets are in ../shared/data")
    # as a user runs it: in a folder of their own holding the data sets, the project's data/
    for path in [*(DATA.iterdir() if HAVE_SHARED else ()), ROOT / "data"]:
        (tmp_path / path.name).symlink_to(path)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme_example"})
    capsys.readouterr()


def test_compare_is_the_function_also_after_its_module_is_imported():
    code = (
        "import inspect, svmeval\n"
        "before = svmeval.compare\n"
        "import svmeval.workflows.compare\n"
        "from svmeval import compare as exported\n"
        "print(before is exported is svmeval.compare, inspect.isfunction(exported))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]


def test_the_api_the_readme_names_is_exported_lazily():
    names = [
        "read_dataset",
        "SvmParams",
        "cross_validate",
        "grid_search",
        "compare",
        "mcnemar_files",
        "summarize",
        "summarize_predictions",
        "render",
        "CVResult",
        "Summary",
        "GridResult",
        "CellResult",
        "Comparison",
    ]
    code = (
        "import sys, svmeval\n"
        f"missing = [n for n in {names!r} if n not in svmeval.__all__]\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('libsvm', 'numpy', 'pandas')]\n"
        "print(missing, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]", "[]"]

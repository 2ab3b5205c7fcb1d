"""The README's benchmark example runs as written (its data file names pointing at the data
sets) and prints the table the README shows; the shown numbers are LIBSVM's folds, so they are
compared only where ../shared holds the README's data sets."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import HAVE_SHARED, ROOT, data_set


def _block(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(re.escape(marker) + r"\n(?:<!-- [^>]*-->\n)?```[a-z]*\n(.*?)```", text,
                      re.S)
    assert match, f"README has no block after {marker}"
    return match.group(1)


def test_readme_benchmark_example_runs_and_prints_its_table(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    code = _block("<!-- benchmark-example -->")
    names = ("heart_scale", "iris.scale", "breast-cancer_scale")
    paths = [data_set(n) for n in names]
    if len(set(paths)) < 3:
        pytest.skip("the README's three data sets need ../shared (two share a stand-in)")
    for name, path in zip(names, paths):
        code = code.replace(f'"{name}"', repr(str(path)))
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "cd.png").stat().st_size > 0
    printed = out.getvalue()
    assert printed.startswith("| data set | -c 1 | -c 8 -g 0.05 | -t 0 |")
    if HAVE_SHARED:
        shown = _block("<!-- benchmark-output -->")
        assert printed.replace(str(paths[0]), "heart_scale").replace(
            str(paths[1]), "iris.scale").replace(str(paths[2]), "breast-cancer_scale") == \
            shown + "\n"

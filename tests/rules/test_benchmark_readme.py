"""The README's benchmark example runs as written, from a folder that holds the project's data/,
and prints the table the README shows under it."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT


def _block(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(re.escape(marker) + r"\n(?:<!-- [^>]*-->\n)?```[a-z]*\n(.*?)```", text, re.S)
    assert match, f"README has no block after {marker}"
    return match.group(1)


def test_readme_benchmark_example_runs_and_prints_its_table(tmp_path, monkeypatch):
    code = _block("<!-- benchmark-example -->")
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == _block("<!-- benchmark-output -->") + "\n"

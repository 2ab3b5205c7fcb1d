"""The README and the documentation's front page name every command the package installs
(pyproject.toml's console scripts: the oracle), say how many there are in words that match,
and offer no install command that does not work (svmeval is not on a package index)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

tomllib = pytest.importorskip("tomllib")

NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def scripts() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return sorted(tomllib.load(fh)["project"]["scripts"])


def test_the_readme_table_lists_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The commands", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(svmeval[-a-z]*) ", section, re.M)
    assert sorted(listed) == scripts()
    for name in scripts():
        assert f"docs/commands/{name}.md" in section, name


@pytest.mark.parametrize("page", ["README.md", "docs/index.rst", "docs/getting_started.md"])
def test_the_count_of_commands_is_right(page):
    text = (ROOT / page).read_text(encoding="utf-8").lower()
    said = {n for n, word in NUMBERS.items() if re.search(rf"\b{word} commands\b", text)}
    assert said <= {len(scripts())}, said


def test_the_front_page_names_every_command():
    index = (ROOT / "docs" / "index.rst").read_text(encoding="utf-8")
    named = re.findall(r"^``(svmeval[-a-z]*)``$", index, re.M)
    assert sorted(named) == scripts()


def test_no_install_from_a_package_index_that_has_no_release():
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts]
    for page in [ROOT / "README.md", *pages]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install '?svmeval\b", text), page

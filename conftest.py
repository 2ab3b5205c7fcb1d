"""pytest's set-up for the docstrings' examples (``--doctest-modules`` over svmeval/): they run
from the repository's root, where ``data/`` holds the bundled data sets."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

# the commands' entry modules run their command when imported
collect_ignore = ["svmeval/__main__.py", "svmeval/cli/__main__.py", "build", "docs"]


@pytest.fixture(autouse=True)
def _doctests_run_from_the_root(request, monkeypatch):
    if type(request.node).__name__ == "DoctestItem":
        monkeypatch.chdir(ROOT)

"""Shared test helpers: where the shared data and reference outputs live."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"
REFERENCE = SHARED / "reference"


def shared_file(*parts: str) -> Path:
    """A file under ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data sets and reference outputs live in ../shared)")
    return path


@pytest.fixture
def data_file():
    return lambda name: shared_file("data", name)

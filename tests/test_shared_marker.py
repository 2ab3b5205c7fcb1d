"""The tests that reach ../shared are known (marked ``shared_data``), so that ``make test`` can
run them once more as a clone without ../shared runs them (``SVMEVAL_TEST_NO_SHARED=1``)."""

from __future__ import annotations

import re
import textwrap

import pytest

from conftest import ROOT, reaches_shared


@pytest.mark.parametrize(
    "source, reaches",
    [
        ("from conftest import data_set\n", True),
        ("from conftest import ROOT, shared_file\n", True),
        ("def test_x():\n    from conftest import zero_one_data\n", True),  # inside a test
        ("from conftest import (\n    HAVE_SHARED,\n    ROOT,\n)\n", True),
        ("from conftest import ROOT, libsvm_cv\n", False),
        ("import conftest\ndata_set = 1\n", False),
    ],
)
def test_a_module_reaches_shared_by_importing_a_helper_of_conftest(tmp_path, source, reaches):
    path = tmp_path / "test_module.py"
    path.write_text(textwrap.dedent(source))
    assert reaches_shared(path) is reaches


def test_every_test_module_that_calls_a_shared_helper_is_marked():
    """The oracle: the modules' own text (a call of a helper, a use of the data folder)."""
    uses = re.compile(
        r"\b(data_sets?|shared_file|zero_one_data)\(|\bHAVE_SHARED\b"
        r"|\bdef \w+\([^)]*\bdata_file\b"  # the fixture
    )
    modules = sorted((ROOT / "tests").rglob("test_*.py"))
    calling = {p.name for p in modules if uses.search(p.read_text(encoding="utf-8"))}
    calling.discard("test_shared_marker.py")  # this module: the pattern's own text
    assert calling  # the scan sees them
    marked = {p.name for p in modules if reaches_shared(p)}
    assert calling - marked == set()


def test_the_marked_tests_are_selected_by_the_marker(request):
    """This module's tests are not marked; test_compare's are (it imports inside its tests)."""
    assert request.node.get_closest_marker("shared_data") is None
    assert reaches_shared(ROOT / "tests" / "test_compare.py")

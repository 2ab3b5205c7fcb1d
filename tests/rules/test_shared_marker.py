"""The tests that reach ../shared are known (marked ``shared_data``), so that ``make test`` can
run them once more as a clone without ../shared runs them (``SVMEVAL_TEST_NO_SHARED=1``)."""

from __future__ import annotations

import re
import textwrap

import pytest

import conftest
from conftest import ROOT, item_does, item_reaches_shared, reaches_shared


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
    assert reaches_shared(ROOT / "tests" / "workflows" / "test_compare.py")


#: a test module: which of its tests reach ../shared is written beside each (the oracle: what
#: each test's code does when it runs)
MODULE = """
import pytest

from conftest import LOCAL, data_set, shared_file
from test_other import helper_reaching, helper_not

HEART = data_set("heart_scale")
WINE = LOCAL / "wine.scale"
CASES = [HEART, WINE]


def reader(name):
    return shared_file("reference", name)


def indirect():
    return reader("x")


@pytest.fixture
def heart_rows():
    return HEART.read_text()


@pytest.fixture
def wine_rows():
    return WINE.read_text()


def test_calls_the_helper():  # reaches
    assert data_set("a9a")


def test_local_only():  # does not
    assert WINE.exists()


def test_through_a_value():  # reaches
    assert HEART.exists()


def test_through_two_functions():  # reaches
    indirect()


def test_through_a_fixture(heart_rows):  # reaches
    pass


def test_through_a_plain_fixture(wine_rows):  # does not
    pass


@pytest.mark.parametrize("path", CASES)
def test_parametrized_by_a_value(path):  # reaches
    pass


def test_through_another_module():  # reaches
    helper_reaching()


def test_through_another_modules_plain_helper():  # does not
    helper_not()


def test_importing_inside():  # reaches
    from conftest import HAVE_SHARED

    assert HAVE_SHARED in (True, False)


class TestMethods:
    def test_plain(self):  # does not
        pass

    def test_reaching(self):  # reaches
        reader("y")


class TestWithAValue:
    PATH = HEART

    def test_any(self):  # reaches: its class holds a value that does
        pass
"""

OTHER = """
from conftest import data_set


def helper_reaching():
    return data_set("heart_scale")


def helper_not():
    return 1
"""


def test_each_test_is_marked_by_what_its_own_code_reaches(tmp_path):
    (tmp_path / "test_module.py").write_text(MODULE)
    (tmp_path / "test_other.py").write_text(OTHER)
    path = tmp_path / "test_module.py"
    expected = {}
    owner = []
    for line in MODULE.splitlines():
        if line.startswith("class "):
            owner = [line.split()[1].rstrip(":")]
        elif not line.startswith(" ") and line.strip():
            owner = [] if not line.startswith("@") else owner
        name = line.strip().removeprefix("def ").split("(")[0]
        if line.strip().startswith("def test_"):
            expected[tuple(owner + [name])] = "# reaches" in line
    assert len(expected) == 13 and sum(expected.values()) == 9  # the oracle as written above
    fixtures = {"test_through_a_fixture": ["heart_rows"]}
    fixtures["test_through_a_plain_fixture"] = ["wine_rows"]
    for qualname, reaches in expected.items():
        got = item_reaches_shared(path, list(qualname), fixtures.get(qualname[-1], []))
        assert got is reaches, qualname
    assert item_reaches_shared(path, ["test_local_only"], ["data_file"])  # the fixture


def test_a_test_that_reaches_shared_unmarked_fails(request, monkeypatch):
    """The check behind the marker: a helper of conftest called while an unmarked test runs
    fails it (this test is not marked; the helper runs as if called from its code)."""
    assert request.node.get_closest_marker("shared_data") is None
    monkeypatch.setattr(conftest, "_RUNNING", [request.node])
    for call in (
        lambda: conftest.data_set("heart_scale"),
        lambda: conftest.shared_file("reference", "x"),
        lambda: conftest.zero_one_data(ROOT),
    ):
        with pytest.raises(AssertionError, match="not marked shared_data"):
            call()
    request.node.add_marker(pytest.mark.shared_data)
    assert conftest.data_set("iris.scale").exists()


PROCESSES = """
import subprocess
import sys

import commands


def child(*args):
    return subprocess.run([sys.executable, *args])


def test_in_a_child():  # starts one
    child("-c", "pass")


def test_in_process():  # does not
    commands.run("svmeval", ["--version"])


def test_the_launcher():  # starts one
    commands.run_process("svmeval", ["--version"])


def test_a_signal(proc):  # starts one
    proc.send_signal(2)
"""


def test_each_test_that_starts_a_process_is_marked_process(tmp_path):
    path = tmp_path / "test_processes.py"
    path.write_text(PROCESSES)
    expected = {
        line.strip().removeprefix("def ").split("(")[0]: "# starts one" in line
        for line in PROCESSES.splitlines()
        if line.startswith("def test_")
    }
    assert sum(expected.values()) == 3 and len(expected) == 4  # the oracle as written above
    for name, starts in expected.items():
        assert item_does(path, [name], [], "process") is starts, name

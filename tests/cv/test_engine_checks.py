"""The library's argument checks: one place (svmeval.cv.plan.checks), the same rule and message for
cross_validate, grid_search and compare; their visible signatures; no import cycle; a run's
data checked once, at its door.

Oracles: C's types as LIBSVM declares them (``int nr_fold``, ``srand(unsigned int)``), the
numpydoc format (a "Parameters" section naming every parameter), Python's own import system
(each module imported alone in a fresh interpreter), and the calls of the data's checks
counted where they are defined.
"""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from svmeval import SvmevalError, SvmParams, read_dataset
from svmeval.cv import cross_validate
from svmeval.workflows.compare import compare
from svmeval.workflows.grid import grid_search

from conftest import data_set

PACKAGE = Path(__file__).resolve().parents[2] / "svmeval"
RUNS = {
    "cross_validate": lambda ds, **kw: cross_validate(ds, SvmParams(), kw.pop("folds", 3), **kw),
    "grid_search": lambda ds, **kw: grid_search(ds, log2c=(0, 1, 1), log2g=None, **kw),
    "compare": lambda ds, **kw: compare(
        ds, SvmParams(), SvmParams(C=2), kw.pop("folds", 3), repeat=1, **kw
    ),
}
FOLDS_NAME = {"cross_validate": "folds", "grid_search": "folds", "compare": "folds"}


@pytest.fixture(scope="module")
def heart():
    return read_dataset(str(data_set("heart_scale")))


def _call(heart, run, **arguments):
    """The one-line message of the SvmevalError that ``run`` raises with ``arguments``."""
    with pytest.raises(SvmevalError) as caught:
        RUNS[run](heart, **arguments)
    assert "\n" not in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize(
    "value,message",
    [
        (-1, "seed must be an integer from 0 to 4294967295 (C srand's unsigned int), got -1"),
        (
            2**32,
            "seed must be an integer from 0 to 4294967295 (C srand's unsigned int), got 4294967296",
        ),
        (1.0, "seed must be an integer from 0 to 4294967295 (C srand's unsigned int), got 1.0"),
        ("1", "seed must be an integer from 0 to 4294967295 (C srand's unsigned int), got '1'"),
    ],
)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_seed_is_c_srand_unsigned_int_everywhere(heart, run, value, message):
    assert _call(heart, run, seed=value) == message


@pytest.mark.parametrize(
    "value,message",
    [
        (0, "jobs must be a positive integer, got 0"),
        (1.5, "jobs must be a positive integer, got 1.5"),
        ("2", "jobs must be a positive integer, got '2'"),
        (True, "jobs must be a positive integer, got True"),
    ],
)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_jobs_checked_the_same_everywhere(heart, run, value, message):
    assert _call(heart, run, jobs=value) == message


@pytest.mark.parametrize("run", sorted(RUNS))
def test_client_checked_before_any_connection(heart, run):
    assert _call(heart, run, client=42) == (
        "client: must be a distributed.Client or a scheduler address (or local[:N]), got int"
    )


@pytest.mark.parametrize(
    "value,message",
    [
        (1, "n-fold cross validation: n must >= 2, got {name} = 1"),
        (2.5, "{name} must be an integer, got 2.5"),
        ("5", "{name} must be an integer, got '5'"),
        (2**31, "{name} = 2147483648 does not fit a C int"),
    ],
)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_folds_are_a_c_int_of_at_least_two_everywhere(heart, run, value, message):
    assert _call(heart, run, folds=value) == message.format(name=FOLDS_NAME[run])


@pytest.mark.parametrize("run", ["grid_search", "compare"])
def test_criterion_must_fit_the_kind_of_run_everywhere(heart, run):
    message = _call(heart, run, criterion="mse")
    assert message.startswith(
        "criterion 'mse' does not apply for binary data: valid criteria for binary data: accuracy,"
    )


def test_execution_options_with_the_same_names_and_a_parameters_section():
    import svmeval

    for function in (
        svmeval.cross_validate,
        svmeval.grid_search,
        svmeval.nested_cv,
        svmeval.compare,
        svmeval.benchmark,
        svmeval.cross_validate_multilabel,
    ):
        parameters = list(inspect.signature(function).parameters.values())
        kinds = {p.kind for p in parameters}
        assert inspect.Parameter.VAR_POSITIONAL not in kinds
        assert inspect.Parameter.VAR_KEYWORD not in kinds
        execution = [p for p in parameters if p.name in ("jobs", "client", "progress")]
        assert {p.name for p in execution} >= {"jobs", "progress"}, function.__name__
        assert all(
            p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None for p in execution
        )
        doc = inspect.getdoc(function)
        assert "\nParameters\n----------\n" in doc, function.__name__
        section = doc.split("\nParameters\n----------\n")[1].split("\nReturns\n")[0]
        documented = set()
        for line in section.splitlines():
            if line and not line.startswith(" "):
                documented.update(n.strip() for n in line.split(":")[0].split(","))
        assert {p.name for p in parameters} <= documented, function.__name__


# --- imports ----------------------------------------------------------------------------------
def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level(tree):
    """The nodes run when the module is imported: not those inside a function's body."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _import_graph(function_bodies: bool = True) -> dict[str, set[str]]:
    """svmeval's modules -> the svmeval modules each imports: anywhere (function bodies too),
    or with ``function_bodies=False`` only what runs when the module is imported."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    extensions = {_module(p.with_suffix(".py")) for p in PACKAGE.rglob("*.c")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree) if function_bodies else _top_level(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up) + (f".{node.module}" if node.module else "")
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in extensions:
                        continue
                    found.add(full if full in modules else base)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_search_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_svmeval():
    """No cycle among the imports that run at import time, anywhere in svmeval; inside cv/ none
    even through function bodies. (A result's ``to_frame()`` importing its presenter when called
    is the one deliberate way back up: the data types stay usable without the reports.)"""
    graph = _import_graph(function_bodies=False)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))
    everywhere = _import_graph()
    assert {"svmeval.cv.run.evaluate", "svmeval.cv.run.executors"} <= set(
        everywhere["svmeval.cv.engine"]
    )
    cv = {
        name: {m for m in deps if m.startswith("svmeval.cv")}
        for name, deps in everywhere.items()
        if name.startswith("svmeval.cv")
    }
    assert _cycle(cv) is None, " -> ".join(_cycle(cv))


def test_every_cv_module_imports_alone():
    names = sorted(_module(p) for p in (PACKAGE / "cv").rglob("*.py"))
    code = (
        "import importlib, sys\n"
        "name = sys.argv[1]\n"
        "importlib.import_module(name)\n"
        "assert 'libsvm' not in sys.modules, name\n"
    )
    for name in names:
        done = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True)
        assert done.returncode == 0, f"{name}: {done.stderr.strip().splitlines()[-1:]}"
        assert re.fullmatch(r"\s*", done.stderr), done.stderr


# --- the data checked once, at the door ----------------------------------------------------------
SMALL = Path(__file__).resolve().parents[2] / "data" / "breast_cancer.scale"


def _small(tmp_path: Path, rows: int = 40) -> Path:
    path = tmp_path / "small"
    path.write_text("".join(SMALL.read_text().splitlines(True)[:rows]))
    return path


def _kernel_file(tmp_path: Path) -> Path:
    """The linear kernel of _small's rows, as LIBSVM's -t 4 reads it (0:serial first)."""
    import numpy as np

    ds = read_dataset(str(_small(tmp_path)))
    x = np.zeros((ds.n_samples, ds.n_features + 1))
    for i in range(ds.n_samples):
        row = slice(ds.indptr[i], ds.indptr[i + 1])
        x[i, ds.indices[row]] = ds.values[row]
    k = x @ x.T
    path = tmp_path / "kernel"
    path.write_text(
        "".join(
            f"{ds.y[i]:g} 0:{i + 1} "
            + " ".join(f"{j + 1}:{k[i, j]:.17g}" for j in range(ds.n_samples))
            + "\n"
            for i in range(ds.n_samples)
        )
    )
    return path


@pytest.fixture
def counted_checks(monkeypatch):
    """How many times a run checks its data set (Dataset.validate: the reader's guarantees)
    and a precomputed kernel's rows (check_precomputed), wherever it calls them from."""
    import collections

    from svmeval.cv import engine
    from svmeval.io import data as io_data

    calls: collections.Counter = collections.Counter()
    validate, precomputed = io_data.Dataset.validate, io_data.check_precomputed

    def counted_validate(self):
        calls["validate"] += 1
        validate(self)

    def counted_precomputed(ds):
        calls["precomputed"] += 1
        precomputed(ds)

    monkeypatch.setattr(io_data.Dataset, "validate", counted_validate)
    monkeypatch.setattr(io_data, "check_precomputed", counted_precomputed)
    monkeypatch.setattr(engine, "check_precomputed", counted_precomputed, raising=False)
    return calls


@pytest.mark.parametrize("given", ["file", "Dataset", "(X, y)"])
@pytest.mark.parametrize("run", ["cross_validate", "compare"])
def test_a_runs_data_are_checked_once_at_its_door(tmp_path, counted_checks, given, run):
    """A file is read (the reader's checks), (X, y) built, a Dataset checked again (its arrays
    may have changed since it was built): once, at the run's door, whatever the run does
    after (compare prepares each of its two configurations)."""
    path = _small(tmp_path)
    if given == "file":
        data = str(path)
    else:
        ds = read_dataset(str(path))
        data = ds if given == "Dataset" else (_dense(ds), ds.y)
    counted_checks.clear()
    RUNS[run](data)
    assert counted_checks == {"validate": 1}


def _dense(ds):
    import numpy as np

    x = np.zeros((ds.n_samples, ds.n_features))
    for i in range(ds.n_samples):
        row = slice(ds.indptr[i], ds.indptr[i + 1])
        x[i, ds.indices[row] - 1] = ds.values[row]
    return x


@pytest.mark.parametrize("run", ["cross_validate", "compare"])
def test_a_precomputed_kernels_rows_are_checked_once_at_the_door(tmp_path, counted_checks, run):
    path = str(_kernel_file(tmp_path))
    counted_checks.clear()
    runs = {
        "cross_validate": lambda: cross_validate(path, "-t 4", 3),
        "compare": lambda: compare(path, "-t 4", "-t 4 -c 2", 3, repeat=1),
    }
    runs[run]()
    assert counted_checks == {"validate": 1, "precomputed": 1}
    # the door's check is the one LIBSVM relies on: a row without its serial number is refused
    broken = tmp_path / "broken"
    broken.write_text(Path(path).read_text().replace(" 0:1 ", " ", 1))
    with pytest.raises(SvmevalError, match=r"broken:1: precomputed kernel: the first feature"):
        cross_validate(str(broken), "-t 4", 3)

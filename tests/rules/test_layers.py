"""The layers of svmeval import only downward, at import time and in deferred imports alike,
and no module imports itself through others (no cycle).

    L0  svmeval, errors, params, io/, _args, _constraints, _tables, _version, progress, store/
    L1  metrics/ (y_true, y_pred -> figures), stats/ (per-fold values -> inference) and
        preprocess/ (svm-scale's scaling, fselect.py's selection, learned on given rows)
    L2  cv/: the only code that knows LIBSVM
    L3  summary/: a CV result -> Summary
    L4  workflows/: grid search, nested CV, comparisons
    L5  report/: results -> text, JSON, CSV, pictures
    L6  cli/ and the commands' entry point

and each package reaches the others through their public modules and names: a private module
is its package's own (and its subpackages'), a private name its module's package's.

The static checks read every import statement of every module (those inside functions too);
the run-time checks import each package in a fresh interpreter and look at what it loaded.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "svmeval"

LAYERS = {
    "svmeval": 0,
    "svmeval._version": 0,
    "svmeval._args": 0,
    "svmeval._constraints": 0,
    "svmeval.errors": 0,
    "svmeval.params": 0,
    "svmeval.io": 0,
    "svmeval._tables": 0,
    "svmeval._repr": 0,
    "svmeval._extras": 0,
    "svmeval._classes": 0,
    "svmeval.progress": 0,
    "svmeval.store": 0,
    "svmeval.metrics": 1,
    "svmeval.stats": 1,
    "svmeval.preprocess": 1,
    "svmeval.cv": 2,
    "svmeval.summary": 3,
    "svmeval.workflows": 4,
    "svmeval.report": 5,
    "svmeval.cli": 6,
    "svmeval._entry": 6,
    "svmeval.__main__": 6,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
#: the C extension modules (``svmeval.cv._kernel``): modules too, that import nothing of svmeval
EXTENSIONS = {module_name(p) for p in sorted(PACKAGE.rglob("*.c"))}


def group(module: str) -> str:
    """The layer group of a module: the longest prefix named in LAYERS."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in LAYERS and (n > 1 or module == "svmeval"):
            return prefix
    raise KeyError(module)


def imports(path: Path, package: str | None = None) -> set[str]:
    """The svmeval modules ``path`` imports anywhere in its code: ``from X import Y`` counts
    as X.Y where that is a module, else as X. ``package``: the package the file is in."""
    out = set()
    if package is None:
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "svmeval")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "svmeval":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.add(sub if sub in MODULES else source)
    return {m for m in out if m in MODULES or m.rsplit(".", 1)[0] in MODULES}


def type_checking_imports(path: Path) -> set[str]:
    """The svmeval modules ``path`` imports under ``if TYPE_CHECKING:`` (for type checkers:
    never at run time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    out.add(statement.module)
    return out


GRAPH = {m: imports(p) - {m} for m, p in MODULES.items()}
# the package's face, svmeval/__init__.py, names every public object's module for type checkers
# (its names are imported lazily, on first use: test_importing_a_layer_loads_nothing_above_it
# shows that ``import svmeval`` loads nothing of a higher layer)
GRAPH["svmeval"] -= type_checking_imports(MODULES["svmeval"])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_import_goes_down_or_stays_in_its_package(module):
    mine = group(module)
    for target in sorted(GRAPH[module]):
        theirs = group(target)
        if theirs == mine or target == "svmeval" or LAYERS[theirs] == LAYERS[mine] in (0, 6):
            continue  # the foundation (errors, params, io, ...) is one layer, the commands one
        assert LAYERS[theirs] < LAYERS[mine], (
            f"{module} (L{LAYERS[mine]}) imports {target} (L{LAYERS[theirs]})"
        )


def cycles(graph: dict) -> list:
    """The import cycles of ``graph`` (module -> imported modules): Tarjan's strongly
    connected components of more than one module."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_anywhere():
    """Every import counts, deferred ones included."""
    assert cycles(GRAPH) == []


#: cv/'s stages, in the order the imports may go: a run's entries (cv/engine.py,
#: cv/multilabel.py, and beside engine.py, on its cross-validations, cv/comparison.py and
#: cv/training.py) use all three, run/ takes the plan and fills what a run gives back,
#: plan/ draws the folds into that result's types, collect/ is plain data and knows neither;
#: the core at cv/'s root (LIBSVM's and LIBLINEAR's C, threads, bounded waits) imports none
CV_STAGES = ("svmeval.cv.collect", "svmeval.cv.plan", "svmeval.cv.run")


def cv_stage(module: str) -> str | None:
    """The stage of cv/ ``module`` is in (None: the root's core or entries, or outside cv/)."""
    return next((s for s in CV_STAGES if module == s or module.startswith(s + ".")), None)


@pytest.mark.parametrize("stage", CV_STAGES)
def test_cv_stages_import_only_earlier_stages(stage):
    """plan -> run -> collect, readable from cv/'s folders: collect/ imports nothing of plan/
    or run/, plan/ nothing of run/, and the core at cv/'s root nothing of any stage."""
    later = set(CV_STAGES[CV_STAGES.index(stage) + 1 :])
    found = {
        module: sorted(t for t in GRAPH[module] if cv_stage(t) in later)
        for module in MODULES
        if cv_stage(module) == stage
    }
    assert {m: t for m, t in found.items() if t} == {}


#: cv/'s entries at its root: a run's doors, each going through the three stages
ENTRIES = (
    "svmeval.cv.engine",
    "svmeval.cv.multilabel",
    "svmeval.cv.comparison",
    "svmeval.cv.training",
)


def test_the_core_of_cv_imports_no_stage():
    root = [
        m
        for m in MODULES
        if m.startswith("svmeval.cv.") and cv_stage(m) is None and m not in ENTRIES
    ]
    assert root, "cv/ has a core at its root"
    found = {m: sorted(t for t in GRAPH[m] if cv_stage(t)) for m in root}
    assert {m: t for m, t in found.items() if t} == {}


#: within the foundation (L0), what a group does not import: the metrics, the statistics and
#: the results' tables take their checks from svmeval._constraints (which imports only the
#: errors), not from svmeval._args (the vocabulary, which reads svm-train's options and the
#: data's form with io/); the vocabulary and the store read svm-train's syntax from io/, not
#: from svmeval.params (SvmParams, built on that syntax)
FOUNDATION_APART = {
    "svmeval._constraints": {"svmeval._args", "svmeval.params", "svmeval.io", "svmeval._tables"},
    "svmeval._tables": {"svmeval._args", "svmeval.params", "svmeval.io"},
    "svmeval.metrics": {"svmeval._args", "svmeval.params", "svmeval.io"},
    "svmeval.stats": {"svmeval._args", "svmeval.params", "svmeval.io"},
    "svmeval._args": {"svmeval.params"},
    "svmeval.store": {"svmeval.params"},
}


@pytest.mark.parametrize("lower", sorted(FOUNDATION_APART))
def test_the_foundation_stays_flat(lower):
    """Each group of FOUNDATION_APART imports none of the groups named with it (deferred
    imports included): the foundation stays flat under the metrics and the statistics."""
    found = {
        module: sorted(t for t in GRAPH[module] if group(t) in FOUNDATION_APART[lower])
        for module in MODULES
        if group(module) == lower
    }
    assert {m: t for m, t in found.items() if t} == {}


def launcher_uses(path: Path) -> list[str]:
    """Where ``path`` reaches the console scripts' entry, ``svmeval_launch``: an import
    statement, or its name or its file's handed to a call (``importlib.import_module``,
    ``__import__``, ``runpy``, a spec made from its path)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if not node.level else []
        elif isinstance(node, ast.Call):
            names = [
                a.value
                for a in ast.walk(node)
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
        else:
            continue
        found += [f"line {node.lineno}" for n in names if "svmeval_launch" in n]
    return sorted(set(found))


def test_nothing_of_the_package_reaches_back_to_the_console_scripts_entry(tmp_path):
    """The console scripts start in ``svmeval_launch`` (beside the package), which imports the
    commands' launcher, ``svmeval.cli.__main__``: no module of the package reaches back up to
    it, and the launcher is imported only by the commands' other entries (``python -m
    svmeval`` and the console scripts of older installations), never by the library."""
    assert {m: launcher_uses(p) for m, p in MODULES.items() if launcher_uses(p)} == {}
    importers = {m for m, targets in GRAPH.items() if "svmeval.cli.__main__" in targets}
    assert importers == {"svmeval.__main__", "svmeval._entry"}
    assert "svmeval.cli.__main__" in imports(ROOT / "svmeval_launch.py", "")
    # the scan sees each way of reaching it, and not a mere mention
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import svmeval_launch\n"
        "def f():\n"
        "    from svmeval_launch import main\n"
        "    importlib.import_module('svmeval_launch')\n"
        "    spec_from_file_location('x', os.path.join(ROOT, 'svmeval_launch.py'))\n"
        "    'svmeval_launch, named in a string'\n"
    )
    assert launcher_uses(probe) == ["line 1", "line 3", "line 4", "line 5"]


def test_the_scan_sees_deferred_imports_and_cycles(tmp_path):
    """The checks above can fail: a deferred upward import is seen, and so is a cycle."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from svmeval.report import render\n    from . import plot\n")
    assert imports(probe, "svmeval.summary") == {"svmeval.report", "svmeval.summary"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


LOADED = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "svmeval")))
"""


@pytest.mark.parametrize(
    "package",
    [
        "svmeval",
        "svmeval.errors",
        "svmeval.params",
        "svmeval.io.data",
        "svmeval.metrics",
        "svmeval.stats",
        "svmeval.cv.engine",
        "svmeval.summary",
        "svmeval.workflows.grid",
        "svmeval.workflows.benchmark",
        "svmeval.report",
    ],
)
def test_importing_a_layer_loads_nothing_above_it(package):
    """Each package in a fresh interpreter: nothing of a higher layer is loaded."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, package],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    loaded = json.loads(done.stdout)
    mine = LAYERS[group(package)]
    above = [m for m in loaded if m != "svmeval" and LAYERS[group(m)] > mine]
    assert above == []


def test_scoring_loads_no_part_of_the_engine():
    """``import svmeval.summary`` (to score predictions from anywhere) loads of cv/ at most the
    result types, never LIBSVM nor the C kernel."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, "svmeval.summary"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    loaded = json.loads(done.stdout)
    assert {m for m in loaded if m.startswith("svmeval.cv")} <= {
        "svmeval.cv",
        "svmeval.cv.collect",
        "svmeval.cv.collect.results",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, svmeval.summary; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'libsvm'))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.stdout.strip() == "[]"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def package_of(module: str) -> str:
    """The package a module belongs to: itself for a package's __init__, else its parent."""
    if module in EXTENSIONS:
        return module.rsplit(".", 1)[0]
    return module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]


def owner(module: str) -> str | None:
    """The package whose private part ``module`` is (``svmeval.cv._libsvm`` -> ``svmeval.cv``),
    or None for a public module."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if _private(part):
            return ".".join(parts[:i])
    return None


def foreign(module: str, package: str) -> bool:
    """Whether ``module`` is a private module of a package ``package`` is not part of: a
    package's private modules are its own and its subpackages' (``svmeval._tables`` serves
    every package of svmeval; ``svmeval.cv._libsvm`` only svmeval.cv)."""
    mine = owner(module)
    return mine is not None and package != mine and not package.startswith(mine + ".")


def private_uses(path: Path, package: str) -> list[str]:
    """What ``path`` (a module of ``package``) takes that is private to another package: a
    private module of a package it is not part of (``svmeval.cv._libsvm`` outside svmeval.cv),
    a private name imported from a module of another package (``from svmeval.progress import
    _is_terminal`` in svmeval.cli: a ``_name`` is its own package's modules'), or a private
    attribute of such a module reached through its name (``checks._integer``)."""
    found = []
    modules = {}  # local name -> the svmeval module it is bound to
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "svmeval":
                    targets = [alias.name]
                    modules[alias.asname or alias.name] = alias.name
                    found += [f"import {t}" for t in targets if foreign(t, package)]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "svmeval":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in MODULES or sub in EXTENSIONS:  # a module
                    modules[alias.asname or alias.name] = sub
                    if foreign(sub, package):
                        found.append(f"from {source} import {alias.name}")
                elif foreign(source, package) or (
                    _private(alias.name) and package_of(source) != package
                ):
                    found.append(f"from {source} import {alias.name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _private(node.attr)
            and package_of(modules[node.value.id]) != package
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return sorted(set(found))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_uses_another_packages_private_parts(module):
    """Each package offers the others what they need through its public modules and names:
    a private module (``_libsvm``) or name (``_fold_values``) is its own package's."""
    assert private_uses(MODULES[module], package_of(module)) == []


def test_the_privacy_scan_sees_private_modules_names_and_attributes(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from svmeval.cv import _libsvm, engine\n"
        "import svmeval.cv._libsvm\n"
        "from svmeval.workflows.compare import _fold_values, compare\n"
        "from svmeval.cv.plan import checks\n"
        "def f():\n    return checks._integer, checks.check_folds, engine.run_cv\n"
    )
    assert private_uses(probe, "svmeval.workflows") == [
        "checks._integer",
        "from svmeval.cv import _libsvm",
        "import svmeval.cv._libsvm",
    ]
    assert private_uses(probe, "svmeval.cv.plan") == [
        "from svmeval.workflows.compare import _fold_values"
    ]
    probe.write_text("from svmeval import _tables\nfrom svmeval.progress import _x\n")
    assert private_uses(probe, "svmeval.cv") == ["from svmeval.progress import _x"]
    assert private_uses(probe, "svmeval") == []


def test_report_imports_nothing_of_workflows():
    """report/ shows every result without importing workflows/: a result type names its view
    (``__svmeval_view__``), and the view is report/'s own (svmeval.report._views)."""
    found = {
        module: sorted(t for t in GRAPH[module] if group(t) == "svmeval.workflows")
        for module in MODULES
        if group(module) == "svmeval.report"
    }
    assert {m: t for m, t in found.items() if t} == {}


#: the result types svmeval shows (render, the HTML page, plot): report/ names none of them in
#: a test of type
RESULT_TYPES = {
    "CVResult",
    "MultilabelCVResult",
    "Summary",
    "GridResult",
    "CellResult",
    "NestedResult",
    "Comparison",
    "McNemarResult",
    "TTestResult",
    "Benchmark",
    "PermutationTest",
    "TunedThreshold",
}


def type_tests(path: Path) -> list[str]:
    """Where ``path`` tests an object against a result type: ``isinstance``/``issubclass``
    with one among its types, ``type(x) is/== T``, or a ``case T(...)`` pattern."""
    found = []

    def names(node) -> set[str]:
        return {
            n.id if isinstance(n, ast.Name) else n.attr
            for n in ast.walk(node)
            if isinstance(n, (ast.Name, ast.Attribute))
        }

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            hit = names(node.args[1]) & RESULT_TYPES
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Is, ast.Eq, ast.In, ast.IsNot, ast.NotEq, ast.NotIn))
            for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            typed = any(
                isinstance(s, ast.Call) and getattr(s.func, "id", None) == "type" for s in sides
            )
            hit = set().union(*(names(s) for s in sides)) & RESULT_TYPES if typed else set()
        elif isinstance(node, ast.MatchClass):
            hit = names(node.cls) & RESULT_TYPES
        else:
            continue
        found += [f"line {node.lineno}: {name}" for name in sorted(hit)]
    return found


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if group(m) == "svmeval.report"), ids=str
)
def test_report_dispatches_on_no_test_of_a_result_type(module):
    """render, the HTML page, its pictures and plot() find a result's view by the name its type
    declares, never by an isinstance chain over the result types."""
    assert type_tests(MODULES[module]) == []


def test_the_type_test_scan_sees_isinstance_type_and_match(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f(result, x):\n"
        "    if isinstance(result, (CVResult, MultilabelCVResult)):\n"
        "        pass\n"
        "    if isinstance(x, float) or type(result) is grid.GridResult:\n"
        "        pass\n"
        "    match result:\n"
        "        case Benchmark():\n"
        "            pass\n"
    )
    assert type_tests(probe) == [
        "line 2: CVResult",
        "line 2: MultilabelCVResult",
        "line 4: GridResult",
        "line 7: Benchmark",
    ]

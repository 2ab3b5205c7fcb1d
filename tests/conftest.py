"""Shared test helpers: where the data sets and svm-train's reference outputs live.

``../shared`` (beside the checkout) holds the larger public data sets and svm-train's stored
outputs. Tests that compare with svm-train's stored outputs need it and skip without it
(:func:`shared_file`). Tests whose oracle is LIBSVM or scikit-learn, run in the test itself, use
:func:`data_set`: the named shared data set where ``../shared`` is present, otherwise a data set
of ``data/`` of the same kind (two-class, multiclass, regression).

``SVMEVAL_TEST_NO_SHARED=1`` makes the tests behave as if ``../shared`` were absent. Every test
of a module that reaches ``../shared`` through these helpers (or their names :data:`SHARED`,
:data:`DATA`, :data:`REFERENCE`, :data:`HAVE_SHARED`, the ``data_file`` fixture) is marked
``shared_data``: ``make test`` runs those again with ``SVMEVAL_TEST_NO_SHARED=1``
(``-m shared_data``), as a clone without ``../shared`` runs them.

The oracles the tests compare svmeval with are packages of the ``test`` extra (:data:`ORACLES`).
A test whose oracle is not installed skips, except with ``SVMEVAL_REQUIRE_ORACLES=1`` (set by
``make test``, and so in CI): then a missing or broken oracle stops the run before any test,
naming it. ``make test SVMEVAL_REQUIRE_ORACLES=0`` opts out.
"""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# The test modules live in folders that mirror svmeval/ (tests/io/, tests/cv/, ...; tests/rules/
# for the project's rules); this folder holds the helpers they share (this module, commands.py,
# _signals.py). A module imports another's helpers by its name, from any folder.
for _folder in sorted(p.parent for p in Path(__file__).resolve().parent.glob("*/test_*.py")):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

# No verdict may depend on the machine's load: Hypothesis's default 200 ms deadline per example
# and its "too slow" health check both fail a correct test on a busy machine (an example of a
# metrics property took 287 ms once beside other jobs, 19 ms when repeated). A test that must
# end in time has pytest-timeout's limit (pyproject.toml).
settings.register_profile("svmeval", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("svmeval")
LOCAL = ROOT / "data"
SHARED = ROOT.parent / "shared"
NO_SHARED = os.environ.get("SVMEVAL_TEST_NO_SHARED", "") not in ("", "0")
HAVE_SHARED = SHARED.is_dir() and not NO_SHARED
DATA = SHARED / "data"
REFERENCE = SHARED / "reference"

#: the oracle packages: import name -> distribution name (pip install NAME)
ORACLES = {
    "sklearn": "scikit-learn",
    "scipy": "scipy",
    "baycomp": "baycomp",
    "mlxtend": "mlxtend",
    "scikit_posthocs": "scikit-posthocs",
    "statsmodels": "statsmodels",
    "liblinear.liblinearutil": "liblinear-official",  # the linear extra: LIBLINEAR's bindings
}
REQUIRE_ORACLES = os.environ.get("SVMEVAL_REQUIRE_ORACLES", "") not in ("", "0")


def missing_oracles() -> list[str]:
    """The oracle packages that do not import, each with the reason (imported in a child
    process: the tests' own process keeps its modules as the tests left them)."""
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        print(name, type(exc).__name__, str(exc).splitlines()[0] if str(exc) else '')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *ORACLES], capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        return [f"the import check failed: {done.stderr.strip().splitlines()[-1:]}"]
    missing = []
    for line in done.stdout.splitlines():
        name, _, reason = line.partition(" ")
        missing.append(f"{ORACLES[name]} ({reason})")
    return missing


def pytest_configure(config):
    import signal

    # A suite started in the background of a shell (`make test &`, nohup) inherits Ctrl-C
    # ignored, and so would every command the tests start: the tests of what Ctrl-C does need
    # Python's own answer to it, in this process (its main thread) and in every child
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if REQUIRE_ORACLES and not hasattr(config, "workerinput"):  # once, in pytest's own process
        missing = missing_oracles()
        if missing:
            raise pytest.UsageError(
                "the tests' oracles must be installed (SVMEVAL_REQUIRE_ORACLES is set): "
                f"{', '.join(missing)}; pip install -e '.[test]', or set "
                "SVMEVAL_REQUIRE_ORACLES=0 to let their tests skip"
            )


#: the names of this module through which a test reaches ../shared (see :func:`reaches_shared`)
SHARED_NAMES = frozenset(
    {"SHARED", "DATA", "REFERENCE", "HAVE_SHARED", "shared_file", "data_set", "data_sets"}
    | {"zero_one_data", "linear_kernel_file", "data_file"}
)


def _module_tree(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None


@functools.cache  # by the node itself: the parsed trees are kept (_module_of, bindings)
def _imports_shared(node: ast.AST) -> bool:
    """Whether ``node`` holds an import of a name of :data:`SHARED_NAMES` from this module."""
    return any(
        isinstance(sub, ast.ImportFrom)
        and sub.module == "conftest"
        and any(alias.name in SHARED_NAMES for alias in sub.names)
        for sub in ast.walk(node)
    )


@functools.cache
def reaches_shared(path: Path) -> bool:
    """Whether the test module at ``path`` imports a name of :data:`SHARED_NAMES` from this
    module, anywhere in its code (inside a function too)."""
    tree = _module_tree(path)
    return tree is not None and _imports_shared(tree)


@functools.cache
def _loads(node: ast.AST) -> frozenset[str]:
    return frozenset(sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name))


@functools.cache
def _binds(node: ast.stmt) -> frozenset[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return frozenset({node.name})
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return frozenset((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(
        sub.id
        for sub in ast.walk(node)
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del))
    )


#: (module, attribute) and plain names whose use starts a child process or sends a signal
PROCESS_ATTRIBUTES = frozenset(
    {("subprocess", name) for name in ("run", "Popen", "call", "check_call", "check_output")}
    | {("sys", "executable"), ("os", "fork"), ("os", "kill"), ("os", "killpg")}
)
PROCESS_NAMES = frozenset({"run_process", "Popen", "sigint_when", "signal_when", "send_signal"})


@functools.cache
def _starts_process(node: ast.AST) -> bool:
    """Whether ``node`` starts a child process or sends a signal (see :data:`PROCESS_NAMES`)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute):
            if sub.attr in PROCESS_NAMES or (
                isinstance(sub.value, ast.Name) and (sub.value.id, sub.attr) in PROCESS_ATTRIBUTES
            ):
                return True
        elif isinstance(sub, ast.Name) and sub.id in PROCESS_NAMES:
            return True
    return False


#: what a test does, found in its module's source: kind -> whether a statement does it itself
KINDS = {"shared": _imports_shared, "process": _starts_process}


def _reaching(node: ast.AST, tainted: set[str], kind: str = "shared") -> bool:
    return KINDS[kind](node) or bool(_loads(node) & tainted)


@functools.cache
def _test_module_file(name: str, near: Path) -> Path | None:
    """The file of the test module ``name``: beside ``near``, else in its folder under
    tests/; None for a module that is not a test module."""
    if not name.startswith("test_"):
        return None
    if (near / f"{name}.py").is_file():
        return near / f"{name}.py"
    return next(iter(sorted((ROOT / "tests").rglob(f"{name}.py"))), None)


#: the modules whose bindings are being read (a module that imports from one that imports it)
_READING: set[Path] = set()


@functools.cache
def bindings(path: Path, kind: str) -> frozenset[str]:
    """The top-level names of the test module at ``path`` that do ``kind`` (:data:`KINDS`):
    reach ../shared (a name of :data:`SHARED_NAMES` imported from this module) or start a
    process, themselves or by a function, fixture, class or value whose code (decorators,
    defaults, body) uses such a name, transitively; a name imported from another test module
    counts where it does so there."""
    tree = _module_tree(path)
    if tree is None:
        return frozenset()
    tainted: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "conftest" and kind == "shared":
            tainted |= {a.asname or a.name for a in stmt.names if a.name in SHARED_NAMES}
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            other = _test_module_file(stmt.module, path.parent)
            if other is not None and other not in _READING:
                _READING.add(path)
                try:
                    reached = bindings(other, kind)
                finally:
                    _READING.discard(path)
                tainted |= {a.asname or a.name for a in stmt.names if a.name in reached}
    changed = True
    while changed:
        changed = False
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                continue
            names = _binds(stmt) - tainted
            if names and _reaching(stmt, tainted, kind):
                tainted |= names
                changed = True
    return frozenset(tainted)


def shared_bindings(path: Path) -> frozenset[str]:
    """The top-level names of the test module at ``path`` that reach ../shared."""
    return bindings(path, "shared")


def _test_node(tree: ast.Module, qualname: Sequence[str]) -> list[ast.AST] | None:
    """The definitions of a test (its class's too), by the names of its item's path."""
    found: list[ast.AST] = []
    body: list[ast.stmt] = tree.body
    for name in qualname:
        node = next(
            (
                s
                for s in body
                if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and s.name == name
            ),
            None,
        )
        if node is None:
            return None
        found.append(node)
        body = node.body if isinstance(node, ast.ClassDef) else []
    return found


@functools.cache
def _module_of(path: Path) -> ast.Module | None:
    return _module_tree(path)


def item_does(path: Path, qualname: list[str], fixturenames, kind: str) -> bool:
    """Whether one test of the module at ``path`` does ``kind`` (:data:`KINDS`): its code
    (its class's, its decorators' and parametrization's) or one of its fixtures uses a name
    of :func:`bindings`. A test whose definition is not found counts as doing it."""
    return _item_does(path, tuple(qualname), frozenset(fixturenames), kind)


@functools.cache  # one answer for every parametrization of a test
def _item_does(path: Path, qualname: tuple[str, ...], fixturenames: frozenset, kind: str) -> bool:
    tainted = bindings(path, kind)
    if not tainted:
        return False
    if "pytestmark" in tainted or tainted & set(fixturenames):
        return True
    tree = _module_of(path)
    nodes = _test_node(tree, qualname) if tree is not None else None
    if nodes is None:
        return True
    # a class counts by its own statements (its helpers, values and decorators), its test
    # methods each by their own code
    for node in nodes:
        if isinstance(node, ast.ClassDef):
            own = [
                s
                for s in node.body
                if not (
                    isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and s.name.startswith("test")
                )
            ]
            if any(_reaching(part, tainted, kind) for part in [*own, *node.decorator_list]):
                return True
        elif _reaching(node, tainted, kind):
            return True
    return False


def item_reaches_shared(path: Path, qualname: list[str], fixturenames) -> bool:
    """Whether one test of the module at ``path`` reaches ../shared (:func:`item_does`), or
    takes the ``data_file`` fixture."""
    return "data_file" in fixturenames or item_does(path, qualname, fixturenames, "shared")


def pytest_ignore_collect(collection_path, config):
    """With ``-m shared_data`` and nothing else (the second pass of ``make test``), a file none
    of whose tests can be marked ``shared_data`` is not collected (no name that reaches
    ../shared, no ``data_file`` fixture; the package's own modules, whose doctests are never
    marked): the same tests run, and half the test modules are not imported for nothing."""
    if config.getoption("markexpr", "") != "shared_data":
        return None
    path = Path(str(collection_path))
    if path.suffix != ".py" or path.name == "conftest.py" or not path.is_file():
        return None
    if not (path.name.startswith("test_") and path.parent.is_relative_to(ROOT / "tests")):
        return True
    if not shared_bindings(path) and "data_file" not in path.read_text(encoding="utf-8"):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config, items):
    """Mark ``shared_data`` every test that reaches ../shared (:func:`item_reaches_shared`):
    its data or its oracle changes without ../shared; and ``process`` every test that starts
    a child process or sends a signal (:func:`item_does`)."""
    for item in items:
        path = Path(str(item.path))
        if path.name.startswith("test_") and path.parent.is_relative_to(ROOT / "tests"):
            qualname = [n.split("[")[0] for n in item.nodeid.split("::")[1:]]
            fixtures = getattr(item, "fixturenames", ())
            if item_reaches_shared(path, qualname, fixtures):
                item.add_marker(pytest.mark.shared_data)
            if item_does(path, qualname, fixtures, "process"):
                item.add_marker(pytest.mark.process)
            if untraced(path, item):
                item.add_marker(pytest.mark.untraced)


#: test modules that run svmeval's code over and over against an oracle (scikit-learn's metric
#: tests, its estimator checks): ``--cov`` does not trace them (:func:`untraced`)
UNTRACED_MODULES = frozenset(
    {
        "tests/metrics/test_metrics_sklearn.py",
        "tests/sklearn_contract/test_sklearn_common.py",
        "tests/metrics/test_multilabel_metrics.py",
    }
)


def untraced(path: Path, item: pytest.Item) -> bool:
    """Whether coverage (``make test``'s ``--cov``) leaves ``item``'s call untraced (marked
    ``untraced``; :func:`pytest_runtest_call`): a test of :data:`UNTRACED_MODULES`, a
    Hypothesis test (many examples of the same code) or the documentation's build. Tracing is
    what ``--cov`` costs (Python's tracer on every line: twice the time of these tests); they
    still run, and the lines they reach the other tests reach too."""
    if path.relative_to(ROOT).as_posix() in UNTRACED_MODULES:
        return True
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return True
    return path.name == "test_docs.py" and path.parent.name == "rules"


def _untraced(item):
    """An ``untraced`` test's set-up (its fixtures) and call run with no trace function on
    their thread: coverage's tracer (``--cov``) is set aside and put back after them
    (coverage's tracer takes being put back by ``sys.settrace``, as a debugger's is).
    pytest-cov's own ``no_cover`` leaves a test's data out, but in a pytest-xdist worker its
    tracer still runs through the test."""
    tracer = sys.gettrace()
    if tracer is None or item.get_closest_marker("untraced") is None:
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


pytest_runtest_setup = pytest.hookimpl(hookwrapper=True)(_untraced)
pytest_runtest_call = pytest.hookimpl(hookwrapper=True)(_untraced)


#: the test running now (its set-up, call and teardown), for :func:`_reached`
_RUNNING: list[pytest.Item] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _RUNNING.append(item)
    try:
        yield
    finally:
        _RUNNING.pop()


def _reached(what: str) -> None:
    """A test reached ../shared through ``what``: it must be marked ``shared_data`` (else the
    second pass of ``make test`` would not run it as a clone without ../shared does)."""
    if _RUNNING and _RUNNING[-1].get_closest_marker("shared_data") is None:
        raise AssertionError(
            f"{_RUNNING[-1].nodeid} reaches ../shared ({what}) but is not marked shared_data: "
            "reach it through a name of conftest.SHARED_NAMES that the test's code uses"
        )


def pytest_report_header(config):
    return (
        "oracles: required (SVMEVAL_REQUIRE_ORACLES=1)"
        if REQUIRE_ORACLES
        else "oracles: optional, their tests skip where one is missing (SVMEVAL_REQUIRE_ORACLES "
        "unset)"
    )


#: shared data set -> the data/ set of the same kind that stands in for it without ../shared
STAND_INS = {
    "heart_scale": "breast_cancer.scale",  # two-class, labels +1/-1
    "breast-cancer_scale": "breast_cancer.scale",
    "mushrooms": "breast_cancer.scale",
    "a9a": "breast_cancer.scale",
    "svmguide1": "breast_cancer.scale",
    "iris.scale": "wine.scale",  # three classes
    "dna.scale": "wine.scale",
    "letter.scale": "wine.scale",
    "satimage.scale": "wine.scale",
    "housing_scale": "diabetes.scale",  # regression
    "parkinsons": "breast_cancer.scale",  # two-class, unscaled
}


def shared_file(*parts: str) -> Path:
    """A file under ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    _reached(f"shared_file{parts}")
    if NO_SHARED:
        pytest.skip(f"{path}: SVMEVAL_TEST_NO_SHARED is set")
    if not path.exists():
        pytest.skip(
            f"{path} is absent (the shared data sets and reference outputs live in ../shared)"
        )
    return path


def data_set(name: str) -> Path:
    """The shared data set ``name`` where ../shared holds it, else its stand-in in data/."""
    _reached(f"data_set({name!r})")
    path = DATA / name
    if HAVE_SHARED and path.exists():
        return path
    return LOCAL / STAND_INS[name]


def data_sets(*names: str) -> list[Path]:
    """:func:`data_set` of each name, without repeats (several may share a stand-in)."""
    return list(dict.fromkeys(data_set(name) for name in names))


def zero_one_data(directory: Path) -> Path:
    """Two-class data labelled 0/1: svmguide1 where ../shared holds it, else
    breast_cancer.scale with its -1 labels written as 0 (a file in ``directory``)."""
    _reached("zero_one_data")
    path = DATA / "svmguide1"
    if HAVE_SHARED and path.exists():
        return path
    lines = (LOCAL / "breast_cancer.scale").read_text().splitlines(True)
    out = directory / "breast_cancer01.scale"
    out.write_text(
        "".join(("0" + line[2:]) if line.startswith("-1 ") else line[1:] for line in lines)
    )
    return out


@pytest.fixture
def data_file():
    return lambda name: shared_file("data", name)


def libsvm_cv(path, options, nr_fold=5, seed=1):
    """The oracle: LIBSVM's own cross-validation of a data file after srand(seed), one OpenMP
    thread (SVR and one-class sum their kernel terms in an OpenMP reduction whose order depends
    on the threads)."""
    import ctypes

    import numpy as np

    libsvm_svm = pytest.importorskip("libsvm.svm")
    svmutil = pytest.importorskip("libsvm.svmutil")
    from svmeval.cv import _libsvm

    y, x = svmutil.svm_read_problem(str(path))
    kernel = " -t 4" in f" {options}"
    prob = libsvm_svm.svm_problem(y, x, isKernel=kernel)
    param = libsvm_svm.svm_parameter(options + " -q")
    if param.gamma == 0 and prob.n > 0:
        param.gamma = 1.0 / prob.n
    target = (ctypes.c_double * len(y))()
    _libsvm.srand(seed)
    _libsvm.set_omp_threads(1)
    libsvm_svm.libsvm.svm_cross_validation(prob, param, nr_fold, target)
    return np.array(target[:])


def libsvm_folds_warning(capfd, nr_fold: int, l: int) -> str:
    """The oracle of LIBSVM's warning for more folds than samples: what its own
    svm_cross_validation, called through the official bindings on ``l`` rows with ``nr_fold``
    folds, writes on standard error (captured by ``capfd``; what was captured before is
    dropped)."""
    import ctypes

    libsvm_svm = pytest.importorskip("libsvm.svm")
    from svmeval.cv import _libsvm

    prob = libsvm_svm.svm_problem([1.0] * l, [{1: 1.0}] * l)  # one class: nothing to train
    param = libsvm_svm.svm_parameter("-q")
    target = (ctypes.c_double * l)()
    _libsvm.set_omp_threads(1)
    libsvm_svm.libsvm.svm_set_print_string_function(param.print_func)  # -q: training quiet
    capfd.readouterr()
    try:
        libsvm_svm.libsvm.svm_cross_validation(prob, param, nr_fold, target)
        return capfd.readouterr().err
    finally:
        _libsvm.set_quiet(True)  # svmeval's hook back (each run sets its own again)


def _built_from_source(variable, library, program, script, builder, folder, failed=None):
    """``builder`` of ``scripts/script.py`` run on the source tree (or git repository) that
    the environment variable ``variable`` names, into ``folder()``; the test skips without
    it, and, where ``failed`` says how, when it cannot be built (no compiler)."""
    source = os.environ.get(variable)
    if not source:
        pytest.skip(
            f"{variable} is not set ({library}'s source tree or a git repository of it, to "
            f"build {program} from)"
        )
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        module = __import__(script)
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    try:
        return getattr(module, builder)(Path(source), folder())
    except module.BuildError as exc:
        if failed is None:
            raise
        pytest.skip(failed.format(exc))


@pytest.fixture(scope="session")
def patched_svm_train(tmp_path_factory):
    """The patched svm-train (scripts/patched_svm_train.py), built from the LIBSVM source that
    ``SVMEVAL_LIBSVM_SOURCE`` names (a source tree, or a git repository of it); the test skips
    without it."""
    folder = lambda: tmp_path_factory.mktemp("libsvm")  # noqa: E731 - made once needed
    return _built_from_source(
        "SVMEVAL_LIBSVM_SOURCE", "LIBSVM", "the patched svm-train", "patched_svm_train",
        "build_patched_svm_train", folder,
    )  # fmt: skip


@pytest.fixture(scope="session")
def liblinear_train(tmp_path_factory):
    """LIBLINEAR's ``train`` (scripts/liblinear_train.py), built from the LIBLINEAR source
    that ``SVMEVAL_LIBLINEAR_SOURCE`` names (a source tree, or a git repository of it); the
    test skips without it, or where it cannot be built (no compiler)."""
    folder = lambda: tmp_path_factory.mktemp("liblinear")  # noqa: E731 - made once needed
    return _built_from_source(
        "SVMEVAL_LIBLINEAR_SOURCE", "LIBLINEAR", "its train command", "liblinear_train",
        "build_liblinear_train", folder, failed="{}",
    )  # fmt: skip


@pytest.fixture(scope="session")
def svm_scale(tmp_path_factory):
    """LIBSVM's own svm-scale (scripts/patched_svm_train.py's :func:`build_svm_scale`), built
    from the LIBSVM source that ``SVMEVAL_LIBSVM_SOURCE`` names; the test skips without it or
    where it cannot be built."""
    folder = lambda: tmp_path_factory.mktemp("svm-scale")  # noqa: E731 - made once needed
    return _built_from_source(
        "SVMEVAL_LIBSVM_SOURCE", "LIBSVM", "svm-scale", "patched_svm_train", "build_svm_scale",
        folder, failed="svm-scale could not be built: {}",
    )  # fmt: skip


def linear_kernel_file(directory: Path) -> Path:
    """heart_scale's linear kernel as a LIBSVM precomputed-kernel file (``label 0:serial
    1:K(x,x1) ...``), in ``directory``."""
    import numpy as np

    from svmeval.io.data import read_dataset

    ds = read_dataset(data_set("heart_scale"))
    X = np.zeros((ds.n_samples, ds.n_features + 1))
    for i in range(ds.n_samples):
        a, b = ds.indptr[i], ds.indptr[i + 1]
        X[i, ds.indices[a:b]] = ds.values[a:b]
    K = X @ X.T
    path = Path(directory) / "heart.kernel"
    with open(path, "w") as fh:
        for i, label in enumerate(ds.y):
            fh.write(
                f"{label:g} 0:{i + 1} "
                + " ".join(f"{j + 1}:{K[i, j]:.17g}" for j in range(ds.n_samples))
                + "\n"
            )
    return path


@pytest.fixture
def built(monkeypatch):
    """The SharedKernels a run builds (cross-validation, a grid search), in a list."""
    from svmeval.cv.run import kernel as shared_kernel

    made = []

    class Counted(shared_kernel.SharedKernel):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(shared_kernel, "SharedKernel", Counted)
    return made


def signal_when(proc, count, n: int, how, limit: float) -> None:
    """Send ``proc`` the signal ``how`` once ``count()`` (of what it has stored) reaches ``n``,
    within ``limit`` seconds. ``count()`` is read while the process is stopped (SIGSTOP, waited
    for) and the signal is sent before it goes on: however loaded the machine, the process
    cannot finish between the count and the signal."""
    import signal
    import time

    deadline = time.monotonic() + limit
    while True:
        proc.send_signal(signal.SIGSTOP)
        _, stopped = os.waitpid(proc.pid, os.WUNTRACED)
        assert os.WIFSTOPPED(stopped), "the run ended before the store held the units"
        if count() >= n:
            proc.send_signal(how)
            proc.send_signal(signal.SIGCONT)
            return
        proc.send_signal(signal.SIGCONT)
        assert time.monotonic() < deadline, "the store never held the units"
        time.sleep(0.005)  # a poll's pace while the run goes on, not a wait for it

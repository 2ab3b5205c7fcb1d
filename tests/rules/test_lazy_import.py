"""`import svmeval` and `import svmeval.metrics` load neither LIBSVM nor scipy, import nothing of
the cross-validation package and change no environment variable; the public names still work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = """
import json, os, sys
before = dict(os.environ)
import svmeval
import svmeval.metrics
print(json.dumps({
    "modules": sorted(m for m in sys.modules
                      if m.split(".")[0] in ("libsvm", "scipy", "sklearn")
                      or m.startswith("svmeval.cv")),
    "environ_changed": sorted(k for k in set(before) | set(os.environ)
                              if before.get(k) != os.environ.get(k)),
}))
"""


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout


def test_import_loads_neither_libsvm_nor_scipy_and_sets_nothing():
    seen = json.loads(run_python(CHECK))
    assert seen == {"modules": [], "environ_changed": []}


def test_public_names_load_on_first_use():
    out = run_python(
        "import sys, svmeval\n"
        "from svmeval import SvmParams, SvmevalError, read_dataset\n"
        "print('svmeval.cv' in sys.modules)\n"
        "from svmeval import cross_validate, summarize\n"
        "from svmeval.cv import cross_validate as cv\n"
        "print('svmeval.cv' in sys.modules, cross_validate is cv, svmeval.summarize is summarize)\n"
    )
    assert out.split() == ["False", "True", "True", "True"]


def test_every_public_name_resolves_and_unknown_names_raise():
    import svmeval

    for name in svmeval.__all__:
        assert getattr(svmeval, name) is not None
        assert name in dir(svmeval)
    with pytest.raises(AttributeError, match="no_such_name"):
        svmeval.no_such_name  # noqa: B018


def test_type_checkers_see_every_public_name_from_its_module():
    """``svmeval/__init__.py`` imports, under ``if TYPE_CHECKING:`` only, every name of its
    lazy table from the module that table names (so that mypy and IDEs see the real
    signatures), and its ``__all__`` is that table's names and ``__version__``."""
    import ast
    from pathlib import Path

    import svmeval

    source = Path(svmeval.__file__).read_text(encoding="utf-8")
    seen = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                seen.update({alias.name: statement.module for alias in statement.names})
    assert seen == svmeval._LAZY
    assert sorted(svmeval.__all__) == sorted([*svmeval._LAZY, "__version__"])


LOAD_LIBSVM = """
import json, sys
from svmeval import cross_validate
result = cross_validate(sys.argv[1], "-c 1", 5)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("scipy", "numba"))
import numpy as np, scipy.sparse
from libsvm import svmutil
X = scipy.sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 2.0]]))
y = np.array([1.0, -1.0, 1.0, -1.0])
from_scipy = svmutil.svm_problem(y, X)
from_lists = svmutil.svm_problem(y.tolist(), [{1: 1.0}, {2: 1.0}, {1: 1.0, 2: 1.0}, {2: 2.0}])
def rows(p):
    out = []
    for i in range(p.l):
        row, k = [], 0
        while p.x[i][k].index != -1:
            row.append((p.x[i][k].index, p.x[i][k].value))
            k += 1
        out.append(row)
    return out
import numba
print(json.dumps({"loaded_by_the_run": loaded, "n": len(result.y_pred),
                  "same_rows": rows(from_scipy) == rows(from_lists),
                  "numba_compiled": numba.COMPILED}))
"""

#: a stand-in numba: its ``jit(nopython=True)`` records what it compiles
NUMBA = """
COMPILED = []
def jit(function=None, **options):
    def compile(f):
        COMPILED.append([f.__name__, options])
        return f
    return compile if function is None else compile(function)
"""


def test_a_run_imports_neither_scipy_nor_numba_and_the_bindings_still_use_them(tmp_path):
    """LIBSVM's bindings import SciPy (to take SciPy matrices) and numba (to compile their CSR
    conversion) when loaded, a large part of a second of every run: svmeval loads them
    without either, and a caller of the bindings' own functions in the same process still
    hands them a SciPy matrix, converted by the numba-compiled function, as LIBSVM's README
    documents."""
    data = tmp_path / "tiny"
    data.write_text(
        "".join(f"{1 if i % 2 else -1} 1:{i / 10} 2:{(i * 7 % 10) / 10}\n" for i in range(20))
    )
    (tmp_path / "numba").mkdir()
    (tmp_path / "numba" / "__init__.py").write_text(NUMBA)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    done = subprocess.run(
        [sys.executable, "-c", LOAD_LIBSVM, str(data)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    seen = json.loads(done.stdout)
    assert seen == {
        "loaded_by_the_run": [],
        "n": 20,
        "same_rows": True,
        "numba_compiled": [["csr_to_problem_jit", {"nopython": True}]],
    }


#: runs ``python -m svmeval ARGS`` as the command line does and writes, as the process ends,
#: every module it imported and the names of the threads it started (to the file $SEEN)
DROPIN_RUN = """
import json, os, runpy, sys, threading
started = []
start = threading.Thread.start
def recording_start(self, *args, **kwargs):
    started.append(self.name)
    return start(self, *args, **kwargs)
threading.Thread.start = recording_start
def record():
    with open(os.environ["SEEN"], "w") as f:
        json.dump({"modules": sorted(sys.modules), "threads": started}, f)
exit = os._exit
def recording_exit(status):
    record()
    exit(status)
os._exit = recording_exit
sys.argv = ["svmeval", *sys.argv[1:]]
try:
    runpy.run_module("svmeval", run_name="__main__", alter_sys=True)
finally:
    record()
"""

#: what svm-train's lines do not need: the summaries, the figure registry's tables and
#: averages, the JSON, CSV and HTML writers, the pictures, the statistics, the workflows,
#: the predictions files, and numpy.ma (np.unique's)
HEAVY = (
    "svmeval.summary",
    "svmeval.metrics.classification",
    "svmeval.metrics.averaging",
    "svmeval.metrics.agreement",
    "svmeval.metrics.run_figures",
    "svmeval.metrics.scores",
    "svmeval.report.jsonfmt",
    "svmeval.report.csvfmt",
    "svmeval.report.html",
    "svmeval.report.plot",
    "svmeval.stats",
    "svmeval.workflows",
    "svmeval.io.predictions",
    "concurrent.futures",
    "numpy.ma",
    "scipy",
)


def run_dropin(tmp_path, *args: str) -> tuple[str, dict]:
    seen = tmp_path / "seen.json"
    done = subprocess.run(
        [sys.executable, "-c", DROPIN_RUN, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, SEEN=str(seen)),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(seen.read_text())


def heavy_loaded(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("pos_label", [[], ["--pos-label", "-1"]])
def test_the_two_class_dropin_run_loads_only_what_its_lines_need(tmp_path, pos_label):
    """``svmeval -q -v 5`` on two-class data prints svm-train's lines from the counts of right
    and wrong predictions: none of the heavy modules is imported, no worker thread is started
    for folds of a few hundred rows, and the lines are the full report's first lines (the
    summary's path, which --full takes and which does load them)."""
    data = Path(__file__).resolve().parents[2] / "data" / "breast_cancer.scale"
    quick, seen = run_dropin(tmp_path, "-q", "-v", "5", *pos_label, str(data))
    assert heavy_loaded(seen["modules"]) == []
    assert seen["threads"] == []
    full, seen_full = run_dropin(tmp_path, "-q", "-v", "5", "--full", *pos_label, str(data))
    assert "svmeval.summary" in heavy_loaded(seen_full["modules"])
    assert quick.startswith("Cross Validation Accuracy = ")
    assert quick.count("class:") == 2
    assert full.startswith(quick)


@pytest.mark.parametrize(
    "more", [["--full"], ["--ci", "0.9", "--bootstrap", "200"], ["--repeat", "2"]]
)
def test_options_that_add_to_the_report_keep_the_summary(tmp_path, more):
    """Every option that adds to svm-train's lines (every figure, intervals, repetitions)
    takes the summary's path: its report is svm-train's lines and more."""
    data = Path(__file__).resolve().parents[2] / "data" / "breast_cancer.scale"
    quick, _ = run_dropin(tmp_path, "-q", "-v", "5", str(data))
    report, seen = run_dropin(tmp_path, "-q", "-v", "5", *more, str(data))
    assert "svmeval.summary" in heavy_loaded(seen["modules"])
    assert report.startswith(quick)
    assert len(report) > len(quick)


def test_one_class_data_keep_their_tables(tmp_path):
    """Data of one class are not two-class data: the report is the summary's (svm-train's
    accuracy line, then the per-class table), as the library renders it."""
    from svmeval import cross_validate, render, summarize

    data = tmp_path / "one_class"
    data.write_text("".join(f"1 1:{i / 10} 2:{(i * 7 % 10) / 10}\n" for i in range(20)))
    report, _ = run_dropin(tmp_path, "-q", "-v", "5", str(data))
    assert report == render(summarize(cross_validate(str(data), None, 5)))
    assert report.startswith("Cross Validation Accuracy = 100%\n")
    assert len(report.splitlines()) > 1


#: DROPIN_RUN for ``python -m svmeval.cli compare ARGS``
COMPARE_RUN = DROPIN_RUN.replace(
    '["svmeval", *sys.argv[1:]]', '["svmeval.cli", "compare", *sys.argv[1:]]'
).replace('runpy.run_module("svmeval",', 'runpy.run_module("svmeval.cli",')


def test_a_reused_comparison_loads_neither_numpy_ma_nor_scipy(tmp_path):
    """A comparison over two data sets taken whole from its store (the tests over data sets
    included) imports neither numpy.ma (np.unique's, since numpy 2.3) nor SciPy: a reused
    run's cost is mostly its start."""
    root = Path(__file__).resolve().parents[2] / "data"
    store = tmp_path / "runs.db"
    args = ["-q", "-v", "5", "--repeat", "3", "--store", str(store)]
    args += [str(root / "breast_cancer.scale"), str(root / "wine.scale")]
    args += ["--", "-c", "1", "--", "-c", "8"]

    def run(seen):
        done = subprocess.run(
            [sys.executable, "-c", COMPARE_RUN, *args],
            capture_output=True,
            text=True,
            env=dict(os.environ, SEEN=str(seen)),
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr

    first = run(tmp_path / "first.json")
    again = run(tmp_path / "again.json")
    assert again[0] == first[0]
    assert "60 units reused, 0 computed" in again[1]
    modules = json.loads((tmp_path / "again.json").read_text())["modules"]
    assert [
        m for m in modules if m.split(".")[:2] == ["numpy", "ma"] or m.startswith("scipy")
    ] == []


#: what a comparison or a benchmark taken whole from its store never needs: LIBSVM's bindings
#: (and ctypes.util's subprocess, tempfile, shutil they import), the Bayesian tests
#: (not asked for), the figures of other kinds (multi-label, scores, probabilities,
#: regression), LIBLINEAR's command line, the CSV writer, logging (nothing set it up), numpy.ma
#: and SciPy
NOT_REUSED = (
    "libsvm",
    "subprocess",
    "tempfile",
    "logging",
    "csv",
    "concurrent.futures",
    "svmeval.cli.linear",
    "svmeval.stats.bayesian",
    "svmeval.summary.multilabel",
    "svmeval.metrics.multilabel",
    "svmeval.metrics.scores",
    "svmeval.metrics.ranking",
    "svmeval.metrics.probabilities",
    "svmeval.metrics.regression",
    "numpy.ma",
    "scipy",
)


def loaded_of(modules: list[str], names) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


@pytest.mark.parametrize(
    "sets",
    [["breast_cancer.scale"], ["breast_cancer.scale", "wine.scale"]],
    ids=["compare", "benchmark"],
)
def test_a_reused_run_loads_none_of_what_only_computing_needs(tmp_path, sets):
    """svmeval-compare taken whole from its store (compare's report for one data set, the
    benchmark's for two) prints the computing run's report, byte for byte, without importing
    LIBSVM's bindings or any module of :data:`NOT_REUSED`; the computing run does load the
    bindings (what the check would see)."""
    root = Path(__file__).resolve().parents[2] / "data"
    args = ["-q", "-v", "5", "--repeat", "3", "--store", str(tmp_path / "runs.db")]
    args += [str(root / name) for name in sets] + ["--", "-c", "1", "--", "-c", "8"]
    runs = []
    for name in ("first", "again"):
        seen = tmp_path / f"{name}.json"
        done = subprocess.run(
            [sys.executable, "-c", COMPARE_RUN, *args],
            capture_output=True,
            text=True,
            env=dict(os.environ, SEEN=str(seen)),
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        runs.append((done.stdout, done.stderr, json.loads(seen.read_text())["modules"]))
    (first, _, computing), (again, stderr, reused) = runs
    assert again == first
    assert f"{30 * len(sets)} units reused, 0 computed" in stderr
    assert "libsvm.svm" in computing
    # what numpy's own import loads is not svmeval's (numpy 2.2, on Python 3.10, imports
    # platform and with it subprocess)
    numpy_own = subprocess.run(
        [sys.executable, "-c", "import json, sys, numpy; print(json.dumps(list(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    by_numpy = set(json.loads(numpy_own.stdout))
    assert [m for m in loaded_of(reused, NOT_REUSED) if m not in by_numpy] == []


#: a benchmark through the library in a fresh process, with a store: the LIBSVM version its
#: provenance records, and whether LIBSVM's bindings were imported
STORED_BENCHMARK = """
import json, sys
from svmeval import benchmark
b = benchmark(sys.argv[2:], ["-c 1", "-c 8"], folds=5, repeat=2, store=sys.argv[1])
print(json.dumps([b.provenance.libsvm_version, "libsvm.svm" in sys.modules, b.values.tolist()]))
"""


def test_a_reused_run_records_the_libsvm_version_it_keys_its_units_with(tmp_path):
    """A run taken whole from its store opens LIBSVM's library for its version (the units'
    key holds it) without the bindings' module, and its provenance records that version, as
    the run that computed the units did: the version libsvm-official's package states."""
    from importlib.metadata import version

    root = Path(__file__).resolve().parents[2] / "data"
    argv = [sys.executable, "-c", STORED_BENCHMARK, str(tmp_path / "runs.db")]
    argv += [str(root / "breast_cancer.scale"), str(root / "wine.scale")]
    seen = [json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)]
    seen.append(json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout))
    expected = ".".join(version("libsvm-official").split(".")[:2])
    assert [s[:2] for s in seen] == [[expected, True], [expected, False]]
    assert seen[1][2] == seen[0][2]


#: runs a command as its console script does, recording the OpenBLAS setting in the
#: environment at the moment numpy is imported
BLAS_AT_NUMPY = """
import os, runpy, sys
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            sys.stderr.write("at numpy: %r\\n" % os.environ.get("OPENBLAS_THREAD_TIMEOUT"))
            sys.meta_path.remove(self)
        return None
sys.meta_path.insert(0, Watch())
sys.argv = ["svmeval.cli", *sys.argv[1:]]
runpy.run_module("svmeval.cli", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("user", [None, "20"])
def test_a_command_lets_openblas_threads_sleep_unless_the_user_set_it(tmp_path, user):
    """numpy's OpenBLAS reads OPENBLAS_THREAD_TIMEOUT as numpy is imported: a command sets it
    to 4 before (its threads sleep at once instead of spinning some 0.1 s each), a user's own
    value is kept; the report is the same."""
    data = Path(__file__).resolve().parents[2] / "data" / "wine.scale"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    if user is not None:
        env["OPENBLAS_THREAD_TIMEOUT"] = user
    args = [
        "compare",
        "-q",
        "-v",
        "3",
        "--repeat",
        "1",
        str(data),
        "--",
        "-c",
        "1",
        "--",
        "-c",
        "8",
    ]
    done = subprocess.run(
        [sys.executable, "-c", BLAS_AT_NUMPY, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"at numpy: {user or '4'!r}\n" in done.stderr
    from svmeval import compare, render

    assert done.stdout == render(compare(str(data), "-c 1", "-c 8", folds=3, repeat=1))


def test_the_library_sets_no_openblas_setting():
    """Only the commands own their process: a run through the library leaves the environment
    as it was."""
    data = Path(__file__).resolve().parents[2] / "data" / "wine.scale"
    code = (
        "import os\n"
        "from svmeval import compare\n"
        f"compare({str(data)!r}, '-c 1', '-c 8', folds=3, repeat=1)\n"
        "print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout == "None\n"


def test_a_library_file_that_does_not_open_leaves_loading_to_the_bindings(tmp_path):
    """Where the file found beside the bindings does not open as a library, LIBSVM is loaded
    by the bindings' module as before: the version is theirs, and a run computes."""
    bogus = tmp_path / "clib.cpython-bogus.so"
    bogus.write_text("not a library")
    code = (
        "import ctypes, sys\n"
        "from svmeval.cv import _libsvm, c_library\n"
        f"c_library.library_file = lambda package='libsvm': {str(bogus)!r}\n"
        "version = _libsvm.libsvm_version()\n"
        "from libsvm import svm\n"
        "print(version == ctypes.c_int.in_dll(svm.libsvm, 'libsvm_version').value)\n"
        "from svmeval import cross_validate\n"
        f"print(len(cross_validate({str(Path(__file__).resolve().parents[2] / 'data' / 'wine.scale')!r}, '-c 1', 3).y_pred))\n"
    )
    assert run_python(code).split() == ["True", "178"]


#: imports every submodule of a package first, then reads each public name of the package
NAMES_AFTER_SUBMODULES = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
for info in pkgutil.iter_modules(package.__path__):
    importlib.import_module(f"{sys.argv[1]}.{info.name}")
print(json.dumps([n for n in package.__all__ if hasattr(getattr(package, n), "__path__")
                  or type(getattr(package, n)).__name__ == "module"]))
"""


@pytest.mark.parametrize("package", ["svmeval.stats", "svmeval.metrics", "svmeval.summary"])
def test_a_public_name_is_never_its_submodule(package):
    """A package's public names loaded on first use stay the objects their modules define
    when something imported a submodule of the same name first (``svmeval.stats.five_by_two``
    is the test, not its module)."""
    out = run_python(NAMES_AFTER_SUBMODULES.replace("sys.argv[1]", repr(package)))
    assert json.loads(out) == []

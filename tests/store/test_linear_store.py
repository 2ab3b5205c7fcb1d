"""A LIBLINEAR cross-validation in the results store: reused with the same predictions, never
taken for a LIBSVM unit or another LIBLINEAR's.

Oracles: the official bindings' ``cross_validation`` after ``srand(seed)`` (every prediction,
run here); the store's own tables read with sqlite3 (what was written, what was reused).
"""

from __future__ import annotations

import ctypes
import json
import sqlite3

import numpy as np
import pytest

from commands import run
from conftest import ROOT, data_set

pytest.importorskip("liblinear.liblinearutil", reason="LIBLINEAR's bindings (the linear extra)")

from liblinear import liblinear as ll_c  # noqa: E402
from liblinear import liblinearutil as ll  # noqa: E402

import svmeval  # noqa: E402

LIBC = ctypes.CDLL(None)
LIBC.srand.argtypes, LIBC.rand.restype = [ctypes.c_uint], ctypes.c_int


def bindings_cv(path, options: str, nr_fold: int, seed: int = 1) -> np.ndarray:
    y, x = ll.svm_read_problem(str(path))
    param = ll.parameter(options + " -q")
    prob = ll.problem(y, x, bias=param.bias)
    target = (ctypes.c_double * len(y))()
    LIBC.srand(seed)
    ll_c.liblinear.cross_validation(prob, param, nr_fold, target)
    return np.array(target[:])


def units(path) -> list[tuple[str, str]]:
    """(kind, configuration) of every unit the store holds."""
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT kind, configuration FROM units").fetchall())


def counts(path) -> list[tuple[int, int]]:
    """(reused, computed) of every run the store recorded, in order."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT reused, computed FROM runs ORDER BY id").fetchall()


@pytest.fixture
def heart():
    return str(data_set("heart_scale"))


# (train's options, the LinearParams, the call as the store records it: train's order)
@pytest.mark.parametrize(
    "options,params,recorded",
    [
        ("-s 1", {}, "linear:"),
        ("-s 0 -B 1 -c 4", {"solver_type": 0, "bias": 1.0, "C": 4.0}, "linear: -s 0 -c 4 -B 1"),
    ],
)
def test_a_second_run_reuses_every_fold_with_the_same_predictions(
    heart, tmp_path, options, params, recorded
):
    store = tmp_path / "runs.sqlite"
    p = svmeval.LinearParams(**params)
    first = svmeval.cross_validate(heart, p, 5, seed=3, store=store)
    assert counts(store) == [(0, 5)]
    assert units(store) == [("liblinear-cv-fold", f"linear: {p.flags()}".rstrip())] * 5
    second = svmeval.cross_validate(heart, p, 5, seed=3, store=store)
    assert counts(store) == [(0, 5), (5, 0)]
    with sqlite3.connect(store) as db:  # the run's call names LIBLINEAR's options
        call = db.execute("SELECT call FROM runs ORDER BY id").fetchone()[0]
    assert f'"options": "{recorded}"' in call
    oracle = bindings_cv(heart, options, 5, seed=3)
    np.testing.assert_array_equal(first.y_pred, oracle)
    np.testing.assert_array_equal(second.y_pred, oracle)
    np.testing.assert_array_equal(second.fold, first.fold)


def test_another_seed_folds_or_configuration_is_computed_anew(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    other = svmeval.cross_validate(heart, svmeval.LinearParams(), 5, seed=2, store=store)
    np.testing.assert_array_equal(other.y_pred, bindings_cv(heart, "-s 1", 5, seed=2))
    svmeval.cross_validate(heart, svmeval.LinearParams(), 3, store=store)
    svmeval.cross_validate(heart, svmeval.LinearParams(C=2.0), 5, store=store)
    assert [computed for _, computed in counts(store)] == [5, 5, 3, 5]


def test_a_libsvm_run_of_the_same_data_does_not_reuse_it(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    # LIBSVM's linear kernel, its folds of the same seed: a unit of its own kind
    svm = svmeval.cross_validate(heart, "-t 0", 5, store=store)
    assert counts(store)[1] == (0, 5)
    kinds = [kind for kind, _ in units(store)]
    assert kinds.count("liblinear-cv-fold") == 5 and len(kinds) == 10
    from libsvm import svm as libsvm_c  # LIBSVM's own cross-validation, the oracle
    from libsvm import svmutil

    y, x = svmutil.svm_read_problem(heart)
    target = (ctypes.c_double * len(y))()
    LIBC.srand(1)
    libsvm_c.libsvm.svm_cross_validation(
        svmutil.svm_problem(y, x), svmutil.svm_parameter("-t 0 -q"), 5, target
    )
    np.testing.assert_array_equal(svm.y_pred, np.array(target[:]))
    # and the LIBLINEAR run again reuses its own units only
    svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    assert counts(store)[2] == (5, 0)


def test_another_liblinear_version_does_not_reuse_it(heart, tmp_path, monkeypatch):
    from svmeval.cv import _liblinear

    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    c = _liblinear.library()
    monkeypatch.setattr(c, "version", c.version + 1)
    again = svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    assert counts(store)[1] == (0, 5)
    np.testing.assert_array_equal(again.y_pred, bindings_cv(heart, "-s 1", 5))


def test_a_damaged_unit_is_refused_never_used(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)
    with sqlite3.connect(store) as db:
        key, arrays = db.execute("SELECT key, arrays FROM units LIMIT 1").fetchone()
        payload = np.full(54, 5.0).tobytes()  # a class heart_scale has not
        from svmeval.store._units import payload_digest

        db.execute(
            "UPDATE units SET payload = ?, digest = ? WHERE key = ?",
            (payload, payload_digest(arrays, payload), key),
        )
    with pytest.raises(svmeval.StoreError, match="damaged store"):
        svmeval.cross_validate(heart, svmeval.LinearParams(), 5, store=store)


def test_svmeval_linear_store_gives_the_same_bytes_and_reuses(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    args = ["-s", "2", "-v", "5", "--store", str(store), heart]
    first = run("linear", args)
    second = run("linear", args)
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert counts(store) == [(0, 5), (5, 0)]
    plain = run("linear", ["-s", "2", "-v", "5", heart])
    assert plain.stdout == first.stdout
    accuracy = np.mean(bindings_cv(heart, "-s 2", 5) == svmeval.read_dataset(heart).y)
    assert first.stdout.startswith(f"Cross Validation Accuracy = {100 * accuracy:g}%")


@pytest.mark.parametrize(
    "args,line",
    [
        (["--store"], "option --store needs a value"),
        (["--store", ""], "option --store: the value is empty"),
    ],
)
def test_bad_store_options_are_one_line(heart, args, line):
    out = run(
        "linear",
        ["-v", "5", *args, heart] if args[-1:] != ["--store"] else ["-v", "5", heart, *args],
    )
    assert out.returncode == 1 and out.stderr.strip().endswith(line), out.stderr
    assert "Traceback" not in out.stderr


def test_svmeval_store_lists_liblinear_units_with_liblinears_version(heart, tmp_path):
    from liblinear import liblinear as ll_module

    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(solver_type=2), 5, store=store)
    svmeval.cross_validate(heart, "-t 0", 5, store=store)
    from libsvm import svm as libsvm_module

    listing = run("store", [str(store)]).stdout
    version = ctypes.c_int.in_dll(ll_module.liblinear, "liblinear_version").value
    libsvm_version = ctypes.c_int.in_dll(libsvm_module.libsvm, "libsvm_version").value
    assert "linear: -s 2 -v 5 --seed 1: 5 units," in listing
    assert f"LIBLINEAR {version}\n" in listing and f"LIBSVM {libsvm_version}\n" in listing


def test_svmeval_store_exports_a_svmeval_linear_run(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    made = run("linear", ["-s", "2", "-v", "5", "--store", str(store), heart])
    assert made.returncode == 0, made.stderr
    exported = run("store", ["--export", "1", str(store)])
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == made.stdout
    accuracy = np.mean(bindings_cv(heart, "-s 2", 5) == svmeval.read_dataset(heart).y)
    assert exported.stdout.startswith(f"Cross Validation Accuracy = {100 * accuracy:g}%")
    csv = run("store", ["--export", "1", "--format", "csv", str(store)])
    assert csv.stdout == run("linear", ["-s", "2", "-v", "5", "--format", "csv", heart]).stdout
    assert counts(store) == [(0, 5)]  # an export records no run of its own
    run("store", ["--delete-configuration", "linear: -s 2", str(store)])
    gone = run("store", ["--export", "1", str(store)])
    assert (gone.returncode, gone.stdout) == (1, "")
    assert "5 folds of this run are not in the store" in gone.stderr
    assert gone.stderr.count("\n") == 1


def test_a_python_liblinear_run_is_exported_as_svmeval_linear(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    params = svmeval.LinearParams(solver_type=0, C=4, bias=1)  # C an int: the double 4
    result = svmeval.cross_validate(heart, params, 4, store=store)
    np.testing.assert_array_equal(result.y_pred, bindings_cv(heart, "-s 0 -c 4 -B 1", 4))
    listing = run("store", ["--runs", str(store)]).stdout
    assert f"as svmeval-linear -v 4 -s 0 -c 4 -B 1 {heart}" in listing.replace("\n      ", " ")
    exported = run("store", ["--export", "1", str(store)])
    assert exported.returncode == 0, exported.stderr
    assert (
        exported.stdout == run("linear", ["-v", "4", "-s", "0", "-c", "4", "-B", "1", heart]).stdout
    )
    # the same configuration with C a float reuses every fold
    svmeval.cross_validate(
        heart, svmeval.LinearParams(solver_type=0, C=4.0, bias=1.0), 4, store=store
    )
    assert counts(store)[-1] == (4, 0)
    assert svmeval.to_frame(result)["configuration"].unique().tolist() == ["linear: -s 0 -c 4 -B 1"]


def test_a_python_liblinear_run_of_another_seed_is_listed_with_the_reason(heart, tmp_path):
    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(solver_type=2), 3, seed=2, store=store)
    out = run("store", ["--export", "1", str(store)])
    assert (out.returncode, out.stdout) == (1, "")
    assert "seed 1 only" in out.stderr and out.stderr.count("\n") == 1


def test_svmeval_store_json_names_liblinears_version_liblinear(heart, tmp_path):
    import json

    from liblinear import liblinear as ll_module
    from libsvm import svm as libsvm_module

    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(heart, svmeval.LinearParams(solver_type=2), 5, store=store)
    svmeval.cross_validate(heart, "-t 0", 5, store=store)
    listing = json.loads(run("store", ["--format", "json", str(store)]).stdout)
    by_kind = {u["kind"]: u for u in listing["configurations"]}
    linear, libsvm = by_kind["liblinear-cv-fold"], by_kind["cv-fold"]
    version = ctypes.c_int.in_dll(ll_module.liblinear, "liblinear_version").value
    libsvm_version = ctypes.c_int.in_dll(libsvm_module.libsvm, "libsvm_version").value
    assert linear["liblinear"] == str(version) and "libsvm" not in linear
    assert libsvm["libsvm"] == str(libsvm_version) and "liblinear" not in libsvm
    assert linear["configuration"] == "linear: -s 2"


def test_python_runs_with_liblinear_configurations_are_exported_by_svmeval_compare(heart, tmp_path):
    """benchmark and compare calls with LinearParams are listed and exported as the
    svmeval-compare lines (linear: ...) that make them."""
    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    svmeval.benchmark(
        [heart, wine], {"a": "-c 1", "b": svmeval.LinearParams(solver_type=2)}, 3, repeat=1,
        store=store,
    )  # fmt: skip
    svmeval.compare(
        heart, svmeval.LinearParams(solver_type=2), svmeval.LinearParams(solver_type=0), 3,
        repeat=1, store=store,
    )  # fmt: skip
    listing = run("store", ["--runs", str(store)]).stdout.replace("\n      ", " ")
    bench = ["-v", "3", "--repeat", "1", heart, wine, "--", "-c", "1", "--", "linear:", "-s", "2"]
    pair = [
        "-v",
        "3",
        "--repeat",
        "1",
        heart,
        "--",
        "linear:",
        "-s",
        "2",
        "--",
        "linear:",
        "-s",
        "0",
    ]
    assert f"as svmeval-compare {' '.join(bench)}" in listing
    assert f"as svmeval-compare {' '.join(pair)}" in listing
    for number, argv in (("1", bench), ("2", pair)):
        exported = run("store", ["--export", number, str(store)])
        assert exported.returncode == 0, exported.stderr
        assert exported.stdout == run("compare", argv).stdout


def _versions() -> dict:
    """Each library's version number as its package's metadata gives it: 2.50.0 -> "250"."""
    from importlib.metadata import version

    def number(package: str) -> str:
        major, minor = version(package).split(".")[:2]
        return str(int(major) * 100 + int(minor))

    return {"libsvm": number("libsvm-official"), "liblinear": number("liblinear-official")}


def _libraries(path) -> list[tuple]:
    with svmeval.open_store(path) as store:
        return [(r["libsvm"], r["liblinear"]) for r in store.runs()]


def test_the_runs_name_the_version_of_the_library_each_used(tmp_path):
    """A LIBLINEAR run names LIBLINEAR's version (as its units do), a LIBSVM run LIBSVM's,
    a comparison of one of each both; a run that only reuses names its library too."""
    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    want = _versions()
    svmeval.cross_validate(wine, svmeval.LinearParams(solver_type=2), 3, store=store)
    svmeval.cross_validate(wine, svmeval.LinearParams(solver_type=2), 3, store=store)
    svmeval.cross_validate(wine, "-t 0", 3, store=store)
    svmeval.compare(wine, "-t 0", svmeval.LinearParams(), 3, repeat=2, store=store)
    svmeval.compare(wine, svmeval.LinearParams(), "-c 4", 3, repeat=2, store=store)
    # the comparisons' LIBLINEAR sides are stored too: 6 units, reused by the second
    # (the same folds: LIBSVM's C-SVC draw of the same seeds)
    assert counts(store) == [(0, 3), (3, 0), (0, 3), (3, 9), (6, 6)]
    linear, libsvm = (None, want["liblinear"]), (want["libsvm"], None)
    both = (want["libsvm"], want["liblinear"])
    assert _libraries(store) == [linear, linear, libsvm, both, both]
    listing = json.loads(run("store", ["--format", "json", str(store)]).stdout)
    assert [(r["libsvm"], r["liblinear"]) for r in listing["runs"]] == _libraries(store)


def test_svmeval_linear_runs_name_liblinears_version(tmp_path):
    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    out = run("linear", ["-v", "3", "-q", "--store", str(store), wine])
    assert out.returncode == 0, out.stderr
    assert _libraries(store) == [(None, _versions()["liblinear"])]


@pytest.mark.skipif(sqlite3.sqlite_version_info < (3, 35), reason="DROP COLUMN: SQLite 3.35")
def test_a_store_of_schema_2_gets_the_liblinear_column_at_its_first_write(tmp_path):
    """Schema 2's runs had no liblinear: read as None, the column added by the migration
    before the first write, the old run left as it was."""
    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    svmeval.cross_validate(wine, "-c 2", 3, store=store)
    with sqlite3.connect(store) as db:
        db.execute("ALTER TABLE runs DROP COLUMN liblinear")
        db.execute("UPDATE meta SET value = '2' WHERE name = 'schema'")
        db.execute("PRAGMA user_version = 2")
    db.close()
    want = _versions()
    assert _libraries(store) == [(want["libsvm"], None)]
    svmeval.cross_validate(wine, svmeval.LinearParams(), 3, store=store)
    assert _libraries(store) == [(want["libsvm"], None), (None, want["liblinear"])]
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    db.close()


def _stored(path, kind: str) -> dict:
    """(seed, fold) -> the stored predictions of every unit of ``kind``."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT seed, fold, arrays, payload FROM units WHERE kind = ?", (kind,)
        ).fetchall()
    db.close()
    out = {}
    for seed, fold, arrays, payload in rows:
        (name, _, shape), *_ = json.loads(arrays)
        assert name == "y_pred"
        out[seed, fold] = np.frombuffer(payload[: 8 * shape[0]], dtype="<f8")
    return out


def test_liblinear_on_svmevals_folds_is_stored_and_reused_with_the_same_bytes(tmp_path):
    """A comparison of a LIBSVM and a LIBLINEAR configuration keeps LIBLINEAR's folds (one
    unit a repetition, kind liblinear-fold): a second run trains none of them and prints the
    same bytes; what is stored is what the bindings predict on those folds."""
    from test_linear_workflows import on_libsvm_folds

    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    args = ["-v", "3", "--repeat", "2", "--format", "json", "--store", str(store), wine]
    args += ["--", "-t", "0", "--", "linear:", "-s", "3"]
    first = run("compare", args)
    assert first.returncode == 0, first.stderr
    assert "0 units reused, 12 computed" in first.stderr
    again = run("compare", args)
    assert (again.returncode, again.stdout) == (0, first.stdout)
    assert "12 units reused, 0 computed" in again.stderr
    assert [k for k, _ in units(store)].count("liblinear-fold") == 6
    stored = _stored(store, "liblinear-fold")
    y, x = ll.svm_read_problem(wine)
    y = np.array(y)
    for seed in (1, 2):
        svm = svmeval.cross_validate(wine, "-t 0", 3, seed=seed)
        want = on_libsvm_folds(y, x, "-s 3", svm, seed)
        for i in range(3):
            assert stored[seed, i].tobytes() == want[svm.folds.test(i)].tobytes()


def test_an_export_of_a_liblinear_side_trains_nothing(tmp_path, monkeypatch):
    """A benchmark's and a permutation test's LIBLINEAR folds come back from the store: the
    export's report is the run's, with LIBLINEAR's training refused."""
    from svmeval.cv.run import linear_folds

    wine = str(ROOT / "data" / "wine.scale")
    cancer = str(ROOT / "data" / "breast_cancer.scale")
    store = tmp_path / "runs.sqlite"
    configurations = {"a": "-c 1", "b": svmeval.LinearParams(solver_type=2)}
    svmeval.benchmark([cancer, wine], configurations, 3, repeat=2, store=store)
    line = ["-v", "3", "--repeat", "2", cancer, wine, "--", "-c", "1", "--", "linear:", "-s", "2"]
    fresh = run("compare", line)

    def refuse(*args, **kwargs):
        raise AssertionError("LIBLINEAR trained during an export")

    monkeypatch.setattr(linear_folds, "_trained_folds", refuse)
    exported = run("store", ["--export", "1", str(store)])
    assert (exported.returncode, exported.stdout) == (0, fresh.stdout), exported.stderr


def test_permuted_liblinear_folds_are_reused(tmp_path):
    wine = str(ROOT / "data" / "wine.scale")
    store = tmp_path / "runs.sqlite"
    first = svmeval.permutation_test(wine, svmeval.LinearParams(), 3, permutations=4, store=store)
    again = svmeval.permutation_test(wine, svmeval.LinearParams(), 3, permutations=4, store=store)
    plain = svmeval.permutation_test(wine, svmeval.LinearParams(), 3, permutations=4)
    assert again.permuted.tobytes() == first.permuted.tobytes() == plain.permuted.tobytes()
    assert counts(store) == [(0, 15), (15, 0)]

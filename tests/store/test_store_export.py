"""A run made by a function of the library (``store=``) is exported by ``svmeval-store
--export`` as the report of the command line that makes the same run.

Oracle: that command itself, run afresh (no store) in the test: the export's standard output
must be byte for byte the command's, in every format it takes. Nothing may be trained by the
export: it runs in a process whose LIBSVM ``svm_train`` ends the process (exit 97), and the
store's units and runs are counted before and after. A call no command makes (arrays, an
argument no command has) is listed with the reason and its export refused in one line.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import svmeval
from svmeval import SvmParams, read_dataset

import commands

ROOT = Path(__file__).resolve().parents[2]
WINE = ROOT / "data" / "wine.scale"  # 3 classes, 178 rows
CANCER = ROOT / "data" / "breast_cancer.scale"  # 2 classes, 569 rows
LIMIT = 300  # seconds any one command may take

#: a process in which LIBSVM's svm_train ends the process: whatever it runs trains nothing
NO_TRAINING = """
import os, sys
from svmeval.cv import _libsvm

def refuse(*args):
    os.write(2, b"svm_train called\\n")
    os._exit(97)

_libsvm._c().train = refuse
from svmeval.cli.store import main
sys.exit(main(sys.argv[1:]))
"""

MULTILABEL_ROWS = [
    "1,2 1:0.1 2:0.9",
    "2 1:0.2 2:0.8",
    "1 1:0.9 2:0.1",
    "1,2 1:0.5 2:0.5",
    "2 1:0.1 2:0.7",
    "1 1:0.8 2:0.2",
] * 3


def env():
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def run(program: str, *args, cwd) -> subprocess.CompletedProcess:
    return commands.run(program, args, timeout=LIMIT, env=env(), cwd=cwd)


def export(store, number: int, *args, cwd) -> subprocess.CompletedProcess:
    """``svmeval-store STORE --export NUMBER ARGS`` where training ends the process."""
    return subprocess.run(
        [sys.executable, "-c", NO_TRAINING, str(store), "--export", str(number), *args],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env=env(),
        cwd=cwd,
    )


def counts(path) -> tuple[int, int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        units = c.execute("SELECT count(*) FROM units").fetchone()[0]
        runs = c.execute("SELECT count(*) FROM runs").fetchone()[0]
    c.close()
    return units, runs


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with the data files under short names, the working folder of the calls."""
    shutil.copy(WINE, tmp_path / "wine.scale")
    shutil.copy(CANCER, tmp_path / "cancer.scale")
    (tmp_path / "labels.txt").write_text("\n".join(MULTILABEL_ROWS) + "\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


GRID = {"log2c": (-1, 3, 2), "log2g": (-3, -1, 2)}

#: id -> (function, args, kwargs, the command line that makes the same run, its formats)
CALLS = {
    "cross_validate": (
        "cross_validate",
        ("wine.scale", "-c 2"),
        {"folds": 3, "seed": 3, "repeat": 2},
        "svmeval -v 3 --seed 3 --repeat 2 -c 2 wine.scale",
        ("text", "json", "csv"),
    ),
    "cross_validate SvmParams": (
        "cross_validate",
        (lambda: read_dataset("cancer.scale"), SvmParams(C=0.3, gamma=0.1234567891)),
        {},
        "svmeval -v 5 -g 0.1234567891 -c 0.3 cancer.scale",
        ("text", "json", "csv"),
    ),
    "cross_validate_multilabel": (
        "cross_validate_multilabel",
        ("labels.txt", "-c 4"),
        {"folds": 3},
        "svmeval --multilabel -v 3 -c 4 labels.txt",
        ("text", "json", "csv"),
    ),
    "grid_search": (
        "grid_search",
        ("wine.scale",),
        {"folds": 3, "criterion": "macro_f1", **GRID},
        "svmeval-grid -log2c -1,3,2 -log2g -3,-1,2 --criterion macro_f1 -v 3 -out null"
        " -gnuplot null wine.scale",
        ("text",),  # svmeval-grid's other formats are --nested's
    ),
    "nested_cv": (
        "nested_cv",
        ("wine.scale",),
        {"folds": 3, "inner_folds": 3, "seed": 2, **GRID},
        "svmeval-grid --nested 3 -v 3 -log2c -1,3,2 -log2g -3,-1,2 --seed 2 wine.scale",
        ("text", "json", "csv"),
    ),
    "compare": (
        "compare",
        ("cancer.scale", None, "-c 8"),
        {"folds": 3, "repeat": 2, "confidence_level": 0.9},
        "svmeval-compare -v 3 --repeat 2 --confidence 0.9 cancer.scale -- -- -c 8",
        ("text", "json", "csv"),
    ),
    "benchmark": (
        "benchmark",
        (["wine.scale", "cancer.scale"], {"C=1": "-c 1", "C=4": "-c 4"}),
        {"folds": 3, "repeat": 2, "criterion": "mcc"},
        "svmeval-compare -v 3 --repeat 2 --criterion mcc wine.scale cancer.scale -- -c 1 -- -c 4",
        ("text", "json", "csv", "markdown"),
    ),
    "permutation_test": (
        "permutation_test",
        ("cancer.scale",),
        {"folds": 3, "permutations": 9, "seed": 2},
        "svmeval -v 3 --permutations 9 --seed 2 cancer.scale",
        ("text", "json", "csv"),
    ),
    "tune_threshold": (
        "tune_threshold",
        ("cancer.scale", "-c 2"),
        {"folds": 3, "inner_folds": 3, "criterion": "mcc", "repeat": 2},
        "svmeval -v 3 --threshold mcc --repeat 2 -c 2 cancer.scale",
        ("text", "json", "csv"),
    ),
}


def call(function: str, args: tuple, kwargs: dict, store):
    args = tuple(a() if callable(a) else a for a in args)
    return getattr(svmeval, function)(*args, **kwargs, store=store)


@pytest.mark.parametrize("case", list(CALLS))
def test_a_functions_run_exports_as_its_command_prints_it(folder, case):
    function, args, kwargs, line, formats = CALLS[case]
    call(function, args, kwargs, folder / "runs.db")
    before = counts(folder / "runs.db")

    listing = run("store", "runs.db", cwd=folder)
    assert listing.returncode == 0, listing.stderr
    assert f"as {line}" in " ".join(listing.stdout.split()), listing.stdout
    as_json = json.loads(run("store", "--format", "json", "runs.db", cwd=folder).stdout)
    (record,) = as_json["runs"]
    assert record["equivalent"] == line and record["not_exported"] is None
    assert record["call"]["function"] == function
    assert record["command"].startswith(f"{function}(")

    program, *argv = line.split()
    program = {"svmeval-grid": "grid", "svmeval-compare": "compare"}.get(program, program)
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()  # an export runs where the run ran, wherever it is started
    for fmt in formats:
        asked = [] if fmt == "text" else ["--format", fmt]
        fresh = run(program, *asked, *argv, cwd=folder)
        assert fresh.returncode == 0, fresh.stderr
        exported = export(folder / "runs.db", 1, *asked, cwd=elsewhere)
        assert exported.returncode == 0, (fmt, exported.stderr)
        assert exported.stdout == fresh.stdout, fmt
    assert counts(folder / "runs.db") == before  # the export wrote nothing
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith("runs.db")) == [
        "cancer.scale",
        "elsewhere",
        "labels.txt",
        "wine.scale",
    ]


@pytest.mark.parametrize("made_by", ["call", "command"])
def test_an_export_whose_data_file_changed_says_so(made_by, folder):
    """The data file edited after the run (one row appended): none of its folds is in the
    store, and the export names the file that changed instead of counting missing folds; the
    file as it was exports again."""
    if made_by == "call":
        svmeval.tune_threshold("cancer.scale", folds=3, inner_folds=3, store="runs.db")
    else:
        assert (
            run(
                "svmeval",
                "-v",
                "3",
                "--threshold",
                "f1",
                "--store",
                "runs.db",
                "cancer.scale",
                cwd=folder,
            ).returncode
            == 0
        )
    fresh = run("svmeval", "-v", "3", "--threshold", "f1", "cancer.scale", cwd=folder)
    original = (folder / "cancer.scale").read_text()
    (folder / "cancer.scale").write_text(original + "-1 1:0.5\n")
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "svmeval-store: cancer.scale: its rows are not those the store holds for that file: "
        "it changed since run 1 (an export trains nothing)\n"
    )
    (folder / "cancer.scale").write_text(original)
    again = export("runs.db", 1, cwd=folder)
    assert again.returncode == 0 and again.stdout == fresh.stdout, again.stderr


def test_an_export_of_a_call_trains_nothing_even_where_folds_are_missing(folder):
    """A fold deleted from the store: the export fails in one line (it does not train)."""
    svmeval.cross_validate("wine.scale", folds=3, store="runs.db")
    with sqlite3.connect("runs.db") as c:
        c.execute("DELETE FROM units WHERE fold = 1")
    c.close()
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"svmeval-store: {folder / 'runs.db'}: 1 folds of this run are not in the store "
        "(an export trains nothing)\n"
    )


def _arrays():
    ds = read_dataset("wine.scale")
    X = np.zeros((ds.n_samples, ds.n_features))
    for i in range(ds.n_samples):
        row = slice(ds.indptr[i], ds.indptr[i + 1])
        X[i, ds.indices[row] - 1] = ds.values[row]
    return X, ds.y


#: id -> (function, args, kwargs, the reason the listing gives and the export says)
REFUSED = {
    "arrays": (
        "cross_validate",
        (_arrays,),
        {"folds": 3},
        "its data were arrays (X, y), not a file: no command reads them",
    ),
    "compare arrays": (
        "compare",
        (_arrays, "-c 1", "-c 2"),
        {"folds": 3, "repeat": 1},
        "its data were arrays (X, y), not a file: no command reads them",
    ),
    "decision values": (
        "cross_validate",
        ("wine.scale",),
        {"folds": 3, "keep_decision_values": True},
        "keep_decision_values=True keeps folds no command asks for (svmeval keeps the class "
        "scores only)",
    ),
    "inner folds": (
        "tune_threshold",
        ("cancer.scale",),
        {"folds": 3, "inner_folds": 2},
        "inner_folds='2' is not folds='3' (svmeval --threshold uses -v k for both)",
    ),
    "benchmark of two": (
        "benchmark",
        ("wine.scale", ["-c 1", "-c 2"]),
        {"folds": 3, "repeat": 1},
        "a benchmark of one data set and two configurations: svmeval-compare makes that "
        "line a comparison (compare)",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_call_no_command_makes_is_listed_and_its_export_refused(folder, case):
    function, args, kwargs, reason = REFUSED[case]
    call(function, args, kwargs, "runs.db")
    listing = run("store", "runs.db", cwd=folder)
    assert listing.returncode == 0, listing.stderr
    assert f"(no command: {reason})" in " ".join(listing.stdout.split())
    (record,) = json.loads(run("store", "--format", "json", "runs.db", cwd=folder).stdout)["runs"]
    assert record["equivalent"] is None and record["not_exported"] == reason
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"svmeval-store: run 1 cannot be exported: {reason}\n"


def test_a_hostile_call_is_never_a_command_line(folder):
    """A call edited in the store: values that are not what svmeval records are refused, a
    file name that looks like an option is read as a file."""
    svmeval.cross_validate("wine.scale", folds=3, store="runs.db")
    hostile = {
        "function": "cross_validate",
        "arguments": {"data": {"file": "wine.scale"}, "folds": "3; touch pwned"},
    }
    with sqlite3.connect("runs.db") as c:
        c.execute("UPDATE runs SET call = ?", (json.dumps(hostile),))
    c.close()
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1
    assert done.stderr == (
        "svmeval-store: run 1 cannot be exported: folds is not recorded as svmeval records it\n"
    )
    shutil.copy("wine.scale", "-v")
    hostile["arguments"] = {"data": {"file": "-v"}, "folds": 3}
    with sqlite3.connect("runs.db") as c:
        c.execute("UPDATE runs SET call = ?", (json.dumps(hostile),))
    c.close()
    listing = run("store", "runs.db", cwd=folder)
    assert "as svmeval -v 3 ./-v" in listing.stdout
    assert not (folder / "pwned").exists()
    hostile["arguments"] = {"data": {"file": "wine.scale"}, "folds": 1}
    with sqlite3.connect("runs.db") as c:  # a value only the command's own parser refuses
        c.execute("UPDATE runs SET call = ?", (json.dumps(hostile),))
    c.close()
    said = "svmeval refuses the line that would make it (n-fold cross validation: n must >= 2)"
    assert f"(no command: {said})" in " ".join(run("store", "runs.db", cwd=folder).stdout.split())
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1
    assert done.stderr == f"svmeval-store: run 1 cannot be exported: {said}\n"
    with sqlite3.connect("runs.db") as c:  # nested past Python's recursion limit
        c.execute("UPDATE runs SET call = ?", ("[" * 100_000 + "]" * 100_000,))
    c.close()
    listing = run("store", "runs.db", cwd=folder)
    assert listing.returncode == 0, listing.stderr
    said = "its call is not recorded as svmeval records calls"
    assert f"(no command: {said})" in listing.stdout
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1
    assert done.stderr == f"svmeval-store: run 1 cannot be exported: {said}\n"


def _schema_1(path: Path) -> None:
    """Make the store at ``path`` the file a store of schema version 1 is: ``runs`` without
    ``call`` (nor ``liblinear``), ``user_version`` 1, ``meta.schema`` 1 (the tables otherwise as
    they were)."""
    with sqlite3.connect(path) as c:
        c.execute("ALTER TABLE runs DROP COLUMN call")
        c.execute("ALTER TABLE runs DROP COLUMN liblinear")
        c.execute("UPDATE meta SET value = '1' WHERE name = 'schema'")
        c.execute("PRAGMA user_version = 1")
    c.close()


@pytest.mark.skipif(sqlite3.sqlite_version_info < (3, 35), reason="DROP COLUMN: SQLite 3.35")
def test_a_store_of_schema_1_is_read_as_it_is_and_migrated_at_its_first_write(folder):
    first = run("svmeval", "-v", "3", "--store", "runs.db", "wine.scale", cwd=folder)
    assert first.returncode == 0, first.stderr
    svmeval.cross_validate("cancer.scale", folds=3, store="runs.db")
    with sqlite3.connect("runs.db") as c:
        c.execute("UPDATE runs SET command = 'cross_validate' WHERE id = 2")  # as schema 1 did
    c.close()
    _schema_1(folder / "runs.db")
    bytes_before = (folder / "runs.db").read_bytes()

    listing = run("store", "runs.db", cwd=folder)
    assert listing.returncode == 0, listing.stderr
    assert listing.stdout.startswith("svmeval results store, schema 1,")
    assert "(no command: made by cross_validate, not by a command" in " ".join(
        listing.stdout.split()
    )
    done = export("runs.db", 1, cwd=folder)  # a command's run: as before
    assert done.returncode == 0 and done.stdout == first.stdout
    refused = export("runs.db", 2, cwd=folder)
    assert refused.returncode == 1 and refused.stderr.startswith(
        "svmeval-store: run 2 cannot be exported: made by cross_validate, not by a command"
    )
    assert (folder / "runs.db").read_bytes() == bytes_before  # reading changed nothing

    with svmeval.open_store("runs.db") as store:
        svmeval.cross_validate("wine.scale", "-c 4", folds=3, store=store)
        assert store.meta()["schema"] == "3"
        runs = store.runs()
    assert [r["call"] is None for r in runs] == [True, True, False]
    assert counts(folder / "runs.db") == (9, 3)
    third = export("runs.db", 3, cwd=folder)
    fresh = run("svmeval", "-v", "3", "-c", "4", "wine.scale", cwd=folder)
    assert third.returncode == 0 and third.stdout == fresh.stdout
    with sqlite3.connect("runs.db") as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 3
    c.close()


def test_a_dataset_whose_file_changed_since_the_run_is_said_so(folder):
    """A run given a Dataset read from a file: the export reads that file again and refuses,
    in one line, rows that are no longer the Dataset's (a label changed)."""
    svmeval.cross_validate(read_dataset("wine.scale"), folds=3, store="runs.db")
    rows = (folder / "wine.scale").read_text().splitlines(keepends=True)
    (folder / "wine.scale").write_text("".join(["2" + rows[0][1:], *rows[1:]]))
    assert rows[0][0] != "2"
    done = export("runs.db", 1, cwd=folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "svmeval-store: run 1 was given a Dataset named wine.scale whose rows are not that "
        "file's now\n"
    )


@pytest.mark.skipif(sqlite3.sqlite_version_info < (3, 35), reason="DROP COLUMN: SQLite 3.35")
def test_two_processes_migrate_a_store_of_schema_1_at_once(folder):
    """Two runs start on one store of schema version 1 together: the store is migrated once,
    both runs are recorded with their calls, every unit kept once."""
    svmeval.cross_validate("wine.scale", folds=3, store="runs.db")
    _schema_1(folder / "runs.db")
    script = (
        "import sys, svmeval; svmeval.cross_validate('wine.scale', sys.argv[1], folds=3,"
        " store='runs.db')"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, options],
            env=env(),
            cwd=folder,
            stderr=subprocess.PIPE,
            text=True,
        )
        for options in ("-c 2", "-c 4")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=LIMIT)
        assert proc.returncode == 0, err
    with svmeval.open_store("runs.db") as store:
        assert store.meta()["schema"] == "3"
        runs = store.runs()
    assert counts(folder / "runs.db") == (9, 3)
    assert runs[0]["call"] is None  # written before the store recorded calls
    assert sorted(json.loads(r["call"])["arguments"]["params"]["options"] for r in runs[1:]) == [
        "-c 2",
        "-c 4",
    ]

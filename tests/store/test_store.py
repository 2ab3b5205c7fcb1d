"""The results store: the data digest, units kept and reused, resumed runs, bad files."""

from __future__ import annotations

import gzip
import hashlib
import shutil
import struct
from pathlib import Path

import numpy as np

from svmeval.io.data import Dataset, read_dataset

ROOT = Path(__file__).resolve().parents[2]
HEART = ROOT / "data" / "breast_cancer.scale"


def test_digest_is_the_documented_sha256(tmp_path):
    """Dataset.digest() is SHA-256 over the parts its docstring lists (built here with struct
    from the file's own text, not from the reader's arrays)."""
    text = "+1 1:0.5 3:-1\n-1 2:2.5e-1\n"
    path = tmp_path / "two"
    path.write_text(text)
    h = hashlib.sha256(b"svmeval-dataset-1\0")

    def part(tag, fmt, values):
        h.update(tag + b"\0" + struct.pack("<q", len(values)))
        h.update(struct.pack("<" + fmt * len(values), *values))

    part(b"shape", "q", [2, 3])
    part(b"y", "d", [1.0, -1.0])
    part(b"indptr", "q", [0, 2, 3])
    part(b"indices", "i", [1, 3, 2])
    part(b"values", "d", [0.5, -1.0, 0.25])
    assert read_dataset(path).digest() == h.hexdigest()


def test_digest_ignores_the_name_and_compression_not_the_values(tmp_path):
    plain = read_dataset(HEART)
    packed = tmp_path / "bc.gz"
    with open(HEART, "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert read_dataset(packed).digest() == plain.digest()
    values = plain.values.copy()
    values[7] = np.nextafter(values[7], np.inf)  # one value's last bit
    changed = Dataset(plain.y, plain.indptr, plain.indices, values, plain.n_features, "x")
    assert changed.digest() != plain.digest()
    y = plain.y.copy()
    y[0] = -y[0]
    assert (
        Dataset(y, plain.indptr, plain.indices, plain.values, plain.n_features, "x").digest()
        != plain.digest()
    )
    wider = Dataset(plain.y, plain.indptr, plain.indices, plain.values, plain.n_features + 1, "x")
    assert wider.digest() != plain.digest()


# --- runs with a store: identical results, nothing computed twice ----------------------------
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

import commands  # noqa: E402
from conftest import signal_when  # noqa: E402

WINE = ROOT / "data" / "wine.scale"
DIABETES = ROOT / "data" / "diabetes.scale"
LIMIT = 300  # seconds any one command may take


def env():
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def command(program: str, *args, cwd=None):
    head = ["-m", "svmeval"] if program == "svmeval" else ["-m", "svmeval.cli", program]
    return [sys.executable, *head, *map(str, args)]


def run(program, *args, cwd=None):
    return commands.run(program, args, timeout=LIMIT, env=env(), cwd=cwd)


def units_in(path) -> int:
    """Units in the store at ``path`` now (0 while it is being created)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as c:
            return c.execute("SELECT count(*) FROM units").fetchone()[0]
    except sqlite3.Error:
        return 0


def kill_when(program, args, store, n: int, cwd, how=signal.SIGKILL) -> int:
    """Start the command, send it ``how`` (SIGKILL) as soon as ``store`` holds ``n`` units
    (waiting at most LIMIT seconds); return the units it left.

    The store is read while the run is stopped (SIGSTOP, waited for), and the signal is sent
    before it goes on: however loaded the machine, the run cannot end between the count and the
    signal (it did, sending a Ctrl-C to a run that had just finished)."""
    proc = subprocess.Popen(
        command(program, *args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(),
        cwd=cwd,
    )
    try:
        signal_when(proc, lambda: units_in(store), n, how, LIMIT)
        status = proc.wait(timeout=LIMIT)
        if how == signal.SIGINT:
            assert status == 130
    finally:
        proc.kill()
        proc.wait(timeout=LIMIT)
    return units_in(store)


def counts(stderr: str, prog: str, store) -> tuple[int, int]:
    found = re.findall(
        rf"^{re.escape(prog)}: store (.*): (\d+) units reused, (\d+) computed$", stderr, re.M
    )
    assert len(found) == 1, stderr
    assert found[0][0] == str(store)
    return int(found[0][1]), int(found[0][2])


GRID = ("-log2c", "-5,15,4", "-log2g", "3,-15,-4")
CASES = {
    # name: (program, its arguments, the units of the whole run, the files it writes)
    "cross_validate": (
        "svmeval",
        ["-q", "--jobs", "1", "-v", "10", "--repeat", "8", str(HEART)],
        80,
        [],
    ),
    "cross_validate -b 1": (
        "svmeval",
        ["-q", "--jobs", "1", "-b", "1", "-v", "5", "--repeat", "6", str(WINE)],
        30,
        [],
    ),
    "grid": (
        "grid",
        ["--jobs", "1", "-v", "5", *GRID, "-out", "OUT", "-gnuplot", "null", str(HEART)],
        150,
        ["OUT"],
    ),
    "nested": ("grid", ["--jobs", "1", "--nested", "3", "-v", "3", *GRID, str(WINE)], 273, []),
    "compare": (
        "compare",
        ["--jobs", "1", "-v", "10", "--repeat", "5", str(HEART), "--", "-c", "1", "--", "-c", "8"],
        100,
        [],
    ),
    "benchmark": (
        "compare",
        [
            "--jobs",
            "1",
            "-v",
            "5",
            "--repeat",
            "4",
            str(HEART),
            str(WINE),
            "--",
            "-c",
            "1",
            "--",
            "-c",
            "8",
            "--",
            "-t",
            "0",
        ],
        120,
        [],
    ),
}
PROG = {"svmeval": "svmeval", "grid": "svmeval-grid", "compare": "svmeval-compare"}


@pytest.mark.parametrize("case", list(CASES))
def test_killed_twice_and_resumed_gives_the_fresh_run_computing_each_unit_once(case, tmp_path):
    """A run with a store SIGKILLed at two moments and started again prints exactly what a
    run without a store prints (and writes the same -out file); the resumed run computes only
    the units the store lacks; a complete store's rerun computes nothing."""
    program, args, total, files = CASES[case]
    fresh_dir, stored_dir = tmp_path / "fresh", tmp_path / "stored"
    fresh_dir.mkdir(), stored_dir.mkdir()
    fresh = run(program, *args, cwd=fresh_dir)
    assert fresh.returncode == 0, fresh.stderr
    store = stored_dir / "runs.db"
    with_store = (
        [*args[:-1], "--store", str(store), args[-1]]
        if program != "compare"
        else ["--store", str(store), *args]
    )
    left = kill_when(program, with_store, store, total // 5, stored_dir)
    assert total // 5 <= left < total
    left = kill_when(program, with_store, store, max(left + 1, total * 3 // 5), stored_dir)
    assert left < total
    done = run(program, *with_store, cwd=stored_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout == fresh.stdout
    for name in files:
        assert (stored_dir / name).read_bytes() == (fresh_dir / name).read_bytes()
    assert counts(done.stderr, PROG[program], store) == (left, total - left)
    assert units_in(store) == total
    again = run(program, *with_store, cwd=stored_dir)
    assert again.stdout == fresh.stdout
    assert counts(again.stderr, PROG[program], store) == (total, 0)


def test_a_benchmark_with_one_more_configuration_computes_only_its_units(tmp_path):
    from svmeval import benchmark, open_store, render

    store = tmp_path / "runs.db"
    data = [HEART, WINE]
    two = {"rbf": "-c 1", "linear": "-t 0"}
    three = {**two, "rbf C=8": "-c 8"}
    benchmark(data, two, folds=5, repeat=2, store=store)
    with open_store(store) as s:
        bigger = benchmark(data, three, folds=5, repeat=2, store=s)
        assert (s.reused, s.computed) == (2 * 2 * 10, 2 * 10)  # -c 8 on both data sets
        configurations = {u["configuration"].split(" -c ")[-1] for u in s.units()}
    assert render(bigger, format="json") == render(
        benchmark(data, three, folds=5, repeat=2), format="json"
    )
    assert "8" in configurations


def test_a_fully_stored_rerun_reads_its_units_in_a_few_queries(tmp_path):
    """A rerun whose every fold is stored reads them in batches of a few hundred keys (600
    folds: two queries of table ``units``, as SQLite's trace of the store's connection shows),
    not one query a fold; its result is the fresh run's."""
    from svmeval import compare, open_store

    path = tmp_path / "runs.db"
    args = (WINE, "-c 1", "-c 8")
    fresh = compare(*args, folds=10, repeat=30, store=path)
    statements: list = []
    with open_store(path) as store:
        store._conn.set_trace_callback(statements.append)  # type: ignore[union-attr]
        again = compare(*args, folds=10, repeat=30, store=store)
        assert (store.reused, store.computed) == (600, 0)
    reads = [s for s in statements if re.search(r"\bFROM units\b", s)]
    assert len(reads) == 2, reads[:3]
    assert json.dumps(again.to_dict()) == json.dumps(fresh.to_dict())


def test_a_rerun_reads_its_stored_folds_a_window_at_a_time(tmp_path, monkeypatch):
    """The folds a rerun reads at once are bounded (WINDOW keys a query): with windows of 7
    keys, across units of 10 folds and two configurations of the same parameters (the same
    keys twice), every fold is read and the result is the fresh run's."""
    from svmeval import compare, open_store
    from svmeval.cv.run import store_use

    path = tmp_path / "runs.db"
    args = (WINE, "-c 1", "-c 1")
    fresh = compare(*args, folds=10, repeat=4, store=path)
    monkeypatch.setattr(store_use, "WINDOW", 7)
    statements: list = []
    with open_store(path) as store:
        store._conn.set_trace_callback(statements.append)  # type: ignore[union-attr]
        again = compare(*args, folds=10, repeat=4, store=store)
        assert (store.reused, store.computed) == (80, 0)
    reads = [s for s in statements if re.search(r"\bFROM units\b", s)]
    assert len(reads) >= 40 // 7
    assert json.dumps(again.to_dict()) == json.dumps(fresh.to_dict())


def test_eight_processes_started_at_once_share_one_new_store(tmp_path):
    """Eight processes released together by one pipe's end, on one store that does not exist
    yet, all finish with the fresh run's predictions; the store holds each unit once."""
    from svmeval import cross_validate

    store = tmp_path / "runs.db"
    script = (
        "import os, sys, json\n"
        "from svmeval import cross_validate\n"
        "os.read(int(sys.argv[1]), 1)\n"  # blocks until the parent closes the pipe
        f"r = cross_validate({str(HEART)!r}, '-c 2', folds=10, jobs=1, store=sys.argv[2])\n"
        "print(json.dumps(r.y_pred.tolist()))\n"
    )
    gate_read, gate_write = os.pipe()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(gate_read), str(store)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(),
            pass_fds=(gate_read,),
        )
        for _ in range(8)
    ]
    os.close(gate_read)
    os.close(gate_write)  # every process's read returns now
    outputs = [p.communicate(timeout=LIMIT) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in outputs]
    expected = cross_validate(HEART, "-c 2", folds=10).y_pred.tolist()
    assert all(json.loads(out) == expected for out, _ in outputs)
    with sqlite3.connect(store) as c:
        rows = c.execute("SELECT count(*), count(DISTINCT key), count(DISTINCT fold) FROM units")
        assert rows.fetchone() == (10, 10, 10)


def test_two_processes_a_script_and_a_command_on_one_store(tmp_path):
    store = tmp_path / "runs.db"
    script = (
        "import sys\n"
        "from svmeval import grid_search\n"
        f"grid_search({str(WINE)!r}, log2c=(-5, 15, 4), log2g=(3, -15, -4), folds=5, jobs=1,"
        " store=sys.argv[1])\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(store)], env=env(), stderr=subprocess.PIPE, text=True
    )
    done = run(
        "grid",
        "--jobs",
        "1",
        "-v",
        "5",
        *GRID,
        "-out",
        "null",
        "-gnuplot",
        "null",
        "--store",
        store,
        WINE,
    )
    _, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 0 and done.returncode == 0, (err, done.stderr)
    fresh = run("grid", "--jobs", "1", "-v", "5", *GRID, "-out", "null", "-gnuplot", "null", WINE)
    assert done.stdout == fresh.stdout
    assert units_in(store) == 150


# --- files that are not stores, damaged, newer, hostile -----------------------------------------
def _store_with_units(path):
    from svmeval import cross_validate

    cross_validate(WINE, folds=3, store=path)


def _sqlite_of_another_program(path):
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE songs (title TEXT)")
        c.execute("INSERT INTO songs VALUES ('x')")
    c.close()


def _truncated(path):
    _store_with_units(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupted(path):
    _store_with_units(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page + 0 : page + 200] = bytes(range(200))  # the second page's header and cells
    path.write_bytes(bytes(data))


def _newer(path):
    _store_with_units(path)
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA user_version = 99")
        c.execute("UPDATE meta SET value = '9.1' WHERE name = 'requires'")
    c.close()


BAD = {
    "a data file": (
        lambda p: p.write_bytes(WINE.read_bytes()),
        "not an svmeval store (not an SQLite database)",
    ),
    "a text file shorter than a header": (
        lambda p: p.write_bytes(b"SQLite"),
        "not an svmeval store (not an SQLite database)",
    ),
    "another program's database": (
        _sqlite_of_another_program,
        "not an svmeval store (another program's SQLite database)",
    ),
    "a truncated store": (_truncated, "damaged store: truncated"),
    "a corrupted store": (_corrupted, "damaged store"),
    "a newer store": (_newer, "written by a newer svmeval: it needs svmeval 9.1"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_file_that_is_not_a_usable_store_is_refused_in_one_line_and_left_untouched(
    case, tmp_path
):
    from svmeval import StoreError, cross_validate

    make, words = BAD[case]
    path = tmp_path / "runs.db"
    make(path)
    before = path.read_bytes()
    listing = sorted(os.listdir(tmp_path))
    done = run("svmeval", "-q", "-v", "3", "--store", path, WINE)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"svmeval: {path}: "), (
        done.stderr
    )
    assert words in done.stderr
    with pytest.raises(StoreError, match=re.escape(words)):
        cross_validate(WINE, folds=3, store=path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing


def _tamper(path, sql: str, *args):
    import hashlib

    with sqlite3.connect(path) as c:
        c.execute(sql, args)
        for key, header, payload in c.execute("SELECT key, arrays, payload FROM units").fetchall():
            raw = payload.encode() if isinstance(payload, str) else payload
            digest = hashlib.sha256(header.encode() + b"\0" + raw).hexdigest()
            c.execute("UPDATE units SET digest = ? WHERE key = ?", (digest, key))
    c.close()


HOSTILE = {
    "a wrong shape": (
        "UPDATE units SET arrays = replace(arrays, '[60]', '[61]')",
        "its arrays|array",
    ),
    "a huge count": (
        "UPDATE units SET arrays = replace(arrays, '[60]', '[1000000000000]')",
        "array",
    ),
    "bytes missing": ("UPDATE units SET payload = substr(payload, 1, 100)", "short"),
    "a NaN prediction": (
        "UPDATE units SET payload = CAST(x'000000000000F87F' || substr(payload, 9) AS BLOB)",
        "not one of the data's classes",
    ),
    "another dtype": ("UPDATE units SET arrays = replace(arrays, '<f8', '|O')", "array"),
    "text for bytes": ("UPDATE units SET payload = 'abc'", "value's types"),
    "not JSON": ("UPDATE units SET arrays = 'import os'", "not JSON"),
    "a list for a name": (
        """UPDATE units SET arrays = replace(arrays, '["y_pred"', '[["y_pred"]')""",
        "array",
    ),
    "a number for a shape": ("UPDATE units SET arrays = replace(arrays, '[60]', '60')", "array"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_unit_is_refused_never_used(case, tmp_path):
    from svmeval import StoreError, cross_validate

    path = tmp_path / "runs.db"
    _store_with_units(path)
    sql, words = HOSTILE[case]
    _tamper(path, sql)
    with pytest.raises(StoreError, match=words):
        cross_validate(WINE, folds=3, store=path)
    done = run("svmeval", "-q", "-v", "3", "--store", path, WINE)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "does not fit the run" in done.stderr


def test_a_value_changed_without_its_digest_is_refused(tmp_path):
    from svmeval import StoreError, cross_validate

    path = tmp_path / "runs.db"
    _store_with_units(path)
    with sqlite3.connect(path) as c:
        key, payload = c.execute("SELECT key, payload FROM units LIMIT 1").fetchone()
        changed = payload[:16] + bytes(8) + payload[24:]  # one prediction now 0.0
        c.execute("UPDATE units SET payload = ? WHERE key = ?", (changed, key))
    c.close()
    with pytest.raises(StoreError, match="do not match their digest"):
        cross_validate(WINE, folds=3, store=path)


def test_store_is_no_other_file_of_the_command(tmp_path):
    out = tmp_path / "report.txt"
    done = run("svmeval", "-q", "-v", "3", "-o", out, "--store", out, WINE)
    assert done.returncode == 1 and "--store" in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("options", ["-c 4", "-c 4 -b 1"])
def test_multilabel_run_takes_the_folds_it_finds_and_computes_the_rest(options, tmp_path):
    from svmeval import cross_validate_multilabel, open_store

    lines = ["1,2 1:0.1 2:0.9", "2 1:0.2 2:0.8", "1 1:0.9 2:0.1", "1,3 1:0.5 2:0.5", "3 1:0.3"]
    data = tmp_path / "sets.txt"
    data.write_text("\n".join(lines * 6) + "\n")
    fresh = cross_validate_multilabel(data, options, folds=4)
    path = tmp_path / "runs.db"
    cross_validate_multilabel(data, options, folds=4, store=path)
    with sqlite3.connect(path) as c:
        c.execute("DELETE FROM units WHERE fold IN (1, 3)")
    c.close()
    with open_store(path) as store:
        again = cross_validate_multilabel(data, options, folds=4, store=store)
        # -b 1: the label x fold tasks draw from one rand() in turn: all or nothing
        expected = (0, 12) if "-b 1" in options else (6, 6)
        assert (store.reused, store.computed) == expected
    for name in ("Y_pred", "scores", "probabilities", "constant", "fold"):
        a, b = getattr(fresh, name), getattr(again, name)
        assert (a is None and b is None) or np.array_equal(a, b, equal_nan=True)


# --- svmeval-store -------------------------------------------------------------------------
def test_svmeval_store_lists_exports_and_deletes(tmp_path):
    """A grid and a comparison kept in one store: the listing names both data sets'
    configurations and both runs; each run exported gives the report its command printed, in
    another format too, without training (a fold deleted makes the export fail, not compute);
    deleting a configuration's units makes the next run compute just those."""
    wine = tmp_path / "wine.scale"
    wine.write_bytes(WINE.read_bytes())
    grid = run(
        "grid",
        *GRID,
        "-v",
        "3",
        "-out",
        "null",
        "-gnuplot",
        "null",
        "--store",
        "runs.db",
        "wine.scale",
        cwd=tmp_path,
    )
    comparison = run(
        "compare",
        "-v",
        "5",
        "--repeat",
        "2",
        "--store",
        "runs.db",
        "wine.scale",
        "--",
        "-c",
        "1",
        "--",
        "-c",
        "4",
        cwd=tmp_path,
    )
    assert grid.returncode == 0 and comparison.returncode == 0
    listing = run("store", "runs.db", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert "wine.scale, sha256 " + read_dataset(WINE).digest()[:16] in listing.stdout
    assert "-g 0.0769231 -c 4 -v 5 --seed 2: 5 units" in listing.stdout
    assert "  1, " in listing.stdout and "svmeval-grid -log2c -5,15,4" in listing.stdout
    assert "0 reused, 20 computed," in listing.stdout and "svmeval-compare -v 5" in listing.stdout
    # one space between words, a comma between the parts the headings name
    assert [line for line in listing.stdout.splitlines() if "  " in line.strip()] == []
    as_json = json.loads(run("store", "--format", "json", "runs.db", cwd=tmp_path).stdout)
    assert [r["computed"] for r in as_json["runs"]] == [90, 20]

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # the export runs where the run ran, wherever it is started
    assert run("store", "--export", "1", tmp_path / "runs.db", cwd=elsewhere).stdout == grid.stdout
    exported = run("store", "--export", "2", "runs.db", cwd=tmp_path)
    assert exported.stdout == comparison.stdout and exported.returncode == 0
    fresh_json = run(
        "compare",
        "-v",
        "5",
        "--repeat",
        "2",
        "--format",
        "json",
        WINE,
        "--",
        "-c",
        "1",
        "--",
        "-c",
        "4",
    )
    exported_json = run("store", "--export", "2", "--format", "json", "runs.db", cwd=tmp_path)
    assert json.loads(exported_json.stdout) | {"data_file": ""} == json.loads(fresh_json.stdout) | {
        "data_file": ""
    }
    assert sorted(os.listdir(tmp_path)) == ["elsewhere", "runs.db", "wine.scale"]

    deleted = run("store", "--delete-configuration", "-g 0.0769231 -c 4", "runs.db", cwd=tmp_path)
    assert deleted.stdout == "10 units deleted\n"
    missing = run("store", "--export", "2", "runs.db", cwd=tmp_path)
    assert missing.returncode == 1 and missing.stdout == ""
    assert (
        missing.stderr
        == f"svmeval-store: {tmp_path / 'runs.db'}: 10 folds of this run are not in the store (an export trains nothing)\n"
    )
    again = run(
        "compare",
        "-v",
        "5",
        "--repeat",
        "2",
        "--store",
        "runs.db",
        "wine.scale",
        "--",
        "-c",
        "1",
        "--",
        "-c",
        "4",
        cwd=tmp_path,
    )
    assert again.stdout == comparison.stdout
    assert counts(again.stderr, "svmeval-compare", "runs.db") == (10, 10)


@pytest.mark.parametrize(
    "args, message",
    [
        (["a.db", "b.db"], "give only one store file"),
        (["--export", "x", "a.db"], "--export x: a run's number"),
        (["--format", "html", "a.db"], "the listing is text or json"),
        (["--frobnicate", "a.db"], "unknown option: --frobnicate"),
        (["--export", "1", "--runs", "a.db"], "one at a time"),
        (["no_such.db"], "no_such.db: no such store"),
        (["--export", "3", "STORE"], "no run 3"),
    ],
)
def test_svmeval_store_bad_lines_one_line_exit_1(args, message, tmp_path):
    _store_with_units(tmp_path / "s.db")
    args = [str(tmp_path / "s.db") if a == "STORE" else a for a in args]
    done = run("store", *args, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("svmeval-store: ")
    assert message in done.stderr


def test_an_export_writes_no_file_and_reaches_no_cluster_a_store_names(tmp_path):
    wine = tmp_path / "wine.scale"
    wine.write_bytes(WINE.read_bytes())
    first = run("svmeval", "-q", "-v", "3", "--store", "runs.db", "wine.scale", cwd=tmp_path)
    assert first.returncode == 0
    hostile = (
        "svmeval -q -v 3 --predictions p.txt --folds f.txt -o r.txt"
        " --dask tcp://192.0.2.1:8786 wine.scale"
    )
    with sqlite3.connect(tmp_path / "runs.db") as c:
        c.execute("UPDATE runs SET command = ?", (hostile,))
    c.close()
    done = run("store", "--export", "1", "runs.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == first.stdout
    assert sorted(os.listdir(tmp_path)) == ["runs.db", "wine.scale"]


def test_svmeval_store_shows_a_hostile_name_escaped_and_never_runs_it(tmp_path):
    path = tmp_path / "runs.db"
    _store_with_units(path)
    with sqlite3.connect(path) as c:
        c.execute("UPDATE units SET data_name = 'x\x1b]0;owned\x07'")
        # the run's call dropped: its command line is all there is to export
        c.execute("UPDATE runs SET command = 'sh -c \"touch pwned\"', call = NULL")
    c.close()
    listing = run("store", path, cwd=tmp_path)
    assert "\x1b" not in listing.stdout and "x\\x1b]0;owned\\x07" in listing.stdout
    done = run("store", "--export", "1", path, cwd=tmp_path)
    assert done.returncode == 1 and "not by a command" in done.stderr
    assert not (tmp_path / "pwned").exists()


def test_svmeval_store_help():
    done = run("store", "--help")
    assert done.returncode == 0 and done.stdout.startswith(
        "Usage: svmeval-store [options] store_file"
    )


def test_a_dask_run_takes_and_writes_the_same_units(tmp_path):
    """On a Dask cluster the client writes each fold as it comes back, and a partial store
    is completed there: the same predictions and counts as a local run."""
    pytest.importorskip("distributed")
    from svmeval import cross_validate, grid_search, open_store

    path = tmp_path / "runs.db"
    local = grid_search(WINE, log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3)
    with open_store(path) as store:
        cross_validate(WINE, "-c 2 -g 0.125", folds=3, store=store)  # one cell, computed here
        on_cluster = grid_search(
            WINE, log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3, client="local:2", store=store
        )
        assert (store.reused, store.computed) == (3, 3 + 24)
    assert [(c.cell, c.value) for c in on_cluster.cells] == [(c.cell, c.value) for c in local.cells]
    with open_store(path) as store:
        grid_search(WINE, log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3, store=store)
        assert (store.reused, store.computed) == (27, 0)


def test_store_needs_a_cross_validation(tmp_path):
    for args in (["--store", "runs.db", WINE], ["--score", WINE, "--store", "runs.db", WINE]):
        done = run("svmeval", *args, cwd=tmp_path)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "--store" in done.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("where", ["/dev/null", "FIFO", "-", "DIR"])
def test_a_store_that_is_not_a_regular_file_is_refused_before_it_is_opened(where, tmp_path):
    """A device, a pipe (opening it would block), standard input or a directory: one line,
    exit 1, nothing created."""
    if where == "FIFO":
        where = tmp_path / "pipe"
        os.mkfifo(where)
    elif where == "DIR":
        where = tmp_path / "folder"
        where.mkdir()
    before = sorted(os.listdir(tmp_path))
    done = run("svmeval", "-q", "-v", "3", "--store", where, WINE, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "store" in done.stderr
    assert sorted(os.listdir(tmp_path)) == before


def test_ctrl_c_exits_130_keeping_every_fold_computed(tmp_path):
    """Ctrl-C (SIGINT) ends a command with a store in status 130; the folds it computed are in
    the store, and the run started again computes only the others, with the same output."""
    program, args, total, _ = CASES["cross_validate"]
    fresh = run(program, *args)
    store = tmp_path / "runs.db"
    with_store = [*args[:-1], "--store", str(store), args[-1]]
    left = kill_when(program, with_store, store, total // 3, tmp_path, signal.SIGINT)
    assert total // 3 <= left < total
    done = run(program, *with_store, cwd=tmp_path)
    assert done.stdout == fresh.stdout
    assert counts(done.stderr, "svmeval", store) == (left, total - left)


MISSING = "no-such-data-file"
FAILING = {
    # name: a command's arguments or a run function's call (store= added), failing at once
    "svmeval, no data file": ("svmeval", ["-q", "-v", "5", MISSING]),
    "svmeval, a bad criterion": ("svmeval", ["-q", "-v", "5", "--criterion", "bogus", WINE]),
    "svmeval-grid, no data file": ("grid", ["-v", "5", *GRID, MISSING]),
    "svmeval-grid, a bad criterion": ("grid", ["-v", "5", *GRID, "--criterion", "bogus", WINE]),
    "svmeval-compare, no data file": ("compare", ["-v", "3", MISSING, "--", "-c", "2"]),
    "svmeval-compare, a bad criterion": (
        "compare",
        ["-v", "3", "--criterion", "bogus", WINE, "--", "-c", "2"],
    ),
    "cross_validate, no data file": ("cross_validate", (MISSING,), {}),
    "cross_validate_multilabel, no data file": ("cross_validate_multilabel", (MISSING,), {}),
    "grid_search, a bad criterion": ("grid_search", (WINE,), {"criterion": "bogus"}),
    "grid_search, no data file": ("grid_search", (MISSING,), {}),
    "nested_cv, a bad criterion": ("nested_cv", (WINE,), {"criterion": "bogus"}),
    "compare, no data file": ("compare", (MISSING, "-c 1", "-c 2"), {}),
    "compare, a bad criterion": ("compare", (WINE, "-c 1", "-c 2"), {"criterion": "bogus"}),
    "benchmark, a bad criterion": ("benchmark", ([WINE], ["-c 1", "-c 2"]), {"criterion": "bogus"}),
    "benchmark, no data file": ("benchmark", ([MISSING], ["-c 1", "-c 2"]), {}),
}


@pytest.mark.parametrize("case", list(FAILING))
def test_a_run_refused_before_any_work_creates_no_store(case, tmp_path):
    """A new store's file is made only by a run that got as far as computing: a command's
    bad input is one line, exit 1, and a run function's typed error, with no file left."""
    import svmeval
    from svmeval import SvmevalError

    path = tmp_path / "runs.db"
    what, *call = FAILING[case]
    if len(call) == 1:
        done = run(what, "--store", path, *call[0], cwd=tmp_path)
        assert done.returncode == 1 and done.stdout == "", done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
    else:
        args, kwargs = call
        with pytest.raises(SvmevalError):
            getattr(svmeval, what)(*args, folds=3, store=path, **kwargs)
    assert os.listdir(tmp_path) == []


def test_a_wait_for_another_writers_lock_lets_ctrl_c_through(tmp_path, monkeypatch):
    """A write that waits for another process's lock waits in Python, where a Ctrl-C lands
    (a KeyboardInterrupt at its next sleep), not in SQLite's C busy wait, which holds every
    signal back until the lock frees or the wait's 600 s end. The interrupt is simulated at
    the first sleep; under a C busy wait the write never gets there."""
    import threading
    import types

    from svmeval import open_store
    from svmeval.store import _store

    def interrupted(seconds):
        raise KeyboardInterrupt

    path = tmp_path / "runs.db"
    with open_store(path) as store:
        store.end_run(store.begin_run("svmeval -v 5 data"), 0, 0)  # the file made
    monkeypatch.setattr(
        _store, "time", types.SimpleNamespace(monotonic=time.monotonic, sleep=interrupted)
    )
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another writer holds the lock
    raised: list[BaseException] = []
    store = open_store(path)

    def write():
        try:
            store.begin_run("svmeval -v 3 data")
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            raised.append(exc)

    try:
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(LIMIT)
        assert not writer.is_alive(), "the write waited in SQLite's busy wait"
        assert len(raised) == 1 and isinstance(raised[0], KeyboardInterrupt), raised
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.close()
    with open_store(path) as store:  # the lock released, nothing half-written
        assert [r["command"] for r in store.runs()] == ["svmeval -v 5 data"]


@pytest.fixture
def unwritable_folder(tmp_path):
    """``(folder, close)``: a folder that ``close()`` makes one this process cannot write
    (mode 555; for root, which ignores modes, the immutable attribute where chattr can set
    it); skips where neither holds."""
    folder = tmp_path / "received"
    folder.mkdir()
    undo = []

    def close():
        os.chmod(folder, 0o555)
        undo.append(lambda: os.chmod(folder, 0o755))
        probe = folder / "probe"
        try:
            probe.write_text("")
        except OSError:
            return
        probe.unlink()
        chattr = shutil.which("chattr")
        if chattr is None or subprocess.run([chattr, "+i", str(folder)]).returncode != 0:
            pytest.skip("no folder this process cannot write (root, without chattr)")
        undo.append(lambda: subprocess.run([chattr, "-i", str(folder)], check=True))

    yield folder, close
    for step in reversed(undo):
        step()


def test_a_store_in_a_folder_no_one_may_write_is_listed_and_exported(unwritable_folder):
    """A store received in a folder this process cannot write (SQLite cannot make the
    shared-memory file a WAL reader needs there): listed and exported from as it is; a run
    that must write to it is refused in one line, exit 1, and nothing is written."""
    folder, close = unwritable_folder
    store = folder / "runs.db"
    made = run("svmeval", "-q", "-v", "3", "--store", store, HEART)
    assert made.returncode == 0, made.stderr
    close()
    before = store.read_bytes()
    listing = run("store", store)
    assert listing.returncode == 0 and listing.stderr == "", listing.stderr
    assert "1 configuration" in listing.stdout and "--store" in listing.stdout
    exported = run("store", "--export", "1", store)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == run("svmeval", "-q", "-v", "3", HEART).stdout
    write = run("svmeval", "-q", "-v", "3", "-c", "4", "--store", store, HEART)
    assert write.returncode == 1 and write.stdout == "" and "Traceback" not in write.stderr
    assert write.stderr.count("\n") == 1 and "read-only" in write.stderr, write.stderr
    assert store.read_bytes() == before and os.listdir(folder) == ["runs.db"]

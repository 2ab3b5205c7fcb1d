"""The results store after what can go wrong under a run: a write refused half-way (the
file-size limit, ``ulimit -f``), ``kill -9`` in the middle of a checkpoint, a store this
process may not write, a run interrupted. The oracles: SQLite itself (its ``integrity_check``
and its count of units, read in the test with Python's ``sqlite3``), the values the test wrote,
and the run without a store.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import signal_when

ROOT = Path(__file__).resolve().parents[2]
HEART = ROOT / "data" / "breast_cancer.scale"
LIMIT = 300  # seconds any one command or wait may take


def env():
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def run(program, *args, cwd=None, preexec_fn=None):
    head = ["-m", "svmeval"] if program == "svmeval" else ["-m", "svmeval.cli", program]
    return subprocess.run(
        [sys.executable, *head, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env=env(),
        cwd=cwd,
        preexec_fn=preexec_fn,
    )


def counts(stderr: str, prog: str = "svmeval") -> tuple[int, int]:
    found = re.findall(rf"^{prog}: store .*: (\d+) units reused, (\d+) computed", stderr, re.M)
    assert len(found) == 1, stderr
    return int(found[0][0]), int(found[0][1])


def header_bytes(path) -> int:
    """The size the file's SQLite header states (pages x page size)."""
    with open(path, "rb") as f:
        head = f.read(100)
    page = int.from_bytes(head[16:18], "big")
    return int.from_bytes(head[28:32], "big") * (65536 if page == 1 else page)


def sqlite_says(path) -> tuple[str, int]:
    """SQLite's own verdict on the store, read only: integrity_check and the units."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=LIMIT) as c:
        verdict = c.execute("PRAGMA integrity_check").fetchone()[0]
        units = c.execute("SELECT count(*) FROM units").fetchone()[0]
    c.close()
    return verdict, units


def test_a_store_after_a_write_refused_by_the_file_size_limit_opens_again(tmp_path):
    """``ulimit -f`` at the store's size: the run stops in one line when SQLite's write is
    refused, leaving the main file shorter than its header says, its pages in the WAL (a
    checkpoint that did not end). SQLite opens that whole; so must svmeval, and the next run
    prints what a run without a store prints, reusing the units SQLite says were stored."""
    store = tmp_path / "runs.db"
    first = run("svmeval", "-q", "-v", "5", "--store", store, HEART)
    assert first.returncode == 0, first.stderr
    size = store.stat().st_size
    args = ("svmeval", "-q", "-v", "10", "-c", "4", "--store", store, HEART)

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    refused = run(*args, preexec_fn=limited)
    assert refused.returncode == 1 and refused.stdout == "", refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    # the state the test is about: a checkpoint half done, the pages in the WAL
    assert os.path.getsize(f"{store}-wal") > 32
    assert header_bytes(store) > store.stat().st_size
    verdict, stored = sqlite_says(store)
    assert verdict == "ok"
    kept = stored - 5  # the first run's five units, and what the refused run stored

    fresh = run("svmeval", "-q", "-v", "10", "-c", "4", HEART)
    again = run(*args)
    assert again.returncode == 0, again.stderr
    assert again.stdout == fresh.stdout
    assert counts(again.stderr) == (kept, 10 - kept)
    assert sqlite_says(store) == ("ok", 15)
    listing = run("store", store)
    assert listing.returncode == 0 and listing.stderr == "", listing.stderr


CHILD = """\
import sys
import numpy as np
from svmeval.store import Store

path, n = sys.argv[1], int(sys.argv[2])
store = Store(path)
run = store.begin_run("checkpoints")
for i in range(n):
    fields = {"unit": "cv-fold", "data": "0" * 64, "data_name": "d", "configuration": "-c 1",
              "n_folds": n, "seed": 1, "fold": i}
    store.put(f"{i:064x}", fields, {"y_pred": np.full(3000, float(i))}, 0.0, run)
    print(i, flush=True)  # unit i is committed
store.close()
"""


def test_kill_9_during_a_checkpoint_leaves_a_store_that_opens_whole(tmp_path):
    """A process writing units (its WAL checkpointed every 1000 pages) is stopped as its main
    file grows; where the stop came inside a checkpoint (the file shorter than its header
    now says) it is killed with SIGKILL there, else let go on to its next checkpoint. The
    store opens again: every unit the process said was committed is there with the values
    it wrote, and SQLite's integrity_check is ok."""
    path = tmp_path / "runs.db"
    n = 3000
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(n)],
        stdout=subprocess.PIPE,
        text=True,
        env=env(),
    )
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(proc.stdout or ()), daemon=True)
    reader.start()
    killed = False
    try:
        deadline = time.monotonic() + LIMIT
        last = 0
        while not killed and proc.poll() is None and time.monotonic() < deadline:
            try:
                size = path.stat().st_size
            except FileNotFoundError:
                continue
            if last and size > last:  # the main file grows: a checkpoint is writing
                proc.send_signal(signal.SIGSTOP)
                if header_bytes(path) > path.stat().st_size:  # inside it
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                else:
                    proc.send_signal(signal.SIGCONT)
            last = size
    finally:
        proc.kill()
        proc.wait(timeout=LIMIT)
        reader.join(LIMIT)
    if not killed:
        pytest.skip("no stop came inside a checkpoint")
    assert os.path.getsize(f"{path}-wal") > 32
    committed = [int(line) for line in said]
    assert committed == list(range(len(committed))) and 0 < len(committed) < n

    from svmeval.store import Store

    with Store(path) as store:
        for i in committed:
            got = store.get(f"{i:064x}", {"y_pred": (3000,)})
            assert got is not None and (got.arrays["y_pred"] == np.full(3000, float(i))).all()
        units = store.units()
    assert units[0]["folds"] in (len(committed), len(committed) + 1)  # one in flight
    assert sqlite_says(path) == ("ok", units[0]["folds"])
    listing = run("store", path)
    assert listing.returncode == 0 and listing.stderr == "", listing.stderr


def test_a_checkpoint_cut_at_any_page_leaves_a_store_that_opens_whole(tmp_path):
    """A power cut (or kill -9) during a checkpoint leaves the main file with the log's pages
    written up to some page, in page order, and the log whole. Every such state, page by
    page (the file after a whole checkpoint up to page k, the file before it after that),
    opens with every unit the log held, each with the values written."""
    import shutil

    from svmeval.store import Store

    before = tmp_path / "before"
    before.mkdir()
    path = before / "runs.db"
    first = run("svmeval", "-q", "-v", "5", "--store", path, HEART)  # a store, no log
    assert first.returncode == 0, first.stderr
    n = 12
    said = subprocess.run(  # units written to the log, then killed: no checkpoint
        [sys.executable, "-c", CHILD.replace("store.close()", "os.kill(os.getpid(), 9)")
         .replace("import sys", "import os, sys"), str(path), str(n)],
        capture_output=True, text=True, env=env(), timeout=LIMIT,
    )  # fmt: skip
    assert said.returncode == -signal.SIGKILL and said.stdout.split() == list(map(str, range(n)))
    old, log = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    after = tmp_path / "after"
    shutil.copytree(before, after)
    with sqlite3.connect(after / "runs.db") as c:  # the whole checkpoint, by SQLite
        assert c.execute("PRAGMA wal_checkpoint").fetchone()[0] == 0
    c.close()
    new = (after / "runs.db").read_bytes()
    page = int.from_bytes(new[16:18], "big")
    assert len(new) > len(old) and len(new) % page == 0
    cut = tmp_path / "cut"
    for k in range(1, len(new) // page):
        shutil.rmtree(cut, ignore_errors=True)
        cut.mkdir()
        (cut / "runs.db").write_bytes(new[: k * page] + old[k * page :])
        Path(f"{cut / 'runs.db'}-wal").write_bytes(log)
        with Store(cut / "runs.db") as store:
            for i in range(n):
                got = store.get(f"{i:064x}", {"y_pred": (3000,)})
                assert got is not None and (got.arrays["y_pred"] == i).all(), (k, i)
        assert sqlite_says(cut / "runs.db") == ("ok", 5 + n), k


# --- a store this process cannot write ----------------------------------------------------------
@pytest.fixture
def lock():
    """``lock(path)``: make a file or folder one this process cannot write (mode 444/555; for
    root, which ignores modes, the immutable attribute); undone at the end. Skips where
    neither holds."""
    undo: list = []

    def close(path: Path) -> None:
        mode = path.stat().st_mode
        os.chmod(path, 0o555 if path.is_dir() else 0o444)
        undo.append(lambda: os.chmod(path, mode))
        if not os.access(path, os.W_OK):
            return
        chattr = shutil.which("chattr")
        if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode != 0:
            pytest.skip("no file this process cannot write (root, without chattr)")
        undo.append(lambda: subprocess.run([chattr, "-i", str(path)], check=True))

    yield close
    for step in reversed(undo):
        step()


@pytest.mark.parametrize("locked", ["the folder", "the file"])
def test_a_read_only_store_answers_a_rerun_and_refuses_new_work_before_any(locked, tmp_path, lock):
    """A store received read-only (in a read-only folder, or a read-only file) that holds a
    run: that run again succeeds with the report a run without a store prints, and says in
    its line that it is not recorded; a run needing folds the store lacks is refused in one
    line before any fold trains (no LIBSVM line on stderr without -q); the file is
    unchanged, and so is its list of runs."""
    from svmeval import StoreError, cross_validate, open_store

    folder = tmp_path / "received"
    folder.mkdir()
    store = folder / "runs.db"
    made = run("svmeval", "-q", "-v", "5", "--store", store, HEART)
    assert made.returncode == 0, made.stderr
    lock(folder if locked == "the folder" else store)
    before = store.read_bytes()

    fresh = run("svmeval", "-q", "-v", "5", HEART)
    again = run("svmeval", "-q", "-v", "5", "--store", store, HEART)
    assert (again.returncode, again.stdout) == (0, fresh.stdout), again.stderr
    assert again.stderr == (
        f"svmeval: store {store}: 5 units reused, 0 computed (read-only: the run is not recorded)\n"
    )
    new = run("svmeval", "-v", "5", "-c", "4", "--store", store, HEART)
    assert (new.returncode, new.stdout) == (1, "")
    assert new.stderr == (
        f"svmeval: {store}: 5 folds of this run are not in the store, which is read-only"
        " (nothing was trained)\n"
    )
    grid = run(
        "grid", "-v", "5", "-log2c", "1,3,1", "-log2g", "-3,-1,1", "-out", "g.out",
        "-png", "g.png", "--store", store, HEART, cwd=tmp_path,
    )  # fmt: skip
    assert grid.returncode == 1 and grid.stderr.count("\n") == 1, grid.stderr
    assert "45 folds of this run are not in the store" in grid.stderr
    assert not (tmp_path / "g.out").exists() and not (tmp_path / "g.png").exists()

    # the library alike
    answered = cross_validate(HEART, folds=5, store=store)
    assert (answered.y_pred == cross_validate(HEART, folds=5).y_pred).all()
    with pytest.raises(StoreError, match="not in the store, which is read-only"):
        cross_validate(HEART, "-c 4", folds=5, store=store)
    with open_store(store) as s:
        assert s.read_only
        assert [r["command"].split()[-1] for r in s.runs()] == [str(HEART)]
        with pytest.raises(StoreError, match="read-only"):
            s.delete(configuration=s.units()[0]["configuration"])
    assert store.read_bytes() == before


# --- what a store records -----------------------------------------------------------------------
def units_in(path) -> int:
    """Units in the store at ``path`` now, as SQLite counts them (0 while it is made)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as c:
            found = c.execute("SELECT count(*) FROM units").fetchone()[0]
        c.close()
        return found
    except sqlite3.Error:
        return 0


def stop_when(args, store, n: int, how, program: str = "svmeval") -> tuple[int, str]:
    """Start ``PROGRAM ARGS``, send it ``how`` once ``store`` holds at least ``n`` units (within
    LIMIT seconds); return the units it left and its stderr."""
    head = ["-m", "svmeval"] if program == "svmeval" else ["-m", "svmeval.cli", program]
    proc = subprocess.Popen(
        [sys.executable, *head, *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
    )
    try:
        signal_when(proc, lambda: units_in(store), n, how, LIMIT)
        _, stderr = proc.communicate(timeout=LIMIT)
        assert proc.returncode == (130 if how == signal.SIGINT else -how)
    finally:
        proc.kill()
        proc.wait(timeout=LIMIT)
    return units_in(store), stderr


def test_the_run_list_counts_the_units_of_an_interrupted_or_killed_run(tmp_path):
    """A run stopped by Ctrl-C, then one killed by SIGKILL, then one that ends: each is listed
    with the units it reused (those in the store when it started, as SQLite counted them)
    and computed (those it added); the first two as interrupted (no end)."""
    from svmeval import open_store

    store = tmp_path / "runs.db"
    args = ["-q", "--jobs", "1", "-v", "10", "--repeat", "8", "--store", store, HEART]
    first, _ = stop_when(args, store, 20, signal.SIGINT)
    second, _ = stop_when(args, store, first + 20, signal.SIGKILL)
    done = run("svmeval", *args)
    assert done.returncode == 0, done.stderr
    with open_store(store) as s:
        runs = [(r["reused"], r["computed"], r["finished"] is None) for r in s.runs()]
    assert runs == [
        (0, first, True),
        (first, second - first, True),
        (second, 80 - second, False),
    ]


def test_a_new_store_requires_no_svmeval_newer_than_the_one_that_wrote_it(tmp_path):
    """The store's record (read with sqlite3) of the svmeval that made it and the oldest that
    reads it: the second is never newer than the first, which is the running version."""
    import svmeval

    store = tmp_path / "runs.db"
    made = run("svmeval", "-q", "-v", "3", "--store", store, HEART)
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as c:
        meta = dict(c.execute("SELECT name, value FROM meta").fetchall())
        written_by = {row[0] for row in c.execute("SELECT svmeval FROM units")}
        written_by |= {row[0] for row in c.execute("SELECT svmeval FROM runs")}
    c.close()
    assert meta["svmeval"] == svmeval.__version__ and written_by == {svmeval.__version__}

    def version(text: str) -> tuple:
        return tuple(int(part) for part in text.split("."))

    assert version(meta["requires"]) <= version(meta["svmeval"])


STORED_RUNS = {
    "svmeval": ["-q", "--jobs", "1", "-v", "10", "--repeat", "8", HEART],
    "grid": ["--jobs", "1", "-v", "5", "-log2c", "-5,15,4", "-log2g", "3,-15,-4", "-out", "null",
             "-gnuplot", "null", HEART],
}  # fmt: skip


@pytest.mark.parametrize("program", list(STORED_RUNS))
def test_a_ctrl_c_with_a_store_says_the_same_command_continues(program, tmp_path):
    """Ctrl-C on a run with --store: its last line says that the same command continues,
    and it does: run again, it prints what a run without a store prints."""
    prog = "svmeval" if program == "svmeval" else "svmeval-" + program
    args = STORED_RUNS[program]
    store = tmp_path / "runs.db"
    with_store = [*args[:-1], "--store", store, args[-1]]
    _, stderr = stop_when(with_store, store, 10, signal.SIGINT, program)
    assert stderr.splitlines()[-1] == (
        f"{prog}: interrupted (the same command continues from the store)"
    ), stderr
    again = run(program, *with_store)
    assert again.returncode == 0, again.stderr
    assert again.stdout == run(program, *args).stdout

"""svmeval-grid shows and keeps every cell as soon as it is finished: the schedule runs the
cells one after another, each line comes when its cell is done, an interrupted run leaves
every finished cell in its ``-out`` file, and resuming from that file ends on the whole run's
answer. The oracles: grid.py's own outputs (tests/cli/grid_py), grid.py's rule over the cells in
its job order (tests/workflows/test_grid_rules.py proves it on worked examples), and an uninterrupted
run of the same search."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from svmeval.cv.run import executors
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid import grid_search

from conftest import LOCAL, shared_file

RECORDED = Path(__file__).resolve().parent / "grid_py"
GRID = [sys.executable, "-m", "svmeval.cli", "grid", "-gnuplot", "null"]


def _recorded_cells(name: str) -> dict:
    return rules.read_out(str(RECORDED / f"{name}.out"))


def test_each_cell_is_passed_on_as_soon_as_its_folds_are_done():
    """One job: cell k's ``on_cell`` comes when exactly k cells' folds have run, so no
    finished cell waits for a later one (the cells run one after another, in order)."""
    seen = []
    with executors.recording() as record:
        result = grid_search(
            str(LOCAL / "wine.scale"),
            log2c=(-1, 3, 2),
            log2g=(-5, -1, 2),
            jobs=1,
            # the folds completed so far, over every task run (pairs, predictions)
            on_cell=lambda r, best: seen.append((r.cell, sum(t[5] for t in record))),
        )
    assert [cell for cell, _ in seen] == rules.job_order((-1, 3, 2), (-5, -1, 2))
    assert [tasks for _, tasks in seen] == [5 * k for k in range(1, 10)]
    assert [r.cell for r in result.cells] == [cell for cell, _ in seen]


def test_gamma_by_gamma_lines_and_a_resumed_cut_file_end_on_grid_pys_answer(tmp_path):
    """Kernels that do not all fit --kernel-memory run gamma by gamma: every cell's line is
    grid.py's, the last line grid.py's answer; the -out file, cut after any of its lines and
    resumed, ends on that answer and holds grid.py's cells."""
    data = tmp_path / "wine.scale"
    data.write_bytes((LOCAL / "wine.scale").read_bytes())
    out = tmp_path / "g.out"
    run = [*GRID, "--kernel-memory", "2", "-q", "-out", out.name, data.name]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    grid_py = (RECORDED / "defaults.stdout").read_text().splitlines()
    assert done.stdout.splitlines()[-1] == grid_py[-1]
    head = {line.partition(" (best")[0] for line in grid_py[:-1]}
    assert {line.partition(" (best")[0] for line in done.stdout.splitlines()[:-1]} == head
    lines = out.read_text().splitlines(keepends=True)
    assert rules.ORDER_LINE in lines  # the cells came gamma by gamma
    assert rules.parse_out("".join(lines)) == _recorded_cells("defaults")
    for k in (1, 2, 30, 75, len(lines) - 1):
        cut = tmp_path / f"cut{k}.out"
        cut.write_text("".join(lines[:k]))
        resumed = subprocess.run(
            [*GRID, "-q", "--kernel-memory", "2", "-out", cut.name, "-resume", cut.name, data.name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert resumed.returncode == 0, resumed.stderr
        assert resumed.stdout.splitlines()[-1] == grid_py[-1], k
        assert rules.read_out(str(cut)) == _recorded_cells("defaults")


def _wait_for_lines(path: Path, n: int, proc, limit: float = 120.0) -> None:
    """Wait until ``path`` holds ``n`` whole lines (or the run ended), at most ``limit`` s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.01)
    assert proc.poll() is not None or time.monotonic() < deadline, "no lines in time"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_every_finished_cell_and_resume_ends_on_the_whole_answer(tmp_path, jobs):
    path = shared_file("data", "heart_scale")
    args = ["-q", "-log2c", "-5,15,1", "-v", "10", "--jobs", jobs]
    whole = subprocess.run(
        [*GRID, *args, "-out", "whole.out", str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert whole.returncode == 0, whole.stderr
    whole_lines = {
        cell: line
        for line in (tmp_path / "whole.out").read_text().splitlines(keepends=True)
        for cell in rules.parse_out(line)
    }
    n = len(whole_lines)  # 21 x 10 cells
    out = tmp_path / "g.out"
    proc = subprocess.Popen(
        [*GRID, *args, "-out", str(out), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    _wait_for_lines(out, n // 2, proc)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the grid finished before the interrupt")
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    kept = out.read_text().splitlines(keepends=True)
    cells = [line for line in kept if line != rules.ORDER_LINE]
    assert len(cells) >= n // 3
    for line in cells:  # each the uninterrupted run's line for its cell
        (cell,) = rules.parse_out(line)
        assert line == whole_lines[cell]
    # every cell shown on stdout is in the file (the lines come together)
    shown = [line.split()[1:3] for line in stdout.splitlines() if line.startswith("[local]")]
    assert len(shown) == len(cells)
    resumed = subprocess.run(
        [*GRID, *args, "-out", str(out), "-resume", str(out), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]
    assert rules.read_out(str(out)) == rules.read_out(str(tmp_path / "whole.out"))


def test_cells_from_a_results_store_come_in_the_same_order(tmp_path):
    """A grid whose cells are partly in a results store: the stored cells (no training) and
    the computed ones come through the same release, in grid.py's job order, and the search
    is the one without a store."""
    path = str(LOCAL / "wine.scale")
    store = tmp_path / "runs.sqlite"
    grid_search(path, log2c=(-1, 3, 4), log2g=(-5, -1, 4), store=store)  # 4 of the 9 cells
    seen = []
    with executors.recording() as record:
        result = grid_search(
            path,
            log2c=(-1, 3, 2),
            log2g=(-5, -1, 2),
            jobs=1,
            store=store,
            on_cell=lambda r, best: seen.append((r.cell, sum(t[5] for t in record))),
        )
    order = rules.job_order((-1, 3, 2), (-5, -1, 2))
    assert [cell for cell, _ in seen] == order
    stored = {rules.Cell(c, g) for c in (-1.0, 3.0) for g in (-5.0, -1.0)}
    computed = 0
    for cell, folds in seen:  # no cell waits: each comes once its own folds are done
        computed += 0 if cell in stored else 5
        assert folds == computed, cell
    plain = grid_search(path, log2c=(-1, 3, 2), log2g=(-5, -1, 2))
    assert [(r.cell, r.value) for r in result.cells] == [(r.cell, r.value) for r in plain.cells]
    assert result.best.cell == plain.best.cell

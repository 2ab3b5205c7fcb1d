"""--dask: svmeval-grid's cells and svmeval's repetitions on a Dask cluster, identical to a local run.

A real scheduler and two worker processes (``python -m distributed.cli.dask_scheduler`` /
``dask_worker``, each worker under its nanny) run on 127.0.0.1 for the module. The oracle of
every comparison is the local run of the same command (itself checked against LIBSVM and
svm-train elsewhere) and, for the grid, LIBSVM's own ``svm_train -v`` rate of some cells.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from _signals import BOUND, LIMIT, sigint_when

from conftest import ROOT, data_set, libsvm_cv

distributed = pytest.importorskip("distributed")

from svmeval.cv import _libsvm, engine  # noqa: E402
from svmeval.cv.run import cluster, workers
from svmeval.io.data import Dataset, read_dataset  # noqa: E402
from svmeval.params import SvmParams  # noqa: E402
from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid import grid_search  # noqa: E402

#: a local Dask cluster's workers are child processes
pytestmark = pytest.mark.process

SMALL = ["-log2c", "-1,5,2", "-log2g", "-7,1,2"]  # 4 x 5 cells
#: the data of the tests of faults, interrupts and error lines, whatever data they run on:
#: data/'s, with ../shared or without it (their second run without it would test nothing new)
ANY_DATA = ROOT / "data" / "breast_cancer.scale"


def _start(args, log: Path):
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(procs):
    for p in procs:
        if p.poll() is None:
            with_signal = signal.SIGTERM
            try:
                os.killpg(p.pid, with_signal)
            except ProcessLookupError:
                pass
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def start_cluster(directory: Path, workers: int = 2, preload: Path | None = None):
    """A scheduler on 127.0.0.1 and ``workers`` worker processes (each with its nanny):
    ``(address, processes)``."""
    scheduler_file = directory / "scheduler.json"
    procs = [
        _start(
            [
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
            ],
            directory / "scheduler.log",
        )
    ]
    deadline = time.monotonic() + 60
    while not scheduler_file.exists() or not scheduler_file.read_text().strip():
        if time.monotonic() > deadline or procs[0].poll() is not None:
            _stop(procs)
            pytest.fail(
                "the Dask scheduler did not start: "
                + (directory / "scheduler.log").read_text()[-2000:]
            )
        time.sleep(0.1)
    while True:  # the file may still be being written: wait until it reads whole
        try:
            address = json.loads(scheduler_file.read_text())["address"]
            break
        except (ValueError, KeyError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    for k in range(workers):
        procs.append(
            _start(
                [
                    "distributed.cli.dask_worker",
                    address,
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                    "--name",
                    f"w{k}",
                ]
                + (["--preload", str(preload)] if preload else []),
                directory / f"worker{k}.log",
            )
        )
    return address, procs


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    directory = tmp_path_factory.mktemp("dask")
    address, procs = start_cluster(directory)
    client = distributed.Client(address, timeout=30)
    try:
        client.wait_for_workers(2, timeout=90)
        yield address, client
    finally:
        client.close()
        _stop(procs)


def run_cmd(module, *args, cwd):
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def sorted_out(path: Path) -> list[str]:
    """An -out file's lines in grid order (the cluster writes them as cells finish)."""
    return sorted(path.read_text().splitlines())


# --- identical results ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "extra", [[], ["--criterion", "mcc"], ["-b", "1", "-log2c", "-1,3,2", "-log2g", "-5,-3,2"]]
)
def test_grid_on_the_cluster_prints_and_writes_what_the_local_run_does(
    dask_cluster, tmp_path, extra
):
    address, _ = dask_cluster
    path = data_set("heart_scale")
    outs = {}
    for where, more in (("local", []), ("dask", ["--dask", address])):
        d = tmp_path / where
        d.mkdir()
        r = run_cmd(
            "svmeval.cli",
            "grid",
            *SMALL,
            *extra,
            *more,
            "-out",
            "g.out",
            "-gnuplot",
            "null",
            "--results",
            "r.json",
            path,
            cwd=d,
        )
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
        outs[where] = (r.stdout, sorted_out(d / "g.out"), (d / "r.json").read_text())
    assert outs["dask"] == outs["local"]
    if not extra:  # accuracy: each cell's rate is what svm-train -v 5 prints for it
        svmutil = pytest.importorskip("libsvm.svmutil")
        y, x = svmutil.svm_read_problem(str(path))
        values = rules.read_out(str(tmp_path / "dask" / "g.out"))
        for cell in sorted(values, key=lambda c: (c.log2c, c.log2g))[::4]:
            _libsvm.srand(1)
            _libsvm.set_omp_threads(1)
            rate = svmutil.svm_train(y, x, f"-q -v 5 -c {cell.C} -g {cell.gamma}")
            assert values[cell] == float(f"{rate:g}")


@pytest.mark.parametrize(
    "name,extra",
    [
        ("heart_scale", ["--full"]),
        ("iris.scale", ["-b", "1", "--format", "json"]),
        ("dna.scale", ["--format", "json"]),
        ("housing_scale", ["-s", "3", "--format", "csv"]),
    ],
)
def test_repeated_cv_on_the_cluster_is_the_local_run(dask_cluster, tmp_path, name, extra):
    address, _ = dask_cluster
    path = data_set(name)
    outputs = {}
    for where, more in (("local", []), ("dask", ["--dask", address])):
        r = run_cmd(
            "svmeval",
            "-q",
            "-v",
            "5",
            "--repeat",
            "3",
            *extra,
            *more,
            "--predictions",
            f"{where}.pred",
            path,
            cwd=tmp_path,
        )
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
        outputs[where] = (r.stdout, (tmp_path / f"{where}.pred").read_text())
    assert outputs["dask"] == outputs["local"]


def test_python_api_takes_a_client_and_equals_libsvm(dask_cluster):
    _, client = dask_cluster
    dataset = read_dataset(str(data_set("iris.scale")))
    params = SvmParams(C=4.0)
    local = engine.cross_validate(
        dataset, params, 5, repeat=2, keep_repeats=True, keep_decision_values=True
    )
    remote = engine.cross_validate(
        dataset, params, 5, repeat=2, keep_repeats=True, keep_decision_values=True, client=client
    )
    for a, b in zip((local,) + local.repeat_results, (remote,) + remote.repeat_results):
        for name in ("y_pred", "decision_values", "scores", "fold"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    # LIBSVM's own svm_cross_validation gives the first repetition's predictions
    np.testing.assert_array_equal(remote.y_pred, libsvm_cv(data_set("iris.scale"), "-c 4"))

    grid_local = grid_search(
        dataset, params, log2c=(-1, 3, 2), log2g=(-3, 1, 2), criterion="macro_f1"
    )
    grid_remote = grid_search(
        dataset, params, log2c=(-1, 3, 2), log2g=(-3, 1, 2), criterion="macro_f1", client=client
    )
    assert [(r.cell, r.value) for r in grid_remote.cells] == [
        (r.cell, r.value) for r in grid_local.cells
    ]
    assert grid_remote.best.cell == grid_local.best.cell
    assert grid_remote.cells[3].figures == grid_local.cells[3].figures


def test_compare_on_the_cluster_is_the_local_run_and_libsvm(dask_cluster):
    """compare(client=...) through the evaluation core's Dask executor: 2 candidates x 3
    seeds, one of them -b 1 (a task whose folds run in order), identical to the local run;
    A's first repetition is LIBSVM's own svm_cross_validation."""
    from svmeval.workflows.compare import compare

    _, client = dask_cluster
    path = data_set("heart_scale")
    a, b = SvmParams(C=2.0, probability=1), SvmParams(C=8.0, gamma=0.5)
    local = compare(str(path), a, b, 5, repeat=3, criterion="mcc", jobs=2)
    remote = compare(str(path), a, b, 5, repeat=3, criterion="mcc", client=client)
    np.testing.assert_array_equal(remote.folds_a, local.folds_a)
    np.testing.assert_array_equal(remote.folds_b, local.folds_b)
    assert remote.ttest == local.ttest and remote.mcnemar == local.mcnemar
    first = engine.cross_validate(read_dataset(str(path)), a, 5, client=client)
    np.testing.assert_array_equal(first.y_pred, libsvm_cv(path, "-c 2 -b 1"))


def test_cross_validation_shares_its_kernel_on_the_cluster_when_asked(dask_cluster):
    """The kernel is shared by (kernel, gamma) key on the cluster too (the cost model, or
    share=True): same predictions as LIBSVM's own CV, and the workers computed kernels."""
    _, client = dask_cluster
    dataset = read_dataset(str(data_set("heart_scale")))
    before = client.run(workers.worker_stats)
    shared = engine.run_cv(dataset, SvmParams(gamma=0.25), 5, repeat=2, share=True, client=client)
    after = client.run(workers.worker_stats)
    assert sum(after[w]["kernels"] - before.get(w, {}).get("kernels", 0) for w in after) >= 1
    np.testing.assert_array_equal(shared.y_pred, libsvm_cv(data_set("heart_scale"), "-g 0.25"))


def test_shared_kernel_computed_once_per_gamma_on_the_cluster(dask_cluster):
    """With the kernel shared, the cells of one gamma go to one worker, which computes that
    kernel once (a stolen task may compute it again elsewhere)."""
    _, client = dask_cluster
    dataset = read_dataset(str(data_set("heart_scale")))
    before = client.run(workers.worker_stats)
    result = grid_search(dataset, log2c=(-1, 5, 2), log2g=(-7, 1, 2), share=True, client=client)
    local = grid_search(dataset, log2c=(-1, 5, 2), log2g=(-7, 1, 2), share=False)
    assert [(r.cell, r.value) for r in result.cells] == [(r.cell, r.value) for r in local.cells]
    after = client.run(workers.worker_stats)
    kernels = sum(after[w]["kernels"] - before.get(w, {}).get("kernels", 0) for w in after)
    assert 5 <= kernels <= 5 + 2  # 5 gammas; at most a couple stolen


# --- the data go to each worker once ----------------------------------------------------------
def _tiled(dataset: Dataset, times: int) -> Dataset:
    step = dataset.indptr[-1]
    indptr = np.concatenate([[0]] + [dataset.indptr[1:] + t * step for t in range(times)])
    return Dataset(
        np.tile(dataset.y, times),
        indptr,
        np.tile(dataset.indices, times),
        np.tile(dataset.values, times),
        dataset.n_features,
        "tiled",
    )


class TaskSizes(distributed.diagnostics.plugin.SchedulerPlugin):
    """Records the pickled size of every svmeval task the scheduler receives."""

    name = "svmeval-task-sizes"

    def __init__(self):
        self.sizes = {}

    def update_graph(self, scheduler, *, tasks, **kwargs):
        for key in tasks:
            ts = scheduler.tasks.get(key)
            if str(key).startswith("svmeval-") and ts is not None and ts.run_spec is not None:
                self.sizes[str(key)] = len(pickle.dumps(ts.run_spec))


def _sizes(dask_scheduler, prefix):
    plugin = dask_scheduler.plugins["svmeval-task-sizes"]
    return [v for k, v in plugin.sizes.items() if k.startswith(prefix)]


def test_tasks_carry_no_data_and_each_worker_gets_the_data_once(tmp_path):
    """The tasks' payload stays the same whatever the data size, and no worker fetches the
    data from another (each got it once, scattered)."""
    sizes = {}
    with cluster.connect("local:2") as client:
        client.register_plugin(TaskSizes())
        for times in (1, 16):
            dataset = _tiled(read_dataset(str(data_set("heart_scale"))), times)
            session = cluster.Session(client)
            data = session.data(dataset)
            folds_ref = session.scatter(
                engine.libsvm_folds(
                    dataset.y, 5, stratified=True, rand=iter(range(1, 10**9)).__next__
                )
            )
            params = SvmParams(gamma=0.1)
            futures = [
                client.submit(
                    workers.fold_task,
                    *data,
                    folds_ref,
                    params,
                    (i,),
                    False,
                    key=f"{session.token}-{i}",
                    pure=False,
                )
                for i in range(5)
            ]
            distributed.wait(futures)
            sizes[times] = client.run_on_scheduler(_sizes, prefix=session.token)
            data_key = data[1].key
            fetched = client.run(
                lambda dask_worker: [
                    k for entry in dask_worker.transfer_incoming_log for k in entry["keys"]
                ]
            )
            assert all(data_key not in keys for keys in fetched.values())
            holders = client.who_has([data[1]])[data_key]
            assert len(holders) == 2
            session.close()
    assert len(sizes[1]) == len(sizes[16]) == 5
    assert max(sizes[16]) == max(sizes[1]) < 4096


# --- faults --------------------------------------------------------------------------------------
def test_a_worker_killed_mid_grid_changes_nothing(dask_cluster, tmp_path):
    address, client = dask_cluster
    path = ANY_DATA
    grid = ["-log2c", "-5,15,1", "-log2g", "3,-15,-1"]  # 21 x 19 cells
    local = run_cmd(
        "svmeval.cli", "grid", *grid, "-out", "l.out", "-gnuplot", "null", path, cwd=tmp_path
    )
    assert local.returncode == 0, local.stderr
    out = tmp_path / "d.out"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "svmeval.cli",
            "grid",
            *grid,
            "--dask",
            address,
            "-out",
            str(out),
            "-gnuplot",
            "null",
            str(path),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
        not out.exists() or len(out.read_text().splitlines()) < 20
    ):
        time.sleep(0.02)
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    finished_before = len(out.read_text().splitlines())
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=300)
    assert finished_before < 21 * 19, "the grid ended before a worker was killed"
    assert proc.returncode == 0, stderr
    assert stdout == local.stdout
    assert sorted_out(out) == sorted_out(tmp_path / "l.out")
    client.wait_for_workers(2, timeout=90)  # the nanny restarts the killed worker


def test_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    from svmeval.cli.grid import main as grid_main
    from svmeval.cli.svmeval import main as svmeval_main

    path = ANY_DATA
    monkeypatch.chdir(tmp_path)
    assert grid_main([*SMALL, "--dask", address, "-out", "g.out", str(path)]) == 1
    assert (
        svmeval_main(["-v", "5", "--repeat", "3", "--dask", address, "-o", "r.txt", str(path)]) == 1
    )
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(f"svmeval-grid: cannot reach the Dask scheduler at {address}: ")
    assert err[1].startswith(f"svmeval: cannot reach the Dask scheduler at {address}: ")
    assert sorted(os.listdir(tmp_path)) == []


def _preload(directory: Path, version: str | None) -> Path:
    """A worker preload script: the worker reports another svmeval version, or has none."""
    script = directory / "preload_svmeval.py"
    if version is None:
        script.write_text(
            "import sys\nfor name in [m for m in sys.modules if m == 'svmeval' "
            "or m.startswith('svmeval.')]:\n    del sys.modules[name]\n"
            "sys.modules['svmeval'] = None  # import svmeval fails\n"
        )
    else:
        script.write_text(f"import svmeval._version\nsvmeval._version.__version__ = {version!r}\n")
    return script


@pytest.mark.parametrize(
    "version,message",
    [
        ("0.0.1", "runs svmeval 0.0.1, this is"),
        (None, "cannot run svmeval"),
    ],
)
def test_workers_without_this_svmeval_are_one_line(tmp_path, version, message):
    preload = _preload(tmp_path, version)
    address, procs = start_cluster(tmp_path, workers=1, preload=preload)
    try:
        with distributed.Client(address, timeout=30) as c:
            c.wait_for_workers(1, timeout=90)
        r = run_cmd(
            "svmeval",
            "-v",
            "5",
            "--repeat",
            "2",
            "--dask",
            address,
            ANY_DATA,
            cwd=tmp_path,
        )
    finally:
        _stop(procs)
    assert r.returncode == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("svmeval: ") and message in lines[0]
    assert address in lines[0]


def test_without_dask_one_line_says_how_to_install(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "distributed.py").write_text("raise ImportError('no distributed here')\n")
    env = dict(os.environ, PYTHONPATH=str(blocker))
    for module, args in (
        (["svmeval"], ["-v", "5", "--repeat", "2"]),
        (["svmeval.cli", "grid"], SMALL),
    ):
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                *module,
                *args,
                "--dask",
                "local:2",
                str(ANY_DATA),
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert r.returncode == 1
        prog = "svmeval-grid" if module[-1] == "grid" else "svmeval"
        assert r.stderr == (
            f"{prog}: --dask needs the optional dask and distributed: {sys.executable} -m pip "
            "install 'dask>=2023.1' 'distributed>=2023.1'\n"
        )
    assert sorted(os.listdir(tmp_path)) == ["block"]  # no -out file, no report


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["--dask", "local:0"],
            "svmeval-grid: --dask local:0: a local cluster needs at least 1 worker",
        ),
        (["--dask", ""], "svmeval-grid: option --dask: the value is empty"),
        (
            ["--dask", "local", "--jobs", "2"],
            "svmeval-grid: --jobs sets the local threads; with "
            "--dask the cluster's workers run the folds",
        ),
    ],
)
def test_bad_dask_arguments_one_line(tmp_path, args, message):
    r = run_cmd("svmeval.cli", "grid", *args, ANY_DATA, cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1
    assert os.listdir(tmp_path) == []


def test_svmeval_refuses_dask_where_it_does_not_apply(tmp_path):
    path = ANY_DATA
    for args, message in (
        (["--dask", "local"], "--dask: only with -v k"),
        (
            ["-v", "5", "--dask", "local", "--multilabel"],
            "--dask runs single-label cross-validation",
        ),
        (["-v", "5", "--dask", "local", "--jobs", "2"], "--jobs sets the local threads"),
    ):
        r = run_cmd("svmeval", *args, path, cwd=tmp_path)
        assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr


def test_ctrl_c_exits_130_at_once_and_resume_gives_the_whole_answer(tmp_path):
    path = ANY_DATA
    out = tmp_path / "g.out"
    grid = ["-log2c", "-5,15,1", "-log2g", "3,-15,-1"]
    args = [
        sys.executable,
        "-m",
        "svmeval.cli",
        "grid",
        *grid,
        "--dask",
        "local:2",
        "-out",
        str(out),
        "-gnuplot",
        "null",
    ]
    started = time.monotonic()
    proc = subprocess.Popen(
        args + [str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
        not out.exists() or len(out.read_text().splitlines()) < 10
    ):
        time.sleep(0.02)  # polling for the event: ten cells in the resume file
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    stdout, stderr = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the grid finished before the interrupt")
    # at once: sooner than the cluster's start and ten cells took (a loaded machine stretches
    # both alike), not after the cells in flight
    assert time.monotonic() - sent < sent - started
    assert proc.returncode == 130
    assert stderr == f"svmeval-grid: interrupted (run it again with -resume {out} to continue)\n"
    finished = rules.read_out(str(out))
    assert 10 <= len(finished) < 21 * 19
    resumed = subprocess.run(
        args + ["-resume", str(out), str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    whole = grid_search(str(path), log2c=(-5.0, 15.0, 1.0), log2g=(3.0, -15.0, -1.0))
    assert rules.read_out(str(out)) == {r.cell: r.rate for r in whole.cells}
    b = whole.best
    assert resumed.stdout.splitlines()[-1] == f"{b.cell.C} {b.cell.gamma} {b.rate}"


def test_ctrl_c_while_waiting_for_the_cluster_is_acted_on_within_a_step(dask_cluster):
    """A run waiting for a task that a worker runs (blocked on a Dask event until released),
    SIGINT to the calling thread the instant the task has started, 20 times: the
    KeyboardInterrupt within BOUND every time."""
    import threading
    import uuid

    _, client = dask_cluster
    delays = []
    for k in range(20):
        name = f"svmeval-test-{uuid.uuid4().hex}"

        def blocked(name=name):  # runs on a worker (a local function: pickled by value)
            import distributed

            distributed.Event(f"{name}-started").set()
            distributed.Event(f"{name}-release").wait(60)
            return 0

        started = distributed.Event(f"{name}-started", client=client)
        release = distributed.Event(f"{name}-release", client=client)
        ready = threading.Event()
        threading.Thread(target=lambda: started.wait(LIMIT) and ready.set(), daemon=True).start()

        def wait():
            with cluster.Session(client) as session:
                session.run([cluster.Job(blocked, (), k)], lambda tag, output: None)

        delays.append(sigint_when(ready, release, wait))
        release.set()
    assert max(delays) <= BOUND, sorted(delays)[-5:]


def test_local_cluster_leaves_the_environment_as_it_was():
    before = dict(os.environ)
    with cluster.connect("local:1") as client:
        env = client.run(lambda: dict(os.environ))
    assert dict(os.environ) == before
    (worker_env,) = env.values()
    assert "MALLOC_TRIM_THRESHOLD_" not in worker_env  # glibc's adaptive defaults for LIBSVM
    assert ROOT.exists()


def test_without_dask_option_dask_is_never_imported(tmp_path):
    code = (
        "import sys, io, contextlib\n"
        "from svmeval.cli.svmeval import main\nfrom svmeval.cli.grid import main as grid\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['-q', '-v', '5', '--repeat', '2', {str(ANY_DATA)!r}]) == 0\n"
        f"    assert grid(['-q', '-log2c', '1,3,2', '-log2g', '-3,-1,2', '-out', 'null', "
        f"'-gnuplot', 'null', {str(ANY_DATA)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "[]"


def test_grouped_and_given_folds_on_the_cluster_are_the_local_run(dask_cluster):
    """Folds that are not LIBSVM's travel with their tasks: a grouped CV (with -b 1, whose
    folds run in order in one task, and without), given folds and a grouped permutation test
    on the cluster equal the local runs; given folds' predictions are LIBSVM's own training of
    each fold by the bindings."""
    from test_folds_given import libsvm_fold_by_fold

    from svmeval.workflows.permutation import permutation_test

    _, client = dask_cluster
    path = data_set("heart_scale")
    n = read_dataset(str(path)).n_samples
    groups = np.arange(n) // 7
    for params in ("-c 2", "-c 2 -b 1"):
        local = engine.cross_validate(str(path), params, 5, groups=groups)
        remote = engine.cross_validate(str(path), params, 5, groups=groups, client=client)
        np.testing.assert_array_equal(remote.fold, local.fold)
        np.testing.assert_array_equal(remote.y_pred, local.y_pred)
    fold = np.arange(n) % 4
    remote = engine.cross_validate(str(path), "-c 2", given_folds=fold, client=client)
    pairs = [(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(4)]
    np.testing.assert_array_equal(remote.y_pred, libsvm_fold_by_fold(path, "-c 2", pairs))
    local_t = permutation_test(str(path), "-c 2", 4, permutations=4, groups=groups)
    remote_t = permutation_test(str(path), "-c 2", 4, permutations=4, groups=groups, client=client)
    np.testing.assert_array_equal(remote_t.permuted, local_t.permuted)
    assert remote_t.observed == local_t.observed

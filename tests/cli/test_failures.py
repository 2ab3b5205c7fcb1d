"""Every failure is one line and an exit status, never a traceback: Ctrl-C at any moment
(imports included, and inside LIBSVM's bindings' bare ``except:``), closed or full standard
streams. And C's global state: nothing changed by ``import svmeval``, the OpenMP spin setting
known to have taken effect or not (libgomp's own report is the oracle), and an interrupted run
that leaves nothing running into the next one."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT

SMALL = ROOT / "data" / "breast_cancer.scale"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
for _var in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_DISPLAY_ENV"):
    ENV.pop(_var, None)


def default_sigint():
    # a shell's background job inherits SIGINT ignored: undo that
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_data(path: Path, n: int, classes: int = 2, seed: int = 0) -> Path:
    """Noisy data whose CV takes seconds (many support vectors)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 20))
    score = X[:, 0] + rng.normal(scale=2, size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1])) + 1
    if classes == 2:
        y = np.where(y == 2, 1, -1)
    path.write_text(
        "".join(
            f"{yi} " + " ".join(f"{j + 1}:{v:.4f}" for j, v in enumerate(row)) + "\n"
            for yi, row in zip(y, X)
        )
    )
    return path


@pytest.fixture(scope="module")
def slow_data(tmp_path_factory):
    return write_data(tmp_path_factory.mktemp("slow") / "slow.txt", 4000)


#: the longest any event of these tests is waited for: reached, a test fails instead of hanging
LIMIT = 120.0


def wait_until(predicate, what: str, proc=None) -> None:
    """Wait for an event that sends no notification (a state in /proc), checking every few
    milliseconds, at most LIMIT seconds; fail if ``proc`` ends first."""
    deadline = time.monotonic() + LIMIT
    while not predicate():
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the run ended (exit {proc.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {LIMIT:g} s")
        time.sleep(0.005)


#: Python's start-up reporting a KeyboardInterrupt it then drops, going on as if no Ctrl-C had
#: come: raised in a weakref callback of the import machinery ("Exception ignored in"), in the
#: check whether the script's path is a zip archive (argv[0]), or while the site module ran a
#: .pth file's line (where the code it interrupted may have turned it into another exception,
#: e.g. RuntimeError from __set_name__, which site prints and ignores)
_DROPPED = (
    re.compile(
        r"Exception ignored in: <function _get_module_lock\.<locals>\.cb at [^>]*>\n"
        r"Traceback \(most recent call last\):\n(?:  .*\n)+KeyboardInterrupt: ?\n"
    ),
    re.compile(
        r"Failed checking if argv\[0\] is an import path entry\n"
        r"Traceback \(most recent call last\):\n(?:  .*\n)+KeyboardInterrupt\n"
    ),
    re.compile(
        r"Error processing line \d+ of [^\n]*\.pth:\n\n(?:  .*\n|\n)*?\nRemainder of file ignored\n"
    ),
)


#: the modules Python runs before the commands' launcher has taken Ctrl-C over: the launcher
#: itself, and for ``python -m svmeval`` the package and its ``__main__``
ENTRY_MODULES = {
    str(ROOT / "svmeval_launch.py"),
    str(ROOT / "svmeval" / "__init__.py"),
    str(ROOT / "svmeval" / "__main__.py"),
}


def interrupted_inside_python(stderr: str, wrapper: str | None = None) -> bool:
    """Ctrl-C hit Python's own start-up, before any svmeval code could run: the site module
    or runpy failing to load (a fatal error of the interpreter), or a traceback whose every
    frame is the interpreter's frozen code, the console script's generated wrapper, or one of
    the entry modules at line 0: the check Python makes as it enters a module, before the
    module's first statement (the launcher's first statement takes Ctrl-C over; the package's
    ``__init__`` has no statement Python can interrupt)."""
    # Python's own initialisation failing (init_sys_streams, init_import_site, ...)
    if stderr.startswith(("Fatal Python error: init_", "Could not import runpy module")):
        return True
    frames = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    return (
        stderr.startswith("Traceback")
        and stderr.rstrip().endswith("KeyboardInterrupt")
        and bool(frames)
        and all(
            f.startswith("<frozen ")
            or f == wrapper
            or _site_startup(f)
            or (f in ENTRY_MODULES and line == "0")
            for f, line in frames
        )
    )


def _site_startup(path: str) -> bool:
    """The finder of an editable install, run by the site module from its ``.pth`` file while
    the interpreter starts (setuptools' generated code, not svmeval's)."""
    name = Path(path).name
    return "site-packages" in Path(path).parts and name.startswith("__editable__")


def dropped_inside_python(stderr: str) -> str | None:
    """Ctrl-C hit Python's own start-up before the launcher had taken SIGINT over, and Python
    dropped it (:data:`_DROPPED`): the run goes on as if no Ctrl-C had come. Returns what the
    run wrote after Python's report, or None if this is not that case (a frame of svmeval's own
    code in the report is not that case)."""
    for pattern in _DROPPED:
        match = pattern.match(stderr)
        if match is not None:
            break
    else:
        return None
    frames = re.findall(r'File "([^"]+)"', match.group(0))
    ours = [f for f in frames if f.startswith(str(ROOT / "svmeval"))]
    return stderr[match.end() :] if not ours else None


# --- Ctrl-C --------------------------------------------------------------------------------
# The data come on standard input, held open by the test until the signal is sent: the run
# cannot finish first, however fast the machine, and each moment below is reached by an event
# (the process blocked reading its data, LIBSVM's first line on stderr), never by a sleep.
def svmeval_command(entry: str) -> list[str]:
    if entry == "module":
        return [sys.executable, "-m", "svmeval"]
    script = Path(sys.executable).parent / "svmeval"
    if not script.exists() or "svmeval_launch" not in script.read_text(errors="replace"):
        pytest.skip("the console script is not installed from this tree (make test does)")
    return [str(script)]


def start_reading_stdin(command, cwd, *args):
    return subprocess.Popen(
        command + [*args, "-v", "5", "-c", "100", "-o", "r", "--predictions", "p", "-"],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        preexec_fn=default_sigint,
    )


def blocked_reading_stdin(pid: int) -> bool:
    """The process's main thread waits in read(0, ...) (Linux's /proc/PID/syscall)."""
    try:
        return Path(f"/proc/{pid}/syscall").read_text().startswith("0 0x0 ")
    except OSError:
        return False


def interrupt(proc, *, before=b""):
    """Send SIGINT, then close standard input (after ``before``, if the run still reads)."""
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(before, timeout=300)
    return stdout.decode(), stderr.decode(errors="replace")


@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_at_any_moment_exits_130_leaving_nothing(tmp_path, entry):
    """From the first instant on, whichever handler the signal meets: never exit 0, never a
    file. The moments are a sweep of the start-up (the run cannot end before them)."""
    command = svmeval_command(entry)
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7):
        proc = start_reading_stdin(command, tmp_path, "-q")
        time.sleep(delay)  # a moment of the start-up; the run waits for its data meanwhile
        stdout, stderr = interrupt(proc)
        assert os.listdir(tmp_path) == [] and stdout == "", (delay, stderr)
        if interrupted_inside_python(stderr, wrapper=command[0] if entry == "script" else None):
            continue  # Python's own start-up: its traceback, exit 1
        after = dropped_inside_python(stderr)
        if after is not None:  # dropped by Python before svmeval's handler: a run on no data
            assert (proc.returncode, after) == (
                1,
                "svmeval: <stdin>: no samples: the file is empty\n",
            )
            continue
        if proc.returncode == -signal.SIGINT:  # before Python installed its handler at all
            assert stderr == "", (delay, stderr)
            continue
        assert (proc.returncode, stderr) == (130, "svmeval: interrupted\n"), (delay, stderr)


@pytest.mark.skipif(not Path("/proc/self/syscall").exists(), reason="needs /proc/PID/syscall")
@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_while_the_reader_waits_on_a_pipe_is_only_the_interrupt(tmp_path, slow_data, entry):
    """The reader blocked in read() on its pipe, with nothing, part of a line or half the data
    read so far: SIGINT, then the pipe closed (or the rest written). CPython's read() returns
    EINTR, checks the signals and raises the KeyboardInterrupt there: the end of the input is
    never taken for data ("the file is empty", a short last line). 24 times for each entry
    point: always exactly the interrupt, exit 130, no file."""
    command = svmeval_command(entry)
    data = slow_data.read_bytes()
    half = data[: len(data) // 2]
    for k in range(24):
        before, rest = [(b"", b""), (data[:7], b""), (half, b""), (half, data[len(half) :])][k % 4]
        proc = start_reading_stdin(command, tmp_path, "-q")
        if before:
            proc.stdin.write(before)
            proc.stdin.flush()
        wait_until(
            lambda: blocked_reading_stdin(proc.pid), "svmeval blocked reading its pipe", proc
        )
        stdout, stderr = interrupt(proc, before=rest)
        assert (proc.returncode, stdout, stderr) == (130, "", "svmeval: interrupted\n"), k
        assert os.listdir(tmp_path) == [], k


@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_inside_the_folds_exits_130(tmp_path, slow_data, entry):
    proc = start_reading_stdin(svmeval_command(entry), tmp_path)  # LIBSVM's chatter on stderr
    proc.stdin.write(slow_data.read_bytes())
    proc.stdin.close()
    first = proc.stderr.readline()  # a fold's first line: the folds are running
    while first and not first.startswith(b"optimization finished"):
        first = proc.stderr.readline()
    assert first, "the run ended without training a fold"
    proc.send_signal(signal.SIGINT)
    stderr = proc.stderr.read()  # a report, had there been one, is a few lines: no deadlock
    stdout = proc.stdout.read()
    proc.wait()
    assert (proc.returncode, stdout) == (130, b"")
    assert stderr.decode().endswith("svmeval: interrupted\n") and b"Traceback" not in stderr
    assert os.listdir(tmp_path) == []


def test_ctrl_c_inside_the_bindings_bare_except_is_not_swallowed(tmp_path):
    """LIBSVM's bindings run their imports inside bare ``except:`` clauses. A Ctrl-C that
    lands there while they load (here: a stand-in of the bindings' module that sends SIGINT
    to its own process inside such a clause, then loads the real module) must still end the
    run with 130, not let it go on to exit 0."""
    fake = tmp_path / "fake"
    (fake / "libsvm").mkdir(parents=True)
    (fake / "libsvm" / "__init__.py").write_text("")
    (fake / "libsvm" / "svm.py").write_text(
        textwrap.dedent(f"""\
        import importlib.machinery, os, signal, sys
        try:
            os.kill(os.getpid(), signal.SIGINT)  # handled before os.kill returns to Python
        except:  # noqa: E722 - the bindings' own bare except
            pass
        real = importlib.machinery.PathFinder.find_spec(
            "libsvm", [p for p in sys.path if p != {str(fake)!r}]
        ).submodule_search_locations[0]
        __file__ = os.path.join(real, "svm.py")
        with open(__file__) as fh:
            exec(compile(fh.read(), __file__, "exec"))
    """)
    )
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(fake), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, "-m", "svmeval", "-q", "-v", "5", "-o", tmp_path / "r", SMALL],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=default_sigint,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (130, "svmeval: interrupted\n")
    assert sorted(os.listdir(tmp_path)) == ["fake"]


#: what the reader does in place of reading, in the command's own process (its handler set)
CTRL_C_THEN = {
    # a KeyboardInterrupt swallowed (a bare except in someone's code), then a data error
    "swallowed": """
        try:
            signal.raise_signal(signal.SIGINT)
            time.sleep(5)  # the handler raises at once: never slept through
        except KeyboardInterrupt:
            pass
        return read(*args, **kwargs)
    """,
    # raised inside a __del__, where Python drops it ("Exception ignored") and goes on
    "dropped": """
        class Dropping:
            def __del__(self):
                signal.raise_signal(signal.SIGINT)
                time.sleep(5)  # the handler raises at once: never slept through

        Dropping()
        for _ in range(3000):  # 30 s in steps: a Ctrl-C delivered again ends it within one
            time.sleep(0.01)
        sys.stderr.write("went on\\n")
        return read(*args, **kwargs)
    """,
    # printed and cleared by C code (PyErr_Print, as an extension's initialisation does)
    "printed": """
        ctypes.pythonapi.PyRun_SimpleString(b"import signal, time\\n"
                                            b"signal.raise_signal(signal.SIGINT)\\n"
                                            b"time.sleep(5)\\n")
        for _ in range(3000):  # 30 s in steps: a Ctrl-C delivered again ends it within one
            time.sleep(0.01)
        sys.stderr.write("went on\\n")
        return read(*args, **kwargs)
    """,
}


@pytest.mark.parametrize("case", sorted(CTRL_C_THEN))
def test_after_a_ctrl_c_python_lost_only_the_interrupt_is_reported(tmp_path, bad_tail, case):
    """A Ctrl-C whose KeyboardInterrupt was swallowed, dropped or printed by someone else's
    code: the run does not go on to report anything else (here the data's error on its last
    line): exactly the interrupt, exit 130, no file. One dropped or printed (where Python
    cannot raise it) is delivered again: it ends the wait that follows ("went on" never
    comes)."""
    body = textwrap.indent(textwrap.dedent(CTRL_C_THEN[case]), " " * 12)
    done = python(f"""
        import ctypes, signal, sys, time
        from svmeval.io import data
        read = data.read_dataset

        def reader(*args, **kwargs):
{body}
        data.read_dataset = reader
        sys.argv = ["svmeval", "-q", "-v", "5", "-o", {str(tmp_path / "r")!r}, {str(bad_tail)!r}]
        from svmeval_launch import main
        main()
    """)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "svmeval: interrupted\n")
    assert sorted(os.listdir(tmp_path)) == ["data.txt"]


@pytest.mark.parametrize("where", ["checking the output", "writing the output"])
def test_ctrl_c_as_a_temporary_file_is_made_leaves_none(tmp_path, where):
    """Ctrl-C the instant a temporary file exists, before its maker has its name (the output's
    check, or the staged report): exit 130 and no file, the temporary included."""
    out = tmp_path / "out"
    out.mkdir()
    done = python(f"""
        import signal, sys
        from svmeval.io import destinations, output
        made = destinations.new_temp
        calls = []

        def new_temp(*args, **kwargs):
            tmp = made(*args, **kwargs)
            calls.append(tmp)
            if len(calls) == {1 if where == "checking the output" else 2}:
                signal.raise_signal(signal.SIGINT)  # raised here: the name never returned
            return tmp

        destinations.new_temp = output.new_temp = new_temp
        sys.argv = ["svmeval", "-q", "-v", "5", "-o", {str(out / "r")!r}, {str(SMALL)!r}]
        from svmeval_launch import main
        main()
    """)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "svmeval: interrupted\n")
    assert os.listdir(out) == []


# --- out of memory ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "owner, cls, attr, flags, stage",
    [
        ("svmeval.cv.engine", "CVPlan", "fold_output", [], "cross-validating"),
        # the rows read, checked as the Dataset they become
        ("svmeval.io.dataset", "", "_check_rows", [], "reading the data"),
        # two classes without --full: svm-train's lines, from the counts alone
        ("svmeval.metrics.two_class", "", "_ratio", [], "computing the figures"),
        # --full: the summary's figures
        (
            "svmeval.summary.single",
            "",
            "classification_figures",
            ["--full"],
            "computing the figures",
        ),
    ],
)
def test_a_memory_error_anywhere_is_one_line(tmp_path, owner, cls, attr, flags, stage):
    """A MemoryError raised inside the run (here where a real allocation would fail, in a
    function on the run's path: else the run ends well, exit 0) is one line saying what the
    command was doing, exit 1, no traceback and no output file."""
    args = ["-q", *flags, "-v", "5", "-o", str(tmp_path / "r"), str(SMALL)]
    done = python(f"""
        import importlib, sys
        mod = importlib.import_module({owner!r})
        target = getattr(mod, {cls!r}) if {cls!r} else mod
        getattr(target, {attr!r})  # it exists: a name gone stale fails here
        def no_memory(*args, **kwargs):
            raise MemoryError
        setattr(target, {attr!r}, no_memory)
        sys.argv = ["svmeval", *{args!r}]
        from svmeval_launch import main
        main()
    """)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"svmeval: out of memory while {stage}\n"
    assert os.listdir(tmp_path) == []


# --- standard streams ----------------------------------------------------------------------
def run_with(args, *, close=(), stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=None):
    def pre():
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "svmeval", *map(str, args)],
        cwd=cwd,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=pre,
        timeout=300,
    )


@pytest.fixture
def bad_tail(tmp_path):
    """Data whose last line is malformed: an error about it means the data were read."""
    data = tmp_path / "data.txt"
    data.write_text(SMALL.read_text() + "1 1:abc\n")
    return data


def test_closed_stdout_is_one_line_before_any_work(tmp_path, bad_tail):
    done = run_with(["-q", "-v", "5", bad_tail], close=[1], stdout=None)
    assert (done.returncode, done.stderr) == (1, "svmeval: standard output is closed\n")
    # with the report going elsewhere, a closed stdout is no matter
    done = run_with(["-q", "-v", "5", SMALL, "-o", tmp_path / "r"], close=[1], stdout=None)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r").read_text().startswith("Cross Validation Accuracy = ")
    # and nothing svmeval opened took descriptor 1's place: no report in the wrong file
    assert sorted(os.listdir(tmp_path)) == ["data.txt", "r"]


def test_closed_stdin_is_one_line(bad_tail):
    done = run_with(["-q", "-v", "5", "-"], close=[0], stdin=None)
    assert (done.returncode, done.stderr) == (1, "svmeval: standard input is closed\n")


@pytest.mark.parametrize(
    "args", [["-q", "-v", "5", SMALL], ["--help"], ["-q", "--format", "json", "-v", "5", SMALL]]
)
def test_full_stdout_is_an_error(args):
    with open("/dev/full", "w") as full:
        done = run_with(args, stdout=full)
    assert (done.returncode, done.stderr) == (
        1,
        "svmeval: standard output: cannot write: No space left on device\n",
    )


def test_closed_stderr_still_gives_the_status(tmp_path):
    done = run_with(["-q", "-v", "5", tmp_path / "missing"], close=[2])
    assert done.returncode == 1 and done.stdout == ""


# --- C's global state ------------------------------------------------------------------------
def python(code: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env or ENV,
        timeout=300,
    )


def test_import_changes_no_environment_variable_and_loads_no_libsvm():
    done = python(f"""
        import os, sys
        before = dict(os.environ)
        import svmeval, svmeval.metrics, svmeval.cv, svmeval.cli
        assert dict(os.environ) == before, set(os.environ.items()) ^ set(before.items())
        assert "libsvm" not in sys.modules and "scipy" not in sys.modules
        from svmeval import read_dataset, cross_validate, SvmParams
        cross_validate(read_dataset({str(SMALL)!r}), SvmParams(), 5)
        assert dict(os.environ) == before  # the run's OpenMP setting does not outlive loading
        print("ok")
    """)
    assert done.stdout == "ok\n", done.stderr


STATE = f"""
    import ctypes, sys
    if sys.argv[1] == "preload":
        ctypes.CDLL("libgomp.so.1")  # a user's program that loaded OpenMP first
    from svmeval import read_dataset, cross_validate, SvmParams
    from svmeval.cv import _libsvm, schedule
    if sys.argv[1] == "opened":  # a run taken from its store first: LIBSVM opened, no bindings
        assert _libsvm.libsvm_version() > 0 and "libsvm.svm" not in sys.modules
    cross_validate(read_dataset({str(SMALL)!r}), SvmParams(), 5)
    print(_libsvm.openmp_environment(), schedule.wide_tail())
"""


def openmp_report(stderr: str) -> dict:
    """libgomp's own account of the settings it read (OMP_DISPLAY_ENV)."""
    pairs = (line.strip().split(" = ", 1) for line in stderr.splitlines() if " = " in line)
    return {k: v.strip("'") for k, v in pairs}


@pytest.mark.parametrize(
    "case, user, spin, wide",
    [
        ("fresh", {}, "10000", True),  # svmeval's short spin took effect
        ("opened", {}, "10000", True),  # as LIBSVM was opened for its version alone
        ("preload", {}, "300000", False),  # libgomp read its environment before: GOMP's default
        ("fresh", {"GOMP_SPINCOUNT": "2000000"}, "2000000", False),  # the user's choice wins
        ("fresh", {"OMP_WAIT_POLICY": "passive"}, None, True),
    ],
)
def test_openmp_spin_setting_and_whether_it_took_effect(case, user, spin, wide):
    env = dict(ENV, OMP_DISPLAY_ENV="verbose", **user)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(STATE), case],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = openmp_report(done.stderr)
    if spin is not None:
        assert report["GOMP_SPINCOUNT"] == spin
    else:
        assert report["OMP_WAIT_POLICY"] == "PASSIVE"
    assert done.stdout.split()[-1] == str(wide)


def test_an_interrupted_run_stops_its_folds_and_spoils_no_later_run(tmp_path):
    """A notebook interrupts a -b 1 run (its folds draw from C rand()), then runs again at
    once: the new run must equal a run in a fresh process, and the folds left inside LIBSVM
    must stop and be gone."""
    data = write_data(tmp_path / "four.txt", 900, classes=4, seed=1)
    done = python(f"""
        import signal, threading, time
        import numpy as np
        from svmeval import read_dataset, cross_validate, SvmParams
        ds = read_dataset({str(data)!r})
        params = SvmParams(C=50, probability=1)
        reference = cross_validate(ds, params, 5, jobs=2)
        start = time.monotonic()
        main = threading.main_thread().ident  # Ctrl-C in a notebook: SIGINT to the kernel
        first = []

        def progress(done, total):
            # the first fold has ended: the signal a quarter of its time into the next fold
            # (a slow or loaded machine stretches both alike)
            if not first:
                first.append(time.monotonic() - start)
                threading.Timer(first[0] / 4, signal.pthread_kill,
                                (main, signal.SIGINT)).start()

        try:
            cross_validate(ds, params, 5, jobs=2, progress=progress)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted after", time.monotonic() - start - first[0], "fold", first[0])
        left = [t for t in threading.enumerate() if t.name.startswith("svmeval-fold")]
        print("left running", len(left))
        again = cross_validate(ds, params, 5, jobs=2)
        print("same", np.array_equal(again.y_pred, reference.y_pred)
              and np.array_equal(again.probabilities, reference.probabilities))
        for t in left:
            t.join(60)
        print("still running", sum(t.is_alive() for t in left))
    """)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 4, done.stderr
    assert lines[0].startswith("interrupted after")
    after, fold = float(lines[0].split()[2]), float(lines[0].split()[-1])
    assert after < fold  # at once: before the fold it interrupted could have ended
    assert lines[2] == "same True"
    assert lines[3] == "still running 0"

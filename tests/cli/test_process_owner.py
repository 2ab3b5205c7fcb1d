"""The process belongs to its owner: importing or calling svmeval installs no signal handler,
replaces no ``sys`` hook and never exits the process; a Ctrl-C in a user's script is a
KeyboardInterrupt out of the call that was running, with nothing half-written. Only the
commands' launcher (``svmeval.cli.__main__``, also ``python -m svmeval.cli``) and
``python -m svmeval`` take the process over.

The oracle is Python's own behaviour: ``signal.default_int_handler``, ``sys.__excepthook__``,
``sys.__unraisablehook__``, and an uncaught KeyboardInterrupt's traceback and exit by SIGINT.
"""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "svmeval"
SMALL = ROOT / "data" / "breast_cancer.scale"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
#: the longest any event of these tests is waited for: reached, a test fails instead of hanging
LIMIT = 120.0

#: the ``python -m`` entries: run only as commands, the launcher itself (svmeval.cli's) and
#: svmeval's, which hands the process to it and ends it itself when a Ctrl-C comes before the
#: launcher could take it over
COMMAND_ENTRIES = {"svmeval/__main__.py", "svmeval/cli/__main__.py"}
#: the one temporary handler: while LIBSVM's bindings load (their bare ``except:`` would
#: swallow a KeyboardInterrupt), put back at once after, documented there
TEMPORARY_HANDLER = {"svmeval/cv/_bindings.py"}


def process_calls(path: Path) -> list[str]:
    """What a module does to its process: ``os._exit`` calls, ``signal.signal`` calls (any
    spelling of the module: ``signal``, ``_signal``), assignments to ``sys``'s hooks."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else ""
            if (name, node.func.attr) == ("os", "_exit"):
                found.append(f"os._exit (line {node.lineno})")
            if name.endswith("signal") and node.func.attr in ("signal", "set_wakeup_fd"):
                found.append(f"{name}.{node.func.attr} (line {node.lineno})")
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "sys"
                and target.attr.endswith("hook")
            ):
                found.append(f"sys.{target.attr} = (line {node.lineno})")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "_exit":
                found.append(f"_exit (line {node.lineno})")
    return found


def test_no_library_module_touches_the_process():
    modules = {str(p.relative_to(ROOT)): process_calls(p) for p in sorted(PACKAGE.rglob("*.py"))}
    touching = {m: calls for m, calls in modules.items() if calls}
    allowed = COMMAND_ENTRIES | TEMPORARY_HANDLER
    assert {m: c for m, c in touching.items() if m not in allowed} == {}
    # the temporary handler is only that: set, and put back
    assert all(
        "os._exit" not in c and "sys." not in c for m in TEMPORARY_HANDLER for c in modules[m]
    )
    # the scan sees what it looks for: the launcher does all three
    launcher = " ".join(process_calls(PACKAGE / "cli" / "__main__.py"))
    assert "os._exit" in launcher and "signal.signal" in launcher
    assert "sys.excepthook" in launcher and "sys.unraisablehook" in launcher


def test_importing_svmeval_sets_nothing():
    code = """
        import signal, sys
        hooks = (sys.excepthook, sys.unraisablehook, signal.getsignal(signal.SIGINT))
        import importlib, pkgutil
        import svmeval
        from svmeval import cross_validate, grid_search, summarize, render, __version__
        for module in pkgutil.walk_packages(svmeval.__path__, "svmeval."):  # as doctests do
            if not module.name.endswith("__main__"):  # the python -m entries: commands
                importlib.import_module(module.name)
        assert hooks == (sys.excepthook, sys.unraisablehook, signal.getsignal(signal.SIGINT))
        assert hooks == (sys.__excepthook__, sys.__unraisablehook__, signal.default_int_handler)
        print("ok")
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code) + "# /svmeval"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=LIMIT,
    )
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr


#: a user's script: cross_validate, then grid_search, each interrupted from inside the run (the
#: test sends SIGINT once the run's first progress call says "inside"; every later call, and
#: the first if it is the last, waits on standard input, so the run cannot end first), each
#: KeyboardInterrupt caught by the script; then a third, not caught: Python's own traceback
#: and exit
SCRIPT = f"""
import os, signal, sys
import svmeval
from svmeval import cross_validate, grid_search
from svmeval.io import destinations


def state():
    return (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler,
        sys.excepthook is sys.__excepthook__,
        sys.unraisablehook is sys.__unraisablehook__,
    )


calls = []


def progress(done, total, *rest):
    calls.append(done)
    if len(calls) == 1:
        print("inside", flush=True)  # the test's Ctrl-C comes now
    if len(calls) > 1 or done == total:  # the run cannot end before it: it ends this wait
        sys.stdin.readline()  # (never a line) or came before, while the folds ran


print("before", *state(), flush=True)
runs = {{
    "cross_validate": lambda: cross_validate({str(SMALL)!r}, "-c 1", 5, progress=progress),
    "grid_search": lambda: grid_search(
        {str(SMALL)!r}, log2c=(1, 7, 2), log2g=(-3, -3, 1), progress=progress
    ),
}}
for name, run in runs.items():
    calls.clear()
    try:
        run()
        print(name, "not interrupted", flush=True)
    except KeyboardInterrupt:
        print(name, "KeyboardInterrupt", *state(), sorted(destinations.TEMPORARIES), flush=True)
print("after", *state(), sorted(os.listdir(".")), flush=True)
calls.clear()
cross_validate({str(SMALL)!r}, "-c 1", 5, progress=progress)
print("not interrupted", flush=True)
"""


def command_lines(kind: str, tmp_path: Path) -> list[str]:
    """The script run so that its command line looks like one of svmeval's commands."""
    if kind == "-c":  # python '-c...  # /svmeval': the last '/' once taken for a command
        return [sys.executable, "-c" + SCRIPT + "# /svmeval"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / kind  # a script named as a console script
    script.write_text(SCRIPT)
    return [sys.executable, str(script)]


@pytest.mark.parametrize("kind", ["-c", "svmeval", "svmeval-grid"])
def test_a_script_interrupted_inside_the_runs_keeps_pythons_ctrl_c(tmp_path, kind):
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.Popen(
        command_lines(kind, tmp_path),
        cwd=work,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines = []

    def interrupt_at_inside():
        line = readline_within(proc)
        assert line == "inside\n", (lines, line)
        proc.send_signal(signal.SIGINT)

    try:
        lines.append(readline_within(proc))  # before
        interrupt_at_inside()
        lines.append(readline_within(proc))  # cross_validate's KeyboardInterrupt
        interrupt_at_inside()
        lines.append(readline_within(proc))  # grid_search's
        lines.append(readline_within(proc))  # after
        interrupt_at_inside()  # the third, not caught
        stdout, stderr = proc.communicate(timeout=LIMIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert lines == [
        "before True True True\n",
        "cross_validate KeyboardInterrupt True True True []\n",
        "grid_search KeyboardInterrupt True True True []\n",
        "after True True True []\n",
    ], stderr
    assert stdout == ""  # the third run never printed "not interrupted"
    # not caught: Python's own handling, its traceback through the call, and exit by SIGINT
    assert proc.returncode == -signal.SIGINT, stderr
    assert stderr.startswith("Traceback (most recent call last):\n"), stderr
    assert stderr.endswith("\nKeyboardInterrupt\n") and ": interrupted" not in stderr, stderr
    assert "svmeval" in stderr  # the traceback runs through the call that was interrupted
    assert os.listdir(work) == []


def readline_within(proc) -> str:
    """The process's next stdout line (at most LIMIT seconds; the process killed after)."""
    import threading

    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(LIMIT)
    if not got:
        proc.kill()
        pytest.fail(f"no line within {LIMIT:g} s: {proc.stderr.read()}")
    return got[0]


def test_a_run_stopped_by_ctrl_c_reports_no_progress_after_it(monkeypatch):
    """The cells done when a Ctrl-C stops a grid search are passed on (kept) but not reported:
    the caller's progress callback is not called while the KeyboardInterrupt is handled (a
    callback waiting for input, as a script's may, hung the run). Here every cell is held
    back until the run stops (as cells done ahead of an earlier one are), and the interrupt
    comes as the last fold ends."""
    from svmeval import grid_search
    from svmeval.cv.plan import cv_plan
    from svmeval.cv.run import evaluate

    total = 4 * 5  # four cells of five folds
    stored: list = []
    store = cv_plan.CVPlan.store

    def store_then_interrupt(self, i, out):
        store(self, i, out)
        stored.append(i)
        if len(stored) == total:
            raise KeyboardInterrupt  # raised again in the calling thread, as a Ctrl-C there

    def hold(self, unit, result):
        self.done[self.place(unit)] = (unit, result)

    flushed: list = []
    flush = evaluate.Release.flush

    def recorded_flush(self):
        flushed.append(len(self.done))
        flush(self)

    monkeypatch.setattr(cv_plan.CVPlan, "store", store_then_interrupt)
    monkeypatch.setattr(evaluate.Release, "__call__", hold)
    monkeypatch.setattr(evaluate.Release, "flush", recorded_flush)
    calls: list = []
    with pytest.raises(KeyboardInterrupt):
        grid_search(
            SMALL, log2c=(1, 7, 2), log2g=(-3, -3, 1), jobs=2, progress=lambda *a: calls.append(a)
        )
    assert flushed == [3]  # the cells done (the fourth's last fold was interrupted) passed on
    assert calls == []
    # a search run while the script handles an earlier Ctrl-C reports as any other
    monkeypatch.undo()
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        grid_search(
            SMALL, log2c=(1, 7, 2), log2g=(-3, -3, 1), jobs=2, progress=lambda *a: calls.append(a)
        )
    assert [c[0] for c in calls] == [1, 2, 3, 4]

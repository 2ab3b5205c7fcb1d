"""The commands' launcher: ``svmeval``, ``svmeval-grid``, ``svmeval-compare``,
``svmeval-store`` and ``svmeval-linear`` own their process from here, and only they do;
``python -m svmeval.cli COMMAND ARGS`` runs one of them (``svmeval``, ``grid``, ``compare``,
``store`` or ``linear``).

It is the package's ``__main__`` module of the commands: run as a command and imported by
the commands' entries alone (the console scripts' ``svmeval_launch``, ``python -m
svmeval``), each as its first instruction, never by the library (a test runner collecting
doctests passes over ``__main__`` modules). Its first instruction takes Ctrl-C over: until the
command runs (:func:`main`), a Ctrl-C is recorded and ends the command as it starts; from then
on it is a KeyboardInterrupt, and whatever becomes of that (raised inside an import, swallowed
by a bare ``except:``, dropped by Python) the command ends with ``PROG: interrupted`` and exit
status 130, never a traceback. The command also owns ``sys.excepthook`` and
``sys.unraisablehook`` (a KeyboardInterrupt that C code printed or Python dropped is delivered
again) and its exit (``os._exit``: folds still inside LIBSVM's C code cannot hold it).

The svmeval package itself never does any of this: it raises KeyboardInterrupt out of the call
that was running and leaves the process to its owner. A script, a notebook or a test runner that
imports svmeval keeps its own Ctrl-C; importing this module makes the process a command's.

Before it, Python runs only the packages' ``__init__`` modules (``svmeval``'s and this
package's run no statement but their first, and set nothing), inside the entry's own ``try``:
a Ctrl-C there ends the command the same way. This module imports only ``os``, ``sys`` and
``_thread`` (loaded with the interpreter) and the built-in ``_signal`` (``signal``'s own module
imports enum, time enough for a Ctrl-C to land in it); everything the command needs (numpy,
the command's module, later LIBSVM) is imported inside :func:`_run`'s ``try``. A drop-in call
of ``svmeval`` (svm-train's options, ``-v k``, two classes) is served first by
:func:`svmeval.cli.dropin.serve`, one of ``svmeval-linear`` (``train``'s options, ``-v k``, two
classes) by :func:`svmeval.cli.linear_dropin.serve`, neither of which imports numpy; every
call they do not serve runs as the full command.
"""

try:  # the first instruction: from here on a Ctrl-C is the command's
    import _signal as signal  # type: ignore[import-not-found]  # built in: no Python code runs
    import _thread
    import os
    import sys

    INTERRUPTED = 130

    #: Ctrl-C seen: whatever became of the KeyboardInterrupt, the run was interrupted
    _sigint: list = []
    #: set once the command runs (:func:`_run`): before that a Ctrl-C is only recorded
    _running: list = []

    def _on_sigint(signum, frame):
        _sigint.append(signum)
        if not _running:  # the command has not started: it ends as interrupted when it does
            return
        if frame is not None and frame.f_code in _REDELIVERING:
            _again()  # not inside the hook that delivers a lost one again: after it
            return
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when ignored
        signal.signal(signal.SIGINT, _on_sigint)
except KeyboardInterrupt:  # pragma: no cover - the few instructions before the handler existed
    import os

    os.write(2, b"svmeval: interrupted\n")
    os._exit(130)


def _unraisable(info) -> None:
    """A KeyboardInterrupt raised where Python cannot raise it (a weakref callback inside the
    import machinery, a __del__) is dropped with "Exception ignored" and the run would go on:
    stay silent and deliver the Ctrl-C again (:func:`_again`)."""
    if isinstance(info.exc_value, KeyboardInterrupt):
        _again()
        return
    sys.__unraisablehook__(info)


def _excepthook(kind, value, tb) -> None:
    """A KeyboardInterrupt that C code printed and cleared (PyErr_Print, as an extension
    module's initialisation does with an error of an import it tries) would let the run go on:
    stay silent and deliver the Ctrl-C again (:func:`_again`). Everything else as Python would
    (an exception that leaves :func:`_run` never gets here: every one is caught there)."""
    if isinstance(value, KeyboardInterrupt):
        _again()
        return
    sys.__excepthook__(kind, value, tb)


def _again() -> None:
    """Send SIGINT to the main thread again, from another thread: it comes once this hook has
    returned (the other thread needs the interpreter) and interrupts whatever the main thread
    then waits for. The Ctrl-C is recorded meanwhile: no output is committed and no other line
    written."""
    try:
        _thread.start_new_thread(signal.pthread_kill, (_MAIN[0], signal.SIGINT))
    except BaseException:  # pragma: no cover - no thread to be had: the flag still holds
        pass


_MAIN = [_thread.get_ident()]  # the main thread (set again by _run)


#: the hooks that deliver a lost Ctrl-C again, inside which the handler does not raise
_REDELIVERING = {_unraisable.__code__, _excepthook.__code__, _again.__code__}


def _reopen_closed_standard_streams() -> set:
    """Put /dev/null on descriptors 0, 1, 2 where closed (else the first file opened would
    become standard output); return which were closed."""
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                new = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            except OSError:  # pragma: no cover - no /dev/null
                continue
            if new != fd:  # pragma: no cover - the lowest free descriptor is fd itself
                os.dup2(new, fd)
                os.close(new)
            closed.add(fd)
    return closed


_PROG = ["svmeval"]


def _interrupted() -> None:
    destinations = sys.modules.get("svmeval.io.destinations")
    if destinations is not None:  # temporary files made, not yet renamed or removed
        destinations.remove_temporaries()
    line = f"{_PROG[0]}: interrupted"
    runner = sys.modules.get("svmeval.cli.runner")
    if runner is not None:  # and how to continue, where the run kept its work
        try:
            line = runner.interrupted_line(_PROG[0])
        except BaseException:  # pragma: no cover - a second Ctrl-C: the plain line
            pass
    output = sys.modules.get("svmeval.io.output")
    if output is not None:  # LIBSVM's messages end before this line (none is written after)
        output.STDERR_LOCK.acquire(timeout=1)
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except BaseException:  # pragma: no cover - a closed stderr, a second Ctrl-C
        pass
    # Folds still inside LIBSVM's C code cannot be stopped and would hold the interpreter's
    # exit: leave at once (output files are written whole or not at all).
    os._exit(INTERRUPTED)


#: what a command was doing, by the svmeval module whose frame was innermost (longest prefix)
_STAGES = (
    ("svmeval.io.data", "reading the data"),
    ("svmeval.io.dataset", "reading the data"),
    ("svmeval.io._streams", "reading the data"),
    ("svmeval.io", "writing the output"),
    ("svmeval.cv", "cross-validating"),
    ("svmeval.metrics", "computing the figures"),
    ("svmeval.summary", "computing the figures"),
    ("svmeval.report", "writing the report"),
    ("svmeval.workflows", "searching"),
    ("svmeval", "running"),
)


def _out_of_memory(tb) -> int:
    """One line for a MemoryError, naming what the command was doing; status 1."""
    stage = "running"
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "")
        for prefix, what in _STAGES:
            if module == prefix or module.startswith(prefix + "."):
                stage = what
                break
        tb = tb.tb_next
    try:
        sys.stderr.write(f"{_PROG[0]}: out of memory while {stage}\n")
        sys.stderr.flush()
    except BaseException:  # pragma: no cover - a closed stderr
        pass
    return 1


def main() -> None:
    """``svmeval``, ``python -m svmeval`` and ``python -m svmeval.cli svmeval``."""
    _run("svmeval", "svmeval.cli.svmeval")


def grid_main() -> None:
    """``svmeval-grid`` and ``python -m svmeval.cli grid``."""
    _run("svmeval-grid", "svmeval.cli.grid")


def compare_main() -> None:
    """``svmeval-compare`` and ``python -m svmeval.cli compare``."""
    _run("svmeval-compare", "svmeval.cli.compare")


def store_main() -> None:
    """``svmeval-store`` and ``python -m svmeval.cli store``."""
    _run("svmeval-store", "svmeval.cli.store")


def linear_main() -> None:
    """``svmeval-linear`` and ``python -m svmeval.cli linear``."""
    _run("svmeval-linear", "svmeval.cli.linear")


#: the commands whose drop-in calls are served light: the command's module -> its light path
_LIGHT = {
    "svmeval.cli.svmeval": "svmeval.cli.dropin",
    "svmeval.cli.linear": "svmeval.cli.linear_dropin",
}


#: OpenBLAS (numpy's BLAS) starts its worker threads as numpy is imported, and each spins
#: 2**28 processor cycles (about 0.1 s) for work before it sleeps: CPU seconds taken from the
#: command at every start, one thread a core, where numpy's BLAS is hardly used. 4 (2**4
#: cycles, OpenBLAS's least) lets them sleep at once; the threads, their number and every
#: result stay as they were. A user's own setting wins.
BLAS_SPIN = ("OPENBLAS_THREAD_TIMEOUT", "4")


def _short_blas_spin() -> None:
    """Set :data:`BLAS_SPIN` for the command's process (and the processes it starts) before
    numpy is imported, unless it is set already."""
    name, value = BLAS_SPIN
    if "numpy" not in sys.modules and name not in os.environ:
        os.environ[name] = value


def _run(prog: str, module: str) -> None:
    """Run a command line (``module``'s ``main``) and exit with its status.

    A KeyboardInterrupt raised inside an import can come out as another exception (numpy turns
    it into an ImportError) or be swallowed: Ctrl-C is recorded by the command's own handler,
    and a run that saw one ends with 130 whatever came of it.
    """
    _PROG[0] = prog
    _MAIN[0] = _thread.get_ident()
    try:  # a Ctrl-C recorded before the command ran ends it here
        handler = signal.getsignal(signal.SIGINT)
        if handler is signal.default_int_handler:  # the handler put back by someone: again
            signal.signal(signal.SIGINT, _on_sigint)
            handler = _on_sigint
        if handler is _on_sigint:  # not when SIGINT is ignored (a shell's background job)
            sys.unraisablehook = _unraisable
            sys.excepthook = _excepthook
        _running.append(True)
        if _sigint:
            raise KeyboardInterrupt
        _short_blas_spin()
        closed = _reopen_closed_standard_streams()
        status: int | None = None
        if module in _LIGHT and not closed and sys.stdout is not None:
            # a drop-in call (svm-train's or train's options, -v k, two classes) is served light
            serve = __import__(_LIGHT[module], fromlist=["serve"]).serve

            status = serve(sys.argv[1:], _sigint)
        if status is None:  # every other call: the full command
            from svmeval.io import output

            output.INTERRUPTS = _sigint  # no output is committed once Ctrl-C was seen
            output.CLOSED_STREAMS.update(closed)
            output.guard_standard_streams()
            cli_main = __import__(module, fromlist=["main"]).main

            status = cli_main()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
    except KeyboardInterrupt:
        _interrupted()
    except MemoryError as exc:
        if _sigint:
            _interrupted()
        status = _out_of_memory(exc.__traceback__)
    except SystemExit as exc:  # pragma: no cover - sys.exit() somewhere below
        status = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        if _sigint:
            _interrupted()
        raise
    if _sigint:
        _interrupted()
    # os._exit: nothing (an interpreter shutdown hook, a late Ctrl-C) can add a traceback now
    os._exit(0 if status is None else status)


#: ``python -m svmeval.cli COMMAND``: the command's entry
_COMMANDS = {
    "svmeval": main,
    "grid": grid_main,
    "compare": compare_main,
    "store": store_main,
    "linear": linear_main,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in _COMMANDS:
        sys.stderr.write(
            "usage: python -m svmeval.cli {svmeval,grid,compare,store,linear} [options] ...\n"
        )
        sys.exit(1)
    _COMMANDS[sys.argv.pop(1)]()

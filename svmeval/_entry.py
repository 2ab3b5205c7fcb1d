"""The command's entry point: Ctrl-C and closed standard streams handled before anything heavy.

Everything the command imports (numpy, svmeval's modules, later LIBSVM) is imported inside
:func:`main`'s ``try``, so a Ctrl-C at any moment, the first fraction of a second included,
ends the command with one line and exit status 130, never a traceback. This module itself
imports only ``os`` and ``sys`` (loaded with the interpreter) and the built-in ``_signal``
(``signal``'s own module imports enum, time enough for a Ctrl-C to land in it).
"""

import _signal as signal
import os
import sys

INTERRUPTED = 130

_sigint = []  # Ctrl-C seen: whatever became of the KeyboardInterrupt, the run was interrupted


def _on_sigint(signum, frame):
    _sigint.append(signum)
    raise KeyboardInterrupt


def _unraisable(info) -> None:
    """A KeyboardInterrupt raised where Python cannot raise it (a weakref callback inside the
    import machinery, a __del__) is dropped with "Exception ignored" and the run goes on: stay
    silent, the Ctrl-C is recorded and no output is committed after it."""
    if isinstance(info.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(info)


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
    output = sys.modules.get("svmeval.io.output")
    if output is not None:  # LIBSVM's messages end before this line (none is written after)
        output.STDERR_LOCK.acquire(timeout=1)
    try:
        sys.stderr.write(f"{_PROG[0]}: interrupted\n")
        sys.stderr.flush()
    except BaseException:  # pragma: no cover - a closed stderr, a second Ctrl-C
        pass
    # Folds still inside LIBSVM's C code cannot be stopped and would hold the interpreter's
    # exit: leave at once (output files are written whole or not at all).
    os._exit(INTERRUPTED)


#: what a command was doing, by the svmeval module whose frame was innermost (longest prefix)
_STAGES = (("svmeval.io.data", "reading the data"), ("svmeval.io._streams", "reading the data"),
           ("svmeval.io", "writing the output"), ("svmeval.cv", "cross-validating"),
           ("svmeval.metrics", "computing the figures"), ("svmeval.summary", "computing the figures"),
           ("svmeval.report", "writing the report"), ("svmeval.workflows", "searching"),
           ("svmeval", "running"))


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
    """``svmeval`` and ``python -m svmeval``."""
    _run("svmeval", "svmeval.cli.svmeval")


def grid_main() -> None:
    """``svmeval-grid`` and ``python -m svmeval.cli grid``."""
    _run("svmeval-grid", "svmeval.cli.grid")


def compare_main() -> None:
    """``svmeval-compare`` and ``python -m svmeval.cli compare``."""
    _run("svmeval-compare", "svmeval.cli.compare")


def _run(prog: str, module: str) -> None:
    """Run a command line (``module``'s ``main``) and exit with its status.

    A KeyboardInterrupt raised inside an import can come out as another exception (numpy turns
    it into an ImportError) or be swallowed: Ctrl-C is recorded by svmeval's own handler, and a
    run that saw one ends with 130 whatever came of it.
    """
    _PROG[0] = prog
    try:  # Python's own handler until svmeval's is in place: its KeyboardInterrupt ends here too
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when ignored
            sys.unraisablehook = _unraisable
            signal.signal(signal.SIGINT, _on_sigint)
        closed = _reopen_closed_standard_streams()
        from svmeval.io import output  # the first heavy import (numpy)

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
    os._exit(status)

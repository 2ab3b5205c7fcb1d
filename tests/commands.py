"""The commands run inside the test process: what a test of a command's output needs, without
a new Python (each of which imports numpy and LIBSVM again).

:func:`run` runs ``svmeval``, ``svmeval-grid``, ``svmeval-compare`` or ``svmeval-store`` as the
commands' launcher (``svmeval.cli.__main__``) runs them, less what only a process has: a
drop-in call of ``svmeval`` is offered to :func:`svmeval.cli.dropin.serve` first, every other
call goes to the command's ``main``; its status is what ``main`` returns (or a ``SystemExit``'s
code). Standard input, output and error are pipes on descriptors 0, 1 and 2, as a child's would
be (a report written to descriptor 1 by ``os.write`` is caught as one written through
``sys.stdout``), with fresh ``sys`` stream objects over them. It returns a
:class:`subprocess.CompletedProcess`, so a test reads ``returncode``, ``stdout`` and ``stderr``
as it would of a child.

What a command sets for the whole process is put back after each call: the working folder,
``sys.argv`` and the ``sys`` streams and hooks, every signal handler, the environment, the
umask, the warning filters and numpy's error state (set to a fresh process's during the call),
LIBSVM's print function and the message switch, the outputs' interrupt record, closed streams
and temporary files, the progress bar's line; C ``rand()`` is seeded 1 before each call, as in
a fresh process. A thread the call started and left running fails the call.

What only a process shows (its exit status after a signal or Ctrl-C, closed descriptors, what
a fresh interpreter imports, LIBSVM's C-level output, a terminal) is tested with
:func:`subprocess.run` of ``python -m svmeval``; :mod:`tests.test_commands` checks that both
give the same status and streams.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import locale
import os
import select
import signal
import subprocess
import sys
import threading
import warnings

#: command name -> (the launcher's program name, the module whose ``main`` runs it)
COMMANDS = {
    "svmeval": ("svmeval", "svmeval.cli.svmeval"),
    "grid": ("svmeval-grid", "svmeval.cli.grid"),
    "compare": ("svmeval-compare", "svmeval.cli.compare"),
    "store": ("svmeval-store", "svmeval.cli.store"),
    "linear": ("svmeval-linear", "svmeval.cli.linear"),
}
#: the commands whose drop-in calls the launcher serves light: module -> its light path (the
#: launcher's own table, which importing the launcher here would make this process a command's)
LIGHT = {
    "svmeval.cli.svmeval": "svmeval.cli.dropin",
    "svmeval.cli.linear": "svmeval.cli.linear_dropin",
}
#: the same commands as a child process runs them
PROCESS = {
    "svmeval": ["-m", "svmeval"],
    "grid": ["-m", "svmeval.cli", "grid"],
    "compare": ["-m", "svmeval.cli", "compare"],
    "store": ["-m", "svmeval.cli", "store"],
    "linear": ["-m", "svmeval.cli", "linear"],
}

_LOCK = threading.Lock()  # one call at a time: descriptors 0-2 are the process's
#: seconds a thread the call started may take to end once the call returned
THREAD_GRACE = 30.0
#: threads a library starts once for the whole process, on first use, and keeps until the
#: process ends (dask.distributed's offload pool): not the call's to end
PROCESS_WIDE_THREADS = ("Dask-Offload",)


def run_process(command: str, args, *, python_flags=(), **kwargs) -> subprocess.CompletedProcess:
    """``command`` (a key of :data:`COMMANDS`) in a child process, streams captured as text
    unless ``kwargs`` say otherwise (for tests of what only a process shows); ``python_flags``
    go to the interpreter (``["-X", "importtime"]``)."""
    kwargs.setdefault("capture_output", "stdout" not in kwargs and "stderr" not in kwargs)
    kwargs.setdefault("text", True)
    line = [sys.executable, *python_flags, *PROCESS[command], *map(str, args)]
    return subprocess.run(line, **kwargs)


def run_module(line, **kwargs) -> subprocess.CompletedProcess:
    """:func:`run` of what follows ``python -m`` in ``line``: ``["svmeval", ARGS...]`` or
    ``["svmeval.cli", COMMAND, ARGS...]``."""
    module, *rest = map(str, line)
    if module == "svmeval.cli" and rest and rest[0] in COMMANDS:
        return run(rest[0], rest[1:], **kwargs)
    if module == "svmeval":
        return run("svmeval", rest, **kwargs)
    raise ValueError(f"not a command's module: python -m {module} {' '.join(rest[:1])}")


def run(
    command: str,
    args,
    *,
    cwd=None,
    input=None,
    stdin=None,
    stdout=subprocess.PIPE,
    stderr=subprocess.PIPE,
    text: bool = True,
    env=None,
    umask: int | None = None,
    timeout=None,  # noqa: ARG001 - a child's limit: an in-process call cannot be killed
) -> subprocess.CompletedProcess:
    """``command`` (a key of :data:`COMMANDS`) on ``args`` in this process: the fields of
    :func:`subprocess.run`'s answer. ``input``: what standard input holds (str or bytes);
    ``stdin``: a file object or descriptor instead (default: ``/dev/null``); ``stdout`` and
    ``stderr``: PIPE (captured), None (this process's own), DEVNULL, a file object or a
    descriptor; ``env``: the environment during the call (as a child's); ``umask``: the
    process's umask during the call."""
    argv = [str(a) for a in args]
    with _LOCK:
        return _run(command, argv, cwd, input, stdin, stdout, stderr, text, env, umask)


def _target_fd(where, mode: int) -> tuple[int | None, bool]:
    """The descriptor to put in place for ``where``, and whether it is ours to close."""
    if where is None:
        return None, False
    if where == subprocess.DEVNULL:
        return os.open(os.devnull, mode), True
    if isinstance(where, int):
        return where, False
    return where.fileno(), False


class _Pipe:
    """A pipe whose read end a thread drains (a child's captured stream).

    The call's output is what is in the pipe once the call has returned: a process the command
    started may hold the write end for longer (multiprocessing's resource tracker, started by
    the first process a test process spawns, lives as long as the test process and keeps the
    descriptors it was born with), so the end of the call, not the pipe's end of file, stops
    the reading."""

    def __init__(self) -> None:
        self.read, self.write = os.pipe()
        self._done_read, self._done_write = os.pipe()
        self.chunks: list[bytes] = []
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.read, self._done_read], [], [])
            if self.read in ready:
                chunk = os.read(self.read, 1 << 16)
                if not chunk:
                    return
                self.chunks.append(chunk)
                continue
            os.set_blocking(self.read, False)  # the call is over: what the pipe holds, no more
            with contextlib.suppress(BlockingIOError):
                while chunk := os.read(self.read, 1 << 16):
                    self.chunks.append(chunk)
            return

    def close_and_read(self) -> bytes:
        with contextlib.suppress(OSError):
            os.close(self.write)
        os.write(self._done_write, b"x")
        self.thread.join()
        for fd in (self.read, self._done_read, self._done_write):
            os.close(fd)
        return b"".join(self.chunks)


class _Feed:
    """A pipe a thread fills with ``data`` (a child's standard input); what the command has not
    read when the call returns is dropped, as at a child's exit, even where a process the call
    started still holds the read end."""

    def __init__(self, data: bytes) -> None:
        self.read, self.write = os.pipe()
        self._done_read, self._done_write = os.pipe()
        os.set_blocking(self.write, False)
        self.data = data
        self.thread = threading.Thread(target=self._feed, daemon=True)
        self.thread.start()

    def _feed(self) -> None:
        view = memoryview(self.data)
        try:
            while view:
                ready, writable, _ = select.select([self._done_read], [self.write], [])
                if ready:
                    return
                with contextlib.suppress(BlockingIOError):
                    view = view[os.write(self.write, view) :]
        except OSError:  # the command stopped reading (a child's EPIPE)
            pass
        finally:
            os.close(self.write)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.read)  # a writer still waiting gets EPIPE or the end of the call
        os.write(self._done_write, b"x")
        self.thread.join()
        os.close(self._done_read)
        os.close(self._done_write)


def _decode(data: bytes) -> str:
    """As :func:`subprocess.run` with ``text=True``: the locale's encoding, universal newlines."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=locale.getpreferredencoding(False)).read()


def _show(message) -> None:
    """Python's own way of showing a warning (on this call's standard error), whatever the
    test runner put in its place."""
    file = message.file if message.file is not None else sys.stderr
    if file is None:
        return
    with contextlib.suppress(OSError):
        file.write(warnings._formatwarnmsg(message))  # type: ignore[attr-defined]


def _fresh_warning_filters() -> None:
    """The filters of a fresh ``python`` (no -W, no PYTHONWARNINGS): those in Python's
    ``warnings`` module for a release build."""
    warnings.resetwarnings()
    for category in (ResourceWarning, ImportWarning, PendingDeprecationWarning):
        warnings.simplefilter("ignore", category)
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
    for option in sys.warnoptions:  # pragma: no cover - the tests' own -W options
        warnings._setoption(option)  # type: ignore[attr-defined]


def _catchable_signals() -> dict:
    handlers = {}
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            handlers[sig] = signal.getsignal(sig)
        except (OSError, ValueError):  # pragma: no cover - not settable here
            continue
    return handlers


@contextlib.contextmanager
def _process_state(cwd, env):
    """Everything a command may set for the whole process, put back at the end."""
    saved_cwd = os.getcwd()
    saved_argv = sys.argv[:]
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_hooks = (sys.excepthook, sys.unraisablehook, sys.displayhook, sys.breakpointhook)
    saved_environ = dict(os.environ)
    saved_signals = _catchable_signals()
    saved_umask = os.umask(0o022)
    os.umask(saved_umask)
    numpy = sys.modules.get("numpy")
    saved_numpy = numpy.geterr() if numpy is not None else None
    if numpy is not None:
        numpy.seterr(all="warn", under="ignore")  # a fresh process's
    try:
        with warnings.catch_warnings():
            saved_show = warnings._showwarnmsg_impl  # type: ignore[attr-defined]
            warnings.showwarning = warnings._showwarning_orig  # type: ignore[attr-defined]
            warnings._showwarnmsg_impl = _show  # type: ignore[attr-defined]
            _fresh_warning_filters()
            try:
                if env is not None:
                    os.environ.clear()
                    os.environ.update(env)
                if cwd is not None:
                    os.chdir(cwd)
                with _svmeval_state():
                    yield
            finally:
                warnings._showwarnmsg_impl = saved_show  # type: ignore[attr-defined]
    finally:
        os.chdir(saved_cwd)
        sys.argv[:] = saved_argv
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        sys.excepthook, sys.unraisablehook, sys.displayhook, sys.breakpointhook = saved_hooks
        if dict(os.environ) != saved_environ:
            os.environ.clear()
            os.environ.update(saved_environ)
        for sig, handler in saved_signals.items():
            if signal.getsignal(sig) is not handler and handler is not None:
                signal.signal(sig, handler)
        os.umask(saved_umask)
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            numpy.seterr(**saved_numpy) if saved_numpy is not None else None


@contextlib.contextmanager
def _svmeval_state():
    """svmeval's process-wide records: each as a fresh process has it during the call, and as
    it was after."""
    from svmeval import progress
    from svmeval.cv import messages
    from svmeval.io import destinations, output

    saved_interrupts = output.INTERRUPTS
    saved_closed = set(output.CLOSED_STREAMS)
    saved_quiet = messages.QUIET[0]
    saved_screen = progress._ON_SCREEN[0]
    ctypes.CDLL(None).srand(1)  # a fresh process's rand(): as srand(1)
    try:
        yield
    finally:
        output.INTERRUPTS = saved_interrupts
        output.CLOSED_STREAMS.clear()
        output.CLOSED_STREAMS.update(saved_closed)
        progress._ON_SCREEN[0] = saved_screen
        destinations.remove_temporaries()
        libsvm = sys.modules.get("svmeval.cv._libsvm")
        if libsvm is not None and messages.QUIET[0] != saved_quiet:
            libsvm.set_quiet(saved_quiet)
        messages.QUIET[0] = saved_quiet


def _call(command: str, argv: list[str]) -> int:
    """The launcher's run of a command, less its process (signals, hooks, os._exit)."""
    prog, module = COMMANDS[command]
    sys.argv[:] = [prog, *argv]
    interrupts: list = []
    try:
        status = None
        if module in LIGHT and sys.stdout is not None:  # a drop-in call: served light
            status = __import__(LIGHT[module], fromlist=["serve"]).serve(argv, interrupts)
        if status is None:
            from svmeval.io import output

            output.INTERRUPTS = interrupts
            output.guard_standard_streams()
            status = __import__(module, fromlist=["main"]).main(argv)
    except MemoryError as exc:
        # the launcher: its SIGINT handler is put back with every other
        from svmeval.cli import __main__ as launcher

        saved_prog, launcher._PROG[0] = launcher._PROG[0], prog
        try:
            status = launcher._out_of_memory(exc.__traceback__)
        finally:
            launcher._PROG[0] = saved_prog
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
    return 0 if status is None else status


def _run(command, argv, cwd, input, stdin, stdout, stderr, text, env, umask):
    if input is not None and stdin is not None:
        raise ValueError("stdin and input arguments may not both be used")
    threads_before = set(threading.enumerate())
    saved_fds = {fd: os.dup(fd) for fd in (0, 1, 2)}
    feed = pipes = None
    ours: list[int] = []
    try:
        if input is not None:
            feed = _Feed(input.encode() if isinstance(input, str) else input)
            os.dup2(feed.read, 0)
        else:
            fd, own = _target_fd(subprocess.DEVNULL if stdin is None else stdin, os.O_RDONLY)
            os.dup2(fd, 0)
            ours += [fd] if own else []
        pipes = {}
        for fd, where in ((1, stdout), (2, stderr)):
            if where == subprocess.PIPE:
                pipes[fd] = _Pipe()
                os.dup2(pipes[fd].write, fd)
            else:
                target, own = _target_fd(where, os.O_WRONLY)
                if target is not None:
                    os.dup2(target, fd)
                ours += [target] if own and target is not None else []
        encoding = locale.getpreferredencoding(False)
        streams = [
            open(0, encoding=encoding, closefd=False),  # noqa: SIM115
            open(1, "w", encoding=encoding, closefd=False),  # noqa: SIM115
            open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False),  # noqa: SIM115
        ]
        streams[2].reconfigure(line_buffering=True)
        try:
            with _process_state(cwd, env):
                if umask is not None:
                    os.umask(umask)
                sys.stdin, sys.stdout, sys.stderr = streams
                status = _call(command, argv)
        finally:
            for stream in streams:  # what a full or closed descriptor refused is dropped here,
                with contextlib.suppress(Exception):  # as at a child's exit
                    stream.close()
    finally:
        for fd, saved in saved_fds.items():
            os.dup2(saved, fd)
            os.close(saved)
        for fd in ours:
            os.close(fd)
        if feed is not None:
            feed.close()
        captured = {fd: pipe.close_and_read() for fd, pipe in (pipes or {}).items()}
    left = [
        t
        for t in threading.enumerate()
        if t not in threads_before
        and not t.name.startswith(PROCESS_WIDE_THREADS)
        and not _ends(t, THREAD_GRACE)
    ]
    if left:
        raise AssertionError(f"{command} {argv}: threads left running: {left}")
    out, err = captured.get(1), captured.get(2)
    if text:
        out = None if out is None else _decode(out)
        err = None if err is None else _decode(err)
    return subprocess.CompletedProcess([command, *argv], status, out, err)


def _ends(thread: threading.Thread, limit: float) -> bool:
    thread.join(limit)
    return not thread.is_alive()

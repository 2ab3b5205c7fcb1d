"""Output files: written whole, or not at all, where :mod:`svmeval.io.destinations` checked.

:func:`write_outputs` writes a run's outputs: every regular file to its temporary first, then
the streams, then every rename, so that a failure anywhere leaves none of them changed (a
stream already written cannot be taken back, so streams go before the renames).
:func:`atomic_path` gives a writer that needs a path (LIBSVM's ``svm_save_model``) a temporary
path; :func:`atomic_paths` gives several, committed together.

New files get 0666 less the umask (as ``fopen``); a replaced file keeps its mode (and, where
allowed, its owner), as ``fopen(path, "w")`` would. Temporary names are short
(``.svmeval-XXXXXXXX.tmp``), whatever the length of the file's own name.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
from collections.abc import Iterator, Sequence
from typing import TypeVar

from svmeval.io.destinations import (  # noqa: F401 - the checks, named here for the writers' callers
    CLOSED_STREAMS,
    STDOUT,
    OutputError,
    Target,
    cannot_write,
    check_outputs,
    check_readable_stdin,
    new_temp,
    reason_of,
    remove_temps,
    renamed_temp,
    resolve,
)
from svmeval.io.stderr_lock import STDERR_LOCK  # noqa: F401 - named here for its users

__all__ = [
    "CLOSED_STREAMS",
    "INTERRUPTS",
    "STDOUT",
    "OutputError",
    "Target",
    "atomic_path",
    "atomic_paths",
    "atomic_write",
    "check_outputs",
    "check_readable_stdin",
    "guard_standard_streams",
    "resolve",
    "write_outputs",
]

#: Ctrl-C seen by a command's own SIGINT handler (the commands' launcher, svmeval.cli.__main__,
#: puts its record here; in any other process it stays empty): a KeyboardInterrupt can be
#: swallowed (a bare except, a weakref callback), so no output is committed after one
INTERRUPTS: list = []


def guard_standard_streams() -> None:
    """Give Python stream objects to descriptors 0, 1, 2 where it has none (it leaves
    ``sys.stdout`` None when descriptor 1 was closed at start-up). The command's entry point
    first puts ``/dev/null`` on a closed descriptor (else the first file opened would become
    standard output) and records it in :data:`CLOSED_STREAMS`: a run that needs that stream
    then fails with one line (:func:`resolve`, :func:`check_readable_stdin`)."""
    import sys

    if sys.stdout is None:
        sys.stdout = open(1, "w", closefd=False)
    if sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False)
    if sys.stdin is None:
        sys.stdin = open(0, closefd=False)


# --- writing -------------------------------------------------------------------------------
def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _write_file(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC)
    try:
        _write_all(fd, data)
        os.fsync(fd)  # a full disk says so here, not after the rename
    finally:
        os.close(fd)


_T = TypeVar("_T")


def _known(value: _T | None) -> _T:
    """A field the target's kind sets (its path, its descriptor, its temporary file)."""
    if value is None:  # pragma: no cover - each kind sets what writing it uses
        raise TypeError("an output without the path or descriptor its kind needs")
    return value


class _Staged:
    """One output on its way: its temporary file (regular files) or its bytes (streams).

    ``made``: the record of the temporary files of the call that stages it (every one named
    there before it is made, see :func:`~svmeval.io.destinations.new_temp`), which that call removes
    at its end, however it ends: a KeyboardInterrupt at any instant leaves none behind.
    """

    def __init__(self, target: Target, made: set[str], data: bytes | None = None):
        self.target = target
        self.tmp: str | None = None
        self.data = data
        self.made = made
        if target.kind == "file":
            self.tmp = new_temp(os.path.dirname(_known(target.real)), made=made)
            if data is not None:
                _write_file(self.tmp, data)
        elif data is None:  # a writer that needs a path: a temporary file elsewhere, copied
            import tempfile

            self.tmp = new_temp(tempfile.gettempdir(), 0o600, made=made)  # as mkstemp

    def finish_file(self) -> None:
        """After the content is in ``tmp``: give it the mode a replaced file had."""
        t = self.target
        if t.kind != "file" or not t.exists:
            return
        try:
            st = os.stat(_known(t.real))
        except OSError:
            return  # gone meanwhile: a new file, fopen's permissions
        os.chmod(_known(self.tmp), stat.S_IMODE(st.st_mode) & 0o777)
        with contextlib.suppress(OSError):
            os.chown(_known(self.tmp), st.st_uid, st.st_gid)

    def deliver(self) -> None:
        """Streams and in-place files: copy the temporary's bytes where they go."""
        t = self.target
        if t.kind == "file":
            return
        data = self.data
        if data is None:
            with open(_known(self.tmp), "rb") as fh:
                data = fh.read()
        if t.kind == "fd":
            import sys

            with contextlib.suppress(Exception):
                sys.stdout.flush()
            _write_all(_known(t.fd), data)
        elif t.kind == "stream":
            fd = os.open(_known(t.real), os.O_WRONLY | os.O_CLOEXEC)
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
        else:  # inplace
            _write_file(_known(t.real), data)

    def rename(self) -> None:
        if self.target.kind == "file":
            tmp = _known(self.tmp)
            renamed_temp(tmp, _known(self.target.real))
            self.made.discard(tmp)  # now the output itself
            self.tmp = None


def _oserror(target: Target, exc: OSError) -> OutputError:
    if isinstance(exc, BrokenPipeError) and target.kind == "fd":
        raise exc  # the reader went away: the command line ends quietly
    return cannot_write(target.path if target.path != STDOUT else "standard output", reason_of(exc))


@contextlib.contextmanager
def _no_interrupt():
    """Hold Ctrl-C off (main thread) while renames run, so they run all or none: SIGINT is
    blocked, not handled, and the caller's signal mask is put back (a Ctrl-C meanwhile comes
    to whatever handler the process has, once the renames are done)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _commit(staged: list[_Staged]) -> None:
    if INTERRUPTS:
        raise KeyboardInterrupt
    for s in staged:
        try:
            s.finish_file()
            s.deliver()
        except OSError as exc:
            raise _oserror(s.target, exc) from None
    with _no_interrupt():
        if INTERRUPTS:
            raise KeyboardInterrupt
        for s in staged:
            try:
                s.rename()
            except OSError as exc:
                raise _oserror(s.target, exc) from None


def _target(path_or_target, what: str) -> Target:
    return path_or_target if isinstance(path_or_target, Target) else resolve(path_or_target, what)


def write_outputs(items: Sequence[tuple[Target | str, str | bytes]]) -> None:
    """Write every ``(target, content)`` whole, or none of the regular files at all."""
    made: set[str] = set()  # every temporary file of this call, named before it is made
    staged: list[_Staged] = []
    try:
        for target, content in items:
            target = _target(target, "output")
            data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
            try:
                staged.append(_Staged(target, made, data))
            except OSError as exc:
                raise _oserror(target, exc) from None
        _commit(staged)
    finally:
        remove_temps(made)  # what was not renamed: an error, a KeyboardInterrupt


@contextlib.contextmanager
def atomic_paths(paths: Sequence[Target | str], what: str = "output") -> Iterator[list[str]]:
    """Temporary paths for writers that need a path (LIBSVM's ``svm_save_model``, a picture):
    what is written there becomes each path (by the rules above), all together, when the block
    ends without error; otherwise every temporary is removed and no path is changed."""
    made: set[str] = set()  # every temporary file of this block, named before it is made
    staged: list[_Staged] = []
    try:
        for path in paths:
            target = _target(path, what)
            try:
                staged.append(_Staged(target, made))
            except OSError as exc:
                raise _oserror(target, exc) from None
        yield [_known(s.tmp) for s in staged]
        for s in staged:
            try:
                with open(_known(s.tmp), "rb+") as fh:
                    os.fsync(fh.fileno())
            except OSError as exc:
                raise _oserror(s.target, exc) from None
        _commit(staged)
    finally:
        remove_temps(made)  # what was not renamed: an error, a KeyboardInterrupt


@contextlib.contextmanager
def atomic_path(path: Target | str, what: str = "output") -> Iterator[str]:
    """:func:`atomic_paths` of one path."""
    with atomic_paths([path], what) as (tmp,):
        yield tmp


def atomic_write(path: Target | str, text: str) -> None:
    """Write ``text`` to ``path`` all at once, or not at all."""
    write_outputs([(path, text)])

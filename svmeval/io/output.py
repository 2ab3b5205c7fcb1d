"""Output files: checked before any work, written whole, never over an input.

One mechanism for every output (the report, the predictions, a model file):

* :func:`resolve` looks at where a path leads, without writing anything lasting:

  - ``-`` is standard output; ``/dev/stdout``, ``/dev/fd/N`` and ``/proc/self/fd/N`` are the
    descriptor itself (written as it is, never reopened, so ``>> log`` keeps appending);
  - a FIFO, a character device (``/dev/null``, a terminal) or anything else that is not a
    regular file is opened and written directly: never replaced;
  - a regular file, or a new one, through any symlinks (the link is kept and its target
    written), is written to a temporary file beside it and renamed over it; when the directory
    is not writable but the file is, the whole content is first written to a temporary file
    elsewhere and then copied into the file in place.

  A path whose directory is missing or not writable, that is a directory, or that cannot be
  opened for writing is refused at once, with one line that says why.

* :func:`check_outputs` resolves every output of a run and refuses one that is an input (the
  data file, the predictions file being scored: same inode, whatever the spelling or link) or
  another output of the same run.

* :func:`write_outputs` writes a run's outputs: every regular file to its temporary first, then
  the streams, then every rename, so that a failure anywhere leaves none of them changed (a
  stream already written cannot be taken back, so streams go before the renames).
  :func:`atomic_path` gives LIBSVM, which writes by path, a temporary path to write to.

New files get 0666 less the umask (as ``fopen``); a replaced file keeps its mode (and, where
allowed, its owner), as ``fopen(path, "w")`` would. Temporary names are short
(``.svmeval-XXXXXXXX.tmp``), whatever the length of the file's own name.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import SvmevalError

#: the name of standard output (and input) on the command line
STDOUT = "-"

#: descriptors 0, 1, 2 found closed when the command started (see :func:`guard_standard_streams`)
CLOSED_STREAMS: set[int] = set()

#: Ctrl-C seen by the command's own SIGINT handler (svmeval._entry): a KeyboardInterrupt can
#: be swallowed (a bare except, a weakref callback), so no output is committed after one
INTERRUPTS: list = []

_FD_DIR = re.compile(r"^/proc/(\d+)(?:/task/\d+)?/fd$")


class OutputError(SvmevalError):
    """An output that cannot or must not be written."""


def show(path: str) -> str:
    """A path as messages show it: as given, or escaped when it holds unprintable characters."""
    return path if path.isprintable() else ascii(path)[1:-1]


@dataclass(frozen=True)
class Target:
    """Where one output goes.

    ``kind``: ``"file"`` (a regular file, written by rename), ``"inplace"`` (a regular file in a
    directory svmeval may not write: copied into the file), ``"stream"`` (a FIFO or device,
    opened and written) or ``"fd"`` (a descriptor of this process, written as it is).
    """

    path: str  # as given
    what: str  # "-o", "--predictions", "model file", "standard output"
    kind: str
    real: str | None = None  # file / inplace / stream: the path written (symlinks resolved)
    fd: int | None = None
    identity: tuple | None = None  # (st_dev, st_ino), or ("new", dir dev, dir ino, name)
    is_char_device: bool = False
    exists: bool = False

    @property
    def name(self) -> str:
        return "standard output" if self.path == STDOUT else show(self.path)

    def describe(self) -> str:
        """``-o FILE``, ``--predictions -``, ``the model file FILE``, ``the report``."""
        if self.what.startswith("-"):
            return f"{self.what} {show(self.path)}"
        return self.what if self.path == STDOUT and self.what == "the report" \
            else f"{self.what} {self.name}"


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
        sys.stdin = open(0, "r", closefd=False)


def check_readable_stdin() -> None:
    if 0 in CLOSED_STREAMS:
        raise OutputError("standard input is closed")


def _descriptor_of(path: str) -> int | None:
    """The descriptor a path names (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``), or None."""
    p = os.path.abspath(path)
    for _ in range(40):  # symlink hops, as the kernel allows
        head, name = os.path.split(p)
        head = os.path.realpath(head)
        m = _FD_DIR.match(head)
        if m and int(m.group(1)) == os.getpid() and name.isdigit():
            return int(name)
        full = os.path.join(head, name)
        try:
            link = os.readlink(full)
        except OSError:
            return None  # not a symlink (or not there)
        p = os.path.normpath(os.path.join(head, link))
    return None


def _fail(path: str, reason: str) -> OutputError:
    return OutputError(f"{show(path)}: cannot write: {reason}")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def resolve(path: str, what: str = "output") -> Target:
    """Where ``path`` leads, checked as far as can be without writing anything lasting."""
    path = os.fspath(path)
    if path == "":
        raise OutputError(f"{what}: empty file name")
    if path.endswith("/") and path != STDOUT and not os.path.isdir(path):
        raise _fail(path, os.strerror(errno.EISDIR))
    fd = 1 if path == STDOUT else _descriptor_of(path)
    if fd is not None:
        return _descriptor_target(path, what, fd)
    try:
        st = os.stat(path)  # through every symlink
    except FileNotFoundError:
        st = None
    except OSError as exc:  # ELOOP, ENOTDIR, ENAMETOOLONG, EACCES
        raise _fail(path, _reason(exc)) from None
    if st is None:  # the kernel's view of the directory ("missing/.." has none), not realpath's
        try:
            os.stat(os.path.dirname(path) or ".")
        except OSError as exc:
            raise _fail(path, _reason(exc)) from None
    real = os.path.realpath(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _fail(path, os.strerror(errno.EISDIR))
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise _fail(path, os.strerror(errno.EACCES))
        return Target(path, what, "stream", real=real, identity=(st.st_dev, st.st_ino),
                      is_char_device=stat.S_ISCHR(st.st_mode), exists=True)
    directory, name = os.path.split(real)
    if len(os.fsencode(name)) > 255:
        raise _fail(path, os.strerror(errno.ENAMETOOLONG))
    try:
        dst = os.stat(directory)
    except OSError as exc:
        raise _fail(path, _reason(exc)) from None
    if not stat.S_ISDIR(dst.st_mode):  # pragma: no cover - realpath would have said ENOTDIR
        raise _fail(path, os.strerror(errno.ENOTDIR))
    identity = (st.st_dev, st.st_ino) if st else ("new", dst.st_dev, dst.st_ino, name)
    try:
        _probe(directory)  # can a temporary file be made (and renamed) there?
        kind = "file"
    except OSError as exc:
        if st is None or exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise _fail(path, _reason(exc)) from None
        try:  # the directory is closed, the file itself may be writable
            os.close(os.open(real, os.O_WRONLY | os.O_CLOEXEC))
        except OSError as exc2:
            raise _fail(path, _reason(exc2)) from None
        kind = "inplace"
    return Target(path, what, kind, real=real, identity=identity, exists=st is not None)


def _descriptor_target(path: str, what: str, fd: int) -> Target:
    name = "standard output" if fd == 1 else f"descriptor {fd}"
    if fd in CLOSED_STREAMS:
        raise OutputError(f"{name} is closed" if path == STDOUT
                          else f"{show(path)}: cannot write: {name} is closed")
    try:
        st = os.fstat(fd)
        import fcntl

        if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY:
            raise OSError(errno.EBADF, "not open for writing")
    except OSError as exc:
        raise _fail(path if path != STDOUT else name, _reason(exc)) from None
    return Target(path, what, "fd", fd=fd, identity=(st.st_dev, st.st_ino),
                  is_char_device=stat.S_ISCHR(st.st_mode), exists=True)


def _temp_name() -> str:
    return f".svmeval-{secrets.token_hex(4)}.tmp"


def _new_temp(directory: str) -> str:
    """A new empty file in ``directory`` with fopen's permissions (0666 less the umask)."""
    for _ in range(100):
        tmp = os.path.join(directory, _temp_name())
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
            return tmp
        except FileExistsError:  # pragma: no cover - 32 random bits
            continue
    raise OSError(errno.EEXIST, "cannot make a temporary file")  # pragma: no cover


def _probe(directory: str) -> None:
    tmp = _new_temp(directory)
    os.unlink(tmp)


def input_identity(path: str) -> tuple | None:
    """(st_dev, st_ino) of an input file (``-``: whatever standard input is), or None."""
    try:
        st = os.fstat(0) if path == STDOUT else os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) and path != STDOUT:
        return None  # a FIFO or device is read, never written: no clash to fear
    return (st.st_dev, st.st_ino)


def check_outputs(outputs: Sequence[tuple[str, str]],
                  inputs: Sequence[tuple[str, str]] = ()) -> list[Target]:
    """Resolve each ``(what, path)`` output; refuse one that is an input or another output.

    ``inputs``: ``(what, path)`` of the files the run reads (``"the data file"``, ...).
    Two outputs may share only a character device (``/dev/null``, a terminal).
    """
    targets = [resolve(path, what) for what, path in outputs]
    for what, path in inputs:
        key = input_identity(path)
        if key is None:
            continue
        shown = "(standard input)" if path == STDOUT else show(path)
        for t in targets:
            if t.identity == key:
                raise OutputError(f"{t.describe()} is {what} {shown}: "
                                  "refusing to write over an input")
    for i, a in enumerate(targets):
        for b in targets[:i]:
            same_fd = a.fd is not None and a.fd == b.fd
            same_file = a.identity == b.identity and not (a.is_char_device and b.is_char_device)
            if same_fd or same_file:
                where = "standard output" if same_fd and a.fd == 1 else "the same file"
                raise OutputError(f"{b.describe()} and {a.describe()} both go to {where}: "
                                  "give each output its own")
    return targets


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


class _Staged:
    """One output on its way: its temporary file (regular files) or its bytes (streams)."""

    def __init__(self, target: Target, data: bytes | None = None):
        self.target = target
        self.tmp: str | None = None
        self.data = data
        if target.kind == "file":
            self.tmp = _new_temp(os.path.dirname(target.real))
            if data is not None:
                try:
                    _write_file(self.tmp, data)
                except BaseException:
                    self.discard()
                    raise
        elif data is None:  # a writer that needs a path: a temporary file elsewhere, copied
            fd, self.tmp = tempfile.mkstemp(prefix=".svmeval-", suffix=".tmp")
            os.close(fd)

    def finish_file(self) -> None:
        """After the content is in ``tmp``: give it the mode a replaced file had."""
        t = self.target
        if t.kind != "file" or not t.exists:
            return
        try:
            st = os.stat(t.real)
        except OSError:
            return  # gone meanwhile: a new file, fopen's permissions
        os.chmod(self.tmp, stat.S_IMODE(st.st_mode) & 0o777)
        with contextlib.suppress(OSError):
            os.chown(self.tmp, st.st_uid, st.st_gid)

    def deliver(self) -> None:
        """Streams and in-place files: copy the temporary's bytes where they go."""
        t = self.target
        if t.kind == "file":
            return
        data = self.data
        if data is None:
            with open(self.tmp, "rb") as fh:
                data = fh.read()
        if t.kind == "fd":
            import sys

            with contextlib.suppress(Exception):
                sys.stdout.flush()
            _write_all(t.fd, data)
        elif t.kind == "stream":
            fd = os.open(t.real, os.O_WRONLY | os.O_CLOEXEC)
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
        else:  # inplace
            _write_file(t.real, data)

    def rename(self) -> None:
        if self.target.kind == "file":
            os.rename(self.tmp, self.target.real)
            self.tmp = None

    def discard(self) -> None:
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None


def _oserror(target: Target, exc: OSError) -> OutputError:
    if isinstance(exc, BrokenPipeError) and target.kind == "fd":
        raise exc  # the reader went away: the command line ends quietly
    return _fail(target.path if target.path != STDOUT else "standard output", _reason(exc))


@contextlib.contextmanager
def _no_interrupt():
    """Hold Ctrl-C off (main thread) while renames run, so they run all or none."""
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
    staged: list[_Staged] = []
    try:
        for target, content in items:
            target = _target(target, "output")
            data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
            try:
                staged.append(_Staged(target, data))
            except OSError as exc:
                raise _oserror(target, exc) from None
        _commit(staged)
    finally:
        for s in staged:
            s.discard()


@contextlib.contextmanager
def atomic_path(path: Target | str, what: str = "output") -> Iterator[str]:
    """A temporary path for a writer that needs a path (LIBSVM's ``svm_save_model``): what is
    written there becomes ``path`` (by the rules above) when the block ends without error,
    and is removed otherwise."""
    target = _target(path, what)
    try:
        s = _Staged(target)
    except OSError as exc:
        raise _oserror(target, exc) from None
    try:
        yield s.tmp
        try:
            with open(s.tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        except OSError as exc:
            raise _oserror(target, exc) from None
        _commit([s])
    finally:
        s.discard()


def atomic_write(path: Target | str, text: str) -> None:
    """Write ``text`` to ``path`` all at once, or not at all."""
    write_outputs([(path, text)])

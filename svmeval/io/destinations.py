"""Where outputs go, checked before any work: never over an input, never two in one place.

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

:mod:`svmeval.io.output` writes to the targets resolved here.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass

from svmeval.errors import SvmevalError

#: the name of standard output (and input) on the command line
STDOUT = "-"

#: descriptors 0, 1, 2 found closed when the command started (see :func:`guard_standard_streams`)
CLOSED_STREAMS: set[int] = set()

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
        return (
            self.what
            if self.path == STDOUT and self.what == "the report"
            else f"{self.what} {self.name}"
        )


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


def cannot_write(path: str, reason: str) -> OutputError:
    return OutputError(f"{show(path)}: cannot write: {reason}")


def reason_of(exc: OSError) -> str:
    return exc.strerror or str(exc)


def resolve(path: str, what: str = "output") -> Target:
    """Where ``path`` leads, checked as far as can be without writing anything lasting."""
    path = os.fspath(path)
    if path == "":
        raise OutputError(f"{what}: empty file name")
    if path.endswith("/") and path != STDOUT and not os.path.isdir(path):
        raise cannot_write(path, os.strerror(errno.EISDIR))
    fd = 1 if path == STDOUT else _descriptor_of(path)
    if fd is not None:
        return _descriptor_target(path, what, fd)
    try:
        st = os.stat(path)  # through every symlink
    except FileNotFoundError:
        st = None
    except OSError as exc:  # ELOOP, ENOTDIR, ENAMETOOLONG, EACCES
        raise cannot_write(path, reason_of(exc)) from None
    if st is None:  # the kernel's view of the directory ("missing/.." has none), not realpath's
        try:
            os.stat(os.path.dirname(path) or ".")
        except OSError as exc:
            raise cannot_write(path, reason_of(exc)) from None
    real = os.path.realpath(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise cannot_write(path, os.strerror(errno.EISDIR))
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise cannot_write(path, os.strerror(errno.EACCES))
        return Target(
            path,
            what,
            "stream",
            real=real,
            identity=(st.st_dev, st.st_ino),
            is_char_device=stat.S_ISCHR(st.st_mode),
            exists=True,
        )
    directory, name = os.path.split(real)
    if len(os.fsencode(name)) > 255:
        raise cannot_write(path, os.strerror(errno.ENAMETOOLONG))
    try:
        dst = os.stat(directory)
    except OSError as exc:
        raise cannot_write(path, reason_of(exc)) from None
    if not stat.S_ISDIR(dst.st_mode):  # pragma: no cover - realpath would have said ENOTDIR
        raise cannot_write(path, os.strerror(errno.ENOTDIR))
    identity = (st.st_dev, st.st_ino) if st else ("new", dst.st_dev, dst.st_ino, name)
    try:
        _probe(directory)  # can a temporary file be made (and renamed) there?
        kind = "file"
    except OSError as exc:
        if st is None or exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise cannot_write(path, reason_of(exc)) from None
        try:  # the directory is closed, the file itself may be writable
            os.close(os.open(real, os.O_WRONLY | os.O_CLOEXEC))
        except OSError as exc2:
            raise cannot_write(path, reason_of(exc2)) from None
        kind = "inplace"
    return Target(path, what, kind, real=real, identity=identity, exists=st is not None)


def _descriptor_target(path: str, what: str, fd: int) -> Target:
    name = "standard output" if fd == 1 else f"descriptor {fd}"
    if fd in CLOSED_STREAMS:
        raise OutputError(
            f"{name} is closed"
            if path == STDOUT
            else f"{show(path)}: cannot write: {name} is closed"
        )
    try:
        st = os.fstat(fd)
        import fcntl

        if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY:
            raise OSError(errno.EBADF, "not open for writing")
    except OSError as exc:
        raise cannot_write(path if path != STDOUT else name, reason_of(exc)) from None
    return Target(
        path,
        what,
        "fd",
        fd=fd,
        identity=(st.st_dev, st.st_ino),
        is_char_device=stat.S_ISCHR(st.st_mode),
        exists=True,
    )


def _temp_name() -> str:
    import secrets  # with hmac and hashlib: imported by a run that writes a file

    return f".svmeval-{secrets.token_hex(4)}.tmp"


#: temporary files made and not yet renamed or removed, each named here before it is made: a
#: Ctrl-C can come between two lines of Python anywhere, and the commands' launcher removes these
#: before it exits (svmeval.cli.__main__)
TEMPORARIES: set[str] = set()


def new_temp(directory: str, mode: int = 0o666, made: set[str] | None = None) -> str:
    """A new empty file in ``directory`` (by default with fopen's permissions: 0666 less the
    umask), in :data:`TEMPORARIES` until :func:`remove_temp` or :func:`renamed_temp`.

    ``made``: the caller's own record, which it removes when it is done (:func:`remove_temps`).
    The name is recorded before the file is made and stays recorded unless making it failed: a
    KeyboardInterrupt raised anywhere in here (after ``os.open`` made the file, before this
    returns) leaves a name whose file, if made, its owner removes.
    """
    for _ in range(100):
        tmp = os.path.join(directory, _temp_name())
        TEMPORARIES.add(tmp)
        if made is not None:
            made.add(tmp)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
        except OSError as exc:  # nothing made (FileExistsError: someone else's file)
            TEMPORARIES.discard(tmp)
            if made is not None:
                made.discard(tmp)
            if isinstance(exc, FileExistsError):  # pragma: no cover - 32 random bits
                continue
            raise
        os.close(fd)
        return tmp
    raise OSError(errno.EEXIST, "cannot make a temporary file")  # pragma: no cover


def remove_temp(tmp: str) -> None:
    """Remove a temporary file of :func:`new_temp` (already gone: nothing to do)."""
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    TEMPORARIES.discard(tmp)


def renamed_temp(tmp: str, path: str) -> None:
    """Rename a temporary file of :func:`new_temp` to ``path``."""
    os.rename(tmp, path)
    TEMPORARIES.discard(tmp)


def remove_temps(made: set[str]) -> None:
    """Remove every temporary file of ``made`` (a caller's record, see :func:`new_temp`) not yet
    renamed or removed; errors are ignored (what cannot be removed is reported by nobody)."""
    for tmp in list(made):
        try:
            remove_temp(tmp)
        except OSError:
            pass
        made.discard(tmp)


def remove_temporaries() -> None:
    """Remove every temporary file not yet renamed or removed (a command interrupted)."""
    remove_temps(TEMPORARIES)


def _probe(directory: str) -> None:
    made: set[str] = set()
    try:
        new_temp(directory, made=made)
    finally:
        remove_temps(made)


def input_identity(path: str) -> tuple | None:
    """(st_dev, st_ino) of an input file (``-``: whatever standard input is), or None."""
    try:
        st = os.fstat(0) if path == STDOUT else os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) and path != STDOUT:
        return None  # a FIFO or device is read, never written: no clash to fear
    return (st.st_dev, st.st_ino)


def check_outputs(
    outputs: Sequence[tuple[str, str]], inputs: Sequence[tuple[str, str]] = ()
) -> list[Target]:
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
                raise OutputError(
                    f"{t.describe()} is {what} {shown}: refusing to write over an input"
                )
    for i, a in enumerate(targets):
        for b in targets[:i]:
            same_fd = a.fd is not None and a.fd == b.fd
            same_file = a.identity == b.identity and not (a.is_char_device and b.is_char_device)
            if same_fd or same_file:
                where = "standard output" if same_fd and a.fd == 1 else "the same file"
                raise OutputError(
                    f"{b.describe()} and {a.describe()} both go to {where}: "
                    "give each output its own"
                )
    return targets

"""Output never destroys input and goes where the user pointed: refusals before any work,
symlinks written through, devices and FIFOs written directly, fopen's permissions, all outputs
of a run whole or none, and nothing left behind. The oracles are the file system itself
(os.stat, file contents before and after) and files written the ordinary way (open())."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmeval.io import output
from svmeval.io.output import OutputError

import commands
from conftest import ROOT

SMALL = ROOT / "data" / "breast_cancer.scale"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def svmeval(*args, cwd=None, stdin=None, stdout=subprocess.PIPE, preexec_fn=None, umask=None):
    if preexec_fn is None:  # nothing only a child process can do: the command in-process
        return commands.run("svmeval", args, cwd=cwd, stdin=stdin, stdout=stdout, umask=umask)

    def pre():
        if umask is not None:
            os.umask(umask)
        if preexec_fn:
            preexec_fn()

    return subprocess.run(
        [sys.executable, "-m", "svmeval", *map(str, args)],
        cwd=cwd,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=pre,
        env=ENV,
    )


def digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def listing(directory) -> list[str]:
    return sorted(p.name for p in Path(directory).iterdir())


def one_line_error(done, text: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


@pytest.fixture
def work(tmp_path):
    data = tmp_path / "data.txt"
    shutil.copy(SMALL, data)
    return tmp_path, data


@pytest.fixture(scope="module")
def stdout_report():
    done = svmeval("-q", "-v", "5", SMALL)
    assert done.returncode == 0
    return done.stdout


# --- never over an input -------------------------------------------------------------------
SPELLINGS = [
    "data.txt",
    "./data.txt",
    "../{dir}/data.txt",
    "{abs}",
    "sub/../data.txt",
    "link-to-data",
    "hardlink-to-data",
    ".//data.txt",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("flag", ["-o", "--predictions", "model"])
def test_an_output_that_is_the_data_file_is_refused(work, spelling, flag):
    tmp, data = work
    (tmp / "sub").mkdir()
    os.symlink("data.txt", tmp / "link-to-data")
    os.link(data, tmp / "hardlink-to-data")
    before, names = digest(data), listing(tmp)
    path = spelling.format(dir=tmp.name, abs=data)
    args = (
        ["-q", "data.txt", path] if flag == "model" else ["-q", "-v", "5", "data.txt", flag, path]
    )
    done = svmeval(*args, cwd=tmp)
    one_line_error(done, "is the data file data.txt: refusing to write over an input")
    assert digest(data) == before and listing(tmp) == names


def test_the_scored_predictions_file_is_not_an_output(work):
    tmp, data = work
    pred = tmp / "pred"
    assert svmeval("-q", "-v", "5", data, "--predictions", pred).returncode == 0
    before = digest(pred)
    done = svmeval("--score", pred, data, "-o", tmp / "." / "pred")
    one_line_error(done, "is the predictions file")
    assert digest(pred) == before


def test_data_from_standard_input_is_not_an_output_either(work):
    tmp, data = work
    before = digest(data)
    with open(data) as fh:
        done = svmeval("-q", "-v", "5", "-", "-o", data, stdin=fh)
    one_line_error(done, "is the data file (standard input)")
    assert digest(data) == before


def test_two_outputs_of_one_run_may_not_be_one_file(work):
    tmp, data = work
    os.symlink("r", tmp / "r-link")
    for other in ("r", "./r", "r-link"):
        done = svmeval("-q", "-v", "5", data, "-o", "r", "--predictions", other, cwd=tmp)
        one_line_error(done, "both go to the same file")
        assert listing(tmp) == ["data.txt", "r-link"]


def test_predictions_on_stdout_need_the_report_elsewhere(work):
    tmp, data = work
    done = svmeval("-q", "-v", "5", data, "--predictions", "-")
    one_line_error(done, "both go to standard output")
    done = svmeval("-q", "-v", "5", data, "--predictions", "-", "-o", tmp / "r")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(data.read_text().splitlines())  # one prediction a sample
    assert {float(v) for v in lines} <= {1.0, -1.0}
    assert (tmp / "r").read_text().startswith("Cross Validation Accuracy = ")


def test_outputs_are_checked_before_the_data_are_read(work):
    """An output that cannot be written is refused before any work: even a data file that
    fails at its last line is never read."""
    tmp, data = work
    with open(data, "a") as fh:
        fh.write("1 1:abc\n")
    for flag, path in (("-o", tmp / "no" / "r"), ("--predictions", tmp), ("-o", "/dev/full/x")):
        done = svmeval("-q", "-v", "5", data, flag, path)
        assert done.returncode == 1 and "cannot write" in done.stderr, done.stderr
        assert "abc" not in done.stderr
    assert listing(tmp) == ["data.txt"]


@pytest.mark.parametrize(
    "path, reason",
    [
        ("missing/r.txt", "No such file or directory"),
        ("data.txt/r.txt", "Not a directory"),
        (".", "Is a directory"),
        ("newdir/", "Is a directory"),
        ("x" * 256, "File name too long"),
        ("loop", "Too many levels of symbolic links"),
    ],
)
def test_unwritable_paths_say_why(work, path, reason):
    tmp, data = work
    os.symlink("loop", tmp / "loop")
    done = svmeval("-q", "-v", "5", "data.txt", "-o", path, cwd=tmp)
    one_line_error(done, reason)
    assert listing(tmp) == ["data.txt", "loop"]


# --- where the user pointed ----------------------------------------------------------------
def test_dev_null_is_written_not_replaced(work):
    """Run as root, a rename over /dev/null would replace the device node by a regular file."""
    tmp, data = work
    before = os.stat("/dev/null")
    for args in (
        ["-q", "-v", "5", data, "-o", "/dev/null", "--predictions", "/dev/null"],
        ["-q", data, "/dev/null"],
    ):
        done = svmeval(*args)
        assert done.returncode == 0 and done.stdout == "", done.stderr
        after = os.stat("/dev/null")
        assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
        assert after.st_ino == before.st_ino


def test_dev_full_is_an_error_and_nothing_is_left(work):
    tmp, data = work
    done = svmeval("-q", "-v", "5", data, "-o", "/dev/full", "--predictions", tmp / "p")
    one_line_error(done, "/dev/full: cannot write: No space left on device")
    with open("/dev/full", "w") as full:
        done = svmeval("-q", "-v", "5", data, "--predictions", tmp / "p", stdout=full)
    one_line_error(done, "standard output: cannot write: No space left on device")
    done = svmeval("-q", data, "/dev/full")
    one_line_error(done, "No space left on device")
    assert listing(tmp) == ["data.txt"]  # the predictions went with the report: neither


def test_symlink_is_written_through_and_kept(work, stdout_report):
    tmp, data = work
    (tmp / "target").write_text("old\n")
    os.symlink("target", tmp / "link")
    os.symlink("made-through-link", tmp / "dangling")
    assert svmeval("-q", "-v", "5", data, "-o", tmp / "link").returncode == 0
    assert os.readlink(tmp / "link") == "target"
    assert (tmp / "target").read_text() == stdout_report
    assert svmeval("-q", "-v", "5", data, "-o", tmp / "dangling").returncode == 0
    assert os.path.islink(tmp / "dangling")
    assert (tmp / "made-through-link").read_text() == stdout_report


def test_fifo_is_written_directly(work, stdout_report):
    tmp, data = work
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    done = svmeval("-q", "-v", "5", data, "-o", fifo)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert got == [stdout_report]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_stdout_appends_where_the_shell_appends(work, stdout_report):
    tmp, data = work
    log = tmp / "log"
    log.write_text("earlier line\n")
    with open(log, "a") as fh:
        done = svmeval("-q", "-v", "5", data, "-o", "/dev/stdout", stdout=fh)
    assert done.returncode == 0, done.stderr
    assert log.read_text() == "earlier line\n" + stdout_report


def test_model_file_dash_is_standard_output(work):
    tmp, data = work
    assert svmeval("-q", data, tmp / "m").returncode == 0
    done = svmeval("-q", data, "-")
    assert done.returncode == 0 and done.stdout == (tmp / "m").read_text()
    assert listing(tmp) == ["data.txt", "m"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_new_files_get_fopens_permissions(work, umask):
    """The oracle: a file made by open(..., "w") (fopen's 0666) under the same umask."""
    tmp, data = work
    done = svmeval("-q", "-v", "5", data, "-o", tmp / "r", "--predictions", tmp / "p", umask=umask)
    assert done.returncode == 0, done.stderr
    assert svmeval("-q", data, tmp / "m", umask=umask).returncode == 0
    subprocess.run(
        [sys.executable, "-c", f"open({str(tmp / 'oracle')!r}, 'w')"],
        preexec_fn=lambda: os.umask(umask),
        check=True,
    )
    mode = stat.S_IMODE(os.stat(tmp / "oracle").st_mode)
    for name in ("r", "p", "m"):
        assert stat.S_IMODE(os.stat(tmp / name).st_mode) == mode, name


def test_a_replaced_file_keeps_its_mode(work, stdout_report):
    tmp, data = work
    for name in ("r", "m"):
        (tmp / name).write_text("old\n")
        os.chmod(tmp / name, 0o640)
    assert svmeval("-q", "-v", "5", data, "-o", tmp / "r").returncode == 0
    assert svmeval("-q", data, tmp / "m").returncode == 0
    for name in ("r", "m"):
        assert stat.S_IMODE(os.stat(tmp / name).st_mode) == 0o640
    assert (tmp / "r").read_text() == stdout_report
    assert (tmp / "m").read_text().startswith("svm_type c_svc\n")


def test_a_long_file_name_gets_a_temporary_that_fits(work, stdout_report):
    tmp, data = work
    name = "r" * 255  # NAME_MAX: no room for a prefix or suffix
    for args in (
        ["-q", "-v", "5", data, "-o", name, "--predictions", "p" * 255],
        ["-q", data, "m" * 255],
    ):
        done = svmeval(*args, cwd=tmp)
        assert done.returncode == 0, done.stderr
    assert (tmp / name).read_text() == stdout_report
    assert listing(tmp) == sorted(["data.txt", "m" * 255, "p" * 255, name])


# --- a directory only the file itself may be written in ------------------------------------
@contextlib.contextmanager
def closed_to_writers(path: Path):
    """Make ``path`` unwritable for this user: chmod, or, for root (whom permissions do not
    stop), the immutable attribute."""
    if os.geteuid() != 0:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        os.chmod(path, mode & ~0o222)
        try:
            yield
        finally:
            os.chmod(path, mode)
        return
    if (
        shutil.which("chattr") is None
        or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0
    ):
        pytest.skip("root ignores permissions and this file system has no immutable attribute")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_closed_directory_writable_file_is_written_in_place(work, stdout_report):
    tmp, data = work
    report = tmp / "report.txt"
    report.write_text("old\n")
    os.chmod(report, 0o640)
    with closed_to_writers(tmp):
        done = svmeval("-q", "-v", "5", data, "-o", report)
        assert done.returncode == 0, done.stderr
        assert report.read_text() == stdout_report
        assert stat.S_IMODE(os.stat(report).st_mode) == 0o640
        # a new file cannot be made there: refused before any work
        done = svmeval("-q", "-v", "5", data, "-o", tmp / "new")
        assert done.returncode == 1 and "cannot write" in done.stderr, done.stderr
        # nor can a file that is closed too
        with closed_to_writers(report):
            done = svmeval("-q", "-v", "5", data, "-o", report, "-c", "2")
            assert done.returncode == 1 and "cannot write" in done.stderr, done.stderr
    assert report.read_text() == stdout_report
    assert listing(tmp) == ["data.txt", "report.txt"]


# --- the mechanism itself, in-process ------------------------------------------------------
def test_all_outputs_or_none(tmp_path):
    a = tmp_path / "a"
    a.write_text("old a\n")
    with pytest.raises(OutputError, match="No space left on device"):
        output.write_outputs(
            [(str(a), "new a\n"), ("/dev/full", "b\n"), (str(tmp_path / "c"), "c")]
        )
    assert a.read_text() == "old a\n" and listing(tmp_path) == ["a"]
    output.write_outputs([(str(a), "new a\n"), (str(tmp_path / "c"), "c")])
    assert a.read_text() == "new a\n" and (tmp_path / "c").read_text() == "c"


def test_atomic_path_leaves_nothing_when_the_writer_fails(tmp_path):
    target = tmp_path / "m"
    with pytest.raises(RuntimeError):
        with output.atomic_path(str(target)) as tmp:
            Path(tmp).write_text("half")
            raise RuntimeError
    assert listing(tmp_path) == []
    with output.atomic_path(str(target)) as tmp:
        Path(tmp).write_text("whole")
    assert target.read_text() == "whole" and listing(tmp_path) == ["m"]


NAMES = st.sampled_from(
    [
        "data",
        "out",
        "link",
        "dangling",
        "loop",
        "sub",
        "..",
        ".",
        "",
        "x" * 255,
        "x" * 256,
        "new\nline",
        "dev-null",
        "fifo",
    ]
)


@pytest.fixture(scope="module")
def maze(tmp_path_factory):
    """A directory with every kind of thing an output path can meet."""
    root = tmp_path_factory.mktemp("maze")
    (root / "data").write_text("1 1:1\n")
    (root / "out").write_text("old\n")
    (root / "sub").mkdir()
    os.symlink("data", root / "link")
    os.symlink("nowhere", root / "dangling")
    os.symlink("loop", root / "loop")
    os.symlink("/dev/null", root / "dev-null")
    os.mkfifo(root / "fifo")
    return root


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    parts=st.lists(NAMES, min_size=1, max_size=4),
    second=st.lists(NAMES, min_size=1, max_size=3),
    absolute=st.booleans(),
)
def test_output_checks_never_crash_never_pass_an_input_and_leave_nothing(
    maze, parts, second, absolute
):
    before = {p: os.lstat(p) for p in maze.rglob("*")}
    data_key = (os.stat(maze / "data").st_dev, os.stat(maze / "data").st_ino)
    first = str(maze.joinpath(*parts)) if absolute else os.path.join(*parts)
    other = str(maze.joinpath(*second))
    with contextlib.chdir(maze) if hasattr(contextlib, "chdir") else _chdir(maze):
        try:
            targets = output.check_outputs(
                [("-o", first), ("--predictions", other)], [("the data file", "data")]
            )
        except OutputError as exc:
            assert "\n" not in str(exc)
        else:
            for t in targets:
                assert t.identity != data_key
                assert t.kind in ("file", "stream", "inplace", "fd")
                if t.kind == "file":  # a regular file, or none yet: never a device or a FIFO
                    assert not os.path.exists(t.real) or stat.S_ISREG(os.stat(t.real).st_mode)
            assert targets[0].identity != targets[1].identity or targets[0].is_char_device
    after = {p: os.lstat(p) for p in maze.rglob("*")}
    assert after.keys() == before.keys()
    assert all(after[p].st_mtime_ns == before[p].st_mtime_ns for p in after if not p.is_dir())


@contextlib.contextmanager
def _chdir(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def test_nothing_is_committed_after_a_ctrl_c_someone_swallowed(tmp_path, monkeypatch):
    """A KeyboardInterrupt can be swallowed (a bare except, a weakref callback): once the
    command's handler has seen Ctrl-C, no output is committed."""
    monkeypatch.setattr(output, "INTERRUPTS", [signal.SIGINT])
    with pytest.raises(KeyboardInterrupt):
        output.write_outputs([(str(tmp_path / "r"), "report")])
    with pytest.raises(KeyboardInterrupt):
        with output.atomic_path(str(tmp_path / "m")) as tmp:
            Path(tmp).write_text("model")
    assert listing(tmp_path) == []


class _InterruptedAfter:
    """``os`` for svmeval's output modules, except that the ``n``-th call of ``name`` does its
    work and then raises KeyboardInterrupt: a Ctrl-C the instant after that system call, before
    Python hands its result back (where CPython checks for signals after a call)."""

    def __init__(self, name: str, n: int):
        self.name, self.n, self.calls = name, n, 0

    def __getattr__(self, attribute):
        real = getattr(os, attribute)
        if attribute != self.name:
            return real

        def call(*args, **kwargs):
            result = real(*args, **kwargs)
            self.calls += 1
            if self.calls == self.n:
                raise KeyboardInterrupt
            return result

        return call


# the output's check makes (and removes) a probe in its directory, then the output is staged:
# open/close 1 are the probe's, 2 the staged file's; write_outputs writes the staged file itself
# (write, fsync), atomic_path syncs what the caller wrote there (fsync)
CALLS = [("open", 1), ("close", 1), ("open", 2), ("close", 2), ("fsync", 1)]


@pytest.mark.parametrize(
    "writer, name, n",
    [("write_outputs", *c) for c in [*CALLS, ("write", 1)]] + [("atomic_path", *c) for c in CALLS],
)
def test_ctrl_c_at_any_system_call_of_a_temporary_file_leaves_none(
    tmp_path, monkeypatch, writer, name, n
):
    """In any process (no command's handler, no clean-up at exit): a KeyboardInterrupt just
    after a temporary file is made, closed or written comes out of the call, and no temporary
    file is left behind, the output not written."""
    from svmeval.io import destinations

    interrupting = _InterruptedAfter(name, n)
    monkeypatch.setattr(destinations, "os", interrupting)
    monkeypatch.setattr(output, "os", interrupting)
    before = set(destinations.TEMPORARIES)
    with pytest.raises(KeyboardInterrupt):
        if writer == "write_outputs":
            output.write_outputs([(str(tmp_path / "r"), "report")])
        else:
            with output.atomic_path(str(tmp_path / "m")) as tmp:
                Path(tmp).write_text("model")
    assert interrupting.calls == n
    assert listing(tmp_path) == []
    assert destinations.TEMPORARIES == before

"""Versions: ``--version`` of every command, the release recorded in CHANGELOG.md and in the
package's metadata, and the Dask workers' check that they run this very build of svmeval.

The oracles: the installed distribution's metadata (``importlib.metadata``, written by the
build from pyproject.toml), CHANGELOG.md, SHA-256 of source trees that differ in one byte, and
a Dask worker whose svmeval reads another tree of sources.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from svmeval import _version
from svmeval.cv.run import cluster, workers

import commands
from conftest import ROOT

#: each program, and the command of tests/commands.py that runs it in this process
MODULES = {"svmeval": "svmeval", "svmeval-grid": "grid", "svmeval-compare": "compare"}


def run(prog: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return commands.run(MODULES[prog], args, **kwargs)


# --- --version ----------------------------------------------------------------------------------
@pytest.mark.parametrize("prog", list(MODULES))
def test_version_prints_the_installed_version_and_exits_0(prog, tmp_path):
    done = run(prog, "--version", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"{prog} {importlib.metadata.version('svmeval')}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("prog", list(MODULES))
def test_version_wins_over_everything_after_it_but_not_over_help_before_it(prog, tmp_path):
    version = f"{prog} {importlib.metadata.version('svmeval')}\n"
    later = run(prog, "--version", "--no-such-option", "no-such-file", cwd=tmp_path)
    assert (later.returncode, later.stdout, later.stderr) == (0, version, "")
    helped = run(prog, "--help", "--version", cwd=tmp_path)
    assert helped.returncode == 0 and helped.stdout.startswith(f"Usage: {prog} ")
    assert "--version : show svmeval's version\n" in helped.stdout


def test_version_as_an_option_value_or_with_a_value_is_not_a_request(tmp_path):
    as_value = run("svmeval", "-d", "--version", "x", cwd=tmp_path)
    assert as_value.returncode == 1
    assert as_value.stderr.startswith("svmeval: option -d: '--version' is not an integer\n")
    with_value = run("svmeval-grid", "--version=1", "x", cwd=tmp_path)
    assert (with_value.returncode, with_value.stdout) == (1, "")
    assert with_value.stderr == "svmeval-grid: option --version takes no value\n"
    after_dashes = run("svmeval-compare", "x", "--", "--version", "--", "-c", "2", cwd=tmp_path)
    assert after_dashes.returncode == 1 and after_dashes.stdout == ""
    assert after_dashes.stderr.startswith("svmeval-compare: A options: ")


def test_version_to_a_full_stdout_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "svmeval", "--version"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr == "svmeval: standard output: cannot write: No space left on device\n"


def test_the_package_the_metadata_and_the_changelog_name_one_release():
    import svmeval

    assert svmeval.__version__ == _version.__version__ == importlib.metadata.version("svmeval")
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", svmeval.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^]]+)\]", changelog, re.MULTILINE)
    assert releases[0] in ("Unreleased", svmeval.__version__)
    dated = re.search(
        rf"^## \[{re.escape(svmeval.__version__)}\] - [0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}$",
        changelog,
        re.MULTILINE,
    )
    if dated is None:  # the release being made: its section still "Unreleased", on top
        newest = max(tuple(map(int, r.split("."))) for r in releases if r != "Unreleased")
        assert releases[0] == "Unreleased"
        assert tuple(map(int, svmeval.__version__.split("."))) > newest


# --- the digest of the sources ------------------------------------------------------------------
def _copy_sources(directory: Path) -> Path:
    """svmeval's Python sources (only them) copied under ``directory``/svmeval."""
    target = directory / "svmeval"
    for path in Path(_version.PACKAGE_DIR).rglob("*.py"):
        out = target / path.relative_to(Path(_version.PACKAGE_DIR))
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)
    return target


def _digest_in_a_fresh_process(package_parent: Path) -> str:
    code = "from svmeval._version import source_digest; print(source_digest())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=package_parent,
    )  # the copy is imported from cwd
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_digest_is_the_sources_not_the_place(tmp_path):
    copy = _copy_sources(tmp_path)
    assert _version.digest_of(copy) == _version.source_digest()
    assert _digest_in_a_fresh_process(tmp_path) == _version.source_digest()


def test_one_byte_of_one_source_changes_the_digest(tmp_path):
    copy = _copy_sources(tmp_path)
    module = copy / "metrics" / "counting.py"
    module.write_bytes(module.read_bytes() + b"\n")
    changed = _digest_in_a_fresh_process(tmp_path)
    assert changed != _version.source_digest()
    assert changed == _version.digest_of(copy)
    module.rename(copy / "metrics" / "counting2.py")  # the same bytes under another name
    assert _version.digest_of(copy) not in (changed, _version.source_digest())


def test_the_digest_is_sha256_of_names_and_bytes(tmp_path):
    (tmp_path / "sub").mkdir()
    files = {"b.py": b"x = 1\n", "sub/a.py": b"", "a.py": b"import sub\n", "c.txt": b"no"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    import hashlib

    expected = hashlib.sha256()
    for name in ("a.py", "b.py", "sub/a.py"):  # the .py files, in path order
        data = files[name]
        expected.update(f"{len(name)}:{name}{len(data)}:".encode() + data)
    assert _version.digest_of(tmp_path) == expected.hexdigest()


# --- the Dask workers' check --------------------------------------------------------------------
class _Client:
    """A client whose workers answer ``worker_version`` with ``answers``."""

    def __init__(self, answers: dict):
        self.answers = answers

    def wait_for_workers(self, n, timeout):
        pass

    def run(self, function):
        assert function is workers.worker_version
        return dict(self.answers)


def test_workers_of_this_build_pass():
    ours = workers.worker_version()
    assert ours == (_version.__version__, _version.source_digest())
    answers = {"tcp://127.0.0.1:1": ours, "tcp://127.0.0.1:2": list(ours)}
    assert cluster.check_workers(_Client(answers), "tcp://s:1") == {w: ours for w in answers}


@pytest.mark.parametrize(
    "answer,words",
    [
        (
            ("0.2.0", None),
            "runs svmeval 0.2.0, this is {v}: install the same version on every worker",
        ),
        ("0.1.0", "runs svmeval 0.1.0, this is {v}: install the same version on every worker"),
        (
            (None, "0" * 64),
            "runs another build of svmeval {v} (sources 000000000000, here {d}): "
            "install the same build on every worker",
        ),
    ],
)
def test_a_worker_of_another_build_is_refused_in_one_line(answer, words):
    version, digest = _version.__version__, _version.source_digest()
    if isinstance(answer, tuple):
        answer = (answer[0] or version, answer[1] or digest)
    client = _Client({"tcp://127.0.0.1:1": (version, digest), "tcp://127.0.0.1:2": answer})
    with pytest.raises(cluster.ClusterError) as caught:
        cluster.check_workers(client, "tcp://s:1")
    message = str(caught.value)
    assert message == (
        "the Dask worker tcp://127.0.0.1:2 at tcp://s:1 " + words.format(v=version, d=digest[:12])
    )
    assert "\n" not in message


def test_a_real_worker_reading_other_sources_is_refused(tmp_path):
    distributed = pytest.importorskip("distributed")
    copy = _copy_sources(tmp_path / "other")
    module = copy / "stats" / "significance.py"
    module.write_bytes(module.read_bytes() + b"# another build\n")
    preload = tmp_path / "preload_other_build.py"
    preload.write_text(
        textwrap.dedent(f"""\
        from pathlib import Path
        import svmeval._version as version
        version.PACKAGE_DIR = Path({str(copy)!r})  # this worker's svmeval: the other sources
        version.source_digest.cache_clear()
        """)
    )
    with (
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
            preload=[str(preload)],
        ) as local,
        distributed.Client(local, timeout=60) as client,
    ):
        with pytest.raises(cluster.ClusterError) as caught:
            cluster.check_workers(client, "the test's cluster", timeout=60)
        (worker,) = client.scheduler_info()["workers"]
    assert str(caught.value) == (
        f"the Dask worker {worker} at the test's cluster runs another build of svmeval "
        f"{_version.__version__} (sources {_version.digest_of(copy)[:12]}, here "
        f"{_version.source_digest()[:12]}): install the same build on every worker"
    )

"""The documentation builds and says what the code does.

* The whole site builds with ``sphinx-build -W`` (every page, every gallery script run, every
  cross-reference resolved, nothing fetched) from a copy of docs/, examples/ and data/, as on a
  fresh clone; the pages a newcomer opens first are there, every option of every command is on
  its command page, every public name of svmeval.__all__ has its reference page, and every
  gallery page shows a picture.
* Every Python block of the user guide runs as a user runs it (from a folder that holds the
  project's data/), except one preceded by an HTML comment that says why it is not run; where
  the page shows what the block prints (a block after ``<!-- output -->`` that follows it), the
  block prints exactly that, up to trailing spaces.

The build needs the ``docs`` extra (``make test`` installs it). Without it the test fails with a
line that says so rather than skipping unseen; ``-m "not docs"`` leaves it out on purpose.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from conftest import ROOT

DOCS = ROOT / "docs"
BLOCK = re.compile(
    r"(?:<!-- (?P<skip>not run by the tests: [^>]*?) -->\n)?```python\n"
    r"(?P<code>.*?)^```",
    re.S | re.M,
)
#: what a Python block prints, shown right after it (one line of text may stand between)
OUTPUT = re.compile(
    r"\n*(?:[^\n`<][^\n]*\n(?:[^\n`<][^\n]*\n)*\n)?<!-- output -->\n```\n(.*?)^```", re.S | re.M
)


class _Text(HTMLParser):
    """The text of an HTML page and the ``src`` of its images."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.images: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs).get("src", ""))


def _page(path):
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(parser.parts), parser.images


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built from a copy of the sources (the checkout is left as it was)."""
    if (
        importlib.util.find_spec("sphinx") is None
        or importlib.util.find_spec("sphinx_gallery") is None
    ):
        if sys.version_info < (3, 11):
            pytest.skip("the docs extra is pinned for Python >= 3.11")
        pytest.fail(
            "the documentation's tools are not installed: pip install -e '.[docs]' "
            "(make test installs them)"
        )
    work = tmp_path_factory.mktemp("docs")
    for name in ("docs", "examples", "data"):
        shutil.copytree(
            ROOT / name,
            work / name,
            symlinks=True,
            ignore=shutil.ignore_patterns(
                "_build", "generated", "gallery", "api", "*.png", "__pycache__"
            ),
        )
    shutil.copytree(DOCS / "_static", work / "docs" / "_static", dirs_exist_ok=True)
    shutil.copyfile(ROOT / "CHANGELOG.md", work / "CHANGELOG.md")  # the changelog page's text
    out = work / "html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(work / "docs"),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=work,
    )
    assert done.returncode == 0, f"sphinx-build -W failed:\n{done.stdout}\n{done.stderr}"
    return out


@pytest.mark.docs
def test_the_site_builds_without_a_warning_and_has_its_pages(site):
    for page in (
        "index",
        "getting_started",
        "guide/index",
        "gallery/index",
        "reference",
        "commands/svmeval",
        "commands/svmeval-grid",
        "commands/svmeval-compare",
        "reliability",
        "performance",
        "changelog",
        "citing",
    ):
        assert (site / f"{page}.html").is_file(), page
    text, images = _page(site / "index.html")
    assert "svmeval" in text and any("readme_sheet" in src for src in images)
    # the changelog page is CHANGELOG.md itself: each release's heading is there
    changelog, _ = _page(site / "changelog.html")
    releases = re.findall(r"^## \[([^]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases and all(f"[{r}]" in changelog for r in releases)


@pytest.mark.docs
def test_every_option_of_every_command_is_on_its_page(site):
    """Each option is an entry of its command's page (an anchor only ``.. option::`` makes), not
    only a word in its text."""
    from svmeval.cli import options

    for command, program in options.PROGRAMS.items():
        flags = set(options.options_of(command))
        if command == options.COMPARE:
            flags |= set(options.options_of(options.TRAINING))
        page = (site / "commands" / f"{program}.html").read_text(encoding="utf-8")
        anchors = set(re.findall(r'id="cmdoption-([^"]+)"', page))  # only .. option:: makes them
        expected = {f"{program}-{('-wi' if f == '-w' else f).lstrip('-')}" for f in flags}
        assert not expected - anchors, f"{program}: {sorted(expected - anchors)}"


@pytest.mark.docs
def test_every_public_name_has_its_reference_page(site):
    import svmeval
    import svmeval.metrics
    import svmeval.stats

    # __version__, the one name that is not a function or class, has its entry on svmeval's page
    assert 'id="svmeval.__version__"' in (site / "api" / "svmeval.html").read_text()
    top = {id(getattr(svmeval, n)): n for n in svmeval.__all__ if not n.startswith("__")}
    for module in (svmeval, svmeval.metrics, svmeval.stats):
        for name in getattr(module, "__all__", []):
            if name.startswith("__"):
                continue
            # a name svmeval exports too (the same object) has svmeval's page, and one only
            shared = top.get(id(getattr(module, name)))
            where = f"svmeval.{shared}" if shared else f"{module.__name__}.{name}"
            page = site / "api" / "generated" / f"{where}.html"
            assert page.is_file(), f"{module.__name__}.{name} has no reference page"
            if shared and module is not svmeval:
                twin = site / "api" / "generated" / f"{module.__name__}.{name}.html"
                assert not twin.exists(), f"{module.__name__}.{name} is described twice"


@pytest.mark.docs
def test_every_gallery_page_shows_a_picture(site):
    scripts = sorted((ROOT / "examples").glob("plot_*.py"))
    assert len(scripts) >= 6
    for script in scripts:
        _, images = _page(site / "gallery" / f"{script.stem}.html")
        assert any("sphx_glr_" + script.stem in src for src in images), script.name


def guide_blocks() -> list[tuple[str, str | None, str, str | None]]:
    """(where, reason not run or None, code, output shown or None) of every Python block of the
    docs' pages."""
    out = []
    for page in sorted(DOCS.rglob("*.md")):
        if "_build" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start("code")) + 1
            shown = OUTPUT.match(text, m.end())
            out.append(
                (
                    f"{page.relative_to(ROOT)}:{line}",
                    m.group("skip"),
                    m.group("code"),
                    shown.group(1) if shown else None,
                )
            )
    return out


BLOCKS = guide_blocks()


def test_the_guide_has_python_examples():
    assert len([b for b in BLOCKS if b[1] is None]) >= 10


def test_the_guide_shows_what_a_python_example_prints():
    assert any(b[3] for b in BLOCKS if b[1] is None)


@pytest.mark.parametrize("where, skip, code, shown", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_guide_python_block_runs(where, skip, code, shown, monkeypatch, capsys, tmp_path):
    if skip:
        pytest.skip(f"{where}: {skip}")
    pytest.importorskip("pandas")  # the extra 'frame', part of the test extras
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, where, "exec"), {"__name__": "guide_example"})
    printed = capsys.readouterr().out
    if shown is not None:
        assert [line.rstrip() for line in printed.splitlines()] == shown.splitlines(), where


PROGRAMS = {
    "svmeval": ["-m", "svmeval"],
    "svmeval-grid": ["-m", "svmeval.cli", "grid"],
    "svmeval-compare": ["-m", "svmeval.cli", "compare"],
}


def transcripts() -> list[tuple[str, list[str], str]]:
    """(where, argv, output) of every ``$ svmeval...`` transcript of the README and the docs'
    pages that runs on the bundled data (data/...) and shows its whole output (no ``...``)."""
    out = []
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        if "_build" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```\n(\$ .*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, m.start()) + 1
            command, _, shown = m.group(1).partition("\n")
            argv = command[2:].split()
            if (
                argv[0] not in PROGRAMS
                or not shown
                or "..." in shown
                or "…" in shown
                or not any(a.startswith("data/") for a in argv)
            ):
                continue
            out.append((f"{page.relative_to(ROOT)}:{line}", argv, shown))
    return out


TRANSCRIPTS = transcripts()


def test_the_docs_show_transcripts_on_the_bundled_data():
    assert len(TRANSCRIPTS) >= 2


@pytest.mark.parametrize("where, argv, shown", TRANSCRIPTS, ids=[t[0] for t in TRANSCRIPTS])
def test_a_shown_transcript_is_what_the_command_prints(where, argv, shown):
    done = subprocess.run(
        [sys.executable, *PROGRAMS[argv[0]], *argv[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown, where

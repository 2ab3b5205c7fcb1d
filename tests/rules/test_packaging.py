"""The package as an index shows it: metadata, the README's links, the citation file, the
developer tools' pins and the source distribution's manifest.

The oracles: the Python versions that ``requires-python`` admits (PEP 440 as ``packaging``
reads it), the files git tracks, and the pins of ``.pre-commit-config.yaml``.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import svmeval

from conftest import ROOT

tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
REPOSITORY = "https://github.com/svmeval/svmeval"
#: the CPython versions svmeval supports: requires-python's floor to the newest tested
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")


@pytest.fixture(scope="module")
def project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_metadata_names_authors_urls_and_classifiers(project):
    assert project["authors"] == [{"name": "The svmeval developers"}]
    urls = project["urls"]
    assert urls["Source"] == urls["Homepage"] == REPOSITORY
    assert all(u.startswith(REPOSITORY) for u in urls.values())
    classifiers = project["classifiers"]
    assert "License :: OSI Approved :: BSD License" not in classifiers  # PEP 639: license =
    listed = {c.rsplit(" :: ", 1)[1] for c in classifiers if re.search(r":: 3\.\d+$", c)}
    assert listed == set(SUPPORTED)


def test_the_supported_pythons_are_those_requires_python_admits(project):
    from packaging.specifiers import SpecifierSet

    spec = SpecifierSet(project["requires-python"])
    assert all(f"{v}.0" in spec for v in SUPPORTED)
    assert "3.9.18" not in spec
    wheels = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    assert wheels["build"] == [f"cp{v.replace('.', '')}-*" for v in SUPPORTED]


def test_the_readme_links_and_picture_work_on_an_index_page():
    text = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    assert targets, "the README links nowhere"
    relative = [t for t in targets if not re.match(r"https?://", t)]
    assert relative == [], f"relative links break on an index's page: {relative}"
    # each link into the repository names a file that exists in it
    for target in targets:
        m = re.match(rf"{REPOSITORY}/blob/main/(.+)$", target) or re.match(
            r"https://raw\.githubusercontent\.com/svmeval/svmeval/main/(.+)$", target
        )
        if m:
            assert (ROOT / m.group(1)).is_file(), target


def test_the_citation_file_cites_this_release_and_libsvm():
    text = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^cff-version: 1\.2\.0$", text, re.M)
    assert re.findall(r"^ *version: (\S+)$", text, re.M) == [svmeval.__version__] * 2
    assert "doi: 10.1145/1961189.1961199" in text  # Chang & Lin 2011, ACM TIST 2(3):27
    assert f'repository-code: "{REPOSITORY}"' in text


def test_the_developer_tools_are_pinned_as_pre_commit_pins_them(project):
    extras = project["optional-dependencies"]
    dev = {re.split(r"[=<>;]", r)[0]: r for r in extras["dev"]}
    assert set(dev) >= {"ruff", "mypy", "pre-commit"}
    assert all("==" in r and ";" not in r for r in dev.values())  # one pin for every Python
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    for tool in ("ruff", "mypy"):
        assert f'"{dev[tool]}"' in hooks, tool
    assert not any(name in dev for name in (r.split("=")[0] for r in extras["test"]))


def test_the_sdist_manifest_takes_every_file_the_tests_need():
    """Every tracked file under tests/, data/, docs/ and examples/, the root conftest and the
    changelog are matched by MANIFEST.in's grafts and includes (what setuptools puts in the
    sdist besides the package, its C sources and the README and LICENSE)."""
    try:
        tracked = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an unpacked sdist): no list of tracked files")
    manifest = (ROOT / "MANIFEST.in").read_text()
    grafts = set(re.findall(r"^graft (\S+)$", manifest, re.M))
    includes = {w for line in re.findall(r"^include (.+)$", manifest, re.M) for w in line.split()}
    assert {"tests", "data", "docs", "examples"} <= grafts
    assert {"conftest.py", "CHANGELOG.md", "CITATION.cff", "pyproject.toml"} <= includes
    top = {path.split("/", 1)[0] for path in tracked if "/" in path}
    files = {path for path in tracked if "/" not in path}
    # setuptools adds MANIFEST.in itself; .ci and .gitignore serve the repository only
    left_out = top - grafts - {"svmeval", ".ci"} | files - includes - {".gitignore", "MANIFEST.in"}
    assert left_out == set(), f"neither grafted nor included: {sorted(left_out)}"

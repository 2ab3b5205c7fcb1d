"""The HTML report: one page per result type that parses with balanced tags, holds every number
of the result's ``to_dict()`` (read back from the page, not from the code that wrote it), runs
nothing and loads nothing, escapes every outside text, says when matplotlib is missing, and
carries the provenance of its numbers; ``--format html`` on every command."""

from __future__ import annotations

import hashlib
import math
import re
import subprocess
import sys
import time
from dataclasses import replace
from html.parser import HTMLParser

import numpy as np
import pytest

from svmeval import (
    benchmark,
    compare,
    cross_validate,
    cross_validate_multilabel,
    grid_search,
    nested_cv,
    read_dataset,
    render,
    summarize,
)

import commands
from conftest import ROOT

WINE = ROOT / "data" / "wine.scale"
CANCER = ROOT / "data" / "breast_cancer.scale"
DIABETES = ROOT / "data" / "diabetes.scale"
RANGES = {"log2c": (-1, 3, 2), "log2g": (-5, -1, 2)}
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
HOSTILE = "<script>alert(1)</script>"


class Page(HTMLParser):
    """A strict reading of a page: every start tag closed in order (void elements and
    self-closed SVG elements aside), every tag and attribute, the text, the number cells."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str | None]] = []
        self.text: list[str] = []
        self.cells: list[tuple[str, str]] = []  # (title, shown text) of a titled element
        self._titled: list[list] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]
        if tag not in VOID:
            self.stack.append(tag)
            title = dict(attrs).get("title")
            self._titled.append([title, ""] if title is not None else None)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()
        titled = self._titled.pop()
        if titled is not None:
            self.cells.append((titled[0], titled[1]))

    def handle_data(self, data):
        self.text.append(data)
        for titled in self._titled:
            if titled is not None:
                titled[1] += data


def checked(text: str) -> Page:
    """The page read strictly, with what every page must be (and must not hold)."""
    assert text.startswith("<!DOCTYPE html>")
    page = Page(text)
    assert page.errors == [] and page.stack == [], (page.errors, page.stack)
    assert "script" not in page.tags
    assert not re.search(r"<\s*script", text, re.I)
    for tag, name, value in page.attrs:
        assert not name.startswith("on"), (tag, name)  # no event handler
        if name in ("src", "href", "xlink:href", "action", "data"):
            assert not re.match(r"\s*(https?:|//|javascript:|file:)", value or "", re.I), value
    assert not re.search(r"(src|href)\s*=\s*[\"']?\s*(https?:)?//", text, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?(https?:)?//", text, re.I)
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    return page


def numbers(obj) -> list:
    """Every number in a JSON object (booleans are not numbers)."""
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in numbers(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in numbers(v)]
    if isinstance(obj, (int, float)) and not isinstance(obj, bool):
        return [obj]
    return []


def assert_holds_numbers(page: Page, data: dict) -> None:
    """Every number of ``data`` is some titled element's exact value, and each titled
    element shows its value to 4 decimals (or as an integer)."""
    exact = set()
    for title, shown in page.cells:
        try:
            value = float(title)
        except ValueError:
            continue
        exact.add(value)
        shown = shown.strip()
        if shown in ("inf", "-inf"):
            assert value == float(shown)
        elif re.fullmatch(r"-?\d+", shown):
            assert value == int(shown)
        else:
            assert math.isclose(value, float(shown), rel_tol=5.001e-4, abs_tol=5.001e-5), (
                title,
                shown,
            )
    wanted = numbers(data)
    assert wanted
    missing = [x for x in wanted if float(x) not in exact]
    assert missing == []


@pytest.fixture(scope="module")
def wine_cv():
    return cross_validate(WINE, "-c 2", folds=3)


def test_cv_result_page(wine_cv):
    page = checked(render(wine_cv, format="html"))
    assert_holds_numbers(page, summarize(wine_cv).to_dict())
    text = "".join(page.text)
    assert "Cross Validation Accuracy = " in text  # the text report and its verdict lines
    # the figures cross-checked against scikit-learn
    sk = pytest.importorskip("sklearn.metrics")
    accuracy = sk.accuracy_score(wine_cv.y_true, wine_cv.y_pred)
    assert repr(accuracy) in {t for t, _ in page.cells}


def test_summary_page_equals_its_numbers(wine_cv):
    summary = summarize(wine_cv)
    page = checked(render(summary, format="html"))
    assert_holds_numbers(page, summary.to_dict())


def test_regression_and_multilabel_pages(tmp_path):
    result = cross_validate(DIABETES, "-s 3", folds=3)
    assert_holds_numbers(checked(render(result, format="html")), summarize(result).to_dict())
    path = tmp_path / "sets.txt"
    path.write_text(
        "1,2 1:0.1 2:0.9\n2 1:0.2 2:0.8\n1 1:0.9 2:0.1\n1,2 1:0.5\n2 2:0.7\n1 1:0.8\n" * 3
    )
    multi = cross_validate_multilabel(path, "-c 4", folds=3)
    for result in (multi, summarize(multi)):
        assert_holds_numbers(checked(render(result, format="html")), summarize(multi).to_dict())


def test_grid_nested_comparison_benchmark_mcnemar_pages():
    grid = grid_search(WINE, folds=3, **RANGES)
    nested = nested_cv(WINE, folds=3, inner_folds=3, **RANGES)
    comparison = compare(WINE, "-c 1", "-t 0", folds=3, repeat=2)
    bench = benchmark([WINE, CANCER], {"rbf": "-c 1", "linear": "-t 0"}, folds=3, repeat=2)
    for result in (grid, nested, comparison, bench, comparison.mcnemar):
        page = checked(render(result, format="html"))
        assert_holds_numbers(page, result.to_dict())


def test_pages_hold_their_pictures_as_inline_svg(wine_cv):
    pytest.importorskip("matplotlib")
    grid = grid_search(WINE, folds=3, **RANGES)
    nested = nested_cv(WINE, folds=3, inner_folds=3, **RANGES)
    bench = benchmark([WINE, CANCER], {"rbf": "-c 1", "linear": "-t 0"}, folds=3, repeat=2)
    for result, count in ((wine_cv, 1), (grid, 1), (nested, 2), (bench, 1)):
        text = render(result, format="html")
        page = checked(text)
        assert page.tags.count("svg") == count
        assert "<?xml" not in text and "<!DOCTYPE svg" not in text
        assert "Pictures need matplotlib" not in text
        assert text == render(result, format="html")  # the same result, the same page
        ids = {v for _, k, v in page.attrs if k == "id"}
        refs = set(re.findall(r'(?:url\(#|href="#)([^")]+)', text))
        assert refs <= ids  # every reference inside the page resolves within it


def test_hostile_names_are_text(tmp_path):
    data = read_dataset(WINE)
    hostile = replace(data, name=HOSTILE)
    result = cross_validate(hostile, folds=3)
    breaking = replace(read_dataset(CANCER), name="--><script>alert(2)</script><!--")
    bench = benchmark(
        [hostile, breaking],  # the second breaks out of an SVG comment if unescaped
        {"<img src=x onerror=alert(1)>": "-c 1", "a&b \"'": "-t 0"},
        folds=3,
        repeat=2,
    )
    for item in (result, summarize(result), bench):
        text = render(item, format="html")
        page = checked(text)
        assert "<script" not in text.lower() and "<img" not in text.lower()
        shown = "".join(page.text)
        assert HOSTILE in shown  # the name shows as that text
    assert "<img src=x onerror=alert(1)>" in shown and "a&b \"'" in shown
    assert breaking.name in shown


def test_provenance_of_the_numbers():
    before = time.time()
    start = time.perf_counter()
    result = cross_validate(str(WINE), "-c 2", folds=3, seed=7)
    elapsed = time.perf_counter() - start
    after = time.time()
    p = result.provenance
    assert p.call == f"cross_validate({str(WINE)!r}, '-c 2', folds=3, seed=7)"
    started = time.mktime(time.strptime(p.started, "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
    assert math.floor(before) - 1 <= started <= after
    assert 0 <= p.seconds <= elapsed
    from importlib.metadata import version

    assert p.libsvm_version == ".".join(version("libsvm-official").split(".")[:2])
    assert p.svmeval_version == version("svmeval") or p.svmeval_version
    (record,) = p.data
    # the data's SHA-256 against the definition, computed here from the file's own numbers
    rows = [line.split() for line in WINE.read_text().splitlines() if line.strip()]
    assert (record.name, record.n_samples, record.n_features) == (str(WINE), len(rows), 13)
    assert record.digest == read_dataset(WINE).digest() and len(record.digest) == 64
    text = render(result, format="html")
    page = checked(text)
    shown = "".join(page.text)
    for item in (p.call, p.started, record.digest, p.libsvm_version, "7"):
        assert item in shown
    assert summarize(result).provenance is p


def test_provenance_names_every_data_set_once():
    bench = benchmark([WINE, CANCER], ["-c 1", "-t 0"], folds=3, repeat=2)
    assert [d.name for d in bench.provenance.data] == [str(WINE), str(CANCER)]
    comparison = compare(WINE, "-c 1", "-t 0", folds=3, repeat=2)
    assert [d.name for d in comparison.provenance.data] == [str(WINE)]
    assert comparison.provenance.call.startswith("compare(")


def test_a_result_without_provenance_says_so(wine_cv):
    text = render(replace(wine_cv, provenance=None), format="html")
    assert "carries no record of how it was made" in "".join(checked(text).text)


def test_without_matplotlib_the_page_says_so(tmp_path):
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from svmeval import cross_validate, render\n"
        f"sys.stdout.write(render(cross_validate({str(WINE)!r}, folds=3), format='html'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    page = checked(done.stdout)
    assert "svg" not in page.tags
    # this Python's pip installing pyproject.toml's plot extra
    assert (
        f"Pictures need matplotlib, which is not installed here: {sys.executable} -m pip install 'matplotlib>=3.5'"
        in "".join(page.text)
    )


def test_unknown_format_and_type_still_refused(wine_cv):
    with pytest.raises(ValueError, match="unknown report format 'htm'"):
        render(summarize(wine_cv), format="htm")
    with pytest.raises(TypeError):
        render(3, format="html")


# --- the commands --------------------------------------------------------------------------------
def cli(*args, cwd):
    return commands.run_module(["svmeval.cli", *args], cwd=cwd, timeout=300)


def svmeval_cli(*args, cwd):
    return commands.run("svmeval", args, cwd=cwd, timeout=300)


def svmeval_process(*args, cwd):
    """``svmeval`` in a fresh process: where what the process loaded shows in the report."""
    return commands.run_process("svmeval", args, cwd=cwd, timeout=300)


def test_svmeval_format_html(tmp_path):
    hostile = tmp_path / "a<b>&c.txt"
    hostile.write_bytes(WINE.read_bytes())
    done = svmeval_cli("-q", "-v", "3", "-c", "2", "--format", "html", hostile, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = checked(done.stdout)
    shown = "".join(page.text)
    assert f"svmeval -q -v 3 -c 2 --format html '{hostile}'" in shown  # the command line
    assert "<b>" not in done.stdout and str(hostile) in shown
    assert_holds_numbers(page, summarize(cross_validate(WINE, "-c 2", folds=3)).to_dict())
    report = tmp_path / "r.html"
    done = svmeval_cli("-q", "-v", "3", "--format", "html", "-o", report, WINE, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "" and checked(report.read_text())
    before = WINE.read_bytes()
    done = svmeval_cli("-q", "-v", "3", "--format", "html", "-o", WINE, WINE, cwd=tmp_path)
    assert done.returncode == 1 and WINE.read_bytes() == before  # never over an input
    assert len(done.stderr.strip().splitlines()) == 1


def test_svmeval_score_format_html(tmp_path):
    predictions = tmp_path / "p.txt"
    done = svmeval_cli("-q", "-v", "3", "--predictions", predictions, WINE, cwd=tmp_path)
    assert done.returncode == 0
    # a process that only scores loads no LIBSVM ("not used"): a fresh one
    done = svmeval_process("--score", predictions, WINE, "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = "".join(checked(done.stdout).text)
    assert read_dataset(WINE).digest() in shown  # the scored data's provenance
    assert "not used" in shown and "carries no record" not in shown  # nothing trained


def test_grid_format_html(tmp_path):
    args = ["-log2c", "-1,3,2", "-log2g", "-5,-1,2", "-v", "3", "-out", "null", "-png", "null"]
    done = cli("grid", *args, "--format", "html", WINE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = checked(done.stdout)  # the page alone: grid.py's lines are not printed
    assert_holds_numbers(page, grid_search(WINE, folds=3, **RANGES).to_dict())
    done = cli("grid", *args, "--results", tmp_path / "g.html", WINE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0.5 0.5 98.3146"  # grid.py's lines as ever
    checked((tmp_path / "g.html").read_text())


def test_nested_format_html(tmp_path):
    done = cli(
        "grid", "-log2c", "-1,3,2", "-log2g", "-5,-1,2", "-v", "3", "--nested", "3", "-q",
        "--format", "html", WINE, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = checked(done.stdout)
    assert_holds_numbers(page, nested_cv(WINE, folds=3, inner_folds=3, **RANGES).to_dict())


def test_compare_and_benchmark_format_html(tmp_path):
    done = cli(
        "compare", "-q", "-v", "3", "--repeat", "2", "--format", "html", WINE, "--", "-c", "1",
        "--", "-t", "0", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_holds_numbers(
        checked(done.stdout), compare(WINE, "-c 1", "-t 0", folds=3, repeat=2).to_dict()
    )
    done = cli(
        "compare", "-q", "-v", "3", "--repeat", "2", "--format", "html", "-o",
        tmp_path / "b.html", WINE, CANCER, "--", "-c", "1", "--", "-t", "0", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = checked((tmp_path / "b.html").read_text())
    bench = benchmark([WINE, CANCER], ["-c 1", "-t 0"], folds=3, repeat=2)
    assert_holds_numbers(page, bench.to_dict())


def test_mcnemar_format_html(tmp_path):
    for name, options in (("a", "-c 1"), ("b", "-t 0")):
        done = svmeval_cli(
            "-q", "-v", "3", *options.split(), "--predictions", tmp_path / name, WINE,
            cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0
    done = cli(
        "compare", "--mcnemar", tmp_path / "a", tmp_path / "b", WINE, "--format", "html",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = "".join(checked(done.stdout).text)
    assert read_dataset(WINE).digest() in shown and "mcnemar_files(" in shown


def test_digest_definition_independent():
    """The data digest a page shows, against hashlib over the arrays (the documented
    definition of :meth:`Dataset.digest` is the store's; this checks the page shows it)."""
    ds = read_dataset(WINE)
    result = cross_validate(ds, folds=3)
    assert result.provenance.data[0].digest == ds.digest()
    assert ds.digest() != hashlib.sha256(np.asarray(ds.y).tobytes()).hexdigest()


def test_permutation_test_page_holds_its_numbers_and_the_null_distribution():
    """A permutation test's page: the text report (its p line), every number of
    ``to_dict()`` (each permutation's figure too), and the null distribution drawn inline."""
    from svmeval import permutation_test

    t = permutation_test(WINE, "-c 2", folds=3, permutations=15, seed=4)
    text = render(t, format="html")
    page = checked(text)
    assert_holds_numbers(page, t.to_dict())
    shown = "".join(page.text)
    assert f"p = (1 + {t.beyond}) / (15 + 1)" in shown and "Permutation test on" in shown
    pytest.importorskip("matplotlib")
    assert page.tags.count("svg") == 1 and "The null distribution" in shown
    assert text == render(t, format="html")


def test_svmeval_permutations_format_html(tmp_path):
    from svmeval import permutation_test

    args = ("-q", "-v", "3", "--permutations", "6", "--seed", "2", "--format", "html")
    done = svmeval_cli(*args, WINE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = checked(done.stdout)
    assert "svmeval " + " ".join(args) in "".join(page.text)  # the command line
    assert_holds_numbers(page, permutation_test(WINE, folds=3, permutations=6, seed=2).to_dict())


def test_a_tuned_threshold_with_repetitions_shows_every_seed():
    """The provenance of tune_threshold(repeat=3) names each repetition's seed (those its
    JSON lists), not the first one alone."""
    from svmeval import tune_threshold

    t = tune_threshold(str(CANCER), folds=3, inner_folds=3, seed=5, repeat=3)
    seeds = [t.to_dict()["seed"]] + [r["seed"] for r in t.to_dict()["repeat_results"]]
    assert len(set(seeds)) == 3
    page = render(t, format="html")
    shown = re.search(r"seeds \(C srand\)</th><td>([^<]*)<", page)
    assert shown and shown.group(1) == ", ".join(map(str, seeds))

"""Text reports fit an 80-column terminal and keep every number.

Every command's text report, on two-class, multiclass, regression and multi-label data and for
comparisons of two configurations on one and on two data sets (and of seven configurations, a
benchmark table wider than 80 columns), has no line over 80 characters on standard output,
and still shows each figure of the result's ``to_dict()`` (formatted as the report formats
it). The benchmark table keeps its full width in markdown, where a line is a row. Every
command's --help fits too, but for svm-train's own usage lines, repeated word for word.
"""

from __future__ import annotations

import math

import pytest

from svmeval import benchmark, compare, cross_validate, summarize

import commands
from conftest import ROOT, shared_file

WINE = ROOT / "data" / "wine.scale"  # three classes
SMALL = ROOT / "data" / "breast_cancer.scale"  # two classes
WIDTH = 80


def run(module: list[str], *args) -> str:
    done = commands.run_module([*module, *args], timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def multilabel_file(directory) -> str:
    """wine.scale as multi-label data: each sample's class, and label 4 where feature 1 > 0."""
    out = []
    for line in WINE.read_text().splitlines():
        label, *features = line.split()
        labels = [label] + (["4"] if float(features[0].split(":")[1]) > 0 else [])
        out.append(",".join(labels) + " " + " ".join(features))
    path = directory / "wine.multilabel"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def _numbers(d: dict, digits: int) -> list[str]:
    """The figures of a summary's to_dict(), as the text report prints them."""
    values = list(d.get("figures", {}).values())
    for average in d.get("averages", {}).values():
        values += [average[k] for k in ("precision", "recall", "f1") if k in average]
    for row in d.get("classes", []) or []:
        values += [row[k] for k in ("precision", "recall", "f1") if k in row]
    return [f"{v:.{digits}f}" for v in values if v is not None and math.isfinite(v)]


@pytest.mark.parametrize(
    "what,options,data,digits",
    [
        ("two-class --full", ["--full"], SMALL, 4),
        ("two-class --repeat", ["--full", "--repeat", "2"], SMALL, 4),
        ("multiclass", [], WINE, 4),
        ("multiclass --digits 12", ["--full", "--repeat", "2", "--digits", "12"], WINE, 12),
        ("regression", ["-s", "3", "--full"], WINE, 4),
        ("multi-label", ["--multilabel"], None, 4),
    ],
)
def test_svmeval_reports_fit_80_columns_with_every_figure(tmp_path, what, options, data, digits):
    data = data or multilabel_file(tmp_path)
    text = run(["svmeval"], "-q", "-v", "5", *options, data)
    assert widest(text) <= WIDTH, text
    repeat = int(options[options.index("--repeat") + 1]) if "--repeat" in options else 1
    params = "-s 3" if "-s" in options else None
    if "--multilabel" in options:
        from svmeval import cross_validate_multilabel

        result = cross_validate_multilabel(data, params, folds=5, quiet=True)
    else:
        result = cross_validate(data, params, folds=5, repeat=repeat, quiet=True)
    numbers = _numbers(summarize(result).to_dict(), digits)
    assert numbers and all(n in text for n in numbers), [n for n in numbers if n not in text]


def test_svm_train_lines_stay_as_they_are_before_the_tables():
    """The svm-train part is untouched: the two-class report starts with exactly what the
    plain report prints."""
    plain = run(["svmeval"], "-q", "-v", "5", SMALL)
    full = run(["svmeval"], "-q", "-v", "5", "--full", SMALL)
    assert full.startswith(plain)


def test_iris_full_report_fits_80_columns():
    iris = shared_file("data", "iris.scale")
    assert widest(run(["svmeval"], "-q", "-v", "5", "--full", iris)) <= WIDTH


def test_a_comparison_of_two_configurations_fits_80_columns():
    text = run(
        ["svmeval.cli", "compare"],
        "-v",
        "5",
        "--repeat",
        "2",
        WINE,
        "--",
        "-c",
        "1",
        "--",
        "-t",
        "0",
    )
    assert widest(text) <= WIDTH, text
    c = compare(WINE, "-c 1", "-t 0", folds=5, repeat=2).to_dict()
    numbers = [f"{c[x][y]:.4f}" for x in ("a", "b") for y in ("mean", "sd")]
    numbers += [f"{c['corrected_ttest']['p']:.4g}", f"{c['uncorrected_ttest']['p']:.4g}"]
    numbers += [f"{v:.4f}" for v in c["corrected_ttest"]["ci"]]
    assert all(n in text for n in numbers), [n for n in numbers if n not in text]


@pytest.mark.parametrize(
    "configurations",
    [
        [["-c", "1"], ["-t", "0"]],
        [
            ["-c", "1"],
            ["-c", "4"],
            ["-c", "16", "-g", "0.5"],
            ["-t", "0"],
            ["-t", "1", "-d", "2"],
            ["-s", "1", "-n", "0.3"],
            ["-c", "0.5", "-g", "2"],
        ],
    ],
    ids=["two configurations", "seven configurations"],
)
def test_a_benchmark_fits_80_columns_and_keeps_every_cell(configurations):
    line = [tok for conf in configurations for tok in ["--", *conf]]
    files = [WINE, SMALL]
    text = run(["svmeval.cli", "compare"], "-v", "3", "--repeat", "1", *files, *line)
    assert widest(text) <= WIDTH, text
    b = benchmark(files, [" ".join(c) for c in configurations], folds=3, repeat=1)
    d = b.to_dict()
    cells = [
        f"{m:.3f} ± {s:.3f}"
        for row_m, row_s in zip(d["mean"], d["sd"])
        for m, s in zip(row_m, row_s)
    ]
    ranks = [f"{r:.3f}" for r in d["ranks"]]
    assert all(x in text for x in cells + ranks), [x for x in cells + ranks if x not in text]
    assert all(" ".join(c) in text for c in configurations)
    markdown = run(
        ["svmeval.cli", "compare"],
        "--format",
        "markdown",
        "-v",
        "3",
        "--repeat",
        "1",
        *files,
        *line,
    )
    rows = markdown.splitlines()
    assert len(rows) == 2 + len(files) + 1  # the table whole: header, rule, data sets, ranks
    if len(configurations) == 7:
        assert widest(markdown) > WIDTH  # its full width: one line a row


@pytest.mark.parametrize("width", [20, 33, 47, 80])
def test_wrapping_breaks_between_words_only(width):
    """Every line within the width unless one word is longer; the words, read across the
    lines, are the sentence's; a name, "=" and its value, and a kept phrase, stay on one line."""
    from svmeval.report._layout import wrap

    text = (
        "verdict: -c 8 -g 0.05 against -c 1 over 2 data sets: mean difference +0.0082 in "
        "accuracy: not significant at 0.05 by the Wilcoxon test (p = 0.5) on "
        "/a/path/much/longer/than/twenty/characters.scale"
    )
    lines = wrap(text, keep=("-c 8 -g 0.05",), width=width)
    assert " ".join(" ".join(lines).split()) == text
    assert all(len(line) <= width or " " not in line.strip() for line in lines), lines
    assert any("p = 0.5)" in line for line in lines)
    assert any("-c 8 -g 0.05" in line for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])


def test_the_store_listing_fits_80_columns_and_keeps_every_field(tmp_path):
    """svmeval-store's listing of a store written from a deep folder with a long command
    line: no line over 80 characters but one holding a single word wider than that (a path,
    never broken); each configuration's options and each run's command still whole on the
    page (words kept, lines broken between them)."""
    deep = tmp_path / ("a_rather_long_folder_name_" * 2) / "and_another_one_below_it"
    deep.mkdir(parents=True)
    data = deep / "breast_cancer.scale"
    data.write_bytes(SMALL.read_bytes())
    store = tmp_path / "runs.db"
    args = ["-q", "-v", "3", "-c", "2", "-g", "0.125", "--seed", "7", "--store", store, data]
    run(["svmeval"], *args)
    listing = run(["svmeval.cli", "store"], store)
    # each line over the width is one path, whole, alone on its line (with the comma that ends
    # an item's part); the store's path too where the temporary folder's own path is long, as
    # under a parallel test runner
    wide = [line.rstrip(",").split() for line in listing.splitlines() if len(line) > WIDTH]
    assert all(words in ([str(data)], [str(store)]) for words in wide), listing
    # the data set, its configurations and the run's command name it
    assert wide.count([str(data)]) == 3, listing
    words = " ".join(listing.split())
    assert str(data) in words
    assert "-g 0.125 -c 2 -v 3 --seed 7: 3 units" in words
    assert "1 configuration," in words and "3 units," in words
    assert " ".join(["svmeval", *map(str, args)]) in words or f"--store {store}" in words


@pytest.mark.parametrize(
    "module, args",
    [
        (["svmeval"], ["-v", "3", "--threshold", "f1", SMALL]),
        (["svmeval"], ["-v", "3", "-c", "2", "--threshold", "cost:1,5", SMALL]),
        (["svmeval"], ["-v", "3", "--threshold", "mcc", "--repeat", "3", SMALL]),
        (["svmeval"], ["-v", "3", "-b", "1", "--threshold", "f1:-1", "--repeat", "2", SMALL]),
        (["svmeval"], ["-v", "3", "--permutations", "5", WINE]),
        (["svmeval"], ["-v", "3", "--ci", "0.9", "--bootstrap", "50", "--full", WINE]),
        (["svmeval"], ["-v", "3", "-b", "1", "--full", SMALL]),
        (
            ["svmeval.cli", "grid"],
            ["-log2c", "1,3,2", "-log2g", "null", "-v", "3", "--nested", "3", WINE],
        ),
    ],
    ids=[
        "threshold-f1",
        "threshold-cost",
        "threshold-repeat",
        "threshold-probability-repeat",
        "permutations",
        "ci",
        "probabilities",
        "nested",
    ],
)
def test_every_further_report_fits_80_columns(module, args):
    """The reports beyond the cross-validation's own (a tuned threshold, a permutation
    test, confidence intervals, probability figures, a nested estimate): no line over 80."""
    text = run(module, "-q", *args)
    assert widest(text) <= WIDTH, text


@pytest.mark.parametrize(
    "module", [["svmeval"], *(["svmeval.cli", c] for c in ("grid", "compare", "store"))]
)
def test_every_commands_help_fits_80_columns(module):
    """Each command's --help, tabs at every 8 columns, fits 80 columns but for svm-train's
    own usage lines, which svmeval repeats word for word."""
    from test_hardening_inputs import SVM_TRAIN_USAGE_OPTIONS

    own = set(SVM_TRAIN_USAGE_OPTIONS.splitlines())
    text = run(module, "--help")
    wide = [line for line in text.splitlines() if len(line.expandtabs()) > WIDTH]
    assert text.count("\n") > 5 and [line for line in wide if line not in own] == [], wide


def test_the_store_listing_of_library_runs_fits_80_columns(tmp_path):
    """Runs made from Python list their call, the command line that makes them, or why none
    does, in 80 columns; each call and command still whole on the page."""
    from svmeval import tune_threshold

    store = tmp_path / "runs.db"
    tune_threshold(SMALL, "-c 2", 3, criterion="cost:1,5", repeat=2, inner_folds=3, store=store)
    tune_threshold(SMALL, None, 3, criterion="mcc", inner_folds=5, seed=7, store=store)
    cross_validate(SMALL, "-c 4 -g 0.125", 3, repeat=2, store=store)
    listing = run(["svmeval.cli", "store"], store)
    wide = [line for line in listing.splitlines() if len(line) > WIDTH]
    assert [line.split() for line in wide] == [[str(SMALL)]] * len(wide), listing
    words = " ".join(listing.split())
    assert f"as svmeval -v 3 --threshold cost:1,5 --repeat 2 -c 2 {SMALL}" in words
    assert "(no command: inner_folds='5' is not folds='3'" in words
    assert f"as svmeval -v 3 --repeat 2 -c 4 -g 0.125 {SMALL}" in words, words

"""One reporting path: render() takes every result type (dispatch by type), the grid's text
report is grid.py's lines with svm-train's own rates, and the grid's --results file and
compare's reports are what render() gives."""

from __future__ import annotations

import json

import pytest

from svmeval import (
    Comparison,
    GridResult,
    Summary,
    SvmParams,
    compare,
    cross_validate,
    grid_search,
    mcnemar_files,
    read_dataset,
    render,
    summarize,
)
from svmeval.cv import _libsvm

import commands
from conftest import ROOT

svmutil = pytest.importorskip("libsvm.svmutil")

SMALL = ROOT / "data" / "breast_cancer.scale"
WINE = ROOT / "data" / "wine.scale"


def svm_train_rate(path, options: str) -> float:
    """svm-train -v 3's printed rate for one cell (a fresh process's folds: srand(1)), as
    svm-train prints it (``%g``) and grid.py reads it."""
    y, x = svmutil.svm_read_problem(str(path))
    _libsvm.srand(1)
    _libsvm.set_omp_threads(1)
    return float(f"{svmutil.svm_train(y, x, f'-q -v 3 {options}'):g}")


def test_grid_text_report_is_grid_pys_lines_with_svm_trains_rates():
    grid = grid_search(read_dataset(str(WINE)), log2c=(-1, 3, 2), log2g=(-3, -1, 2), folds=3)
    assert isinstance(grid, GridResult)
    lines = render(grid).splitlines()
    assert len(lines) == len(grid.cells) + 1
    rates = {}
    for line in lines[:-1]:
        fields = dict(f.split("=") for f in line.split())
        c, g = 2.0 ** float(fields["log2c"]), 2.0 ** float(fields["log2g"])
        rates[(c, g)] = svm_train_rate(WINE, f"-c {c!r} -g {g!r}")
        assert float(fields["rate"]) == rates[(c, g)]
    c, g, rate = map(float, lines[-1].split())
    assert rate == max(rates.values()) == rates[(c, g)]


def test_grid_results_file_is_the_rendered_report(tmp_path):
    for suffix in ("csv", "json"):
        target = tmp_path / f"r.{suffix}"
        done = commands.run_module(
            [
                "svmeval.cli",
                "grid",
                "-log2c",
                "0,2,2",
                "-log2g",
                "null",
                "-v",
                "3",
                "--results",
                str(target),
                str(WINE),
            ],
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        grid = grid_search(read_dataset(str(WINE)), log2c=(0, 2, 2), log2g=None, folds=3)
        assert target.read_text() == render(grid, format=suffix)
    assert json.loads(target.read_text()) == grid.to_dict()


def test_compare_cli_prints_the_rendered_comparison(tmp_path):
    done = commands.run_module(
        [
            "svmeval.cli",
            "compare",
            "-v",
            "3",
            "--repeat",
            "1",
            "--format",
            "csv",
            str(SMALL),
            "--",
            "-c",
            "1",
            "--",
            "-c",
            "4",
        ],
    )
    assert done.returncode == 0, done.stderr
    c = compare(read_dataset(str(SMALL)), "-c 1", "-c 4", 3, repeat=1)
    assert isinstance(c, Comparison)
    assert done.stdout == render(c, format="csv")


def test_render_dispatches_on_the_type_of_every_result(tmp_path):
    ds = read_dataset(str(WINE))
    summary = summarize(cross_validate(ds, SvmParams(), 3))
    assert isinstance(summary, Summary)
    assert render(summary).startswith("Cross Validation Accuracy = ")
    pa = tmp_path / "a"
    pa.write_text("".join(f"{v:g}\n" for v in ds.y))
    m = mcnemar_files(str(WINE), str(pa), str(pa))
    assert render(m).splitlines()[0] == f"McNemar's test ({len(ds.y)} samples):"
    assert json.loads(render(m, format="json"))["mcnemar"]["a_right_b_wrong"] == 0
    with pytest.raises(TypeError, match="not dict"):
        render({})
    with pytest.raises(ValueError, match="unknown report format 'xml'"):
        render(summary, format="xml")


def test_a_format_a_result_has_no_report_in_is_a_typed_argument_error(tmp_path, monkeypatch):
    """markdown and latex are a benchmark's tables: every other result refuses them with the
    library's typed argument error (a ValueError too), naming the argument, before any work
    (a cross-validation is not summarized first)."""
    import svmeval.summary
    from svmeval import (
        ArgumentError,
        SvmevalError,
        cross_validate_multilabel,
        nested_cv,
        permutation_test,
        tune_threshold,
    )

    ds = read_dataset(str(SMALL))
    run = cross_validate(ds, "-c 2", folds=3)
    labels = tmp_path / "labels"
    labels.write_text("".join(f"{v:g}\n" for v in ds.y))
    multilabel = tmp_path / "multilabel"
    multilabel.write_text("1,2 1:0.1 2:0.9\n2 1:0.2 2:0.8\n1 1:0.9 2:0.1\n1,2 1:0.5 2:0.5\n" * 4)
    results = [
        run,
        summarize(run),
        summarize(cross_validate_multilabel(multilabel, "-c 4", folds=3)),
        grid_search(ds, log2c=(-1, 1, 2), log2g=(-1, 1, 2), folds=3),
        compare(ds, "-c 1", "-c 4", folds=3, repeat=2),
        mcnemar_files(str(SMALL), str(labels), str(labels)),
        nested_cv(ds, folds=3, inner_folds=2, log2c=(-1, 1, 2), log2g=(-1, 1, 2)),
        permutation_test(ds, folds=3, permutations=2),
        tune_threshold(ds, folds=3, inner_folds=2),
    ]
    for result in results:
        for format in ("markdown", "latex"):
            with pytest.raises(ArgumentError) as error:
                render(result, format=format)
            assert isinstance(error.value, SvmevalError) and isinstance(error.value, ValueError)
            assert error.value.argument == "format"
            assert str(error.value) == (
                f"format must be one of text, json, csv, html for a {type(result).__name__}: "
                f"it has no {format!r} report"
            )
        assert render(result, format="json").startswith("{")  # a format it does offer
    summarized = []
    monkeypatch.setattr(svmeval.summary, "summarize", lambda *a, **k: summarized.append(a))
    with pytest.raises(ArgumentError):
        render(run, format="markdown")
    assert not summarized  # refused before the cross-validation is summarized

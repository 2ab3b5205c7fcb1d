"""Results as data: to_frame() tables checked fold by fold against scikit-learn (and scipy) on
the predictions of each fold; to_dict() is the JSON report's object; without pandas, one clear
error naming the extra."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from svmeval import (
    SvmevalError,
    SvmParams,
    compare,
    cross_validate,
    grid_search,
    read_dataset,
    render,
    summarize,
)
from svmeval.cv import cross_validate_multilabel

from conftest import ROOT, shared_file

pd = pytest.importorskip("pandas")
sk = pytest.importorskip("sklearn.metrics")
stats = pytest.importorskip("scipy.stats")

TWO = ROOT / "data" / "breast_cancer.scale"
THREE = ROOT / "data" / "wine.scale"
REGRESSION = ROOT / "data" / "diabetes.scale"
KEYS = ["dataset", "configuration", "options", "repetition", "seed", "fold", "n_test"]


def binary_figures(y_true, y_pred, score):
    """Scikit-learn's figures of one fold (positive class 1; score: decision value towards 1)."""
    return {
        "accuracy": sk.accuracy_score(y_true, y_pred),
        "balanced_accuracy": sk.balanced_accuracy_score(y_true, y_pred),
        "mcc": sk.matthews_corrcoef(y_true, y_pred),
        "kappa": sk.cohen_kappa_score(y_true, y_pred),
        "precision": sk.precision_score(y_true, y_pred, pos_label=1),
        "recall": sk.recall_score(y_true, y_pred, pos_label=1),
        "f1": sk.f1_score(y_true, y_pred, pos_label=1),
        "macro_f1": sk.f1_score(y_true, y_pred, average="macro"),
        "roc_auc": sk.roc_auc_score(y_true == 1, score),
        "average_precision": sk.average_precision_score(y_true == 1, score),
    }


def test_cv_frame_has_one_row_per_repetition_and_fold_with_scikit_learns_figures():
    ds = read_dataset(str(TWO))
    result = cross_validate(ds, SvmParams(C=2), 4, seed=3, repeat=2, keep_repeats=True)
    frame = result.to_frame()
    assert list(frame.columns[:7]) == KEYS and len(frame) == 8
    assert set(frame["dataset"]) == {str(TWO)} and set(frame["configuration"]) == {"-c 2"}
    assert set(frame["options"]) == {f"-g {1 / ds.n_features:g} -c 2"}  # gamma resolved
    for r, run in enumerate([result, *result.repeat_results]):
        positive = list(run.labels).index(1.0)
        for i in range(4):
            rows = run.fold == i
            row = frame[(frame.repetition == r) & (frame.fold == i)].iloc[0]
            assert row.seed == 3 + r and row.n_test == np.count_nonzero(rows)
            expected = binary_figures(
                run.y_true[rows], run.y_pred[rows], run.scores[rows, positive]
            )
            for name, value in expected.items():
                assert row[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name
    # groupby gives each repetition's mean over its folds
    means = frame.groupby("repetition")["accuracy"].mean()
    for r, run in enumerate([result, *result.repeat_results]):
        assert means[r] == pytest.approx(
            np.mean(
                [
                    sk.accuracy_score(run.y_true[run.fold == i], run.y_pred[run.fold == i])
                    for i in range(4)
                ]
            ),
            rel=1e-12,
        )


def test_multiclass_summary_frame_equals_scikit_learn_per_fold():
    ds = read_dataset(str(THREE))
    result = cross_validate(ds, SvmParams(), 3, seed=2)
    frame = summarize(result).to_frame()
    assert list(frame.columns[:7]) == KEYS and list(frame.fold) == [0, 1, 2]
    for i in range(3):
        t, p = result.y_true[result.fold == i], result.y_pred[result.fold == i]
        row = frame.iloc[i]
        assert row.macro_f1 == pytest.approx(sk.f1_score(t, p, average="macro"), rel=1e-12)
        assert row.weighted_f1 == pytest.approx(sk.f1_score(t, p, average="weighted"), rel=1e-12)
        assert row.mcc == pytest.approx(sk.matthews_corrcoef(t, p), rel=1e-12)


def test_regression_frame_equals_scikit_learn_and_scipy_per_fold():
    ds = read_dataset(str(REGRESSION))
    result = cross_validate(ds, SvmParams(svm_type=3, C=4), 5, seed=1)
    frame = result.to_frame()
    assert len(frame) == 5 and set(frame["configuration"]) == {"-s 3 -c 4"}
    assert set(frame["options"]) == {f"-s 3 -g {1 / ds.n_features:g} -c 4"}
    for i in range(5):
        t, p = result.y_true[result.fold == i], result.y_pred[result.fold == i]
        row = frame[frame.fold == i].iloc[0]
        assert row.mse == pytest.approx(sk.mean_squared_error(t, p), rel=1e-12)
        assert row.scc == pytest.approx(stats.pearsonr(t, p)[0] ** 2, rel=1e-9)


def test_grid_frame_rows_are_each_cells_folds():
    ds = read_dataset(str(TWO))
    grid = grid_search(ds, log2c=(-1, 3, 2), log2g=(-3, -1, 2), folds=3, seed=5)
    frame = grid.to_frame()
    assert len(frame) == 6 * 3 and frame["best"].sum() == 3  # 3 C x 2 gamma, 3 folds each
    assert set(frame["dataset"]) == {str(TWO)}
    for r in grid.cells:
        params = SvmParams(C=r.cell.C, gamma=r.cell.gamma)
        run = cross_validate(ds, params, 3, seed=5)
        rows = frame[(frame.log2c == r.cell.log2c) & (frame.log2g == r.cell.log2g)]
        assert list(rows.fold) == [0, 1, 2]
        for i in range(3):
            t, p = run.y_true[run.fold == i], run.y_pred[run.fold == i]
            row = rows[rows.fold == i].iloc[0]
            assert row.accuracy == pytest.approx(sk.accuracy_score(t, p), rel=1e-12)
            assert row.f1 == pytest.approx(sk.f1_score(t, p, pos_label=1), rel=1e-12)
        # the cell's value is the pooled accuracy, a fraction (svm-train's rate / 100)
        assert rows.value.iloc[0] == pytest.approx(
            sk.accuracy_score(run.y_true, run.y_pred), abs=5e-7
        )
    best = frame[frame.best]
    assert (best.log2c.iloc[0], best.log2g.iloc[0]) == (grid.best.cell.log2c, grid.best.cell.log2g)


def test_comparison_frame_is_both_configurations_on_every_fold():
    ds = read_dataset(str(TWO))
    a, b = SvmParams(C=1), SvmParams(C=8, gamma=0.5)
    c = compare(ds, "-c 1", "-c 8 -g 0.5", 3, repeat=2, seed=4)
    frame = c.to_frame()
    assert len(frame) == 12
    assert set(frame.options) == {"-c 1", "-c 8 -g 0.5"}
    for name, params in (("A", a), ("B", b)):
        for r, seed in enumerate((4, 5)):
            run = cross_validate(ds, params, 3, seed=seed)
            for i in range(3):
                row = frame[
                    (frame.configuration == name) & (frame.repetition == r) & (frame.fold == i)
                ].iloc[0]
                assert row.seed == seed
                assert row.n_test == np.count_nonzero(run.fold == i)
                assert row.accuracy == pytest.approx(
                    sk.accuracy_score(run.y_true[run.fold == i], run.y_pred[run.fold == i]),
                    rel=1e-12,
                )
    means = frame.groupby("configuration")["accuracy"].mean()
    assert means["B"] - means["A"] == pytest.approx(c.ttest.mean, rel=1e-9)


def test_to_dict_is_the_json_report_object():
    ds = read_dataset(str(THREE))
    result = cross_validate(ds, SvmParams(), 3, seed=1)
    summary = summarize(result)
    assert summary.to_dict() == json.loads(render(summary, format="json"))
    c = compare(ds, SvmParams(C=1), SvmParams(C=4), 3, repeat=1)
    assert c.to_dict() == json.loads(render(c, format="json"))
    grid = grid_search(ds, log2c=(0, 2, 2), log2g=None, folds=3)
    assert grid.to_dict() == json.loads(render(grid, format="json"))


def test_cv_to_dict_holds_the_predictions_as_plain_types():
    ds = read_dataset(str(TWO))
    result = cross_validate(ds, SvmParams(C=2), 5, seed=1)
    d = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert d["y_pred"] == result.y_pred.tolist() and d["fold"] == result.fold.tolist()
    assert d["n_folds"] == 5 and d["seeds"] == [1] and d["parameters"]["C"] == 2
    assert np.allclose(d["scores"], result.scores)


def test_repeated_run_without_its_repetitions_says_what_to_keep():
    ds = read_dataset(str(TWO))
    result = cross_validate(ds, SvmParams(), 3, repeat=2)
    with pytest.raises(SvmevalError, match=r"keep_repeats=True"):
        result.to_frame()


def test_without_pandas_one_error_naming_the_extra(monkeypatch, tmp_path):
    ds = read_dataset(str(TWO))
    summary = summarize(cross_validate(ds, SvmParams(), 3))
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SvmevalError) as caught:
        summary.to_frame()
    # this Python's pip installing pyproject.toml's frame extra
    assert (
        str(caught.value)
        == f"to_frame() needs pandas: {sys.executable} -m pip install 'pandas>=1.5'"
    )


def test_multilabel_frame_equals_scikit_learn_per_fold(tmp_path):
    source = shared_file("data", "yeast_train")
    small = tmp_path / "yeast200"
    with open(source) as fh:
        small.write_text("".join(line for _, line in zip(range(200), fh)))
    ds = read_dataset(str(small), multilabel=True)
    result = cross_validate_multilabel(ds, SvmParams(C=2), 3, seed=2)
    frame = result.to_frame()
    assert list(frame.columns[:7]) == KEYS and list(frame.fold) == [0, 1, 2]
    for i in range(3):
        t, p = result.Y_true[result.fold == i], result.Y_pred[result.fold == i]
        row = frame.iloc[i]
        assert row.n_test == len(t)
        assert row.micro_f1 == pytest.approx(sk.f1_score(t, p, average="micro"), rel=1e-12)
        assert row.hamming_loss == pytest.approx(sk.hamming_loss(t, p), rel=1e-12)
        assert row.subset_accuracy == pytest.approx(sk.accuracy_score(t, p), rel=1e-12)
    d = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert d["Y_pred"] == result.Y_pred.tolist() and d["label_names"] == result.label_names.tolist()


def test_a_resumed_cell_is_one_row_with_its_value_alone():
    from svmeval.workflows.grid_rules import Cell

    ds = read_dataset(str(TWO))
    known = Cell(1.0, -3.0, None)
    grid = grid_search(ds, log2c=(-1, 1, 2), log2g=(-3, -3, 1), folds=3, resume={known: 99.5})
    frame = grid.to_frame()
    resumed = frame[frame.resumed]
    assert len(resumed) == 1 and resumed.fold.isna().all()
    # an -out file's rate (accuracy in percent, as grid.py writes it) is a fraction here
    assert resumed.value.iloc[0] == 0.995 and resumed.accuracy.isna().all()
    assert len(frame[~frame.resumed]) == 3  # the other cell's three folds

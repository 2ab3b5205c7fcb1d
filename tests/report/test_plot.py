"""Pictures: ROC and PR points against scikit-learn, the sheet of every kind of run written as
a valid PNG / SVG / PDF, what a sheet shows, and the one-line hint without matplotlib."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from svmeval.metrics.curves import precision_recall_curve, roc_curve

import commands
from conftest import ROOT, data_set, shared_file

sk = pytest.importorskip("sklearn.metrics")

SMALL = ROOT / "data" / "breast_cancer.scale"
WINE = ROOT / "data" / "wine.scale"
MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-"}


def _valid(path) -> bool:
    head = path.read_bytes()[:200]
    if path.suffix == ".svg":
        return b"<svg" in path.read_bytes()[:2000] and head.startswith(b"<?xml")
    return head.startswith(MAGIC[path.suffix])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve_equals_scikit_learn(seed, drop):
    rng = np.random.default_rng(seed)
    y = rng.choice([-1, 1], size=60)
    s = np.round(rng.normal(size=60), 1)  # ties
    got = roc_curve(y, s, drop_intermediate=drop)
    want = sk.roc_curve(y, s, drop_intermediate=drop)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b)


@pytest.mark.parametrize("seed", range(6))
def test_precision_recall_curve_equals_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    y = rng.choice([2, 5], size=50)
    s = np.round(rng.uniform(size=50), 1)
    got = precision_recall_curve(y, s, pos_label=5)
    want = sk.precision_recall_curve(y, s, pos_label=5)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b)


def test_curves_need_a_positive_label_for_other_labels():
    with pytest.raises(ValueError, match="pos_label"):
        roc_curve([2, 5], [0.1, 0.2])


# --------------------------------------------------------------------------------------------
# sheets

matplotlib = pytest.importorskip("matplotlib")

from svmeval import SvmParams, cross_validate, read_dataset, summarize  # noqa: E402
from svmeval.cli.svmeval import main  # noqa: E402
from svmeval.io.predictions import read_probabilities  # noqa: E402
from svmeval.report import plot  # noqa: E402
from svmeval.summary import summarize_predictions  # noqa: E402


def _texts(fig):
    out = [fig._suptitle.get_text()]
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
    return out


def test_two_class_sheet_from_the_command_line(tmp_path, capfd):
    target = tmp_path / "run.png"
    assert main(["-q", "-v", "3", "-c", "2", "--plot", str(target), str(SMALL)]) == 0
    assert capfd.readouterr().out.startswith("Cross Validation Accuracy = ")
    assert _valid(target)
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically, nothing left beside it


def test_two_class_sheet_shows_the_run(tmp_path):
    ds = read_dataset(str(SMALL))
    r = cross_validate(ds, SvmParams(C=2), 3)
    s = summarize(r, meta={"data_file": str(SMALL)})
    fig = plot.draw_sheet(s, **plot.result_arrays(r))
    texts = _texts(fig)
    title = texts[0]
    assert "breast_cancer.scale" in title and "-c 2" in title and "3-fold CV" in title
    auc = sk.roc_auc_score(r.y_true == 1, r.scores[:, list(r.labels).index(1.0)])
    assert f"positive class 1 (AUC {auc:.3f})" in texts
    for name in (
        "predicted label",
        "true label",
        "false positive rate (1 - specificity)",
        "recall",
        "precision",
    ):
        assert name in texts
    for suffix in (".svg", ".pdf"):
        target = tmp_path / f"run{suffix}"
        plot.write_sheet(str(target), s, **plot.result_arrays(r))
        assert _valid(target)


def test_many_classes_keep_every_label_and_name_the_weakest():
    rng = np.random.default_rng(3)
    k, n = 26, 780
    y = np.repeat(np.arange(1, k + 1), n // k).astype(float)
    scores = rng.normal(size=(n, k)) + 2.0 * (y[:, None] == np.arange(1, k + 1)[None, :])
    pred = np.arange(1, k + 1)[scores.argmax(axis=1)].astype(float)
    s = summarize_predictions(y, pred, meta={"data_file": "letters"})
    fig = plot.draw_sheet(
        s, y_true=y, y_pred=pred, scores=scores, score_labels=np.arange(1, k + 1, dtype=float)
    )
    heat = fig.axes[0]
    assert [t.get_text() for t in heat.get_xticklabels()] == [str(i) for i in range(1, k + 1)]
    assert [t.get_text() for t in heat.get_yticklabels()] == [str(i) for i in range(1, k + 1)]
    texts = _texts(fig)
    auc = [sk.roc_auc_score(y == c, scores[:, c - 1]) for c in range(1, k + 1)]
    weakest = np.argsort(auc)[:3] + 1
    for c in weakest:
        assert f"class {c} (AUC {auc[c - 1]:.3f})" in texts
    micro = sk.roc_auc_score((y[:, None] == np.arange(1, k + 1)).ravel(), scores.ravel())
    assert f"micro average (AUC {micro:.3f})" in texts
    assert "the 23 other classes" in texts


def test_multiclass_sheet_as_svg(tmp_path, capsys):
    target = tmp_path / "wine.svg"
    assert main(["-q", "-v", "3", "--plot", str(target), str(WINE)]) == 0
    assert _valid(target)


def test_regression_sheet_as_pdf(tmp_path):
    housing = read_dataset(str(data_set("housing_scale")))
    r = cross_validate(housing, SvmParams(svm_type=3), 3)
    s = summarize(r, meta={"data_file": housing.name})
    fig = plot.draw_sheet(s, **plot.result_arrays(r))
    texts = _texts(fig)
    for name in (
        "true value",
        "predicted value (CV)",
        "residual (predicted - true)",
        "mean squared error",
        "squared correlation",
    ):
        assert name in texts
    target = tmp_path / "housing.pdf"
    plot.write_sheet(str(target), s, **plot.result_arrays(r))
    assert _valid(target)


def test_multilabel_sheet(tmp_path):
    yeast = shared_file("data", "yeast_train")
    part = tmp_path / "yeast300"
    part.write_text("".join(yeast.read_text().splitlines(keepends=True)[:300]))
    target = tmp_path / "yeast.png"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "svmeval",
            "-q",
            "--multilabel",
            "-v",
            "3",
            "--plot",
            str(target),
            str(part),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Cross Validation Subset Accuracy = ")
    assert _valid(target)


def test_score_with_probabilities_draws_the_curves(tmp_path, capsys):
    pred = tmp_path / "pred"
    assert main(["-q", "-v", "3", "-b", "1", "--predictions", str(pred), str(WINE)]) == 0
    capsys.readouterr()
    ds = read_dataset(str(WINE))
    labels, probs = read_probabilities(str(pred))
    assert probs.shape == (ds.n_samples, 3)
    target = tmp_path / "scored.png"
    assert main(["--score", str(pred), "--plot", str(target), str(WINE)]) == 0
    assert _valid(target)
    # the same sheet from the library: the micro average of the file's probabilities
    y_pred = np.array([float(line.split()[0]) for line in pred.read_text().splitlines()[1:]])
    s = summarize_predictions(
        ds.y, y_pred, meta={"data_file": str(WINE), "predictions_file": str(pred)}
    )
    texts = _texts(
        plot.draw_sheet(s, y_true=ds.y, y_pred=y_pred, scores=probs, score_labels=labels)
    )
    micro = sk.roc_auc_score((ds.y[:, None] == labels).ravel(), probs.ravel())
    assert f"micro average (AUC {micro:.3f})" in texts
    assert any("predictions pred" in t for t in texts)


def test_score_of_plain_labels_draws_the_matrix_alone(tmp_path):
    ds = read_dataset(str(WINE))
    s = summarize_predictions(ds.y, ds.y)
    fig = plot.draw_sheet(s, y_true=ds.y, y_pred=ds.y)
    assert len([ax for ax in fig.axes if ax.get_xlabel() == "predicted label"]) == 2
    assert not any("ROC" in ax.get_title() for ax in fig.axes)


def test_without_matplotlib_one_line_and_the_report(tmp_path):
    target = tmp_path / "none.png"
    wrapper = (
        "import sys, runpy; sys.modules['matplotlib'] = None; "
        "sys.argv = ['svmeval'] + sys.argv[1:]; runpy.run_module('svmeval', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, "-q", "-v", "3", "--plot", str(target), str(WINE)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("Cross Validation Accuracy = ")
    assert done.stderr.splitlines() == [
        "svmeval: --plot: no picture drawn: matplotlib is not installed; install it with: "
        f"{sys.executable} -m pip install 'matplotlib>=3.5'"
    ]
    assert not target.exists()


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["-v", "3", "--plot", "out.txt"],
            "out.txt: the picture's name must end in .png, .svg, .pdf",
        ),
        (["--plot", "out.png"], "--plot: only with -v k (cross-validation) or --score"),
    ],
)
def test_bad_plot_requests_fail_before_the_run(tmp_path, args, message):
    done = commands.run("svmeval", ["-q", *args, WINE], cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert message in done.stderr.splitlines()[0]
    assert "Traceback" not in done.stderr


GRID_PICTURE = """
import json, sys
import matplotlib
backend = dict.__getitem__(matplotlib.rcParams, "backend")
from svmeval import grid_search, read_dataset
from svmeval.report.grid_plot import draw_grid, plot_grid
grid = grid_search(read_dataset(sys.argv[1]), log2c=(-1, 5, 2), log2g=(-5, 1, 2), folds=3)
fig = draw_grid(grid, title="wine")
star = [l for l in fig.axes[0].get_lines() if l.get_marker() == "*"][0]
print(json.dumps({
    "pyplot": "matplotlib.pyplot" in sys.modules,
    "backend_kept": dict.__getitem__(matplotlib.rcParams, "backend") == backend,
    "star": [float(star.get_xdata()[0]), float(star.get_ydata()[0])],
    "best": [grid.best.cell.log2c, grid.best.cell.log2g],
    "colorbar": fig.axes[1].get_ylabel(),
    "written": plot_grid(grid, sys.argv[2], title="wine"),
}))
"""


def test_grid_picture_is_a_figure_without_pyplot_or_a_global_backend(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "grid.png"
    done = subprocess.run(
        [sys.executable, "-c", GRID_PICTURE, str(WINE), str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    import json

    seen = json.loads(done.stdout)
    assert seen["pyplot"] is False and seen["backend_kept"] is True
    assert seen["star"] == seen["best"]
    assert seen["colorbar"] == "accuracy (%), higher is better"
    assert seen["written"] is True and _valid(target)


def test_grid_picture_without_matplotlib_one_line(tmp_path):
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from svmeval import grid_search, read_dataset\n"
        "from svmeval.report.grid_plot import plot_grid\n"
        "grid = grid_search(read_dataset(sys.argv[1]), log2c=(0, 2, 2), log2g=None, folds=3)\n"
        "print(plot_grid(grid, sys.argv[2]))\n"
    )
    target = tmp_path / "grid.png"
    done = subprocess.run(
        [sys.executable, "-c", code, str(WINE), str(target)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert done.stdout == "False\n" and not target.exists()
    assert done.stderr.splitlines() == [
        f"svmeval-grid: -png {target} not drawn: pictures need matplotlib, which is not "
        f"installed: {sys.executable} -m pip install 'matplotlib>=3.5'"
    ]

"""One name and one unit per idea: the configuration column holds what the user gave (the
resolved flags in ``options``), every frame names its data set, a figure is a fraction in
Python (grid.py's percent stays on the command line), ``repeat`` is the count of repetitions,
and render / to_frame / to_dict take a cross-validation as it is.

Oracles: scikit-learn's ``accuracy_score`` on the predictions of each fold, LIBSVM's own
resolution of the default gamma (1 / number of features)."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import numpy as np
import pytest

import svmeval
from svmeval import cross_validate, grid_search, nested_cv, render, summarize, to_dict, to_frame

ROOT = Path(__file__).resolve().parents[2]
WINE = str(ROOT / "data" / "wine.scale")
BREAST = str(ROOT / "data" / "breast_cancer.scale")


def test_two_data_sets_by_two_configurations_pivot_into_a_full_table():
    pd = pytest.importorskip("pandas")
    metrics = pytest.importorskip("sklearn.metrics")
    runs = {
        (d, c): cross_validate(d, c, folds=3) for d in (WINE, BREAST) for c in ("-c 1", "-c  4")
    }
    frame = pd.concat([r.to_frame() for r in runs.values()])
    table = frame.pivot_table(index="dataset", columns="configuration", values="accuracy")
    assert table.shape == (2, 2) and not table.isna().any().any()
    assert sorted(table.columns) == ["-c 1", "-c 4"]  # as given (blanks made single)
    for (d, c), r in runs.items():
        folds = [
            metrics.accuracy_score(r.y_true[r.fold == k], r.y_pred[r.fold == k])
            for k in range(r.n_folds)
        ]
        assert table.loc[d, " ".join(c.split())] == pytest.approx(np.mean(folds))


def max_index(path) -> int:
    """The largest feature index of a LIBSVM-format file (LIBSVM's default gamma is 1 / it)."""
    with open(path) as lines:
        return max(int(t.split(":")[0]) for line in lines for t in line.split()[1:])


@pytest.mark.parametrize("defaults", [None, "", "  ", svmeval.SvmParams()], ids=repr)
def test_svm_train_s_defaults_have_an_empty_configuration_in_every_frame(defaults):
    """A run of svm-train's defaults has configuration "" as given, in its frames too (not
    the resolved flags, which differ with each data set's features): runs over two data sets
    pivot into one full column; ``options`` holds LIBSVM's default gamma, 1 / features."""
    pd = pytest.importorskip("pandas")
    metrics = pytest.importorskip("sklearn.metrics")
    features = {WINE: max_index(WINE), BREAST: max_index(BREAST)}
    runs = {d: cross_validate(d, defaults, folds=3) for d in features}
    frames = [r.to_frame() for r in runs.values()] + [
        summarize(r).to_frame() for r in runs.values()
    ]
    for d, r in runs.items():
        assert r.configuration == ""
        frame = r.to_frame()
        assert list(frame["configuration"]) == [""] * 3
        assert set(frame["options"]) == {f"-g {1 / features[d]:g}"}
        assert list(summarize(r).to_frame()["configuration"]) == [""] * 3
    table = pd.concat(frames).pivot_table(
        index="dataset", columns="configuration", values="accuracy"
    )
    assert table.shape == (2, 1) and not table.isna().any().any()
    for d, r in runs.items():
        folds = [
            metrics.accuracy_score(r.y_true[r.fold == k], r.y_pred[r.fold == k])
            for k in range(r.n_folds)
        ]
        assert table.loc[d, ""] == pytest.approx(np.mean(folds))


def test_the_defaults_configuration_is_empty_in_the_other_results_frames(tmp_path):
    pytest.importorskip("pandas")
    lines = ["1,2 1:0.1 2:0.9", "2 1:0.2 2:0.8", "1 1:0.9 2:0.1", "1,2 1:0.5 2:0.5"] * 4
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(lines) + "\n")
    multilabel = svmeval.cross_validate_multilabel(path, None, folds=3).to_frame()
    threshold = svmeval.tune_threshold(BREAST, None, folds=3, inner_folds=2).to_frame()
    nested = nested_cv(WINE, None, folds=3, inner_folds=2, log2c=(1, 1, 1), log2g=(1, 1, 1))
    assert set(multilabel["configuration"]) == {""}
    assert set(multilabel["options"]) == {"-g 0.5"}  # 1 / 2 features
    assert set(threshold["configuration"]) == {""}
    assert set(threshold["options"]) == {f"-g {1 / max_index(BREAST):g}"}
    assert set(nested.to_frame()["configuration"]) == {""}


def test_the_resolved_flags_have_a_column_of_their_own():
    pytest.importorskip("pandas")
    result = cross_validate(WINE, "-c 2", folds=3)
    frame = result.to_frame()
    n_features = 13  # wine.scale: LIBSVM's default gamma is 1/13
    assert set(frame["configuration"]) == {"-c 2"}
    assert set(frame["options"]) == {f"-g {1 / n_features:g} -c 2"}
    assert set(summarize(result).to_frame()["configuration"]) == {"-c 2"}
    given = svmeval.SvmParams(C=2.0)
    assert set(cross_validate(WINE, given, folds=3).to_frame()["configuration"]) == {"-c 2"}


def test_a_multilabel_frame_names_its_data_set(tmp_path):
    pytest.importorskip("pandas")
    lines = ["1,2 1:0.1 2:0.9", "2 1:0.2 2:0.8", "1 1:0.9 2:0.1", "1,2 1:0.5 2:0.5"] * 4
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(lines) + "\n")
    result = svmeval.cross_validate_multilabel(path, "-c 4", folds=3)
    assert set(result.to_frame()["dataset"]) == {str(path)}
    assert set(result.to_frame()["configuration"]) == {"-c 4"}


def test_a_figure_is_a_fraction_and_grid_py_s_percent_its_rate():
    metrics = pytest.importorskip("sklearn.metrics")
    grid = grid_search(WINE, log2c=(-1, 3, 2), log2g=(-5, -1, 2), folds=3)
    for r in grid.cells:
        assert r.value == pytest.approx(r.rate / 100, abs=1e-12)
        assert r.value == pytest.approx(r.figures["accuracy"], abs=5e-7)
    best = grid.best
    again = cross_validate(WINE, grid.best_params, folds=3)
    assert best.value == pytest.approx(metrics.accuracy_score(again.y_true, again.y_pred), abs=5e-7)
    assert to_dict(grid)["best"]["value"] == best.value
    if pytest.importorskip("pandas"):
        assert set(to_frame(grid)["value"]) <= {r.value for r in grid.cells}
    assert render(grid).splitlines()[-1].split()[-1] == f"{best.rate:g}"  # grid.py's line


def test_repeat_is_the_count_of_repetitions_everywhere():
    result = cross_validate(BREAST, folds=3, repeat=2)
    assert result.repeat == 2 and summarize(result).meta["repeat"] == 2
    c = svmeval.compare(BREAST, "-c 1", "-c 2", folds=3, repeat=2)
    assert c.repeat == 2
    nested = nested_cv(WINE, folds=3, inner_folds=3, log2c=(1, 1, 1), log2g=(-3, -3, 1))
    assert nested.repeat == 1
    with pytest.warns(DeprecationWarning):
        assert nested.as_dict() == to_dict(nested)["nested"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nested.n_repeats == nested.repeat and result.n_repeats == result.repeat


def test_render_to_dict_and_to_frame_take_a_cross_validation_as_it_is():
    result = cross_validate(BREAST, "-c 2", folds=3)
    assert render(result) == render(summarize(result))
    assert render(result, format="json") == render(summarize(result), format="json")
    assert to_dict(result)["n_folds"] == 3


def test_no_public_function_has_a_private_twin_with_other_argument_names():
    import svmeval.workflows.compare as module

    assert not hasattr(module, "run_compare")


PACKAGE = ROOT / "svmeval"


def retired_names(source: str, path: Path) -> list[str]:
    """Where ``path`` names an idea by a retired word instead of the public one: ``nr_fold``
    (LIBSVM's C name for k, the public ``folds``) anywhere but the command lines' options'
    field that svm-train's ``-v`` sets (an attribute, a keyword, a field of an options class of
    svmeval/cli/), and ``n_repeats`` (the old name of ``repeat``) anywhere but the definition
    of the public property that keeps it."""
    tree = ast.parse(source)
    cli = path.relative_to(PACKAGE).parts[0] == "cli"
    allowed = set()  # nodes where the retired word is in its place
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.AnnAssign) and cli:
                    allowed.add(id(statement.target))
                if isinstance(statement, ast.FunctionDef) and statement.name == "n_repeats":
                    allowed.add(id(statement))
    found = []
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        name = (
            node.id
            if isinstance(node, ast.Name)
            else node.arg
            if isinstance(node, (ast.arg, ast.keyword))
            else node.attr
            if isinstance(node, ast.Attribute)
            else node.name
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            else None
        )
        if name == "nr_fold" and not (cli and isinstance(node, (ast.Attribute, ast.keyword))):
            found.append(f"line {node.lineno}: nr_fold")
        elif name == "n_repeats":
            found.append(f"line {node.lineno}: n_repeats")
    return sorted(found, key=lambda line: (int(line.split(":")[0].split()[1]), line))


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_package_speaks_the_public_words_inside(path):
    """Inside the package too, k is ``folds`` (not LIBSVM's ``nr_fold``) and the count of
    repetitions ``repeat`` (not ``n_repeats``)."""
    assert retired_names(path.read_text(encoding="utf-8"), path) == []


def test_the_scan_sees_retired_names():
    """The scan above can fail: each retired word in a place that is not its own is seen."""
    source = (
        "def f(nr_fold, folds):\n"
        "    k = nr_fold\n"
        "    return g(nr_fold=k), result.n_repeats, o.nr_fold\n"
        "class R:\n"
        "    @property\n"
        "    def n_repeats(self):\n"
        "        return self.repeat\n"
    )
    inside_cv = retired_names(source, PACKAGE / "cv" / "probe.py")
    assert inside_cv == [
        "line 1: nr_fold",
        "line 2: nr_fold",
        "line 3: n_repeats",
        "line 3: nr_fold",
        "line 3: nr_fold",
    ]
    # on the command lines, the options' field keeps svm-train's name (o.nr_fold, nr_fold=)
    assert retired_names(source, PACKAGE / "cli" / "probe.py") == [
        "line 1: nr_fold",
        "line 2: nr_fold",
        "line 3: n_repeats",
    ]

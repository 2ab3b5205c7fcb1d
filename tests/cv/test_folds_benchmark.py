"""Groups and given folds in a benchmark (many data sets x configurations): each data set on
its own folds (groups kept whole, checked on the folds the run drew; the folds given), every
fold's value LIBSVM's own training and prediction on that fold by the bindings, data sets
without them on LIBSVM's folds; bad arguments and files refused before any work."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from sklearn import model_selection
from test_folds_given import libsvm_fold_by_fold
from test_folds_workflows import _whole, drawn  # noqa: F401 - the fixture

from svmeval import ArgumentError, SvmevalError, benchmark, read_dataset, render

import commands
from conftest import LOCAL, data_set

OPTIONS = {"A": "-c 1", "B": "-c 8 -g 0.05"}


def _groups(n: int, size: int = 5) -> list[str]:
    return [f"p{(i * 11) % (n // size)}" for i in range(n)]  # rows of a group interleaved


def _accuracy_by_fold(path, options: str, folds) -> list[float]:
    """The oracle: each fold's accuracy of LIBSVM's own training on its training rows."""
    y = read_dataset(path).y
    pairs = [(folds.train(i), folds.test(i)) for i in range(folds.n_folds)]
    pred = libsvm_fold_by_fold(path, options, pairs)
    return [float(np.mean(pred[test] == y[test])) for _, test in pairs]


def test_each_data_sets_groups_kept_whole_and_each_fold_libsvms_own(drawn):  # noqa: F811
    heart, wine = data_set("heart_scale"), LOCAL / "wine.scale"
    groups = _groups(read_dataset(heart).n_samples)
    b = benchmark([heart, wine], OPTIONS, 4, repeat=2, groups={read_dataset(heart).name: groups})
    assert b.fold_sources == (f"grouped ({len(set(groups))} groups)", "")
    assert len(drawn) == 4  # two repetitions of each data set
    for r, (_, folds, source) in enumerate(drawn[:2]):
        assert source is not None and source.grouped and _whole(folds, groups)
        for c, options in enumerate(OPTIONS.values()):
            np.testing.assert_array_equal(
                b.values[0, c, 4 * r : 4 * r + 4], _accuracy_by_fold(heart, options, folds)
            )
    assert not np.array_equal(drawn[0][1].fold_of(), drawn[1][1].fold_of())  # each seed's
    assert all(source is None for _, _, source in drawn[2:])  # wine: LIBSVM's folds
    assert f"grouped ({len(set(groups))} groups); LIBSVM's on the others" in " ".join(
        render(b).split()
    )
    assert json.loads(render(b, format="json"))["fold_sources"] == {
        read_dataset(heart).name: b.fold_sources[0]
    }


def test_given_folds_per_data_set_in_order_are_libsvms_own_training_fold_by_fold(drawn):  # noqa: F811
    heart, wine = data_set("heart_scale"), LOCAL / "wine.scale"
    sets = [read_dataset(p) for p in (heart, wine)]
    rng = np.random.default_rng(3)
    given = [
        list(model_selection.GroupKFold(3).split(np.zeros(ds.n_samples), ds.y, g))
        for ds, g in ((sets[0], rng.integers(0, 30, sets[0].n_samples)), (sets[1], None))
        if g is not None
    ] + [None]
    b = benchmark([heart, wine], OPTIONS, 3, repeat=1, given_folds=given)
    assert b.fold_sources == ("given", "")
    for c, options in enumerate(OPTIONS.values()):
        y = sets[0].y
        pred = libsvm_fold_by_fold(heart, options, given[0])
        want = [float(np.mean(pred[test] == y[test])) for _, test in given[0]]
        np.testing.assert_array_equal(b.values[0, c], want)
    assert drawn[1][2] is None  # wine on LIBSVM's folds


def test_a_stored_benchmark_keys_its_units_by_the_folds(tmp_path, drawn):  # noqa: F811
    heart, wine = data_set("heart_scale"), LOCAL / "wine.scale"
    groups = {read_dataset(heart).name: _groups(read_dataset(heart).n_samples)}
    store = tmp_path / "runs.sqlite"
    plain = benchmark([heart, wine], OPTIONS, 4, repeat=1, store=store)
    grouped = benchmark([heart, wine], OPTIONS, 4, repeat=1, groups=groups, store=store)
    alone = benchmark([heart, wine], OPTIONS, 4, repeat=1, groups=groups)
    np.testing.assert_array_equal(grouped.values, alone.values)  # not LIBSVM's folds' units
    assert not np.array_equal(grouped.values[0], plain.values[0])
    np.testing.assert_array_equal(grouped.values[1], plain.values[1])


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"groups": {"nothing": ["a"] * 9}}, "names no data set 'nothing'"),
        ({"groups": [None]}, "has 1 entries for 2 data sets"),
        ({"groups": "groups.txt"}, "a mapping data set name"),
        ({"given_folds": [np.arange(270) % 4, None], "repeat": 2}, "repeat: must be 1"),
        ({"given_folds": [np.arange(270) % 3, None]}, "3 folds given for folds=4"),
        ({"groups": [[f"g{i % 3}" for i in range(270)], None]}, "3 groups for folds=4"),
        (
            {"groups": [list(range(270)), None], "given_folds": [np.arange(270) % 4, None]},
            "not both",
        ),
        ({"groups": [list(range(269)), None]}, "has 269 entries; the data have 270 rows"),
    ],
)
def test_bad_groups_and_given_folds_refused_before_any_fold(kwargs, words, monkeypatch):
    from svmeval.cv.run import evaluate

    def never(*args, **kwargs):  # pragma: no cover - the check comes first
        raise AssertionError("a fold ran")

    monkeypatch.setattr(evaluate, "evaluate", never)
    heart = data_set("heart_scale")
    if read_dataset(heart).n_samples != 270:
        pytest.skip("the cases are written for heart_scale's 270 rows")
    with pytest.raises(SvmevalError) as error:
        benchmark([heart, LOCAL / "wine.scale"], OPTIONS, 4, **{"repeat": 1, **kwargs})
    assert words in str(error.value) and "\n" not in str(error.value)
    if "names no" in words or "entries for" in words:
        assert isinstance(error.value, ArgumentError)


def _compare(args, cwd) -> subprocess.CompletedProcess:
    return commands.run("compare", ["-q", *args], cwd=cwd)


def test_the_command_takes_one_groups_file_per_data_file_in_order(tmp_path):
    heart, wine = data_set("heart_scale"), LOCAL / "wine.scale"
    groups = _groups(read_dataset(heart).n_samples)
    file = tmp_path / "heart.groups"
    file.write_text("".join(f"{g}\n" for g in groups))
    args = ["-v", "4", "--repeat", "2", "--format", "json"]
    done = _compare(
        [*args, "--groups", str(file), "--groups", "-", str(heart), str(wine)]
        + ["--", "-c", "1", "--", "-c", "8", "-g", "0.05"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    library = benchmark([heart, wine], OPTIONS, 4, repeat=2, groups=[groups, None])
    np.testing.assert_array_equal(np.array(report["mean"]), library.mean)
    assert list(report["fold_sources"].values()) == [library.fold_sources[0]]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--groups", "G"], "--groups: given once for 2 data files"),
        (["--groups", "G", "--given-folds", "F", "--groups", "-", "--given-folds", "-"], "both"),
        (["-v", "groups", "--groups", "G", "--groups", "-"], "--groups FILE for every data file"),
        (["--groups", "-", "--groups", "SHORT"], "SHORT:178: no line for data row 178"),
        (["--given-folds", "-", "--given-folds", "F"], "F: 4 folds; -v asks for 10"),
    ],
)
def test_the_command_refuses_bad_fold_files_in_one_line_before_any_output(options, words, tmp_path):
    heart, wine = data_set("heart_scale"), LOCAL / "wine.scale"
    n = read_dataset(heart).n_samples
    (tmp_path / "G").write_text("".join(f"{g}\n" for g in _groups(n)))
    (tmp_path / "F").write_text("".join(f"{i % 4 + 1}\n" for i in range(178)))
    (tmp_path / "SHORT").write_text("".join(f"g{i % 7}\n" for i in range(177)))
    out = tmp_path / "report.txt"
    options = [str(tmp_path / o) if o in ("G", "F", "SHORT") else o for o in options]
    if "-v" not in options:
        options = ["-v", "10", *options]
    done = _compare(
        [*options, "-o", str(out), str(heart), str(wine), "--", "-c", "1", "--", "-c", "8"],
        tmp_path,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert words in done.stderr.replace(str(tmp_path) + "/", ""), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not out.exists()


def test_one_data_file_takes_one_groups_file(tmp_path):
    heart = data_set("heart_scale")
    g = tmp_path / "g"
    g.write_text("".join(f"{x}\n" for x in _groups(read_dataset(heart).n_samples)))
    done = _compare(
        ["--groups", str(g), "--groups", str(g), str(heart), "--", "-c", "1", "--", "-c", "8"],
        tmp_path,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "svmeval-compare: --groups: given more than once for one data file\n"

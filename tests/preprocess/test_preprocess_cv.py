"""Scaling and selection inside the folds against LIBSVM's own tools, fold by fold: each
fold's training rows written as a file and scaled by svm-scale (``-s range``), its test rows
by ``svm-scale -r range``, features kept by fselect.py's F-score (computed here on the
scaled training file), a model trained by LIBSVM's bindings on the scaled training file and
its predictions of the scaled test file: they equal svmeval's predictions of those rows.

The folds are the test's own (``given_folds``: row i in fold i % k), so each fold's files
hold its rows in file order, as svm-scale and svm-train read them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from svmeval import cross_validate
from svmeval.errors import ArgumentError
from svmeval.preprocess import ScaleSpec

from conftest import data_set

svmutil = pytest.importorskip("libsvm.svmutil")

K = 4


def fselect_top(labels, rows, k):
    """tools/fselect.py's ranking (cal_Fscore, then a stable sort by -F) of ``rows``: the top
    ``k`` features."""
    n = float(len(rows))
    count: dict = {}
    max_idx = max((f for row in rows for f in row), default=0)
    for label in labels:
        count[label] = count.get(label, 0) + 1
    total = [0.0] * (max_idx + 1)
    s = {la: [0.0] * (max_idx + 1) for la in count}
    q = {la: [0.0] * (max_idx + 1) for la in count}
    for label, row in zip(labels, rows):
        for f, v in row.items():
            total[f] += v
            s[label][f] += v
            q[label][f] += v**2
    scores = {}
    for f in range(1, max_idx + 1):
        sb = sum(count[la] * (s[la][f] / count[la] - total[f] / n) ** 2 for la in count)
        sw = 1e-12
        for la in count:
            sw += q[la][f] - s[la][f] ** 2 / count[la]
        scores[f] = sb / sw
    return {f for f, _ in sorted(scores.items(), key=lambda t: -t[1])[:k]}


def edge_file(tmp_path: Path) -> Path:
    """parkinsons (unscaled) with, past its last feature m, a feature of one value in every
    row (m + 1: 2.5), a sparse feature (m + 2: 4 in every third row, absent elsewhere) and
    one only in a few rows (m + 3)."""
    lines = data_set("parkinsons").read_text().splitlines()
    m = max(int(p.split(":")[0]) for line in lines for p in line.split()[1:])
    out = []
    for i, line in enumerate(lines):
        extra = f" {m + 1}:2.5" + (f" {m + 2}:4" if i % 3 == 0 else "")
        extra += f" {m + 3}:-1.5" if i % 50 == 7 else ""
        out.append(line.rstrip() + extra + "\n")
    path = tmp_path / "parkinsons_edges"
    path.write_text("".join(out))
    return path


def hand_pipeline(svm_scale, tmp_path, path, options, lower, upper, y=None, select=None):
    """Each fold's predictions by svm-scale, fselect.py's ranking and svm-train (LIBSVM's
    bindings): the predictions of every row, in the data's units."""
    from svmeval.cv import _libsvm

    lines = Path(path).read_text().splitlines(True)
    pred = np.empty(len(lines))
    for fold in range(K):
        train = tmp_path / f"train{fold}"
        test = tmp_path / f"test{fold}"
        train.write_text("".join(line for i, line in enumerate(lines) if i % K != fold))
        test.write_text("".join(line for i, line in enumerate(lines) if i % K == fold))
        scale = ["-l", str(lower), "-u", str(upper)] + ([] if y is None else ["-y", *map(str, y)])
        rng = tmp_path / f"range{fold}"
        for src, args in ((train, [*scale, "-s", str(rng)]), (test, ["-r", str(rng)])):
            done = subprocess.run(
                [str(svm_scale), *args, str(src)], capture_output=True, text=True, check=True
            )
            src.with_suffix(".scaled").write_text(done.stdout)
        ty, tx = svmutil.svm_read_problem(str(train.with_suffix(".scaled")))
        vy, vx = svmutil.svm_read_problem(str(test.with_suffix(".scaled")))
        if select is not None:
            keep = fselect_top(ty, tx, select)
            tx = [{f: v for f, v in row.items() if f in keep} for row in tx]
            vx = [{f: v for f, v in row.items() if f in keep} for row in vx]
        _libsvm.set_omp_threads(1)
        model = svmutil.svm_train(ty, tx, options + " -q")
        p, _, _ = svmutil.svm_predict(vy, vx, model, "-q")
        p = np.array(p)
        if y is not None:  # the range file's y lines: back to the data's units
            text = rng.read_text().splitlines()
            y_lower, y_upper = map(float, text[1].split())
            y_min, y_max = map(float, text[2].split())
            p = y_min + (p - y_lower) * (y_max - y_min) / (y_upper - y_lower)
        pred[np.arange(len(lines)) % K == fold] = p
    return pred


def svmeval_run(path, options, **kwargs):
    n = len(Path(path).read_text().splitlines())
    return cross_validate(str(path), options, given_folds=np.arange(n) % K + 1, **kwargs)


CLASSIFIERS = [
    f"-s {s} -t {t} {extra}"
    for s, extra in ((0, "-c 4"), (1, "-n 0.3"), (2, "-n 0.2"))
    for t in (0, 1, 2, 3)
]


@pytest.mark.parametrize("options", CLASSIFIERS)
def test_dense_unscaled_data_every_kernel(svm_scale, tmp_path, options):
    path = edge_file(tmp_path)
    options += " -g 0.05"
    mine = svmeval_run(path, options, scale=True)
    theirs = hand_pipeline(svm_scale, tmp_path, path, options, -1, 1)
    assert mine.y_pred.tolist() == theirs.tolist()


@pytest.mark.parametrize("options", ["-s 3 -t 2 -p 0.05", "-s 4 -t 1 -n 0.4", "-s 3 -t 0"])
def test_regression_with_y_scaling(svm_scale, tmp_path, options):
    path = data_set("housing_scale")
    options += " -g 0.1"
    mine = svmeval_run(path, options, scale=ScaleSpec(0, 1, y=(-1, 1)))
    theirs = hand_pipeline(svm_scale, tmp_path, path, options, 0, 1, y=(-1, 1))
    assert mine.y_pred.tolist() == theirs.tolist()


@pytest.mark.parametrize("options", ["-s 0 -t 2 -c 2", "-s 0 -t 0", "-s 0 -t 1 -d 2"])
def test_sparse_data_and_selection(svm_scale, tmp_path, options):
    """dna (180 binary features, three classes; its first 600 rows) scaled to [0, 1] (sparse
    stays sparse), 40 features kept."""
    path = tmp_path / "dna600"
    path.write_text("".join(data_set("dna.scale").read_text().splitlines(True)[:600]))
    options += " -g 0.02"
    mine = svmeval_run(path, options, scale=(0, 1), select=40)
    theirs = hand_pipeline(svm_scale, tmp_path, path, options, 0, 1, select=40)
    assert mine.y_pred.tolist() == theirs.tolist()


def test_selection_without_scaling_and_frequencies(tmp_path):
    """select alone keeps the raw values; the frequencies count the test's own folds."""
    path = edge_file(tmp_path)
    lines = path.read_text().splitlines()
    labels = [float(line.split()[0]) for line in lines]
    rows = [
        {int(a): float(b) for a, b in (p.split(":") for p in line.split()[1:])} for line in lines
    ]
    mine = svmeval_run(path, "-c 8 -g 0.001", select=3)
    counts: dict = {}
    for fold in range(K):
        chosen = fselect_top(
            [y for i, y in enumerate(labels) if i % K != fold],
            [r for i, r in enumerate(rows) if i % K != fold],
            3,
        )
        assert sorted(chosen) == mine.selected[fold].tolist()
        for f in chosen:
            counts[f] = counts.get(f, 0) + 1
    assert mine.selection_frequency == {f: c / K for f, c in counts.items()}


def test_plain_runs_are_unchanged():
    path = data_set("svmguide1")
    a = cross_validate(str(path), "-c 2")
    b = cross_validate(str(path), "-c 2", scale=None, select=None)
    assert a.y_pred.tolist() == b.y_pred.tolist() and b.preprocessing == ""


@pytest.mark.parametrize(
    "options, kwargs, argument",
    [
        ("-s 0", dict(scale=ScaleSpec(y=(0, 1))), "scale"),
        ("-s 3", dict(select=2), "select"),
        ("-s 0", dict(select=0), "select"),
        ("-s 0", dict(scale=(1, 0)), "scale"),
        ("-s 0", dict(scale="yes"), "scale"),
    ],
)
def test_bad_preprocessing_is_refused(options, kwargs, argument):
    with pytest.raises(ArgumentError) as info:
        cross_validate(str(data_set("svmguide1")), options, **kwargs)
    assert info.value.argument == argument


def test_the_store_keys_the_preprocessing(tmp_path):
    """A run with scaling or selection never reuses a unit stored without them (nor one with
    other options), and reuses its own."""
    from svmeval import open_store

    path = str(data_set("svmguide1"))
    store = tmp_path / "runs.db"
    cross_validate(path, "-c 2", store=store)
    runs = [dict(scale=True), dict(scale=(0, 1)), dict(scale=True, select=2)]
    with open_store(store) as s:
        for kwargs in runs:
            result = cross_validate(path, "-c 2", store=s, **kwargs)
            assert result.y_pred.tolist() == cross_validate(path, "-c 2", **kwargs).y_pred.tolist()
        assert (s.reused, s.computed) == (0, 3 * 5)
    with open_store(store) as s:
        again = cross_validate(path, "-c 2", store=s, scale=True, select=2)
        assert (s.reused, s.computed) == (5, 0)
    assert again.selected is not None and again.preprocessing == "scale -l -1 -u 1; select 2"


def test_to_dict_names_the_preprocessing_only_where_there_is_one():
    path = str(data_set("svmguide1"))
    plain = cross_validate(path, "-c 2").to_dict()
    assert "preprocessing" not in plain and "selected" not in plain
    run = cross_validate(path, "-c 2", scale=True, select=2)
    out = run.to_dict()
    assert out["preprocessing"] == "scale -l -1 -u 1; select 2"
    assert out["selected"] == [f.tolist() for f in run.selected] and len(out["selected"]) == 5

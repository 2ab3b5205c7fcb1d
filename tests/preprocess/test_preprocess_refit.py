"""A model trained on preprocessed rows (``train_and_save(scale=, select=)``, svmeval-grid's
``--refit`` with ``--scale``/``--select``) against LIBSVM's own tools: its range file is the
one svm-scale writes with ``-s`` on the whole file (built from LIBSVM's source), the rows
``svm-scale -r MODEL.range`` makes, kept to ``MODEL.features`` (fselect.py's ranking,
tests/test_preprocess_cv.py's ``fselect_top``), trained by LIBSVM's bindings give the same
model file byte for byte; without svm-scale, this file's own scaling formula
(tests/test_preprocess_analyses.py's) stands in."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from test_preprocess_analyses import own_scaling
from test_preprocess_cv import fselect_top

from svmeval import train_and_save
from svmeval.preprocess import ScaleSpec

import commands
from conftest import LOCAL, data_set

svmutil = pytest.importorskip("libsvm.svmutil")


def bindings_model(rows, labels, options, keep, path: Path) -> bytes:
    """The model file LIBSVM's bindings save for ``rows`` kept to ``keep`` (None: all)."""
    from svmeval.cv import _libsvm

    if keep is not None:
        rows = [{f: v for f, v in row.items() if f in keep} for row in rows]
    _libsvm.set_omp_threads(1)
    model = svmutil.svm_train(labels, rows, options + " -q")
    svmutil.svm_save_model(str(path), model)
    return path.read_bytes()


@pytest.mark.parametrize(
    "name, options, scale, args, select",
    [
        ("parkinsons", "-c 4 -g 0.1", (0, 1), ["-l", "0", "-u", "1"], 5),
        ("parkinsons", "-s 1 -n 0.3 -g 0.2", True, ["-l", "-1", "-u", "1"], None),
        ("housing_scale", "-s 3 -p 0.01 -g 0.2", ScaleSpec(y=(0, 1)), ["-y", "0", "1"], None),
    ],
)
def test_the_range_file_and_the_model_are_svm_scales(
    svm_scale, tmp_path, name, options, scale, args, select
):
    path = data_set(name)
    model = tmp_path / "m"
    train_and_save(str(path), options, model, scale=scale, select=select)
    expected_range = tmp_path / "expected.range"
    subprocess.run(
        [str(svm_scale), *args, "-s", str(expected_range), str(path)],
        capture_output=True,
        check=True,
    )
    assert (tmp_path / "m.range").read_bytes() == expected_range.read_bytes()
    scaled = subprocess.run(
        [str(svm_scale), "-r", str(tmp_path / "m.range"), str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (tmp_path / "scaled").write_text(scaled)
    labels, rows = svmutil.svm_read_problem(str(tmp_path / "scaled"))
    keep = None
    if select is not None:
        keep = fselect_top(labels, rows, select)
        written = [int(v) for v in (tmp_path / "m.features").read_text().split("\n") if v]
        assert written == sorted(keep)
    else:
        assert not (tmp_path / "m.features").exists()
    assert model.read_bytes() == bindings_model(rows, labels, options, keep, tmp_path / "b")


def test_the_model_is_the_own_formulas(tmp_path):
    path = data_set("parkinsons")
    labels, rows = svmutil.svm_read_problem(str(path))
    model = tmp_path / "m"
    train_and_save(str(path), "-c 2 -g 0.3", model, scale=(0, 1), select=6)
    scaled, _ = own_scaling(rows, [], 0, 1)
    keep = fselect_top(labels, scaled, 6)
    assert model.read_bytes() == bindings_model(scaled, labels, "-c 2 -g 0.3", keep, tmp_path / "b")
    # the range file holds the whole file's minimum and maximum of every feature kept
    text = (tmp_path / "m.range").read_text().splitlines()
    assert text[:2] == ["x", "0 1"]
    for line in text[2:]:
        index, low, high = line.split()
        column = [row.get(int(index), 0.0) for row in rows]
        assert (float(low), float(high)) == (min(column), max(column))
    assert (tmp_path / "m.features").read_text() == "".join(f"{f}\n" for f in sorted(keep))


def test_a_plain_model_has_no_side_files(tmp_path):
    train_and_save(str(LOCAL / "wine.scale"), "-c 2", tmp_path / "m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def grid(*args, cwd):
    return commands.run("grid", [str(a) for a in args], cwd=cwd)


RANGES = ["-log2c", "1,3,2", "-log2g", "-1,-3,-2", "-out", "null", "-png", "null"]


def test_the_command_refits_on_the_preprocessed_file(tmp_path):
    path = data_set("parkinsons")
    out = grid(*RANGES, "--scale-x", "0,1", "--select", "4", "--refit", "m", path, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    c, g, _ = out.stdout.splitlines()[-1].split()
    library = tmp_path / "lib"
    library.mkdir()
    train_and_save(str(path), f"-c {c} -g {g}", library / "m", scale=(0, 1), select=4)
    for name in ("m", "m.range", "m.features"):
        assert (tmp_path / name).read_bytes() == (library / name).read_bytes(), name
    labels, rows = svmutil.svm_read_problem(str(path))
    scaled, _ = own_scaling(rows, [], 0, 1)
    keep = fselect_top(labels, scaled, 4)
    assert (tmp_path / "m.features").read_text().split() == [str(f) for f in sorted(keep)]
    help_text = grid("--help", cwd=tmp_path).stdout
    assert "MODEL_FILE.range" in help_text and "MODEL_FILE.features" in help_text


def test_a_side_file_that_cannot_be_written_leaves_no_model(tmp_path):
    (tmp_path / "m.range").mkdir()  # a folder where the range file goes
    out = grid(*RANGES, "--scale", "--refit", "m", data_set("svmguide1"), cwd=tmp_path)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr.startswith("svmeval-grid: ") and out.stderr.count("\n") == 1, out.stderr
    assert "m.range" in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.range"]


def test_a_side_file_over_an_input_is_refused(tmp_path):
    data = tmp_path / "d.features"
    data.write_bytes(data_set("svmguide1").read_bytes())
    out = grid(*RANGES, "--select", "2", "--refit", "d", data, cwd=tmp_path)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr.count("\n") == 1 and "d.features" in out.stderr, out.stderr
    assert not (tmp_path / "d").exists()
    assert data.read_bytes() == data_set("svmguide1").read_bytes()


def test_library_arguments_are_checked(tmp_path):
    from svmeval.errors import ArgumentError

    with pytest.raises(ArgumentError, match="F-scores need classes"):
        train_and_save(str(LOCAL / "diabetes.scale"), "-s 3", tmp_path / "m", select=2)
    with pytest.raises(ArgumentError):
        train_and_save(str(LOCAL / "wine.scale"), "-c 1", tmp_path / "m", scale=(1, 0))
    assert not list(tmp_path.iterdir())


def test_predictions_of_the_saved_model_on_rows_scaled_by_its_range(tmp_path):
    """svm-predict's way: the rows scaled with the range file's factors, kept to its
    features, predicted by the saved model (LIBSVM's bindings load it)."""
    from svmeval.preprocess import parse_range

    path = data_set("parkinsons")
    train_and_save(str(path), "-c 8 -g 0.2", tmp_path / "m", scale=True, select=8)
    factors = parse_range((tmp_path / "m.range").read_text())
    labels, rows = svmutil.svm_read_problem(str(path))
    keep = {int(v) for v in (tmp_path / "m.features").read_text().split()}
    scaled = []
    for row in rows:
        out = {}
        for i, lo, hi in zip(factors.index, factors.fmin, factors.fmax):
            v = row.get(int(i), 0.0)
            s = -1.0 if v == lo else 1.0 if v == hi else -1 + 2 * (v - lo) / (hi - lo)
            s = float(f"{s:g}")
            if s != 0 and int(i) in keep:
                out[int(i)] = s
        scaled.append(out)
    model = svmutil.svm_load_model(str(tmp_path / "m"))
    pred, (accuracy, _, _), _ = svmutil.svm_predict(labels, scaled, model, "-q")
    trained = svmutil.svm_train(labels, scaled, "-c 8 -g 0.2 -q")
    again, _, _ = svmutil.svm_predict(labels, scaled, trained, "-q")
    assert pred == again and accuracy > 80
    assert np.mean(np.array(pred) == np.array(labels)) == pytest.approx(accuracy / 100)


def test_training_without_cross_validation_writes_the_range_file(tmp_path):
    """svmeval --scale DATA MODEL (svm-train's way, no -v): the model of the whole file
    scaled, with its range and features files: train_and_save's, itself checked above."""
    path = data_set("parkinsons")
    out = commands.run(
        "svmeval", ["-q", "--scale-x", "0,1", "--select", "3", str(path), "m"], cwd=tmp_path
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")
    library = tmp_path / "lib"
    library.mkdir()
    train_and_save(str(path), None, library / "m", scale=(0, 1), select=3)
    for name in ("m", "m.range", "m.features"):
        assert (tmp_path / name).read_bytes() == (library / name).read_bytes(), name
    (tmp_path / "m.range").unlink()
    (tmp_path / "m.range").mkdir()  # the range file cannot be written: no model either
    (tmp_path / "m").unlink()
    out = commands.run("svmeval", ["-q", "--scale", str(path), "m"], cwd=tmp_path)
    assert (out.returncode, out.stdout) == (1, "") and out.stderr.count("\n") == 1
    assert not (tmp_path / "m").exists()


def test_refit_of_a_sizes_search_is_refused(tmp_path):
    """--refit trains one model: a --select list of sizes gives no one K to train it with."""
    out = grid(*RANGES, "--select", "2,3", "--refit", "m", LOCAL / "wine.scale", cwd=tmp_path)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == "svmeval-grid: --select 2,3: not with --refit (give one K)\n"
    assert not list(tmp_path.iterdir())

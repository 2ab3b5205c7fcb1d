"""Labels that differ only past the 15th significant digit: every report tells them apart.
The oracle is the data file itself: each label printed must read back (C strtod, Python float)
as the label written in the file, so no two classes print alike."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import commands
from conftest import ROOT

LABELS = ["1", "1.0000000000000002", "1.0000000000000004"]  # %g prints each as "1"


@pytest.fixture
def near_labels(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "near.txt"
    path.write_text(
        "".join(
            f"{LABELS[i % 3]} 1:{a:.4f} 2:{b:.4f}\n"
            for i, (a, b) in enumerate(rng.uniform(-1, 1, (60, 2)))
        )
    )
    return path


def run(*args):
    done = commands.run("svmeval", args, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def as_in_file(texts):
    return sorted(float(t) for t in texts) == sorted(float(label) for label in LABELS)


def test_text_class_table_and_confusion_matrix(near_labels):
    out = run("-q", "-v", "5", "--full", near_labels).splitlines()
    head = out.index(next(line for line in out if line.split()[:2] == ["class", "precision"]))
    rows = [line.split()[0] for line in out[head + 1 : head + 4]]
    assert as_in_file(rows) and len(set(rows)) == 3
    matrix = out.index("confusion matrix (rows: true label, columns: predicted label)")
    assert as_in_file(out[matrix + 1].split())


def test_csv_and_json(near_labels):
    rows = [
        line.split(",")[1]
        for line in run("-q", "-v", "5", "--format", "csv", near_labels).splitlines()
        if line.startswith("class,")
    ]
    assert as_in_file(rows)
    report = json.loads(run("-q", "-v", "5", "--format", "json", near_labels))
    assert as_in_file([repr(c["label"]) for c in report["classes"]])

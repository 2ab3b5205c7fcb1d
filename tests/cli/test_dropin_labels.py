"""svm-train's per-class lines for two-class data of any labels: the patched svm-train's bytes.

The patch counts the samples labelled 1 as its "+1" class and every other sample as its "-1"
class, and prints the fixed headers ``Positive (+1) class:`` and ``Negative (-1) class:``
whatever the labels (0/1, 1/2, 2/4 ...); where no sample is labelled 1, its +1 block is 0/0.
The oracle here is the patch itself, written in the test as its C code computes it (double
divisions, C's ``printf("%g")`` through ctypes) on the predictions of LIBSVM's own
``svm_cross_validation``, which svmeval's are checked equal to; and, where
``SVMEVAL_LIBSVM_SOURCE`` names LIBSVM's source (a source tree or a git repository of it), the
patched svm-train built from it (``scripts/patched_svm_train.py``), byte for byte.
"""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import numpy as np
import pytest

import commands
from conftest import LOCAL, libsvm_cv

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
#: (the label of breast_cancer's +1 rows, the label of its -1 rows)
PAIRS = [
    (1, 0),
    (0, 1),
    (1, 2),
    (2, 1),
    (2, 4),
    (4, 2),
    (0, 2),
    (1, -1),
    (-1, 1),
    (INT_MIN, INT_MAX),
    (INT_MAX, INT_MIN),
    (1, INT_MAX),
    (INT_MIN, 1),
]
ROWS = 200  # breast_cancer.scale's first rows: a run the light path serves
NOTE = (
    "svmeval: no label 1 in these data (labels {a} and {b}): svm-train's per-class lines "
    "count label 1 as positive and every other label as negative; --full reports each "
    "label's precision, recall and F1\n"
)


def relabelled(directory: Path, positive: int, negative: int) -> Path:
    path = directory / f"breast_{positive}_{negative}"
    if not path.exists():
        lines = (LOCAL / "breast_cancer.scale").read_text().splitlines(True)[:ROWS]
        path.write_text(
            "".join(
                f"{positive if line.startswith('+1 ') else negative}{line[2:]}" for line in lines
            )
        )
    return path


def c_format(fmt: str, *values: float) -> str:
    """C's printf of doubles, through the C library."""
    buf = ctypes.create_string_buffer(512)
    ctypes.CDLL(None).snprintf(buf, len(buf), fmt.encode(), *map(ctypes.c_double, values))
    return buf.value.decode()


def patch_lines(y, target) -> str:
    """What the patched svm-train prints after its cross-validation: the accuracy line, then
    the patch's code (scripts/patched_svm_train.py) step by step, in doubles."""
    l = len(y)
    total_correct = sum(1 for a, b in zip(y, target) if a == b)
    out = c_format("Cross Validation Accuracy = %g%%\n", 100.0 * total_correct / l)
    tp = fp = fn = tn = 0
    for i in range(l):
        if y[i] == 1:
            if target[i] == 1:
                tp += 1
            else:
                fn += 1
        elif target[i] == 1:
            fp += 1
        else:
            tn += 1
    d = np.float64
    with np.errstate(invalid="ignore", divide="ignore"):
        for title, p, r in (
            ("Positive (+1)", d(tp) / d(tp + fp), d(tp) / d(tp + fn)),
            ("Negative (-1)", d(tn) / d(tn + fn), d(tn) / d(tn + fp)),
        ):
            f1 = 2 * p * r / (p + r)
            out += f"{title} class:\n"
            out += c_format("  precision = %g\n", p) + c_format("     recall = %g\n", r)
            out += c_format("   F1 value = %g\n\n", f1)
    return out


def svmeval(*args, importtime: bool = False):
    if not importtime:  # what a fresh process imports is not asked: the command in-process
        return commands.run("svmeval", args)
    return commands.run_process("svmeval", args, python_flags=["-X", "importtime"], timeout=300)


def imported(stderr: str) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def note(positive: int, negative: int) -> str:
    if 1 in (positive, negative):
        return ""
    a, b = sorted((positive, negative))
    return NOTE.format(a=a, b=b)


@pytest.mark.parametrize("positive,negative", PAIRS)
def test_the_patch_lines_on_the_light_path_and_the_full_command(tmp_path, positive, negative):
    """svmeval's predictions are LIBSVM's; its lines are the patch's computed from them, on the
    light path (no numpy) and in the full command alike; the note on stderr, one line, only
    where no sample is labelled 1."""
    from svmeval import cross_validate

    path = relabelled(tmp_path, positive, negative)
    target = libsvm_cv(path, "", 5)
    y = [float(line.split()[0]) for line in path.read_text().splitlines()]
    assert np.array_equal(cross_validate(str(path), folds=5).y_pred, target)
    expected = patch_lines(y, target)

    light = svmeval("-q", "-v", "5", path, importtime=True)
    modules = imported(light.stderr)
    assert "svmeval.cv.run.light" in modules and "numpy" not in modules  # served light
    assert light.returncode == 0
    assert light.stdout == expected
    assert [line for line in light.stderr.splitlines(True) if "import time:" not in line] == (
        [note(positive, negative)] if note(positive, negative) else []
    )
    full = svmeval("--digits", "4", "-q", "-v", "5", path)  # an option the light path lacks
    assert (full.returncode, full.stdout, full.stderr) == (0, expected, note(positive, negative))


@pytest.mark.parametrize("positive,negative", [(1, 0), (2, 4), (0, 2)])
def test_the_full_report_starts_with_the_same_lines_and_needs_no_note(tmp_path, positive, negative):
    path = relabelled(tmp_path, positive, negative)
    y = [float(line.split()[0]) for line in path.read_text().splitlines()]
    done = svmeval("-q", "-v", "5", "--full", path)
    assert done.returncode == 0 and done.stderr == ""
    head = patch_lines(y, libsvm_cv(path, "", 5))
    assert done.stdout.startswith(head)
    table = done.stdout[len(head) :].splitlines()  # then the per-class table, by label
    at = next(i for i, row in enumerate(table) if row.split()[:2] == ["class", "precision"])
    assert [row.split()[0] for row in table[at + 1 : at + 3]] == [
        str(v) for v in sorted((positive, negative))
    ]


@pytest.mark.parametrize("positive,negative", [(1, 0), (2, 4)])
def test_the_library_renders_the_same_lines(tmp_path, positive, negative):
    from svmeval import cross_validate, render, summarize

    path = relabelled(tmp_path, positive, negative)
    y = [float(line.split()[0]) for line in path.read_text().splitlines()]
    result = cross_validate(str(path), folds=5)
    assert render(summarize(result)) == patch_lines(y, libsvm_cv(path, "", 5))


def labelled_lines(y, target, positive: float) -> str:
    """The lines of an explicit positive class: its block, then the other class's, each
    headed by its own label (+ before a positive one, as LIBSVM's data files write it)."""
    negative = next(v for v in set(y) if v != positive)
    pairs = list(zip(y, target))
    out = c_format(
        "Cross Validation Accuracy = %g%%\n", 100.0 * sum(a == b for a, b in pairs) / len(y)
    )
    for label in (positive, negative):
        tp = sum(1 for a, b in pairs if a == label and b == label)
        fp = sum(1 for a, b in pairs if a != label and b == label)
        fn = sum(1 for a, b in pairs if a == label and b != label)
        p, r = tp / (tp + fp), tp / (tp + fn)
        title = "Positive" if label == positive else "Negative"
        shown = f"+{label:g}" if label > 0 else f"{label:g}"
        out += f"{title} ({shown}) class:\n"
        out += c_format("  precision = %g\n", p) + c_format("     recall = %g\n", r)
        out += c_format("   F1 value = %g\n\n", 2 * p * r / (p + r))
    return out


@pytest.mark.parametrize("positive,negative,pos_label", [(1, 0, 0), (2, 4, 4), (2, 4, 2)])
def test_pos_label_heads_each_block_with_its_label(tmp_path, positive, negative, pos_label):
    """--pos-label is svmeval's, not svm-train's: the class asked for first, each block under
    its own label, no note."""
    path = relabelled(tmp_path, positive, negative)
    y = [float(line.split()[0]) for line in path.read_text().splitlines()]
    done = svmeval("-q", "-v", "5", "--pos-label", pos_label, path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == labelled_lines(y, libsvm_cv(path, "", 5), float(pos_label))


# --- against the patched svm-train itself ---------------------------------------------------


@pytest.mark.parametrize("args", [["-v", "5"], ["-s", "1", "-n", "0.3", "-v", "4"]])
@pytest.mark.parametrize("positive,negative", PAIRS)
def test_bytes_of_the_patched_svm_train(tmp_path, patched_svm_train, positive, negative, args):
    path = relabelled(tmp_path, positive, negative)
    theirs = subprocess.run(
        [patched_svm_train, "-q", *args, path], capture_output=True, text=True, check=True
    )
    light = svmeval("-q", *args, path)
    full = svmeval("--digits", "4", "-q", *args, path)
    assert light.stdout == full.stdout == theirs.stdout
    assert light.stderr == full.stderr == theirs.stderr + note(positive, negative)

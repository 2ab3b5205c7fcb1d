"""Files close to LIBSVM's format but not in it. A file with commas and no index:value pair
anywhere is a CSV file: the reader says so (with or without ``multilabel``) and every command
ends with that line, never suggesting an option that would then misread it. A multi-label
file's labels are integers, written one way each: the stricter of what LIBSVM's multi-label
tools (labels compared as text) and scikit-learn's ``load_svmlight_file(multilabel=True)``
(labels read as floats) accept."""

from __future__ import annotations

import csv
import gzip
import subprocess
import sys

import numpy as np
import pytest

from svmeval.errors import DataFormatError
from svmeval.io.data import read_dataset

import commands
from conftest import HAVE_SHARED, LOCAL, libsvm_cv, shared_file

CSV = (
    "a CSV file (commas, and no index:value pair on any line), not LIBSVM's format: svmeval "
    'reads "label index:value ..." lines; convert it (e.g. with scikit-learn\'s '
    "dump_svmlight_file) or, from Python, pass arrays: cross_validate((X, y))"
)
MULTILABEL = "contains a comma: the file looks multi-label; use --multilabel"

# (id, content, the line the message names)
CSV_FILES = [
    ("header", b"label,f1,f2\n1,0.134,0.847\n0,0.2,0.3\n1,0.5,0.1\n0,0.9,0.4\n", 1),
    ("no-header", b"1,0.134,0.847\n0,0.2,0.3\n1,0.5,0.1\n0,0.9,0.4\n", 1),
    ("integers", b"1,2,3\n0,4,5\n1,6,7\n0,8,9\n", 1),
    ("spaces", b"1, 0.134, 0.847\r\n0, 0.2, 0.3\r\n", 1),
    ("blank-before-comma", b"1 ,2,3\n0 ,4,5\n", 1),
    ("colons-in-header", b"name,MDVP:Fo(Hz),Jitter:DDP,status\nS01,119.9,0.01,1\n", 1),
    ("quoted", b'"label","x"\n"1","0.5"\n', 1),
    ("one-column-first", b"1\n2,3\n", 2),
]


def write(tmp_path, content: bytes, name: str = "data.csv"):
    path = tmp_path / name
    path.write_bytes(content)
    return path


def csv_of(X: np.ndarray, y: np.ndarray, path, header: bool) -> None:
    """A CSV file as a spreadsheet or pandas writes one: the label first, every column."""
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        if header:
            writer.writerow(["label", *(f"f{j + 1}" for j in range(X.shape[1]))])
        for label, row in zip(y, X):
            writer.writerow([f"{label:g}", *(repr(float(v)) for v in row)])


@pytest.mark.parametrize("multilabel", [False, True], ids=["single", "multilabel"])
@pytest.mark.parametrize("content,line", [c[1:] for c in CSV_FILES], ids=[c[0] for c in CSV_FILES])
def test_a_csv_file_is_said_to_be_one(tmp_path, content, line, multilabel):
    path = write(tmp_path, content)
    with pytest.raises(DataFormatError) as err:
        read_dataset(path, multilabel=multilabel)
    assert (err.value.file, err.value.line, err.value.message) == (str(path), line, CSV)


def test_a_compressed_csv_file_and_one_on_stdin(tmp_path):
    path = write(tmp_path, gzip.compress(CSV_FILES[0][1]), "data.csv.gz")
    with pytest.raises(DataFormatError, match="a CSV file") as err:
        read_dataset(path)
    assert err.value.line == 1
    done = subprocess.run(
        [sys.executable, "-c", "from svmeval import read_dataset; read_dataset('-')"],
        input=CSV_FILES[1][1],
        capture_output=True,
    )
    assert b"<stdin>:1: a CSV file" in done.stderr


def test_the_shared_csv_file_is_said_to_be_one():
    """parkinsons.csv: a real CSV file (a header with colons, a text column), what a user
    passes by mistake."""
    path = shared_file("data", "parkinsons.csv")
    for multilabel in (False, True):
        with pytest.raises(DataFormatError) as err:
            read_dataset(path, multilabel=multilabel)
        assert (err.value.line, err.value.message) == (1, CSV)


@pytest.mark.parametrize(
    "content,line,message",
    [
        # an index:value pair anywhere (after the comma too): LIBSVM's format after all
        (b"1,2\n3 1:1\n", 1, f'label "1,2" {MULTILABEL}'),
        (b"1 1:0.5\n1,2 1:1\n", 2, f'label "1,2" {MULTILABEL}'),
        (b"2,3 1:1\n", 1, f'label "2,3" {MULTILABEL}'),
        # labels that multi-label data would refuse: --multilabel is not suggested
        (
            b"0.5,1 1:1\n",
            1,
            'label "0.5,1" is not a number, nor a multi-label set (labels written as '
            "integers, such as 0,7,-3)",
        ),
        # a decimal comma in a value is not a CSV file's comma
        (b"1 3:1,5\n", 1, 'feature "3:1,5": value "1,5" is not a number'),
    ],
)
def test_a_libsvm_file_with_commas_keeps_its_own_message(tmp_path, content, line, message):
    path = write(tmp_path, content, "data")
    with pytest.raises(DataFormatError) as err:
        read_dataset(path)
    assert (err.value.line, err.value.message) == (line, message)


COMMANDS = {
    "svmeval": ["svmeval", "-q", "-v", "2"],  # the drop-in call, served light if it could be
    "svmeval-full": ["svmeval", "-q", "-v", "2", "--full"],
    "multilabel": ["svmeval", "-q", "-v", "2", "--multilabel"],
    "grid": ["svmeval.cli", "grid", "-log2c", "0,1,1", "-log2g", "0,1,1", "-v", "2"],
    "compare": ["svmeval.cli", "compare", "-v", "2"],
}


@pytest.mark.parametrize("header", [True, False], ids=["header", "no-header"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_says_it_and_writes_nothing(tmp_path, command, header):
    """What a user gets from a CSV file, ``--multilabel`` included: the reader's line, exit 1,
    nothing on stdout, no report file."""
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(LOCAL / "breast_cancer.scale"))
    path = tmp_path / "breast.csv"
    csv_of(X.toarray()[:60], y[:60], path, header)
    module, *args = COMMANDS[command]
    tail = ["--", "--", "-c", "2"] if command == "compare" else []
    out = tmp_path / "report.txt"
    report = ["-out", str(out)] if command == "grid" else ["-o", str(out)]
    name = args.pop(0) if module == "svmeval.cli" else "svmeval"  # the command, in-process
    done = commands.run(name, [*args, *report, str(path), *tail], cwd=tmp_path)
    prog = {"grid": "svmeval-grid", "compare": "svmeval-compare"}.get(command, "svmeval")
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"{prog}: {path}:1: {CSV}\n"
    assert done.stdout == "" and not out.exists()


def test_the_advice_converts_the_file(tmp_path):
    """The file converted as the message says (read as numbers, then scikit-learn's
    dump_svmlight_file) and the arrays passed from Python: the same predictions, LIBSVM's own
    cross-validation's."""
    from sklearn.datasets import dump_svmlight_file, load_svmlight_file

    from svmeval import cross_validate

    X, y = load_svmlight_file(str(LOCAL / "breast_cancer.scale"))
    path = tmp_path / "breast.csv"
    csv_of(X.toarray()[:150], y[:150], path, header=True)
    with pytest.raises(DataFormatError, match="a CSV file"):
        cross_validate(str(path), folds=5)
    table = np.loadtxt(path, delimiter=",", skiprows=1)
    converted = tmp_path / "breast.libsvm"
    dump_svmlight_file(table[:, 1:], table[:, 0], str(converted), zero_based=False)
    on_file = cross_validate(str(converted), folds=5)
    in_memory = cross_validate((table[:, 1:], table[:, 0]), folds=5)
    assert np.array_equal(on_file.y_pred, libsvm_cv(converted, "", 5))
    assert np.array_equal(in_memory.y_pred, on_file.y_pred)


# --- multi-label labels: integers, written one way ----------------------------------------


def text_label_sets(path) -> list[set[str]]:
    """The oracle of LIBSVM's multi-label tools (trans_class.py, binary.py): a line's first
    token, when it holds no colon, split at commas; labels compared as text."""
    out = []
    for line in open(path, encoding="ascii"):
        first = line.split()[0] if line.split() else ""
        out.append(set() if not first or ":" in first else set(first.split(",")))
    return out


def read_label_sets(path) -> list[set[float]]:
    ds = read_dataset(path, multilabel=True)
    ip, v = ds.label_indptr, ds.label_values
    return [set(v[ip[i] : ip[i + 1]].tolist()) for i in range(ds.n_samples)]


def test_integer_labels_read_as_both_readers_read_them(tmp_path):
    """Labels written as multi-label files write them (0, 7, -3, up to 2^53): svmeval's sets
    are scikit-learn's and LIBSVM's tools' alike."""
    from sklearn.datasets import load_svmlight_file

    rng = np.random.default_rng(5)
    pool = [0, 1, 2, 7, 13, -3, 2**31, -(2**31) - 1, 2**53, -(2**53)]
    lines = []
    for i in range(60):
        labels = rng.choice(pool, size=int(rng.integers(0, 4)), replace=False)
        head = ",".join(str(int(v)) for v in labels)
        lines.append(f"{head} 1:{i / 10:g} 3:{rng.random():.6f}".lstrip() + "\n")
    path = write(tmp_path, "".join(lines).encode(), "ml")
    ours = read_label_sets(path)
    _, theirs = load_svmlight_file(str(path), multilabel=True, zero_based=False)
    assert ours == [set(t) for t in theirs]
    assert ours == [{float(int(v)) for v in s} for s in text_label_sets(path)]


@pytest.mark.parametrize(
    "label,other,why",
    [
        ("+1", "1", 'label "+1" is written "1" in a multi-label file'),
        ("01", "1", 'label "01" is written "1" in a multi-label file'),
        ("1.0", "1", 'label "1.0" is written "1" in a multi-label file'),
        ("1e2", "100", 'label "1e2" is written "100" in a multi-label file'),
        ("0x10", "16", 'label "0x10" is written "16" in a multi-label file'),
        ("-0", "0", 'label "-0" is written "0" in a multi-label file'),
        ("0.5", None, 'label "0.5" is not an integer (multi-label labels are integers)'),
        ("9007199254740993", "9007199254740992", 'label "9007199254740993" is beyond 2^53'),
    ],
)
def test_labels_the_two_readers_take_differently_are_refused(tmp_path, label, other, why):
    """Each refused spelling: where the file also held the integer's own spelling, LIBSVM's
    tools would see two labels and scikit-learn one (or, for 0.5, a label that is not an
    integer): svmeval refuses the file, naming the label and how it is written."""
    from sklearn.datasets import load_svmlight_file

    both = write(tmp_path, f"{label},2 1:1\n{other or 3} 1:2\n".encode(), "both")
    text = text_label_sets(both)
    if label.startswith("0x"):  # C's strtod reads it, LIBSVM's tools take it as text, and
        with pytest.raises(ValueError):  # scikit-learn refuses it
            load_svmlight_file(str(both), multilabel=True, zero_based=False)
    elif other is not None:  # one label for scikit-learn, two for LIBSVM's tools
        _, floats = load_svmlight_file(str(both), multilabel=True, zero_based=False)
        float_labels = set().union(*(set(t) for t in floats))
        assert len(set().union(*text)) == len(float_labels) + 1
    else:  # both take it, neither as an integer
        _, floats = load_svmlight_file(str(both), multilabel=True, zero_based=False)
        assert 0.5 in floats[0] and "0.5" in text[0]
    with pytest.raises(DataFormatError) as err:
        read_dataset(both, multilabel=True)
    assert err.value.line == 1
    assert err.value.message.startswith(f'label set "{label},2": {why}')


def test_multilabel_command_refuses_a_non_integer_label(tmp_path):
    path = write(tmp_path, b"0.5,1 1:0.1\n1 1:0.2\n0.5 1:0.3\n1 1:0.4\n", "ml")
    done = commands.run("svmeval", ["-q", "--multilabel", "-v", "2", str(path)])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f'svmeval: {path}:1: label set "0.5,1": label "0.5" is not an integer (multi-label labels are '
        "integers)\n"
    )


@pytest.mark.skipif(not HAVE_SHARED, reason="../shared is absent (yeast_train)")
def test_yeast_reads_as_before():
    """LIBSVM's multi-label yeast (labels 0-13) still reads, as scikit-learn reads it."""
    from sklearn.datasets import load_svmlight_file

    path = shared_file("data", "yeast_train")
    _, theirs = load_svmlight_file(str(path), multilabel=True, zero_based=False)
    assert read_label_sets(path) == [set(t) for t in theirs]

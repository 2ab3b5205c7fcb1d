"""A refused data set (or an argument the data refuse) leaves no output behind, in any command:
the data are checked before any output is created, and an existing output file is left as it
was. The oracle is the file system: the directory's names and contents before and after.
"""

from __future__ import annotations

import re

import pytest
from test_command_lines import run

from conftest import LOCAL

# every output each command can be asked for (svmeval-grid: with and without --nested)
OUTPUTS = {
    "svmeval": ["--predictions", "p.txt", "--folds", "f.txt", "-o", "r.txt", "--plot", "p.png"],
    "grid": ["-out", "g.out", "-png", "g.png", "--results", "r.csv", "--refit", "m.model"],
    "nested": ["--nested", "2", "--predictions", "p.txt", "--folds", "f.txt"],
    "compare": ["-o", "r.txt"],
    "benchmark": ["-o", "r.txt", "--plot", "cd.png"],
}
BAD_DATA = {
    "one_sample": ("+1 1:0.5\n", "needs at least 2 samples|applies to two-class data only"),
    "bad_value": ("+1 1:0.5\n-1 1:x\n", ':2: feature "1:x"'),
    "empty": ("", "no samples"),
    "multi_label": ("1,2 1:0.5\n2 1:0.7\n1 1:0.1\n", 'label "1,2" contains a comma'),
    "labels_2_4": (
        "2 1:0.5\n4 1:0.7\n2 1:0.1\n4 1:0.9\n",
        "--pos-label 1 is not one of the labels",
    ),
}


def command_line(kind: str, data: str) -> tuple[str, list]:
    pos = ["--pos-label", "1"] if kind != "svmeval" else []
    if kind == "svmeval":
        return "svmeval", ["-q", "-v", "2", "--pos-label", "1", *OUTPUTS[kind], data]
    if kind in ("grid", "nested"):
        return "grid", [
            "-q",
            "-log2c",
            "1,1,1",
            "-log2g",
            "-1,-1,1",
            "-v",
            "2",
            *pos,
            *OUTPUTS[kind],
            data,
        ]
    datas = [data] if kind == "compare" else [str(LOCAL / "breast_cancer.scale"), data]
    return "compare", [
        "-v",
        "2",
        "--repeat",
        "1",
        *pos,
        "--criterion",
        "f1",
        *OUTPUTS[kind],
        *datas,
        "--",
        "--",
        "-c",
        "2",
    ]


def snapshot(directory) -> dict:
    return {p.name: p.read_bytes() for p in directory.iterdir()}


@pytest.mark.parametrize("problem", BAD_DATA)
@pytest.mark.parametrize("kind", OUTPUTS)
def test_refused_data_set_leaves_no_file(tmp_path, kind, problem):
    text, message = BAD_DATA[problem]
    (tmp_path / "data").write_text(text)
    before = snapshot(tmp_path)
    command, args = command_line(kind, "data")
    done = run(command, args, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert re.search(message, done.stderr), done.stderr
    assert snapshot(tmp_path) == before


def test_refused_data_set_leaves_an_existing_out_file_as_it_was(tmp_path):
    (tmp_path / "data").write_text(BAD_DATA["one_sample"][0])
    (tmp_path / "g.out").write_text("log2c=1.0 log2g=-1.0 rate=50.0\n")
    before = snapshot(tmp_path)
    for extra in ([], ["-resume", "g.out"]):
        done = run(
            "grid",
            ["-log2c", "1,3,2", "-log2g", "-1,-1,1", "-out", "g.out", *extra, "data"],
            cwd=tmp_path,
        )
        assert done.returncode == 1 and "needs at least 2 samples" in done.stderr
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("order", ["first", "second"])
def test_pos_label_missing_from_one_data_set_names_it(tmp_path, order):
    two_four = tmp_path / "bc24"
    two_four.write_text(
        "".join(
            ("4" + line[2:])
            if line.startswith("+1 ")
            else ("2" + line[2:])
            if line.startswith("-1 ")
            else line
            for line in (LOCAL / "breast_cancer.scale").open()
        )
    )
    datas = [str(LOCAL / "breast_cancer.scale"), str(two_four)]
    if order == "first":
        datas.reverse()
    done = run(
        "compare",
        ["-v", "2", "--repeat", "1", "--pos-label", "1", *datas, "--", "--", "-c", "2"],
        cwd=tmp_path,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"svmeval-compare: --pos-label 1 is not one of the labels of {two_four} (2, 4)\n"
    )
    # a multiclass data set among two-class ones is named too
    done = run(
        "compare",
        [
            "-v",
            "2",
            "--repeat",
            "1",
            "--pos-label",
            "1",
            str(LOCAL / "breast_cancer.scale"),
            str(LOCAL / "wine.scale"),
            "--",
            "--",
            "-c",
            "2",
        ],
        cwd=tmp_path,
    )
    assert done.stderr == (
        f"svmeval-compare: --pos-label applies to two-class data only "
        f"({LOCAL / 'wine.scale'} has 3 classes)\n"
    )

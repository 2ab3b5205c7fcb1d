"""The rules every command line follows, run against svmeval, svmeval-grid and svmeval-compare
alike: option values read with svm-train's C rules (``atoi``/``strtod`` of the whole value, C
ranges), one line and exit status 1 for bad input, and every output checked before any work
(never an input, never another output of the run, never a directory or a missing directory).

The oracles are C's own reading of numbers (a value is accepted only where ``atoi``/``strtod``
consume all of it), the file system (contents before and after, ``os.stat``), and LIBSVM's
grid.py (``tools/grid.py``: its lines, its ``-out`` reader that skips lines without ``rate=``).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from svmeval.cli.compare import parse_compare_args
from svmeval.cli.grid import parse_grid_args
from svmeval.cli.linear import SVMEVAL_OPTIONS, parse_linear_args
from svmeval.cli.svmeval import parse_args
from svmeval.errors import OptionError

import commands
from conftest import ROOT

SMALL = ROOT / "data" / "breast_cancer.scale"
MODULES = {
    "svmeval": ["svmeval"],
    "grid": ["svmeval.cli", "grid"],
    "compare": ["svmeval.cli", "compare"],
}
PROGRAMS = {"svmeval": "svmeval", "grid": "svmeval-grid", "compare": "svmeval-compare"}
COMMANDS = list(MODULES)


def line(command: str, options: list[str], data, report=None) -> list[str]:
    """A cheap, valid command line of ``command`` with ``options`` added (``report``: where
    the report goes, grid.py's ``-out`` file for svmeval-grid)."""
    data = str(data)
    if command == "svmeval":
        return ["-q", "-v", "2", *options, *(["-o", report] if report else []), data]
    if command == "grid":
        return [
            "-q",
            "-log2c",
            "1,1,1",
            "-log2g",
            "-1,-1,1",
            "-gnuplot",
            "null",
            "-out",
            report or "null",
            "-v",
            "2",
            *options,
            data,
        ]
    return [
        "-v",
        "2",
        "--repeat",
        "1",
        *options,
        *(["-o", report] if report else []),
        data,
        "--",
        "--",
        "-c",
        "2",
    ]


GRID_RANGES = ["-log2c", "-1,1,2", "-log2g", "-3,-1,2", "-v", "3"]
GRID_SMALL = [*GRID_RANGES, "-gnuplot", "null"]
PARSE = {"svmeval": parse_args, "grid": parse_grid_args, "compare": parse_compare_args}


def parse(command: str, options: list[str]):
    return PARSE[command](line(command, options, "data"))


def run(command: str, args, *, cwd=None, stdout=subprocess.PIPE, timeout=120):
    return commands.run(command, args, cwd=cwd, stdout=stdout, timeout=timeout)


def one_line_exit_1(done, text: str = "") -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


def option_error(done, command: str, text: str) -> None:
    """An option refused: one line in every command, never the usage after it."""
    message, _, rest = done.stderr.partition("\n")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in message, done.stderr
    assert rest == "", done.stderr


def digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- every value by svm-train's C rules, in every command ---------------------------------
C_RULES = [
    ("--seed", "1_0", "is not an integer"),  # atoi stops at "_": not the whole value
    ("--seed", " 1", "is not an integer"),
    ("--seed", "-1", "out of range"),
    ("--seed", "4294967296", "out of range"),  # beyond srand's unsigned int
    ("--jobs", "0", "out of range"),
    ("--jobs", "2.5", "is not an integer"),
    ("--jobs", "٣", "is not an integer"),  # a non-ASCII digit atoi does not read
    ("-v", "1", "n must >= 2"),
    ("-v", "5x", "is not an integer"),
    ("--pos-label", "1_0", "is not a number"),  # strtod stops at "_"
    ("--pos-label", "nan", "is not a finite number"),
    ("--zero-division", "2", "is not one of 0, 1, nan"),
    ("--dask", "local:abc", "not local or local:N"),
    ("--dask", "local:-1", "not local or local:N"),
    ("--dask", "local:0", "at least 1 worker"),
    ("--dask", "inproc://", "not tcp://HOST:PORT"),
    ("--dask", "tcp://h:8786/path", "not tcp://HOST:PORT"),
    ("--dask", "tcp://h:99999", "not tcp://HOST:PORT"),
]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("flag,value,message", C_RULES)
def test_values_are_read_by_c_rules_in_every_command(command, flag, value, message):
    with pytest.raises(OptionError, match=re.escape(message)):
        parse(command, [flag, value])


@pytest.mark.parametrize(
    "flag,value,message",
    [
        *[rule for rule in C_RULES if rule[0] in SVMEVAL_OPTIONS or rule[0] == "-v"],
        ("--permutations", "1_0", "is not an integer"),
        ("--permutations", "0", "out of range"),
        ("--permutations", "1e3", "is not an integer"),
        ("--repeat", "1e1", "is not an integer"),
    ],
)
def test_svmeval_linear_reads_svmevals_options_by_the_same_rules(flag, value, message):
    """svmeval-linear's options that are svmeval's (--seed, --permutations, --threshold,
    --repeat) are read by svmeval's declarations: the same refusals."""
    assert {"--seed", "--permutations", "--threshold", "--repeat"} <= set(SVMEVAL_OPTIONS)
    analysis = [] if flag in ("--permutations", "-v") else ["--permutations", "3"]
    with pytest.raises(OptionError, match=re.escape(message)):
        parse_linear_args(["-v", "2", *analysis, flag, value, "data"])


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "flag,value,expected",
    [
        ("--seed", "+10", 10),
        ("--seed", "007", 7),
        ("--seed", "4294967295", 2**32 - 1),
        ("--jobs", "3", 3),
        ("--pos-label", "0x1p1", 2.0),
        ("--pos-label", "-1.", -1.0),
    ],
)
def test_values_c_reads_whole_are_taken_in_every_command(command, flag, value, expected):
    options = parse(command, [flag, value])
    assert getattr(options, flag.lstrip("-").replace("-", "_")) == expected


@pytest.mark.parametrize(
    "command,flag,value,message",
    [
        ("compare", "--confidence", "1", "between 0 and 1"),
        ("compare", "--confidence", "0.9_5", "is not a number"),
        ("compare", "--repeat", "0", "out of range"),
        ("svmeval", "--repeat", "1e1", "is not an integer"),
        ("grid", "--kernel-memory", "-1", "0 MB or more"),
        ("grid", "--kernel-memory", "2_048", "is not a number"),
        ("grid", "-log2c", "1_0,2,1", "numbers needed"),  # Python's float() would take 1_0
        ("grid", "--log2p", " 1,2,1", "numbers needed"),
    ],
)
def test_each_commands_own_values_by_the_same_rules(command, flag, value, message):
    with pytest.raises(OptionError, match=re.escape(message)):
        parse(command, [flag, value])


def test_seed_1_0_is_refused_not_read_as_10():
    for command in COMMANDS:
        with pytest.raises(OptionError, match="'1_0' is not an integer"):
            parse(command, ["--seed", "1_0"])


@pytest.mark.parametrize(
    "address", ["local:99999", "local:-1", "local:abc", "inproc://", "tcp://h:8786/path"]
)
@pytest.mark.parametrize("command", COMMANDS)
def test_dask_addresses_that_are_not_one_are_one_line(command, address):
    """Refused while the options are read: no cluster is started, no scheduler waited for."""
    done = run(command, line(command, ["--dask", address], SMALL), timeout=60)
    option_error(done, command, f"{PROGRAMS[command]}: --dask {address}: ")
    assert done.stdout == ""


def test_dask_local_above_the_cores_is_refused_naming_them():
    cores = len(os.sched_getaffinity(0))
    for command in COMMANDS:
        with pytest.raises(OptionError, match=f"at most {cores} workers"):
            parse(command, ["--dask", f"local:{cores + 1}"])
        assert parse(command, ["--dask", f"local:{cores}"]).dask == f"local:{cores}"


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_options_and_missing_values_are_one_line(command):
    done = run(command, line(command, ["--bogus"], SMALL))
    option_error(done, command, f"{PROGRAMS[command]}: unknown option: --bogus")
    with pytest.raises(OptionError, match="needs a value"):
        PARSE[command](["--seed", "data"] if command == "grid" else ["-q", "--seed"])


def _nearest_by_difflib(flag: str, command: str) -> str | None:
    """The oracle of the suggestion: difflib's closest of the command's declared flags (as
    its usage lists them), asked independently of svmeval's parser."""
    import difflib

    from svmeval.cli.options import options_of

    return (difflib.get_close_matches(flag, list(options_of(command)), n=1, cutoff=0.75) or [None])[
        0
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_typo_and_no_arguments_answer_alike_in_every_command(command):
    """A mistyped option: one line that names it and the nearest valid option, exit status 1;
    an option with none near: one line pointing to --help; no arguments: the short usage and
    where every option is (at most three lines), exit status 1, nothing on standard output."""
    typo = "--seeds"  # a typo of --seed, an option of every command
    assert _nearest_by_difflib(typo, command) == "--seed"
    done = run(command, line(command, [typo, "2"], SMALL))
    lines = done.stderr.splitlines()
    assert (done.returncode, done.stdout, len(lines)) == (1, "", 1), done.stderr
    assert lines[0] == f"{PROGRAMS[command]}: unknown option: {typo}; did you mean --seed?"

    far = "--xyzzy"
    assert _nearest_by_difflib(far, command) is None
    done = run(command, line(command, [far], SMALL))
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == (
        f"{PROGRAMS[command]}: unknown option: {far} (--help lists every option)\n"
    )

    done = run(command, [])
    lines = done.stderr.splitlines()
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert 2 <= len(lines) <= 3 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"Usage: {PROGRAMS[command]} ")
    assert lines[-1] == f"Try '{PROGRAMS[command]} --help' for every option."
    assert all(len(x) <= 80 for x in lines), lines
    usage = run(command, ["--help"]).stdout  # the short usage's lines are the full usage's
    assert all(x.split()[-1] in usage for x in lines[:-1])


def test_svm_train_typos_are_answered_with_its_flag():
    """Another case of a flag's letters (-log2C, -C) names the flag itself."""
    done = run("grid", line("grid", ["-log2C", "1,2,1"], SMALL))
    assert done.stderr == "svmeval-grid: unknown option: -log2C; did you mean -log2c?\n"
    done = run("svmeval", ["-C", "2", "-v", "2", SMALL])
    assert done.stderr == "svmeval: unknown option: -C; did you mean -c?\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_usage_lists_every_option_the_command_takes(command):
    from svmeval.cli.options import TABLE, options_of
    from svmeval.cli.usage import usage_text

    usage = usage_text(command)
    assert usage.startswith(f"Usage: {PROGRAMS[command]} ")
    taken = options_of(command)
    for option in TABLE:
        if any(flag in taken for flag in option.flags) and not option.svm:
            assert any(flag in usage for flag in option.flags), (command, option.flags)
    done = run(command, ["--help"])
    assert (done.returncode, done.stdout, done.stderr) == (0, usage, "")


@pytest.mark.parametrize("command", [*COMMANDS, "store"])
def test_usage_fits_an_80_column_terminal(command):
    """Every line of every command's --help fits 80 columns (a tab to the next multiple of
    8), but svm-train's own option lines, which svmeval prints as svm-train does."""
    from svmeval.cli.options import SVM_TRAIN_OPTIONS
    from svmeval.cli.store import USAGE
    from svmeval.cli.usage import usage_text

    usage = USAGE if command == "store" else usage_text(command)
    svm_train = {line for o in SVM_TRAIN_OPTIONS for line in o.usage(command).splitlines()}
    wide = [
        line
        for line in usage.splitlines()
        if len(line.expandtabs(8)) > 80 and line not in svm_train
    ]
    assert wide == []
    assert len(usage.splitlines()) > 10  # the whole usage, not an empty one


# --- outputs: checked before any work, in every command -----------------------------------
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("spelling", ["same", "link", "dotted"])
def test_the_data_file_is_never_an_output(command, spelling, tmp_path):
    data = tmp_path / "h"
    data.write_bytes(SMALL.read_bytes())
    before = digest(data)
    target = {"same": "h", "link": "l", "dotted": "./sub/../h"}[spelling]
    (tmp_path / "l").symlink_to(data)
    (tmp_path / "sub").mkdir()
    done = run(command, line(command, [], "h", report=target), cwd=tmp_path)
    one_line_exit_1(done, "refusing to write over an input")
    assert done.stdout == "" and digest(data) == before


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "where,reason", [("nodir/r.txt", "No such file or directory"), (".", "Is a directory")]
)
def test_directories_and_missing_parents_are_refused_before_work(command, where, reason, tmp_path):
    done = run(command, line(command, [], SMALL, report=where), cwd=tmp_path)
    one_line_exit_1(done, reason)
    assert done.stdout == ""
    assert sorted(os.listdir(tmp_path)) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_standard_output_on_dev_full_is_one_line(command):
    with open("/dev/full", "w") as full:
        for args in (["--help"], line(command, [], SMALL)):
            done = run(command, args, stdout=full)
            one_line_exit_1(done, "No space left on device")


@pytest.mark.parametrize("command", COMMANDS)
def test_closed_standard_output_is_one_line_before_any_work(command, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", *MODULES[command], *line(command, [], SMALL, report=None)],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
    )
    one_line_exit_1(done, "standard output is closed")
    assert os.listdir(tmp_path) == []


# --- the defects, each by name --------------------------------------------------------------
def test_compare_o_h_h_does_not_replace_the_data_file(tmp_path):
    data = tmp_path / "h"
    data.write_bytes(SMALL.read_bytes())
    (tmp_path / "link").symlink_to(data)
    before = digest(data)
    for target in ("h", "link"):
        done = run(
            "compare",
            ["-v", "3", "--repeat", "1", "-o", target, "h", "--", "-c", "1", "--", "-c", "2"],
            cwd=tmp_path,
        )
        one_line_exit_1(done, f"-o {target} is the data file h: refusing to write over")
        assert digest(data) == before


def _predictions(tmp_path, values_a, values_b):
    pa, pb = tmp_path / "pa.txt", tmp_path / "pb.txt"
    pa.write_text("".join(f"{v}\n" for v in values_a))
    pb.write_text("".join(f"{v}\n" for v in values_b))
    return pa, pb


def test_compare_mcnemar_o_does_not_replace_a_predictions_file(tmp_path):
    n = len(SMALL.read_text().splitlines())
    pa, pb = _predictions(tmp_path, [1] * n, [-1] * n)
    before = digest(pa)
    done = run("compare", ["--mcnemar", "-o", "pa.txt", "pa.txt", "pb.txt", SMALL], cwd=tmp_path)
    one_line_exit_1(done, "is predictions file A pa.txt: refusing to write over an input")
    assert digest(pa) == before


def test_mcnemar_refuses_regression_predictions(tmp_path):
    n = len(SMALL.read_text().splitlines())
    pa, pb = _predictions(tmp_path, [0.25] * n, [1] * n)
    done = run("compare", ["--mcnemar", pa, pb, SMALL])
    one_line_exit_1(done, "pa.txt: predictions are not class labels (not integers)")
    assert done.stdout == ""


@pytest.mark.parametrize(
    "first,second",
    [("-out", "-png"), ("-out", "--results"), ("--results", "--refit"), ("-out", "--refit")],
)
def test_grid_outputs_may_not_share_a_file(first, second, tmp_path):
    name = "x.csv"  # a name --results takes
    done = run("grid", [*GRID_RANGES, first, name, second, name, SMALL], cwd=tmp_path)
    one_line_exit_1(done, "both go to the same file")
    assert done.stdout == "" and os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "option", [["--results", "nodir/r.csv"], ["--refit", "."], ["-png", "nodir/p.png"]]
)
def test_grid_outputs_are_checked_before_the_search(option, tmp_path):
    done = run("grid", [*GRID_RANGES, "-out", "g.out", *option, SMALL], cwd=tmp_path)
    one_line_exit_1(done, "cannot write")
    assert done.stdout == "" and os.listdir(tmp_path) == []  # no cell ran, no -out begun


def test_grid_log2c_null_prints_no_none():
    """grid.py (LIBSVM 3.37 tools/grid.py, update_param) joins the logs it searched:
    ``' '.join(str(x) for x in [c, g] if x is not None)``."""
    args = [
        "-log2c",
        "null",
        "-log2g",
        "-1,-1,1",
        "-gnuplot",
        "null",
        "-out",
        "null",
        "-c",
        "2",
        SMALL,
    ]
    done = run("grid", args)
    assert done.returncode == 0, done.stderr
    first, last = done.stdout.splitlines()
    assert first.startswith("[local] -1.0 ") and "None" not in done.stdout
    rate = first.split()[2]
    assert first == f"[local] -1.0 {rate} (best g=0.5, rate={rate})"
    assert last == f"0.5 {rate}"


def test_grid_non_accuracy_criteria_carry_g_digits_as_grid_py(tmp_path):
    """grid.py's values are svm-train's ``%g`` rates read back: at most 6 significant
    digits, in every line and in the -out file."""
    args = [
        "-log2c",
        "-1,3,2",
        "-log2g",
        "-3,-1,2",
        "-gnuplot",
        "null",
        "-out",
        "g.out",
        "--criterion",
        "mcc",
        "-v",
        "3",
        SMALL,
    ]
    done = run("grid", args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    values = [ln.split()[2] for ln in done.stdout.splitlines()[:-1]]
    values += [
        ln.rsplit("rate=", 1)[1]
        for ln in (tmp_path / "g.out").read_text().splitlines()
        if "rate=" in ln
    ]
    values.append(done.stdout.splitlines()[-1].split()[-1])
    for text in values:
        assert float(text) == float(f"{float(text):g}"), text  # six digits say it all
        assert text == str(float(text))  # as Python writes the float grid.py read back


def grid_py_resume_cells(text: str) -> dict:
    """The cells LIBSVM's grid.py reads from a -out file (calculate_jobs' resume loop)."""
    cells = {}
    for ln in text.splitlines():
        ln = ln.strip()
        rst = re.findall(r"rate=([0-9.]+)", ln)
        if not rst:
            continue
        c = re.findall(r"log2c=([0-9.-]+)", ln)
        g = re.findall(r"log2g=([0-9.-]+)", ln)
        cells[(float(c[0]) if c else None, float(g[0]) if g else None)] = float(rst[0])
    return cells


def test_grid_resume_with_another_criterion_is_refused(tmp_path):
    out = tmp_path / "g.out"
    done = run("grid", [*GRID_SMALL, "-out", out, SMALL])  # accuracy, grid.py's own file
    assert done.returncode == 0, done.stderr
    before = out.read_text()
    assert "#" not in before  # an accuracy file is byte for byte grid.py's
    resumed = run("grid", [*GRID_SMALL, "--criterion", "mcc", "-resume", out, "-out", out, SMALL])
    one_line_exit_1(resumed, "holds accuracy values; resuming with --criterion mcc")
    assert resumed.stdout == "" and out.read_text() == before
    # an mcc file records its criterion on a line grid.py's reader skips
    mcc = tmp_path / "m.out"
    assert run("grid", [*GRID_SMALL, "--criterion", "mcc", "-out", mcc, SMALL]).returncode == 0
    text = mcc.read_text()
    assert text.splitlines()[0] == "# svmeval-grid criterion mcc"
    assert len(grid_py_resume_cells(text)) == 4
    refused = run("grid", [*GRID_SMALL, "-resume", mcc, "-out", mcc, SMALL])
    one_line_exit_1(refused, "holds mcc values; resuming with --criterion accuracy")
    again = run("grid", [*GRID_SMALL, "--criterion", "mcc", "-resume", mcc, "-out", mcc, SMALL])
    assert again.returncode == 0 and again.stdout.count("[resumed]") == 4


def test_grid_resume_ignores_a_truncated_last_line(tmp_path):
    out = tmp_path / "g.out"
    whole = run("grid", [*GRID_SMALL, "-out", out, SMALL])
    assert whole.returncode == 0, whole.stderr
    lines = out.read_text().splitlines(True)
    partial = tmp_path / "p.out"
    partial.write_text("".join(lines[:2]) + lines[2][:-8])  # cut inside the third line
    resumed = run("grid", [*GRID_SMALL, "-resume", partial, "-out", partial, SMALL])
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.count("[resumed]") == 2  # the cut line was not read
    text = partial.read_text()
    assert all(re.fullmatch(r"log2c=\S+ log2g=\S+ rate=\S+", ln) for ln in text.splitlines())
    assert grid_py_resume_cells(text) == grid_py_resume_cells(out.read_text())
    assert resumed.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]


def test_grid_resume_dev_zero_is_bounded():
    done = run("grid", [*GRID_SMALL, "-out", "null", "-resume", "/dev/zero", SMALL], timeout=60)
    one_line_exit_1(done, "/dev/zero: more than 64 MB: not a -out file")


def test_grid_out_dev_full_is_one_line():
    done = run("grid", [*GRID_SMALL, "-out", "/dev/full", SMALL])
    one_line_exit_1(done, "-out /dev/full: cannot write: No space left on device")


def test_grid_multilabel_data_do_not_point_to_an_option_it_lacks(tmp_path):
    data = tmp_path / "ml"
    data.write_text("1,2 1:0.5\n2 1:0.25\n1 1:-0.5\n")
    done = run("grid", [*GRID_SMALL, "-out", "null", data])
    one_line_exit_1(done, "svmeval-grid takes one label a sample")
    assert "use --multilabel" not in done.stderr


def test_compare_names_the_pos_label_flag():
    done = run("compare", line("compare", ["--pos-label", "7"], SMALL))
    one_line_exit_1(done, "svmeval-compare: --pos-label ")
    assert "pos_label" not in done.stderr


def test_plot_named_only_png_says_what_is_wrong(tmp_path):
    done = run("svmeval", ["-q", "-v", "2", "--plot", ".png", SMALL], cwd=tmp_path)
    one_line_exit_1(done, ".png: the picture's file name has nothing before .png")
    assert "must end in" not in done.stderr


def test_kernel_memory_0_shares_no_kernel(built, monkeypatch, tmp_path):
    """0 MB holds no shared matrix: LIBSVM computes its own for every cell (the default
    budget shares the linear kernel of these cells, which pays)."""
    from svmeval.cli.grid import main

    monkeypatch.chdir(tmp_path)
    args = [
        "-q",
        "-t",
        "0",
        "-log2c",
        "-3,3,1",
        "-log2g",
        "null",
        "-gnuplot",
        "null",
        "-out",
        "null",
        "-v",
        "3",
    ]
    assert main([*args, str(SMALL)]) == 0
    assert len(built) >= 1
    built.clear()
    assert main([*args, "--kernel-memory", "0", str(SMALL)]) == 0
    assert built == []


@pytest.mark.parametrize(
    "parse, argv",
    [
        (parse_args, ["-v", "5", "--dask", "local", "--jobs", "2", "DATA"]),
        (parse_grid_args, ["--dask", "local", "--jobs", "2", "DATA"]),
        (parse_compare_args, ["--dask", "local", "--jobs", "2", "DATA", "--", "--", "-c", "2"]),
        (parse_linear_args, ["-v", "5", "--dask", "local", "--jobs", "2", "DATA"]),
        (parse_linear_args, ["-C", "--jobs", "2", "--dask", "local", "DATA"]),
    ],
)
def test_jobs_and_dask_together_are_refused_alike_by_every_command(parse, argv):
    """--jobs (this machine's threads) and --dask (a cluster's workers) in one command line:
    the same line from each command that takes both."""
    with pytest.raises(OptionError) as refused:
        parse([str(SMALL) if a == "DATA" else a for a in argv])
    assert str(refused.value) == (
        "--jobs sets the local threads; with --dask the cluster's workers run the folds"
    )

"""An empty option value ('' from a shell variable that was not set) is a mistake, never "not
given": every option of every command that takes a value refuses it, one line and exit status 1,
before any work. The cases come from the option table itself, so an option added later is
covered too."""

from __future__ import annotations

import pytest
from test_command_lines import PARSE, line, option_error, run

from svmeval.cli.linear import SVMEVAL_OPTIONS, parse_linear_args
from svmeval.cli.options import TABLE, TRAINING, options_of
from svmeval.errors import OptionError

MESSAGE = "the value is empty"


def _spellings(command: str) -> list:
    """Every way to give each option of ``command`` an empty value: ``FLAG ''`` and, for a
    long option, ``--FLAG=``."""
    out = []
    for flag, option in options_of(command).items():
        if option.kind == "flag":
            continue
        given = "-w1" if flag == "-w" else flag
        out.append(pytest.param(command, [given, ""], id=f"{command}:{given} ''"))
        if flag.startswith("--"):
            out.append(pytest.param(command, [f"{flag}="], id=f"{command}:{flag}="))
    return out


CASES = [
    case for command in ("svmeval", "grid", "compare", TRAINING) for case in _spellings(command)
]


def test_empty_value_cases_cover_every_option_of_the_table():
    covered = {case.values[1][0].partition("=")[0] for case in CASES}
    covered = {"-wi" if flag == "-w1" else flag for flag in covered}
    expected = {flag for option in TABLE if option.kind != "flag" for flag in option.flags}
    assert covered == expected


@pytest.mark.parametrize("command,args", CASES)
def test_empty_option_value_refused(command, args):
    if command == TRAINING:  # compare's A options, after the first --
        argv = ["-v", "2", "--repeat", "1", "data", "--", *args, "--", "-c", "2"]
        with pytest.raises(OptionError, match=f"A options: option {args[0]}: {MESSAGE}"):
            PARSE["compare"](argv)
        return
    flag = args[0].partition("=")[0]
    with pytest.raises(OptionError, match=f"^option {flag}: {MESSAGE}$"):
        PARSE[command](line(command, args, "data"))


@pytest.mark.parametrize("flag", sorted(SVMEVAL_OPTIONS))
@pytest.mark.parametrize("spelling", ["separate", "equals"])
def test_empty_value_refused_by_svmeval_linear(flag, spelling):
    """svmeval-linear's options that are svmeval's (--permutations, --threshold, --seed,
    --repeat): the same rule."""
    given = [flag, ""] if spelling == "separate" else [f"{flag}="]
    with pytest.raises(OptionError, match=f"^option {flag}: {MESSAGE}$"):
        parse_linear_args(["-v", "2", *given, "data"])


def test_resume_without_a_value_is_still_its_default_file():
    from svmeval.cli.grid import parse_grid_args

    assert parse_grid_args(["-resume", "-v", "3", "dir/heart"]).resume == "heart.out"
    assert parse_grid_args(["-v", "3", "-resume", "dir/heart"]).resume == "heart.out"


@pytest.mark.parametrize(
    "command,args,flag",
    [
        ("svmeval", ["--predictions", ""], "--predictions"),
        ("svmeval", ["--folds", ""], "--folds"),
        ("svmeval", ["--plot", ""], "--plot"),
        ("grid", ["--criterion", ""], "--criterion"),
        ("grid", ["--nested", "2", "--predictions", ""], "--predictions"),
        ("grid", ["--nested", "2", "--folds="], "--folds"),
        ("grid", ["-resume", ""], "-resume"),
        ("compare", ["--plot", ""], "--plot"),
        ("compare", ["--confidence="], "--confidence"),
    ],
)
def test_empty_option_value_one_line_exit_1_nothing_written(tmp_path, command, args, flag):
    from conftest import LOCAL

    data = tmp_path / "wine"
    data.write_bytes((LOCAL / "wine.scale").read_bytes())
    report = None if command == "grid" else str(tmp_path / "report.txt")
    done = run(command, line(command, args, data, report), cwd=tmp_path)
    option_error(done, command, f"option {flag}: {MESSAGE}")
    assert done.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wine"]  # nothing written


def test_empty_output_value_refused(tmp_path):
    """``svmeval-compare ... -o ''``: the issue's case (the report would go to stdout)."""
    from conftest import LOCAL

    done = run(
        "compare",
        ["-v", "2", "--repeat", "1", "-o", "", LOCAL / "wine.scale", "--", "--", "-c", "2"],
        cwd=tmp_path,
    )
    option_error(done, "compare", f"option -o: {MESSAGE}")
    assert done.stdout == "" and list(tmp_path.iterdir()) == []

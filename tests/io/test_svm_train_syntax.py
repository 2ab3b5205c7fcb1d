"""One parser of svm-train's option syntax (:mod:`svmeval.io.svm_train_syntax`):
``SvmParams.parse``, the commands' option table and the drop-in's light path read svm-train's
options with it; the light path only decides whether to serve a call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from svmeval.cli import dropin, scan
from svmeval.errors import OptionError
from svmeval.params import SvmParams

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "svmeval"
SOURCES = sorted(PACKAGE.rglob("*.py"))
LIGHT_PATH = [PACKAGE / "cli" / "dropin.py", PACKAGE / "cv" / "run" / "light.py"]
SVM_TRAIN_FLAGS = {"-s", "-t", "-d", "-g", "-r", "-c", "-n", "-p", "-m", "-e", "-h", "-b"}


def flag_tables(path: Path) -> int:
    """The literals in ``path`` (dict keys, tuples, sets, lists) that hold three or more of
    svm-train's training flags: a table of svm-train's options."""
    found = 0
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if isinstance(node, (ast.Dict, ast.Tuple, ast.Set, ast.List)) and items:
            texts = {i.value for i in items if isinstance(i, ast.Constant)}
            found += len(texts & SVM_TRAIN_FLAGS) >= 3
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_one_table_of_svm_trains_options(path):
    """svm-train's flags are listed once, by its syntax (the option table of the commands
    takes each option's field and kind from there; its flags are one per declaration)."""
    expected = 1 if path == PACKAGE / "io" / "svm_train_syntax.py" else 0
    if path == PACKAGE / "io" / "liblinear_syntax.py":  # LIBLINEAR's train: another program's
        expected = 1  # flags, some spelled as svm-train's (-s, -c, -p, -n, -e), other meanings
    assert flag_tables(path) == expected


def test_one_parser_for_every_reader_of_svm_trains_options():
    """SvmParams.parse, the commands' scan and the light path give the same values for the
    same options, and refuse the same ones (by raising, or, light, by not serving)."""
    argv = ["-s", "1", "-t", "0", "-d", "+4", "-g", ".5", "-c", "1e3", "-e", "0x1p-8"]
    params = SvmParams.parse(argv)
    scanned = scan.scan([*argv, "-v", "5", "f"], "svmeval").params
    served = dropin.parse([*argv, "-v", "5", "f"])
    assert served is not None
    expected = {f: getattr(params, f) for f in scanned}
    assert scanned == expected == served[0]
    assert expected == {
        "svm_type": 1,
        "kernel_type": 0,
        "degree": 4,
        "gamma": 0.5,
        "C": 1000.0,
        "eps": 2.0**-8,
    }
    for bad in (["-c", "1_000"], ["-d", "2147483648"], ["-g", "nan"], ["-t", "1.0"]):
        with pytest.raises(OptionError) as parsed:
            SvmParams.parse(bad)
        with pytest.raises(OptionError) as scanned_error:
            scan.scan([*bad, "-v", "5", "f"], "svmeval")
        assert str(parsed.value) == str(scanned_error.value)
        assert dropin.parse([*bad, "-v", "5", "f"]) is None


@pytest.mark.parametrize("path", LIGHT_PATH, ids=lambda p: p.name)
def test_the_light_path_reads_no_value_itself(path):
    """The light path holds no value reader of its own (C's strtod, digit tests)."""
    text = path.read_text(encoding="utf-8")
    for own in ("parse_number", "isdigit", "isascii", "_reader"):
        assert own not in text, f"{path.name} reads values itself ({own})"

"""Option values read with svm-train's C rules, strictly: the whole value must be the number.

Every option of every command reads its value through these functions, so the same text means
the same thing (or is refused with the same words) in svmeval, svmeval-grid and
svmeval-compare. Each raises :class:`~svmeval.errors.OptionError` naming the flag.
"""

from __future__ import annotations

import math

from svmeval.errors import OptionError
from svmeval.params import INT_MAX, INT_MIN, parse_c_double, parse_c_int, shown  # noqa: F401


def parse_open_unit(flag: str, text: str) -> float:
    """A number strictly between 0 and 1 (a confidence level)."""
    value = parse_c_double(flag, text)
    if not 0 < value < 1:
        raise OptionError(
            f"option {flag}: {shown(text)} is out of range (between 0 and 1, both excluded)"
        )
    return value


def parse_choice(flag: str, text: str, choices: dict):
    """One of ``choices``' keys (its value is returned)."""
    if text not in choices:
        raise OptionError(f"{flag}: {shown(text)} is not one of {', '.join(choices)}")
    return choices[text]


def parse_log2_range(flag: str, text: str):
    """``begin,end,step`` (three numbers, each the whole of its part as C's ``strtod`` reads
    it) or ``null``: grid.py's ranges."""
    from svmeval._args.checks import RangeError, check_range
    from svmeval.io.native import parse_number

    if text == "null":
        return None
    parts = text.split(",")
    if len(parts) != 3:
        raise OptionError(f"{flag}: {shown(text)} is not begin,end,step (or null)")
    numbers = []
    for part in parts:
        value, status = parse_number(part.encode("ascii")) if part.isascii() else (0.0, 1)
        if status == 1:
            raise OptionError(f"{flag}: {shown(text)} is not begin,end,step: numbers needed")
        numbers.append(value)  # an overflow is infinite: check_range refuses it
    try:
        return check_range(numbers, flag.lstrip("-"))
    except RangeError as exc:  # the library's words: the flag's name instead of the argument's
        raise OptionError(f"{flag}: {exc.message}") from None


def parse_weight_range(flag: str, texts: tuple[str, str]) -> tuple:
    """``LABEL begin,end,step``: a class label (an integer, as svm-train's ``-wLABEL``) and
    a range of log2 weights (:func:`parse_log2_range`, ``null`` refused: leave the option
    out). Returns ``(label, begin, end, step)``."""
    label_text, range_text = texts
    try:
        label = parse_c_int(flag, label_text)
    except OptionError:
        raise OptionError(
            f"{flag}: {shown(label_text)} is not a class label (an integer, as in -wLABEL); "
            f"{flag} LABEL begin,end,step"
        ) from None
    if range_text == "null":
        raise OptionError(f"{flag}: null: leave {flag} out not to search a class weight")
    if range_text.count(",") != 2:
        raise OptionError(f"{flag}: {shown(range_text)} is not begin,end,step")
    return (label, *parse_log2_range(flag, range_text))


def check_jobs_or_dask(jobs, dask) -> None:
    """--jobs and --dask, given together: one line (the local threads, or the cluster's
    workers; every command that takes both says it the same way)."""
    if dask is not None and jobs is not None:
        raise OptionError(
            "--jobs sets the local threads; with --dask the cluster's workers run the folds"
        )


def parse_dask_address(flag: str, text: str) -> str:
    """``local[:N]`` (N from 1 to the cores) or a scheduler's ``tcp://HOST:PORT``."""
    from svmeval.cv.run.cluster import ClientError, parse_address

    try:
        parse_address(text)
    except ClientError as exc:  # the library's words: the flag's name instead of client
        raise OptionError(f"{flag} {exc.message}") from None
    return text


#: ``-v groups``: as many folds as groups (leave-one-group-out, with ``--groups FILE``)
GROUP_FOLDS = -1


def parse_folds(flag: str, text: str) -> int:
    """-v's n: a C int, at least 2 (svm-train's words otherwise), or ``groups``
    (:data:`GROUP_FOLDS`: one fold a group)."""
    if text == "groups":
        return GROUP_FOLDS
    value = parse_c_int(flag, text)
    if value < 2:
        raise OptionError("n-fold cross validation: n must >= 2")
    return value


def parse_nonnegative(flag: str, text: str, unit: str = "") -> float:
    """A number (C rules) that is 0 or more (of ``unit``, which the message names)."""
    value = parse_c_double(flag, text)
    if value < 0:
        raise OptionError(f"option {flag}: {shown(text)} is out of range (0{unit} or more)")
    return value


def parse_megabytes(flag: str, text: str) -> float:
    """A memory budget in MB: a number >= 0."""
    return parse_nonnegative(flag, text, " MB")


def parse_limits(flag: str, text: str) -> tuple[float, float]:
    """``L,U``: two numbers (each read as C's ``strtod``, svm-scale's ``atof``, strictly)
    with L < U: svm-scale's ``-l L -u U`` (or ``-y L U``)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise OptionError(f"{flag}: {shown(text)} is not lower,upper (two numbers)")
    lower, upper = (parse_c_double(flag, part) for part in parts)
    if not upper > lower:
        raise OptionError(f"{flag}: {shown(text)}: the lower limit must be below the upper one")
    if not math.isfinite(upper - lower):
        raise OptionError(f"{flag}: {shown(text)}: the range's width is not a finite number")
    return lower, upper


def parse_select(flag: str, text: str) -> int | tuple[int, ...] | str:
    """``--select``: K (an int from 1), distinct sizes ``K1,K2,...`` (a search's axis), or
    ``fselect`` (fselect.py's own list of sizes, made from the data)."""
    if text == "fselect":
        return text
    if not all(
        part.lstrip("+").isascii() and part.lstrip("+").isdigit()
        for part in text.split(",")
        if part
    ):
        raise OptionError(f"option {flag}: {shown(text)} is not K, sizes K1,K2,... or fselect")
    if "," not in text:
        return parse_c_int(flag, text, 1, INT_MAX, None)
    sizes: list[int] = []
    for part in text.split(","):
        if not part:
            raise OptionError(f"option {flag}: {shown(text)} has an empty size")
        k = parse_c_int(flag, part, 1, INT_MAX, None)
        if k in sizes:
            raise OptionError(f"option {flag}: {shown(text)} gives the size {k} twice")
        sizes.append(k)
    return tuple(sizes)

"""svm-train's option syntax, declared once: its training flags and the fields of ``struct
svm_parameter`` they set, svm-train's defaults, and each value read with C's rules, strictly.

The one parser of svm-train's options: :class:`svmeval.params.SvmParams` (``SvmParams.parse``),
the commands' option table (:mod:`svmeval.cli.scan`) and the drop-in's light path
(:mod:`svmeval.cli.dropin`, which only decides whether to serve a call) all read an option
with :func:`read_option`. Standard library only (no numpy, no dataclasses): the light path
imports it at every call.
"""

from __future__ import annotations

import math

from svmeval.errors import OptionError, ParameterError

TYPE_CHECKING = False  # typing itself is not imported: the light path does not need it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = [
    "DEFAULTS",
    "DOUBLE_FIELDS",
    "FIELD_OF_FLAG",
    "FLAGS",
    "INT_FIELDS",
    "INT_MAX",
    "INT_MIN",
    "check_flag",
    "parse_c_double",
    "parse_c_int",
    "read_option",
    "read_options",
    "shown",
    "weight_label",
]

#: the range of a C ``int`` (LIBSVM's svm_type, kernel_type, degree, shrinking, probability,
#: weight labels and class labels are ``int``)
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

#: svm-train's training flags (``-wi`` aside) -> the field of ``struct svm_parameter``, in
#: svm-train's usage order
FIELD_OF_FLAG = {
    "-s": "svm_type",
    "-t": "kernel_type",
    "-d": "degree",
    "-g": "gamma",
    "-r": "coef0",
    "-c": "C",
    "-n": "nu",
    "-p": "p",
    "-m": "cache_size",
    "-e": "eps",
    "-h": "shrinking",
    "-b": "probability",
}
#: svm-train's one-letter flags of the scalar fields, in svm-train's usage order (``-m``, the
#: cache size, left out: it does not change a result)
FLAGS = tuple((flag[1:], field) for flag, field in FIELD_OF_FLAG.items() if flag != "-m")
INT_FIELDS = ("svm_type", "kernel_type", "degree", "shrinking", "probability")
DOUBLE_FIELDS = ("gamma", "coef0", "C", "nu", "p", "cache_size", "eps")

#: svm-train's defaults of ``struct svm_parameter`` (gamma 0: 1/num_features)
DEFAULTS: dict[str, Any] = {
    "svm_type": 0,
    "kernel_type": 2,
    "degree": 3,
    "gamma": 0.0,
    "coef0": 0.0,
    "cache_size": 100.0,
    "eps": 1e-3,
    "C": 1.0,
    "nu": 0.5,
    "p": 0.1,
    "shrinking": 1,
    "probability": 0,
}

_SHOWN = 40  # characters of a value quoted in a message


def shown(text: str) -> str:
    """A value for a message: quoted and escaped (one line), long values cut."""
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "...")


def parse_c_int(
    flag: str, text: str, low: int = INT_MIN, high: int = INT_MAX, what: str | None = "a C int"
) -> int:
    """An integer option value as C's ``atoi`` reads it, but strict: the whole value must be
    ``[+-]digits`` in ASCII (Python's ``int()`` also takes ``1_000``, blanks and non-ASCII
    digits; ``atoi`` stops at them), and it must lie in ``low..high`` (default: C ``int``, the
    type the value lands in). Raises :class:`OptionError` naming ``flag``."""
    digits = text[1:] if isinstance(text, str) and text[:1] in ("+", "-") else text
    if not isinstance(text, str) or not (digits.isascii() and digits.isdigit()):
        raise OptionError(f"option {flag}: {shown(str(text))} is not an integer")
    significant = digits.lstrip("0")
    value = int(text) if len(significant) <= 20 else None  # beyond any range checked here
    if value is None or not low <= value <= high:
        where = f"{what} holds {low} to {high}" if what else f"{low} to {high}"
        raise OptionError(f"option {flag}: {shown(text)} is out of range ({where})")
    return value


def parse_c_double(flag: str, text: str) -> float:
    """A number option value as C's ``strtod``/``atof`` reads it in the C locale (decimal or
    hexadecimal, ``1e-3``, ``.5``, ``3.``), but strict: the whole value must be the number (no
    blanks, no ``1_000``, no non-ASCII digits, which Python's ``float()`` takes), and it must be
    finite (``nan``, ``inf`` and overflowing values are refused). A value that underflows is the
    double ``strtod`` returns, as ``atof`` gives svm-train."""
    from svmeval.io.native import parse_number  # C strtod in the C locale

    if not isinstance(text, str) or not text.isascii():
        raise OptionError(f"option {flag}: {shown(str(text))} is not a number")
    value, status = parse_number(text.encode("ascii"))
    if status == 1:
        raise OptionError(f"option {flag}: {shown(text)} is not a number")
    if status == 2 or not math.isfinite(value):
        raise OptionError(f"option {flag}: {shown(text)} is not a finite number")
    return value


def weight_label(flag: str) -> int:
    """The class label of a ``-wLABEL`` flag (a C int, as svm-train's ``atoi``, strictly)."""
    return parse_c_int("-w", flag[2:])


def read_option(flag: str, text: str) -> tuple[str, int | float | tuple[int, float]]:
    """svm-train's training option ``flag`` given the value ``text``: ``(field, value)``, the
    field of ``struct svm_parameter`` it sets and its value as svm-train reads it (an ``int``
    field by :func:`parse_c_int`, a ``double`` by :func:`parse_c_double`); ``-wLABEL`` gives
    ``("weight", (label, factor))``. Raises :class:`OptionError` naming the flag: a value C
    would misread, or a flag that is not one of svm-train's training options."""
    field = check_flag(flag)
    if field == "weight":
        return field, (weight_label(flag), parse_c_double(flag, text))
    if field in INT_FIELDS:
        return field, parse_c_int(flag, text)
    return field, parse_c_double(flag, text)


def check_flag(flag: str) -> str:
    """The field svm-train's training option ``flag`` sets (``"weight"`` for ``-wLABEL``), or
    :class:`OptionError` where it is not one."""
    field = FIELD_OF_FLAG.get(flag)
    if field is not None:
        return field
    if flag.startswith("-w") and len(flag) > 2:
        return "weight"
    what = (
        "needs a class label: -wi weight"
        if flag == "-w"
        else "is not one of svm-train's training options (" + " ".join(FIELD_OF_FLAG) + " -wi)"
    )
    raise OptionError(f"option {shown(flag)} {what}")


def read_options(options: str | Sequence[str]) -> tuple[dict[str, Any], tuple]:
    """svm-train's training options, as svm-train reads them: ``(fields, weights)``, the
    fields of ``struct svm_parameter`` they set (the last value of a flag given twice) and the
    ``-wi`` pairs ``(label, factor)`` in command-line order. ``options`` is a string (split as a
    shell would) or a sequence of strings. Raises :class:`OptionError` (an unknown or misplaced
    option, a missing or malformed value) or :class:`ParameterError` (neither a string nor a
    sequence of strings)."""
    import shlex  # on first use: the drop-in's light path reads its options one by one
    from collections.abc import Sequence

    if isinstance(options, str):
        try:
            tokens = shlex.split(options)
        except ValueError as exc:
            raise OptionError(f"options {shown(options)}: {exc}") from None
    elif isinstance(options, Sequence) and all(isinstance(t, str) for t in options):
        tokens = list(options)
    else:
        raise ParameterError(
            "svm-train options must be a string or a sequence of strings, "
            f"got {type(options).__name__}"
        )
    values: dict[str, Any] = {}
    weights: list = []
    i = 0
    while i < len(tokens):
        flag = tokens[i]
        check_flag(flag)
        if i + 1 >= len(tokens):
            raise OptionError(f"option {flag} needs a value")
        field, value = read_option(flag, tokens[i + 1])
        i += 2
        if field == "weight":
            weights.append(value)
        else:
            values[field] = value
    return values, tuple(weights)

"""The messages of the LIBSVM-format reader: each parse error the C parser reports, in words,
with the token at fault shown safely (one line, escaped, cut)."""

from __future__ import annotations

__all__ = ["message", "show"]

_TOKEN_SHOWN = 60  # characters of a token quoted in a message


def show(token: bytes) -> str:
    """A token for a message: printable text as is, other bytes escaped, long tokens cut."""
    out = []
    for ch in token.decode("utf-8", "surrogateescape"):
        if ch in '"\\':
            out.append("\\" + ch)
        elif "\udc80" <= ch <= "\udcff":  # a byte that is not UTF-8
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    shown = "".join(out)
    if len(shown) > _TOKEN_SHOWN:
        shown = shown[: _TOKEN_SHOWN - 3] + "..."
    return shown


_NONFINITE = "is not finite (LIBSVM cannot use NaN or infinity)"
_RANGE = "is too large for a double"
_UNDERFLOW = "is too small for a double (strtod underflows; svm-train refuses it)"
# svm-train checks errno after strtod for feature values only: a label that underflows is read,
# and LIBSVM's classes are the labels' integer parts (svm_group_classes' (int) cast)
_LABEL_UNDERFLOW = (
    "is too small for a double (strtod underflows; svm-train reads it, and "
    "LIBSVM, which groups classes by a label's integer part, trains it as "
    "class 0)"
)
_LABELSET_UNDERFLOW = "is too small for a double (strtod underflows)"
_LARGE = "is beyond 2^53 = 9007199254740992 (a double tells integers apart up to there)"


def message(kind: str, token: bytes | None, detail: bytes | None) -> str:
    """The message for a ParseError raised by the C parser."""
    t = show(token) if token is not None else ""
    d = show(detail) if detail is not None else ""
    if kind == "labelset_form":
        return f'label set "{t}": {_label_form(detail)}'
    feature = f'feature "{t}"'
    messages = {
        "empty": "empty line (each line must hold a label)",
        "line_long": f"line longer than {d} bytes, the most a line may hold (not a LIBSVM "
        "data file?)",
        "label_bad": f'label "{t}" is not a number',
        "label_colon": f'label "{t}" is not a number (the line has no label?)',
        "label_nonfinite": f'label "{t}" {_NONFINITE}',
        "label_range": f'label "{t}" {_RANGE}',
        "label_underflow": f'label "{t}" {_LABEL_UNDERFLOW}',
        "label_comma": f'label "{t}" contains a comma: the file looks multi-label; '
        "use --multilabel",
        "label_comma_bad": f'label "{t}" is not a number, nor a multi-label set (labels '
        "written as integers, such as 0,7,-3)",
        "csv": "a CSV file (commas, and no index:value pair on any line), not LIBSVM's "
        'format: svmeval reads "label index:value ..." lines; convert it (e.g. with '
        "scikit-learn's dump_svmlight_file) or, from Python, pass arrays: "
        "cross_validate((X, y))",
        "labelset_large": f'label set "{t}": label "{d}" {_LARGE}',
        "labelset_bad": f'label set "{t}": label "{d}" is not a number',
        "labelset_nonfinite": f'label set "{t}": label "{d}" {_NONFINITE}',
        "labelset_range": f'label set "{t}": label "{d}" {_RANGE}',
        "labelset_underflow": f'label set "{t}": label "{d}" {_LABELSET_UNDERFLOW}',
        "feature_nocolon": f'{feature} is not of the form idx:val (no ":")',
        "index_missing": f"{feature}: the index before the colon is missing",
        "index_bad": f'{feature}: index "{d}" is not an integer',
        "index_negative": f"{feature}: index {d} is negative",
        "index_large": f"{feature}: index {d} is too large (the largest is 2147483647)",
        "index_order": f"{feature}: index {_index_of(token)} does not follow the previous index "
        f"{d} (indices must be strictly ascending)",
        "value_missing": f"{feature}: the value after the colon is missing",
        "value_bad": f'{feature}: value "{d}" is not a number',
        "value_nonfinite": f'{feature}: value "{d}" {_NONFINITE}',
        "value_range": f'{feature}: value "{d}" {_RANGE}',
        "value_underflow": f'{feature}: value "{d}" {_UNDERFLOW}',
    }
    return messages.get(kind, f"malformed line ({kind})")


def _label_form(item: bytes | None) -> str:
    """Why a multi-label label that is a number is refused: not an integer, or an integer not
    written as multi-label files write it (the way it should be written is said)."""
    from svmeval.io.native import parse_number

    d = show(item) if item is not None else ""
    value, _ = parse_number(item or b"")
    if value != int(value):
        return f'label "{d}" is not an integer (multi-label labels are integers)'
    if abs(value) > 2**53:
        return f'label "{d}" {_LARGE}'
    return (
        f'label "{d}" is written "{int(value)}" in a multi-label file (LIBSVM\'s multi-label '
        "tools compare labels as text)"
    )


def _index_of(token: bytes | None) -> str:
    if not token:
        return ""
    head = token.split(b":", 1)[0]
    try:
        return str(int(head))
    except ValueError:  # pragma: no cover - the parser only reports parsed indices
        return show(head)

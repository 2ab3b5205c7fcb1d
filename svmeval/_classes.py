"""The user's labels of classes coded for LIBSVM (a :class:`~svmeval.io.data.Dataset`'s
``classes``).

Labels that are not numbers (text, objects, booleans, a pandas categorical's values) reach
LIBSVM as their positions among the distinct labels sorted, 0.0 .. k-1 (scikit-learn's
``LabelEncoder``); a run keeps those labels, in that order, as ``classes``, and every report
names a class by them. ``classes`` None: the labels are the numbers themselves.
"""

from __future__ import annotations

from svmeval.errors import ArgumentError, show_label

__all__ = ["ClassCode", "class_code", "class_name", "json_class", "named", "show_class"]


class ClassCode(float):
    """A class's position among the user's labels, as :func:`class_code` gives it: a run that
    translated ``pos_label`` at its door passes it on, and it is not translated again."""


def class_name(label, classes: tuple | None):
    """The user's label of LIBSVM's ``label`` (a float, a class's position where ``classes``);
    the number itself without classes or where it is no class's position."""
    if classes is None or label is None:
        return label
    k = float(label)
    if k.is_integer() and 0 <= k < len(classes):
        return classes[int(k)]
    return label


def json_class(label, classes: tuple | None):
    """The user's label of ``label`` as a JSON value: text, a boolean or a number as it is,
    any other object (a date) as its text."""
    name = class_name(label, classes)
    if name is None or isinstance(name, str | bool | int | float):
        return name
    return str(name)


def show_class(label, classes: tuple | None) -> str:
    """A class as text: its user's label (``spam``, ``True``), or the number as
    :func:`~svmeval.errors.show_label` prints it."""
    name = class_name(label, classes)
    if classes is None or name is label:
        return show_label(label)
    if isinstance(name, float):
        return show_label(name)
    return str(name)


def named(values, classes: tuple | None, *, json: bool = False) -> list:
    """A sequence of LIBSVM's labels as the user's labels (a list), unchanged without classes;
    ``json``: as JSON values (:func:`json_class`)."""
    if classes is None:
        return values
    name = json_class if json else class_name
    return [name(v, classes) for v in values]


def class_code(label, classes: tuple | None, what: str = "pos_label"):
    """LIBSVM's label of the user's ``label`` (None stays None): its position in ``classes``;
    ``label`` itself without classes. A label that is none of them raises
    :class:`~svmeval.errors.ArgumentError` naming ``what`` and the classes."""
    if label is None or isinstance(label, ClassCode):
        return label
    if classes is None:
        if isinstance(label, str | bytes):
            raise ArgumentError(what, f"{label!r} is not one of the labels (they are numbers)")
        return label
    for k, c in enumerate(classes):
        if isinstance(c, str | bytes) != isinstance(label, str | bytes):
            continue  # text is never a number ("1" is not 1)
        try:
            if bool(c == label):
                return ClassCode(k)
        except (TypeError, ValueError):
            continue
    shown = ", ".join(repr(c) for c in classes)
    raise ArgumentError(what, f"{label!r} is not one of the classes ({shown})")

"""LIBLINEAR ``train``'s option syntax, once: its solvers, its training options (flag -> the
field of :class:`~svmeval.params.LinearParams` it sets), its defaults (the tolerance ``-e``
per solver) and each value read with C's rules (svm-train's readers,
:mod:`svmeval.io.svm_train_syntax`).

svmeval-linear's option table (:mod:`svmeval.cli.linear`), svmeval-compare's ``linear:``
configurations, :class:`~svmeval.params.LinearParams` and svmeval-linear's light path
(:mod:`svmeval.cli.linear_dropin`) read ``train``'s options with it. Standard library only.
"""

from __future__ import annotations

from svmeval.errors import OptionError
from svmeval.io.svm_train_syntax import parse_c_double, parse_c_int, weight_label

__all__ = [
    "CLASSIFIERS",
    "DEFAULTS",
    "DEFAULT_EPS",
    "LINEAR_ONE_CLASS",
    "REGRESSORS",
    "SOLVERS",
    "VALUED",
    "is_valued",
    "read_folds",
    "read_option",
]

#: LIBLINEAR 2.50's solvers (``-s``): number -> its name in ``linear.h``
SOLVERS = {
    0: "L2R_LR",
    1: "L2R_L2LOSS_SVC_DUAL",
    2: "L2R_L2LOSS_SVC",
    3: "L2R_L1LOSS_SVC_DUAL",
    4: "MCSVM_CS",
    5: "L1R_L2LOSS_SVC",
    6: "L1R_LR",
    7: "L2R_LR_DUAL",
    11: "L2R_L2LOSS_SVR",
    12: "L2R_L2LOSS_SVR_DUAL",
    13: "L2R_L1LOSS_SVR_DUAL",
    21: "ONECLASS_SVM",
}
CLASSIFIERS = frozenset(range(8))
REGRESSORS = frozenset((11, 12, 13))
#: LIBLINEAR's one-class solver (``-s 21``; LIBSVM's one-class SVM is ``-s 2`` of svm-train)
LINEAR_ONE_CLASS = 21

#: ``train``'s default tolerance ``-e`` per solver (train.c's parse_command_line)
DEFAULT_EPS = {
    0: 0.01,
    2: 0.01,
    11: 0.0001,
    1: 0.1,
    3: 0.1,
    4: 0.1,
    7: 0.1,
    5: 0.01,
    6: 0.01,
    12: 0.1,
    13: 0.1,
    21: 0.01,
}

#: ``train``'s defaults of LinearParams' fields (``-e``: :data:`DEFAULT_EPS`, by solver)
DEFAULTS: dict = {
    "solver_type": 1,
    "C": 1.0,
    "p": 0.1,
    "nu": 0.5,
    "bias": -1.0,
    "regularize_bias": 1,
}

#: ``train``'s options that take a value: flag -> LinearParams' field (``-wi`` aside)
VALUED = {"-s": "solver_type", "-c": "C", "-p": "p", "-n": "nu", "-e": "eps", "-B": "bias"}


def is_valued(flag: str) -> bool:
    """Whether ``flag`` is one of ``train``'s training options that take a value (``-s -c -p
    -n -e -B`` and ``-wLABEL``)."""
    return flag in VALUED or (flag[:2] == "-w" and len(flag) > 2)


def read_option(flag: str, text: str) -> tuple[str, int | float | tuple[int, float]]:
    """``train``'s training option ``flag`` (:func:`is_valued`) given the value ``text``:
    ``(field, value)``, the LinearParams field it sets and its value as ``train`` reads it
    (``-s`` an int, every other a double); ``-wLABEL`` gives ``("weight", (label, factor))``.
    Raises :class:`~svmeval.errors.OptionError` naming the flag."""
    if flag[:2] == "-w":
        return "weight", (weight_label(flag), parse_c_double(flag, text))
    if flag == "-s":
        return "solver_type", parse_c_int(flag, text)
    return VALUED[flag], parse_c_double(flag, text)


def read_folds(text: str) -> int:
    """``-v n``'s value, as ``train`` takes it (n >= 2, in its own words)."""
    folds = parse_c_int("-v", text)
    if folds < 2:
        raise OptionError("n-fold cross validation: n must >= 2")
    return folds

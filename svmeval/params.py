"""Training parameters: LIBSVM's (svm-train's options, defaults and meaning) and LIBLINEAR's, each as a
plain value."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace

from svmeval.errors import ParameterError

# LIBLINEAR train's syntax (its solvers, defaults and option readers): the one every command
# and svmeval-linear's light path read its options with
from svmeval.io.liblinear_syntax import (  # noqa: F401 - named here as before
    CLASSIFIERS,
    DEFAULT_EPS,
    LINEAR_ONE_CLASS,
    REGRESSORS,
    SOLVERS,
)
from svmeval.io.liblinear_syntax import DEFAULTS as LINEAR_DEFAULTS

# svm-train's option syntax (its flags, defaults and C rules): the one parser every command,
# SvmParams.parse and the drop-in's light path read options with
from svmeval.io.svm_train_syntax import (  # noqa: F401 - parse_c_*, shown: named here for users
    DEFAULTS,
    DOUBLE_FIELDS,
    FIELD_OF_FLAG,
    FLAGS,
    INT_FIELDS,
    INT_MAX,
    INT_MIN,
    check_flag,
    parse_c_double,
    parse_c_int,
    read_option,
    read_options,
    shown,
)

SVM_TYPES = ("c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr")
KERNEL_TYPES = ("linear", "polynomial", "rbf", "sigmoid", "precomputed")

C_SVC, NU_SVC, ONE_CLASS, EPSILON_SVR, NU_SVR = range(5)
LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = range(5)

_INT_FIELDS, _DOUBLE_FIELDS, _FIELD_OF_FLAG = INT_FIELDS, DOUBLE_FIELDS, FIELD_OF_FLAG


def c_int(value, what: str) -> int:
    """``value`` as a C ``int``: an integer (not a float, not a string) within INT_MIN..INT_MAX,
    else :class:`ParameterError` naming ``what``."""
    if isinstance(value, float) or isinstance(value, str) or isinstance(value, bytes):
        raise ParameterError(f"{what} must be an integer, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise ParameterError(f"{what} must be an integer, got {value!r}") from None
    if not INT_MIN <= number <= INT_MAX:
        raise ParameterError(
            f"{what} = {number} does not fit a C int "
            f"({INT_MIN} to {INT_MAX}), which LIBSVM stores it in"
        )
    return int(number)


def c_double(value, what: str) -> float:
    """``value`` as a finite C ``double``, else :class:`ParameterError` naming ``what``."""
    if isinstance(value, (str, bytes)):
        raise ParameterError(f"{what} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise ParameterError(f"{what} is too large for a double") from None
    except (TypeError, ValueError):
        raise ParameterError(f"{what} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ParameterError(f"{what} = {number} is not finite (LIBSVM cannot use NaN or infinity)")
    return number


@dataclass(frozen=True)
class SvmParams:
    """The fields of LIBSVM's ``struct svm_parameter``, with svm-train's defaults.

    ``gamma = 0`` means "1/num_features", resolved by :meth:`resolved` as svm-train does
    (it also turns an explicit ``-g 0`` into 1/num_features). ``weight`` holds the ``-wi``
    pairs ``(label, factor)`` in command-line order. Every field is checked against the C type
    it lands in (:class:`ParameterError`). Every function that takes a configuration also takes
    svm-train's options as a string (:meth:`parse`).

    Examples
    --------
    >>> from svmeval import SvmParams
    >>> p = SvmParams(C=8, gamma=0.05, weight=((1, 2.0),))
    >>> p.flags(), p.is_classification
    ('-g 0.05 -c 8 -w1 2', True)
    >>> SvmParams.parse("-s 3 -p 0.2").is_regression
    True
    """

    svm_type: int = DEFAULTS["svm_type"]
    kernel_type: int = DEFAULTS["kernel_type"]
    degree: int = DEFAULTS["degree"]
    gamma: float = DEFAULTS["gamma"]
    coef0: float = DEFAULTS["coef0"]
    C: float = DEFAULTS["C"]
    nu: float = DEFAULTS["nu"]
    p: float = DEFAULTS["p"]
    cache_size: float = DEFAULTS["cache_size"]
    eps: float = DEFAULTS["eps"]
    shrinking: int = DEFAULTS["shrinking"]
    probability: int = DEFAULTS["probability"]
    weight: tuple[tuple[int, float], ...] = ()

    def __repr__(self) -> str:
        """The fields that differ from svm-train's defaults, as scikit-learn shows an
        estimator: ``SvmParams(gamma=0.05, C=8.0)``; ``eval`` of it gives the same params."""
        changed = (
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != f.default
        )
        return f"SvmParams({', '.join(changed)})"

    def __post_init__(self):
        """Every field checked against the C type it lands in (``struct svm_parameter``):
        integers within C ``int``, doubles finite, ``weight`` pairs of (int label, finite
        factor). Raises :class:`ParameterError`; values are normalised to ``int``/``float``.
        Whether LIBSVM accepts the combination is svm_check_parameter's call (made before
        training)."""
        for name in _INT_FIELDS:
            object.__setattr__(self, name, c_int(getattr(self, name), f"SvmParams {name}"))
        for name in _DOUBLE_FIELDS:
            object.__setattr__(self, name, c_double(getattr(self, name), f"SvmParams {name}"))
        try:
            pairs = tuple(self.weight)
        except TypeError:
            raise ParameterError(
                f"SvmParams weight must be a sequence of (label, factor) pairs, got {self.weight!r}"
            ) from None
        weight = []
        for pair in pairs:
            try:
                label, factor = pair
            except (TypeError, ValueError):
                raise ParameterError(
                    f"SvmParams weight must be a sequence of (label, factor) pairs, got {pair!r}"
                ) from None
            weight.append(
                (
                    c_int(label, "SvmParams weight label"),
                    c_double(factor, f"SvmParams weight of label {label!r}"),
                )
            )
        object.__setattr__(self, "weight", tuple(weight))

    @classmethod
    def parse(cls, options: str | Sequence[str]) -> SvmParams:
        """The parameters of svm-train's training options, as svm-train reads them.

        Parameters
        ----------
        options : str or sequence of str
            svm-train's training options, e.g. ``"-t 2 -c 8 -g 0.05 -w1 2"`` (split as a shell
            would) or ``["-c", "8"]``. No file names and no ``-v`` / ``-q``: only the options
            that set a training parameter. Values are read with C's rules, strictly.

        Returns
        -------
        SvmParams

        Raises
        ------
        OptionError
            An unknown or misplaced option, a missing or malformed value.

        Examples
        --------
        >>> from svmeval import SvmParams
        >>> SvmParams.parse("-c 8 -g 0.05") == SvmParams(C=8, gamma=0.05)
        True
        >>> SvmParams.parse("-s 0 -w1 2 -w-1 0.5").weight
        ((1, 2.0), (-1, 0.5))
        """
        values, weights = read_options(options)
        return cls(**values, weight=weights)

    def flags(self) -> str:
        """svm-train's options for the parameters that differ from its defaults
        (``-m``, the cache size, left out: it does not change a result).

        Examples
        --------
        >>> from svmeval import SvmParams
        >>> SvmParams(C=8, gamma=0.05).flags()
        '-g 0.05 -c 8'
        """
        return params_flags(self.as_dict())

    def resolved(self, n_features: int) -> SvmParams:
        """gamma's default as svm-train sets it: 1/num_features when gamma is 0."""
        if self.gamma == 0 and n_features > 0:
            return replace(self, gamma=1.0 / n_features)
        return self

    @property
    def is_classification(self) -> bool:
        """C-SVC and nu-SVC: the types LIBSVM stratifies folds for."""
        return self.svm_type in (C_SVC, NU_SVC)

    @property
    def is_regression(self) -> bool:
        return self.svm_type in (EPSILON_SVR, NU_SVR)

    def as_dict(self) -> dict:
        """JSON-friendly form, with the type and kernel also named."""
        d = asdict(self)
        d["weight"] = [[label, w] for label, w in self.weight]
        if 0 <= self.svm_type < len(SVM_TYPES):
            d["svm_type_name"] = SVM_TYPES[self.svm_type]
        if 0 <= self.kernel_type < len(KERNEL_TYPES):
            d["kernel_type_name"] = KERNEL_TYPES[self.kernel_type]
        return d


#: a configuration as the runs take it: :class:`SvmParams`, svm-train's options
#: (``"-c 8 -g 0.05"``), or None for svm-train's defaults
Configuration = SvmParams | str | None


def given_configuration(config, params: SvmParams) -> str:
    """A configuration as the user gave it, for reports and tables: svm-train's options as
    given (blanks between the tokens made single), or the flags of the SvmParams given (before
    the data resolve gamma's default); "" for svm-train's defaults."""
    if isinstance(config, str):
        return " ".join(config.split())
    return params.flags()


def params_flags(parameters: dict) -> str:
    """svm-train's flags for the parameters (a :meth:`SvmParams.as_dict`) that differ from its
    defaults, e.g. ``"-g 0.5 -c 8"``; "" for the defaults."""
    default = SvmParams()
    out = []
    for flag, name in FLAGS:
        value = parameters.get(name)
        if value is not None and value != getattr(default, name):
            out.append(f"-{flag} {value:g}")
    for cls, weight in parameters.get("weight", ()):
        out.append(f"-w{cls:g} {weight:g}")
    return " ".join(out)


# --- LIBLINEAR's configuration -------------------------------------------------------------


@dataclass(frozen=True)
class LinearParams:
    """LIBLINEAR's ``struct parameter`` and the bias of its problem, with ``train``'s defaults.

    ``eps`` None: the solver's default (``train``'s table). ``bias`` < 0: no bias feature
    (``-B``). ``regularize_bias`` 0: ``-R``. ``weight``: the ``-wi`` pairs ``(label, factor)``
    in command-line order.

    Examples
    --------
    >>> p = LinearParams(solver_type=0, C=4.0, bias=1.0)
    >>> p.flags(), p.resolved_eps, p.is_classification
    ('-s 0 -c 4 -B 1', 0.01, True)
    """

    solver_type: int = LINEAR_DEFAULTS["solver_type"]
    C: float = LINEAR_DEFAULTS["C"]
    p: float = LINEAR_DEFAULTS["p"]
    nu: float = LINEAR_DEFAULTS["nu"]
    eps: float | None = None
    bias: float = LINEAR_DEFAULTS["bias"]
    regularize_bias: int = LINEAR_DEFAULTS["regularize_bias"]
    weight: tuple = ()

    def __post_init__(self) -> None:
        # C's doubles: C=4 and C=4.0 are one configuration (one store key, one report)
        for name in ("C", "p", "nu", "eps", "bias"):
            value = getattr(self, name)
            if isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, name, float(value))
        if isinstance(self.weight, (tuple, list)):
            object.__setattr__(self, "weight", tuple(_float_factor(w) for w in self.weight))

    @property
    def resolved_eps(self) -> float:
        if self.eps is not None:
            return self.eps
        return DEFAULT_EPS.get(self.solver_type, math.inf)

    @property
    def is_classification(self) -> bool:
        return self.solver_type in CLASSIFIERS

    @property
    def is_regression(self) -> bool:
        return self.solver_type in REGRESSORS

    def as_dict(self) -> dict:
        """JSON-friendly form, with the solver also named."""
        return {
            "library": "liblinear",
            "solver_type": self.solver_type,
            "solver_name": SOLVERS.get(self.solver_type, "unknown"),
            "C": self.C,
            "p": self.p,
            "nu": self.nu,
            "eps": self.resolved_eps,
            "bias": self.bias,
            "regularize_bias": self.regularize_bias,
            "weight": [[label, w] for label, w in self.weight],
        }

    def flags(self) -> str:
        """``train``'s options that give this configuration (defaults left out)."""
        d = LinearParams()
        out = []
        for flag, value, default in (
            ("-s", self.solver_type, d.solver_type),
            ("-c", self.C, d.C),
            ("-p", self.p, d.p),
            ("-n", self.nu, d.nu),
            ("-e", self.eps, None),
            ("-B", self.bias, d.bias),
        ):
            if value != default:
                out.append(f"{flag} {value:g}")
        if not self.regularize_bias:
            out.append("-R")
        out += [f"-w{label} {w:g}" for label, w in self.weight]
        return " ".join(out)

    def check(self) -> None:
        """Refuse what LIBLINEAR's C code cannot take safely, before C sees it: a solver it
        does not know (its own message), a value that is not finite, and ``nu`` outside
        (0, 1] for the one-class solver (LIBLINEAR checks none, and writes past an array for
        nu > 1)."""
        if self.solver_type not in SOLVERS:
            raise ParameterError("unknown solver type")
        for name in ("C", "p", "nu", "bias"):
            if not math.isfinite(getattr(self, name)):
                raise ParameterError(f"{name} is not a finite number")
        if not math.isfinite(self.resolved_eps):
            raise ParameterError("eps is not a finite number")
        if self.solver_type == LINEAR_ONE_CLASS and not 0 < self.nu <= 1:
            raise ParameterError("nu <= 0 or nu > 1")
        if self.regularize_bias not in (0, 1):
            raise ParameterError("regularize_bias is 1 (the default) or 0 (-R)")
        for pair in self.weight:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise ParameterError("weight holds (label, factor) pairs")
            label, factor = pair
            if not isinstance(label, int) or not INT_MIN <= label <= INT_MAX:
                raise ParameterError(f"weight label {label!r} is not a C int")
            if not isinstance(factor, (int, float)) or not math.isfinite(factor):
                raise ParameterError(f"weight factor {factor!r} is not a finite number")


def linear_configuration(params: LinearParams) -> str:
    """A LIBLINEAR configuration as reports, tables and a results store name it: ``linear:``
    and LIBLINEAR's train options (``linear: -s 2 -c 4``; ``linear:`` for its defaults), never
    mistaken for svm-train's (whose ``-s 2`` is a one-class SVM)."""
    flags = params.flags()
    return f"linear: {flags}" if flags else "linear:"


def _float_factor(pair):
    """A ``-wi`` pair with an int factor made a double (anything else left for check())."""
    if isinstance(pair, tuple) and len(pair) == 2:
        label, factor = pair
        if isinstance(factor, int) and not isinstance(factor, bool):
            return (label, float(factor))
    return pair

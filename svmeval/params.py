"""LIBSVM training parameters: svm-train's options, defaults and meaning, as a plain value."""

from __future__ import annotations

import math
import operator
from dataclasses import asdict, dataclass, replace

from svmeval.errors import ParameterError

SVM_TYPES = ("c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr")
KERNEL_TYPES = ("linear", "polynomial", "rbf", "sigmoid", "precomputed")

C_SVC, NU_SVC, ONE_CLASS, EPSILON_SVR, NU_SVR = range(5)
LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = range(5)

#: the range of a C ``int`` (LIBSVM's svm_type, kernel_type, degree, shrinking, probability,
#: weight labels and class labels are ``int``)
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

_INT_FIELDS = ("svm_type", "kernel_type", "degree", "shrinking", "probability")
_DOUBLE_FIELDS = ("gamma", "coef0", "C", "nu", "p", "cache_size", "eps")


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
        raise ParameterError(f"{what} = {number} does not fit a C int "
                             f"({INT_MIN} to {INT_MAX}), which LIBSVM stores it in")
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
        raise ParameterError(f"{what} = {number} is not finite (LIBSVM cannot use NaN or "
                             "infinity)")
    return number


@dataclass(frozen=True)
class SvmParams:
    """The fields of LIBSVM's ``struct svm_parameter``, with svm-train's defaults.

    ``gamma = 0`` means "1/num_features", resolved by :meth:`resolved` as svm-train does
    (it also turns an explicit ``-g 0`` into 1/num_features). ``weight`` holds the ``-wi``
    pairs ``(label, factor)`` in command-line order.
    """

    svm_type: int = C_SVC
    kernel_type: int = RBF
    degree: int = 3
    gamma: float = 0.0
    coef0: float = 0.0
    C: float = 1.0
    nu: float = 0.5
    p: float = 0.1
    cache_size: float = 100.0
    eps: float = 1e-3
    shrinking: int = 1
    probability: int = 0
    weight: tuple[tuple[int, float], ...] = ()

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
            raise ParameterError("SvmParams weight must be a sequence of (label, factor) "
                                 f"pairs, got {self.weight!r}") from None
        weight = []
        for pair in pairs:
            try:
                label, factor = pair
            except (TypeError, ValueError):
                raise ParameterError("SvmParams weight must be a sequence of (label, factor) "
                                     f"pairs, got {pair!r}") from None
            weight.append((c_int(label, "SvmParams weight label"),
                           c_double(factor, f"SvmParams weight of label {label!r}")))
        object.__setattr__(self, "weight", tuple(weight))

    def resolved(self, n_features: int) -> "SvmParams":
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

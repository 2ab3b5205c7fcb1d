"""LIBSVM training parameters: svm-train's options, defaults and meaning, as a plain value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

SVM_TYPES = ("c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr")
KERNEL_TYPES = ("linear", "polynomial", "rbf", "sigmoid", "precomputed")

C_SVC, NU_SVC, ONE_CLASS, EPSILON_SVR, NU_SVR = range(5)
LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = range(5)


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

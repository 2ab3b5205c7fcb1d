#!/usr/bin/env python3
"""Write the small data sets bundled in data/, in LIBSVM format, scaled to [-1, 1] as svm-scale does.

Sources: the data sets scikit-learn bundles (no download):
  breast_cancer.scale  Wisconsin diagnostic breast cancer (569 x 30), labels +1 malignant, -1 benign
  wine.scale           Wine recognition (178 x 13), labels 1, 2, 3
  diabetes.scale       Diabetes (442 x 10), target: disease progression after one year (regression)
svm-scale's rule per feature: x' = lower + (upper-lower)(x-min)/(max-min), lower=-1, upper=1; a
constant feature is left out; zeros are not written (sparse); values are printed with %g, as
svm-scale prints them.

Usage: python scripts/make_data.py   (needs scikit-learn: `make test` installs it)
"""

from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine

OUT = Path(__file__).resolve().parents[1] / "data"


def svm_scale(X: np.ndarray, lower: float = -1.0, upper: float = 1.0) -> np.ndarray:
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    scaled = lower + (upper - lower) * (X - lo) / span
    scaled[:, hi == lo] = 0.0
    return scaled


def write(path: Path, labels, X) -> None:
    with open(path, "w") as fh:
        for label, row in zip(labels, X):
            feats = "".join(f" {j + 1}:{v:g}" for j, v in enumerate(row) if v != 0)
            fh.write(f"{label}{feats}\n")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    bc = load_breast_cancer()
    labels = np.where(bc.target == 0, "+1", "-1")  # scikit-learn: 0 = malignant, 1 = benign
    write(OUT / "breast_cancer.scale", labels, svm_scale(bc.data))
    wine = load_wine()
    write(OUT / "wine.scale", (wine.target + 1).astype(str), svm_scale(wine.data))
    diabetes = load_diabetes()
    write(OUT / "diabetes.scale", [f"{v:g}" for v in diabetes.target], svm_scale(diabetes.data))


if __name__ == "__main__":
    main()

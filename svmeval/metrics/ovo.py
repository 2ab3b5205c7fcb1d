"""One score per class from one-vs-one decision values, for any number of classes.

:func:`class_scores` turns a block of rows of a model's k(k-1)/2 one-vs-one decision values into
the n x k one-vs-rest scores of :func:`svmeval.metrics.scores.ovr_scores_from_ovo` in one pass in
C (``_ovo.c``): no Python loop over the pairs and no n x k(k-1)/2 temporary, so 1,000 classes
cost the n x k answer and a pass over the values LIBSVM already gave. The formula (scikit-learn's
``_ovr_decision_function`` with LIBSVM's vote) and the order of its sums are the numpy loop's, so
the scores are the same bit for bit.
"""

from __future__ import annotations

import numpy as np

import svmeval.metrics._ovo as _ovo

__all__ = ["class_scores"]


def class_scores(
    decision_values, positions, n_model: int, out: np.ndarray | None = None
) -> np.ndarray:
    """The n x k class scores of the canonical classes (k = ``len(positions)``).

    ``decision_values``: n x M(M-1)/2, a model's one-vs-one values in its own label order (pair
    (a, b), a < b, positive towards its class a), M = ``n_model``. ``positions[c]``: the model's
    index of canonical class c, or -1 for a class the model never saw (its pairs count as NaN,
    and so do the scores of every row). ``out``: an n x k float64 C-contiguous array to fill.
    """
    n_model = int(n_model)
    if n_model < 0:
        raise ValueError(f"n_model must be >= 0, not {n_model}")
    pos = np.ascontiguousarray(positions, dtype=np.int64)
    if pos.ndim != 1 or (len(pos) and (pos.max() >= n_model or pos.min() < -1)):
        raise ValueError(f"positions must be model indices below {n_model}, or -1")
    dec = np.ascontiguousarray(decision_values, dtype=np.float64)
    pairs = n_model * (n_model - 1) // 2
    if dec.ndim != 2 or dec.shape[1] != pairs:
        raise ValueError(f"decision_values must be n x {pairs}, not {dec.shape}")
    n, k = dec.shape[0], len(pos)
    if out is None:
        out = np.empty((n, k))
    elif out.shape != (n, k) or out.dtype != np.float64 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float64 array of shape {(n, k)}")
    _ovo.scores(dec, n, n_model, pos, k, out)  # the GIL released inside
    return out

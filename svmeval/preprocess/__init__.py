"""Preprocessing learned on a fold's training rows: svm-scale's scaling and fselect.py's
F-score selection, as LIBSVM's tools do them (pure numpy; no LIBSVM).

:class:`Preprocessing` composes them in the order svm-scale, then selection (the F-scores of
the scaled rows); :meth:`Preprocessing.fit` learns both on some rows, and the
:class:`FittedPreprocessing` it gives transforms any rows with those factors and features.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmeval.preprocess.scaling import (
    ScaleFactors,
    ScaleLike,
    ScaleSpec,
    as_scale_spec,
    fit_scale,
    g6,
    parse_range,
)
from svmeval.preprocess.selection import (
    EPSILON,
    FSELECT,
    check_select,
    check_sizes,
    f_scores,
    fselect_sizes,
    keep_features,
    ranked,
    select_top,
)

__all__ = [
    "EPSILON",
    "FSELECT",
    "FittedPreprocessing",
    "Preprocessing",
    "ScaleFactors",
    "ScaleSpec",
    "ScaleLike",
    "as_scale_spec",
    "check_select",
    "check_sizes",
    "f_scores",
    "fit_scale",
    "fselect_sizes",
    "g6",
    "keep_features",
    "parse_range",
    "ranked",
    "select_top",
]


@dataclass(frozen=True)
class Preprocessing:
    """What is learned on each training fold: ``scale`` (svm-scale's options, or None) and
    ``select`` (the K features of highest F-score kept, or None), scaling first."""

    scale: ScaleSpec | None = None
    select: int | None = None

    @classmethod
    def of(cls, scale=None, select=None) -> Preprocessing | None:
        """From the run functions' ``scale=`` and ``select=`` (None: neither asked)."""
        spec, k = as_scale_spec(scale), check_select(select)
        if spec is None and k is None:
            return None
        return cls(spec, k)

    def key(self) -> str:
        """The preprocessing as text, for a results store's key."""
        parts = []
        if self.scale is not None:
            parts.append("scale " + self.scale.key())
        if self.select is not None:
            parts.append(f"select {self.select}")
        return "; ".join(parts)

    def fit(self, indptr, indices, values, y, rows=None) -> FittedPreprocessing:
        """Learn the factors and the features on the CSR rows ``rows`` (None: all)."""
        learned = self.learn(indptr, indices, values, y, rows, scores=self.select is not None)
        return learned if self.select is None else learned.keeping(self.select)

    def learn(self, indptr, indices, values, y, rows=None, *, scores=True) -> FittedPreprocessing:
        """What the rows ``rows`` teach before a size is chosen: the factors and (``scores``)
        every feature's F-score, no feature dropped yet (:meth:`FittedPreprocessing.keeping`
        keeps the top K of them: one ranking serves every K)."""
        factors = None
        if self.scale is not None:
            factors = fit_scale(self.scale, indptr, indices, values, y, rows)
        found = None
        if scores:
            if factors is not None:
                part = factors.transform(indptr, indices, values, rows)
            else:
                part = _subset(indptr, indices, values, rows)
            labels = np.asarray(y, dtype=np.float64)
            if rows is not None:
                labels = labels[np.asarray(rows, dtype=np.int64)]
            found = f_scores(part[0], part[1], part[2], labels)
        return FittedPreprocessing(factors, None, found)


def _subset(indptr, indices, values, rows):
    from svmeval.preprocess.scaling import _rows

    return _rows(indptr, indices, values, rows)


@dataclass(frozen=True, eq=False)
class FittedPreprocessing:
    """One training fold's preprocessing: ``factors`` (svm-scale's range, or None),
    ``features`` (the features kept, ascending, or None: all) and ``scores`` (the
    F-scores by feature index, or None)."""

    factors: ScaleFactors | None
    features: np.ndarray | None
    scores: np.ndarray | None

    def transform(self, indptr, indices, values, rows=None):
        """The CSR rows scaled with the factors, then only the features kept."""
        if self.factors is not None:
            out = self.factors.transform(indptr, indices, values, rows)
        else:
            out = _subset(indptr, indices, values, rows)
        if self.features is not None:
            out = keep_features(out[0], out[1], out[2], self.features)
        return out

    def keeping(self, k: int) -> FittedPreprocessing:
        """The same factors and scores, the top ``k`` features of the ranking kept."""
        if self.scores is None:
            raise ValueError("no F-scores to rank")  # pragma: no cover - learn(scores=True)
        return FittedPreprocessing(self.factors, select_top(self.scores, k), self.scores)

    def transform_y(self, y):
        """The targets as svm-scale's ``-y`` writes them (unchanged without it)."""
        if self.factors is None:
            return np.asarray(y, dtype=np.float64).copy()
        return self.factors.transform_y(y)

    def inverse_y(self, y):
        """Scaled targets (predictions) back in the data's units."""
        if self.factors is None:
            return np.asarray(y, dtype=np.float64).copy()
        return self.factors.inverse_y(y)

"""What :func:`~svmeval.workflows.threshold.tune_threshold` gives back: the tuned threshold's
three operating points (LIBSVM's own, tuned on the pooled scores, nested), every outer fold's
threshold (:class:`OuterThreshold`), the spread over repetitions, and the result's JSON object
and table (:class:`TunedThreshold`); the positive class's score of a CV result."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from svmeval import _tables as tables
from svmeval._classes import json_class
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance
from svmeval.cv.collect.results import CVResult
from svmeval.errors import SvmevalError
from svmeval.workflows.threshold_rules import (
    COUNTS,
    FIGURE_NAMES,
    POINTS,
    ThresholdCriterion,
    parse_criterion,
)

__all__ = ["OuterThreshold", "TunedThreshold", "positive_scores"]


@dataclass(frozen=True, eq=False)
class OuterThreshold:
    """One outer fold of the honest estimate: ``fold`` (0-based, LIBSVM's order), the
    ``threshold`` chosen on its training rows' inner cross-validation and the criterion's
    ``inner_value`` there, its rows (``train_rows`` in LIBSVM's order, ``test_rows``) and the
    figures of its test rows at that threshold (``figures``)."""

    fold: int
    threshold: float
    inner_value: float
    train_rows: np.ndarray
    test_rows: np.ndarray
    figures: dict

    __repr__ = brief_repr


@dataclass(frozen=True, eq=False)
class TunedThreshold:
    """A decision threshold tuned on cross-validated scores (:func:`tune_threshold`).

    ``criterion`` (its text, e.g. ``"cost:1,5"``) and ``greater_is_better``; ``positive`` /
    ``negative``: the classes; ``score_source``: "decision values" or "probabilities";
    ``default_threshold``: LIBSVM's own (0 or 0.5); ``threshold``: the one chosen on the
    pooled CV scores; ``libsvm``, ``tuned``, ``honest``: the figures (a dict) of LIBSVM's
    predictions, of the pooled scores at ``threshold`` (optimistic) and of the nested
    predictions (each outer fold at its own threshold); ``folds``: every
    :class:`OuterThreshold`; ``cv``: the outer :class:`~svmeval.cv.CVResult`;
    ``honest_pred``: the nested predictions (input order); ``repeat_results``: with
    ``repeat`` R > 1, repetitions 2 to R, each a whole :class:`TunedThreshold` of its own
    seed (this one is the first; :meth:`spread` summarises them all). :func:`svmeval.render` reports it
    (text, JSON, CSV, HTML); :func:`svmeval.plot` draws the cross-validation's figure sheet
    with LIBSVM's, the tuned and the nested operating points marked on its curves.

    Examples
    --------
    >>> from svmeval import tune_threshold
    >>> t = tune_threshold("data/breast_cancer.scale", folds=3, inner_folds=3, criterion="mcc")
    >>> len(t.folds), t.score_source
    (3, 'decision values')
    >>> t.to_frame().shape[0]  # one row per outer fold
    3
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.threshold:VIEW"
    #: its operating points, their figures and their counts, in its reports' order
    _POINTS: ClassVar[tuple[str, ...]] = POINTS
    _FIGURE_NAMES: ClassVar[tuple[str, ...]] = FIGURE_NAMES
    _COUNTS: ClassVar[tuple[str, ...]] = COUNTS

    criterion: str
    greater_is_better: bool
    positive: float
    negative: float
    score_source: str
    default_threshold: float
    threshold: float
    value: float
    libsvm: dict
    tuned: dict
    honest: dict
    folds: tuple
    cv: CVResult
    honest_pred: np.ndarray
    inner_folds: int
    repeat_results: tuple = ()
    provenance: Provenance | None = field(default=None, repr=False)

    __repr__ = brief_repr

    @property
    def repeat(self) -> int:
        """R, the repetitions of the whole estimate (``repeat``)."""
        return 1 + len(self.repeat_results)

    @property
    def repetitions(self) -> tuple:
        """Every repetition's result, this one first (each with its own ``seed``, folds and
        thresholds)."""
        return (self, *self.repeat_results)

    def spread(self) -> dict:
        """Over the repetitions: ``"threshold"`` (the tuned threshold of each) and, for each
        operating point (``"libsvm"``, ``"tuned"``, ``"honest"``), each figure and the
        criterion, as ``{"mean", "sd" (n - 1; NaN for one repetition), "min", "max"}``. An
        infinite tuned threshold makes its mean and sd infinite or NaN."""
        runs = self.repetitions
        out = {"threshold": _stats([r.threshold for r in runs])}
        for point in POINTS:
            out[point] = {
                k: _stats([getattr(r, point)[k] for r in runs])
                for k in (*FIGURE_NAMES, "criterion")
            }
        return out

    @property
    def n_folds(self) -> int:
        return self.cv.n_folds

    @property
    def seed(self) -> int:
        return self.cv.seed

    @property
    def data_name(self) -> str:
        return self.cv.data_name

    @property
    def options(self) -> str:
        return self.cv.params.flags()

    @property
    def thresholds(self) -> np.ndarray:
        """Each outer fold's threshold, in fold order."""
        return np.array([f.threshold for f in self.folds], dtype=np.float64)

    def positive_scores(self) -> np.ndarray:
        """The positive class's CV score of each sample (input order)."""
        return positive_scores(self.cv, self.positive)

    def _criterion(self) -> ThresholdCriterion:
        """Its criterion, parsed (for its reports)."""
        return parse_criterion(self.criterion)

    def to_dict(self) -> dict:
        """Plain JSON types (NaN and infinite thresholds as None: an infinite threshold is
        every sample positive, -inf, or none, inf; the counts tell which): the first
        repetition's operating points and folds, ``repeat``, ``repeat_results`` (repetitions
        2 to R, each with its ``seed``, operating points and folds) and ``spread``
        (:meth:`spread`)."""
        return tables.plain(
            {
                "criterion": self.criterion,
                "greater_is_better": self.greater_is_better,
                "data_file": self.data_name,
                "options": self.options,
                "n_folds": self.n_folds,
                "inner_folds": self.inner_folds,
                "seed": self.seed,
                "positive": json_class(self.positive, self.cv.classes),
                "negative": json_class(self.negative, self.cv.classes),
                "score_source": self.score_source,
                "rule": "positive when the score is at least the threshold",
                **({"preprocessing": self.cv.preprocessing} if self.cv.preprocessing else {}),
                **self._points(),
                "repeat": self.repeat,
                "repeat_results": [
                    {"repetition": r + 1, "seed": run.seed, **run._points()}
                    for r, run in enumerate(self.repeat_results, start=1)
                ],
                "spread": self.spread(),
            }
        )

    def _points(self) -> dict:
        """One repetition's operating points and outer folds (:meth:`to_dict`'s keys)."""
        return {
            "libsvm": {"threshold": self.default_threshold, **self.libsvm},
            "tuned": {"threshold": self.threshold, **self.tuned},
            "honest": self.honest,
            "folds": [
                {
                    "fold": f.fold + 1,
                    "threshold": f.threshold,
                    "inner_value": f.inner_value,
                    "n_train": len(f.train_rows),
                    "n_test": len(f.test_rows),
                    **f.figures,
                }
                for f in self.folds
            ],
        }

    def to_frame(self):
        """A pandas DataFrame, one row per (repetition, outer fold): ``dataset``,
        ``configuration``, ``options``, ``repetition`` (0-based), ``seed`` (the repetition's),
        ``fold`` (0-based), ``n_train``, ``n_test``, ``threshold`` (chosen on the fold's
        training rows), ``inner_value`` (the criterion there), then the figures of the fold's
        test rows at that threshold and ``criterion`` (the criterion's value)."""
        tables.pandas()
        head = {
            "dataset": self.data_name,
            "configuration": self.cv.configuration,  # as given: "" for svm-train's defaults
            "options": self.options,
        }
        return tables.frame(
            [
                {
                    **head,
                    "repetition": r,
                    "seed": run.seed,
                    "fold": f.fold,
                    "n_train": len(f.train_rows),
                    "n_test": len(f.test_rows),
                    "threshold": f.threshold,
                    "inner_value": f.inner_value,
                    **f.figures,
                }
                for r, run in enumerate(self.repetitions)
                for f in run.folds
            ]
        )


def _stats(values) -> dict:
    """mean, sd (n - 1; NaN for one value), min, max of ``values``."""
    a = np.asarray(values, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return {
            "mean": float(a.mean()),
            "sd": float(a.std(ddof=1)) if len(a) > 1 else math.nan,
            "min": float(a.min()),
            "max": float(a.max()),
        }


def positive_scores(result: CVResult, positive: float) -> np.ndarray:
    """The positive class's score of each sample of a two-class CV result: its probability
    with ``-b 1``, else its decision value (towards it)."""
    k = int(np.flatnonzero(result.labels == positive)[0])
    matrix = result.probabilities if result.probabilities is not None else result.scores
    if matrix is None:
        raise SvmevalError("a classification's result without class scores")
    return np.asarray(matrix[:, k], dtype=np.float64)

"""The one summary type of every run, and the spread of figures over folds and repetitions."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from svmeval._repr import brief_repr
from svmeval.errors import SvmevalError
from svmeval.metrics.figures import FIGURES

if TYPE_CHECKING:
    from svmeval.cv.collect.provenance import Provenance
    from svmeval.metrics.classification import ClassificationReport
    from svmeval.metrics.multilabel import MultilabelReport
    from svmeval.metrics.regression import RegressionReport
    from svmeval.metrics.scores import ClassRanking
    from svmeval.summary.intervals import Intervals

__all__ = ["LabelRanking", "Summary", "spread"]


@dataclass(frozen=True)
class LabelRanking:
    """Threshold-free figures of per-label scores (see :mod:`svmeval.metrics.ranking`).

    ``lrap``: label ranking average precision (the "MAP" of multi-label papers; 1 is best);
    ``coverage_error`` (best: the mean number of true labels a sample); ``ranking_loss``
    (0 is best); ``average_precision``: per label (NaN for a label no sample has);
    ``mean_average_precision``: their mean over labels with a defined value.
    ``source``: "decision_values" or "probabilities".
    """

    lrap: float
    coverage_error: float
    ranking_loss: float
    average_precision: np.ndarray
    mean_average_precision: float
    source: str


@dataclass(frozen=True, eq=False)
class Summary:
    """What one run found: every figure, computed once; reporters format it.

    ``kind``: "classification", "regression" or "multilabel"; ``figure_kind`` adds the number
    of classes ("binary" / "multiclass"), the kinds of :data:`svmeval.metrics.FIGURES`.
    ``figures``: the pooled scalar figures by registry name, in registry order (NaN =
    undefined); ``fold_figures`` / ``repeat_figures``: one such dict per fold / repetition;
    ``fold_spread`` / ``repeat_spread``: name -> (mean, sd) over them (sd with n-1; NaN with
    one value; undefined values left out). ``fold_sizes``: each fold's number of samples.

    The detail of each kind: ``classification`` (a :class:`~svmeval.metrics.ClassificationReport`,
    with ``correct``, ``accuracy_percent``, and for two classes ``positive`` / ``negative``,
    the positive class and the other, and ``pos_label``, the positive class asked for: None
    when ``positive`` is the default, 1 if present, else the larger label; svm-train's lines
    are then the patched svm-train's, label 1 against every other label), ``regression`` (a
    :class:`~svmeval.metrics.RegressionReport`), ``multilabel`` (a
    :class:`~svmeval.metrics.MultilabelReport`, with ``label_names`` and ``empty_samples``);
    ``ranking``: the threshold-free figures of the scores (a
    :class:`~svmeval.metrics.scores.ClassRanking`, or for multi-label a
    :class:`LabelRanking`), None without scores. ``intervals``: the bootstrap confidence
    intervals of the pooled figures (an :class:`~svmeval.summary.intervals.Intervals`), when
    :func:`summarize` was given ``ci``. ``calibration``: with class probabilities (``-b 1``),
    the bins of their reliability diagrams
    (:func:`~svmeval.metrics.probabilities.reliability_bins`: one per class for two classes,
    the top-label confidence's for more), empty without.
    ``meta``: where the predictions came from (mode "cv" or "score", data file, folds, seed,
    LIBSVM parameters). ``provenance``: the run's ``Provenance``
    (versions, call, when, how long, the data's digest), when it came from a run.
    ``classes``: the user's labels where the data's were not numbers (the ``classes`` of
    their :class:`~svmeval.io.data.Dataset`): the numeric labels above are positions among
    them, and the reports and ``to_dict`` name each class by its user's label.

    Examples
    --------
    >>> from svmeval import cross_validate, summarize
    >>> summary = summarize(cross_validate("data/wine.scale", folds=3))
    >>> round(summary.figure("accuracy"), 4), round(summary.fold_spread["accuracy"][0], 4)
    (0.9719, 0.972)
    >>> summary.classification.labels.tolist()
    [1.0, 2.0, 3.0]
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.summary:SUMMARY"

    __repr__ = brief_repr

    kind: str
    n_samples: int
    figures: dict = field(default_factory=dict)
    fold_figures: list = field(default_factory=list)
    fold_spread: dict = field(default_factory=dict)
    fold_sizes: tuple = ()
    repeat_figures: list = field(default_factory=list)
    repeat_spread: dict = field(default_factory=dict)
    zero_division: float = 0.0
    meta: dict = field(default_factory=dict)
    classification: ClassificationReport | None = None
    regression: RegressionReport | None = None
    multilabel: MultilabelReport | None = None
    ranking: ClassRanking | LabelRanking | None = None
    correct: int = 0
    accuracy_percent: float = math.nan
    positive: float | None = None
    negative: float | None = None
    pos_label: float | None = field(default=None, repr=False)  # asked for; None: the default
    label_names: np.ndarray | None = None
    empty_samples: int = 0
    configuration: str = ""
    provenance: Provenance | None = field(default=None, repr=False)
    intervals: Intervals | None = None  # bootstrap intervals of the pooled figures (``ci``)
    calibration: tuple = ()  # the reliability diagrams' bins of the -b 1 probabilities
    classes: tuple | None = None  # the user's labels of classes coded 0 .. k-1 (Dataset.classes)

    def class_name(self, label: float) -> object:
        """The user's label of class ``label`` (``label`` itself where the labels are numbers)."""
        from svmeval._classes import class_name

        return class_name(label, self.classes)

    def show_class(self, label: float) -> str:
        """Class ``label`` as text, by the user's label."""
        from svmeval._classes import show_class

        return show_class(label, self.classes)

    @property
    def is_binary(self) -> bool:
        return self.positive is not None

    @property
    def figure_kind(self) -> str:
        if self.kind == "classification":
            return "binary" if self.is_binary else "multiclass"
        return self.kind

    def class_index(self, label: float) -> int:
        """The position of class ``label`` in the classification report's labels."""
        if self.classification is None:
            raise SvmevalError(f"a {self.kind} summary has no classes")
        return int(np.flatnonzero(self.classification.labels == label)[0])

    def figure(self, name: str) -> float:
        """The pooled value of a registry figure (NaN when undefined or absent)."""
        if name not in FIGURES:
            raise KeyError(f"no figure named {name!r}")
        return float(self.figures.get(name, math.nan))

    def to_dict(self) -> dict:
        """The JSON report's object (plain JSON types, undefined values None)."""
        from svmeval.summary.data import summary_object

        return summary_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per fold (columns: dataset, configuration, repetition,
        seed, fold, n_test, then the figures); see :mod:`svmeval.summary.data`."""
        from svmeval.summary.data import summary_frame

        return summary_frame(self)


def spread(rows: list[dict]) -> dict:
    """name -> (mean, sd) over rows; sd with n-1 (NaN for one row); NaN values left out."""
    out = {}
    for name in rows[0] if rows else ():
        values = np.array([r.get(name, math.nan) for r in rows], dtype=np.float64)
        values = values[~np.isnan(values)]
        mean = float(values.mean()) if len(values) else math.nan
        sd = float(values.std(ddof=1)) if len(values) > 1 else math.nan
        out[name] = (mean, sd)
    return out

"""The registry of scalar figures: every number a run is summed up by, declared once.

A :class:`Figure` is one scalar of a run: its name (the JSON key, the CSV row name and the grid
search's criterion), the title of its text-report row, whether larger is better, the kinds of
run it exists for, its formula and its undefined case. The summary computes :data:`FIGURES` in
this order for each kind (pooled, per fold, per repetition), the reporters print them in this
order under these titles, and ``svmeval-grid --criterion`` accepts exactly these names. A new
figure is one entry here plus the line computing it in :func:`svmeval.summary.single.figures_of`
(or the multi-label summary).

Kinds: ``"binary"`` (two-class classification), ``"multiclass"``, ``"regression"``
(-s 3 / -s 4) and ``"multilabel"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["FIGURES", "KINDS", "Figure", "criteria_for", "figure_names"]

KINDS = ("binary", "multiclass", "regression", "multilabel")

_CLASSIFICATION = frozenset({"binary", "multiclass"})
_BINARY = frozenset({"binary"})
_MULTICLASS = frozenset({"multiclass"})


@dataclass(frozen=True)
class Figure:
    """One scalar figure.

    ``name``: key in JSON and CSV, criterion name; ``title``: text report row;
    ``greater_is_better``: the direction a parameter search optimises; ``kinds``: the runs it
    exists for; ``formula``: its definition; ``undefined``: when it has no value (NaN, ``n/a``
    in text, ``null`` in JSON) and what the zero-division policy does then;
    ``needs_probabilities``: a figure of the class probabilities, which only a classifier
    trained with probability estimates (``-b 1``) has (a run without them lacks the figure);
    ``names_positive_class``: a figure of every kind whose two-class value is the positive
    class's (its title names that class), as a figure of kind "binary" alone always is.
    """

    name: str
    title: str
    greater_is_better: bool
    kinds: frozenset
    formula: str
    undefined: str = "never"
    needs_probabilities: bool = False
    names_positive_class: bool = False


_ENTRIES = (
    Figure(
        "accuracy",
        "accuracy",
        True,
        _CLASSIFICATION,
        "correct predictions / N (svm-train's Cross Validation Accuracy / 100)",
        "N = 0",
    ),
    Figure(
        "balanced_accuracy",
        "balanced accuracy",
        True,
        _CLASSIFICATION,
        "mean recall over the classes with true samples",
        "N = 0",
    ),
    Figure(
        "mcc",
        "MCC",
        True,
        _CLASSIFICATION,
        "Matthews correlation, multiclass form (Gorodkin 2004): (cN - sum p_k t_k) / "
        "sqrt((N^2 - sum p_k^2)(N^2 - sum t_k^2))",
        "one class predicted or one class true: the zero-division value (0 by default, "
        "as scikit-learn; undefined with nan)",
    ),
    Figure(
        "kappa",
        "Cohen's kappa",
        True,
        _CLASSIFICATION,
        "(p_o - p_e) / (1 - p_e), observed against chance agreement (Cohen 1960)",
        "p_e = 1",
    ),
    Figure(
        "precision",
        "precision",
        True,
        _BINARY,
        "TP / (TP + FP) of the positive class",
        "the positive class never predicted: the zero-division value",
    ),
    Figure(
        "recall",
        "recall",
        True,
        _BINARY,
        "TP / (TP + FN) of the positive class",
        "no positive sample: the zero-division value",
    ),
    Figure(
        "f1",
        "F1",
        True,
        _BINARY,
        "2TP / (2TP + FP + FN) of the positive class",
        "TP + FP + FN = 0: the zero-division value",
    ),
    Figure(
        "macro_f1",
        "macro F1",
        True,
        _CLASSIFICATION | {"multilabel"},
        "mean of the per-class (per-label) F1",
        "through the zero-division policy",
    ),
    Figure(
        "macro_harmonic_f1",
        "macro-harmonic F1",
        True,
        _CLASSIFICATION,
        "2 P R / (P + R) of macro precision P and macro recall R (Opitz & Burst 2019)",
        "P + R = 0",
    ),
    Figure(
        "micro_f1",
        "micro F1",
        True,
        _CLASSIFICATION | {"multilabel"},
        "F1 of the counts summed over classes (labels); = accuracy for single-label data",
        "no sample",
    ),
    Figure(
        "weighted_f1",
        "weighted F1",
        True,
        _CLASSIFICATION,
        "per-class F1 weighted by support",
        "through the zero-division policy",
    ),
    Figure(
        "roc_auc",
        "ROC AUC",
        True,
        _BINARY,
        "area under the ROC curve of the positive class from the CV scores",
        "no scores, or one class only",
    ),
    Figure(
        "average_precision",
        "average precision",
        True,
        _BINARY,
        "sum_n (R_n - R_{n-1}) P_n of the positive class from the CV scores "
        "(no interpolation, scikit-learn >= 0.19)",
        "no scores, or no positive sample",
    ),
    Figure(
        "macro_roc_auc",
        "macro ROC AUC",
        True,
        _MULTICLASS,
        "mean one-vs-rest ROC AUC over classes",
        "no scores",
    ),
    Figure(
        "macro_average_precision",
        "macro AP",
        True,
        _MULTICLASS,
        "mean one-vs-rest average precision over classes",
        "no scores",
    ),
    Figure(
        "label_ranking_average_precision",
        "label ranking AP",
        True,
        _MULTICLASS,
        "label ranking average precision of the true class among the class scores",
        "no scores",
    ),
    Figure(
        "log_loss",
        "log loss",
        False,
        _CLASSIFICATION,
        "-mean log p(true class) of the CV probabilities, natural log, p clipped to "
        "[eps, 1 - eps] (scikit-learn's log_loss)",
        "no probabilities (a run without -b 1): absent",
        needs_probabilities=True,
    ),
    Figure(
        "brier_score",
        "Brier score",
        False,
        _CLASSIFICATION,
        "two classes: mean (p(positive) - [y = positive])^2 (scikit-learn's brier_score_loss "
        "of the positive class); more: mean over samples of sum_c (p_c - [y = c])^2, the squared "
        "distance to the one-hot vector of the true class",
        "no probabilities (a run without -b 1): absent",
        needs_probabilities=True,
        names_positive_class=True,
    ),
    Figure(
        "ece",
        "ECE",
        False,
        _CLASSIFICATION,
        "expected calibration error: sum_b (n_b / N) |accuracy_b - confidence_b| over 10 "
        "equal-width bins of the top-label confidence max_c p_c (bin b: b/10 < p <= (b+1)/10)",
        "no probabilities (a run without -b 1): absent",
        needs_probabilities=True,
    ),
    Figure(
        "mse",
        "mean squared error",
        False,
        frozenset({"regression"}),
        "sum (v_i - y_i)^2 / N (svm-train's Cross Validation Mean squared error)",
        "N = 0",
    ),
    Figure(
        "scc",
        "squared correlation",
        True,
        frozenset({"regression"}),
        "squared correlation coefficient of predictions and targets "
        "(svm-train's Cross Validation Squared correlation coefficient)",
        "constant predictions or targets",
    ),
    Figure(
        "samples_f1",
        "samples F1",
        True,
        frozenset({"multilabel"}),
        "mean over samples of each label set's F1",
        "through the zero-division policy",
    ),
    Figure(
        "subset_accuracy",
        "subset accuracy",
        True,
        frozenset({"multilabel"}),
        "share of samples whose predicted label set equals the true one",
        "N = 0",
    ),
    Figure(
        "hamming_loss",
        "Hamming loss",
        False,
        frozenset({"multilabel"}),
        "share of wrong sample x label decisions",
        "N = 0",
    ),
    Figure(
        "lrap",
        "LRAP",
        True,
        frozenset({"multilabel"}),
        "label ranking average precision from the per-label scores",
        "no scores",
    ),
)

#: name -> :class:`Figure`, in report order
FIGURES: Mapping[str, Figure] = MappingProxyType({f.name: f for f in _ENTRIES})


def figure_names(kind: str) -> tuple[str, ...]:
    """The names of the figures of a run of ``kind``, in report order."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    return _NAMES[kind]


#: kind -> its figures' names, in report order (the registry is fixed when the module loads)
_NAMES = {kind: tuple(n for n, f in FIGURES.items() if kind in f.kinds) for kind in KINDS}


def criteria_for(kind: str, *, probabilities: bool = True) -> tuple[str, ...]:
    """The criteria a parameter search over runs of ``kind`` can optimise: every figure, less
    those of the class probabilities where the runs have none (``probabilities`` False)."""
    return tuple(
        name
        for name in figure_names(kind)
        if probabilities or not FIGURES[name].needs_probabilities
    )

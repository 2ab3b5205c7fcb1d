"""Metrics: pure numpy, no LIBSVM. Work on any y_true / y_pred (or scores).

* :mod:`~svmeval.metrics.measures`: the registry of measures (:data:`METRICS`) and averages
  (:data:`AVERAGES`), and the one count -> ratio reduce step;
* :mod:`~svmeval.metrics.classification`: single-label figures (:func:`evaluate`,
  :class:`ConfusionCounts` for fold-by-fold counts);
* :mod:`~svmeval.metrics.multilabel`: multi-label set figures (:func:`evaluate_multilabel`);
* :mod:`~svmeval.metrics.ranking`: threshold-free figures from scores (ROC AUC, average
  precision, one-vs-rest, label ranking);
* :mod:`~svmeval.metrics.regression`: svm-train's mean squared error and squared correlation;
* the functions named as scikit-learn's (:data:`SKLEARN_CONTRACT`) follow scikit-learn's
  contract (arguments, defaults, answers, exceptions, warnings as
  :class:`UndefinedMetricWarning`): :mod:`~svmeval.metrics.precision_recall` (precision, recall, F),
  :mod:`~svmeval.metrics.agreement` (accuracy, balanced accuracy, kappa, MCC, confusion
  matrix), :mod:`~svmeval.metrics.areas` and :mod:`~svmeval.metrics.curves` (ROC AUC, average
  precision, their curves), :mod:`~svmeval.metrics.label_ranking`; input rules in
  :mod:`~svmeval.metrics.target_types`.  svmeval's own figures above keep an undefined value
  undefined (NaN) where these return scikit-learn's replacement.
"""

TYPE_CHECKING = False  # as typing's, without importing typing (svm-train's lines import this)

if TYPE_CHECKING:  # the names as their modules define them, for type checkers
    from svmeval.metrics.agreement import (
        accuracy_score,
        balanced_accuracy_score,
        cohen_kappa_score,
        confusion_matrix,
        matthews_corrcoef,
    )
    from svmeval.metrics.areas import average_precision_score, roc_auc_score
    from svmeval.metrics.averaging import AVERAGES, Average, Averaging
    from svmeval.metrics.classification import (
        SINGLE_LABEL_AVERAGES,
        ClassificationReport,
        ConfusionCounts,
        evaluate,
    )
    from svmeval.metrics.curves import precision_recall_curve, roc_curve
    from svmeval.metrics.figures import FIGURES, Figure, figure_names
    from svmeval.metrics.label_ranking import (
        coverage_error,
        label_ranking_average_precision_score,
        label_ranking_loss,
    )
    from svmeval.metrics.measures import METRICS, Metric, parse_zero_division
    from svmeval.metrics.multilabel import (
        MULTILABEL_AVERAGES,
        MultilabelReport,
        evaluate_multilabel,
        label_sets_to_indicator,
    )
    from svmeval.metrics.precision_recall import (
        f1_score,
        fbeta_score,
        precision_recall_fscore_support,
        precision_score,
        recall_score,
    )
    from svmeval.metrics.ranking import (
        average_precision,
        coverage,
        label_ranking_average_precision,
        macro_average_precision,
        macro_roc_auc,
        ovr_average_precision,
        ovr_roc_auc,
        per_label_average_precision,
        ranking_loss,
        roc_auc,
    )
    from svmeval.metrics.regression import RegressionReport, regression_report
    from svmeval.metrics.undefined import UndefinedMetricWarning
    from svmeval.metrics.validation import InvalidParameterError

#: public name -> the module that defines it, imported on first use: ``import svmeval.metrics``
#: loads no numpy, and one figure's module loads only what that figure needs
_LAZY = {
    "accuracy_score": "svmeval.metrics.agreement",
    "balanced_accuracy_score": "svmeval.metrics.agreement",
    "cohen_kappa_score": "svmeval.metrics.agreement",
    "confusion_matrix": "svmeval.metrics.agreement",
    "matthews_corrcoef": "svmeval.metrics.agreement",
    "average_precision_score": "svmeval.metrics.areas",
    "roc_auc_score": "svmeval.metrics.areas",
    "AVERAGES": "svmeval.metrics.averaging",
    "Average": "svmeval.metrics.averaging",
    "Averaging": "svmeval.metrics.averaging",
    "SINGLE_LABEL_AVERAGES": "svmeval.metrics.classification",
    "ClassificationReport": "svmeval.metrics.classification",
    "ConfusionCounts": "svmeval.metrics.classification",
    "evaluate": "svmeval.metrics.classification",
    "precision_recall_curve": "svmeval.metrics.curves",
    "roc_curve": "svmeval.metrics.curves",
    "FIGURES": "svmeval.metrics.figures",
    "Figure": "svmeval.metrics.figures",
    "figure_names": "svmeval.metrics.figures",
    "coverage_error": "svmeval.metrics.label_ranking",
    "label_ranking_average_precision_score": "svmeval.metrics.label_ranking",
    "label_ranking_loss": "svmeval.metrics.label_ranking",
    "METRICS": "svmeval.metrics.measures",
    "Metric": "svmeval.metrics.measures",
    "parse_zero_division": "svmeval.metrics.measures",
    "MULTILABEL_AVERAGES": "svmeval.metrics.multilabel",
    "MultilabelReport": "svmeval.metrics.multilabel",
    "evaluate_multilabel": "svmeval.metrics.multilabel",
    "label_sets_to_indicator": "svmeval.metrics.multilabel",
    "average_precision": "svmeval.metrics.ranking",
    "coverage": "svmeval.metrics.ranking",
    "label_ranking_average_precision": "svmeval.metrics.ranking",
    "macro_average_precision": "svmeval.metrics.ranking",
    "macro_roc_auc": "svmeval.metrics.ranking",
    "ovr_average_precision": "svmeval.metrics.ranking",
    "ovr_roc_auc": "svmeval.metrics.ranking",
    "per_label_average_precision": "svmeval.metrics.ranking",
    "ranking_loss": "svmeval.metrics.ranking",
    "roc_auc": "svmeval.metrics.ranking",
    "RegressionReport": "svmeval.metrics.regression",
    "regression_report": "svmeval.metrics.regression",
    "f1_score": "svmeval.metrics.precision_recall",
    "fbeta_score": "svmeval.metrics.precision_recall",
    "precision_recall_fscore_support": "svmeval.metrics.precision_recall",
    "precision_score": "svmeval.metrics.precision_recall",
    "recall_score": "svmeval.metrics.precision_recall",
    "UndefinedMetricWarning": "svmeval.metrics.undefined",
    "InvalidParameterError": "svmeval.metrics.validation",
}

#: The functions that carry a scikit-learn name and follow scikit-learn's contract (same
#: arguments, defaults, answers, exceptions and warnings); an argument they do not take raises
#: :class:`InvalidParameterError` (a ValueError and a TypeError, as scikit-learn's).
SKLEARN_CONTRACT = (
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "matthews_corrcoef",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "average_precision_score",
    "roc_curve",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "coverage_error",
    "label_ranking_loss",
    "label_ranking_average_precision_score",
)

__all__ = [
    "FIGURES",
    "Figure",
    "figure_names",
    "SKLEARN_CONTRACT",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "AVERAGES",
    "METRICS",
    "MULTILABEL_AVERAGES",
    "SINGLE_LABEL_AVERAGES",
    "Average",
    "Averaging",
    "ClassificationReport",
    "ConfusionCounts",
    "Metric",
    "MultilabelReport",
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "evaluate",
    "evaluate_multilabel",
    "f1_score",
    "fbeta_score",
    "label_sets_to_indicator",
    "matthews_corrcoef",
    "parse_zero_division",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "average_precision",
    "average_precision_score",
    "coverage",
    "coverage_error",
    "label_ranking_average_precision",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "macro_average_precision",
    "macro_roc_auc",
    "ovr_average_precision",
    "ovr_roc_auc",
    "per_label_average_precision",
    "precision_recall_curve",
    "ranking_loss",
    "roc_auc",
    "roc_auc_score",
    "roc_curve",
    "RegressionReport",
    "regression_report",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # on first use: importing the package itself loads nothing more

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

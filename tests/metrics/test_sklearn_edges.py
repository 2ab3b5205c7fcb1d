"""scikit-learn's contract at its edges, one test per defect found: all-zero sample weights,
parameters of a type or value scikit-learn refuses, 0-d inputs, the single-label warning of
matthews_corrcoef. The oracle is the installed scikit-learn, called on the same inputs.
(tests/metrics/test_sklearn_contract_properties.py feeds random inputs to every function.)"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

sk_metrics = pytest.importorskip("sklearn.metrics")
from sklearn.exceptions import UndefinedMetricWarning as SkUndefined  # noqa: E402
from sklearn.utils._param_validation import InvalidParameterError as SkInvalid  # noqa: E402
from sklearn.utils._param_validation import make_constraint  # noqa: E402

import svmeval.metrics as svm_metrics  # noqa: E402
from svmeval.metrics import InvalidParameterError  # noqa: E402

Y2, P2, S2 = [0, 1, 1, 0], [0, 1, 0, 0], [0.1, 0.8, 0.4, 0.3]
IND = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
IND_S = np.array([[0.9, 0.1, 0.5], [0.2, 0.7, 0.6], [0.8, 0.3, 0.1]])
ZEROS4, ZEROS3 = np.zeros(4), np.zeros(3)

#: a valid call of each function (positional arguments, keyword arguments)
CALLS = {
    "accuracy_score": ((Y2, P2), {}),
    "balanced_accuracy_score": ((Y2, P2), {}),
    "cohen_kappa_score": ((Y2, P2), {}),
    "confusion_matrix": ((Y2, P2), {}),
    "f1_score": ((Y2, P2), {}),
    "fbeta_score": ((Y2, P2), {"beta": 2.0}),
    "matthews_corrcoef": ((Y2, P2), {}),
    "precision_score": ((Y2, P2), {}),
    "recall_score": ((Y2, P2), {}),
    "precision_recall_fscore_support": ((Y2, P2), {}),
    "roc_auc_score": ((Y2, S2), {}),
    "average_precision_score": ((Y2, S2), {}),
    "roc_curve": ((Y2, S2), {}),
    "precision_recall_curve": ((Y2, S2), {}),
    "coverage_error": ((IND, IND_S), {}),
    "label_ranking_loss": ((IND, IND_S), {}),
    "label_ranking_average_precision_score": ((IND, IND_S), {}),
}


def test_every_sklearn_named_function_has_a_valid_call_here():
    assert set(CALLS) == set(svm_metrics.SKLEARN_CONTRACT)


def outcome(func, *args, **kwargs):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            value = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the class is the answer compared
            return type(exc), str(exc), [w.category for w in seen]
    return value, None, [w.category for w in seen]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_all_zero_sample_weight_raises_as_sklearn(name):
    args, kwargs = CALLS[name]
    weights = ZEROS3 if len(args[0]) == 3 else ZEROS4
    theirs = outcome(getattr(sk_metrics, name), *args, sample_weight=weights, **kwargs)
    ours = outcome(getattr(svm_metrics, name), *args, sample_weight=weights, **kwargs)
    if isinstance(theirs[0], type):
        assert ours[0] is theirs[0] and ours[1] == theirs[1], (ours, theirs)
    else:  # label_ranking_average_precision_score: NaN and numpy's warning, as scikit-learn
        assert math.isnan(theirs[0]) and math.isnan(ours[0]) and ours[2] == theirs[2]


def test_all_zero_sample_weight_raises_where_sklearn_raises():
    """scikit-learn raises "Sample weights must contain at least one non-zero number" in 14
    of the 17 functions (label ranking: a number, or NaN); svmeval in the same 14."""

    def raising(module):
        return {
            n
            for n, (args, kwargs) in CALLS.items()
            if "at least one non-zero"
            in str(
                outcome(
                    getattr(module, n),
                    *args,
                    **kwargs,
                    sample_weight=ZEROS3 if len(args[0]) == 3 else ZEROS4,
                )[1]
            )
        }

    theirs = raising(sk_metrics)
    assert raising(svm_metrics) == theirs
    assert {
        "accuracy_score",
        "roc_auc_score",
        "average_precision_score",
        "roc_curve",
        "precision_recall_curve",
        "matthews_corrcoef",
        "f1_score",
    } <= theirs


@pytest.mark.parametrize(
    "name,args,kwargs",
    [
        ("roc_auc_score", ([0, 1, 1], [0.1, 0.2, 0.3]), {"multi_class": "bogus"}),
        ("accuracy_score", (Y2, P2), {"normalize": "yes"}),
        ("balanced_accuracy_score", (Y2, P2), {"adjusted": "yes"}),
        ("roc_curve", (Y2, S2), {"drop_intermediate": "yes"}),
        ("precision_recall_curve", (Y2, S2), {"drop_intermediate": 1}),
        ("f1_score", (Y2, P2), {"average": "bogus"}),
        ("f1_score", (Y2, P2), {"zero_division": 0.5}),
        ("fbeta_score", (Y2, P2), {"beta": -1}),
        ("cohen_kappa_score", (Y2, P2), {"replace_undefined_by": 2.0}),
        ("confusion_matrix", (Y2, P2), {"normalize": "rows"}),
        ("roc_auc_score", (Y2, S2), {"max_fpr": 0}),
        ("average_precision_score", (Y2, S2), {"pos_label": None}),
        ("accuracy_score", (5, P2), {}),
        ("balanced_accuracy_score", ("0101", P2), {}),
    ],
)
def test_invalid_parameter_raises_invalid_parameter_error_as_sklearn(name, args, kwargs):
    with pytest.raises(SkInvalid):
        getattr(sk_metrics, name)(*args, **kwargs)
    with pytest.raises(InvalidParameterError) as caught:
        getattr(svm_metrics, name)(*args, **kwargs)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)
    parameter = next(iter(kwargs), None) or ("y_true" if name != "cohen_kappa_score" else "y1")
    assert f"The {parameter!r} parameter of {name} must be" in str(caught.value)


PROBES = [
    None,
    True,
    False,
    np.bool_(True),
    0,
    1,
    0.0,
    1.0,
    0.5,
    -1,
    -1.0,
    2,
    1.5,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    np.float64(0.25),
    np.float64(math.nan),
    np.int64(1),
    "warn",
    "nan",
    "binary",
    "macro",
    "micro",
    "samples",
    "weighted",
    "linear",
    "quadratic",
    "true",
    "pred",
    "all",
    "raise",
    "ovr",
    "ovo",
    "bogus",
    "",
    "1",
    [1],
    (1,),
    {1},
    [],
    np.array([1, 0]),
    np.array(1),
    np.array(0.5),
    object(),
    1 + 2j,
]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_parameter_constrained_as_sklearn(name):
    """The declarations, against scikit-learn's own (``_skl_parameter_constraints``): the same
    parameters, and every probe value accepted or refused alike, sparse matrices included."""
    sparse = pytest.importorskip("scipy.sparse")
    theirs = getattr(sk_metrics, name)._skl_parameter_constraints
    ours = getattr(svm_metrics, name).parameter_constraints
    assert set(ours) == set(theirs)
    for parameter, constraints in theirs.items():
        made = [make_constraint(c) for c in constraints]
        for value in PROBES + [sparse.csr_matrix(np.eye(2)), sparse.csr_array(np.eye(2))]:
            expected = any(c.is_satisfied_by(value) for c in made)
            got = any(c.is_satisfied_by(value) for c in ours[parameter])
            assert got == expected, (parameter, value)


@pytest.mark.parametrize(
    "name",
    [
        "roc_auc_score",
        "average_precision_score",
        "roc_curve",
        "accuracy_score",
        "confusion_matrix",
        "coverage_error",
    ],
)
def test_zero_d_input_raises_as_sklearn(name):
    """roc_auc_score(np.array(1), np.array(0.5)) raised IndexError (scikit-learn: TypeError)."""
    args = (
        np.array(1),
        np.array(0.5) if name not in ("accuracy_score", "confusion_matrix") else np.array(1),
    )
    theirs = outcome(getattr(sk_metrics, name), *args)
    ours = outcome(getattr(svm_metrics, name), *args)
    assert isinstance(theirs[0], type) and ours[0] is theirs[0]
    if name == "roc_auc_score":
        assert ours[0] is TypeError


@pytest.mark.parametrize("y", [[1, 1, 1], ["a"], [True, True]])
def test_matthews_corrcoef_single_label_warns_as_sklearn(y):
    theirs = outcome(sk_metrics.matthews_corrcoef, y, y)
    ours = outcome(svm_metrics.matthews_corrcoef, y, y)
    assert ours[0] == theirs[0] == 0.0
    assert ours[2] == theirs[2] == [UserWarning]


def test_undefined_metric_warning_maps_to_sklearn_s():
    """Where scikit-learn warns UndefinedMetricWarning, svmeval warns its own."""
    theirs = outcome(sk_metrics.roc_auc_score, [1, 1], [0.2, 0.4])
    ours = outcome(svm_metrics.roc_auc_score, [1, 1], [0.2, 0.4])
    assert theirs[2] == [SkUndefined] and ours[2] == [svm_metrics.UndefinedMetricWarning]

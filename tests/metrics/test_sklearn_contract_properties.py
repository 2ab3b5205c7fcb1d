"""scikit-learn's contract at its edges, as a property: random inputs (weights with zeros, all
zero, scalar; every ``average`` and invalid ones; subsets of the labels; string, bool, float
and NaN labels; 0-d and empty arrays; indicator matrices; every other parameter, valid or not)
given to every function of :data:`svmeval.metrics.SKLEARN_CONTRACT` and to scikit-learn's of
the same name must give equal answers (1e-12), exceptions of the same class (scikit-learn's
``InvalidParameterError`` answered by svmeval's) and warnings of the same categories
(scikit-learn's ``UndefinedMetricWarning`` answered by svmeval's).

The oracle is the installed scikit-learn. The examples are drawn deterministically
(``derandomize``), a bounded number per function.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sk_metrics = pytest.importorskip("sklearn.metrics")
from sklearn.exceptions import UndefinedMetricWarning as SkUndefined  # noqa: E402
from sklearn.utils._param_validation import InvalidParameterError as SkInvalid  # noqa: E402

import svmeval.metrics as svm_metrics  # noqa: E402
from svmeval.metrics import InvalidParameterError  # noqa: E402

NAN = float("nan")
EXAMPLES = 120

# --- the inputs -------------------------------------------------------------------------------
POOLS = {
    "int": [0, 1, 2],
    "binary": [0, 1],
    "pm1": [-1, 1],
    "str": ["a", "b", "c"],
    "bool": [False, True],
    "float": [0.0, 1.0, 2.5],
    "nan": [0.0, 1.0, NAN],
    "mixed": ["a", 1],
}
ANY_LABEL = st.sampled_from([0, 1, 2, -1, "a", "b", True, False, 2.5, NAN, None])


@st.composite
def labels_vector(draw, n, pool):
    values = draw(st.lists(st.sampled_from(POOLS[pool]), min_size=n, max_size=n))
    form = draw(st.sampled_from(["array", "array", "list", "column"]))
    if pool == "mixed":
        return np.array(values, dtype=object) if form != "list" else values
    arr = np.array(values) if values else np.array([], dtype=type(POOLS[pool][0]))
    if form == "list":
        return arr.tolist()
    return arr.reshape(-1, 1) if form == "column" else arr


@st.composite
def indicator(draw, n, k=3):
    cells = draw(st.lists(st.sampled_from([0, 1]), min_size=n * k, max_size=n * k))
    return np.array(cells, dtype=np.int64).reshape(n, k)


@st.composite
def weights(draw, n):
    kind = draw(
        st.sampled_from(
            [
                "none",
                "none",
                "zeros",
                "some_zeros",
                "some_zeros",
                "positive",
                "scalar",
                "negative",
                "nan",
                "wrong_length",
            ]
        )
    )
    if kind == "none":
        return None
    if kind == "zeros":
        return np.zeros(n)
    if kind == "scalar":
        return draw(st.sampled_from([0, 1, 2.5, 0.0]))
    if kind == "wrong_length":
        return np.ones(n + 1)
    values = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
    w = np.array(values, dtype=np.float64)
    if kind == "negative" and n:
        w[0] = -1.0
    if kind == "nan" and n:
        w[-1] = NAN
    if kind == "positive":
        w = w + 1.0
    return w


def zero_d(draw):
    return np.array(draw(st.sampled_from([1, 0, "a", 0.5])))


@st.composite
def label_pair(draw, *, indicators=True):
    """(y_true, y_pred, n, pool) of one kind, sometimes of two kinds, lengths that differ,
    0-d arrays, indicators (pool "indicator")."""
    n = draw(st.integers(0, 7))
    shape = draw(
        st.sampled_from(
            ["1d"] * 6
            + ["indicator"] * (2 if indicators else 0)
            + ["0d", "mismatch", "mixed_kinds"]
        )
    )
    if shape == "indicator":
        return draw(indicator(n)), draw(indicator(n)), n, "binary"
    if shape == "0d":
        return zero_d(draw), zero_d(draw), 1, "int"
    pool = draw(st.sampled_from(list(POOLS)))
    y_true = draw(labels_vector(n, pool))
    if shape == "mismatch":
        return y_true, draw(labels_vector(n + 1, pool)), n, pool
    other = draw(st.sampled_from(list(POOLS))) if shape == "mixed_kinds" else pool
    return y_true, draw(labels_vector(n, other)), n, pool


AVERAGES = [None, "binary", "micro", "macro", "weighted", "samples", "bogus", 1]
ZERO_DIVISION = ["warn", 0, 1, 0.0, 1.0, NAN, 0.5, "nan", None, True]


def labels_arg(draw, pool):
    """labels=: None, a subset of the pool's labels, labels of its type absent from the data,
    or none at all."""
    kind = draw(st.sampled_from(["none", "none", "subset", "subset", "unknown", "empty"]))
    values = [v for v in POOLS[pool] if v == v]  # NaN is no label to ask for
    if kind == "none" or pool == "mixed":
        return None
    if kind == "subset":
        return draw(
            st.lists(st.sampled_from(values), min_size=1, max_size=len(values), unique=True)
        )
    if kind == "unknown":
        return {"str": ["x", "y"], "bool": None}.get(pool, [7, 8])
    return []


@st.composite
def classification_call(draw, name):
    y_true, y_pred, n, pool = draw(label_pair())
    kwargs = {}
    if draw(st.booleans()):
        kwargs["sample_weight"] = draw(weights(n))
    extra = {
        "accuracy_score": {"normalize": [True, False, "yes", 1, np.bool_(False)]},
        "balanced_accuracy_score": {"adjusted": [False, True, "yes", 0]},
        "cohen_kappa_score": {
            "weights": [None, "linear", "quadratic", "cubic", 1],
            "replace_undefined_by": [NAN, 0.0, -1, 1.5, "x", 0],
        },
        "confusion_matrix": {"normalize": [None, "true", "pred", "all", "rows", True]},
        "matthews_corrcoef": {},
    }.get(name)
    if extra is None:  # precision, recall, f1, fbeta, precision_recall_fscore_support
        extra = {
            "average": AVERAGES,
            "zero_division": ZERO_DIVISION,
            "pos_label": POOLS[pool] + [1, 7, None, [1]],
        }
        if name in ("fbeta_score", "precision_recall_fscore_support"):
            extra["beta"] = [0.5, 1, 2.0, 0, -1.0, math.inf, "2", NAN]
        if name == "precision_recall_fscore_support":
            extra["warn_for"] = [("precision",), ["recall"], {"f-score"}, "precision", None]
    for key, options in extra.items():
        if draw(st.booleans()):
            kwargs[key] = draw(st.sampled_from(options))
    if name == "fbeta_score" and "beta" not in kwargs:
        kwargs["beta"] = draw(st.sampled_from([0.5, 1, 2.0]))
    if name in ("cohen_kappa_score", "confusion_matrix") or name not in (
        "accuracy_score",
        "balanced_accuracy_score",
        "matthews_corrcoef",
    ):
        if draw(st.booleans()):
            kwargs["labels"] = labels_arg(draw, pool)
    return (y_true, y_pred), kwargs


@st.composite
def scores(draw, n, k):
    values = draw(
        st.lists(
            st.sampled_from([0.1, 0.2, 0.5, 0.7, 0.9, 1.0, 3.0]), min_size=n * k, max_size=n * k
        )
    )
    s = np.array(values, dtype=np.float64)
    if k == 1:
        if n and draw(st.integers(0, 9)) == 0:
            s[0] = NAN
        return s
    s = s.reshape(n, k)
    if draw(st.booleans()) and n:
        s = s / s.sum(axis=1, keepdims=True)  # probabilities
    return s


@st.composite
def score_call(draw, name):
    n = draw(st.integers(0, 7))
    form = draw(
        st.sampled_from(
            [
                "binary",
                "binary",
                "multiclass",
                "indicator",
                "0d",
                "strings",
                "bool",
                "continuous",
                "mismatch",
                "nan",
            ]
        )
    )
    if form == "indicator":
        y_true = draw(indicator(n))
        y_score = draw(scores(n, 3))
    elif form == "0d":
        y_true, y_score = zero_d(draw), np.array(0.5)
    else:
        pool = {
            "binary": "binary",
            "multiclass": "int",
            "strings": "str",
            "bool": "bool",
            "continuous": "float",
            "mismatch": "binary",
            "nan": "nan",
        }[form]
        pool = draw(st.sampled_from([pool, "pm1"])) if form == "binary" else pool
        y_true = draw(labels_vector(n, pool))
        k = draw(st.sampled_from([1, 1, 2, 3]))
        y_score = draw(scores(n + (form == "mismatch"), k))
    kwargs = {}
    if draw(st.booleans()):
        kwargs["sample_weight"] = draw(weights(n))
    extra = {
        "roc_auc_score": {
            "average": [None, "macro", "micro", "weighted", "samples", "binary"],
            "max_fpr": [None, 0.5, 1, 1.0, 0, 1.5, "x"],
            "multi_class": ["raise", "ovr", "ovo", "bogus"],
            "labels": [None, [0, 1, 2], [2, 1, 0], ["a", "b", "c"], [0, 0, 1]],
        },
        "average_precision_score": {
            "average": [None, "macro", "micro", "weighted", "samples", "binary"],
            "pos_label": [1, 0, -1, "a", True, None, 2.5],
        },
        "roc_curve": {
            "pos_label": [None, 1, 0, -1, "a", True, 2.5, [1]],
            "drop_intermediate": [True, False, "yes", 1],
        },
        "precision_recall_curve": {
            "pos_label": [None, 1, 0, -1, "a", True, 2.5],
            "drop_intermediate": [True, False, "yes", 1],
        },
    }.get(name, {})
    for key, options in extra.items():
        if draw(st.booleans()):
            kwargs[key] = draw(st.sampled_from(options))
    return (y_true, y_score), kwargs


@st.composite
def ranking_call(draw, name):
    n = draw(st.integers(0, 6))
    k = draw(st.sampled_from([1, 2, 3]))
    form = draw(
        st.sampled_from(["indicator", "indicator", "binary_1d", "0d", "mismatch", "multiclass"])
    )
    if form == "0d":
        y_true, y_score = zero_d(draw), np.array(0.5)
    elif form == "binary_1d":
        y_true, y_score = draw(labels_vector(n, "binary")), draw(scores(n, 1))
    elif form == "multiclass":
        y_true, y_score = np.array([[0, 2, 1]] * n).reshape(n, 3), draw(scores(n, 3))
    else:
        y_true = draw(indicator(n, k))
        width = k + (form == "mismatch")
        y_score = draw(scores(n, width)).reshape(n, width)
    kwargs = {}
    if draw(st.booleans()):
        kwargs["sample_weight"] = draw(weights(n))
    return (y_true, y_score), kwargs


CALLS = {
    name: (
        score_call
        if name
        in ("roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve")
        else ranking_call
        if name in ("coverage_error", "label_ranking_loss", "label_ranking_average_precision_score")
        else classification_call
    )
    for name in svm_metrics.SKLEARN_CONTRACT
}


# --- the comparison ---------------------------------------------------------------------------
def outcome(func, args, kwargs):
    """("value", v) or ("raises", class), and the warning categories raised."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            result = ("value", func(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - the class is what is compared
            result = ("raises", type(exc))
    categories = {
        w.category for w in seen if not issubclass(w.category, (DeprecationWarning, FutureWarning))
    }
    return result, categories


def same_value(a, b) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (
            isinstance(a, tuple)
            and isinstance(b, tuple)
            and len(a) == len(b)
            and all(same_value(x, y) for x, y in zip(a, b))
        )
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "OUS" or b.dtype.kind in "OUS":
        return a.tolist() == b.tolist()
    return bool(
        np.allclose(
            a.astype(np.float64), b.astype(np.float64), rtol=1e-12, atol=1e-12, equal_nan=True
        )
    )


def same_outcome(name, args, kwargs):
    theirs, their_warnings = outcome(getattr(sk_metrics, name), args, kwargs)
    ours, our_warnings = outcome(getattr(svm_metrics, name), args, kwargs)
    where = f"{name}(*{args!r}, **{kwargs!r})"
    if theirs[0] == "raises":
        expected = InvalidParameterError if theirs[1] is SkInvalid else theirs[1]
        assert ours == ("raises", expected), (
            f"{where}: scikit-learn raises {theirs[1]}, svmeval gives {ours}"
        )
    else:
        assert ours[0] == "value", (
            f"{where}: scikit-learn gives {theirs[1]!r}, svmeval raises {ours[1]}"
        )
        assert same_value(theirs[1], ours[1]), f"{where}: {theirs[1]!r} != {ours[1]!r}"
    mapped = {svm_metrics.UndefinedMetricWarning if c is SkUndefined else c for c in their_warnings}
    assert our_warnings == mapped, f"{where}: warnings {their_warnings} != {our_warnings}"


@pytest.mark.parametrize("name", svm_metrics.SKLEARN_CONTRACT)
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_sklearn_named_functions_answer_as_sklearn(name, data):
    args, kwargs = data.draw(CALLS[name](name))
    same_outcome(name, args, kwargs)

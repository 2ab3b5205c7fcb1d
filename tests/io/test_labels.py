"""Labels of any kind from Python: text, objects, booleans, pandas categoricals and numbers
that are not whole become LIBSVM's labels as their positions among the distinct labels
sorted, and every output names the classes by the user's labels.

Oracles: scikit-learn's ``LabelEncoder`` (the mapping: sorted distinct labels, codes
0..k-1), LIBSVM's own ``svm_cross_validation`` on the file ``dump_svmlight_file`` writes
for those codes (the predictions, fold by fold as LIBSVM draws them), and scikit-learn's
metrics computed on the user's labels and the predictions named by them (which figure
belongs to which class, ``pos_label`` as scikit-learn takes it).
"""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest

import svmeval
from svmeval import (
    ArgumentError,
    DataFormatError,
    Dataset,
    compare,
    cross_validate,
    grid_search,
    nested_cv,
    permutation_test,
    render,
    summarize,
    tune_threshold,
)

from conftest import LOCAL, data_set, libsvm_cv

sklearn_datasets = pytest.importorskip("sklearn.datasets")
preprocessing = pytest.importorskip("sklearn.preprocessing")
metrics = pytest.importorskip("sklearn.metrics")
pd = pytest.importorskip("pandas")

WINE = LOCAL / "wine.scale"  # three classes, 1..3
BREAST = LOCAL / "breast_cancer.scale"  # two classes, -1/+1


def _xy(path):
    X, y = sklearn_datasets.load_svmlight_file(str(path))
    return X, y


def _names(y, words):
    """The labels ``y`` (numbers) as ``words``, in the order of the sorted numbers."""
    values = np.unique(y)
    return np.array([words[int(np.searchsorted(values, v))] for v in y], dtype=object)


def _oracle(X, y_user, tmp_path, options="-c 2", nr_fold=5):
    """LIBSVM's own cross-validation of the data with scikit-learn's LabelEncoder codes as
    labels, and those codes' classes."""
    encoder = preprocessing.LabelEncoder().fit(list(y_user))
    codes = encoder.transform(list(y_user))
    path = tmp_path / "coded.txt"
    sklearn_datasets.dump_svmlight_file(X, codes, str(path), zero_based=False)
    return libsvm_cv(path, options, nr_fold), encoder


# words whose sorted order is not the order of the numbers they replace
KINDS = {
    "text": lambda y: _names(y, ["zeta", "alpha", "mu"]),
    "numpy text": lambda y: _names(y, ["zeta", "alpha", "mu"]).astype(str),
    "objects": lambda y: _names(y, [dt.date(2020, 5, 1), dt.date(1999, 1, 2), dt.date(2020, 1, 1)]),
    "categorical": lambda y: pd.Series(
        pd.Categorical(
            _names(y, ["zeta", "alpha", "mu"]), categories=["mu", "unused", "zeta", "alpha"]
        )
    ),
    "fractional": lambda y: _names(y, [0.75, -2.5, 0.25]).astype(float),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_labels_of_any_kind_give_libsvms_predictions_of_their_codes(kind, tmp_path):
    """Three classes: the predictions are LIBSVM's own on the LabelEncoder codes (its class
    order, its folds), and the predictions named by the user's labels are the codes decoded."""
    X, y = _xy(WINE)
    y_user = KINDS[kind](y)
    expected, encoder = _oracle(X, y_user, tmp_path)
    result = cross_validate((X, y_user), "-c 2")
    assert list(result.classes) == list(encoder.classes_)
    assert np.array_equal(result.y_pred, expected)
    assert np.array_equal(result.y_true, encoder.transform(list(y_user)))
    assert list(result.predicted_classes) == list(encoder.inverse_transform(expected.astype(int)))
    assert list(result.true_classes) == list(y_user)


def test_booleans_are_classes_false_and_true(tmp_path):
    X, y = _xy(BREAST)
    y_user = y > 0
    expected, encoder = _oracle(X, y_user, tmp_path)
    result = cross_validate((X, y_user), "-c 2")
    assert result.classes == (False, True) == tuple(encoder.classes_)
    assert np.array_equal(result.y_pred, expected)
    summary = summarize(result)
    assert summary.positive == 1.0  # True, the larger label, as scikit-learn's pos_label=1
    text = render(summary, full=True)
    assert "Positive (True) class:" in text and "Negative (False) class:" in text


def test_text_labels_give_the_predictions_of_the_same_data_with_integer_labels():
    """The same rows labelled 0, 1, 2 in the sorted order of the words: every prediction and
    decision value alike (the integer run is LIBSVM's own, tests/io/test_arrays.py)."""
    X, y = _xy(WINE)
    words = _names(y, ["zeta", "alpha", "mu"])
    integers = np.searchsorted(np.unique(words.astype(str)), words.astype(str))
    by_words = cross_validate((X, words), "-c 2", keep_decision_values=True)
    by_numbers = cross_validate((X, integers), "-c 2", keep_decision_values=True)
    assert np.array_equal(by_words.y_pred, by_numbers.y_pred)
    assert np.array_equal(by_words.decision_values, by_numbers.decision_values)
    assert np.array_equal(by_words.fold, by_numbers.fold)


def _per_class_rows(text, names):
    """The per-class table of a text report: name -> (precision, recall, F1)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:1] == ["class"])
    assert lines[head].split()[1:] == ["precision", "recall", "F1", "support"]
    rows = {}
    for line in lines[head + 1 : head + 1 + len(names)]:
        title, *values = line.split()
        rows[title] = [float(v) for v in values[:3]]
    assert list(rows) == list(names)
    return rows


def test_every_report_names_the_classes_by_the_users_labels():
    """Text, JSON, CSV, HTML, to_dict and the predictions: each class by its word, with the
    figures scikit-learn computes for that word on the named predictions."""
    X, y = _xy(WINE)
    y_user = _names(y, ["zeta", "alpha", "mu"])
    result = cross_validate((X, y_user), "-c 2")
    pred = list(result.predicted_classes)
    names = sorted(set(y_user))
    p, r, f, support = metrics.precision_recall_fscore_support(list(y_user), pred, labels=names)
    summary = summarize(result)

    rows = _per_class_rows(render(summary, full=True), names)
    for k, name in enumerate(names):
        assert rows[name] == pytest.approx([p[k], r[k], f[k]], abs=5e-5)

    obj = json.loads(render(summary, format="json"))
    assert obj["labels"] == names
    for k, entry in enumerate(obj["classes"]):
        assert entry["label"] == names[k]
        assert entry["precision"] == pytest.approx(p[k]) and entry["support"] == support[k]
    matrix = metrics.confusion_matrix(list(y_user), pred, labels=names)
    assert obj["confusion_matrix"] == matrix.tolist()

    csv_rows = [line.split(",") for line in render(summary, format="csv").splitlines()]
    classes = {row[1]: float(row[2]) for row in csv_rows if row[0] == "class"}
    assert classes == pytest.approx(dict(zip(names, p)))

    html = render(summary, format="html")
    assert all(f">{name}<" in html for name in names)

    as_dict = result.to_dict()
    assert as_dict["labels"] == [result.classes[int(v)] for v in result.labels]
    assert as_dict["y_true"] == list(y_user) and as_dict["y_pred"] == pred
    assert summary.to_dict()["labels"] == names


def test_pos_label_takes_the_users_label():
    X, y = _xy(BREAST)
    y_user = np.where(y > 0, "malignant", "benign")
    result = cross_validate((X, y_user), "-c 2")
    pred = list(result.predicted_classes)
    for positive in ("benign", "malignant"):
        summary = summarize(result, pos_label=positive)
        assert summary.class_name(summary.positive) == positive
        f1 = metrics.f1_score(list(y_user), pred, pos_label=positive)
        assert summary.figure("f1") == pytest.approx(f1)
        text = render(summary)
        negative = "malignant" if positive == "benign" else "benign"
        assert text.index(f"Positive ({positive}) class:") < text.index(
            f"Negative ({negative}) class:"
        )
        assert json.loads(render(summary, format="json"))["positive_label"] == positive
    frame = result.to_frame(pos_label="benign")
    folds = [
        metrics.f1_score(
            list(y_user[result.fold == k]),
            list(np.array(pred)[result.fold == k]),
            pos_label="benign",
        )
        for k in range(result.n_folds)
    ]
    assert frame["f1"].tolist() == pytest.approx(folds)
    with pytest.raises(ArgumentError, match=r"pos_label: 'spam' is not one of the classes"):
        summarize(result, pos_label="spam")
    with pytest.raises(ArgumentError, match=r"pos_label: 'benign' is not one of the labels"):
        summarize(cross_validate((X, y), "-c 2"), pos_label="benign")


def test_regression_keeps_its_floats_and_refuses_classes():
    X, y = _xy(data_set("housing_scale"))
    y = y + 0.125  # not whole
    result = cross_validate((X, y), "-s 3 -p 0.5", folds=3)
    assert result.classes is None and np.array_equal(result.y_true, y)
    with pytest.raises(
        DataFormatError, match=r"not numbers: a regression \(-s 3, -s 4\) takes numbers"
    ):
        cross_validate((X, np.where(y > y.mean(), "high", "low")), "-s 3", folds=3)


def test_a_file_keeps_libsvms_labels(tmp_path):
    """Numbers that are not whole in a file (or a Dataset) stay svm-train's: (int)label."""
    lines = [f"{0.5 + (i % 2) * 0.25} 1:{i % 7}" for i in range(20)]
    path = tmp_path / "halves.txt"
    path.write_text("\n".join(lines) + "\n")
    assert cross_validate(path, folds=2).classes is None


def test_bad_labels_are_refused_naming_the_row():
    X = np.ones((4, 2))
    with pytest.raises(DataFormatError, match=r"y row 2: label None is missing"):
        Dataset.from_arrays(X, ["a", "b", None, "a"])
    with pytest.raises(DataFormatError, match=r"y row 1: label nan is missing"):
        Dataset.from_arrays(X, pd.Series(pd.Categorical(["a", None, "b", "a"])))
    with pytest.raises(DataFormatError, match=r"y row 3: label 2 \(int\) cannot be ordered"):
        Dataset.from_arrays(X, ["a", "b", "a", 2])
    unhashable = np.empty(4, dtype=object)
    unhashable[:] = [{1}, {2}, {1}, {2}]
    with pytest.raises(DataFormatError, match=r"y row 0: label \{1\} is no class \(not hashable\)"):
        Dataset.from_arrays(X, unhashable)
    with pytest.raises(DataFormatError, match=r"not a class's position"):
        Dataset(
            y=np.array([0.0, 2.0]),
            indptr=np.array([0, 0, 0]),
            indices=np.array([], dtype=np.int32),
            values=np.array([]),
            n_features=0,
            name="hand",
            classes=("a", "b"),
        )


@pytest.fixture(scope="module")
def breast_words():
    X, y = _xy(BREAST)
    words = np.where(y > 0, "malignant", "benign")
    codes = (y > 0).astype(float)  # benign 0, malignant 1: the words' sorted positions
    return X, words, codes


def test_the_grid_and_nested_cv_take_such_labels_and_pos_label(breast_words):
    """Every cell's figure equals the same grid's on the integer codes with the code as
    pos_label; the nested CV's outer predictions alike, its report naming the classes."""
    X, words, codes = breast_words
    grid = dict(log2c=(-1, 1, 2), log2g=(-3, -1, 2), folds=3, criterion="f1")
    by_words = grid_search((X, words), pos_label="benign", **grid)
    by_codes = grid_search((X, codes), pos_label=0, **grid)
    assert [c.value for c in by_words.cells] == [c.value for c in by_codes.cells]
    nested = dict(grid, inner_folds=3)
    by_words = nested_cv((X, words), pos_label="benign", **nested)
    by_codes = nested_cv((X, codes), pos_label=0, **nested)
    assert np.array_equal(by_words.outer.y_pred, by_codes.outer.y_pred)
    assert "Positive (benign) class:" in render(by_words)


def test_compare_threshold_and_permutations_take_such_labels(breast_words):
    X, words, codes = breast_words
    a = compare((X, words), "-c 1", "-c 4", folds=3, repeat=2, criterion="f1", pos_label="benign")
    b = compare((X, codes), "-c 1", "-c 4", folds=3, repeat=2, criterion="f1", pos_label=0)
    assert np.array_equal(a.folds_a, b.folds_a) and np.array_equal(a.folds_b, b.folds_b)
    t = tune_threshold((X, words), "-c 1", folds=3, pos_label="benign")
    u = tune_threshold((X, codes), "-c 1", folds=3, pos_label=0)
    assert t.threshold == u.threshold and t.honest == u.honest
    assert t.to_dict()["positive"] == "benign" and t.to_dict()["negative"] == "malignant"
    assert "a sample is benign where" in render(t)
    p = permutation_test(
        (X, words), "-c 1", folds=3, permutations=4, criterion="f1", pos_label="benign"
    )
    q = permutation_test((X, codes), "-c 1", folds=3, permutations=4, criterion="f1", pos_label=0)
    assert p.observed == q.observed and np.array_equal(p.permuted, q.permuted)


def test_a_benchmark_takes_such_labels():
    X, y = _xy(WINE)
    words = Dataset.from_arrays(X, _names(y, ["zeta", "alpha", "mu"]), name="words")
    numbers = Dataset.from_arrays(X, y, name="numbers")
    bench = svmeval.benchmark([words, numbers], ["-c 1", "-c 4"], folds=3)
    assert np.array_equal(bench.values[0], bench.values[1])  # accuracy: the same predictions


def test_the_pictures_name_the_classes():
    """The figure sheet's confusion matrix and curves: each class by its word, its curve's
    AUC scikit-learn's on the word's one-vs-rest problem."""
    pytest.importorskip("matplotlib")
    from svmeval.report import plot

    X, y = _xy(WINE)
    y_user = _names(y, ["zeta", "alpha", "mu"])
    result = cross_validate((X, y_user), "-c 2")
    fig = plot.draw_sheet(summarize(result), **plot.result_arrays(result))
    heat = fig.axes[0]
    assert [t.get_text() for t in heat.get_xticklabels()] == ["alpha", "mu", "zeta"]
    legends = [
        t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()
    ]
    for k, name in enumerate(result.classes):
        auc = metrics.roc_auc_score(y_user == name, result.scores[:, list(result.labels).index(k)])
        assert f"class {name} (AUC {auc:.3f})" in legends


def test_the_reliability_diagrams_name_their_class():
    """With -b 1, each class's reliability diagram bins P(that class): its counts are numpy's
    histogram of the probabilities of the class named."""
    X, y = _xy(BREAST)
    y_user = np.where(y > 0, "malignant", "benign")
    result = cross_validate((X, y_user), "-c 2 -b 1", folds=3)
    obj = json.loads(render(summarize(result), format="json"))
    bins = {b["what"]: b for b in obj["calibration"]["reliability"]}
    assert set(bins) == {"P(class benign)", "P(class malignant)"}
    for name in ("benign", "malignant"):
        column = list(result.labels).index(result.classes.index(name))
        p = result.probabilities[:, column]
        counts = [int(np.sum((p > lo) & (p <= lo + 0.1))) for lo in np.arange(10) / 10]
        counts[0] += int(np.sum(p == 0))
        assert bins[f"P(class {name})"]["count"] == counts


def test_labels_that_are_no_json_values_are_their_text_in_json():
    """Dates as classes: JSON reports and to_dict() hold each as str(date), the HTML page too."""
    X, y = _xy(BREAST)
    days = {-1.0: dt.date(2020, 5, 1), 1.0: dt.date(1999, 1, 2)}
    y_user = np.array([days[v] for v in y], dtype=object)
    result = cross_validate((X, y_user), "-c 2", folds=3)
    text = sorted(str(d) for d in days.values())
    assert json.loads(render(result, format="json"))["labels"] == text
    assert json.loads(json.dumps(result.to_dict()))["y_true"] == [str(d) for d in y_user]
    assert all(f">{name}<" in render(result, format="html") for name in text)


def test_a_grid_cells_summary_names_the_classes(breast_words):
    X, words, _ = breast_words
    grid = grid_search((X, words), log2c=(0, 1, 1), log2g=(-2, -2, 1), folds=3)
    for cell in grid.cells:
        obj = cell.summary.to_dict()
        assert obj["labels"] == ["benign", "malignant"]
        assert [c["label"] for c in obj["classes"]] == ["benign", "malignant"]


def test_whole_numbers_beyond_a_c_int_are_classes_from_python(tmp_path):
    """Labels 1e12 and 3e12 (a file's would be refused: LIBSVM groups by (int)label) are
    coded as 0 and 1: LIBSVM's predictions of those codes."""
    X, y = _xy(BREAST)
    big = np.where(y > 0, 3e12, 1e12)
    expected, encoder = _oracle(X, big, tmp_path)
    result = cross_validate((X, big), "-c 2")
    assert result.classes == (1e12, 3e12) == tuple(encoder.classes_)
    assert np.array_equal(result.y_pred, expected)


def test_a_benchmark_codes_fractional_labels_of_arrays(tmp_path):
    """(X, y) with labels 0.25 / 0.75 in a benchmark of classifiers: LIBSVM's predictions of
    their codes, not of (int)label (which makes them one class 0)."""
    X, y = _xy(BREAST)
    quarters = np.where(y > 0, 0.75, 0.25)
    expected, _ = _oracle(X, quarters, tmp_path, nr_fold=3)
    accuracy = np.mean(expected == (y > 0))
    bench = svmeval.benchmark([(X, quarters)], ["-c 2", "-c 4"], folds=3, repeat=1)
    assert np.average(bench.values[0, 0], weights=bench.fold_sizes[0]) == pytest.approx(accuracy)

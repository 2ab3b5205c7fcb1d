"""Binary-relevance cross-validation (--multilabel -v k): folds, per-label predictions against
LIBSVM's own training through the official bindings, figures against scikit-learn, reports and
label-set prediction files."""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pytest

from svmeval.cv import _libsvm
from svmeval.cv.multilabel import MultilabelCVResult, cross_validate_multilabel
from svmeval.cv.plan.folds import libsvm_folds
from svmeval.errors import DataFormatError, ParameterError, SvmevalError
from svmeval.io.data import read_dataset
from svmeval.io.label_sets import dataset_indicator, dataset_label_sets
from svmeval.io.predictions import format_label_set_predictions, read_label_set_predictions
from svmeval.params import SvmParams
from svmeval.report.multilabel import render
from svmeval.summary.multilabel import score_label_sets, summarize_multilabel

from conftest import shared_file

skm = pytest.importorskip("sklearn.metrics")
svmutil = pytest.importorskip("libsvm.svmutil")

PARAMS = SvmParams(C=4.0, gamma=0.1)  # on yeast: predictions vary per label (not all majority)


def yeast_head(tmp_path, rows: int):
    """The first ``rows`` lines of yeast_train, as a file of their own."""
    path = shared_file("data", "yeast_train")
    small = tmp_path / f"yeast{rows}"
    with open(path) as fh:
        small.write_text("".join(line for _, line in zip(range(rows), fh)))
    return small


@pytest.fixture(scope="module")
def yeast_full():
    """One run on the full yeast_train, -v 5, default jobs."""
    ds = read_dataset(shared_file("data", "yeast_train"), multilabel=True)
    return ds, cross_validate_multilabel(ds, PARAMS, 5, seed=1)


@pytest.fixture(scope="module")
def yeast300(tmp_path_factory):
    path = yeast_head(tmp_path_factory.mktemp("yeast"), 300)
    return read_dataset(path, multilabel=True)


# --------------------------------------------------------------------------------------------
# the oracle: LIBSVM through its official bindings, fold by fold
# --------------------------------------------------------------------------------------------


def rows_as_dicts(ds):
    return [
        dict(zip(ds.indices[a:b].tolist(), ds.values[a:b].tolist()))
        for a, b in zip(ds.indptr[:-1].tolist(), ds.indptr[1:].tolist())
    ]


def oracle_label(ds, x, y, folds, options):
    """svm_cross_validation's fold loop for one binary problem on the given folds, through
    svmutil: train on perm[:begin] + perm[end:], predict the test rows. Returns the
    predictions, the decision values oriented towards +1 and P(+1) with -b 1."""
    n = len(y)
    pred, dec, prob = np.empty(n), np.empty(n), np.full(n, np.nan)
    b1 = "-b 1" in options
    for i in range(folds.n_folds):
        train, test = folds.train(i), folds.test(i)
        model = svmutil.svm_train([y[t] for t in train], [x[t] for t in train], options + " -q")
        labels = model.get_labels()
        p, _, v = svmutil.svm_predict(
            [y[t] for t in test], [x[t] for t in test], model, ("-b 1 " if b1 else "") + "-q"
        )
        pred[test] = p
        if b1:
            prob[test] = [
                row[labels.index(1)] if 1 in labels else float(labels[0] == 1) for row in v
            ]
        elif len(labels) == 2:
            sign = 1.0 if labels[0] == 1 else -1.0
            dec[test] = [sign * row[0] for row in v]
        else:
            dec[test] = np.nan
    return pred, dec, prob


def options_of(params: SvmParams, ds) -> str:
    gamma = params.gamma or 1.0 / ds.n_features
    opts = f"-s {params.svm_type} -c {params.C!r} -g {gamma!r} -n {params.nu!r}"
    return opts + (" -b 1" if params.probability else "")


# --------------------------------------------------------------------------------------------
# folds and per-label predictions
# --------------------------------------------------------------------------------------------


def test_folds_are_libsvms_plain_shuffle_after_srand(yeast300):
    r = cross_validate_multilabel(yeast300, PARAMS, 5, seed=3, jobs=2)
    _libsvm.srand(3)
    expected = libsvm_folds(np.zeros(300), 5, stratified=False, rand=_libsvm.rand)
    assert not r.folds.stratified
    assert np.array_equal(r.folds.perm, expected.perm)
    assert np.array_equal(r.folds.fold_start, expected.fold_start)
    assert np.array_equal(r.fold, expected.fold_of())
    assert r.n_folds == 5 and r.seed == 3


@pytest.mark.parametrize("labels", [(0, 5, 8), (11, 13)])
def test_each_label_equals_libsvm_on_the_binary_problem(yeast300, labels):
    r = cross_validate_multilabel(yeast300, PARAMS, 5, seed=1, jobs=2)
    x = rows_as_dicts(yeast300)
    for label in labels:
        j = int(np.flatnonzero(r.label_names == label)[0])
        y = np.where(r.Y_true[:, j] == 1, 1.0, -1.0).tolist()
        pred, dec, _ = oracle_label(yeast300, x, y, r.folds, options_of(PARAMS, yeast300))
        assert np.array_equal(r.Y_pred[:, j], (pred == 1).astype(np.int8)), f"label {label}"
        assert np.array_equal(r.scores[:, j], dec), f"label {label}"


def test_positive_score_means_has_the_label(yeast300):
    """Decision values are oriented towards +1 whether a label's first sample has it or not."""
    r = cross_validate_multilabel(yeast300, PARAMS, 5)
    first = r.Y_true[0]
    assert first.min() == 0 and first.max() == 1  # both orders of first appearance occur
    assert np.array_equal(r.scores > 0, r.Y_pred == 1)
    assert np.all(np.isfinite(r.scores)) and not r.constant.any()
    assert r.Y_pred.dtype == np.int8 and r.Y_true.dtype == np.int8


def test_identical_at_jobs_1_and_2(yeast300):
    one = cross_validate_multilabel(yeast300, PARAMS, 4, jobs=1)
    two = cross_validate_multilabel(yeast300, PARAMS, 4, jobs=2)
    for name in ("Y_true", "Y_pred", "scores", "fold", "label_names"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_progress_counts_labels_times_folds(yeast300):
    seen = []
    r = cross_validate_multilabel(
        yeast300, PARAMS, 3, jobs=2, progress=lambda done, total: seen.append((done, total))
    )
    total = r.n_labels * 3
    assert seen == [(k, total) for k in range(1, total + 1)]


def test_probability_runs_in_order_and_equals_libsvm(tmp_path):
    """-b 1 draws rand() while training: labels then folds in order, right after the folds."""
    ds = read_dataset(yeast_head(tmp_path, 90), multilabel=True)
    params = SvmParams(C=4.0, gamma=0.1, probability=1)
    r = cross_validate_multilabel(ds, params, 3, seed=5, jobs=2)
    again = cross_validate_multilabel(ds, params, 3, seed=5, jobs=1)
    assert np.array_equal(r.Y_pred, again.Y_pred)
    assert np.array_equal(r.probabilities, again.probabilities)
    x = rows_as_dicts(ds)
    _libsvm.srand(5)
    folds = libsvm_folds(np.zeros(ds.n_samples), 3, stratified=False, rand=_libsvm.rand)
    _libsvm.set_omp_threads(2)
    for j in range(r.n_labels):
        y = np.where(r.Y_true[:, j] == 1, 1.0, -1.0).tolist()
        pred, _, prob = oracle_label(ds, x, y, folds, options_of(params, ds))
        assert np.array_equal(r.Y_pred[:, j], (pred == 1).astype(np.int8)), j
        assert np.array_equal(r.probabilities[:, j], prob), j
    assert np.all((r.probabilities >= 0) & (r.probabilities <= 1))
    assert summarize_multilabel(r).ranking.source == "probabilities"


def test_one_class_training_sets_get_constant_scores(tmp_path):
    """Label 7 is on every sample; label 9 on one sample only, so the fold that tests that sample
    trains on "has not" alone. LIBSVM's one-class model predicts its class always; the score is
    then +1 / -1."""
    lines = []
    rng = np.random.default_rng(0)
    for i in range(24):
        labels = ["7"] + (["1"] if i % 2 else []) + (["9"] if i == 5 else [])
        feats = " ".join(f"{k}:{v:.3f}" for k, v in enumerate(rng.normal(size=3), 1))
        lines.append(f"{','.join(labels)} {feats}\n")
    path = tmp_path / "ml"
    path.write_text("".join(lines))
    ds = read_dataset(path, multilabel=True)
    r = cross_validate_multilabel(ds, SvmParams(), 4)
    j7, j9 = (int(np.flatnonzero(r.label_names == v)[0]) for v in (7, 9))
    assert r.constant[:, j7].all() and np.all(r.Y_pred[:, j7] == 1) and np.all(r.scores[:, j7] == 1)
    test5 = r.fold[5]
    alone = r.fold == test5
    assert r.constant[alone, j9].all() and not r.constant[~alone, j9].any()
    assert np.all(r.Y_pred[alone, j9] == 0) and np.all(r.scores[alone, j9] == -1.0)
    assert np.all(np.isfinite(r.scores))
    assert not r.constant[:, 0].any()
    s = summarize_multilabel(r)
    assert math.isfinite(s.ranking.lrap) and math.isfinite(s.ranking.coverage_error)


@pytest.mark.parametrize("svm_type,word", [(2, "one_class"), (3, "epsilon_svr"), (4, "nu_svr")])
def test_non_classifiers_are_refused(yeast300, svm_type, word):
    with pytest.raises(SvmevalError, match=rf"-s {svm_type} \({word}\) is not a classifier"):
        cross_validate_multilabel(yeast300, SvmParams(svm_type=svm_type), 5)


def test_parameter_errors_name_the_label(yeast300):
    with pytest.raises(ParameterError, match=r"^label 6: specified nu is infeasible$"):
        cross_validate_multilabel(yeast300, SvmParams(svm_type=1, nu=0.3), 5)


def test_single_label_data_and_bad_folds_are_refused(yeast300):
    single = read_dataset(shared_file("data", "heart_scale"))
    with pytest.raises(SvmevalError, match="not read as multi-label"):
        cross_validate_multilabel(single, SvmParams(), 5)
    with pytest.raises(SvmevalError, match="n must >= 2"):
        cross_validate_multilabel(yeast300, SvmParams(), 1)


# --------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------


def test_full_yeast_figures_equal_scikit_learn(yeast_full):
    _, r = yeast_full
    assert r.Y_true.shape == (1500, 14) and list(r.label_names) == list(range(14))
    T, P, S = r.Y_true, r.Y_pred, r.scores
    s = summarize_multilabel(r)
    a = s.multilabel.averages
    for name in ("samples", "macro", "micro", "weighted"):
        assert a[name].f1 == pytest.approx(
            skm.f1_score(T, P, average=name, zero_division=0), abs=1e-12
        ), name
        assert a[name].precision == pytest.approx(
            skm.precision_score(T, P, average=name, zero_division=0), abs=1e-12
        ), name
        assert a[name].recall == pytest.approx(
            skm.recall_score(T, P, average=name, zero_division=0), abs=1e-12
        ), name
    assert s.multilabel.hamming_loss == pytest.approx(skm.hamming_loss(T, P), abs=1e-15)
    assert s.multilabel.subset_accuracy == pytest.approx(skm.accuracy_score(T, P), abs=1e-15)
    assert np.allclose(s.multilabel.f1, skm.f1_score(T, P, average=None, zero_division=0))
    assert np.array_equal(s.multilabel.support, T.sum(axis=0))
    rk = s.ranking
    assert rk.source == "decision_values"
    assert rk.lrap == pytest.approx(skm.label_ranking_average_precision_score(T, S), abs=1e-12)
    assert rk.coverage_error == pytest.approx(skm.coverage_error(T, S), abs=1e-12)
    assert rk.ranking_loss == pytest.approx(skm.label_ranking_loss(T, S), abs=1e-12)
    ap = [skm.average_precision_score(T[:, j], S[:, j]) for j in range(14)]
    assert np.allclose(rk.average_precision, ap, rtol=0, atol=1e-12)
    assert rk.mean_average_precision == pytest.approx(
        skm.average_precision_score(T, S, average="macro"), abs=1e-12
    )
    # the figures are not degenerate: several labels are predicted, not only the majority
    assert 0 < a["macro"].f1 < 1 and (P.sum(axis=0) > 0).sum() >= 5


def test_per_fold_figures_are_each_folds_own(yeast_full):
    _, r = yeast_full
    s = summarize_multilabel(r)
    assert len(s.fold_figures) == 5
    assert s.fold_sizes == tuple(int((r.fold == i).sum()) for i in range(5))
    assert sum(s.fold_sizes) == 1500
    rows = r.fold == 2
    f2 = s.fold_figures[2]
    T, P, S = r.Y_true[rows], r.Y_pred[rows], r.scores[rows]
    assert f2["samples_f1"] == pytest.approx(skm.f1_score(T, P, average="samples"), abs=1e-12)
    assert f2["macro_f1"] == pytest.approx(
        skm.f1_score(T, P, average="macro", zero_division=0), abs=1e-12
    )
    assert f2["micro_f1"] == pytest.approx(skm.f1_score(T, P, average="micro"), abs=1e-12)
    assert f2["subset_accuracy"] == pytest.approx(skm.accuracy_score(T, P), abs=1e-15)
    assert f2["hamming_loss"] == pytest.approx(skm.hamming_loss(T, P), abs=1e-15)
    assert f2["lrap"] == pytest.approx(skm.label_ranking_average_precision_score(T, S), abs=1e-12)
    values = [f["micro_f1"] for f in s.fold_figures]
    assert s.fold_spread["micro_f1"] == pytest.approx(
        (np.mean(values), np.std(values, ddof=1)), abs=1e-15
    )


WORKED_TRUE = [{1, 2}, {1}, {1, 2, 3}, {2, 3}, {3}]
WORKED_PRED = [{1, 3}, {2}, {1, 3}, {3}, {3}]


def test_published_worked_example():
    """Five records, classes 1-3 (predicted / true): {1,3}/{1,2}, {2}/{1}, {1,3}/{1,2,3},
    {3}/{2,3}, {3}/{3}."""
    from svmeval.metrics import label_sets_to_indicator

    T, labels = label_sets_to_indicator(WORKED_TRUE)
    P, _ = label_sets_to_indicator(WORKED_PRED, labels=labels)
    s = summarize_multilabel((T, P), label_names=labels)
    r = s.multilabel
    assert np.allclose(r.sample_f1, [0.5, 0.0, 0.8, 2 / 3, 1.0])
    assert r.averages["samples"].f1 == pytest.approx(0.5933, abs=5e-5)
    assert np.allclose(r.f1, [0.8, 0.0, 6 / 7])
    assert r.averages["macro"].f1 == pytest.approx(0.5524, abs=5e-5)
    assert (int(r.tp.sum()), int(r.fp.sum()), int(r.fn.sum())) == (5, 2, 4)
    assert r.averages["micro"].f1 == pytest.approx(0.625, abs=1e-15)
    assert s.ranking is None and s.fold_figures == [] and list(s.label_names) == [1, 2, 3]


@pytest.mark.parametrize("z", [0, 1, "nan"])
def test_samples_with_no_true_and_no_predicted_label_follow_zero_division(z):
    T = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [0, 0, 0]])
    P = np.array([[1, 1, 0], [0, 0, 0], [0, 1, 0], [1, 0, 0]])
    s = summarize_multilabel((T, P), zero_division=z)
    assert s.empty_samples == 1
    expected = skm.f1_score(T, P, average="samples", zero_division=np.nan if z == "nan" else z)
    assert s.multilabel.averages["samples"].f1 == pytest.approx(expected, abs=1e-15)


def test_summary_with_scores_tuple():
    T = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    P = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0]])
    S = np.array([[0.9, -0.2, 0.1], [-1.0, 0.5, -0.3], [0.4, -0.1, -0.5]])
    s = summarize_multilabel((T, P, S))
    assert s.ranking.source == "scores"
    assert s.ranking.lrap == pytest.approx(skm.label_ranking_average_precision_score(T, S))
    with pytest.raises(ValueError):
        summarize_multilabel((T,))


# --------------------------------------------------------------------------------------------
# reports
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_summary(yeast300):
    r = cross_validate_multilabel(yeast300, PARAMS, 5)
    return r, summarize_multilabel(r, meta={"data_file": "yeast300"})


def test_text_report_first_line_is_grid_py_readable(small_summary):
    r, s = small_summary
    text = render(s)
    first = text.splitlines()[0]
    assert re.fullmatch(r"Cross Validation Subset Accuracy = [0-9.e+-]+%", first)
    rate = float(next(l for l in text.splitlines() if "Cross" in l).split()[-1].rstrip("%"))
    assert rate == pytest.approx(100 * skm.accuracy_score(r.Y_true, r.Y_pred), rel=1e-5)
    for needle in (
        "samples",
        "macro-harmonic",
        "micro",
        "weighted",
        "Hamming loss",
        "LRAP",
        "coverage error",
        "ranking loss",
        "subset accuracy",
        "+-",
        "no true and no predicted label",
        "--zero-division",
    ):
        assert needle in text, needle
    assert len([l for l in text.splitlines() if re.match(r"\s+\d+\s+(\d|n/a)", l)]) >= 14


def test_json_report(small_summary):
    r, s = small_summary
    obj = json.loads(render(s, format="json"))
    assert obj["schema_version"] == 2 and obj["kind"] == "multilabel"
    assert obj["n_samples"] == 300 and obj["labels"] == list(range(14))
    assert obj["mode"] == "cv" and obj["n_folds"] == 5 and obj["data_file"] == "yeast300"
    assert set(obj["averages"]) == {"samples", "macro", "macro_harmonic", "micro", "weighted"}
    assert obj["averages"]["micro"]["f1"] == pytest.approx(
        skm.f1_score(r.Y_true, r.Y_pred, average="micro")
    )
    assert len(obj["per_label"]) == 14 and "average_precision" in obj["per_label"][0]
    assert obj["ranking"]["lrap"] == pytest.approx(s.ranking.lrap)
    assert len(obj["folds"]["figures"]) == 5 and "lrap" in obj["folds"]["sd"]
    assert obj["zero_division"] == 0
    never = [p for p in obj["per_label"] if p["tp"] + p["fp"] == 0]
    assert all(p["precision"] is None for p in never)  # undefined -> null, not NaN


def test_csv_report(small_summary):
    _, s = small_summary
    rows = list(csv.reader(io.StringIO(render(s, format="csv"))))
    assert rows[0][:6] == ["row", "name", "precision", "recall", "f1", "support"]
    assert [r[0] for r in rows[1:]] == ["label"] * 14 + ["average"] * 5
    assert [r[1] for r in rows[-5:]] == ["samples", "macro", "macro_harmonic", "micro", "weighted"]


def test_unknown_format_is_refused(small_summary):
    with pytest.raises(ValueError, match="unknown report format"):
        render(small_summary[1], format="xml")


# --------------------------------------------------------------------------------------------
# predictions files
# --------------------------------------------------------------------------------------------


def test_predictions_round_trip(small_summary, tmp_path):
    r, _ = small_summary
    text = format_label_set_predictions(r)
    assert text.count("\n") == r.n_samples
    path = tmp_path / "pred"
    path.write_text(text)
    sets = read_label_set_predictions(str(path), expected=r.n_samples)
    expected = [tuple(float(v) for v in r.label_names[row == 1]) for row in r.Y_pred]
    assert sets == expected


def test_empty_sets_are_empty_lines(tmp_path):
    r = MultilabelCVResult(
        label_names=np.array([0.5, 2.0, 13.0]),
        Y_true=np.zeros((3, 3), np.int8),
        Y_pred=np.array([[0, 0, 0], [1, 0, 1], [0, 0, 0]], np.int8),
        scores=np.zeros((3, 3)),
        fold=np.zeros(3, int),
        n_folds=2,
        seed=1,
        params=SvmParams(),
    )
    text = format_label_set_predictions(r)
    assert text == "\n0.5,13\n\n"
    path = tmp_path / "pred"
    path.write_text(text)
    assert read_label_set_predictions(str(path), expected=3) == [(), (0.5, 13.0), ()]


@pytest.mark.parametrize(
    "content,expected,message",
    [
        ("1,2\nx\n", 2, r":2: label 'x' is not a number"),
        ("1,2\n1,,2\n", 2, r":2: empty label in '1,,2'"),
        ("1\n2,\n", 2, r":2: empty label"),
        ("1\n1e999\n", 2, r":2: label '1e999' is too large"),
        ("1\nnan\n", 2, r":2: label 'nan' is not a number"),
        ("1 2\n", 1, r":1: label '1 2' is not a number"),
        ("1\n2\n", 3, r":3: 2 label sets, but the data file has 3 samples"),
        ("1\n2\n3\n", 2, r":3: more label sets than the 2 samples"),
        ("", 2, r": no predictions"),
        ("labels 1 2\n1 0.3 0.7\n", 1, r":1: label 'labels 1 2' is not a number"),
    ],
)
def test_predictions_file_errors(tmp_path, content, expected, message):
    path = tmp_path / "pred"
    path.write_text(content)
    with pytest.raises(DataFormatError, match=re.escape(str(path)) + message):
        read_label_set_predictions(str(path), expected=expected)


def test_predictions_file_reading_is_lenient_on_blanks_and_crlf(tmp_path):
    path = tmp_path / "pred"
    path.write_bytes(b" 3 , 1,1\r\n\r\n2")
    assert read_label_set_predictions(str(path), expected=3) == [(1.0, 3.0), (), (2.0,)]
    with pytest.raises(DataFormatError, match="cannot read"):
        read_label_set_predictions(str(tmp_path / "absent"), expected=1)


def test_score_label_sets_against_scikit_learn(tmp_path):
    data = tmp_path / "ml"
    data.write_text("1,2 1:1\n1 1:2\n1,2,3 1:3\n2,3 1:4\n3 1:5\n")
    ds = read_dataset(data, multilabel=True)
    assert dataset_label_sets(ds)[2] == (1.0, 2.0, 3.0)
    pred = tmp_path / "pred"
    pred.write_text("1,3\n2,4\n1,3\n3\n3\n")  # label 4 is only predicted
    s = score_label_sets(
        ds, read_label_set_predictions(str(pred), expected=5), meta={"mode": "score"}
    )
    assert list(s.label_names) == [1, 2, 3, 4]
    T, _ = dataset_indicator(ds, [1, 2, 3, 4])
    from svmeval.metrics import label_sets_to_indicator

    P, _ = label_sets_to_indicator([(1, 3), (2, 4), (1, 3), (3,), (3,)], labels=[1, 2, 3, 4])
    for name in ("samples", "macro", "micro", "weighted"):
        assert s.multilabel.averages[name].f1 == pytest.approx(
            skm.f1_score(T, P, average=name, zero_division=0)
        ), name
    assert s.multilabel.support[3] == 0
    first = render(s).splitlines()[0]
    assert first == "Subset Accuracy = 20% (1/5) (multi-label)"
    with pytest.raises(SvmevalError, match="4 predicted label sets for the 5 samples"):
        score_label_sets(ds, [(1,)] * 4)

"""The public API: every name a user needs from ``svmeval``, one convention, typed errors.

Each public function takes the data first (a Dataset or a file name), then its
configuration(s) (SvmParams or svm-train's option string), then ``folds``; the same idea has
the same name and default everywhere; wrong argument types raise svmeval's own errors, never an
AttributeError or TypeError from inside. Expected values come from LIBSVM's own
cross-validation (``svm_cross_validation`` after ``srand``), not from svmeval.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import svmeval

from conftest import libsvm_cv

DATA = "data/breast_cancer.scale"
RUNS = (
    "cross_validate",
    "cross_validate_multilabel",
    "grid_search",
    "nested_cv",
    "compare",
    "benchmark",
    "tune_threshold",
)
SHARED_KEYWORDS = {
    "seed": 1,
    "repeat": None,
    "criterion": None,
    "confidence_level": 0.95,
    "pos_label": None,
    "zero_division": 0.0,
    "jobs": None,
    "client": None,
    "progress": None,
    "rope": None,
    "quiet": True,
    "kernel_memory": None,
}


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch):
    monkeypatch.chdir(svmeval.__file__.rsplit("/svmeval/", 1)[0])


def _public():
    return [n for n in svmeval.__all__ if n != "__version__"]


@pytest.mark.parametrize("name", _public())
def test_every_public_name_is_documented_with_an_example(name):
    obj = getattr(svmeval, name)
    doc = inspect.getdoc(obj) or ""
    assert "Examples\n--------\n>>>" in doc, f"{name} has no Examples section"
    if inspect.isfunction(obj):
        assert (
            "Parameters\n----------" in doc
            and "Returns\n-------" in doc
            or name in ("train_and_save",)
        ), f"{name} lacks Parameters or Returns"


@pytest.mark.parametrize("name", RUNS)
def test_every_run_takes_data_then_configuration_then_folds(name):
    params = list(inspect.signature(getattr(svmeval, name)).parameters.values())
    first = params[0].name
    assert first in ("data", "datasets")
    folds = next(p for p in params if p.name == "folds")
    assert folds.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    for p in params[params.index(folds) + 1 :]:
        assert p.kind is inspect.Parameter.KEYWORD_ONLY, f"{name}: {p.name}"


def test_the_same_idea_has_the_same_name_and_default_everywhere():
    seen = {}
    for name in RUNS:
        for p in inspect.signature(getattr(svmeval, name)).parameters.values():
            if p.name in SHARED_KEYWORDS and SHARED_KEYWORDS[p.name] is not None:
                assert p.default == SHARED_KEYWORDS[p.name], f"{name}({p.name}=...)"
            seen.setdefault(p.name, set()).add(name)
    for deprecated in ("nr_fold", "dataset", "level", "confidence", "options_a", "params_a"):
        assert deprecated not in seen, f"{deprecated} in {sorted(seen[deprecated])}"
    folds = {n: inspect.signature(getattr(svmeval, n)).parameters["folds"].default for n in RUNS}
    # cross-validation and the search: grid.py's 5; comparisons: the 10 x 10 protocol
    assert folds == {
        "cross_validate": 5,
        "cross_validate_multilabel": 5,
        "grid_search": 5,
        "nested_cv": 5,
        "compare": 10,
        "benchmark": 10,
        "tune_threshold": 5,
    }


def test_a_file_name_and_an_option_string_are_the_data_set_and_the_configuration():
    by_name = svmeval.cross_validate(DATA, "-c 8 -g 0.05 -w1 2", 5)
    dataset = svmeval.read_dataset(DATA)
    by_value = svmeval.cross_validate(
        dataset, svmeval.SvmParams(C=8, gamma=0.05, weight=((1, 2.0),)), folds=5
    )
    np.testing.assert_array_equal(by_name.y_pred, by_value.y_pred)
    np.testing.assert_array_equal(by_name.y_pred, libsvm_cv(DATA, "-c 8 -g 0.05 -w1 2", 5))


def test_compare_and_benchmark_take_option_strings_and_name_them_so():
    c = svmeval.compare(DATA, "-c 1", "-c  8   -g 0.05", 3, repeat=1)
    assert (c.options_a, c.options_b) == ("-c 1", "-c 8 -g 0.05")
    np.testing.assert_array_equal(
        libsvm_cv(DATA, "-c 8 -g 0.05", 3), svmeval.cross_validate(DATA, c.options_b, 3).y_pred
    )
    b = svmeval.benchmark(DATA, ["-c 1", svmeval.SvmParams(C=8)], 3, repeat=1)
    assert b.configurations == ("-c 1", "-c 8") and b.datasets == (DATA,)


def test_every_result_gives_a_dict_and_a_frame():
    pytest.importorskip("pandas")
    import json

    cv = svmeval.cross_validate(DATA, folds=3)
    results = [
        cv,
        svmeval.summarize(cv),
        svmeval.grid_search(DATA, log2c=(0, 2, 2), log2g=None, folds=3),
        svmeval.nested_cv(DATA, folds=3, inner_folds=3, log2c=(0, 2, 2), log2g=None),
        svmeval.compare(DATA, "-c 1", "-c 4", 3, repeat=2),
        svmeval.benchmark([DATA, "data/wine.scale"], ["-c 1", "-c 4"], 3, repeat=1),
        svmeval.tune_threshold(DATA, folds=3, inner_folds=3),
    ]
    results.append(results[4].mcnemar)
    for result in results:
        json.dumps(svmeval.to_dict(result), allow_nan=False)
        frame = svmeval.to_frame(result)
        assert len(frame) >= 1, type(result).__name__
    for frame in (results[4].to_frame(), results[5].to_frame()):
        assert frame["seed"].notna().all() and frame["n_test"].notna().all()
        keys = [k for k in ("dataset", "configuration", "repetition") if k in frame]
        assert set(frame.groupby(keys)["n_test"].sum()) <= {569, 178}
    assert list(results[4].to_frame().seed.unique()) == [1, 2]


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: svmeval.cross_validate([1, 2], folds=3), svmeval.SvmevalError),
        (lambda: svmeval.cross_validate(DATA, {"C": 1}), svmeval.ParameterError),
        (lambda: svmeval.cross_validate(DATA, "-c"), svmeval.OptionError),
        (lambda: svmeval.cross_validate(DATA, "-v 5"), svmeval.OptionError),
        (lambda: svmeval.cross_validate(DATA, folds="5"), svmeval.SvmevalError),
        (lambda: svmeval.cross_validate(DATA, seed=1.5), svmeval.SvmevalError),
        (lambda: svmeval.grid_search(DATA, log2c="a"), svmeval.SvmevalError),
        (lambda: svmeval.compare(DATA, "-c 1", "-c 2", rope="0.1"), svmeval.SvmevalError),
        (lambda: svmeval.compare(DATA, "-c 1", "-c 2", confidence_level=95), svmeval.SvmevalError),
        (lambda: svmeval.benchmark(DATA, 5), svmeval.SvmevalError),
        (lambda: svmeval.benchmark(42, ["-c 1", "-c 2"]), svmeval.SvmevalError),
        (lambda: svmeval.benchmark(DATA, {"a": "-c 1", "b": 3}), svmeval.ParameterError),
        (lambda: svmeval.benchmark(DATA, ["-c 1", "-c 1"]), svmeval.SvmevalError),
        (lambda: svmeval.summarize("results.txt"), svmeval.SvmevalError),
        (lambda: svmeval.render(42), svmeval.SvmevalError),
        (lambda: svmeval.to_frame(42), svmeval.SvmevalError),
        (lambda: svmeval.to_dict(None), svmeval.SvmevalError),
        (lambda: svmeval.plot(42), svmeval.SvmevalError),
        (lambda: svmeval.mcnemar_files(DATA, "no_such_a", "no_such_b"), svmeval.SvmevalError),
        (lambda: svmeval.SvmParams.parse(42), svmeval.ParameterError),
        (lambda: svmeval.tune_threshold(DATA, criterion="cost:1"), svmeval.ArgumentError),
        (lambda: svmeval.tune_threshold(DATA, criterion="f1:3"), svmeval.ArgumentError),
        (lambda: svmeval.tune_threshold("data/wine.scale"), svmeval.ArgumentError),
        (lambda: svmeval.tune_threshold(DATA, "-s 2"), svmeval.ArgumentError),
        (lambda: svmeval.tune_threshold(DATA, folds=1), svmeval.SvmevalError),
    ],
)
def test_wrong_arguments_raise_svmevals_errors_before_any_work(call, error):
    with pytest.raises(error):
        call()


def test_benchmark_reads_one_file_name_as_one_data_set_not_letter_by_letter():
    b = svmeval.benchmark(DATA, {"A": "-c 1", "B": "-c 4"}, 3, repeat=1)
    assert b.datasets == (DATA,)


def test_a_metrics_parameter_error_is_an_svmeval_error_and_scikit_learns_kinds():
    from svmeval.metrics import InvalidParameterError

    assert issubclass(InvalidParameterError, svmeval.SvmevalError)
    assert issubclass(InvalidParameterError, ValueError)
    assert issubclass(InvalidParameterError, TypeError)


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("f1_score", {"average": "bogus"}),
        ("precision_score", {"zero_division": "sometimes"}),
        ("fbeta_score", {"beta": -1.0}),
        ("accuracy_score", {"normalize": "yes"}),
    ],
)
def test_a_bad_argument_to_a_metric_is_caught_as_an_svmeval_error(name, kwargs):
    """The same call is refused by scikit-learn (the oracle that the argument is bad), and
    svmeval's refusal is caught by ``except svmeval.SvmevalError``."""
    import svmeval.metrics

    sk_metrics = pytest.importorskip("sklearn.metrics")
    from sklearn.utils._param_validation import InvalidParameterError as SkInvalid

    y_true, y_pred = [0, 1, 1, 0], [0, 1, 0, 0]
    with pytest.raises(SkInvalid):
        getattr(sk_metrics, name)(y_true, y_pred, **kwargs)
    caught = None
    try:
        getattr(svmeval.metrics, name)(y_true, y_pred, **kwargs)
    except svmeval.SvmevalError as error:
        caught = error
    assert isinstance(caught, svmeval.metrics.InvalidParameterError)


@pytest.mark.parametrize("module_name", ["svmeval.metrics", "svmeval.stats"])
def test_every_name_of_a_public_submodule_is_importable_and_documented(module_name):
    """``svmeval.metrics`` and ``svmeval.stats`` export what their ``__all__`` lists (the API
    reference's pages are made from it): every name is there, once, and every function and
    class has its docstring."""
    import importlib

    module = importlib.import_module(module_name)
    names = module.__all__
    assert names and len(set(names)) == len(names)
    for name in names:
        obj = getattr(module, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert (inspect.getdoc(obj) or "").strip(), f"{module_name}.{name} has no docstring"


def test_the_statistical_tests_are_exported_by_svmeval_stats():
    import svmeval.stats
    from svmeval.stats import significance

    assert svmeval.stats.corrected_resampled_ttest is significance.corrected_resampled_ttest
    assert {"corrected_resampled_ttest", "mcnemar", "five_by_two", "correlated_ttest"} <= set(
        svmeval.stats.__all__
    )
    assert {"friedman", "nemenyi_cd", "wilcoxon", "holm"} <= set(svmeval.stats.__all__)


@pytest.mark.parametrize(
    ("importer", "name", "home"),
    [
        ("svmeval.workflows.threshold", "TunedThreshold", "svmeval.workflows.threshold_result"),
        ("svmeval.workflows.threshold", "positive_scores", "svmeval.workflows.threshold_result"),
        ("svmeval.workflows.nested", "NestedResult", "svmeval.workflows.nested_result"),
        ("svmeval.workflows.nested", "OuterFold", "svmeval.workflows.nested_result"),
        ("svmeval.workflows.nested", "chosen_text", "svmeval.workflows.nested_result"),
        ("svmeval.workflows.grid_rules", "Cells", "svmeval.workflows.grid_best"),
        ("svmeval.workflows.grid_rules", "Leader", "svmeval.workflows.grid_best"),
        ("svmeval.workflows.grid_rules", "accuracy_rate", "svmeval.workflows.grid_best"),
        ("svmeval.workflows.grid_rules", "choose_best", "svmeval.workflows.grid_best"),
        ("svmeval", "train_and_save", "svmeval.cv.training"),
        ("svmeval.cv", "train_and_save", "svmeval.cv.training"),
    ],
)
def test_a_name_moved_to_a_module_of_its_own_is_found_where_its_importers_look(
    importer, name, home
):
    """A result type, a grid's best cell or svm-train without -v moved into a module of its
    own: the same object where the public API and the other modules import it from, and its
    module's ``__all__`` names it."""
    import importlib

    moved = importlib.import_module(home)
    assert name in moved.__all__
    assert getattr(importlib.import_module(importer), name) is getattr(moved, name)

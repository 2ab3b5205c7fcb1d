"""Every public function checks its arguments at the door, before any work: a value it does not
take is an :class:`ArgumentError` naming the argument in the library's words (never a
command-line flag), raised before any data is read or any fold trained.

The runs are given a data file that does not exist: had they read it before checking, the error
would be the file's (a DataFormatError), not the argument's. The progress callbacks, where a run
takes one, must never be called. The oracle for the declarations is their documentation: each
public function's every argument is declared once in :data:`svmeval._args.ARGUMENTS`.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import svmeval
from svmeval import ArgumentError, SvmevalError
from svmeval._args import ARGUMENTS

ROOT = Path(__file__).resolve().parents[2]
WINE = str(ROOT / "data" / "wine.scale")
BREAST = str(ROOT / "data" / "breast_cancer.scale")
MISSING = str(ROOT / "data" / "no_such_data_file.scale")

RUNS = ("cross_validate", "grid_search", "nested_cv", "compare", "benchmark")


def _run(name):
    """A run of ``name`` on the missing data file, the other required arguments good."""
    function = getattr(svmeval, name)
    if name == "compare":
        return lambda **kw: function(MISSING, "-c 1", "-c 2", **kw)
    if name == "benchmark":
        return lambda **kw: function([MISSING], ["-c 1", "-c 2"], **kw)
    return lambda **kw: function(MISSING, **kw)


#: (run, keyword arguments, the argument the message names); every run takes each of these
RUN_CASES = (
    [
        (run, kwargs, argument)
        for run in RUNS
        for kwargs, argument in [
            ({"folds": 1}, "folds"),
            ({"folds": 2.5}, "folds"),
            ({"folds": "5"}, "folds"),
            ({"seed": -1}, "seed"),
            ({"seed": "1"}, "seed"),
            ({"jobs": 0}, "jobs"),
            ({"jobs": "2"}, "jobs"),
            ({"client": "x"}, "client"),
            ({"client": 5}, "client"),
            ({"progress": 5}, "progress"),
            ({"params": 5} if run not in ("compare", "benchmark") else {"folds": True}, None),
        ]
    ]
    + [
        (run, kwargs, argument)
        for run in ("grid_search", "nested_cv", "compare", "benchmark")
        for kwargs, argument in [
            ({"criterion": ["mcc"]}, "criterion"),
            ({"criterion": ""}, "criterion"),
            ({"criterion": "no_such_figure"}, "criterion"),
            ({"zero_division": "maybe"}, "zero_division"),
            ({"zero_division": 0.5}, "zero_division"),
            ({"pos_label": [1]}, "pos_label"),
            ({"pos_label": float("nan")}, "pos_label"),
        ]
    ]
    + [
        (run, kwargs, argument)
        for run in ("compare", "benchmark", "nested_cv", "cross_validate")
        for kwargs, argument in [({"repeat": 0}, "repeat"), ({"repeat": 1.5}, "repeat")]
    ]
    + [
        (run, kwargs, argument)
        for run in ("compare", "benchmark")
        for kwargs, argument in [
            ({"rope": "0.1"}, "rope"),
            ({"rope": -1}, "rope"),
            ({"confidence_level": 1.5}, "confidence_level"),
            ({"confidence_level": "0.95"}, "confidence_level"),
        ]
    ]
    + [
        (run, kwargs, argument)
        for run in ("grid_search", "nested_cv")
        for kwargs, argument in [
            ({"log2c": (1, 2)}, "log2c"),
            ({"log2g": (1, 5, 0)}, "log2g"),
            ({"log2p": "x"}, "log2p"),
            ({"log2w": (1, 0, 1)}, "log2w"),
            ({"log2w": ("one", 0, 1, 1)}, "log2w"),
            ({"log2w": (1.5, 0, 1, 1)}, "log2w"),
            ({"log2w": (1, 0, 1, 0)}, "log2w"),
            ({"kernel_memory": -1}, "kernel_memory"),
            ({"share": "yes"}, "share"),
        ]
    ]
    + [
        ("grid_search", {"resume": [1, 2]}, "resume"),
        ("grid_search", {"on_cell": 3}, "on_cell"),
        ("nested_cv", {"inner_folds": 1}, "inner_folds"),
        ("benchmark", {"test": "wilcoxon"}, "test"),
        ("benchmark", {"draws": 0}, "draws"),
        ("benchmark", {"draws": 2.5}, "draws"),
        ("cross_validate", {"quiet": "no"}, "quiet"),
        ("cross_validate", {"keep_repeats": 1}, "keep_repeats"),
        ("cross_validate", {"keep_decision_values": None}, "keep_decision_values"),
    ]
)


def _ids(case):
    run, kwargs, _ = case
    return f"{run}-{'-'.join(f'{k}={v!r}' for k, v in kwargs.items())}"


def _assert_names(caught, argument):
    error = caught.value
    assert isinstance(error, ArgumentError), type(error)
    if argument is not None:
        assert error.argument == argument
        assert argument in str(error)
    assert "--" not in str(error) and "-log2" not in str(error)  # the library's words only
    assert "\n" not in str(error)


@pytest.mark.parametrize("case", RUN_CASES, ids=[_ids(c) for c in RUN_CASES])
def test_a_run_checks_every_argument_before_reading_its_data(case):
    run, kwargs, argument = case
    if "progress" not in kwargs:
        calls = []
        kwargs = {**kwargs, "progress": lambda *a: calls.append(a)}
    else:
        calls = []
    with pytest.raises(SvmevalError) as caught:
        _run(run)(**kwargs)
    assert calls == []
    if argument is None:  # a configuration or a bool count: named by its argument
        argument = "params" if "params" in kwargs else "folds"
    _assert_names(caught, argument)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: svmeval.cross_validate_multilabel(["yeast"]), "data"),
        (lambda: svmeval.cross_validate_multilabel(MISSING, folds=1), "folds"),
        (lambda: svmeval.cross_validate_multilabel(MISSING, progress=5), "progress"),
        (lambda: svmeval.cross_validate(5), "data"),
        (lambda: svmeval.train_and_save(MISSING, "-c 1", 5), "model_file"),
        (lambda: svmeval.train_and_save(MISSING, "-c 1", "m", seed=-1), "seed"),
        (lambda: svmeval.train_and_save(MISSING, 7, "m"), "params"),
        (lambda: svmeval.mcnemar_files(MISSING, 5, "b"), "predictions_a"),
        (lambda: svmeval.mcnemar_files(MISSING, "a", None), "predictions_b"),
        (lambda: svmeval.benchmark([], ["-c 1", "-c 2"]), "datasets"),
        (lambda: svmeval.benchmark(MISSING, "-c 1"), "configurations"),
        (lambda: svmeval.benchmark(MISSING, {1: "-c 1", "b": "-c 2"}), "configurations"),
        (lambda: svmeval.compare(MISSING, 3, "-c 1"), "a"),
        (
            lambda: svmeval.summarize_predictions([1, 2], [1, 2], zero_division="maybe"),
            "zero_division",
        ),
        (lambda: svmeval.summarize_predictions([1, 2], [1, 2], regression="no"), "regression"),
    ],
)
def test_other_doors(call, argument):
    with pytest.raises(ArgumentError) as caught:
        call()
    _assert_names(caught, argument)


@pytest.fixture(scope="module")
def result():
    return svmeval.cross_validate(BREAST, folds=3)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda r: svmeval.render(svmeval.summarize(r), format="pdf"), "format"),
        (lambda r: svmeval.render(svmeval.summarize(r), format=None), "format"),
        (lambda r: svmeval.render(svmeval.summarize(r), digits="3"), "digits"),
        (lambda r: svmeval.render(svmeval.summarize(r), digits=-1), "digits"),
        (lambda r: svmeval.render(svmeval.summarize(r), digits=2.5), "digits"),
        (lambda r: svmeval.render(svmeval.summarize(r), digits=True), "digits"),
        (lambda r: svmeval.render(svmeval.summarize(r), full="yes"), "full"),
        (lambda r: svmeval.summarize(r, zero_division="maybe"), "zero_division"),
        (lambda r: svmeval.summarize(r, pos_label=[1]), "pos_label"),
        (lambda r: svmeval.summarize(r, per_fold="no"), "per_fold"),
        (lambda r: svmeval.summarize(r, meta=[1]), "meta"),
        (lambda r: svmeval.plot(r, 5), "file"),
        (lambda r: svmeval.plot(r, title=3), "title"),
        (lambda r: svmeval.plot(r, zero_division="maybe"), "zero_division"),
        (lambda r: svmeval.to_frame(r, zero_division="maybe"), "zero_division"),
        (lambda r: svmeval.to_frame(r, pos_label=[1]), "pos_label"),
        (lambda r: r.to_frame(zero_division="maybe"), "zero_division"),
    ],
)
def test_reports_check_their_arguments_first(result, call, argument):
    with pytest.raises(ArgumentError) as caught:
        call(result)
    _assert_names(caught, argument)


def test_a_benchmark_with_a_bad_rope_fails_before_any_fold():
    calls = []
    with pytest.raises(ArgumentError) as caught:
        svmeval.benchmark(
            [WINE, BREAST], ["-c 1", "-c 2"], rope="0.1", progress=lambda *a: calls.append(a)
        )
    assert caught.value.argument == "rope" and calls == []


def test_the_errors_are_also_value_and_type_errors():
    with pytest.raises(ValueError):
        svmeval.cross_validate(MISSING, folds=1)
    with pytest.raises(TypeError):
        svmeval.cross_validate(MISSING, progress=5)


#: the arguments a function checks by its own type dispatch (the result to report)
OWN = {"result", "y_true", "y_pred", "scores", "score_labels", "kwargs"}

PUBLIC = [
    "cross_validate",
    "cross_validate_multilabel",
    "train_and_save",
    "grid_search",
    "nested_cv",
    "compare",
    "benchmark",
    "mcnemar_files",
    "permutation_test",
    "summarize",
    "summarize_predictions",
    "render",
    "plot",
    "to_dict",
    "to_frame",
]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_argument_of_every_public_function_is_declared_once(name):
    function = getattr(svmeval, name)
    parameters = set(inspect.signature(function).parameters) - OWN
    assert parameters <= set(ARGUMENTS), sorted(parameters - set(ARGUMENTS))
    if name not in ("to_dict", "to_frame"):
        checked = set(function.arguments) | set(function.skipped)
        assert checked == parameters  # checked at the door (or by the function's own check)


def test_the_command_line_names_its_flags():
    from svmeval.cli.runner import error_line

    error = ArgumentError("client", "x: not tcp://HOST:PORT", text="client x: not tcp://HOST:PORT")
    assert error_line(error, "svmeval") == "svmeval: --dask x: not tcp://HOST:PORT"
    assert str(error) == "client x: not tcp://HOST:PORT"


def test_the_vocabulary_page_lists_every_argument():
    page = (ROOT / "docs" / "guide" / "vocabulary.md").read_text(encoding="utf-8")
    missing = [name for name in ARGUMENTS if f"`{name}`" not in page]
    assert missing == []

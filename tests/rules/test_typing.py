"""The public API's signatures: every function and every public method of a class in
``svmeval.__all__`` annotates each parameter and its return, and the annotations name types
that exist (``typing.get_type_hints`` resolves them). mypy checks the typed layers' bodies
(``make test``); this checks the signatures a user's type checker reads.

``NOT_YET_ANNOTATED`` lists what still lacks annotations; an entry that is annotated now, or
gone, fails the test until it is taken off the list.
"""

from __future__ import annotations

import inspect
import typing

import pytest

import svmeval

#: public callables whose signatures are not complete yet: name -> the parameters without an
#: annotation ("return": the return)
#: (every ``to_frame``'s return is a pandas DataFrame: pandas is optional, and an annotation here
#: must resolve at run time)
NOT_YET_ANNOTATED = {
    "Benchmark.to_frame": {"return"},
    "CVResult.to_frame": {"pos_label", "zero_division", "return"},
    "Comparison.to_frame": {"return"},
    "GridResult.to_frame": {"return"},
    "McNemarResult.to_frame": {"return"},
    "MultilabelCVResult.to_frame": {"zero_division", "return"},
    "NestedResult.summary": {"return"},
    "NestedResult.to_frame": {"return"},
    "PermutationTest.to_frame": {"return"},
    "Summary.to_frame": {"return"},
    "TunedThreshold.to_frame": {"return"},
    "benchmark": {"client"},
    "compare": {"client"},
    "cross_validate": {"client"},
    "grid_search": {"client"},
    "nested_cv": {"client"},
    "permutation_test": {"client"},
    "tune_threshold": {"client"},
    "plot": {"result", "pos_label", "zero_division", "return"},
    "render": {"result"},
    "summarize": {"result", "pos_label", "zero_division"},
    "summarize_predictions": {
        "y_true",
        "y_pred",
        "pos_label",
        "zero_division",
        "scores",
        "score_labels",
    },
    "to_dict": {"result"},
    "to_frame": {"result", "kwargs", "return"},
}


def public_callables() -> dict[str, typing.Callable]:
    """Every function of ``svmeval.__all__`` and every public method (and ``__init__`` of a
    class that defines one) of its classes, by dotted name."""
    found = {}
    for name in svmeval.__all__:
        obj = getattr(svmeval, name)
        if inspect.isfunction(obj):
            found[name] = obj
        elif inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr, member in vars(obj).items():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member) and not attr.startswith("_"):
                    found[f"{name}.{attr}"] = member
    return found


def unannotated(function) -> set[str]:
    signature = inspect.signature(function)
    missing = {
        p.name
        for i, p in enumerate(signature.parameters.values())
        if p.annotation is inspect.Parameter.empty and not (i == 0 and p.name in ("self", "cls"))
    }
    if signature.return_annotation is inspect.Signature.empty:
        missing.add("return")
    return missing


CALLABLES = public_callables()


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_public_signature_is_annotated_with_types_that_exist(name):
    function = CALLABLES[name]
    assert unannotated(function) == NOT_YET_ANNOTATED.get(name, set()), (
        f"{name}: annotate every parameter and the return; where that is done, take it off "
        "NOT_YET_ANNOTATED"
    )
    try:
        typing.get_type_hints(function)
    except NameError as exc:
        pytest.fail(
            f"{name}: an annotation names no type here ({exc}); import it, under "
            "`if TYPE_CHECKING:` where importing it at run time would cost"
        )


def test_the_list_of_gaps_names_public_callables_only():
    assert set(NOT_YET_ANNOTATED) <= set(CALLABLES), sorted(set(NOT_YET_ANNOTATED) - set(CALLABLES))


def test_py_typed_marks_the_package():
    from pathlib import Path

    assert (Path(svmeval.__file__).parent / "py.typed").is_file()

"""grid_search's keywords as one frozen GridArguments, taken whole behind its door.

Oracles: grid_search's and nested_cv's own signatures (inspect), the arguments as this test
gives them."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

import svmeval
from svmeval.errors import ArgumentError
from svmeval.workflows.grid_arguments import GridArguments


def _keywords(function) -> dict:
    """The parameters of ``function`` after its data and configuration, with their defaults."""
    parameters = list(inspect.signature(function).parameters.values())[2:]
    return {p.name: p.default for p in parameters}


def test_the_fields_are_grid_search_keywords_in_its_order_with_its_defaults():
    fields = {f.name: f.default for f in dataclasses.fields(GridArguments)}
    assert list(fields) == list(_keywords(svmeval.grid_search))
    assert fields == _keywords(svmeval.grid_search)
    assert list(GridArguments().keywords().items()) == list(fields.items())


def test_the_arguments_are_frozen():
    arguments = GridArguments(log2c=(0, 1, 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        arguments.seed = 2  # type: ignore[misc]


def test_nested_cv_gives_its_inner_searches_what_it_shares_with_grid_search():
    """Every keyword nested_cv shares with grid_search has grid_search's default (its inner
    searches are made of those keywords)."""
    nested = _keywords(svmeval.nested_cv)
    grid = _keywords(svmeval.grid_search)
    shared = set(nested) & set(grid) - {"folds", "progress", "store"}
    assert shared >= {"log2c", "log2g", "criterion", "seed", "scale", "select"}
    assert {k: nested[k] for k in shared} == {k: grid[k] for k in shared}


@pytest.mark.parametrize(
    "given",
    [
        {"groups": [1, 2]},
        {"store": "runs.db"},
        {"on_cell": print},
        {"resume": {}},
        {"log2p": (0, 1, 1)},
        {"scale": True},
    ],
)
def test_a_liblinear_search_refuses_by_name_what_it_does_not_take(given):
    from svmeval.workflows.grid_linear import check_linear_grid

    (name,) = given
    with pytest.raises(ArgumentError, match=f"^{name}: does not apply to a LinearParams"):
        check_linear_grid(svmeval.LinearParams(solver_type=2), GridArguments(**given))


def test_a_liblinear_search_takes_grid_search_defaults():
    from svmeval.workflows.grid_linear import check_linear_grid

    check_linear_grid(svmeval.LinearParams(solver_type=2), GridArguments(scale=False))

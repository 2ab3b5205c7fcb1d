"""scikit-learn's own metric tests, run against svmeval's scikit-learn-named functions.

The oracle is the installed scikit-learn's test modules (``sklearn/metrics/tests``): each module
is imported, and in its globals every name listed in :data:`svmeval.metrics.SKLEARN_CONTRACT` is
rebound to svmeval's function of that name (also in the dicts, lists and ``functools.partial``
objects held by module globals, and in the parametrize marks of the tests).  Nothing else in
those modules changes, save two rules:

* a message's wording is not part of the contract: ``pytest.raises(..., match=...)`` and
  ``pytest.warns(..., match=...)`` check the class only;
* scikit-learn's ``UndefinedMetricWarning`` is read as "scikit-learn's or svmeval's" (a tuple of
  both classes), so a test that expects the warning accepts svmeval's own
  :class:`svmeval.metrics.UndefinedMetricWarning`.

Each rebound function records which test called it; ``SVMEVAL_CONTRACT_REPORT=path`` writes the
ids of the tests that called one and their outcomes (``scripts/sklearn_contract.py`` prints the
counts).
"""

from __future__ import annotations

import functools
import json
import os
import types

import pytest
from _pytest.mark.structures import ParameterSet

sklearn = pytest.importorskip("sklearn")

import svmeval.metrics as svm_metrics  # noqa: E402

CALLED: set[str] = set()
OUTCOMES: dict[str, str] = {}
_current = {"id": None}


def _recording(name, func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if _current["id"] is not None:
            CALLED.add(_current["id"])
        return func(*args, **kwargs)

    return wrapper


REPLACEMENTS = {
    name: _recording(name, getattr(svm_metrics, name)) for name in svm_metrics.SKLEARN_CONTRACT
}


def _class_only(check):
    @functools.wraps(check)
    def relaxed(*args, **kwargs):
        kwargs.pop("match", None)
        return check(*args, **kwargs)

    return relaxed


class _PytestClassOnly(types.ModuleType):
    """``pytest`` as the test modules see it: raises/warns check the class, not the wording."""

    def __init__(self):
        super().__init__("pytest")
        self.raises = _class_only(pytest.raises)
        self.warns = _class_only(pytest.warns)

    def __getattr__(self, name):
        return getattr(pytest, name)


def _swap(value, originals):
    """value with every original function (also inside partials, dicts, lists, tuples and the
    parametrize marks of a test) replaced; dicts and lists are changed in place."""
    if callable(value) and getattr(value, "__name__", None) in originals:
        if value is originals[value.__name__][0]:
            return originals[value.__name__][1]
    if isinstance(value, functools.partial):
        inner = _swap(value.func, originals)
        if inner is not value.func:
            return functools.partial(inner, *value.args, **value.keywords)
    elif isinstance(value, dict):
        for key, item in list(value.items()):
            value[key] = _swap(item, originals)
    elif isinstance(value, list):
        value[:] = [_swap(item, originals) for item in value]
    elif isinstance(value, ParameterSet):
        return value._replace(values=_swap(value.values, originals))
    elif type(value) is tuple:
        return tuple(_swap(item, originals) for item in value)
    elif callable(value) and isinstance(getattr(value, "pytestmark", None), list):
        value.pytestmark = [_swap_mark(mark, originals) for mark in value.pytestmark]
    return value


def _swap_mark(mark, originals):
    if mark.name != "parametrize" or len(mark.args) < 2:
        return mark
    names, values, *rest = mark.args
    return pytest.mark.parametrize(names, _swap(list(values), originals), *rest, **mark.kwargs).mark


def rebind(module) -> None:
    """Rebind the contract names in a scikit-learn test module's globals (in place)."""
    import sklearn.metrics as sk_metrics
    from sklearn.exceptions import UndefinedMetricWarning

    originals = {n: (getattr(sk_metrics, n), f) for n, f in REPLACEMENTS.items()}
    for name, value in list(vars(module).items()):
        if name.startswith("__") or isinstance(value, types.ModuleType) and name != "pytest":
            continue
        if name in REPLACEMENTS:
            setattr(module, name, REPLACEMENTS[name])
        else:
            setattr(module, name, _swap(value, originals))
    module.pytest = _PytestClassOnly()
    module.UndefinedMetricWarning = (UndefinedMetricWarning, svm_metrics.UndefinedMetricWarning)


def pytest_generate_tests(metafunc):
    # scikit-learn's own conftest seeds these tests with 42 unless told otherwise
    if "global_random_seed" in metafunc.fixturenames:
        metafunc.parametrize("global_random_seed", [42])


@pytest.fixture(autouse=True)
def _which_test(request):
    _current["id"] = request.node.nodeid
    yield
    _current["id"] = None


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        if report.outcome != "passed" or report.nodeid not in OUTCOMES:
            OUTCOMES[report.nodeid] = report.outcome


def pytest_sessionfinish(session):
    path = os.environ.get("SVMEVAL_CONTRACT_REPORT")
    if path and OUTCOMES:
        with open(path, "w") as out:
            json.dump({"called": sorted(CALLED), "outcomes": OUTCOMES}, out, indent=0)


def pytest_configure(config):
    # scikit-learn's own configuration declares this marker (its thread-parallel test runs)
    config.addinivalue_line("markers", "thread_unsafe: scikit-learn's marker, no effect here")


def pytest_collection_modifyitems(items):
    # scikit-learn's tests provoke its warnings on purpose and check them with pytest.warns,
    # which sees them whatever the filters say: the rest would only fill the summary
    for item in items:
        if "sklearn_contract" in item.nodeid:
            item.add_marker(pytest.mark.filterwarnings("ignore"))

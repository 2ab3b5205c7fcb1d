"""What a result shows at a prompt: a few lines, never every prediction (arrays as dtype and
shape, tuples of results as their count), and SvmParams as scikit-learn shows an estimator:
the fields that differ from the defaults, a repr that ``eval`` turns back into the params."""

from __future__ import annotations

import numpy as np
import pytest

import svmeval
from svmeval import SvmParams

from conftest import ROOT

DATA = str(ROOT / "data" / "breast_cancer.scale")


def _runs():
    yield "cross_validate", lambda: svmeval.cross_validate(DATA, "-c 2", folds=3)
    yield "summarize", lambda: svmeval.summarize(svmeval.cross_validate(DATA, folds=3))
    yield "compare", lambda: svmeval.compare(DATA, "-c 1", "-c 2", folds=3, repeat=2)
    yield "grid_search", lambda: svmeval.grid_search(DATA, log2c=(1, 3, 2), log2g=None, folds=3)
    yield (
        "nested_cv",
        lambda: svmeval.nested_cv(DATA, log2c=(1, 3, 2), log2g=None, folds=3, inner_folds=3),
    )
    yield "permutation_test", lambda: svmeval.permutation_test(DATA, folds=3, permutations=3)
    yield "tune_threshold", lambda: svmeval.tune_threshold(DATA, folds=3, inner_folds=3)
    yield "benchmark", lambda: svmeval.benchmark([DATA], ["-c 1", "-c 2"], folds=3, repeat=1)


@pytest.mark.parametrize("name, run", list(_runs()), ids=[n for n, _ in _runs()])
def test_a_result_shows_itself_in_a_few_lines_without_its_predictions(name, run):
    result = run()
    shown = repr(result)
    assert shown.startswith(type(result).__name__ + "(")
    assert len(shown) < 2500, shown  # 569 predictions would print tens of thousands
    assert "breast_cancer.scale" in shown or name == "summarize"
    assert "\n" not in shown
    for value in vars(result).values():
        if isinstance(value, np.ndarray) and value.size > 8:
            assert f"array {value.shape}" in shown  # shape and dtype, not the values
            assert np.array2string(value.ravel()[:3], separator=", ") not in shown


@pytest.mark.parametrize(
    "params",
    [
        SvmParams(),
        SvmParams(C=8, gamma=0.05, weight=((1, 2.0), (-1, 0.5))),
        SvmParams.parse("-s 3 -t 1 -d 2 -r 0.5 -p 0.2 -e 0.01 -h 0 -m 200"),
        SvmParams.parse("-s 1 -n 0.25 -b 1"),
    ],
)
def test_svm_params_show_what_differs_from_the_defaults_and_read_back(params):
    shown = repr(params)
    assert eval(shown, {"SvmParams": SvmParams}) == params
    defaults = SvmParams()
    for name, value in vars(params).items():
        assert (f"{name}=" in shown) == (value != getattr(defaults, name))

"""scikit-learn's sklearn/metrics/tests/stats/test_ranking.py with the contract names rebound (see conftest)."""

import pytest

pytest.importorskip("sklearn")

from sklearn.metrics.tests import test_ranking as _module  # noqa: E402

from .conftest import rebind  # noqa: E402

rebind(_module)
from sklearn.metrics.tests.test_ranking import *  # noqa: E402,F401,F403


def test_the_module_calls_svmeval_s_functions():
    from .conftest import REPLACEMENTS

    rebound = [n for n in REPLACEMENTS if n in vars(_module)]
    assert rebound and all(getattr(_module, n) is REPLACEMENTS[n] for n in rebound)

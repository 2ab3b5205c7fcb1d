"""scikit-learn's sklearn/metrics/tests/test_common.py with the contract names rebound (see conftest)."""

import pytest

pytest.importorskip("sklearn")

from sklearn.metrics.tests import test_common as _module  # noqa: E402

from .conftest import rebind  # noqa: E402

rebind(_module)
from sklearn.metrics.tests.test_common import *  # noqa: E402,F401,F403

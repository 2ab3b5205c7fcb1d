"""Statistics: from per-fold values (or paired predictions) to inference. Pure numpy, no LIBSVM.

* :mod:`~svmeval.stats.significance`: Nadeau and Bengio's corrected resampled t-test, McNemar's
  test;
* :mod:`~svmeval.stats.five_by_two`: Dietterich's 5x2cv t-test and Alpaydin's combined F-test;
* :mod:`~svmeval.stats.bayesian`: Corani & Benavoli's Bayesian correlated t-test and Benavoli
  et al.'s Bayesian signed-rank test over data sets (equivalence with a rope);
* :mod:`~svmeval.stats.rank_tests`: Friedman, Iman-Davenport, Nemenyi, Wilcoxon, Holm over
  many data sets (Demšar 2006);
* :mod:`~svmeval.stats.distributions`: the t, F, chi-square and normal tails they use.

The tests and their results are exported here (``__all__``: the API reference's list), each
imported from its module on first use (a comparison loads no Bayesian test unless it runs
one); the distributions and the helpers of the modules are internal.
"""

from __future__ import annotations

# imported here: its test is named as its module, and a name imported on first use would lose
# to the submodule's own attribute once anything imports svmeval.stats.five_by_two
from svmeval.stats.five_by_two import FiveByTwoResult, five_by_two

TYPE_CHECKING = False  # as typing's, without importing typing

if TYPE_CHECKING:  # the names as their modules define them, for type checkers
    from svmeval.stats.bayesian import (
        BayesianResult,
        SignedRankResult,
        correlated_ttest,
        signed_rank_test,
    )
    from svmeval.stats.rank_tests import (
        FriedmanResult,
        WilcoxonResult,
        average_ranks,
        friedman,
        holm,
        nemenyi_cd,
        nemenyi_q,
        wilcoxon,
    )
    from svmeval.stats.significance import (
        McNemarResult,
        TTestResult,
        corrected_resampled_ttest,
        mcnemar,
    )

#: public name -> the module that defines it, imported on first use
_LAZY = {
    "BayesianResult": "svmeval.stats.bayesian",
    "SignedRankResult": "svmeval.stats.bayesian",
    "correlated_ttest": "svmeval.stats.bayesian",
    "signed_rank_test": "svmeval.stats.bayesian",
    "FriedmanResult": "svmeval.stats.rank_tests",
    "WilcoxonResult": "svmeval.stats.rank_tests",
    "average_ranks": "svmeval.stats.rank_tests",
    "friedman": "svmeval.stats.rank_tests",
    "holm": "svmeval.stats.rank_tests",
    "nemenyi_cd": "svmeval.stats.rank_tests",
    "nemenyi_q": "svmeval.stats.rank_tests",
    "wilcoxon": "svmeval.stats.rank_tests",
    "McNemarResult": "svmeval.stats.significance",
    "TTestResult": "svmeval.stats.significance",
    "corrected_resampled_ttest": "svmeval.stats.significance",
    "mcnemar": "svmeval.stats.significance",
}

__all__ = [
    "BayesianResult",
    "FiveByTwoResult",
    "FriedmanResult",
    "McNemarResult",
    "SignedRankResult",
    "TTestResult",
    "WilcoxonResult",
    "average_ranks",
    "corrected_resampled_ttest",
    "correlated_ttest",
    "five_by_two",
    "friedman",
    "holm",
    "mcnemar",
    "nemenyi_cd",
    "nemenyi_q",
    "signed_rank_test",
    "wilcoxon",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # on first use: importing the package itself loads nothing more

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

"""Statistics: from per-fold values (or paired predictions) to inference. Pure numpy, no LIBSVM.

* :mod:`~svmeval.stats.significance`: Nadeau and Bengio's corrected resampled t-test, McNemar's
  test;
* :mod:`~svmeval.stats.five_by_two`: Dietterich's 5x2cv t-test and Alpaydin's combined F-test;
* :mod:`~svmeval.stats.bayesian`: Corani & Benavoli's Bayesian correlated t-test and Benavoli
  et al.'s Bayesian signed-rank test over data sets (equivalence with a rope);
* :mod:`~svmeval.stats.rank_tests`: Friedman, Iman-Davenport, Nemenyi, Wilcoxon, Holm over
  many data sets (Demšar 2006);
* :mod:`~svmeval.stats.distributions`: the t, F, chi-square and normal tails they use.

The tests and their results are exported here (``__all__``: the API reference's list); the
distributions and the helpers of the modules are internal.
"""

from __future__ import annotations

from svmeval.stats.bayesian import (
    BayesianResult,
    SignedRankResult,
    correlated_ttest,
    signed_rank_test,
)
from svmeval.stats.five_by_two import FiveByTwoResult, five_by_two
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

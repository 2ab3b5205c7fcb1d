"""Statistics: from per-fold values (or paired predictions) to inference. Pure numpy, no LIBSVM.

* :mod:`~svmeval.stats.significance`: Nadeau and Bengio's corrected resampled t-test, McNemar's
  test;
* :mod:`~svmeval.stats.five_by_two`: Dietterich's 5x2cv t-test and Alpaydin's combined F-test;
* :mod:`~svmeval.stats.bayesian`: Benavoli et al.'s Bayesian correlated t-test and signed-rank
  test (equivalence with a rope);
* :mod:`~svmeval.stats.rank_tests`: Friedman, Iman-Davenport, Nemenyi, Wilcoxon, Holm over
  many data sets (Demšar 2006);
* :mod:`~svmeval.stats.distributions`: the t, F, chi-square and normal tails they use.
"""

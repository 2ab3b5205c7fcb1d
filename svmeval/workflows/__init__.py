"""The workflows, each a loop over the cross-validation units of :mod:`svmeval.cv`.

* :mod:`~svmeval.workflows.grid_rules` and :mod:`~svmeval.workflows.grid`: parameter search as
  LIBSVM's grid.py, by any figure;
* :mod:`~svmeval.workflows.nested`: nested cross-validation of that search;
* :mod:`~svmeval.workflows.compare`: two configurations on one data set (paired tests);
* :mod:`~svmeval.workflows.benchmark` and :mod:`~svmeval.workflows.benchmark_run`: many
  configurations over many data sets (rank tests, post-hoc tests).
"""

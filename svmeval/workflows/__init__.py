"""The workflows, each a loop over the cross-validation units of :mod:`svmeval.cv`.

* :mod:`~svmeval.workflows.grid_rules` and :mod:`~svmeval.workflows.grid`: parameter search as
  LIBSVM's grid.py, by any figure;
* :mod:`~svmeval.workflows.nested`: nested cross-validation of that search;
* :mod:`~svmeval.workflows.compare`: two configurations on one data set (paired tests);
* :mod:`~svmeval.workflows.benchmark`: many configurations over many data sets (rank tests,
  post-hoc tests).

Each module holds its run and the run's result type (``grid_search`` and ``GridResult``,
``benchmark`` and ``Benchmark``, ...), and reaches the engine only through :mod:`svmeval.cv`'s
public modules.
"""

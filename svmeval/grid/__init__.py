"""Parameter search as LIBSVM's grid.py, by any figure: ``svmeval-grid`` and :func:`grid_search`.

:mod:`~svmeval.grid.rules` holds grid.py's rules (ranges, job order, best cell, ``-out`` lines),
:mod:`~svmeval.grid.search` runs the cells' cross-validations, :mod:`~svmeval.cli.grid` is the
command line and :mod:`~svmeval.grid.plot` the optional ``-png`` picture.
"""

from .rules import Cell
from .search import CellResult, GridResult, grid_search

__all__ = ["Cell", "CellResult", "GridResult", "grid_search"]

"""The commands' entry points as console scripts installed before the commands' launcher
existed name them (``svmeval._entry:main``): the launcher's own (:mod:`svmeval_launch`).

Such a script imports the package before the launcher takes Ctrl-C over; reinstalling
(``pip install .``, or ``make`` in a checkout) writes scripts that start in the launcher.
"""

from svmeval_launch import compare_main, grid_main, main

__all__ = ["compare_main", "grid_main", "main"]

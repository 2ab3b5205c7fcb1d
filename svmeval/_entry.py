"""The commands' entry points as console scripts installed before the commands' launcher
existed name them (``svmeval._entry:main``): the launcher's own (:mod:`svmeval_launch`).

Such a script imports the package before the launcher takes Ctrl-C over; reinstalling
(``pip install .``, or ``make`` in a checkout) writes scripts that start in the launcher. An
editable install made before the launcher existed does not map its module: it is then loaded
from beside the package, where the checkout keeps it.
"""

try:
    import svmeval_launch
except ModuleNotFoundError:
    import importlib.util
    import os
    import sys

    _path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "svmeval_launch.py")
    _spec = importlib.util.spec_from_file_location("svmeval_launch", _path)
    if _spec is None or _spec.loader is None:  # pragma: no cover - not a checkout
        raise
    svmeval_launch = importlib.util.module_from_spec(_spec)
    sys.modules["svmeval_launch"] = svmeval_launch
    _spec.loader.exec_module(svmeval_launch)

main = svmeval_launch.main
grid_main = svmeval_launch.grid_main
compare_main = svmeval_launch.compare_main

__all__ = ["compare_main", "grid_main", "main"]

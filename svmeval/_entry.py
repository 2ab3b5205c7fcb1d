"""The commands' entry points as console scripts installed before the commands' launcher
existed name them (``svmeval._entry:main``): each hands over to the launcher's own
(:mod:`svmeval_launch`) when called. Importing this module imports nothing and sets nothing
(the launcher takes Ctrl-C over when it is imported, so it is imported only by a command).

Such a script imports the package before the launcher takes Ctrl-C over; reinstalling
(``pip install .``, or ``make`` in a checkout) writes scripts that start in the launcher. An
editable install made before the launcher existed does not map its module: it is then loaded
from beside the package, where the checkout keeps it.
"""


def _launcher():
    try:
        import svmeval_launch
    except ModuleNotFoundError:
        import importlib.util
        import os
        import sys

        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "svmeval_launch.py")
        spec = importlib.util.spec_from_file_location("svmeval_launch", path)
        if spec is None or spec.loader is None:  # pragma: no cover - not a checkout
            raise
        svmeval_launch = importlib.util.module_from_spec(spec)
        sys.modules["svmeval_launch"] = svmeval_launch
        spec.loader.exec_module(svmeval_launch)
    return svmeval_launch


def main() -> None:
    """``svmeval``."""
    _launcher().main()


def grid_main() -> None:
    """``svmeval-grid``."""
    _launcher().grid_main()


def compare_main() -> None:
    """``svmeval-compare``."""
    _launcher().compare_main()

"""The commands' entry points as console scripts installed before the commands' launcher
existed name them (``svmeval._entry:main``): each hands over to the launcher's own
(:mod:`svmeval.cli.__main__`) when called. Importing this module imports nothing and sets
nothing (the launcher takes Ctrl-C over when it is imported, so it is imported only by a
command).

Such a script imports the package before the launcher takes Ctrl-C over; reinstalling
(``pip install .``, or ``make`` in a checkout) writes scripts that start in the console
scripts' entry, ``svmeval_launch``.
"""


def main() -> None:
    """``svmeval``."""
    from svmeval.cli.__main__ import main

    main()


def grid_main() -> None:
    """``svmeval-grid``."""
    from svmeval.cli.__main__ import grid_main

    grid_main()


def compare_main() -> None:
    """``svmeval-compare``."""
    from svmeval.cli.__main__ import compare_main

    compare_main()

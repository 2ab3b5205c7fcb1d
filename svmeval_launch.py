"""The console scripts' entry (``svmeval``, ``svmeval-grid``, ``svmeval-compare``,
``svmeval-store``, ``svmeval-linear``), installed beside the package: its first instruction hands the process to
the commands' launcher (:mod:`svmeval.cli.__main__`), which takes Ctrl-C over as its own
first instruction. A Ctrl-C that comes before (while Python imports the packages' ``__init__``
modules, which set nothing) ends the command the same way: one line and exit status 130.
Nothing of the package imports this module."""

try:  # the first instruction: from here on a Ctrl-C is the command's
    from svmeval.cli.__main__ import compare_main, grid_main, linear_main, main, store_main
except KeyboardInterrupt:  # Ctrl-C before the launcher could take it over: the same ending
    import os

    os.write(2, b"svmeval: interrupted\n")
    os._exit(130)

__all__ = ["compare_main", "grid_main", "linear_main", "main", "store_main"]

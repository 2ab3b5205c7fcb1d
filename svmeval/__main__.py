"""``python -m svmeval``: the ``svmeval`` command, through the commands' launcher.

Python imports the ``svmeval`` package before this module (its ``__init__`` runs no statement
that Python can interrupt but its first, and sets nothing); the first instruction here hands the
process to the launcher (:mod:`svmeval.cli.__main__`), which takes Ctrl-C over before anything
else.
"""

try:
    from svmeval.cli.__main__ import main
except KeyboardInterrupt:  # Ctrl-C before the launcher could take it over: the same ending
    import os

    os.write(2, b"svmeval: interrupted\n")
    os._exit(130)

main()

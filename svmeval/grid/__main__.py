"""``python -m svmeval.grid``: the svmeval-grid command."""

try:
    from .._entry import grid_main
except KeyboardInterrupt:  # Ctrl-C before the entry point could take it over
    import os
    import sys

    sys.stderr.write("svmeval-grid: interrupted\n")
    os._exit(130)

grid_main()

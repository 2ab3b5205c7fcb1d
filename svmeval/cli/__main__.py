"""``python -m svmeval.cli COMMAND ARGS``: ``svmeval``, ``grid`` (svmeval-grid) or ``compare``
(svmeval-compare) without their console scripts (``python -m svmeval`` is ``svmeval``), through
the commands' launcher (:mod:`svmeval_launch`), which takes Ctrl-C over first."""

try:
    import svmeval_launch
except KeyboardInterrupt:  # Ctrl-C before the launcher could take it over: the same ending
    import os

    os.write(2, b"svmeval: interrupted\n")
    os._exit(130)

import sys  # noqa: E402  (after the launcher)

_COMMANDS = {
    "svmeval": svmeval_launch.main,
    "grid": svmeval_launch.grid_main,
    "compare": svmeval_launch.compare_main,
    "store": svmeval_launch.store_main,
    "linear": svmeval_launch.linear_main,
}
if len(sys.argv) < 2 or sys.argv[1] not in _COMMANDS:
    sys.stderr.write(
        "usage: python -m svmeval.cli {svmeval,grid,compare,store,linear} [options] ...\n"
    )
    sys.exit(1)
_COMMANDS[sys.argv.pop(1)]()

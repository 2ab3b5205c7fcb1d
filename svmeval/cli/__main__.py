"""``python -m svmeval.cli COMMAND ARGS``: ``svmeval``, ``grid`` (svmeval-grid) or ``compare``
(svmeval-compare) without their console scripts (``python -m svmeval`` is ``svmeval``)."""

try:
    import sys

    from svmeval import _entry
except KeyboardInterrupt:  # Ctrl-C before the entry point could take it over
    import os
    import sys

    sys.stderr.write("svmeval: interrupted\n")
    os._exit(130)

_COMMANDS = {
    "svmeval": _entry.main,
    "grid": _entry.grid_main,
    "compare": _entry.compare_main,
    "store": _entry.store_main,
}
if len(sys.argv) < 2 or sys.argv[1] not in _COMMANDS:
    sys.stderr.write("usage: python -m svmeval.cli {svmeval,grid,compare,store} [options] ...\n")
    sys.exit(1)
_command = _COMMANDS[sys.argv.pop(1)]
_command()

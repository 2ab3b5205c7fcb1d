"""``python -m svmeval``: the command line."""

try:
    from svmeval._entry import main
except KeyboardInterrupt:  # Ctrl-C before the entry point could take it over
    import os
    import sys

    sys.stderr.write("svmeval: interrupted\n")
    os._exit(130)

main()

"""``python -m svmeval``: the command line."""

from ._entry import main

main()

"""``python -m svmeval.grid``: the svmeval-grid command."""

import sys

from .cli import main

sys.exit(main())

"""The lock standard error is written under (LIBSVM's messages, the progress bar, the
"interrupted" line), in a module of its own: the light drop-in path writes under it without
loading :mod:`svmeval.io.output`, which names it for everyone else."""

from __future__ import annotations

import threading

#: held while LIBSVM's messages or the "interrupted" line are written, so that once a Ctrl-C
#: was seen no message of a fold still inside LIBSVM comes after that line
STDERR_LOCK = threading.Lock()

"""The optional extras and the command that installs each into the Python running svmeval.

svmeval is installed from its source (``pip install .``), not from a package index, so
``pip install 'svmeval[plot]'`` is not a command that works: what works is installing the
extra's packages with the pip of the Python that runs svmeval, which
:func:`install_command` writes (``.venv/bin/python -m pip install 'matplotlib>=3.5'``).
The packages are pyproject.toml's ``[project.optional-dependencies]`` of each extra.
"""

from __future__ import annotations

import os
import shlex
import sys

__all__ = ["EXTRAS", "install_command"]

#: each users' extra and its packages, as pyproject.toml declares them
EXTRAS = {
    "plot": ("matplotlib>=3.5",),
    "frame": ("pandas>=1.5",),
    "dask": ("dask>=2023.1", "distributed>=2023.1"),
    "linear": ("liblinear-official>=2.50,<2.51",),
}


def install_command(extra: str) -> str:
    """The shell command that installs the packages of ``extra`` for the Python running
    svmeval: its interpreter (relative to the current folder when it lies under it), ``-m pip
    install`` and the packages, quoted for a POSIX shell."""
    python = sys.executable or "python3"
    try:
        here = os.getcwd()
        if python.startswith(here + os.sep):
            python = os.path.join(os.curdir, os.path.relpath(python, here))
    except OSError:  # the current folder is gone: the full path
        pass
    packages = " ".join(shlex.quote(p) for p in EXTRAS[extra])
    return f"{shlex.quote(python)} -m pip install {packages}"

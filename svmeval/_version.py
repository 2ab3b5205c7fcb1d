"""The version of svmeval, in one place (packaging reads it from here), and what tells two builds
apart.

``__version__`` changes with each release (CHANGELOG.md lists what each one changed). Two
installs of one version can still run different code (a checkout a few commits on, a local
edit): :func:`source_digest` tells them apart, and a Dask cluster's workers must match the
client in both (:func:`svmeval.cv.cluster.check_workers`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

__version__ = "0.3.0"

#: the folder of svmeval's own modules (its sources are digested)
PACKAGE_DIR = Path(__file__).resolve().parent


@functools.cache
def source_digest() -> str:
    """:func:`digest_of` this install's package folder, computed once per process."""
    return digest_of(PACKAGE_DIR)


def digest_of(root: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of the Python source files under ``root``: each file's path relative to
    ``root`` and its bytes, in path order. Builds whose Python code differs in any byte give
    different digests; the same code gives the same digest wherever it is installed.
    Compiled extensions are left out: their bytes differ with the compiler, not only with the
    code."""
    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
        digest.update(data)
    return digest.hexdigest()

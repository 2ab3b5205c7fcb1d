"""The version of svmeval, in one place (packaging reads it from here), and what tells two builds
apart.

``__version__`` changes with each release (CHANGELOG.md lists what each one changed). Two
installs of one version can still run different code (a checkout a few commits on, a local
edit): :func:`source_digest` tells them apart, and a Dask cluster's workers must match the
client in both (:func:`svmeval.cv.run.cluster.check_workers`).
"""

from __future__ import annotations

# Nothing is imported at module level: ``import svmeval`` imports this module before the
# commands' Ctrl-C handler is in place, and an import (hashlib's C module) is a moment where a
# Ctrl-C would end in a traceback. The digest's modules are imported when it is computed.
import os  # loaded with the interpreter already

__version__ = "0.4.0"

#: the folder of svmeval's own modules (its sources are digested)
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

_DIGEST: list[str] = []  # this install's digest, computed once per process


def source_digest() -> str:
    """:func:`digest_of` this install's package folder, computed once per process."""
    if not _DIGEST:
        _DIGEST.append(digest_of(PACKAGE_DIR))
    return _DIGEST[0]


source_digest.cache_clear = _DIGEST.clear  # type: ignore[attr-defined]  # as functools.cache


def digest_of(root) -> str:
    """SHA-256 (hex) of the Python source files under ``root``: each file's path relative to
    ``root`` and its bytes, in path order. Builds whose Python code differs in any byte give
    different digests; the same code gives the same digest wherever it is installed.
    Compiled extensions are left out: their bytes differ with the compiler, not only with the
    code."""
    import hashlib
    from pathlib import Path

    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
        digest.update(data)
    return digest.hexdigest()

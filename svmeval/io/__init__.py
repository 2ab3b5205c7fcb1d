"""Files in and out: LIBSVM-format data (the C reader), predictions files, safe output.

``Dataset`` and ``read_dataset`` load numpy and the reader on first use, so that the command
line can check its outputs (:mod:`svmeval.io.output`) before anything heavy is imported.
"""

from __future__ import annotations

__all__ = ["Dataset", "read_dataset"]


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module 'svmeval.io' has no attribute {name!r}")
    import importlib  # on first use: importing the package itself loads nothing more

    value = getattr(importlib.import_module("svmeval.io.data"), name)
    globals()[name] = value
    return value

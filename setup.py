"""Build configuration for svmeval's compiled part (metadata lives in pyproject.toml).

The one extension, ``svmeval.io._reader``, is the LIBSVM-format parser behind ``svmeval.io.data``;
it uses only the CPython C API (no numpy headers), so a C compiler is all a build needs.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "svmeval.io._reader",
            sources=["svmeval/io/_reader.c"],
        )
    ]
)

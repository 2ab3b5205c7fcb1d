"""Build configuration for svmeval's compiled part (metadata lives in pyproject.toml).

The one extension, ``svmeval._reader``, is the LIBSVM-format parser behind ``svmeval.data``;
it uses only the CPython C API (no numpy headers), so a C compiler is all a build needs.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "svmeval._reader",
            sources=["svmeval/_reader.c"],
        )
    ]
)

"""Build configuration for svmeval's compiled parts (metadata lives in pyproject.toml).

Three extensions, all using only the CPython C API (no numpy headers), so a C compiler is all a
build needs:

* ``svmeval.io._reader``: the LIBSVM-format parser behind ``svmeval.io.data``;
* ``svmeval.cv._kernel``: whole kernel matrices with LIBSVM's own arithmetic (the shared kernel
  of ``svmeval.cv.run.kernel``), LIBSVM's ``svm_predict_values`` looped over many rows in one
  call, and LIBSVM's fold shuffle drawing from C ``rand()``. It is compiled without
  floating-point contraction: a fused multiply-add would round differently from LIBSVM's
  separate multiply and add.
* ``svmeval.metrics._ovo``: class scores from one-vs-one decision values, any number of classes
  (``svmeval.metrics.ovo``), bit for bit the numpy formula's: also without contraction.
"""

import sys

from setuptools import Extension, setup

NO_CONTRACTION = [] if sys.platform == "win32" else ["-ffp-contract=off", "-fno-fast-math"]
# exp() and tanh() of the kernels come from the C math library: linked by name, so the extension
# says what it needs. On Linux the C library is named too, though the kernel calls nothing else of
# it: auditwheel tells glibc from musl by an extension's needed libraries (scripts/build_wheels.sh)
LIBM = [] if sys.platform == "win32" else ["m"]
NAME_LIBC = ["-Wl,--no-as-needed", "-lc"] if sys.platform.startswith("linux") else []

setup(
    ext_modules=[
        Extension(
            "svmeval.io._reader",
            sources=["svmeval/io/_reader.c"],
        ),
        Extension(
            "svmeval.cv._kernel",
            sources=["svmeval/cv/_kernel.c"],
            extra_compile_args=NO_CONTRACTION,
            libraries=LIBM,
            extra_link_args=NAME_LIBC,
        ),
        Extension(
            "svmeval.metrics._ovo",
            sources=["svmeval/metrics/_ovo.c"],
            extra_compile_args=NO_CONTRACTION,
        ),
    ]
)

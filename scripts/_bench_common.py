"""What the benchmarks in scripts/ share: svm-train's own cross-validation through LIBSVM's
official bindings, timed as ``bench_cv.py``, ``bench_classes.py`` (``bench_cv.py --classes``)
and ``simulate_cores.py`` run it."""

from __future__ import annotations

import time


def libsvm_cv(path: str, options: str) -> tuple:
    """svm-train's CV through the official bindings after srand(1) (a fresh svm-train):
    wall and CPU seconds of ``svm_train(prob, options)`` and the predictions its own
    svm_cross_validation call filled in."""
    import ctypes

    import numpy as np
    from libsvm import svmutil

    y, x = svmutil.svm_read_problem(path)
    prob = svmutil.svm_problem(y, x)
    kept, real = {}, svmutil.libsvm

    class Keep:  # svm_train -v's own svm_cross_validation call, its target kept
        def __getattr__(self, name):
            return getattr(real, name)

        def svm_cross_validation(self, prob, param, nr_fold, target):
            kept["target"] = target
            return real.svm_cross_validation(prob, param, nr_fold, target)

    svmutil.libsvm = Keep()
    try:
        ctypes.CDLL(None).srand(1)  # a fresh svm-train's state, said out loud
        t, cpu = time.perf_counter(), time.process_time()
        svmutil.svm_train(prob, options)
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    finally:
        svmutil.libsvm = real
    return seconds, cpu, np.ctypeslib.as_array(kept["target"]).copy()


def libsvm_cv_one_thread(path: str) -> tuple:
    """:func:`libsvm_cv` with svm-train's defaults and -v 5 on one OpenMP thread, in this
    process (W: the single-thread work)."""
    from svmeval.cv import _libsvm

    _libsvm.set_omp_threads(1)
    return libsvm_cv(path, "-q -v 5")

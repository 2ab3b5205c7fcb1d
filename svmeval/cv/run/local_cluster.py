"""The LocalCluster of ``--dask local[:N]`` (:func:`svmeval.cv.run.cluster.connect` starts it):
single-threaded worker processes on this machine, with svmeval's settings, this process's
environment left as it was."""

from __future__ import annotations

import contextlib
import os
import sys

from svmeval.cv.schedule import available_cores

#: the local cluster's settings: the data stay on every worker for the whole run (no replica
#: dropped by the active memory manager, which would send them again), and the workers' C
#: allocator keeps glibc's defaults (Dask's MALLOC_TRIM_THRESHOLD_ turns off glibc's adaptive
#: mmap threshold, and LIBSVM trains about 10% slower under it)
LOCAL_CONFIG = {
    "distributed.scheduler.active-memory-manager.start": False,
    "distributed.nanny.pre-spawn-environ": {
        "OMP_NUM_THREADS": 1,
        "MKL_NUM_THREADS": 1,
        "OPENBLAS_NUM_THREADS": 1,
    },
}


_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


@contextlib.contextmanager
def _environment_kept():
    """Dask's nanny writes its workers' variables into this process's environment: undo it."""
    before = dict(os.environ)
    try:
        yield
    finally:
        for key in [k for k in os.environ if k not in before]:
            del os.environ[key]
        os.environ.update(before)


def new_cluster(distributed, n: int | None):
    """A new ``distributed.LocalCluster`` of ``n`` workers (default: the cores), each one
    thread, on 127.0.0.1; blocks while it starts."""
    import logging

    import dask

    # multiprocessing's resource tracker (a process started with this interpreter's -W
    # options) warns about the local workers' semaphores when Ctrl-C ends the command
    # at once; the operating system frees them
    if _TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_QUIET)
    with dask.config.set(LOCAL_CONFIG), _environment_kept():
        return distributed.LocalCluster(
            n_workers=n or available_cores(),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
            host="127.0.0.1",
            # the scheduler's HTTP routes on a free port, not Dask's 8787 (and no warning
            # when another cluster holds it)
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        )

"""A shared kernel decided by the run itself, from its first trained fold.

Whether a kernel computed once (:mod:`svmeval.cv.run.kernel`) pays for one cross-validation turns
on a figure no one knows before training: how many kernel columns LIBSVM computes, which grows
with the support vectors. It is 0.07 of the rows on mushrooms (an easy problem: a shared
matrix there costs 2-3x the run) and over half on dna (where sharing takes the run to 0.47x),
so the cost model of :func:`~svmeval.cv.run.kernel.plan_sharing` assumes few columns and shares
no single cross-validation.

:class:`KernelProbe` lets the run measure it. Its first tasks train on the features; when the
first training ends, its support vectors per training row (a lower bound of the columns
fraction: every support vector's column was computed) go into the same cost model for the
tasks not yet started, and if sharing pays clearly (:data:`GAIN`) those train on a shared
kernel (``-t 4``), the threads of the first of them computing it together. Nothing else
changes: a model trained on the shared kernel is the one trained on the features, bit for bit
(tests/cv/test_engine_shared.py), so which tasks trained on which does not show in any result.

Only local runs whose tasks share one kernel probe (:func:`probe_params` says which): not
``-b 1``, an already precomputed kernel, a kernel over the memory budget or over a quarter of
the memory available when the run starts (:data:`MEMORY_SHARE`: the run did not ask for a
kernel), features on which a lookup is not clearly cheaper than a value
(:func:`~svmeval.cv.run.kernel.lookup_pays`), or a run small enough to stay on the calling thread.
"""

from __future__ import annotations

import threading

from svmeval.cv.run import kernel as shared_kernel
from svmeval.params import SvmParams

__all__ = [
    "COLUMNS_PER_SUPPORT_VECTOR",
    "GAIN",
    "MEMORY_SHARE",
    "KernelProbe",
    "available_memory",
    "probe_params",
    "switch_pays",
]

#: kernel columns LIBSVM computes per support vector of a training: the working sets pick rows
#: that do not end as support vectors, and shrinking and the cache recompute columns. Fitted
#: to whole 5-fold runs on one kernel against the features (two cores, the model's costs) it is
#: about 1.6 on mushrooms (8% support vectors), 2.4 on a9a's first 8,000 rows (40%) and 2.9 on
#: dna (46%). Taken as 2, a9a's two-class runs switched after their first fold and gained
#: nothing (0.93-1.06x the time on the features on 2,000-8,000 rows: three folds left do not
#: pay for the matrices); 1.4 keeps them on the features and still switches dna at once.
COLUMNS_PER_SUPPORT_VECTOR = 1.4

#: the tasks left switch to a shared kernel when their estimated feature-space cost is at least
#: this many times the shared kernel's (its matrices and their lookups)
GAIN = 1.25


#: a run that asked for no kernel takes at most this share of the memory available now
MEMORY_SHARE = 0.25


def available_memory() -> float:
    """Bytes of memory available now (Linux's MemAvailable; else the free pages; else no
    bound)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os

        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return float("inf")


def probe_params(
    n_rows: int,
    nonzeros: int,
    n_features: int,
    units: list,
    share: bool | None,
    memory_mb: float,
    small: bool,
) -> SvmParams | None:
    """The kernel parameters a group of units training on the features may switch to once its
    first training is measured (None: it stays on the features)."""
    if share is not None or small or not units or n_rows < 2:
        return None
    params = units[0].params
    key = shared_kernel.kernel_key(params)
    if any(u.params.probability or shared_kernel.kernel_key(u.params) != key for u in units):
        return None
    if params.kernel_type not in shared_kernel.SHAREABLE:
        return None
    nbytes = shared_kernel.matrix_bytes(n_rows, params.kernel_type)
    if nbytes > memory_mb * 2**20 or nbytes > MEMORY_SHARE * available_memory():
        return None
    if not shared_kernel.lookup_pays(n_rows, nonzeros / n_rows, n_features, params.kernel_type):
        return None
    return params


def switch_pays(
    n_rows: int,
    per_row: float,
    n_features: int,
    kernel_type: int,
    columns_fraction: float,
    left_square: float,
) -> bool:
    """Whether trainings on the features, of ``left_square`` squared training rows in all,
    computing ``columns_fraction`` of their kernel columns, would cost at least :data:`GAIN`
    times the shared matrices of ``n_rows`` rows (a triangle each) and the lookups that
    replace those values (:func:`~svmeval.cv.run.kernel.plan_sharing`'s units; the predictions
    left out, a cautious figure)."""
    value = shared_kernel.value_cost(per_row)
    own = columns_fraction * left_square * value
    fill = shared_kernel.fill_cost(per_row, n_features, kernel_type)
    shared = n_rows * n_rows / 2 * fill + own / value
    return bool(own >= GAIN * shared)


class KernelProbe:
    """The decision of one group of units: train on the features or on a shared kernel, a lazy
    :class:`~svmeval.cv.run.kernel.SharedKernel` that ``make_kernel()`` builds once sharing is
    decided (:attr:`kernel`; nothing is built otherwise); :meth:`count` the training rows of
    each of the group's tasks before they start (a task not started by the decision is one
    that may switch)."""

    def __init__(
        self, make_kernel, *, n_rows: int, per_row: float, n_features: int, kernel_type: int
    ):
        self._make_kernel = make_kernel
        self.kernel = None
        self._lock = threading.Lock()
        self._left_square = 0.0
        self._n_rows, self._per_row, self._kernel_type = n_rows, per_row, kernel_type
        self._n_features = n_features
        #: None until the first training ends, then whether the tasks starting share the kernel
        self.shared: bool | None = None

    def count(self, sizes) -> None:
        """Tasks of these training rows will start."""
        with self._lock:
            self._left_square += float(sum(float(s) * s for s in sizes))

    def start(self, rows: int) -> bool:
        """A task of ``rows`` training rows starts: whether it trains on the shared kernel."""
        with self._lock:
            if self.shared is None:
                self._left_square -= float(rows) * rows
            return bool(self.shared)

    def trained(self, rows: int, support_vectors: int) -> None:
        """A training on the features of ``rows`` rows ended with ``support_vectors``: the
        first one decides for the tasks not started yet."""
        with self._lock:
            if self.shared is not None or rows <= 0:
                return
            shared = switch_pays(
                self._n_rows,
                self._per_row,
                self._n_features,
                self._kernel_type,
                min(1.0, COLUMNS_PER_SUPPORT_VECTOR * support_vectors / rows),
                max(0.0, self._left_square),
            )
            if shared:
                self.kernel = self._make_kernel()
            self.shared = shared

    def release(self) -> None:
        """Free the kernel's matrices (every task is done), if they were computed."""
        if self.kernel is not None:
            self.kernel.release()

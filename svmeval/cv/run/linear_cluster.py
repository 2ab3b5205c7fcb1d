"""LIBLINEAR's runs on a Dask cluster (``client=``, ``--dask``): each task a whole unit whose
result depends only on its arguments, computed on a worker by the very function the local
run calls, with the same arguments.

The units:

- one repetition of LIBLINEAR's own cross-validation (``train -v``): ``srand(seed)``, then
  LIBLINEAR's ``cross_validation``, one C call whose folds draw, one after another, from one
  ``rand()`` (its shuffle, then the dual solvers' coordinate orders): the repetition is the
  unit (:func:`~svmeval.cv.run.linear.linear_target`);
- one repetition on svmeval's folds (folds given or grouped, a comparison's shared folds, a
  permutation's labels): ``srand(seed)``, then each fold's ``train`` and ``predict`` in fold
  order, as the local run trains them (:func:`svmeval.cv.run.linear_folds.linear_seeded`,
  :func:`~svmeval.cv.run.linear_folds.linear_on_folds_of`). The local run seeds once per
  repetition, and a fold's training draws from ``rand()`` where the one before left it: a
  fold alone is not a unit, its repetition is;
- LIBLINEAR's warm-started search over C (``train -C``): one call, its folds warm-started
  from one C to the next on one ``rand()``: the whole search
  (:func:`~svmeval.cv.run.linear_search.search_on`).

On a worker a task holds C's global state as a LIBSVM task that draws from ``rand()`` holds it
(:func:`svmeval.cv.run.workers.linear_task`: LIBSVM's lock, then LIBLINEAR's), so no other
thread of that worker draws from ``rand()`` or sets LIBLINEAR's print hook meanwhile. The
worker checks that it runs this build of svmeval (:func:`~svmeval.cv.run.cluster.check_workers`)
and loads the same LIBLINEAR: each unit's predictions are the local run's, bit for bit, in
whatever order the tasks end or whichever worker runs them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

__all__ = ["LinearCluster", "entered", "linear_cluster"]


class LinearCluster:
    """A run's LIBLINEAR units on one cluster: the session kept from one batch to the next,
    each data set sent to every worker once."""

    def __init__(self, session):
        self.session = session
        self._sent: dict = {}  # id(dataset) -> (dataset, its reference on the workers)

    def run(
        self,
        dataset,
        calls: list,
        progress: Callable[[int, int], None] | None = None,
    ) -> list:
        """``function(dataset, *args)`` on the cluster for each ``(function, args)`` of
        ``calls``; their outputs in the order of ``calls``. ``progress(done, total)`` as
        each ends."""
        from svmeval.cv import _liblinear
        from svmeval.cv.collect.provenance import note_dataset, note_liblinear
        from svmeval.cv.run import cluster, workers

        if not calls:
            return []
        from svmeval.cv.run.store_session import library_used

        note_dataset(dataset)
        note_liblinear(_liblinear.library().version)
        library_used("liblinear", _liblinear.library().version)
        data = self._data(dataset)
        jobs = [
            cluster.Job(workers.linear_task, data + (function, tuple(args)), k)
            for k, (function, args) in enumerate(calls)
        ]
        out: list = [None] * len(calls)
        done = [0]

        def on_done(k, output) -> None:
            out[k] = output
            done[0] += 1
            if progress is not None:
                progress(done[0], len(calls))

        self.session.run(jobs, on_done)
        return out

    def _data(self, dataset) -> tuple:
        kept = self._sent.get(id(dataset))
        if kept is None or kept[0] is not dataset:
            if not self._sent:
                reference = self.session.data(dataset)[1]
            else:
                reference = self.session.scatter(dataset)
            kept = self._sent[id(dataset)] = (dataset, reference)
        return (self.session.token, kept[1])


@contextlib.contextmanager
def linear_cluster(client) -> Iterator[LinearCluster]:
    """A :class:`LinearCluster` on ``client`` (a ``distributed.Client``, its workers
    checked, or an address: connected here and closed at the end)."""
    from svmeval.cv.run import cluster

    with cluster.client_for(client) as ready, cluster.Session(ready) as session:
        yield LinearCluster(session)


def entered(stack, client) -> LinearCluster | None:
    """:func:`linear_cluster` of ``client`` entered on ``stack`` (an ExitStack), or None
    where ``client`` is None."""
    if client is None:
        return None
    return stack.enter_context(linear_cluster(client))

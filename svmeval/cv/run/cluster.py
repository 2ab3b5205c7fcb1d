"""svmeval's fold tasks on a Dask distributed cluster (``--dask ADDRESS``, ``client=``).

This module is the client side (:mod:`svmeval.cv.run.workers` holds what runs on a worker). It
draws the folds (C ``rand()`` after ``srand(seed)``, as locally), checks every
parameter, and sends tasks that carry only a fold number, the parameters and two references: the
data set, scattered to every worker once, and the folds (one small array per seed). A worker runs
svmeval's own fold code (:meth:`~svmeval.cv.engine.CVPlan.fold_output`) on one OpenMP thread
per Dask thread and sends back the fold's predictions and scores, which the client stores where
the local run would: results are bit-identical to a local run whatever the order in which tasks
finish or the worker that ran them (a task that a dead worker lost is rerun by Dask).

Each worker builds the LIBSVM problem of a scattered data set once, and a shared kernel
(:class:`~svmeval.cv.run.kernel.SharedKernel`) once per gamma it runs tasks of: the tasks of one
gamma prefer one worker (loose restrictions, so Dask's work stealing still balances the load),
and a worker that steals one computes that kernel too.

``-b 1`` trains with C ``rand()`` (probability's inner CV), so a cross-validation there is one
task that runs its folds in order after ``srand(seed)``, as the local run does.

The client's blocking calls and the loop over a run's results run on helper threads while the
caller waits a step at a time (:mod:`svmeval.cv.bounded_waits`): a Ctrl-C is acted on within it.

Only this module imports dask; nothing imports it without ``--dask`` or a client.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from svmeval._args import checks as arg_checks
from svmeval._version import __version__
from svmeval.cv.bounded_waits import call, in_steps
from svmeval.cv.run.workers import forget, worker_version
from svmeval.errors import ArgumentError, SvmevalError


def _install_hint() -> str:
    from svmeval._extras import install_command

    return f"needs the optional dask and distributed: {install_command('dask')}"


#: seconds to wait for the scheduler to answer, and for a first worker to join it
CONNECT_TIMEOUT = 10
WORKER_TIMEOUT = 60


class ClusterError(SvmevalError):
    """A cluster that cannot be used: dask missing, an unreachable scheduler, unfit workers."""


class ClientError(ClusterError, ArgumentError):
    """A ``client`` that cannot be used as given (an address that is not one, dask missing):
    the message speaks of ``client``, the command line of its own flag."""

    def __init__(self, message: str):
        ArgumentError.__init__(self, "client", message, text=f"client {message}")


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClientError(_install_hint()) from None
    return distributed


def parse_address(address: str) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local[:N]``, ``("remote", None)`` for a scheduler's
    ``[tcp://|tls://]HOST:PORT``; anything else raises :class:`~svmeval.errors.ArgumentError`
    (``client``) with one line.

    A local cluster runs at most one single-threaded worker per core (more would only take
    turns on the same cores): ``local:N`` above the cores is refused, naming them; a larger
    cluster is a running scheduler's address."""
    from svmeval.cv.schedule import available_cores

    try:
        kind, n = arg_checks.parse_address(address)
    except ArgumentError as exc:
        raise ClientError(exc.message) from None
    cores = available_cores()
    if n is not None and n > cores:
        text = str(address)
        shown = text if text.isprintable() and len(text) <= 60 else ascii(text[:60])
        raise ClientError(
            f"{shown}: a local cluster runs at most {cores} workers "
            f"(the cores here); give a scheduler's address for more"
        )
    return kind, n


@contextlib.contextmanager
def connect(address: str, *, worker_timeout: float = WORKER_TIMEOUT) -> Iterator:
    """A ``distributed.Client`` for ``address``, closed at the end.

    ``local[:N]`` starts a LocalCluster of N single-threaded worker processes on this machine
    (default: the cores) and closes it at the end; anything else is a running scheduler's
    address (``tcp://host:8786``). The workers are checked to run this svmeval version. Every
    failure is a :class:`ClusterError` naming the address.
    """
    kind, n = parse_address(address)
    distributed = _distributed()
    import logging

    cluster = None
    if kind == "local":
        from svmeval.cv.run.local_cluster import new_cluster

        try:
            # interrupted, the start goes on in the background and what it opened is closed
            cluster = call(
                new_cluster, distributed, n, on_abandoned=lambda started: _close(None, started)
            )
            client = call(
                distributed.Client,
                cluster,
                timeout=CONNECT_TIMEOUT,
                on_abandoned=lambda c: _close(c, None),
            )
        except KeyboardInterrupt:
            if cluster is not None:
                _in_background(_close, None, cluster)
            raise
        except Exception as exc:  # noqa: BLE001 - any failure to start is one line
            if cluster is not None:
                call(_close, None, cluster)
            raise ClientError(f"{address}: cannot start a local cluster: {_reason(exc)}") from None
    else:
        _quiet_distributed_logs(logging)
        try:
            client = call(
                distributed.Client,
                address,
                timeout=CONNECT_TIMEOUT,
                on_abandoned=lambda c: _close(c, None),
            )
        except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError, ...
            raise ClusterError(
                f"cannot reach the Dask scheduler at {address}: {_reason(exc)}"
            ) from None
    try:
        check_workers(client, address, timeout=worker_timeout)
        yield client
    except KeyboardInterrupt:
        # Ctrl-C: leave at once; the client and a local cluster close in the background (a
        # command exits right away, and a local cluster's workers with it)
        _in_background(_close, client, cluster)
        raise
    except BaseException:
        call(_close, client, cluster)
        raise
    call(_close, client, cluster)


@contextlib.contextmanager
def client_for(client) -> Iterator:
    """A ready client from what a library call was given: a ``distributed.Client`` (its
    workers checked, left open) or an address (:func:`connect`, closed at the end)."""
    if isinstance(client, (str, os.PathLike)):
        with connect(os.fspath(client)) as ready:
            yield ready
        return
    arg_checks.check_client(client)
    check_workers(client)
    yield client


def _close(client, cluster) -> None:
    if client is not None:
        with contextlib.suppress(BaseException):
            client.close(timeout=5)
    if cluster is not None:
        with contextlib.suppress(BaseException):
            cluster.close(timeout=5)


def _in_background(function, *args) -> None:
    threading.Thread(target=function, args=args, daemon=True, name="svmeval-cluster-close").start()


def _quiet_distributed_logs(logging) -> None:
    """distributed logs reconnection attempts and a lost scheduler to stderr: svmeval reports
    errors itself, in one line."""
    for name in (
        "distributed.client",
        "distributed.core",
        "distributed.comm",
        "distributed.batched",
    ):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def check_workers(client, address: str = "", *, timeout: float = WORKER_TIMEOUT) -> dict:
    """Wait for at least one worker and check that every worker runs this build of svmeval:
    the same version and the same sources (:func:`~svmeval._version.source_digest`);
    returns worker address -> (version, digest). Raises :class:`ClusterError`."""
    where = address or _address_of(client)
    try:
        call(client.wait_for_workers, 1, timeout=timeout)
    except Exception:  # noqa: BLE001 - TimeoutError and friends
        raise ClusterError(
            f"no Dask worker joined the scheduler at {where} within {timeout:g} s"
        ) from None
    try:
        builds = call(client.run, worker_version)
    except Exception as exc:  # noqa: BLE001 - a worker without svmeval fails to unpickle
        raise ClusterError(
            f"the Dask workers at {where} cannot run svmeval "
            f"({_reason(exc)}): install svmeval {__version__} on every worker"
        ) from None
    ours = worker_version()
    # a worker of svmeval 0.1 answers its version alone
    builds = {
        w: tuple(b) if isinstance(b, (tuple, list)) else (str(b), "unknown")
        for w, b in builds.items()
    }
    wrong = {w: b for w, b in builds.items() if b != ours}
    if wrong:
        worker, (version, digest) = sorted(wrong.items())[0]
        if version != ours[0]:
            raise ClusterError(
                f"the Dask worker {worker} at {where} runs svmeval {version}, "
                f"this is {ours[0]}: install the same version on every worker"
            )
        raise ClusterError(
            f"the Dask worker {worker} at {where} runs another build of svmeval "
            f"{version} (sources {digest[:12]}, here {ours[1][:12]}): install "
            "the same build on every worker"
        )
    return builds


def _address_of(client) -> str:
    try:
        return str(client.scheduler.address)
    except Exception:  # noqa: BLE001
        return "the client's scheduler"


# --- running tasks ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """One task: ``function(*args)`` on a worker; ``tag`` identifies it to the caller;
    ``priority``: higher first; ``group``: the tasks of a group prefer one worker (they share
    what it keeps, a kernel); ``cost``: a guess at the task's time, to balance the groups."""

    function: Callable
    args: tuple
    tag: object
    priority: float = 0.0
    group: object = None
    cost: float = 1.0


class Session:
    """Tasks of one run on a client: the data scattered once, tasks submitted, outputs handed
    back in the calling thread as they arrive."""

    _ids = itertools.count()

    def __init__(self, client):
        self.client = client
        #: names this run's tasks and what workers keep for it
        self.token = f"svmeval-{os.getpid()}-{next(self._ids)}-{uuid.uuid4().hex[:8]}"
        self._futures: list = []
        self._data = None

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            _in_background(self.close)  # Ctrl-C: leave at once
        else:
            self.close()

    def close(self) -> None:
        """Tell the workers to drop what they keep for this run."""
        self.cancel()
        self._data = None
        with contextlib.suppress(Exception):
            call(self.client.run, forget, self.token)

    def data(self, dataset):
        """The data set, scattered to every worker once; a task's first two arguments."""
        if self._data is None:
            self._data = self.scatter(dataset)
        return (self.token, self._data)

    def scatter(self, value):
        """``value`` on every worker (sent once, referenced by the tasks)."""
        try:
            return call(self.client.scatter, value, broadcast=True, hash=False)
        except Exception as exc:  # noqa: BLE001
            raise ClusterError(
                f"cannot send the data to the Dask workers at "
                f"{_address_of(self.client)}: {_reason(exc)}"
            ) from None

    def workers(self) -> list[str]:
        try:
            return sorted(call(self.client.scheduler_info).get("workers", {}))
        except Exception:  # noqa: BLE001
            return []

    def run(self, jobs: list[Job], on_done: Callable[[object, object], None]) -> None:
        """Submit every job and call ``on_done(tag, output)`` for each as it finishes. A job
        group prefers one worker (Dask may still move its tasks to an idle worker).
        Ctrl-C cancels what is left."""
        distributed = _distributed()
        place = _place_groups(jobs, self.workers())
        futures = {}
        for k, job in enumerate(jobs):
            extra = {}
            if job.group in place:
                extra = {"workers": [place[job.group]], "allow_other_workers": True}
            future = self.client.submit(
                job.function,
                *job.args,
                pure=False,
                key=f"{self.token}-{k}",
                priority=job.priority,
                **extra,
            )
            futures[future] = job.tag
        self._futures = list(futures)
        try:
            for future, output in in_steps(lambda: self._finished(distributed, list(futures))):
                on_done(futures.pop(future), output)
                future.release()
        except Exception:  # a Ctrl-C: the pending tasks are cancelled on the way out (__exit__)
            self.cancel()
            raise

    def _finished(self, distributed, futures: list) -> Iterator[tuple]:
        """(future, output) of each of ``futures`` as it finishes."""
        for future in distributed.as_completed(futures):
            try:
                output = future.result()
            except distributed.KilledWorker as exc:
                raise ClusterError(
                    f"the Dask workers running a task kept dying: {_reason(exc)}"
                ) from None
            except (distributed.CancelledError, distributed.comm.CommClosedError, OSError) as exc:
                raise ClusterError(
                    f"lost the Dask scheduler at {_address_of(self.client)}: {_reason(exc)}"
                ) from None
            yield future, output

    def cancel(self) -> None:
        """Cancel the tasks still pending (Ctrl-C, an error)."""
        pending = [f for f in self._futures if not f.done()]
        if pending:
            with contextlib.suppress(Exception):
                call(self.client.cancel, pending, asynchronous=False)


def _place_groups(jobs: list[Job], workers: list[str]) -> dict:
    """group -> worker: the costliest groups first, each on the worker with the least work so
    far (longest processing time first)."""
    cost: dict = {}
    for job in jobs:
        if job.group is not None:
            cost[job.group] = cost.get(job.group, 0.0) + job.cost
    if not workers or not cost:
        return {}
    load = {w: 0.0 for w in workers}
    place = {}
    for group in sorted(cost, key=lambda g: -cost[g]):
        worker = min(workers, key=lambda w: load[w])
        place[group] = worker
        load[worker] += cost[group]
    return place


def split_folds(n_folds: int, n_tasks: int, n_workers: int) -> list[tuple]:
    """The folds of one cross-validation cut into tasks: whole when there are many tasks for
    the workers (a Dask task costs about a millisecond of scheduling, a fold can take less),
    else into pieces, down to one fold each, until there are about four tasks per worker."""
    pieces = max(1, min(n_folds, -(-4 * max(1, n_workers) // max(1, n_tasks))))
    return [tuple(range(n_folds))[k::pieces] for k in range(pieces)]

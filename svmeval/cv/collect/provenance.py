"""Where a result's numbers come from: a small plain-data record on every run's result.

:class:`Provenance` holds the versions of svmeval and LIBSVM, the call that made the result,
when it started (UTC) and how long it ran, and each data set it read (name, digest, size).
The run functions (:func:`~svmeval.cv.cross_validate`, :func:`~svmeval.cv.cross_validate_multilabel`,
:func:`~svmeval.workflows.grid.grid_search`, :func:`~svmeval.workflows.nested.nested_cv`,
:func:`~svmeval.workflows.compare.compare`, :func:`~svmeval.workflows.benchmark.benchmark`) fill it
through :func:`recorded`; the data sets a run uses are noted where they are checked
(:func:`note_dataset`). The record never changes a figure: results compare, render and
serialise as before (``to_dict()`` leaves it out; the HTML report shows it).
"""

from __future__ import annotations

import contextvars
import functools
import math
import time
from dataclasses import dataclass, replace

__all__ = ["DataRecord", "Provenance", "note_dataset", "recorded"]

#: the data sets noted by the run in progress in this context (None: no run is recording)
_NOTED: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "svmeval_noted_datasets", default=None
)


@dataclass(frozen=True)
class DataRecord:
    """One data set a run read: its ``name`` (the file), ``digest`` (SHA-256 hex of the data as
    read, :meth:`svmeval.Dataset.digest`), ``n_samples`` and ``n_features``."""

    name: str
    digest: str
    n_samples: int
    n_features: int


@dataclass(frozen=True)
class Provenance:
    """How a result was made.

    ``call``: the function and its arguments as given (data sets by name, configurations by
    their options); ``started``: when the run started, ISO 8601 in UTC; ``seconds``: how long
    it ran (wall clock); ``svmeval_version`` and ``libsvm_version`` (as ``"3.37"``); ``data``:
    a :class:`DataRecord` per data set, in the order the run checked them.

    Examples
    --------
    >>> from svmeval import cross_validate
    >>> p = cross_validate("data/wine.scale", "-c 2", folds=3).provenance
    >>> p.call
    "cross_validate('data/wine.scale', '-c 2', folds=3)"
    >>> p.data[0].n_samples, len(p.data[0].digest)
    (178, 64)
    """

    call: str
    started: str
    seconds: float
    svmeval_version: str
    libsvm_version: str
    data: tuple = ()
    #: LIBLINEAR's version (``"2.50"``) where the run used LIBLINEAR (a LinearParams)
    liblinear_version: str = "not used"

    def to_dict(self) -> dict:
        """The record as plain JSON types."""
        return {
            "call": self.call,
            "started": self.started,
            "seconds": self.seconds,
            "svmeval_version": self.svmeval_version,
            "libsvm_version": self.libsvm_version,
            **(
                {}
                if self.liblinear_version == "not used"
                else {"liblinear_version": self.liblinear_version}
            ),
            "data": [
                {
                    "name": d.name,
                    "digest": d.digest,
                    "n_samples": d.n_samples,
                    "n_features": d.n_features,
                }
                for d in self.data
            ],
        }


def note_liblinear(version: int) -> None:
    """Note that the run in progress used LIBLINEAR (its ``liblinear_version``, 250 for
    2.50); nothing when no run is recording."""
    noted = _NOTED.get()
    if noted is not None:
        noted.append(_Liblinear(version))


class _Liblinear:
    def __init__(self, version: int):
        self.version = version


def note_dataset(dataset) -> None:
    """Note a data set the run in progress uses (nothing when no run is recording)."""
    noted = _NOTED.get()
    if noted is not None and not any(d is dataset for d in noted):
        noted.append(dataset)


def libsvm_version() -> str:
    """The loaded LIBSVM's version (its ``libsvm_version``, 337 -> ``"3.37"``)."""
    from svmeval.cv import _libsvm

    number = _libsvm.libsvm_version()
    return f"{number // 100}.{number % 100:02d}"


def _shown(value) -> str:
    """An argument as the call shows it: a data set by its name, a configuration by its
    options, a function by its kind, a long value cut."""
    from svmeval.io.data import Dataset
    from svmeval.params import SvmParams

    if isinstance(value, Dataset):
        return f"<Dataset {value.name!r}>"
    if isinstance(value, SvmParams):
        return f"SvmParams({value.flags()!r})" if value.flags() else "SvmParams()"
    if callable(value):
        return "<function>"
    if isinstance(value, (list, tuple)) and len(value) <= 20:
        items = ", ".join(_shown(v) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' * (len(value) == 1)})"
    if isinstance(value, dict) and len(value) <= 20:
        return "{" + ", ".join(f"{k!r}: {_shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    text = repr(value) if isinstance(value, (str, int, float, bool, type(None))) else None
    if text is None:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:197] + "..."


def describe_call(name: str, signature, args: tuple, kwargs: dict) -> str:
    """``name(...)`` with the arguments as given: positional ones by position, the others by
    keyword."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:  # the function itself reports it
        return f"{name}(...)"
    parts = []
    for key, value in bound.arguments.items():
        kind = signature.parameters[key].kind
        if kind is kind.VAR_KEYWORD:
            parts += [f"{k}={_shown(v)}" for k, v in value.items()]
        elif key in kwargs or kind is kind.KEYWORD_ONLY:
            if value is not None:  # None: the default, as good as not given
                parts.append(f"{key}={_shown(value)}")
        else:
            parts.append(_shown(value))
    return f"{name}({', '.join(parts)})"


def make_record(call: str, started: float, seconds: float, datasets) -> Provenance:
    """The :class:`Provenance` of a run: ``call`` as shown, ``started`` (seconds since the
    epoch), ``seconds`` it ran, the ``datasets`` it used. LIBSVM's version where it was
    loaded (a run that scores predictions trains nothing: "not used")."""
    import sys

    from svmeval._version import __version__

    lib = sys.modules.get("svmeval.cv._libsvm")  # never loaded here: scoring loads no LIBSVM
    return Provenance(
        call=call,
        started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        seconds=seconds,
        svmeval_version=__version__,
        libsvm_version=libsvm_version() if lib is not None and lib.loaded() else "not used",
        data=tuple(DataRecord(d.name, d.digest(), d.n_samples, d.n_features) for d in datasets),
    )


def recorded(func):
    """Decorate a run function: its result (a dataclass with a ``provenance`` field) comes back
    with a :class:`Provenance` of this call."""
    import inspect

    signature = inspect.signature(func)

    @functools.wraps(func)
    def run(*args, **kwargs):
        noted: list = []
        token = _NOTED.set(noted)
        started = time.time()
        start = time.perf_counter()
        try:
            result = func(*args, **kwargs)
            seconds = time.perf_counter() - start
        finally:
            _NOTED.reset(token)
        linear = [n for n in noted if isinstance(n, _Liblinear)]
        noted = [n for n in noted if not isinstance(n, _Liblinear)]
        for dataset in noted:  # a run inside a run: the outer one used them too
            note_dataset(dataset)
        call = describe_call(func.__name__, signature, args, kwargs)
        record = make_record(call, started, seconds, noted)
        if linear:
            number = linear[0].version
            record = replace(record, liblinear_version=f"{number // 100}.{number % 100:02d}")
        return replace(result, provenance=record)

    return run

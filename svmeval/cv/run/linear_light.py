"""LIBLINEAR's light mode: ``train -v k``'s own cross-validation of a small two-class file,
without numpy.

svmeval-linear's fixed cost (Python's start, numpy, svmeval's modules, the report) is most of
a call whose LIBLINEAR work is a fraction of a second. This mode serves the calls whose answer
is LIBLINEAR's own ``cross_validation`` and nothing more: a classifier (``-s 0`` to ``7``),
one repetition of ``train``'s folds (seed 1), the predictions alone. It lays the parser's
arrays out as ``feature_node`` rows (the bias feature where ``-B`` >= 0, as
:class:`svmeval.cv._liblinear.LinearProblem` lays them out: :func:`svmeval.cv.run.light.rows_of`,
the LIBSVM light mode's), and calls LIBLINEAR's ``cross_validation`` after ``srand(1)``, as
``train`` and the full path's one C call do (:mod:`svmeval.cv.run.linear`). The library, its
structures, its entry points, ``srand`` and the print hooks are the core's
(:mod:`svmeval.cv.liblinear_core`); this module only decides whether to serve a call.

The full path trains the folds of ``-s 0`` and ``-s 2`` (whose training draws nothing from
``rand()``) on every core (:mod:`svmeval.cv.run.linear_threads`); here they run one after
another in LIBLINEAR's one call. Such a run is served only where the threads could not make
the full command faster (:func:`served_alone`: the cost model's rule, which also leaves to it a file of more rows
than the light path's work a row pays for), else the full command runs it.

:func:`cross_validate_linear_plain` returns None for every call it does not serve (a value
LIBLINEAR's ``check_parameter`` objects to, labels that are not C ints, fewer than two
classes, more folds than rows, a larger run), and the caller then runs the full command, which
reports whatever is wrong in its own words. A Ctrl-C is acted on when LIBLINEAR returns.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_double

from svmeval.cv import liblinear_core
from svmeval.cv.cost import linear_light, machine_cores
from svmeval.cv.run.light import c_labels, doubles, int_labels, rows_of
from svmeval.errors import SvmevalError
from svmeval.io.liblinear_syntax import CLASSIFIERS, DEFAULT_EPS, DEFAULTS

__all__ = ["cross_validate_linear_plain", "served_alone"]


def served_alone(solver_type: int, rows: int, nonzeros: int, folds: int, fields, weight) -> bool:
    """Whether a run of ``solver_type`` is served here, its folds in one call, by the cost
    model's :func:`~svmeval.cv.cost.linear_light`: the folds of ``-s 0`` and ``-s 2`` are
    trained on the cores by the full path (``fields``: ``C`` and ``eps``; ``weight``: the
    ``-wi`` pairs, whose factors multiply C)."""
    threaded = solver_type in liblinear_core.THREADED_SOLVERS
    tighter = fields["eps"] < DEFAULT_EPS[solver_type]
    C = fields["C"] * max([1.0, *[factor for _, factor in weight]])
    return linear_light(
        rows, nonzeros, folds, machine_cores(), threaded=threaded, C=C, tighter=tighter
    )


def cross_validate_linear_plain(raw, values: dict, weight: tuple, folds: int, *, quiet: bool):
    """LIBLINEAR's own k-fold cross-validation of ``raw`` (:class:`svmeval.io.raw.RawArrays`)
    with ``values`` (LinearParams' fields as ``train``'s options gave them; the others
    ``train``'s defaults) and the ``-wi`` pairs ``weight``, folds drawn after ``srand(1)``:
    ``(y_true, y_pred)`` as lists, or None where this mode does not serve the call (the full
    path does). ``quiet``: LIBLINEAR's messages nowhere, else on standard error as the full
    path writes them."""
    p = dict(DEFAULTS, **values)
    if p["solver_type"] not in CLASSIFIERS:
        return None
    eps = p.pop("eps", None)
    p["eps"] = DEFAULT_EPS[p["solver_type"]] if eps is None else eps
    bias = p.pop("bias")
    n = raw.n_samples
    nonzeros = len(raw.indices) // 4 + (n if bias >= 0 else 0)
    if folds > n or not served_alone(p["solver_type"], n, nonzeros, folds, p, weight):
        return None
    y = int_labels(raw)
    if y is None or len(set(y)) < 2:
        return None
    try:
        c = liblinear_core.library()
    except (SvmevalError, OSError):  # no bindings: the full command says how to install them
        return None
    features = raw.max_index + 1 if bias >= 0 else raw.max_index
    built = rows_of(raw, (features, bias) if bias >= 0 else None)
    if built is None:  # pragma: no cover
        return None
    nodes, rows = built
    labels = c_labels(raw)
    problem = liblinear_core.Problem(
        n, features, ctypes.cast(labels, POINTER(c_double)), ctypes.addressof(rows), bias
    )
    parameter, _kept = liblinear_core.parameter(p, weight)
    with liblinear_core.STATE_LOCK:
        if c.check_parameter(ctypes.addressof(problem), ctypes.addressof(parameter)):
            return None  # the full path says what LIBLINEAR objects to
        c.set_print(c.print_null if quiet else c.print_stderr)
        c.srand(1)  # train's folds: a fresh process draws as after srand(1)
        target = (c_double * n)()
        c.cross_validation(
            ctypes.addressof(problem), ctypes.addressof(parameter), folds, ctypes.addressof(target)
        )
    del nodes  # the rows point into it until here
    return y, doubles(target)

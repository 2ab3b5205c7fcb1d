"""A LIBLINEAR configuration on folds that are not LIBLINEAR's: a LIBSVM cross-validation's.

LIBLINEAR's ``cross_validation`` draws its own folds (an unstratified shuffle), LIBSVM's are
stratified for classifiers: a comparison of the two needs one set of folds for both. Here the
folds are the LIBSVM run's (svmeval's seeded folds, :func:`svmeval.cv.plan.folds.libsvm_folds`, or
the folds given or grouped), and LIBLINEAR trains each fold as its ``train`` trains a problem:
after ``srand(seed)`` (the run's seed), fold after fold, each on its training rows in
LIBSVM's order (``perm[:begin] + perm[end:]``), with LIBLINEAR's own ``train`` and
``predict`` through the library of the official bindings; every test row is predicted by its
fold's model.
"""

from __future__ import annotations

import numpy as np

__all__ = ["check_linear", "linear_on_folds"]


def check_linear(dataset, params) -> None:
    """Refuse ``params`` on ``dataset`` as LIBLINEAR's ``check_parameter`` refuses it (a
    :class:`~svmeval.errors.ParameterError` with its message), before any fold is trained."""
    from svmeval.cv import _liblinear
    from svmeval.cv.run.linear import _address
    from svmeval.errors import ParameterError

    params.check()
    c = _liblinear.library()
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    message = c.check_parameter(problem.address, _address(param))
    del kept
    if message:
        raise ParameterError(message.decode())


def linear_on_folds(dataset, params, run):
    """LIBLINEAR's predictions of ``params`` (a :class:`~svmeval.params.LinearParams`) on the
    folds of ``run`` (a LIBSVM :class:`~svmeval.cv.collect.results.CVResult` of ``dataset``): a
    :class:`~svmeval.cv.collect.results.CVResult` with ``run``'s folds, seed and labels."""
    from dataclasses import replace

    from svmeval.cv import _liblinear, schedule
    from svmeval.cv.collect.provenance import note_liblinear
    from svmeval.cv.run.linear import _address
    from svmeval.errors import ParameterError

    params.check()
    c = _liblinear.library()
    note_liblinear(c.version)
    problem = _liblinear.LinearProblem(dataset, params.bias)
    param, kept = _liblinear.make_parameter(params)
    folds = run.folds
    target = np.empty(problem.n_samples, dtype=np.float64)
    schedule.wait_abandoned()  # an interrupted run's call may still be drawing from rand()
    with _liblinear.STATE_LOCK:
        message = c.check_parameter(problem.address, _address(param))
        if message:
            raise ParameterError(message.decode())
        c.set_print(c.print_null)
        c.srand(run.seed)
        for i in range(folds.n_folds):
            sub = problem.subset(folds.train(i))
            model = c.train(sub.address, _address(param))
            try:
                for row in folds.test(i):
                    target[row] = c.predict(model, int(problem.rows[row]))
            finally:
                c.free_model(_pointer_to(model))
    del kept
    return replace(
        run,
        y_pred=target,
        decision_values=None,
        probabilities=None,
        scores=None,
        params=params,
        configuration=params.flags(),
        repeat_results=(),
        repeats=(),
        provenance=None,
    )


def _pointer_to(model):
    import ctypes

    return ctypes.byref(model)

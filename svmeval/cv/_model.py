"""A trained LIBSVM model (:class:`Model`): training, prediction, saving; part of svmeval's one
place that knows LIBSVM (:mod:`svmeval.cv._libsvm`, which exports it)."""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import byref, c_int, c_long, c_void_p

import numpy as np

from svmeval.cv import _kernel, bounded_waits, schedule
from svmeval.cv._libsvm import Parameter, Problem, _c, set_omp_threads
from svmeval.errors import SvmevalError
from svmeval.io import output
from svmeval.params import C_SVC, NU_SVC, SvmParams

#: rows predicted per call of :func:`_predict_rows` (a cancelled run stops between calls)
PREDICT_ROWS = 1024

_predict_rows = ctypes.CDLL(_kernel.__file__).svmeval_predict_rows
_predict_rows.restype = None
_predict_rows.argtypes = [c_void_p, c_void_p, c_void_p, c_long, c_void_p, c_long, c_void_p]


class Model:
    """A trained LIBSVM model; frees itself. Holds its problem, whose rows its SVs point into."""

    def __init__(self, problem: Problem, params: SvmParams):
        self._problem = problem
        self._param = Parameter(params)
        self.params = params
        c = self._lib = _c()
        self._ptr = c.train(problem.address, self._param.address)
        if not self._ptr:  # pragma: no cover - LIBSVM returns NULL only on allocation failure
            raise SvmevalError("LIBSVM could not train a model (out of memory?)")
        schedule.check_cancelled()  # an interrupted run's fold goes no further
        self.nr_class = c.get_nr_class(self._ptr)
        labels = (c_int * max(self.nr_class, 1))()
        c.get_labels(self._ptr, labels)
        #: the model's class labels in LIBSVM's order (classification models only)
        self.labels = np.array(labels[: self.nr_class], dtype=np.float64)

    def __del__(self):
        ptr = getattr(self, "_ptr", None)
        if ptr:
            self._lib.free_model(byref(c_void_p(ptr)))
            self._ptr = None

    @property
    def n_support_vectors(self) -> int:
        """The model's support vectors (every class's)."""
        return int(self._lib.get_nr_sv(self._ptr))

    @property
    def n_decision_values(self) -> int:
        k = self.nr_class
        return k * (k - 1) // 2 if self.params.svm_type in (C_SVC, NU_SVC) else 1

    def predict(self, rows: np.ndarray, *, probability: bool = False):
        """Predict rows (node addresses) as svm_predict does, keeping the decision values.

        Returns ``(labels, decision_values, probabilities)``; probabilities (in the model's
        label order) only with ``probability=True`` for C-SVC / nu-SVC, where the label is
        svm_predict_probability's, as in LIBSVM's cross-validation.
        """
        n = len(rows)
        pred = np.empty(n, dtype=np.float64)
        dec = np.empty((n, self.n_decision_values), dtype=np.float64)
        probs = np.empty((n, self.nr_class), dtype=np.float64) if probability else None
        model = self._ptr
        check_cancelled = schedule.check_cancelled
        if not probability:  # svm_predict_values row after row in C, PREDICT_ROWS at a time
            rows = np.ascontiguousarray(rows, dtype=np.uintp)
            width = dec.shape[1]
            for start in range(0, n, PREDICT_ROWS):
                check_cancelled()
                count = min(PREDICT_ROWS, n - start)
                _predict_rows(
                    self._lib.predict_values_address,
                    model,
                    rows.ctypes.data + start * rows.itemsize,
                    count,
                    dec.ctypes.data + start * width * dec.itemsize,
                    width,
                    pred.ctypes.data + start * pred.itemsize,
                )
            check_cancelled()
            return pred, dec, probs
        predict_values, predict_probability = (
            self._lib.predict_values,
            self._lib.predict_probability,
        )
        for i, row in enumerate(rows.tolist()):
            if not i & 1023:
                check_cancelled()
            label = predict_values(model, row, dec[i].ctypes.data)
            if probs is not None:  # probability
                label = predict_probability(model, row, probs[i].ctypes.data)
            pred[i] = label
        check_cancelled()
        return pred, dec, probs

    def predict_parallel(self, rows: np.ndarray, threads: int, *, probability: bool = False):
        """:meth:`predict` on one OpenMP thread, the rows split among ``threads`` threads
        (each row's result is the same whichever thread predicts it)."""
        if threads <= 1 or len(rows) < 2 * threads:
            set_omp_threads(1)
            return self.predict(rows, probability=probability)
        chunks = np.array_split(np.arange(len(rows)), threads)
        parts: list = [None] * len(chunks)
        token = schedule.current_token()
        errors = []

        def work(k):
            schedule.bind_token(token)  # cancelled with the task that started it
            try:
                set_omp_threads(1)
                parts[k] = self.predict(rows[chunks[k]], probability=probability)
            except BaseException as exc:  # raised in the task's own thread, below
                errors.append(exc)

        workers = [threading.Thread(target=work, args=(k,)) for k in range(1, len(chunks))]
        for t in workers:
            t.start()
        work(0)
        for t in workers:
            bounded_waits.join(t)
        if errors:
            raise errors[0]
        pred = np.concatenate([p[0] for p in parts])
        dec = np.concatenate([p[1] for p in parts])
        probs = np.concatenate([p[2] for p in parts]) if probability else None
        return pred, dec, probs

    def save(self, path: str) -> None:
        """Write the model as svm-train does, atomically (a temporary file, then rename)."""
        with output.atomic_path(path, "the model file") as tmp:
            if self._lib.save_model(os.fsencode(tmp), self._ptr) != 0:
                raise SvmevalError(f"{path}: cannot save model file")

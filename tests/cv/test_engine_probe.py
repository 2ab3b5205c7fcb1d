"""A cross-validation that measures its first training and switches the tasks not yet started
to a shared kernel where that pays (svmeval.cv.run.probe): whatever it decides, every result is
LIBSVM's own svm_cross_validation's (the oracle, run in the test) and bit-identical to training
every fold on the features."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from test_engine_shared import FIELDS, params_of, same

from svmeval.cv.engine import run_cv as cross_validate
from svmeval.cv.run import kernel as shared_kernel
from svmeval.cv.run import probe
from svmeval.io.data import read_dataset
from svmeval.params import PRECOMPUTED, SvmParams

from conftest import data_set, libsvm_cv, shared_file

pytest.importorskip("libsvm.svm")


@pytest.fixture
def trainings(monkeypatch):
    """What each task that asked the probe trained on: True (the shared kernel) or False."""
    seen: list = []
    lock = threading.Lock()
    start = probe.KernelProbe.start

    def recorded(self, rows):
        shared = start(self, rows)
        with lock:
            seen.append(shared)
        return shared

    monkeypatch.setattr(probe.KernelProbe, "start", recorded)
    return seen


def sparse_file(directory, kind: str):
    """900 rows of 120 sparse features (about 15 stored a row: a lookup is cheaper than a
    kernel value, and the run is too large to stay on the calling thread, so it probes),
    labelled by a noisy rule: two classes, three classes or a real target. Written here, so
    the test runs with or without ../shared."""
    rng = np.random.default_rng({"two": 1, "three": 2, "real": 3}[kind])
    n, d = 900, 120
    lines, w = [], rng.normal(size=d + 1)
    for _ in range(n):
        idx = np.sort(rng.choice(np.arange(1, d + 1), size=int(rng.integers(8, 23)), replace=False))
        val = rng.integers(1, 5, size=len(idx)) / 4.0
        score = float(w[idx] @ val) + rng.normal()
        label = (
            (1 if score > 0 else -1)
            if kind == "two"
            else (int(np.digitize(score, [-1.0, 1.0])) + 1)
            if kind == "three"
            else round(score, 3)
        )
        lines.append(" ".join([str(label)] + [f"{i}:{v:g}" for i, v in zip(idx, val)]))
    path = directory / f"sparse_{kind}"
    path.write_text("\n".join(lines) + "\n")
    return path


CASES = [
    ("three", "-c 8 -g 0.03", 5),  # three classes: pair tasks, some on each side
    ("three", "-c 2 -w1 3 -w3 0.5", 5),  # weighted pairs
    ("two", "-c 2", 5),  # two classes
    ("two", "-s 1 -n 0.3 -t 1 -d 2 -g 0.1 -r 1", 5),  # nu-SVC, polynomial
    ("two", "-t 3 -g 0.01 -r -0.5", 4),  # sigmoid
    ("real", "-s 3 -c 2 -p 0.5", 4),  # epsilon-SVR
    ("real", "-s 4 -c 2 -n 0.4 -t 0", 4),  # nu-SVR, linear
]


@pytest.mark.parametrize("kind,options,k", CASES, ids=[f"{c[0]} {c[1]}" for c in CASES])
def test_switched_runs_equal_libsvm_and_the_features(
    kind, options, k, monkeypatch, trainings, built, tmp_path
):
    path = sparse_file(tmp_path, kind)
    ds = read_dataset(path)
    monkeypatch.setattr(probe, "switch_pays", lambda *args: True)  # every probe switches
    switched = cross_validate(ds, params_of(options), k, jobs=2, keep_decision_values=True)
    # the first training(s) on the features, the rest on the one kernel built
    assert False in trainings and True in trainings, trainings
    assert len(built) == 1
    assert np.array_equal(switched.y_pred, libsvm_cv(path, options, k))
    normal = cross_validate(ds, params_of(options), k, share=False, keep_decision_values=True)
    for field in FIELDS:
        assert same(getattr(switched, field), getattr(normal, field)), field
    assert switched.params == normal.params and switched.params.kernel_type != PRECOMPUTED
    assert len(built) == 1  # share=False: no probe, no kernel


def first_rows(name: str, rows: int | None, directory):
    """The first ``rows`` rows of a data set of ../shared (the test skips without it: the
    decision turns on the real data's support vectors)."""
    path = shared_file("data", name)
    if rows is None:
        return path
    out = directory / f"{name}.head{rows}"
    out.write_text("\n".join(path.read_text().splitlines()[:rows]) + "\n")
    return out


def test_the_first_training_decides_once(monkeypatch, trainings, built, tmp_path):
    """The real cost model on two sets measured (docs/performance.md): dna, whose trainings
    keep over half their rows as support vectors, switches (a shared kernel from the start took
    0.15x the time on the features); mushrooms' first 4,000 rows (8% support vectors) do not
    (2.1x)."""
    asked = []
    pays = probe.switch_pays

    def recorded(*args):
        asked.append(pays(*args))
        return asked[-1]

    monkeypatch.setattr(probe, "switch_pays", recorded)
    dna = first_rows("dna.scale", None, tmp_path)
    result = cross_validate(read_dataset(dna), SvmParams(), 5, jobs=2)
    assert asked == [True] and len(built) == 1 and True in trainings
    assert np.array_equal(result.y_pred, libsvm_cv(dna, "", 5))
    trainings.clear()
    mushrooms = first_rows("mushrooms", 4000, tmp_path)
    result = cross_validate(read_dataset(mushrooms), SvmParams(), 5, jobs=2)
    assert asked == [True, False] and len(built) == 1 and not any(trainings)
    assert np.array_equal(result.y_pred, libsvm_cv(mushrooms, "", 5))


def test_switch_pays_by_the_support_vectors_and_the_tasks_left():
    """More tasks left or more support vectors: more reason to switch; a kernel on few
    stored features a row pays later (its values are cheap)."""
    rbf = 2
    # dna's first pair: 759 rows, 352 support vectors, 13 tasks of ~1,070 rows left
    assert probe.switch_pays(2000, 45.6, 180, rbf, 1.4 * 352 / 759, 13 * 1070.0**2)
    assert not probe.switch_pays(2000, 45.6, 180, rbf, 1.4 * 352 / 759, 1 * 1070.0**2)
    # mushrooms' first fold: 4,000 rows, 330 support vectors, 3 folds left
    assert not probe.switch_pays(5000, 21.0, 112, rbf, 1.4 * 330 / 4000, 3 * 4000.0**2)
    # monotone in the fraction: False up to a point, True from there on
    says = [probe.switch_pays(2000, 14, 123, rbf, f, 8e6) for f in np.linspace(0.01, 1, 100)]
    assert says == sorted(says) and says[0] is False and says[-1] is True


def test_no_probe_where_it_cannot_pay_or_apply(monkeypatch, built):
    """probe_params: a group stays on the features with -b 1, an already precomputed kernel,
    share given, a kernel over the memory budget, few dense features, a small run, or units
    of different kernels."""

    class U:
        def __init__(self, options):
            self.params = params_of(options)

    rbf = [U("-g 0.01")]
    args = dict(n_rows=2000, nonzeros=2000 * 46, n_features=180, memory_mb=2048.0, small=False)
    assert probe.probe_params(units=rbf, share=None, **args) == rbf[0].params
    assert probe.probe_params(units=rbf, share=False, **args) is None
    assert probe.probe_params(units=rbf, share=True, **args) is None
    assert probe.probe_params(units=[U("-b 1")], share=None, **args) is None
    assert probe.probe_params(units=[U("-t 4")], share=None, **args) is None
    assert probe.probe_params(units=rbf + [U("-g 0.02")], share=None, **args) is None
    assert probe.probe_params(units=rbf + [U("-g 0.01 -c 4")], share=None, **args) is not None
    assert probe.probe_params(units=rbf, share=None, **{**args, "small": True}) is None
    assert probe.probe_params(units=rbf, share=None, **{**args, "memory_mb": 100.0}) is None
    # nor over a quarter of the memory available (dna's two matrices: 122 MB)
    real = probe.available_memory
    assert 2**20 < real() < float("inf")
    nbytes = shared_kernel.matrix_bytes(2000, rbf[0].params.kernel_type)
    monkeypatch.setattr(probe, "available_memory", lambda: 4.0 * nbytes - 4)
    assert probe.probe_params(units=rbf, share=None, **args) is None
    monkeypatch.setattr(probe, "available_memory", lambda: 4.0 * nbytes)
    assert probe.probe_params(units=rbf, share=None, **args) is not None
    monkeypatch.setattr(probe, "available_memory", real)
    dense = {**args, "n_rows": 4435, "nonzeros": 4435 * 36, "n_features": 36}  # satimage
    assert probe.probe_params(units=rbf, share=None, **dense) is None
    # end to end: a small run (heart_scale -v 5) builds no kernel, whatever the switch says
    monkeypatch.setattr(probe, "switch_pays", lambda *args: True)
    path = data_set("heart_scale")
    result = cross_validate(read_dataset(path), SvmParams(), 5, jobs=2)
    assert not built and np.array_equal(result.y_pred, libsvm_cv(path, "", 5))
    assert shared_kernel.lookup_pays(2000, 46, 180, rbf[0].params.kernel_type)

#!/usr/bin/env python3
"""Every single-label figure of many predictions: svmeval.metrics.evaluate beside scikit-learn's
classification_report on the same input, in one process, with the results checked equal; then
the scikit-learn-named functions (f1_score) beside scikit-learn's on the inputs scikit-learn's
contract covers: plain labels, with sample_weight, string labels, and a 2-D label indicator
matrix (N/20 samples x 20 labels, average="samples"), each checked equal to 1e-12.

Input: N predictions of K classes (labels 1..K, int64; with --float-labels float64 as LIBSVM gives
them, which scikit-learn handles several times slower); the prediction is the true label for 80%
of the samples and a uniformly drawn label otherwise. Each contender
runs REPEAT times; the script prints the median wall and CPU time and the ratios.

Usage: python scripts/bench_metrics.py [--n N] [--classes K] [--repeat R] [--float-labels]
                                       [--only-contract]
       (defaults: 10,000,000 predictions, 100 classes, 5 runs; needs scikit-learn)
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
import sklearn.metrics as sk
from sklearn.metrics import classification_report

from svmeval import metrics


def timed(fn, repeat: int):
    """fn's result, and the median wall and median CPU seconds of ``repeat`` calls (on a shared
    machine the CPU time of this process is the steadier of the two)."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return out, statistics.median(walls), statistics.median(cpus)


def check_equal(ours, theirs, labels) -> None:
    """Per-class precision, recall, F1 and support, macro and weighted averages and accuracy."""
    for i, label in enumerate(labels):
        row = theirs[str(label)]
        for key, ours_values in (
            ("precision", ours.precision),
            ("recall", ours.recall),
            ("f1-score", ours.f1),
        ):
            assert abs(ours_values[i] - row[key]) <= 1e-12, (label, key)
        assert ours.support[i] == row["support"], (label, "support")
    for ours_name, their_name in (("macro", "macro avg"), ("weighted", "weighted avg")):
        avg, row = ours.averages[ours_name], theirs[their_name]
        for key, value in (
            ("precision", avg.precision),
            ("recall", avg.recall),
            ("f1-score", avg.f1),
        ):
            assert abs(value - row[key]) <= 1e-12, (ours_name, key)
    assert abs(ours.accuracy - theirs["accuracy"]) <= 1e-15


def contract_inputs(y_true, y_pred, classes: int, rng):
    """(name, args, keyword arguments) of each f1_score case."""
    weight = rng.random(y_true.size)
    names = np.array([f"class-{k:04d}" for k in range(classes + 1)])
    width = 20
    rows = y_true.size // width
    Y = (rng.random((rows, width)) < 0.3).astype(np.int64)
    Y_pred = np.where(rng.random(Y.shape) < 0.8, Y, 1 - Y)
    return [
        ("plain labels, macro", (y_true, y_pred), {"average": "macro"}),
        (
            "sample_weight, weighted",
            (y_true, y_pred),
            {"average": "weighted", "sample_weight": weight},
        ),
        (
            "string labels, macro",
            (names[y_true.astype(np.int64)], names[y_pred.astype(np.int64)]),
            {"average": "macro"},
        ),
        (f"indicator {rows:,} x {width}, samples", (Y, Y_pred), {"average": "samples"}),
    ]


def contract(y_true, y_pred, classes: int, repeat: int, rng) -> None:
    """svmeval.metrics.f1_score beside sklearn.metrics.f1_score on each contract input."""
    print(
        f"\nf1_score on the inputs of scikit-learn's contract, {repeat} runs each: median "
        "wall seconds"
    )
    print(f"{'':42}{'svmeval':>9}{'sklearn':>9}{'ratio':>8}")
    for name, args, kwargs in contract_inputs(y_true, y_pred, classes, rng):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # both warn alike where a ratio is 0/0
            ours, ours_wall, _ = timed(lambda: metrics.f1_score(*args, **kwargs), repeat)
            theirs, skl_wall, _ = timed(lambda: sk.f1_score(*args, **kwargs), repeat)
        assert abs(ours - theirs) <= 1e-12, (name, ours, theirs)
        print(f"{name:42}{ours_wall:9.3f}{skl_wall:9.3f}{skl_wall / ours_wall:7.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--classes", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--float-labels", action="store_true", help="float64 labels instead of int64")
    ap.add_argument(
        "--only-contract",
        action="store_true",
        help="only the f1_score cases, not evaluate beside classification_report",
    )
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    y_true = rng.integers(1, args.classes + 1, args.n)
    y_pred = np.where(rng.random(args.n) < 0.8, y_true, rng.integers(1, args.classes + 1, args.n))
    if args.float_labels:
        y_true, y_pred = y_true.astype(np.float64), y_pred.astype(np.float64)

    if not args.only_contract:
        report(y_true, y_pred, args)
    contract(y_true, y_pred, args.classes, args.repeat, rng)


def report(y_true, y_pred, args) -> None:
    """evaluate beside classification_report."""
    ours, ours_wall, ours_cpu = timed(lambda: metrics.evaluate(y_true, y_pred), args.repeat)
    theirs, skl_wall, skl_cpu = timed(
        lambda: classification_report(y_true, y_pred, output_dict=True, zero_division=0),
        args.repeat,
    )
    check_equal(ours, theirs, np.unique(y_true))

    kind = "float64" if args.float_labels else "int64"
    print(
        f"{args.n:,} predictions, {args.classes} classes ({kind} labels), "
        f"{args.repeat} runs each: median seconds"
    )
    print(f"{'':38}{'wall':>8}{'CPU':>8}")
    print(f"{'svmeval metrics.evaluate':38}{ours_wall:8.3f}{ours_cpu:8.3f}")
    print(f"{'scikit-learn classification_report':38}{skl_wall:8.3f}{skl_cpu:8.3f}")
    print(
        f"ratio scikit-learn / svmeval: wall {skl_wall / ours_wall:.1f}x, CPU "
        f"{skl_cpu / ours_cpu:.1f}x; results equal (per class, macro, weighted, accuracy)"
    )


if __name__ == "__main__":
    main()

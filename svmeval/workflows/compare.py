"""Is B really better than A? Two LIBSVM configurations on the same repeated cross-validation.

``compare(dataset, params_a, params_b, nr_fold=10, repeat=10, criterion=...)`` runs R
repetitions of k-fold cross-validation of both configurations on the same seeded folds (seeds
``seed`` .. , as :func:`svmeval.cv.cross_validate`), takes the chosen figure of every fold, and
tests the R x k paired differences B - A with the corrected resampled t-test (Nadeau & Bengio
2003; Bouckaert & Frank 2004), the plain paired t-test beside it (optimistic), and McNemar's
test on the pooled predictions of the first repetition (classification).

The command line, ``svmeval-compare``, is :mod:`svmeval.cli.compare`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval.errors import SvmevalError, show_path
from svmeval.stats.significance import (
    McNemarResult,
    TTestResult,
    corrected_resampled_ttest,
    mcnemar,
)

__all__ = ["Comparison", "compare", "mcnemar_files"]


@dataclass(frozen=True, eq=False)
class Comparison:
    """Two configurations on the same folds.

    ``criterion``: the registry name of the figure; ``greater_is_better`` its direction;
    ``folds_a`` / ``folds_b``: its value on each of the R x k folds (repetition-major);
    ``ttest``: the :class:`~svmeval.stats.significance.TTestResult` of B - A (folds where
    either value is undefined left out; ``n_undefined`` counts them); ``mcnemar``: McNemar's
    test on the first repetition's pooled predictions (None for regression); ``bayesian``:
    with a rope, the Bayesian correlated t-test of B - A
    (:func:`~svmeval.stats.bayesian.correlated_ttest`, rho = 1/k), else None.
    """

    data_name: str
    criterion: str
    greater_is_better: bool
    n_folds: int
    repeat: int
    seeds: tuple
    n_samples: int
    options_a: str
    options_b: str
    folds_a: np.ndarray
    folds_b: np.ndarray
    n_undefined: int
    ttest: TTestResult
    mcnemar: McNemarResult | None
    bayesian: object = None  # BayesianResult of B - A with a rope (compare(..., rope=R))

    @property
    def mean_a(self) -> float:
        return float(np.nanmean(self.folds_a))

    @property
    def mean_b(self) -> float:
        return float(np.nanmean(self.folds_b))

    @property
    def sd_a(self) -> float:
        return float(np.nanstd(self.folds_a, ddof=1))

    @property
    def sd_b(self) -> float:
        return float(np.nanstd(self.folds_b, ddof=1))

    def to_dict(self) -> dict:
        """The JSON report's object (plain JSON types)."""
        from svmeval.report.compare import comparison_object
        return comparison_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (data set, configuration, repetition, fold)."""
        from svmeval.report.frames import comparison_frame
        return comparison_frame(self)


def _runs(dataset, params_a, params_b, nr_fold, seeds, jobs, client) -> tuple:
    """A's and B's cross-validations on every seed's folds (the evaluation core's 2
    candidates x R seeds): two lists of CV results, repetition-major."""
    from svmeval.cv.engine import prepare
    from svmeval.cv.evaluate import evaluate
    from svmeval.cv.executors import executor_for

    problem, params_a = prepare(dataset, params_a)
    _, params_b = prepare(dataset, params_b, problem=problem)
    runs: tuple = ([None] * len(seeds), [None] * len(seeds))

    def finish(unit, result) -> None:
        runs[unit.candidate][unit.repetition] = result

    with executor_for(jobs, client) as executor:
        evaluate(dataset, problem, [params_a, params_b], seeds, nr_fold, executor=executor,
                 finish=finish)
    return runs


def _fold_values(runs, criterion, pos_label, zero_division) -> np.ndarray:
    from svmeval.summary import summarize
    values = []
    for run in runs:
        summary = summarize(run, pos_label=pos_label, zero_division=zero_division)
        values.extend(f.get(criterion, math.nan) for f in summary.fold_figures)
    return np.array(values, dtype=np.float64)


def compare(dataset, params_a, params_b, nr_fold: int = 10, *, repeat: int = 10, seed: int = 1,
            criterion: str | None = None, pos_label=None, zero_division=0.0,
            confidence: float = 0.95, options_a: str = "", options_b: str = "",
            rope: float | None = None, jobs: int | None = None, client=None) -> Comparison:
    """Compare two LIBSVM configurations on the same repeated cross-validation: fold j of
    repetition r holds the same samples for A and B (the tests: see the module's notes).

    Parameters
    ----------
    dataset : Dataset or str
        Single-label data (a file name is read first).
    params_a, params_b : SvmParams or None
        The two configurations (None: svm-train's defaults); both classifiers or both
        regressions.
    nr_fold : int, default 10
        k of each cross-validation (at least 2); more folds than rows is leave-one-out, and
        the comparison records the folds drawn.
    repeat : int, default 10
        R repetitions with seeds ``seed``, ... (as :func:`svmeval.cv.cross_validate`).
    seed : int, default 1
        The first repetition's C ``srand`` seed (0 to 2**32 - 1).
    criterion : str, optional
        The figure compared, a registry name that fits the data (default accuracy, mse for
        -s 3 / -s 4).
    pos_label, zero_division
        As for :func:`svmeval.summarize`.
    confidence : float, default 0.95
        Level of the confidence interval of the difference (between 0 and 1).
    options_a, options_b : str
        How to show A and B in reports.
    rope : float, optional
        Half-width of the rope (figure's units): adds the Bayesian correlated t-test of B - A.
    jobs : int, optional
        Folds trained at once here (default: the cores); results identical for every value.
    client : distributed.Client or str, optional
        A Dask client or address (``tcp://host:8786``, ``local[:N]``): the folds run as tasks
        on that cluster, with the same results as here.

    Returns
    -------
    Comparison
    """
    from svmeval.cv import checks, engine

    nr_fold, repeat, seed = (checks.check_folds(nr_fold), checks.check_repeat(repeat),
                             checks.check_seed(seed))
    checks.check_confidence(confidence)
    checks.check_execution(jobs, client)
    dataset = checks.as_dataset(dataset)
    params_a, params_b = (checks.as_params(p, n) for p, n in ((params_a, "params_a"),
                                                              (params_b, "params_b")))
    checks.single_label(dataset, "a comparison")
    figure = checks.check_criterion(criterion or checks.default_criterion(params_a),
                                    checks.common_kind(dataset.y, (params_a, params_b)))
    _check_rope_and_label(rope, dataset, params_a, pos_label)
    runs_a, runs_b = _runs(dataset, params_a, params_b, nr_fold,
                           engine.repetition_seeds(seed, repeat), jobs, client)
    return _comparison(runs_a, runs_b, figure, pos_label=pos_label, zero_division=zero_division,
                       confidence=confidence, data_name=getattr(dataset, "name", ""),
                       options_a=options_a, options_b=options_b, rope=rope)


def _check_rope(rope) -> None:
    if rope is not None and not (isinstance(rope, (int, float)) and 0 <= rope < math.inf):
        raise SvmevalError(f"rope must be a finite number >= 0, got {rope!r}")


def _check_rope_and_label(rope, dataset, params, pos_label) -> None:
    """The rope, and pos_label against a classifier's labels: before any work, not when the
    folds are summarized."""
    _check_rope(rope)
    if params.is_classification:
        from svmeval.summary.single import check_pos_label
        check_pos_label(dataset.y, pos_label)


def _comparison(runs_a: list, runs_b: list, figure, *, pos_label, zero_division, confidence,
                data_name: str, options_a: str, options_b: str,
                rope: float | None = None) -> Comparison:
    """The tests of B - A on the figure of every fold of A's and B's runs (same folds)."""
    criterion = figure.name
    folds_a = _fold_values(runs_a, criterion, pos_label, zero_division)
    folds_b = _fold_values(runs_b, criterion, pos_label, zero_division)
    defined = ~(np.isnan(folds_a) | np.isnan(folds_b))
    if np.count_nonzero(defined) < 2:
        raise SvmevalError(f"{criterion} is undefined on all but {np.count_nonzero(defined)} "
                           "folds: choose another criterion")
    first = runs_a[0]
    n_folds = first.n_folds  # the folds drawn: leave-one-out when nr_fold exceeds the rows
    sizes = np.bincount(first.fold, minlength=n_folds)
    n = len(first.y_true)
    ratio = float(sizes.mean() / (n - sizes.mean()))  # n_test / n_train = 1 / (k - 1)
    ttest = corrected_resampled_ttest(folds_b[defined] - folds_a[defined], ratio,
                                      confidence=confidence)
    test = None
    if not first.params.is_regression:
        test = mcnemar(first.y_true, first.y_pred, runs_b[0].y_pred)
    bayesian = None
    if rope is not None:
        from svmeval.stats.bayesian import correlated_ttest
        bayesian = correlated_ttest(folds_b[defined] - folds_a[defined], n_folds,
                                    rope=float(rope))
    return Comparison(data_name=data_name, criterion=criterion,
                      greater_is_better=figure.greater_is_better, n_folds=n_folds,
                      repeat=len(runs_a), seeds=tuple(r.seed for r in runs_a), n_samples=n,
                      options_a=options_a, options_b=options_b, folds_a=folds_a,
                      folds_b=folds_b, n_undefined=int(np.count_nonzero(~defined)),
                      ttest=ttest, mcnemar=test, bayesian=bayesian)


def mcnemar_files(pred_a: str, pred_b: str, data_file: str) -> McNemarResult:
    """McNemar's test of two predictions files (svm-predict's format) of ``data_file``."""
    from svmeval.io import read_dataset
    from svmeval.io.predictions import read_predictions
    dataset = read_dataset(data_file)
    if dataset.y is None:
        raise SvmevalError(f"{data_file}: multi-label data: McNemar's test needs one label a "
                           "sample")
    a = read_predictions(pred_a, expected=dataset.n_samples)
    b = read_predictions(pred_b, expected=dataset.n_samples)
    for path, values in ((pred_a, a), (pred_b, b)):
        if not np.all(values == np.trunc(values)):
            raise SvmevalError(f"{show_path(path)}: predictions are not class labels (not "
                               "integers): McNemar's test compares two classifiers")
    return mcnemar(dataset.y, a, b)


if __name__ == "__main__":  # python -m svmeval.workflows.compare: as svmeval-compare runs it (this file
    # runs as __main__; the command uses the module svmeval.workflows.compare, whose types render() knows)
    from svmeval._entry import compare_main

    compare_main()

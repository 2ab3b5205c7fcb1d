"""Is B really better than A? Two LIBSVM configurations on the same repeated cross-validation.

``compare(dataset, params_a, params_b, folds=10, repeat=10, criterion=...)`` runs R
repetitions of k-fold cross-validation of both configurations on the same seeded folds (seeds
``seed`` .. , as :func:`svmeval.cv.cross_validate`), takes the chosen figure of every fold, and
tests the R x k paired differences B - A with the corrected resampled t-test (Nadeau & Bengio
2003; Bouckaert & Frank 2004), the plain paired t-test beside it (optimistic), and McNemar's
test on the pooled predictions of the first repetition (classification).

The command line, ``svmeval-compare``, is :mod:`svmeval.cli.compare`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, cast

import numpy as np

from svmeval import _tables as tables
from svmeval._args import checked
from svmeval._classes import class_code
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance, recorded
from svmeval.cv.plan.given import FoldAssignment, fold_source
from svmeval.errors import ArgumentError, SvmevalError
from svmeval.io.data import DataSource
from svmeval.params import Configuration, LinearParams
from svmeval.preprocess import ScaleLike
from svmeval.stats.significance import (
    McNemarResult,
    TTestResult,
    corrected_resampled_ttest,
    mcnemar,
)
from svmeval.store import StoreLike
from svmeval.workflows.compare_linear import linear_runs, shown
from svmeval.workflows.mcnemar import mcnemar_files
from svmeval.workflows.verdict import Verdict, comparison_verdict

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

    Examples
    --------
    >>> from svmeval import compare
    >>> c = compare("data/wine.scale", "-c 1", "-t 0", folds=3, repeat=2)
    >>> c.options_a, c.options_b, c.folds_a.shape
    ('-c 1', '-t 0', (6,))
    >>> sorted(c.to_dict())[:3]
    ['a', 'b', 'corrected_ttest']
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.compare:COMPARISON"

    __repr__ = brief_repr

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
    fold_sizes: tuple = ()  # each fold's test samples, repetition-major as folds_a
    #: where the folds came from when they are not LIBSVM's: "grouped (N groups)" or "given"
    fold_source: str = ""
    #: what each fold learned on its training rows for both configurations ("": nothing)
    preprocessing: str = ""
    provenance: Provenance | None = field(default=None, repr=False)  # how it was made

    @property
    def verdict(self) -> Verdict:
        """What the comparison concludes: B - A by the corrected resampled t-test at 1 - the
        confidence level; ``test``, ``p``, ``level``, ``significant``, ``difference``,
        ``better`` ("A", "B" or None) and ``text``, the sentence the report ends with."""
        return comparison_verdict(self)

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
        """The JSON report's object (plain JSON types, undefined values None)."""
        return _comparison_object(self)

    def to_frame(self):
        """A pandas DataFrame, one row per (configuration, repetition, fold): ``dataset``,
        ``configuration`` ("A" or "B"), ``options``, ``repetition``, ``seed``, ``fold``,
        ``n_test``, then the criterion's value on that fold."""
        per = len(self.folds_a) // self.repeat
        rows = []
        for name, options, values in (
            ("A", self.options_a, self.folds_a),
            ("B", self.options_b, self.folds_b),
        ):
            for i, value in enumerate(values):
                rows.append(
                    {
                        "dataset": self.data_name,
                        "configuration": name,
                        "options": options,
                        "repetition": i // per,
                        "seed": self.seeds[i // per],
                        "fold": i % per,
                        "n_test": int(self.fold_sizes[i]) if self.fold_sizes else None,
                        self.criterion: float(value),
                    }
                )
        return tables.frame(rows)


def _fold_values(runs, criterion, pos_label, zero_division) -> np.ndarray:
    """The criterion on every fold of the runs, repetition-major (what each run's summary gives
    it, computed alone)."""
    from svmeval.summary.single import fold_values

    values = [
        fold_values(r, criterion, pos_label=pos_label, zero_division=zero_division) for r in runs
    ]
    return np.concatenate(values) if values else np.array([], dtype=np.float64)


@recorded
@checked
def compare(
    data: DataSource,
    a: Configuration,
    b: Configuration,
    folds: int = 10,
    *,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    repeat: int = 10,
    seed: int = 1,
    criterion: str | None = None,
    confidence_level: float = 0.95,
    rope: float | None = None,
    pos_label: float | None = None,
    zero_division: float | str = 0.0,
    jobs: int | None = None,
    client=None,
    progress: Callable[[int, int], None] | None = None,
    store: StoreLike | None = None,
    scale: ScaleLike = None,
    select: int | None = None,
) -> Comparison:
    """Compare two LIBSVM configurations on one data set, on the same repeated folds.

    Fold j of repetition r holds the same samples for A and B (LIBSVM's folds after
    ``srand(seed + r)``), so the per-fold differences are paired: the corrected resampled
    t-test (Nadeau and Bengio 2003) of B - A, the plain paired t-test beside it, McNemar's
    test on the first repetition's predictions, and with a rope the Bayesian correlated
    t-test (Benavoli et al. 2017). The default 10 x 10 folds are the protocol the corrected
    test was calibrated for (Bouckaert and Frank 2004).

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The data (a file name is read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them); one label a sample.
    a, b : SvmParams or str or None
        The two configurations: :class:`SvmParams` or svm-train's options
        (``"-c 8 -g 0.05"``); None is svm-train's defaults. Both classifiers or both
        regressions.
    folds : int, default 10
        k of each cross-validation; more folds than samples is leave-one-out. With
        ``groups``: k folds of whole groups (each repetition assigns them with its seed).
    groups, given_folds : optional
        Folds that keep each group whole, or the folds given, as :func:`cross_validate`
        takes them (A and B on the same folds). Given folds need ``repeat=1``.
    repeat : int, default 10
        R repetitions, with seeds ``seed``, ``seed + 1``, ...
    seed : int, default 1
        The first repetition's C ``srand`` seed (0 to 2**32 - 1).
    criterion : str, optional
        The figure compared, a name of :data:`svmeval.metrics.FIGURES` that fits the data
        (default accuracy; mse for regression).
    confidence_level : float, default 0.95
        The level of the confidence interval of B - A (between 0 and 1).
    rope : float, optional
        Half-width of the region of practical equivalence, in the figure's units: adds the
        Bayesian correlated t-test of B - A.
    pos_label, zero_division
        As :func:`summarize` takes them.
    jobs : int, optional
        Folds trained at once on this machine (default: the cores); results identical.
    client : distributed.Client or str, optional
        A Dask client or a scheduler's address: the folds run on that cluster.
    progress : callable, optional
        ``progress(done, total)`` as folds end.

    store : str or os.PathLike or Store, optional
        A results store (:func:`svmeval.open_store`; a file name is opened, and created if
        missing): every fold it holds is taken from it, the others are computed and written
        to it one by one as they end. The result is the same as without a store.
    scale, select : optional
        Preprocessing learned inside each fold, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features): A's and B's folds alike are
        preprocessed on their own training rows, on the same folds
        (:doc:`/guide/preprocessing`).

    Returns
    -------
    Comparison
        Both configurations' value on every fold and the tests of B - A.

    See Also
    --------
    benchmark : many configurations over many data sets.

    Examples
    --------
    >>> from svmeval import compare
    >>> c = compare("data/breast_cancer.scale", "-c 1", "-c 8 -g 0.5", folds=5, repeat=2)
    >>> c.criterion, len(c.folds_a), c.options_b
    ('accuracy', 10, '-c 8 -g 0.5')
    >>> round(c.mean_a, 4), round(c.ttest.p, 4)
    (0.9613, 0.2254)
    """
    from svmeval.cv.run.store_session import opened

    with opened(store, "compare", (compare, dict(locals()))):
        return _compare(
            data,
            a,
            b,
            folds,
            groups=groups,
            given_folds=given_folds,
            repeat=repeat,
            seed=seed,
            criterion=criterion,
            confidence_level=confidence_level,
            rope=rope,
            pos_label=pos_label,
            zero_division=zero_division,
            jobs=jobs,
            client=client,
            progress=progress,
            scale=scale,
            select=select,
        )


def _compare(
    data,
    a,
    b,
    folds,
    *,
    groups=None,
    given_folds=None,
    repeat,
    seed,
    criterion,
    confidence_level,
    rope,
    pos_label,
    zero_division,
    jobs,
    client,
    progress,
    scale=None,
    select=None,
) -> Comparison:
    from svmeval.cv import engine
    from svmeval.cv.plan import checks

    linear = [isinstance(p, LinearParams) for p in (a, b)]
    run = checks.check_run(
        folds,
        seed,
        repeat=repeat,
        confidence=confidence_level,
        jobs=jobs,
        client=client,
        criterion=criterion,
    )
    scaled = scale is not None and scale is not False
    if any(linear) and (scaled or select is not None):
        raise ArgumentError(
            "scale" if scaled else "select",
            "is learned inside LIBSVM's folds only: not with a LIBLINEAR configuration",
        )
    if any(linear):
        found = linear_runs(
            data,
            (a, b),
            run,
            groups=groups,
            given_folds=given_folds,
            criterion=criterion,
            pos_label=pos_label,
            jobs=jobs,
            client=client,
            progress=progress,
        )
        return _tests_of(found, zero_division, confidence_level, rope)
    dataset, (params_a, params_b) = checks.as_dataset_and_params(data, "a comparison", a=a, b=b)
    preprocessing = engine.preprocessing_of(scale, select, dataset, [params_a, params_b])
    pos_label = class_code(pos_label, dataset.classes)
    labels = cast(np.ndarray, dataset.y)  # one label a sample: the door refused others
    figure = checks.check_criterion(
        criterion or checks.default_criterion(params_a),
        checks.common_kind(labels, (params_a, params_b)),
        (params_a, params_b),
    )
    if params_a.is_classification:  # before any work, not when the folds are summarized
        checks.check_pos_label(labels, pos_label)
    source = fold_source(groups, given_folds, dataset.n_samples)
    if source is not None and not source.grouped and run.repeat != 1:
        raise ArgumentError(
            "repeat", "must be 1 with given_folds: every repetition would have the same folds"
        )
    runs_a, runs_b = engine.run_configurations(
        dataset,
        [params_a, params_b],
        run.folds,
        engine.repetition_seeds(run.seed, run.repeat),
        jobs,
        client,
        progress,
        source,
        preprocessing,
    )
    return _comparison(
        runs_a,
        runs_b,
        figure,
        pos_label=pos_label,
        zero_division=zero_division,
        confidence=confidence_level,
        data_name=getattr(dataset, "name", ""),
        options_a=shown(a, params_a),
        options_b=shown(b, params_b),
        rope=rope,
    )


def _tests_of(found, zero_division, confidence, rope) -> Comparison:
    """:func:`_comparison` of a :class:`~svmeval.workflows.compare_linear.LinearRuns`."""
    return _comparison(
        found.runs_a,
        found.runs_b,
        found.figure,
        pos_label=found.pos_label,
        zero_division=zero_division,
        confidence=confidence,
        data_name=found.data_name,
        options_a=found.options_a,
        options_b=found.options_b,
        rope=rope,
    )


def _comparison(
    runs_a: list,
    runs_b: list,
    figure,
    *,
    pos_label,
    zero_division,
    confidence,
    data_name: str,
    options_a: str,
    options_b: str,
    rope: float | None = None,
) -> Comparison:
    """The tests of B - A on the figure of every fold of A's and B's runs (same folds)."""
    criterion = figure.name
    folds_a = _fold_values(runs_a, criterion, pos_label, zero_division)
    folds_b = _fold_values(runs_b, criterion, pos_label, zero_division)
    defined = ~(np.isnan(folds_a) | np.isnan(folds_b))
    if np.count_nonzero(defined) < 2:
        raise SvmevalError(
            f"{criterion} is undefined on all but {np.count_nonzero(defined)} "
            "folds: choose another criterion"
        )
    first = runs_a[0]
    source = _fold_source(first)  # the folds' words, from the run before its tests
    n_folds = first.n_folds  # the folds drawn: leave-one-out when folds exceeds the rows
    sizes = np.bincount(first.fold, minlength=n_folds)
    n = len(first.y_true)
    ratio = float(sizes.mean() / (n - sizes.mean()))  # n_test / n_train = 1 / (k - 1)
    ttest = corrected_resampled_ttest(
        folds_b[defined] - folds_a[defined], ratio, confidence=confidence
    )
    test = None
    if not first.params.is_regression:
        test = mcnemar(first.y_true, first.y_pred, runs_b[0].y_pred)
    bayesian = None
    if rope is not None:
        from svmeval.stats.bayesian import correlated_ttest

        bayesian = correlated_ttest(folds_b[defined] - folds_a[defined], n_folds, rope=float(rope))
    return Comparison(
        data_name=data_name,
        criterion=criterion,
        greater_is_better=figure.greater_is_better,
        n_folds=n_folds,
        repeat=len(runs_a),
        seeds=tuple(r.seed for r in runs_a),
        n_samples=n,
        options_a=options_a,
        options_b=options_b,
        folds_a=folds_a,
        folds_b=folds_b,
        n_undefined=int(np.count_nonzero(~defined)),
        ttest=ttest,
        mcnemar=test,
        bayesian=bayesian,
        fold_sizes=tuple(
            int(v) for run in runs_a for v in np.bincount(run.fold, minlength=run.n_folds)
        ),
        fold_source=source,
        preprocessing=first.preprocessing,
    )


def _fold_source(run) -> str:
    """:attr:`Comparison.fold_source` of a run's folds."""
    source = getattr(run.folds, "source", None)
    if source is None:
        return ""
    return f"grouped ({source.n_groups} groups)" if source.grouped else "given"


def _comparison_object(c) -> dict:
    """A :class:`~svmeval.workflows.compare.Comparison` as the JSON report's object."""
    t = c.ttest
    return {
        "data_file": c.data_name,
        "criterion": c.criterion,
        "greater_is_better": c.greater_is_better,
        "n_folds": c.n_folds,
        "repeat": c.repeat,
        "seeds": list(c.seeds),
        "n_samples": c.n_samples,
        **({"fold_source": c.fold_source} if c.fold_source else {}),
        **({"preprocessing": c.preprocessing} if c.preprocessing else {}),
        "a": {
            "options": c.options_a,
            "mean": tables.finite(c.mean_a),
            "sd": tables.finite(c.sd_a),
            "folds": [tables.finite(float(v)) for v in c.folds_a],
        },
        "b": {
            "options": c.options_b,
            "mean": tables.finite(c.mean_b),
            "sd": tables.finite(c.sd_b),
            "folds": [tables.finite(float(v)) for v in c.folds_b],
        },
        "difference": {"mean": t.mean, "sd": t.sd, "n": t.n, "undefined_folds": c.n_undefined},
        "corrected_ttest": {
            "t": tables.finite(t.t),
            "df": t.df,
            "p": t.p,
            "test_train_ratio": t.test_train_ratio,
            "confidence": t.confidence,
            "ci": list(t.ci),
        },
        "uncorrected_ttest": {
            "t": tables.finite(t.t_uncorrected),
            "df": t.df,
            "p": t.p_uncorrected,
            "ci": list(t.ci_uncorrected),
            "optimistic": True,
        },
        "mcnemar": c.mcnemar.to_dict() if c.mcnemar is not None else None,
        "verdict": c.verdict.to_dict(),
        **(
            {}
            if c.bayesian is None
            else {
                "bayesian": {
                    "rope": c.bayesian.rope,
                    "p_left": c.bayesian.p_left,
                    "p_rope": c.bayesian.p_rope,
                    "p_right": c.bayesian.p_right,
                }
            }
        ),
    }

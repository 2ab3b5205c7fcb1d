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
from typing import ClassVar

import numpy as np

from svmeval import _tables as tables
from svmeval._args import checked
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance, recorded
from svmeval.cv.plan.given import FoldAssignment
from svmeval.io.data import DataSource
from svmeval.params import Configuration
from svmeval.preprocess import ScaleLike
from svmeval.stats.significance import McNemarResult, TTestResult
from svmeval.store import StoreLike
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
    from svmeval.cv.plan.checks import ComparisonArguments
    from svmeval.cv.run.store_session import opened

    arguments = ComparisonArguments(
        folds=folds,
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
    with opened(store, "compare", (compare, dict(locals()))):
        return _compare(data, a, b, arguments)


def _compare(data, a, b, arguments) -> Comparison:
    """The comparison of ``a`` and ``b`` on ``data`` (``arguments``: a
    :class:`~svmeval.cv.plan.checks.ComparisonArguments`): the runs from the evaluation
    core's door, the per-fold values and the tests of B - A from the summary's."""
    from svmeval.cv.comparison import comparison_runs
    from svmeval.summary.paired import paired_folds

    found = comparison_runs(data, a, b, arguments)
    paired = paired_folds(
        found.runs_a,
        found.runs_b,
        found.figure.name,
        pos_label=found.pos_label,
        zero_division=arguments.zero_division,
        confidence=arguments.confidence_level,
        rope=arguments.rope,
    )
    return Comparison(
        data_name=found.data_name,
        criterion=found.figure.name,
        greater_is_better=found.figure.greater_is_better,
        n_folds=paired.n_folds,
        repeat=len(found.runs_a),
        seeds=tuple(r.seed for r in found.runs_a),
        n_samples=paired.n_samples,
        options_a=found.options_a,
        options_b=found.options_b,
        folds_a=paired.folds_a,
        folds_b=paired.folds_b,
        n_undefined=paired.n_undefined,
        ttest=paired.ttest,
        mcnemar=paired.mcnemar,
        bayesian=paired.bayesian,
        fold_sizes=paired.fold_sizes,
        fold_source=paired.fold_source,
        preprocessing=paired.preprocessing,
    )


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

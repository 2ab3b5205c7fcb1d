"""The leak a preprocessing learned on the whole file adds: the same configuration
cross-validated twice on the same folds, once with the preprocessing learned inside each
fold (the honest figure) and once learned on the whole file first (``svm-scale`` of the whole
training file, fselect.py's ranking of it: what LIBSVM's ``tools/easy.py`` and
``tools/fselect.py`` do), with their difference and the corrected resampled t-test of the
per-fold differences (Nadeau and Bengio's, as :func:`~svmeval.compare` uses).

With sizes to choose from (``select=[K1, K2, ...]`` or ``"fselect"``), the whole-file figure
is what ``tools/fselect.py`` reports: the whole file ranked once by F-score, each size's top
features cross-validated, the best size's figure (the first of the best in the sizes' order,
as fselect.py's ``est_acc.index(max(est_acc))``); the honest one is nested cross-validation on
the same folds: each outer training set ranks its own rows and chooses its size by an inner
cross-validation of them (each inner fold ranking its own rows), and the outer test rows are
predicted by the size it chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from svmeval._args import checked
from svmeval._repr import brief_repr
from svmeval.cv.plan.given import FoldAssignment
from svmeval.errors import ArgumentError
from svmeval.io.data import Dataset, DataSource
from svmeval.params import Configuration
from svmeval.stats.significance import TTestResult, corrected_resampled_ttest

__all__ = ["LeakCheck", "leak_check", "whole_file_data"]


@dataclass(frozen=True, eq=False)
class LeakCheck:
    """``honest``: the run with the preprocessing learned inside each fold; ``whole_file``:
    the same run, on the same folds, on the data preprocessed as a whole first. ``criterion``:
    ``"accuracy"`` (classification, one-class) or ``"mse"`` (regression); ``honest_folds`` and
    ``whole_file_folds``: its value on each fold, one row a repetition; ``test``: the corrected
    resampled t-test of honest - whole file over every fold of every repetition (None where
    every difference is not finite)."""

    __svmeval_view__: ClassVar[str] = "svmeval.report.leak:VIEW"
    __repr__ = brief_repr

    honest: Any
    whole_file: Any
    criterion: str
    honest_folds: np.ndarray
    whole_file_folds: np.ndarray
    test: TTestResult | None
    #: with sizes to choose from: the sizes the whole file's run tried, in their order
    sizes: tuple = ()
    #: each of them's cross-validation accuracy on the whole file's ranking (percent, as
    #: svm-train prints it and fselect.py compares it)
    whole_file_rates: tuple = ()
    #: the size the whole file's run chose (fselect.py's "Number of selected features")
    whole_file_size: int | None = None
    #: the size each outer fold's inner search chose, fold by fold, repetition after repetition
    honest_sizes: tuple = ()

    @property
    def honest_value(self) -> float:
        return float(self.honest_folds.mean()) if self.honest_folds.size else float("nan")

    @property
    def whole_file_value(self) -> float:
        return float(self.whole_file_folds.mean()) if self.whole_file_folds.size else float("nan")

    @property
    def difference(self) -> float:
        """honest - whole file (the criterion's units; negative accuracy: the whole file's
        figure was higher)."""
        return self.honest_value - self.whole_file_value

    def to_dict(self) -> dict:
        test = self.test
        return {
            "preprocessing": self.honest.preprocessing,
            "criterion": self.criterion,
            "honest": self.honest_value,
            "whole_file": self.whole_file_value,
            "difference": self.difference,
            "honest_folds": self.honest_folds.tolist(),
            "whole_file_folds": self.whole_file_folds.tolist(),
            "t": None if test is None else test.t,
            "p_value": None if test is None else test.p,
            **self._sizes_dict(),
        }

    def _sizes_dict(self) -> dict:
        if not self.sizes:
            return {}
        return {
            "sizes": list(self.sizes),
            "whole_file_rates": list(self.whole_file_rates),
            "whole_file_size": self.whole_file_size,
            "honest_sizes": list(self.honest_sizes),
        }


def whole_file_data(dataset: Dataset, preprocessing) -> tuple[Dataset, object]:
    """The data preprocessed as a whole (``svm-scale -s`` of the whole file, fselect.py's
    ranking of it), and what was learned (its ``inverse_y`` maps ``-y`` predictions back)."""
    fitted = preprocessing.fit(dataset.indptr, dataset.indices, dataset.values, dataset.y)
    indptr, indices, values = fitted.transform(dataset.indptr, dataset.indices, dataset.values)
    data = Dataset(
        fitted.transform_y(dataset.y),
        indptr,
        indices,
        values,
        dataset.n_features,
        dataset.name,
        classes=dataset.classes,
    )
    return data, fitted


def _fold_values(result, criterion: str) -> np.ndarray:
    """The criterion on each fold of each repetition kept (rows: repetitions)."""
    rows = []
    for run in (result, *result.repeat_results):
        values = []
        for i in range(run.n_folds):
            mine = run.fold == i
            if criterion == "mse":
                values.append(float(np.mean((run.y_pred[mine] - run.y_true[mine]) ** 2)))
            else:
                values.append(float(np.mean(run.y_pred[mine] == run.y_true[mine])))
        rows.append(values)
    return np.array(rows)


@checked
def leak_check(
    data: DataSource,
    params: Configuration = None,
    folds: int = 5,
    *,
    scale=None,
    select: int | Sequence[int] | str | None = None,
    groups: FoldAssignment | None = None,
    given_folds: FoldAssignment | None = None,
    seed: int = 1,
    repeat: int = 1,
    jobs: int | None = None,
    quiet: bool = True,
) -> LeakCheck:
    """Cross-validate ``params`` with ``scale``/``select`` learned inside each fold and,
    on the same folds, on the data preprocessed as a whole first; both figures, their
    difference and the corrected resampled t-test of the per-fold differences.

    The whole-file run is ``svm-scale`` (and fselect.py's ranking) of the whole data followed by
    :func:`~svmeval.cross_validate` of the result; with ``-y`` its predictions are mapped back
    to the data's units with the whole file's factors. Arguments as
    :func:`~svmeval.cross_validate`'s.

    ``select`` may also be sizes to choose from, a list ``[K1, K2, ...]`` or ``"fselect"``
    (fselect.py's list, made from the whole file's F-scores for the whole-file run, from
    each outer training set's for the honest one): the whole-file figure is then
    fselect.py's (the whole file ranked once, each size cross-validated, the best size's
    figure), the honest one :func:`~svmeval.nested_cv`'s with the size searched by each
    inner cross-validation (``folds`` inner folds) and the configuration's C and gamma.
    """
    from svmeval.cv.engine import cross_validate
    from svmeval.cv.plan import checks
    from svmeval.cv.run.preprocessed import preprocessing_of
    from svmeval.preprocess import check_sizes

    dataset = checks.as_dataset(data, "data")
    configuration = checks.as_params(params, "params")
    sizes = check_sizes(select)
    if isinstance(sizes, (tuple, str)):
        from svmeval.workflows.grid_cells import search_sizes

        preprocessing_of(scale, 1, dataset, [configuration])  # checked before any fold
        return _sizes_check(
            dataset,
            params,
            folds,
            scale=scale,
            sizes=sizes,
            tried=search_sizes(sizes, scale, dataset, configuration),
            groups=groups,
            given_folds=given_folds,
            seed=seed,
            repeat=repeat,
            jobs=jobs,
            quiet=quiet,
        )
    preprocessing = preprocessing_of(scale, select, dataset, [configuration])
    if preprocessing is None:
        raise ArgumentError("scale", "leak_check needs scale or select (what would leak)")
    common = dict(
        folds=folds,
        groups=groups,
        given_folds=given_folds,
        seed=seed,
        repeat=repeat,
        jobs=jobs,
        quiet=quiet,
        keep_repeats=True,
    )
    honest = cross_validate(dataset, params, scale=scale, select=select, **common)
    whole, fitted = whole_file_data(dataset, preprocessing)
    leaky = cross_validate(whole, params, **common)
    if preprocessing.scale is not None and preprocessing.scale.y is not None:
        leaky = _in_data_units(leaky, fitted, dataset.y)
    criterion = "mse" if honest.params.is_regression else "accuracy"
    a, b = _fold_values(honest, criterion), _fold_values(leaky, criterion)
    differences = (a - b).ravel()
    test = None
    if len(differences) >= 2 and np.isfinite(differences).all():
        k = honest.n_folds
        test = corrected_resampled_ttest(differences, 1.0 / max(1, k - 1))
    return LeakCheck(honest, leaky, criterion, a, b, test)


def _sizes_check(dataset, params, folds, *, scale, sizes, tried, quiet, **common) -> LeakCheck:
    """:func:`leak_check` of sizes to choose from (``tried``: the sizes as given, or
    fselect.py's list of the whole file): fselect.py's figure on the whole file, and nested
    cross-validation's on the same folds."""
    from svmeval.cv.engine import cross_validate
    from svmeval.preprocess import Preprocessing, as_scale_spec
    from svmeval.workflows.grid_rules import accuracy_rate
    from svmeval.workflows.nested import nested_cv

    ranking = Preprocessing(as_scale_spec(scale), None).learn(
        dataset.indptr, dataset.indices, dataset.values, dataset.y
    )
    runs, rates = [], []
    for k in tried:  # fselect.py: the whole file's top k features, cross-validated
        whole = _whole_file_rows(dataset, ranking.keeping(k))
        run = cross_validate(whole, params, folds, quiet=quiet, keep_repeats=True, **common)
        correct = sum(int(np.count_nonzero(r.y_true == r.y_pred)) for r in _runs(run))
        rates.append(accuracy_rate(correct, sum(len(r.y_true) for r in _runs(run))))
        runs.append(run)
    best = rates.index(max(rates))  # fselect.py's est_acc.index(max(est_acc))
    nested = nested_cv(
        dataset,
        params,
        folds,
        log2c=None,
        log2g=None,
        inner_folds=folds if isinstance(folds, int) else 5,
        scale=scale,
        select=sizes,
        **common,
    )
    honest = nested.outer
    honest = replace(honest, repeat_results=tuple(nested.repeat_results))
    a = _fold_values(honest, "accuracy")
    b = _fold_values(runs[best], "accuracy")
    differences = (a - b).ravel()
    test = None
    if len(differences) >= 2 and np.isfinite(differences).all():
        test = corrected_resampled_ttest(differences, 1.0 / max(1, honest.n_folds - 1))
    return LeakCheck(
        honest,
        runs[best],
        "accuracy",
        a,
        b,
        test,
        sizes=tried,
        whole_file_rates=tuple(rates),
        whole_file_size=tried[best],
        honest_sizes=tuple(f.cell.select for f in nested.folds),
    )


def _runs(result) -> tuple:
    return (result, *result.repeat_results)


def _whole_file_rows(dataset: Dataset, fitted) -> Dataset:
    indptr, indices, values = fitted.transform(dataset.indptr, dataset.indices, dataset.values)
    return Dataset(
        dataset.y,
        indptr,
        indices,
        values,
        dataset.n_features,
        dataset.name,
        classes=dataset.classes,
    )


def _in_data_units(result, fitted, y):
    """A whole-file ``-y`` run's predictions mapped back to the data's units."""

    def back(run):
        dv = run.decision_values
        return replace(
            run,
            y_true=np.asarray(y, dtype=np.float64).copy(),
            y_pred=fitted.inverse_y(run.y_pred),
            decision_values=None if dv is None else fitted.inverse_y(dv),
        )

    return replace(back(result), repeat_results=tuple(back(r) for r in result.repeat_results))

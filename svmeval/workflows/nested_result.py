"""What :func:`~svmeval.workflows.nested.nested_cv` gives back: each outer fold's choice
(:class:`OuterFold`, made from its inner grid), the outer predictions with the choices'
spread, JSON object and table (:class:`NestedResult`), and the chosen cells' text block
(:func:`chosen_text`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from svmeval import _tables as tables
from svmeval._repr import brief_repr
from svmeval.cv.collect.provenance import Provenance
from svmeval.cv.collect.results import CVResult
from svmeval.params import LinearParams, SvmParams
from svmeval.summary.data import summary_rows
from svmeval.workflows import grid_rules as rules

if TYPE_CHECKING:
    from svmeval.workflows.grid_result import GridResult

__all__ = ["NestedResult", "OuterFold", "chosen_text"]

AXES = rules.AXES


@dataclass(frozen=True, eq=False)
class OuterFold:
    """One outer fold: what the inner grid chose on its training rows and how it was rated.

    ``repetition`` (0-based) and ``fold`` (0-based, LIBSVM's fold order) name it; ``seed`` is
    its repetition's C ``srand`` seed; ``cell`` the chosen :class:`~svmeval.workflows.grid.Cell`,
    ``value`` its inner criterion value (a fraction, as every figure), ``rate`` that value as
    the inner grid compared it (accuracy in percent, as grid.py's), ``params`` the full parameters (LIBSVM's, or LIBLINEAR's) trained on the
    outer training set, ``grid`` the whole inner :class:`~svmeval.workflows.grid_result.GridResult`;
    ``train_rows`` / ``test_rows``: sample indices (input order numbering), training rows in
    LIBSVM's order.
    """

    __repr__ = brief_repr

    repetition: int
    fold: int
    seed: int
    cell: rules.Cell
    value: float
    rate: float
    params: SvmParams | LinearParams
    grid: GridResult
    train_rows: np.ndarray
    test_rows: np.ndarray

    @classmethod
    def chosen_by(cls, inner: GridResult, repetition, fold, seed, train_rows, test_rows):
        """The outer fold whose inner grid ``inner`` chose its best cell."""
        best = inner.best
        return cls(
            repetition=repetition,
            fold=fold,
            seed=seed,
            cell=best.cell,
            value=best.value,
            rate=best.rate,
            params=inner.best_params,
            grid=inner,
            train_rows=train_rows,
            test_rows=test_rows,
        )


@dataclass(frozen=True, eq=False)
class NestedResult:
    """A finished nested cross-validation.

    ``outer``: the first repetition's outer predictions as a :class:`~svmeval.cv.CVResult`
    (further repetitions' counts and ranking figures in ``outer.repeats``, their whole results
    in ``repeat_results``); ``folds``: every :class:`OuterFold`, repetition by repetition;
    ``criterion`` and its direction ``greater_is_better``; ``inner_folds``; ``provenance``: how it
    was made (``Provenance``).

    Examples
    --------
    >>> from svmeval import nested_cv
    >>> result = nested_cv("data/wine.scale", folds=3, inner_folds=3, log2c=(-1, 3, 2),
    ...                    log2g=(-5, -1, 2))
    >>> [fold.cell.log2c for fold in result.folds]
    [1.0, 1.0, -1.0]
    >>> result.to_frame().shape  # one row per outer fold
    (3, 25)
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.nested:VIEW"

    __repr__ = brief_repr

    outer: CVResult
    folds: tuple
    criterion: str
    greater_is_better: bool
    inner_folds: int
    repeat_results: tuple = ()
    pos_label: float | None = None
    zero_division: float = 0.0
    provenance: Provenance | None = field(default=None, repr=False)

    @property
    def n_folds(self) -> int:
        return self.outer.n_folds

    @property
    def seed(self) -> int:
        return self.outer.seed

    @property
    def repeat(self) -> int:
        """R, the repetitions of the outer cross-validation."""
        return self.outer.repeat

    @property
    def n_repeats(self) -> int:
        """Deprecated name of :attr:`repeat`."""
        return self.repeat

    @property
    def weight_label(self) -> int | None:
        """The class whose weight the inner grids searched (``log2w``'s label), or None."""
        return self.folds[0].cell.w_label if self.folds else None

    @property
    def grids(self) -> tuple:
        """Every inner :class:`~svmeval.workflows.grid_result.GridResult`, in :attr:`folds`' order."""
        return tuple(f.grid for f in self.folds)

    @property
    def chosen(self) -> tuple:
        """Every outer fold's chosen :class:`~svmeval.workflows.grid.Cell`, in :attr:`folds`' order."""
        return tuple(f.cell for f in self.folds)

    def summary(self):
        """The outer predictions' :class:`~svmeval.summary.Summary` (svmeval's report of
        ``svmeval -v K``: first line ``Cross Validation Accuracy = X%`` or svm-train's two
        regression lines)."""
        from svmeval.summary import summarize

        return summarize(self.outer, pos_label=self.pos_label, zero_division=self.zero_division)

    def spread(self) -> dict:
        """Per searched axis (``log2c``, ``log2g``, ``log2p``, ``p`` (LIBLINEAR's ``-s 11``: p
        itself), ``log2w``, ``select``) over every outer fold's choice:
        ``mean``, ``sd`` (n-1; NaN for one fold), ``min``, ``max`` and ``counts`` (value ->
        number of folds that chose it, values ascending)."""
        out = {}
        for axis in AXES:
            values = [getattr(c, axis) for c in self.chosen]
            if any(v is None for v in values):
                continue
            a = np.array(values, dtype=np.float64)
            uniq, counts = np.unique(a, return_counts=True)
            out["p" if axis == "p_value" else axis] = {
                "mean": float(a.mean()),
                "sd": float(a.std(ddof=1)) if len(a) > 1 else math.nan,
                "min": float(a.min()),
                "max": float(a.max()),
                "counts": {float(u): int(n) for u, n in zip(uniq, counts)},
            }
        return out

    def as_dict(self) -> dict:
        """Deprecated: ``to_dict()["nested"]``."""
        import warnings

        warnings.warn(
            "NestedResult.as_dict() is deprecated: use to_dict()['nested']",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._nested_object()

    def _chosen_text(self) -> str:
        """:func:`chosen_text` of this result (for its text report)."""
        return chosen_text(self)

    def _nested_object(self) -> dict:
        """JSON-friendly: the outer run's description, every outer fold's choice, the spread
        (undefined numbers as None)."""
        folds = [
            {
                "repetition": f.repetition,
                "fold": f.fold + 1,
                "seed": f.seed,
                **{axis: getattr(f.cell, axis) for axis in AXES if axis not in _OWN_KEYS},
                "C": f.cell.C,
                "gamma": f.cell.gamma,
                "p": f.cell.p,
                **_weight_of(f.cell),
                **({} if f.cell.select is None else {"select": f.cell.select}),
                "value": tables.finite(f.value),
                "n_train": len(f.train_rows),
                "n_test": len(f.test_rows),
            }
            for f in self.folds
        ]
        spread = {
            axis: {
                k: (tables.finite(v) if k != "counts" else {repr(x): n for x, n in v.items()})
                for k, v in s.items()
            }
            for axis, s in self.spread().items()
        }
        return {
            "criterion": self.criterion,
            "greater_is_better": self.greater_is_better,
            "n_folds": self.n_folds,
            "inner_folds": self.inner_folds,
            "seed": self.seed,
            "repeat": self.repeat,
            **({"preprocessing": self.outer.preprocessing} if self.outer.preprocessing else {}),
            "folds": folds,
            "spread": spread,
        }

    def to_dict(self) -> dict:
        """The JSON report's object: ``"outer"`` (svmeval's report object of the outer
        predictions) and ``"nested"`` (the outer run's description, every outer fold's choice
        and inner value, the spread of the choices)."""
        return tables.plain({"outer": self.summary().to_dict(), "nested": self._nested_object()})

    def to_frame(self):
        """A pandas DataFrame, one row per (repetition, outer fold): the columns of a results
        table, the chosen cell (``log2c``, ``log2g``, ``log2p``, ``C``, ``gamma``, ``p``; a
        search of a class weight adds ``log2w``, ``w`` and ``w_label``, one of the number of
        features ``select``), ``inner_value`` (the criterion on the inner folds, a fraction) and the outer fold's
        figures; ``configuration`` is the base configuration as given, ``options`` its flags
        (each fold's own C / gamma are its columns)."""
        from svmeval.summary import summarize

        tables.pandas()
        rows = []
        for r, run in enumerate([self.outer, *self.repeat_results]):
            summary = summarize(run, pos_label=self.pos_label, zero_division=self.zero_division)
            chosen = [f for f in self.folds if f.repetition == r]
            for f, row in zip(
                chosen, summary_rows(summary, repetition=r, dataset=self.outer.data_name)
            ):
                c = f.cell
                figures = {k: row.pop(k) for k in list(row) if k not in tables.KEYS}
                rows.append(
                    {
                        **row,
                        "seed": f.seed,
                        "log2c": c.log2c,
                        "log2g": c.log2g,
                        "log2p": c.log2p,
                        "C": c.C,
                        "gamma": c.gamma,
                        "p": c.p,
                        **_weight_of(c),
                        **({} if c.select is None else {"select": c.select}),
                        "inner_value": f.value,
                        **figures,
                    }
                )
        return tables.frame(rows)


def chosen_text(result: NestedResult) -> str:
    """Each outer fold's chosen cell and inner value, then the spread of the chosen
    parameters: the text block that follows the outer report."""
    axes = [a for a in AXES if all(getattr(c, a) is not None for c in result.chosen)]
    head = (
        (["repetition"] if result.repeat > 1 else [])
        + ["fold"]
        + [result.chosen[0].key(a) for a in axes]
        + [f"inner {result.criterion}"]
    )
    rows = []
    for f in result.folds:
        rows.append(
            ([str(f.repetition + 1)] if result.repeat > 1 else [])
            + [str(f.fold + 1)]
            + [f"{getattr(f.cell, a):g}" for a in axes]
            + [_show(f.value)]
        )
    widths = [max(len(h), *(len(row[k]) for row in rows)) for k, h in enumerate(head)]
    lines = [
        f"Nested cross validation: {result.n_folds} outer folds x {result.inner_folds} "
        f"inner folds, seed {result.seed}"
        + (f", {result.repeat} repetitions" if result.repeat > 1 else "")
    ]
    if result.outer.preprocessing:  # every inner fold and outer model learned it on its rows
        lines.append(f"Learned on each fold's training rows: {result.outer.preprocessing}")
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    lines.extend("  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in rows)
    for axis, s in result.spread().items():
        counts = ", ".join(f"{v:g} x{n}" for v, n in s["counts"].items())
        lines.append(
            f"{result.chosen[0].key(axis)}: mean {s['mean']:g} sd {_show(s['sd'])} min {s['min']:g} "
            f"max {s['max']:g} ({counts})"
        )
    return "\n".join(lines) + "\n"


#: the axes a chosen cell's object gives only where they were searched (their own keys)
_OWN_KEYS = ("log2w", "select", "p_value")


def _weight_of(cell: rules.Cell) -> dict:
    """A chosen cell's class weight, where the search had one: ``log2w``, ``w``, ``w_label``."""
    if cell.w_label is None:
        return {}
    return {"log2w": cell.log2w, "w": cell.w, "w_label": cell.w_label}


def _show(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:g}"

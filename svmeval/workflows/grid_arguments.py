"""grid_search's arguments beside its data and configuration, as one frozen
:class:`GridArguments`: made once at its door (and by nested_cv for its inner searches), and
taken whole by every step behind it (the cells' checks, the run, LIBLINEAR's search)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from svmeval.workflows.grid_rules import DEFAULT_LOG2C, DEFAULT_LOG2G

__all__ = ["GridArguments"]


@dataclass(frozen=True)
class GridArguments:
    """What a grid search was given beside its data and configuration
    (:func:`~svmeval.workflows.grid.grid_search`'s keywords, as given, in its signature's
    order; each means what grid_search says): the folds, the searched ranges, the criterion
    and its settings, the execution options, the callbacks, the store and the preprocessing
    learned inside each fold. :meth:`checked_run` checks its numbers in
    :func:`~svmeval.cv.plan.checks.check_run`'s order."""

    folds: int = 5
    groups: object = None
    given_folds: object = None
    log2c: tuple | None = DEFAULT_LOG2C
    log2g: tuple | None = DEFAULT_LOG2G
    log2p: tuple | None = None
    log2w: tuple | None = None
    criterion: str | None = None
    seed: int = 1
    pos_label: object = None
    zero_division: float | str = 0.0
    jobs: int | None = None
    client: object = None
    progress: Callable | None = None
    kernel_memory: float | None = None
    resume: object = None
    on_start: Callable | None = None
    on_cell: Callable | None = None
    on_finish: Callable | None = None
    share: bool | None = None
    store: object = None
    scale: object = None
    select: object = None

    def keywords(self) -> dict:
        """Every field by name, in grid_search's order: the keywords of a grid_search call
        (a nested CV's inner search, a results store's record of the call)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def checked_run(self):
        """The checked numbers and execution options
        (:class:`~svmeval.cv.plan.checks.RunArguments`; the known cells of ``resume``)."""
        from svmeval.cv.plan import checks

        return checks.check_run(
            self.folds,
            self.seed,
            resume=self.resume,
            kernel_memory=self.kernel_memory,
            jobs=self.jobs,
            client=self.client,
            criterion=self.criterion,
        )

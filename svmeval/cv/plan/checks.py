"""The checks of the evaluation core that need the data or LIBSVM's parameters.

Each argument's own constraints (the folds, the seeds, the repetitions, ``jobs``, ``client``,
a criterion's name, ...) are declared once in ``svmeval._args`` and checked at every public
function's door; this module re-exports those checks and adds what only the data tell: the
data set and configurations a run reads, the labels LIBSVM is about to see, the kind of a run
(binary, multiclass, regression) and the criteria that fit it. Messages speak of the library's
arguments; the command lines read their options before and name their own flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmeval._args.checks import (  # noqa: F401 - the checks of every argument, declared in one place
    SEED_MAX,
    CriterionError,
    check_client,
    check_confidence,
    check_folds,
    check_jobs,
    check_memory,
    check_repeat,
    check_resume,
    check_seed,
)
from svmeval._classes import class_code
from svmeval.cv.collect.provenance import note_dataset
from svmeval.errors import (
    ArgumentError,
    DataFormatError,
    OptionError,
    ParameterError,
    SvmevalError,
    show_label,
    show_path,
)
from svmeval.io.data import Dataset, checked_dataset, coded_as_classes
from svmeval.params import (
    INT_MAX,
    INT_MIN,
    LINEAR_ONE_CLASS,
    ONE_CLASS,
    PRECOMPUTED,
    LinearParams,
    SvmParams,
)

#: an argument a run does not take (None is a value: a bad one for a number)
_ABSENT = object()


def check_execution(jobs=None, client=None) -> None:
    """The execution options every run takes, last in every signature: ``jobs`` (None or a
    positive integer: tasks run at once here) and ``client`` (None, a ``distributed.Client``
    or a scheduler address: ``tcp://host:8786``, ``local[:N]``)."""
    check_jobs(jobs)
    check_client(client)


def as_dataset(
    data, name: str = "data", *, multilabel: bool = False, precomputed: bool = False
) -> Dataset:
    """A run's data argument as a checked :class:`Dataset`, noted in the run's provenance:
    :func:`~svmeval.io.data.checked_dataset` (read, built from ``(X, y)`` or checked again;
    ``precomputed``: the rows checked as a ``-t 4`` kernel), the one check of the data before
    LIBSVM sees them."""
    dataset = checked_dataset(data, name, multilabel=multilabel, precomputed=precomputed)
    note_dataset(dataset)  # the run's provenance names it
    return dataset


def as_params(params, name: str = "params") -> SvmParams:
    """An :class:`SvmParams`: given, read from svm-train's options (a string such as
    ``"-c 8 -g 0.05"``, :meth:`SvmParams.parse`), or svm-train's defaults for None."""
    if params is None:
        return SvmParams()
    if isinstance(params, str):
        try:
            return SvmParams.parse(params)
        except OptionError as exc:
            raise OptionError(f"{name} {params!r}: {exc}") from None
    if type(params).__name__ == "LinearParams":
        raise ParameterError(
            f"{name}: a LinearParams (LIBLINEAR) is not taken by this run, which takes an "
            "SvmParams or svm-train's options (LIBLINEAR's: cross_validate, compare, "
            "benchmark, grid_search, nested_cv, permutation_test, tune_threshold)"
        )
    if not isinstance(params, SvmParams):
        raise ParameterError(
            f"{name} must be a svmeval SvmParams or svm-train's options "
            f"(a string such as '-c 8 -g 0.05'), got {type(params).__name__}"
        )
    return params


def uses_precomputed(configurations) -> bool:
    """Whether a configuration among ``configurations`` (SvmParams) takes a precomputed kernel
    (``-t 4``): the data set's rows are then checked as one at the door."""
    return any(not _is_linear(p) and p.kernel_type == PRECOMPUTED for p in configurations)


def single_label(dataset: Dataset, what: str) -> np.ndarray:
    """The labels of ``dataset``; multi-label data refused where ``what`` (a run) takes one
    label per sample."""
    if dataset.y is None:
        raise SvmevalError(
            f"{show_path(dataset.name)}: multi-label data: {what} takes single-label data"
        )
    return dataset.y


def check_inputs(dataset, params: SvmParams, y=None) -> np.ndarray:
    """The checks of the labels a run gives LIBSVM, before it sees anything; returns them.

    ``dataset`` a :class:`Dataset` checked at the run's door (:func:`as_dataset`: trusted
    here), ``params`` a :class:`SvmParams`, ``y`` (optional) one finite label per sample. For
    C-SVC and nu-SVC every label must fit a C ``int``: LIBSVM groups classes by ``(int)label``.
    """
    if not isinstance(dataset, Dataset):
        raise SvmevalError(f"dataset must be a svmeval Dataset, got {type(dataset).__name__}")
    if not isinstance(params, SvmParams):
        raise ParameterError(f"params must be a svmeval SvmParams, got {type(params).__name__}")
    if y is None:
        if dataset.y is None:
            raise SvmevalError(
                f"{show_path(dataset.name)}: multi-label data: this run takes one label a "
                "sample (cross_validate_multilabel evaluates multi-label data)"
            )
        labels = dataset.y
    else:
        labels = _labels(y, dataset.n_samples)
    if dataset.classes is not None and not params.is_classification:
        kind = "a regression (-s 3, -s 4)" if params.is_regression else "a one-class SVM (-s 2)"
        raise DataFormatError(
            dataset.name,
            None,
            f"the labels are classes ({', '.join(map(repr, dataset.classes[:3]))}"
            f"{', ...' if len(dataset.classes) > 3 else ''}), not numbers: {kind} takes "
            "numbers; classes need C-SVC or nu-SVC (-s 0, -s 1)",
        )
    if params.is_classification:
        keys = np.trunc(labels)
        outside = (keys < INT_MIN) | (keys > INT_MAX)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise DataFormatError(
                dataset.name,
                i + 1,
                f"label {show_label(labels[i])} does not fit a C int: LIBSVM groups C-SVC and "
                "nu-SVC classes by (int)label (regression: -s 3 or -s 4)",
            )
    return labels


def _labels(y, n_samples: int) -> np.ndarray:
    try:
        labels = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise SvmevalError("y must hold one number per sample") from None
    if labels.ndim != 1 or len(labels) != n_samples:
        raise SvmevalError(
            f"y must be 1-D with one label per sample ({n_samples}), got shape {labels.shape}"
        )
    if not np.isfinite(labels).all():
        i = int(np.flatnonzero(~np.isfinite(labels))[0])
        raise SvmevalError(f"y[{i}] = {labels[i]} is not finite")
    return labels


def check_pos_label(y, pos_label, data_name: str | None = None) -> None:
    """Refuse, before any work, the ``pos_label`` that the summary of a classifier's
    cross-validation on labels ``y`` would refuse (a class predicted is a class of ``y``: the
    two-class figures' own rule, :func:`~svmeval.metrics.two_class.positive_and_negative`);
    ``data_name`` names the data set in the message (a run over several)."""
    if pos_label is None:
        return
    from svmeval.metrics.two_class import positive_and_negative

    labels = np.unique(np.asarray(y, dtype=np.float64))
    if data_name is None:
        positive_and_negative(labels, pos_label)
        return
    name = show_path(data_name)
    if len(labels) != 2:
        classes = f"{len(labels)} class" + ("" if len(labels) == 1 else "es")
        raise ArgumentError("pos_label", f"applies to two-class data only ({name} has {classes})")
    if pos_label not in labels:
        shown = ", ".join(show_label(v) for v in labels)
        raise ArgumentError(
            "pos_label", f"{show_label(pos_label)} is not one of the labels of {name} ({shown})"
        )


# --- the kind of a run and the criteria that fit it -------------------------------------------
def kind_of(y: np.ndarray, params: SvmParams | LinearParams) -> str:
    """The figure kind of a run: regression for -s 3 / -s 4, else binary or multiclass."""
    if params.is_regression:
        return "regression"
    ordered = np.sort(np.asarray(y, dtype=np.float64))  # not np.unique: it imports numpy.ma
    distinct = 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1])) if ordered.size else 0
    return "multiclass" if distinct > 2 else "binary"


def _is_linear(params) -> bool:
    """Whether ``params`` is LIBLINEAR's (a :class:`~svmeval.params.LinearParams`)."""
    return type(params).__name__ == "LinearParams"


def default_criterion(params: SvmParams | LinearParams) -> str:
    """accuracy, or mse for -s 3 / -s 4."""
    return "mse" if params.is_regression else "accuracy"


def _nearest(name, valid) -> str:
    """``did you mean NAME? `` with the valid criterion nearest to an unknown ``name`` (the
    same letters in another case, else difflib's most similar at a ratio of at least 0.6);
    empty where none is near."""
    if not isinstance(name, str):
        return ""
    near = [v for v in valid if v.lower() == name.lower()]
    if not near:
        import difflib

        near = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
    return f"did you mean {near[0]}? " if near and near[0] != name else ""


def check_criterion(criterion: str, kind: str | None = None, params=()):
    """The registry's Figure for ``criterion``; raises :class:`CriterionError` with the valid
    names (for ``kind`` when given). ``params``: the configurations (SvmParams) the runs use,
    one or several: a figure of the class probabilities needs classifiers (C-SVC, nu-SVC)
    trained with probability estimates (``probability=1``, svm-train's ``-b 1``), every one."""
    from svmeval.metrics.figures import FIGURES, criteria_for

    valid = criteria_for(kind) if kind else tuple(FIGURES)
    if criterion not in FIGURES or criterion not in valid:
        where = f" for {kind} data" if kind else ""
        what = "unknown criterion" if criterion not in FIGURES else "criterion"
        fits = " does not apply" + where if criterion in FIGURES else ""
        raise CriterionError(
            f"{what} {criterion!r}{fits}: {'' if fits else _nearest(criterion, valid)}valid criteria{where}: "
            f"{', '.join(valid)}"
        )
    figure = FIGURES[criterion]
    configurations = (params,) if isinstance(params, SvmParams) else tuple(params)
    if figure.needs_probabilities and any(_is_linear(p) for p in configurations):
        raise CriterionError(
            f"criterion {criterion!r} needs class probabilities, which a LIBLINEAR "
            "configuration (a LinearParams) does not give here"
        )
    if figure.needs_probabilities:
        if any(not p.is_classification for p in configurations):
            raise CriterionError(
                f"criterion {criterion!r} is a figure of class probabilities, which only "
                "C-SVC and nu-SVC classifiers give (svm_type 0 or 1)"
            )
        if any(not p.probability for p in configurations):
            others = criteria_for(kind, probabilities=False) if kind else ()
            hint = f"; criteria without them: {', '.join(others)}" if others else ""
            raise CriterionError(
                f"criterion {criterion!r} needs class probabilities: a configuration with "
                f"probability=1 (svm-train's -b 1){hint}"
            )
    return figure


def common_kind(y: np.ndarray, candidates) -> str:
    """The one figure kind of runs of every candidate on labels ``y``: all classifiers or all
    regressions, none one-class (which has no figure to compare)."""
    if any(not _is_linear(p) and p.svm_type == ONE_CLASS for p in candidates):
        raise SvmevalError("one-class SVMs (-s 2) cannot be compared")
    if any(_is_linear(p) and p.solver_type == LINEAR_ONE_CLASS for p in candidates):
        raise SvmevalError("one-class SVMs (-s 21) cannot be compared")
    if len({p.is_regression for p in candidates}) > 1:
        raise SvmevalError("A and B must both be classifiers or both regressions")
    return kind_of(y, candidates[0])


# --- the arguments of a workflow, checked in one order --------------------------------------
@dataclass(frozen=True)
class RunArguments:
    """The checked numbers of a run: ``repeat`` 1 and ``inner_folds`` None where the run
    takes none, ``resume`` a grid's known cells (empty for none)."""

    folds: int
    seed: int
    repeat: int = 1
    inner_folds: int | None = None
    resume: dict = field(default_factory=dict)


def check_run(
    folds,
    seed,
    *,
    repeat=_ABSENT,
    inner_folds=_ABSENT,
    confidence=_ABSENT,
    confidence_name: str = "confidence_level",
    resume=None,
    kernel_memory=None,
    jobs=None,
    client=None,
    criterion=None,
) -> RunArguments:
    """The numbers and execution options of a workflow (:func:`~svmeval.workflows.compare.compare`,
    :func:`~svmeval.workflows.benchmark.benchmark`, :func:`~svmeval.workflows.grid.grid_search`,
    :func:`~svmeval.workflows.nested.nested_cv`), checked in one order: ``folds``, ``repeat``,
    ``seed``, ``inner_folds``, ``confidence`` (named ``confidence_name``), ``resume``,
    ``kernel_memory``, ``jobs``, ``client``, ``criterion`` (a name of a figure). An argument the run does not take is left out
    (``repeat``, ``inner_folds`` and ``confidence`` are then not checked)."""
    number = check_folds(folds)
    times = 1 if repeat is _ABSENT else check_repeat(repeat)
    first = check_seed(seed)
    inner = None if inner_folds is _ABSENT else check_folds(inner_folds, "inner_folds")
    if confidence is not _ABSENT:
        check_confidence(confidence, confidence_name)
    known = check_resume(resume)
    check_memory(kernel_memory)
    check_execution(jobs, client)
    if criterion is not None:  # a figure's name, before the data tell the kind of run
        check_criterion(criterion)
    return RunArguments(number, first, times, inner, known)


@dataclass(frozen=True)
class ComparisonArguments:
    """What a comparison of two configurations was given beside its data and configurations
    (:func:`~svmeval.workflows.compare.compare`'s keywords, as given): the folds and their
    seeds, the criterion and the tests' settings, the execution options and the preprocessing
    learned inside each fold. :meth:`checked_run` checks its numbers in :func:`check_run`'s
    order."""

    folds: int = 10
    groups: object = None
    given_folds: object = None
    repeat: int = 10
    seed: int = 1
    criterion: str | None = None
    confidence_level: float = 0.95
    rope: float | None = None
    pos_label: object = None
    zero_division: float | str = 0.0
    jobs: int | None = None
    client: object = None
    progress: object = None
    scale: object = None
    select: int | None = None

    def checked_run(self) -> RunArguments:
        """The checked numbers and execution options (:func:`check_run`)."""
        return check_run(
            self.folds,
            self.seed,
            repeat=self.repeat,
            confidence=self.confidence_level,
            jobs=self.jobs,
            client=self.client,
            criterion=self.criterion,
        )


def as_dataset_and_params(
    data, what: str, name: str = "data", **params
) -> tuple[Dataset, list[SvmParams]]:
    """A run's configurations (each further keyword argument, read by :func:`as_params` under
    its keyword) and data set (:func:`run_data`, named ``name``; a precomputed kernel's rows
    checked where a configuration is ``-t 4``; one label per sample: ``what`` names the
    run)."""
    configurations = [as_params(value, key) for key, value in params.items()]
    return run_data(data, what, configurations, name=name).dataset, configurations


@dataclass(frozen=True)
class RunData:
    """A run's data as its door gives them: the checked :class:`Dataset` (one label a
    sample, noted in the run's provenance; ``(X, y)``'s labels coded as classes where the
    configurations need it: :func:`classes_for`) and ``pos_label`` as the run's labels code
    it (:func:`~svmeval._classes.class_code`)."""

    dataset: Dataset
    pos_label: object = None


def run_data(data, what: str | None, configurations, pos_label=None, name: str = "data") -> RunData:
    """A run's data argument checked once for ``configurations`` (SvmParams or LinearParams):
    read or built (:func:`~svmeval.io.data.checked_dataset`; a precomputed kernel's rows
    checked where a configuration is ``-t 4``; multi-label data refused where ``what`` names
    a run that takes one label a sample), ``(X, y)``'s labels coded as classes as
    :func:`classes_for` codes them, ``pos_label`` coded against its classes, and the data as
    read noted in the run's provenance."""
    read = checked_dataset(data, name, precomputed=uses_precomputed(configurations), single=what)
    dataset = read
    if isinstance(data, tuple) and _all_classifiers(configurations):  # classes_for's rule
        dataset = coded_as_classes(read)
    coded = class_code(pos_label, dataset.classes)
    note_dataset(read)  # the run's provenance names the data as read
    return RunData(dataset, coded)


def _all_classifiers(configurations) -> bool:
    """Whether there are configurations and every one is a classifier (C-SVC, nu-SVC)."""
    return bool(configurations) and all(p.is_classification for p in configurations)


def classes_for(dataset: Dataset, data, configurations) -> Dataset:
    """``dataset``, its labels coded as classes (:func:`~svmeval.io.data.coded_as_classes`)
    where it was given as ``(X, y)`` and every configuration is a classifier (C-SVC,
    nu-SVC). ``data`` passed the door (:func:`as_dataset`): a tuple there is ``(X, y)``."""
    if not isinstance(data, tuple) or not _all_classifiers(configurations):
        return dataset
    return coded_as_classes(dataset)

"""svm-train without ``-v``: a model trained on every sample and saved as svm-train saves it
(:func:`train_and_save`), with what it needs beside it where it was trained on preprocessed
rows (the range and features files): a run's entry, as :mod:`svmeval.cv.engine`."""

from __future__ import annotations

import os

from svmeval._args import checked
from svmeval.cv import _libsvm, _model
from svmeval.cv.engine import prepare
from svmeval.cv.plan.checks import check_seed
from svmeval.cv.run.preprocessed import preprocessing_of
from svmeval.cv.schedule import run_tasks
from svmeval.errors import SvmevalError, show_path
from svmeval.io.data import Dataset, DataSource
from svmeval.params import Configuration, SvmParams
from svmeval.preprocess import ScaleLike

__all__ = ["save_model_files", "train_and_save"]


@checked
def train_and_save(
    data: DataSource,
    params: Configuration,
    model_file: str | os.PathLike[str],
    *,
    seed: int = 1,
    quiet: bool = True,
    scale: ScaleLike = None,
    select: int | None = None,
) -> None:
    """svm-train without ``-v``: train on every sample and save the model file svm-train
    writes (``svm-predict`` reads it).

    Parameters
    ----------
    data : Dataset or str or os.PathLike or (X, y)
        The training data (a file name is read first; arrays in memory as
        :meth:`Dataset.from_arrays` takes them).
    params : SvmParams or str or None
        The configuration, or svm-train's options; None is svm-train's defaults.
    model_file : str or os.PathLike
        Where the model is written.
    seed : int, default 1
        C ``srand``'s seed before training (``-b 1`` draws from ``rand()``), as a fresh
        svm-train.
    quiet : bool, default True
        Silence LIBSVM's training messages.
    scale, select : optional
        Preprocessing learned on every sample first, as :func:`cross_validate` takes them
        (svm-scale's scaling, fselect.py's top K features), the model trained on the rows
        it makes. The model file then comes with what it needs beside it: with ``scale``,
        ``MODEL.range``, the range file ``svm-scale -s`` writes (``svm-scale -r
        MODEL.range`` scales the rows the model predicts; with ``-y``, its predictions are
        scaled targets, the range file's ``y`` lines map them back); with ``select``,
        ``MODEL.features``, the features kept (one index a line, ascending: the rows the
        model predicts keep only those, after scaling). All are written, or none.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import train_and_save
    >>> model = pathlib.Path(tempfile.mkdtemp()) / "breast_cancer.model"
    >>> train_and_save("data/breast_cancer.scale", "-c 2", model)
    >>> model.read_text().splitlines()[:2]
    ['svm_type c_svc', 'kernel_type rbf']
    """
    from svmeval.cv.plan import checks

    params = checks.as_params(params)
    dataset = checks.as_dataset(data, precomputed=checks.uses_precomputed([params]))
    model_file = os.fspath(model_file)
    if scale is None and select is None:
        return save_model_files(dataset, params, [model_file], seed=seed, quiet=quiet)
    from svmeval.cv.run.preprocessed import side_files
    from svmeval.io import output

    preprocessing = preprocessing_of(scale, select, dataset, [params])
    paths = [model_file] + [path for _, path in side_files(model_file, preprocessing)]
    if len(set(map(os.path.abspath, paths))) < len(paths):  # pragma: no cover - suffixes
        raise SvmevalError(f"{show_path(model_file)}: its side files would overwrite it")
    with output.atomic_paths(paths, "the model file") as temporary:
        save_model_files(
            dataset, params, temporary, seed=seed, quiet=quiet, preprocessing=preprocessing
        )


@_libsvm.c_state  # C's global state (rand(), the print hook) held for the run
def save_model_files(
    dataset,
    params: SvmParams,
    paths: list[str],
    *,
    seed: int = 1,
    quiet: bool = True,
    preprocessing=None,
) -> None:
    """The model trained on ``dataset`` saved to ``paths[0]``; with ``preprocessing``
    (learned on every row first), the texts of its side files
    (:func:`svmeval.cv.run.preprocessed.side_files`) to the other paths."""
    seed = check_seed(seed)
    if isinstance(dataset, Dataset) and dataset.y is None:
        raise SvmevalError(
            f"{show_path(dataset.name)}: multi-label data: train_and_save trains on one label a "
            "sample (cross_validate_multilabel evaluates multi-label data)"
        )
    problem, params = prepare(dataset, params, quiet=quiet)
    texts: list[str] = []
    if preprocessing is not None:
        from svmeval.cv.run.preprocessed import side_texts, whole_problem

        problem, fitted = whole_problem(dataset, problem, preprocessing)
        texts = side_texts(fitted)
    _libsvm.srand(seed)
    models = []
    # trained on a worker thread while the calling thread waits: a Ctrl-C is acted on at once,
    # not when LIBSVM returns (the training's OpenMP threads as the caller's would be)
    run_tasks([lambda _share: models.append(_model.Model(problem, params))], jobs=1)
    models[0].save(paths[0])
    for path, text in zip(paths[1:], texts):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)

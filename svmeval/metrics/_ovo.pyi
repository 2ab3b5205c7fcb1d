"""Types of svmeval.metrics._ovo, class scores from one-vs-one decision values in C (_ovo.c)."""

import numpy as np
from _typeshed import ReadableBuffer, WriteableBuffer

def scores(
    dec: ReadableBuffer | np.ndarray,
    rows: int,
    n_model: int,
    pos: ReadableBuffer | np.ndarray,
    k: int,
    out: WriteableBuffer | np.ndarray,
    /,
) -> None: ...

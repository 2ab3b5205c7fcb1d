"""LIBSVM's training messages on standard error: one block per fold, never on a bar's line.

LIBSVM prints through one global function, but calls it in the thread that trains, so the
messages of a task are told apart by its thread: within :func:`message_block` they are kept,
and written at the end as one block headed by the task's label (``fold 2/5:``), so that folds
trained side by side do not mix their lines. Whatever is written first blanks the line of a
progress bar on screen (:func:`svmeval.progress.clear_line`), under the lock the bar draws
under.
"""

from __future__ import annotations

import contextlib
import threading

from svmeval.cv import c_library
from svmeval.io import output

#: True: LIBSVM's messages are silenced (svmeval.cv._libsvm.set_quiet sets it)
QUIET = [True]

_thread = threading.local()  # .block: (label, messages kept) of the task running here


def is_quiet() -> bool:
    """Whether LIBSVM's training messages are silenced."""
    return QUIET[0]


def keep(message: bytes) -> bool:
    """Keep ``message`` in this thread's block, if one is open (True), else leave it."""
    block = getattr(_thread, "block", None)
    if block is None:
        return False
    block[1].append(message)
    return True


def write(message: bytes) -> None:
    """Write ``message`` to standard error: a closed or full stderr is ignored, nothing after
    "interrupted", never on a progress bar's line (:func:`svmeval.cv.c_library.write_message`,
    the light mode's writer too)."""
    c_library.write_message(message, output.INTERRUPTS)


@contextlib.contextmanager
def message_block(label: str):
    """LIBSVM's messages printed in this thread within, kept and written at the end as one
    block headed ``label:`` (nothing when there were none, or when it ends by an exception)."""
    if QUIET[0] or getattr(_thread, "block", None) is not None:
        yield
        return
    _thread.block = (label, [])
    try:
        yield
        end_block()
    finally:
        _thread.block = None


def end_block() -> None:
    """Write what this thread's block holds so far, as a block; the block goes on, empty."""
    block = getattr(_thread, "block", None)
    if block is not None and block[1]:
        label, parts = block
        text = b"".join(parts)
        parts.clear()
        write(f"{label}:\n".encode() + text + (b"" if text.endswith(b"\n") else b"\n"))

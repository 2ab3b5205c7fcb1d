"""A one-line progress bar on standard error for long cross-validations.

``make_progress`` gives the ``progress(done, total)`` callback that
:func:`svmeval.cv.engine.cross_validate` (through :func:`svmeval.cv.schedule.run_tasks`) calls as folds
end, or ``None`` when no bar is wanted: with ``-q``, or when the stream is not a terminal (a pipe,
a file, a CI log), where nothing at all is written. On a terminal the bar is one line, redrawn in
place with a carriage return::

    [############--------]  3/5 folds  elapsed 0:42  ETA 0:28

and ended with a newline when the last fold is done (or by :meth:`ProgressBar.close`, when the run
stops early). The ETA assumes the folds left take as long as the ones done so far, on average.
Standard output, where the report goes, is never touched.
"""

from __future__ import annotations

import sys
import time

TYPE_CHECKING = False  # as typing's, without importing typing (a drop-in call draws the bar)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

BAR_WIDTH = 20


def format_seconds(seconds: float) -> str:
    """``m:ss`` below an hour, ``h:mm:ss`` above; negative or NaN times as ``--:--``."""
    if not seconds >= 0:  # also catches NaN
        return "--:--"
    s = int(seconds + 0.5)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


#: the bar whose line is on screen and not ended: what anything else written to standard error
#: would share its line with
_ON_SCREEN: list = [None]


def clear_line() -> None:
    """Blank the line of the progress bar on screen, if any, before something else is written
    to its stream (the bar is drawn again, below, at its next call). LIBSVM's messages call it
    with :data:`svmeval.io.output.STDERR_LOCK` held, the lock the bar draws under."""
    bar = _ON_SCREEN[0]
    if bar is not None:
        bar.clear()


class ProgressBar:
    """The ``progress(done, total)`` callback drawing the bar on ``stream``.

    The clock starts when the bar is made (make it just before the run). ``total`` given here
    draws ``0/total`` at once, so the bar shows before the first fold ends.
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        total: int | None = None,
        unit: str = "folds",
        clock: Callable[[], float] = time.monotonic,
    ):
        self.stream, self.unit, self.clock = stream, unit, clock
        self.start = clock()
        self._width = 0  # length of the line on screen, to blank what a shorter one leaves
        self._open = False  # a line drawn and not yet ended by a newline
        if total is not None:
            self(0, total)

    def line(self, done: int, total: int) -> str:
        """The bar's text (no carriage return) for ``done`` of ``total``."""
        elapsed = self.clock() - self.start
        frac = min(1.0, done / total) if total > 0 else 1.0
        filled = int(BAR_WIDTH * frac)
        eta = elapsed * (total - done) / done if 0 < done <= total else float("nan")
        digits = len(str(total))
        text = (
            f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {done:>{digits}}/{total} "
            f"{self.unit}  elapsed {format_seconds(elapsed)}"
        )
        return text + ("" if done >= total else f"  ETA {format_seconds(eta)}")

    def __call__(self, done: int, total: int) -> None:
        from svmeval.io.stderr_lock import STDERR_LOCK

        text = self.line(done, total)
        with STDERR_LOCK:  # not in the middle of a block of LIBSVM's messages
            pad = " " * max(0, self._width - len(text))
            self._width = len(text)
            end = "\n" if done >= total else ""
            self.stream.write(f"\r{text}{pad}{end}")
            self.stream.flush()
            self._open = not end
            _ON_SCREEN[0] = self if self._open else None

    def clear(self) -> None:
        """Blank the bar's line if it is on screen (its next call draws it again)."""
        if self._open:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._open = False
            self._width = 0
        if _ON_SCREEN[0] is self:
            _ON_SCREEN[0] = None

    def close(self) -> None:
        """End the line if the run stopped before its last fold (idempotent)."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False
        if _ON_SCREEN[0] is self:
            _ON_SCREEN[0] = None


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (False for a stream without ``isatty`` or closed)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def make_progress(
    stream: TextIO | None = None,
    *,
    enabled: bool = True,
    total: int | None = None,
    unit: str = "folds",
    clock: Callable[[], float] = time.monotonic,
) -> ProgressBar | None:
    """The progress callback for a run, or ``None`` when nothing should be shown.

    ``stream``: standard error by default. ``enabled``: False with ``-q``. A stream that is not
    a terminal gets no bar (``None``), so logs and pipes stay clean.
    """
    stream = sys.stderr if stream is None else stream
    if not enabled or not is_terminal(stream):
        return None
    return ProgressBar(stream, total=total, unit=unit, clock=clock)

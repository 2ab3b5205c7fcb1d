"""The progress bar: drawn in place on a terminal, silent everywhere else."""

from __future__ import annotations

import io

import pytest

from svmeval.cv.schedule import run_tasks
from svmeval.progress import ProgressBar, format_seconds, make_progress


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 100.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_not_a_terminal_gets_no_callback_and_no_output():
    stream = io.StringIO()
    assert make_progress(stream) is None
    assert stream.getvalue() == ""


def test_disabled_by_quiet_even_on_a_terminal():
    stream = FakeTTY()
    assert make_progress(stream, enabled=False, total=5) is None
    assert stream.getvalue() == ""


def test_closed_or_odd_streams_count_as_not_terminals():
    closed = io.StringIO()
    closed.close()  # isatty() raises ValueError
    assert make_progress(closed) is None
    assert make_progress(object()) is None


def test_default_stream_is_stderr(monkeypatch):
    fake = FakeTTY()
    monkeypatch.setattr("sys.stderr", fake)
    bar = make_progress()
    assert isinstance(bar, ProgressBar) and bar.stream is fake


def test_one_line_redrawn_then_ended_by_one_newline():
    stream, clock = FakeTTY(), Clock()
    bar = make_progress(stream, clock=clock)
    for done in range(1, 6):
        clock.now += 2.0
        bar(done, 5)
    out = stream.getvalue()
    assert out.count("\r") == 5
    assert out.count("\n") == 1 and out.endswith("\n")
    frames = out.rstrip("\n").split("\r")[1:]
    assert [f.split("]")[1].split()[0] for f in frames] == ["1/5", "2/5", "3/5", "4/5", "5/5"]
    assert frames[-1].startswith("[" + "#" * 20 + "]")
    assert "ETA" not in frames[-1] and "elapsed 0:10" in frames[-1]


def test_elapsed_and_eta_from_the_average_fold():
    stream, clock = FakeTTY(), Clock()
    bar = make_progress(stream, clock=clock)
    clock.now += 30.0
    bar(2, 5)  # 15 s a fold, 3 folds left
    frame = stream.getvalue()
    assert frame == "\r[########------------] 2/5 folds  elapsed 0:30  ETA 0:45"


def test_total_given_draws_zero_at_once_with_unknown_eta():
    stream = FakeTTY()
    make_progress(stream, total=10, clock=Clock())
    assert stream.getvalue() == "\r[--------------------]  0/10 folds  elapsed 0:00  ETA --:--"


def test_a_shorter_line_blanks_what_the_longer_one_left():
    stream, clock = FakeTTY(), Clock()
    bar = make_progress(stream, total=3, clock=clock)
    first = len(stream.getvalue()) - 1
    clock.now += 1.0
    bar(3, 3)  # no ETA: shorter text, padded to the old width
    last = stream.getvalue().split("\r")[-1]
    assert len(last.rstrip("\n")) == first
    assert last.endswith(" \n")


def test_close_ends_an_unfinished_line_once():
    stream = FakeTTY()
    bar = make_progress(stream, total=5, clock=Clock())
    bar(1, 5)
    bar.close()
    bar.close()
    assert stream.getvalue().count("\n") == 1
    finished = FakeTTY()
    bar = make_progress(finished, clock=Clock())
    bar(2, 2)
    bar.close()
    assert finished.getvalue().count("\n") == 1


def test_driven_by_run_tasks():
    stream = FakeTTY()
    bar = make_progress(stream, clock=Clock())
    run_tasks([lambda n: None] * 4, jobs=2, cores=2, progress=bar)
    out = stream.getvalue()
    assert out.endswith("\n") and out.count("\n") == 1
    assert "4/4 folds" in out.split("\r")[-1]


@pytest.mark.parametrize(
    "seconds, text",
    [
        (0, "0:00"),
        (59.4, "0:59"),
        (59.6, "1:00"),
        (61, "1:01"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (36061, "10:01:01"),
        (-1, "--:--"),
        (float("nan"), "--:--"),
    ],
)
def test_format_seconds(seconds, text):
    assert format_seconds(seconds) == text

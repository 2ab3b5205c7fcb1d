"""Sending Ctrl-C to the main thread at an event, for the tests of bounded waits."""

from __future__ import annotations

import signal
import threading
import time

import pytest

#: the longest any event of these tests is waited for: reached, a test fails instead of hanging
LIMIT = 60.0
#: a Ctrl-C must become a KeyboardInterrupt within this (seconds): svmeval's wait step
#: (svmeval.cv.bounded_waits.WAIT_STEP, 0.1 s), plus 0.4 s for the machine to schedule the threads
#: (two busy loops on two cores included)
BOUND = 0.5


def sigint_when(ready, release, wait) -> float:
    """Run ``wait()`` in this (the main) thread and send it SIGINT the instant ``ready`` is set
    (an event, not a delay); ``wait()`` must raise KeyboardInterrupt. Returns the seconds from
    the signal to the KeyboardInterrupt. Never acted on, ``release`` is set after LIMIT (what
    is waited for ends) rather than hang. ``ready`` and ``release`` are Event-like."""
    armed, caught, sent = threading.Event(), threading.Event(), []
    main = threading.main_thread().ident

    def ctrl_c():
        if not (armed.wait(LIMIT) and ready.wait(LIMIT)):
            release.set()
            return
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)
        if not caught.wait(LIMIT):
            release.set()

    sender = threading.Thread(target=ctrl_c)
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            armed.set()  # from here on the KeyboardInterrupt is expected
            wait()
        return time.monotonic() - sent[0]
    finally:
        caught.set()
        sender.join(LIMIT)

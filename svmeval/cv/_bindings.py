"""Importing the official bindings (``from libsvm import svm``) quickly and safely.

The bindings' module imports two optional packages when it is loaded, each inside a bare
``try``/``except:``: SciPy (to accept SciPy matrices later) and numba (to compile its CSR
conversion). svmeval uses neither (it builds LIBSVM's problems itself), and together they
cost a large part of a second at every run's start (0.2 s for SciPy on a 2-core machine,
0.4 s for numba where it is installed). Here both imports are refused in the importing thread
only, and where the package is installed the bindings get it on first use instead: their
``scipy`` and ``sparse`` become modules imported on first attribute access, their
``csr_to_problem_jit`` compiles with numba on its first call. A caller of the bindings' own
functions in the same process sees what the bindings document.

A bare ``except:`` would also swallow a KeyboardInterrupt raised during such an import: in the
main thread, while the bindings load (once per process), SIGINT goes to a temporary handler
that only records it; the handler that was there is put back at once after, and a Ctrl-C
recorded meanwhile is raised again for it (a KeyboardInterrupt out of the call, with Python's
own handler). This is the one place svmeval touches a signal handler. Where SIGINT is ignored,
left to the system's default, or handled outside Python, nothing is changed.
"""

from __future__ import annotations

import importlib
import importlib.util
import signal
import sys
import threading
import types

#: the packages the bindings import when loaded, imported on first use instead
DEFERRED = ("scipy", "numba")


def import_bindings():
    """``from libsvm import svm``, with Ctrl-C held as a flag while it runs (main thread),
    SciPy and numba left for the bindings to import when they first need them."""
    if threading.current_thread() is not threading.main_thread():
        return _deferring()  # a KeyboardInterrupt is raised in the main thread only
    if "libsvm.svm" in sys.modules:
        return _deferring()  # loaded: nothing runs inside a bare except any more
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, the default, or a handler Python cannot put back
        return _deferring()
    caught = []
    try:
        signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    except ValueError:  # pragma: no cover - not the main interpreter
        return _deferring()
    try:
        return _deferring()  # the official bindings: the only libsvm import
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)  # to the handler that was there: Ctrl-C wins


class _Refuse:
    """Refuses the imports of :data:`DEFERRED` packages (not yet loaded) in one thread: a meta
    path finder (``find_spec`` is all the import system asks of one; importlib.abc's base
    class would import importlib.resources, tempfile and shutil with it)."""

    def __init__(self, names):
        self.thread, self.names = threading.get_ident(), frozenset(names)

    def find_spec(self, name, path=None, target=None):
        if threading.get_ident() == self.thread and name.partition(".")[0] in self.names:
            raise ImportError(f"{name} is imported when the bindings use it")
        return None


class _Deferred(types.ModuleType):
    """A module imported on its first attribute access (``scipy.sparse`` for the bindings)."""

    def __getattr__(self, attribute):
        return getattr(importlib.import_module(self.__name__), attribute)


def _deferring():
    if "libsvm.svm" in sys.modules:
        from libsvm import svm

        return svm
    refused = [name for name in DEFERRED if name not in sys.modules]
    finder = _Refuse(refused)
    sys.meta_path.insert(0, finder)
    try:
        from libsvm import svm
    finally:
        sys.meta_path.remove(finder)
    if "scipy" in refused and getattr(svm, "scipy", 0) is None and _installed("scipy"):
        svm.scipy = _Deferred("scipy")
        svm.sparse = _Deferred("scipy.sparse")
    if "numba" in refused and getattr(svm, "jit_enabled", True) is False and _installed("numba"):
        svm.csr_to_problem_jit = _jit_on_first_call(svm.csr_to_problem_jit)
        svm.jit_enabled = True
    return svm


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # pragma: no cover - a broken installation
        return False


def _jit_on_first_call(function):
    """``function`` compiled by numba as the bindings compile it (``@jit(nopython=True)``),
    when first called."""
    compiled: list = []

    def call(*args):
        if not compiled:
            from numba import jit

            compiled.append(jit(nopython=True)(function))
        return compiled[0](*args)

    return call

"""Knowing when numba compiles the physics, so a first start can say so instead of looking hung.

The physics is compiled by numba the first time it runs on a machine and
kept in numba's disk cache after (beside the package, or in the user's cache
folder where the package's folder cannot be written — a system install).  A
:class:`CompileWatch` listens to numba's ``numba:compile`` events, which
numba sends only when it compiles, never when it loads from its cache: so its
``on_first`` runs once, as the first compile starts, and not at all once the
cache is warm.  What is cold before a flight, and about how long it takes, is
:mod:`flightsim.physics.compile_cache`'s.
"""

from __future__ import annotations

import time

from numba.core import event

__all__ = ["CompileWatch"]


class CompileWatch(event.Listener):
    """While active (``with CompileWatch(...):``), tell the caller when numba compiles.

    Parameters
    ----------
    on_first : callable, optional
        ``on_first()``, once, as the first compile starts.
    on_progress : callable, optional
        ``on_progress(compiled, seconds)`` after each function compiled: how many so far, and the seconds
        since the first began.

    Attributes
    ----------
    compiled : int
        Functions compiled while watching.
    seconds : float
        From the first compile's start to the last one's end (0 if none).
    """

    def __init__(self, on_first=None, on_progress=None):
        self.on_first = on_first
        self.on_progress = on_progress
        self.compiled = 0
        self.seconds = 0.0
        self._start = None

    def __enter__(self):
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc):
        event.unregister("numba:compile", self)
        return False

    def on_start(self, ev):
        if self._start is None:
            self._start = time.perf_counter()
            if self.on_first is not None:
                self.on_first()

    def on_end(self, ev):
        self.compiled += 1
        self.seconds = time.perf_counter() - self._start
        if self.on_progress is not None:
            self.on_progress(self.compiled, self.seconds)

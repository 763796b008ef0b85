"""Recent telemetry (or any timed samples) for the HUD's strip charts (numpy ring buffer, no GUI)."""

from __future__ import annotations

import numpy as np

__all__ = ["History", "SERIES"]

SERIES = ("roll", "pitch", "heading", "qnorm_error")
"""Telemetry fields recorded, after the time."""


class History:
    """The last ``span`` seconds of a few telemetry values.

    Parameters
    ----------
    span : float
        Seconds kept.
    rate : float
        Samples per second at most (frames closer together are skipped).
    series : sequence of str
        Attribute names recorded from each sample (after its ``t``); by
        default the telemetry's :data:`SERIES`.
    """

    def __init__(self, span=30.0, rate=60.0, series=SERIES):
        self.span = float(span)
        self.min_interval = 1.0 / float(rate)
        self.capacity = 2 * int(span * rate) + 2
        self.names = tuple(series)
        self._data = np.full((self.capacity, 1 + len(self.names)), np.nan)
        self._next = 0
        self._count = 0
        self._series = {}              # name -> (times, values), until the next sample or clear

    def clear(self):
        """Forget everything (after a reset the clock starts again)."""
        self._next = 0
        self._count = 0
        self._series = {}

    def __len__(self):
        return self._count

    def append(self, telemetry):
        """Record a sample (a :class:`~flightsim.simulation.Telemetry`, or anything with ``t`` and the
        series' attributes) if enough time has passed."""
        t = float(telemetry.t)
        if self._count:
            last = self._data[(self._next - 1) % self.capacity, 0]
            if t < last:                  # the clock went back: a reset
                self.clear()
            elif t - last < 0.5 * self.min_interval:
                return
        row = [t] + [float(getattr(telemetry, name)) for name in self.names]
        self._data[self._next] = row
        self._next = (self._next + 1) % self.capacity
        self._count = min(self._count + 1, self.capacity)
        self._series = {}

    def series(self, name):
        """(times, values) in time order for ``name`` (one of the recorded series).

        Heading values get NaN where they wrap through North, so a chart
        shows a gap instead of a vertical line.  The arrays are computed once
        per sample (samples come a few times a second, charts are drawn every
        frame); callers must not change them.
        """
        cached = self._series.get(name)
        if cached is None:
            cached = self._series[name] = self._compute(name)
        return cached

    def _compute(self, name):
        if self._count == 0:
            empty = np.zeros(0)
            return empty, empty
        start = (self._next - self._count) % self.capacity
        idx = (start + np.arange(self._count)) % self.capacity
        rows = self._data[idx]
        rows = rows[rows[:, 0] >= rows[-1, 0] - self.span]
        t = rows[:, 0].copy()
        y = rows[:, 1 + self.names.index(name)].copy()
        if name == "heading" and len(y) > 1:
            wrap = np.abs(np.diff(y)) > 180.0
            y[1:][wrap] = np.nan
        return t, y

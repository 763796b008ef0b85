"""Recording the flown states to a trace CSV while flying (no GUI).

A :class:`Recorder` hooks into the flight's ``followers`` (a
:class:`~flightsim.simulation.source.FlightSource` whose capabilities say
``can_record``), so it sees every physics step, not just every frame: the
trace holds each step's time, state ``[x, v, q, ω]`` and the (clamped)
controls the step flew with, and
``flightsim replay`` shows the recorded attitude at the recorded times.  The
file is written when recording stops (:func:`flightsim.simulation.trace.write_csv`,
atomically), with a timestamped name in the chosen directory.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from flightsim.simulation import trace

__all__ = ["Recorder"]


def stamped_path(directory, suffix, prefix="flightsim"):
    """A new file name ``<prefix>-YYYYmmdd-HHMMSS[-n]<suffix>`` in ``directory`` that does not exist yet."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(directory) / f"{prefix}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = Path(directory) / f"{prefix}-{stamp}-{n}{suffix}"
    return path


class Recorder:
    """Records a flight (a :class:`~flightsim.simulation.source.FlightSource` that ``can_record``) step by step.

    Parameters
    ----------
    directory : str or Path
        Where traces are written.

    Attributes
    ----------
    sim : FlightSource or None
        The flight being recorded (None when not recording).
    last_path : Path or None
        The last trace written.
    """

    def __init__(self, directory=".", prefix="flightsim"):
        self.directory = Path(directory)
        self.prefix = prefix
        self.sim = None
        self.last_path = None
        self._times, self._states, self._controls, self._ground, self._wind, self._place = [], [], [], [], [], []

    @property
    def recording(self) -> bool:
        return self.sim is not None

    @property
    def rows(self) -> int:
        """Rows recorded so far."""
        return len(self._times)

    @property
    def seconds(self) -> float:
        """Simulated time covered so far."""
        return self._times[-1] - self._times[0] if self._times else 0.0

    def start(self, sim):
        """Start recording ``sim``; the first row is its current state."""
        if self.recording:
            self.stop()
        self.sim = sim
        self._times, self._states, self._controls, self._ground, self._wind, self._place = [], [], [], [], [], []
        self._tuned, self._failed = [], []
        #: a round planet's place is read at every step; a flat one's found from the states at the end
        self._round, self._origin = sim.planet.round, (sim.lat, sim.lon)
        self._append()
        sim.followers.append(self._append)

    def _append(self):
        sim = self.sim
        self._times.append(sim.t)
        self._states.append(sim.vector)
        self._controls.append(sim.flown_controls)
        self._ground.append(sim.telemetry().on_ground)
        self._wind.append(sim.wind[:3])
        if self._round:
            self._place.append(sim.geodetic)
        radio = getattr(sim, "nav", None)
        self._tuned.append(None if radio is None else (radio, radio.station, radio.obs))
        self._failed.append((sim.failures.bits, sim.gauges.indicated_airspeed))

    def stop(self):
        """Stop and write the trace; return its path (None if nothing was recording).

        Raises
        ------
        OSError
            The file could not be written (the rows are dropped all the same).
        """
        sim = self.sim
        if sim is None:
            return None
        if self._append in sim.followers:
            sim.followers.remove(self._append)
        rows = self.table()
        self.sim = None
        self._times, self._states, self._controls, self._ground, self._wind, self._place = [], [], [], [], [], []
        self._tuned, self._failed = [], []
        path = stamped_path(self.directory, ".csv", self.prefix)
        trace.write_csv(path, rows)
        self.last_path = path
        return path

    def discard(self):
        """Stop recording and drop the rows (nothing written)."""
        if self.sim is not None and self._append in self.sim.followers:
            self.sim.followers.remove(self._append)
        self.sim = None
        self._times, self._states, self._controls, self._ground, self._wind, self._place = [], [], [], [], [], []
        self._tuned, self._failed = [], []

    def table(self):
        """The rows recorded so far as a trace table (:data:`flightsim.simulation.trace.COLUMNS`)."""
        states = np.array(self._states).reshape(-1, 13)
        place = (np.array(self._place) if self._round
                 else trace.flat_geodetic_rows(states[:, 0], states[:, 1], states[:, 2], *self._origin))
        return trace.table(np.array(self._times), states, np.array(self._controls),
                           on_ground=np.array(self._ground, dtype=np.float64), wind=np.array(self._wind),
                           geodetic=place, nav=_nav_rows(self._tuned, states),
                           failures=[f for f, _ in self._failed], ias=[v for _, v in self._failed])


def _nav_rows(tuned, states):
    """The NAV columns of the rows ``states``, each with the station and course the radio had then (``tuned``:
    ``(radio, station, obs)`` per row, or None), computed a run of rows at a time."""
    from flightsim.simulation.navigation import receive

    nav = np.full((states.shape[0], 3), np.nan)
    k = 0
    while k < len(tuned):
        end = k + 1
        while end < len(tuned) and tuned[end] is not None and tuned[k] is not None and tuned[end][1:] == tuned[k][1:]:
            end += 1
        if tuned[k] is not None and tuned[k][1] is not None:
            radio, station, obs = tuned[k]
            r = receive(station, obs, states[k:end, :3], radio.height)
            nav[k:end] = np.column_stack([r["course_dots"], r["gs_dots"], r["dme_nm"]])
        k = end
    return nav

"""Replay a recorded trace as a :class:`~flightsim.simulation.source.FlightSource`, like a live flight.

A :class:`Replay` has the :data:`~flightsim.simulation.source.PLAYBACK`
capabilities: it seeks (it is a :class:`~flightsim.simulation.source.Playback`),
and it cannot be flown, recorded again, followed by a ghost or switched
to another integrator.

The replay clock advances with the frame time (scaled, pausable); the pose
shown is interpolated between the two recorded rows around the clock,
position linearly and orientation by a hemisphere-checked nlerp, so the
recorded attitude is shown at the recorded times.
"""

import math

import numpy as np

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.simulation import trace
from flightsim.simulation.clock import clamp_frame
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import (
    FlightState,
    Telemetry,
    deflections,
    gear_legs,
    indicated,
    instruments,
    resolve_aircraft,
    sideslip,
)
from flightsim.simulation.source import PLAYBACK


class Replay:
    """A trace played back in time.

    Parameters
    ----------
    path : str or Path
        A trace CSV (``flightsim simulate --out`` or recorded in the app).
    aircraft : None, path or Aircraft
        The airplane to draw (default: the book's).

    Raises
    ------
    flightsim.errors.InputError
        A damaged trace or aircraft file.
    """

    capabilities = PLAYBACK
    integrator = "replay"

    def __init__(self, path, aircraft=None):
        self.path = path
        self.table = trace.read_csv(path)
        self.aircraft = resolve_aircraft(aircraft)
        self._params = aero.pack(self.aircraft)
        self._param_fields = tuple(self._params)
        times = self.table[:, 0]
        self.dt = float(np.median(np.diff(times))) if len(times) > 1 else 1.0 / 120.0
        self.paused = False
        self.time_scale = 1.0
        self.renormalize = True
        self.status = None
        #: a replay takes no physics steps: these never run (``capabilities.can_record`` is false)
        self.followers = []
        self.wind_spec = None          # a trace holds the wind met, not the wind's make-up
        self.reset()

    @property
    def rows(self):
        """Recorded rows."""
        return len(self.table)

    @property
    def start(self):
        """Time of the first recorded row, s."""
        return float(self.table[0, 0])

    @property
    def end(self):
        """Time of the last recorded row, s."""
        return float(self.table[-1, 0])

    def reset(self):
        """Back to the first recorded row."""
        self.t = self.start
        self._prev_t = self.t

    def seek(self, t):
        """Jump the replay clock to ``t`` (clamped to the recording)."""
        self._prev_t = self.t
        self.t = min(max(float(t), self.start), self.end)

    def advance(self, frame_seconds):
        """Move the clock by the clamped, scaled frame time; returns 1 if it moved, else 0."""
        if self.paused or not math.isfinite(frame_seconds) or self.t >= self.end:
            return 0
        self.seek(self.t + clamp_frame(frame_seconds) * self.time_scale)
        return 1

    def _row(self, t):
        """The state vector (13) and controls (8) at time ``t``, interpolated between recorded rows."""
        times = self.table[:, 0]
        k = int(np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 1))
        a = self.table[k]
        controls = trace.controls_of(a)[0]          # controls hold from their row, as in a schedule
        if k + 1 >= len(times):
            return a[1:14].copy(), controls
        b = self.table[k + 1]
        f = (t - a[0]) / (b[0] - a[0])
        y = a[1:14] + f * (b[1:14] - a[1:14])
        y[6:10] = quat.nlerp(a[7:11], b[7:11], f)
        return y, controls

    def set_state(self, state, previous=None, status=None):
        """Show the recording at ``state.t``: a replay's state is its place in the recording.

        The clock moves to ``state.t`` (clamped to the recording) and the
        previous time to ``previous.t`` (default: the same); the recorded
        states there are shown, whatever numbers ``state`` holds, so
        ``replay.set_state(replay.state, replay.previous)`` comes back to the
        same place.  A replay never stops, so ``status`` must be None.
        """
        if status is not None:
            raise ValueError("a replay shows recorded states; it has no stopped state to load")
        self.t = min(max(float(state.t), self.start), self.end)
        self._prev_t = self.t if previous is None else min(max(float(previous.t), self.start), self.end)

    @property
    def state(self):
        """The recorded :class:`FlightState` at the clock (interpolated between rows)."""
        return FlightState.from_vector(self.t, self._row(self.t)[0])

    @property
    def previous(self):
        """The recorded :class:`FlightState` where the clock was before its last move."""
        return FlightState.from_vector(self._prev_t, self._row(self._prev_t)[0])

    @property
    def vector(self):
        """The recorded state ``[x, v, q, ω]`` at the clock (interpolated)."""
        return self._row(self.t)[0]

    @property
    def controls(self):
        """The recorded controls at the clock (a new object: moving it flies nothing)."""
        return Controls.from_array(self._row(self.t)[1])

    @property
    def running(self):
        """Always True: a replay only shows what was recorded."""
        return True

    def render_pose(self):
        """The recorded position and attitude at the clock (interpolated between the rows around it)."""
        y = self._row(self.t)[0]
        return y[0:3], y[6:10]

    @property
    def geodetic(self):
        """The recorded latitude, longitude (deg) and height above the ellipsoid (ft) at the clock, interpolated
        between the rows around it (across the date line the short way); an older trace's, which says none, are
        the flat earth frame laid at 0°, 0° (:func:`flightsim.simulation.trace.read_csv`)."""
        times, at = self.table[:, 0], trace.GEODETIC_AT
        k = int(np.clip(np.searchsorted(times, self.t, side="right") - 1, 0, len(times) - 1))
        a = self.table[k, at:at + 3]
        if k + 1 >= len(times):
            return float(a[0]), float(a[1]), float(a[2])
        b = self.table[k + 1, at:at + 3]
        f = (self.t - times[k]) / (times[k + 1] - times[k])
        dlon = (b[1] - a[1] + 180.0) % 360.0 - 180.0
        lon = (a[1] + f * dlon + 180.0) % 360.0 - 180.0
        return float(a[0] + f * (b[0] - a[0])), float(lon), float(a[2] + f * (b[2] - a[2]))

    def _wind_at(self, t):
        """The recorded earth wind (ft/s) at time ``t``, held from its row."""
        times = self.table[:, 0]
        k = int(np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 1))
        return self.table[k, 24:27].copy()

    def telemetry(self):
        """The instruments at the clock; the gear's loads from the recorded state and controls."""
        y, u = self._row(self.t)
        wind = self._wind_at(self.t)
        roll, pitch, heading, airspeed, alpha = instruments(y, wind)
        self._params.controls[:] = u
        aero.loads_fields(self.t, y, self._param_fields)
        gear = gear_legs(self.aircraft, self._params)
        lat, lon, alt_msl = self.geodetic
        return Telemetry(
            t=self.t, roll=roll, pitch=pitch, heading=heading, airspeed=airspeed,
            altitude=float(y[2] - self.aircraft.contact_height), vertical_speed=float(y[5]), alpha=alpha,
            stall=False, qnorm_error=0.0, step_us=0.0, throttle=float(u[0]),
            thrust=float(self._params.diag[aero.D_THRUST]), rpm=float(self._params.diag[aero.D_RPM]),
            indicated_airspeed=indicated(airspeed, float(self._params.diag[aero.D_RHO])),
            on_ground=any(g.wheel and g.load > 0.0 for g in gear),
            integrator=self.integrator, gear=gear,
            groundspeed=float(math.hypot(y[3], y[4])), wind=tuple(float(w) for w in wind),
            beta=sideslip(y, wind), lat=lat, lon=lon, alt_msl=alt_msl,
        )

    def surface_deflections(self):
        """The recorded controls' deflections at the clock, per element (a JSBSim aircraft's surfaces: its flight
        controls settled on the recorded controls at the recorded state)."""
        y, u = self._row(self.t)
        if self._params.jsb_on:
            self._params.controls[:] = u
            aero.settle(self.t, y, self._params)
        return deflections(self._params, u[:5], self.aircraft)

    def set_integrator(self, name):
        """A replay has no integrator to switch (``capabilities.can_switch_integrator`` is false)."""
        raise ValueError("a replay shows recorded states; it has no integrator to switch")

"""The numbers behind the HUD's Dynamics panel: the modes about a trim, and the integrators' view of them (no GUI).

A :class:`DynamicsCompanion` keeps a :class:`flightsim.simulation.dynamics.Dynamics`
(the airplane linearised about a trim) and, while the panel is shown, hands
the app a :class:`~flightsim.app.hud.hud_view.DynamicsReadout`: the modes, and
for the flight's integrator at its dt (and the ghost's at its own) each
mode's ``λ·dt``, its multiplier per step, whether the step keeps it bounded,
the largest stable dt and the integrator's stability region.

It works only when asked and only when something changed: while the panel
is hidden :meth:`DynamicsCompanion.readout` returns None at once, and while it
is shown the readout is rebuilt only when the trim, an integrator or a dt
changes (the first look at an integrator costs a few tenths of a second:
its region and its largest stable dt; linearising, a few milliseconds).

About which trim: the one the flight started from if it started trimmed,
the one *Trim now* found, or level flight where the airplane is when the
panel is first opened (at the aircraft's cruise speed if it has one) or
when the pilot asks to re-linearise there.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.app.hud.hud_view import DynamicsReadout, StepReadout
from flightsim.math import quat
from flightsim.physics import stability
from flightsim.simulation.dynamics import Dynamics, region

__all__ = ["DynamicsCompanion"]


class DynamicsCompanion:
    """The Dynamics panel's state and its cached numbers.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"} or None
        None: the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    trim : flightsim.physics.trim.TrimPoint, optional
        The trim the flight started from (its modes are the first shown).
    show : bool
        The panel is shown from the start.

    Attributes
    ----------
    show : bool
        The panel is shown (only then is anything computed).
    error : str or None
        Why the last trim or re-linearisation failed, or None.
    """

    def __init__(self, aircraft, atmosphere=None, trim=None, show=False):
        self.aircraft = aircraft
        self.atmosphere = atmosphere
        self.show = bool(show)
        self.error = None
        self._pending = trim            # a trim to linearise about when the numbers are next needed
        self._dynamics = None
        self._first_look_done = trim is not None
        self._generation = 0            # counts linearisations
        self._builds = 0                # counts readouts built (their ``generation``)
        self._key = None
        self._readout = None

    @property
    def dynamics(self):
        """The :class:`~flightsim.simulation.dynamics.Dynamics` (made on first use)."""
        if self._dynamics is None:
            self._dynamics = Dynamics(self.aircraft, self.atmosphere)
        return self._dynamics

    @property
    def trim(self):
        """The trim the modes are about (None before the first linearisation)."""
        if self._pending is not None:
            return self._pending
        return None if self._dynamics is None else self._dynamics.trim

    def use_trim(self, point):
        """Show the modes about ``point`` (a :class:`~flightsim.physics.trim.TrimPoint`), linearised when next
        needed."""
        self._pending = point
        self._first_look_done = True
        self.error = None
        self._generation += 1

    def start_over(self, trim):
        """After a reset: the modes about the start's ``trim``; for an untrimmed start (None), about level flight
        where the airplane is, found when the panel next shows (as for a new flight) — not the last Trim now's."""
        if trim is not None:
            if self.trim is not trim:
                self.use_trim(trim)
            return
        self._pending = None
        self._first_look_done = False
        self.error = None
        self._generation += 1

    def linearize_at(self, airspeed, altitude, flaps=0.0, heading=0.0):
        """Trim level flight at ``airspeed`` (ft/s), ``altitude`` (ft) and linearise about it.

        Returns
        -------
        str or None
            None on success; else why not (also :attr:`error`; the earlier modes stay).
        """
        self._first_look_done = True
        self._take_pending()
        if not self.dynamics.linearize_at(airspeed, altitude, flaps, heading):
            self.error = _one_line(self.dynamics.message)
        else:
            self.error = None
        self._generation += 1
        return self.error

    def linearize_where(self, source, airspeed=None):
        """:meth:`linearize_at` the source's altitude, heading and flaps, at ``airspeed`` (default: its own, through
        the air)."""
        state = source.state
        heading = float(quat.aviation_angles(state.q)[2])
        speed = float(source.telemetry().airspeed) if airspeed is None else float(airspeed)
        flaps = min(max(float(source.controls.flaps), 0.0), 1.0) if math.isfinite(source.controls.flaps) else 0.0
        return self.linearize_at(speed, float(state.position[2]), flaps, heading)

    def readout(self, source, ghost=None):
        """The panel's :class:`~flightsim.app.hud.hud_view.DynamicsReadout`, or None while it is hidden.

        Parameters
        ----------
        source : flightsim.simulation.source.FlightSource
            The flight: its integrator and dt where ``capabilities.can_switch_integrator``.
        ghost : (str, float) or None
            The ghost's integrator and step (s) while a ghost flies.
        """
        if not self.show:
            return None
        if not self._first_look_done:
            self.linearize_where(source, getattr(self.aircraft, "cruise_speed", None))
        self._take_pending()
        methods = []
        if source.capabilities.can_switch_integrator:
            methods.append(("flight", source.integrator, float(source.dt)))
        if ghost is not None:
            methods.append(("ghost", ghost[0], float(ghost[1])))
        key = (self._generation, tuple(methods))
        if key != self._key:
            self._builds += 1
            self._readout = self._build(methods)
            self._key = key
        return self._readout

    # ------------------------------------------------------------------ internals

    def _take_pending(self):
        if self._pending is not None:
            point, self._pending = self._pending, None
            self.dynamics.use_trim(point)

    def _build(self, methods):
        d = self._dynamics
        if d is None or d.linear is None:
            return DynamicsReadout(header="no modes: " + (self.error or "not linearised yet"), error=None,
                                   modes=(), steps=(), generation=self._builds)
        point = d.trim
        header = f"about {point.describe()}"
        steps = []
        error = self.error
        for role, name, dt in methods:
            try:
                steps.append(_step_readout(d, role, name, dt))
            except (ArithmeticError, ValueError, np.linalg.LinAlgError) as exc:
                error = _one_line(f"{name} at dt {dt:g} s: cannot analyse ({exc})")
        return DynamicsReadout(header=header, error=error, modes=tuple(d.modes), steps=tuple(steps),
                               generation=self._builds)


def _step_readout(d, role, name, dt):
    """One :class:`~flightsim.app.hud.hud_view.StepReadout` (cached in ``d`` per integrator and dt)."""
    found = tuple(d.at(name, dt))
    points = {True: ([], []), False: ([], [])}
    for m in found:
        zs = (m.z,) if m.z.imag == 0.0 else (m.z, m.z.conjugate())
        for z in zs:
            points[m.stable][0].append(z.real)
            points[m.stable][1].append(z.imag)
    inside = [abs(stability.amplification(name, m.z)) <= 1.0 + 1e-9 for m in found]
    return StepReadout(role=role, integrator=name, dt=dt, modes=found, largest_stable_dt=d.largest_stable_dt(name),
                       region=region(name), stable_points=_arrays(points[True]),
                       unstable_points=_arrays(points[False]),
                       beyond_region=tuple(m.mode.name for m, ok in zip(found, inside, strict=True)
                                           if m.stable and not ok and m.mode.real < 0.0),
                       inside_region=tuple(m.mode.name for m, ok in zip(found, inside, strict=True)
                                           if not m.stable and ok))


def _arrays(xy):
    return np.array(xy[0], dtype=np.float64), np.array(xy[1], dtype=np.float64)


def _one_line(text):
    return " ".join(str(text).split())

"""The airplane's dynamic modes about a trim, and what the integrators make of them at a dt.

:class:`Dynamics` is what the app's Dynamics panel reads: the modes of the
linearised airplane (:mod:`flightsim.physics.modes`) about a trim, each
mode's ``λ·dt`` and its multiplier per step under an integrator at a dt
(:mod:`flightsim.physics.stability`), and the integrators' stability regions.
Linearising takes a few milliseconds and each integrator's region a few
tenths of a second the first time, so the panel asks again only when the trim,
the integrator or the dt change.
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from flightsim.physics import modes, stability
from flightsim.physics.trim import AirplaneModel, TrimError, trim


@dataclass(frozen=True)
class ModeAtDt:
    """One mode under one integrator at one dt.

    Attributes
    ----------
    mode : flightsim.physics.modes.Mode
    z : complex
        ``λ·dt`` (the upper eigenvalue of a pair).
    multiplier : complex
        The integrator's amplification of the mode per step (``e^{λ dt}`` if exact).
    stable : bool
        The integrator keeps the mode bounded (or the mode grows by itself).
    """

    mode: object
    z: complex
    multiplier: complex
    stable: bool


class Dynamics:
    """Modes of one airplane about a trim, re-linearised on request.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"} or None
        None: the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    """

    def __init__(self, aircraft, atmosphere=None):
        self.aircraft = aircraft
        self.model = AirplaneModel(aircraft, atmosphere)
        self.atmosphere = self.model.atmosphere        # (None resolved: the aircraft's own)
        self.trim = None
        self.linear = None
        self.modes = []
        self.message = "not linearised yet"
        self._cache = {}

    def linearize_at(self, airspeed, altitude, flaps=0.0, heading=0.0):
        """Trim level flight at ``airspeed`` (ft/s) and ``altitude`` (ft) and linearise about it.

        Returns
        -------
        bool
            False when no trim exists there; :attr:`message` says why and the last modes stay.
        """
        try:
            point = trim(self.aircraft, airspeed, altitude, 0.0, flaps, heading, atmosphere=self.atmosphere,
                         model=self.model, report_range=False)
        except (TrimError, ValueError) as exc:
            self.message = str(exc)
            return False
        self.use_trim(point)
        return True

    def use_trim(self, point):
        """Linearise about a trim already found (:class:`flightsim.physics.trim.TrimPoint`)."""
        self.trim = point
        self.linear = modes.linearize(point, self.aircraft, self.atmosphere, model=self.model)
        self.modes = modes.dynamic_modes(self.linear)
        self.message = f"about {point.describe()}"
        self._cache.clear()

    def at(self, integrator, dt):
        """Each mode's ``λ·dt``, multiplier and stability under ``integrator`` at ``dt`` (cached).

        Returns
        -------
        list of ModeAtDt
        """
        if self.linear is None:
            return []
        key = (integrator, round(float(dt), 12))
        if key not in self._cache:
            found = stability.mode_multipliers(integrator, self.linear, self.modes, dt, self.model)
            self._cache[key] = [ModeAtDt(m, m.eigenvalue * dt, mu, ok) for m, mu, ok in found]
        return self._cache[key]

    def largest_stable_dt(self, integrator):
        """The largest dt (s) at which ``integrator`` keeps every mode bounded, or None before linearising."""
        if self.linear is None:
            return None
        key = ("limit", integrator)
        if key not in self._cache:
            self._cache[key] = stability.largest_stable_dt(integrator, self.linear, self.modes, self.model)
        return self._cache[key]


@lru_cache(maxsize=None)
def region(integrator):
    """The stability region boundary of ``integrator`` as two float arrays (Re z, Im z), for plotting."""
    boundary = stability.region_boundary(integrator)
    return np.ascontiguousarray(boundary[:, 0]), np.ascontiguousarray(boundary[:, 1])

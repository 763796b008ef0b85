"""The app's ghost airplane: switched on and off, configured, measured against the airplane (no GUI).

A :class:`GhostCompanion` keeps the ghost's settings while it is off, starts
a :class:`flightsim.simulation.ghost.Ghost` beside a live flight when it is
switched on, and after every frame charts its attitude and position
difference from the airplane (:attr:`GhostCompanion.history`).  Drawing it is
the app's business.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flightsim.app.hud.history import History
from flightsim.app.hud.hud_view import GhostReadout
from flightsim.simulation.ghost import DEFAULT_INTEGRATOR, DEFAULT_SUBSTEPS, Ghost

__all__ = ["GHOST_SERIES", "GhostCompanion", "GhostSample", "MAX_GHOST_SUBSTEPS"]

MAX_GHOST_SUBSTEPS = 64
"""Most ghost steps per physics step the app offers."""

GHOST_SERIES = ("attitude", "position")
"""The ghost's strip-chart series: attitude difference (deg) and position difference (ft)."""


@dataclass(frozen=True)
class GhostSample:
    """The ghost's difference from the airplane at time ``t``: attitude (deg) and position (ft)."""

    t: float
    attitude: float
    position: float


class GhostCompanion:
    """A ghost airplane beside a live flight, or its settings while there is none.

    Parameters
    ----------
    integrator : str
        The ghost's integrator (when it is switched on).
    substeps : int
        Ghost steps per physics step, clamped to 1..:data:`MAX_GHOST_SUBSTEPS`.

    Attributes
    ----------
    flight : flightsim.simulation.ghost.Ghost or None
        The ghost flying now, or None when it is off.
    integrator : str
    substeps : int
    history : History
        The difference over the last 30 s (:data:`GHOST_SERIES`), 5 samples a second.
    difference : (float, float)
        Attitude (deg) and position (ft) difference at the last :meth:`measure`.
    """

    def __init__(self, integrator=DEFAULT_INTEGRATOR, substeps=DEFAULT_SUBSTEPS):
        self.flight = None
        self.integrator = integrator
        self.substeps = _clamp_substeps(substeps)
        self.history = History(span=30.0, rate=5.0, series=GHOST_SERIES)
        self.difference = (0.0, 0.0)

    @property
    def on(self) -> bool:
        return self.flight is not None

    def start(self, main):
        """Fly a ghost beside ``main`` (a live Simulation), from its current state; nothing if one flies."""
        if self.flight is None:
            self.flight = Ghost(main, self.integrator, self.substeps)
            self.history.clear()
            self.difference = (0.0, 0.0)

    def stop(self):
        """Take the ghost away (its settings stay)."""
        if self.flight is not None:
            self.flight.detach()
            self.flight = None

    def configure(self, integrator=None, substeps=None):
        """Change the integrator and/or sub-steps; a flying ghost keeps its state and goes on with them."""
        if integrator is not None:
            self.integrator = integrator
        if substeps is not None:
            self.substeps = _clamp_substeps(substeps)
        if self.flight is not None:
            self.flight.configure(self.integrator, self.substeps)

    def resync(self):
        """Put the ghost back on the airplane (clears a ghost's crash)."""
        if self.flight is not None:
            self.flight.resync()
            self.difference = self.flight.difference()

    def measure(self, t):
        """After a frame's physics: the difference now (kept where finite) into :attr:`history` at time ``t``."""
        att, pos = self.flight.difference()
        if math.isfinite(att) and math.isfinite(pos):
            self.difference = (att, pos)
            self.history.append(GhostSample(float(t), att, pos))

    def readout(self):
        """A :class:`~flightsim.app.hud.hud_view.GhostReadout` for the HUD."""
        return GhostReadout(on=self.flight is not None, integrator=self.integrator, substeps=self.substeps,
                            status=None if self.flight is None else self.flight.sim.status,
                            difference=self.difference, history=self.history)


def _clamp_substeps(substeps):
    return min(max(int(substeps), 1), MAX_GHOST_SUBSTEPS)

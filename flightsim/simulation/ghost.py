"""A ghost airplane: the same flight integrated by a second integrator, for comparison.

The ghost starts from the main airplane's state, receives the same control
inputs, and after every main step takes ``substeps`` steps of ``dt/substeps``
with its own integrator (by default ``rk4`` with 8 sub-steps: a reference).
The difference between the two — attitude in degrees, position in feet — is
what the integrator choice costs in accuracy, seen while flying.

The ghost follows the main flight through its public interface only: a
follower run after every main step, its ``controls``, ``state`` and
``alpha``, and :meth:`~flightsim.simulation.Simulation.set_state` to put
the ghost on a state.  It flies through the very wind the main airplane
met in that step (:meth:`~flightsim.simulation.Simulation.hold_wind`), so
turbulence makes no difference between the two.
"""

import numpy as np

from flightsim.math import quat
from flightsim.simulation.flight import Simulation

DEFAULT_INTEGRATOR = "rk4"
DEFAULT_SUBSTEPS = 8


class Ghost:
    """A second :class:`Simulation` that follows a main one.

    Parameters
    ----------
    main : Simulation
        The airplane the pilot flies.
    integrator : str
        The ghost's integrator.
    substeps : int
        Ghost steps per main step (≥ 1).
    """

    def __init__(self, main, integrator=DEFAULT_INTEGRATOR, substeps=DEFAULT_SUBSTEPS):
        self.main = main
        self.sim = None
        self.configure(integrator, substeps)
        main.followers.append(self._follow)

    def configure(self, integrator, substeps):
        """Change the ghost's integrator or sub-steps; the ghost keeps its own state."""
        substeps = int(substeps)
        if substeps < 1:
            raise ValueError(f"substeps: must be ≥ 1, got {substeps}")
        old = self.sim
        self.substeps = substeps
        main = self.main
        self.sim = Simulation(main.aircraft, integrator, main.dt / substeps, main.atmosphere, main.renormalize,
                              planet=main.planet, lat=main.lat, lon=main.lon, terrain=main.terrain)
        if old is None:
            self.resync()
        else:
            self._load(old.state, old.status)

    def detach(self):
        """Stop following the main airplane."""
        if self._follow in self.main.followers:
            self.main.followers.remove(self._follow)

    @property
    def integrator(self):
        return self.sim.integrator

    def resync(self):
        """Put the ghost back on the main airplane's current state."""
        self._load(self.main.state, None)

    def _load(self, state, status):
        self.sim.set_state(state, status=status)
        self._held_wind = self.main.wind
        #: the ghost's state at the main airplane's previous step (where its render blend starts)
        self._frame_prev = self.sim.vector

    def _follow(self):
        """After a main step: the same controls (the elevator trim too), ``substeps`` ghost steps."""
        sim = self.sim
        self._frame_prev = sim.vector
        c, g = self.main.controls, sim.controls
        g.throttle, g.elevator, g.aileron, g.rudder, g.flaps = c.throttle, c.elevator, c.aileron, c.rudder, c.flaps
        sim.hold_wind(self._held_wind)
        g.elevator_trim = c.elevator_trim
        g.brake, g.parking_brake = c.brake, c.parking_brake
        for _ in range(self.substeps):
            if not sim.step():
                break
        self._held_wind = self.main.wind   # what the main airplane holds through its next step

    def render_pose(self):
        """The ghost's pose at the main airplane's render blend factor."""
        a = self.main.alpha
        prev, now = self._frame_prev, self.sim.vector
        pos = prev[0:3] + a * (now[0:3] - prev[0:3])
        return pos, quat.nlerp(prev[6:10], now[6:10], a)

    def difference(self):
        """``(attitude difference deg, position difference ft)`` between main and ghost now."""
        m, g = self.main.vector, self.sim.vector
        return float(np.degrees(quat.angle_between(m[6:10], g[6:10]))), float(np.linalg.norm(m[0:3] - g[0:3]))

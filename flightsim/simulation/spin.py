"""A torque-free rigid body tumbling in space, stepped by any registered integrator, with a ghost.

:class:`SpinSimulation` is what ``flightsim spin`` shows: the body of a
:class:`~flightsim.simulation.lab.SpinBody` stepped at a fixed dt by an
integrator that can be switched between steps (every integrator advances the
same state, so the body never jumps), beside a **ghost**: the same body from
the same state, either in closed form (:class:`~flightsim.physics.top.FreeTop`,
``"exact"``) or stepped by a second integrator.  It keeps the energy and |L|
drift, |q| − 1, the attitude difference to the ghost and the cost of a step.

:func:`load_spin_body` reads a body from a small TOML file::

    name = "my crate"                                # optional
    inertia = [0.02, 0.05, 0.06]                     # principal moments, kg·m² (or a 3×3 tensor)
    omega = [0.1, 8.0, 0.1]                          # initial body-frame ω, rad/s
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass

import numpy as np

from flightsim.math import quat
from flightsim.physics import divergence, integrators, rigidbody
from flightsim.physics.integrators import INTEGRATORS
from flightsim.physics.top import FreeTop
from flightsim.schema import Checker, read_toml
from flightsim.simulation.clock import MAX_FRAME, FixedStep  # noqa: F401 (MAX_FRAME: this module's API)
from flightsim.simulation.lab import SPIN_BODIES, SpinBody

__all__ = ["EXACT", "SpinReadout", "SpinSimulation", "load_spin_body", "resolve_spin_body"]

#: The ghost's name for the closed-form solution.
EXACT = "exact-solution"
#: Fastest spin accepted from a file (rad/s): beyond it no step at game rates means anything.
MAX_OMEGA = 1000.0
#: Largest moment (or product) of inertia accepted from a file (kg·m²): ten times the ISS's, and far from
#: where the exact solution's products (I ω², up to 1e15) could overflow.
MAX_INERTIA = 1e9


def load_spin_body(path):
    """A :class:`SpinBody` from a TOML file (see the module docstring); bad input is one InputError line."""
    data = read_toml(path)
    check = Checker(path)
    check.table(data, "", required=("inertia", "omega"), optional=("name",))
    name = check.string(data["name"], "name") if "name" in data else str(getattr(path, "stem", path))
    raw = data["inertia"]
    if isinstance(raw, list) and raw and all(isinstance(row, list) for row in raw):
        if len(raw) != 3:
            check.fail("inertia", f"a tensor must have 3 rows, got {len(raw)}")
        rows = [check.numbers(row, f"inertia[{i}]", length=3, ge=-MAX_INERTIA, le=MAX_INERTIA, unit="kg·m²")
                for i, row in enumerate(raw)]
    else:
        moments = check.numbers(raw, "inertia", length=3, gt=0.0, le=MAX_INERTIA, unit="kg·m²")
        rows = [[moments[0], 0.0, 0.0], [0.0, moments[1], 0.0], [0.0, 0.0, moments[2]]]
    try:
        rigidbody.check_inertia(rows)
    except ValueError as exc:
        check.fail("inertia", str(exc).split(": ", 1)[-1])
    omega = check.numbers(data["omega"], "omega", length=3, ge=-MAX_OMEGA, le=MAX_OMEGA, unit="rad/s")
    if not any(omega):
        check.fail("omega", "must not be zero: a body at rest shows nothing")
    return SpinBody(name, name, str(path), tuple(tuple(r) for r in rows), tuple(omega), "from the file")


def resolve_spin_body(text):
    """A body by name (:data:`~flightsim.simulation.lab.SPIN_BODIES`) or from a ``.toml`` path."""
    if text in SPIN_BODIES:
        return SPIN_BODIES[text]
    if str(text).endswith(".toml"):
        from pathlib import Path

        return load_spin_body(Path(text))
    raise ValueError(f"body: unknown body {text!r}; valid: {', '.join(SPIN_BODIES)} or a .toml file")


@dataclass(frozen=True)
class SpinReadout:
    """What the HUD shows after a frame (numbers only)."""

    t: float
    integrator: str
    ghost: str | None
    dt: float
    qnorm_error: float       # |q| − 1 before renormalising, last step
    energy_drift: float      # (E − E0)/E0
    momentum_drift: float    # (|L| − |L0|)/|L0|
    ghost_difference: float  # attitude difference to the ghost, degrees (nan without a ghost)
    us_per_step: float
    omega: tuple             # body rad/s
    running: bool


class SpinSimulation:
    """A torque-free body at a fixed step, with a ghost and live integrator switching.

    Parameters
    ----------
    body : SpinBody
    integrator : str
        A name in :data:`~flightsim.physics.integrators.INTEGRATORS`.
    dt : float
        Physics step, s.
    ghost : str or None
        :data:`EXACT` for the closed form, an integrator name, or None for none.
    """

    def __init__(self, body, integrator="euler", dt=1 / 60, ghost=EXACT):
        self.body = body
        self.inertia, self.inertia_inv = rigidbody.check_inertia(body.tensor)
        self.dt = rigidbody.check_dt(dt)
        self.integrator = integrators.get(integrator).name
        self.ghost = self._check_ghost(ghost)
        self.paused = False
        self.time_scale = 1.0
        self._timings = deque(maxlen=240)      # µs of the last steps (the median is shown)
        self._clock = FixedStep(self.dt)
        self.reset()

    @staticmethod
    def _check_ghost(ghost):
        if ghost is None or ghost == EXACT:
            return ghost
        return integrators.get(ghost).name

    def reset(self):
        """Back to the start: identity attitude, the body's ω0; the ghost with it."""
        self.t = 0.0
        self._clock.reset()
        self.y = np.zeros(integrators.STATE_SIZE)
        self.y[integrators.Q] = (1.0, 0.0, 0.0, 0.0)
        self.y[integrators.W] = self.body.omega0
        self.previous = self.y.copy()
        self.qnorm_error = 0.0
        self.status = None
        w = self.y[integrators.W]
        self.energy0 = 0.5 * w @ self.inertia @ w
        self.momentum0 = np.linalg.norm(self.inertia @ w)
        self.resync_ghost()

    def resync_ghost(self):
        """Put the ghost on the body as it is now (running again if it had diverged)."""
        #: None while the ghost integrator runs; why it stopped once it diverged (it then keeps its last finite state)
        self.ghost_status = None
        self.ghost_y = self.y.copy()
        self.ghost_previous = self.ghost_y.copy()
        self._top = FreeTop(self.inertia, self.y[integrators.Q], self.y[integrators.W]) \
            if self.ghost == EXACT else None
        self._top_t0 = self.t

    def set_integrator(self, name):
        """Switch the body's integrator between two steps (the state goes on unchanged)."""
        self.integrator = integrators.get(name).name

    def set_ghost(self, ghost):
        """Change the ghost (:data:`EXACT`, an integrator name, or None); it restarts on the body."""
        self.ghost = self._check_ghost(ghost)
        self.resync_ghost()

    @property
    def running(self):
        return self.status is None

    def step(self):
        """One physics step of the body and of the ghost; False (and a :attr:`status`) once the body diverged.

        Divergence is found and worded as in every flight (:mod:`flightsim.physics.divergence`): the body
        keeps its last finite state, and a diverged ghost stops on its own (:attr:`ghost_status`).
        """
        if not self.running:
            return False
        self.previous = self.y.copy()
        method = INTEGRATORS[self.integrator]
        start = time.perf_counter()
        err = method.step(self.y, self.t, self.dt, rigidbody.FREE_BODY, self.inertia, self.inertia_inv)
        self._timings.append(1e6 * (time.perf_counter() - start))
        if divergence.diverged(err):
            self.status = divergence.message(self.integrator, self.t, self.dt, self.y)
            self.y = self.previous.copy()
            return False
        self.t += self.dt
        self.qnorm_error = err
        if self.ghost is not None and self.ghost != EXACT and self.ghost_status is None:
            self.ghost_previous = self.ghost_y.copy()
            ghost = INTEGRATORS[self.ghost]
            if divergence.diverged(ghost.step(self.ghost_y, self.t - self.dt, self.dt, rigidbody.FREE_BODY,
                                              self.inertia, self.inertia_inv)):
                self.ghost_status = divergence.message(self.ghost, self.t - self.dt, self.dt, self.ghost_y)
                self.ghost_y[:] = self.ghost_previous
        return True

    def advance(self, frame_seconds):
        """Step as many fixed steps as the (scaled) frame time holds (:class:`~flightsim.simulation.clock.FixedStep`);
        return how many."""
        if self.paused or not self.running:
            return 0
        return self._clock.run(frame_seconds, self.time_scale, self.step)

    def ghost_pose(self):
        """The ghost's attitude now (q, body → earth), or None (no ghost, or it diverged)."""
        if self.ghost is None:
            return None
        if self.ghost == EXACT:
            q, _ = self._top.at(self.t - self._top_t0)
            return q
        if self.ghost_status is not None:
            return None
        return quat.normalize(self.ghost_y[integrators.Q])

    def attitude(self):
        """The body's attitude q (body → earth) after the last step."""
        return self.y[integrators.Q].copy()

    def momentum_earth(self):
        """The earth-frame angular momentum R(q) I ω (fixed for an exact integrator)."""
        return quat.rotate(self.y[integrators.Q], self.inertia @ self.y[integrators.W])

    def ghost_momentum(self):
        """The ghost's earth-frame angular momentum, or None."""
        if self.ghost is None:
            return None
        if self.ghost == EXACT:
            return self._top.momentum
        if self.ghost_status is not None:
            return None
        return quat.rotate(quat.normalize(self.ghost_y[integrators.Q]), self.inertia @ self.ghost_y[integrators.W])

    def readout(self):
        """:class:`SpinReadout` of the state now."""
        w = self.y[integrators.W]
        ghost = self.ghost_pose()
        diff = math.degrees(quat.angle_between(self.y[integrators.Q], ghost)) if ghost is not None else math.nan
        return SpinReadout(
            t=self.t, integrator=self.integrator, ghost=self.ghost, dt=self.dt, qnorm_error=self.qnorm_error,
            energy_drift=(0.5 * w @ self.inertia @ w - self.energy0) / self.energy0,
            momentum_drift=(np.linalg.norm(self.inertia @ w) - self.momentum0) / self.momentum0,
            ghost_difference=diff, us_per_step=float(np.median(self._timings)) if self._timings else math.nan,
            omega=tuple(float(x) for x in w), running=self.running,
        )

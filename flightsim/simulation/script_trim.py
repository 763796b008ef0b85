"""A script's ``simulation/do_simple_trim`` 0, 1 and 5 as JSBSim runs it: FGTrim's iteration
(:mod:`flightsim.physics.jsbsim.fgtrim`) on the flight itself.

:class:`TrimPlant` is the FDM FGTrim iterates: JSBSim's initial condition (``FGInitialCondition``'s setters,
:func:`flightsim.physics.jsbsim.initial.initial_setters`) and the flight put there at each evaluation with its
flight controls and engines settled, its accelerations read as JSBSim's ``FGAccelerations`` gives them (the body
velocity's rate relative to the Earth, with the Coriolis, centripetal and J2 gravitation terms; the body rates'
rate) over the two frames ``FGFDMExec::Initialize`` and ``Run`` run with no time passing: the linearization's
(:class:`flightsim.simulation.linearization.StateSpace`).  Frames: JSBSim's (body x forward, y right, z down);
the commands JSBSim's properties (``fcs/pitch-trim-cmd-norm``, ``fcs/aileron-cmd-norm``,
``fcs/rudder-cmd-norm``, ``fcs/throttle-cmd-norm[k]``) with JSBSim's signs.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.physics import planet as planets
from flightsim.physics.jsbsim.fgtrim import FGTrim, TrimFailed
from flightsim.physics.jsbsim.program import canonical
from flightsim.simulation.linearization import StateSpace

__all__ = ["COMMANDS", "TrimPlant", "jsbsim_trim", "trim_summary"]

#: FGTrim's surface controls → the JSBSim commands FGFCS's setters write.
COMMANDS = {"pitch-trim": "fcs/pitch-trim-cmd-norm", "aileron": "fcs/aileron-cmd-norm",
            "rudder": "fcs/rudder-cmd-norm"}


class TrimPlant:
    """The flight ``sim`` (a JSBSim aircraft's, on the round planet) as FGTrim's FDM, at the initial condition
    ``ic`` (changed in place as JSBSim's trim changes its copy).

    Parameters
    ----------
    sim : flightsim.simulation.flight.Simulation
    ic : object
        :func:`~flightsim.physics.jsbsim.initial.initial_setters`' initial condition.
    command : callable
        ``command(name, value)``: a pilot's command held at ``value`` (the script's).
    known : callable
        ``known(name)``: whether the aircraft has the property ``name`` (a command nothing reads: FGTrim's write
        changes nothing).
    """

    def __init__(self, sim, ic, command, known):
        self.sim, self.ic, self.known = sim, ic, known
        self._write = command
        model = sim.aircraft.jsbsim
        count = len(model.propulsion.kinds)
        self.throttles = tuple(canonical(f"fcs/throttle-cmd-norm[{k}]") for k in range(count))
        #: each engine's (tMin, tMax): FGEngine's 0 and 1, FGPiston's from its file
        self.throttle_limits = tuple(model.propulsion.throttle_limits.get(k, (0.0, 1.0)) for k in range(count))
        #: the aerodynamics' α range (``<alphalimits>``), or None
        self.alpha_limits = model.aero.alpha_limits
        self.space = StateSpace(sim, ic, command, None, self.throttles)
        self.frames = 0

    def command(self, control, value, k=None):
        """FGFCS's setter of ``control`` (``throttle`` of engine ``k``, or a key of :data:`COMMANDS`)."""
        name = self.throttles[k] if control == "throttle" else COMMANDS[control]
        if self.known(name):
            self._write(name, value)

    def run(self):
        """``FGFDMExec::Initialize`` and ``Run`` with no time passing: the flight put at ``ic``, settled."""
        self.space.run()
        self.frames += 2

    def accelerations(self):
        """The last frame's ``(u̇, v̇, ẇ)`` ft/s² and ``(ṗ, q̇, ṙ)`` rad/s², JSBSim's body axes."""
        return self.space.uvw_dot, self.space.pqr_dot

    def gravity(self):
        """``FGInertial::GetGravity().Magnitude()`` at ``ic``'s place, ft/s²."""
        planet, pos = self.sim.planet, self.ic.pos
        return float(np.linalg.norm(planets.gravitation(float(pos[0]), float(pos[1]), float(pos[2]), planet.gm,
                                                        planet.a, planet.j2)))


def jsbsim_trim(sim, ic, mode, command, read, known):
    """FGTrim of ``mode`` (0, 1 or 5) on the flight ``sim`` from the initial condition ``ic``: the flight left at
    the trim (its state the iteration's last, settled), the commands at the trim's.  On failure the commands put
    back as they were (FGTrim's) and :class:`~flightsim.physics.jsbsim.fgtrim.TrimFailed` raised.

    Returns
    -------
    FGTrim
        The trim run (its axes, their controls and states; its rounds).
    """
    plant = TrimPlant(sim, ic, command, known)
    names = [*plant.throttles, *COMMANDS.values()]
    before = {name: read(name) for name in names if known(name)}
    trim = FGTrim(plant, mode)
    try:
        trim.do_trim()
    except TrimFailed:
        for name, value in before.items():
            command(name, value)
        raise
    return trim


def trim_summary(trim):
    """One line of the trim's result: each axis's control and acceleration (FGTrim's ``Report``)."""
    parts = []
    for axis in trim.axes:
        value = math.degrees(axis.control_value) if axis.control in ("alpha", "beta", "phi") else axis.control_value
        parts.append(f"{axis.control} {value:.6g} ({axis.state} {axis.state_value:.3g})")
    return f"{trim.iterations} iterations: " + ", ".join(parts)

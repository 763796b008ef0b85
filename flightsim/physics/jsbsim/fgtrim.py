"""JSBSim's classic trim (``FGTrim``, ``FGTrimAxis``): the axis-by-axis iteration a script's
``simulation/do_simple_trim`` runs, ported so that its answer is JSBSim's (not the exact balance).

FGTrim pairs each acceleration with one control (an *axis*) and solves the axes one after the other, each to its
own tolerance, round after round, until every acceleration is within its tolerance at once; where it stops is
the trim.  So its answer is the iteration's, not the exact balance that :func:`flightsim.physics.trim.trim`
finds: on JSBSim's rotating Earth the 737 of ``737_cruise`` leaves it with φ −0.0025 rad (the Coriolis
acceleration balanced by a bank) and θ 0.03971 rad.

The axes, in FGTrim's order (``FGTrim::SetMode``), JSBSim's body axes (x forward, y right, z down):

========================  =====================================================================================
mode                      axes (state ← control)
========================  =====================================================================================
0 ``tLongitudinal``       ẇ ← α, u̇ ← throttle, q̇ ← pitch trim
1 ``tFull``               ẇ ← α, u̇ ← throttle, q̇ ← pitch trim, v̇ ← φ, ṗ ← aileron, ṙ ← rudder
5 ``tTurn``               ẇ ← α, u̇ ← throttle, q̇ ← pitch trim, v̇ ← β, ṗ ← aileron, ṙ ← rudder
========================  =====================================================================================

Tolerances (``FGTrimAxis``): 10⁻³ ft/s² for u̇, v̇, ẇ and 10⁻⁴ rad/s² for ṗ, q̇, ṙ; the solver's step limit
(``solver_eps``) the tolerance, a hundredth of it for α and the surfaces.  Control ranges: α between the
aerodynamics' ``<alphalimits>`` (−5°..20° where none), the throttle 0..1 (every engine's command
``tMin + x (tMax − tMin)``), the surfaces −1..1, φ the initial condition's ±30°, β ±30°.

Each *run* of an axis sets its control (α, β and φ through the initial condition's setters, which keep what the
last ones set as JSBSim's do; the commands on the flight controls) and evaluates the flight at the initial
condition (``FGFDMExec::Initialize`` and ``Run``: the plant's :meth:`run`) until the axis's acceleration moves
less than its tolerance between two evaluations (at most 100).  ``DoTrim``: the body rates zeroed, every axis
put at the middle of its range, then rounds (at most 60) in which each axis is solved anew where its range
holds a root (``checkLimits``: the ends' accelerations of opposite signs about the current one) or, once
solved, in the smallest interval about its control holding one (``findInterval``: doubling steps of 2.5 % of the
range's top), by regula falsi with relaxation 0.9 (``solve``: at most 100 steps, until the acceleration is
within tolerance or the step below ``solver_eps``); the turn's body rates set from φ, θ and the airspeed before
each axis (``updateRates``: ψ̇ = g tan φ / V).  A round in which all axes but one are within tolerance and that
one's range holds no root fails the trim ("doesn't appear to be trimmable"; FGTrim's γ fallback is off by
default), as do 60 rounds.

The plant (duck-typed; :class:`flightsim.simulation.script_trim.TrimPlant` is the flight's):

- ``ic``: JSBSim's initial condition (:func:`flightsim.physics.jsbsim.initial.initial_setters`' setters:
  ``set_alpha``, ``set_beta``, ``set_euler``, ``pqr``, ``vt``, ``euler``, ``pos``);
- ``run()``: the flight put at ``ic`` with the commands now, its models run once (a frame with no time passing);
- ``accelerations()``: that frame's ``(u̇, v̇, ẇ)`` (ft/s²) and ``(ṗ, q̇, ṙ)`` (rad/s²), JSBSim's body axes,
  relative to the Earth (``FGAccelerations::GetUVWdot``, ``GetPQRdot``);
- ``command(name, value)``: a pilot's command (``pitch-trim``, ``aileron``, ``rudder``; ``throttle`` with the
  engine's index ``k`` as ``command("throttle", value, k)``);
- ``throttle_limits``: each engine's ``(tMin, tMax)``; ``alpha_limits``: ``(min, max)`` rad or None;
- ``gravity()``: the magnitude of the gravitation at ``ic``'s place (``FGInertial::GetGravity``), ft/s².

Source: JSBSim 1.3.3 ``src/initialization/FGTrim.cpp``, ``FGTrimAxis.cpp``/``.h``.  Units ft, s, rad.
"""

from __future__ import annotations

import math

__all__ = ["AXES", "MODES", "FGTrim", "TrimAxis", "TrimFailed"]

#: FGTrimAxis.h's ``DEFAULT_TOLERANCE``: the linear accelerations' tolerance, ft/s².
DEFAULT_TOLERANCE = 1e-3
#: ``FGTrim``'s rounds at most, and an axis's solver steps (or interval searches) at most in one round.
MAX_ITERATIONS = 60
MAX_SUB_ITERATIONS = 100
#: ``FGTrimAxis::Run``: evaluations at most until the axis's acceleration is steady.
MAX_STABLE = 100
#: ``FGTrim::solve``'s relaxation of the kept end's acceleration.
RELAX = 0.9
#: JSBSim's trim modes a script's ``do_simple_trim`` names → the axes (state, control), in FGTrim's order.
MODES = {
    0: (("wdot", "alpha"), ("udot", "throttle"), ("qdot", "pitch-trim")),
    1: (("wdot", "alpha"), ("udot", "throttle"), ("qdot", "pitch-trim"), ("vdot", "phi"), ("pdot", "aileron"),
        ("rdot", "rudder")),
    5: (("wdot", "alpha"), ("udot", "throttle"), ("qdot", "pitch-trim"), ("vdot", "beta"), ("pdot", "aileron"),
        ("rdot", "rudder")),
}
#: The states: (index in ``accelerations()``'s pair, index in the triple).
AXES = {"udot": (0, 0), "vdot": (0, 1), "wdot": (0, 2), "pdot": (1, 0), "qdot": (1, 1), "rdot": (1, 2)}
_SURFACES = ("pitch-trim", "aileron", "rudder")


class TrimFailed(RuntimeError):
    """FGTrim's failure (``TrimFailureException``): an axis with no root in its range, or 60 rounds."""


class TrimAxis:
    """``FGTrimAxis``: one acceleration (``state``) and the control that balances it, on ``plant``.

    Attributes
    ----------
    state, control : str
        Keys of :data:`AXES` and the controls of :data:`MODES`.
    tolerance, solver_eps : float
        Within tolerance when ``|state| <= tolerance`` (ft/s² or rad/s²); the solver stops on a step below
        ``solver_eps`` (relative to the first bracket).
    control_min, control_max, control_value : float
        The control's range and value (rad for α, β, φ; norm for the others).
    runs, evaluations : int
        Runs of the axis and the plant's evaluations they took (FGTrim's statistics).
    """

    def __init__(self, plant, state, control):
        self.plant, self.state, self.control = plant, state, control
        self.state_target = 0.0
        self.state_value = 0.0
        self.control_value = 0.0
        self.runs = self.evaluations = 0
        self.tolerance = DEFAULT_TOLERANCE if state in ("udot", "vdot", "wdot") else DEFAULT_TOLERANCE / 10.0
        self.solver_eps = self.tolerance
        if control == "throttle":
            self.control_min, self.control_max, self.control_value = 0.0, 1.0, 0.5
        elif control == "beta":
            self.control_min, self.control_max = -math.radians(30.0), math.radians(30.0)
        elif control == "alpha":
            low, high = plant.alpha_limits or (0.0, 0.0)
            if high <= low:
                low, high = math.radians(-5.0), math.radians(20.0)
            self.control_min, self.control_max = low, high
            self.control_value = 0.5 * (low + high)
            self.solver_eps = self.tolerance / 100.0
        elif control in _SURFACES:
            self.control_min, self.control_max = -1.0, 1.0
            self.solver_eps = self.tolerance / 100.0
        elif control == "phi":
            phi = plant.ic.euler[0]
            self.control_min, self.control_max = phi - math.radians(30.0), phi + math.radians(30.0)
        else:
            raise ValueError(f"control: not one of FGTrim's: {control!r}")

    def get_state(self):
        """The axis's acceleration now, less its target (``FGTrimAxis::GetState``: read from the plant's last
        frame)."""
        pair, k = AXES[self.state]
        self.state_value = float(self.plant.accelerations()[pair][k]) - self.state_target
        return self.state_value

    def in_tolerance(self):
        return abs(self.get_state()) <= self.tolerance

    def set_control(self, value):
        self.control_value = value

    def _apply(self):
        """``FGTrimAxis::setControl``: the control's value into the initial condition or the commands."""
        plant, value = self.plant, self.control_value
        if self.control == "alpha":
            try:
                plant.ic.set_alpha(value)
            except ValueError:          # (FGInitialCondition::calcThetaBeta: "Cannot modify angle 'alpha'", the
                pass                    # condition left as it was)
        elif self.control == "beta":
            plant.ic.set_beta(value)
        elif self.control == "phi":
            plant.ic.set_euler(0, value)
        elif self.control == "throttle":
            for k, (low, high) in enumerate(plant.throttle_limits):     # (setThrottlesPct: a frame after each)
                plant.command("throttle", low + value * (high - low), k)
                plant.run()
        else:
            plant.command(self.control, value)

    def run(self):
        """``FGTrimAxis::Run``: the control set, the plant evaluated until the acceleration is steady."""
        self._apply()
        i, stable = 0, False
        while not stable:
            i += 1
            last = self.state_value
            self.plant.run()
            self.get_state()
            if i > 1 and (abs(last - self.state_value) < self.tolerance or i >= MAX_STABLE):
                stable = True
        self.runs += 1
        self.evaluations += i


class FGTrim:
    """``FGTrim`` of ``mode`` (a key of :data:`MODES`) on ``plant``: :meth:`do_trim`.

    Attributes
    ----------
    axes : list of TrimAxis
    iterations : int
        Rounds run (FGTrim's ``total_its``).
    """

    def __init__(self, plant, mode):
        if mode not in MODES:
            raise ValueError(f"mode: not one of FGTrim's classic modes {sorted(MODES)}: {mode!r}")
        self.plant, self.mode = plant, mode
        self.axes = [TrimAxis(plant, state, control) for state, control in MODES[mode]]
        self.iterations = 0
        self.xlo = self.xhi = self.alo = self.ahi = 0.0
        self.domain = 0
        self.nsub = 0

    # ------------------------------------------------------------------ FGTrim::DoTrim
    def do_trim(self):
        """``FGTrim::DoTrim``: the plant left at the trim (its initial condition and commands the iteration's
        last).

        Raises
        ------
        TrimFailed
            An axis has no root in its range while all the others are within tolerance ("<state> doesn't appear
            to be trimmable"), or 60 rounds passed.
        """
        plant, axes = self.plant, self.axes
        plant.ic.pqr = [0.0, 0.0, 0.0]
        for axis in axes:
            axis.set_control(0.5 * (axis.control_min + axis.control_max))
            axis.run()
        solution = [False] * len(axes)
        n = 0
        while True:
            count = 0
            for k, axis in enumerate(axes):
                self._update_rates()
                self.nsub = 0
                if not solution[k]:
                    if self._check_limits(axis):
                        solution[k] = True
                        self._solve(axis)
                elif self._find_interval(axis):
                    self._solve(axis)
                else:
                    solution[k] = False
            for axis in axes:
                if axis.in_tolerance():
                    count += 1
            if count == len(axes) - 1 and len(axes) > 1:
                for axis in axes:
                    if not axis.in_tolerance() and not self._check_limits(axis):
                        self.iterations = n + 1
                        raise TrimFailed(f"{axis.state} doesn't appear to be trimmable (with the {axis.control})")
            n += 1
            if n > MAX_ITERATIONS:
                self.iterations = n
                raise TrimFailed(f"no trim in {MAX_ITERATIONS} iterations")
            if count >= len(axes):
                break
        self.iterations = n

    def _update_rates(self):
        """``FGTrim::updateRates``: a turn's body rates from the bank, pitch and airspeed (the others: none)."""
        if self.mode != 5:
            return
        ic = self.plant.ic
        phi, theta = ic.euler[0], ic.euler[1]
        p = q = r = 0.0
        if 0.001 < abs(phi) < 1.56:
            psidot = self.plant.gravity() * math.tan(phi) / ic.vt
            p = -psidot * math.sin(theta)
            q = psidot * math.cos(theta) * math.sin(phi)
            r = psidot * math.cos(theta) * math.cos(phi)
        ic.pqr = [p, q, r]

    # ------------------------------------------------------------------ the root finders
    def _solve(self, axis):
        """``FGTrim::solve``: regula falsi in ``[xlo, xhi]`` (relaxed), until within tolerance or the step small."""
        if self.domain == 0:
            return False
        x1, f1, x3, f3 = self.xlo, self.alo, self.xhi, self.ahi
        d0 = abs(x3 - x1)
        d = 1.0
        while not axis.in_tolerance() and abs(d) > axis.solver_eps and self.nsub < MAX_SUB_ITERATIONS:
            self.nsub += 1
            d = (x3 - x1) / d0
            x2 = x1 - d * d0 * f1 / (f3 - f1)
            axis.set_control(x2)
            axis.run()
            f2 = axis.get_state()
            if f1 * f2 <= 0.0:
                x3, f3 = x2, f2
                f1 = RELAX * f1
            elif f2 * f3 <= 0.0:
                x1, f1 = x2, f2
                f3 = RELAX * f3
        return self.nsub < MAX_SUB_ITERATIONS

    def _find_interval(self, axis):
        """``FGTrim::findInterval``: the smallest interval about the control now whose ends' accelerations have
        opposite signs (steps doubling from 2.5 % of the range's top)."""
        found = False
        current_control, current_accel = axis.control_value, axis.get_state()
        xmin, xmax = axis.control_min, axis.control_max
        step = 0.025 * abs(xmax)
        self.xlo = self.xhi = current_control
        self.alo = self.ahi = current_accel
        last_xlo, last_xhi, last_alo, last_ahi = self.xlo, self.xhi, self.alo, self.ahi
        while True:
            self.nsub += 1
            step *= 2.0
            self.xlo = max(self.xlo - step, xmin)
            self.xhi = min(self.xhi + step, xmax)
            self._run_ends(axis)
            if abs(self.ahi - self.alo) > axis.tolerance:       # (C++'s `continue` goes to the loop's test)
                if self.alo * self.ahi <= 0.0:
                    found = True
                    if self.alo * current_accel <= 0.0:
                        self.domain = -1
                        self.xhi, self.ahi = last_xlo, last_alo
                    else:
                        self.domain = 1
                        self.xlo, self.alo = last_xhi, last_ahi
                last_xlo, last_xhi, last_alo, last_ahi = self.xlo, self.xhi, self.alo, self.ahi
            if found or self.nsub > MAX_SUB_ITERATIONS:
                return found

    def _run_ends(self, axis):
        """The axis run at the bracket's ends, ``xlo`` then ``xhi``: their accelerations into ``alo`` and ``ahi``
        (the control left at ``xhi``)."""
        axis.set_control(self.xlo)
        axis.run()
        self.alo = axis.get_state()
        axis.set_control(self.xhi)
        axis.run()
        self.ahi = axis.get_state()

    def _check_limits(self, axis):
        """``FGTrim::checkLimits``: whether the range holds a root on one side of the control now (the bracket
        that side in ``xlo``..``xhi``); the control put back and run."""
        current_control, current_accel = axis.control_value, axis.get_state()
        self.xlo, self.xhi = axis.control_min, axis.control_max
        self._run_ends(axis)
        self.domain = 0
        exists = False
        if abs(self.ahi - self.alo) > axis.tolerance:
            if self.alo * current_accel <= 0.0:
                exists, self.domain = True, -1
                self.xhi, self.ahi = current_control, current_accel
            elif current_accel * self.ahi < 0.0:
                exists, self.domain = True, 1
                self.xlo, self.alo = current_control, current_accel
        axis.set_control(current_control)
        axis.run()
        return exists

"""JSBSim's linear model of an aircraft about its state now: ``simulation/do_linearization`` (``FGLinearization``,
``FGStateSpace``), on a flightsim flight of a JSBSim aircraft.

``x' = A x + B u``, ``y = C x + D u`` (``y`` the state itself, ``FGLinearization``'s state feedback), over
JSBSim's states and inputs, in JSBSim's axes and units:

=============  =======  ==========================================================================================
state          unit     set as ``FGStateSpace``'s component sets it (``FGInitialCondition``'s setters, in order)
=============  =======  ==========================================================================================
``Vt``         ft/s     true airspeed (``SetVtrueFpsIC``)
``Alpha``      rad      angle of attack (``SetAlphaRadIC``, then β — JSBSim's ``GetBetaDegIC``, degrees, handed to
                        ``SetBetaRadIC`` as radians, as JSBSim does —, ψ and θ put back)
``Theta``      rad      pitch (``SetFlightPathAngleRadIC(θ − α)``)
``Q``          rad/s    pitch rate, body axes, relative to the Earth (JSBSim's: y right)
``Beta``       rad      sideslip (``SetBetaRadIC``, ψ put back)
``Phi``        rad      roll
``P``          rad/s    roll rate
``Psi``        rad      heading
``R``          rad/s    yaw rate (z down)
``Latitude``   rad      geocentric latitude
``Longitude``  rad      longitude
``Alt``        ft       height above sea level (``FGPropagate::GetAltitudeASL``: the radius less the sea level's)
=============  =======  ==========================================================================================

inputs ``ThtlCmd`` (every engine's throttle command; read: engine 0's), ``DaCmd``, ``DeCmd``, ``DrCmd`` (the
aileron, elevator and rudder commands, ``fcs/*-cmd-norm``), norm.

As ``FGStateSpace::linearize``: each column of ``A`` and ``B`` is the derivative of the states' rates by a state
or an input, ``C`` and ``D`` of the states themselves, by JSBSim's fourth-order central difference
``(8 (f(x + h) − f(x − h)) − (f(x + 2h) − f(x − 2h))) / 12h`` with ``h = 1e-4`` in each variable's own unit (an
angle's differences wrapped into (−π, π]).  Each point is set as ``FGStateSpace`` sets it: the whole state ``x0``
through the setters in the table's order, then the one variable moved, then the flight put at that condition
with its flight controls and engines at their steady state (``FGStateSpace::run``: ``FGFDMExec::Initialize``,
every engine's ``InitRunning``, ``GetSteadyState`` with no time passing: here
:meth:`~flightsim.simulation.flight.Simulation.settle_jsbsim`); the rates are JSBSim's, of that condition's loads
(:meth:`~flightsim.simulation.flight.Simulation.loads`):

* ``Vt``: ``(u u̇ + v v̇ + w ẇ) / Vt``, the body velocity relative to the Earth and its rate
  (``FGAccelerations::CalculateUVWdot``: the specific force, less ``(ω + 2 Ω) × v``, the centripetal
  acceleration and the J2 gravitation, :func:`flightsim.physics.planet.gravitation`);
* ``Alpha``, ``Beta``: ``FGAuxiliary``'s α̇ and β̇ (of the first of the point's two frames' accelerations, below);
  ``Theta``, ``Phi``, ``Psi``: its Euler rates of the body rates;
* ``P``, ``Q``, ``R``: ``FGAccelerations::CalculatePQRdot`` (``J⁻¹ (M − ωᵢ × J ωᵢ) + ωᵢ × Ω``);
* ``Latitude``: ``v_north / radius``; ``Longitude``: ``v_east / (radius cos lat)``; ``Alt``: ``−v_down``.

After it the flight is left where JSBSim leaves it: at the condition ``x0`` set once more (the state through the
setters, the inputs ``u0``), settled.  :meth:`Linearization.write` writes ``<aircraft>_lin.sce`` as
``FGLinearization::WriteScicoslab`` does (Scicoslab's ``syslin``; ``%20.10e`` numbers).

``FGStateSpace::run`` runs two frames with no time passing at each point (``Initialize``'s and the steady
state's), FGAuxiliary's α̇ and β̇ in each read the frame before's accelerations (the first the last point's): so
here, two evaluations of the loads, each after
:meth:`~flightsim.simulation.flight.Simulation.hold_jsbsim_acceleration` of the one before's.  Not modelled:
the propeller rpm states (``Rpm0`` … ``Rpm3``, which ``FGLinearization`` adds where engine 0 drives a propeller:
refused, :data:`REFUSED`); a flat planet (refused, :data:`FLAT`).

Frames: JSBSim's (body x forward, y right, z down; local North, East, down) throughout; flightsim's view (North,
West, up; body y left, z up) only where the flight is put at a condition and its loads read.  Source: JSBSim
1.3.3 ``FGLinearization.cpp``, ``FGStateSpace.h``/``.cpp``, ``FGAccelerations.cpp``, ``FGAuxiliary.cpp``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.math import quat
from flightsim.physics import planet as planets

__all__ = ["FLAT", "INPUTS", "REFUSED", "STATES", "STEP", "Linearization", "flight_states", "linearize", "scicoslab"]

#: The states (name, unit), in ``FGLinearization``'s order for an aircraft whose engine 0 drives no propeller.
STATES = (("Vt", "ft/s"), ("Alpha", "rad"), ("Theta", "rad"), ("Q", "rad/s"), ("Beta", "rad"), ("Phi", "rad"),
          ("P", "rad/s"), ("Psi", "rad"), ("R", "rad/s"), ("Latitude", "rad"), ("Longitude", "rad"), ("Alt", "ft"))
#: The inputs (name, unit).
INPUTS = (("ThtlCmd", "norm"), ("DaCmd", "norm"), ("DeCmd", "norm"), ("DrCmd", "norm"))
#: ``FGStateSpace::linearize``'s step, in each variable's unit.
STEP = 1e-4
#: Why an aircraft whose engine 0 drives a propeller is refused.
REFUSED = ("FGLinearization's propeller rpm states (Rpm0 ...: their rate a frame flown at 1/120 s) are not "
           "modelled")
#: Why a flight on a flat planet is refused.
FLAT = ("FGLinearization's states (the geocentric latitude, the height above sea level) and rates (the Earth's "
        "turn, its gravitation) are the round planet's: fly it on one (--planet round)")
#: The surfaces' commands the inputs set.
_COMMANDS = ("fcs/aileron-cmd-norm", "fcs/elevator-cmd-norm", "fcs/rudder-cmd-norm")
_D = np.diag([1.0, -1.0, -1.0])     # JSBSim's axes ↔ flightsim's (body y, z; North-East-down ↔ North-West-up)


@dataclass(frozen=True)
class Linearization:
    """A linear model about a state (JSBSim's ``FGLinearization``).

    Attributes
    ----------
    aircraft : str
        The aircraft's name (its file's ``<fdm_config name=>``): the file's name and its variables'.
    x0, u0, y0 : numpy.ndarray
        The state, inputs and outputs it is taken about (units: :data:`STATES`, :data:`INPUTS`).
    A, B, C, D : numpy.ndarray
        ``(12, 12)``, ``(12, 4)``, ``(12, 12)``, ``(12, 4)``.
    states, inputs : tuple of (str, str)
        Names and units.
    """

    aircraft: str
    x0: np.ndarray
    u0: np.ndarray
    y0: np.ndarray
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    states: tuple = STATES
    inputs: tuple = INPUTS

    def write(self, folder="."):
        """Write ``<aircraft>_lin.sce`` into ``folder`` (:func:`scicoslab`); returns its path."""
        path = Path(folder) / f"{self.aircraft}_lin.sce"
        path.write_text(scicoslab(self))
        return path


def _vector(v):
    """``operator<<`` of a ``std::vector<double>`` at width 20, scientific, 10 digits."""
    return "[" + ";\n".join(f"{x:{19 if k == 0 else 20}.10e}" for k, x in enumerate(v)) + "]"


def _matrix(m):
    """``operator<<`` of a ``std::vector<std::vector<double>>`` at width 20."""
    rows = [",".join(f"{x:{19 if i == 0 and j == 0 else 20}.10e}" for j, x in enumerate(row))
            for i, row in enumerate(m)]
    return "[" + ";\n".join(rows) + "]"


def scicoslab(lin):
    """The text of ``FGLinearization::WriteScicoslab``: ``name.x0``, ``name.u0``, ``name.sys = syslin('c', A, B,
    C, D)`` and ``name.tfm = ss2tf(name.sys)``."""
    n = lin.aircraft
    return (f"{n}.x0=..\n{_vector(lin.x0)};\n{n}.u0=..\n{_vector(lin.u0)};\n{n}.sys = syslin('c',..\n"
            f"{_matrix(lin.A)},..\n{_matrix(lin.B)},..\n{_matrix(lin.C)},..\n{_matrix(lin.D)});\n"
            f"{n}.tfm = ss2tf({n}.sys);\n\n")


def _tl2b(phi, theta, psi):
    """JSBSim's local (NED) → body matrix of the Euler angles."""
    cf, sf, ct, st, cp, sp = math.cos(phi), math.sin(phi), math.cos(theta), math.sin(theta), math.cos(psi), \
        math.sin(psi)
    return np.array([[ct * cp, ct * sp, -st],
                     [sf * st * cp - cf * sp, sf * st * sp + cf * cp, sf * ct],
                     [cf * st * cp + sf * sp, cf * st * sp - sf * cp, cf * ct]])


class StateSpace:
    """``FGStateSpace`` over a flight: its components' setters on the initial condition ``ic`` (the setters of
    :func:`~flightsim.physics.jsbsim.initial.initial_setters`), ``run`` putting the flight there."""

    def __init__(self, sim, ic, command, read, throttles):
        self.sim, self.ic, self.command, self.read, self.throttles = sim, ic, command, read, throttles
        self.planet = sim.planet
        lat0, lon0 = math.radians(sim.lat), math.radians(sim.lon)
        self.origin = np.array(planets.ecef(lat0, lon0, 0.0, self.planet.a, self.planet.b))
        self.north, self.west, _ = planets.local_axes(lat0, lon0)
        self.x_now = self.rates = None
        self.uvw_dot = np.zeros(3)      # (the last frame's accelerations, which the next frame's α̇ reads)
        self.pqr_dot = np.zeros(3)      # (the last frame's angular accelerations, JSBSim's body axes, rad/s²)

    # ---------------------------------------------------------------- the states
    def set_state(self, k, value):
        """State ``k``'s component's ``set`` (FGStateSpace.h)."""
        ic = self.ic
        if k == 0:
            ic.set_vtrue(value)
        elif k == 1:
            beta_deg, psi, theta = math.degrees(ic.beta), ic.euler[2], ic.euler[1]
            ic.set_alpha(value)
            ic.set_beta(beta_deg)           # (JSBSim's Alpha::set: GetBetaDegIC into SetBetaRadIC)
            ic.set_euler(2, psi)
            ic.set_euler(1, theta)
        elif k == 2:
            ic.set_flight_path_angle(value - ic.alpha)
        elif k in (3, 6, 8):
            ic.pqr = np.array(ic.pqr, dtype=np.float64)
            ic.pqr[{6: 0, 3: 1, 8: 2}[k]] = value
        elif k == 4:
            psi = ic.euler[2]
            ic.set_beta(value)
            ic.set_euler(2, psi)
        elif k == 5:
            ic.set_euler(0, value)
        elif k == 7:
            ic.set_euler(2, value)
        elif k == 9:
            ic.set_latitude(value)
        elif k == 10:
            ic.set_longitude(value)
        else:
            ic.set_altitude_asl(value)

    def set_input(self, k, value):
        """Input ``k``'s component's ``set``: the throttle of every engine, or a surface's command."""
        for name in (self.throttles if k == 0 else (_COMMANDS[k - 1],)):
            self.command(name, value)

    def inputs(self):
        """The inputs now (``ThrottleCmd::get`` reads engine 0's)."""
        return np.array([self.read(self.throttles[0]), *(self.read(n) for n in _COMMANDS)])

    # ---------------------------------------------------------------- run and read
    def run(self):
        """``FGStateSpace::run``: the flight put at the condition (``Initialize``), its flight controls and engines
        settled; the states (:attr:`x_now`) and their rates (:attr:`rates`) read there."""
        ic, sim, planet = self.ic, self.sim, self.planet
        lat, lon, h = ic.geodetic()
        pos = np.asarray(ic.pos, dtype=np.float64)
        phi, theta, psi = ic.euler
        tl2b = _tl2b(phi, theta, psi)
        vned = np.asarray(ic.vned, dtype=np.float64)
        pqr = np.asarray(ic.pqr, dtype=np.float64)
        view = np.zeros(13)
        view[0], view[1], view[2] = (pos - self.origin) @ self.north, (pos - self.origin) @ self.west, h
        view[3:6] = _D @ vned
        view[6:10] = quat.from_matrix(_D @ tl2b.T @ _D)
        view[10:13] = _D @ pqr
        from flightsim.simulation.flight import FlightState

        sim.set_state(FlightState.from_vector(sim.t, view))
        sim.settle_jsbsim()
        _, inertia, _ = sim.mass_now()
        j = _D @ inertia @ _D
        tec2b = tl2b @ ic.tec2l()
        omega = tec2b @ np.array([0.0, 0.0, planet.omega])          # the Earth's turn, body
        uvw = tl2b @ vned
        spin = np.array([0.0, 0.0, planet.omega])
        gravity = np.array(planets.gravitation(pos[0], pos[1], pos[2], planet.gm, planet.a, planet.j2))
        rest = -np.cross(pqr + 2.0 * omega, uvw) - tec2b @ np.cross(spin, np.cross(spin, pos)) + tec2b @ gravity
        # FGStateSpace::run's two frames with no time passing (Initialize's, and the steady state's, after which
        # the states have not moved): each one's α̇ and β̇ (FGAuxiliary runs before FGAccelerations) read the frame
        # before's accelerations
        first = self.uvw_dot
        for _ in range(2):
            sim.hold_jsbsim_acceleration(self.uvw_dot)
            loads = sim.loads()
            force = tl2b @ (_D @ (loads[:3] + np.array([0.0, 0.0, sim.gravity])))   # specific force, body
            first, self.uvw_dot = self.uvw_dot, force + rest
        uvw_dot = self.uvw_dot
        moment = _D @ loads[3:6]
        pqr_i = pqr + omega
        pqr_dot = np.linalg.solve(j, moment - np.cross(pqr_i, j @ pqr_i)) + np.cross(pqr_i, omega)
        self.pqr_dot = pqr_dot
        aero = tl2b @ np.asarray(ic.vt_ned(), dtype=np.float64)        # (FGFDMExec::Initialize: the IC's wind)
        u, v, w = aero
        m_uw = u * u + w * w
        vt = math.sqrt(m_uw + v * v)
        alpha = beta = adot = bdot = 0.0
        if vt > 0.001:
            beta = math.atan2(v, math.sqrt(m_uw))
            if m_uw >= 1e-6:
                alpha = math.atan2(w, u)
                vt_dot = float(aero @ first) / vt       # (the second frame's FGAuxiliary: the first's rates)
                adot = (u * first[2] - w * first[0]) / m_uw
                bdot = (first[1] * vt - v * vt_dot) / (vt * math.sqrt(m_uw))
        cphi, sphi = math.cos(phi), math.sin(phi)
        theta_dot = pqr[1] * cphi - pqr[2] * sphi
        psi_dot = (pqr[1] * sphi + pqr[2] * cphi) / math.cos(theta)
        phi_dot = pqr[0] + psi_dot * math.sin(theta)
        lat_gc, radius = ic.lat_gc(), float(np.linalg.norm(pos))
        self.x_now = np.array([vt, alpha, theta, pqr[1], beta, phi, pqr[0], psi, pqr[2], lat_gc, ic.lon(), ic.asl()])
        vt_dot = float(uvw @ uvw_dot) / vt if vt > 0.0 else 0.0         # (no airspeed: a trim's, which fails)
        self.rates = np.array([vt_dot, adot, theta_dot, pqr_dot[1], bdot, phi_dot, pqr_dot[0], psi_dot, pqr_dot[2],
                               vned[0] / radius, vned[1] / (math.cos(lat_gc) * radius), -vned[2]])

    def set_all(self, x0):
        """``ComponentVector::set(x0)``: every state through its setter, in order, then :meth:`run`."""
        for k, value in enumerate(x0):
            self.set_state(k, value)
        self.run()

    def set_all_inputs(self, u0):
        for k, value in enumerate(u0):
            self.set_input(k, value)
        self.run()

    def jacobian(self, base, set_one, set_all, derivative, first=False):
        """``FGStateSpace::numericalJacobian`` of the states' rates (``derivative``) or the states, by the
        variables ``set_one`` sets, about ``base``.

        JSBSim takes each row's four points of a column anew (each after the whole state set again); they are
        the same points but for the very first (``first``: the first of ``A``), set once from the reset file's
        condition, where setting the whole state need not give what setting it again does (the setters read what
        the last ones left: the α setter reads the bank, set after it): that point is ``A[0, 0]``'s alone."""
        n = len(base)
        out = np.zeros((len(STATES), n))
        for i in range(n):
            values = {}
            for step in (1.0, 2.0, -1.0, -2.0):
                set_all(base)
                start = (self.x_now if set_one == self.set_state else self.inputs())[i]
                set_one(i, start + step * STEP)
                self.run()
                values[step] = (self.rates if derivative else self.x_now).copy()
            if first and i == 0:                # (the other rows' first point: the whole state set again)
                set_all(base)
                set_one(0, self.x_now[0] + STEP)
                self.run()
                values[1.0] = np.r_[values[1.0][:1], self.rates[1:]]
            set_all(base)
            d1, d2 = values[1.0] - values[-1.0], values[2.0] - values[-2.0]
            if (STATES[i][1] if set_one == self.set_state else INPUTS[i][1]) == "rad":     # (the angle's wrap)
                d1 = np.where(d1 > math.pi, d1 - 2 * math.pi, np.where(d1 < -math.pi, d1 + 2 * math.pi, d1))
                d2 = np.where(d2 > math.pi, d2 - 2 * math.pi, np.where(d2 < -math.pi, d2 + 2 * math.pi, d2))
            out[:, i] = (8.0 * d1 - d2) / (12.0 * STEP)
        return out


def flight_states(sim):
    """The states of :data:`STATES` of the flight ``sim`` now, as ``FGStateSpace``'s components read them from
    JSBSim's state (``FGAuxiliary``'s airspeed and angles of the air, ``FGPropagate``'s Euler angles, body rates,
    geocentric latitude, longitude and height above sea level)."""
    y, planet = sim.vector, sim.planet
    tb2l = _D @ quat.to_matrix(y[6:10]) @ _D
    t = tb2l.T
    phi = math.atan2(t[1, 2], t[2, 2])
    theta = -math.asin(max(-1.0, min(1.0, t[0, 2])))
    psi = math.atan2(t[0, 1], t[0, 0]) % (2.0 * math.pi)
    u, v, w = t @ (_D @ (y[3:6] - sim.wind[:3]))
    m_uw = u * u + w * w
    vt = math.sqrt(m_uw + v * v)
    alpha = math.atan2(w, u) if vt > 0.001 and m_uw >= 1e-6 else 0.0
    beta = math.atan2(v, math.sqrt(m_uw)) if vt > 0.001 else 0.0
    p, q, r = _D @ y[10:13]
    lat, lon, h = sim.geodetic
    a, b = (planet.a, planet.b) if planet.round else (planets.WGS84.a, planets.WGS84.b)
    x, yy, z = planets.ecef(math.radians(lat), math.radians(lon), h, a, b)
    lat_gc = math.atan2(z, math.hypot(x, yy))
    c = math.cos(lat_gc)
    sea_level = b / math.sqrt(1.0 - (1.0 - (b / a) ** 2) * c * c)
    return np.array([vt, alpha, theta, q, beta, phi, p, psi, r, lat_gc, math.radians(lon),
                     math.sqrt(x * x + yy * yy + z * z) - sea_level])


def linearize(sim, ic, command, read, throttles, x0=None, u0=None):
    """``FGLinearization`` of the flight ``sim`` (a JSBSim aircraft's) about its state now.

    Parameters
    ----------
    sim : flightsim.simulation.flight.Simulation
        The flight: put at each point and settled, and left at the condition ``x0`` set once more, settled (as
        JSBSim leaves its aircraft).
    ic : object
        JSBSim's initial condition as the flight's reset file left it
        (:func:`~flightsim.physics.jsbsim.initial.initial_setters`), changed in place as JSBSim's is.
    command : callable
        ``command(name, value)``: hold a pilot's command (``fcs/throttle-cmd-norm[k]``, ``fcs/aileron-cmd-norm``,
        …) at ``value``.
    read : callable
        ``read(name)``: a command's value now.
    throttles : sequence of str
        Every engine's throttle command's property.
    x0, u0 : sequence of float, optional
        The state and inputs to take it about (:data:`STATES`, :data:`INPUTS`; default: the flight's now,
        :func:`flight_states`, and its commands): another's trim point (JSBSim's ``<aircraft>_lin.sce``'s), to
        compare the two models at one point.

    Returns
    -------
    Linearization
    """
    space = StateSpace(sim, ic, command, read, tuple(throttles))
    x0 = flight_states(sim) if x0 is None else np.array(x0, dtype=np.float64)
    if u0 is None:
        u0 = space.inputs()
    else:
        u0 = np.array(u0, dtype=np.float64)
        for k, value in enumerate(u0):
            space.set_input(k, value)
    A = space.jacobian(x0, space.set_state, space.set_all, True, first=True)
    B = space.jacobian(u0, space.set_input, space.set_all_inputs, True)
    C = space.jacobian(x0, space.set_state, space.set_all, False)
    D = space.jacobian(u0, space.set_input, space.set_all_inputs, False)
    return Linearization(sim.aircraft.name, x0, u0, x0.copy(), A, B, C, D)

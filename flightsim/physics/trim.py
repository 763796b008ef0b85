"""Trim: the state and controls for steady flight (cf. JSBSim's ``FGTrim``).

For an airspeed, altitude, flight-path angle and flap setting, :func:`trim`
finds the angle of attack, sideslip, throttle, elevator, aileron and rudder
that make every acceleration of the rigid body zero — or, in a steady
coordinated turn at a given bank, equal to the centripetal one.  The
accelerations come from the very loads the simulation flies
(:func:`flightsim.physics.aero.airplane_loads`, compiled, through
:func:`flightsim.physics.aero.loads_fields`: the call the flight's instruments
make, so a first start compiles no other) and Euler's equations in numpy, so a
trimmed state flown by the simulation stays trimmed to the integrator's
accuracy.

Geometry.  The velocity points along the flight path: earth
``v = V (cos γ cos χ, −cos γ sin χ, sin γ)`` for flight-path angle γ (up +)
and track χ (clockwise from North; earth x North, y West, z up).  The *wind
axes* have x along v and are banked by μ about it; the body is the wind frame
turned by −β in heading and α in pitch, so the body velocity is
``V (cos α cos β, −sin β, −sin α cos β)`` (body x forward, y left, z up):
α positive with the air from below, β positive with the air from the right.

Unknowns ``[α, β, throttle, elevator, aileron, rudder]``, equations: the
three linear accelerations (earth frame, ft/s²) less the centripetal one,
and the three angular accelerations (body frame, rad/s²).  They are solved
by bounded least squares (``scipy.optimize.least_squares``, controls kept in
their ranges).  For a symmetric airplane β, aileron and rudder stay 0.
An aircraft with no engine (a glider, :func:`makes_thrust`) has its
flight-path angle as the unknown in place of the throttle: the trim finds its
steady glide at the airspeed (the climb angle asked for is not used).  So does
an engine held at idle or switched off (``engine="idle"`` or ``"off"``): the
glide with the throttle closed, or with the propeller windmilling.

Where no trim exists the error says which limit stops it — full throttle,
idle, the elevator's stop, the wing's stall — and the speed range that can
be trimmed at that altitude, flight-path angle and flap setting.
"""

import math
from dataclasses import dataclass

import numpy as np

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics.aircraft import atmosphere_of
from flightsim.physics.inputs import C_ENGINE, C_GEAR
from flightsim.physics.steps import STATE_SIZE

#: A trim is accepted when every linear acceleration is below this fraction of g
#: and every angular acceleration below this many rad/s².
TOLERANCE = 1e-8
#: Airspeeds (ft/s) tried, in this order, for a first trimmable one when a trim fails.
SPEED_PROBES = (160.0, 120.0, 220.0, 90.0, 300.0, 70.0, 400.0, 50.0, 600.0, 35.0, 800.0, 25.0)
#: The glide angle (deg) a glider's trim starts from (and its turn rate is reckoned at).
GLIDE_GUESS = -3.0
#: A second throttle the trim starts from where the first (0.5) finds none: a constant-speed propeller at its fine
#: stop and high rpm drags more as the throttle opens from idle (the c310 at 250 ft/s, 8000 ft, gear up: u̇ −4.4,
#: −7.3, −0.9, +2.2 ft/s² at throttle 0, 0.5, 0.75, 1), so from 0.5 the solver slides to idle.
THROTTLE_HIGH = 0.9
#: Bounds (ft/s) of the trimmable range search.
SPEED_BOUNDS = (5.0, 1500.0)
#: ``engine`` of :func:`trim`: None solves for the throttle; these glide with the throttle closed, the engine
#: running (idle) or off.
ENGINE_STATES = ("idle", "off")


class TrimError(ValueError):
    """No steady flight exists at the asked condition.

    Attributes
    ----------
    limit : str
        What stops it: ``"throttle"`` (more than full throttle needed),
        ``"idle"`` (less than idle needed), ``"elevator"`` (beyond the
        elevator's stop), ``"stall"`` (the wing beyond its table), ``"glide"``
        (a glider: no glide between level and 30° down) or ``"no solution"``.
    speed_range : tuple of float or None
        ``(slowest, fastest)`` trimmable airspeed (ft/s) at the same altitude,
        flight-path angle, flaps and bank, or None when none is.
    """

    def __init__(self, message, limit, speed_range=None):
        super().__init__(message)
        self.limit = limit
        self.speed_range = speed_range


@dataclass(frozen=True)
class TrimPoint:
    """A steady flight condition and the controls that hold it.

    Angles in degrees with aviation signs (roll right wing down +, pitch nose
    up +, heading clockwise from North); speeds ft/s; controls on the pilot's
    scale (throttle 0..1, elevator +1 nose up, aileron +1 roll right, rudder
    +1 nose right, flaps 0..1), the same scale as a controls CSV.

    Attributes
    ----------
    airspeed, altitude : float
        ft/s, and the earth z of the centre of gravity (ft; the trace's ``z``).
    climb_angle, bank, heading : float
        Flight-path angle γ (up +), bank of the wind axes μ, track χ (deg).
    alpha, beta, roll, pitch : float
        Angle of attack, sideslip (air from the right +), body roll and pitch (deg).
    throttle, elevator, aileron, rudder, flaps : float
        Controls.
    engine : float
        1 running, 0 off (a controls CSV's ``engine``).
    gear : float
        The gear lever trimmed with: 1 down, 0 up (a controls CSV's ``gear``).
    turn_rate : float
        Rate of change of heading, deg/s (0 in straight flight).
    residual : float
        Largest remaining linear acceleration, in g.
    residual_angular : float
        Largest remaining angular acceleration, rad/s².
    state : numpy.ndarray
        The 13-number state ``[x, v, q, ω]`` at the origin of x and y.
    """

    airspeed: float
    altitude: float
    climb_angle: float
    bank: float
    heading: float
    alpha: float
    beta: float
    roll: float
    pitch: float
    throttle: float
    elevator: float
    aileron: float
    rudder: float
    flaps: float
    turn_rate: float
    residual: float
    residual_angular: float
    state: np.ndarray
    engine: float = 1.0
    gear: float = 1.0

    def describe(self):
        """The condition in a few words: ``level flight at 160 ft/s, 2000 ft`` (or a climb, a glide, a turn)."""
        kind = ("level flight" if abs(self.climb_angle) < 1e-9
                else f"a {abs(self.climb_angle):g}° {'climb' if self.climb_angle > 0 else 'glide'}")
        turn = f", banked {self.bank:g}°" if self.bank else ""
        return f"{kind} at {self.airspeed:.0f} ft/s, {self.altitude:.0f} ft{turn}"

    @property
    def controls(self):
        """``{throttle, elevator, aileron, rudder, flaps}``: the pilot's inputs that hold this trim."""
        return {"throttle": self.throttle, "elevator": self.elevator, "aileron": self.aileron,
                "rudder": self.rudder, "flaps": self.flaps}

    def state_at(self, north, west):
        """The trimmed state vector moved to earth ``(north, west)`` (ft), same altitude."""
        y = self.state.copy()
        y[0], y[1] = north, west
        return y


class AirplaneModel:
    """The airplane's equations of motion as a function of state and controls.

    A thin wrapper over the compiled loads that the simulation flies, shared by
    :func:`trim` and :mod:`flightsim.physics.modes`.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    atmosphere : {"constant", "isa"} or None
        None (the default): the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    gravity : float, optional
        The constant gravity the equations hold, ft/s²; default the aircraft's.  A round planet's effective
        gravity at the trim's place (:func:`flightsim.physics.planet.effective_gravity`) trims an airplane that
        stays trimmed there.
    """

    def __init__(self, aircraft, atmosphere=None, gravity=None):
        #: the engine input the loads see (1 running, 0 off)
        self.engine = 1.0
        #: the gear lever the loads see (1 down, 0 up)
        self.gear = 1.0
        self.aircraft = aircraft
        self.atmosphere = atmosphere_of(aircraft, atmosphere)
        self.params = aero.pack(aircraft, self.atmosphere)
        if gravity is not None:
            self.params = self.params._replace(gravity=float(gravity))
        self.inertia = np.ascontiguousarray(aircraft.inertia, dtype=np.float64)
        self.inertia_inv = np.ascontiguousarray(aircraft.inertia_inv, dtype=np.float64)
        self.gravity = float(self.params.gravity)
        self._fields = tuple(self.params)       # (the same arrays: the controls written in place count)

    def weigh(self, mass, inertia, **arrays):
        """Trim the aircraft as it weighs now: ``mass`` (slug), ``inertia`` (body frame, slug·ft²) and the loads'
        arrays that hold its lever arms about the CG (a JSBSim aircraft's fuel burnt and masses moved in flight:
        :meth:`flightsim.simulation.flight.Simulation.mass_now`), as JSBSim's FGTrim trims the aircraft it has."""
        self.params = self.params._replace(mass=float(mass), **{k: v.copy() for k, v in arrays.items()})
        self.inertia = np.array(inertia, dtype=np.float64)
        self.inertia_inv = np.linalg.inv(self.inertia)
        self._fields = tuple(self.params)

    def derivative(self, y, controls):
        """``dy/dt`` of the 13-number state for ``controls`` = (throttle, elevator, aileron, rudder, flaps).

        Returns a new array: ``[v, a (earth, ft/s², gravity included), dq/dt, dω/dt (body, rad/s²)]``.
        """
        self.set_controls(controls)
        y = np.ascontiguousarray(y, dtype=np.float64)
        aero.settle(0.0, y, self.params)        # a JSBSim aircraft's controls and engines steady at this state
        ax, ay, az, mx, my, mz = aero.loads_fields(0.0, y, self._fields)
        w = y[10:13]
        out = np.empty(STATE_SIZE)
        out[0:3] = y[3:6]
        out[3:6] = ax, ay, az
        out[6:10] = 0.5 * quat.mul(y[6:10], np.array([0.0, w[0], w[1], w[2]]))
        out[10:13] = self.inertia_inv @ (np.array([mx, my, mz]) - np.cross(w, self.inertia @ w))
        return out

    def set_controls(self, controls):
        """Load (throttle, elevator, aileron, rudder, flaps) into the loads' parameters (brakes off; the engine
        and the gear lever as :attr:`engine` and :attr:`gear` say)."""
        u = self.params.controls
        u[:] = 0.0
        u[C_ENGINE] = self.engine
        u[C_GEAR] = self.gear
        u[:len(controls)] = controls

    def stalled(self, y, controls):
        """True when a wing element is beyond its coefficient table at this state."""
        self.derivative(y, controls)
        return bool(self.params.diag[aero.D_STALL])


def makes_thrust(aircraft):
    """Whether ``aircraft`` has an engine (a glider's trim solves for its glide angle instead of the throttle)."""
    model = getattr(aircraft, "jsbsim", None)
    if model is not None:
        return model.engine_count > 0
    return aircraft.max_thrust > 0.0 or aircraft.propeller is not None


def flight_state(airspeed, altitude, climb_angle, heading, bank, alpha, beta, turn_rate=0.0):
    """The 13-number state for a flight condition (angles in degrees, see the module docstring).

    ``turn_rate`` (deg/s, clockwise +) sets the body rates of a steady turn.
    """
    g, chi, mu = math.radians(climb_angle), math.radians(heading), math.radians(bank)
    y = np.zeros(STATE_SIZE)
    y[2] = altitude
    y[3:6] = airspeed * np.array([math.cos(g) * math.cos(chi), -math.cos(g) * math.sin(chi), math.sin(g)])
    q_wind = quat.from_aviation_angles(math.degrees(mu), climb_angle, heading)
    q_rel = quat.from_aviation_angles(0.0, alpha, -beta)
    q = quat.mul(q_wind, q_rel)
    y[6:10] = q
    if turn_rate:
        # Turning clockwise (seen from above) is a negative rotation about earth z (up).
        omega_earth = np.array([0.0, 0.0, -math.radians(turn_rate)])
        y[10:13] = quat.rotate(quat.conj(q), omega_earth)
    return y


def coordinated_turn_rate(airspeed, climb_angle, bank, gravity):
    """Turn rate (deg/s, clockwise +) of a steady coordinated turn banked ``bank`` degrees."""
    return math.degrees(gravity * math.tan(math.radians(bank)) / (airspeed * math.cos(math.radians(climb_angle))))


def _check(name, value, low=None, high=None, unit=""):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be a number, got {value!r}") from None
    if not math.isfinite(v) or (low is not None and v < low) or (high is not None and v > high):
        bounds = f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"
        raise ValueError(f"{name}: must be within {bounds}{unit}, got {value!r}")
    return v


def trim(aircraft, airspeed, altitude=None, climb_angle=0.0, flaps=0.0, heading=None, bank=0.0,
         atmosphere=None, model=None, report_range=True, engine=None, lateral="wings-level", gear=1.0,
         held=(0.0, 0.0)):
    """Find the steady flight at the given condition.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    airspeed : float
        True airspeed, ft/s (> 0).
    altitude : float, optional
        Earth z of the centre of gravity, ft; default the aircraft file's initial one.
    climb_angle : float
        Flight-path angle, deg (0 level, + climb, − glide), within ±30.
    flaps : float
        Flap setting 0..1 (held fixed).
    heading : float, optional
        Track, deg clockwise from North; default the aircraft file's initial heading.
    bank : float
        0 for straight flight; otherwise the bank (deg, right +, |bank| < 75) of a steady
        coordinated turn.
    atmosphere : {"constant", "isa"} or None
        None (the default): the aircraft's own (:func:`~flightsim.physics.aircraft.atmosphere_of`).
    model : AirplaneModel, optional
        Reuse one (saves packing the aircraft again).
    report_range : bool
        On failure, search the trimmable speed range for the message (a few seconds).
    engine : {None, "idle", "off"}
        None: the throttle holds the climb angle.  ``"idle"`` or ``"off"``: the throttle closed, the engine
        running or off, and the trim finds the glide angle (as a glider's).
    lateral : {"wings-level", "no-sideslip", "longitudinal"}
        What straight flight balances the propeller's torque with: the wings level and the sideslip found
        (the default), or no sideslip and the bank found (JSBSim's full trim: φ for v̇); a turn is always
        coordinated.  ``"longitudinal"``: nothing balances it (JSBSim's longitudinal trim, ``FGTrim``'s
        ``tLongitudinal``: α for ẇ, the throttle for u̇ and the elevator for q̇, in the body axes; the bank and
        the sideslip at ``bank`` and 0, the aileron and rudder held at ``held``), so that the airplane may roll
        and yaw from it.
    held : (float, float)
        The aileron and rudder (flightsim's signs) a longitudinal trim holds.
    gear : float
        The gear lever, 1 down (the default) or 0 up: a JSBSim aircraft whose gear retracts trims with its gear
        there (its flight controls settled: the gear at its command), the others ignore it.

    Returns
    -------
    TrimPoint

    Raises
    ------
    ValueError
        A bad argument, naming it.
    TrimError
        No trim exists: the message names the limit and the speed range that works.
    """
    V = _check("airspeed", airspeed)
    if V <= 0.0:
        raise ValueError(f"airspeed: must be > 0 ft/s, got {airspeed!r}")
    h = float(aircraft.initial_position[2]) if altitude is None else _check("altitude", altitude, 0.0, 60000.0, " ft")
    gamma = _check("climb_angle", climb_angle, -30.0, 30.0, " deg")
    fl = _check("flaps", flaps, 0.0, 1.0)
    chi = float(aircraft.initial_attitude_deg[2]) if heading is None else _check("heading", heading) % 360.0
    mu = _check("bank", bank, -75.0, 75.0, " deg")
    if engine not in (None, *ENGINE_STATES):
        raise ValueError(f"engine: must be one of {', '.join(ENGINE_STATES)} or None, got {engine!r}")
    if lateral not in ("wings-level", "no-sideslip", "longitudinal"):
        raise ValueError(f"lateral: must be wings-level, no-sideslip or longitudinal, got {lateral!r}")
    if lateral == "longitudinal" and mu:
        raise ValueError("lateral: a longitudinal trim is straight flight (bank 0)")
    fixed = None
    if lateral == "longitudinal":
        fixed = tuple(_check(name, v, -1.0, 1.0) for name, v in zip(("aileron", "rudder"), held, strict=True))
    model = model or AirplaneModel(aircraft, atmosphere)
    lever = _check("gear", gear, 0.0, 1.0)
    if lever not in (0.0, 1.0):
        raise ValueError(f"gear: must be 0 (up) or 1 (down), got {gear!r}")
    held, held_gear = model.engine, model.gear
    model.engine = 0.0 if engine == "off" else 1.0
    model.gear = lever
    try:
        return _trim(aircraft, V, h, gamma, fl, chi, mu, atmosphere, model, report_range, engine,
                     lateral == "no-sideslip" and not mu, fixed)
    finally:
        model.engine, model.gear = held, held_gear


def _trim(aircraft, V, h, gamma, fl, chi, mu, atmosphere, model, report_range, engine, banked=False, fixed=None):
    g = model.gravity
    rate = coordinated_turn_rate(V, gamma, mu, g) if mu else 0.0
    omega_earth = np.array([0.0, 0.0, -math.radians(rate)])

    # an aircraft with no engine glides (or one whose engine idles or is off): its third unknown is the
    # flight-path angle, not the throttle
    glider = not makes_thrust(aircraft) or engine is not None
    if glider:
        rate = coordinated_turn_rate(V, GLIDE_GUESS, mu, g) if mu else 0.0

    def state(x):
        if banked:              # x[1] is the bank, the sideslip 0
            return flight_state(V, h, x[2] if glider else gamma, chi, x[1], x[0], 0.0, 0.0)
        return flight_state(V, h, x[2] if glider else gamma, chi, mu, x[0], x[1], rate)

    def controls(x):
        return np.array([0.0 if glider else x[2], x[3], x[4], x[5], fl])

    def residual(x):
        y = state(x)
        d = model.derivative(y, controls(x))
        centripetal = np.cross(omega_earth, y[3:6])
        return np.concatenate([(d[3:6] - centripetal) / g, d[10:13]])

    lower = [-30.0, -30.0, -30.0 if glider else 0.0, -1.0, -1.0, -1.0]
    upper = [30.0, 30.0, 0.0 if glider else 1.0, 1.0, 1.0, 1.0]
    if fixed is not None:
        return _longitudinal(aircraft, V, h, gamma, fl, chi, atmosphere, model, report_range, engine, glider, fixed,
                             state, controls, lower, upper)
    best = None
    starts = [(alpha0, GLIDE_GUESS if glider else 0.5) for alpha0 in (2.0, 8.0, -2.0, 14.0)[: 4 if report_range else 2]]
    if not glider:              # a propeller at its fine stop can make less thrust as the throttle opens from idle
        starts += [(alpha0, THROTTLE_HIGH) for alpha0 in (2.0, 8.0)]       # (windmilling): start above that dip too
    for alpha0, third in starts:
        x0 = np.array([alpha0, 0.0, third, 0.0, 0.0, 0.0])
        sol = _least_squares()(residual, x0, bounds=(lower, upper), x_scale=[5.0, 5.0, 0.3, 0.3, 0.3, 0.3],
                            diff_step=1e-7, xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=200)
        # polish with plain Newton steps from the least-squares answer (central differences)
        x = _newton(residual, sol.x, lower, upper)
        r = residual(x)
        y = state(x)
        if best is None or np.max(np.abs(r)) < np.max(np.abs(best[1])):
            best = (x, r, y)
        if np.max(np.abs(r)) < TOLERANCE and not model.stalled(y, controls(x)):
            break
    x, r, y = best
    lin, ang = float(np.max(np.abs(r[:3]))), float(np.max(np.abs(r[3:])))
    stalled = model.stalled(y, controls(x))
    if lin >= TOLERANCE or ang >= TOLERANCE or stalled:
        raise _failure(aircraft, x, lin, ang, stalled, V, h, gamma, fl, chi, mu, atmosphere, model, report_range,
                       engine)
    roll, pitch, _ = quat.aviation_angles(y[6:10])
    return TrimPoint(
        airspeed=V, altitude=h, climb_angle=float(x[2]) if glider else gamma, bank=mu, heading=chi,
        alpha=float(x[0]), beta=0.0 if banked else float(x[1]), roll=float(roll), pitch=float(pitch),
        throttle=0.0 if glider else float(x[2]), elevator=float(x[3]), aileron=float(x[4]),
        rudder=float(x[5]), flaps=fl, turn_rate=rate, residual=lin, residual_angular=ang, state=y,
        engine=model.engine, gear=model.gear,
    )


def _longitudinal(aircraft, V, h, gamma, fl, chi, atmosphere, model, report_range, engine, glider, fixed, state,
                  controls, lower, upper):
    """:func:`trim`'s longitudinal trim: α, the throttle (a glider's: the glide angle) and the elevator for the
    body axes' u̇, ẇ and q̇ (``FGTrim``'s ``tLongitudinal``), the sideslip 0 and the aileron and rudder ``fixed``."""
    keep = (0, 2, 3)

    def full(z):
        x = np.array([0.0, 0.0, 0.0, 0.0, fixed[0], fixed[1]])
        x[list(keep)] = z
        return x

    def residual(z):
        x = full(z)
        y = state(x)
        d = model.derivative(y, controls(x))
        body = quat.rotate(quat.conj(y[6:10]), d[3:6]) / model.gravity   # (the body axes' acceleration, g)
        return np.array([body[0], body[2], d[11]])

    lo, hi = [lower[k] for k in keep], [upper[k] for k in keep]
    best = None
    for alpha0 in (2.0, 8.0, -2.0, 14.0)[: 4 if report_range else 2]:
        z0 = np.array([alpha0, GLIDE_GUESS if glider else 0.5, 0.0])
        sol = _least_squares()(residual, z0, bounds=(lo, hi), x_scale=[5.0, 0.3, 0.3], diff_step=1e-7, xtol=1e-15,
                               ftol=1e-15, gtol=1e-15, max_nfev=200)
        z = _newton(residual, sol.x, lo, hi)
        r = residual(z)
        if best is None or np.max(np.abs(r)) < np.max(np.abs(best[1])):
            best = (z, r)
        if np.max(np.abs(r)) < TOLERANCE and not model.stalled(state(full(z)), controls(full(z))):
            break
    z, r = best
    x = full(z)
    y = state(x)
    lin, ang = float(max(abs(r[0]), abs(r[1]))), float(abs(r[2]))
    stalled = model.stalled(y, controls(x))
    if lin >= TOLERANCE or ang >= TOLERANCE or stalled:
        raise _failure(aircraft, x, lin, ang, stalled, V, h, gamma, fl, chi, 0.0, atmosphere, model, False, engine)
    roll, pitch, _ = quat.aviation_angles(y[6:10])
    return TrimPoint(
        airspeed=V, altitude=h, climb_angle=float(x[2]) if glider else gamma, bank=0.0, heading=chi,
        alpha=float(x[0]), beta=0.0, roll=float(roll), pitch=float(pitch), throttle=0.0 if glider else float(x[2]),
        elevator=float(x[3]), aileron=float(x[4]), rudder=float(x[5]), flaps=fl, turn_rate=0.0, residual=lin,
        residual_angular=ang, state=y, engine=model.engine, gear=model.gear,
    )


def _newton(residual, x, lower, upper, steps=8):
    """A few Newton steps on the square system (as many equations as unknowns), staying inside the bounds."""
    x = np.array(x, dtype=np.float64)
    lo, hi = np.array(lower), np.array(upper)
    r = residual(x)
    for _ in range(steps):
        if np.max(np.abs(r)) < 1e-13:
            break
        J = np.empty((len(r), len(x)))
        for j in range(len(x)):
            e = np.zeros_like(x)
            e[j] = 1e-6 * max(1.0, abs(x[j]))
            J[:, j] = (residual(x + e) - residual(x - e)) / (2.0 * e[j])
        try:
            dx = np.linalg.lstsq(J, -r, rcond=1e-12)[0]
        except np.linalg.LinAlgError:
            break
        x_new = np.clip(x + dx, lo, hi)
        r_new = residual(x_new)
        if not np.max(np.abs(r_new)) < np.max(np.abs(r)):
            break
        x, r = x_new, r_new
    return x


def _limit(x, stalled, near=1e-6, glider=False):
    """(limit, why) of a trim result ``x`` = [α, β, throttle, elevator, aileron, rudder] at or near a bound
    (a glider's: [α, β, glide angle, …])."""
    if stalled:
        return "stall", f"the wing stalls (α {x[0]:.1f}° is beyond its table)"
    if glider and x[2] >= -near:
        return "glide", "it would have to climb: no glide this slow without an engine"
    if glider and x[2] <= -30.0 + near:
        return "glide", "no glide shallower than 30° at this speed"
    if not glider and x[2] >= 1.0 - near:
        return "throttle", "it needs more than full throttle"
    if not glider and x[2] <= near:
        return "idle", "it needs less than idle thrust (too steep a descent)"
    if abs(x[3]) >= 1.0 - near:
        return "elevator", f"the elevator is at its {'nose-up' if x[3] > 0 else 'nose-down'} stop"
    return None


def _tenths(x):
    """``x`` to a tenth, without a trailing ``.0`` (a failure's message reads ``61.2 ft/s``, not ``61.2346``)."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _failure(aircraft, x, lin, ang, stalled, V, h, gamma, flaps, chi, mu, atmosphere, model, scan, engine=None):
    """The :class:`TrimError` for a failed trim: which limit stops it, and the speeds that work."""
    at = (f"{_tenths(V)} ft/s, altitude {h:.0f} ft, climb angle {_tenths(gamma)}°, flaps {_tenths(flaps)}"
          + (f", bank {_tenths(mu)}°" if mu else ""))
    span, works = None, ""
    if scan:
        span = trimmable_speeds(aircraft, h, gamma, flaps, chi, mu, atmosphere, model, engine=engine)
        works = (f"; trimmable from {math.ceil(span[0])} to {math.floor(span[1])} ft/s here" if span
                 else "; no airspeed can be trimmed here")
    glider = not makes_thrust(aircraft) or engine is not None
    found = _limit(x, stalled, glider=glider)
    if found is None and span is not None and not span[0] <= V <= span[1]:
        # the solver stopped short of a bound: what gives out is what holds at the nearest trimmable speed
        edge = trim(aircraft, span[0] if V < span[0] else span[1], h, gamma, flaps, chi, mu, atmosphere, model,
                    report_range=False, engine=engine, gear=model.gear)
        edge_x = [edge.alpha, edge.beta, edge.climb_angle if glider else edge.throttle, edge.elevator,
                  edge.aileron, edge.rudder]
        found = _limit(edge_x, model.stalled(edge.state, list(edge.controls.values())), near=0.05, glider=glider)
    limit, why = found or ("no solution", f"no steady flight found (residual {lin:.1e} g, {ang:.1e} rad/s²)")
    return TrimError(f"cannot trim at {at}: {why}{works}", limit, span)


def trimmable_speeds(aircraft, altitude, climb_angle=0.0, flaps=0.0, heading=0.0, bank=0.0,
                     atmosphere=None, model=None, resolution=0.5, engine=None, gear=None):
    """``(slowest, fastest)`` airspeed (ft/s) that :func:`trim` can hold, or None (``gear`` None: the model's
    lever as it is).

    The first trimmable speed of :data:`SPEED_PROBES`, then bisection towards
    both :data:`SPEED_BOUNDS` to ``resolution`` ft/s (the trimmable speeds are
    taken to be one interval).
    """
    model = model or AirplaneModel(aircraft, atmosphere)
    lever = model.gear if gear is None else gear

    def ok(v):
        try:
            trim(aircraft, v, altitude, climb_angle, flaps, heading, bank, atmosphere, model, report_range=False,
                 engine=engine, gear=lever)
            return True
        except TrimError:
            return False

    good = next((v for v in SPEED_PROBES if ok(v)), None)
    if good is None:
        return None
    ends = []
    for bound in SPEED_BOUNDS:
        inside, outside = good, bound
        if ok(bound):
            ends.append(bound)
            continue
        while abs(outside - inside) > resolution:
            mid = 0.5 * (inside + outside)
            inside, outside = (mid, outside) if ok(mid) else (inside, mid)
        ends.append(inside)
    return float(ends[0]), float(ends[1])


def _least_squares():
    """``scipy.optimize.least_squares``, imported when a trim is first solved (the import takes about half a
    second, which a flight from the file's start or ``flightsim --version`` should not pay)."""
    from scipy.optimize import least_squares

    return least_squares

"""Integrator lab: measure every registered integrator's accuracy and cost.

Two kinds of test flight:

- the public torque-free test bodies (JSBSim's rotation study and NASA NESC
  check case 2), against the closed-form solution
  (:class:`~flightsim.physics.top.FreeTop`, itself checked against the
  published ω at the final time, and in the tests against DOP853);
- a scripted 20 s manoeuvre of the book's airplane, against ``rk4`` at a much
  smaller step.

For each: the error at several steps, the measured convergence order, µs per
step, and for the free body the drift of energy and earth-frame angular
momentum over a long run (:func:`measure`, :func:`measure_all`).  Then the
long runs on a fast-spinning body (:data:`SPIN_BODIES`, :func:`long_run`):
energy and |L| over 10⁵ steps at 60 Hz, bounded or secular, and the largest
stable dt on the T-handle spun near its intermediate axis.

Units: steps and times in s, attitude errors in degrees, positions in ft,
costs in µs of CPU per step, drifts relative.  This module only measures:
the report (Markdown tables, plots) is :mod:`flightsim.commands.lab_report`,
which ``flightsim bench`` runs.
"""

import math
import time
from dataclasses import dataclass, field

import numpy as np

from flightsim.math import quat
from flightsim.physics import divergence, integrators, rigidbody, stability
from flightsim.physics.aircraft_file import load_aircraft
from flightsim.physics.integrators import INTEGRATORS
from flightsim.physics.modes import dynamic_modes, linearize
from flightsim.physics.top import FreeTop
from flightsim.physics.trim import AirplaneModel, trim
from flightsim.simulation.flight import Simulation

#: Steps (s) at which every integrator is measured.
DTS = (1 / 60, 1 / 120, 1 / 240, 1 / 480, 1 / 960)
QUICK_DTS = (1 / 120, 1 / 240, 1 / 480)
#: Errors below this are rounding, not truncation, and are left out of order fits.
ROUNDING = 1e-11
#: Attitude errors (rad) above this are left out of the free bodies' order fits: not asymptotic yet.
ASYMPTOTIC = 0.1


@dataclass(frozen=True)
class FreeBody:
    """A public torque-free test case (inertia in any consistent units, ω0 body rad/s)."""

    name: str
    source: str
    inertia: tuple
    omega0: tuple
    duration: float
    omega_end: tuple  # published ω at ``duration``
    tolerance: float  # of the published digits


BODIES = (
    FreeBody("jsbsim", "JSBSim check_cases/notebooks/rotation", (10.0, 20.0, 26.0), (1.0, 15.0, 1.0), 10.0,
             (-8.93298, 10.95152, 7.17716), 2e-5),
    FreeBody("nesc-brick", "NASA NESC check case 2, tumbling brick", (0.001894220, 0.006211019, 0.007194665),
             tuple(np.radians((10.0, 20.0, 30.0))), 30.0, (0.220232, -0.303643, 0.543139), 2e-6),
)

#: The scripted airplane manoeuvre: (time s, controls set from then on).
MANOEUVRE = (
    (0.0, {"throttle": 0.6}),
    (2.0, {"elevator": 0.1}),
    (5.0, {"elevator": 0.0, "aileron": 0.2}),
    (8.0, {"aileron": -0.2, "rudder": 0.2}),
    (11.0, {"aileron": 0.0, "rudder": 0.0, "flaps": 0.5}),
    (15.0, {"flaps": 0.0, "elevator": -0.1}),
    (18.0, {"elevator": 0.0}),
)
MANOEUVRE_SECONDS = 20.0
AIRPLANE_REFERENCE_DT = 1 / 3840


def free_body_reference(body):
    """``(q, ω)`` at ``body.duration`` in closed form (:class:`~flightsim.physics.top.FreeTop`),
    checked against the published ω (tests/test_spin.py checks the closed form against DOP853 at 1e-13)."""
    q, w = FreeTop(np.diag(body.inertia), [1.0, 0, 0, 0], body.omega0).at(body.duration)
    if not np.allclose(w, body.omega_end, atol=body.tolerance):
        raise RuntimeError(f"{body.name}: reference ω {w} disagrees with the published {body.omega_end}")
    return q, w


def fly_manoeuvre(integrator, dt):
    """Fly :data:`MANOEUVRE`; returns the final :class:`~flightsim.simulation.FlightState` and µs per step.

    Raises
    ------
    FloatingPointError
        The flight diverged, with the flight's own message — as
        :func:`~flightsim.physics.rigidbody.propagate` raises.  (A crash ends
        the flight where it happened, and that state is returned.)
    """
    sim = Simulation(integrator=integrator, dt=dt)
    k = 0
    steps = int(round(MANOEUVRE_SECONDS / dt))
    start = time.perf_counter()
    for _ in range(steps):
        while k < len(MANOEUVRE) and MANOEUVRE[k][0] <= sim.t + 1e-9:
            for name, value in MANOEUVRE[k][1].items():
                setattr(sim.controls, name, value)
            k += 1
        if not sim.step():
            if sim.diverged:
                raise FloatingPointError(sim.status)
            break
    return sim.state, 1e6 * (time.perf_counter() - start) / steps


def fitted_order(dts, errors, largest=1.0):
    """log-log slope between the two smallest steps whose errors are finite, above rounding and below ``largest``."""
    pts = [(d, e) for d, e in zip(dts, errors, strict=True) if math.isfinite(e) and ROUNDING < e < largest]
    if len(pts) < 2:
        return math.nan
    (d1, e1), (d2, e2) = sorted(pts)[:2]
    return math.log(e2 / e1) / math.log(d2 / d1)


@dataclass
class Result:
    """One integrator's measurements."""

    name: str
    order: int
    body_errors: dict = field(default_factory=dict)  # body name → attitude errors (deg) per dt
    body_orders: dict = field(default_factory=dict)
    body_us: float = math.nan  # µs per free-body step
    energy_drift: float = math.nan  # relative, over LONG_RUN s on the NESC brick at 1/120 s
    momentum_drift: float = math.nan
    airplane_errors: list = field(default_factory=list)  # attitude deg per dt
    airplane_position_errors: list = field(default_factory=list)  # ft per dt
    airplane_order: float = math.nan
    airplane_us: float = math.nan
    stable_dt: float = math.nan  # largest dt keeping every mode of the trimmed airplane bounded (its step)
    region_dt: float = math.nan  # the same predicted from the integrator's stability region


LONG_RUN = 300.0


@dataclass(frozen=True)
class CruiseModes:
    """The book's airplane trimmed at its cruise speed: what the stability columns are measured on."""

    model: object
    linear: object
    modes: list

    @classmethod
    def of(cls, aircraft=None):
        aircraft = aircraft or load_aircraft()
        model = AirplaneModel(aircraft)
        point = trim(aircraft, aircraft.cruise_speed, model=model)
        linear = linearize(point, aircraft, model=model)
        return cls(model, linear, dynamic_modes(linear))

    @property
    def eigenvalues(self):
        return [m.eigenvalue for m in self.modes] + [m.eigenvalue.conjugate() for m in self.modes if m.imag]


def measure(name, dts, references, airplane_reference, progress=None, cruise=None):
    """Every measurement of one integrator (see :class:`Result`)."""
    res = Result(name, INTEGRATORS[name].order)
    if cruise is not None:
        res.stable_dt = stability.largest_stable_dt(name, cruise.linear, cruise.modes, cruise.model)
        res.region_dt = stability.region_dt_limit(name, cruise.eigenvalues)
    for body in BODIES:
        q_ref, _ = references[body.name]
        errs = []
        for dt in dts:
            steps = int(round(body.duration / dt))
            try:
                q, _ = rigidbody.propagate([1.0, 0, 0, 0], body.omega0, np.diag(body.inertia), dt, steps, name)
                errs.append(float(np.degrees(quat.angle_between(q, q_ref))))
            except FloatingPointError:
                errs.append(math.inf)
            if progress:
                progress()
        res.body_errors[body.name] = errs
        # attitude errors past 0.1 rad are not in the asymptotic range yet (Jolt's clamped step sits at
        # 0.7 rad on the JSBSim body at both 1/480 and 1/960 s: a slope there means nothing)
        res.body_orders[body.name] = fitted_order(dts, np.radians(errs), largest=ASYMPTOTIC)
    body = BODIES[1]  # the gentle brick: every integrator converges on it, so drift is comparable
    inertia = np.diag(body.inertia)
    steps = int(round(LONG_RUN * 120))
    w0 = np.asarray(body.omega0)
    e0, h0 = 0.5 * w0 @ inertia @ w0, inertia @ w0
    times = []
    for _ in range(3):            # the cost: the quickest of three runs (the machine is shared)
        start = time.perf_counter()
        try:
            q, w = rigidbody.propagate([1.0, 0, 0, 0], body.omega0, inertia, 1 / 120, steps, name)
            res.energy_drift = float(abs(0.5 * w @ inertia @ w - e0) / e0)
            res.momentum_drift = float(np.linalg.norm(quat.rotate(q, inertia @ w) - h0) / np.linalg.norm(h0))
        except FloatingPointError:
            res.energy_drift = res.momentum_drift = math.inf
        times.append(time.perf_counter() - start)
    res.body_us = 1e6 * min(times) / steps
    ref_state = airplane_reference
    costs = []
    for dt in dts:
        try:
            state, us = fly_manoeuvre(name, dt)
        except FloatingPointError:
            costs.append(math.nan)
            res.airplane_errors.append(math.inf)
            res.airplane_position_errors.append(math.inf)
        else:
            costs.append(us)
            res.airplane_errors.append(float(np.degrees(quat.angle_between(state.q, ref_state.q))))
            res.airplane_position_errors.append(float(np.linalg.norm(state.position - ref_state.position)))
        if progress:
            progress()
    flown = [c for c in costs if math.isfinite(c)]
    res.airplane_us = float(np.median(flown)) if flown else math.nan
    res.airplane_order = fitted_order(dts, res.airplane_position_errors)
    return res


def measure_all(names=None, quick=False, progress=None):
    """:func:`measure` every integrator of ``names`` (default: all) against the references.

    The references are computed once: the free bodies' closed form
    (:func:`free_body_reference`), the airplane's manoeuvre flown with ``rk4``
    at :data:`AIRPLANE_REFERENCE_DT` (four times that when ``quick``), and the
    airplane trimmed at cruise (:class:`CruiseModes`).  ``progress`` is called
    after each flight (``len(dts) × (len(BODIES) + 1)`` per integrator).

    Returns
    -------
    (list of Result, tuple of float)
        One :class:`Result` per integrator, and the steps measured (s):
        :data:`QUICK_DTS` when ``quick``, else :data:`DTS`.
    """
    names = list(INTEGRATORS) if names is None else list(names)
    dts = QUICK_DTS if quick else DTS
    references = {b.name: free_body_reference(b) for b in BODIES}
    airplane_reference, _ = fly_manoeuvre("rk4", AIRPLANE_REFERENCE_DT * (4 if quick else 1))
    cruise = CruiseModes.of()
    return [measure(n, dts, references, airplane_reference, progress, cruise) for n in names], dts


# --------------------------------------------------------------------------- spinning bodies: long runs


@dataclass(frozen=True)
class SpinBody:
    """A torque-free body for the long runs and for ``flightsim spin``.

    ``inertia`` is the body-frame tensor (3×3 rows; products allowed), in
    ``units``; ``omega0`` the body-frame angular velocity at the start, rad/s.
    """

    name: str
    label: str
    source: str
    inertia: tuple
    omega0: tuple
    units: str = "kg·m²"

    @property
    def tensor(self):
        """The inertia tensor as a 3×3 array."""
        return np.array(self.inertia, dtype=float)


def _diag(a, b, c):
    return ((a, 0.0, 0.0), (0.0, b, 0.0), (0.0, 0.0, c))


#: The bodies of ``flightsim spin`` (and of the long runs): name → :class:`SpinBody`.
SPIN_BODIES = {b.name: b for b in (
    # Two thin 50 g rods: a 10 cm stem along y, a 12 cm bar along x across its end (moments about the
    # centre of mass). Spun about x, the intermediate axis, it flips every few seconds (Dzhanibekov 1985).
    SpinBody("t-handle", "T-handle (Dzhanibekov)", "two thin rods, spun about the intermediate axis",
             _diag(1.0417e-4, 0.6e-4, 1.6417e-4), (20.0, 0.0, 0.2)),
    # x along the handle, y across the face, z normal to the face; spun about y (the tennis-racket theorem).
    SpinBody("tennis-racket", "Tennis racket", "a 340 g racket (handle x, across the face y, normal z)",
             _diag(0.0016, 0.0129, 0.0145), (0.05, 12.6, 0.05)),
    SpinBody("brick", "Brick (NESC check case 2)", "NASA NESC check case 2, the dragless tumbling brick",
             _diag(*BODIES[1].inertia), BODIES[1].omega0, "slug·ft²"),
    SpinBody("jsbsim", "JSBSim test body", "JSBSim check_cases/notebooks/rotation",
             _diag(*BODIES[0].inertia), BODIES[0].omega0, "any"),
)}

#: The long run: 10⁵ steps at 60 Hz on the fast JSBSim body (|ω| ≈ 15 rad/s, a quarter radian a step).
LONG_STEPS = 100_000
LONG_DT = 1 / 60
LONG_BODY = "jsbsim"
#: Largest stable dt: spun near its intermediate axis, the body must keep its energy and |L| within this
#: fraction for STABLE_SECONDS at every dt up to the one reported.
STABLE_BODY = "t-handle"
STABLE_TOLERANCE = 0.1
STABLE_SECONDS = 60.0
STABLE_DT_MAX = 0.5


@dataclass
class LongRun:
    """One integrator over :data:`LONG_STEPS` steps of :data:`LONG_DT` on :data:`LONG_BODY`, and its stable dt."""

    name: str
    times: np.ndarray        # s, where the errors were sampled
    energy: np.ndarray       # (E − E0)/E0
    momentum: np.ndarray     # (|L| − |L0|)/|L0|
    stable_dt: float = math.nan      # largest dt keeping it bounded (energy and |L| grow < 10 %)
    faithful_dt: float = math.nan    # largest dt keeping energy and |L| within 10 % either way

    @property
    def energy_drift(self):
        return _largest(self.energy)

    @property
    def momentum_drift(self):
        return _largest(self.momentum)

    @property
    def energy_kind(self):
        return behaviour(self.times, self.energy)

    @property
    def momentum_kind(self):
        return behaviour(self.times, self.momentum)


def _largest(errors):
    return float(np.max(np.abs(errors))) if len(errors) else math.nan


def behaviour(times, errors):
    """How a relative error behaves over a run.

    ``"exact"`` (below 1e-11 throughout), ``"damped"`` (more than 1 % lost and staying lost over the
    second half of the time), ``"bounded"`` (an oscillation: no larger in the second half of the time
    than in the first tenth), ``"secular"`` (growing: more than 3× larger) or ``"diverged at N s"``.
    """
    signed = np.asarray(errors)
    errors = np.abs(signed)
    if len(errors) == 0 or not np.isfinite(errors[-1]):
        return f"diverged at {times[-1]:.0f} s" if len(times) else "diverged"
    if errors.max() < 1e-11:
        return "exact"
    times = np.asarray(times)
    first, second = times <= 0.1 * times[-1], times >= 0.5 * times[-1]
    if np.all(signed[second] < -0.01):
        return "damped"
    early, late = errors[first].max(initial=0.0), errors[second].max()
    return "secular" if late > 3.0 * early else "bounded"


def spin_run(name, inertia, omega0, dt, steps, samples=500):
    """Run ``steps`` steps on a torque-free body; sample the relative energy and |L| errors.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        Times (s), energy errors, |L| errors; they end at the first sample where the state is no
        longer finite (there, ``inf``).
    """
    inertia, inertia_inv = rigidbody.check_inertia(inertia)
    y = np.zeros(integrators.STATE_SIZE)
    y[integrators.Q] = (1.0, 0.0, 0.0, 0.0)
    w0 = np.asarray(omega0, dtype=float)
    y[integrators.W] = w0
    e0, l0 = 0.5 * w0 @ inertia @ w0, np.linalg.norm(inertia @ w0)
    method = INTEGRATORS[name]
    # samples spaced geometrically in time: the early divergence and the long-run trend both show
    marks = np.unique(np.geomspace(1, steps, samples).astype(np.int64)) if steps > 0 else np.zeros(0, np.int64)
    times, energy, momentum = [], [], []
    done = 0
    for mark in marks:
        n = int(mark) - done
        worst = method.run(y, done * dt, dt, n, rigidbody.FREE_BODY, inertia, inertia_inv, True)
        done += n
        times.append(done * dt)
        w = y[integrators.W]
        if divergence.diverged(worst):
            energy.append(math.inf)
            momentum.append(math.inf)
            break
        energy.append((0.5 * w @ inertia @ w - e0) / e0)
        momentum.append((np.linalg.norm(inertia @ w) - l0) / l0)
    return np.array(times), np.array(energy), np.array(momentum)


def largest_spinning_dt(name, body=None, seconds=STABLE_SECONDS, dt_max=STABLE_DT_MAX, factor=1.1,
                        tolerance=STABLE_TOLERANCE, faithful=False):
    """Largest dt (s) below which integrator ``name`` keeps ``body`` (default :data:`STABLE_BODY`) stable
    for ``seconds``: finite, with energy and |L| never more than ``tolerance`` above their start
    (``faithful``: nor below — a step that damps the spin away fails too).

    Scans up from 1/240 s by ``factor`` to the first dt that fails, then bisects to 2 %; 0 when
    1/240 s already fails, ``dt_max`` when nothing up to it does.
    """
    body = body or SPIN_BODIES[STABLE_BODY]

    def ok(dt):
        _, e, m = spin_run(name, body.tensor, body.omega0, dt, int(math.ceil(seconds / dt)), samples=200)
        if not np.all(np.isfinite(e)):
            return False
        if faithful:
            e, m = np.abs(e), np.abs(m)
        return bool(e.max() <= tolerance and m.max() <= tolerance)

    dt = 1 / 240
    if not ok(dt):
        return 0.0
    while dt * factor <= dt_max and ok(dt * factor):
        dt *= factor
    if dt * factor > dt_max:
        return dt_max if ok(dt_max) else dt
    lo, hi = dt, dt * factor
    while (hi - lo) / lo > 0.02:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def long_run(name, quick=False):
    """:class:`LongRun` of integrator ``name`` (``quick``: a fifth of the steps, a coarser dt scan)."""
    body = SPIN_BODIES[LONG_BODY]
    steps = LONG_STEPS // 5 if quick else LONG_STEPS
    times, energy, momentum = spin_run(name, body.tensor, body.omega0, LONG_DT, steps)
    result = LongRun(name, times, energy, momentum)
    scan = dict(seconds=STABLE_SECONDS / 3 if quick else STABLE_SECONDS, factor=1.25 if quick else 1.1)
    result.stable_dt = largest_spinning_dt(name, **scan)
    result.faithful_dt = largest_spinning_dt(name, faithful=True, **scan)
    return result

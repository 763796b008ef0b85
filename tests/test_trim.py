"""Trim, linearisation, modes and integrator stability on the book's airplane."""

import math

import numpy as np
import pytest
from scipy.optimize import curve_fit

from flightsim.physics import modes, stability
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import AirplaneModel, TrimError, trim, trimmable_speeds
from flightsim.simulation import FlightState, Simulation


@pytest.fixture(scope="module")
def aircraft():
    return load_aircraft()


@pytest.fixture(scope="module")
def model(aircraft):
    return AirplaneModel(aircraft)


@pytest.fixture(scope="module")
def cruise(aircraft, model):
    """Trim, linear model and modes at 160 ft/s, level."""
    point = trim(aircraft, 160.0, model=model)
    linear = modes.linearize(point, aircraft, model=model)
    return point, linear, modes.dynamic_modes(linear)


def fly(point, integrator="rk4", dt=1 / 120, seconds=30.0, kick=None, pulse=None):
    """Fly from a trim; ``kick(y)`` changes the start state, ``pulse(t, controls)`` the controls.

    Returns times and the list of state vectors (and the simulation).
    """
    sim = Simulation(integrator=integrator, dt=dt)
    y = point.state_at(0.0, 0.0)
    if kick is not None:
        kick(y)
    sim.reset(state=FlightState.from_vector(0.0, y))
    base = dict(throttle=point.throttle, elevator=point.elevator, aileron=point.aileron, rudder=point.rudder,
                flaps=point.flaps)
    times, states = [0.0], [sim.vector]
    for _ in range(int(round(seconds / dt))):
        for name, value in base.items():
            setattr(sim.controls, name, value)
        if pulse is not None:
            pulse(sim.t, sim.controls)
        if not sim.step():
            break
        times.append(sim.t)
        states.append(sim.vector)
    return np.array(times), np.array(states), sim


# ------------------------------------------------------------------ trim


@pytest.mark.parametrize("speed,flaps,climb", [(120, 0, 0), (160, 0, 0), (200, 0, 0), (230, 0, 0), (110, 1, 0),
                                               (160, 0, 5), (160, 0, -4), (140, 0.5, -3)])
def test_trim_residual_below_1e_8_g(aircraft, model, speed, flaps, climb):
    p = trim(aircraft, speed, flaps=flaps, climb_angle=climb, model=model)
    assert p.residual < 1e-8 and p.residual_angular < 1e-8
    # independent check of the residual from the model's derivative
    d = model.derivative(p.state, [p.throttle, p.elevator, p.aileron, p.rudder, p.flaps])
    assert np.max(np.abs(d[3:6])) / aircraft.gravity < 1e-8 and np.max(np.abs(d[10:13])) < 1e-8
    assert 0.0 <= p.throttle <= 1.0 and -1.0 <= p.elevator <= 1.0
    assert p.pitch == pytest.approx(p.alpha + climb, abs=1e-9)
    # symmetric airplane: wings level, no sideslip, aileron and rudder zero
    assert abs(p.roll) < 1e-9 and abs(p.beta) < 1e-9 and abs(p.aileron) < 1e-9 and abs(p.rudder) < 1e-9
    assert np.linalg.norm(p.state[3:6]) == pytest.approx(speed)


def test_faster_needs_more_throttle_and_less_elevator(aircraft, model):
    points = [trim(aircraft, v, model=model) for v in (120, 160, 200)]
    assert points[0].throttle < points[1].throttle < points[2].throttle
    assert points[0].elevator > points[1].elevator > points[2].elevator
    assert points[0].alpha > points[1].alpha > points[2].alpha


def test_trimmed_airplane_holds_altitude_and_pitch_for_30_s(cruise):
    point = cruise[0]
    _, states, sim = fly(point, "rk4", seconds=30.0)
    assert sim.running and len(states) == 3601
    assert np.max(np.abs(states[:, 2] - point.altitude)) < 1.0
    pitch = np.array([float(np.degrees(np.arcsin(2 * (s[6] * s[8] - s[9] * s[7])))) for s in states])
    # body y is left, so a nose-up pitch is a negative rotation about body y: pitch = −asin(2(wy − zx))
    assert np.max(np.abs(-pitch - point.pitch)) < 0.05


def test_glide_descends_at_the_asked_angle(aircraft, model):
    point = trim(aircraft, 150.0, climb_angle=-3.0, model=model)
    times, states, sim = fly(point, "rk4", seconds=20.0)
    assert sim.running
    drop = states[0, 2] - states[-1, 2]
    distance = np.hypot(*(states[-1, 0:2] - states[0, 0:2]))
    assert math.degrees(math.atan2(drop, distance)) == pytest.approx(3.0, abs=0.01)
    assert drop == pytest.approx(150.0 * math.sin(math.radians(3.0)) * 20.0, rel=2e-3)


def test_coordinated_turn_holds_bank_and_turn_rate(aircraft, model):
    point = trim(aircraft, 160.0, bank=30.0, model=model)
    assert point.residual < 1e-8 and point.residual_angular < 1e-8
    assert point.roll == pytest.approx(30.0, abs=0.1)
    assert point.turn_rate == pytest.approx(math.degrees(aircraft.gravity * math.tan(math.radians(30)) / 160.0))
    times, states, sim = fly(point, "rk4", seconds=10.0)
    from flightsim.math import quat

    headings = np.unwrap(np.radians([quat.aviation_angles(s[6:10])[2] for s in states]))
    assert math.degrees(headings[-1] - headings[0]) / 10.0 == pytest.approx(point.turn_rate, rel=1e-3)
    assert abs(states[-1, 2] - states[0, 2]) < 1.0


@pytest.mark.parametrize("kwargs,limit", [
    (dict(airspeed=400.0), "throttle"),
    (dict(airspeed=230.0, climb_angle=10.0), "throttle"),
    (dict(airspeed=130.0, climb_angle=-25.0), "idle"),
    (dict(airspeed=80.0), "elevator"),
])
def test_impossible_trims_say_which_limit(aircraft, model, kwargs, limit):
    with pytest.raises(TrimError) as err:
        trim(aircraft, model=model, **kwargs)
    assert err.value.limit == limit
    text = str(err.value)
    assert text.startswith(f"cannot trim at {kwargs['airspeed']:g} ft/s")
    if err.value.speed_range is not None:
        lo, hi = err.value.speed_range
        assert f"trimmable from {math.ceil(lo)} to {math.floor(hi)} ft/s" in text
        # the ends really are the ends
        trim(aircraft, lo + 1.0, climb_angle=kwargs.get("climb_angle", 0.0), model=model)
        trim(aircraft, hi - 1.0, climb_angle=kwargs.get("climb_angle", 0.0), model=model)
        with pytest.raises(TrimError):
            trim(aircraft, lo - 2.0, climb_angle=kwargs.get("climb_angle", 0.0), model=model, report_range=False)


def test_trimmable_range_of_level_flight(aircraft, model):
    lo, hi = trimmable_speeds(aircraft, 2000.0, model=model)
    assert 90.0 < lo < 110.0 and 230.0 < hi < 250.0
    with pytest.raises(TrimError, match="more than full throttle"):
        trim(aircraft, hi + 2.0, model=model, report_range=False)


@pytest.mark.parametrize("kwargs,message", [
    (dict(airspeed=0.0), "airspeed: must be > 0 ft/s"),
    (dict(airspeed="abc"), "airspeed: must be a number"),
    (dict(airspeed=160.0, flaps=1.5), "flaps: must be within 0..1"),
    (dict(airspeed=160.0, climb_angle=math.nan), "climb_angle: must be"),
])
def test_bad_trim_arguments_name_the_argument(aircraft, model, kwargs, message):
    with pytest.raises(ValueError, match=message):
        trim(aircraft, model=model, **kwargs)


# ------------------------------------------------------------------ linearisation and modes


def test_linear_model_is_block_diagonal_for_a_symmetric_airplane(cruise):
    A = cruise[1].A
    lon, lat = list(modes.LONGITUDINAL), list(modes.LATERAL)
    assert np.max(np.abs(A[np.ix_(lon, lat)])) < 1e-6 and np.max(np.abs(A[np.ix_(lat, lon)])) < 1e-6
    # hand-derived entries: ∂u̇/∂θ = −g cos θ, ∂θ̇/∂q = 1, ∂u̇/∂throttle = max_thrust / mass
    g = 32.174
    assert A[0, 7] == pytest.approx(-g * math.cos(math.radians(cruise[0].pitch)), rel=1e-5)
    assert A[7, 4] == pytest.approx(1.0, abs=1e-6)
    assert cruise[1].B[0, 0] == pytest.approx(3000.0 / load_aircraft().mass, rel=1e-6)


def test_modes_have_the_right_kinds(cruise):
    named = {m.name: m for m in cruise[2]}
    assert set(named) == set(modes.MODE_NAMES) and len(cruise[2]) == 5
    sp, ph, dr, roll, spiral = (named[n] for n in ("short period", "phugoid", "dutch roll", "roll", "spiral"))
    assert sp.axis == ph.axis == "longitudinal" and dr.axis == roll.axis == spiral.axis == "lateral"
    assert sp.imag > 0 and ph.imag > 0 and dr.imag > 0 and roll.imag == 0 and spiral.imag == 0
    assert 10.0 < ph.period < 100.0 and sp.period < 5.0           # phugoid: tens of seconds
    assert sp.natural_frequency > 5 * ph.natural_frequency
    assert roll.real < -1.0 and abs(spiral.real) < 0.1            # roll fast, spiral slow
    assert sp.damping_ratio > ph.damping_ratio > 0 and dr.damping_ratio > 0
    for m in cruise[2]:
        assert m.natural_frequency == pytest.approx(abs(m.eigenvalue))
        if m.real < 0:
            assert m.time_to_half == pytest.approx(math.log(2) / -m.real) and m.time_to_double is None


def _fit_oscillation(t, x):
    """Period and damping ratio of a decaying oscillation fitted to x(t)."""

    def f(t, a, sigma, omega, phase, c):
        return a * np.exp(sigma * t) * np.cos(omega * t + phase) + c

    spectrum = np.abs(np.fft.rfft(x - x.mean()))
    omega0 = 2 * np.pi * np.fft.rfftfreq(len(t), t[1] - t[0])[np.argmax(spectrum[1:]) + 1]
    p, _ = curve_fit(f, t - t[0], x, p0=[np.ptp(x) / 2, -0.1, omega0, 0.0, x.mean()], maxfev=20000)
    sigma, omega = p[1], abs(p[2])
    return 2 * np.pi / omega, -sigma / math.hypot(sigma, omega)


def test_phugoid_matches_the_nonlinear_response_to_an_elevator_pulse(cruise):
    point, _, named = cruise
    phugoid = next(m for m in named if m.name == "phugoid")

    def pulse(t, c):
        if t < 1.0:
            c.elevator += 0.05

    times, states, _ = fly(point, "rk4", dt=1 / 60, seconds=120.0, pulse=pulse)
    speed = np.linalg.norm(states[:, 3:6], axis=1)
    keep = times > 8.0   # the short period has died out
    period, zeta = _fit_oscillation(times[keep], speed[keep])
    assert period == pytest.approx(phugoid.period, rel=0.03)
    assert zeta == pytest.approx(phugoid.damping_ratio, abs=0.03)


def test_dutch_roll_matches_the_nonlinear_response_to_a_rudder_pulse(cruise):
    point, _, named = cruise
    dutch = next(m for m in named if m.name == "dutch roll")

    def pulse(t, c):
        if t < 0.3:
            c.rudder += 0.1

    times, states, _ = fly(point, "rk4", dt=1 / 120, seconds=15.0, pulse=pulse)
    yaw_rate = states[:, 12]
    keep = times > 1.5   # the roll subsidence has died out
    period, zeta = _fit_oscillation(times[keep], yaw_rate[keep])
    assert period == pytest.approx(dutch.period, rel=0.03)
    assert zeta == pytest.approx(dutch.damping_ratio, abs=0.03)


# ------------------------------------------------------------------ stability


def test_euler_region_is_the_disk_around_minus_one():
    boundary = stability.region_boundary("euler")
    z = boundary[:, 0] + 1j * boundary[:, 1]
    assert np.max(np.abs(np.abs(z + 1.0) - 1.0)) < 1e-3
    assert stability.measured_amplification("euler", -0.3 + 0.4j) == pytest.approx(1 + (-0.3 + 0.4j))


def test_rk4_region_has_its_known_boundary():
    boundary = stability.region_boundary("rk4")
    z = boundary[:, 0] + 1j * boundary[:, 1]
    assert np.max(np.abs(np.abs(stability.rk4(z)) - 1.0)) < 1e-3
    assert boundary[:, 0].min() == pytest.approx(-2.7853, abs=2e-3)        # real-axis intercept
    # imaginary-axis intercept 2√2: the rays start at −0.5, so the points nearest Re z = 0 bracket it (the
    # two upper points either side of the axis, above the origin where the boundary hugs the axis)
    upper = boundary[boundary[:, 1] > 1.0]
    cross = np.flatnonzero(np.diff(np.sign(upper[:, 0])))
    assert len(cross) == 1, upper
    below, above = sorted(upper[cross[0]:cross[0] + 2, 1])
    assert below < 2 * math.sqrt(2) < above
    for z0 in (-2.785, 2.8284j, -2.0 + 2.0j):
        assert stability.measured_amplification("rk4", z0) == pytest.approx(complex(stability.rk4(z0)))


def test_every_integrator_has_a_region_containing_small_decay():
    from flightsim.physics.integrators import INTEGRATORS

    for name in INTEGRATORS:
        assert abs(stability.amplification(name, -0.1)) < 1.0, name
        assert abs(stability.amplification(name, 0.1)) > 1.0, name


def test_largest_stable_dt_predicts_where_the_simulation_diverges(cruise, model):
    point, linear, named = cruise
    lams = [m.eigenvalue for m in named] + [m.eigenvalue.conjugate() for m in named if m.imag]
    limit_rk4 = stability.largest_stable_dt("rk4", linear, named, model)
    # RK4 treats the whole state alike, so its region and its step agree
    assert limit_rk4 == pytest.approx(stability.region_dt_limit("rk4", lams), rel=2e-3)
    roll = next(m for m in named if m.name == "roll")
    assert limit_rk4 == pytest.approx(-2.7853 / roll.real, rel=2e-3)
    # Bourg's step is partitioned (symplectic Euler): more stable than explicit Euler's disk
    limit_euler = stability.largest_stable_dt("euler", linear, named, model)
    assert limit_euler > 2 * stability.region_dt_limit("euler", lams)

    def kick(y):
        y[10:13] += 0.02

    for name, limit in (("rk4", limit_rk4), ("euler", limit_euler)):
        _, below, _ = fly(point, name, dt=0.9 * limit, seconds=40.0, kick=kick)
        _, above, sim = fly(point, name, dt=1.15 * limit, seconds=40.0, kick=kick)
        rate_below = np.abs(below[-len(below) // 4:, 10]).max()
        assert rate_below < 0.01, name                      # the kick died out (the spiral barely grows)
        assert not sim.running or np.abs(above[-len(above) // 4:, 10]).max() > 10 * rate_below, name


def test_mode_multipliers_mark_the_mode_that_goes(cruise, model):
    point, linear, named = cruise
    limit = stability.largest_stable_dt("euler", linear, named, model)
    below = stability.mode_multipliers("euler", linear, named, 0.95 * limit, model)
    above = stability.mode_multipliers("euler", linear, named, 1.05 * limit, model)
    assert all(ok for _, _, ok in below)
    gone = [m.name for m, _, ok in above if not ok]
    assert gone == ["roll"]
    spiral = next((m, mu) for m, mu, _ in below if m.name == "spiral")
    assert abs(spiral[1]) > 1.0        # the airplane's own divergence is not held against the integrator


def test_closed_form_stability_functions_match_the_measured_steps():
    """Each integrator's own R(z) is what one step on the rigid-body test equation does."""
    from flightsim.physics.integrators import INTEGRATORS

    zs = (-0.3 + 0.4j, -1.7 + 0.2j, -2.6, 1.9j, -0.5 - 2.2j)
    carried = [it for it in INTEGRATORS.values() if it.stability is not None]
    assert len(carried) == len(INTEGRATORS)
    for it in carried:
        for z in zs:
            assert stability.measured_amplification(it.name, z) == pytest.approx(complex(it.stability(z)),
                                                                                 abs=1e-12), (it.name, z)


def test_a_failure_reads_its_speed_and_altitude_rounded():
    from flightsim.simulation.flight import FlightState, Simulation, resolve_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft("c172")
    sim = Simulation(aircraft, start=make_start(aircraft, "air"))
    y = sim.vector.copy()
    y[2], y[3] = 1523.456789, 61.2345678
    sim.set_state(FlightState.from_vector(0.0, y))
    with pytest.raises(ValueError, match=r"^cannot trim at 61\.2 ft/s, altitude 1523 ft, climb angle 0°, flaps 0: "):
        sim.trim_now()

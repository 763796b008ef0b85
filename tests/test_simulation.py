"""The airplane's loads and the fixed-timestep flight simulation."""

import math
import re
from pathlib import Path

import numpy as np
import pytest
from numba import typeof

from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation import lab
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import MAX_FRAME, FlightState, Simulation

AIRCRAFT = load_aircraft()


def level_state(speed=150.0, alpha_deg=2.0, omega=(0.0, 0.0, 0.0)):
    """Flying North at ``speed`` ft/s with the nose ``alpha_deg`` above the flight path."""
    y = np.zeros(13)
    y[0:3] = (0.0, 0.0, 2000.0)
    y[3:6] = (speed, 0.0, 0.0)
    y[6:10] = quat.from_aviation_angles(0.0, alpha_deg, 0.0)
    y[10:13] = omega
    return y


def loads(y, **controls):
    params = aero.pack(AIRCRAFT)
    params.controls[:] = Controls(**controls).as_array()
    return np.array(aero.airplane_loads(0.0, y, params))


def body_force(y, **controls):
    """Body-frame aerodynamic + thrust force per unit mass, from the earth-frame acceleration."""
    a = loads(y, **controls)
    return quat.rotate(quat.conj(y[6:10]), a[:3] + [0.0, 0.0, AIRCRAFT.gravity]), a[3:]


def test_load_params_are_one_named_structure_for_airplane_and_free_body():
    params = aero.pack(AIRCRAFT)
    isa = aero.pack(AIRCRAFT, "isa")
    free = aero.free_body(2.5)
    assert all(isinstance(p, aero.LoadParams) for p in (params, isa, free))
    # one compiled specialisation serves all three: same field types, shapes aside
    assert typeof(params) == typeof(isa) == typeof(free)
    assert (params.air_density, params.gravity, params.mass, params.max_thrust) == (
        AIRCRAFT.air_density, AIRCRAFT.gravity, AIRCRAFT.mass, AIRCRAFT.max_thrust)
    assert params.isa is False and isa.isa is True
    assert free.mass == 2.5 and free.gravity == 0.0 and free.max_thrust == 0.0 and free.positions.shape == (0, 3)
    assert params.positions.shape == (len(AIRCRAFT.elements), 3) and params.controls.shape == (len(aero.INPUTS),)
    assert params._replace(mass=2 * params.mass).mass == 2 * params.mass  # a named tuple: grows and changes by name


def test_no_code_reads_load_params_by_position():
    root = Path(__file__).resolve().parents[1]
    by_index = re.compile(r"params\[\s*-?\d|\(\s*[\w.]*params\s*\)\[\s*-?\d")  # an integer subscript of *params
    unpacked = re.compile(r",[^=]*=\s*[\w.]*params\s*$")  # a tuple assignment from it
    hits = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for folder in ("flightsim", "tests", "benchmarks")
        for path in sorted((root / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_index.search(line) or unpacked.search(line)
    ]
    assert hits == []


def test_symmetric_flight_has_no_side_force_roll_or_yaw():
    for controls in ({}, {"elevator": 0.7}, {"flaps": 1.0, "throttle": 1.0}, {"elevator": -1.0}):
        for alpha in (-6.0, 0.0, 3.0, 11.0):
            f, m = body_force(level_state(alpha_deg=alpha), **controls)
            assert abs(f[1]) < 1e-9 and abs(m[0]) < 1e-9 and abs(m[2]) < 1e-9, (controls, alpha, f, m)


def test_control_signs():
    y = level_state()
    f0, m0 = body_force(y)
    _, m = body_force(y, elevator=1.0)
    assert m[1] - m0[1] < 0  # nose up = negative moment about body y (y points left)
    _, m = body_force(y, aileron=1.0)
    assert m[0] - m0[0] > 0  # roll right = right wing down = positive about body x
    _, m = body_force(y, rudder=1.0)
    assert m[2] - m0[2] < 0  # nose right = negative about body z (z up)
    f, _ = body_force(y, flaps=1.0)
    assert f[2] > f0[2]  # flaps down: more lift
    f, _ = body_force(y, throttle=1.0)
    assert f[0] - f0[0] == pytest.approx(AIRCRAFT.max_thrust / AIRCRAFT.mass)


def test_full_deflection_uses_the_book_tables():
    wing = AIRCRAFT.tables["wing"]
    params = aero.pack(AIRCRAFT)
    xs, vals, n = params.table_alpha[0], params.table_values[0], params.table_size[0]
    for a in (-8.0, 0.0, 6.0, 24.0):
        neutral = aero.coefficients(a, 0.0, aero.KIND_LIFTING, xs, vals, n, 0.0, 0.75)
        up = aero.coefficients(a, 1.0, aero.KIND_LIFTING, xs, vals, n, 0.0, 0.75)
        down = aero.coefficients(a, -1.0, aero.KIND_LIFTING, xs, vals, n, 0.0, 0.75)
        half = aero.coefficients(a, 0.5, aero.KIND_LIFTING, xs, vals, n, 0.0, 0.75)
        assert neutral[:2] == pytest.approx((np.interp(a, wing.alpha, wing.cl), np.interp(a, wing.alpha, wing.cd)))
        assert up[:2] == pytest.approx(
            (np.interp(a, wing.alpha, wing.cl_te_up), np.interp(a, wing.alpha, wing.cd_te_up))
        )
        assert down[:2] == pytest.approx(
            (np.interp(a, wing.alpha, wing.cl_te_down), np.interp(a, wing.alpha, wing.cd_te_down))
        )
        assert half[0] == pytest.approx(0.5 * (neutral[0] + up[0]))
    assert aero.coefficients(25.0, 0.0, aero.KIND_LIFTING, xs, vals, n, 0.0, 0.75) == (0.0, 0.75, False)


def test_stall_flag_beyond_the_table():
    sim = Simulation()
    sim.set_state(FlightState.from_vector(0.0, level_state(speed=80.0, alpha_deg=30.0)))
    assert sim.telemetry().stall
    sim.set_state(FlightState.from_vector(0.0, level_state(speed=80.0, alpha_deg=3.0)))
    assert not sim.telemetry().stall


def test_books_glide_nose_drops_and_speed_rises():
    sim = Simulation(integrator="euler", dt=1.0 / 30.0)  # the book's step
    assert sim.telemetry().airspeed == pytest.approx(60.0)
    pitches, speeds = [], []
    for _ in range(20 * 30):
        sim.step()
        t = sim.telemetry()
        pitches.append(t.pitch)
        speeds.append(t.airspeed)
    assert sim.running
    assert min(pitches) < -5.0  # the nose drops
    assert speeds[-1] > 100.0  # speed rises from 60 ft/s
    assert abs(sim.telemetry().roll) < 1e-9 and abs(sim.telemetry().heading) < 1e-9  # and stays symmetric


def manoeuvre(integrator, dt):
    """The lab's scripted 20 s manoeuvre (climb, rolls, rudder, flaps; α inside the tables), flown to the end."""
    state, _ = lab.fly_manoeuvre(integrator, dt)
    assert state.t == pytest.approx(lab.MANOEUVRE_SECONDS)  # no crash or stop on the way
    return state


@pytest.fixture(scope="module")
def reference_flight():
    return manoeuvre("rk4", 1.0 / 1920.0)


@pytest.mark.parametrize("name", list(INTEGRATORS))
def test_every_integrator_flies_the_manoeuvre_close_to_rk4(name, reference_flight):
    got = manoeuvre(name, 1.0 / 480.0)
    turned = math.degrees(quat.angle_between(got.q, reference_flight.q))
    moved = np.linalg.norm(got.position - reference_flight.position)
    limit = (0.5, 5.0) if INTEGRATORS[name].order == 1 else (1e-4, 1e-3)
    assert turned < limit[0] and moved < limit[1], (turned, moved)


def test_euler_error_shrinks_with_dt(reference_flight):
    errs = []
    for dt in (1.0 / 1920.0, 1.0 / 3840.0, 1.0 / 7680.0):  # below ~1/500 s: the asymptotic range
        errs.append(np.linalg.norm(manoeuvre("euler", dt).position - reference_flight.position))
    assert np.allclose(np.log2(np.array(errs[:-1]) / errs[1:]), 1.0, atol=0.15), errs


def test_switching_integrator_mid_flight_is_continuous():
    sim = Simulation(integrator="euler")
    sim.controls.aileron = 0.5
    sim.controls.elevator = 0.3
    for _ in range(300):
        sim.step()
    for name in INTEGRATORS:
        before = sim.vector
        sim.set_integrator(name)
        assert np.array_equal(sim.vector, before)
        sim.step()
        after = sim.vector
        assert np.linalg.norm(after[0:3] - before[0:3]) < 1.05 * np.linalg.norm(before[3:6]) * sim.dt + 1e-6
        assert quat.angle_between(after[6:10], before[6:10]) < 2 * np.linalg.norm(before[10:13]) * sim.dt + 1e-4
        assert np.dot(after[6:10], before[6:10]) > 0


def near_ground(vz, pitch=2.0, roll=0.0, speed=90.0):
    """Flying North with its lowest contact point 0.5 ft above the ground, engine idle."""
    sim = Simulation()
    sim.controls.throttle = 0.0
    q = quat.from_aviation_angles(roll, pitch, 0.0)
    lowest = min(float(quat.rotate(q, c.position)[2]) for c in AIRCRAFT.gear)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, 0.5 - lowest]), np.array([speed, 0.0, vz]), q, np.zeros(3)))
    assert not sim.on_ground
    return sim


def allowed_depth():
    """How far below the ground each contact point may be: a wheel its leg travel, a hard point not at all."""
    return np.array([c.max_compression if c.is_wheel else 0.0 for c in AIRCRAFT.gear])


def test_gentle_touchdown_rolls_to_rest_without_sinking():
    sim = near_ground(vz=-3.0)
    deepest = -np.inf
    for _ in range(120 * 120):
        if not sim.step():
            break
        deepest = max(deepest, float(np.max(sim.gear_compressions() - allowed_depth())))
    assert sim.running, sim.status
    assert sim.on_ground
    assert deepest <= 0.0  # never through the ground: no leg past its travel, no hard point touching
    assert sim.telemetry().airspeed < 1.0  # rolled to rest
    assert abs(sim.telemetry().roll) < 1e-6


@pytest.mark.parametrize("kwargs, word", [({"vz": -30.0}, "touched down with sink rate"),
                                          ({"vz": -2.0, "roll": 45.0}, "wing tip hit the ground"),
                                          ({"vz": -2.0, "pitch": -20.0}, "nose")])
def test_hard_touchdown_is_a_crash(kwargs, word):
    sim = near_ground(**kwargs)
    for _ in range(200):
        if not sim.step():
            break
    assert not sim.running and "crashed" in sim.status and word in sim.status
    assert np.all(sim.gear_compressions() <= allowed_depth() + 1e-9)  # stopped where it hit, not below
    assert sim.advance(0.1) == 0  # a stopped flight does not move


def test_non_finite_state_stops_with_message_and_keeps_last_finite_state():
    sim = Simulation()
    start = sim.state
    sim.set_state(FlightState(start.t, start.position, start.velocity, start.q, np.full(3, 1e300)))
    assert not sim.step()
    assert "non-finite" in sim.status
    assert np.all(np.isfinite(sim.vector))
    pos, q = sim.render_pose()
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(q))


def test_accumulator_clamp_pause_time_scale_and_interpolation():
    sim = Simulation(dt=0.01)
    assert sim.advance(0.105) == 10 and sim.alpha == pytest.approx(0.5)
    pos, q = sim.render_pose()
    prev, cur = sim.previous, sim.state
    assert np.allclose(pos, 0.5 * (prev.position + cur.position))
    assert quat.angle_between(q, quat.nlerp(prev.q, cur.q, 0.5)) < 1e-12
    sim = Simulation(dt=0.01)
    assert sim.advance(10.0) == int(round(MAX_FRAME / 0.01))  # a long frame is clamped
    sim.paused = True
    assert sim.advance(0.1) == 0
    sim.paused = False
    sim.time_scale = 2.0
    assert sim.advance(0.1) == 20
    sim.reset()
    assert sim.t == 0.0 and np.allclose(sim.state.position, AIRCRAFT.initial_position)


def test_book_initial_state():
    s = Simulation().state
    assert np.allclose(s.position, [-5000.0, 0.0, 2000.0]) and np.allclose(s.velocity, [60.0, 0.0, 0.0])
    assert np.allclose(s.q, [1.0, 0, 0, 0]) and np.allclose(s.omega, 0.0)
    assert Simulation().telemetry().thrust == pytest.approx(500.0, rel=1e-6)


def test_standard_atmosphere_thins_with_altitude():
    assert aero.isa_density(0.0023769, 0.0) == pytest.approx(0.0023769)
    assert aero.isa_density(0.0023769, 10000.0) == pytest.approx(0.0017556, rel=1e-3)  # ISA table value
    low = Simulation(atmosphere="isa")
    high = Simulation(atmosphere="isa")
    book = Simulation()                                  # the constant sea-level density
    start = low.state
    fast = np.array([150.0, 0.0, 0.0])
    for sim, z in ((low, start.position[2]), (high, 20000.0), (book, start.position[2])):
        sim.set_state(FlightState(start.t, np.r_[start.position[:2], z], fast, start.q, start.omega))

    def aerodynamic_force(sim):
        """Lift and drag per unit mass (earth = body frame here): the loads less gravity and thrust."""
        a = sim.loads()
        thrust = sim.telemetry().thrust
        return a[:3] + [0.0, 0.0, AIRCRAFT.gravity] - [thrust / AIRCRAFT.mass, 0.0, 0.0], a[3:]

    (f_low, m_low), (f_high, m_high), (f_book, _) = (aerodynamic_force(s) for s in (low, high, book))
    rho = {z: aero.isa_density(AIRCRAFT.air_density, z) for z in (2000.0, 20000.0)}
    assert rho[20000.0] < rho[2000.0] < AIRCRAFT.air_density
    # Same speed and attitude: the aerodynamic force scales with the density, thrust does not.
    assert f_high == pytest.approx(rho[20000.0] / rho[2000.0] * f_low, rel=1e-12, abs=1e-12)
    assert f_book == pytest.approx(AIRCRAFT.air_density / rho[2000.0] * f_low, rel=1e-12, abs=1e-12)
    assert np.linalg.norm(f_high) < 0.6 * np.linalg.norm(f_low)
    assert abs(m_high[1]) < abs(m_low[1])


@pytest.mark.parametrize(
    "kwargs, message, flag",
    [({"integrator": "rk5"}, "integrator: unknown name 'rk5'; valid: euler, exact, ", "--integrator"),
     ({"dt": 0.0}, "dt: must be finite and > 0, got 0.0", "--dt"),
     ({"dt": float("nan")}, "dt: must be finite and > 0, got nan", "--dt"),
     ({"dt": "fast"}, "dt: must be a number, got 'fast'", "--dt"),
     ({"atmosphere": "mars"}, "atmosphere: must be 'constant' or 'isa', got 'mars'", "--atmosphere")],
)
def test_bad_arguments_are_value_errors_naming_the_argument(kwargs, message, flag):
    """The simulation knows its arguments, not the command line's flags: the commands name those."""
    from flightsim.commands.options import option_error

    with pytest.raises(ValueError) as err:
        Simulation(**kwargs)
    assert type(err.value) is ValueError and str(err.value).startswith(message)
    error = option_error(err.value)
    assert isinstance(error, InputError)
    assert str(error) == f"{flag}: {str(err.value).partition(': ')[2]}"


def test_a_diverging_flight_is_summarised_without_numpy_warnings(capsys):
    """Huge last states (a diverging flight) stop with the status line, and no warning text reaches the user."""
    import warnings

    from flightsim.commands import simulate

    sim = Simulation(integrator="rk4")
    s = sim.state
    sim.set_state(FlightState(s.t, s.position, np.array([1e200, -1e200, 1e200]), s.q, np.full(3, 1e150)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = simulate.fly(sim, 10)
        simulate._summary(sim, table, 0.1, None)
    assert not sim.running and "non-finite" in sim.status
    out = capsys.readouterr()
    assert out.err == "" and "status          stopped at t = 0.000 s: the state became non-finite" in out.out


def test_physics_never_imports_a_drawing_library():
    import subprocess
    import sys

    code = (
        "import sys, flightsim.simulation, flightsim.rigidbody, flightsim.simulation.lab, "
        "flightsim.simulation.replay, flightsim.simulation.ghost, flightsim.commands.simulate\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pyglet', 'OpenGL', 'imgui_bundle', 'pyrr')]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_recorder_writes_exactly_the_controls_flown(tmp_path):
    from flightsim.app.recorder import Recorder
    from flightsim.simulation import trace

    sim = Simulation(start=None)
    rec = Recorder(tmp_path)
    rec.start(sim)
    c = sim.controls
    c.throttle, c.elevator, c.elevator_trim, c.rudder, c.parking_brake = 1.7, 0.9, 0.5, -0.25, 0.3
    for _ in range(3):
        sim.step()
    flown = sim.flown_controls
    # the loads flew: throttle clipped, trim added then clipped, parking brake under ½ released
    assert flown.tolist() == [1.0, 1.0, 0.0, -0.25, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    # the loads read that row: the same loads as a Simulation whose controls are already the flown ones
    twin = Simulation(start=None)
    twin.controls = Controls.from_array(flown)
    twin.set_state(sim.state)
    np.testing.assert_array_equal(twin.loads(), sim.loads())
    path = rec.stop()
    rows = trace.read_csv(path)
    last = [rows[-1, trace.COLUMNS.index(name)] for name in ("throttle", "elevator", "rudder", "parking_brake")]
    assert last == [1.0, 1.0, -0.25, 0.0]


def test_a_nan_control_is_refused_before_the_step_and_the_flight_is_unchanged():
    sim = Simulation()
    sim.step()
    y, t = sim.vector, sim.t
    sim.controls.aileron = math.nan
    with pytest.raises(ValueError, match=r"controls\[2\] \(aileron\): nan is not a finite number"):
        sim.step()
    np.testing.assert_array_equal(sim.vector, y)
    assert sim.t == t and sim.running
    sim.controls.aileron = 0.0
    assert sim.step()


def test_the_telemetry_says_when_midpoints_iteration_did_not_converge():
    from flightsim.simulation.flight import FlightState, resolve_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft("c172")
    flags = []
    for dt, speed, rate in ((1.0 / 120.0, 180.0, 0.0), (1.0, 600.0, 5.0)):
        sim = Simulation(aircraft, integrator="midpoint", dt=dt, start=make_start(aircraft, "air"))
        y = sim.vector.copy()
        y[3], y[10:13] = speed, (rate, -rate, 0.5 * rate)
        sim.set_state(FlightState.from_vector(0.0, y))
        sim.step()
        flags.append(sim.telemetry().unconverged)
        sim.set_integrator("rk4")                     # only the implicit step says so
        sim.step()
        assert not sim.telemetry().unconverged
    assert flags == [False, True]     # 1 s at 600 ft/s: the fixed point on the loads diverges, the last iterate taken


@pytest.mark.parametrize("name", ["bourg", "c172"])
def test_packed_normals_are_the_compiled_loads_normals_to_the_bit(name):
    """``aero.pack`` runs ``element_normal``'s source as Python (packing compiles nothing); a fixed element's
    normal must still be the very bits the compiled loads compute for a moving one at the same incidence."""
    params = aero.pack(load_aircraft(name))
    e = params.elements
    compiled = np.array([aero.element_normal(e[k, aero.E_INCIDENCE] + 0.0, e[k, aero.E_DIHEDRAL])
                         for k in range(e.shape[0])])
    assert np.array_equal(compiled, params.normals)

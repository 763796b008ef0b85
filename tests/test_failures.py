"""Failures (issue 41, part 1): each one's physics in a real flight of the 172R, the schedule's triggers, the trace's
``failures`` and ``ias_indicated`` columns, and a bad failures file refused in one line."""

import math
import subprocess
import sys

import numpy as np
import pytest

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics.jsbsim.fuel import FUEL_FREEZE
from flightsim.simulation import trace
from flightsim.simulation.failures import KINDS, Failure, bits_of, engine_switches, read_failures
from flightsim.simulation.flight import Simulation, resolve_aircraft
from flightsim.simulation.gauges import Gauges, calibrated_airspeed, impact_pressure, pressure_altitude, static_pressure
from flightsim.simulation.starts import make_start

DT = 1.0 / 60.0
KT = 1.6878099


@pytest.fixture(scope="module")
def c172():
    return resolve_aircraft("c172")


def cruise(aircraft, failures=(), start="air"):
    return Simulation(aircraft, "rk4", DT, start=make_start(aircraft, start), failures=failures)


def fly(sim, seconds, each=None):
    for _ in range(int(round(seconds / DT))):
        if each is not None:
            each(sim)
        sim.step()
    return sim


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "flightsim", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_the_instruments_physics_agrees_with_the_standard_atmosphere():
    # the altimeter's inverse law, and the airspeed indicator's calibration: at sea level CAS is the true airspeed
    for h in (0.0, 5000.0, 20000.0, 45000.0):
        assert pressure_altitude(static_pressure(h)) == pytest.approx(h, abs=1e-6)
    rho0 = 0.0023768924
    for v in (50.0, 200.0, 600.0, 1000.0):
        qc = impact_pressure(0.5 * rho0 * v * v, static_pressure(0.0))
        assert calibrated_airspeed(qc) == pytest.approx(v, rel=1e-4)
    # through Mach 1 the pitot's pressure is continuous (isentropic below, Rayleigh's normal shock above), and an
    # orbit or a meteor's speed reads finite
    p0 = static_pressure(0.0)
    assert impact_pressure(0.7 * p0 * (1.0 - 1e-9), p0) == pytest.approx(impact_pressure(0.7 * p0 * (1.0 + 1e-9), p0))
    assert math.isfinite(calibrated_airspeed(impact_pressure(0.5 * rho0 * 25000.0 ** 2, static_pressure(1e6))))


def test_a_healthy_airspeed_indicator_reads_the_calibrated_airspeed(c172):
    sim = fly(cruise(c172), 1.0)
    tm = sim.telemetry()
    # at 1,500 ft and 104 kt the calibrated airspeed is the equivalent airspeed to 0.05 %
    assert sim.gauges.indicated_airspeed == pytest.approx(tm.indicated_airspeed / KT, rel=5e-4)
    assert sim.failures.bits == 0


def test_a_blocked_pitot_reads_higher_on_a_climb_at_constant_true_airspeed():
    f = type("F", (), {"active": {"pitot": Failure("pitot")}, "since": lambda self, k: 0.0})()
    gauges = Gauges(f)
    rho = 0.0023768924
    f.active = {}
    gauges.update(0.0, 1000.0, 180.0, rho)
    healthy = gauges.indicated_airspeed
    f.active = {"pitot": Failure("pitot")}
    readings = []
    for k in range(1, 60):                                   # a climb of 1,000 ft a minute at 180 ft/s true
        h = 1000.0 + 1000.0 * k / 60.0
        gauges.update(float(k), h, 180.0, rho)
        readings.append(gauges.indicated_airspeed)
    assert np.all(np.diff(readings) > 0) and readings[-1] > healthy + 3.0


def test_blocked_pitot_and_static_in_a_climbing_flight(c172, tmp_path):
    spec = tmp_path / "pitot.toml"
    spec.write_text('[[failure]]\nkind = "pitot"\nat_s = 2\n')
    schedule = tmp_path / "climb.csv"
    schedule.write_text("t,throttle,elevator\n3,1,0.15\n")
    out = tmp_path / "t.csv"
    done = run("simulate", "--aircraft", "c172", "--start", "air", "--integrator", "rk4", "--duration", "12",
               "--controls", str(schedule), "--failures", str(spec), "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = trace.read_csv(out)
    t, bits = rows[:, 0], rows[:, trace.FAILURES_AT]
    ias, tas = rows[:, trace.COLUMNS.index("ias_indicated")], rows[:, trace.COLUMNS.index("airspeed")]
    assert set(bits[t < 2.0]) == {0.0} and set(bits[t > 2.01]) == {float(bits_of(["pitot"]))}
    late = t > 11.0
    # the airplane climbs and slows; the blocked pitot's airspeed rises with the height
    assert rows[late, 3].min() > rows[0, 3] + 100.0 and tas[late].max() < tas[0] - 10.0
    assert ias[late].min() > ias[0] + 10.0
    # a blocked static port: the altimeter and the vertical speed freeze, the airspeed reads low in the climb
    sim = cruise(c172, (Failure("static", at_s=2.0),))
    fly(sim, 3.0)
    held = sim.gauges.readings(0.0, 0.0, 0.0).altitude_ft
    sim.controls.throttle, sim.controls.elevator = 1.0, 0.15
    fly(sim, 9.0)
    shown = sim.gauges.readings(0.0, 0.0, 0.0)
    assert shown.altitude_ft == held and shown.vertical_speed_fpm == 0.0
    assert sim.vector[2] > held + 100.0
    assert sim.gauges.indicated_airspeed < sim.telemetry().indicated_airspeed / KT - 2.0


def test_a_jammed_aileron_holds_its_angle_against_the_stick(c172):
    def stick(sim):
        if sim.t >= 1.0:
            sim.controls.aileron = 1.0

    free = fly(cruise(c172), 2.0, stick)
    jammed = fly(cruise(c172, (Failure("jam_aileron", at_s=0.5),)), 2.0, stick)
    assert free.telemetry().roll > 30.0
    assert abs(jammed.telemetry().roll) < 2.0 and abs(jammed.flown_controls[2]) < 1e-12
    assert jammed.controls.aileron == 1.0


def test_a_failed_engine_windmills_and_the_runaway_trim_runs_to_its_stop(c172):
    sim = cruise(c172, (Failure("engine", at_s=1.0), Failure("trim_runaway", at_s=1.0)))
    fly(sim, 1.0)
    running_rpm = sim.rpm
    fly(sim, 2.0)
    # the thrust is the stopped engine's propeller's at this airspeed and air: the windmilling value
    y, tm = sim.vector, sim.telemetry()
    vbx = float(quat.rotate(quat.conj(y[6:10]), y[3:6] - sim.wind[:3])[0])
    packed = aero.pack(c172, sim.atmosphere)
    windmill, spin = aero.propeller(sim.flown_controls[0], False, vbx, sim.air_density, packed.engine,
                                    packed.prop_table)
    assert tm.thrust == pytest.approx(windmill, rel=1e-12) and tm.rpm == pytest.approx(spin, rel=1e-12)
    # windmilling: the propeller still turns, slower than running, and drags (thrust < 0)
    assert 0.0 < sim.rpm < 0.8 * running_rpm and sim.telemetry().thrust < 0.0
    assert sim.flown_controls[7] == 0.0 and sim.controls.engine == 1.0
    # the trim ran at 0.2 a second, nose down, for 2 s from its setting
    trim = sim.controls.elevator_trim
    assert sim.flown_controls[1] == pytest.approx(max(trim - 0.4, -1.0), abs=0.02)
    fly(sim, 10.0)
    assert sim.flown_controls[1] == -1.0


def test_partial_power_and_a_rough_engine(c172):
    full = fly(cruise(c172), 2.0)
    half = fly(cruise(c172, (Failure("engine_partial", at_s=0.0, fraction=0.5),)), 2.0)
    rough = cruise(c172, (Failure("engine_rough", at_s=0.0, seed=3),))
    thrusts = []
    fly(rough, 2.0, lambda s: thrusts.append(s.telemetry().thrust))
    assert half.rpm < full.rpm - 200.0 and half.telemetry().thrust < 0.6 * full.telemetry().thrust
    assert np.ptp(thrusts[30:]) > 50.0          # it surges and drops
    again = cruise(c172, (Failure("engine_rough", at_s=0.0, seed=3),))
    same = []
    fly(again, 2.0, lambda s: same.append(s.telemetry().thrust))
    assert same == thrusts


def test_the_vacuum_gyros_depart_by_more_than_10_degrees_within_5_minutes(c172):
    sim = cruise(c172, (Failure("vacuum", at_s=1.0),))
    fly(sim, 300.0)
    tm = sim.telemetry()
    roll, pitch, heading = tm.roll, tm.pitch, tm.heading
    shown = sim.gauges.readings(roll, pitch, heading)
    error = math.hypot(shown.roll - roll, shown.pitch - pitch)
    assert error > 10.0 and "VAC" in shown.flags
    healthy = fly(cruise(c172), 5.0)
    tm = healthy.telemetry()
    ok = healthy.gauges.readings(tm.roll, tm.pitch, tm.heading)
    assert (ok.roll, ok.pitch, ok.heading) == (tm.roll, tm.pitch, tm.heading) and ok.flags == ()


def test_an_electrical_failure_silences_the_radio_and_drops_the_autopilot(c172, tmp_path):
    spec = tmp_path / "elec.toml"
    spec.write_text('[[failure]]\nkind = "electrical"\nat_s = 5\n')
    out = tmp_path / "t.csv"
    done = run("simulate", "--aircraft", "c172", "--start", "approach", "--duration", "8", "--autopilot", "app=36",
               "--failures", str(spec), "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = trace.read_csv(out)
    t, nav = rows[:, 0], rows[:, trace.NAV_AT]
    ap = rows[:, trace.COLUMNS.index("ap_mode")]
    assert np.isfinite(nav[t < 4.9]).all() and np.isnan(nav[t > 5.05]).all()
    assert (ap[t < 4.9] > 0).all() and (ap[t > 5.1] == 0).all()


def test_a_failed_brake_and_a_flat_tyre_pull_to_their_side(c172):
    def roll_out(failures, brake):
        sim = cruise(c172, failures, start="runway")

        def pilot(s):
            s.controls.parking_brake = 0.0
            s.controls.throttle = 1.0 if s.t < 8.0 else 0.0
            s.controls.brake = brake if s.t >= 8.0 else 0.0
        fly(sim, 12.0, pilot)
        return sim

    straight = roll_out((), 1.0)
    left_failed = roll_out((Failure("brake_left", at_s=0.0),), 1.0)
    flat_left = roll_out((Failure("tyre_left", at_s=0.0),), 0.0)
    rolling = roll_out((), 0.0)

    def turn(sim):
        return (sim.telemetry().heading - straight.telemetry().heading + 180.0) % 360.0 - 180.0

    # only the right brake holds: the nose swings right; the flat left tyre drags: the nose swings left, and it
    # rolls less far than on good tyres
    assert turn(left_failed) > 2.0 and turn(flat_left) < -1.0
    assert flat_left.vector[0] < rolling.vector[0] - 20.0


def test_triggers_fire_once_at_their_time_or_height(tmp_path):
    spec = tmp_path / "f.toml"
    spec.write_text('[[failure]]\nkind = "engine"\nwindow_s = [20, 40]\nseed = 7\n'
                    '[[failure]]\nkind = "pitot"\nabove_ft = 300\n'
                    '[[failure]]\nkind = "static"\nbelow_ft = 200\nprobability = 0\n')
    a, b = read_failures(spec), read_failures(spec)
    assert a == b and 20.0 <= a[0].at_s <= 40.0 and a[2].happens is False
    assert a[1].above_ft == 300.0 and a[1].at_s is None


@pytest.mark.parametrize("body, where, says", [
    ('kind = "wing"\nat_s = 1', "failure[0].kind", "unknown failure 'wing'"),
    ('kind = "engine"\nat_s = -1', "failure[0].at_s", ">= 0"),
    ('kind = "engine"\nat_s = 1\nengine = 2', "failure[0].engine", "<= 1"),
    ('kind = "pitot"\nat_s = 1\nprobability = 1.5', "failure[0].probability", "<= 1"),
    ('kind = "pitot"', "failure[0]", "needs a trigger"),
    ('kind = "pitot"\nat_s = 1\nabove_ft = 3', "failure[0]", "more than one trigger"),
])
def test_a_bad_failures_file_is_one_line(tmp_path, body, where, says):
    spec = tmp_path / "bad.toml"
    spec.write_text("[[failure]]\n" + body + "\n")
    out = tmp_path / "t.csv"
    done = run("simulate", "--aircraft", "c172", "--duration", "1", "--failures", str(spec), "--out", str(out))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.toml" in lines[0] and where in lines[0] and says in lines[0], lines
    assert not out.exists()


def test_the_kinds_are_the_issues_and_their_bits_the_trace_column():
    assert KINDS == ("engine", "engine_partial", "engine_rough", "jam_aileron", "jam_elevator", "jam_rudder",
                     "trim_runaway", "pitot", "static", "vacuum", "electrical", "brake_left", "brake_right",
                     "tyre_left", "tyre_right")
    assert trace.COLUMNS[-2:] == ("failures", "ias_indicated")
    assert bits_of(["engine", "pitot"]) == 1 + 128


def test_the_batch_flies_its_failures_as_single_flights_do(c172, tmp_path):
    from flightsim.simulation.batch import BatchSimulation

    schedule = (Failure("engine", at_s=1.0), Failure("jam_aileron", at_s=0.5), Failure("electrical", at_s=1.5))
    start = make_start(c172, "air")
    batch = BatchSimulation(3, c172, "rk4", DT, start=start, failures=schedule)
    single = Simulation(c172, "rk4", DT, start=start, failures=schedule)
    for k in range(int(3.0 / DT)):
        if k == int(1.0 / DT):                       # the stick full right: the jammed aileron does not follow
            single.controls.aileron = 1.0
            rows = batch.controls.copy()
            rows[:, 2] = 1.0
            batch.set_controls(rows)
        batch.step()
        single.step()
    np.testing.assert_allclose(batch.states, np.repeat(single.vector[None], 3, axis=0), rtol=0, atol=1e-9)
    assert (batch.failures.bits == single.failures.bits).all()
    assert batch.controls[0, 2] == 1.0 and abs(batch.flown_controls[0, 2]) < 1e-12      # the pilot's, and what flies


def _frozen(sim):
    """The batch keeps a JSBSim aircraft's mass as loaded (its fuel does not burn): so does a single flight compared
    with it."""
    if sim.aircraft.jsbsim is not None:
        sim.set_jsbsim_property(FUEL_FREEZE, 1.0)
    return sim


@pytest.mark.parametrize("name, start_kind, schedule", [
    ("c172", "air", (Failure("engine_partial", at_s=0.5, fraction=0.4), Failure("engine_rough", at_s=1.0, seed=2))),
    ("c172", "runway", (Failure("tyre_left", at_s=0.5),)),
    ("jsbsim:c172p", "runway", (Failure("tyre_right", at_s=0.5), Failure("engine_partial", at_s=1.0, fraction=0.3),
                                Failure("engine_rough", at_s=2.0, seed=5))),
])
def test_the_batch_flies_engine_and_tyre_failures_as_single_flights_do(name, start_kind, schedule):
    """Partial power, rough running and a flat tyre change each airplane's own engine, gear or contact rows: one
    airplane of three failing flies as the single flight with those failures, the others as healthy ones."""
    from flightsim.simulation.batch import BatchSimulation

    aircraft = resolve_aircraft(name)
    flat = {"planet": "flat"} if name.startswith("jsbsim:") else {}
    dt = 1.0 / 120.0 if flat else DT
    start = make_start(aircraft, start_kind, **flat)
    batch = BatchSimulation(3, aircraft, "rk4", dt, start=start, failures=schedule, **flat)
    single = _frozen(Simulation(aircraft, "rk4", dt, start=start, failures=schedule, **flat))
    healthy = _frozen(Simulation(aircraft, "rk4", dt, start=start, **flat))
    rows = batch.controls.copy()
    rows[:, 0] = 1.0                                    # full throttle (on the runway: a take-off roll)
    rows[:, 6] = 0.0                                    # (the parking brake off)
    batch.set_controls(rows)
    for sim in (single, healthy):
        sim.controls.throttle, sim.controls.parking_brake = 1.0, 0.0
    for _ in range(int(3.0 / dt)):
        batch.step()
        single.step()
        healthy.step()
    np.testing.assert_allclose(batch.states, np.repeat(single.vector[None], 3, axis=0), rtol=0, atol=1e-7)
    assert np.abs(single.vector - healthy.vector).max() > 0.05       # (the failures changed the flight)
    assert (batch.failures.bits == single.failures.bits).all()


def test_the_batchs_instruments_read_as_a_single_flights_do(c172):
    """A blocked pitot in a full-power climb, a blocked static port, a dead vacuum pump: every airplane's airspeed
    indicator, altimeter, VSI and gyros (BatchGauges) read what the single flight's Gauges read."""
    from flightsim.simulation.batch import BatchSimulation

    start = make_start(c172, "air")
    for schedule in ((Failure("pitot", at_s=1.0),), (Failure("static", at_s=1.0),),
                     (Failure("vacuum", at_s=0.0, seed=4),)):
        batch = BatchSimulation(2, c172, "rk4", DT, start=start, failures=schedule)
        single = Simulation(c172, "rk4", DT, start=start, failures=schedule)
        rows = batch.controls.copy()
        rows[:, 0], rows[:, 2] = 1.0, 0.3               # full throttle, a roll to the right
        batch.set_controls(rows)
        single.controls.throttle, single.controls.aileron = 1.0, 0.3
        for _ in range(int(6.0 / DT)):
            batch.step()
            single.step()
        t = single.telemetry()
        shown = single.gauges.readings(t.roll, t.pitch, t.heading)
        roll, pitch, heading = batch.gauges.attitude(*quat.aviation_angles(batch.states[:, 6:10]).T)
        for got, want in ((batch.gauges.indicated_airspeed, shown.airspeed_kt), (batch.gauges.altitude,
                          shown.altitude_ft), (batch.gauges.vertical_speed, shown.vertical_speed_fpm),
                          (roll, shown.roll), (pitch, shown.pitch), (heading, shown.heading)):
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-7)
    assert abs(shown.roll - t.roll) > 0.01                       # (the gyros have drifted: a real comparison)


def test_an_agent_sees_the_failed_instruments_and_is_scored_on_the_truth(tmp_path):
    """HeadingHold with the pitot blocked at once and full power: the observed airspeed error climbs away from the
    true one (the indicator reads like an altimeter); without failures the observation is the true flight's."""
    from flightsim.gym.envs import HeadingHoldEnv

    spec = tmp_path / "f.toml"
    spec.write_text('[[failure]]\nkind = "pitot"\nat_s = 0.0\n')
    blocked, healthy = HeadingHoldEnv(aircraft="c172", failures=spec), HeadingHoldEnv(aircraft="c172")
    seen = []
    for env in (blocked, healthy):
        env.reset(seed=3)
        for _ in range(40):
            obs, *_ = env.step(np.array([0.1, 0.0, 0.0, 1.0]))
        task = env.unwrapped.task
        i = [name for name, _, _ in task.OBSERVATION].index("airspeed_error")
        truth = task.quantity("airspeed_error", task.flight()) / task.scale[i]
        seen.append((obs[i], float(truth[0])))
        env.close()
    (b_obs, b_true), (h_obs, h_true) = seen
    assert h_obs == pytest.approx(h_true, abs=1e-6)
    assert b_obs > b_true + 0.02, seen


def test_an_environment_takes_a_failures_file(tmp_path):
    from flightsim.gym.envs import HeadingHoldEnv

    spec = tmp_path / "f.toml"
    spec.write_text('[[failure]]\nkind = "engine"\nat_s = 0.5\n')
    env = HeadingHoldEnv(aircraft="c172", failures=spec)
    env.reset(seed=1)
    for _ in range(10):
        env.step(env.action_space.sample() * 0.0)
    assert env.task.batch.failures.bits[0] == 1 and env.task.batch.flown_controls[0, 7] == 0.0
    env.close()


@pytest.mark.parametrize("name, kind", [("jsbsim:c310", "piston"), ("jsbsim:T37", "turbine")])
def test_a_jsbsim_engine_quits_as_its_own_switch_quits_it(name, kind):
    """A piston's magnetos go off, a turbine's fuel is cut off: the failed engine (engine 1 of two) winds down while
    the other runs on; repaired, its switch is back (magnetos both, fuel on: a stopped engine then needs a start)."""
    aircraft = resolve_aircraft(name)
    sim = Simulation(aircraft, "rk4", 1.0 / 120.0, start=make_start(aircraft, "air", planet="flat"), planet="flat",
                     failures=(Failure("engine", at_s=1.0, engine=1),))
    for _ in range(int(11.0 * 120)):
        sim.step()
    gauges = sim.telemetry().engines
    assert [g[0] for g in gauges] == [kind, kind] and sim.failures.bits == 1
    failed, running = gauges[0][1], gauges[1][1]
    assert failed < 0.8 * running, gauges
    slot, cut, working = engine_switches(aircraft.jsbsim)[0]
    assert sim.jsbsim_properties[slot] == cut
    sim.failures.repair("engine")
    assert sim.jsbsim_properties[slot] == working and sim.failures.bits == 0


@pytest.mark.parametrize("name", ["jsbsim:c310", "jsbsim:T37"])
def test_a_jsbsim_engine_gives_part_of_its_power_and_runs_rough(name):
    """Engine 1 of two at half power: a piston's indicated power halved (its rpm and thrust down), a turbine's
    core no higher than leaves half its military thrust (N2 and thrust down); the other engine as before.  Rough:
    the failed engine's thrust surges and drops, the same for the same seed."""
    aircraft = resolve_aircraft(name)
    start = make_start(aircraft, "air", planet="flat")

    def thrusts(failures, seconds=6.0):
        sim = Simulation(aircraft, "rk4", 1.0 / 120.0, start=start, planet="flat", failures=failures)
        sim.controls.throttle = 1.0
        out = []
        for _ in range(int(seconds * 120)):
            sim.step()
            out.append([sim.jsbsim_property(f"propulsion/engine[{k}]/thrust-lbs") for k in (0, 1)])
        return sim, np.array(out)

    healthy, full = thrusts(())
    half, part = thrusts((Failure("engine_partial", at_s=0.0, engine=1, fraction=0.5),))
    assert part[-1, 0] < 0.75 * full[-1, 0] and part[-1, 1] == pytest.approx(full[-1, 1], rel=0.05), part[-1]
    if half.telemetry().engines[0][0] == "piston":    # (the c310's governed propellers hold their rpm)
        assert half.jsbsim_property("propulsion/engine[0]/power-hp") < \
            0.6 * healthy.jsbsim_property("propulsion/engine[0]/power-hp")
    else:
        assert half.telemetry().engines[0][1] < healthy.telemetry().engines[0][1] - 5.0    # N1, %
    assert half.failures.bits == 2
    _, rough = thrusts((Failure("engine_rough", at_s=0.0, engine=1, seed=3),), 3.0)
    _, again = thrusts((Failure("engine_rough", at_s=0.0, engine=1, seed=3),), 3.0)
    assert np.ptp(rough[120:, 0]) > 10.0 * max(np.ptp(full[240:600, 0]), 1.0) and np.array_equal(rough, again)


def test_a_jsbsim_aircrafts_flat_tyre_drags_and_pulls_to_its_side():
    """The c172p's left main tyre flat (its LEFT brake group's wheel): on a take-off roll it turns the nose left and
    the airplane rolls less far than on good tyres; a failures file may name it (kinds_for)."""
    from flightsim.simulation.failures import kinds_for

    aircraft = resolve_aircraft("jsbsim:c172p")
    assert {"engine_partial", "engine_rough", "tyre_left", "tyre_right"} <= set(kinds_for(aircraft))
    start = make_start(aircraft, "runway", planet="flat")

    def roll(failures):
        sim = Simulation(aircraft, "rk4", 1.0 / 120.0, start=start, planet="flat", failures=failures)
        sim.controls.parking_brake = 0.0
        sim.controls.throttle = 1.0
        for _ in range(8 * 120):
            sim.step()
        return sim

    good, flat = roll(()), roll((Failure("tyre_left", at_s=0.0),))
    turn = (flat.telemetry().heading - good.telemetry().heading + 180.0) % 360.0 - 180.0
    assert turn < -0.5 and flat.vector[0] < good.vector[0] - 10.0, (turn, flat.vector[0], good.vector[0])


def test_the_batch_quits_a_jsbsim_engine_as_a_single_flight_does():
    from flightsim.simulation.batch import BatchSimulation

    aircraft = resolve_aircraft("jsbsim:T37")
    start = make_start(aircraft, "air", planet="flat")
    schedule = (Failure("engine", at_s=0.5, engine=2),)
    batch = BatchSimulation(2, aircraft, "rk4", 1.0 / 120.0, start=start, planet="flat", failures=schedule)
    single = _frozen(Simulation(aircraft, "rk4", 1.0 / 120.0, start=start, planet="flat", failures=schedule))
    for _ in range(240):
        batch.step()
        single.step()
    np.testing.assert_allclose(batch.states, np.repeat(single.vector[None], 2, axis=0), rtol=0, atol=1e-7)
    slot = engine_switches(aircraft.jsbsim)[1][0]
    assert single.jsbsim_properties[slot] == 1.0

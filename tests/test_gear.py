"""The landing gear: ground forces in the loads, the runway and approach starts, take-off, landing, crashes."""

import math
import re

import numpy as np
import pytest

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.integrators import INTEGRATORS
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import FlightState, Simulation
from flightsim.simulation.starts import AIM_DISTANCE, APPROACH_SECONDS, RUNWAY_START_DISTANCE, make_start, settle

AIRCRAFT = load_aircraft()
RUNWAY_START = make_start(AIRCRAFT, "runway")
APPROACH_START = make_start(AIRCRAFT, "approach")
WHEELS = [k for k, c in enumerate(AIRCRAFT.gear) if c.is_wheel]
WEIGHT = AIRCRAFT.mass * AIRCRAFT.gravity


def allowed_depth():
    """How far below the ground each contact point may be: a wheel its leg travel, a hard point not at all."""
    return np.array([c.max_compression if c.is_wheel else 0.0 for c in AIRCRAFT.gear])


def heading_change(before, after):
    """Signed change of heading, deg (clockwise +), across North."""
    return (after - before + 180.0) % 360.0 - 180.0


def statics(sim):
    """The wheel loads that balance the weight at the airplane's attitude: force and moments about the CG."""
    y = sim.vector
    arms = quat.rotate(y[6:10], np.array([AIRCRAFT.gear[k].position for k in WHEELS]))   # earth, from the CG
    a = np.vstack([np.ones(len(WHEELS)), arms[:, 0], arms[:, 1]])
    return np.linalg.solve(a, [WEIGHT, 0.0, 0.0])


# --------------------------------------------------------------------------- at rest


def test_dropped_onto_the_runway_it_settles_level_and_stays_put_for_a_minute():
    """Released with the wheels just touching, engine idle, parking brake set: it settles on its legs."""
    north, west = RUNWAY.point(RUNWAY_START_DISTANCE)
    y = np.zeros(13)
    y[0:3] = (north, west, AIRCRAFT.contact_height)
    y[6:10] = quat.from_aviation_angles(0.0, 0.0, RUNWAY.heading_deg)
    sim = Simulation(start=RUNWAY_START)
    sim.set_state(FlightState(0.0, y[0:3], y[3:6], y[6:10], y[10:13]))
    assert sim.controls.throttle == 0.0 and sim.controls.parking_brake == 1.0
    start = sim.state.position.copy()
    drift = 0.0
    while sim.t < 60.0:
        assert sim.step(), sim.status
        drift = max(drift, float(np.linalg.norm(sim.state.position[:2] - start[:2])))
    t = sim.telemetry()
    assert drift < 1.0                                         # within a foot of where it started
    assert abs(t.roll) < 0.01 and abs(t.pitch) < 0.5           # level
    assert np.linalg.norm(sim.state.velocity) < 1e-3 and np.linalg.norm(sim.state.omega) < 1e-3   # settled
    assert sim.on_ground and t.groundspeed < 1e-3
    # sunk onto its legs by the static compression, no farther
    assert 0.05 < AIRCRAFT.contact_height - sim.state.position[2] < 0.5
    loads = np.array([t.gear[k].load for k in WHEELS])
    np.testing.assert_allclose(loads, statics(sim), rtol=0.01)      # the weight shared as statics says
    assert loads.sum() == pytest.approx(WEIGHT, rel=1e-3)
    assert all(g.load == 0.0 for g in t.gear if not g.wheel)


def test_runway_start_is_at_rest_at_the_threshold_on_the_centre_line():
    y = RUNWAY_START.state
    distance, offset = RUNWAY.local(y[0], y[1])
    assert distance == pytest.approx(RUNWAY_START_DISTANCE) and offset == pytest.approx(0.0, abs=1e-9)
    tail = quat.rotate(y[6:10], next(c.position for c in AIRCRAFT.gear if c.name == "tail"))
    assert RUNWAY.contains(y[0] + tail[0], y[1] + tail[1])   # the whole airplane is on the runway
    assert not np.any(y[3:6]) and not np.any(y[10:13])
    roll, pitch, heading = quat.aviation_angles(y[6:10])
    assert roll == pytest.approx(0.0, abs=1e-9) and heading == pytest.approx(RUNWAY.heading_deg, abs=1e-9)
    c = RUNWAY_START.controls
    assert (c.throttle, c.parking_brake, c.brake) == (0.0, 1.0, 0.0)
    sim = Simulation(start=RUNWAY_START)
    acc = sim.loads()
    assert np.abs(acc[:3]).max() < 1e-6 and np.abs(acc[3:]).max() < 1e-6   # settled: every force balanced
    assert sim.on_ground and "at rest on runway 36" in RUNWAY_START.describe()


def test_the_parking_brake_holds_against_thrust_and_lets_go_beyond_full_braking():
    held = Simulation(start=RUNWAY_START)
    held.controls.throttle = 0.25                         # 750 lbf, less than the braked mains' grip
    start = held.state.position.copy()
    for _ in range(60 * 120):
        assert held.step()
    assert np.linalg.norm(held.state.position[:2] - start[:2]) < 0.1     # static friction: no creep
    rolled = Simulation(start=RUNWAY_START)
    rolled.controls.throttle, rolled.controls.parking_brake = 0.25, 0.0
    for _ in range(5 * 120):
        assert rolled.step()
    assert rolled.state.position[0] - start[0] > 50.0     # released, the same thrust rolls it away


# --------------------------------------------------------------------------- take-off and landing


def take_off(elevator=0.3, throttle=1.0, integrator="euler"):
    """From the runway start, brake off, full throttle and some back-pressure: (distance, speed, time) at lift-off."""
    sim = Simulation(integrator=integrator, start=RUNWAY_START)
    sim.controls.parking_brake, sim.controls.throttle, sim.controls.elevator = 0.0, throttle, elevator
    x0 = sim.state.position[0]
    while sim.on_ground:
        assert sim.step() and sim.t < 60.0, sim.status
    lift_off = (sim.state.position[0] - x0, float(np.linalg.norm(sim.state.velocity)), sim.t)
    for _ in range(3 * 120):                                   # and it flies away
        assert sim.step() and not sim.on_ground, sim.status
    assert sim.state.position[2] > AIRCRAFT.contact_height + 10.0
    return lift_off


def test_full_throttle_with_back_pressure_lifts_off_within_the_runway():
    distance, speed, t = take_off()
    assert distance < RUNWAY.length - RUNWAY_START_DISTANCE
    # faster than the slowest level flight (about 100 ft/s, clean) and slower than cruise
    assert 100.0 < speed < AIRCRAFT.cruise_speed and 1.0 < t < 30.0
    # half throttle needs a longer run
    assert take_off(throttle=0.5)[0] > 1.5 * distance


def test_from_the_approach_start_with_no_input_it_touches_down_on_the_runway():
    sim = Simulation(start=APPROACH_START)
    distance, offset = RUNWAY.local(*sim.state.position[:2])
    assert distance < -3000.0 and offset == pytest.approx(0.0, abs=1e-9)
    touchdown = None
    while sim.t < 120.0:
        assert sim.step(), sim.status
        if touchdown is None and sim.on_ground:
            touchdown = sim.t, sim.state.position.copy(), -sim.state.velocity[2]
        if touchdown is not None and sim.t > touchdown[0] + 20.0:
            break
    assert touchdown is not None
    t, where, sink = touchdown
    assert RUNWAY.contains(where[0], where[1])
    assert RUNWAY.local(where[0], where[1])[0] == pytest.approx(AIM_DISTANCE, abs=100.0)
    assert t == pytest.approx(APPROACH_SECONDS, abs=5.0)         # about a minute from touchdown
    assert 0.0 < sink < AIRCRAFT.crash_sink_rate
    assert sim.running and sim.on_ground and abs(sim.telemetry().roll) < 1.0   # rolling on, wings level


def test_approach_start_is_trimmed_on_a_three_degree_glide_path_aligned_with_the_runway():
    point = APPROACH_START.trim
    assert point.climb_angle == -3.0 and point.flaps == 1.0 and point.airspeed == AIRCRAFT.approach_speed
    y = APPROACH_START.state
    v = y[3:6]
    assert math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))) == pytest.approx(-3.0, abs=1e-9)
    assert quat.aviation_angles(y[6:10])[2] == pytest.approx(RUNWAY.heading_deg, abs=1e-6)
    sim = Simulation(start=APPROACH_START)
    acc = sim.loads()
    assert np.abs(acc[:3]).max() < 1e-3 * AIRCRAFT.gravity and not sim.on_ground


# --------------------------------------------------------------------------- crashes


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
def test_a_steep_dive_into_the_ground_is_a_crash_and_nothing_goes_through_it(integrator):
    sim = Simulation(integrator=integrator)
    q = quat.from_aviation_angles(0.0, -45.0, 0.0)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, 300.0]), quat.rotate(q, [200.0, 0.0, 0.0]), q, np.zeros(3)))
    sim.controls.throttle = 1.0
    deepest = -np.inf
    while sim.step():
        deepest = max(deepest, float(np.max(sim.gear_compressions() - allowed_depth())))
        assert sim.t < 10.0
    assert not sim.running
    # nose first, the nose wheel touches first: sinking at some 140 ft/s
    assert re.fullmatch(r"crashed at t = \d\.\d\d s: touched down with sink rate 1\d\d\.\d ft/s \(more than 12\)",
                        sim.status), sim.status
    deepest = max(deepest, float(np.max(sim.gear_compressions() - allowed_depth())))
    assert deepest <= 1e-9          # no contact point ever below the ground by more than its compression limit
    assert sim.advance(0.5) == 0


def test_touching_down_sinking_too_fast_is_a_crash_naming_the_sink_rate():
    sim = Simulation()
    q = quat.from_aviation_angles(0.0, 3.0, 0.0)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, AIRCRAFT.contact_height + 1.0]), np.array([100.0, 0.0, -15.0]),
                              q, np.zeros(3)))
    while sim.step():
        assert sim.t < 2.0
    assert re.search(r"touched down with sink rate 1[345]\.\d ft/s \(more than 12\)$", sim.status), sim.status
    assert np.all(sim.gear_compressions() <= allowed_depth() + 1e-9)


def test_with_crashes_off_the_same_touchdown_goes_on_on_the_gear_as_jsbsim_would():
    # (JSBSim's FGLGear::CrashDetect only reports: flightsim script flies so)
    sim = Simulation(crashes=False)
    q = quat.from_aviation_angles(0.0, 3.0, 0.0)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, AIRCRAFT.contact_height + 1.0]), np.array([100.0, 0.0, -15.0]),
                              q, np.zeros(3)))
    for _ in range(240):
        assert sim.step(), sim.status
    assert sim.on_ground and abs(sim.vector[5]) < 2.0          # the struts took the blow and hold it


def test_a_wing_tip_on_the_ground_is_a_crash():
    sim = Simulation()
    q = quat.from_aviation_angles(-25.0, 2.0, 0.0)                    # left wing down
    lowest = min(float(quat.rotate(q, c.position)[2]) for c in AIRCRAFT.gear)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, 1.0 - lowest]), np.array([100.0, 0.0, -4.0]), q, np.zeros(3)))
    while sim.step():
        assert sim.t < 2.0
    assert "the left wing tip hit the ground" in sim.status and "bank -25°" in sim.status


# --------------------------------------------------------------------------- on the ground: steering and brakes


def rolling(speed, **controls):
    """On the runway at ``speed`` ft/s, settled on the gear, engine idle, brakes off, with ``controls``."""
    sim = Simulation(start=RUNWAY_START)
    y = RUNWAY_START.state.copy()
    y[3] = speed
    sim.set_state(FlightState(0.0, y[0:3], y[3:6], y[6:10], y[10:13]))
    sim.controls.parking_brake = 0.0
    for name, value in controls.items():
        setattr(sim.controls, name, value)
    return sim


@pytest.mark.parametrize("rudder", [1.0, -1.0])
def test_nose_wheel_steering_turns_the_airplane_the_way_the_rudder_says(rudder):
    sim = rolling(20.0, throttle=0.08, rudder=rudder)
    for _ in range(3 * 120):
        assert sim.step() and sim.on_ground, sim.status
    turned = heading_change(RUNWAY.heading_deg, sim.telemetry().heading)
    assert 30.0 < rudder * turned < 150.0         # rudder +1 (nose right): heading increases, clockwise
    assert abs(sim.telemetry().roll) < 5.0


def test_nose_wheel_steering_is_what_turns_it():
    """Slow on the ground the rudder's air load alone hardly turns the airplane: the nose wheel does."""
    from dataclasses import replace

    fixed = replace(AIRCRAFT, gear=tuple(replace(c, steering_deg=0.0) for c in AIRCRAFT.gear))
    sim = Simulation(aircraft=fixed, start=RUNWAY_START)
    y = RUNWAY_START.state.copy()
    y[3] = 20.0
    sim.set_state(FlightState(0.0, y[0:3], y[3:6], y[6:10], y[10:13]))
    sim.controls.parking_brake, sim.controls.throttle, sim.controls.rudder = 0.0, 0.08, 1.0
    for _ in range(3 * 120):
        assert sim.step()
    assert abs(heading_change(RUNWAY.heading_deg, sim.telemetry().heading)) < 10.0


def stopping(sim, limit=120.0):
    """Run until the airplane stops; return the distance it rolled (ft) and the time (s)."""
    x0 = sim.state.position[:2].copy()
    while sim.telemetry().groundspeed > 0.1:
        assert sim.step() and sim.t < limit, sim.status
    return float(np.linalg.norm(sim.state.position[:2] - x0)), sim.t


def test_braking_shortens_the_roll():
    free, t_free = stopping(rolling(80.0))
    braked, t_braked = stopping(rolling(80.0, brake=1.0))
    assert braked < 0.4 * free and t_braked < 0.5 * t_free
    # about v² / (2 μ g) with the mains' brakes (μ 0.6) carrying most of the weight
    assert 80.0 ** 2 / (2 * 0.6 * AIRCRAFT.gravity) < braked < 2.5 * 80.0 ** 2 / (2 * 0.6 * AIRCRAFT.gravity)
    half, _ = stopping(rolling(80.0, brake=0.5))
    assert braked < half < free


def test_differential_braking_turns_towards_the_braked_side():
    sim = rolling(30.0, brake=1.0, rudder=0.6)     # rudder right eases the left brake: the right one pulls right
    controls = Controls(rudder=0.6, brake=1.0).as_array()
    left_wheel = aero.wheel_brake(controls, aero.BRAKE_LEFT)
    right_wheel = aero.wheel_brake(controls, aero.BRAKE_RIGHT)
    assert (left_wheel, right_wheel) == pytest.approx((0.4, 1.0))
    stopping(sim)
    assert heading_change(RUNWAY.heading_deg, sim.telemetry().heading) > 5.0


@pytest.mark.parametrize("side,turn", [("brake_right", 1.0), ("brake_left", -1.0)])
def test_a_toe_brake_alone_brakes_its_side_and_turns_the_airplane_that_way(side, turn):
    """Rudder pedals' differential brakes: one toe brake, the rudder centred, the other brake off."""
    controls = Controls(**{side: 0.7}).as_array()
    wheels = (aero.wheel_brake(controls, aero.BRAKE_LEFT), aero.wheel_brake(controls, aero.BRAKE_RIGHT))
    assert wheels == pytest.approx((0.7, 0.0) if side == "brake_left" else (0.0, 0.7))
    # each side at least its own toe brake: the pedals pressed together brake as the brake key does
    both = Controls(brake=0.5, rudder=-0.4, brake_left=0.2, brake_right=0.9).as_array()
    assert (aero.wheel_brake(both, aero.BRAKE_LEFT), aero.wheel_brake(both, aero.BRAKE_RIGHT)) == pytest.approx(
        (0.5, 0.9))
    sim = rolling(30.0, **{side: 1.0})
    stopping(sim)
    assert turn * heading_change(RUNWAY.heading_deg, sim.telemetry().heading) > 5.0


# --------------------------------------------------------------------------- every integrator


@pytest.mark.parametrize("name", list(INTEGRATORS))
def test_every_integrator_handles_the_gear_at_the_default_dt(name):
    # at rest on the runway
    sim = Simulation(integrator=name, start=RUNWAY_START)
    start = sim.state.position.copy()
    for _ in range(10 * 120):
        assert sim.step(), sim.status
    assert np.linalg.norm(sim.state.position - start) < 0.01 and sim.on_ground
    # a gentle touchdown rolls on, no leg past its travel
    sim = Simulation(integrator=name)
    q = quat.from_aviation_angles(0.0, 3.0, 0.0)
    sim.set_state(FlightState(0.0, np.array([0.0, 0.0, AIRCRAFT.contact_height + 1.0]), np.array([110.0, 0.0, -4.0]),
                              q, np.zeros(3)))
    sim.controls.throttle = 0.0
    deepest = np.full(len(AIRCRAFT.gear), -np.inf)
    for _ in range(10 * 120):
        assert sim.step(), sim.status
        deepest = np.maximum(deepest, sim.gear_compressions())
    assert sim.on_ground and abs(sim.telemetry().roll) < 1e-6
    assert np.all(deepest[WHEELS] < allowed_depth()[WHEELS] - 0.1)      # well within the legs' travel
    assert np.all(np.delete(deepest, WHEELS) == 0.0)                    # no hard point touched


@pytest.mark.parametrize("name", ["euler", "buss2", "rk4"])
def test_the_gear_is_stable_up_to_a_thirtieth_of_a_second(name):
    """The documented largest stable step: at 1/30 s the parked airplane still stays put, a landing still rolls."""
    sim = Simulation(integrator=name, dt=1.0 / 30.0, start=RUNWAY_START)
    start = sim.state.position.copy()
    while sim.t < 60.0:
        assert sim.step(), sim.status
    assert np.linalg.norm(sim.state.position - start) < 0.01
    sim = Simulation(integrator=name, dt=1.0 / 30.0, start=APPROACH_START)
    while sim.t < 80.0:
        assert sim.step(), sim.status
    assert sim.on_ground


def test_settle_finds_the_rest_where_the_legs_carry_the_weight():
    y = settle(AIRCRAFT, 100.0, -50.0, 90.0)
    assert (y[0], y[1]) == (100.0, -50.0)
    assert quat.aviation_angles(y[6:10])[2] == pytest.approx(90.0)
    params = aero.pack(AIRCRAFT)
    acc = aero.airplane_loads(0.0, y, params)
    assert abs(acc[2]) < 1e-8 and abs(acc[4]) < 1e-6
    assert params.gear_diag[WHEELS, aero.GD_LOAD].sum() == pytest.approx(WEIGHT)


def test_above_the_ground_the_gear_adds_nothing():
    """The gear's loads are zero in the air: the loads equal those of the same airplane with no gear at all."""
    from dataclasses import replace

    y = np.zeros(13)
    y[0:3] = (0.0, 0.0, 30.0)                                   # low, but every point clear of the ground
    y[3:6] = (150.0, 5.0, -3.0)
    y[6:10] = quat.from_aviation_angles(10.0, 5.0, 20.0)
    y[10:13] = (0.1, -0.2, 0.05)
    with_gear = aero.pack(AIRCRAFT)
    without = aero.pack(replace(AIRCRAFT, gear=()))
    for p in (with_gear, without):
        p.controls[:] = (0.6, 0.2, -0.1, 0.3, 0.5, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0)     # (the gear down)
    assert aero.airplane_loads(0.0, y, with_gear) == aero.airplane_loads(0.0, y, without)
    assert not np.any(with_gear.gear_diag)
    y[2] = AIRCRAFT.contact_height - 0.1                         # wheels pressed in: now it pushes up
    assert aero.airplane_loads(0.0, y, with_gear)[2] > aero.airplane_loads(0.0, y, without)[2] + 10.0


def test_trim_now_refuses_on_the_ground():
    from flightsim.physics.trim import TrimError

    sim = rolling(80.0)
    before = sim.vector
    with pytest.raises(TrimError, match="on the ground"):
        sim.trim_now()
    assert np.array_equal(sim.vector, before)

"""Many airplanes at once: each airplane of a BatchSimulation flies the single Simulation's flight."""

import numba
import numpy as np
import pytest

from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.integrators import INTEGRATORS
from flightsim.physics.lanes import LANES
from flightsim.physics.wind import Gust, Shear, WindSpec
from flightsim.simulation.batch import (
    CRASHED,
    NONFINITE,
    PARALLEL_MIN,
    PER_AIRPLANE,
    RUNNING,
    BatchSimulation,
)
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import FlightState, Simulation
from flightsim.simulation.starts import make_start

AIRCRAFT = load_aircraft()
#: Three pilots: the trim (the start's controls), a gentle right turn, a climb at full throttle.
PILOTS = (None, dict(aileron=0.2, rudder=0.1), dict(elevator=0.2, throttle=1.0))


@pytest.fixture(scope="module")
def air():
    return make_start(AIRCRAFT, "air")


def controls_of(start, pilot):
    """The Controls a pilot flies from ``start`` (the start's, with the pilot's changes)."""
    c = start.controls
    values = dict(throttle=c.throttle, aileron=c.aileron, rudder=c.rudder, flaps=c.flaps, elevator_trim=c.elevator_trim)
    values.update(pilot or {})
    return Controls(**values)


def single(start, pilot, steps, integrator="euler", **kwargs):
    sim = Simulation(AIRCRAFT, integrator, start=start, **kwargs)
    sim.controls = controls_of(start, pilot)
    for _ in range(steps):
        sim.step()
    return sim


def batch_of(start, pilots, integrator="euler", **kwargs):
    b = BatchSimulation(len(pilots), AIRCRAFT, integrator, start=start, **kwargs)
    for k, pilot in enumerate(pilots):
        c = controls_of(start, pilot).as_array()
        c[1] += controls_of(start, pilot).elevator_trim
        b.set_controls(c[None, :], [k])
    return b


@pytest.mark.parametrize("name", list(INTEGRATORS))
def test_each_airplane_of_the_batch_flies_the_single_simulation(air, name):
    b = batch_of(air, PILOTS, name)
    b.step(240)
    for k, pilot in enumerate(PILOTS):
        sim = single(air, pilot, 240, name)
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-12, atol=1e-9)
        assert b.times[k] == pytest.approx(sim.t)
        assert b.qnorm_error[k] == pytest.approx(sim.qnorm_error, abs=1e-15)
    assert np.all(b.status == RUNNING)
    # the pilots did fly different flights
    assert np.linalg.norm(b.states[1, 0:3] - b.states[2, 0:3]) > 10.0


@pytest.mark.parametrize("name", ["euler", "rk4"])
def test_the_batch_flies_the_propeller_airplane_as_the_single_simulation(name):
    # the 172: thrust and rpm from the engine and propeller (LoadParams' propeller fields, diag's rpm)
    c172 = load_aircraft("c172")
    start = make_start(c172, "air")
    pilots = (None, dict(throttle=1.0, elevator=0.1), dict(throttle=0.0))
    b = BatchSimulation(len(pilots), c172, name, start=start)
    for k, pilot in enumerate(pilots):
        c = controls_of(start, pilot).as_array()
        c[1] += controls_of(start, pilot).elevator_trim
        b.set_controls(c[None, :], [k])
    b.step(240)
    for k, pilot in enumerate(pilots):
        sim = Simulation(c172, name, start=start)
        sim.controls = controls_of(start, pilot)
        for _ in range(240):
            sim.step()
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-12, atol=1e-9)
    assert np.linalg.norm(b.states[1, 3:6] - b.states[2, 3:6]) > 1.0     # full throttle and idle differ


def test_the_batch_flies_the_landing_and_the_rollout_as_the_single_simulation():
    # the approach start touches down about 60 s later: gear contact, brakes anchors, on_ground
    start = make_start(AIRCRAFT, "approach")
    pilots = (None, dict(brake=1.0))
    b = batch_of(start, pilots, "rk4")
    steps = 75 * 120
    b.step(steps)
    for k, pilot in enumerate(pilots):
        sim = single(start, pilot, steps, "rk4")
        assert sim.on_ground and sim.running
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-9, atol=1e-7)
        assert bool(b.on_ground[k]) == sim.on_ground
    assert np.all(b.on_ground) and np.all(b.status == RUNNING)


@pytest.mark.parametrize("layer", ["log", "power"])
def test_the_batch_flies_the_wind_and_turbulence_of_each_seed(air, layer):
    # turbulence, a boundary layer up to 3000 ft (the start is at 2000 ft) and a gust
    shear, gusts = Shear(layer, 3000.0), (Gust(1.0, 1.5, (0.0, 15.0, -8.0)),)
    wind = WindSpec(250.0, 20.0, "moderate", seed=0, shear=shear, gusts=gusts)
    seeds = [11, 5, 11]
    b = BatchSimulation(3, AIRCRAFT, "euler", start=air, wind=wind, seeds=seeds)
    b.step(360)
    for k, seed in enumerate(seeds):
        sim = Simulation(AIRCRAFT, "euler", start=air,
                         wind=WindSpec(250.0, 20.0, "moderate", seed=seed, shear=shear, gusts=gusts))
        for _ in range(360):
            sim.step()
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-9, atol=1e-7)
        np.testing.assert_allclose(b.wind[k], sim.wind, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(b.states[0], b.states[2])      # same seed, same flight
    assert np.linalg.norm(b.wind[0] - b.wind[1]) > 1e-3            # another seed, other gusts


def test_a_crash_stops_one_airplane_and_leaves_the_others_untouched(air):
    pilots = (None, dict(elevator=-1.0, throttle=1.0), dict(aileron=0.2, rudder=0.1))
    b = batch_of(air, pilots)
    steps = 15 * 120
    stopped = b.step(steps)
    assert list(stopped) == [1]
    assert b.status[1] == CRASHED and b.messages[1].startswith("crashed at t = ")
    assert list(b.running) == [True, False, True]
    sim = single(air, pilots[1], steps)
    assert b.messages[1] == sim.status
    np.testing.assert_allclose(b.states[1], sim.vector, rtol=1e-9, atol=1e-7)
    for k in (0, 2):
        np.testing.assert_allclose(b.states[k], single(air, pilots[k], steps).vector, rtol=1e-12, atol=1e-9)
    # a stopped airplane stays stopped, at rest where it hit; the others fly on
    resting, t = b.states[1].copy(), b.times.copy()
    assert len(b.step(10)) == 0
    np.testing.assert_array_equal(b.states[1], resting)
    assert b.times[1] == t[1] and b.times[0] == pytest.approx(t[0] + 10 * b.dt)
    # until it is reset
    b.reset([1])
    assert b.status[1] == RUNNING and b.times[1] == 0.0 and b.messages[1] is None
    np.testing.assert_array_equal(b.states[1], air.state)


def test_a_non_finite_state_stops_that_airplane_with_its_last_finite_state(air):
    b = BatchSimulation(3, AIRCRAFT, "rk4", start=air)
    wild = air.state.copy()
    wild[10:13] = 1e300                       # ω that overflows within a step
    b.set_states([2], wild[None, :])
    stopped = b.step(5)
    assert list(stopped) == [2] and b.status[2] == NONFINITE
    assert "non-finite with integrator 'rk4'" in b.messages[2]
    assert np.all(np.isfinite(b.states))
    np.testing.assert_array_equal(b.states[2], wild)
    assert np.all(b.status[:2] == RUNNING) and b.times[0] == pytest.approx(5 * b.dt)


def test_same_seeds_same_flights_bit_for_bit_on_the_threads(air):
    # enough airplanes to run on numba's threads; turbulence drawn per airplane
    n = PARALLEL_MIN
    wind = WindSpec(90.0, 10.0, "light", seed=3)
    runs = []
    threads = numba.get_num_threads()
    for count in (threads, 1, threads):
        numba.set_num_threads(count)
        try:
            b = BatchSimulation(n, AIRCRAFT, "euler", start=air, wind=wind)
            b.set_controls(np.tile([0.6, 0.05, 0.1, 0.0, 0.0, 0.0, 0.0, 1.0], (n, 1)))
            b.step(60)
        finally:
            numba.set_num_threads(threads)
        runs.append(b.states.copy())
    np.testing.assert_array_equal(runs[0], runs[1])
    np.testing.assert_array_equal(runs[0], runs[2])
    assert np.ptp(runs[0][:, 0]) > 0.0      # the seeds differ per airplane, so the flights do


def test_only_the_fields_written_in_flight_are_per_airplane():
    params = aero.pack(AIRCRAFT)
    assert set(PER_AIRPLANE) <= set(params._fields)
    b = BatchSimulation(4, AIRCRAFT)
    assert b.controls.shape == (4, len(aero.INPUTS)) and b.wind.shape == (4, 6)


def test_bad_arguments_say_which():
    with pytest.raises(ValueError, match="^n: "):
        BatchSimulation(0, AIRCRAFT)
    with pytest.raises(ValueError, match="^integrator: unknown name 'nope'"):
        BatchSimulation(2, AIRCRAFT, "nope")
    with pytest.raises(ValueError, match="^dt: "):
        BatchSimulation(2, AIRCRAFT, dt=0.0)
    with pytest.raises(ValueError, match="^seeds: "):
        BatchSimulation(2, AIRCRAFT, wind=WindSpec(turbulence="light"), seeds=[1, 2, 3])


# ---------------------------------------------------------------------------------------------- the round planet

ROUND = dict(planet="round", lat=45.0, lon=5.0)


@pytest.mark.parametrize("name", ["euler", "rk4"])
def test_on_a_round_planet_each_airplane_flies_the_single_simulation(air, name):
    b = batch_of(air, PILOTS, name, **ROUND)
    assert b.planet.round and b.inertial.shape == (len(PILOTS), 13)
    b.step(240)
    for k, pilot in enumerate(PILOTS):
        sim = single(air, pilot, 240, name, **ROUND)
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(b.inertial[k], sim.inertial, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(b.geodetic[k], sim.geodetic, rtol=1e-12, atol=1e-9)
        assert b.times[k] == pytest.approx(sim.t)
        assert b.qnorm_error[k] == pytest.approx(sim.qnorm_error, abs=1e-15)
    assert np.all(b.status == RUNNING)
    assert np.linalg.norm(b.states[1, 0:3] - b.states[2, 0:3]) > 10.0
    # the round planet's flight is not the flat one's (the view turns with the Earth, gravity varies)
    flat = batch_of(air, PILOTS, name, planet="flat")
    flat.step(240)
    assert np.max(np.abs(flat.states[:, 0:3] - b.states[:, 0:3])) > 1e-3


def test_on_a_round_planet_the_batch_lands_and_rolls_out_as_the_single_simulation():
    # the ground check reads each airplane's view: touchdown, brakes' anchors, on_ground
    start = make_start(AIRCRAFT, "approach")
    pilots = (None, dict(brake=1.0))
    b = batch_of(start, pilots, "rk4", **ROUND)
    steps = 75 * 120
    b.step(steps)
    for k, pilot in enumerate(pilots):
        sim = single(start, pilot, steps, "rk4", **ROUND)
        assert sim.on_ground and sim.running
        # (75 s through a touchdown and a braked rollout: the tyres' stiff friction grows the two compilations'
        # rounding to some 1e-7 ft over 9000 steps)
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-9, atol=2e-6)
        assert bool(b.on_ground[k]) == sim.on_ground
    assert np.all(b.on_ground) and np.all(b.status == RUNNING)


def test_on_a_round_planet_the_wind_is_sampled_at_the_view(air):
    wind = WindSpec(250.0, 20.0, "moderate", seed=0, gusts=(Gust(1.0, 1.5, (0.0, 15.0, -8.0)),))
    b = BatchSimulation(2, AIRCRAFT, "euler", start=air, wind=wind, seeds=[11, 5], **ROUND)
    b.step(360)
    sim = Simulation(AIRCRAFT, "euler", start=air, wind=WindSpec(250.0, 20.0, "moderate", seed=5,
                                                                 gusts=wind.gusts), **ROUND)
    for _ in range(360):
        sim.step()
    np.testing.assert_allclose(b.states[1], sim.vector, rtol=1e-9, atol=1e-7)
    np.testing.assert_allclose(b.wind[1], sim.wind, rtol=1e-9, atol=1e-12)


def test_on_a_round_planet_a_crash_is_put_at_rest_in_the_view_and_reset_starts_again(air):
    pilots = (None, dict(elevator=-1.0, throttle=1.0))
    b = batch_of(air, pilots, **ROUND)
    steps = 15 * 120
    assert list(b.step(steps)) == [1]
    sim = single(air, pilots[1], steps, **ROUND)
    assert b.status[1] == CRASHED and b.messages[1] == sim.status
    np.testing.assert_allclose(b.states[1], sim.vector, rtol=1e-9, atol=1e-7)
    np.testing.assert_allclose(b.inertial[1], sim.inertial, rtol=1e-9, atol=1e-6)
    resting = b.states[1].copy()
    b.step(10)
    np.testing.assert_array_equal(b.states[1], resting)
    b.reset([1])
    np.testing.assert_array_equal(b.states[1], air.state)
    np.testing.assert_array_equal(b.inertial[1], Simulation(AIRCRAFT, start=air, **ROUND).inertial)


def test_on_a_round_planet_loaded_states_are_views_and_a_divergence_stops_one(air):
    b = BatchSimulation(3, AIRCRAFT, "rk4", start=air, **ROUND)
    moved = air.state.copy()
    moved[0] += 5000.0
    b.set_states([1], moved[None, :])
    np.testing.assert_array_equal(b.states[1], moved)
    sim = Simulation(AIRCRAFT, "rk4", start=air, **ROUND)
    sim.set_state(FlightState.from_vector(0.0, moved))
    np.testing.assert_allclose(b.inertial[1], sim.inertial, rtol=1e-12, atol=1e-6)
    wild = air.state.copy()
    wild[10:13] = 1e300
    b.set_states([2], wild[None, :])
    assert list(b.step(5)) == [2] and b.status[2] == NONFINITE
    assert "non-finite with integrator 'rk4'" in b.messages[2]
    np.testing.assert_array_equal(b.states[2], wild)
    assert np.all(np.isfinite(b.states)) and np.all(b.status[:2] == RUNNING)


def test_a_flat_batch_is_the_flat_planet_and_holds_no_inertial_state(air):
    b = batch_of(air, PILOTS, "rk4")
    flat = batch_of(air, PILOTS, "rk4", planet="flat")
    assert not b.planet.round and b.inertial is None
    b.step(120)
    flat.step(120)
    np.testing.assert_array_equal(b.states, flat.states)


def test_bad_planet_arguments_say_which():
    with pytest.raises(ValueError, match="^planet: "):
        BatchSimulation(2, AIRCRAFT, planet="square")
    with pytest.raises(ValueError, match="^latitude: "):
        BatchSimulation(2, AIRCRAFT, planet="round", lat=91.0)


def test_an_airplane_with_its_own_wind_and_loading_flies_the_single_simulation_of_them(air):
    # a campaign's dispersions: each airplane its own steady wind, turbulence level and seed, weight and CG
    from flightsim.physics.aircraft import with_loading

    shared = WindSpec(250.0, 20.0, "light", seed=4, gusts=(Gust(1.0, 1.5, (0.0, 15.0, -8.0)),))
    own = [dict(), dict(speed=35.0, from_deg=200.0, turbulence="moderate", seeds=[9]),
           dict(speed=0.0, from_deg=10.0, turbulence="none")]
    loading = [(None, None), (AIRCRAFT.mass * 1.1, 0.3), (AIRCRAFT.mass * 0.9, -0.2)]
    b = BatchSimulation(3, AIRCRAFT, "rk4", start=air, wind=shared, seeds=[4, 4, 4])
    for k in (1, 2):
        b.set_wind([k], **own[k])
        b.set_loading([k], mass=loading[k][0], cg_shift=loading[k][1])
    b.step(360)
    for k in range(3):
        w = own[k]
        wind = WindSpec(w.get("from_deg", 250.0), w.get("speed", 20.0), w.get("turbulence", "light"),
                        seed=w.get("seeds", [4])[0], gusts=shared.gusts)
        mass, shift = loading[k]
        aircraft = AIRCRAFT if mass is None else with_loading(AIRCRAFT, mass, shift)
        sim = Simulation(aircraft, "rk4", start=air, wind=wind)
        for _ in range(360):
            sim.step()
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-9, atol=1e-7)
        np.testing.assert_allclose(b.wind[k], sim.wind, rtol=1e-9, atol=1e-12)
    # the winds and loadings did make three flights
    assert np.linalg.norm(b.states[0, 0:3] - b.states[1, 0:3]) > 10.0
    assert np.linalg.norm(b.states[0, 0:3] - b.states[2, 0:3]) > 10.0
    with pytest.raises(ValueError, match="^mass: "):
        b.set_loading([0], mass=-1.0)


def test_a_calm_batch_gives_one_airplane_its_own_turbulence(air):
    b = BatchSimulation(2, AIRCRAFT, "euler", start=air, wind=WindSpec())
    b.set_wind([1], speed=15.0, from_deg=90.0, turbulence="light", seeds=[5])
    b.step(240)
    for k, wind in enumerate((WindSpec(), WindSpec(90.0, 15.0, "light", seed=5))):
        sim = Simulation(AIRCRAFT, "euler", start=air, wind=wind)
        for _ in range(240):
            sim.step()
        np.testing.assert_allclose(b.states[k], sim.vector, rtol=1e-9, atol=1e-7)
    assert np.all(b.wind[0] == 0.0) and np.linalg.norm(b.wind[1, 3:6]) > 0.0
    with pytest.raises(ValueError, match="^wind: "):
        BatchSimulation(1, AIRCRAFT).set_wind([0], speed=10.0)


# --------------------------------------------------------------------------- airplanes side by side in SIMD lanes

#: Enough airplanes for the threads, and a last block of the SIMD lanes left part full.
N_LANES = PARALLEL_MIN + LANES // 2 + 1


def lanes_pair(start, pilots, integrator="rk4", **kwargs):
    """Two batches of the same airplanes and pilots: one stepped in SIMD lanes where it can, one airplane at a
    time."""
    lanes, one = batch_of(start, pilots, integrator, **kwargs), batch_of(start, pilots, integrator, **kwargs)
    one.lanes = False
    return lanes, one


def random_pilots(n, seed=1):
    rng = np.random.default_rng(seed)
    return [dict(aileron=rng.uniform(-0.3, 0.3), rudder=rng.uniform(-0.3, 0.3), elevator=rng.uniform(-0.2, 0.2),
                 flaps=rng.choice([0.0, 0.5, 1.0]), throttle=rng.uniform(0.2, 1.0)) for _ in range(n)]


def assert_same_batches(a, b):
    np.testing.assert_array_equal(a.states, b.states)
    np.testing.assert_array_equal(a.previous, b.previous)
    np.testing.assert_array_equal(a.times, b.times)
    np.testing.assert_array_equal(a.qnorm_error, b.qnorm_error)
    np.testing.assert_array_equal(a.status, b.status)
    np.testing.assert_array_equal(a.on_ground, b.on_ground)
    np.testing.assert_array_equal(a.air_density, b.air_density)
    np.testing.assert_array_equal(a.wind, b.wind)
    assert a.messages == b.messages


def test_the_lanes_fly_each_airplane_as_the_single_simulation_bit_for_bit(air):
    pilots = random_pilots(N_LANES)
    b, one = lanes_pair(air, pilots)
    assert b.lanes and not one.lanes
    b.step(240)
    one.step(240)
    assert_same_batches(b, one)
    assert np.all(b.status == RUNNING)
    for k in (0, LANES + 3, N_LANES - 1):         # in a full block, and in the last, part-full one
        sim = single(air, pilots[k], 240, "rk4")
        np.testing.assert_array_equal(b.states[k], sim.vector)
        assert b.qnorm_error[k] == sim.qnorm_error
    # the pilots did fly different flights
    assert np.ptp(b.states[:, 2]) > 10.0 and np.ptp(b.states[:, 1]) > 10.0


def test_the_lanes_fly_the_wind_and_turbulence_as_one_airplane_at_a_time(air):
    wind = WindSpec(250.0, 20.0, "moderate", seed=7, shear=Shear("log", 3000.0))
    b, one = lanes_pair(air, random_pilots(N_LANES, seed=2), wind=wind)
    for batch in (b, one):
        batch.step(300)
    assert_same_batches(b, one)
    assert np.ptp(b.wind[:, 3]) > 0.0          # each airplane its own turbulence


def test_near_the_ground_the_lanes_leave_the_airplanes_to_the_scalar_step():
    # the approach: the airplanes come down, touch down, roll out and brake (the gear within reach: each block
    # steps one airplane at a time from then on), as one airplane at a time does, bit for bit
    start = make_start(AIRCRAFT, "approach")
    pilots = [dict(brake=float(k % 2)) for k in range(N_LANES)]
    b, one = lanes_pair(start, pilots)
    steps = 75 * 120
    for batch in (b, one):
        batch.step(steps)
    assert_same_batches(b, one)
    assert np.all(b.on_ground) and np.all(b.status == RUNNING)
    sim = single(start, pilots[1], steps, "rk4")      # as test_the_batch_flies_the_landing_and_the_rollout…
    np.testing.assert_allclose(b.states[1], sim.vector, rtol=1e-9, atol=1e-7)


def test_in_the_lanes_a_crash_a_divergence_and_a_hold_stop_only_their_airplanes(air):
    pilots = [None] * N_LANES
    pilots[LANES + 2] = dict(elevator=-1.0, throttle=1.0)       # dives into the ground
    b, one = lanes_pair(air, pilots)
    wild = air.state.copy()
    wild[10:13] = 1e300                       # ω that overflows within a step
    for batch in (b, one):
        batch.set_states([5], wild[None, :])
        batch.step(10, hold=[2 * LANES + 1])
        batch.step(15 * 120)
    assert_same_batches(b, one)
    assert b.status[5] == NONFINITE and "non-finite with integrator 'rk4'" in b.messages[5]
    np.testing.assert_array_equal(b.states[5], wild)
    assert b.status[LANES + 2] == CRASHED and b.messages[LANES + 2].startswith("crashed at t = ")
    assert np.sum(b.status != RUNNING) == 2
    assert b.times[2 * LANES + 1] == pytest.approx(b.times[0] - 10 * b.dt)
    sim = single(air, None, 15 * 120 + 10, "rk4")
    np.testing.assert_array_equal(b.states[0], sim.vector)


def test_the_lanes_step_only_the_batches_they_model(air):
    assert not BatchSimulation(N_LANES, AIRCRAFT, "euler", start=air).lanes              # another integrator
    assert not BatchSimulation(PARALLEL_MIN - 1, AIRCRAFT, "rk4", start=air).lanes      # on one thread
    assert not BatchSimulation(N_LANES, "c172", "rk4", start="air").lanes             # a propeller
    assert not BatchSimulation(N_LANES, AIRCRAFT, "rk4", start=air, planet="round").lanes
    b = BatchSimulation(N_LANES, AIRCRAFT, "euler", start=air)
    b.set_integrator("rk4")
    assert b.lanes
    b.lanes = False
    assert not b.lanes

"""JSBSim's aircraft flown by flightsim: loaded as Aircraft, the loads in flightsim's frames, trim and a doublet
against JSBSim itself (on its own rotating Earth, and on the flat planet), every command that takes ``--aircraft``,
the batch, what is refused."""

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from flightsim.math import quat
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.fuel import FUEL_FREEZE
from flightsim.physics.jsbsim.model import GRAVITY
from flightsim.physics.planet import WGS84
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start
from flightsim.verify import flight_oracle
from flightsim.verify.flight_check import compare_flight

#: Aircraft flown in these tests: (name, true airspeed ft/s, altitude ft) where JSBSim trims them level.
FLOWN = [("737", 420.0, 10000.0), ("t6texan2", 300.0, 8000.0), ("c172p", 168.78, 4000.0), ("SGS", 81.0, 3000.0)]
D = np.array([1.0, -1.0, -1.0])         # JSBSim's body axes ↔ flightsim's


def cli(*args):
    return subprocess.run([sys.executable, "-m", "flightsim", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def b737():
    return load_aircraft("jsbsim:737")


@pytest.mark.parametrize("name", ["737", "t6texan2", "A4", "SGS", "Short_S23", "Boeing314", "J246"])
def test_mass_and_inertia_are_jsbsims(name):
    """Weight, CG and the whole inertia tensor (point masses, tanks, JSBSim's product signs) as JSBSim has them,
    turned into flightsim's body axes; the tanks' contents with their own inertia (FGTank: a liquid's shrinking
    snowball where the tank has a radius — Short S.23, Boeing 314 —, J246's boosters' cylindrical grains)."""
    a = load_aircraft(f"jsbsim:{name}")
    fdm = flight_oracle.flat_fdm(name)
    fdm.run_ic()
    assert a.mass * GRAVITY == pytest.approx(fdm["inertia/weight-lbs"], rel=1e-12)
    # (FGMassBalance's GetIxy and GetIyz are −J's entries, its GetIxz J's own: the S.23 has the first two)
    sign = {"xy": -1.0, "yz": -1.0}
    j = np.array([[fdm[f"inertia/i{min(a_, b_)}{max(a_, b_)}-slugs_ft2"] * sign.get(min(a_, b_) + max(a_, b_), 1.0)
                   for b_ in "xyz"] for a_ in "xyz"])
    np.testing.assert_allclose(a.inertia, j * np.outer(D, D), rtol=1e-12, atol=1e-9 * np.max(np.abs(j)))
    np.testing.assert_allclose(a.jsbsim.mass.cg, [fdm[f"inertia/cg-{c}-in"] for c in "xyz"], atol=1e-9)


def test_loads_in_flightsims_frames_equal_jsbsims_at_its_trim(b737):
    """At JSBSim's trimmed state (its velocity, attitude and height given to flightsim), flightsim's body force
    and moment (aerodynamics and thrusters) are JSBSim's, turned into flightsim's axes."""
    trim = flight_oracle.jsbsim_trim("737", 420.0, 10000.0)
    fdm = trim.fdm
    y = np.zeros(13)
    y[2] = fdm["position/h-sl-ft"]
    y[6:10] = quat.from_aviation_angles(fdm["attitude/phi-deg"], fdm["attitude/theta-deg"],
                                        fdm["attitude/psi-deg"] % 360.0)
    uvw = D * [fdm["velocities/u-fps"], fdm["velocities/v-fps"], fdm["velocities/w-fps"]]
    y[3:6] = quat.rotate(y[6:10], uvw)
    y[10:13] = D * [fdm["velocities/p-rad_sec"], fdm["velocities/q-rad_sec"], fdm["velocities/r-rad_sec"]]
    params = aero.pack(b737)
    params.controls[:5] = [trim.throttle, trim.elevator + trim.pitch_trim, trim.aileron, trim.rudder, 0.0]
    aero.settle(0.0, y, params)
    ax, ay, az, mx, my, mz = aero.airplane_loads(0.0, y, params)
    force = quat.rotate(quat.conj(y[6:10]), np.array([ax, ay, az + b737.gravity]) * b737.mass)
    ref_f = D * [fdm[f"forces/fb{c}-aero-lbs"] + fdm[f"forces/fb{c}-prop-lbs"] for c in "xyz"]
    ref_m = D * [fdm[f"moments/{c}-aero-lbsft"] + fdm[f"moments/{c}-prop-lbsft"] for c in "lmn"]
    np.testing.assert_allclose(force, ref_f, atol=1e-6 * np.linalg.norm(ref_f))
    # (the pitching moment is near 0 in a trim: compared on the scale of the force times the chord)
    np.testing.assert_allclose([mx, my, mz], ref_m, atol=1e-6 * np.linalg.norm(ref_f) * b737.jsbsim.metrics.chord)


@pytest.mark.parametrize("name, airspeed, altitude", FLOWN)
def test_trim_and_doublet_against_jsbsim(name, airspeed, altitude):
    """The issue's targets: trim α within 0.1° and throttle within 0.01 of JSBSim's; a 30 s aileron and elevator
    doublet flown by flightsim (RK4, 1/120 s) within the tolerances of JSBSim on its flat planet."""
    c = compare_flight(f"jsbsim:{name}", airspeed, altitude)
    assert c.trim_ok, (c.alpha, c.throttle)
    assert c.trajectory_ok, (c.trajectory, c.tolerance)
    assert c.trajectory.roll > 1e-4        # the doublet moved both (a comparison of two still airplanes is empty)


@pytest.mark.parametrize("name, airspeed, altitude", [("T38", 600.0, 15000.0), ("B747", 780.0, 30000.0)])
def test_afterburning_and_water_injected_jets_trim_as_jsbsim_does(name, airspeed, altitude):
    """The aircraft that augmentation and water injection let load: α within 0.1° and throttle within 0.01 of
    JSBSim's own trim (dry: with the afterburner lit JSBSim's trim evaluates ``FGTurbine::Trim``, whose bleed
    differs from its running engine's, so only the dry trims are compared)."""
    from flightsim.physics import trim as trim_module

    point = trim_module.trim(load_aircraft(f"jsbsim:{name}"), airspeed, altitude, heading=0.0, atmosphere="isa")
    theirs = flight_oracle.jsbsim_trim(name, airspeed, altitude)
    assert abs(point.alpha - theirs.alpha) < 0.1 and abs(point.throttle - theirs.throttle) < 0.01, (
        (point.alpha, theirs.alpha), (point.throttle, theirs.throttle))


@pytest.mark.parametrize("airspeed, altitude", [(200.0, 5000.0), (250.0, 5000.0)])
def test_a_turboprop_trims_as_jsbsim_does_and_holds_its_trim(airspeed, altitude):
    """DHC6 (two FGTurboProps, the blades at their finest, rpm command 1): α and throttle JSBSim's (its trim
    marches the engines with the flight controls' thrust-coefficient sum of this state); flown hands-off for 5 s
    flightsim's trim holds to the bit.  JSBSim's own does not: its trim evaluates the turboprops with no time
    passing, when FGTurboProp gives no power (no torque reaction: −2100 ft·lbf appear in flight), and its first
    frame after sets N1 to idle (the thrust halves for ~2 s), so it rolls ~10° in 10 s and its doublet is not
    compared.  The trims on JSBSim's rotating Earth (flightsim's with the effective gravity there), and on the flat
    planet, where flightsim's trimmed flight holds to the bit (on the round one the Earth's curve drops away)."""
    from flightsim.physics import trim as trim_module
    from flightsim.verify.flight_check import flightsim_doublet, trim_gravity

    aircraft = load_aircraft("jsbsim:DHC6")
    for planet in ("round", "flat"):
        model = trim_module.AirplaneModel(aircraft, "isa", gravity=trim_gravity(aircraft, altitude, planet))
        point = trim_module.trim(aircraft, airspeed, altitude, heading=0.0, atmosphere="isa", model=model)
        theirs = flight_oracle.jsbsim_trim("DHC6", airspeed, altitude, advance=1.0, planet=planet)
        assert abs(point.alpha - theirs.alpha) < 0.005 and abs(point.throttle - theirs.throttle) < 0.001, (
            planet, (point.alpha, theirs.alpha), (point.throttle, theirs.throttle))
    flown = flightsim_doublet(aircraft, point, duration=5.0, elevator=0.0, aileron=0.0, planet="flat")
    assert np.ptp(flown.airspeed) < 1e-9 and np.max(np.abs(flown.roll)) < 1e-9 and np.ptp(flown.altitude) < 1e-9


@pytest.mark.parametrize("name, airspeed, altitude, alpha, throttle", [("pc7", 200.0, 8000.0, 3.184, 0.8539)])
def test_light_propellered_turboprops_trim_in_flightsim_where_jsbsims_trim_fails(name, airspeed, altitude, alpha,
                                                                                 throttle):
    """pc7's and pogo's light propellers (Ixx 6 and 8 slug·ft²) make JSBSim's steady-state march (0.5 s steps)
    diverge, so its trim fails ("udot doesn't appear to be trimmable"); flightsim's steady state solves the
    balance and trims (values measured here, regression)."""
    from flightsim.physics import trim as trim_module

    point = trim_module.trim(load_aircraft(f"jsbsim:{name}"), airspeed, altitude, heading=0.0, atmosphere="isa")
    assert point.alpha == pytest.approx(alpha, abs=1e-3) and point.throttle == pytest.approx(throttle, abs=1e-4)
    with pytest.raises(flight_oracle.JSBSimTrimError):
        flight_oracle.jsbsim_trim(name, airspeed, altitude, advance=1.0)


def test_c130s_turbines_driving_propellers_cannot_hold_level_flight_as_in_jsbsim():
    """FGTurbine hands its thrust (lbf) to its propeller as power (ft·lbf/s): C130's four windmill at ~20 lbf, so
    neither JSBSim's trim nor flightsim's finds level flight."""
    from flightsim.physics import trim as trim_module

    with pytest.raises(trim_module.TrimError, match="no airspeed can be trimmed here"):
        trim_module.trim(load_aircraft("jsbsim:C130"), 400.0, 10000.0, heading=0.0, atmosphere="isa")
    with pytest.raises(flight_oracle.JSBSimTrimError):
        flight_oracle.jsbsim_trim("C130", 400.0, 10000.0)


def test_a_longitudinal_trim_is_jsbsims_and_leaves_the_roll_to_the_torque():
    """JSBSim's longitudinal trim (``do_trim(0)``, ``tLongitudinal``: c1722's ``do_simple_trim`` 0) balances α, the
    throttle and the pitch trim alone, the aileron and rudder where they were: flightsim's ``lateral=
    "longitudinal"`` finds its α, throttle and elevator, and the c172x's propeller torque is left to roll it (ṗ as
    JSBSim's), where the wings-level trim balances it with the aileron and a sideslip."""
    from flightsim.physics.trim import AirplaneModel, trim

    c172x = load_aircraft("jsbsim:c172x")
    model = AirplaneModel(c172x, "isa")
    point = trim(c172x, 168.78, 4000.0, heading=200.0, atmosphere="isa", model=model, lateral="longitudinal")
    level = trim(c172x, 168.78, 4000.0, heading=200.0, atmosphere="isa", model=model)
    d = model.derivative(point.state, np.array([point.throttle, point.elevator, point.aileron, point.rudder, 0.0]))
    fdm = flight_oracle.planet_fdm("c172x", planet="flat")
    for name, value in (("ic/lat-gc-deg", 0.0), ("ic/long-gc-deg", 0.0), ("ic/h-sl-ft", 4000.0),
                        ("ic/psi-true-deg", 200.0), ("ic/gamma-deg", 0.0), ("ic/vt-fps", 168.78),
                        ("propulsion/set-running", -1)):
        fdm[name] = value
    fdm.run_ic()
    flight_oracle.start_pistons(fdm, range(1))
    fdm.do_trim(0)
    assert abs(point.alpha - fdm["aero/alpha-deg"]) < 0.001
    assert abs(point.throttle - fdm["fcs/throttle-cmd-norm"]) < 0.0001
    assert abs(-point.elevator - fdm["fcs/pitch-trim-cmd-norm"]) < 0.0001
    assert point.aileron == point.rudder == point.beta == 0.0 == fdm["fcs/aileron-cmd-norm"]
    assert abs(d[10] - fdm["accelerations/pdot-rad_sec2"]) < 0.02 and d[10] > 0.5       # (flightsim's x: forward)
    assert abs(level.aileron) > 0.05 and abs(level.beta) > 0.1
    with pytest.raises(ValueError, match="longitudinal trim is straight flight"):
        trim(c172x, 168.78, 4000.0, bank=20.0, atmosphere="isa", model=model, lateral="longitudinal")


def test_a_trimmed_start_holds_and_the_controls_keep_flightsims_signs(b737):
    """From the air start (trimmed at the cruise speed) the airplane flies level; +aileron rolls right, +elevator
    pitches the nose up, +rudder yaws the nose right (flightsim's signs, through JSBSim's FCS)."""
    start = make_start(b737, "air")
    sim = Simulation(b737, "rk4", start=start)
    for _ in range(240):
        sim.step()
    # on its round planet (trimmed with the effective gravity there) it flies straight, and the Earth's curve
    # drops away below it by d²/2R (0.020 ft over these 2 s)
    d = float(np.hypot(*(sim.vector[:2] - start.state[:2])))
    assert abs(sim.vector[2] - start.state[2] - d * d / (2.0 * WGS84.a)) < 0.01
    for control, index, sign in (("aileron", 0, 1.0), ("elevator", 1, 1.0), ("rudder", 2, 1.0)):
        sim.reset()
        setattr(sim.controls, control, getattr(sim.controls, control) + 0.3)
        for _ in range(60):
            sim.step()
        angles = quat.aviation_angles(sim.vector[6:10]) - quat.aviation_angles(start.state[6:10])
        angles[2] = (angles[2] + 180.0) % 360.0 - 180.0
        assert sign * angles[index] > 0.05, (control, angles)


def test_a_step_begun_then_integrated_is_the_whole_step(b737):
    """``begin_step`` (the flight controls and engines at the state now, what a JSBSim script then reads) and
    ``step`` integrating only fly bit for bit as whole steps (on the 737's round planet, the stick moved
    between); the stick moved after ``begin_step`` reaches the step after."""
    start = make_start(b737, "air")
    whole, split = Simulation(b737, "rk4", start=start), Simulation(b737, "rk4", start=start)
    for k in range(60):
        for sim in (whole, split):
            sim.controls.elevator = 0.2 if k >= 20 else 0.0
        split.begin_step()
        split.begin_step()                      # (once begun, nothing more)
        whole.step()
        split.step()
    np.testing.assert_array_equal(split.vector, whole.vector)
    assert split.jsbsim_property("fcs/elevator-pos-rad") == whole.jsbsim_property("fcs/elevator-pos-rad")
    # begun before the stick moved, the split flight's controls reach the step after (as a script's do)
    split.controls.elevator = whole.controls.elevator = -0.3
    split.begin_step()
    split.controls.elevator = 0.5
    split.step()
    whole.step()
    np.testing.assert_array_equal(split.vector, whole.vector)
    assert split.controls.elevator == 0.5 and whole.controls.elevator == -0.3


def test_the_surfaces_follow_the_stick(b737):
    """``surface_deflections`` gives JSBSim's surface positions (deg): an elevator pulled moves it trailing edge up."""
    sim = Simulation(b737, start=make_start(b737, "air"))
    before = sim.surface_deflections()[0, 0]
    sim.controls.elevator = 1.0
    for _ in range(120):
        sim.step()
    assert sim.surface_deflections()[0, 0] < before - 1.0


def test_at_rest_on_its_gear(b737):
    """The runway start: at rest on its three wheels, and it stays there."""
    start = make_start(b737, "runway")
    sim = Simulation(b737, "rk4", start=start)
    for _ in range(600):
        sim.step()
    assert sim.status is None and sim.on_ground
    assert np.linalg.norm(sim.vector[3:6]) < 0.01
    assert abs(sim.vector[2] - start.state[2]) < 0.01


def test_batch_flies_one_airplane_as_the_simulation_does(b737):
    """The batch (per-airplane property arrays) flies a JSBSim aircraft as the single simulation does (on the flat
    planet here; tests/test_batch.py compares the two on the round one)."""
    start = make_start(b737, "air", planet="flat")
    batch = BatchSimulation(3, b737, "rk4", start=start, planet="flat")
    sim = Simulation(b737, "rk4", start=start, planet="flat")
    sim.set_jsbsim_property(FUEL_FREEZE, 1.0)   # (the batch keeps a JSBSim aircraft's mass as loaded: no burn)
    batch.controls[1, 2] = 0.2                  # airplane 1 rolls; 0 and 2 fly as the single one
    for _ in range(120):
        batch.step()
        sim.step()
    np.testing.assert_allclose(batch.states[0], sim.vector, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(batch.states[0], batch.states[2])
    assert quat.aviation_angles(batch.states[1, 6:10])[0] > 1.0


def test_cli_trim_json_matches_jsbsim():
    out = cli("trim", "--aircraft", "jsbsim:737", "--airspeed", "420", "--altitude", "10000", "--json")
    assert out.returncode == 0, out.stderr
    point = json.loads(out.stdout)
    theirs = flight_oracle.jsbsim_trim("737", 420.0, 10000.0)
    assert abs(point["alpha_deg"] - theirs.alpha) < 0.1
    assert abs(point["throttle"] - theirs.throttle) < 0.01


def test_cli_simulate_writes_a_trace(tmp_path):
    trace = tmp_path / "t.csv"
    out = cli("simulate", "--aircraft", "jsbsim:t6texan2", "--start", "air", "--duration", "5", "--integrator", "rk4",
              "--out", str(trace))
    assert out.returncode == 0, out.stderr
    rows = np.loadtxt(trace, delimiter=",", skiprows=1)
    # (the NAV columns are NaN where the radio receives nothing: no glide slope from a VOR)
    from flightsim.simulation.trace import NAV_AT

    assert rows.shape[0] == 601 and np.all(np.isfinite(rows[:, :NAV_AT])) and np.all(np.isfinite(rows[:, -3:]))


def test_unsupported_aircraft_are_one_line_and_exit_2():
    out = cli("simulate", "--aircraft", "jsbsim:ballx", "--duration", "1")
    assert out.returncode == 2
    lines = [line for line in out.stderr.strip().splitlines() if "compiling the physics" not in line]
    assert len(lines) == 1 and "ballx.xml" in lines[0] and "axis4" in lines[0]


def test_aircraft_lists_the_fleet():
    out = cli("aircraft")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "jsbsim:737" in text and "jsbsim:t6texan2" in text
    refused = text.split("not yet")[1]
    assert "jsbsim:ballx" in refused and "axis4" in refused
    loaded, shipped = map(int, re.search(r"(\d+) of (\d+) in the jsbsim package load", text).groups())
    rows = [line for line in text.split("not yet")[0].splitlines()
            if line.startswith("  jsbsim:") and "reads FlightGear" not in line]
    assert loaded == len(rows) and shipped == loaded + refused.count("jsbsim:")
    assert "jsbsim:f16 reads FlightGear's '/sim/model/pushback/kd'" in text      # (declared, held at 0: one line)


def test_gymnasium_flies_a_jsbsim_aircraft():
    """The Gymnasium tasks take ``aircraft="jsbsim:NAME"`` as any other: the c172p holds its heading hands off."""
    import gymnasium as gym

    import flightsim.gym  # noqa: F401 (registers the environments)

    env = gym.make("flightsim/HeadingHold-v0", aircraft="jsbsim:c172p")
    obs, _ = env.reset(seed=0)
    assert env.unwrapped.task.aircraft.jsbsim is not None
    for _ in range(20):
        obs, reward, terminated, truncated, _ = env.step(np.zeros(env.action_space.shape))
    assert np.all(np.isfinite(obs)) and np.isfinite(reward) and not terminated
    env.close()


def test_a_glider_trims_in_its_glide():
    """No engine: the trim solves the glide angle (SGS: a sink of a few ft/s at its glide speed), and the air
    start glides there."""
    sgs = load_aircraft("jsbsim:SGS")
    start = make_start(sgs, "air")
    assert start.trim.throttle == 0.0 and -5.0 < start.trim.climb_angle < -1.0
    sim = Simulation(sgs, "rk4", start=start)
    for _ in range(240):
        sim.step()
    sink = sim.vector[5]
    assert sink == pytest.approx(start.state[5], abs=0.01) and sink < -1.0

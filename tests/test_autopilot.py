"""The autopilot (``flightsim.simulation.autopilot``): its modes hold what is selected on the book's airplane, the
172R and a JSBSim aircraft; the coupled approach hands back at 200 ft on the centreline and the 3° path; a
pilot's input disconnects it; its controls move within their travel and rates; ``--autopilot`` on the command
line, with one-line errors, and the trace's ``rpm`` and ``ap_mode`` columns."""

import math
import re
import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM

from flightsim.commands.simulate import fly
from flightsim.physics.aero import isa_density
from flightsim.physics.constants import KNOT, RHO_SL
from flightsim.physics.modes import linearize
from flightsim.physics.trim import trim
from flightsim.physics.wind import WindSpec
from flightsim.simulation import autopilot as ap
from flightsim.simulation import trace
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import Simulation, resolve_aircraft
from flightsim.simulation.starts import AIM_DISTANCE, make_start


def _flight(name, spec, seconds, wind=None, start="air"):
    aircraft = resolve_aircraft(name)
    sim = Simulation(aircraft, start=make_start(aircraft, start, wind=wind), wind=wind)
    sim.autopilot.engage(sim, ap.parse_spec(spec))
    table = fly(sim, int(round(seconds / sim.dt)))
    return sim, {n: table[:, i] for i, n in enumerate(trace.COLUMNS)}


def _errors(col, since, heading, altitude, knots, sim):
    """Heading (deg), height (ft) and indicated airspeed (kt) errors from ``since`` (s) on: the indicated airspeed
    from the trace's true one and the air of ``sim`` (the 172R's standard atmosphere, the book's constant air)."""
    last = col["t"] >= since
    rho = sim.aircraft.air_density
    if sim.atmosphere == "isa":
        rho = np.array([isa_density(rho, z) for z in col["z"][last]])
    ias = col["airspeed"][last] * np.sqrt(rho / RHO_SL)
    return ((col["heading"][last] - heading + 180.0) % 360.0 - 180.0, col["z"][last] - altitude, ias / KNOT - knots)


@pytest.mark.parametrize("text, message", [
    ("alt=-5", "alt=-5: altitude must be 0 to 60000 ft"),
    ("hdg=400", "hdg=400: heading must be 0 to 360°"),
    ("vs=9000", "vs=9000: vertical speed must be -6000 to 6000 ft/min"),
    ("ias=5", "ias=5: indicated airspeed must be 20 to 1000 kt"),
    ("app=27", "app=27: the approach is app=36 (the home runway) or app=ID/NN, an ILS runway end: "),
    ("hdg=abc", "hdg=abc: heading must be 0 to 360°"),
    ("speed=100", "'speed=100': expected key=value with a key of hdg, alt, vs, ias, app, nav"),
    ("hdg=1,hdg=2", "hdg given twice"),
    ("app=36,hdg=90", "app=36 flies its own track and path; leave out hdg, alt, vs and nav"),
    ("", "nothing selected"),
])
def test_a_bad_selection_names_the_key_and_what_it_accepts(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ap.parse_spec(text)


def test_a_selection_reads_every_key():
    assert ap.parse_spec(" hdg=270, alt=2500,vs=-500,ias=100 ") == ap.Selection(270.0, 2500.0, -500.0, 100.0, False)
    assert ap.parse_spec("app=36,ias=70") == ap.Selection(None, None, None, 70.0, True)


def test_the_gains_are_the_aircrafts_own_control_power_and_damping():
    for name in ("bourg", "c172"):
        aircraft = resolve_aircraft(name)
        gains = ap.Gains.at(aircraft, 170.0, 2000.0)
        lin = linearize(trim(aircraft, 170.0, 2000.0), aircraft)
        assert gains.roll_power == pytest.approx(lin.B[3, 2]) and gains.roll_power > 0      # aileron +1 rolls right
        assert gains.pitch_power == pytest.approx(lin.B[4, 1]) and gains.pitch_power > 0    # elevator +1 nose up
        assert gains.yaw_power == pytest.approx(lin.B[5, 3]) and gains.yaw_power > 0
        assert gains.thrust_power == pytest.approx(lin.B[0, 0]) and gains.thrust_power > 0
        assert gains.roll_damping == pytest.approx(lin.A[3, 3]) and gains.roll_damping < 0
    assert ap.Gains.at(resolve_aircraft("bourg"), 170.0, 2000.0) != ap.Gains.at(resolve_aircraft("c172"), 170.0, 2000.0)


@pytest.mark.parametrize("name", ["bourg", "c172"])
def test_heading_altitude_and_airspeed_are_held_in_calm_air(name):
    sim, col = _flight(name, "hdg=270,alt=2500,ias=100", 240.0)
    assert sim.autopilot.engaged and sim.autopilot.modes == "HDG ALT SPD"
    hdg, alt, ias = _errors(col, 200.0, 270.0, 2500.0, 100.0, sim)
    assert np.max(np.abs(hdg)) < 1.0 and np.max(np.abs(alt)) < 20.0 and np.max(np.abs(ias)) < 2.0
    assert col["z"][0] < 1600.0 and abs(col["heading"][0] - 360.0) < 1.0 or abs(col["heading"][0]) < 1.0
    assert set(np.unique(col["ap_mode"])) == {ap.mode_code("HDG", "ALT", "SPD")} == {112}
    # the controls as a pilot moves them: within their travel, at most their rate a step
    dt = col["t"][1] - col["t"][0]
    for name_, rate in (("elevator", ap.SURFACE_RATE), ("aileron", ap.SURFACE_RATE), ("rudder", ap.SURFACE_RATE),
                        ("throttle", ap.THROTTLE_RATE)):
        assert np.max(np.abs(np.diff(col[name_]))) <= rate * dt + 1e-9, name_
    assert np.max(np.abs(np.diff(col["aileron"]))) > 0.5 * ap.SURFACE_RATE * dt      # and they did move


def test_moderate_turbulence_is_flown_within_five_degrees_a_hundred_feet_and_five_knots():
    wind = WindSpec(from_deg=270.0, speed=15.0 * KNOT, turbulence="moderate", seed=3)
    sim, col = _flight("c172", "hdg=270,alt=2500,ias=100", 300.0, wind=wind)
    hdg, alt, ias = _errors(col, 200.0, 270.0, 2500.0, 100.0, sim)
    rms = [float(np.sqrt(np.mean(e * e))) for e in (hdg, alt, ias)]
    assert rms[0] < 5.0 and rms[1] < 100.0 and rms[2] < 5.0, rms
    assert np.max(np.abs(alt)) < 150.0 and sim.autopilot.engaged


@pytest.mark.parametrize("crosswind", [0.0, 15.0])
def test_the_coupled_approach_hands_back_at_200_ft_on_the_centreline_and_the_path(crosswind):
    wind = WindSpec(from_deg=90.0, speed=crosswind * KNOT) if crosswind else None
    sim, col = _flight("c172", "app=36", 60.0, wind=wind, start="approach")
    assert not sim.autopilot.engaged and sim.autopilot.chime
    assert sim.autopilot.message == "approach: 200 ft above the runway - your airplane"
    handed = np.flatnonzero(col["ap_mode"] == 0)[0]
    assert np.all(col["ap_mode"][:handed] == ap.mode_code("LOC", "GS", "SPD"))
    along, offset = RUNWAY.local(col["x"][handed], col["y"][handed])
    wheels = col["z"][handed] - ap.wheel_height(sim.aircraft)
    path = math.tan(math.radians(ap.GLIDE_SLOPE)) * (AIM_DISTANCE - along)
    assert abs(wheels - ap.APPROACH_MINIMUM) < 2.0
    assert abs(offset) < 20.0 and abs(wheels - path) < 15.0
    if crosswind:
        assert col["heading"][handed - 1] > 5.0          # crabbed into the wind from the right


def test_a_pilots_input_disconnects_it_naming_the_control():
    aircraft = resolve_aircraft("c172")
    sim = Simulation(aircraft, start=make_start(aircraft, "air"))
    sim.autopilot.engage(sim, ap.parse_spec("hdg=90"))
    for _ in range(10):
        sim.step()
    sim.controls.aileron += 0.05                      # within the threshold: still flying
    sim.step()
    assert sim.autopilot.engaged
    sim.controls.elevator -= 0.5
    sim.step()
    assert not sim.autopilot.engaged and sim.autopilot.code == 0
    assert sim.autopilot.message == "autopilot disconnected: pilot input on the elevator"
    with pytest.raises(ValueError, match="on the ground"):
        ground = Simulation(aircraft, start=make_start(aircraft, "runway"))
        ground.autopilot.engage(ground, ap.parse_spec("hdg=90"))


def test_a_jsbsim_aircraft_is_flown_by_its_own_gains():
    sim, col = _flight("jsbsim:c172p", "hdg=200,alt=3500,ias=95", 180.0)
    last = col["t"] >= 150.0
    assert np.max(np.abs((col["heading"][last] - 200.0 + 180.0) % 360.0 - 180.0)) < 1.0
    assert np.max(np.abs(col["z"][last] - 3500.0)) < 20.0
    assert sim.autopilot.gains.roll_power > 0 and np.all(col["rpm"] > 1000.0)     # its engine's rpm traced


def test_the_command_line_flies_it_and_traces_rpm_and_ap_mode(tmp_path):
    out = tmp_path / "t.csv"
    done = subprocess.run([FLIGHTSIM, "simulate", "--aircraft", "c172", "--start", "air", "--duration", "20",
                           "--autopilot", "hdg=90,alt=2000", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "autopilot       HDG ALT SPD engaged: heading 90°, altitude 2000 ft" in done.stdout
    table = trace.read_csv(out)
    assert list(trace.COLUMNS[-14:-12]) == ["rpm", "ap_mode"]
    col = {n: table[:, i] for i, n in enumerate(trace.COLUMNS)}
    assert np.all(col["ap_mode"] == 112) and np.all(col["rpm"] > 1500.0)
    bad = subprocess.run([FLIGHTSIM, "simulate", "--autopilot", "alt=99999"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "flightsim: error: --autopilot: alt=99999: altitude must be 0 to 60000 ft\n"


def test_each_airplane_of_a_batch_flies_the_single_simulations_autopilot():
    aircraft = resolve_aircraft("c172")
    start = make_start(aircraft, "air")
    specs = ("hdg=270,alt=2500,ias=100", "hdg=90", "vs=-500,ias=90")
    batch = BatchSimulation(len(specs), aircraft, "rk4", start=start)
    for k, spec in enumerate(specs):
        batch.autopilot.engage(ap.parse_spec(spec), [k])
    batch.step(20 * 120)
    for k, spec in enumerate(specs):
        sim = Simulation(aircraft, "rk4", start=start)
        sim.autopilot.engage(sim, ap.parse_spec(spec))
        for _ in range(20 * 120):
            sim.step()
        np.testing.assert_allclose(batch.states[k], sim.vector, rtol=1e-10, atol=1e-8)
        assert batch.autopilot.codes[k] == sim.autopilot.code
    assert list(batch.autopilot.codes) == [112, 112, 121]
    assert np.ptp(batch.states[:, 1]) > 1000.0                      # they flew different flights


def test_the_batch_disconnects_each_airplane_on_its_own():
    aircraft = resolve_aircraft("c172")
    batch = BatchSimulation(3, aircraft, start=make_start(aircraft, "air"))
    gains = batch.autopilot.engage(ap.parse_spec("hdg=90"))
    assert gains == ap.Gains.at(aircraft, float(np.linalg.norm(batch.states[0, 3:6])), float(batch.states[0, 2]))
    batch.step(10)
    controls = batch.controls[1].copy()
    controls[0] = 0.0                                                # a hand on airplane 1's throttle
    batch.set_controls(controls[None], [1])
    batch.step(1)
    assert list(batch.autopilot.engaged) == [True, False, True]
    assert batch.autopilot.loops.messages[1] == "autopilot disconnected: pilot input on the throttle"
    batch.reset([2])                                                 # a new start forgets it, saying nothing
    assert list(batch.autopilot.engaged) == [True, False, False] and batch.autopilot.loops.messages[2] == ""
    batch.states[0, 3:6] = 0.0                                       # stalled still: no airspeed
    batch.step(1)
    assert not batch.autopilot.engaged[0]
    assert batch.autopilot.loops.messages[0] == "autopilot disconnected: no airspeed"
    runway = BatchSimulation(1, aircraft, start=make_start(aircraft, "runway"))
    with pytest.raises(ValueError, match="airplane 0 is on the ground"):
        runway.autopilot.engage(ap.parse_spec("hdg=90"))

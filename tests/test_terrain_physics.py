"""The physics on the terrain: the gear on a slope, a hillside's crash, home as before, the batch as the flight."""

import math
import subprocess
import sys

import numpy as np
import pytest

from flightsim.math import quat
from flightsim.physics.terrain import Terrain
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import FlightState, Simulation, resolve_aircraft
from flightsim.simulation.starts import make_start

SLOPE_DEG = 4.0
C172 = resolve_aircraft("c172")


def ramp(x_base, y_base, grade, length=8000.0, wall=None):
    """A synthetic terrain around (x_base, y_base), 100 ft cells: the height ``grade × (x − x_base)`` (rising to
    the North); with ``wall`` = (x_foot, top), flat at 0 up to ``x_foot`` then rising at ``grade`` to ``top``."""
    spacing = 100.0
    n = int(length / spacing) + 1
    xs = x_base - length / 2 + spacing * np.arange(n)
    if wall is None:
        h = grade * (xs - x_base)
    else:
        h = np.clip(grade * (xs - wall[0]), 0.0, wall[1])
    heights = np.repeat(h[:, None], n, axis=1)
    return Terrain(heights=heights, landuse=np.ones(heights.shape, np.uint8), x0=xs[0], y0=y_base - length / 2,
                   spacing=spacing)


@pytest.fixture(scope="module")
def resting():
    """The 172 at rest on the flat runway (its runway start settled): its state."""
    sim = Simulation(C172, start=make_start(C172, "runway"))
    sim.controls = Controls(throttle=0.0, engine=0.0, parking_brake=1.0)
    for _ in range(240):
        sim.step()
    return sim.vector


def on_slope(y, degrees):
    """The resting state ``y`` tilted nose up by ``degrees`` about its own ground point (the slope's line)."""
    half = -0.5 * math.radians(degrees)
    qs = np.array([math.cos(half), 0.0, math.sin(half), 0.0])     # about earth y (West): North tilted up
    out = y.copy()
    rel = np.array([0.0, 0.0, y[2]])
    out[0:3] = np.array([y[0], y[1], 0.0]) + quat.rotate(qs, rel)
    out[6:10] = quat.mul(qs, y[6:10])
    out[3:6] = 0.0
    out[10:13] = 0.0
    return out


@pytest.mark.parametrize("parking", [0.0, 1.0])
def test_the_172_on_a_slope_rolls_downhill_unless_braked(resting, parking):
    terrain = ramp(resting[0], resting[1], math.tan(math.radians(SLOPE_DEG)))
    sim = Simulation(C172, terrain=terrain, start=make_start(C172, "runway"))
    y = on_slope(resting, SLOPE_DEG)
    sim.reset(FlightState.from_vector(0.0, y))
    sim.controls = Controls(throttle=0.0, engine=0.0, parking_brake=parking)
    for _ in range(600):                                             # 5 s
        sim.step()
    assert sim.status is None
    moved = sim.vector[0] - y[0]
    if parking:
        assert abs(moved) < 0.5
    else:
        assert moved < -5.0                                          # backwards: down the slope, to the South
    # standing on it: the CG at its height above the slope, not sunk into it nor above
    assert abs(sim.vector[2] - terrain.height(sim.vector[0], sim.vector[1]) - y[2] + terrain.height(y[0], y[1])) < 1.0


def test_flying_level_into_a_hillside_crashes_into_terrain():
    air = make_start(C172, "air")                     # trimmed level at 1,500 ft, heading North
    x0, y0, z0 = air.state[0:3]
    grade = math.tan(math.radians(25.0))
    foot = x0 + 400.0 - z0 / grade                    # the slope 400 ft ahead at the airplane's height
    terrain = ramp(x0, y0, grade, length=20000.0, wall=(foot, z0 + 2000.0))
    assert 0.0 < z0 - terrain.height(x0, y0) < 400.0  # below its top, a few hundred ft above the slope under it
    sim = Simulation(C172, terrain=terrain, start=air)
    for _ in range(120 * 10):
        if not sim.step():
            break
    assert sim.status is not None and "crashed into terrain at" in sim.status, sim.status
    assert " ft)" in sim.status
    x, y, z = sim.vector[0:3]
    assert x0 < x < x0 + 600.0
    assert z >= terrain.height(x, y) - 10.0           # never through it


def run_trace(tmp_path, terrain):
    """``simulate --start runway`` at home for 5 s, the brakes off and full throttle from 1 s (a take-off roll)."""
    controls = tmp_path / "roll.csv"
    controls.write_text("t,throttle,parking_brake\n0,0,1\n1,1,0\n")
    out = tmp_path / f"{terrain}.csv"
    subprocess.run([sys.executable, "-m", "flightsim", "simulate", "--aircraft", "c172", "--start", "runway",
                    "--duration", "5", "--controls", str(controls), "--terrain", terrain, "--out", str(out)],
                   check=True, capture_output=True, text=True)
    return np.genfromtxt(out, delimiter=",", names=True)


def test_at_home_the_flight_is_as_on_the_plane(tmp_path):
    world, off = run_trace(tmp_path, "world"), run_trace(tmp_path, "off")
    assert len(world) == len(off) > 100
    assert world["x"][-1] - world["x"][0] > 20.0                  # it rolled
    for name in ("x", "y", "z"):
        assert np.max(np.abs(world[name] - off[name])) <= 1e-6


def test_a_bad_terrain_option_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "flightsim", "simulate", "--terrain", "moon"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "--terrain" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    with pytest.raises(ValueError, match="^terrain: "):
        Simulation(C172, terrain="moon")


def test_the_batch_and_the_flight_agree_on_terrain(resting):
    terrain = ramp(resting[0], resting[1], math.tan(math.radians(SLOPE_DEG)))
    y = on_slope(resting, SLOPE_DEG)
    sim = Simulation(C172, terrain=terrain, start=make_start(C172, "runway"))
    sim.reset(FlightState.from_vector(0.0, y))
    controls = Controls(throttle=0.0, engine=0.0)
    sim.controls = controls
    batch = BatchSimulation(2, C172, terrain=terrain, start=make_start(C172, "runway"))
    batch.set_states([0, 1], np.array([y, y]))
    row = np.array([getattr(controls, name) for name in batch_control_names()])
    batch.set_controls(np.array([row, row]))
    for _ in range(240):
        sim.step()
    batch.step(240)
    for a in range(2):
        np.testing.assert_allclose(batch.states[a], sim.vector, rtol=1e-12, atol=1e-9)
    assert sim.vector[0] < y[0] - 0.5


def batch_control_names():
    from flightsim.simulation.controls import CONTROL_NAMES

    return CONTROL_NAMES


def test_flying_onto_a_gentle_slope_reports_the_sink_rate_into_it():
    # level flight onto a 17° rise: the wheels touch first, falling at nothing vertically but at ~40 ft/s into the
    # slope: the message gives that speed (the one the touchdown check compares with crash_sink_rate)
    air = make_start(C172, "air")
    x0, y0, z0 = air.state[0:3]
    grade = math.tan(math.radians(17.0))
    foot = x0 + 300.0 - (z0 - 3.5) / grade          # the wheels (about 3.5 ft under the CG) meet the slope ahead
    terrain = ramp(x0, y0, grade, length=20000.0, wall=(foot, z0 + 2000.0))
    sim = Simulation(C172, terrain=terrain, start=air)
    v = float(np.linalg.norm(air.state[3:6]))
    for _ in range(120 * 5):
        if not sim.step():
            break
    assert sim.status is not None and "touched down with sink rate" in sim.status, sim.status
    sink = float(sim.status.split("sink rate ")[1].split(" ft/s")[0])
    into = v * math.sin(math.radians(17.0))          # level flight's speed along the slope's normal
    assert sink == pytest.approx(into, rel=0.25)
    assert sink > C172.crash_sink_rate

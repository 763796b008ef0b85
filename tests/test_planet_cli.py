"""``--planet``, ``--lat``, ``--lon`` and the traces' ``lat, lon, alt_msl``, run as a user runs them."""

import csv
import inspect
import json
import math
import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM, one_line_error  # (FLIGHTSIM: found, or the session stopped, at its start)

from flightsim.commands.options import PLANETS
from flightsim.physics import planet as planets
from flightsim.simulation import trace
from flightsim.simulation.replay import Replay


def run(*args, cwd=None):
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def columns(path):
    data = trace.read_csv(path)
    return {n: data[:, i] for i, n in enumerate(trace.COLUMNS)}


def test_the_parser_names_the_planets_the_physics_knows():
    assert PLANETS == planets.PLANET_CHOICES


@pytest.fixture(scope="module")
def flights(tmp_path_factory):
    """A 172 flying North for 5 s at 45° N, 10° E, on the round planet and on the flat one."""
    folder = tmp_path_factory.mktemp("planet")
    out = {}
    for name in ("round", "flat"):
        path = folder / f"{name}.csv"
        r = run("simulate", "--aircraft", "c172", "--planet", name, "--lat", "45", "--lon", "10", "--start", "air",
                "--duration", "5", "--integrator", "rk4", "--out", str(path))
        assert r.returncode == 0, r.stderr
        out[name] = (path, r.stdout)
    return out


def test_a_round_trace_ends_with_where_the_airplane_is(flights):
    path, stdout = flights["round"]
    header = next(csv.reader(open(path, newline="")))
    assert header[-9:-6] == ["lat", "lon", "alt_msl"] and tuple(header) == trace.COLUMNS
    col = columns(path)
    assert np.all(np.abs(col["lat"] - 45.0) < 0.02) and np.all(np.abs(col["lon"] - 10.0) < 1e-4)
    # the start, South of the origin: its distance over the meridian's radius of curvature there (but for the
    # view's height being along the origin's up axis: h·d/R, 0.36 ft = 1e-6° at 1500 ft and 5000 ft)
    assert col["lat"][0] == pytest.approx(planets.flat_geodetic(45.0, 10.0, col["x"][0], col["y"][0])[0], abs=2e-6)
    assert col["lat"][0] < col["lat"][-1] < 45.0
    np.testing.assert_allclose(col["alt_msl"], col["z"], atol=1e-6)      # z is the height above the ellipsoid
    assert "WGS-84, round and rotating (origin 45.00000° N  10.00000° E)" in stdout


def test_a_172_flying_north_is_pushed_east_by_the_coriolis_acceleration(flights):
    """2 Ω sin(lat) v t²/2 East (y is West): about 0.23 ft in 5 s at 180 ft/s and 45° N; none on the flat planet."""
    r, f = columns(flights["round"][0]), columns(flights["flat"][0])
    t, v = r["t"][-1], math.hypot(r["vx"][0], r["vy"][0])
    expected = 2.0 * planets.WGS84.omega * math.sin(math.radians(45.0)) * v * t * t / 2.0
    assert 0.15 < expected < 0.3
    east = -(r["y"][-1] - f["y"][-1])
    assert east == pytest.approx(expected, rel=0.2)
    assert abs(f["y"][-1]) < 1e-9
    # and the flat flight, laid on WGS-84 at its origin, starts where the round one does
    assert f["lat"][0] == pytest.approx(r["lat"][0], abs=2e-6) and f["lon"][0] == pytest.approx(10.0, abs=1e-12)


def test_a_flat_trace_is_the_earth_frame_laid_at_the_origin(tmp_path):
    out = tmp_path / "flat.csv"
    r = run("simulate", "--start", "air", "--steps", "12", "--lat", "-33.5", "--lon", "190", "--out", str(out))
    assert r.returncode == 0, r.stderr
    col = columns(out)
    for k in (0, -1):
        lat, lon = planets.flat_geodetic(-33.5, -170.0, col["x"][k], col["y"][k])
        assert col["lat"][k] == pytest.approx(lat, abs=1e-8) and col["lon"][k] == pytest.approx(lon, abs=1e-8)
    assert np.array_equal(col["alt_msl"], col["z"])
    assert "flat (the earth frame's origin at 33.50000° S  170.00000° W)" in r.stdout


def test_old_traces_without_the_place_still_read_and_replay(tmp_path):
    out = tmp_path / "new.csv"
    assert run("simulate", "--start", "air", "--steps", "24", "--every", "6", "--lat", "10",
               "--out", str(out)).returncode == 0
    rows = list(csv.reader(open(out, newline="")))
    old = tmp_path / "old.csv"
    with open(old, "w", newline="") as f:
        csv.writer(f).writerows([r[:-9] for r in rows])      # (without the place and the NAV columns)
    new, before = trace.read_csv(out), trace.read_csv(old)
    at = trace.GEODETIC_AT
    np.testing.assert_array_equal(new[:, :at], before[:, :at])
    # an old trace says nowhere: the earth frame laid at 0°, 0°
    assert before[0, at] == pytest.approx(planets.flat_geodetic(0.0, 0.0, new[0, 1], new[0, 2])[0], abs=1e-12)
    assert new[0, at] == pytest.approx(planets.flat_geodetic(10.0, 0.0, new[0, 1], new[0, 2])[0], abs=1e-8)
    # both replay, the new one at its recorded place
    replay = Replay(out)
    replay.seek(0.5 * (replay.start + replay.end))
    lat, lon, alt = replay.geodetic
    t = replay.telemetry()
    assert (t.lat, t.lon, t.alt_msl) == (lat, lon, alt) and 9.9 < lat < 10.1 and lon == pytest.approx(0.0)
    assert Replay(old).telemetry().lat == pytest.approx(before[0, at], abs=1e-9)


@pytest.mark.parametrize("args,expected", [
    (("simulate", "--lat", "91"), "flightsim: error: --lat: must be within ±90°, got 91.0"),
    (("simulate", "--lat", "north"), "flightsim: error: --lat: must be a number, got 'north'"),
    (("simulate", "--lon", "inf"), "flightsim: error: --lon: must be a finite number of degrees, got inf"),
    (("simulate", "--planet", "mars"), "flightsim: error: --planet: invalid choice: 'mars' (choose from 'flat', "
                                       "'round')"),
    (("trim", "--airspeed", "160", "--lat", "-90.5"), "flightsim: error: --lat: must be within ±90°, got -90.5"),
    (("modes", "--airspeed", "160", "--planet", "mars"), "flightsim: error: --planet: invalid choice: 'mars' "
                                                        "(choose from 'flat', 'round')"),
    (("fly", "--lat", "91"), "flightsim: error: --lat: must be within ±90°, got 91.0"),
])
def test_bad_planet_options_get_one_line(args, expected):
    assert one_line_error(run(*args)) == expected


def test_trim_and_modes_say_the_planet_and_its_gravity():
    r = run("trim", "--airspeed", "160", "--altitude", "100", "--planet", "round", "--lat", "45", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["planet"] == "WGS-84" and d["lat_deg"] == 45.0 and d["lon_deg"] == 0.0
    # the effective gravity (gravitation and the centrifugal term) at 45°, the trim's: on the ellipsoid WGS-84's
    # normal gravity there is 9.80620 m/s² (J2 only: within 1e-5), 100 ft up less by the free-air gradient 2 h / a
    assert d["planet_gravity"] == pytest.approx(9.80620 / 0.3048 * (1.0 - 200.0 / 20925646.0), rel=2e-5)
    plain = run("trim", "--airspeed", "160")
    assert plain.returncode == 0 and "planet" not in plain.stdout          # the flat output as before
    modes = run("modes", "--airspeed", "160", "--altitude", "100", "--planet", "round")
    assert modes.returncode == 0, modes.stderr
    assert "planet: WGS-84, round and rotating (origin 0.00000° N  0.00000° E); effective gravity there " \
           "32.0872 ft/s²" in modes.stdout.splitlines()[0]


@pytest.mark.skipif("planet" not in inspect.signature(
    __import__("flightsim.simulation.batch", fromlist=["BatchSimulation"]).BatchSimulation).parameters,
    reason="the batched simulation flies no planet yet")
def test_gym_environments_take_the_planet():
    gymnasium = pytest.importorskip("gymnasium")
    import flightsim.gym  # noqa: F401 (registers the environments)

    env = gymnasium.make("flightsim/HeadingHold-v0", planet="round", lat=45.0, lon=10.0)
    env.reset(seed=1)
    batch = env.unwrapped.task.batch
    assert batch.planet.round and (batch.lat, batch.lon) == (45.0, 10.0)
    env.step(env.action_space.sample())
    env.close()


@pytest.mark.parametrize("planet", ["round", "flat"])
def test_the_record_key_writes_where_the_airplane_was(tmp_path, planet):
    from flightsim.app.recorder import Recorder
    from flightsim.simulation.flight import Simulation, resolve_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft("c172")
    sim = Simulation(aircraft, "rk4", start=make_start(aircraft, "air"), planet=planet, lat=-45.0, lon=179.99)
    recorder = Recorder(tmp_path)
    recorder.start(sim)
    for _ in range(240):
        sim.step()
    col = columns(recorder.stop())
    # (a trace's cells have 10 significant digits: 1e-7° at 180°, 1 cm)
    assert col["lat"][-1] == pytest.approx(sim.geodetic[0], abs=1e-7)
    assert col["lon"][-1] == pytest.approx(sim.geodetic[1], abs=1e-7)
    assert np.all(np.abs(col["lat"] + 45.0) < 0.02) and np.all(np.abs(col["lon"] - 179.99) < 1e-3)
    np.testing.assert_array_equal(col["alt_msl"], col["z"])

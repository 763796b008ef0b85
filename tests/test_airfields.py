"""The world's airfields as data: the files, the one lat/lon conversion, ``flightsim airfields``, the starts at
any runway end (``--airfield``/``--runway``), the scene's runways, and each bad input as one line (exit 2)."""

import csv
import json
import math
import os
import shutil
import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM, one_line_error

from flightsim.simulation import world
from flightsim.simulation.airfield import RUNWAY

#: The contract's table: id -> (centre x, y ft, elevation ft, ends, length, width, heading of the first end,
#: surface, {end: (ILS MHz, glide slope deg)})
TABLE = {
    "KHOM": ((0, 0), 0, ("36", "18"), 3000, 75, 0, "asphalt", {"36": (109.90, 3.0)}),
    "KCST": ((40000, 60000), 12, ("09", "27"), 5000, 100, 90, "asphalt", {"27": (110.30, 3.0), "09": (111.10, 3.0)}),
    "KVAL": ((-50000, -80000), 1250, ("27", "09"), 4500, 100, 270, "asphalt", {"27": (108.70, 3.0)}),
    "KLAK": ((110000, -60000), 820, ("32", "14"), 4000, 75, 320, "asphalt", {"32": (109.50, 3.0)}),
    "2GR": ((70000, -20000), 400, ("04", "22"), 1800, 60, 40, "grass", {}),
    "KMTN": ((-100000, -185000), 5800, ("17", "35"), 3200, 60, 170, "asphalt", {}),
}
SHIPPED = world.airfield_files.shipped


def run(*args, env=None):
    full = dict(os.environ)
    full.pop(world.ENV_FOLDER, None)
    full.update(env or {})
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, timeout=300, env=full)


# ---------------------------------------------------------------------------------------------- the files

def test_the_shipped_files_hold_the_six_airfields_of_the_table_at_their_places():
    fields = world.load_airfields(folder=None)
    assert set(fields) == set(TABLE)
    for ident, (centre, elevation, ends, length, width, heading, surface, ils) in TABLE.items():
        f = fields[ident]
        (r,) = f.runways
        assert (r.ends, r.length_ft, r.width_ft, r.heading_deg, r.surface) == (ends, length, width, heading, surface)
        assert f.elevation_ft == elevation
        assert r.center == pytest.approx(centre, abs=1e-6)
        assert f.position == pytest.approx(centre, abs=1e-5)
        assert {i.end: (i.frequency_mhz, i.glide_slope_deg) for i in r.ils} == ils
        # thresholds: the centre -/+ half the length along the first end's heading
        h = math.radians(heading)
        along = np.array([math.cos(h), -math.sin(h)])
        assert r.thresholds[0] == pytest.approx(np.array(centre) - 0.5 * length * along, abs=1e-5)
        assert r.thresholds[1] == pytest.approx(np.array(centre) + 0.5 * length * along, abs=1e-5)


def test_the_vor_stations_are_the_airfields_and_navaids_toml():
    stations = {v.id: v for v in world.vors()}
    assert set(stations) == {"HOM", "VAL", "PKS"}
    assert (stations["HOM"].frequency_mhz, stations["HOM"].airfield) == (113.90, "KHOM")
    assert (stations["HOM"].x, stations["HOM"].y) == pytest.approx((0, 6000), abs=1e-5)
    assert (stations["VAL"].x, stations["VAL"].y) == pytest.approx((-50000, -86000), abs=1e-5)
    assert stations["PKS"].airfield is None and stations["PKS"].source.endswith("navaids.toml")
    assert (stations["PKS"].x, stations["PKS"].y) == pytest.approx((-20000, -140000), abs=1e-5)
    assert all(v.dme for v in stations.values())


def test_the_conversion_goes_there_and_back_over_the_region():
    rng = np.random.default_rng(3)
    for x, y in rng.uniform(-246000.0, 246000.0, (40, 2)):
        lat, lon = world.lat_lon(x, y)
        assert world.local_xy(lat, lon) == pytest.approx((x, y), abs=1e-6)
    for lat, lon in rng.uniform(-0.6, 0.6, (40, 2)):
        assert world.lat_lon(*world.local_xy(lat, lon)) == pytest.approx((lat, lon), abs=1e-12)
    # North is +x, West is +y; the origin is 0° N 0° E; a degree of latitude at the equator is 362,776 ft
    assert world.local_xy(0.0, 0.0) == (0.0, 0.0)
    x, y = world.local_xy(1.0, 0.0)
    assert x == pytest.approx(362776, rel=1e-4) and y == 0.0
    x, y = world.local_xy(0.0, -1.0)
    assert x == 0.0 and y == pytest.approx(365221, rel=1e-4)


def test_the_home_fields_runway_36_is_todays_runway_exactly():
    end = world.runway_end("KHOM", "36")
    assert end.runway == RUNWAY
    assert end.threshold == tuple(RUNWAY.threshold())
    assert (end.heading_deg, end.elevation_ft, end.ils) == (0.0, 0.0, world.Ils("36", 109.90, 3.0))
    other = world.runway_end("KHOM", "18")
    assert (other.heading_deg, other.runway.numbers, other.ils) == (180.0, ("18", "36"), None)
    assert other.threshold == pytest.approx((1500.0, 0.0))


def test_runway_end_gives_the_landing_heading_threshold_elevation_and_ils():
    end = world.runway_end("KCST", "27")
    assert end.heading_deg == 270.0 and end.elevation_ft == 12.0
    assert end.threshold == pytest.approx((40000.0, 57500.0), abs=1e-6)     # 27 lands West (+y) from the East end
    assert end.ils == world.Ils("27", 110.30, 3.0)
    assert world.runway_end("KMTN", "35").ils is None
    assert world.runway_end("KVAL").end == "27"                               # default: the first end


# ---------------------------------------------------------------------------------------------- the command

def test_airfields_json_has_the_issues_keys():
    r = run("airfields", "--json")
    assert r.returncode == 0, r.stderr
    fields = json.loads(r.stdout)
    assert [f["id"] for f in fields] == list(world.load_airfields())
    for f in fields:
        assert list(f) == ["id", "name", "elevation_ft", "lat", "lon", "runways"]
        for rw in f["runways"]:
            assert list(rw) == ["id", "heading_deg", "length_ft", "width_ft", "surface", "threshold_lat",
                                "threshold_lon", "ils"]
            assert rw["ils"] is None or all(set(i) == {"end", "frequency_mhz", "glide_slope_deg"} for i in rw["ils"])
    kcst = next(f for f in fields if f["id"] == "KCST")
    assert kcst["runways"][0]["id"] == "09/27"
    assert {i["end"]: i["frequency_mhz"] for i in kcst["runways"][0]["ils"]} == {"27": 110.30, "09": 111.10}
    assert next(f for f in fields if f["id"] == "2GR")["runways"][0]["ils"] is None
    table = run("airfields")
    assert table.returncode == 0 and "KMTN  Mountain Strip" in table.stdout and "PKS Peaks 114.70" in table.stdout


def test_a_users_folder_adds_airfields(tmp_path):
    text = (SHIPPED / "KCST.toml").read_text().replace('id = "KCST"', 'id = "KNEW"')
    (tmp_path / "new.toml").write_text(text)
    r = run("airfields", "--json", env={world.ENV_FOLDER: str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert "KNEW" in [f["id"] for f in json.loads(r.stdout)]
    assert "KNEW" in world.load_airfields(tmp_path)


# ---------------------------------------------------------------------------------------------- bad input

def _bad(tmp_path, name, old, new):
    text = (SHIPPED / name).read_text()
    assert old in text
    (tmp_path / name).write_text(text.replace(old, new, 1).replace('id = "', 'id = "X', 1))
    return tmp_path / name


@pytest.mark.parametrize("name, old, new, expected", [
    ("KCST.toml", 'ends = ["09", "27"]', 'ends = ["09"]', 'runway[0].ends: must name both ends'),
    ("KCST.toml", "heading_deg = 90.0", "heading_deg = 93.0",
     "runway[0].heading_deg: 93 disagrees with the thresholds' bearing 90.0° by 3.0° (at most 2°)"),
    ("KCST.toml", 'end = "27"', 'end = "18"',
     "runway[0].ils[0].end: unknown runway end '18' (valid: 09, 27)"),
    ("KCST.toml", "width_ft = 100.0", "widht_ft = 100.0",
     "runway[0].widht_ft: unknown key; did you mean 'width_ft'?"),
    ("KCST.toml", "elevation_ft = 12.0", "elevation_ft = 90000.0",
     "elevation_ft: must be <= 30000, got 90000.0 (accepted range -1500..30000 ft)"),
    ("KCST.toml", "length_ft = 5000.0", "length_ft = 4000.0",
     "runway[0].length_ft: 4000 ft disagrees with the thresholds' distance 5000 ft"),
    ("KCST.toml", 'surface = "asphalt"', 'surface = "gras"',
     "runway[0].surface: unknown surface 'gras'; did you mean 'grass'?"),
    ("KCST.toml", "frequency_mhz = 110.30", "frequency_mhz = 110.20",
     "runway[0].ils[0].frequency_mhz: a localizer's frequency has an odd tenths digit"),
    ("KCST.toml", 'name = "Coast Regional"', 'name = "Coast Regional', "line 4, column "),
])
def test_a_bad_airfield_file_is_one_line_naming_file_and_field(tmp_path, name, old, new, expected):
    path = _bad(tmp_path, name, old, new)
    for args in (("airfields",), ("simulate", "--airfield", "KHOM", "--start", "runway", "--steps", "1")):
        line = one_line_error(run(*args, env={world.ENV_FOLDER: str(tmp_path)}))
        assert line.startswith(f"flightsim: error: {path}: ") and expected in line, line


def test_a_duplicate_identifier_is_one_line_naming_the_second_file(tmp_path):
    shutil.copy(SHIPPED / "KVAL.toml", tmp_path / "valley.toml")
    line = one_line_error(run("airfields", env={world.ENV_FOLDER: str(tmp_path)}))
    assert line == (f"flightsim: error: {tmp_path / 'valley.toml'}: id: duplicate airfield 'KVAL' (also in "
                    f"{SHIPPED / 'KVAL.toml'})")
    text = (SHIPPED / "navaids.toml").read_text().replace('id = "PKS"', 'id = "HOM"')
    (tmp_path / "valley.toml").unlink()
    (tmp_path / "mine.toml").write_text(text)
    line = one_line_error(run("airfields", env={world.ENV_FOLDER: str(tmp_path)}))
    assert f"{tmp_path / 'mine.toml'}: vor[0].id: duplicate station 'HOM'" in line


def test_two_runways_with_one_end_are_refused(tmp_path):
    text = (SHIPPED / "KCST.toml").read_text().replace('id = "KCST"', 'id = "KTWO"')
    runway = text[text.index("[[runway]]"):text.index("[[runway.ils]]")]
    (tmp_path / "two.toml").write_text(text + "\n" + runway.replace('ends = ["09", "27"]', 'ends = ["27", "09"]')
                                       .replace("heading_deg = 90.0", "heading_deg = 270.0").replace(
                                           "threshold_lon = [-0.171129630817, -0.157439224397]",
                                           "threshold_lon = [-0.157439224397, -0.171129630817]"))
    line = one_line_error(run("airfields", env={world.ENV_FOLDER: str(tmp_path)}))
    assert "two.toml: runway[1].ends[0]: duplicate runway end '27'" in line


def test_an_unknown_airfield_or_runway_is_one_line_listing_the_valid_ones():
    line = one_line_error(run("simulate", "--airfield", "KCTS", "--start", "runway", "--steps", "1"))
    assert line == ("flightsim: error: --airfield: unknown airfield 'KCTS'; did you mean 'KCST'? (valid: "
                    "2GR, KCST, KHOM, KLAK, KMTN, KVAL)")
    line = one_line_error(run("simulate", "--airfield", "KCST", "--runway", "36", "--start", "approach"))
    assert line == "flightsim: error: --runway: unknown runway end '36' at KCST (valid: 09, 27)"
    line = one_line_error(run("simulate", "--airfield", "KCST", "--start", "air"))
    assert line.startswith("flightsim: error: --airfield: places the runway and approach starts")
    line = one_line_error(run("fly", "--headless", "--airfield", "KXYZ", "--start", "runway"))
    assert line.startswith("flightsim: error: --airfield: unknown airfield 'KXYZ'")


# ---------------------------------------------------------------------------------------------- the starts

def _first_row(tmp_path, *args):
    out = tmp_path / "trace.csv"
    r = run("simulate", "--aircraft", "c172", "--steps", "1", "--out", str(out), *args)
    assert r.returncode == 0, r.stderr
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    return {k: float(v) for k, v in rows[0].items()}, r.stdout


def test_simulate_approach_at_kcst_27_starts_on_its_extended_centreline_on_the_glide_path(tmp_path):
    from flightsim.math import quat
    from flightsim.simulation.starts import AIM_DISTANCE, GLIDE_ANGLE

    row, out = _first_row(tmp_path, "--airfield", "KCST", "--runway", "27", "--start", "approach")
    assert "on final approach" in out and "of KCST 27" in out
    end = world.runway_end("KCST", "27")
    distance, offset = end.runway.local(row["x"], row["y"])
    assert offset == pytest.approx(0.0, abs=1e-6)                     # on the extended centre line
    assert -8000.0 < distance < -4000.0                                # before the threshold, East of it
    assert row["x"] == pytest.approx(40000.0, abs=1e-6) and row["y"] < 57500.0
    _, pitch, heading = quat.aviation_angles(np.array([row["qw"], row["qx"], row["qy"], row["qz"]]))
    assert heading == pytest.approx(270.0, abs=1e-6)
    # the wheels on the 3° glide path to the aim point at the field's elevation (12 ft): the CG a few ft above
    path = 12.0 + (AIM_DISTANCE - distance) * math.tan(math.radians(-GLIDE_ANGLE))
    assert 0.0 < row["z"] - path < 8.0, (row["z"], path)
    assert row["vy"] > 100.0 and abs(row["vx"]) < 1e-6                 # flying West


def test_the_default_starts_are_home_36_bit_for_bit_and_kcst_is_settled_at_its_elevation():
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.resources import aircraft_path
    from flightsim.simulation.starts import RUNWAY_START_DISTANCE, make_start

    c172 = load_aircraft(aircraft_path("c172"))
    for kind in ("runway", "approach"):
        today = make_start(c172, kind)
        home = make_start(c172, kind, airfield="KHOM", runway="36")
        assert np.array_equal(today.state, home.state) and today.controls == home.controls
        assert today.end is None and home.end.name == "KHOM 36"
    home = make_start(c172, "runway")
    coast = make_start(c172, "runway", airfield="KCST", runway="27")
    end = world.runway_end("KCST", "27")
    assert coast.state[2] == pytest.approx(home.state[2] + 12.0, abs=1e-9)     # on its gear at z = 12 ft
    assert coast.state[:2] == pytest.approx(end.runway.point(RUNWAY_START_DISTANCE), abs=1e-9)
    assert "runway 27 of KCST (elevation 12 ft)" in coast.describe()
    with pytest.raises(ValueError, match="^start: "):
        make_start(c172, "air", airfield="KCST")


def test_the_landing_task_flies_to_the_runway_it_is_given():
    from flightsim.gym.tasks import Landing

    task = Landing(2, aircraft="c172", airfield="KVAL", runway="27")
    assert task.runway == world.runway_end("KVAL", "27").runway and task.elevation == 1250.0
    f = task.flight()
    assert task.quantity("heading_error", f) == pytest.approx(0.0, abs=1e-6)
    assert task.quantity("offset", f) == pytest.approx(0.0, abs=1e-6)
    assert 300.0 < float(f["altitude"][0]) < 400.0                   # above the field, not above sea level


# ---------------------------------------------------------------------------------------------- the scene

def test_the_scene_draws_every_airfields_runways_at_their_elevations():
    from flightsim.app.scene.scenery import MOWN_GRASS, build_scenery, rgba

    bare = build_scenery(airfields={})
    scenery = build_scenery()
    assert np.array_equal(bare.runway_quad[0], scenery.runway_quad[0])            # the home runway as before
    drawn = {fr.airfield: fr for fr in scenery.field_runways}
    assert set(drawn) == {"KCST", "KVAL", "KLAK", "KMTN"}                         # asphalt, textured; KHOM apart
    for ident, fr in drawn.items():
        pos, _ = fr.quad
        assert np.all(pos[:, 2] == TABLE[ident][1])
        assert pos[:, :2].mean(axis=0) == pytest.approx(TABLE[ident][0], abs=1e-3)
        assert fr.runway.numbers == TABLE[ident][2]
    grass = np.all(np.isclose(scenery.decals.colors, rgba(MOWN_GRASS)), axis=1)
    assert grass.sum() == 4 and np.all(scenery.decals.positions[grass, 2] == 400.0)


def test_the_batch_starts_at_the_runway_end_it_is_given():
    from flightsim.simulation.batch import BatchSimulation
    from flightsim.simulation.starts import make_start

    batch = BatchSimulation(2, "c172", start="approach", airfield="KVAL", runway="27")
    start = make_start(batch.aircraft, "approach", airfield="KVAL", runway="27")
    assert np.array_equal(batch.start.state, start.state)
    assert batch.states[0] == pytest.approx(start.state, abs=1e-15)       # (q renormalised by the batch's reset)
    assert batch.start.end.name == "KVAL 27"
    with pytest.raises(ValueError, match="^start: airfield= and runway= place a start"):
        BatchSimulation(1, "c172", airfield="KVAL")


def test_an_approach_into_the_mountains_is_refused_naming_the_terrain(tmp_path):
    # the mountain strip has no straight-in approach from a minute out: its 3° path runs into the range
    r = subprocess.run([FLIGHTSIM, "simulate", "--airfield", "KMTN", "--runway", "17", "--start", "approach",
                        "--duration", "1", "--out", str(tmp_path / "t.csv")], capture_output=True, text=True,
                       timeout=300)
    line = one_line_error(r)
    assert "KMTN/17" in line and "runs into the terrain" in line and "nm out" in line, line
    assert not (tmp_path / "t.csv").exists()

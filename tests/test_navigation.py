"""Radio navigation (``flightsim.simulation.navigation``): a VOR's radial, TO/FROM and course deviation, an ILS's
localizer and glide-slope deviations, DME, the full scales, signals lost beyond range and behind terrain (line of
sight), by hand-derived numbers; the NAV radio tuned by frequency or station; the trace's NAV columns; the
autopilot's ``nav=`` (NAV) and ``app=ID/NN`` (APR) on the 172R."""

import dataclasses
import math
import re
import subprocess

import numpy as np
import pytest
from conftest import FLIGHTSIM

from flightsim.commands.simulate import fly
from flightsim.physics.constants import KNOT
from flightsim.physics.wind import WindSpec
from flightsim.simulation import autopilot as ap
from flightsim.simulation import navigation as nav
from flightsim.simulation import trace, world
from flightsim.simulation.flight import Simulation, resolve_aircraft
from flightsim.simulation.navigation import NM, NavRadio, Station
from flightsim.simulation.starts import AIM_DISTANCE, make_start

VOR = Station.vor("TST", 113.0, 1000.0, -2000.0, 0.0)
# an ILS on a runway 09 (landing East: -y) of 6000 ft from the threshold (0, 0) at 500 ft elevation
ILS = Station.ils("KTST", "09", 110.1, 0.0, 0.0, 90.0, 6000.0, 500.0, 3.0)


def _east(distance, north=0.0):
    """The home-frame point ``distance`` ft East and ``north`` ft North of the test VOR."""
    return np.array([VOR.x + north, VOR.y - distance, 0.0])


def test_a_point_east_of_a_vor_is_on_its_090_radial_and_the_deviation_is_2_degrees_a_dot():
    radio = NavRadio(VOR, obs=90.0)
    r = radio.read(_east(10 * NM))
    assert r.radial == pytest.approx(90.0) and r.to_from == "FROM" and r.course_dots == pytest.approx(0.0)
    assert r.dme_nm == pytest.approx(10.0) and r.ident == "TST" and math.isnan(r.gs_dots)
    radio.set_obs(270.0)                                   # the same line, flown toward the station
    r = radio.read(_east(10 * NM))
    assert r.to_from == "TO" and r.course_dots == pytest.approx(0.0)
    # 2° North of the 090 radial (radial 088): outbound on 090 the course lies to the right (+1 dot, fly right);
    # inbound on 270 the airplane is right of the course: -1 dot (fly left)
    north = 10 * NM * math.tan(math.radians(2.0))
    radio.set_obs(90.0)
    assert radio.read(_east(10 * NM, north)).radial == pytest.approx(88.0)
    assert radio.read(_east(10 * NM, north)).course_dots == pytest.approx(1.0)
    radio.set_obs(270.0)
    assert radio.read(_east(10 * NM, north)).course_dots == pytest.approx(-1.0)
    radio.set_obs(100.0)                                   # 10° off: full scale, five dots
    assert radio.read(_east(10 * NM)).course_dots == pytest.approx(5.0)
    # DME is the slant range: 6 nm East and 8 nm up is 10 nm
    assert radio.read(_east(6 * NM) + [0, 0, 8 * NM]).dme_nm == pytest.approx(10.0)


def test_signals_are_lost_beyond_range():
    radio = NavRadio(VOR, obs=90.0)
    assert radio.read(_east(39.9 * NM)).valid and not radio.read(_east(40.1 * NM)).valid
    assert np.all(np.isnan(radio.rows([_east(41 * NM)])))
    lost = NavRadio(ILS).read([0.0, 19 * NM, 3000.0])
    assert lost.ident is None and math.isnan(lost.course_dots) and math.isnan(lost.dme_nm)


def _on_path(before, offset=0.0, above=0.0):
    """A point ``before`` ft before the test ILS's glide-slope antenna (inbound), ``offset`` ft right of the
    centreline, on the 3° path's height (the cone about the antenna) plus ``above`` ft."""
    x, y = offset * -1.0, -(1000.0 - before)           # runway 09: along -y, right of it is South (-x)
    horizontal = math.hypot(before, nav.GS_BESIDE + offset)
    return np.array([x, y, 500.0 + horizontal * math.tan(math.radians(3.0)) + above])


def test_on_the_ils_centreline_at_the_path_height_the_needles_are_centred_and_a_dot_is_where_the_scale_says():
    radio = NavRadio(ILS)
    assert radio.obs == 90.0
    three = 3 * NM
    r = radio.read(_on_path(three))
    assert r.course_dots == pytest.approx(0.0, abs=1e-9) and r.gs_dots == pytest.approx(0.0, abs=1e-9)
    assert r.ident == "I-KTST09" and r.to_from == "TO"
    # the localizer antenna is 1000 ft beyond the far end: 0.5° a dot seen from there; right of it: fly left
    loc = 6000.0 + 1000.0 + three - 1000.0
    right = loc * math.tan(math.radians(0.5))
    assert radio.read(_on_path(three, offset=right)).course_dots == pytest.approx(-1.0, rel=1e-3)
    assert radio.read(_on_path(three, offset=-5 * right)).course_dots == pytest.approx(5.0, rel=1e-3)
    # the glide slope: 0.14° a dot about the antenna; above the path the needle is down (fly down)
    h = math.hypot(three, nav.GS_BESIDE)
    up = h * (math.tan(math.radians(3.14)) - math.tan(math.radians(3.0)))
    assert radio.read(_on_path(three, above=up)).gs_dots == pytest.approx(-1.0, rel=1e-6)
    down = h * (math.tan(math.radians(3.0)) - math.tan(math.radians(2.3)))
    assert radio.read(_on_path(three, above=-down)).gs_dots == pytest.approx(5.0, rel=1e-6)
    # DME at the glide-slope antenna (10 ft above the runway)
    assert r.dme_nm == pytest.approx(math.hypot(h, _on_path(three)[2] - 500.0 - nav.ANTENNA_HEIGHT) / NM)
    # past the glide-slope antenna (over the runway) the localizer still reads, the glide slope not
    assert math.isnan(radio.read([0.0, -3000.0, 520.0]).gs_dots)
    assert radio.read([0.0, -3000.0, 520.0]).course_dots == pytest.approx(0.0)
    # behind the localizer, beside its sector: lost
    assert not radio.read([3 * NM, 0.0, 3000.0]).valid


def test_terrain_between_the_station_and_the_airplane_hides_it():
    def ridge(x, y):                                                       # a wall 5 nm East
        return np.where(np.abs(y - (VOR.y - 5 * NM)) < 1000.0, 4000.0, 0.0)

    radio = NavRadio(VOR, obs=90.0, height=ridge)
    assert not radio.read(_east(10 * NM) + [0, 0, 3000.0]).valid         # below the line over the wall
    assert radio.read(_east(10 * NM) + [0, 0, 9000.0]).valid             # the line clears 4000 ft at half way
    assert radio.read(_east(4 * NM) + [0, 0, 1000.0]).valid              # before the wall
    clear = nav.line_of_sight(ridge, [VOR.x, VOR.y, 0.0], [_east(10 * NM) + [0, 0, h] for h in (3000, 9000)])
    assert clear.tolist() == [False, True]
    assert nav.line_of_sight(None, [0, 0, 0], [1e6, 0, -10.0])


def test_the_radio_tunes_a_frequency_or_a_station_and_the_world_has_them():
    radio = NavRadio()
    assert radio.station is None and not radio.read([0, 0, 0]).valid
    assert radio.tune("116.40").ident == "VAL" and radio.tune("hom").ident == "HOM"
    assert radio.tune("KVAL/27").ident == "I-KVAL27" and radio.obs == 270.0
    assert radio.tune("110.3").ident == "I-KCST27"
    with pytest.raises(ValueError, match=r"no station 'XYZ'; there are HOM 113.90, VAL 116.40, PKS 114.70"):
        radio.tune("XYZ")
    kinds = [s.kind for s in nav.stations()]
    assert kinds.count("VOR") >= 3 and kinds.count("ILS") >= 4
    # an ILS from the airfield file: the needles centred on the threshold's extended centreline at the path
    end = world.runway_end("KCST", "27")
    s = nav.station("KCST/27")
    assert s.threshold[:2] == pytest.approx(end.threshold) and s.course == end.heading_deg
    assert NavRadio(default="PKS").station.ident == "PKS"
    assert NavRadio(default="nowhere").station is None


def test_a_flight_carries_a_radio_tuned_to_home_and_its_trace_ends_with_the_nav_columns(tmp_path):
    assert trace.COLUMNS[-6:-3] == ("nav_dev_dots", "gs_dev_dots", "dme_nm")
    out = tmp_path / "t.csv"
    subprocess.run([FLIGHTSIM, "simulate", "--aircraft", "c172", "--start", "air", "--duration", "1",
                    "--every", "60", "--out", str(out)], check=True, capture_output=True, text=True)
    lines = out.read_text().splitlines()
    assert lines[0].endswith(",lat,lon,alt_msl,nav_dev_dots,gs_dev_dots,dme_nm,gear,failures,ias_indicated")
    assert lines[1].split(",")[-5] == "nan"                    # no glide slope from a VOR: nan
    assert np.isnan(np.loadtxt(out, delimiter=",", skiprows=1)[:, -5]).all()        # as numpy reads it
    data = trace.read_csv(out)
    col = {n: data[:, i] for i, n in enumerate(trace.COLUMNS)}
    # HOM at (0, 6000): the DME as the geometry says
    x, y, z = col["x"][0], col["y"][0], col["z"][0]
    assert col["dme_nm"][0] == pytest.approx(math.sqrt(x * x + (y - 6000.0) ** 2 + z * z) / NM)
    assert np.all(np.isnan(col["gs_dev_dots"])) and np.all(np.isfinite(col["nav_dev_dots"]))
    # an older trace (no NAV columns) reads no signal
    old = tmp_path / "old.csv"
    old.write_text("\n".join(",".join(c.split(",")[:-6]) for c in lines) + "\n")
    assert np.all(np.isnan(trace.read_csv(old)[:, trace.NAV_AT:trace.GEAR_AT]))


@pytest.mark.parametrize("field, end, crosswind", [("KCST", "27", 0.0), ("KVAL", "27", 0.0), ("KLAK", "32", 0.0),
                                                   ("KVAL", "27", 15.0)])
def test_the_172r_flies_an_ils_and_hands_back_on_the_centreline_and_the_glide_path(field, end, crosswind):
    aircraft = resolve_aircraft("c172")
    # the crosswind from the runway's right
    wind = WindSpec(from_deg=(world.runway_end(field, end).heading_deg + 90.0) % 360.0,
                    speed=crosswind * KNOT) if crosswind else None
    sim = Simulation(aircraft, start=make_start(aircraft, "approach", airfield=field, runway=end, wind=wind),
                     wind=wind)
    assert sim.nav.station.ident == f"I-{field}{end}"              # tuned to the ILS of the start's runway
    sim.autopilot.engage(sim, ap.parse_spec(f"app={field}/{end}"))
    assert sim.autopilot.modes == "LOC GS SPD"
    table = fly(sim, int(round(80.0 / sim.dt)))
    col = {n: table[:, i] for i, n in enumerate(trace.COLUMNS)}
    assert not sim.autopilot.engaged and sim.autopilot.chime
    assert sim.autopilot.message == "approach: 200 ft above the runway - your airplane"
    handed = np.flatnonzero(col["ap_mode"] == 0)[0]
    e = world.runway_end(field, end)
    along, offset = e.runway.local(col["x"][handed], col["y"][handed])
    wheels = col["z"][handed] - ap.wheel_height(aircraft) - e.elevation_ft
    path = math.tan(math.radians(e.ils.glide_slope_deg)) * (nav.GS_PAST - along)
    print(f"{field}/{end} ({crosswind:g} kt crosswind): handed back {-along:.0f} ft before the threshold, "
          f"{offset:+.2f} ft off the centreline, "
          f"{wheels - path:+.2f} ft off the glide path")
    assert abs(wheels - ap.APPROACH_MINIMUM) < 2.0
    assert abs(offset) < 20.0 and abs(wheels - path) < 15.0
    # the needles the trace holds say the same: near the centre over the last 20 s and at the hand-back (the
    # glide slope's half a dot high there: the radio reads at the CG, the wheels' height above the path flown)
    last = (col["t"] > col["t"][handed] - 20.0) & (col["t"] <= col["t"][handed])
    assert np.max(np.abs(col["nav_dev_dots"][last])) < (1.5 if crosswind else 0.1)
    assert np.max(np.abs(col["gs_dev_dots"][last])) < 1.5
    assert abs(col["nav_dev_dots"][handed]) < 0.5 and -0.7 < col["gs_dev_dots"][handed] < 0.0


def test_nav_tracks_a_radial_intercepting_it():
    aircraft = resolve_aircraft("c172")
    sim = Simulation(aircraft, start=make_start(aircraft, "air"))       # North-bound, West of HOM's line 090
    sim.autopilot.engage(sim, ap.parse_spec("nav=HOM/090,alt=2000"))
    assert sim.autopilot.modes == "NAV ALT SPD" and sim.autopilot.code == 114
    assert sim.nav.station.ident == "HOM" and sim.nav.obs == 90.0
    table = fly(sim, int(round(240.0 / sim.dt)))
    col = {n: table[:, i] for i, n in enumerate(trace.COLUMNS)}
    last = col["t"] >= 180.0
    off = col["x"][last] - 0.0                                      # the line through HOM (0, 6000) East-West
    track = np.degrees(np.arctan2(-col["vy"][last], col["vx"][last])) % 360.0
    assert np.max(np.abs(off)) < 100.0 and np.max(np.abs(track - 90.0)) < 2.0
    assert np.max(np.abs(col["nav_dev_dots"][last])) < 0.5
    assert sim.autopilot.describe().startswith("NAV ALT SPD engaged: HOM course 090°")


@pytest.mark.parametrize("text, message", [
    ("app=KVAL/09", "app=KVAL/09: the approach is app=36 (the home runway) or app=ID/NN, an ILS runway end: "),
    ("app=27", "an ILS runway end: KCST/27, KCST/09"),
    ("nav=XYZ/090", "nav=XYZ/090: no VOR 'XYZ'; there are HOM, VAL, PKS"),
    ("nav=HOM/400", "nav=HOM/400: expected nav=STATION/RADIAL, a radial 0 to 360°"),
    ("nav=HOM", "nav=HOM: expected nav=STATION/RADIAL"),
    ("nav=HOM/090,hdg=90", "nav= flies the radial's track; leave out hdg"),
    ("app=KVAL/27,nav=HOM/090", "leave out hdg, alt, vs and nav"),
])
def test_a_bad_nav_or_approach_names_what_there_is(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ap.parse_spec(text)
    assert ap.parse_spec("app=kval/27") == ap.Selection(approach=True, runway=("KVAL", "27"))
    assert ap.parse_spec("nav=hom/90,alt=3000") == ap.Selection(altitude=3000.0, nav=("HOM", 90.0))


def test_the_command_line_flies_an_ils_and_names_a_bad_one(tmp_path):
    out = tmp_path / "kval.csv"
    done = subprocess.run([FLIGHTSIM, "simulate", "--aircraft", "c172", "--airfield", "KVAL", "--runway", "27",
                           "--start", "approach", "--autopilot", "app=KVAL/27", "--duration", "80", "--every", "12",
                           "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "autopilot       approach: 200 ft above the runway - your airplane" in done.stdout
    col = {n: trace.read_csv(out)[:, i] for i, n in enumerate(trace.COLUMNS)}
    flying = col["ap_mode"] == ap.mode_code("LOC", "GS", "SPD")
    assert np.all(np.abs(col["nav_dev_dots"][flying]) < 0.5) and np.all(np.isfinite(col["gs_dev_dots"][flying]))
    bad = subprocess.run([FLIGHTSIM, "simulate", "--aircraft", "c172", "--start", "approach", "--autopilot",
                          "app=KXYZ/27", "--duration", "1"], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "app=KXYZ/27: the approach is app=36" in bad.stderr and "KVAL/27" in bad.stderr
    assert AIM_DISTANCE < nav.GS_PAST


def test_the_range_hides_home_from_the_valley_beyond_it_low_but_not_high():
    pytest.importorskip("flightsim.physics.terrain")          # (the world's terrain: helper A's branch)
    radio = NavRadio("HOM", height=nav.terrain_heights("world"))
    beyond = [0.0, -200000.0]                                  # East of the range (y -150,000 .. -220,000 ft)
    assert not radio.read([*beyond, 3000.0]).valid
    assert radio.read([*beyond, 12000.0]).valid
    assert radio.read([0.0, -60000.0, 3000.0]).valid            # over the valley on this side
    rows = radio.rows([[*beyond, z] for z in np.linspace(3000.0, 12000.0, 10)])
    assert np.isnan(rows[0]).all() and np.isfinite(rows[-1, [0, 2]]).all()


def test_a_batch_flies_an_ils_as_the_single_flight_does():
    from flightsim.simulation.batch import BatchSimulation

    aircraft = resolve_aircraft("c172")
    start = make_start(aircraft, "approach", airfield="KVAL", runway="27")
    selection = ap.parse_spec("app=KVAL/27")
    batch = BatchSimulation(2, aircraft, "euler", start=start)
    sim = Simulation(aircraft, start=start)
    sim.autopilot.engage(sim, selection)
    # the same gains, from the same trim to its tolerance (in the 172R's standard atmosphere the trim's answer
    # moves by ~1e-8 with the last bit of its airspeed, the batch's and the single flight's norms of the same
    # velocity); the batch then flies with the single flight's, so that the flights agree to rounding
    own = batch.autopilot.engage(selection)
    assert np.allclose(dataclasses.astuple(own), dataclasses.astuple(sim.autopilot.gains), rtol=1e-6, atol=0.0)
    batch.autopilot.engage(selection, gains=sim.autopilot.gains)
    batch.step(20 * 120)
    for _ in range(20 * 120):
        sim.step()
    np.testing.assert_allclose(batch.states[0], sim.vector, rtol=1e-10, atol=1e-8)
    assert list(batch.autopilot.codes) == [sim.autopilot.code] * 2 == [ap.mode_code("LOC", "GS", "SPD")] * 2

"""``flightsim script``: JSBSim's scripts run as JSBSim runs them, and JSBSim's reset files resolved as JSBSim does.

A tiny JSBSim root (a ball with constant drag over WGS-84, given by its ``<planet>``) is written by the tests; the
script runs through the CLI as a user runs it, and JSBSim (the ``jsbsim`` package) runs the same files for the
comparison.  The reset files' resolved states are checked against JSBSim's own after ``run_ic()``.
"""

import csv
import math
import os
import subprocess
import sys
from pathlib import Path

import jsbsim
import pytest

from flightsim.errors import InputError
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.initial import load_initial_condition
from flightsim.physics.planet import WGS84

AIRCRAFT = """<?xml version="1.0"?>
<fdm_config name="drop" version="2.0" release="BETA">
  <planet name="WGS-84">
    <semimajor_axis unit="M"> {a} </semimajor_axis>
    <semiminor_axis unit="M"> 6356752.314245 </semiminor_axis>
    <rotation_rate unit="RAD/SEC"> 7.292115e-5 </rotation_rate>
    <GM unit="M3/SEC2"> 3.986004418e14 </GM>
    <J2> 1.08262982e-3 </J2>
  </planet>
  <metrics>
    <wingarea unit="FT2"> 0.2 </wingarea>
    <wingspan unit="FT"> 1.0 </wingspan>
    <chord unit="FT"> 1.0 </chord>
    <location name="AERORP" unit="IN"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </location>
  </metrics>
  <mass_balance>
    <ixx unit="SLUG*FT2"> 3.6 </ixx>
    <iyy unit="SLUG*FT2"> 3.6 </iyy>
    <izz unit="SLUG*FT2"> 3.6 </izz>
    <emptywt unit="LBS"> 32.174 </emptywt>
    <location name="CG" unit="IN"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </location>
  </mass_balance>
  <ground_reactions/>
  <aerodynamics>
    <axis name="DRAG">
      <function name="aero/force/drag">
        <product>
          <property>aero/qbar-psf</property>
          <property>metrics/Sw-sqft</property>
          <value> 0.1 </value>
        </product>
      </function>
    </axis>
  </aerodynamics>
</fdm_config>
"""

INIT = """<?xml version="1.0"?>
<initialize name="drop" version="2.0">
  <position frame="ECEF">
    <latitude unit="DEG" type="geodetic"> {lat} </latitude>
    <longitude unit="DEG"> 10.0 </longitude>
    <altitudeAGL unit="{unit}"> {alt} </altitudeAGL>
  </position>
  <orientation unit="DEG" frame="LOCAL"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </orientation>
  <velocity unit="FT/SEC" frame="LOCAL"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </velocity>
</initialize>
"""

SCRIPT = """<?xml version="1.0"?>
<runscript name="drop">
  <use aircraft="{aircraft}" initialize="{init}"/>
  <run start="0.0" end="{end}" dt="0.01">
    <property value="3.5"> test/declared </property>{run_extra}
  </run>
  <output name="{out}" type="{kind}" rate="2">
    <function name="twice" type="template">
      <product> <property> # </property> <value> 2.0 </value> </product>
    </function>
    <function name="wrap" type="template">
      <difference>
        <fmod> <sum> <property> # </property> <value> 180.0 </value> </sum> <value> 360.0 </value> </fmod>
        <value> 180.0 </value>
      </difference>
    </function>
    <property caption="lat"> position/lat-geod-deg </property>
    <property caption="lon"> position/long-gc-deg </property>
    <property> position/h-sl-ft </property>
    <property caption="agl"> position/h-agl-ft </property>
    <property caption="x"> position/ecef-x-ft </property>
    <property caption="y"> position/ecef-y-ft </property>
    <property caption="z"> position/ecef-z-ft </property>
    <property caption="vd2" apply="twice"> velocities/v-down-fps </property>
    <property caption="ve"> velocities/v-east-fps </property>
    <property caption="psi" apply="wrap"> attitude/psi-deg </property>
    <property caption="pi"> velocities/pi-rad_sec </property>
    <property caption="{prop_caption}"> {prop} </property>
  </output>
</runscript>
"""

DEFAULTS = dict(a="6378137.0", lat="30.0", unit="FT", alt="30000.0", aircraft="drop", init="init", end="10",
                run_extra="", out="drop.csv", kind="CSV", prop="velocities/qi-rad_sec", prop_caption="qi")


def make_root(tmp, **changes):
    """A JSBSim root under ``tmp`` (``aircraft/drop``, ``scripts/drop.xml``) and a working folder; their paths."""
    f = {**DEFAULTS, **changes}
    root = tmp / "root"
    (root / "aircraft" / "drop").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "aircraft" / "drop" / "drop.xml").write_text(AIRCRAFT.format(**f))
    (root / "aircraft" / "drop" / "init.xml").write_text(INIT.format(**f))
    (root / "scripts" / "drop.xml").write_text(SCRIPT.format(**f))
    work = tmp / "work"
    work.mkdir()
    return root, work


def cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "flightsim", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def run_jsbsim(root, script):
    """JSBSim runs ``script`` under ``root`` (its outputs go to the root folder)."""
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script(script)
    fdm.run_ic()
    while fdm.run():
        pass


def test_drop_runs_as_jsbsim_runs_it(tmp_path):
    """The dropped ball: the same header, rows and times as JSBSim's CSV; after 10 s the position within 2e-6 deg
    and 0.05 ft of JSBSim's, the fall within 0.2 % of the vacuum's ½ g t² after 5 s (the drag is small)."""
    root, work = make_root(tmp_path)
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours = read_rows(work / "drop.csv")
    run_jsbsim(root, "scripts/drop.xml")
    theirs = read_rows(root / "drop.csv")
    assert ours[0] == theirs[0]
    assert ours[0][:4] == ["Time", "lat", "lon", "/fdm/jsbsim/position/h-sl-ft"]
    assert [r[0] for r in ours] == [r[0] for r in theirs]
    assert len(ours) == 1 + 21                      # 0, 0.5, ..., 10 s
    head = ours[0]
    mine, jsb = dict(zip(head, map(float, ours[-1][:1] + ours[-1][1:]), strict=True)), \
        dict(zip(head, map(float, theirs[-1]), strict=True))
    assert abs(mine["lat"] - jsb["lat"]) < 2e-6 and abs(mine["lon"] - jsb["lon"]) < 2e-6
    for k in ("agl", "/fdm/jsbsim/position/h-sl-ft", "x", "y", "z"):
        assert abs(mine[k] - jsb[k]) < 0.05, k
    assert abs(mine["vd2"] - jsb["vd2"]) < 0.01
    assert abs(mine["psi"] - jsb["psi"]) < 1e-9
    assert abs(mine["pi"] - jsb["pi"]) < 1e-12
    five = dict(zip(head, map(float, ours[11]), strict=True))
    assert five["Time"] == 5.0
    s2 = math.sin(math.radians(30.0)) ** 2          # normal gravity (Somigliana), less the free-air gradient
    g = (9.7803253359 * (1 + 0.00193185265241 * s2) / math.sqrt(1 - 0.00669437999013 * s2)
         - 3.086e-6 * 30000.0 * 0.3048) / 0.3048
    fall = 30000.0 - five["agl"]
    assert abs(fall - 0.5 * g * 25.0) < 0.002 * fall
    # the numbers as C++ writes them (18 significant digits)
    assert ours[-1][1] == format(mine["lat"], ".18g")


def test_a_reset_files_wind_is_flown_as_jsbsim_flies_it(tmp_path):
    """A version-1 reset file's wind (40 kt blowing East, the ball still over the ground): the drag carries the
    ball East as JSBSim's does."""
    root, work = make_root(tmp_path, end="10", prop="velocities/vt-fps", prop_caption="vt")
    (root / "aircraft" / "drop" / "init.xml").write_text(
        '<initialize name="w"> <latitude unit="DEG"> 30 </latitude> <longitude unit="DEG"> 10 </longitude>'
        ' <altitude unit="FT"> 30000 </altitude> <vground> 0 </vground> <vwind> 40 </vwind>'
        ' <winddir unit="DEG"> 90 </winddir> </initialize>')
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    run_jsbsim(root, "scripts/drop.xml")
    ours, theirs = read_rows(work / "drop.csv"), read_rows(root / "drop.csv")
    head = ours[0]
    mine = dict(zip(head, map(float, ours[-1]), strict=True))
    jsb = dict(zip(head, map(float, theirs[-1]), strict=True))
    first = dict(zip(head, map(float, ours[1]), strict=True))
    assert first["vt"] == pytest.approx(40 * 1.6878098571, rel=1e-9) and first["ve"] == 0.0
    assert mine["ve"] > 0.5
    assert abs(mine["ve"] - jsb["ve"]) < 1e-3 and abs(mine["vt"] - jsb["vt"]) < 1e-3
    assert abs(mine["lon"] - jsb["lon"]) < 1e-9


def test_tabular_output_and_a_declared_property(tmp_path):
    root, work = make_root(tmp_path, kind="TABULAR", end="1", prop="test/declared", prop_caption="declared")
    done = cli("script", str(root / "scripts" / "drop.xml"), "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    lines = (work / "drop.csv").read_text().splitlines()
    assert lines[0].split("\t")[-1] == "declared"
    assert [line.split("\t")[0] for line in lines[1:]] == ["0", "0.5", "1"]
    assert all(line.split("\t")[-1] == "3.5" for line in lines[1:])


BAD = [
    (dict(aircraft="nope"), "drop.xml", "<use> aircraft="),
    (dict(init="nope"), "drop.xml", "<use> initialize="),
    (dict(unit="FURLONG"), "init.xml", "position/altitudeAGL"),
    (dict(alt="high"), "init.xml", "position/altitudeAGL"),
    (dict(lat="95"), "init.xml", "position/latitude"),
    (dict(end="-1"), "drop.xml", "<run> end="),
    (dict(out="nofolder/out.csv"), "drop.xml", "<output> name="),
    (dict(prop="velocities/nope"), "drop.xml", "<property> (line 28)"),
    (dict(kind="SOCKET"), "drop.xml", "<output> (line 7)"),
    (dict(a="-6378137.0"), "drop.xml", "planet"),
    (dict(run_extra="\n    <event name=\"x\"> <condition> simulation/sim-time-sec ge 1 </condition> </event>"),
     "drop.xml", "<event> (line 6)"),
]


@pytest.mark.parametrize("changes, file, element", BAD, ids=[next(iter(c)) + "=" + next(iter(c.values()))[:12]
                                                                for c, _, _ in BAD])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, changes, file, element):
    root, work = make_root(tmp_path, **{"end": "1", **changes})
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flightsim: error: "), done.stderr
    assert file in lines[0] and element in lines[0], lines[0]
    assert "Traceback" not in done.stderr
    assert not list(work.iterdir())


def test_missing_script(tmp_path):
    done = cli("script", "nope.xml", cwd=tmp_path)
    assert done.returncode == 2 and "nope.xml" in done.stderr and len(done.stderr.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- the aircraft file's planet


def test_planet_element_is_read(tmp_path):
    root, _ = make_root(tmp_path)
    ac = load_aircraft(root / "aircraft" / "drop" / "drop.xml")
    assert ac.planet.round and ac.planet.a == pytest.approx(6378137.0 / 0.3048, rel=1e-7)
    assert ac.planet.b == pytest.approx(6356752.314245 / 0.3048, rel=1e-7)
    assert ac.planet.gm == pytest.approx(3.986004418e14 * 35.3146667, rel=1e-9)
    assert ac.planet.omega == 7.292115e-5 and ac.planet.j2 == 1.08262982e-3
    assert load_aircraft("jsbsim:737").planet is None
    assert load_aircraft(None).planet is None


def test_planet_defaults_are_wgs84(tmp_path):
    path = tmp_path / "p.xml"
    text = AIRCRAFT.format(**DEFAULTS)
    start, stop = text.index("  <planet"), text.index("</planet>") + len("</planet>")
    path.write_text(text[:start] + '<planet name="x"> <J2> 0 </J2> </planet>' + text[stop:])
    ac = load_aircraft(path)
    assert (ac.planet.a, ac.planet.b, ac.planet.omega, ac.planet.gm, ac.planet.j2) == \
        (WGS84.a, WGS84.b, WGS84.omega, WGS84.gm, 0.0)
    path.write_text(text.replace('<GM unit="M3/SEC2">', '<GM unit="FURLONG">'))
    with pytest.raises(InputError, match="planet/GM"):
        load_aircraft(path)


# ----------------------------------------------------------------------------- reset files against JSBSim's

V1 = {
    "vt-psi-geocentric": """<vt unit="KTS"> 100 </vt> <latitude unit="DEG"> 28 </latitude>
        <longitude unit="DEG"> -90 </longitude> <psi unit="DEG"> 200 </psi> <altitude unit="FT"> 4000 </altitude>""",
    "vc-gamma-phi": """<latitude unit="DEG" type="geod"> 47 </latitude> <longitude unit="RAD"> 0.2 </longitude>
        <altitudeMSL unit="M"> 3000 </altitudeMSL> <phi unit="DEG"> 20 </phi> <psi unit="DEG"> 45 </psi>
        <vc> 250 </vc> <gamma> 5 </gamma>""",
    "mach-alpha-beta": """<latitude unit="DEG"> -33 </latitude> <altitude unit="FT"> 30000 </altitude>
        <theta unit="DEG"> 4 </theta> <psi unit="DEG"> 300 </psi> <mach> 0.8 </mach> <alpha> 3 </alpha>
        <beta unit="DEG"> 2 </beta>""",
    "body-velocities": """<latitude unit="DEG"> 10 </latitude> <altitude> 1000 </altitude>
        <phi unit="DEG"> -10 </phi> <theta unit="DEG"> 5 </theta> <psi unit="DEG"> 90 </psi>
        <ubody unit="M/SEC"> 60 </ubody> <vbody> 3 </vbody> <wbody unit="FT/SEC"> 8 </wbody>""",
    "ned-roc": """<latitude unit="DEG" type="geodetic"> 60 </latitude> <altitude> 2000 </altitude>
        <psi> 1.0 </psi> <vnorth unit="KTS"> 100 </vnorth> <veast> 40 </veast> <vdown> -5 </vdown>""",
    "wind": """<altitude> 3000 </altitude> <psi unit="DEG"> 90 </psi> <vt> 120 </vt> <vwind> 20 </vwind>
        <winddir unit="DEG"> 45 </winddir> <hwind> 5 </hwind>""",
    "vt-roc-vground": """<altitude> 5000 </altitude> <psi unit="DEG"> 30 </psi> <vt> 150 </vt>
        <roc unit="FT/SEC"> 10 </roc>""",
    "elevation-agl-geocentric": """<longitude unit="DEG"> -95.16 </longitude> <latitude unit="DEG"> 29.59 </latitude>
        <altitude unit="FT"> 7.1 </altitude> <elevation unit="FT"> 2000 </elevation> <vc> 100 </vc>""",
    "elevation-msl-geodetic": """<latitude unit="DEG" type="geod"> 45 </latitude> <elevation unit="M"> 500 </elevation>
        <altitudeMSL unit="FT"> 3000 </altitudeMSL> <psi unit="DEG"> 10 </psi> <vt> 120 </vt>""",
}
V2 = {
    "ecef-orientation-body-velocity": """<position frame="ECEF"> <latitude unit="DEG" type="geod"> 45 </latitude>
          <longitude unit="DEG"> -120 </longitude> <altitudeMSL unit="FT"> 10000 </altitudeMSL> </position>
        <orientation unit="DEG" frame="ECEF"> <roll> 10 </roll> <pitch> -30 </pitch> <yaw> 70 </yaw> </orientation>
        <velocity unit="KTS" frame="BODY"> <x> 200 </x> <y> 5 </y> <z> 10 </z> </velocity>
        <attitude_rate unit="DEG/SEC" frame="LOCAL"> <x> 1 </x> <y> 2 </y> <z> 3 </z> </attitude_rate>""",
    "xyz-eci-rates": """<position frame="ECEF" unit="KM"> <x> -2216.05436 </x> <y> -2837.09413 </y>
          <z> -6235.38291 </z> </position>
        <orientation unit="DEG" frame="LOCAL"> <yaw> 90 </yaw> </orientation>
        <velocity unit="M/SEC" frame="ECEF"> <x> 6938.058 </x> <y> -5419.317 </y> <z> 0 </z> </velocity>
        <attitude_rate unit="DEG/SEC" frame="ECI"> <y> 0.5 </y> </attitude_rate>""",
    "local-ecef-rates": """<position frame="ECEF"> <latitude unit="DEG"> -10 </latitude>
          <longitude unit="DEG"> 170 </longitude> <altitudeAGL unit="FT"> 500 </altitudeAGL> </position>
        <orientation unit="RAD" frame="LOCAL"> <x> 0.1 </x> <y> 0.2 </y> <z> 3.0 </z> </orientation>
        <velocity unit="FT/SEC" frame="LOCAL"> <x> 100 </x> <y> -50 </y> <z> 2 </z> </velocity>
        <attitude_rate unit="RAD/SEC" frame="ECEF"> <x> 0.01 </x> <y> 0 </y> <z> -0.02 </z> </attitude_rate>""",
    "elevation-agl": """<position frame="ECEF"> <altitudeAGL unit="FT"> 29.5 </altitudeAGL>
          <latitude type="geodetic" unit="DEG"> 29.594656 </latitude> <longitude unit="DEG"> -95.16 </longitude>
        </position> <orientation unit="DEG" frame="LOCAL"> <yaw> 0 </yaw> </orientation>
        <elevation unit="FT"> 26.0 </elevation>""",
}
PROPERTIES = ("position/lat-geod-deg", "position/long-gc-deg", "position/geod-alt-ft", "velocities/v-north-fps",
              "velocities/v-east-fps", "velocities/v-down-fps", "attitude/phi-rad", "attitude/theta-rad",
              "attitude/psi-rad", "velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec",
              "atmosphere/total-wind-north-fps", "atmosphere/total-wind-east-fps", "atmosphere/total-wind-down-fps",
              "position/terrain-elevation-asl-ft", "position/h-agl-ft")


@pytest.fixture(scope="module")
def ic_root(tmp_path_factory):
    root, _ = make_root(tmp_path_factory.mktemp("ic"))
    return root


def _jsbsim_ic(root, path):
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_model("drop")
    assert fdm.load_ic(str(path), False)
    fdm.run_ic()
    return [fdm[p] for p in PROPERTIES]


@pytest.mark.parametrize("name, body", [*((k, ("", v)) for k, v in V1.items()),
                                        *((k, (' version="2.0"', v)) for k, v in V2.items())],
                         ids=[*V1, *V2])
def test_reset_file_resolves_as_jsbsims(ic_root, tmp_path, name, body):
    version, text = body
    path = tmp_path / f"{name}.xml"
    path.write_text(f'<?xml version="1.0"?>\n<initialize name="t"{version}>\n{text}\n</initialize>\n')
    ic = load_initial_condition(path)
    ours = [ic.lat_deg, ic.lon_deg, ic.alt_ft, *ic.v_ned, *ic.euler, *ic.pqr, *ic.wind_ned, ic.elevation_ft,
            ic.alt_ft - ic.elevation_ft]
    theirs = _jsbsim_ic(ic_root, path)
    for prop, a, b in zip(PROPERTIES, ours, theirs, strict=True):
        if prop.endswith("psi-rad"):
            a, b = math.remainder(a, 2 * math.pi), math.remainder(b, 2 * math.pi)
        # (JSBSim's geodetic height of a point far up, 2.7e6 ft, is its iteration's: 2e-8 of it apart)
        if "alt" in prop or "agl" in prop or "terrain" in prop:
            tol = 1e-5 + 2e-8 * abs(b)
        else:
            tol = 1e-9 if prop.startswith(("position", "attitude")) else 1e-7 * (1 + abs(b))
        assert a == pytest.approx(b, abs=tol), prop


def test_view_state_is_flightsims_frames(tmp_path):
    """Flying North-East, climbing, rolled right 30°: the view's velocity is North, West, up; its quaternion turns
    flightsim's body x (forward) to the heading and body z (up) to the rolled up-axis; ω in flightsim's axes."""
    path = tmp_path / "i.xml"
    path.write_text("""<initialize name="t" version="2.0">
      <position frame="ECEF"> <latitude unit="DEG" type="geod"> 10 </latitude> <longitude> 0 </longitude>
        <altitudeAGL> 1000 </altitudeAGL> </position>
      <orientation unit="DEG" frame="LOCAL"> <x> 30 </x> <y> 0 </y> <z> 45 </z> </orientation>
      <velocity unit="FT/SEC" frame="LOCAL"> <x> 100 </x> <y> 100 </y> <z> -10 </z> </velocity>
      <attitude_rate unit="RAD/SEC" frame="BODY"> <x> 0.1 </x> <y> 0.2 </y> <z> 0.3 </z> </attitude_rate>
    </initialize>""")
    from flightsim.math import quat

    y = load_initial_condition(path).view_state()
    assert y[:3] == pytest.approx([0.0, 0.0, 1000.0])
    assert y[3:6] == pytest.approx([100.0, -100.0, 10.0])
    r = quat.to_matrix(y[6:10])
    assert r @ [1, 0, 0] == pytest.approx([math.sqrt(0.5), -math.sqrt(0.5), 0.0])
    assert (r @ [0, 0, 1])[2] == pytest.approx(math.cos(math.radians(30)))
    assert y[10:13] == pytest.approx([0.1, -0.2, -0.3])


@pytest.mark.parametrize("text, element", [
    ('<latitude unit="DEG"> 91 </latitude>', "latitude"),
    ('<latitude unit="PARSEC"> 1 </latitude>', "latitude"),
    ('<altitude unit="DEG"> 1 </altitude>', "altitude"),
    ("<vt> fast </vt>", "vt"),
    ("<targetNlf> 1 </targetNlf>", "targetNlf"),
])
def test_bad_reset_file(tmp_path, text, element):
    path = tmp_path / "bad.xml"
    path.write_text(f"<initialize name='t'> {text} </initialize>")
    with pytest.raises(InputError) as err:
        load_initial_condition(path)
    assert str(path) in str(err.value) and element in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(InputError, match="No such file"):
        load_initial_condition(tmp_path / "nope.xml")


@pytest.mark.parametrize("text, mode", [("1", 2), (" Ground ", 2), ("longitudinal", 0), ("FULL", 1), ("turn", 5),
                                        ("pullup", 3), ("custom", 4), ("2", None), ("yes", None)])
def test_a_reset_files_trim_is_read_as_jsbsims(ic_root, tmp_path, text, mode):
    """``<trim>`` (version 1): JSBSim's TrimMode, as ``FGInitialCondition::SetTrimRequest`` reads it (any case; a
    value it does not know is no trim), checked against JSBSim's own ``trim_requested``."""
    path = tmp_path / "t.xml"
    path.write_text(f'<initialize name="t"> <altitude> 10 </altitude> <trim>{text}</trim> </initialize>')
    assert load_initial_condition(path).trim == mode
    fdm = jsbsim.FGFDMExec(str(ic_root))
    fdm.set_debug_level(0)
    fdm.load_model("drop")
    assert fdm.load_ic(str(path), False)
    assert int(fdm.get_ic().trim_requested()) == (6 if mode is None else mode)     # (TrimMode::tNone: 6)


def test_a_reset_files_trim_flightsim_lacks_is_one_line(tmp_path):
    """A pull-up trim requested by the reset file: refused naming the file and ``trim``, nothing written."""
    root, work = make_root(tmp_path, end="1")
    (root / "aircraft" / "drop" / "init.xml").write_text(
        '<initialize name="p"> <latitude unit="DEG"> 30 </latitude> <altitude unit="FT"> 3000 </altitude>'
        ' <vt> 100 </vt> <trim> pullup </trim> </initialize>')
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "init.xml" in lines[0] and "trim" in lines[0] and "pull-up" in lines[0], lines
    assert not list(work.iterdir())


CONTACT = """<ground_reactions>
    <contact type="STRUCTURE" name="BOTTOM">
      <location unit="IN"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </location>
      <static_friction> 0.8 </static_friction> <dynamic_friction> 0.5 </dynamic_friction>
      <spring_coeff unit="LBS/FT"> 200 </spring_coeff> <damping_coeff unit="LBS/FT/SEC"> 20 </damping_coeff>
    </contact>
  </ground_reactions>"""


def test_a_reset_files_terrain_elevation_is_the_ground(tmp_path):
    """A version-1 reset file's ``<elevation>`` (2,000 ft): the ball starts 20 ft above that terrain
    (``altitude`` is above the ground), its ``h-agl-ft`` is measured from it, and it falls onto it and rests
    on its contact there, as JSBSim's: the heights within 0.05 ft of JSBSim's at each half second (its bounce
    on the stiff contact integrated by RK4 and by JSBSim's own), 0.005 ft at rest."""
    root, work = make_root(tmp_path, end="4", prop="position/terrain-elevation-asl-ft", prop_caption="terrain")
    aircraft = root / "aircraft" / "drop" / "drop.xml"
    aircraft.write_text(aircraft.read_text().replace("<ground_reactions/>", CONTACT))
    (root / "aircraft" / "drop" / "init.xml").write_text(
        '<initialize name="e"> <longitude unit="DEG"> 10 </longitude> <elevation unit="FT"> 2000 </elevation>'
        ' <altitude unit="FT"> 20 </altitude> <latitude unit="DEG"> 30 </latitude> </initialize>')
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    run_jsbsim(root, "scripts/drop.xml")
    ours, theirs = read_rows(work / "drop.csv"), read_rows(root / "drop.csv")
    head = ours[0]
    assert head == theirs[0] and len(ours) == len(theirs) == 1 + 9
    mine = [dict(zip(head, map(float, row), strict=True)) for row in ours[1:]]
    jsb = [dict(zip(head, map(float, row), strict=True)) for row in theirs[1:]]
    assert mine[0]["agl"] == pytest.approx(20.0, abs=1e-6) and mine[0]["terrain"] == 2000.0
    assert mine[0]["/fdm/jsbsim/position/h-sl-ft"] == pytest.approx(2020.0, abs=0.1)
    for a, b in zip(mine, jsb, strict=True):
        assert abs(a["agl"] - b["agl"]) < 0.05 and abs(a["terrain"] - b["terrain"]) < 1e-6, (a["Time"], a, b)
    # at rest on the terrain: the contact at the CG (no moment to tip the ball), its spring carrying the 32 lb ball
    assert mine[-1]["agl"] == pytest.approx(-32.174 / 200.0, abs=0.005)
    assert abs(mine[-1]["agl"] - jsb[-1]["agl"]) < 0.005


GUST = """
    <property value="1"> atmosphere/cosine-gust/startup-duration-sec </property>
    <property value="1"> atmosphere/cosine-gust/steady-duration-sec </property>
    <property value="1"> atmosphere/cosine-gust/end-duration-sec </property>
    <property value="10"> atmosphere/cosine-gust/magnitude-ft_sec </property>
    <property value="{frame}"> atmosphere/cosine-gust/frame </property>
    <property value="0"> atmosphere/cosine-gust/X-velocity-ft_sec </property>
    <property value="3"> atmosphere/cosine-gust/Y-velocity-ft_sec </property>
    <event name="gust">
      <condition> simulation/sim-time-sec ge 1.0 </condition>
      <set name="atmosphere/cosine-gust/start" value="1"/>
    </event>"""


@pytest.mark.parametrize("frame, yaw, east", [("3", 0, 1.0), ("1", 180, -1.0)], ids=["local", "body"])
def test_a_cosine_gust_blows_as_jsbsims(tmp_path, frame, yaw, east):
    """JSBSim's one-minus-cosine gust (10 ft/s along the gust frame's y, up 1 s, steady 1 s, down 1 s, started at
    1 s): in the local frame y is East; in the body frame y is the right wing, West for the ball facing South.  The
    total wind East and the ball's drift as JSBSim's at each half second, the profile's values (half at 0.5 s into
    the rise, full when steady, none once it has ended)."""
    root, work = make_root(tmp_path, end="5", prop="atmosphere/total-wind-east-fps", prop_caption="gust",
                           run_extra=GUST.format(frame=frame))
    init = root / "aircraft" / "drop" / "init.xml"
    init.write_text(init.read_text().replace("<z> 0 </z> </orientation>", f"<z> {yaw} </z> </orientation>"))
    done = cli("script", "scripts/drop.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    run_jsbsim(root, "scripts/drop.xml")
    ours, theirs = read_rows(work / "drop.csv"), read_rows(root / "drop.csv")
    head = ours[0]
    assert head == theirs[0] and len(ours) == len(theirs) == 1 + 11
    mine = {float(r[0]): dict(zip(head, map(float, r), strict=True)) for r in ours[1:]}
    jsb = {float(r[0]): dict(zip(head, map(float, r), strict=True)) for r in theirs[1:]}
    for t, a in mine.items():
        assert abs(a["gust"] - jsb[t]["gust"]) < 1e-6 and abs(a["ve"] - jsb[t]["ve"]) < 1e-3, (t, a, jsb[t])
    assert mine[1.5]["gust"] == pytest.approx(5.0 * east, abs=0.2) and mine[2.5]["gust"] == pytest.approx(10.0 * east)
    assert mine[4.5]["gust"] == 0.0 and mine[5.0]["gust"] == 0.0 and mine[0.5]["gust"] == 0.0


def test_a_scripts_inertia_properties_are_jsbsims():
    """``inertia/*`` as JSBSim's ``FGMassBalance`` gives them: the products of inertia with its signs
    (``−J₁₂``, ``+J₁₃``, ``−J₂₃``), the 737's ``ixz`` positive."""
    from flightsim.simulation.flight import resolve_aircraft
    from flightsim.simulation.script_properties import mass_properties

    ours = mass_properties(resolve_aircraft("jsbsim:737").jsbsim)
    fdm = jsbsim.FGFDMExec(jsbsim.get_default_root_dir())
    fdm.set_debug_level(0)
    fdm.load_model("737")
    fdm.run_ic()
    for axes in ("xx", "yy", "zz", "xy", "xz", "yz"):
        name = f"inertia/i{axes}-slugs_ft2"
        assert ours[name] == pytest.approx(fdm[name], rel=1e-12, abs=1e-9), name
    assert ours["inertia/ixz-slugs_ft2"] > 1000.0

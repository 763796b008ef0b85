"""``flightsim script``'s events: conditions, sets, delays, notices, run in the frames and order JSBSim runs them.

Hand-written scripts drive the tiny root of :mod:`tests.test_script` (a ball dropped over WGS-84) through the CLI as
a user runs it, and JSBSim (the ``jsbsim`` package, in a subprocess so that its notices can be read) runs the same
files: the notices (event, frame, the script's own properties' values) and the logged properties must be the same
line for line.  One shipped script (``rudder_kick``: a 737 trimmed with ``do_simple_trim``, then a rudder and an
aileron ramp) checks the commands reach the flight.
"""

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_script import cli, make_root, read_rows

#: A notice's heading line, as JSBSim prints it.
HEADING = re.compile(r"^(.*) \(Event (\d+)\) executed at time: (\S+)$")

FEATURES = """
    <property value="0"> test/ramp </property>
    <property value="1"> test/exp </property>
    <property value="0"> test/count </property>
    <property value="0"> test/trigger </property>
    <property value="0"> test/cont </property>
    <property value="0"> test/late </property>
    <property value="0"> test/or </property>
    <event name="ramp and exp">
      <description> not printed: a notice's own description is </description>
      <condition> simulation/sim-time-sec ge 0.25 </condition>
      <set name="test/ramp" value="2" action="FG_RAMP" tc="0.5"/>
      <set name="test/exp" value="3" action="FG_EXP" tc="0.2" type="FG_DELTA"/>
      <notify>
        <description> ramp starts
          (JSBSim prints only the first line) </description>
        <property> test/ramp </property>
        <property caption="e"> test/exp </property>
      </notify>
    </event>
    <event name="every 0.3 s" persistent="true">
      <condition> simulation/sim-time-sec &gt;= test/trigger </condition>
      <set name="test/trigger" value="0.3" type="FG_DELTA"/>
      <set name="test/count" value="1" type="delta"/>
      <notify> <property caption="n"> test/count </property> </notify>
    </event>
    <event name="while" continuous="true">
      <condition logic="OR">
        test/count GE 4
        <condition>
          simulation/sim-time-sec gt 0.5
          simulation/sim-time-sec &lt; 0.6
        </condition>
      </condition>
      <set name="test/cont">
        <function>
          <product> <property> /fdm/jsbsim/simulation/sim-time-sec </property> <value> 2 </value> </product>
        </function>
      </set>
    </event>
    <event name="delayed">
      <condition> test/count == 2 </condition>
      <delay> 0.1 </delay>
      <set name="test/late" value="5"/>
      <notify/>
    </event>
    <event name="negated">
      <condition> -test/ramp lt -1.5 </condition>
      <set name="test/or" value="1" action="fg_step" type="FG_VALUE"/>
      <notify> <property> test/or </property> </notify>
    </event>
    <property value="0"> test/cramp </property>
    <event name="continuous ramp" continuous="true">
      <condition> test/count ge 3 </condition>
      <set name="test/cramp" value="0.5" action="FG_RAMP" tc="0.2" type="FG_DELTA"/>
    </event>
    <property value="0.01"> test/tick </property>
    <event name="log" persistent="true">
      <condition> simulation/sim-time-sec ge test/tick </condition>
      <set name="test/tick" value="0.03" type="FG_DELTA"/>
      <notify>
        <property> test/ramp </property> <property> test/exp </property> <property> test/count </property>
        <property> test/trigger </property> <property> test/cont </property> <property> test/late </property>
        <property> test/or </property> <property> test/cramp </property> <property> simulation/frame </property>
        <property> simulation/trim-completed </property>
      </notify>
    </event>"""

LOGGED = ("test/ramp", "test/exp", "test/count", "test/trigger", "test/cont", "test/late", "test/or")


def _script(root, name, run_extra, end="1.5", rate="100", logged=LOGGED, out="events.csv"):
    """A script on the drop ball with ``run_extra`` inside its ``<run>``, logging ``logged`` every frame."""
    props = "\n".join(f"    <property> {p} </property>" for p in logged)
    text = f"""<?xml version="1.0"?>
<runscript name="{name}">
  <use aircraft="drop" initialize="init"/>
  <run start="0.0" end="{end}" dt="0.01">{run_extra}
  </run>
  <output name="{out}" type="CSV" rate="{rate}">
{props}
  </output>
</runscript>
"""
    (root / "scripts" / f"{name}.xml").write_text(text)
    return f"scripts/{name}.xml"


def jsbsim_run(root, script):
    """JSBSim runs ``script`` under ``root`` in a subprocess: its stdout (the notices)."""
    code = ("import jsbsim, sys\n"
            "fdm = jsbsim.FGFDMExec(sys.argv[1])\n"
            "fdm.set_debug_level(0)\n"
            "fdm.load_script(sys.argv[2])\n"
            "fdm.run_ic()\n"
            "while fdm.run():\n"
            "    pass\n")
    done = subprocess.run([sys.executable, "-c", code, str(root), script], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    return done.stdout


def notices(text):
    """The notices in ``text``: [(event name, index, time text, [(caption, value text)])]."""
    out = []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            out.append((m.group(1), int(m.group(2)), m.group(3), []))
        elif out and line.startswith("    ") and " = " in line:
            caption, value = line.strip().split(" = ")
            out[-1][3].append((caption, value))
    return out


def test_events_run_as_jsbsim_runs_them(tmp_path):
    """Ramps, exponential approaches, deltas, a persistent event re-armed, a continuous function, a delay, nested
    AND/OR with symbols and capitals, a negated property: the same notices at the same frames with the same
    values (a persistent event logs the script's properties every third frame), printed as JSBSim prints them."""
    root, work = make_root(tmp_path)
    script = _script(root, "features", FEATURES)
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    theirs = jsbsim_run(root, script)
    ours = notices(done.stdout)
    assert ours == notices(theirs)
    names = [n for n, _, _, _ in ours]
    assert [n for n in names if n != "log"][:3] == ["every 0.3 s", "ramp and exp", "every 0.3 s"]
    assert "delayed" in names and "negated" in names
    ramp = next(v for v in ours if v[0] == "ramp and exp")
    assert ramp[2] == "0.25" and ramp[3] == [("test/ramp", "0"), ("e", "1")]
    # the text itself, as JSBSim prints it: an empty line, the heading, the notice's description, the values
    assert "\nramp and exp (Event 0) executed at time: 0.25\n    ramp starts\n    test/ramp = 0\n    e = 1\n\n" \
        in done.stdout
    logged = [dict(v) for n, _, _, v in ours if n == "log"]
    assert len(logged) >= 45                        # every third frame or so (re-armed in between)
    # (JSBSim's outputs are loaded before the script's declared properties: it cannot log them, flightsim does)
    mine = read_rows(work / "events.csv")
    assert len(mine) == 152
    last = dict(zip(mine[0], map(float, mine[-1]), strict=True))
    assert last["/fdm/jsbsim/test/ramp"] == 2.0 and last["/fdm/jsbsim/test/count"] == 6.0   # (0.01, 0.3, ..., 1.5 s)
    assert 3.99 < last["/fdm/jsbsim/test/exp"] < 4.0 and last["/fdm/jsbsim/test/late"] == 5.0
    assert float(logged[-1]["test/cont"]) > 2.8     # (the continuous event's function: twice the clock)
    assert logged[-1]["test/cramp"] == "0.5"         # (a continuous ramp holds its end)
    assert logged[0]["simulation/frame"] == "1" and logged[-1]["simulation/trim-completed"] == "0"


TABLES = """
    <property value="0"> test/one </property>
    <property value="0"> test/two </property>
    <property value="0"> test/pick </property>
    <property value="0"> test/index </property>
    <property value="0"> test/trigger </property>
    <event name="tables" continuous="true">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="test/one">
        <function>
          <product>
            <table>
              <independentVar lookup="row"> simulation/sim-time-sec </independentVar>
              <tableData>
                0.1   1.0
                0.4   3.0
                0.6  -2.0
              </tableData>
            </table>
            <value> 2 </value>
          </product>
        </function>
      </set>
      <set name="test/two">
        <function>
          <table>
            <independentVar lookup="row"> simulation/sim-time-sec </independentVar>
            <independentVar lookup="column"> test/index </independentVar>
            <tableData>
                      0     2
                0.0   0    10
                1.0   5    -5
            </tableData>
          </table>
        </function>
      </set>
      <set name="test/pick">
        <function>
          <switch>
            <p> test/index </p>
            <v> 7 </v>
            <p> test/one </p>
            <sum> <v> 1 </v> <p> simulation/sim-time-sec </p> </sum>
          </switch>
        </function>
      </set>
    </event>
    <event name="step" persistent="true">
      <condition> simulation/sim-time-sec ge test/trigger </condition>
      <set name="test/trigger" value="0.17" type="FG_DELTA"/>
      <set name="test/index" value="0.6" type="FG_DELTA"/>
      <notify>
        <property> test/one </property> <property> test/two </property> <property> test/pick </property>
        <property> test/index </property>
      </notify>
    </event>"""


def test_tables_and_switches_in_a_function_are_jsbsims(tmp_path):
    """A ``<table>`` (1-D, clamped at its ends; 2-D, bilinear) and a ``<switch>`` (its index rounded) in a set's
    function: every notice the same as JSBSim's, value for value."""
    root, work = make_root(tmp_path)
    script = _script(root, "tables", TABLES, end="0.6", logged=("test/one",))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours = notices(done.stdout)
    assert ours == notices(jsbsim_run(root, script))
    values = [dict(v) for _, _, _, v in ours]
    assert len(values) == 4 and values[0]["test/one"] == "2"        # (before its first key: the first value, ×2)
    assert values[2]["test/one"] == "5.2" and values[3]["test/one"] == "0.5"      # (interpolated, ×2)
    assert [v["test/pick"] for v in values] == ["7", values[1]["test/one"], values[2]["test/one"], "1.51"]


def test_terminate_ends_the_run_with_its_outputs(tmp_path):
    """``simulation/terminate`` set at 0.5 s: the run ends in that frame, its row written, as JSBSim's does."""
    root, work = make_root(tmp_path)
    script = _script(root, "stop", """
    <event name="stop">
      <condition> simulation/sim-time-sec ge 0.5 </condition>
      <set name="simulation/terminate" value="1"/>
    </event>""", end="5", rate="10", logged=("position/h-sl-ft",))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    jsbsim_run(root, script)
    mine, jsb = read_rows(work / "events.csv"), read_rows(root / "events.csv")
    assert [r[0] for r in mine] == [r[0] for r in jsb] and mine[-1][0] == "0.5"
    assert abs(float(mine[-1][1]) - float(jsb[-1][1])) < 0.01


def test_a_wind_set_by_the_script_blows_as_jsbsims(tmp_path):
    """``atmosphere/wind-east-fps`` set to 60 ft/s at 1 s: the drag carries the ball East as in JSBSim."""
    root, work = make_root(tmp_path)
    script = _script(root, "wind", """
    <event name="gust">
      <condition> simulation/sim-time-sec ge 1 </condition>
      <set name="atmosphere/wind-east-fps" value="60"/>
    </event>""", end="6", rate="1",
                     logged=("velocities/v-east-fps", "position/long-gc-deg", "atmosphere/wind-east-fps"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    jsbsim_run(root, script)
    mine, jsb = read_rows(work / "events.csv"), read_rows(root / "events.csv")
    assert len(mine) == len(jsb) == 8
    for a, b in zip(mine[1:], jsb[1:], strict=True):
        assert a[0] == b[0] and a[3] == b[3]
        assert abs(float(a[1]) - float(b[1])) < 2e-3 and abs(float(a[2]) - float(b[2])) < 1e-8
    assert float(mine[-1][1]) > 0.4 and float(mine[1][1]) == 0.0



def test_a_wind_direction_and_speed_set_by_the_script_are_jsbsims(tmp_path):
    """``atmosphere/psiw-rad`` and ``wind-mag-fps`` as FGWinds' setters: a direction written to the calm air is
    lost (SetWindspeed then blows North and the direction goes back to 0), a speed then a direction turn the wind,
    a speed keeps the direction; the ball drifts with each as JSBSim's, its distances from the start
    (``position/distance-from-start-*-mt``) JSBSim's."""
    root, work = make_root(tmp_path)
    script = _script(root, "winddir", """
    <event name="direction while calm">
      <condition> simulation/sim-time-sec ge 0.5 </condition>
      <set name="atmosphere/psiw-rad" value="1.2"/>
    </event>
    <event name="speed">
      <condition> simulation/sim-time-sec ge 1 </condition>
      <set name="atmosphere/wind-mag-fps" value="40"/>
    </event>
    <event name="direction">
      <condition> simulation/sim-time-sec ge 2 </condition>
      <set name="atmosphere/psiw-rad" value="2.5"/>
    </event>
    <event name="speed again">
      <condition> simulation/sim-time-sec ge 3 </condition>
      <set name="atmosphere/wind-mag-fps" value="-20"/>
    </event>""", end="4", rate="2",
                     logged=("atmosphere/psiw-rad", "atmosphere/wind-mag-fps", "atmosphere/wind-north-fps",
                             "atmosphere/wind-east-fps", "velocities/v-east-fps",
                             "position/distance-from-start-mag-mt", "position/distance-from-start-lon-mt",
                             "position/distance-from-start-lat-mt"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    jsbsim_run(root, script)
    mine, jsb = read_rows(work / "events.csv"), read_rows(root / "events.csv")
    assert mine[0] == jsb[0] and len(mine) == len(jsb) == 1 + 9
    for a, b in zip(mine[1:], jsb[1:], strict=True):
        assert a[:5] == b[:5], (a, b)
        assert abs(float(a[5]) - float(b[5])) < 1e-3
        for k in (6, 7, 8):                     # (FGAuxiliary's distances from the start, m)
            assert abs(float(a[k]) - float(b[k])) < 1e-4, (a[0], k, a[k], b[k])
    assert float(mine[-1][6]) > 0.01 and float(mine[-1][6]) >= max(float(mine[-1][7]), float(mine[-1][8]))
    rows = {float(r[0]): [float(x) for x in r[1:5]] for r in mine[1:]}
    assert rows[0.5] == [0.0, 0.0, 0.0, 0.0]                 # (the direction lost on the calm air)
    assert rows[1.5][1:3] == [40.0, 40.0]                     # (North, the direction back at 0)
    assert rows[2.5][0] == 2.5 and abs(rows[2.5][2] - 40.0 * math.cos(2.5)) < 1e-12
    assert rows[4.0][1] == 20.0 and abs(rows[4.0][3] + 20.0 * math.sin(2.5)) < 1e-12

BAD = [
    ("<event name='e'> <condition> test/nothing gt 1 </condition> <notify/> </event>",
     "<condition> (line 6)", "test/nothing"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='test/x' value='1' action='FG_JUMP'/> </event>", "<set> action= (line 6)", "FG_JUMP"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition> </event>", "<event> (line 6)",
     "no <set> and no <notify>"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='test/x' value='1' action='FG_EXP' tc='0'/> </event>", "<set> tc= (line 6)", "> 0"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='velocities/vt-fps' value='100'/> </event>", "<set> name= (line 6)", "read-only"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='test/nothing' value='1'/> </event>", "<set> name= (line 6)", "test/nothing"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='simulation/do_simple_trim' value='3'/> </event>", "<set> value= (line 6)", "pull-up"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='propulsion/active_engine' value='7'/> </event>", "<set> value= (line 6)", "active_engine 7"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='propulsion/set-running' value='7'/> </event>", "<set> value= (line 6)", "no such engine"),
    ("<event name='e'> <condition> simulation/sim-time-sec between 1 </condition> <notify/> </event>",
     "<condition> (line 6)", "between"),
    ("<event name='e'> <condition logic='XOR'> simulation/sim-time-sec gt 1 </condition> <notify/> </event>",
     "<condition> logic= (line 6)", "XOR"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt </condition> <notify/> </event>",
     "<condition> (line 6)", "three words"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition> <set name='test/x'> <function>"
     " <table> <independentVar> simulation/sim-time-sec </independentVar> <tableData> 0 1\n 2 x </tableData>"
     " </table> </function> </set> </event>", "<table> (line 6)", "not numbers: '2 x'"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition> <set name='test/x'> <function>"
     " <table> <independentVar> test/nothing </independentVar> <tableData> 0 1\n 2 3 </tableData>"
     " </table> </function> </set> </event>", "<set> (line 6)", "test/nothing"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition> <set name='test/x'> <function>"
     " <switch> <v> 0 </v> </switch> </function> </set> </event>", "<switch> (line 6)", "at least 2"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='ic/alpha-deg' value='3'/> </event>", "<set> name= (line 6)", "ic/h-sl-ft, ic/h-agl-ft"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='simulation/gravitational-torque' value='2'/> </event>", "<set> value= (line 6)",
     "gravitational-torque = 2: not supported (the gravity-gradient torque is on (1) or off (0))"),
    ("<property value='0'> simulation/gravity-model </property>", "<property> value= (line 6)", "J2 model"),
    ("<event name='e'> <condition> simulation/sim-time-sec gt 1 </condition>"
     " <set name='atmosphere/total-wind-east-fps' value='1'/> </event>", "<set> name= (line 6)", "read-only"),
]


@pytest.mark.parametrize("event, where, says", BAD, ids=[b[2] for b in BAD])
def test_bad_events_are_one_line_and_write_nothing(tmp_path, event, where, says):
    root, work = make_root(tmp_path)
    script = _script(root, "bad", "\n    <property value='0'> test/x </property>\n    " + event,
                     logged=("test/x",), out=str(work / "events.csv"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flightsim: error: "), done.stderr
    assert "bad.xml" in lines[0] and where in lines[0] and says in lines[0], lines[0]
    assert not list(work.iterdir()) and done.stdout == ""


def test_a_run_without_dt_is_refused(tmp_path):
    root, work = make_root(tmp_path)
    script = _script(root, "nodt", "")
    path = root / script
    path.write_text(path.read_text().replace(' dt="0.01"', ""))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 2 and "<run> dt= (line 4)" in done.stderr and "required" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not list(work.iterdir())


def test_rudder_kick_fires_as_jsbsims_and_flies_close(tmp_path):
    """JSBSim's ``rudder_kick``: the 737 trimmed (``do_simple_trim`` 1) at the first frame, rudder and aileron
    ramped from 0.1 s, a persistent notice every second.  The same events at the same frames (every notice's
    heading equal), the commands equal, and over the 20 s the height within 3 ft, the airspeed within 0.3 kt,
    the pitch within 0.1° and α, β within 0.05° of JSBSim's."""
    import jsbsim

    root = Path(jsbsim.__file__).parent
    done = cli("script", "scripts/rudder_kick.xml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, "scripts/rudder_kick.xml"))
    assert [(n, k, t) for n, k, t, _ in ours] == [(n, k, t) for n, k, t, _ in theirs]
    assert len(ours) == 23 and ours[1][:3] == ("RudderInput", 1, "0.108329")
    tolerance = {"position/h-sl-ft": 3.0, "velocities/vc-kts": 0.3, "attitude/theta-deg": 0.1,
                 "aero/alpha-deg": 0.05, "aero/beta-deg": 0.05, "fcs/rudder-cmd-norm": 1e-5,
                 "fcs/aileron-cmd-norm": 1e-5}
    for (_, _, t, mine), (_, _, _, jsb) in zip(ours, theirs, strict=True):
        for (caption, a), (_, b) in zip(mine, jsb, strict=True):
            assert abs(float(a) - float(b)) <= tolerance[caption], (t, caption, a, b)


def test_ic_properties_are_the_reset_files_and_a_trim_starts_from_them(tmp_path):
    """JSBSim's ``737_test``: the script sets ``ic/h-sl-ft`` and ``ic/mach``, prints them, then trims
    (``do_simple_trim`` 0), which starts from the IC so changed (Mach 0.78 where the reset file says 750 ft/s).
    The same notices at the same frames, the ``ic/*`` values printed alike, and after the trim the Mach number
    within 1e-4, the true airspeed within 0.01 ft/s, the pitch within 0.0005 rad and the thrust within 0.5 % of
    JSBSim's."""
    import jsbsim

    root = Path(jsbsim.__file__).parent
    done = cli("script", "scripts/737_test.xml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, "scripts/737_test.xml"))
    assert [(n, k, t) for n, k, t, _ in ours] == [(n, k, t) for n, k, t, _ in theirs]
    assert ours[0][3] == theirs[0][3] == [("Altitude ASL", "30000"), ("Mach .......", "0.78")]
    mine, jsb = dict(ours[-1][3]), dict(theirs[-1][3])
    assert abs(float(mine["velocities/mach"]) - 0.78) < 1e-4 and jsb["velocities/mach"] == "0.78"
    assert abs(float(mine["velocities/vt-fps"]) - float(jsb["velocities/vt-fps"])) < 0.01
    assert abs(float(mine["attitude/theta-rad"]) - float(jsb["attitude/theta-rad"])) < 5e-4
    thrust = "propulsion/engine[0]/thrust-lbs"
    assert abs(float(mine[thrust]) / float(jsb[thrust]) - 1.0) < 0.005


def test_a_kml_notice_is_jsbsims(tmp_path):
    """``<notify format="kml">``: JSBSim's placemark, the ball's longitude, latitude and height (m) its point."""
    root, work = make_root(tmp_path)
    script = _script(root, "kml", """
    <event name="mark">
      <condition> simulation/sim-time-sec ge 0.5 </condition>
      <notify format="kml"> <property caption="h"> position/h-sl-ft </property> </notify>
    </event>""", end="1", rate="1", logged=("position/h-sl-ft",))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    theirs = jsbsim_run(root, script)

    def placemark(text):
        return text[text.index("<Placemark>"):text.index("</Placemark>")]

    ours = placemark(done.stdout)
    assert ours == placemark(theirs)
    assert "<b>mark (Event 0) executed at time: 0.5</b><br/>" in ours and "<coordinates>10,30,9" in ours


def test_a_steady_turn_trims_and_fires_as_jsbsims(tmp_path):
    """JSBSim's ``737_cruise_steady_turn``: engines set running, a turn trim (``do_simple_trim`` 5) at 0.1 s, a
    notice every 5 s for 100 s.  The same 23 notices at the same frames; the bank within 0.2° and the airspeed
    within 0.5 % of JSBSim's at each; and ``737_cruise``'s output CSV (its ``file=`` adding the templates its
    properties apply) with JSBSim's header and times."""
    import jsbsim

    package = Path(jsbsim.__file__).parent
    root = tmp_path / "root"                    # (JSBSim writes its outputs into its root: not the package's)
    root.mkdir()
    for name in ("aircraft", "engine", "systems", "scripts"):
        (root / name).symlink_to(package / name)
    work = tmp_path / "work"
    work.mkdir()
    script = "scripts/737_cruise_steady_turn.xml"
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, script))
    assert [(n, k, t) for n, k, t, _ in ours] == [(n, k, t) for n, k, t, _ in theirs] and len(ours) == 23
    k = next(k for k, v in enumerate(ours) if v[0] == "Trim")
    assert float(ours[k][2]) > 5.0               # (its notice waits for the delay: 5 s after 0.1 s)
    for (_, _, t, mine), (_, _, _, jsb) in zip(ours[k + 1:], theirs[k + 1:], strict=True):
        a, b = dict(mine), dict(jsb)
        assert abs(float(a["attitude/phi-rad"]) - float(b["attitude/phi-rad"])) < 0.0035, t
        assert abs(float(a["velocities/vt-fps"]) / float(b["velocities/vt-fps"]) - 1) < 0.005, t
    # 737_cruise: its output's file= adds the templates its properties apply: JSBSim's header, times and values
    script = "scripts/737_cruise.xml"
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    jsbsim_run(root, script)
    mine, jsb = read_rows(work / "737_cruise_output.csv"), read_rows(root / "737_cruise_output.csv")
    assert mine[0] == jsb[0] and [r[0] for r in mine] == [r[0] for r in jsb] and len(mine) == 1002
    assert mine[0][1] == "propulsion/engine[0]/thrust-N"
    a, b = dict(zip(mine[0], map(float, mine[-1]), strict=True)), dict(zip(jsb[0], map(float, jsb[-1]), strict=True))
    assert a["attitude/theta-deg"] == pytest.approx(math.degrees(a["/fdm/jsbsim/attitude/theta-rad"]), rel=1e-8)
    assert abs(a["propulsion/engine[0]/thrust-N"] / b["propulsion/engine[0]/thrust-N"] - 1) < 0.01


def test_a_failed_trim_ends_the_run_and_writes_nothing(tmp_path):
    """``do_simple_trim`` on the drop ball (no lift, no engine): JSBSim's TrimFailureException; exit 1, one line
    naming the time and the trim, no output."""
    root, work = make_root(tmp_path)
    script = _script(root, "trim", """
    <event name="trim">
      <condition> simulation/sim-time-sec ge 0.2 </condition>
      <set name="simulation/do_simple_trim" value="1"/>
    </event>""", end="1", rate="1", logged=("position/h-sl-ft",), out=str(work / "events.csv"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip() and "first start only" not in line]
    assert len(lines) == 1 and "at 0.2 s" in lines[0] and "full trim (do_simple_trim 1) failed" in lines[0], lines
    assert "nothing written" in lines[0] and not list(work.iterdir())


ECHO_SYSTEM = """  <system name="echo">
    <property value="0"> test/input </property>
    <channel name="echo">
      <pure_gain name="test/echo-gain">
        <input> test/input </input>
        <gain> 1.0 </gain>
        <output> test/echo </output>
      </pure_gain>
    </channel>
  </system>
</fdm_config>
"""

ECHO_EVENTS = """
    <event name="set">
      <condition> simulation/sim-time-sec ge 0.1 </condition>
      <set name="test/input" value="1"/>
      <notify> <property> test/echo </property> <property> simulation/frame </property> </notify>
    </event>
    <event name="seen">
      <condition> test/echo ge 1 </condition>
      <notify> <property> test/echo </property> <property> simulation/frame </property> </notify>
    </event>
    <event name="guard">
      <condition>
        test/echo lt 1
        test/input eq 1
      </condition>
      <notify> <property> test/echo </property> <property> simulation/frame </property> </notify>
    </event>"""


def test_a_script_reads_the_flight_controls_of_the_last_frame_as_jsbsim(tmp_path):
    """JSBSim's frame runs the script before its models: what an event sets reaches the flight controls in that
    frame, and the next frame's script reads their output (c3104's waypoints: ``guidance/wp-distance`` after
    ``ap/active-waypoint``).  A system echoing a property the script sets: the echo is seen one frame after the
    set, not two, and a guard reading the echo and the property together fires in the set's frame only."""
    root, work = make_root(tmp_path)
    path = root / "aircraft" / "drop" / "drop.xml"
    path.write_text(path.read_text().replace("</fdm_config>\n", ECHO_SYSTEM))
    script = _script(root, "echo", ECHO_EVENTS, end="0.3", logged=("test/echo",))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours = notices(done.stdout)
    assert ours == notices(jsbsim_run(root, script))
    frames = {name: dict(values)["simulation/frame"] for name, _, _, values in ours}
    assert [n for n, _, _, _ in ours] == ["set", "guard", "seen"]
    assert frames == {"set": "11", "guard": "11", "seen": "12"}   # (the clock's sum of 0.01s passes 0.1 at 11)


RESET_EVENTS = """
    <property value="1" persistent="true"> test/run </property>
    <property value="0"> test/local </property>
    <event name="count">
      <condition> simulation/sim-time-sec ge 0.2 </condition>
      <set name="test/local" value="1" type="FG_DELTA"/>
      <notify> <property> test/run </property> <property> test/local </property> </notify>
    </event>
    <event name="again">
      <condition>
        simulation/sim-time-sec ge 0.5
        test/run lt 3
      </condition>
      <set name="test/run" value="1" type="FG_DELTA"/>
      <set name="ic/terrain-elevation-ft">
        <function> <product> <property> test/run </property> <value> 100 </value> </product> </function>
      </set>
      <set name="simulation/reset" value="1"/>
      <notify>
        <property> test/run </property> <property> position/terrain-elevation-asl-ft </property>
        <property> position/h-agl-ft </property> <property> simulation/frame </property>
      </notify>
    </event>"""


def test_a_reset_runs_again_from_the_reset_file_as_jsbsim(tmp_path):
    """``simulation/reset`` 1 (c172_elevation_test's, c172_cruise_8K's): the flight back at the reset file's
    condition over the terrain the script set (``ic/terrain-elevation-ft``; the ball's height given above the
    ground, so it moves with it), the clock back at the start, the events re-armed, the declared properties back
    (a persistent one kept), and each run's output in a file of its own (``NAME_0.csv``, ``NAME_1.csv``): the
    notices and the three files as JSBSim's."""
    root, work = make_root(tmp_path, alt="1000.0")
    script = _script(root, "reset", RESET_EVENTS, end="0.8", rate="20", out="resets.csv",
                     logged=("position/h-agl-ft", "position/h-sl-ft"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, script))
    assert ours == theirs
    assert [(n, t) for n, _, t, _ in ours] == [("count", "0.2"), ("again", "0.5"), ("count", "0.2"), ("again", "0.5"),
                                              ("count", "0.2")]
    assert [dict(v)["position/terrain-elevation-asl-ft"] for n, _, _, v in ours if n == "again"] == ["100", "200"]
    assert [dict(v)["test/local"] for n, _, _, v in ours if n == "count"] == ["1", "1", "1"]
    for name in ("resets.csv", "resets_0.csv", "resets_1.csv"):
        mine, jsb = read_rows(work / name), read_rows(root / name)
        assert mine[0] == jsb[0] and [r[0] for r in mine] == [r[0] for r in jsb], name
        for a, b in zip(mine[1:], jsb[1:], strict=True):
            assert abs(float(a[1]) - float(b[1])) < 0.01 and abs(float(a[2]) - float(b[2])) < 0.01, (name, a, b)
    last = read_rows(work / "resets_1.csv")[-1]
    assert abs(float(last[2]) - float(last[1]) - 200.0) < 0.05 and float(last[1]) < 1000.0    # (200 ft terrain)


AIRCRAFT_OUTPUT = """  <output name="aircraft_log.csv" type="CSV" rate="20">
    <function name="test/not-logged"> <sum> <value> 1 </value> <value> 2 </value> </sum> </function>
    <property> position/h-sl-ft </property>
    <property> velocities/v-down-fps </property>
  </output>
  <output name="localhost" type="SOCKET" port="1138" rate="20"/>
</fdm_config>
"""

RATE_EVENTS = """
    <event name="slower">
      <condition> simulation/sim-time-sec ge 0.3 </condition>
      <set name="simulation/output/log_rate_hz" value="10"/>
      <set name="simulation/output[2]/enabled" value="0"/>
      <set name="simulation/write-state-file" value="2"/>
      <notify> <property> simulation/output/log_rate_hz </property> </notify>
    </event>
    <event name="state">
      <condition> simulation/sim-time-sec ge 0.6 </condition>
      <set name="simulation/write-state-file" value="1"/>
      <set name="simulation/output[2]/enabled" value="1"/>
    </event>"""


def test_the_aircrafts_output_its_rate_and_a_state_file_are_jsbsims(tmp_path):
    """The aircraft file's ``<output>`` is written as JSBSim writes it (numbered before the script's: a SOCKET one
    flightsim does not open keeps its number, a function it defines is not logged), ``simulation/output/log_rate_hz``
    (c1723's) changes its rate and ``…/enabled`` turns the script's own off and on, in JSBSim's frames; and
    ``simulation/write-state-file`` writes the state as JSBSim's reset files of version 2 and 1."""
    root, work = make_root(tmp_path)
    path = root / "aircraft" / "drop" / "drop.xml"
    path.write_text(path.read_text().replace("</fdm_config>\n", AIRCRAFT_OUTPUT))
    script = _script(root, "rates", RATE_EVENTS, end="1.0", rate="50", out="own.csv",
                     logged=("position/h-sl-ft",))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    assert "<output> (line" in done.stderr and "not written" in done.stderr and "SOCKET" in done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, script))
    assert ours == theirs and ours[0][3] == [("simulation/output/log_rate_hz", "10")]
    for name in ("aircraft_log.csv", "own.csv"):
        mine, jsb = read_rows(work / name), read_rows(root / name)
        assert mine[0] == jsb[0] and [r[0] for r in mine] == [r[0] for r in jsb], name
        for a, b in zip(mine[1:], jsb[1:], strict=True):
            assert all(abs(float(x) - float(y)) < 0.01 for x, y in zip(a, b, strict=True)), (name, a, b)
    times = [float(r[0]) for r in read_rows(work / "aircraft_log.csv")[1:]]
    assert times[:3] == [0.0, 0.05, 0.1] and 0.4 in times and 0.45 not in times
    own = [float(r[0]) for r in read_rows(work / "own.csv")[1:]]
    assert 0.28 in own and not any(0.3 <= x < 0.6 for x in own) and 0.6 in own
    for state in ("initfile.0.300000.xml", "initfile.0.600000.xml"):
        mine, jsb = (f.read_text().splitlines() for f in (work / state, root / state))
        assert len(mine) == len(jsb) and mine[:2] == jsb[:2], state
        for a, b in zip(mine, jsb, strict=True):
            wa, wb = a.split(), b.split()
            assert len(wa) == len(wb)
            for x, y in zip(wa, wb, strict=True):
                if x != y:
                    assert abs(float(x) - float(y)) < 1e-3 * max(1.0, abs(float(y))), (state, a, b)


@pytest.mark.parametrize("sets, says", [
    ('<set name="ic/terrain-elevation-ft" value="50"/>', "ic/terrain-elevation-ft set to 50 with no simulation/reset"),
    ('<set name="simulation/reset" value="2"/>', "only modes 0 and 1"),
    ('<set name="simulation/write-state-file" value="3"/>', "1 or 2")])
def test_a_reset_or_state_file_flightsim_cannot_do_ends_the_run_and_writes_nothing(tmp_path, sets, says):
    """The terrain moved with no reset after it (flightsim moves it at a reset only), a reset that does not run the
    reset file (DONT_EXECUTE_RUN_IC), a state file of no version: exit 1, one line, no output nor state file."""
    root, work = make_root(tmp_path)
    script = _script(root, "bad", f"""
    <event name="bad">
      <condition> simulation/sim-time-sec ge 0.2 </condition>
      <set name="simulation/write-state-file" value="0"/>
      {sets}
    </event>""", end="1", rate="1", logged=("position/h-sl-ft",), out=str(work / "bad.csv"))
    done = cli("script", script, "--root", str(root), cwd=work)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip() and "first start only" not in line]
    assert len(lines) == 1 and "at 0.2 s" in lines[0] and says in lines[0], lines
    assert not list(work.iterdir())


def _fly_events(schedule):
    """Events on a clock, a reset in the middle (the clock back at 0, every event re-armed, in the frame of the
    event that resets), run frame after frame by one :class:`EventRunner` that schedules them by the clock
    (``schedule``) or by a runner made afresh each frame that looks at every event: the writes (clock, name,
    value), the notices and each event's triggers."""
    from flightsim.simulation.script_events import Condition, Event, EventRunner, Notice, SetAction, Test

    clock = "simulation/sim-time-sec"

    def step(name, value, action="FG_STEP", kind="FG_VALUE", tc=0.0):
        return SetAction(name, value, None, action, kind, tc)

    def when(*terms, logic="AND"):
        return Condition(logic, tuple(terms))

    notice = Notice("", (("c", "test/c", None),))
    events = [
        Event("a", when(Test(clock, 1.0, "ge", 0.05), Test("test/a", 1.0, "ge", 0.0)), [step("test/b", 1.0)],
              notice),
        Event("every 0.03 s", when(Test(clock, 1.0, "gt", 0.1), Test(clock, 1.0, "ge", "test/trigger")),
              [step("test/c", 1.0, kind="FG_DELTA"), step("test/trigger", 0.03, kind="FG_DELTA")], notice,
              persistent=True),
        Event("ramp", when(Test(clock, 1.0, "ge", 0.12)), [step("test/e", 1.0, "FG_RAMP", tc=0.05)], notice,
              delay=0.02),
        Event("reset", when(Test("test/c", 1.0, "ge", 3.0), Test(clock, 1.0, "ge", 0.2)),
              [step("test/reset", 1.0), step("test/f", 2.0)], notice),
        Event("or", when(Test(clock, 1.0, "ge", 0.15), Test("test/c", 1.0, "ge", 5.0), logic="OR"),
              [step("test/d", 2.0)], None, continuous=True),
        Event("late", when(Test(clock, 1.0, "ge", 0.3)), [], notice),
    ]
    store = {clock: 0.0, **{f"test/{x}": 0.0 for x in ("a", "b", "c", "d", "e", "f", "reset")}, "test/trigger": 0.11}
    writes, notices, resets = [], [], []
    runner = None

    def write(name, value):
        writes.append((store[clock], name, value))
        if name == "test/reset":
            if not resets:
                resets.append(store[clock])
                store[clock] = 0.0
                runner.rearm()
            return
        store[name] = value

    def unused(tree, read):
        raise AssertionError("no functions here")

    if schedule:
        runner = EventRunner(events, store.__getitem__, write, unused, notices.append, clock=clock)
    for _ in range(60):
        store[clock] = now = round(store[clock] + 0.01, 10)
        if not schedule:
            runner = EventRunner(events, store.__getitem__, write, unused, notices.append)
        runner.run(now)
    return writes, notices, [ev.fired for ev in events], resets


def test_events_scheduled_by_the_clock_run_as_every_event_looked_at_each_frame():
    """An event waiting for the clock (an AND of ``sim-time-sec ge|gt VALUE`` and more) asleep till then, and a
    plain event done left out, change nothing: the same writes, notices and triggers, through a reset in the
    middle of a frame, as a runner that looks at every event every frame."""
    scheduled, every = _fly_events(True), _fly_events(False)
    assert scheduled == every
    writes, notices, fired, resets = scheduled
    assert resets == [0.2] and len(fired[0]) == 2 and len(fired[5]) == 1    # (the reset ran; "late" fired after)
    assert any(name == "test/e" for _, name, _ in writes) and notices


FGTRIM_SCRIPT = """<?xml version="1.0"?>
<runscript name="fgtrim">
  <use aircraft="{aircraft}" initialize="{reset}"/>
  <run start="0" end="0.03" dt="0.008333">
    <event name="running">
      <condition> simulation/sim-time-sec le 0.005 </condition>
      {running}
    </event>
    <event name="Trim">
      <condition> simulation/sim-time-sec gt 0.005 </condition>
      <set name="simulation/do_simple_trim" value="{mode}"/>
      <notify>
        <property> attitude/phi-rad </property>
        <property> attitude/theta-rad </property>
        <property> aero/beta-rad </property>
        <property> fcs/throttle-cmd-norm[0] </property>
        <property> fcs/pitch-trim-cmd-norm </property>
        <property> fcs/aileron-cmd-norm </property>
        <property> fcs/rudder-cmd-norm </property>
      </notify>
    </event>
  </run>
</runscript>
"""


def test_do_simple_trim_is_fgtrims_iteration(tmp_path):
    """``do_simple_trim`` 1 (the 737 at cruise: FGTrim's full trim, on JSBSim's rotating Earth) stops where
    JSBSim's axis-by-axis iteration stops, not at the exact balance: the bank (−0.0025 rad, the Coriolis
    acceleration balanced within FGTrim's tolerance), pitch, sideslip and the throttle, pitch-trim, aileron and
    rudder commands printed in the trim's frame equal JSBSim's to 1e-6 rad and 1e-5."""
    import jsbsim

    package = Path(jsbsim.__file__).parent
    root = tmp_path / "root"
    (root / "scripts").mkdir(parents=True)
    for name in ("aircraft", "engine", "systems"):
        (root / name).symlink_to(package / name)
    running = "".join(f'<set name="propulsion/engine[{k}]/set-running" value="1"/>' for k in range(2))
    (root / "scripts" / "fgtrim.xml").write_text(FGTRIM_SCRIPT.format(aircraft="737", reset="cruise_init", mode=1,
                                                                      running=running))
    work = tmp_path / "work"
    work.mkdir()
    done = cli("script", "scripts/fgtrim.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    ours, theirs = notices(done.stdout), notices(jsbsim_run(root, "scripts/fgtrim.xml"))
    assert [(n, t) for n, _, t, _ in ours] == [(n, t) for n, _, t, _ in theirs] == [("Trim", "0.008333")]
    mine, jsb = dict(ours[0][3]), dict(theirs[0][3])
    assert mine.keys() == jsb.keys() and len(mine) == 7
    for name, b in jsb.items():
        assert abs(float(mine[name]) - float(b)) <= (1e-6 if name.endswith("-rad") else 1e-5), (name, mine, jsb)
    assert abs(float(jsb["attitude/phi-rad"]) + 0.0025) < 1e-4       # (not 0: FGTrim's, not the balance)

"""JSBSim's turbines start and cut off as JSBSim's ``FGTurbine`` does: off until a script starts them, spun up by
the starter, lit with the fuel on above 15 % N2, running at idle N2, winding down when the fuel is cut off.

Each scenario is a hand-written script under a JSBSim root in ``tmp_path`` (the package's T37, two J69 turbines,
with reset files of this test's: on the runway, its CG where JSBSim's gear holds it), flown by ``flightsim script``
as a user runs it and by JSBSim (the ``jsbsim`` package) on the same files: each engine's N1, N2, thrust, running
flag and fuel flow frame by frame, and the notices (their frames and the values they print).
"""

import math
import re
import shutil
from pathlib import Path

import jsbsim
import pytest

from tests.test_jsbsim_engine_start import HEADING, jsbsim_stdout, numbers
from tests.test_script import cli

PACKAGE = Path(jsbsim.get_default_root_dir())
#: A notice's heading line, as JSBSim and flightsim print it.
#: A notice's property line.
VALUE = re.compile(r"^    (\S+) = (\S+)$")

GROUND = """<?xml version="1.0"?>
<initialize name="{name}">
  <ubody> 0.0 </ubody> <vbody> 0.0 </vbody> <wbody> 0.0 </wbody>
  <latitude unit="DEG"> 47.0 </latitude> <longitude unit="DEG"> 122.0 </longitude>
  <phi unit="DEG"> 0.0 </phi> <theta unit="DEG"> 0.0 </theta> <psi unit="DEG"> 150.0 </psi>
  <altitude> 1.6 </altitude>
  {running}
</initialize>
"""
#: Reset files of the test's: name → its <running> elements.
RESETS = {"ground": "", "running": "<running> -1 </running>"}

#: The T37 on the runway, brakes on: both starters at 0.25 s, the fuel on at 5 s (both light off near 5.3 s, at
#: 15 % N2, and reach idle N2 at 27.8 s), engine 0's throttle to 0.6 at 30 s, engine 1's fuel cut off alone
#: (``active_engine`` 1) at 32 s.
START = """<?xml version="1.0"?>
<runscript name="T37 engine start">
  <use aircraft="T37" initialize="ground"/>
  <run start="0.0" end="40.0" dt="0.00833333">
    <event name="Brakes">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
    </event>
    <event name="Starter">
      <condition> simulation/sim-time-sec ge 0.25 </condition>
      <set name="propulsion/starter_cmd" value="1"/>
      <notify>
        <property> propulsion/starter_cmd </property>
        <property> propulsion/cutoff_cmd </property>
      </notify>
    </event>
    <event name="Fuel">
      <condition> simulation/sim-time-sec ge 5.0 </condition>
      <set name="propulsion/cutoff_cmd" value="0"/>
      <notify/>
    </event>
    <event name="Running">
      <condition> propulsion/engine[0]/set-running ge 1 </condition>
      <notify>
        <property> propulsion/starter_cmd </property>
        <property> propulsion/cutoff_cmd </property>
        <property> propulsion/engine[1]/set-running </property>
      </notify>
    </event>
    <event name="Throttle">
      <condition> simulation/sim-time-sec ge 30.0 </condition>
      <set name="fcs/throttle-cmd-norm[0]" value="0.6"/>
      <notify/>
    </event>
    <event name="Cut off engine 1">
      <condition> simulation/sim-time-sec ge 32.0 </condition>
      <set name="propulsion/active_engine" value="1"/>
      <set name="propulsion/cutoff_cmd" value="1"/>
      <notify>
        <property> propulsion/cutoff_cmd </property>
        <property> propulsion/active_engine </property>
      </notify>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="120">
{properties}
  </output>
</runscript>
"""
#: The columns after the time, per engine.
COLUMNS = ("n1", "n2", "thrust-lbs", "set-running", "fuel-flow-rate-pps")
PROPERTIES = "\n".join(f"    <property> propulsion/engine[{k}]/{p} </property>" for k in range(2) for p in COLUMNS)

#: The T37 as a reset file leaves it, brakes on, for 5 s.
AS_RESET = """<?xml version="1.0"?>
<runscript name="T37 as the reset file leaves it">
  <use aircraft="T37" initialize="{init}"/>
  <run start="0.0" end="5.0" dt="0.00833333">
    <event name="Brakes">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="120">
{properties}
  </output>
</runscript>
"""


def _root(tmp_path):
    """A JSBSim root: the package's T37 with this test's reset files, its engines and systems."""
    root = tmp_path / "root"
    folder = root / "aircraft" / "T37"
    shutil.copytree(PACKAGE / "aircraft" / "T37", folder)
    for name, running in RESETS.items():
        (folder / f"{name}.xml").write_text(GROUND.format(name=name, running=running))
    for shared in ("engine", "systems"):
        (root / shared).symlink_to(PACKAGE / shared)
    (root / "scripts").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    return root, work


def _notices(text):
    """The notices in ``text``: (name, time, {property: value}) each."""
    out = []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            out.append((m.group(1).strip(), float(m.group(3)), {}))
            continue
        m = VALUE.match(line)
        if m and out:
            out[-1][2][m.group(1)] = float(m.group(2))
    return out


def _both(tmp_path, template, **fields):
    """``template`` run by JSBSim and by flightsim: (JSBSim's rows, flightsim's, JSBSim's notices, flightsim's)."""
    root, work = _root(tmp_path)
    for who in ("jsbsim", "flightsim"):
        text = template.format(out=str(work / f"{who}.csv"), properties=PROPERTIES, **fields)
        (root / "scripts" / f"{who}.xml").write_text(text)
    theirs = _notices(jsbsim_stdout(root, "scripts/jsbsim.xml"))
    done = cli("script", "scripts/flightsim.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    return numbers(work / "jsbsim.csv")[1], numbers(work / "flightsim.csv")[1], theirs, _notices(done.stdout)


def _column(k, name):
    return 1 + len(COLUMNS) * k + COLUMNS.index(name)


@pytest.fixture(scope="module")
def start_run(tmp_path_factory):
    """The T37's start (:data:`START`) in both."""
    return _both(tmp_path_factory.mktemp("start"), START)


def test_turbines_stand_then_spin_up_light_off_and_run_as_jsbsims(start_run):
    """Off (N1, N2 0, no thrust nor fuel flow) until the starters; N2 spun up at 3 %/s, lit at 15 % with the fuel
    on, to idle (60 % N2, 30 % N1) at 2 %/s and 1.4 %/s; running (the idle thrust, the idle fuel flow) in the same
    frame as JSBSim's; N1, N2 within 1e-4 % and the thrust within 0.01 lbf of JSBSim's frame by frame to 30 s
    (measured: 1e-6 %, 0.004 lbf), the fuel flow within 1e-6 lb/s."""
    jsb, ours, _, _ = start_run
    assert len(ours) == 4801 and len(jsb) - len(ours) in (0, 1)     # (JSBSim may write one frame past the end)
    assert ours[0][_column(0, "thrust-lbs")] == pytest.approx(jsb[0][_column(0, "thrust-lbs")], abs=1e-6)
    for j, f in zip(jsb[1:], ours[1:], strict=False):               # (0 s: run_ic's trim thrust, then off)
        assert f[0] == pytest.approx(j[0], abs=1e-6)
        if j[0] > 30.0:
            break
        for k in range(2):
            assert f[_column(k, "set-running")] == j[_column(k, "set-running")], (j, f)
            for name, tol in (("n1", 1e-4), ("n2", 1e-4), ("thrust-lbs", 0.01), ("fuel-flow-rate-pps", 1e-6)):
                assert f[_column(k, name)] == pytest.approx(j[_column(k, name)], abs=tol), (name, j, f)
    before = [r for r in ours[1:] if r[0] < 0.25]
    assert all(r[_column(k, name)] < 1e-3 for r in before for k in range(2) for name in ("n1", "n2", "thrust-lbs",
                                                                                          "fuel-flow-rate-pps"))
    lit = next(r for r in ours if r[_column(0, "fuel-flow-rate-pps")] > 0.0)
    assert 5.0 < lit[0] < 5.4 and lit[_column(0, "n2")] > 15.0
    k = next(k for k, r in enumerate(ours) if r[_column(0, "set-running")] == 1.0)
    assert 27.0 < ours[k][0] < 28.5 and ours[k][_column(0, "n2")] == pytest.approx(60.0)
    assert ours[k][_column(0, "n1")] == pytest.approx(30.0)
    assert ours[k][_column(0, "thrust-lbs")] == 0.0 < 40.0 < ours[k + 1][_column(0, "thrust-lbs")]   # (as JSBSim's:
    # the frame it lights is the start's, with no thrust; the next runs)


def test_throttle_and_one_engines_cutoff_as_jsbsims(start_run):
    """Engine 0's throttle at 30 s: its spools and thrust follow JSBSim's (within 0.1 % and 1 % of the thrust:
    measured 0.09 %, 0.7 % — the throttle reaches flightsim's engine a frame after JSBSim's); engine 1's fuel cut
    off alone (``active_engine`` 1) at 32 s: it stops in JSBSim's frame, its thrust and fuel flow gone, its spools
    winding down as JSBSim's, engine 0 running on."""
    jsb, ours, _, _ = start_run
    for j, f in zip(jsb[1:], ours[1:], strict=False):
        if j[0] <= 30.0:
            continue
        for k in range(2):
            assert f[_column(k, "set-running")] == j[_column(k, "set-running")], (j, f)
            assert f[_column(k, "n1")] == pytest.approx(j[_column(k, "n1")], abs=0.1), (j, f)
            assert f[_column(k, "n2")] == pytest.approx(j[_column(k, "n2")], abs=0.1), (j, f)
            assert f[_column(k, "thrust-lbs")] == pytest.approx(j[_column(k, "thrust-lbs")], rel=0.01, abs=0.01)
    end = ours[-1]
    assert end[_column(0, "set-running")] == 1.0 and end[_column(0, "n2")] > 80.0
    assert end[_column(1, "set-running")] == 0.0 and end[_column(1, "thrust-lbs")] == 0.0
    assert end[_column(1, "fuel-flow-rate-pps")] < 0.01 and end[_column(1, "n2")] < 60.0 - 5.0


def test_start_notices_as_jsbsims(start_run):
    """The notices: the same events at the same times, and the same values of ``propulsion/starter_cmd`` (every
    engine's starter: off once they run), ``cutoff_cmd`` (the active engine's after 32 s) and ``active_engine``."""
    _, _, theirs, ours = start_run
    assert [n for n, _, _ in ours] == [n for n, _, _ in theirs] == ["Starter", "Fuel", "Running", "Throttle",
                                                                   "Cut off engine 1"]
    for (_, t_ours, v_ours), (_, t_theirs, v_theirs) in zip(ours, theirs, strict=True):
        assert math.isclose(t_ours, t_theirs, abs_tol=1e-4), (ours, theirs)
        assert v_ours == v_theirs
    assert ours[0][2] == {"propulsion/starter_cmd": 1.0, "propulsion/cutoff_cmd": 1.0}
    assert ours[-1][2] == {"propulsion/cutoff_cmd": 1.0, "propulsion/active_engine": 1.0}


@pytest.mark.parametrize("init, runs", [("running", True), ("ground", False)])
def test_reset_file_decides_which_turbines_run(tmp_path, init, runs):
    """A reset file's ``<running> -1``: both turbines started as ``RunIC`` starts them (``InitRunning``, then
    ``GetSteadyState``'s 0.5 s frames at throttle 1: the spools at their maximum when the flight begins, falling
    to idle), as JSBSim's frame by frame (N within 1e-3 %; thrust within 0.2 %, measured 0.1 %: near full thrust
    flightsim's T37 creeps forward against its brakes, 4.7 ft/s where JSBSim's holds at 0.13 ft/s, and the
    thrust tables read the Mach number); none: they stand (off, windmilling at nothing), as JSBSim's."""
    jsb, ours, _, _ = _both(tmp_path, AS_RESET, init=init)
    assert len(ours) == 601 and len(jsb) - len(ours) in (0, 1)
    for j, f in zip(jsb[1:], ours[1:], strict=False):
        for k in range(2):
            assert f[_column(k, "set-running")] == j[_column(k, "set-running")], (j, f)
            for name, tol in (("n1", 1e-3), ("n2", 1e-3)):
                assert f[_column(k, name)] == pytest.approx(j[_column(k, name)], abs=tol), (name, j, f)
            assert f[_column(k, "thrust-lbs")] == pytest.approx(j[_column(k, "thrust-lbs")], rel=2e-3, abs=0.01)
    first, last = ours[1], ours[-1]
    assert (first[_column(0, "n2")] > 99.0) == runs and (last[_column(1, "set-running")] == 1.0) == runs
    assert (last[_column(0, "n2")] < 1.0) == (not runs)


BAD = """<?xml version="1.0"?>
<runscript name="bad">
  <use aircraft="{aircraft}" initialize="{init}"/>
  <run start="0.0" end="0.1" dt="0.00833333">
    <event name="Bad">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="{name}" value="{value}"/>
    </event>
  </run>
</runscript>
"""


@pytest.mark.parametrize("aircraft, init, name, value, words", [
    ("T37", "ground", "propulsion/active_engine", 2, ("active_engine 2", "no such engine", "has 2")),
    ("DHC6", "ground", "propulsion/starter_cmd", 1, ("propulsion/starter_cmd", "turboprop starts")),
    ("DHC6", "ground", "propulsion/cutoff_cmd", 0, ("propulsion/cutoff_cmd", "turboprop starts"))])
def test_bad_engine_switches_refused_in_one_line(tmp_path, aircraft, init, name, value, words):
    """An engine the aircraft does not have made the active one (JSBSim quietly takes it as all of them), and a
    turboprop's start or cut-off (the DHC6's PT6As: FGTurboProp's start is not modelled): one line naming the
    script, the element's line and what is wrong, exit 2, before anything flies."""
    root, work = _root(tmp_path)
    if aircraft != "T37":
        shutil.copytree(PACKAGE / "aircraft" / aircraft, root / "aircraft" / aircraft)
        (root / "aircraft" / aircraft / f"{init}.xml").write_text(GROUND.format(name=init, running=""))
    (root / "scripts" / "bad.xml").write_text(BAD.format(aircraft=aircraft, init=init, name=name, value=value))
    done = cli("script", "scripts/bad.xml", "--root", str(root), cwd=work)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip() and "first start only" not in line]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "bad.xml" in lines[0] and all(w in lines[0] for w in words), lines[0]


#: The T37 started by its reset file, throttle 0.5: engine 1 seized at 1 s, engine 0 stalled at 2 s, its throttle to
#: idle at 4 s (which clears the stall).
STALL = """<?xml version="1.0"?>
<runscript name="T37 stall and seize">
  <use aircraft="T37" initialize="running"/>
  <run start="0.0" end="6.0" dt="0.00833333">
    <event name="Brakes">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
      <set name="fcs/throttle-cmd-norm[0]" value="0.5"/>
    </event>
    <event name="Seize">
      <condition> simulation/sim-time-sec ge 1.0 </condition>
      <set name="propulsion/engine[1]/seized" value="1"/>
      <notify/>
    </event>
    <event name="Stall">
      <condition> simulation/sim-time-sec ge 2.0 </condition>
      <set name="propulsion/engine[0]/stalled" value="1"/>
      <notify/>
    </event>
    <event name="Idle">
      <condition> simulation/sim-time-sec ge 4.0 </condition>
      <set name="fcs/throttle-cmd-norm[0]" value="0.0"/>
      <notify>
        <property> propulsion/engine[0]/stalled </property>
      </notify>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="120">
{properties}
    <property> propulsion/engine[0]/stalled </property>
  </output>
</runscript>
"""


def test_stall_and_seize_as_jsbsims(tmp_path):
    """JSBSim's own ``…/seized`` and ``…/stalled`` set by a script: the seized engine stops at once (N2 0, N1
    falling, no thrust, not running), the stalled one loses its thrust and both spools fall a tenth of
    themselves a second, in JSBSim's frames (N1, N2 within 1e-4 % of JSBSim's to 4 s: measured 0); the throttle
    at idle clears the stall (a frame after JSBSim's: the throttle reaches flightsim's engine a frame later), and
    the engine runs again."""
    jsb, ours, theirs, mine = _both(tmp_path, STALL)
    assert [n for n, _, _ in mine] == [n for n, _, _ in theirs] == ["Seize", "Stall", "Idle"]
    assert len(ours) == 721 and len(jsb) - len(ours) in (0, 1)
    stalled = 1 + 2 * len(COLUMNS)
    cleared = {who: next(r[0] for r in rows if r[0] > 4.0 and r[stalled] == 0.0) for who, rows in
               (("jsbsim", jsb), ("flightsim", ours))}
    assert 0.0 <= cleared["flightsim"] - cleared["jsbsim"] < 0.0084
    for j, f in zip(jsb[1:], ours[1:], strict=False):
        for k in range(2):
            tol = 1e-4 if j[0] < 4.0 else 0.2
            assert f[_column(k, "n1")] == pytest.approx(j[_column(k, "n1")], abs=tol), (j, f)
            assert f[_column(k, "n2")] == pytest.approx(j[_column(k, "n2")], abs=tol), (j, f)
            if j[0] < 4.0:
                assert f[_column(k, "set-running")] == j[_column(k, "set-running")] and f[stalled] == j[stalled]
                assert f[_column(k, "thrust-lbs")] == pytest.approx(j[_column(k, "thrust-lbs")], rel=5e-3, abs=1e-6)
    seized = [r for r in ours if r[0] > 1.01]
    assert all(r[_column(1, "n2")] == 0.0 and r[_column(1, "thrust-lbs")] == 0.0 for r in seized)
    assert all(r[_column(0, "thrust-lbs")] == 0.0 for r in ours if 2.01 < r[0] < 4.0)
    assert ours[-1][_column(0, "set-running")] == 1.0 and ours[-1][_column(0, "thrust-lbs")] > 40.0


#: The T37 standing (its reset file starts nothing): ``propulsion/set-running`` −1 at 1 s, the fuel cut off at 2 s.
SET_RUNNING = """<?xml version="1.0"?>
<runscript name="T37 set running">
  <use aircraft="T37" initialize="ground"/>
  <run start="0.0" end="4.0" dt="0.00833333">
    <event name="Brakes">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
    </event>
    <event name="Set running">
      <condition> simulation/sim-time-sec ge 1.0 </condition>
      <set name="propulsion/set-running" value="-1"/>
      <notify/>
    </event>
    <event name="Cut off">
      <condition> simulation/sim-time-sec ge 2.0 </condition>
      <set name="propulsion/cutoff_cmd" value="1"/>
      <notify/>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="120">
{properties}
  </output>
</runscript>
"""


def test_set_running_in_a_script_as_jsbsims(tmp_path):
    """``propulsion/set-running`` −1 during a run: every turbine started as ``FGPropulsion::InitRunning`` starts
    it, at once (its 0.5 s march at throttle 1 done before that frame's step: the spools at 100 % falling toward
    idle from the next frame, as JSBSim's, N within 1e-4 %, thrust within 0.2 %); the fuel cut off at 2 s stops
    both in JSBSim's frame."""
    jsb, ours, _, _ = _both(tmp_path, SET_RUNNING)
    assert len(ours) == 481 and len(jsb) - len(ours) in (0, 1)
    for j, f in zip(jsb[1:], ours[1:], strict=False):
        for k in range(2):
            assert f[_column(k, "set-running")] == j[_column(k, "set-running")], (j, f)
            for name in ("n1", "n2"):
                assert f[_column(k, name)] == pytest.approx(j[_column(k, name)], abs=1e-4), (name, j, f)
            assert f[_column(k, "thrust-lbs")] == pytest.approx(j[_column(k, "thrust-lbs")], rel=2e-3, abs=1e-6)
    started = next(r for r in ours if r[0] > 1.0)
    assert 99.0 < started[_column(0, "n2")] < 100.0 and started[_column(1, "set-running")] == 1.0
    assert all(r[_column(k, "thrust-lbs")] == 0.0 for r in ours if r[0] > 2.005 for k in range(2))

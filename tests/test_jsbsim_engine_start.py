"""JSBSim's piston engines start as JSBSim starts them: off until a script starts them, cranked by the starter,
catching above 80 % of idle with the magnetos on and fuel flowing, stopping when the magnetos go off.

Each scenario is a hand-written script under a JSBSim root in ``tmp_path`` (the package's c172p and c310 with
reset files of its own), flown by ``flightsim script`` as a user runs it and by JSBSim (the ``jsbsim`` package) on
the same files: the engine's rpm, thrust, power and running flag frame by frame, and the notices' frames.
"""

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsbsim
import pytest

from tests.test_script import cli, read_rows

PACKAGE = Path(jsbsim.get_default_root_dir())
#: A notice's heading line, as JSBSim and flightsim print it.
HEADING = re.compile(r"^(.*) \(Event (\d+)\) executed at time: (\S+)$")

GROUND = """<?xml version="1.0"?>
<initialize name="{name}">
  <ubody> 0.0 </ubody> <vbody> 0.0 </vbody> <wbody> 0.0 </wbody>
  <latitude unit="DEG"> 47.0 </latitude> <longitude unit="DEG"> 122.0 </longitude>
  <phi unit="DEG"> 0.0 </phi> <theta unit="DEG"> 0.0 </theta> <psi unit="DEG"> 150.0 </psi>
  <altitude> {altitude} </altitude>
  {running}
</initialize>
"""

#: The c172p on the runway, engine off: brakes on, throttle 0.2, mixture rich, magnetos on and the starter at
#: 0.25 s; the starter off once it runs; the magnetos off at 5 s (it stops).
START = """<?xml version="1.0"?>
<runscript name="c172p engine start">
  <use aircraft="c172p" initialize="ground"/>
  <run start="0.0" end="{end}" dt="0.00833333">
    <event name="Start engine">
      <condition> simulation/sim-time-sec ge 0.25 </condition>
      <set name="fcs/mixture-cmd-norm" value="1.0"/>
      <set name="fcs/throttle-cmd-norm" value="0.2"/>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
      <set name="propulsion/magneto_cmd" value="3"/>
      <set name="propulsion/starter_cmd" value="1"/>
      <notify/>
    </event>
    <event name="Running">
      <condition> propulsion/engine/set-running ge 1 </condition>
      <set name="propulsion/starter_cmd" value="0"/>
      <notify/>
    </event>
    <event name="Magnetos off">
      <condition> simulation/sim-time-sec ge 5.0 </condition>
      <set name="propulsion/magneto_cmd" value="0"/>
      <notify/>
    </event>
  </run>
  <output name="{out}" type="CSV" rate="120">
    <property> propulsion/engine/engine-rpm </property>
    <property> propulsion/engine/thrust-lbs </property>
    <property> propulsion/engine/set-running </property>
    <property> propulsion/engine/power-hp </property>
  </output>
</runscript>
"""

#: An aircraft on the runway, brakes on, its engines as the reset file ``{init}`` leaves them.
AS_RESET = """<?xml version="1.0"?>
<runscript name="engines as the reset file says">
  <use aircraft="{aircraft}" initialize="{init}"/>
  <run start="0.0" end="1.0" dt="0.00833333">
    <event name="Brakes">
      <condition> simulation/sim-time-sec ge 0.0 </condition>
      <set name="fcs/left-brake-cmd-norm" value="1.0"/>
      <set name="fcs/right-brake-cmd-norm" value="1.0"/>
    </event>{extra}
  </run>
  <output name="{out}" type="CSV" rate="120">
{properties}
  </output>
</runscript>
"""
#: Reset files of the test's: aircraft → (name, its <running> elements).
RESETS = {"c172p": (("ground", ""), ("run0", "<running> 0 </running>")), "c310": (("right", "<running> 1 </running>"),)}
ALTITUDE = {"c172p": 4.7, "c310": 5.5}


def _root(tmp_path):
    """A JSBSim root: the package's c172p and c310 with reset files of this test's, its engines and systems."""
    root = tmp_path / "root"
    for name, resets in RESETS.items():
        folder = root / "aircraft" / name
        shutil.copytree(PACKAGE / "aircraft" / name, folder)
        for reset, running in resets:
            (folder / f"{reset}.xml").write_text(GROUND.format(name=reset, altitude=ALTITUDE[name], running=running))
    for shared in ("engine", "systems"):
        (root / shared).symlink_to(PACKAGE / shared)
    (root / "scripts").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    return root, work


def jsbsim_stdout(root, script):
    """JSBSim runs ``script`` in a subprocess (as the ``JSBSim`` program runs one): what it printed (its
    notices)."""
    code = ("import jsbsim, sys\nfdm = jsbsim.FGFDMExec(sys.argv[1])\nfdm.set_debug_level(0)\n"
            "fdm.load_script(sys.argv[2])\nfdm.run_ic()\nwhile fdm.run():\n    pass\n")
    done = subprocess.run([sys.executable, "-c", code, str(root), script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _notices(text):
    return [(m.group(1).strip(), float(m.group(3))) for m in map(HEADING.match, text.splitlines()) if m]


def numbers(path):
    """A CSV's header and rows; the first of two rows at the same time dropped (JSBSim writes ``run_ic``'s and
    the first frame's outputs, both at 0 s)."""
    rows = read_rows(path)
    values = [[float(x) for x in row] for row in rows[1:]]
    if len(values) > 1 and values[0][0] == values[1][0]:
        values = values[1:]
    return rows[0], values


@pytest.fixture(scope="module")
def start_run(tmp_path_factory):
    """The c172p's start (:data:`START`) in both: (JSBSim's rows, flightsim's, JSBSim's notices, flightsim's)."""
    tmp = tmp_path_factory.mktemp("start")
    root, work = _root(tmp)
    for who in ("jsbsim", "flightsim"):
        (root / "scripts" / f"{who}.xml").write_text(START.format(end=6.0, out=str(work / f"{who}.csv")))
    theirs = _notices(jsbsim_stdout(root, "scripts/jsbsim.xml"))
    done = cli("script", "scripts/flightsim.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    head_j, jsb = numbers(work / "jsbsim.csv")
    head_f, ours = numbers(work / "flightsim.csv")
    assert head_j == head_f
    return jsb, ours, theirs, _notices(done.stdout)


def test_engine_is_off_until_started_then_cranks_catches_and_stops_as_jsbsims(start_run):
    """Off (0 rpm, no thrust, −friction hp) until 0.25 s; cranked by the starter to ≈440 rpm; catching in the same
    frame as JSBSim's; then the same rpm, thrust and power frame by frame (within 0.1 % while cranking: measured
    0.01 %; 1.5 %, thrust 3 %, once it runs and after: measured 1.0 % and 2.0 %); stopped by the magnetos at 5 s
    (power ≤ 0 from then on, as JSBSim's)."""
    jsb, ours, _, _ = start_run
    assert len(ours) == 721 and len(jsb) - len(ours) in (0, 1)      # (JSBSim may write one frame past the end)
    for j, f in zip(jsb, ours, strict=False):
        assert f[0] == pytest.approx(j[0], abs=1e-6)
        assert f[3] == j[3], (j, f)                               # running, frame by frame
        assert f[1] == pytest.approx(j[1], rel=1e-3 if j[0] < 2.28 else 1.5e-2, abs=0.05), (j, f)
        assert f[2] == pytest.approx(j[2], rel=1e-3 if j[0] < 2.28 else 3e-2, abs=0.01), (j, f)
        assert f[4] == pytest.approx(j[4], rel=1e-3 if j[0] < 2.28 else 1.5e-2, abs=0.01), (j, f)
    first = [r for r in ours if r[0] < 0.25]
    assert all(r[1] == 0.0 and r[2] == 0.0 and r[3] == 0.0 and r[4] == -1.5 for r in first)
    caught = next(r for r in ours if r[3] == 1.0)
    assert 2.0 < caught[0] < 2.6 and caught[1] > 0.8 * 550          # (c172p: idle 550 rpm)
    cranking = [r[1] for r in ours if r[0] < caught[0]]
    assert max(cranking) < 0.8 * 550 * 1.01 and max(r[1] for r in ours) > 1200
    assert all(r[3] == 0.0 and r[4] < 0.0 for r in ours if r[0] > 5.01)


def test_start_events_fire_in_jsbsims_frames(start_run):
    """The start's notices: the same events at the same times (the engine's catching triggers the second)."""
    _, _, theirs, ours = start_run
    assert [n for n, _ in ours] == [n for n, _ in theirs] == ["Start engine", "Running", "Magnetos off"]
    for (_, t_ours), (_, t_theirs) in zip(ours, theirs, strict=True):
        assert math.isclose(t_ours, t_theirs, abs_tol=1e-4), (ours, theirs)


#: An event that stops the engine at 0.5 s (``FGEngine::SetRunning(false)``: with spark and fuel it catches again).
STOP = """
    <event name="Stop">
      <condition> simulation/sim-time-sec ge 0.5 </condition>
      <set name="propulsion/engine[0]/set-running" value="0"/>
      <notify/>
    </event>"""


@pytest.mark.parametrize("aircraft, init, engines, runs, extra", [
    ("c172p", "run0", 1, True, ""), ("c172p", "ground", 1, False, ""), ("c310", "right", 2, False, ""),
    ("c172p", "run0", 1, True, STOP)])
def test_reset_file_decides_which_engines_run(tmp_path, aircraft, init, engines, runs, extra):
    """A reset file's ``<running>``: the engines it names start as JSBSim's ``RunIC`` starts them (``InitRunning``
    then ``GetSteadyState``'s 0.5 s frames: the c172p's runs; the c310's right engine dies there, its governor
    driving the blades to full coarse at the march's throttle 1, as in JSBSim), the others stand; rpm and running
    frame by frame as JSBSim's; and an engine's own ``set-running`` 0 (it stops for a frame and catches again)."""
    root, work = _root(tmp_path)
    properties = "\n".join(f"    <property> propulsion/engine[{k}]/{p} </property>" for k in range(engines)
                           for p in ("engine-rpm", "set-running"))
    for who in ("jsbsim", "flightsim"):
        text = AS_RESET.format(aircraft=aircraft, init=init, properties=properties, out=str(work / f"{who}.csv"),
                               extra=extra)
        (root / "scripts" / f"{who}.xml").write_text(text)
    jsbsim_stdout(root, "scripts/jsbsim.xml")
    done = cli("script", "scripts/flightsim.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    _, jsb = numbers(work / "jsbsim.csv")
    _, ours = numbers(work / "flightsim.csv")
    assert len(jsb) - len(ours) in (0, 1) and len(ours) == 121
    for j, f in zip(jsb[1:], ours[1:], strict=False):      # (JSBSim writes 0 s before RunIC starts its engines)
        for k in range(engines):
            assert f[2 + 2 * k] == j[2 + 2 * k], (j, f)
            assert f[1 + 2 * k] == pytest.approx(j[1 + 2 * k], rel=0.01, abs=0.5), (j, f)
    assert (ours[-1][1] > 1000) == runs and (ours[-1][2] == 1.0) == runs

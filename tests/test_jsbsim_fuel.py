"""A JSBSim aircraft's fuel burns and its mass, CG and inertia follow its tanks and point masses, frame by frame as
JSBSim's (``FGPropulsion::ConsumeFuel``, ``FGTank``, ``FGMassBalance::Run``): the jsbsim package runs the same
script (the package's own files, or a short one written here) and every frame's tank contents, weight, CG and
inertia are compared (property replay, as the aerodynamics and engines are checked)."""

import re
from pathlib import Path

import jsbsim
import numpy as np
import pytest

from flightsim.simulation import script_properties as SP
from flightsim.simulation.script import run_script

ROOT = Path(jsbsim.get_default_root_dir())
MASS = ("propulsion/tank[0]/contents-lbs", "propulsion/tank[1]/contents-lbs", "inertia/weight-lbs",
        "inertia/cg-x-in", "inertia/cg-y-in", "inertia/cg-z-in", "inertia/ixx-slugs_ft2", "inertia/iyy-slugs_ft2",
        "inertia/izz-slugs_ft2", "inertia/ixz-slugs_ft2")


def _root(tmp, name, text):
    """A JSBSim root under ``tmp``: the package's aircraft, engines and systems, and ``scripts/NAME.xml``."""
    for folder in ("aircraft", "engine", "systems"):
        (tmp / folder).symlink_to(ROOT / folder)
    (tmp / "scripts").mkdir()
    (tmp / "scripts" / f"{name}.xml").write_text(text)
    return tmp


def _capped(name, end):
    """The package's script ``name`` ending at ``end`` s."""
    text = (ROOT / "scripts" / f"{name}.xml").read_text()
    return re.sub(r'end="[0-9.]+"', f'end="{end}"', text, count=1)


def _fly(root, name, names, monkeypatch):
    """Each frame's ``names`` in JSBSim and in flightsim (arrays of frames × names) and flightsim's state rows."""
    monkeypatch.chdir(root)
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script(f"scripts/{name}.xml")
    fdm.run_ic()
    theirs = [[fdm[n] for n in names]]
    while fdm.run():
        theirs.append([fdm[n] for n in names])
    ours = []

    def on_frame(t, frame, sim):
        values = SP.read_all(sim, t)
        ours.append([values[n] if n in values else sim.jsbsim_property(n) for n in names])

    run_script(root / "scripts" / f"{name}.xml", root, emit=lambda text: None, on_frame=on_frame)
    theirs, ours = np.array(theirs), np.array(ours)
    assert theirs.shape == ours.shape
    return theirs, ours


def test_fuel_burns_as_jsbsim_burns_it(tmp_path, monkeypatch):
    """c1722's c172x, started and trimmed in the air, 4 s: its piston engine drains both tanks equally (the fuel
    flow times dt, shared by the feed tanks) and the weight, CG and inertia follow, each frame within 1e-6 lb,
    1e-8 in and 1e-5 slug·ft² of JSBSim's; the burn itself (some 0.03 lb) is 3,000 times the difference."""
    root = _root(tmp_path, "burn", _capped("c1722", 4.0))
    theirs, ours = _fly(root, "burn", MASS, monkeypatch)
    burnt = theirs[0, 2] - theirs[-1, 2]
    assert burnt > 0.02
    assert ours[0, 2] - ours[-1, 2] == pytest.approx(burnt, rel=1e-3)
    difference = np.abs(theirs - ours)
    assert np.max(difference[:, :3]) < 1e-5
    assert np.max(difference[:, 3:6]) < 1e-7
    assert np.max(difference[:, 6:]) < 1e-4
    assert np.max(difference[:, :3]) * 3000 < burnt


STARVE = """<?xml version="1.0"?>
<runscript name="starve">
  <use aircraft="c172x" initialize="reset01"/>
  <run start="0.0" end="3" dt="0.00833333">
    <property value="19.695"> propulsion/tank[0]/unusable-volume-gal </property>
    <property value="19.695"> propulsion/tank[1]/unusable-volume-gal </property>
    <event name="Engine start">
      <condition>simulation/sim-time-sec ge 0.25</condition>
      <set name="fcs/throttle-cmd-norm" value="1"/>
      <set name="fcs/mixture-cmd-norm" value="0.87"/>
      <set name="propulsion/magneto_cmd" value="3"/>
      <set name="propulsion/starter_cmd" value="1"/>
    </event>
  </run>
</runscript>
"""


def test_an_engine_starves_in_jsbsims_frame(tmp_path, monkeypatch):
    """The c172x's tanks a fraction of a pound above their unusable fuel (a script's ``unusable-volume-gal``): both
    tanks drain to the unusable amount and stop there, and the engine, starved, stops (``set-running`` 0, no fuel
    flow) within a frame of JSBSim's; the tanks hold JSBSim's contents to 1e-6 lb throughout."""
    names = ("propulsion/tank[0]/contents-lbs", "propulsion/tank[1]/contents-lbs", "propulsion/engine/set-running",
             "propulsion/engine/fuel-flow-rate-pps")
    root = _root(tmp_path, "starve", STARVE)
    theirs, ours = _fly(root, "starve", names, monkeypatch)
    unusable = 19.695 * 6.6
    assert theirs[-1, 0] == pytest.approx(unusable) and ours[-1, 0] == pytest.approx(unusable)
    stop_theirs = int(np.argmax(theirs[1:, 2] == 0.0)) + 1
    stop_ours = int(np.argmax(ours[1:, 2] == 0.0)) + 1
    assert theirs[stop_theirs - 1, 2] == 1.0 and 30 < stop_theirs < len(theirs) - 30
    assert abs(stop_ours - stop_theirs) <= 1
    assert ours[-1, 3] == 0.0
    assert np.max(np.abs(theirs[:, :2] - ours[:, :2])) < 1e-6


#: The T37 on its runway, brakes on, both turbines started at full throttle with their tanks (one each) 0.53 lb
#: above their unusable fuel: they starve near 2.4 s.
STARVE_TURBINE = """<?xml version="1.0"?>
<runscript name="starve_turbine">
  <use aircraft="T37" initialize="reset00"/>
  <run start="0.0" end="3" dt="0.00833333">
    <property value="52.95"> propulsion/tank[0]/unusable-volume-gal </property>
    <property value="52.95"> propulsion/tank[1]/unusable-volume-gal </property>
    <event name="Start">
      <condition>simulation/sim-time-sec ge 0.0</condition>
      <set name="fcs/left-brake-cmd-norm" value="1"/>
      <set name="fcs/right-brake-cmd-norm" value="1"/>
      <set name="fcs/throttle-cmd-norm[0]" value="1"/>
      <set name="fcs/throttle-cmd-norm[1]" value="1"/>
      <set name="propulsion/set-running" value="-1"/>
    </event>
  </run>
</runscript>
"""


def test_a_turbine_starves_in_jsbsims_frame(tmp_path, monkeypatch):
    """The T37's turbines at full throttle with their tanks half a pound above their unusable fuel: the tanks drain
    to the unusable amount, and both engines, starved, go off (``set-running`` 0, no thrust) within a frame of
    JSBSim's (FGTurbine's Off phase from the frame after ``ConsumeFuel`` finds the tanks dry); N2 then winds
    down from 100 % as JSBSim's (within 0.05 % each frame after) and the thrust stays 0; the tanks hold JSBSim's
    contents to 5e-5 lb throughout."""
    names = ("propulsion/tank[0]/contents-lbs", "propulsion/tank[1]/contents-lbs", "propulsion/engine[0]/set-running",
             "propulsion/engine[1]/set-running", "propulsion/engine[0]/thrust-lbs", "propulsion/engine[1]/thrust-lbs",
             "propulsion/engine[0]/n2", "propulsion/engine[1]/n2")
    root = _root(tmp_path, "starve_turbine", STARVE_TURBINE)
    theirs, ours = _fly(root, "starve_turbine", names, monkeypatch)
    unusable = 52.95 * 6.6
    assert theirs[-1, 0] == pytest.approx(unusable) and ours[-1, 0] == pytest.approx(unusable)
    for k in range(2):
        stop_theirs = int(np.argmax(theirs[1:, 2 + k] == 0.0)) + 1
        stop_ours = int(np.argmax(ours[1:, 2 + k] == 0.0)) + 1
        assert theirs[stop_theirs - 1, 2 + k] == 1.0 and 120 < stop_theirs < len(theirs) - 30
        assert abs(stop_ours - stop_theirs) <= 1
        after = max(stop_ours, stop_theirs)
        assert np.all(theirs[after:, 4 + k] == 0.0) and np.all(ours[after:, 4 + k] == 0.0)
        assert theirs[stop_theirs - 1, 4 + k] > 900.0 and ours[stop_ours - 1, 4 + k] > 900.0
        assert theirs[-1, 6 + k] < 80.0                  # (N2 winding down: 100 % → 75 % in 0.6 s)
        assert np.max(np.abs(theirs[after:, 6 + k] - ours[after:, 6 + k])) < 0.05
    assert np.max(np.abs(theirs[:, :2] - ours[:, :2])) < 5e-5       # (of the 0.53 lb burnt)


def test_a_point_mass_moves_the_cg_on_the_ground(tmp_path, monkeypatch):
    """c172_runway_at_rest_cg_shift: the c172x at rest on its wheels, a script puts 500 lb on its first point mass at
    1.5 s (``inertia/pointmass-weight-lbs[0]``).  The weight, CG and inertia are JSBSim's every frame (1e-9 of
    each; the tanks' parallel axes about the last frame's CG, a frame late, as JSBSim's); the CG's move nudges the
    airplane as ``FGPropagate::NudgeBodyLocation`` does, so it stays on its wheels: from the shift on, the CG's
    height and the pitch change as JSBSim's (it sinks 0.13 ft and pitches 0.47° nose down as the struts settle),
    within 0.002 ft and 0.005°."""
    names = MASS[2:] + ("position/h-sl-ft", "attitude/theta-deg")
    root = _root(tmp_path, "shift", (ROOT / "scripts" / "c172_runway_at_rest_cg_shift.xml").read_text())
    theirs, ours = _fly(root, "shift", names, monkeypatch)
    assert theirs[-1, 0] == pytest.approx(theirs[0, 0] + 500.0 - 190.0)     # (the pilot's 190 lb made 500)
    scale = np.maximum(np.abs(theirs[:, :8]), 1.0)
    assert np.max(np.abs(theirs[:, :8] - ours[:, :8]) / scale) < 1e-9
    shift = int(np.argmax(theirs[:, 0] != theirs[0, 0]))
    assert 170 < shift < 190
    for column, changed, within in ((8, 0.1, 0.002), (9, 0.4, 0.005)):
        js = theirs[shift - 1:, column] - theirs[shift - 1, column]
        fs = ours[shift - 1:, column] - ours[shift - 1, column]
        assert abs(js[-1]) > changed
        assert np.max(np.abs(js - fs)) < within

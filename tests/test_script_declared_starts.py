"""A script's ``<set>`` of a property an aircraft's own systems declare under an engine-start name (the Short S.23's
``fcs/starter-cmd-norm[n]``, which its electrical system's starter switches read): written as JSBSim writes it
(the systems read it the frame after), not refused; refused, naming it, where nothing declares it.

A tiny JSBSim root (a ball with a system declaring the property and a switch reading it) is written by the tests;
``flightsim script`` runs it as a user runs it, and JSBSim (the ``jsbsim`` package) runs the same files.
"""

import csv
import os
import subprocess
import sys
from pathlib import Path

import jsbsim

AIRCRAFT = """<?xml version="1.0"?>
<fdm_config name="ball" version="2.0" release="BETA">
  <metrics>
    <wingarea unit="FT2"> 1 </wingarea> <wingspan unit="FT"> 1 </wingspan> <chord unit="FT"> 1 </chord>
    <location name="AERORP" unit="IN"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </location>
  </metrics>
  <mass_balance>
    <ixx unit="SLUG*FT2"> 1 </ixx> <iyy unit="SLUG*FT2"> 1 </iyy> <izz unit="SLUG*FT2"> 1 </izz>
    <emptywt unit="LBS"> 32.174 </emptywt>
    <location name="CG" unit="IN"> <x> 0 </x> <y> 0 </y> <z> 0 </z> </location>
  </mass_balance>
  <ground_reactions/>
  {system}
  <aerodynamics/>
</fdm_config>
"""
SYSTEM = """<system name="starters">
    <property value="0.0">fcs/starter-cmd-norm[0]</property>
    <channel name="starter switch">
      <switch name="test/starter-on">
        <default value="0"/>
        <test value="1">fcs/starter-cmd-norm[0] GT 0.5</test>
      </switch>
    </channel>
  </system>"""
INIT = """<?xml version="1.0"?>
<initialize name="init">
  <latitude unit="DEG"> 10.0 </latitude> <longitude unit="DEG"> 20.0 </longitude>
  <altitude unit="FT"> 5000.0 </altitude> <vt unit="FT/SEC"> 0.0 </vt>
</initialize>
"""
SCRIPT = """<?xml version="1.0"?>
<runscript name="starter">
  <use aircraft="ball" initialize="init"/>
  <run start="0.0" end="0.2" dt="0.01">
    <event name="start">
      <condition> simulation/sim-time-sec ge 0.05 </condition>
      <set name="fcs/starter-cmd-norm[0]" value="1"/>
    </event>
  </run>{output}
</runscript>
"""
OUTPUT = """
  <output name="starter.csv" type="CSV" rate="100">
    <property> fcs/starter-cmd-norm[0] </property>
    <property> test/starter-on </property>
  </output>"""


def _root(tmp_path, system, output=OUTPUT):
    root = tmp_path / "root"
    (root / "aircraft" / "ball").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "aircraft" / "ball" / "ball.xml").write_text(AIRCRAFT.format(system=system))
    (root / "aircraft" / "ball" / "init.xml").write_text(INIT)
    (root / "scripts" / "starter.xml").write_text(SCRIPT.format(output=output))
    work = tmp_path / "work"
    work.mkdir()
    return root, work


def _cli(root, work):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "flightsim", "script", "scripts/starter.xml", "--root", str(root)],
                          capture_output=True, text=True, timeout=300, cwd=work, env=env)


def _rows(path):
    with open(path, newline="") as f:
        return [[float(x) for x in row] for row in list(csv.reader(f))[1:]]


def test_an_aircrafts_own_starter_command_is_set_as_jsbsim_sets_it(tmp_path):
    root, work = _root(tmp_path, SYSTEM)
    done = _cli(root, work)
    assert done.returncode == 0, done.stderr
    ours = _rows(work / "starter.csv")
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.set_output_path(str(root))
    fdm.load_script("scripts/starter.xml")
    fdm.run_ic()
    while fdm.run():
        pass
    theirs = {round(row[0], 6): row[1:] for row in _rows(root / "starter.csv")}
    assert len(ours) > 15
    for row in ours:                    # (the command and the switch reading it, frame by frame)
        assert row[1:] == theirs[round(row[0], 6)], row
    assert ours[0][1:] == [0.0, 0.0] and ours[-1][1:] == [1.0, 1.0]


def test_a_starter_command_nothing_declares_is_refused_naming_it(tmp_path):
    root, work = _root(tmp_path, "", output="")
    done = _cli(root, work)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.strip().splitlines() if "compiling" not in line]  # (a cold cache's note)
    assert len(lines) == 1 and "starter.xml" in lines[0] and "fcs/starter-cmd-norm[0]" in lines[0]
    assert "propulsion/starter_cmd" in lines[0] and "Traceback" not in done.stderr
    assert not list(work.iterdir())

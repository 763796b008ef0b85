"""JSBSim's ``simulation/do_linearization`` on a flightsim flight (:mod:`flightsim.simulation.linearization`): the
T37, trimmed in the air by a script, linearized as the jsbsim package linearizes it (``FGLinearization``), the
file written as JSBSim writes it; an aircraft whose engine 0 drives a propeller, and a flat planet, refused in one
line."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsbsim
import numpy as np
import pytest

from flightsim.simulation.linearization import INPUTS, STATES
from flightsim.simulation.script import run_script

PACKAGE = Path(jsbsim.get_default_root_dir())
#: The T37 in level flight at 10,000 ft and 350 ft/s, both engines running.
CRUISE = """<?xml version="1.0"?>
<initialize name="cruise">
  <latitude unit="DEG"> 30.0 </latitude> <longitude unit="DEG"> -95.0 </longitude>
  <altitude unit="FT"> 10000.0 </altitude>
  <vt unit="FT/SEC"> 350.0 </vt>
  <gamma unit="DEG"> 0.0 </gamma>
  <phi unit="DEG"> 0.0 </phi> <psi unit="DEG"> 40.0 </psi>
  <running> -1 </running>
</initialize>
"""
#: Trimmed (JSBSim's longitudinal trim: α, throttle, pitch trim; the wings level) and linearized in the first frame.
SCRIPT = """<?xml version="1.0"?>
<runscript name="linearized">
  <use aircraft="{aircraft}" initialize="{init}"/>
  <run start="0.0" end="0.05" dt="0.00833333">
    <event name="Trim and linearize">
      <condition> simulation/sim-time-sec gt 0.0 </condition>
      <set name="simulation/do_simple_trim" value="0"/>
      <set name="simulation/do_linearization" value="0"/>
    </event>
  </run>
</runscript>
"""
#: A number as ``FGLinearization`` writes it (scientific, 10 digits) with the spaces padding it to its width.
NUMBER = re.compile(r" *-?\d\.\d{10}e[+-]\d{2}")


def _parse(text):
    """x0, u0, A, B, C, D of a ``_lin.sce`` text (its bracketed blocks: rows split by ';', columns by ',')."""
    return [np.array([[float(x) for x in row.split(",")] for row in block.split(";")])
            for block in re.findall(r"\[([^\]]*)\]", text)]


@pytest.fixture(scope="module")
def linearized(tmp_path_factory):
    """The T37's ``T37_lin.sce``, JSBSim's and flightsim's (each written in its own current folder)."""
    tmp = tmp_path_factory.mktemp("linearization")
    root = tmp / "root"
    shutil.copytree(PACKAGE / "aircraft" / "T37", root / "aircraft" / "T37")
    (root / "aircraft" / "T37" / "cruise.xml").write_text(CRUISE)
    for shared in ("engine", "systems"):
        (root / shared).symlink_to(PACKAGE / shared)
    (root / "scripts").mkdir()
    (root / "scripts" / "lin.xml").write_text(SCRIPT.format(aircraft="T37", init="cruise"))
    theirs, ours = tmp / "jsbsim", tmp / "flightsim"
    theirs.mkdir()
    ours.mkdir()
    here = Path.cwd()
    try:
        os.chdir(theirs)
        fdm = jsbsim.FGFDMExec(str(root))
        fdm.set_debug_level(0)
        fdm.load_script("scripts/lin.xml")
        fdm.run_ic()
        while fdm.run():
            pass
        os.chdir(ours)
        run_script(root / "scripts" / "lin.xml", root, emit=lambda text: None)
    finally:
        os.chdir(here)
    return (theirs / "T37_lin.sce").read_text(), (ours / "T37_lin.sce").read_text()


def test_the_file_is_written_as_jsbsims(linearized):
    """``T37_lin.sce`` in the current folder, laid out as JSBSim's to the character (Scicoslab's ``syslin``, each
    number ``%20.10e``, a block's first 19 wide): the two texts are the same with every number taken out and
    its width left."""
    theirs, ours = linearized

    def layout(text):
        return NUMBER.sub(lambda m: f"#{len(m.group(0))}", text)

    assert layout(ours) == layout(theirs)
    assert {len(m.group(0)) for m in NUMBER.finditer(ours)} == {19, 20}
    assert ours.startswith("T37.x0=..\n[") and ours.rstrip().endswith("T37.tfm = ss2tf(T37.sys);")
    assert len(NUMBER.findall(ours)) == 12 + 4 + 2 * 12 * 12 + 2 * 12 * 4


def test_the_matrices_are_jsbsims(linearized):
    """The state, the inputs and A, B, C, D as JSBSim's: x0 within 1e-3 of each state's unit (the trims differ by
    5e-5 rad in α, 2e-4 in throttle), each element of A, B and C above a thousandth of its matrix's largest within
    0.1 % (1.7e-4 measured: the trim points' difference) and the others within 1e-5 of that largest (6e-6
    measured: C's height by height, the rounding of the position's radius over the step); D zero in both.  The
    short period's entries (α̇ by α and q, q̇ by α and q), the elevator's and throttle's and the Dutch roll's are
    among the elements compared."""
    theirs, ours = (_parse(text) for text in linearized)
    assert [m.shape for m in ours] == [m.shape for m in theirs] == [(12, 1), (4, 1), (12, 12), (12, 4), (12, 12),
                                                                    (12, 4)]
    assert np.max(np.abs(ours[0] - theirs[0])) < 1e-3 and np.max(np.abs(ours[1] - theirs[1])) < 1e-3
    for k in (2, 3, 4):
        mine, jsb = ours[k], theirs[k]
        top = np.max(np.abs(jsb))
        big = np.abs(jsb) > 1e-3 * top
        assert big.sum() >= (15, 8, 12)[k - 2]
        assert np.max(np.abs(mine - jsb)[big] / np.abs(jsb)[big]) < 1e-3
        assert np.max(np.abs(mine - jsb)[~big]) < 1e-5 * top
    a, b = ours[2], ours[3]
    alpha, q, beta, r = (STATES.index((n, u)) for n, u in (("Alpha", "rad"), ("Q", "rad/s"), ("Beta", "rad"),
                                                             ("R", "rad/s")))
    assert a[q, alpha] < -5.0 and a[alpha, q] > 0.9 and a[q, q] < -1.0        # (a stiff, damped short period)
    assert a[r, beta] > 1.0                                                    # (weathercock stability)
    assert b[q, INPUTS.index(("DeCmd", "norm"))] != 0.0 and b[0, 0] > 1.0
    assert not np.any(ours[5]) and not np.any(theirs[5])


@pytest.mark.parametrize("aircraft, init, planet, words", [
    ("c172x", "reset01", "round", "propeller"), ("T37", "reset00", "flat", "round planet")])
def test_what_cannot_be_linearized_is_refused_in_one_line(tmp_path, aircraft, init, planet, words):
    """The c172x (its engine 0 drives a propeller: FGLinearization's rpm states are not modelled), and a flight on
    a flat planet (the states and rates are the round planet's): the script's ``<set>`` named with the reason,
    exit 2, nothing written, no traceback."""
    (tmp_path / "scripts").mkdir()
    for folder in ("aircraft", "engine", "systems"):
        (tmp_path / folder).symlink_to(PACKAGE / folder)
    (tmp_path / "scripts" / "lin.xml").write_text(SCRIPT.format(aircraft=aircraft, init=init))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "flightsim", "script", "scripts/lin.xml", "--root", str(tmp_path),
                           "--planet", planet], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "lin.xml" in lines[0] and "do_linearization" in lines[0] and words in lines[0]
    assert not list(tmp_path.glob("*_lin.sce"))

"""An ``<output>``'s subsystem switches (``<rates> ON </rates>`` …), written as JSBSim's ``FGOutputTextFile`` does.

The dropped ball of :mod:`tests.test_script` (over WGS-84, its drag growing as it falls) logged with every switch on,
through the CLI as a user runs it, and by JSBSim (the ``jsbsim`` package) from the same files: flightsim's columns
carry JSBSim's headers in JSBSim's order, each value close to JSBSim's; the columns flightsim cannot give are left
out and named in one line on stderr.
"""

import jsbsim

from tests.test_script import cli, make_root, read_rows

SWITCHES = ("simulation", "aerosurfaces", "rates", "velocities", "forces", "moments", "atmosphere", "massprops",
            "position", "coefficients", "fcs", "ground_reactions", "propulsion")

SCRIPT = """<?xml version="1.0"?>
<runscript name="switches">
  <use aircraft="drop" initialize="init"/>
  <run start="0.0" end="10" dt="0.01"/>
  <output name="{out}" type="CSV" rate="2">
{switches}
    <property> position/h-sl-ft </property>
  </output>
</runscript>
"""


def _run(tmp_path, on):
    root, work = make_root(tmp_path)
    switches = "\n".join(f"    <{s}> {'ON' if s in on else 'OFF'} </{s}>" for s in SWITCHES)
    (root / "scripts" / "switches.xml").write_text(SCRIPT.format(out="switches.csv", switches=switches))
    done = cli("script", "scripts/switches.xml", "--root", str(root), cwd=work)
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script("scripts/switches.xml")
    fdm.run_ic()
    while fdm.run():
        pass
    return done, read_rows(work / "switches.csv"), read_rows(root / "switches.csv")


def test_every_switch_gives_jsbsims_columns(tmp_path):
    """Every switch ON: each column flightsim writes is one of JSBSim's (its header), in JSBSim's order, and its
    values over the 10 s fall within 1e-5 of the column's size of JSBSim's (the heading within 1e-5°); the inertia
    is printed as JSBSim's tensor (right-aligned in 12); what flightsim leaves out is named in one line."""
    done, mine, theirs = _run(tmp_path, SWITCHES)
    assert done.returncode == 0, done.stderr
    head, jhead = mine[0], theirs[0]
    where = [jhead.index(name) for name in head]
    assert where == sorted(where) and len(mine) == len(theirs) == 22
    for name in ("P (deg/s)", "V_{Inertial} (ft/s)", "V_{X_{ecef}} (ft/s)", "F_{Buoyant z} (lbs)", "Rho (slugs/ft^3)",
                 "I_{xz}", "Weight", "Z_{cg}", "Psi (deg)", "Latitude Geodetic (deg)", "X_{ECI} (ft)",
                 "Earth Position Angle (deg)", "aero/force/drag", "/fdm/jsbsim/position/h-sl-ft"):
        assert name in head, name
    for k, name in enumerate(head):
        j = where[k]
        ours = [float(r[k]) for r in mine[1:]]
        jsbs = [float(r[j]) for r in theirs[1:]]
        size = max(1.0, *(abs(v) for v in jsbs))
        for a, b in zip(ours, jsbs, strict=True):
            diff = abs((a - b + 180.0) % 360.0 - 180.0) if name == "Psi (deg)" else abs(a - b)
            assert diff <= 1e-5 * size, (name, a, b)
    k = head.index("I_{xx}")
    assert mine[5][k] == theirs[5][where[k]] == "         3.6"
    lines = done.stderr.strip().splitlines()[-1:]
    assert lines[0].startswith("flightsim: ") and "left out of switches.csv" in lines[0]
    assert "<velocities> BodyAccel_X" in lines[0] and "<fcs> (the FCS components' values)" in lines[0]
    assert "<position> Q(1)_{ECI}" in lines[0] and "Psi" not in lines[0]


def test_switches_off_write_no_columns(tmp_path):
    """Every switch OFF (JSBSim takes anything but ``ON`` as off): ``Time`` and the properties alone, as JSBSim's."""
    done, mine, theirs = _run(tmp_path, ())
    assert done.returncode == 0 and "left out" not in done.stderr, done.stderr
    assert mine[0] == theirs[0] == ["Time", "/fdm/jsbsim/position/h-sl-ft"]


MASSES = """  <mass_balance>
    <ixx unit="SLUG*FT2"> 1.5 </ixx>
    <pointmass name="tube">
      <form shape="tube"> <radius unit="FT"> 2 </radius> <length unit="FT"> 10 </length> </form>
      <weight unit="LBS"> 40 </weight>
      <location unit="IN"> <x> 10 </x> <y> 0 </y> <z> 3 </z> </location>
    </pointmass>
    <pointmass name="cylinder">
      <form shape="cylinder"> <radius unit="IN"> 6 </radius> <length unit="FT"> 3 </length> </form>
      <weight unit="LBS"> 25 </weight>
      <location unit="IN"> <x> -20 </x> <y> 1 </y> <z> 0 </z> </location>
    </pointmass>
    <pointmass name="ball">
      <form shape="ball"> <radius unit="FT"> 1 </radius> </form>
      <weight unit="LBS"> 10 </weight>
      <location unit="IN"> <x> 0 </x> <y> -4 </y> <z> 0 </z> </location>
    </pointmass>
    <pointmass name="sphere">
      <form shape="sphere"> <radius unit="FT"> 1.5 </radius> </form>
      <weight unit="LBS"> 5 </weight>
      <location unit="IN"> <x> 5 </x> <y> 0 </y> <z> -8 </z> </location>
    </pointmass>
    <pointmass name="own">
      <ixx unit="SLUG*FT2"> 0.7 </ixx> <iyy unit="SLUG*FT2"> 0.4 </iyy> <ixz unit="SLUG*FT2"> 0.1 </ixz>
      <weight unit="LBS"> 8 </weight>
      <location unit="IN"> <x> 0 </x> <y> 0 </y> <z> 12 </z> </location>
    </pointmass>
  </mass_balance>"""


def test_a_vehicle_of_point_masses_weighs_as_jsbsims(tmp_path):
    """A ``<mass_balance>`` without ``<emptywt>`` and without a CG location (JSBSim's J246: an empty weight of 0,
    the empty CG at the origin) whose point masses have forms (tube, cylinder, ball, sphere) and their own
    inertia: the weight, mass, CG and inertia tensor flightsim logs are JSBSim's (to its printed digits)."""
    root, work = make_root(tmp_path)
    path = root / "aircraft" / "drop" / "drop.xml"
    text = path.read_text()
    path.write_text(text[:text.index("  <mass_balance>")] + MASSES
                    + text[text.index("</mass_balance>") + len("</mass_balance>"):])
    switches = "    <massprops> ON </massprops>"
    (root / "scripts" / "switches.xml").write_text(SCRIPT.format(out="switches.csv", switches=switches))
    done = cli("script", "scripts/switches.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script("scripts/switches.xml")
    fdm.run_ic()
    fdm.run()
    mine, theirs = read_rows(work / "switches.csv"), read_rows(root / "switches.csv")
    assert mine[0] == theirs[0]
    columns = mine[0][1:15]
    assert columns[-3:] == ["X_{cg}", "Y_{cg}", "Z_{cg}"] and columns[9:11] == ["Mass", "Weight"]
    ours, jsbs = [float(v) for v in mine[1][1:15]], [float(v) for v in theirs[1][1:15]]
    assert ours[10] == jsbs[10] == 88.0
    for name, a, b in zip(columns, ours, jsbs, strict=True):
        assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (name, a, b)
    assert ours[0] - 1.5 > 5.0          # (the forms count: the tube alone, 40 lb of radius 2 ft, adds 4.97 to Ixx)

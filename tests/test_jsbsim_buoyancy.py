"""Gas cells and ballonets (:mod:`flightsim.physics.jsbsim.buoyancy`, JSBSim's ``FGGasCell``): a cell's lift, gas,
pressure and temperature, and the gas in the mass balance, against JSBSim's own over a short stretch.

JSBSim's weather balloon (one hydrogen cell whose heat functions read its own temperature and the balloon's
surface, a parachute whose reefing reads the buoyancy, a radiosonde the flight controls move) is copied into a
root beside a 3-second script that logs the cell's properties; flightsim runs it through the CLI as a user runs
it, JSBSim (the ``jsbsim`` package) runs the same files, and the logs are compared row by row.  A cell that cannot
be read is refused in one line naming the file, the element and why, exit 2.
"""

import shutil

import jsbsim
import pytest

from flightsim.errors import InputError
from flightsim.physics.jsbsim.buoyancy import BuoyantForces
from flightsim.physics.jsbsim.program import Properties
from flightsim.physics.jsbsim.xmlfile import JSBSimFile
from tests.test_script import AIRCRAFT, DEFAULTS, INIT, cli, read_rows

#: What the log holds (after its Time column), and the largest difference allowed from JSBSim's, relative to the
#: column's size: the cell's state and lift, the gas's share of the weight, the CG its moment moves, the climb.
COLUMNS = {
    "buoyant_forces/gas-cell/buoyancy-lbs": 5e-8,
    "buoyant_forces/gas-cell/contents-mol": 1e-12,
    "buoyant_forces/gas-cell/pressure-psf": 5e-8,
    "buoyant_forces/gas-cell/temp-R": 5e-8,
    "buoyant_forces/gas-cell/volume-ft3": 5e-8,
    "forces/fbz-buoyancy-lbs": 5e-8,
    "inertia/weight-lbs": 1e-12,
    "inertia/cg-z-in": 5e-8,
    "inertia/ixx-slugs_ft2": 5e-8,
    "position/h-sl-ft": 1e-5,
}

SCRIPT = """<?xml version="1.0"?>
<runscript name="balloon">
  <use aircraft="weather-balloon" initialize="reset10"/>
  <run start="0.0" end="3" dt="0.00833333"/>
  <output name="balloon.csv" type="CSV" rate="10">
{properties}
  </output>
</runscript>
"""


def _root(tmp_path):
    """A JSBSim root holding the package's weather balloon and the short script; the root and a working folder."""
    root = tmp_path / "root"
    shutil.copytree(f"{jsbsim.get_default_root_dir()}/aircraft/weather-balloon", root / "aircraft" / "weather-balloon")
    (root / "scripts").mkdir()
    properties = "\n".join(f"    <property> {name} </property>" for name in COLUMNS)
    (root / "scripts" / "balloon.xml").write_text(SCRIPT.format(properties=properties))
    work = tmp_path / "work"
    work.mkdir()
    return root, work


def _flown_in_both(root, work, name):
    """``scripts/NAME.xml`` under ``root`` run by ``flightsim script`` in ``work`` and by JSBSim (the jsbsim
    package) in ``root``: the rows of the ``NAME.csv`` each writes (its header first), the same columns and 32
    rows in both."""
    done = cli("script", f"scripts/{name}.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script(f"scripts/{name}.xml")
    fdm.run_ic()
    while fdm.run():
        pass
    ours, theirs = read_rows(work / f"{name}.csv"), read_rows(root / f"{name}.csv")
    assert ours[0] == theirs[0] and len(ours) == len(theirs) == 32
    return ours, theirs


def _within(ours, theirs, k, name, tolerance, rows):
    """Column ``k`` (property ``name``) of flightsim's ``rows`` within ``tolerance`` of JSBSim's, relative to the
    largest of JSBSim's; flightsim's values."""
    mine = [float(r[k]) for r in ours[rows]]
    jsbs = [float(r[k]) for r in theirs[rows]]
    size = max(abs(v) for v in jsbs)
    worst = max(abs(a - b) for a, b in zip(mine, jsbs, strict=True))
    assert worst <= tolerance * size, (name, worst, size)
    return mine


def test_the_weather_balloons_cell_lifts_as_jsbsims(tmp_path):
    """Over 3 s (360 frames, logged every 0.1 s) the cell's lift, contents, pressure, temperature and volume, the
    weight with the gas, the CG and the roll inertia the gas moves, and the height, each within its tolerance of
    JSBSim's (relative to the column's size: some 1e-8 measured); the balloon climbs.

    The row at 0 s is RunIC's (two frames with no time passing, which move the cell: its pressure to the launch's
    air, the gas cooled by that expansion), flightsim's too; there the CG and the inertia are left out: the mass
    balance of RunIC's second frame takes the gas's inertia and the radiosonde's place (which the flight controls
    move) as the first frame left them, which JSBSim's ran on the launch's state and flightsim's start on a copy
    (measured at 0 s: the CG within 1e-4, the roll inertia within 2.3 % of JSBSim's; from the first frame on as
    the other columns)."""
    root, work = _root(tmp_path)
    ours, theirs = _flown_in_both(root, work, "balloon")
    for k, name in enumerate(COLUMNS, start=1):
        first = 2 if name.startswith("inertia/cg") or name.startswith("inertia/i") else 1
        _within(ours, theirs, k, name, COLUMNS[name], slice(first, None))
    h = [float(r[-1]) for r in ours[1:]]
    assert h[-1] - h[0] > 10.0                          # (it climbs: the lift exceeds the weight by some 9 lbf)
    lift = [float(r[1]) for r in ours[1:]]
    assert 8.0 < lift[0] < 9.5 and lift[-1] != lift[0]


#: A helium cell with a ballonet forward, blown by a declared property and let out by its valve, on the dropped
#: ball of :mod:`tests.test_script` (over WGS-84), its gas valved from 1.5 s.
BLIMP = """<buoyant_forces>
  <property value="40.0"> test/blower-ft3ps </property>
  <gas_cell type="HELIUM">
    <location unit="IN"> <x> 10 </x> <y> 0 </y> <z> 30 </z> </location>
    <x_radius unit="FT"> 12 </x_radius> <y_radius unit="FT"> 5 </y_radius> <z_radius unit="FT"> 5 </z_radius>
    <max_overpressure unit="PA"> 300 </max_overpressure>
    <valve_coefficient unit="M4*SEC/KG"> 0.01 </valve_coefficient>
    <fullness> 0.8 </fullness>
    <ballonet type="AIR">
      <location unit="IN"> <x> -60 </x> <y> 0 </y> <z> 0 </z> </location>
      <x_width unit="FT"> 6 </x_width> <y_radius unit="FT"> 3 </y_radius> <z_radius unit="FT"> 2.5 </z_radius>
      <max_overpressure unit="LBS/FT2"> 4 </max_overpressure>
      <valve_coefficient unit="FT4*SEC/SLUG"> 30 </valve_coefficient>
      <fullness> 0.3 </fullness>
      <heat>
        <function>
          <product> <value> 2.0 </value>
            <difference> <property> buoyant_forces/gas-cell/temp-R </property>
                         <property> buoyant_forces/gas-cell/ballonet/temp-R </property> </difference>
          </product>
        </function>
      </heat>
      <blower_input> <function> <property> test/blower-ft3ps </property> </function> </blower_input>
    </ballonet>
  </gas_cell>
</buoyant_forces>
<ground_reactions/>"""

BLIMP_SCRIPT = """<?xml version="1.0"?>
<runscript name="blimp">
  <use aircraft="drop" initialize="init"/>
  <run start="0.0" end="3" dt="0.01">
    <event name="valves"> <condition> simulation/sim-time-sec ge 1.5 </condition>
      <set name="buoyant_forces/gas-cell/valve_open" value="1.0"/>
      <set name="buoyant_forces/gas-cell/ballonet/valve_open" value="0.5"/>
      <set name="test/blower-ft3ps" value="0.0"/>
    </event>
  </run>
  <output name="blimp.csv" type="CSV" rate="10">
{properties}
  </output>
</runscript>
"""

#: The blimp's log, and each column's tolerance relative to its size (some 3 times the difference measured: the
#: flight paths part by a few thousandths of a foot over the first frames, JSBSim's Adams-Bashforth starting from
#: RunIC's derivatives, flightsim's RK4 from the state, and the cells see the air where each flies; the buoyancy's
#: pitching moment, about a CG 0.2 in from the cell, follows the attitude most).
BLIMP_COLUMNS = {
    "buoyant_forces/gas-cell/buoyancy-lbs": 2e-6,
    "buoyant_forces/gas-cell/contents-mol": 1e-7,
    "buoyant_forces/gas-cell/pressure-psf": 1e-5,
    "buoyant_forces/gas-cell/ballonet/volume-ft3": 1.5e-5,
    "buoyant_forces/gas-cell/ballonet/contents-mol": 1.5e-5,
    "buoyant_forces/gas-cell/ballonet/temp-R": 5e-6,
    "inertia/weight-lbs": 2e-6,
    "inertia/cg-x-in": 1e-5,
    "inertia/iyy-slugs_ft2": 2e-6,
    "moments/m-buoyancy-lbsft": 0.15,
    "position/h-sl-ft": 1e-4,
}


def test_a_ballonet_blown_and_valved_as_jsbsims(tmp_path):
    """A ballonet blown full of air (its blower a function of a declared property), its heat from the cell, then
    at 1.5 s the blower stopped and its valve and the cell's opened: the cell's lift, contents and pressure, the
    ballonet's volume, contents and temperature, the weight, CG and pitch inertia with the gas and the air, the
    buoyancy's pitching moment about the moving CG and the height, every 0.1 s over 3 s, within their tolerances of
    JSBSim's (:data:`BLIMP_COLUMNS`); the ballonet fills and then holds its air (at the cell's pressure, the air's,
    its valve has nothing to let out), and the cell loses gas through its own (the gas column's lift over its
    height)."""
    root = tmp_path / "root"
    (root / "aircraft" / "drop").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "aircraft" / "drop" / "drop.xml").write_text(
        AIRCRAFT.format(**DEFAULTS).replace("<ground_reactions/>", BLIMP))
    (root / "aircraft" / "drop" / "init.xml").write_text(INIT.format(**{**DEFAULTS, "alt": "3000.0"}))
    properties = "\n".join(f"    <property> {name} </property>" for name in BLIMP_COLUMNS)
    (root / "scripts" / "blimp.xml").write_text(BLIMP_SCRIPT.format(properties=properties))
    work = tmp_path / "work"
    work.mkdir()
    ours, theirs = _flown_in_both(root, work, "blimp")
    columns = {}
    for k, name in enumerate(BLIMP_COLUMNS, start=1):
        columns[name] = _within(ours, theirs, k, name, BLIMP_COLUMNS[name], slice(1, None))
    volume = columns["buoyant_forces/gas-cell/ballonet/volume-ft3"]
    assert volume[15] > 2.0 * volume[0] and abs(volume[-1] - volume[16]) < 0.01 * volume[16]
    gas = columns["buoyant_forces/gas-cell/contents-mol"]
    assert gas[-1] < gas[15]


@pytest.mark.parametrize("cell, message", [
    ('<gas_cell type="HELIUM"><x_radius>1</x_radius><y_radius>1</y_radius><z_radius>1</z_radius></gas_cell>',
     r"plane.xml: buoyant_forces/<gas_cell>/location: missing"),
    ('<gas_cell type="HELIUM"><location unit="IN"><x>0</x><y>0</y><z>0</z></location><x_radius>1</x_radius>'
     '<y_radius>1</y_radius></gas_cell>', r"plane.xml: buoyant_forces/<gas_cell>: the shape needs "
     r"z_radius or z_width"),
    ('<gas_cell type="HELIUM"><location unit="IN"><x>0</x><y>0</y><z>0</z></location><x_radius>1</x_radius>'
     '<y_radius>1</y_radius><z_radius>1</z_radius><max_overpressure unit="DEG">3</max_overpressure></gas_cell>',
     r"plane.xml: buoyant_forces/<gas_cell>/max_overpressure: unit 'DEG' cannot be converted"),
    ('<balloon/>', r"plane.xml: buoyant_forces/<balloon>: not supported \(gas cells and properties only\)"),
])
def test_a_cell_that_cannot_be_read_is_refused_in_one_line(tmp_path, cell, message):
    """A cell without a location or a shape along an axis, a unit that is not a pressure, another element: the
    file, the element and why; through the CLI, one line on stderr and exit 2."""
    path = tmp_path / "plane.xml"
    path.write_text(f'<?xml version="1.0"?>\n<fdm_config name="plane"><buoyant_forces>{cell}</buoyant_forces>'
                    "</fdm_config>")
    with pytest.raises(InputError, match=message):
        BuoyantForces(JSBSimFile(path), Properties())


def test_the_cli_refuses_a_balloon_without_a_location_in_one_line(tmp_path):
    root, work = _root(tmp_path)
    path = root / "aircraft" / "weather-balloon" / "weather-balloon.xml"
    text = path.read_text()
    start = text.index("<location", text.index("<gas_cell"))
    path.write_text(text[:start] + text[text.index("</location>", start) + len("</location>"):])
    done = cli("script", "scripts/balloon.xml", "--root", str(root), cwd=work)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "weather-balloon.xml: buoyant_forces/<gas_cell>/location: missing" \
        in lines[0], done.stderr
    assert not (work / "balloon.csv").exists()


#: The blimp with ZLT-NT's side thruster (JSBSim's ``electric147kW`` driving ``prop_Clark_Y7570``, its fixed pitch
#: blowing sideways), at 2 % throttle (4 hp: the blimp weighs some 60 lb) from 0.5 s.
THRUSTER = """<propulsion>
  <engine file="electric147kW">
    <thruster file="prop_Clark_Y7570">
      <location unit="IN"> <x> 40 </x> <y> 0 </y> <z> 0 </z> </location>
      <orient unit="DEG"> <roll> 0 </roll> <pitch> 0 </pitch> <yaw> -90 </yaw> </orient>
    </thruster>
  </engine>
</propulsion>"""

#: What the thruster's log holds, and each column's tolerance relative to its size over the first 0.2 s of thrust
#: (the propeller's inflow then follows the light blimp's yaw, which the thruster sets going, and the two
#: integrators' paths part: measured, the rpm within 3e-6, the thrust within 3e-4 then).
THRUSTER_COLUMNS = {
    "propulsion/engine/power-hp": 1e-12,
    "propulsion/engine/propeller-rpm": 2e-5,
    "propulsion/engine/thrust-lbs": 2e-3,
}


def test_an_electric_engine_drives_its_propeller_as_jsbsims(tmp_path):
    """An electric engine driving a propeller (``FGElectric`` hands it ``hp × 550`` ft·lbf/s): its power and the
    propeller's speed and thrust every 0.1 s up to 0.2 s after the throttle opens, within their tolerances of
    JSBSim's (:data:`THRUSTER_COLUMNS`); the propeller spins up from rest and pushes."""
    root = tmp_path / "root"
    (root / "aircraft" / "drop").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "engine").mkdir()
    for name in ("electric147kW.xml", "prop_Clark_Y7570.xml"):
        shutil.copy(f"{jsbsim.get_default_root_dir()}/engine/{name}", root / "engine" / name)
    (root / "aircraft" / "drop" / "drop.xml").write_text(
        AIRCRAFT.format(**DEFAULTS).replace("<ground_reactions/>", BLIMP + THRUSTER))
    (root / "aircraft" / "drop" / "init.xml").write_text(INIT.format(**{**DEFAULTS, "alt": "3000.0"}))
    properties = "\n".join(f"    <property> {name} </property>" for name in THRUSTER_COLUMNS)
    script = BLIMP_SCRIPT.format(properties=properties).replace(
        '<event name="valves"> <condition> simulation/sim-time-sec ge 1.5 </condition>',
        '<event name="throttle"> <condition> simulation/sim-time-sec ge 0.5 </condition>\n'
        '      <set name="fcs/throttle-cmd-norm" value="0.02"/> </event>\n'
        '    <event name="valves"> <condition> simulation/sim-time-sec ge 1.5 </condition>')
    (root / "scripts" / "blimp.xml").write_text(script)
    work = tmp_path / "work"
    work.mkdir()
    ours, theirs = _flown_in_both(root, work, "blimp")
    columns = {}
    for k, name in enumerate(THRUSTER_COLUMNS, start=1):
        columns[name] = _within(ours, theirs, k, name, THRUSTER_COLUMNS[name], slice(1, 9))   # (0 … 0.7 s)
    assert columns["propulsion/engine/power-hp"][-1] == pytest.approx(0.02 * 147000.0 / 745.7)
    rpm, thrust = columns["propulsion/engine/propeller-rpm"], columns["propulsion/engine/thrust-lbs"]
    assert rpm[4] == 0.0 and rpm[-1] > 200.0 and thrust[-1] > 5.0


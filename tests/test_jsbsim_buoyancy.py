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
from tests.test_script import cli, read_rows

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


def test_the_weather_balloons_cell_lifts_as_jsbsims(tmp_path):
    """Over 3 s (360 frames, logged every 0.1 s) the cell's lift, contents, pressure, temperature and volume, the
    weight with the gas, the CG and the roll inertia the gas moves, and the height, each within its tolerance of
    JSBSim's (relative to the column's size: some 1e-8 measured) from the first frame's row on; the balloon climbs.

    The row at 0 s is RunIC's: JSBSim runs its models twice there with no time passing, which moves its cell (the
    pressure to the launch's air, the gas cooled by the expansion) and, the cell's moment then known, its CG;
    flightsim's start holds the loaded cell (its loads found on a copy), so that row differs by design (the
    temperature by 0.08 °R, the CG by 19 in) and the first frame brings the two together."""
    root, work = _root(tmp_path)
    done = cli("script", "scripts/balloon.xml", "--root", str(root), cwd=work)
    assert done.returncode == 0, done.stderr
    fdm = jsbsim.FGFDMExec(str(root))
    fdm.set_debug_level(0)
    fdm.load_script("scripts/balloon.xml")
    fdm.run_ic()
    while fdm.run():
        pass
    ours, theirs = read_rows(work / "balloon.csv"), read_rows(root / "balloon.csv")
    assert ours[0] == theirs[0] and len(ours) == len(theirs) == 32
    for k, name in enumerate(COLUMNS, start=1):
        mine = [float(r[k]) for r in ours[2:]]
        jsbs = [float(r[k]) for r in theirs[2:]]
        size = max(abs(v) for v in jsbs)
        worst = max(abs(a - b) for a, b in zip(mine, jsbs, strict=True))
        assert worst <= COLUMNS[name] * size, (name, worst, size)
    h = [float(r[-1]) for r in ours[1:]]
    assert h[-1] - h[0] > 10.0                          # (it climbs: the lift exceeds the weight by some 9 lbf)
    lift = [float(r[1]) for r in ours[1:]]
    assert 8.0 < lift[0] < 9.5 and lift[-1] != lift[0]


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

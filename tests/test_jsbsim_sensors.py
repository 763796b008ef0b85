"""JSBSim's sensors (accelerometer, gyro, magnetometer, a sensor's noise) and its brushless DC motor computed by
flightsim, against the ``jsbsim`` package in-process over a short stretch, and their bad input.

The sensors: the package's F450 quadcopter with one more ``<system>`` holding an accelerometer off the CG and
turned, a turned gyro and magnetometer, and two noisy sensors; JSBSim flies it (the motors running up, lifting it
off, its rate loops rolling and yawing it), and flightsim's flight controls run beside it each frame on what
JSBSim's FCS read (the state after FGPropagate, FGAccelerations' last force and angular acceleration).  The motor:
flightsim's F450 engines run on JSBSim's throttles and atmosphere, frame by frame from rest.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsbsim
import numpy as np
import pytest
from numba import njit

from flightsim.errors import InputError
from flightsim.physics.jsbsim import native
from flightsim.physics.jsbsim.fcs import FlightControls
from flightsim.physics.jsbsim.loads import SENSOR_STATE
from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
from flightsim.physics.jsbsim.program import Properties, run
from flightsim.physics.jsbsim.propulsion import Propulsion
from flightsim.physics.jsbsim.sensors import load_date, magnetic_field, normal, seed, uniform
from flightsim.physics.jsbsim.xmlfile import JSBSimFile
from flightsim.verify.oracle import new_fdm

SYSTEM = """<?xml version="1.0"?>
<system name="test sensors">
  <property value="2.5">test/constant</property>
  <channel name="Inertial">
    <accelerometer name="test/accel-y">
      <axis>Y</axis>
      <location unit="IN"> <x>3.0</x> <y>-2.0</y> <z>1.5</z> </location>
      <orientation unit="DEG"> <roll>10</roll> <pitch>-20</pitch> <yaw>30</yaw> </orientation>
      <output>test/accel-y-out</output>
    </accelerometer>
    <accelerometer name="test/accel-z">
      <axis>Z</axis>
      <location unit="M"> <x>0.1</x> <y>0.05</y> <z>-0.02</z> </location>
      <lag>50</lag> <gain>1.1</gain> <bias>0.3</bias>
    </accelerometer>
    <gyro name="test/gyro-x">
      <axis>X</axis>
      <orientation unit="DEG"> <roll>5</roll> <pitch>40</pitch> <yaw>-15</yaw> </orientation>
    </gyro>
    <magnetometer name="test/mag-z">
      <axis>z</axis>
      <location unit="M"> <x>0</x> <y>0</y> <z>0</z> </location>
      <orientation unit="DEG"> <roll>0</roll> <pitch>15</pitch> <yaw>45</yaw> </orientation>
    </magnetometer>
  </channel>
  <channel name="Noise">
    <sensor name="test/uniform">
      <input>test/constant</input>
      <noise variation="ABSOLUTE" distribution="UNIFORM">0.4</noise>
    </sensor>
    <sensor name="test/gaussian">
      <input>test/constant</input>
      <lag>20</lag>
      <noise variation="PERCENT" distribution="GAUSSIAN">0.1</noise>
      <drift_rate>0.2</drift_rate>
    </sensor>
  </channel>
</system>
"""
SENSORS = ("test/accel-y", "test/accel-z", "test/gyro-x", "test/mag-z")
NOISY = ("test/uniform", "test/gaussian")
#: What the sensors read of JSBSim's state after FGPropagate (this frame's).
STATE = ("velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec", "attitude/phi-rad",
         "attitude/theta-rad", "attitude/psi-rad", "position/lat-geod-rad", "position/long-gc-rad",
         "inertia/cg-x-in", "inertia/cg-y-in", "inertia/cg-z-in", "test/constant")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A JSBSim root whose F450 includes :data:`SYSTEM` (the package's own engines and systems beside it)."""
    root = tmp_path_factory.mktemp("jsbsim-root")
    package = Path(jsbsim.get_default_root_dir())
    shutil.copytree(package / "aircraft" / "F450", root / "aircraft" / "F450")
    for folder in ("engine", "systems"):
        (root / folder).symlink_to(package / folder)
    path = root / "aircraft" / "F450" / "F450.xml"
    text = path.read_text()
    at = text.index("<aerodynamics")
    path.write_text(text[:at] + '<system file="test-sensors"/>\n' + text[at:])
    (root / "aircraft" / "F450" / "test-sensors.xml").write_text(SYSTEM)
    return root


def _accelerations(fdm):
    """FGAccelerations' ``vBodyAccel`` (its forces times 1/mass) and ``vPQRidot`` now (JSBSim's body frame)."""
    inverse = 1.0 / fdm["inertia/mass-slugs"]
    return (fdm["forces/fbx-total-lbs"] * inverse, fdm["forces/fby-total-lbs"] * inverse,
            fdm["forces/fbz-total-lbs"] * inverse, fdm["accelerations/pidot-rad_sec2"],
            fdm["accelerations/qidot-rad_sec2"], fdm["accelerations/ridot-rad_sec2"])


def _read_state(fdm, props, p, last):
    """What the flight controls read into ``props``: JSBSim's state now and FGAccelerations' ``last``."""
    for name, value in zip(SENSOR_STATE, last, strict=True):
        props[p[name]] = value
    for name in STATE:
        props[p[name]] = fdm[name]
    props[p["position/h-sl-ft"]] = fdm["position/geod-alt-ft"]      # (FGMagnetometer's height: geodetic)


def _fly(root, frames, seed_value=None, run_ic=True):
    """JSBSim flies the F450 off the ground, rolling and yawing; flightsim's flight controls run beside it on what
    JSBSim's read each frame.  Returns (flightsim's, JSBSim's) values of :data:`SENSORS` + :data:`NOISY`."""
    fdm = new_fdm("F450", 0.002, root)
    fdm.load_ic("initGrnd", True)           # (on the ground in Minnesota)
    fdm.run_ic()
    fdm["fcs/ScasEngage"] = 1.0
    fcs = FlightControls(JSBSimFile(root / "aircraft" / "F450" / "F450.xml"), Properties(), 0.002)
    p = fcs.properties
    props = p.array({**fcs.defaults, "simulation/dt": 0.002})
    # JSBSim's RunIC ran its flight controls twice on the initial state (no time passing), FGAccelerations' force
    # 0 the first time and the one it then computed (the one it shows now) the second, from the magnetometer's
    # counter at 1 (its constructor computed the field once): so do flightsim's here
    if run_ic:          # (flightsim's own start: the magnetometer counted and the random numbers drawn already)
        props[p["test/mag-z/field/flightsim-state-0"]] = 1.0
        generator = [p[f"simulation/flightsim-random/flightsim-state-{k}"] for k in range(4)]
        props[generator] = (0.0, 1.0, 0.0, 0.0)
        for last in ((0.0,) * 6, _accelerations(fdm)):
            _read_state(fdm, props, p, last)
            fcs.program.run(props)
    if seed_value is not None:
        fdm["simulation/randomseed"] = seed_value
        props[p["simulation/randomseed"]] = seed_value
    names = SENSORS + NOISY
    ours, theirs = [], []
    for frame in range(frames):
        fdm["fcs/throttle-cmd-norm"] = min(0.7, frame / 150.0)
        fdm["fcs/aileron-cmd-norm"] = 0.5 if frame > 100 else 0.0
        fdm["fcs/rudder-cmd-norm"] = -0.4 if frame > 150 else 0.0
        last = _accelerations(fdm)          # (what the FCS will read of FGAccelerations: the last frame's)
        fdm.run()
        _read_state(fdm, props, p, last)
        fcs.program.run(props)
        ours.append([props[p[n]] for n in names])
        theirs.append([fdm[n] for n in names])
    return np.array(ours), np.array(theirs), props, p


def test_an_accelerometer_gyro_and_magnetometer_read_as_jsbsims_frame_by_frame(root):
    ours, theirs, _, _ = _fly(root, 300)
    for k, name in enumerate(SENSORS):
        scale = max(1.0, float(np.max(np.abs(theirs[:, k]))))
        assert np.max(np.abs(ours[:, k] - theirs[:, k])) <= 1e-9 * scale, name
        assert np.ptp(theirs[:, k]) > 1e-6 * scale, name          # (each moved: the motors spun up)
    # the turned, offset accelerometer reads more than gravity's share: its arm's rotation terms and the turn
    assert abs(theirs[-1, 0]) > 0.1


def test_the_magnetometers_field_is_simgears_wmm2005_and_comes_again_every_1000_runs(root):
    """The field the aircraft loads with (0°, 0°, 4 ft) and, on JSBSim's 1000th run of the sensor, the one where
    it is: flightsim's counter starts where JSBSim's is after ``run_ic`` (3)."""
    ours, theirs, props, p = _fly(root, 1000)
    k = SENSORS.index("test/mag-z")
    assert np.max(np.abs(ours[:, k] - theirs[:, k])) <= 1e-6
    field = [props[p[f"test/mag-z/field/flightsim-state-{j}"]] for j in range(4)]
    assert field[0] == 1003.0                   # (runs counted: 2 at RunIC, then 1000; computed again at 1000)
    start = magnetic_field(0.0, 0.0, 4.0 * 0.3048e-3, load_date())
    assert 25000.0 < start[0] < 30000.0 and -3000.0 < start[1] < -1000.0 and -17000.0 < start[2] < -15000.0
    assert 15000.0 < field[1] < 20000.0 and field[3] > 45000.0   # (Minnesota's field: North and strongly down)


def test_noise_is_jsbsims_random_numbers_to_the_bit(root):
    """Uniform absolute and Gaussian percent noise (after a lag, before a drift) from JSBSim's generator seeded by
    ``simulation/randomseed``: the same numbers."""
    ours, theirs, _, _ = _fly(root, 200, seed_value=12345)
    for k in range(len(SENSORS), len(SENSORS) + len(NOISY)):
        np.testing.assert_array_equal(ours[:, k], theirs[:, k])
    assert np.std(theirs[:, len(SENSORS)]) > 0.1                     # (noisy indeed)


def test_noise_starts_where_jsbsims_generator_is_when_a_flight_begins(root):
    """Unseeded: flightsim's generator starts where JSBSim's is after ``run_ic`` (seed 0, both noisy sensors' draws
    of its two passes taken), so an unlagged noisy sensor reads JSBSim's numbers from the first frame."""
    ours, theirs, _, _ = _fly(root, 50, run_ic=False)
    k = len(SENSORS)
    np.testing.assert_array_equal(ours[:, k], theirs[:, k])


def test_the_generator_is_libstdcxx_minstd_rand0_with_its_distributions():
    """``minstd_rand0`` from seed 1: 16807, 282475249, ... (the C++ standard's own check: the 10000th is
    1043618065); uniform on [−1, 1); normal with mean 0 and deviation 1."""
    props = np.array([1.0, seed(1), 0.0, 0.0])
    x = 1
    for _ in range(10000):
        x = x * 16807 % 2147483647
    for _ in range(5000):
        uniform(props, 0)
    assert props[1] == x == 1043618065
    assert seed(0) == 1.0 and seed(2147483647) == 1.0 and seed(-1) == float((2**32 - 1) % 2147483647)
    draws = np.array([normal(props, 0) for _ in range(20000)])
    assert abs(draws.mean()) < 0.03 and abs(draws.std() - 1.0) < 0.03
    spread = np.array([uniform(props, 0) for _ in range(20000)])
    assert spread.min() >= -1.0 and spread.max() < 1.0 and abs(spread.mean()) < 0.03


def test_a_brushless_motors_rpm_power_and_current_are_jsbsims_frame_by_frame():
    """The F450's DJI E305 motors (Kv 960, 0.117 Ω, 0.45 A, 14.63 V) spinning their 9.4 in propellers up from
    rest, held down, the throttle ramped to 0.8 then cut: FGBrushLessDCMotor's current, power and the
    propeller's rpm and thrust."""
    fdm = new_fdm("F450", 0.002)
    fdm["forces/hold-down"] = 1.0
    fdm.run_ic()
    source = JSBSimFile(Path(jsbsim.get_default_root_dir()) / "aircraft" / "F450" / "F450.xml")
    engines = Propulsion(source)
    p = engines.properties
    props = p.array(engines.defaults)
    copied = [n for n in ("atmosphere/rho-slugs_ft3", "atmosphere/a-fps") if n in p]
    checked = ("propeller-rpm", "power-hp", "current-amperes", "thrust-lbs", "propeller-torque-ftlb")
    worst = dict.fromkeys(checked, 0.0)
    fastest = 0.0
    for frame in range(400):
        fdm["fcs/throttle-cmd-norm"] = min(0.8, frame / 100.0) if frame < 300 else 0.0
        fdm.run()
        for name in copied + [f"fcs/throttle-pos-norm[{k}]" for k in range(4)]:
            props[p[name]] = fdm[name]
        engines.run(props, 0.002, fdm["atmosphere/sigma"])
        for k in range(4):
            for name in checked:
                ref = fdm[f"propulsion/engine[{k}]/{name}"]
                mine = props[p[f"propulsion/engine[{k}]/{name}"]]
                worst[name] = max(worst[name], abs(mine - ref) / max(abs(ref), 1.0))
        fastest = max(fastest, fdm["propulsion/engine[0]/propeller-rpm"])
    assert max(worst.values()) <= 1e-9, worst
    # spun up to thousands of rpm, then braked by the motor's back-EMF once the throttle was cut
    assert fastest > 5000.0 and fdm["propulsion/engine[0]/propeller-rpm"] < 0.8 * fastest


# ----------------------------------------------------------------------------- bad input

def _aircraft(tmp_path, system="", engine=None):
    """The package's F450 in ``tmp_path`` with ``system`` as one more system file and ``engine`` (text) as its
    motors' file; its path."""
    package = Path(jsbsim.get_default_root_dir())
    folder = tmp_path / "aircraft" / "F450"
    shutil.copytree(package / "aircraft" / "F450", folder)
    path = folder / "F450.xml"
    text = path.read_text()
    if system:
        at = text.index("<aerodynamics")
        text = text[:at] + '<system file="bad"/>\n' + text[at:]
        (folder / "bad.xml").write_text(f'<?xml version="1.0"?><system name="bad"><channel name="c">{system}'
                                        "</channel></system>")
    if engine is not None:
        (folder / "Engines").mkdir()
        (folder / "Engines" / "DJI_E305.xml").write_text(engine)
        shutil.copy(package / "engine" / "DJI_9450.xml", folder / "Engines" / "DJI_9450.xml")
    path.write_text(text)
    return path


@pytest.mark.parametrize("system, element, reason", [
    ('<accelerometer name="a"><axis>X</axis></accelerometer>', "accelerometer", "no location given"),
    ('<magnetometer name="m"><axis>Y</axis></magnetometer>', "magnetometer", "no location given"),
    ('<gyro name="g"><axis>W</axis></gyro>', "gyro", "'W' is not an axis"),
    ('<gyro name="g"><axis>X</axis><orientation unit="FT"><roll>1</roll></orientation></gyro>', "orientation unit",
     "not an angle's unit"),
    ('<sensor name="s"><input>velocities/p-rad_sec</input><noise variation="SOME">0.1</noise></sensor>',
     "noise variation", "not a noise variation"),
    ('<sensor name="s"><input>velocities/p-rad_sec</input>'
     '<noise variation="ABSOLUTE" distribution="POISSON">0.1</noise></sensor>', "noise distribution",
     "not a noise distribution"),
])
def test_a_sensor_flightsim_cannot_read_is_refused_naming_it(tmp_path, system, element, reason):
    with pytest.raises(InputError) as err:
        load_jsbsim_aircraft(_aircraft(tmp_path, system))
    message = str(err.value)
    assert "\n" not in message and "F450.xml: system[4]" in message and element in message and reason in message


MOTOR = ('<brushless_dc_motor name="m"><velocityconstant>{kv}</velocityconstant><coilresistance>0.117'
         '</coilresistance><noloadcurrent>0.45</noloadcurrent>{volts}{extra}</brushless_dc_motor>')


@pytest.mark.parametrize("kv, volts, extra, element, reason", [
    ("960", "", "", "maxvolts", "mandatory parameter is missing"),
    ("0", "<maxvolts>14.6</maxvolts>", "", "velocityconstant", "must be above 0"),
    ("960", "<maxvolts>14.6</maxvolts>", "<gearratio>2</gearratio>", "gearratio", "not read by JSBSim"),
    ("960", '<maxvolts unit="KV">14.6</maxvolts>', "", "maxvolts unit", "is not VOLTS"),
])
def test_a_brushless_motor_flightsim_cannot_read_is_refused_naming_it(tmp_path, kv, volts, extra, element, reason):
    with pytest.raises(InputError) as err:
        load_jsbsim_aircraft(_aircraft(tmp_path, engine=MOTOR.format(kv=kv, volts=volts, extra=extra)))
    message = str(err.value)
    assert "\n" not in message and "F450.xml" in message and element in message and reason in message


def test_a_bad_sensor_stops_the_cli_with_one_line_and_exit_2(tmp_path):
    """``flightsim script`` on the F450 with an accelerometer that has no location: one line naming the file and
    the element, exit 2, nothing written."""
    _aircraft(tmp_path, '<accelerometer name="a"><axis>X</axis></accelerometer>')
    package = Path(jsbsim.get_default_root_dir())
    for folder in ("engine", "systems"):
        (tmp_path / folder).symlink_to(package / folder)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "launch.xml").symlink_to(package / "scripts" / "Test_F450_Launch.xml")
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([sys.executable, "-m", "flightsim", "script", "scripts/launch.xml", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=work,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.strip().splitlines() if "compiling" not in line]   # (a cold cache's note)
    assert len(lines) == 1 and "F450.xml" in lines[0] and "accelerometer" in lines[0] and "location" in lines[0]
    assert "Traceback" not in done.stderr and not any(work.iterdir())


@njit(cache=True)
def _call(address, props, constants, tables, data):
    native.call_block(address, props, constants, tables, data)


def test_the_compiled_sensors_compute_the_interpreters_numbers_to_the_bit(root):
    """The accelerometer, gyro, magnetometer and noise compiled into an aircraft's block (:mod:`~flightsim.physics.
    jsbsim.native`) give the interpreter's numbers, settled passes (no noise, no count) among them."""
    only = root / "aircraft" / "F450" / "only-sensors.xml"         # (an aircraft of the sensors alone)
    only.write_text('<?xml version="1.0"?><fdm_config name="s"><system file="test-sensors"/></fdm_config>')
    fcs = FlightControls(JSBSimFile(only), Properties(), 0.002)
    p, prog = fcs.properties, fcs.program
    blocks = native.compile_blocks({"fcs": prog, "aero": prog, "engine": prog, "engine_post": prog}, len(p),
                                   "sensors")
    interpreted = p.array({**fcs.defaults, "simulation/dt": 0.002, "simulation/randomseed": 3.0})
    compiled = interpreted.copy()
    inputs = [p[n] for n in (*SENSOR_STATE, *STATE[:8], "position/h-sl-ft")]
    rng = np.random.default_rng(5)
    for frame in range(1200):
        values = rng.normal(0.0, 1.0, len(inputs))
        for array in (interpreted, compiled):
            array[inputs] = values
            array[p["simulation/flightsim-settle"]] = float(frame % 101 == 0)
        assert run(prog.code, prog.constants, prog.tables, prog.table_data, interpreted, prog.stack()) == 0
        _call(blocks.addresses[0], compiled, prog.constants, prog.tables, prog.table_data)
        np.testing.assert_array_equal(compiled, interpreted, err_msg=f"frame {frame}")
    assert interpreted[p["test/mag-z/field/flightsim-state-0"]] == 3.0 + 1200 - 12      # (12 settled passes)
    assert np.std([interpreted[p[n]] for n in NOISY]) > 0.0

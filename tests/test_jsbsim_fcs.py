"""JSBSim's dynamic flight-control components (filters, PIDs, integrators, actuators, sensors, delays,
deadbands, angles) computed by flightsim, against JSBSim itself and against hand-derived numbers.

The oracle (``flightsim.verify.oracle.replay_fcs``) flies an aircraft in JSBSim with a stick programme
and runs flightsim's flight controls beside it on the inputs JSBSim's FCS had, frame by frame, with their own
state: every property they write must be JSBSim's.  The aircraft here is the package's SGS glider with one
more ``<system>`` file that holds every dynamic component with most of its options, fed by the stick, the
attitude and the rates, and the system's own functions (a ``pre`` one, run before its channels on the last frame's
lag, and a ``post`` one after them).
"""

import math
import shutil

import jsbsim
import numpy as np
import pytest
from numba import njit

from flightsim.physics.jsbsim import native
from flightsim.physics.jsbsim.fcs import SETTLE, FlightControls
from flightsim.physics.jsbsim.program import run
from flightsim.physics.jsbsim.xmlfile import JSBSimFile
from flightsim.verify.oracle import replay_fcs

SYSTEM = """<?xml version="1.0"?>
<system name="every dynamic component">
  <property value="0">test/trigger</property>
  <property value="90">test/target-heading-deg</property>
  <function name="test/after-channels" type="post">
    <sum><property>fcs/lag</property><property>test/before-channels</property></sum></function>
  <function name="test/before-channels"><product><property>fcs/lag</property><value>2</value></product></function>
  <channel name="Filters">
    <lag_filter name="Lag"><input>fcs/elevator-cmd-norm</input><c1>2.0</c1></lag_filter>
    <lead_lag_filter name="test/lead-lag"><input>fcs/aileron-cmd-norm</input>
      <c1>0.5</c1><c2>1.5</c2><c3>0.25</c3><c4>1.0</c4></lead_lag_filter>
    <washout_filter name="Washout"><input>velocities/q-rad_sec</input><c1>0.7</c1></washout_filter>
    <second_order_filter name="Second Order"><input>fcs/rudder-cmd-norm</input>
      <c1>0.1</c1><c2>0.4</c2><c3>9.0</c3><c4>1.0</c4><c5>2.4</c5><c6>9.0</c6>
      <clipto><min>-0.2</min><max>0.25</max></clipto></second_order_filter>
  </channel>
  <channel name="Integrators">
    <switch name="test/trigger-switch"><default value="0"/>
      <test value="1">fcs/aileron-cmd-norm gt 0.35</test>
      <test value="-1">fcs/aileron-cmd-norm lt -0.38</test>
      <delay type="frames">3</delay></switch>
    <integrator name="Integral"><input>fcs/elevator-cmd-norm</input><c1>0.8</c1>
      <trigger>test/trigger-switch</trigger></integrator>
    <pid name="PID"><input>attitude/phi-rad</input><kp>1.2</kp><ki type="rect">0.3</ki><kd>0.05</kd>
      <clipto><min>-0.5</min><max>0.5</max></clipto></pid>
    <pid name="Standard PID" type="standard"><input>fcs/rudder-cmd-norm</input><kp>0.9</kp>
      <ki type="ab3">0.4</ki><kd>0.02</kd><pvdot>velocities/r-rad_sec</pvdot></pid>
    <pid name="AB2 PID"><input>fcs/elevator-cmd-norm</input><kp>fcs/lag</kp><ki>0.5</ki></pid>
  </channel>
  <channel name="Actuators and sensors">
    <actuator name="Actuator"><input>fcs/aileron-cmd-norm</input><lag>15</lag>
      <rate_limit sense="incr">0.8</rate_limit><rate_limit sense="decr">0.6</rate_limit>
      <bias>0.01</bias><deadband_width>0.02</deadband_width><hysteresis_width>0.05</hysteresis_width>
      <delay type="frames">2</delay>
      <clipto><min>-0.3</min><max>0.3</max></clipto></actuator>
    <actuator name="Plain Actuator"><input>fcs/elevator-cmd-norm</input><rate_limit>0.5</rate_limit></actuator>
    <deadband name="Dead Band"><input>fcs/rudder-cmd-norm</input><width>0.1</width><gain>2</gain></deadband>
    <sensor name="Sensor"><input>attitude/theta-rad</input><lag>3</lag><drift_rate>0.001</drift_rate>
      <gain>1.1</gain><bias>0.002</bias><delay>0.05</delay>
      <quantization name="test/quantized"><bits>10</bits><min>-1</min><max>1</max></quantization></sensor>
    <angle name="Angle" unit="DEG"><source_angle>attitude/psi-rad</source_angle>
      <target_angle unit="DEG">test/target-heading-deg</target_angle></angle>
  </channel>
</system>
"""
#: What SYSTEM's components write.
COMPONENTS = ("fcs/lag", "test/lead-lag", "fcs/washout", "fcs/second-order", "test/trigger-switch", "fcs/integral",
              "fcs/pid", "fcs/standard-pid", "fcs/ab2-pid", "fcs/actuator", "fcs/plain-actuator", "fcs/dead-band",
              "fcs/sensor", "fcs/angle", "test/before-channels", "test/after-channels")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A JSBSim root folder whose SGS glider includes :data:`SYSTEM` before its flight controls."""
    root = tmp_path_factory.mktemp("jsbsim-root")
    package = jsbsim.get_default_root_dir()
    shutil.copytree(f"{package}/aircraft/SGS", root / "aircraft" / "SGS")
    path = root / "aircraft" / "SGS" / "SGS.xml"
    text = path.read_text()
    at = text.index("<flight_control")
    path.write_text(text[:at] + '<system file="test-system"/>\n' + text[at:])
    (root / "aircraft" / "SGS" / "test-system.xml").write_text(SYSTEM)
    return root


def _stick(t):
    """Elevator, aileron and rudder moving at several rates (the aileron crosses the trigger's thresholds; the
    rudder's fast part drives the second-order filter into its clip), the target heading swinging round."""
    return {"fcs/elevator-cmd-norm": 0.5 * math.sin(1.3 * t), "fcs/aileron-cmd-norm": 0.4 * math.sin(2.1 * t),
            "fcs/rudder-cmd-norm": 0.3 * math.sin(0.7 * t) + 0.2 * math.sin(5.0 * t),
            "test/target-heading-deg": 90.0 + 100.0 * math.sin(0.5 * t)}


def test_every_dynamic_component_is_jsbsims_frame_by_frame(root):
    r = replay_fcs("SGS", frames=1200, root=root, airspeed_kts=60.0, altitude_ft=3000.0, commands=_stick)
    assert set(COMPONENTS) <= set(r.checked)
    assert r.moved >= 25                      # nearly everything moved over the 10 s
    assert r.error == 0.0, r                  # the same formulas in the same order: the same bits


@pytest.mark.parametrize("name, kts, ft", [("Shuttle", 250.0, 20000.0)])
def test_an_aircraft_with_dynamic_flight_controls_is_jsbsims(name, kts, ft):
    r = replay_fcs(name, frames=600, airspeed_kts=kts, altitude_ft=ft)
    assert r.moved >= 10 and r.error <= 1e-12, r


def _controls(root):
    fcs = FlightControls(JSBSimFile(root / "aircraft" / "SGS" / "SGS.xml"), dt=1.0 / 120.0)
    return fcs, fcs.properties, fcs.properties.array({**fcs.defaults, "simulation/dt": 1.0 / 120.0})


@njit(cache=True)
def _call(address, props, constants, tables, data):
    native.call_block(address, props, constants, tables, data)


def test_the_compiled_components_compute_the_interpreters_numbers_to_the_bit(root):
    fcs, p, props = _controls(root)
    prog = fcs.program
    blocks = native.compile_blocks({"fcs": prog, "aero": prog, "engine": prog, "engine_post": prog}, len(p),
                                   "every_component")
    interpreted, compiled = props.copy(), props.copy()
    written = set()
    rng = np.random.default_rng(11)
    inputs = [p[n] for n in ("fcs/elevator-cmd-norm", "fcs/aileron-cmd-norm", "fcs/rudder-cmd-norm",
                             "attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad", "velocities/q-rad_sec",
                             "velocities/r-rad_sec", "test/target-heading-deg")]
    for frame in range(600):
        values = rng.normal(0.0, 0.4, len(inputs))
        settle = float(frame % 97 == 0)               # now and then a trim's settled pass
        for array in (interpreted, compiled):
            array[inputs] = values
            array[p[SETTLE]] = settle
        assert run(prog.code, prog.constants, prog.tables, prog.table_data, interpreted, prog.stack()) == 0
        _call(blocks.addresses[0], compiled, prog.constants, prog.tables, prog.table_data)
        np.testing.assert_array_equal(compiled, interpreted, err_msg=f"frame {frame}")
        written |= {n for n in COMPONENTS if interpreted[p[n]] != 0.0}
    assert written == set(COMPONENTS)                 # every component wrote something (and both agreed)


def test_a_lag_filter_starts_from_0_then_follows_tustins_formula(root):
    fcs, p, props = _controls(root)
    dt, c1 = 1.0 / 120.0, 2.0
    props[p["fcs/elevator-cmd-norm"]] = 1.0
    seen = []
    for _ in range(4):
        fcs.program.run(props)
        seen.append(props[p["fcs/lag"]])
    ca, cb = dt * c1 / (2.0 + dt * c1), (2.0 - dt * c1) / (2.0 + dt * c1)
    expected = [0.0]                                  # the first frame: JSBSim's Initialize, the input not read
    for k in range(3):
        expected.append((1.0 + (0.0 if k == 0 else 1.0)) * ca + expected[-1] * cb)
    assert seen == pytest.approx(expected, rel=1e-15)
    assert 0.0 < seen[-1] < 1.0


def test_settled_components_sit_at_their_steady_state_and_a_frame_leaves_them_there(root):
    """Trim (the settle switch, JSBSim's trim status): each filter at its gain at zero frequency, the actuator
    passing its input through (its deadband and bias still acting), the delays filled, the integral held."""
    fcs, p, props = _controls(root)
    props[p["fcs/elevator-cmd-norm"]] = 0.3
    props[p["fcs/aileron-cmd-norm"]] = 0.2
    props[p["fcs/rudder-cmd-norm"]] = 0.1
    props[p[SETTLE]] = 1.0
    fcs.program.run(props)
    settled = {n: props[p[n]] for n in COMPONENTS}
    assert settled["fcs/lag"] == 0.3                              # C1/(s + C1) at s = 0: 1
    assert settled["test/lead-lag"] == pytest.approx(0.2 * 1.5 / 1.0)   # C2/C4
    assert settled["fcs/washout"] == 0.0                          # s/(s + C1): 0
    assert settled["fcs/second-order"] == pytest.approx(0.1)      # C3/C6 = 1
    assert settled["fcs/actuator"] == pytest.approx(0.2 - 0.01 + 0.01)   # deadband 0.02 wide, bias 0.01
    assert settled["fcs/plain-actuator"] == 0.3
    assert settled["fcs/integral"] == 0.0                         # held (at its reset value)
    assert settled["fcs/ab2-pid"] == pytest.approx(0.3 * 0.3)     # kp (the lag's output) × input, no integral yet
    props[p[SETTLE]] = 0.0
    fcs.program.run(props)                                        # flying on, the inputs unchanged
    for n in ("fcs/lag", "test/lead-lag", "fcs/washout", "fcs/second-order", "fcs/actuator", "fcs/plain-actuator"):
        assert props[p[n]] == pytest.approx(settled[n], abs=1e-12), n
    assert props[p["fcs/integral"]] == pytest.approx(0.8 * 0.3 / 120.0)   # it integrates again: c1 × input × dt


def test_a_delay_of_n_frames_gives_back_its_input_n_minus_1_frames_later_as_jsbsims_ring_does(root):
    """FGFCSComponent::Delay writes the frame's value into its ring of n, steps on, and reads the oldest, which is
    n − 1 frames old (the replay above holds this switch to JSBSim's bits)."""
    fcs, p, props = _controls(root)
    seen = []
    for frame in range(8):                 # the switch: 1 while the aileron is past 0.35, a ring of 3 frames
        props[p["fcs/aileron-cmd-norm"]] = 0.5 if frame == 1 else 0.0
        fcs.program.run(props)
        seen.append(props[p["test/trigger-switch"]])
    assert seen == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]


# ----------------------------------------------------------------------------- external forces

TOW = """<external_reactions>
  <force name="tow" frame="BODY">
    <location unit="IN"><x>20</x><y>-3</y><z>-10</z></location>
    <direction><x>0.9</x><y>0.1</y><z>-0.3</z></direction>
  </force>
  <force name="hook" frame="BODY">
    <location unit="FT"><x>15</x><y>0</y><z>1</z></location>
    <direction><x>-1</x><y>0</y><z>0</z></direction>
  </force>
  <force name="catapult" frame="LOCAL">
    <location unit="IN"><x>-20</x><y>4</y><z>-12</z></location>
    <direction><x>-0.96</x><y>-0.28</y><z>0.1</z></direction>
  </force>
  <force name="chute" frame="WIND">
    <location unit="FT"><x>12</x><y>0.5</y><z>0</z></location>
    <direction><x>-1</x><y>0.2</y><z>0</z></direction>
  </force>
  <moment name="twist" frame="LOCAL">
    <direction><x>0.2</x><y>-1</y><z>0.4</z></direction>
  </moment>
</external_reactions>
"""


def test_external_forces_are_jsbsims(tmp_path):
    """A tow force and a hook (BODY frame), a catapult (LOCAL: North-East-down), a parachute (WIND) and a moment
    (LOCAL) at magnitudes and directions set as the flight controls would, banked, pitched, turned and
    sideslipping: the body force and the moment about the CG that flightsim adds are JSBSim's
    ``forces/fb*-external-lbs`` and ``moments/*-external-lbsft``."""
    from flightsim.physics.jsbsim.external import ExternalForces, external_loads
    from flightsim.physics.jsbsim.mass import MassBalance
    from flightsim.physics.jsbsim.program import Properties
    from flightsim.verify.oracle import new_fdm

    package = jsbsim.get_default_root_dir()
    shutil.copytree(f"{package}/aircraft/SGS", tmp_path / "aircraft" / "SGS")
    path = tmp_path / "aircraft" / "SGS" / "SGS.xml"
    text = path.read_text()
    at = text.index("<flight_control")
    path.write_text(text[:at] + TOW + text[at:])
    source = JSBSimFile(path)
    mass = MassBalance.read(source)
    properties = Properties()
    forces = ExternalForces(source, properties, lambda r: mass.structural_to_body(r, mass.cg))
    names = ("tow", "hook", "catapult", "chute", "twist")
    assert forces.magnitudes == tuple(f"external_reactions/{n}/magnitude" for n in names[:4]) + (
        "external_reactions/twist/magnitude-lbsft",)
    assert "external_reactions/catapult/y" in forces.writable and "external_reactions/twist/n" in forces.writable
    fdm = new_fdm("SGS", root=tmp_path)
    fdm["ic/vc-kts"], fdm["ic/h-sl-ft"] = 60.0, 3000.0
    fdm["ic/phi-deg"], fdm["ic/theta-deg"], fdm["ic/psi-true-deg"], fdm["ic/beta-deg"] = 25.0, 8.0, 130.0, 4.0
    fdm.run_ic()
    props = properties.array(forces.defaults)
    for k, magnitudes in enumerate(((150.0, 0.0, 0.0, 0.0, 0.0), (0.0, 900.0, 0.0, 0.0, 0.0),
                                    (-40.0, 300.0, 2000.0, 0.0, 0.0), (0.0, 0.0, 0.0, 700.0, 0.0),
                                    (10.0, 0.0, 500.0, 300.0, 250.0))):
        for n, m in zip(names, magnitudes, strict=True):
            name = forces.magnitudes[names.index(n)]
            fdm[name] = props[properties[name]] = m
        if k == 4:                                      # the flight controls steer the catapult's direction
            for axis, v in zip("xyz", (-0.5, 0.7, 0.2), strict=True):
                name = f"external_reactions/catapult/{axis}"
                fdm[name] = props[properties[name]] = v
        fdm.run()
        out = np.zeros(6)
        external_loads(props, forces.rows, out, fdm["attitude/phi-rad"], fdm["attitude/theta-rad"],
                       fdm["attitude/psi-rad"], fdm["aero/alpha-rad"], fdm["aero/beta-rad"], None)
        ref = [fdm[f"forces/fb{a}-external-lbs"] for a in "xyz"] + [fdm[f"moments/{a}-external-lbsft"] for a in "lmn"]
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-9)
        assert np.linalg.norm(out[:3]) > 30.0 and np.linalg.norm(out[3:]) > 30.0       # real loads compared


def test_what_the_flight_controls_may_write_of_an_external_force(tmp_path):
    from flightsim.errors import InputError
    from flightsim.physics.jsbsim.model import load_jsbsim_aircraft

    package = jsbsim.get_default_root_dir()
    shutil.copytree(f"{package}/aircraft/SGS", tmp_path / "aircraft" / "SGS")
    path = tmp_path / "aircraft" / "SGS" / "SGS.xml"
    text = path.read_text()
    at = text.index("<flight_control")
    writes = ('<system name="w"><channel name="c"><pure_gain name="G"><input>fcs/elevator-cmd-norm</input>'
              '<output>external_reactions/{}</output></pure_gain></channel></system>')
    # (a name FGExternalForce does not bind, e.g. the hydrodynamics system's old force-pair moments of a Short
    # S.23 that defines them as moments: a property of its own that nothing reads, as in JSBSim)
    for written, ok in (("tow/x", True), ("tow/magnitude", True), ("tow/location-x-in", False),
                        ("sling/magnitude", True), ("tow/location-y-in", False)):
        path.write_text(text[:at] + TOW + writes.format(written) + text[at:])
        if ok:
            load_jsbsim_aircraft(str(path))
        else:
            with pytest.raises(InputError, match=f"external_reactions/{written}.*has no such force or moment"):
                load_jsbsim_aircraft(str(path))


# ----------------------------------------------------------------------------- what the flight controls read


def test_load_factors_speeds_and_flight_path_are_jsbsims():
    """FGAuxiliary's calibrated and ground speeds, flight-path angle, load factors at the CG and at the pilot's
    eye and the lift's load factor, from JSBSim's state and its last frame's forces and angular acceleration
    (as FGAuxiliary reads them), on the flat planet, through an F-16's stick-stirring: JSBSim's."""
    from flightsim.physics.jsbsim.auxiliary import AUXILIARY, motion_in, slots_of
    from flightsim.physics.jsbsim.mass import MassBalance, Metrics
    from flightsim.physics.jsbsim.program import Properties
    from flightsim.physics.jsbsim.xmlfile import aircraft_path
    from flightsim.verify.flight_oracle import flat_fdm

    source = JSBSimFile(aircraft_path("f16"))
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    properties = Properties(AUXILIARY)
    slots = slots_of(properties)
    fdm = flat_fdm("f16")
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = 15000.0, 350.0
    fdm.run_ic()
    names = ("velocities/vc-kts", "velocities/vg-fps", "flight-path/gamma-rad", "accelerations/Nx",
             "accelerations/Ny", "accelerations/Nz", "accelerations/n-pilot-x-norm", "accelerations/n-pilot-y-norm",
             "accelerations/n-pilot-z-norm", "forces/load-factor")
    worst = dict.fromkeys(names, 0.0)
    for i in range(360):
        t = i / 120.0
        fdm["fcs/aileron-cmd-norm"], fdm["fcs/elevator-cmd-norm"] = 0.6 * math.sin(2.0 * t), -0.3 * math.sin(1.1 * t)
        m = fdm["inertia/mass-slugs"]
        force = np.array([fdm[f"forces/fb{c}-total-lbs"] for c in "xyz"]) / m    # last frame's, as JSBSim reads
        spin_up = np.array([fdm[f"accelerations/{c}dot-rad_sec2"] for c in "pqr"])
        lift = fdm["forces/fwz-aero-lbs"]
        fdm.run()
        rates = np.array([fdm[f"velocities/{c}i-rad_sec"] for c in "pqr"])       # this frame's (FGPropagate)
        eye = mass.structural_to_body(metrics.eye_point, [fdm[f"inertia/cg-{c}-in"] for c in "xyz"])
        pilot = force + np.cross(spin_up, eye) + np.cross(rates, np.cross(rates, eye))
        props = properties.array()
        motion_in(props, slots, fdm["velocities/mach"], fdm["atmosphere/P-psf"], fdm["velocities/v-north-fps"],
                  fdm["velocities/v-east-fps"], fdm["velocities/v-down-fps"], *force, *pilot, lift / (m * 32.174049))
        for n in names:
            worst[n] = max(worst[n], abs(props[properties[n]] - fdm[n]) / max(1.0, abs(fdm[n])))
    assert max(worst.values()) <= 1e-12, worst
    assert abs(fdm["accelerations/Nz"] - 1.0) > 0.2            # the stick moved the load factor (a real check)


def test_the_euler_angles_rates_are_jsbsims():
    """FGAuxiliary's ``velocities/phidot-rad_sec``, ``thetadot-``, ``psidot-`` (a Short S.23's take-off autopilot
    reads them) from JSBSim's attitude and body rates, through an F-16's rolling and pitching: JSBSim's."""
    from flightsim.physics.jsbsim.auxiliary import AUXILIARY, euler_rates_in, slots_of
    from flightsim.physics.jsbsim.program import Properties
    from flightsim.verify.flight_oracle import flat_fdm

    properties = Properties(AUXILIARY)
    slots = slots_of(properties)
    fdm = flat_fdm("f16")
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = 15000.0, 350.0
    fdm.run_ic()
    names = ("velocities/phidot-rad_sec", "velocities/thetadot-rad_sec", "velocities/psidot-rad_sec")
    worst, largest = 0.0, dict.fromkeys(names, 0.0)
    for i in range(360):
        t = i / 120.0
        fdm["fcs/aileron-cmd-norm"], fdm["fcs/elevator-cmd-norm"] = 0.6 * math.sin(2.0 * t), -0.3 * math.sin(1.1 * t)
        fdm.run()
        props = properties.array()
        euler_rates_in(props, slots, fdm["attitude/phi-rad"], fdm["attitude/theta-rad"],
                       *(fdm[f"velocities/{c}-rad_sec"] for c in "pqr"))
        for n in names:
            worst = max(worst, abs(props[properties[n]] - fdm[n]))
            largest[n] = max(largest[n], abs(fdm[n]))
    assert worst <= 1e-12 and min(largest.values()) > 0.01, (worst, largest)


@pytest.mark.parametrize("lat, lon", [(30.0, -97.0), (-45.0, 170.0)])
def test_the_flight_controls_read_the_round_planets_latitude_and_inertial_rates(lat, lon):
    """On a round planet (``params.planet`` packed) what FGPropagate gives the FCS is the view's: the geodetic
    latitude and longitude where the airplane is (not the flat earth's distances over the radii at 0°N 0°E), the
    geocentric latitude of the CG, and the body rates relative to inertial space (the rates relative to the Earth
    plus its turn): the Earth-centred inertial state's own, in JSBSim's axes."""
    from flightsim.math import quat
    from flightsim.physics.jsbsim.loads import SCALARS, STATE, _state_into
    from flightsim.physics.planet import WGS84, ecef, from_view, pack, to_view

    packed = pack(WGS84, math.radians(lat), math.radians(lon))
    view = np.zeros(13)
    view[0], view[1], view[2] = 90_000.0, -40_000.0, 8000.0         # ft North, West of the origin; height
    view[3:6] = [150.0, -60.0, 5.0]
    view[6:10] = quat.from_aviation_angles(12.0, 4.0, 200.0)
    view[10:13] = [0.05, -0.02, 0.01]
    eci = np.zeros(13)
    t = 1234.5
    from_view(t, view, packed, eci)
    seen = np.zeros(13)
    geodetic_lat, geodetic_lon = to_view(t, eci, packed, seen)      # (writes the planet's latitude and longitude)
    slots = np.arange(len(STATE), dtype=np.int64)
    props = np.zeros(len(STATE))
    _state_into(props, slots, seen, packed, None, np.zeros(SCALARS))     # (no terrain: the plane z = 0)
    got = dict(zip(STATE, props, strict=True))
    assert got["position/lat-geod-rad"] == geodetic_lat and got["position/long-gc-rad"] == geodetic_lon
    assert abs(got["position/lat-geod-deg"] - lat) < 0.5 and abs(got["position/long-gc-deg"] - lon) < 0.5
    x, y, z = ecef(geodetic_lat, geodetic_lon, seen[2], WGS84.a, WGS84.b)
    assert got["position/lat-gc-rad"] == pytest.approx(math.atan2(z, math.hypot(x, y)), abs=1e-15)
    inertial = np.array([eci[10], -eci[11], -eci[12]])              # flightsim's body axes → JSBSim's
    np.testing.assert_allclose([got["velocities/pi-rad_sec"], got["velocities/qi-rad_sec"],
                                got["velocities/ri-rad_sec"]], inertial, rtol=0, atol=1e-15)
    assert np.max(np.abs(inertial - [seen[10], -seen[11], -seen[12]])) > 1e-5      # (the Earth's turn, 7.3e-5 rad/s)
    # a launcher's guidance reads the sea-level radius under it (the ellipse's at the geocentric latitude) and its
    # orbit's apsides (from the ECI state: vis-viva's semi-major axis, the eccentricity from the angular momentum)
    c, s_ = math.cos(got["position/lat-gc-rad"]), math.sin(got["position/lat-gc-rad"])
    assert got["inertial/sea-level-radius_ft"] == pytest.approx(
        WGS84.a * WGS84.b / math.sqrt((WGS84.b * c) ** 2 + (WGS84.a * s_) ** 2), rel=1e-14)
    r, v = np.linalg.norm(eci[0:3]), np.linalg.norm(eci[3:6])
    semi = 1.0 / (2.0 / r - v * v / WGS84.gm)
    e = math.sqrt(1.0 - np.linalg.norm(np.cross(eci[0:3], eci[3:6])) ** 2 / (WGS84.gm * semi))
    assert got["orbital/apoapsis-radius-ft"] == pytest.approx(semi * (1 + e), rel=1e-9)
    assert got["orbital/periapsis-radius-ft"] == pytest.approx(semi * (1 - e), rel=1e-9)


def test_a_flying_boats_hydrodynamic_forces_and_moments_act_as_jsbsims():
    """The Short S.23 afloat (its reset00, on the water; JSBSim's hydrodynamics systems computing): at the
    magnitudes JSBSim's systems wrote each frame — the three LOCAL forces and the three BODY moments
    (``…/magnitude-lbsft``) —, the body force and moment about the CG flightsim adds are JSBSim's
    ``forces/fb*-external-lbs`` and ``moments/*-external-lbsft``, the moments among them."""
    from flightsim.physics.jsbsim.external import ExternalForces, external_loads
    from flightsim.physics.jsbsim.mass import MassBalance
    from flightsim.physics.jsbsim.program import Properties
    from flightsim.physics.jsbsim.xmlfile import aircraft_path
    from flightsim.verify.oracle import new_fdm

    source = JSBSimFile(aircraft_path("Short_S23"))
    mass = MassBalance.read(source)
    properties = Properties()
    forces = ExternalForces(source, properties, lambda r: mass.structural_to_body(r, mass.cg))
    assert sum(name.endswith("magnitude-lbsft") for name in forces.magnitudes) == 3
    fdm = new_fdm("Short_S23")
    fdm["propulsion/fuel_freeze"] = 1
    fdm.load_ic("reset00", True)
    fdm.run_ic()
    props = properties.array(forces.defaults)
    worst, moment = 0.0, 0.0
    for _ in range(240):
        fdm.run()
        for name in forces.magnitudes:
            props[properties[name]] = fdm[name]
        out = np.zeros(6)
        external_loads(props, forces.rows, out, fdm["attitude/phi-rad"], fdm["attitude/theta-rad"],
                       fdm["attitude/psi-rad"], fdm["aero/alpha-rad"], fdm["aero/beta-rad"], None)
        ref = np.array([fdm[f"forces/fb{a}-external-lbs"] for a in "xyz"]
                       + [fdm[f"moments/{a}-external-lbsft"] for a in "lmn"])
        worst = max(worst, float(np.max(np.abs(out - ref))) / max(float(np.max(np.abs(ref))), 1.0))
        moment = max(moment, max(abs(fdm[f"external_reactions/hydro-{a}/magnitude-lbsft"])
                                 for a in ("pitch", "roll", "yaw")))
    assert worst <= 1e-9 and moment > 1000.0, (worst, moment)

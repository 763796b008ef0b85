"""JSBSim's aircraft read from the jsbsim package: flight controls, aerodynamics, metrics and CG against JSBSim.

The oracle is JSBSim flying the same aircraft (``flightsim.verify.oracle``, property replay):
from JSBSim's state and commands, frame after frame, flightsim's compiled flight controls must write
JSBSim's surface positions, its auxiliary properties (α, β, q̄, Mach, α̇, the standard atmosphere, ...)
be JSBSim's, and its aerodynamics give JSBSim's forces and moments to 1e-9 relative, with flightsim's own
reference lengths and CG.  ``benchmarks/jsbsim_aero.py`` runs every aircraft
of the package; here the issue's targets (a glider, a piston single, a turboprop-as-turbine trainer, a
jet, an airliner).
"""

import math

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.physics.jsbsim import program
from flightsim.physics.jsbsim.aero import Aerodynamics
from flightsim.physics.jsbsim.fcs import SETTLE, FlightControls, property_name
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.program import ProgramBuilder, Properties
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_names, aircraft_path
from flightsim.verify.oracle import new_fdm, replay_aero

#: The issue's targets, and what their aerodynamics reads from the engines (copied from
#: JSBSim in the replay): the propeller's induced velocity (c172p: the aero replay runs no engine; the engines
#: have their own replay, tests/test_jsbsim_propulsion.py).
TARGETS = {"SGS": (), "c172p": ("propulsion/engine/prop-induced-velocity_fps",), "t6texan2": (), "A4": (),
           "737": ()}


@pytest.mark.parametrize("name", TARGETS)
def test_the_aerodynamic_loads_from_the_state_are_jsbsims_frame_after_frame(name):
    r = replay_aero(name, frames=360, every=9)
    assert r.frames == 40 and r.largest_force > 100.0          # real loads were compared
    assert r.copied == TARGETS[name]                           # everything else computed by flightsim
    assert r.auxiliary_error <= 1e-12, r                       # α, β, q̄, Mach, α̇, h/b, ... from the state
    assert r.force_error <= 1e-9, r
    assert r.moment_error <= 1e-9, r
    assert r.cg_error <= 1e-9, r                              # point masses and fuel included
    assert r.fcs_error <= 1e-12, r                            # the surfaces (kinematic flaps moving too)


@pytest.mark.parametrize("name", TARGETS)
def test_metrics_are_jsbsims(name):
    source = JSBSimFile(aircraft_path(name))
    fdm = new_fdm(name)
    fdm.run_ic()
    for key, value in Metrics.read(source).properties().items():
        if key in ("metrics/Sw-sqft", "metrics/bw-ft", "metrics/cbarw-ft", "metrics/Sh-sqft", "metrics/lh-ft",
                   "metrics/Sv-sqft", "metrics/lv-ft"):
            assert value == pytest.approx(fdm[key], rel=1e-12), key
    mass = MassBalance.read(source)
    assert mass.weight == pytest.approx(fdm["inertia/weight-lbs"], rel=1e-12)


def test_the_package_aircraft_are_found_by_name():
    names = aircraft_names()
    assert {"SGS", "c172p", "737", "f16"} <= set(names) and len(names) > 50
    assert aircraft_path("jsbsim:737") == aircraft_path("737")
    with pytest.raises(InputError, match=r"jsbsim:b737: no such JSBSim aircraft; the jsbsim package ships .*737"):
        aircraft_path("jsbsim:b737")


# ----------------------------------------------------------------------------- the stack machine


def _compiled(tmp_path, xml):
    """Compile ``<function name="out">…</function>`` from a file of its own; returns (program, properties)."""
    path = tmp_path / "f.xml"
    path.write_text(f'<fdm_config name="t">{xml}</fdm_config>')
    source = JSBSimFile(path)
    props = Properties()
    builder = ProgramBuilder(source, props)
    builder.function(source.root.find("function"), "function")
    builder.store("out")
    return builder.build(), props


def _value(prog, props, **inputs):
    values = props.array({k.replace("_", "/"): v for k, v in inputs.items()})
    prog.run(values)
    return values[props["out"]]


TABLE_2D = """<table><independentVar lookup="row">a</independentVar><independentVar lookup="column">b</independentVar>
<tableData>
        0.0   10.0
  -1.0  1.0    3.0
   1.0  5.0   11.0
</tableData></table>"""


@pytest.mark.parametrize("a, b, expected", [
    (0.0, 0.0, 3.0), (0.0, 10.0, 7.0), (0.0, 5.0, 5.0),         # bilinear: (1+5)/2, (3+11)/2, their mean
    (-7.0, 5.0, 2.0), (9.0, 5.0, 8.0),                          # the row factor clamped to [0, 1]
    (0.5, -3.0, 4.0), (0.5, 99.0, 9.0),                         # the column factor clamped
])
def test_a_2d_table_interpolates_and_clamps_as_jsbsims(tmp_path, a, b, expected):
    prog, props = _compiled(tmp_path, f'<function name="out">{TABLE_2D}</function>')
    assert _value(prog, props, a=a, b=b) == pytest.approx(expected, abs=1e-15)


TABLE_1D = """<table><independentVar>a</independentVar><tableData>
        0 0
        1 10
        3 30 </tableData></table>"""

TABLE_3D = """<table>
        <independentVar lookup="row">a</independentVar><independentVar lookup="column">b</independentVar>
        <independentVar lookup="table">c</independentVar>
        <tableData breakPoint="0">   0 10
                                  -1 1 3
                                   1 5 11</tableData>
        <tableData breakPoint="2">   0 10
                                  -1 2 6
                                   1 10 22</tableData></table>"""


def test_a_1d_table_holds_its_end_values_and_a_3d_table_blends_its_2d_tables(tmp_path):
    prog, props = _compiled(tmp_path, f'<function name="out">{TABLE_1D}</function>')
    assert [_value(prog, props, a=a) for a in (-5.0, 0.5, 2.0, 99.0)] == [0.0, 5.0, 20.0, 30.0]
    prog, props = _compiled(tmp_path, f'<function name="out">{TABLE_3D}</function>')
    assert _value(prog, props, a=0.0, b=5.0, c=1.0) == pytest.approx(7.5)           # halfway between 5 and 10
    assert _value(prog, props, a=0.0, b=5.0, c=-4.0) == pytest.approx(5.0)          # before the first
    assert _value(prog, props, a=0.0, b=5.0, c=7.0) == pytest.approx(10.0)          # after the last


@pytest.mark.parametrize("body, inputs, expected", [
    ("<difference><p>a</p><p>b</p><v>1</v></difference>", dict(a=10.0, b=3.0), 6.0),
    ("<quotient><p>a</p><p>b</p></quotient>", dict(a=1.0, b=0.0), math.inf),        # JSBSim's HUGE_VAL
    ("<quotient><p>a</p><p>b</p></quotient>", dict(a=3.0, b=4.0), 0.75),
    ("<product><p>-a</p><p>b</p><pi/></product>", dict(a=2.0, b=0.5), -math.pi),     # '-': the property negated
    ("<max><p>a</p><p>b</p><v>-9</v></max>", dict(a=-2.0, b=-3.0), -2.0),
    ("<min><p>a</p><p>b</p></min>", dict(a=-2.0, b=-3.0), -3.0),
    ("<pow><p>a</p><v>0.5</v></pow>", dict(a=16.0), 4.0),
    ("<atan2><p>a</p><p>b</p></atan2>", dict(a=1.0, b=-1.0), 0.75 * math.pi),
    ("<ifthen><gt><p>a</p><v>0</v></gt><v>7</v><v>8</v></ifthen>", dict(a=-1.0), 8.0),
    ("<sum><abs><p>a</p></abs><sqrt><v>-1</v></sqrt></sum>", dict(a=-2.0), -math.inf),
    ("<todegrees><p>a</p></todegrees>", dict(a=math.pi), 180.0),
])
def test_each_operation_computes_as_jsbsims(tmp_path, body, inputs, expected):
    prog, props = _compiled(tmp_path, f'<function name="out">{body}</function>')
    assert _value(prog, props, **inputs) == pytest.approx(expected, abs=1e-15)


#: Every operation the machine knows, with arguments and the value C's math library (JSBSim's) gives.
EVERY_OPERATION = {
    "product": ((2.0, 3.0, 0.5), 3.0), "sum": ((2.0, 3.0, 0.5), 5.5), "difference": ((2.0, 3.0, 0.5), -1.5),
    "min": ((2.0, -3.0, 0.5), -3.0), "max": ((2.0, -3.0, 0.5), 2.0), "avg": ((2.0, 3.0, 1.0), 2.0),
    "quotient": ((3.0, 4.0), 0.75), "pow": ((2.0, 10.0), 1024.0), "atan2": ((-1.0, -1.0), -0.75 * math.pi),
    "abs": ((-2.5,), 2.5), "sin": ((0.5,), math.sin(0.5)), "cos": ((0.5,), math.cos(0.5)),
    "tan": ((0.5,), math.tan(0.5)), "asin": ((0.5,), math.asin(0.5)), "acos": ((0.5,), math.acos(0.5)),
    "atan": ((0.5,), math.atan(0.5)), "exp": ((0.5,), math.exp(0.5)), "sqrt": ((2.25,), 1.5),
    "ln": ((math.e,), 1.0), "log10": ((1000.0,), 3.0), "sign": ((-0.0,), 1.0), "floor": ((-1.5,), -2.0),
    "ceil": ((-1.5,), -1.0), "toradians": ((90.0,), 0.5 * math.pi), "todegrees": ((0.5 * math.pi,), 90.0),
    "integer": ((-2.75,), -2.0), "fraction": ((-2.75,), -0.75), "lt": ((1.0, 2.0), 1.0), "le": ((2.0, 2.0), 1.0),
    "gt": ((1.0, 2.0), 0.0), "ge": ((1.0, 2.0), 0.0), "eq": ((2.0, 2.0), 1.0), "nq": ((2.0, 2.0), 0.0),
    "not": ((1.0,), 0.0), "and": ((1.0, 0.0), 0.0), "or": ((1.0, 0.0), 1.0), "ifthen": ((0.0, 7.0, 8.0), 8.0),
}


def test_every_operation_is_tested():
    assert set(EVERY_OPERATION) == set(program.OPERATIONS)


@pytest.mark.parametrize("name", sorted(EVERY_OPERATION))
def test_every_operation_gives_the_math_librarys_value(tmp_path, name):
    args, expected = EVERY_OPERATION[name]
    names = [f"in{k}" for k in range(len(args))]
    body = "".join(f"<p>{n}</p>" for n in names)
    prog, props = _compiled(tmp_path, f'<function name="out"><{name}>{body}</{name}></function>')
    assert _value(prog, props, **dict(zip(names, args, strict=True))) == pytest.approx(expected, abs=1e-15)


def test_a_function_that_reads_a_later_function_is_computed_after_it():
    source = JSBSimFile(aircraft_path("SGS"))
    aero = Aerodynamics(source)
    order = [name for name, _, _ in aero.functions]
    assert order.index("aero/function/kCLge") < order.index("aero/coefficient/CLwbh")
    assert "aero/function/kCLge" not in aero.inputs and "aero/h_b-mac-ft" in aero.inputs


# ----------------------------------------------------------------------------- what is not supported is said


def _aircraft(tmp_path, aero, extra=""):
    path = tmp_path / "plane.xml"
    path.write_text(f"""<fdm_config name="plane">
  <metrics><wingarea unit="FT2">100</wingarea><wingspan unit="FT">30</wingspan><chord unit="FT">4</chord>
    <location name="AERORP" unit="IN"><x>10</x><y>0</y><z>0</z></location></metrics>
  <mass_balance><emptywt unit="LBS">1000</emptywt><location name="CG" unit="IN"><x>12</x><y>0</y><z>0</z></location>
  </mass_balance>{extra}
  <aerodynamics>{aero}</aerodynamics></fdm_config>""")
    return JSBSimFile(path)


@pytest.mark.parametrize("aero, extra, message", [
    ('<axis name="DRAG"><function name="a/b"><random/></function></axis>', "",
     r"plane.xml: aerodynamics/axis name='DRAG'/<function name='a/b'>/random: unsupported function element <random>"),
    ('<axis name="SIDEWAYS"><function name="a/b"><v>1</v></function></axis>', "",
     r"plane.xml: aerodynamics/axis name='SIDEWAYS': unknown axis; JSBSim's are DRAG, SIDE, LIFT"),
    ('<axis name="ROLL" frame="STABILITY"><function name="a/b"><v>1</v></function></axis>', "",
     r"plane.xml: aerodynamics/axis name='ROLL': frame 'STABILITY' is not supported"),
    ('<axis name="DRAG"><function name="a/b"><pow><v>1</v></pow></function></axis>', "",
     r"plane.xml: aerodynamics/axis name='DRAG'/<function name='a/b'>/pow: takes 2 arguments, got 1"),
    ('<axis name="DRAG"><function name="a/b"><table><independentVar>x</independentVar><tableData>0 1\n 0 2'
     '</tableData></table></function></axis>', "", r"the row breakpoints must increase: \[0.0, 0.0\]"),
    ('<function name="a/c"><p>a/b</p></function><axis name="DRAG"><function name="a/b"><p>a/c</p></function></axis>',
     "", r"plane.xml: aerodynamics/<function name='a/c'>: the functions read each other in a cycle"),
    ('<aero_ref_pt_shift_x><v>0</v></aero_ref_pt_shift_x>', "",
     r"plane.xml: aerodynamics/aero_ref_pt_shift_x: needs a <function>"),
])
def test_what_is_not_supported_is_one_line_naming_the_file_and_the_element(tmp_path, aero, extra, message):
    with pytest.raises(InputError, match=message):
        Aerodynamics(_aircraft(tmp_path, aero, extra))


def test_units_that_do_not_convert_are_refused(tmp_path):
    bad = _aircraft(tmp_path, "").path
    bad.write_text(bad.read_text().replace('<wingarea unit="FT2">', '<wingarea unit="DEG">'))
    with pytest.raises(InputError, match="plane.xml: metrics/wingarea: unit 'DEG' cannot be converted to FT2"):
        Metrics.read(JSBSimFile(bad))


def test_a_hand_built_aircraft_gives_hand_computed_loads(tmp_path):
    """Lift 1000 lbf in wind axes at α = 0.1, β = 0, the reference point 2 in aft of the CG: body forces are
    the lift turned by α, the pitching moment the lift's arm (hand-derived)."""
    source = _aircraft(tmp_path, '<axis name="LIFT"><function name="aero/L"><v>1000</v></function></axis>'
                                 '<axis name="PITCH"><function name="aero/M"><v>50</v></function></axis>')
    aero, mass, metrics = Aerodynamics(source), MassBalance.read(source), Metrics.read(source)
    rp = mass.structural_to_body(metrics.aero_rp)
    np.testing.assert_allclose(rp, [2.0 / 12.0, 0.0, 0.0])        # CG at 12 in, RP at 10 in (x aft): RP ahead
    out = aero.loads(aero.properties.array(), 0.1, 0.0, rp)
    x, z = 1000.0 * math.sin(0.1), -1000.0 * math.cos(0.1)        # lift: up (−z) and, at α > 0, forward
    np.testing.assert_allclose(out, [x, 0.0, z, 0.0, 50.0 + (-rp[0] * z), 0.0], atol=1e-12)


def test_an_unknown_instruction_stops_the_machine_with_its_number():
    prog = program.Program(np.array([[program.OP_CONST, 0], [999, 0]], dtype=np.int64), np.array([1.0]),
                           np.zeros((0, program.TABLE_FIELDS), dtype=np.int64), np.zeros(0), 2)
    with pytest.raises(RuntimeError, match="stopped at instruction 1"):
        prog.run(np.zeros(1))


# ----------------------------------------------------------------------------- flight controls


def _controls(tmp_path, channel, dt=0.1):
    path = tmp_path / "fcs.xml"
    path.write_text(f'<fdm_config name="t"><flight_control name="f"><channel name="c">{channel}'
                    '</channel></flight_control></fdm_config>')
    fcs = FlightControls(JSBSimFile(path), dt=dt)
    return fcs, fcs.properties.array(fcs.defaults)


FLAPS = """<kinematic name="Flaps Control"><input>fcs/flap-cmd-norm</input>
  <traverse><setting><position>0</position><time>0</time></setting>
            <setting><position>10</position><time>2</time></setting>
            <setting><position>30</position><time>1</time></setting></traverse>
  <output>fcs/flap-pos-deg</output></kinematic>"""


def test_a_kinematic_moves_through_its_detents_at_each_intervals_rate(tmp_path):
    fcs, props = _controls(tmp_path, FLAPS, dt=0.5)
    p = fcs.properties
    props[p["fcs/flap-cmd-norm"]] = 1.0                      # full flaps: 30 deg (the input times the last detent)
    seen = []
    for _ in range(5):
        fcs.program.run(props)
        seen.append(props[p["fcs/flap-pos-deg"]])
    # 0 → 10 at 5 deg/s (2 s), then 10 → 30 at 20 deg/s (1 s): hand-derived, 0.5 s a frame
    assert seen == pytest.approx([2.5, 5.0, 7.5, 10.0, 20.0])
    assert props[p["fcs/flap-pos-rad"]] == pytest.approx(math.radians(20.0))     # FGFCS couples the units
    assert props[p["fcs/flaps-control"]] == props[p["fcs/flap-pos-deg"]]          # and names the component
    props[p["fcs/flap-cmd-norm"]] = 0.0
    props[p[SETTLE]] = 1.0                                   # JSBSim's trim status: at once
    fcs.program.run(props)
    assert props[p["fcs/flap-pos-deg"]] == 0.0


def test_gains_scales_sums_and_clips_compute_as_jsbsims(tmp_path):
    channel = """
      <summer name="Pitch Trim Sum"><input>fcs/elevator-cmd-norm</input><input>-fcs/pitch-trim-cmd-norm</input>
        <bias>0.1</bias><clipto><min>-1</min><max>1</max></clipto></summer>
      <aerosurface_scale name="Elevator Control"><input>fcs/pitch-trim-sum</input>
        <range><min>-28</min><max>23</max></range><gain>0.01745</gain><output>fcs/elevator-pos-rad</output>
      </aerosurface_scale>
      <pure_gain name="Doubled"><input>fcs/elevator-cmd-norm</input><gain>2</gain>
        <clipto type="cyclic"><min>-1</min><max>1</max></clipto></pure_gain>
      <scheduled_gain name="Scheduled"><input>fcs/elevator-cmd-norm</input><gain>3</gain>
        <table><independentVar>velocities/mach</independentVar><tableData>0 1
        1 2</tableData></table></scheduled_gain>"""
    fcs, props = _controls(tmp_path, channel)
    p = fcs.properties
    props[p["fcs/elevator-cmd-norm"]], props[p["fcs/pitch-trim-cmd-norm"]] = 0.6, -0.2
    props[p["velocities/mach"]] = 0.5
    fcs.program.run(props)
    assert props[p["fcs/pitch-trim-sum"]] == pytest.approx(0.9)               # 0.6 + 0.2 + 0.1
    assert props[p["fcs/elevator-pos-rad"]] == pytest.approx(0.9 * 23 * 0.01745)   # the positive side's range
    assert props[p["fcs/mag-elevator-pos-rad"]] == props[p["fcs/elevator-pos-rad"]]
    assert props[p["fcs/elevator-pos-deg"]] == pytest.approx(math.degrees(0.9 * 23 * 0.01745))
    assert props[p["fcs/doubled"]] == pytest.approx(-0.8)                      # 1.2 wrapped into [-1, 1)
    assert props[p["fcs/scheduled"]] == pytest.approx(3 * 1.5 * 0.6)
    props[p["fcs/elevator-cmd-norm"]] = -0.8
    fcs.program.run(props)
    assert props[p["fcs/elevator-pos-rad"]] == pytest.approx(-0.5 * -28 / -1 * 0.01745)   # (−0.5/−1)·(−28)
    assert property_name("Yaw Damper Final") == "fcs/yaw-damper-final"
    assert property_name("fcs/own/path") == "fcs/own/path"


@pytest.mark.parametrize("channel, message", [
    ('<distributor name="P"><input>a</input></distributor>', "fcs.xml: flight_control/<channel name='c'>/"
                                                             "<distributor name='P'>: component <distributor> is "
                                                             "not supported"),
    ('<summer name="S"><input>a</input><init>2</init></summer>', r"<summer name='S'>/init: not supported"),
    ('<integrator name="I"><input>a</input></integrator>', r"<integrator name='I'>/c1: required element is missing"),
    ('<actuator name="A"><input>a</input><fail_zero>1</fail_zero></actuator>',
     r"<actuator name='A'>/fail_zero: actuator failures are not supported"),
    ('<sensor name="S"><input>a</input><delay type="ticks">2</delay></sensor>',
     r"<sensor name='S'>/delay: a delay of 2.0 'ticks': needs time or frames"),
    ('<angle name="A"><source_angle>a</source_angle></angle>', r"<angle name='A'>/target_angle: required element"),
    ('<pure_gain name="G"><input>a</input><input>b</input></pure_gain>', r"<pure_gain name='G'>/input: needs 1 "),
    ('<kinematic name="K"><input>a</input><traverse><setting><position>0</position><time>0</time></setting>'
     '</traverse></kinematic>', r"<kinematic name='K'>/traverse: needs more than one <setting>"),
])
def test_flight_control_components_not_supported_are_named(tmp_path, channel, message):
    with pytest.raises(InputError, match=message):
        _controls(tmp_path, channel)


def test_each_engines_throttle_position_follows_its_command():
    fcs = FlightControls(JSBSimFile(aircraft_path("737")))
    props = fcs.properties.array(fcs.defaults)
    p = fcs.properties
    props[p["fcs/throttle-cmd-norm[0]"]], props[p["fcs/throttle-cmd-norm[1]"]] = 0.3, 0.8
    fcs.program.run(props)
    assert (props[p["fcs/throttle-pos-norm[0]"]], props[p["fcs/throttle-pos-norm[1]"]]) == (0.3, 0.8)


def test_a_component_in_a_system_is_refused_by_name(tmp_path):
    path = tmp_path / "sys.xml"
    path.write_text('<fdm_config name="t"><system name="s"><channel name="Sensors"><linear_actuator name="Rate '
                    'Gyro"><input>a</input></linear_actuator></channel></system></fdm_config>')
    with pytest.raises(InputError, match=r"sys.xml: system\[0\]/<channel name='Sensors'>/<linear_actuator name='Rate "
                                         r"Gyro'>: component <linear_actuator> is not supported"):
        FlightControls(JSBSimFile(path))


def test_a_switch_takes_its_first_test_that_holds_else_its_default(tmp_path):
    channel = """<switch name="Mode"><default value="-fcs/fallback"/>
        <test logic="AND" value="1">fcs/a gt 0.5
                                    fcs/b == 2</test>
        <test logic="OR" value="fcs/c">fcs/a lt -1
            <test>fcs/b ge 10</test></test></switch>"""
    fcs, props = _controls(tmp_path, channel)
    p = fcs.properties

    def mode(a, b, c=7.0):
        props[p["fcs/a"]], props[p["fcs/b"]], props[p["fcs/c"]], props[p["fcs/fallback"]] = a, b, c, 3.0
        fcs.program.run(props)
        return props[p["fcs/mode"]]

    assert mode(0.9, 2.0) == 1.0                    # both lines of the first test
    assert mode(0.9, 3.0) == -3.0                   # the first fails (AND), the second too: the default, negated
    assert mode(-2.0, 3.0) == 7.0                   # the second, by its first line (OR)
    assert mode(0.0, 12.0) == 7.0                   # the second, by its nested test
    assert mode(0.9, 12.0) == 7.0


# ----------------------------------------------------------------------------- atmosphere and auxiliary properties


def test_the_standard_atmosphere_is_jsbsims_to_the_bit():
    from flightsim.physics.jsbsim.atmosphere import standard_atmosphere

    fdm = new_fdm("SGS")
    for h in (0.0, 1500.0, 12000.0, 36089.0, 40000.0, 80000.0, 150000.0):
        fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = h, 100.0
        fdm.run_ic()
        ours = standard_atmosphere(fdm["position/h-sl-ft"])
        theirs = tuple(fdm[k] for k in ("atmosphere/T-R", "atmosphere/P-psf", "atmosphere/rho-slugs_ft3",
                                        "atmosphere/a-fps"))
        assert ours == pytest.approx(theirs, rel=1e-15, abs=0.0), h
    t, p, rho, a = standard_atmosphere(0.0)
    assert (t, p) == (518.67, 2116.228) and rho == pytest.approx(0.0023769, rel=1e-4)       # 1976 sea level
    assert a == pytest.approx(1116.45, rel=1e-5)


def test_a_biased_atmosphere_is_jsbsims_to_the_bit():
    """``atmosphere/delta-T`` (c172_cruise_8K's ±36 °R): JSBSim's temperature bias, its layers' pressures found
    again with the warmer or colder air; and a flight's σ and θ over the biased sea level's, as JSBSim's."""
    from flightsim.physics.aircraft import load_aircraft
    from flightsim.physics.jsbsim.atmosphere import biased_atmosphere
    from flightsim.simulation.flight import Simulation

    fdm = new_fdm("SGS")
    for bias in (-36.0, 36.0):
        fdm["atmosphere/delta-T"] = bias
        for h in (0.0, 4000.0, 40000.0, 80000.0):
            fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = h, 100.0
            fdm.run_ic()
            ours = biased_atmosphere(fdm["position/h-sl-ft"], bias)
            theirs = tuple(fdm[k] for k in ("atmosphere/T-R", "atmosphere/P-psf", "atmosphere/rho-slugs_ft3",
                                            "atmosphere/a-fps"))
            assert ours == pytest.approx(theirs, rel=1e-15, abs=0.0), (bias, h)
    assert biased_atmosphere(4000.0, 0.0) == standard_atmosphere_at(4000.0)
    sim = Simulation(load_aircraft("jsbsim:c172x"), "rk4")
    sim.set_jsbsim_temperature_bias(36.0)
    sim.step()
    sim.step()
    fdm["ic/h-sl-ft"] = sim.vector[2]
    fdm.run_ic()
    assert sim.jsbsim_temperature_bias == 36.0
    assert sim.jsbsim_property("atmosphere/sigma") == pytest.approx(fdm["atmosphere/sigma"], rel=1e-6)
    with pytest.raises(ValueError, match="absolute zero"):
        sim.set_jsbsim_temperature_bias(-600.0)


def standard_atmosphere_at(h):
    from flightsim.physics.jsbsim.atmosphere import standard_atmosphere

    return standard_atmosphere(h)


def test_the_auxiliary_properties_follow_their_definitions():
    """Hand-derived: u = 100, w = 10, v = 5 ft/s at sea level; α̇ from ẇ alone."""
    from flightsim.physics.jsbsim.auxiliary import AUXILIARY, auxiliary, slots_of

    props_ = Properties(AUXILIARY)
    props = props_.array()
    auxiliary(props, slots_of(props_), 100.0, 5.0, 10.0, 0.0, 0.0, 2.0, 0.1, 0.2, 0.3, 0.0, 50.0, 40.0, 5.0,
              200.0, -2.0)
    value = dict(zip(AUXILIARY, props, strict=True))
    vt = math.sqrt(100.0 ** 2 + 5.0 ** 2 + 10.0 ** 2)
    assert value["aero/alpha-rad"] == pytest.approx(math.atan2(10.0, 100.0))
    assert value["aero/beta-rad"] == pytest.approx(math.atan2(5.0, math.hypot(100.0, 10.0)))
    assert value["aero/alphadot-rad_sec"] == pytest.approx(100.0 * 2.0 / (100.0 ** 2 + 10.0 ** 2))
    assert value["aero/qbar-psf"] == pytest.approx(0.5 * value["atmosphere/rho-slugs_ft3"] * vt * vt)
    assert value["aero/bi2vel"] == pytest.approx(40.0 / (2 * vt))
    assert value["aero/ci2vel"] == pytest.approx(5.0 / (2 * vt))
    assert value["aero/h_b-mac-ft"] == pytest.approx((50.0 + 2.0) / 40.0)     # the reference point 2 ft above the CG
    assert value["velocities/mach"] == pytest.approx(vt / value["atmosphere/a-fps"])


# ----------------------------------------------------------------------------- engines


@pytest.mark.parametrize("name", ["t6texan2", "A4", "737"])
def test_a_turbines_thrust_spools_and_loads_are_jsbsims_as_the_throttle_moves(name):
    from flightsim.verify.oracle import replay_propulsion

    r = replay_propulsion(name, frames=600, every=6)
    assert r.frames == 100 and r.largest_thrust > 1000.0        # real thrust, the throttle stepped 0.7-1-0.2-0.6
    assert r.thrust_error <= 1e-12 and r.spool_error <= 1e-10, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


@pytest.mark.parametrize("name, message", [
    ("ion", r"ion.xml: propulsion/engine\[0\]: <ion_engine> engines are not supported yet"),
])
def test_engines_not_modelled_yet_are_refused_by_name(tmp_path, name, message):
    """A package aircraft's, or a hand-built one's (``ion``: an engine of a type JSBSim does not have either)."""
    from flightsim.physics.jsbsim.propulsion import Propulsion

    path = aircraft_path(name) if name != "ion" else tmp_path / "ion.xml"
    if name == "ion":
        (tmp_path / "engine").mkdir()
        (tmp_path / "engine" / "ion.xml").write_text('<ion_engine name="i"/>')
        path.write_text('<fdm_config name="ion"><propulsion><engine file="ion"><thruster file="direct"><location '
                        'unit="IN"><x>0</x><y>0</y><z>0</z></location></thruster></engine></propulsion></fdm_config>')
    with pytest.raises(InputError, match=message):
        Propulsion(JSBSimFile(path))


def test_the_stall_latch_and_cl_squared_follow_the_last_frame(tmp_path):
    """FGAerodynamics::Run's state: the latch sets above the hysteresis maximum, holds between, clears below the
    minimum; cl² is the last frame's lift over q̄ S, squared (hand-derived)."""
    from flightsim.physics.jsbsim.aero import CL_SQUARED, LIFT, STALL_LATCH

    aero_xml = ('<hysteresis_limits unit="DEG"><min>5</min><max>20</max></hysteresis_limits>'
                '<axis name="LIFT"><function name="aero/L"><product><p>aero/qbar-psf</p><p>metrics/Sw-sqft</p>'
                '<sum><v>0.5</v><p>aero/stall-hyst-norm</p><p>aero/cl-squared</p></sum></product></function></axis>')
    aero = Aerodynamics(_aircraft(tmp_path, aero_xml))
    p = aero.properties
    props = p.array({"metrics/Sw-sqft": 100.0, "aero/qbar-psf": 10.0})
    assert CL_SQUARED not in aero.inputs and STALL_LATCH not in aero.inputs
    seen = []
    for alpha_deg in (10.0, 25.0, 10.0, 2.0):
        props[p["aero/alpha-rad"]] = math.radians(alpha_deg)
        aero.loads(props, math.radians(alpha_deg), 0.0, np.zeros(3))
        seen.append((props[p[STALL_LATCH]], props[p[CL_SQUARED]], props[p[LIFT]]))
    # frame 1: no lift before, latch clear: CL 0.5; frame 2: cl² = 0.5², latched: CL 1.75; frame 3: cl² =
    # 1.75², still latched; frame 4: below 5 deg, cleared
    assert [latch for latch, _, _ in seen] == [0.0, 1.0, 1.0, 0.0]
    assert seen[0][1] == 0.0 and seen[1][1] == pytest.approx(0.25) and seen[2][1] == pytest.approx(1.75 ** 2)
    assert seen[1][2] == pytest.approx(1000.0 * 1.75)


def test_an_index_0_names_the_node_itself_as_in_jsbsims_property_tree():
    props = Properties()
    assert props.slot("fcs/throttle-pos-norm[0]") == props.slot("fcs/throttle-pos-norm")
    assert props.slot("propulsion/engine[0]/n2") == props["propulsion/engine/n2"]
    assert props.slot("propulsion/engine[1]/n2") != props["propulsion/engine/n2"]

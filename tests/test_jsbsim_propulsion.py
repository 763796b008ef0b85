"""JSBSim's piston engines (with superchargers) and propellers (fixed-pitch and constant-speed), computed by
flightsim, against JSBSim itself.

The oracle is JSBSim flying the same aircraft (``flightsim.physics.jsbsim.oracle.replay_propulsion``): its
engines started as ``propulsion/set-running`` starts them (both magnetos, no starter, fuel frozen), the
throttle stepped 0.7 → 1 → 0.2 → 0.6 and the mixture 1 → 0.85 → cut off (the engine stops and windmills) → 1
(it starts again) over 5 s at cruise; flightsim's engines run on their own state from JSBSim's commands and
state, and every third frame their rpm, manifold pressure, power, thrust, induced velocity and the thrusters'
body force and moment must be JSBSim's to 1e-9 relative.  The constant-speed propellers (pa28, c182, B17's
geared ones, Boeing314's behind supercharged engines) are flown so too, their rpm command moving 0 → 1 → 0.6, and
their blade angle compared as well.  The steady state (for a trimmed start) must be the one JSBSim's
``FGPropulsion::GetSteadyState`` marches to, and stay put for a frame; where a governor holds the rpm between the
pitch limits that march (0.5 s steps) does not settle, and the steady state is checked to hold the rpm commanded.
"""

from collections import namedtuple

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.auxiliary import slots_of
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.oracle import (INERTIAL_RATES, PROPULSION_LOADS, engine_inputs_from, new_fdm,
                                            replay_propulsion)
from flightsim.physics.jsbsim.program import Properties
from flightsim.physics.jsbsim.propulsion import S_N1, S_N2, Propulsion, engines_frame
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path

#: The piston aircraft checked, at a cruise of theirs: (kts, ft).
PISTONS = {"c172p": (100.0, 4000.0), "c172r": (105.0, 5000.0), "J3Cub": (70.0, 3000.0)}


@pytest.mark.parametrize("name", PISTONS)
def test_a_pistons_rpm_power_thrust_and_loads_are_jsbsims_frame_by_frame(name):
    kts, ft = PISTONS[name]
    r = replay_propulsion(name, frames=600, every=3, airspeed_kts=kts, altitude_ft=ft)
    assert r.frames == 200 and r.largest_thrust > 100.0          # real thrust was compared
    assert r.rpm_error <= 1e-9 and r.map_error <= 1e-9 and r.power_error <= 1e-9, r
    assert r.thrust_error <= 1e-9 and r.induced_error <= 1e-9, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


#: Aircraft with constant-speed propellers, at a cruise of theirs: (kts, ft).  B17's propellers are geared;
#: Boeing314's engines are supercharged (two speeds, a takeoff boost: MAP clipped at full throttle).
GOVERNED = {"pa28": (110.0, 4000.0), "c182": (130.0, 6000.0), "B17": (160.0, 8000.0), "Boeing314": (150.0, 6000.0)}


@pytest.mark.parametrize("name", GOVERNED)
def test_a_constant_speed_propellers_rpm_pitch_thrust_and_loads_are_jsbsims_frame_by_frame(name):
    kts, ft = GOVERNED[name]
    r = replay_propulsion(name, frames=600, every=3, airspeed_kts=kts, altitude_ft=ft)
    assert r.frames == 200 and r.largest_thrust > 400.0
    assert r.rpm_error <= 1e-9 and r.map_error <= 1e-9 and r.power_error <= 1e-9, r
    assert r.thrust_error <= 1e-9 and r.induced_error <= 1e-9 and r.pitch_error <= 1e-9, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


def test_a_supercharger_boosts_the_manifold_pressure_as_jsbsims_constructor_sets_it_up():
    """WrightGR-2600 says two speeds but rates the first twice and the second not at all: JSBSim drops the second
    (one speed, 7 psi rated at sea level, a 10 psi takeoff boost); p51d's Merlin has two, rated at 5000 and
    16 000 ft, switching 1000 ft above the first."""
    from flightsim.physics.jsbsim.piston import (PE_BOOST_MUL, PE_BOOST_SPEEDS, PE_HYSTERESIS, PE_RATED_MAP,
                                                 PE_SWITCH_PRESSURE, PE_TAKEOFF_BOOST, PE_TAKEOFF_MAP,
                                                 std_pressure_100k)

    row = Propulsion(JSBSimFile(aircraft_path("Boeing314"))).pistons[0]
    assert row[PE_BOOST_SPEEDS] == 1 and row[PE_TAKEOFF_BOOST] == 1.0
    assert row[PE_RATED_MAP] == 101320.73 + 7 * 6895 and row[PE_TAKEOFF_MAP] == row[PE_RATED_MAP] + 3 * 6895
    assert row[PE_BOOST_MUL] == row[PE_RATED_MAP] / (2116.217 * 47.88)
    row = Propulsion(JSBSimFile(aircraft_path("p51d"))).pistons[0]
    assert row[PE_BOOST_SPEEDS] == 2 and row[PE_HYSTERESIS] == 1000.0
    assert row[PE_SWITCH_PRESSURE] == std_pressure_100k(6000.0) * 47.88
    assert row[PE_RATED_MAP + 1] == 101320.73 + 51 / 2.03625437 * 6895
    assert row[PE_BOOST_MUL + 1] == row[PE_RATED_MAP + 1] / (std_pressure_100k(16000.0) * 47.88)


# ----------------------------------------------------------------------------- the steady state (trim)


def _at_jsbsims_state(name, kts, ft, throttle, mixture=1.0):
    """JSBSim with ``name`` running at ``throttle`` after ``run_ic``, and flightsim's engines and property array
    with JSBSim's engine inputs then."""
    source = JSBSimFile(aircraft_path(name))
    properties = Properties()
    engines = Propulsion(source, properties)
    sigma = properties.slot("atmosphere/sigma")
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    fdm = new_fdm(name)
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = ft, kts
    fdm["propulsion/fuel_freeze"] = 1
    fdm["propulsion/set-running"] = -1
    fdm["fcs/throttle-cmd-norm"] = throttle
    fdm.run_ic()
    cg = mass.cg
    engines.locate(lambda r: mass.structural_to_body(r, cg))
    props = properties.array(engines.defaults)
    inertial = [(properties[n], n) for n in INERTIAL_RATES if n in properties]
    engine_inputs_from(fdm, props, slots_of(properties), inertial, metrics,
                       mass.structural_to_body(metrics.aero_rp, cg), tuple(fdm[f"accelerations/{c}dot-ft_sec2"]
                                                                           for c in "uvw"))
    props[properties["fcs/throttle-pos-norm"]] = throttle
    if "fcs/mixture-pos-norm" in properties:
        props[properties["fcs/mixture-pos-norm"]] = mixture
    return fdm, engines, properties, props, props[sigma]


@pytest.mark.parametrize("name, kts, ft, throttle", [("c172p", 100.0, 4000.0, 0.6), ("c172r", 110.0, 6000.0, 0.8),
                                                     ("J3Cub", 70.0, 3000.0, 0.1), ("c172p", 60.0, 4000.0, 0.0)])
def test_the_steady_state_is_jsbsims_and_a_frame_leaves_it_there(name, kts, ft, throttle):
    fdm, engines, properties, props, sigma = _at_jsbsims_state(name, kts, ft, throttle)
    fdm.get_propulsion().get_steady_state()               # JSBSim marches its engines to a steady state
    out = engines.steady(props, sigma)
    rpm = props[properties["propulsion/engine/propeller-rpm"]]
    assert rpm == pytest.approx(fdm["propulsion/engine/propeller-rpm"], rel=1e-9)
    ref = np.array([fdm[k] for k in PROPULSION_LOADS])
    assert np.max(np.abs(out - ref)) <= 1e-9 * np.linalg.norm(ref[:3])
    engines.run(props, 1.0 / 120.0, sigma)
    assert abs(props[properties["propulsion/engine/propeller-rpm"]] - rpm) < 1e-6
    assert props[properties["propulsion/engine/set-running"]] == 1.0


def _governed_state(name, kts, ft, throttle, advance):
    """:func:`_at_jsbsims_state` with every engine at ``throttle`` and rpm command ``advance`` in both, JSBSim's
    engines running."""
    from flightsim.physics.jsbsim.oracle import start_pistons

    fdm, engines, properties, props, sigma = _at_jsbsims_state(name, kts, ft, throttle)
    for k in range(len(engines.kinds)):
        fdm[f"fcs/throttle-cmd-norm[{k}]"] = props[properties[f"fcs/throttle-pos-norm[{k}]"]] = throttle
        fdm[f"fcs/advance-cmd-norm[{k}]"] = props[properties[f"fcs/advance-cmd-norm[{k}]"]] = advance
    start_pistons(fdm, range(len(engines.kinds)))
    return fdm, engines, properties, props, sigma


@pytest.mark.parametrize("name, kts, ft, throttle, advance", [("pa28", 110.0, 4000.0, 0.7, 0.0),
                                                              ("c182", 130.0, 6000.0, 0.7, 0.5),
                                                              ("Boeing314", 150.0, 6000.0, 0.6, 0.3)])
def test_a_governors_steady_state_at_a_pitch_limit_is_jsbsims(name, kts, ft, throttle, advance):
    """Where the governor drives the blades to their coarsest, JSBSim's march settles and must be ours."""
    fdm, engines, properties, props, sigma = _governed_state(name, kts, ft, throttle, advance)
    fdm.get_propulsion().get_steady_state()
    out = engines.steady(props, sigma)
    for key in ("propeller-rpm", "blade-angle", "map-pa", "thrust-lbs"):
        assert props[properties[f"propulsion/engine/{key}"]] == pytest.approx(fdm[f"propulsion/engine/{key}"],
                                                                              rel=1e-9), key
    ref = np.array([fdm[k] for k in PROPULSION_LOADS])
    assert np.max(np.abs(out - ref)) <= 1e-9 * np.linalg.norm(ref[:3])


@pytest.mark.parametrize("name, kts, ft, throttle, advance, rpm", [("pa28", 110.0, 4000.0, 0.7, 0.5, 1700.0),
                                                                   ("B17", 160.0, 8000.0, 0.7, 0.0, 1400.0)])
def test_a_governed_steady_state_holds_the_rpm_commanded_and_a_frame_leaves_it_there(name, kts, ft, throttle,
                                                                                      advance, rpm):
    """Between the pitch limits JSBSim's march (0.5 s steps) overshoots and ends anywhere; flown, JSBSim's governor
    holds the rpm commanded (``minrpm + (maxrpm − minrpm) · advance``), as the steady state does."""
    _, engines, properties, props, sigma = _governed_state(name, kts, ft, throttle, advance)
    engines.steady(props, sigma)
    state = [properties[f"propulsion/engine/{key}"] for key in ("propeller-rpm", "blade-angle", "thrust-lbs")]
    before = props[state].copy()
    assert before[0] == rpm
    pr = engines.propellers[0]
    from flightsim.physics.jsbsim.propeller import PR_MAX_PITCH, PR_MIN_PITCH
    assert pr[PR_MIN_PITCH] < before[1] < pr[PR_MAX_PITCH]
    engines.run(props, 1.0 / 120.0, sigma)
    np.testing.assert_allclose(props[state], before, rtol=1e-9)


def test_a_turbines_steady_state_has_its_spools_at_their_targets_and_a_frame_leaves_them_there():
    fdm, engines, properties, props, sigma = _at_jsbsims_state("t6texan2", 200.0, 8000.0, 0.7)
    engines.steady(props, sigma)
    spools = props[engines.slots[:, [S_N1, S_N2]]].copy()
    engines.run(props, 1.0 / 120.0, sigma)
    np.testing.assert_array_equal(props[engines.slots[:, [S_N1, S_N2]]], spools)


def test_an_engine_without_fuel_has_no_steady_state_and_says_so():
    _, engines, _, props, sigma = _at_jsbsims_state("c172p", 100.0, 4000.0, 0.6, mixture=0.0)
    with pytest.raises(RuntimeError, match=r"c172p.xml: 1 of its 1 piston engine\(s\) have no running steady state"):
        engines.steady(props, sigma)


# ----------------------------------------------------------------------------- one compiled entry point

Arrays = namedtuple("Arrays", "engines slots pistons piston_slots propellers propeller_slots tables table_data")


@borrowing_jit
def _frames(props, arrays, dt, density_ratio, out, n):
    """``n`` frames of every engine from compiled code, the arrays in a named tuple."""
    for _ in range(n):
        engines_frame(props, arrays.engines, arrays.slots, arrays.pistons, arrays.piston_slots, arrays.propellers,
                      arrays.propeller_slots, arrays.tables, arrays.table_data, dt, density_ratio, out)


def test_the_engines_frame_runs_from_compiled_code_as_from_python():
    _, engines, _, props, sigma = _at_jsbsims_state("c172p", 100.0, 4000.0, 0.6)
    engines.steady(props, sigma)
    props[engines.piston_slots[0, 0]] = 1.0                 # full throttle: the engine speeds up
    ours, theirs = props.copy(), props.copy()
    out_compiled, out_python = np.zeros(6), np.zeros(6)
    _frames(ours, Arrays(*engines.arrays), 1.0 / 120.0, sigma, out_compiled, 30)
    for _ in range(30):
        engines.run(theirs, 1.0 / 120.0, sigma, out_python)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(out_compiled, out_python)
    assert ours[engines.propeller_slots[0, 0]] > props[engines.propeller_slots[0, 0]] + 1.0


# ----------------------------------------------------------------------------- what is not modelled is refused


@pytest.mark.parametrize("name, message", [
    ("ZLT-NT", r"ZLT-NT.xml: propulsion/engine\[3\]: <electric_engine> engines are not supported yet"),
    ("Short_S23", r"Short_S23.xml: propulsion/engine\[0\]/function: an engine's own functions are not supported"),
    ("DHC6", r"DHC6.xml: propulsion/engine\[0\]: <turboprop_engine> engines are not supported yet"),
    ("C130", r"C130.xml: propulsion/engine\[0\]/thruster: only direct thrusters are supported yet"),
])
def test_engines_and_propellers_not_modelled_are_refused_by_name(name, message):
    with pytest.raises(InputError, match=message):
        Propulsion(JSBSimFile(aircraft_path(name)))


PROPELLER = """<propeller name="p"><ixx>1.5</ixx><diameter unit="IN">72</diameter><minpitch>20</minpitch>
  <maxpitch>20</maxpitch>{extra}
  <table name="C_THRUST" type="internal"><tableData> 0 0.07
  2 -0.05</tableData></table>
  <table name="C_POWER" type="internal"><tableData> 0 0.05
  2 0.04</tableData></table></propeller>"""


def _plane(tmp_path, engine="", propeller="", thruster="", pitch=(20, 20)):
    (tmp_path / "engine").mkdir(exist_ok=True)
    (tmp_path / "engine" / "eng.xml").write_text(f'<piston_engine name="e"><maxhp>150</maxhp>{engine}'
                                                 '</piston_engine>')
    text = PROPELLER.format(extra=propeller).replace("<minpitch>20", f"<minpitch>{pitch[0]}")
    (tmp_path / "engine" / "prop.xml").write_text(text.replace("<maxpitch>20", f"<maxpitch>{pitch[1]}"))
    path = tmp_path / "plane.xml"
    path.write_text(f"""<fdm_config name="plane"><propulsion><engine file="eng"><thruster file="prop">
      <location unit="IN"><x>-40</x><y>0</y><z>20</z></location>{thruster}</thruster></engine></propulsion>
      </fdm_config>""")
    return JSBSimFile(path)


@pytest.mark.parametrize("parts, message", [
    (dict(engine="<turbo-lag>1</turbo-lag>"), r"plane.xml: propulsion/engine\[0\]/turbo-lag: not supported in a "
                                              r"piston engine"),
    (dict(engine='<maxmp unit="BAR">1</maxmp>'), r"propulsion/engine\[0\]/maxmp: unit 'BAR' cannot be converted"),
    (dict(propeller='<table name="CQ"><tableData>0 1</tableData></table>'),
     r"propulsion/engine\[0\]/thruster/propeller/table name='CQ': unknown propeller table"),
    (dict(propeller="<governor>1</governor>"), r"thruster/propeller/governor: not supported in a propeller"),
    (dict(thruster="<pointing><x>1</x></pointing>"), r"thruster/pointing: a <pointing> thruster is not supported"),
    (dict(thruster="<p_factor>-1</p_factor>"), r"thruster/p_factor: must not be negative"),
    (dict(engine="<numboostspeeds>1</numboostspeeds><boost-loss-factor>1.2</boost-loss-factor>"),
     r"propulsion/engine\[0\]/boost-loss-factor: the supercharger's drive loss is not supported"),
    (dict(engine='<numboostspeeds>1</numboostspeeds><ratedboost1 unit="PA">1</ratedboost1>'),
     r"propulsion/engine\[0\]/ratedboost1: unit 'PA' cannot be converted to PSI"),
    (dict(propeller="<maxrpm>2700</maxrpm>", pitch=(15, 25)),
     r"thruster/propeller/table name='C_THRUST'/tableData: a 2-D table needs 3 numbers a line here: '2.0 -0.05'"),
])
def test_what_a_piston_or_propeller_file_has_that_is_not_modelled_is_refused(tmp_path, parts, message):
    with pytest.raises(InputError, match=message):
        Propulsion(_plane(tmp_path, **parts))


def test_a_hand_built_piston_is_one_row_of_each_array(tmp_path):
    engines = Propulsion(_plane(tmp_path))
    assert engines.kinds == [("piston", 0)] and engines.engines.shape == (0, 15)
    assert engines.pistons.shape[0] == engines.propellers.shape[0] == engines.tables.shape[0] == 1
    assert [a is b for a, b in zip(engines.arrays, (engines.engines, engines.slots, engines.pistons,
                                                     engines.piston_slots, engines.propellers,
                                                     engines.propeller_slots, engines.tables,
                                                     engines.table_data))] == [True] * 8


@pytest.mark.parametrize("name", PISTONS)
def test_what_fgpistons_constructor_derives_is_jsbsims(name):
    """The BSFC estimated when the file gives none (c172r, J3Cub), the air box's impedance and the rest that
    JSBSim shows as properties."""
    from flightsim.physics.jsbsim.piston import PE_ISFC, PE_STATIC_FRICTION, PE_VOL_EFF, PE_Z_AIRBOX

    engines = Propulsion(JSBSimFile(aircraft_path(name)))
    fdm = new_fdm(name)
    row = engines.pistons[0]
    for column, key in ((PE_ISFC, "bsfc-lbs_hphr"), (PE_Z_AIRBOX, "air-intake-impedance-factor"),
                        (PE_VOL_EFF, "volumetric-efficiency"), (PE_STATIC_FRICTION, "friction-hp")):
        assert row[column] == pytest.approx(fdm[f"propulsion/engine/{key}"], rel=1e-15), key

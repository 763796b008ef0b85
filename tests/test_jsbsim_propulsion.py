"""JSBSim's piston engines (with superchargers) and propellers (fixed-pitch and constant-speed), computed by
flightsim, against JSBSim itself.

The oracle is JSBSim flying the same aircraft (``flightsim.verify.oracle.replay_propulsion``): its
engines started as ``propulsion/set-running`` starts them (both magnetos, no starter, fuel frozen), the
throttle stepped 0.7 → 1 → 0.2 → 0.6 and the mixture 1 → 0.85 → cut off (the engine stops and windmills) → 1
(it starts again) over 5 s at cruise; flightsim's engines run on their own state from JSBSim's commands and
state, and every third frame their rpm, manifold pressure, power, thrust, induced velocity and the thrusters'
body force and moment must be JSBSim's to 1e-9 relative.  The constant-speed propellers (pa28, c182, B17's
geared ones, Boeing314's behind supercharged engines) are flown so too, their rpm command moving 0 → 1 → 0.6, and
their blade angle compared as well.  The steady state (for a trimmed start) must be the one JSBSim's
``FGPropulsion::GetSteadyState`` marches to, and stay put for a frame; where a governor holds the rpm between the
pitch limits that march (0.5 s steps) does not settle, and the steady state is checked to hold the rpm commanded.

Turboprops (FGTurboProp: DHC6, pc7, L410, pogo-jsbsim) and C130's turbines driving propellers are replayed so
too, the rpm command moving, a turboprop's IELU (torque limiter) and reverser acting; their steady state is
JSBSim's where its march settles (DHC6; pc7's, pogo's, L410's and C130's light propellers make the 0.5 s march
diverge to 0 rpm) and a fixed point of a frame everywhere.
"""

from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.math.kernels import borrowing_jit
from flightsim.physics.jsbsim.auxiliary import slots_of
from flightsim.physics.jsbsim.mass import MassBalance, Metrics
from flightsim.physics.jsbsim.program import Properties
from flightsim.physics.jsbsim.propulsion import ENGINE_FIELDS, S_N1, S_N2, Propulsion, engines_frame
from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path
from flightsim.verify.oracle import INERTIAL_RATES, PROPULSION_LOADS, engine_inputs_from, new_fdm, replay_propulsion

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
    assert r.egt_error <= 1e-12, r          # (the exhaust gas temperature, falling while the mixture is cut off)


#: What a Short S.23's own flight controls write for its engines (its blade angles, its boost control's mixtures,
#: its starters), copied from JSBSim's each frame as the throttle positions are.
S23_FROM_FCS = ("fcs/mixture-pos-norm[{k}]", "propulsion/engine[{k}]/blade-angle",
                "propulsion/engine[{k}]/starter-norm", "propulsion/engine[{k}]/starter-voltage-V")


def test_a_superchargers_drive_loss_and_an_engines_own_functions_are_jsbsims_frame_by_frame():
    """The Short S.23's Pegasus XC: its supercharger's drive loss (``boost-loss-factor`` 1.2, the last frame's air
    flow) and its engine file's starter functions (``propulsion/engine[#]/starter-…``, ``#`` each engine's number),
    frame by frame through the replay's throttle, mixture and rpm programme.  Its moments are compared less
    tightly: JSBSim's S.23 fuel system moves fuel between its tanks (their external flows: its CG moves 0.0012 in
    over the replay), flightsim's JSBSim aircraft keep the CG they load with."""
    from flightsim.physics.jsbsim.piston import PE_BOOST_LOSS

    engines = Propulsion(JSBSimFile(aircraft_path("Short_S23")))
    assert [kind for kind, _ in engines.kinds] == ["piston"] * 4 and np.all(engines.pistons[:, PE_BOOST_LOSS] == 1.2)
    names = engines.properties
    assert all(f"propulsion/engine[{k}]/starter-running-norm".replace("[0]", "") in names for k in range(4))
    r = replay_propulsion("Short_S23", frames=300, every=1, airspeed_kts=100.0, from_fcs=S23_FROM_FCS)
    assert r.frames == 300 and r.largest_thrust > 1000.0, r
    assert r.rpm_error <= 1e-8 and r.map_error <= 1e-8 and r.power_error <= 1e-8, r
    assert r.thrust_error <= 1e-8 and r.induced_error <= 1e-8 and r.force_error <= 1e-6, r
    assert r.moment_error <= 1e-4 and r.egt_error <= 1e-12, r       # (the exhaust gas temperature: FGPiston's doEGT)


def test_an_engines_own_functions_run_before_and_after_its_frame_with_its_number(tmp_path):
    """A piston's pre function (no type) reads the engine's last rpm before its frame, a post function its power
    after it; ``#`` is the engine's number in names and properties; a template function is refused."""
    pre = ('<function name="propulsion/engine[#]/seen-rpm"><product><p>propulsion/engine[#]/engine-rpm</p>'
           '<v>2</v></product></function>')
    post = ('<function name="propulsion/engine[#]/seen-hp" type="post"><p>propulsion/engine[#]/power-hp</p>'
            '</function>')
    engines = Propulsion(_plane(tmp_path, engine=pre + post))
    props = engines.properties.array(engines.defaults)
    names = engines.properties
    rpm, hp = names["propulsion/engine/engine-rpm"], names["propulsion/engine/power-hp"]
    props[names["atmosphere/P-psf"]], props[names["atmosphere/T-R"]] = 2116.22, 518.67
    props[names["fcs/throttle-pos-norm"]] = 0.8
    before = props[rpm]
    engines.run(props, 1.0 / 120.0, 1.0)
    assert props[names["propulsion/engine/seen-rpm"]] == 2.0 * before != 2.0 * props[rpm]
    assert props[names["propulsion/engine/seen-hp"]] == props[hp] != 0.0
    with pytest.raises(InputError, match=r"engine\[0\]/function\[0\] name='t': template functions are not "
                                         r"supported"):
        Propulsion(_plane(tmp_path, engine='<function name="t" type="template"><v>1</v></function>'))


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
    from flightsim.physics.jsbsim.piston import (
        PE_BOOST_MUL,
        PE_BOOST_SPEEDS,
        PE_HYSTERESIS,
        PE_RATED_MAP,
        PE_SWITCH_PRESSURE,
        PE_TAKEOFF_BOOST,
        PE_TAKEOFF_MAP,
        std_pressure_100k,
    )

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
    """JSBSim with ``name`` running at ``throttle`` (every engine's command) after ``run_ic``, and flightsim's
    engines and property array with JSBSim's engine inputs then."""
    source = JSBSimFile(aircraft_path(name))
    properties = Properties()
    engines = Propulsion(source, properties)
    sigma = properties.slot("atmosphere/sigma")
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    fdm = new_fdm(name)
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = ft, kts
    fdm["propulsion/fuel_freeze"] = 1
    fdm["propulsion/set-running"] = -1
    n = len(engines.kinds)
    for k in range(n):
        fdm[f"fcs/throttle-cmd-norm[{k}]"] = throttle
    fdm.run_ic()
    cg = mass.cg
    engines.locate(lambda r: mass.structural_to_body(r, cg))
    props = properties.array(engines.defaults)
    inertial = [(properties[n], n) for n in INERTIAL_RATES if n in properties]
    engine_inputs_from(fdm, props, slots_of(properties), inertial, metrics,
                       mass.structural_to_body(metrics.aero_rp, cg), tuple(fdm[f"accelerations/{c}dot-ft_sec2"]
                                                                           for c in "uvw"))
    for k in range(n):                          # (the aircraft's flight controls may scale the command)
        props[properties[f"fcs/throttle-pos-norm[{k}]"]] = fdm[f"fcs/throttle-pos-norm[{k}]"]
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
    from flightsim.verify.oracle import start_pistons

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


# ----------------------------------------------------------------------------- turbines' afterburners


def _f15_throttle(t):
    """f15's throttle commands (its positions: no flight controls of its own): 0.7, the afterburner's range half
    (1.5) at 1 s, beyond it (2.3: full) at 2 s, 0.2 at 2.5 s (out), 1.3 at 4 s (lit again)."""
    return 0.7 if t < 1.0 else 1.5 if t < 2.0 else 2.3 if t < 2.5 else 0.2 if t < 4.0 else 1.3


@pytest.mark.parametrize("name, throttle", [
    ("T38", None),             # augmethod 2, bleed 0.03; its flight controls double the command: lit from the start
    ("f15", _f15_throttle),    # augmethod 2, the positions the commands
    ("XB-70", None),           # augmethod 1 (throttle above 0.99 and N2 above 97 %), six engines
    ("B747", None),            # water-injected (not commanded), augmethod 1 without an afterburner
])
def test_an_afterburners_thrust_spools_and_loads_are_jsbsims_as_it_lights_and_goes_out(name, throttle):
    r = replay_propulsion(name, frames=600, every=6, **({} if throttle is None else {"throttle": throttle}))
    assert r.frames == 100 and 0 < r.augmented < r.frames, r          # lit and out, both compared
    assert r.thrust_error <= 1e-12 and r.spool_error <= 1e-10, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


def test_water_injection_is_jsbsims_as_it_runs_pauses_and_runs_out(tmp_path):
    """No package engine injects water with an Injection function, so: T38 in a root folder of its own whose J85
    injects for 1.5 s (N1 +2 %, N2 +3 %, thrust × 1.2 at Mach 0 to 1.1 at Mach 1); the injection commanded at
    0.5 s, off at 1 s, on again at 1.25 s (the timer runs on from where it stopped) until the water is gone."""
    import re
    import shutil

    import jsbsim

    package = Path(jsbsim.get_default_root_dir())
    folder = tmp_path / "aircraft" / "T38"
    (folder / "Engines").mkdir(parents=True)
    shutil.copy(package / "aircraft" / "T38" / "T38.xml", folder)
    shutil.copy(package / "engine" / "direct.xml", folder / "Engines")
    text = re.sub(r"<injected>\s*0\s*</injected>", "<injected>1</injected><injection-time>1.5</injection-time>"
                  "<injection-N1-inc>2</injection-N1-inc><injection-N2-inc>3</injection-N2-inc>",
                  (package / "engine" / "J85-GE-5.xml").read_text())
    text = text.replace("</turbine_engine>", '<function name="Injection"><table><independentVar>velocities/mach'
                        '</independentVar><tableData> 0 1.2\n 1 1.1</tableData></table></function></turbine_engine>')
    (folder / "Engines" / "J85-GE-5.xml").write_text(text)

    def injection(t):
        return {"propulsion/engine/injection_cmd": 1.0 if 0.5 <= t < 1.0 or t >= 1.25 else 0.0}

    r = replay_propulsion("T38", frames=360, every=2, root=tmp_path, extra=injection)
    assert r.frames == 180 and r.largest_thrust > 2600.0          # (dry, lit, the T38 gives 2366 lbf at most)
    assert r.injection_error == 0.0 and r.thrust_error <= 1e-12 and r.spool_error <= 1e-10, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


@pytest.mark.parametrize("name, throttle", [("T38", 0.8), ("T38", 0.4), ("f15", 1.5), ("XB-70", 1.0),
                                            ("XB-70", 0.98)])
def test_a_turbines_steady_state_with_its_afterburner_is_jsbsims(name, throttle):
    """T38 at 0.8 (position 1.6: the afterburner at 0.6, no bleed) and 0.4 (dry, bled); f15 at 1.5; XB-70 at 1
    (lit: N2 settles at 106 %) and 0.98 (not)."""
    from flightsim.physics.jsbsim.propulsion import S_AUGMENTATION, S_N2NORM, S_THRUST

    fdm, engines, properties, props, sigma = _at_jsbsims_state(name, 300.0, 10000.0, throttle)
    fdm.get_propulsion().get_steady_state()
    out = engines.steady(props, sigma)
    for k in range(len(engines.kinds)):
        e = f"propulsion/engine[{k}]"
        assert props[engines.slots[k, S_THRUST]] == pytest.approx(fdm[f"{e}/thrust-lbs"], rel=1e-12)
        assert props[engines.slots[k, [S_N1, S_N2]]] == pytest.approx([fdm[f"{e}/n1"], fdm[f"{e}/n2"]], rel=1e-12)
    assert props[engines.slots[0, S_AUGMENTATION]] == (throttle in (0.8, 1.5, 1.0))
    ref = np.array([fdm[k] for k in PROPULSION_LOADS])
    assert np.max(np.abs(out - ref)) <= 1e-9 * np.linalg.norm(ref[:3])
    before = props.copy()
    engines.run(props, 1.0 / 120.0, sigma)                  # and a frame leaves it there
    state = engines.slots[:, [S_N1, S_N2, S_N2NORM, S_THRUST, S_AUGMENTATION]]
    np.testing.assert_array_equal(props[state], before[state])


def test_an_engine_without_fuel_has_no_steady_state_and_says_so():
    _, engines, _, props, sigma = _at_jsbsims_state("c172p", 100.0, 4000.0, 0.6, mixture=0.0)
    with pytest.raises(RuntimeError, match=r"c172p.xml: 1 of its 1 piston engine\(s\) have no running steady state"):
        engines.steady(props, sigma)


# ----------------------------------------------------------------------------- rockets and electric engines


def test_a_liquid_rockets_thrust_flows_and_loads_are_jsbsims_frame_by_frame_burning():
    """x24b's XLR99 through its nozzle at 30 000 ft: throttle 0.7 → 1 → 0.2 (below its minimum 0.4: flame-out) →
    0.6; JSBSim burns (its thrust is the propellant burned: none with the fuel frozen), its tanks refilled each
    frame as flightsim's stay full."""
    r = replay_propulsion("x24b", frames=600, every=3, airspeed_kts=300.0, altitude_ft=30000.0)
    assert r.frames == 200 and r.largest_thrust > 45000.0
    assert r.thrust_error <= 1e-12 and r.power_error <= 1e-12, r        # thrust; flows and vacuum thrust
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


def test_a_solid_rockets_thrust_flow_and_post_function_are_jsbsims_frame_by_frame_to_its_burnout():
    """J246's left booster (``SRB.xml``: a thrust table of the propellant burnt, a 0.2 s build-up, a 2 % thrust
    variation, a post function of its thrust) on the pad (JSBSim's ``forces/hold-down``), lit at 0.5 s by its throttle
    at 1 and burning on to its burnout (its 1,114,092 lb gone at 118.7 s): the same numbers every frame, the same
    frame of burnout (JSBSim's tank drained, flightsim's propellant counted)."""
    dt = 1.0 / 120.0
    engines = Propulsion(JSBSimFile(aircraft_path("J246")))
    assert [kind for kind, _ in engines.kinds] == ["rocket"] * 12
    names = engines.properties
    props = names.array(engines.defaults)
    fdm = new_fdm("J246", dt)
    fdm["forces/hold-down"] = 1
    fdm.run_ic()
    compared = ("thrust-lbs", "vacuum-thrust_lbs", "fuel-flow-rate-pps", "chamber-pressure_psia")
    worst, largest, out, burnout = 0.0, 0.0, [None, None], np.zeros(6)
    for i in range(int(125.0 / dt)):
        fdm["fcs/throttle-cmd-norm[0]"] = 1.0 if i * dt >= 0.5 else 0.0
        fdm.run()
        props[names["fcs/throttle-pos-norm"]] = fdm["fcs/throttle-pos-norm[0]"]
        props[names["atmosphere/P-psf"]] = fdm["atmosphere/P-psf"]
        engines.run(props, dt, 1.0, burnout)
        for n in compared:
            ref = fdm[f"propulsion/engine[0]/{n}"]
            worst = max(worst, abs(props[names[f"propulsion/engine/{n}"]] - ref) / max(abs(ref), 1.0))
        largest = max(largest, fdm["propulsion/engine[0]/thrust-lbs"])
        for side, thrust in enumerate((fdm["propulsion/engine[0]/thrust-lbs"],
                                       props[names["propulsion/engine/thrust-lbs"]])):
            if out[side] is None and i * dt > 1.0 and thrust == 0.0:
                out[side] = i
    assert worst <= 1e-12 and largest > 3.0e6
    assert out[0] == out[1] and 118.0 < out[0] * dt < 119.0, out
    assert fdm["propulsion/tank[0]/contents-lbs"] < 1.0              # (JSBSim's booster burned out: its tank empty)


def test_a_launchers_boosters_core_engines_and_their_gimbals_are_jsbsims_frame_by_frame():
    """J246 through the replay's throttle programme (its boosters lit as their throttles reach 1 at 1 s, its core
    stage's liquid engines burning; no ``set-running``, which JSBSim's steady state would light the boosters
    with), its guidance's thrust vector control (``propulsion/engine[k]/pitch-angle-rad``, ``yaw-angle-rad``, which
    its flight controls write) copied from JSBSim: thrust, flows and the thrusters' loads are JSBSim's."""
    r = replay_propulsion("J246", frames=600, every=3)
    assert r.frames == 200 and r.largest_thrust > 3.0e6, r
    assert r.thrust_error <= 1e-12 and r.power_error <= 1e-12, r
    assert r.force_error <= 1e-12 and r.moment_error <= 1e-12, r


def test_a_rocket_gives_no_thrust_with_jsbsims_fuel_frozen_or_its_oxidizer_tank_empty():
    """The evidence for :mod:`flightsim.physics.jsbsim.rocket`'s burn: JSBSim's x24b, fuel frozen, gives 0 lbf at
    full throttle; X15's oxidizer tank is empty: starved, burning or not (flightsim's too)."""
    fdm = new_fdm("x24b")
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = 30000.0, 300.0
    fdm["propulsion/fuel_freeze"] = 1
    fdm["propulsion/set-running"] = -1
    fdm["fcs/throttle-cmd-norm"] = 1.0
    fdm.run_ic()
    for _ in range(5):
        fdm.run()
    assert fdm["fcs/throttle-pos-norm"] == 1.0 and fdm["propulsion/engine/thrust-lbs"] == 0.0
    r = replay_propulsion("X15", frames=60, every=3, airspeed_kts=300.0, altitude_ft=30000.0)
    assert r.largest_thrust == 0.0 and r.thrust_error == 0.0 and r.force_error == 0.0, r
    from flightsim.physics.jsbsim.rocket import R_STARVED
    assert Propulsion(JSBSimFile(aircraft_path("X15"))).engines[0, R_STARVED] == 1.0


def test_a_rockets_steady_state_is_the_thrust_jsbsim_settles_to_burning_and_a_frame_leaves_it_there():
    from flightsim.physics.jsbsim.propulsion import S_THRUST

    source = JSBSimFile(aircraft_path("x24b"))
    properties = Properties()
    engines = Propulsion(source, properties)
    metrics, mass = Metrics.read(source), MassBalance.read(source)
    fdm = new_fdm("x24b")
    fdm["ic/h-sl-ft"], fdm["ic/vc-kts"] = 30000.0, 300.0
    fdm["propulsion/set-running"] = -1
    fdm["fcs/throttle-cmd-norm"] = 0.8
    fdm.run_ic()
    for _ in range(3):                               # (burning: the thrust is the last frame's propellant)
        fdm["propulsion/tank/contents-lbs"], fdm["propulsion/tank[1]/contents-lbs"] = 2800.0, 2500.0
        fdm.run()
    cg = mass.cg
    engines.locate(lambda r: mass.structural_to_body(r, cg))
    props = properties.array(engines.defaults)
    engine_inputs_from(fdm, props, slots_of(properties), [], metrics, mass.structural_to_body(metrics.aero_rp, cg),
                       (0.0, 0.0, 0.0))
    props[properties["fcs/throttle-pos-norm"]] = fdm["fcs/throttle-pos-norm"]
    out = engines.steady(props, 1.0)
    assert props[engines.slots[0, S_THRUST]] == pytest.approx(fdm["propulsion/engine/thrust-lbs"], rel=1e-12)
    ref = np.array([fdm[k] for k in PROPULSION_LOADS])
    assert np.max(np.abs(out - ref)) <= 1e-12 * np.linalg.norm(ref[:3])
    before = props.copy()
    engines.run(props, 1.0 / 120.0, 1.0)
    assert props[engines.slots[0, S_THRUST]] == pytest.approx(before[engines.slots[0, S_THRUST]], rel=1e-15)


def _pterosaur(tmp_path, power):
    """Pterosaur in a root folder of its own: its electric engine given ``power`` (the package's has 0 W), its
    wing-fold switch reading a property of its own rather than FlightGear's (JSBSim alone stops at run_ic on it)."""
    import shutil

    import jsbsim

    package = Path(jsbsim.get_default_root_dir())
    folder = tmp_path / "aircraft" / "Pterosaur"
    shutil.copytree(package / "aircraft" / "Pterosaur", folder)
    wing = folder / "Systems" / "Wing Motion.xml"
    wing.write_text(wing.read_text().replace("/controls/flight/wing-fold", "fcs/wing-fold-request").replace(
        '<property value="0">fcs/wing-pos-linear</property>',
        '<property value="0">fcs/wing-pos-linear</property><property value="0">fcs/wing-fold-request</property>'))
    (folder / "Engines").mkdir()
    (folder / "Engines" / "dummy.xml").write_text(f'<electric_engine name="e">{power}</electric_engine>')
    shutil.copy(package / "engine" / "direct.xml", folder / "Engines")


def test_an_electric_engines_power_thrust_and_loads_are_jsbsims_frame_by_frame(tmp_path):
    """Pterosaur's electric engine and direct thruster (the thrust the power in ft·lbf/s, as JSBSim's
    ``FGElectric`` and ``FGThruster``), given 0.04 hp (the package's has 0 W: no thrust), the throttle moving."""
    _pterosaur(tmp_path, '<power unit="HP">0.04</power>')
    r = replay_propulsion("Pterosaur", frames=600, every=3, airspeed_kts=40.0, altitude_ft=2000.0, root=tmp_path)
    assert r.frames == 200 and r.largest_thrust == pytest.approx(0.04 / 0.001341022 / 745.7 * 550.0)
    assert r.thrust_error <= 1e-12 and r.power_error <= 1e-12, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r
    engines = Propulsion(JSBSimFile(aircraft_path("Pterosaur")))
    assert engines.kinds == [("electric", 0)] and engines.engines[0, 0] == 0.0         # the package's: 0 W
# ----------------------------------------------------------------------------- turboprops, turbines with propellers

#: Turboprops and turbines driving propellers, at a cruise of theirs (kts, ft).  pc7's IELU limits its torque
#: for half the replay; L410's 99 ft propeller (its file gives no unit) jumps between 0 and 750 rpm, an
#: unphysical but deterministic course; C130's turbines hand their thrust (lbf) to their propellers as power
#: (ft·lbf/s), as JSBSim 1.3.3 does: they windmill at ~20 lbf.
POWERED = {"DHC6": (150.0, 8000.0), "pc7": (200.0, 8000.0), "L410": (180.0, 8000.0), "pogo-jsbsim": (150.0, 5000.0),
           "C130": (250.0, 10000.0)}


@pytest.mark.parametrize("name", POWERED)
def test_a_turboprops_n1_power_rpm_pitch_thrust_and_loads_are_jsbsims_frame_by_frame(name):
    kts, ft = POWERED[name]
    r = replay_propulsion(name, frames=600, every=3, airspeed_kts=kts, altitude_ft=ft)
    assert r.frames == 200 and r.largest_thrust > 20.0, r
    assert r.rpm_error <= 1e-9 and r.power_error <= 1e-9 and r.spool_error <= 1e-9 and r.pitch_error <= 1e-9, r
    assert r.thrust_error <= 1e-9 and r.induced_error <= 1e-9, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r
    assert (r.ielu > 50) == (name in ("pc7", "L410")), r


def test_a_turboprops_reverser_is_jsbsims():
    """DHC6's reversers on from 2 s to 4.5 s: the throttle's beta range idles the engines, the blades follow the
    lever toward the reverse pitch (0 °: the file gives none), then come back to the governor."""
    from flightsim.verify import oracle

    pitches = []
    compare = oracle._compare_engines

    def spy(fdm, engines, props, worst):
        pitches.append(fdm["propulsion/engine/blade-angle"])
        return compare(fdm, engines, props, worst)

    def reversed_(t):
        on = 1.0 if 2.0 <= t < 4.5 else 0.0
        return {"propulsion/engine[0]/reverser": on, "propulsion/engine[1]/reverser": on}

    oracle._compare_engines = spy
    try:
        r = replay_propulsion("DHC6", frames=600, every=3, airspeed_kts=150.0, altitude_ft=6000.0, extra=reversed_)
    finally:
        oracle._compare_engines = compare
    assert min(pitches) < 9.0 and pitches[-1] == 12.0         # (minpitch 12°)
    assert r.rpm_error <= 1e-9 and r.power_error <= 1e-9 and r.pitch_error <= 1e-9, r
    assert r.force_error <= 1e-9 and r.moment_error <= 1e-9, r


@pytest.mark.parametrize("kts, ft, throttle, advance", [(150.0, 8000.0, 0.5, 0.0), (150.0, 8000.0, 0.3, 1.0),
                                                        (120.0, 4000.0, 0.8, 0.5)])
def test_a_turboprops_steady_state_is_jsbsims(kts, ft, throttle, advance):
    """DHC6's heavy propellers (Ixx 25 slug·ft²) let JSBSim's march settle: blades at their finest, N1 at its
    target, the rpm where the power balances."""
    fdm, engines, properties, props, sigma = _governed_state("DHC6", kts, ft, throttle, advance)
    fdm.get_propulsion().get_steady_state()
    out = engines.steady(props, sigma)
    for k in range(2):
        for key in ("propeller-rpm", "blade-angle", "n1", "thrust-lbs", "power-hp", "ielu_intervent"):
            name = f"propulsion/engine[{k}]/{key}"
            assert props[properties[name]] == pytest.approx(fdm[name], rel=1e-12), name
    ref = np.array([fdm[k] for k in PROPULSION_LOADS])
    assert np.max(np.abs(out - ref)) <= 1e-12 * np.linalg.norm(ref[:3])


@pytest.mark.parametrize("name, kts, ft, throttle, advance", [("pc7", 200.0, 8000.0, 0.5, 0.0),
                                                              ("pogo-jsbsim", 150.0, 5000.0, 0.6, 0.0),
                                                              ("C130", 250.0, 10000.0, 0.7, 0.0),
                                                              ("DHC6", 150.0, 2000.0, 1.0, 1.0)])
def test_a_turboprops_steady_state_is_a_fixed_point_of_a_frame(name, kts, ft, throttle, advance):
    """Where JSBSim's march (0.5 s steps) diverges (light propellers) or hovers (DHC6 at full power: the IELU
    holds the torque at its limit), a frame leaves flightsim's steady state where it is."""
    _, engines, properties, props, sigma = _governed_state(name, kts, ft, throttle, advance)
    engines.steady(props, sigma)
    keys = [properties[f"propulsion/engine/{key}"] for key in ("propeller-rpm", "blade-angle", "thrust-lbs")]
    before = props[keys].copy()
    assert before[0] > 300.0
    if name == "DHC6":
        torque = props[properties["propulsion/engine/propeller-torque-ftlb"]]
        assert props[properties["propulsion/engine/ielu_intervent"]] == 1.0 and abs(torque) == pytest.approx(1629.3)
    engines.run(props, 1.0 / 120.0, sigma)
    np.testing.assert_allclose(props[keys], before, rtol=1e-3 if name == "DHC6" else 1e-9)


_TURBOPROP = """<turboprop_engine name="t"><maxpower>500</maxpower>{extra}
  <function name="EnginePowerVC"><v>1</v></function>
  <table name="EnginePowerRPM_N1" type="internal"><tableData> 0 100
   0 0 10
   2000 0 500</tableData></table>
  <table name="ITT_N1" type="internal"><tableData> 0 1
   0 0 0
   100 400 900</tableData></table></turboprop_engine>"""


@pytest.mark.parametrize("extra, thruster, message", [
    ("<afterburner>1</afterburner>", "prop", r"propulsion/engine\[0\]/afterburner: not read by JSBSim's FGTurboProp"),
    ('<function name="Torque"><v>1</v></function>', "prop", r"engine\[0\]/function name='Torque': not supported in a "
                                                            r"turboprop"),
    ('<table name="Fuel"><tableData>0 1</tableData></table>', "prop", r"table name='Fuel': unknown turboprop table"),
    ("", "nozzle", r"propulsion/engine\[0\]/thruster: a turboprop drives a <propeller>, not a <direct>"),
])
def test_what_a_turboprop_file_has_that_is_not_modelled_is_refused(tmp_path, extra, thruster, message):
    _plane(tmp_path)
    (tmp_path / "engine" / "eng.xml").write_text(_TURBOPROP.format(extra=extra))
    (tmp_path / "engine" / "nozzle.xml").write_text('<direct name="n"/>')
    text = (tmp_path / "plane.xml").read_text().replace('thruster file="prop"', f'thruster file="{thruster}"')
    (tmp_path / "plane.xml").write_text(text)
    with pytest.raises(InputError, match=message):
        Propulsion(JSBSimFile(tmp_path / "plane.xml"))


def test_a_hand_built_turboprop_reads_its_tables_and_jsbsims_defaults(tmp_path):
    from flightsim.physics.jsbsim.piston import PE_KIND
    from flightsim.physics.jsbsim.turboprop import TP_BETA_END, TP_IDLE_N1, TP_IELU_TORQUE, TURBOPROP

    _plane(tmp_path)
    (tmp_path / "engine" / "eng.xml").write_text(_TURBOPROP.format(extra="<betarangeend>120</betarangeend>"))
    engines = Propulsion(JSBSimFile(tmp_path / "plane.xml"))
    assert engines.kinds == [("turboprop", 0)] and engines.pistons[0, PE_KIND] == TURBOPROP
    row = engines.pistons[0]
    assert row[TP_IDLE_N1] == 30.0 and row[TP_BETA_END] == 0.99999 and row[TP_IELU_TORQUE] == -1.0
    assert "propulsion/engine/EnginePowerVC" in engines.properties


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


def test_engines_and_propellers_not_modelled_are_refused_by_name(tmp_path):
    """An electric engine driving a rocket's nozzle (every electric engine of the package drives a direct thruster,
    a propeller or a rotor): the file, the engine's thruster and why."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "motor.xml").write_text('<electric_engine name="m"><power unit="WATTS"> 1000 </power>'
                                                   '</electric_engine>')
    (tmp_path / "engine" / "bell.xml").write_text('<nozzle name="n"><area unit="FT2"> 1 </area></nozzle>')
    path = tmp_path / "plane.xml"
    path.write_text('<fdm_config name="plane"><propulsion><engine file="motor"><thruster file="bell"><location '
                    'unit="IN"><x>0</x><y>0</y><z>0</z></location></thruster></engine></propulsion></fdm_config>')
    with pytest.raises(InputError, match=r"plane.xml: propulsion/engine\[0\]/thruster: an electric engine driving "
                                         r"a <nozzle> is not supported yet \(a direct thruster, a propeller or a "
                                         r"rotor only\)"):
        Propulsion(JSBSimFile(path))


def _jet(tmp_path, engine):
    """A one-turbine airplane whose engine file has the IdleThrust and MilThrust functions and ``engine``."""
    (tmp_path / "engine").mkdir(exist_ok=True)
    (tmp_path / "engine" / "jet.xml").write_text(
        '<turbine_engine name="j"><milthrust>1000</milthrust><function name="IdleThrust"><v>0.05</v></function>'
        f'<function name="MilThrust"><v>0.9</v></function>{engine}</turbine_engine>')
    (tmp_path / "engine" / "nozzle.xml").write_text('<direct name="n"/>')
    path = tmp_path / "jet.xml"
    path.write_text('<fdm_config name="jet"><propulsion><engine file="jet"><thruster file="nozzle"><location '
                    'unit="IN"><x>0</x><y>0</y><z>0</z></location></thruster></engine></propulsion></fdm_config>')
    return JSBSimFile(path)


@pytest.mark.parametrize("engine, message", [
    ("<augmented>1</augmented>", r"jet.xml: propulsion/engine\[0\]: an augmented engine \(or <augmethod> 2\) needs "
                                 r"its AugThrust function"),
    ("<augmethod>2</augmethod>", r"jet.xml: propulsion/engine\[0\]: an augmented engine"),
    ("<augmethod>3</augmethod>", r"jet.xml: propulsion/engine\[0\]/augmethod: must be 0, 1 or 2, not 3"),
    ("<injected>1</injected><injection-time>20</injection-time>",
     r"jet.xml: propulsion/engine\[0\]: a water-injected engine with an <injection-time> needs its Injection"),
    ('<function name="EPR"><v>1</v></function>', r"jet.xml: propulsion/engine\[0\]/function name='EPR': not "
                                                 r"supported in a turbine"),
])
def test_what_a_turbines_augmentation_or_injection_lacks_is_refused(tmp_path, engine, message):
    with pytest.raises(InputError, match=message):
        Propulsion(_jet(tmp_path, engine))


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
    (dict(engine='<numboostspeeds>1</numboostspeeds><ratedboost1 unit="PA">1</ratedboost1>'),
     r"propulsion/engine\[0\]/ratedboost1: unit 'PA' cannot be converted to PSI"),
    (dict(propeller="<maxrpm>2700</maxrpm>", pitch=(15, 25)),
     r"thruster/propeller/table name='C_THRUST'/tableData: a 2-D table needs 3 numbers a line here: '2.0 -0.05'"),
])
def test_what_a_piston_or_propeller_file_has_that_is_not_modelled_is_refused(tmp_path, parts, message):
    with pytest.raises(InputError, match=message):
        Propulsion(_plane(tmp_path, **parts))


def _rocket(tmp_path, engine, nozzle='<nozzle name="n"><area>2</area></nozzle>', tanks=""):
    """A one-rocket airplane: ``engine`` inside its ``<rocket_engine>``, ``nozzle`` its thruster's file."""
    (tmp_path / "engine").mkdir(exist_ok=True)
    (tmp_path / "engine" / "rk.xml").write_text(f'<rocket_engine name="r">{engine}</rocket_engine>')
    (tmp_path / "engine" / "nz.xml").write_text(nozzle)
    path = tmp_path / "rk.xml"
    path.write_text('<fdm_config name="rk"><propulsion><engine file="rk"><feed>0</feed><thruster file="nz"><location '
                    f'unit="IN"><x>0</x><y>0</y><z>0</z></location></thruster></engine>{tanks}</propulsion>'
                    '</fdm_config>')
    return JSBSimFile(path)


@pytest.mark.parametrize("parts, message", [
    (dict(engine="<minthrottle>0.4</minthrottle>"), r"rk.xml: propulsion/engine\[0\]/isp: required element is "
                                                    r"missing \(a rocket's specific impulse\)"),
    (dict(engine="<isp><function><v>300</v></function></isp>"), r"engine\[0\]/isp/function: an Isp function is not "
                                                               r"supported"),
    (dict(engine='<isp>300</isp><slfuelflowmax unit="KG/MIN">1</slfuelflowmax>'),
     r"engine\[0\]/slfuelflowmax: unit 'KG/MIN' cannot be converted to LBS/SEC"),
    (dict(engine="<isp>300</isp><chamber>1</chamber>"), r"engine\[0\]/chamber: not supported in a rocket engine"),
    (dict(engine="<isp>300</isp>", nozzle='<nozzle name="n"><pe>10</pe></nozzle>'),
     r"engine\[0\]/thruster/area: required element is missing \(the nozzle's exit area\)"),
    (dict(engine="<isp>300</isp>", nozzle='<propeller name="p"/>'),
     r"engine\[0\]/thruster: a rocket engine drives a <nozzle> or a <direct> thruster, not a <propeller>"),
    (dict(engine="<isp>300</isp>"), r"engine\[0\]/feed: no tank 0 \(the file has 0\)"),
])
def test_what_a_rocket_has_that_is_not_modelled_is_refused(tmp_path, parts, message):
    with pytest.raises(InputError, match=message):
        Propulsion(_rocket(tmp_path, **parts))


@pytest.mark.parametrize("tanks, starved", [
    ('<tank type="FUEL"><contents>10</contents><capacity>20</capacity></tank>', False),
    ('<tank type="FUEL"><contents>0</contents><capacity>20</capacity></tank>', True),
    ('<tank type="FUEL"><contents>10</contents><capacity>20</capacity><priority>0</priority></tank>', True),
    ('<tank type="OXIDIZER"><contents>10</contents><capacity>20</capacity></tank>', True),
])
def test_a_rocket_is_starved_as_jsbsims_consume_fuel_finds_its_tanks(tmp_path, tanks, starved):
    from flightsim.physics.jsbsim.rocket import R_STARVED

    engines = Propulsion(_rocket(tmp_path, "<isp>300</isp><propflowmax>10</propflowmax>", tanks=tanks))
    assert engines.kinds == [("rocket", 0)] and engines.engines[0, R_STARVED] == float(starved)


def test_a_hand_built_piston_is_one_row_of_each_array(tmp_path):
    engines = Propulsion(_plane(tmp_path))
    assert engines.kinds == [("piston", 0)] and engines.engines.shape == (0, ENGINE_FIELDS)
    assert engines.pistons.shape[0] == engines.propellers.shape[0] == engines.tables.shape[0] == 1
    assert [a is b for a, b in zip(engines.arrays, (engines.engines, engines.slots, engines.pistons,
                                                     engines.piston_slots, engines.propellers,
                                                     engines.propeller_slots, engines.tables,
                                                     engines.table_data), strict=True)] == [True] * 8


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


def test_each_propeller_driving_engine_kind_has_its_own_number():
    # the kinds share the piston array's PE_KIND column and the frames dispatch on it: two kinds on one number
    # would fly one engine with the other's frame
    from flightsim.physics.jsbsim import brushless, rotor, turboprop
    kinds = (0.0, turboprop.TURBOPROP, turboprop.TURBINE_PROPELLER, rotor.ROTOR, turboprop.ELECTRIC_PROPELLER,
             brushless.BRUSHLESS)
    assert len(set(kinds)) == len(kinds)

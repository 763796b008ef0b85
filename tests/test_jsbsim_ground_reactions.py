"""JSBSim's ground reactions (FGLGear's struts, the brakes, the steering, FGAccelerations' friction solve) for a
JSBSim aircraft, against JSBSim itself by property replay: JSBSim rolls the aircraft on its flat planet
(``flightsim.verify.flight_oracle.flat_fdm``) braking and steering; after each frame its state, commands and
other loads are fed to flightsim's compiled :func:`~flightsim.physics.jsbsim.ground_reactions.ground_reactions`
(warm-started from its own last frame, as JSBSim's multipliers are), whose gear force and moment are compared
with JSBSim's ``forces/fb[xyz]-gear-lbs`` and ``moments/[lmn]-gear-lbsft``.

JSBSim's flat planet is a sphere a thousand times the Earth's, so a point's height there is the difference of two
~2e10 ft radii and carries a few 1e-6 ft of rounding (flightsim's compressions from the state are JSBSim's to
7.8e-6 ft); times a strut's 5400 lbf/ft that is a few hundredths of a pound in ~2000 lbf.  So the replay gives
the kernel JSBSim's own heights (from its compressions): then the loads agree to ~1e-8.

The aircraft roll: a wheel at rest has a slip angle ``atan2(v_side, |v_roll|)`` of two velocities that are
rounding (JSBSim keeps the last angle only below 1e-3 ft/s), so at a standstill the side force's bound is chaotic
in JSBSim itself, and a replay there differs by ~1e-3.
"""

import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.math import quat
from flightsim.physics.aero import pack
from flightsim.physics.jsbsim import ground_reactions as G
from flightsim.physics.jsbsim import loads as L
from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
from flightsim.verify.flight_oracle import flat_fdm

D = np.diag([1.0, -1.0, -1.0])
BRAKES = ("fcs/left-brake-cmd-norm", "fcs/right-brake-cmd-norm", "fcs/center-brake-cmd-norm")


def _state(fdm):
    """flightsim's state (earth x North, y West, z up) from JSBSim's on its flat planet."""
    phi, th, psi = (fdm[f"attitude/{a}-rad"] for a in ("phi", "theta", "psi"))
    cf, sf, ct, st, cp, sp = math.cos(phi), math.sin(phi), math.cos(th), math.sin(th), math.cos(psi), math.sin(psi)
    tl2b = np.array([[ct * cp, ct * sp, -st], [sf * st * cp - cf * sp, sf * st * sp + cf * cp, sf * ct],
                     [cf * st * cp + sf * sp, cf * st * sp - sf * cp, cf * ct]])
    y = np.zeros(13)
    y[2] = fdm["position/h-agl-ft"]
    y[3:6] = fdm["velocities/v-north-fps"], -fdm["velocities/v-east-fps"], -fdm["velocities/v-down-fps"]
    y[6:10] = quat.from_matrix(D @ tl2b.T @ D)
    y[10:13] = fdm["velocities/p-rad_sec"], -fdm["velocities/q-rad_sec"], -fdm["velocities/r-rad_sec"]
    return y


def _other(fdm):
    """JSBSim's loads other than the gear's (aerodynamics and engines; JSBSim's body frame)."""
    return np.array([fdm[f"forces/fb{c}-aero-lbs"] + fdm[f"forces/fb{c}-prop-lbs"] for c in "xyz"]
                    + [fdm[f"moments/{c}-aero-lbsft"] + fdm[f"moments/{c}-prop-lbsft"] for c in "lmn"])


def _gear(fdm):
    return np.array([fdm[f"forces/fb{c}-gear-lbs"] for c in "xyz"] + [fdm[f"moments/{c}-gear-lbsft"] for c in "lmn"])


def _heights(fdm, rows):
    """Each contact's height above JSBSim's ground (ft, negative below it) from its compression (a BOGEY's along
    its strut: over the strut's projection on the ground's normal, ``cos φ cos θ`` on level ground) or its
    ``AGL-ft`` off the ground."""
    out = np.zeros(rows.shape[0])
    for k in range(rows.shape[0]):
        bogey = rows[k, G.C_KIND] == G.BOGEY
        base = f"{'gear' if bogey else 'contact'}/unit[{k}]"
        if fdm[f"{base}/WOW"]:
            projection = math.cos(fdm["attitude/phi-rad"]) * math.cos(fdm["attitude/theta-rad"]) if bogey else 1.0
            out[k] = -fdm[f"{base}/compression-ft"] * projection
        else:
            out[k] = fdm[f"{base}/AGL-ft"]
    return out


def replay(name, frames, speed, brake, steer, given=True):
    """Roll ``name`` from ``speed`` (ft/s) for ``frames`` frames, ``brake(t)`` on both brakes and ``steer(t)`` on
    the steering; returns the largest force difference (relative to JSBSim's force), moment difference
    (relative to JSBSim's moment plus its force at 1 ft: a moment near zero is the difference of the wheels'
    large ones), compression difference (ft) over the frames the gear carries over 1000 lbf,
    and JSBSim's gear loads per frame.  ``given``: the contacts' heights JSBSim's (:func:`_heights`), else
    flightsim's flat ones from the state."""
    aircraft = load_jsbsim_aircraft(f"jsbsim:{name}")
    props_of = aircraft.jsbsim.properties
    fdm = flat_fdm(name)
    dt = fdm.get_delta_t()
    fdm["ic/h-agl-ft"] = aircraft.contact_height + 0.3
    fdm["ic/u-fps"] = speed
    fdm["ic/psi-true-deg"] = 30.0
    fdm.run_ic()
    # JSBSim's gravity, and its inertia (flightsim's has the tanks' own since, FGTank::CalculateInertias: c172x's
    # Ixx 2095.73 slug·ft² as JSBSim's; taken from JSBSim still, as the gravity)
    j = np.array([[fdm[f"inertia/i{a}{b}-slugs_ft2" if a <= b else f"inertia/i{b}{a}-slugs_ft2"] for b in "xyz"]
                  for a in "xyz"])
    scalars = aircraft.jsbsim.scalars.copy()
    scalars[L.J_INERTIA:L.J_INERTIA + 9] = j.ravel()
    scalars[L.J_INERTIA + 9:L.J_INERTIA + 18] = np.linalg.inv(j).ravel()
    params = pack(aircraft)._replace(gravity=fdm["accelerations/gravity-ft_sec2"], jsb_scalars=scalars)
    assert params.mass == fdm["inertia/mass-slugs"]
    props, out = params.jsb_props, np.zeros(6)
    contacts = params.jsb_contacts.shape[0]
    assert np.all(params.jsb_contacts[:, G.C_T:G.C_T + 9] == np.eye(3).ravel())     # (_heights: no orientation)

    def heights():
        return _heights(fdm, params.jsb_contacts) if given else None

    def inputs():
        for n in (*BRAKES, "fcs/steer-cmd-norm"):
            props[props_of[n]] = fdm[n]
        G.contacts_frame(props, params, dt, False, L.LAST_FIELDS, props[props_of["fcs/steer-cmd-norm"]], -1)

    inputs()
    for _ in range(2):              # (run_ic: JSBSim's models run twice with no time step)
        G.ground_reactions_at(_state(fdm), params, _other(fdm), out, L.LAST_FIELDS, dt, True, 1.0, heights())
    force = moment = compression = 0.0
    loads = []
    for f in range(frames):
        t = f * dt
        fdm["fcs/left-brake-cmd-norm"] = fdm["fcs/right-brake-cmd-norm"] = brake(t)
        fdm["fcs/steer-cmd-norm"] = steer(t)
        fdm.run()
        inputs()
        G.ground_reactions_at(_state(fdm), params, _other(fdm), out, L.LAST_FIELDS, dt, False, 1.0, heights())
        ref = _gear(fdm)
        loads.append(ref)
        if np.linalg.norm(ref[:3]) < 1000.0:     # (touching down: a compression of a few 1e-3 ft, rounding's)
            continue
        force = max(force, np.max(np.abs(out[:3] - ref[:3])) / np.linalg.norm(ref[:3]))
        moment = max(moment, np.max(np.abs(out[3:] - ref[3:])) / (np.linalg.norm(ref[3:])
                                                                   + np.linalg.norm(ref[:3]) * 1.0))
        for k in range(contacts):
            if fdm[f"{'gear' if params.jsb_contacts[k, G.C_KIND] == G.BOGEY else 'contact'}/unit[{k}]/WOW"]:
                mine = params.jsb_last[L.LAST_FIELDS + k * G.CONTACT_FIELDS + G.S_COMPRESS]
                unit = "gear" if params.jsb_contacts[k, G.C_KIND] == G.BOGEY else "contact"
                compression = max(compression, abs(mine - fdm[f"{unit}/unit[{k}]/compression-ft"]))
    return force, moment, compression, np.array(loads)


def _braking_and_steering(t):
    return 0.6 if 2.0 < t < 4.0 else 0.0


def _steering(t):
    return 0.8 * math.sin(t) if t > 1.0 else 0.0


def test_a_c172p_rolling_braking_and_steering_has_jsbsims_gear_loads_frame_by_frame():
    force, moment, _, loads = replay("c172p", 600, 40.0, _braking_and_steering, _steering)
    assert force <= 1e-8, force                      # measured 4.3e-9
    assert moment <= 5e-8, moment                    # measured 1.7e-8
    # real loads were compared: the weight on the wheels, the brakes' drag, the steering's side force
    assert np.min(loads[:, 2]) < -1500.0
    assert np.min(loads[240:480, 0]) < -400.0        # braking (2 s to 4 s)
    assert np.max(np.abs(loads[:, 1])) > 300.0       # steering


def test_a_c172xs_strut_force_function_is_jsbsims():
    """c172x's right main gear gives its strut force as a ``<strut_force><function>`` of its compression and its
    speed (the aerodynamics' program computes it between the two halves of the ground reactions)."""
    force, moment, _, loads = replay("c172x", 480, 30.0, _braking_and_steering, _steering)
    assert force <= 1e-8 and moment <= 5e-8, (force, moment)
    assert np.min(loads[:, 2]) < -1500.0


def test_the_heights_from_the_state_are_jsbsims_to_its_planets_rounding():
    """From the state alone (flightsim's flat ground) the compressions are JSBSim's to a few 1e-6 ft: the
    rounding of heights on JSBSim's 1000×-Earth sphere (radii of ~2e10 ft); the loads follow to ~1e-4."""
    force, moment, compression, _ = replay("c172p", 600, 40.0, _braking_and_steering, _steering, given=False)
    assert compression <= 2e-5, compression          # measured 7.8e-6 ft
    assert force <= 5e-4 and moment <= 2e-3, (force, moment)


def test_the_x15s_square_law_damper_is_jsbsims():
    """The X-15's nose wheel damps with the speed squared (``type="SQUARE"``, lbf·s²/ft²), rebounding linearly;
    its skids slide at their rolling friction (44,000 lbf on the ground: the solve's 1e-5 tolerance shows)."""
    rows = load_jsbsim_aircraft("jsbsim:X15").jsbsim.contacts
    assert rows[0, G.C_DAMPING_SQUARE] == 1.0 and rows[0, G.C_DAMPING] == 40.0 and rows[0, G.C_REBOUND] == 3000.0
    force, moment, _, loads = replay("X15", 480, 60.0, _braking_and_steering, _steering)
    assert force <= 5e-7 and moment <= 5e-6, (force, moment)        # measured 1.3e-7, 1.0e-6
    assert np.min(loads[:, 2]) < -40000.0 and np.max(np.abs(loads[:, 0])) > 9000.0


def _aircraft_with(tmp_path, contact):
    """c172p's file with its first contact's ``<brake_group>`` line replaced (a bad input)."""
    from flightsim.physics.jsbsim.xmlfile import aircraft_path

    text = aircraft_path("jsbsim:c172p").read_text()
    path = tmp_path / "c172p.xml"
    path.write_text(text.replace("<brake_group> NONE </brake_group>", contact, 1))
    for other in aircraft_path("jsbsim:c172p").parent.iterdir():
        if other.name != "c172p.xml" and other.is_file():
            (tmp_path / other.name).write_bytes(other.read_bytes())
    return path


@pytest.mark.parametrize(("contact", "reason"), [
    ("<brake_group>MIDDLE</brake_group>", "'MIDDLE' is not a brake group"),
    (textwrap.dedent("""<brake_group>NONE</brake_group>
        <table name="CORNERING_COEFF"><independentVar>x</independentVar>
        <tableData> 0 0 </tableData></table>"""), "table is not supported"),
])
def test_a_contact_jsbsim_does_not_know_is_refused_in_one_line(tmp_path, contact, reason):
    path = _aircraft_with(tmp_path, contact)
    with pytest.raises(InputError) as e:
        load_jsbsim_aircraft(path)
    message = str(e.value)
    assert "\n" not in message and str(path) in message and "ground_reactions/contact[" in message
    assert reason in message


BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "jsbsim_scripts.py"


def test_c3101s_take_off_roll_fires_its_climb_in_jsbsims_frame(tmp_path):
    """``flightsim script`` runs JSBSim's c3101 (the c310's engines started on the runway, full throttle, the
    Climb event at q̄ ≥ 17 psf) as JSBSim runs it, through ``benchmarks/jsbsim_scripts.py`` (its own run of each,
    frame by frame): with JSBSim's gear the take-off roll fires Climb in JSBSim's frame (±1; on flightsim's own
    gear it fired 6 frames early), and after 40 s the aircraft is within a few feet and 1 ft/s of JSBSim's."""
    js = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(BENCH), "--only", "c3101", "--cap", "40", "--json", str(js)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(js.read_text())["rows"]
    assert row["flightsim"] == "end" and row["jsbsim"] == "end"
    assert row["events"] == [3, 3] and row["events_ok"] is True     # (Adjust altitude,) Start engine, Climb
    assert row["pos"] < 10.0 and row["vt"] < 1.5 and row["att"] < 0.5, row


def test_each_contacts_weight_on_wheels_is_a_scripts_property():
    """FGLGear binds ``gear/unit[k]/WOW`` (a BOGEY) and ``contact/unit[k]/WOW`` (a STRUCTURE) for every contact: a
    script's condition reads them (``contact/unit/WOW`` is ``contact/unit[0]/WOW``)."""
    from flightsim.simulation.flight import Simulation, resolve_aircraft
    from flightsim.simulation.script_writes import CONTACT_WOW
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft("jsbsim:c172p")
    sim = Simulation(aircraft, "rk4", 1.0 / 120.0, start=make_start(aircraft, "runway", planet="flat"), planet="flat")
    sim.step()
    wow = dict(sim.contact_wow())
    assert [wow[f"gear/unit[{k}]"] for k in range(3)] == [True, True, True]
    assert not any(on for prefix, on in wow.items() if prefix.startswith("contact/"))
    assert CONTACT_WOW.match("contact/unit/WOW").groups() == ("contact", None)

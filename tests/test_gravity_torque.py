"""The gravity-gradient torque (JSBSim's ``simulation/gravitational-torque``) on the round planet.

JSBSim adds ``(3 |g| / r) R̂ × (J R̂)`` to the body moments when the setting is on
(``FGAccelerations::CalculatePQRdot``; Harris and Lyle, NASA SP-8024).  Its effect on the X-15 at 40,000 ft is
some 1e-8 rad/s², so it is checked where it is computed: flightsim's torque, through the inertia, against the
difference JSBSim's angular accelerations show between the setting on and off at the same initial condition.
"""

import math

import jsbsim
import numpy as np
import pytest

from flightsim.physics import planet as planets
from flightsim.physics.jsbsim.initial import load_initial_condition
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import Simulation, resolve_aircraft
from flightsim.simulation.starts import Start
from tests.test_script import cli

ROOT = jsbsim.get_default_root_dir()


def jsbsim_pqr_dot(name, reset, torque):
    """JSBSim's body angular accelerations (rad/s², its axes) at the reset file's initial condition."""
    fdm = jsbsim.FGFDMExec(ROOT)
    fdm.set_debug_level(0)
    fdm.load_model(name)
    fdm.load_ic(reset, True)
    fdm["simulation/gravitational-torque"] = torque
    fdm.run_ic()
    return np.array([fdm[f"accelerations/{k}dot-rad_sec2"] for k in "pqr"])


@pytest.mark.parametrize("name, reset", [("X15", "reset01"), ("ball", "reset00_v2")])
def test_the_torque_turns_the_body_as_jsbsims(name, reset):
    aircraft = resolve_aircraft(f"jsbsim:{name}")
    ic = load_initial_condition(f"{ROOT}/aircraft/{name}/{reset}.xml", planets.WGS84)
    sim = Simulation(aircraft, "rk4", 1 / 120, atmosphere="isa", start=Start("file", ic.view_state(), Controls()),
                     planet=planets.WGS84, lat=ic.lat_deg, lon=ic.lon_deg)
    packed = planets.pack(planets.WGS84, math.radians(ic.lat_deg), math.radians(ic.lon_deg),
                          inertia=aircraft.inertia)
    assert planets.gravity_torque(sim.inertial, packed) == (0.0, 0.0, 0.0)        # off by default
    planets.set_gravity_torque(packed, True)
    turned = aircraft.inertia_inv @ np.array(planets.gravity_torque(sim.inertial, packed))
    turned *= np.array([1.0, -1.0, -1.0])                  # flightsim's body axes → JSBSim's (y right, z down)
    expected = jsbsim_pqr_dot(name, reset, 1) - jsbsim_pqr_dot(name, reset, 0)
    scale = np.max(np.abs(expected))
    if name == "ball":                 # a sphere's inertia: no torque, in both
        assert scale < 1e-15 and np.max(np.abs(turned)) < 1e-15
    else:
        assert 1e-9 < scale < 1e-6
        np.testing.assert_allclose(turned, expected, rtol=0, atol=1e-7 * scale)


def test_a_simulation_turns_it_on_only_on_the_round_planet():
    sim = Simulation(resolve_aircraft("jsbsim:X15"), "rk4", 1 / 120, planet="round")
    assert not sim.gravity_torque
    sim.gravity_torque = True
    assert sim.gravity_torque
    flat = Simulation(None, "rk4", 1 / 120)
    with pytest.raises(ValueError, match="needs the round planet"):
        flat.gravity_torque = True


def test_x153_runs_with_the_torque_on(tmp_path):
    """The shipped x153 script (the X-15 with the torque on from its start) runs, where it was refused."""
    script = tmp_path / "x153.xml"
    text = open(f"{ROOT}/scripts/x153.xml").read().replace('end="300.0"', 'end="1.0"')
    script.write_text(text)
    (tmp_path / "aircraft").symlink_to(ROOT + "/aircraft")
    done = cli("script", str(script), "--root", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr

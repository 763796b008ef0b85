"""The Cessna 172R (configs/c172.toml) against its handbook, its propeller, and aircraft by name.

Handbook figures (Cessna 172R POH, 2450 lb, ISA sea level): stall 51 KCAS flaps up and 47 KCAS
flaps 30 (power off), maximum level speed 123 kt at full throttle, take-off ground roll 945 ft
(flaps 10), landing ground roll 550 ft.  Published inertias (Roskam; JSBSim's c172p): Ixx 948,
Iyy 1346, Izz 1967 slug·ft².
"""

import importlib.util
import subprocess
import tomllib

import numpy as np
import pytest

from flightsim.errors import InputError
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import AirplaneModel, flight_state, trimmable_speeds
from flightsim.resources import shipped_aircraft
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start

KT = 1.68781          # ft/s per knot
from conftest import FLIGHTSIM  # found (or the session stopped) at session start
REPO_DOCS = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def c172():
    return load_aircraft("c172")


@pytest.fixture(scope="module")
def model(c172):
    return AirplaneModel(c172)


def run(*args):
    return subprocess.run([FLIGHTSIM, *args], capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------------------
# The file: mass, balance, inertia
# ---------------------------------------------------------------------------

def test_loader_accepts_the_172_with_a_loaded_172s_mass_balance_and_inertia(c172):
    assert c172.name == "Cessna 172R Skyhawk"
    assert c172.mass * c172.gravity == pytest.approx(2450.0, abs=1.0)            # maximum take-off weight, lbf
    station = -12.0 * c172.cg[0]                                                 # inches aft of the firewall
    assert 41.0 <= station <= 47.3                                               # the POH's CG limits at 2450 lb
    assert c172.cg[1] == 0.0                                                     # symmetric loading
    published = {0: 948.0, 1: 1346.0, 2: 1967.0}
    for axis, value in published.items():
        assert c172.inertia[axis, axis] == pytest.approx(value, rel=0.05), axis
    assert sum(e.area for e in c172.elements if e.part == "wing") == pytest.approx(174.0)
    assert c172.propeller is not None and c172.airspeed_unit == "kt"
    assert c172.model is not None and c172.model.name == "c172_airplane.toml"
    assert {m.name for m in c172.masses} >= {"pilot", "front passenger", "left fuel tank", "right fuel tank"}


def test_a_propeller_file_with_a_bad_table_is_one_line_naming_the_field(tmp_path):
    text = (shipped_aircraft()["c172"]).read_text()
    data = tomllib.loads(text)
    bad = text.replace("power_coefficient  = [0.079, 0.079", "power_coefficient  = [0.079, 0.09")
    assert bad != text
    path = tmp_path / "rising.toml"
    path.write_text(bad.replace('model = "c172_airplane.toml"', ""))
    with pytest.raises(InputError) as exc:
        load_aircraft(path)
    assert "propulsion.power_coefficient" in str(exc.value) and "\n" not in str(exc.value)
    assert data["propulsion"]["kind"] == "propeller"
    path.write_text(text.replace("max_power = 160.0", "max_powr = 160.0").replace('model = "c172_airplane.toml"', ""))
    with pytest.raises(InputError, match=r"propulsion\.max_powr: unknown key; did you mean 'max_power'"):
        load_aircraft(path)


# ---------------------------------------------------------------------------
# The propeller
# ---------------------------------------------------------------------------

def test_thrust_falls_with_airspeed_and_altitude_and_the_engine_turns_as_the_172s(c172):
    p = aero.pack(c172, "isa")
    engine, table = p.engine, p.prop_table
    sea = aero.isa_density(aero.RHO_SL, 0.0)
    static, static_rpm = aero.propeller(1.0, 0.0, sea, engine, table)
    assert static == pytest.approx(c172.max_thrust, rel=1e-9)
    assert 2065.0 <= static_rpm <= 2165.0                  # the 172R's published static rpm range
    assert 400.0 < static < 700.0
    speeds = [0.0, 50.0, 100.0, 150.0, 200.0]
    thrusts = [aero.propeller(1.0, v, sea, engine, table)[0] for v in speeds]
    assert all(b < a for a, b in zip(thrusts, thrusts[1:])), thrusts
    for v in (0.0, 120.0):
        by_height = [aero.propeller(1.0, v, aero.isa_density(aero.RHO_SL, h), engine, table)[0]
                     for h in (0.0, 4000.0, 8000.0, 12000.0)]
        assert all(b < a for a, b in zip(by_height, by_height[1:])), by_height
    # power lapse (Gagg-Ferrar): at 8000 ft, sigma 0.786, full power is 75 % of sea level's
    rho8 = aero.isa_density(aero.RHO_SL, 8000.0)
    assert (1.132 * rho8 / aero.RHO_SL - 0.132) == pytest.approx(0.758, abs=0.01)
    # less throttle, less thrust and rpm; idle still turns the engine over
    idle, idle_rpm = aero.propeller(0.0, 0.0, sea, engine, table)
    assert 0.0 < idle < 0.2 * static and 500.0 < idle_rpm < 900.0
    # the simulation's loads use it: thrust and rpm in the diagnostics, higher up less thrust
    model = AirplaneModel(c172, "isa")
    low = model.derivative(flight_state(150.0, 1000.0, 0, 0, 0, 2.0, 0), [1.0, 0, 0, 0, 0])
    t_low = model.params.diag[aero.D_THRUST]
    assert model.params.diag[aero.D_RPM] > 2300.0
    model.derivative(flight_state(150.0, 9000.0, 0, 0, 0, 2.0, 0), [1.0, 0, 0, 0, 0])
    assert model.params.diag[aero.D_THRUST] < 0.85 * t_low
    assert np.all(np.isfinite(low))


def test_the_books_airplane_keeps_its_constant_thrust(model):
    bourg = load_aircraft("bourg")
    p = aero.pack(bourg)
    assert not p.propeller and bourg.propeller is None
    p.controls[:] = 0.0
    p.controls[aero.C_THROTTLE] = 0.3
    y = flight_state(160.0, 2000.0, 0, 0, 0, 1.0, 0)
    aero.airplane_loads(0.0, y, p)
    assert p.diag[aero.D_THRUST] == 0.3 * 3000.0 and p.diag[aero.D_RPM] == 0.0


# ---------------------------------------------------------------------------
# The handbook's headline figures, from trim
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("flaps, stall_kcas", [(0.0, 51.0), (1.0, 47.0)])
def test_trims_slowest_speed_is_the_handbooks_stall_speed_and_fastest_its_maximum(c172, model, flaps, stall_kcas):
    slowest, fastest = trimmable_speeds(c172, 1000.0, 0.0, flaps, model=model, resolution=0.5)
    assert slowest / KT == pytest.approx(stall_kcas, rel=0.05)
    if flaps == 0.0:
        assert fastest / KT == pytest.approx(123.0, rel=0.05)


# ---------------------------------------------------------------------------
# Take-off and landing, flown by the circuit script's pilot
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def circuit():
    spec = importlib.util.spec_from_file_location("fly_circuit", REPO_DOCS / "fly_circuit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_field_take_off_from_the_runway_start(c172, circuit):
    sim = Simulation(c172, start=make_start(c172, "runway"))
    pilot = circuit.Pilot(sim, circuit.PROFILES["c172"])
    while pilot.leg == "takeoff" and sim.t < 40.0:
        pilot.fly()
        assert sim.step(), sim.status
    assert pilot.leg == "climb", "not airborne in 40 s"
    t0, x0 = pilot.released
    t1, x1, v1 = pilot.liftoff
    assert (x1 - x0) == pytest.approx(945.0, rel=0.25)       # POH ground roll, flaps 10, SL 15 °C
    assert 50.0 < v1 / KT < 62.0
    assert sim.telemetry().rpm > 2100.0                        # full power, the engine speeding up


def test_a_landing_from_the_approach_start_stops_within_the_handbooks_roll(c172, circuit):
    sim = Simulation(c172, start=make_start(c172, "approach"))
    assert sim.controls.flaps == 1.0
    pilot = circuit.Pilot(sim, circuit.PROFILES["c172"])
    pilot.leg = "final"
    pilot.e_int = sim.controls.elevator_trim
    pilot.t_int = sim.controls.throttle
    while pilot.leg != "stopped" and sim.t < 120.0:
        pilot.fly()
        assert sim.step(), sim.status
    assert pilot.leg == "stopped"
    _, x_down, _, sink = pilot.touchdown
    assert -sink < c172.crash_sink_rate
    roll = sim.vector[0] - x_down
    assert roll == pytest.approx(550.0, rel=0.25)             # POH ground roll, flaps 30, maximum braking


# ---------------------------------------------------------------------------
# Aircraft by name
# ---------------------------------------------------------------------------

def test_aircraft_by_name_in_the_commands_and_a_bad_name_lists_the_shipped_ones(tmp_path):
    r = run("aircraft")
    assert r.returncode == 0, r.stderr
    shipped = r.stdout[:r.stdout.index("--aircraft jsbsim:NAME")]         # (the jsbsim package's follow)
    names = [line.split()[0] for line in shipped.splitlines() if line.startswith("  ")]
    assert names == ["bourg", "c172"], r.stdout
    r = run("trim", "--aircraft", "c172", "--airspeed", "180", "--altitude", "1000", "--json")
    assert r.returncode == 0, r.stderr
    assert '"rpm"' in r.stdout
    by_path = run("trim", "--aircraft", str(shipped_aircraft()["c172"]), "--airspeed", "180", "--altitude", "1000",
                  "--json")
    assert by_path.stdout == r.stdout
    r = run("simulate", "--aircraft", "bourg", "--steps", "5")
    assert r.returncode == 0, r.stderr
    for command in (["trim", "--airspeed", "100"], ["simulate", "--steps", "5"], ["fly", "--headless"],
                    ["replay", str(tmp_path / "x.csv")], ["modes", "--airspeed", "100"]):
        r = run(*command, "--aircraft", "c17")
        assert r.returncode == 2
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, r.stderr
        assert "--aircraft" in lines[0] and "bourg, c172" in lines[0] and "did you mean 'c172'" in lines[0]

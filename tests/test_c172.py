"""The Cessna 172R (configs/c172.toml) against its handbook, its propeller, and aircraft by name.

Handbook figures (Cessna 172R POH, 2450 lb, ISA sea level): stall 51 KCAS flaps up and 47 KCAS
flaps 30 (power off), maximum level speed 123 kt at full throttle, take-off ground roll 945 ft
(flaps 10), landing ground roll 550 ft, the best glide about 9:1 at 65 KIAS (power off, the
propeller windmilling).  Published inertias (Roskam; JSBSim's c172p): Ixx 948, Iyy 1346, Izz 1967
slug·ft².
"""

import importlib.util
import subprocess
import tomllib

import numpy as np
import pytest
from conftest import FLIGHTSIM  # found (or the session stopped) at session start

from flightsim.errors import InputError
from flightsim.physics import aero
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import AirplaneModel, flight_state, trimmable_speeds
from flightsim.resources import shipped_aircraft
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start

KT = 1.68781          # ft/s per knot

REPO_DOCS = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def c172():
    return load_aircraft("c172")


@pytest.fixture(scope="module")
def model(c172):
    return AirplaneModel(c172, "constant")      # sea level's density at 1000 ft: the gear clear of the ground


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
    static, static_rpm = aero.propeller(1.0, True, 0.0, sea, engine, table)
    assert static == pytest.approx(c172.max_thrust, rel=1e-9)
    assert 2065.0 <= static_rpm <= 2165.0                  # the 172R's published static rpm range
    assert 400.0 < static < 700.0
    speeds = [0.0, 50.0, 100.0, 150.0, 200.0]
    thrusts = [aero.propeller(1.0, True, v, sea, engine, table)[0] for v in speeds]
    assert all(b < a for a, b in zip(thrusts, thrusts[1:], strict=False)), thrusts
    for v in (0.0, 120.0):
        by_height = [aero.propeller(1.0, True, v, aero.isa_density(aero.RHO_SL, h), engine, table)[0]
                     for h in (0.0, 4000.0, 8000.0, 12000.0)]
        assert all(b < a for a, b in zip(by_height, by_height[1:], strict=False)), by_height
    # power lapse: the indicated power follows the density, the friction and the pumping do not; the brake
    # power at full throttle then lapses as Gagg and Ferrar's 1.132 sigma - 0.132 (NACA TN 504), at any speed
    xs, cps, k = table[aero.PT_J], table[aero.PT_CP], table.shape[1]
    opening = engine[aero.P_IDLE] + (aero.THROTTLE_OPEN - engine[aero.P_IDLE])

    def brake_power(rpm, sigma):              # the engine's alone: no air, no propeller (ft·lbf/s)
        n = rpm / 60.0
        return n * aero._surplus(n, opening, sigma, sigma, 0.0, 0.0, engine[aero.P_DIAMETER], engine, xs, cps, k)

    assert brake_power(2400.0, 1.0) == pytest.approx(160.0 * 550.0, rel=1e-9)     # the file's 160 hp, rated
    for height in (5800.0, 8000.0, 12000.0):
        sigma = aero.isa_density(1.0, height)
        for rpm in (2100.0, 2400.0):
            lapse = brake_power(rpm, sigma) / brake_power(rpm, 1.0)
            assert lapse == pytest.approx(1.132 * sigma - 0.132, abs=0.01), (height, rpm, lapse)
    # less throttle, less thrust and rpm; idle still turns the engine over
    idle, idle_rpm = aero.propeller(0.0, True, 0.0, sea, engine, table)
    assert 0.0 < idle < 0.2 * static and 570.0 < idle_rpm < 650.0       # the file's idle: about 600 rpm at rest
    # the simulation's loads use it: thrust and rpm in the diagnostics, higher up less thrust
    model = AirplaneModel(c172, "isa")
    low = model.derivative(flight_state(150.0, 1000.0, 0, 0, 0, 2.0, 0), [1.0, 0, 0, 0, 0])
    t_low = model.params.diag[aero.D_THRUST]
    assert model.params.diag[aero.D_RPM] > 2300.0
    model.derivative(flight_state(150.0, 9000.0, 0, 0, 0, 2.0, 0), [1.0, 0, 0, 0, 0])
    assert model.params.diag[aero.D_THRUST] < 0.85 * t_low
    assert np.all(np.isfinite(low))


def test_idle_and_engine_off_the_air_drives_the_propeller_and_it_drags(c172):
    p = aero.pack(c172)
    engine, table = p.engine, p.prop_table
    sea = aero.RHO_SL
    assert aero.propeller(0.0, False, 0.0, sea, engine, table) == (0.0, 0.0)      # off, at rest: nothing turns
    for knots in (65.0, 80.0, 100.0):
        v = knots * KT
        idle, idle_rpm = aero.propeller(0.0, True, v, sea, engine, table)
        off, off_rpm = aero.propeller(0.0, False, v, sea, engine, table)
        assert idle < 0.0 and off < idle                  # windmilling drags, more with the engine's friction to turn
        assert 0.0 < off_rpm < idle_rpm < 1500.0
        # the air drives it: beyond the zero-power advance ratio
        assert v / (off_rpm / 60.0 * c172.propeller.diameter) > 1.15
    # slower, the air's torque on the propeller cannot beat the engine's friction at rest: it stops, and drags
    stopped, rpm = aero.propeller(0.0, False, 30.0 * KT, sea, engine, table)
    j_last = c172.propeller.advance_ratio[-1]
    assert rpm == 0.0
    assert stopped == pytest.approx(c172.propeller.thrust_coefficient[-1] / j_last ** 2 * sea * (30.0 * KT) ** 2
                                    * c172.propeller.diameter ** 2)
    # faster, it turns faster and drags more, with no jump from the stop on
    thrust, rpms = np.array([aero.propeller(0.0, False, knots * KT, sea, engine, table)
                             for knots in np.arange(30.0, 120.0, 0.5)]).T
    assert rpms[0] == 0.0 and rpms[-1] > 1000.0 and np.all(np.diff(rpms) >= 0.0)
    assert np.all(np.diff(thrust) < 0.0) and np.max(np.abs(np.diff(thrust))) < 1.0


def test_the_engine_control_runs_and_stops_the_engine_in_the_simulation(c172):
    sim = Simulation(c172, start=make_start(c172, "air"))
    for _ in range(120):
        sim.step()
    running = sim.telemetry()
    sim.controls.engine = 0.0
    for _ in range(120):
        sim.step()
    off = sim.telemetry()
    assert sim.flown_controls[aero.C_ENGINE] == 0.0
    assert running.thrust > 100.0 and off.thrust < 0.0 and 500.0 < off.rpm < 0.7 * running.rpm   # windmilling


def test_the_glide_at_idle_and_engine_off_against_the_handbooks_nine_to_one(c172, model):
    from flightsim.physics.trim import trim

    ratios = {}
    for engine in ("idle", "off"):
        point = trim(c172, 65.0 * KT, 1000.0, model=model, engine=engine)
        assert point.throttle == 0.0 and point.engine == (0.0 if engine == "off" else 1.0)
        ratios[engine] = -1.0 / np.tan(np.radians(point.climb_angle))
    assert ratios["off"] == pytest.approx(9.0, rel=0.10)         # the handbook's: power off, propeller windmilling
    assert ratios["off"] < ratios["idle"] < 11.0                 # idling, the propeller drags less (README)


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
    assert (x1 - x0) == pytest.approx(945.0, rel=0.10)       # POH ground roll, flaps 10, SL 15 °C
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
    assert roll == pytest.approx(550.0, rel=0.10)             # POH ground roll, flaps 30, maximum braking


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


# ---------------------------------------------------------------------------
# Ground effect
# ---------------------------------------------------------------------------

def test_ground_effect_raises_the_wings_lift_and_lowers_its_induced_drag_near_the_ground(c172):
    ge = aero.pack_ground_effect(c172.ground_effect)
    k, c = ge[aero.GE_INDUCED], ge[aero.GE_COUPLING]
    assert k == pytest.approx(1.0 / (np.pi * 0.8 * 7.48))
    assert c == pytest.approx(np.degrees(0.105) * 1.1 / (np.pi * 7.48))
    far = aero.in_ground_effect(1.0, 0.08, 1e6, ge)
    assert far == pytest.approx((1.0, 0.08), rel=1e-9)
    cl, cd = aero.in_ground_effect(1.0, 0.08, 0.0, ge)                 # on the ground: no induced drag at all
    assert cl == pytest.approx(1.0 + c) and cd == pytest.approx(0.08 - k)
    # McCormick's factor at the 172's wing, 7.28 ft up: lift +2 %, induced drag -9 %
    cl, cd = aero.in_ground_effect(1.0, 0.08, 7.28, ge)
    x = 16.0 * 7.28 / 36.08
    phi = x * x / (1 + x * x)
    assert cl == pytest.approx((1 + c) / (1 + phi * c)) and 1.015 < cl < 1.025
    assert cd == pytest.approx(0.08 - k + phi * k * cl * cl)
    # the loads: the same airplane and flight, lower, more lift (the wing's elements only), less drag
    p = aero.pack(c172)
    lift, drag = [], []
    for height in (60.0, c172.contact_height + 1.0):                     # the wheels a foot clear of the runway
        y = flight_state(100.0, height, 0.0, 0.0, 0.0, 6.0, 0.0)
        a = aero.airplane_loads(0.0, y, p)
        lift.append(a[2])
        drag.append(a[0])
    assert lift[1] > lift[0] + 0.05 and drag[1] > drag[0]       # up more, and less deceleration
    # the book's airplane has no [ground_effect]: its elements never feel it
    bourg = aero.pack(load_aircraft("bourg"))
    assert not np.any(bourg.ground_effect) and not np.any(bourg.element_refs[:, aero.I_GROUND_EFFECT])


@pytest.mark.parametrize("old, new, message", [
    ('"left outboard wing", "left inboard', '"left wing", "left inboard',
     "ground_effect.elements[0]: unknown element 'left wing'"),
    ("span = 36.08", "span = -3.0", "ground_effect.span: must be > 0"),
    ("tau = 0.1 ", "tu = 0.1 ", "ground_effect.tu: unknown key; did you mean 'tau'"),
    ("displacement = 361.0", "displacement = 0.0", "propulsion.displacement: must be > 0"),
    ('atmosphere = "isa"', 'atmosphere = "standard"', "atmosphere: unknown value 'standard' (valid: constant, isa)"),
    ('atmosphere = "isa"', "atmosphere = 1", "atmosphere: must be a string"),
])
def test_a_bad_ground_effect_or_engine_entry_is_one_line_naming_the_field(tmp_path, old, new, message):
    text = shipped_aircraft()["c172"].read_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new).replace('model = "c172_airplane.toml"', ""))
    with pytest.raises(InputError) as exc:
        load_aircraft(path)
    assert message in str(exc.value) and "\n" not in str(exc.value)


# ---------------------------------------------------------------------------
# The engine on the command line
# ---------------------------------------------------------------------------

def test_trim_glides_with_the_engine_idle_or_off_and_simulate_flies_the_engine_column(tmp_path):
    done = run("trim", "--aircraft", "c172", "--altitude", "1000", "--airspeed", "109.7", "--engine", "off")
    assert done.returncode == 0, done.stderr
    assert "engine off" in done.stdout.splitlines()[0]
    ratio = float(next(line for line in done.stdout.splitlines() if "glide ratio" in line).split()[2])
    assert ratio == pytest.approx(9.0, rel=0.1)
    bad = run("trim", "--aircraft", "c172", "--airspeed", "109.7", "--engine", "stopped")
    assert bad.returncode == 2 and "--engine: invalid choice: 'stopped'" in bad.stderr
    schedule = tmp_path / "engine.csv"
    schedule.write_text("t,throttle,engine\n0,0.7,1\n2,0,0\n")
    out = tmp_path / "trace.csv"
    done = run("simulate", "--aircraft", "c172", "--start", "air", "--duration", "6", "--controls", str(schedule),
               "--out", str(out))
    assert done.returncode == 0, done.stderr
    from flightsim.simulation import trace

    table = trace.read_csv(out)
    col = {n: table[:, i] for i, n in enumerate(trace.COLUMNS)}
    assert trace.COLUMNS[-12] == "engine"
    assert np.all(col["engine"][col["t"] < 1.99] == 1.0) and np.all(col["engine"][col["t"] > 2.01] == 0.0)
    assert col["rpm"][-1] < 0.7 * col["rpm"][0]                      # windmilling
    bad = tmp_path / "bad.csv"
    bad.write_text("t,engine\n0,0.5\n")
    done = run("simulate", "--aircraft", "c172", "--controls", str(bad))
    assert done.returncode == 2 and "line 2, column engine: must be 0 (off) or 1 (running), got 0.5" in done.stderr


# ---------------------------------------------------------------------------
# The air it flies in: its own (the standard atmosphere), unless told
# ---------------------------------------------------------------------------

def test_the_172_flies_in_the_standard_atmosphere_and_the_books_airplane_in_its_constant_air(c172, tmp_path):
    assert c172.atmosphere == "isa" and load_aircraft("bourg").atmosphere == "constant"
    assert Simulation(c172).atmosphere == "isa" and Simulation().atmosphere == "constant"
    assert Simulation(c172, atmosphere="constant").atmosphere == "constant"          # an explicit choice wins
    assert AirplaneModel(c172).atmosphere == "isa" and aero.pack(c172).isa and not aero.pack(c172, "constant").isa
    # a file without the key: the constant density
    path = tmp_path / "plain.toml"
    path.write_text(shipped_aircraft()["c172"].read_text().replace('atmosphere = "isa"', "")
                    .replace('model = "c172_airplane.toml"', ""))
    assert load_aircraft(path).atmosphere == "constant"
    # the commands: the default is the aircraft's own, the same as asking for it, and thinner than the constant
    base = ["trim", "--aircraft", "c172", "--altitude", "5800", "--airspeed", "150", "--json"]
    own, isa, constant = (run(*base, *extra) for extra in ((), ("--atmosphere", "isa"),
                                                           ("--atmosphere", "constant")))
    assert own.returncode == isa.returncode == constant.returncode == 0, own.stderr + constant.stderr
    assert own.stdout == isa.stdout and own.stdout != constant.stdout
    for command in ("fly", "simulate", "trim", "modes"):
        assert "(default: the aircraft's own" in " ".join(run(command, "--help").stdout.split()), command

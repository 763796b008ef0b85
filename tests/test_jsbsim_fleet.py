"""The rest of JSBSim's fleet: the fly-by-wire F-16, autopilot systems, and the fleet's count.

The F-16 is the integrators' proving ground: its fly-by-wire loop (PIDs, switches on the pilot's g) must
trim and fly as JSBSim's does, and roll at JSBSim's rate; the roll study (``flightsim bench --manoeuvre roll``)
must show what it claims.  The dynamic flight controls' state (integrals, filters) lives in the property
array, so a reset, the batch and a repeat flight reproduce a flight bit for bit.
"""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from flightsim.math import quat
from flightsim.physics import trim as trim_module
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.fuel import FUEL_FREEZE
from flightsim.simulation.batch import BatchSimulation
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start
from flightsim.verify import flight_oracle
from flightsim.verify.flight_check import compare_flight, flightsim_doublet

#: 400 kt true, ft/s.
KT400 = 400.0 * 1852.0 / (3600.0 * 0.3048)
#: Aircraft of this issue flown against JSBSim: (name, true airspeed ft/s, altitude ft) where JSBSim trims them (the
#: rest of the fleet: ``benchmarks/jsbsim_flight.py``, README's table).
FLOWN = [("f16", KT400, 15000.0), ("pa28", 185.0, 4000.0), ("c310", 200.0, 5000.0)]
README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture(scope="module")
def f16():
    return load_aircraft("jsbsim:f16")


@pytest.mark.parametrize("name, airspeed, altitude", FLOWN)
def test_trim_and_doublet_against_jsbsim(name, airspeed, altitude):
    """Trim α within 0.1° and throttle within 0.01 of JSBSim's; the 30 s doublet within the tolerances (the F-16
    through its fly-by-wire loop, the governed propellers of the PA-28 and the 310 with its autopilot systems —
    JSBSim trimmed with its governors held, see ``flight_oracle.jsbsim_trim``)."""
    c = compare_flight(f"jsbsim:{name}", airspeed, altitude)
    assert c.trim_ok, (c.alpha, c.throttle)
    assert c.trajectory_ok, (c.trajectory, c.tolerance)
    assert c.trajectory.roll > 1e-4


def _full_aileron(t, trim, elevator, aileron):
    t = t + 1e-9
    return (trim.throttle, trim.elevator, 1.0 if 0.25 <= t < 2.25 else trim.aileron, trim.rudder, trim.flaps)


def test_the_f16_rolls_at_jsbsims_rate_at_full_aileron(f16):
    """From level flight at 400 kt, 15,000 ft, full right aileron for 2 s: the roll rate flightsim's F-16
    reaches is JSBSim's within 5 % (the issue's target), and so is the roll angle turned through."""
    theirs = flight_oracle.jsbsim_trim("f16", KT400, 15000.0)
    reference = flight_oracle.jsbsim_doublet("f16", theirs, duration=2.25, schedule=_full_aileron)
    point = trim_module.trim(f16, KT400, 15000.0, heading=0.0, atmosphere="isa")
    ours = flightsim_doublet(f16, point, duration=2.25, schedule=_full_aileron)
    peak_theirs, peak_ours = np.degrees(np.max(reference.p)), np.degrees(np.max(ours.p))
    assert peak_theirs > 100.0                                  # it rolled hard (not a still comparison)
    assert abs(peak_ours / peak_theirs - 1.0) < 0.05, (peak_ours, peak_theirs)
    turned = [np.degrees(np.unwrap(np.radians(x.roll)))[-1] for x in (reference, ours)]
    assert abs(turned[1] - turned[0]) < 0.05 * turned[0], turned


def test_the_roll_study_ranks_the_integrators_and_writes_its_report(tmp_path):
    """``flightsim bench --manoeuvre roll`` run as a user runs it: RK4 keeps the roll within a quarter degree
    at 60 Hz while Euler is off by more than a degree, every error halves or better from 60 to 120 Hz, and the
    table and the plot are written."""
    out = tmp_path / "roll"
    run = subprocess.run([sys.executable, "-m", "flightsim", "bench", "--aircraft", "jsbsim:f16", "--manoeuvre",
                          "roll", "--integrators", "rk4,euler", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = {}
    for line in (out / "roll.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("rk4", "euler"):
            rows[cells[0]] = (float(cells[1]), float(cells[4]))
    assert set(rows) == {"rk4", "euler"}
    assert rows["rk4"][0] < 0.25 < 1.0 < rows["euler"][0], rows
    assert all(at120 < 0.6 * at60 for at60, at120 in rows.values()), rows
    assert (out / "roll_attitude_error.png").stat().st_size > 10_000
    assert "peak roll rate" in run.stdout


def test_bench_refuses_an_aircraft_without_a_manoeuvre():
    run = subprocess.run([sys.executable, "-m", "flightsim", "bench", "--aircraft", "jsbsim:f16"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1].startswith("flightsim: error: --aircraft: only with --manoeuvre")


def test_the_flight_controls_state_is_reset_batched_and_reproduced(f16):
    """The F-16's PIDs integrate in the property array: flying a stick programme, resetting and flying it again
    gives the same bits; a batch airplane flies it as the single simulation does (on the flat planet, the
    batch's)."""
    start = make_start(f16, "air", planet="flat")

    def fly(sim):
        out = []
        for i in range(240):
            sim.controls.aileron = 0.5 * math.sin(i / 30.0)
            sim.step()
            out.append(sim.vector.copy())
        return np.array(out)

    sim = Simulation(f16, "rk4", start=start, planet="flat")
    sim.set_jsbsim_property(FUEL_FREEZE, 1.0)   # (the batch keeps a JSBSim aircraft's mass as loaded: no burn)
    first = fly(sim)
    sim.reset()
    np.testing.assert_array_equal(fly(sim), first)
    assert abs(quat.aviation_angles(first[-1, 6:10])[0]) > 1.0       # the stick moved it
    batch = BatchSimulation(2, f16, "rk4", start=start, planet="flat")
    for i in range(240):
        batch.controls[0, 2] = 0.5 * math.sin(i / 30.0)
        batch.step()
    np.testing.assert_allclose(batch.states[0], first[-1], rtol=1e-9, atol=1e-9)


def test_the_readme_counts_the_fleet_as_flightsim_aircraft_does():
    run = subprocess.run([sys.executable, "-m", "flightsim", "aircraft"], capture_output=True, text=True,
                         timeout=300)
    loaded, shipped = map(int, re.search(r"(\d+) of (\d+) in the jsbsim package load", run.stdout).groups())
    assert loaded >= 34
    assert f"{loaded} of the {shipped} aircraft" in README.read_text()


@pytest.mark.parametrize("name, kts, ft", [("Concorde", 400.0, 30000.0), ("L410", 150.0, 5000.0)])
def test_a_moving_reference_point_and_the_wings_angle_of_attack_are_jsbsims(name, kts, ft):
    """The Concorde's aerodynamic reference point moves with Mach (``aero_ref_pt_shift_x``: its moments taken about
    the shifted point), the L410's aerodynamics read the wing's angle of attack (α + incidence): the loads replayed
    from JSBSim's flight are its own."""
    from flightsim.physics.jsbsim.aero import Aerodynamics
    from flightsim.physics.jsbsim.xmlfile import JSBSimFile, aircraft_path
    from flightsim.verify.oracle import replay_aero

    r = replay_aero(name, frames=240, every=6, airspeed_kts=kts, altitude_ft=ft)
    assert r.largest_force > 1000.0 and r.force_error <= 1e-12 and r.moment_error <= 1e-12, r
    if name == "Concorde":
        assert Aerodynamics(JSBSimFile(aircraft_path(name))).rp_shift_slot >= 0


def test_a_flying_boat_and_a_launcher_load_with_their_engines_functions_and_boosters():
    """Short S.23 (its engine file's own starter functions, its supercharger's drive loss, its hydrodynamics'
    external forces and moments, the Euler rates and CG its autopilot reads) and J246 (its solid boosters, its
    guidance's orbital values): loaded as Aircraft, each engine of its kind; the hydrodynamic moments are moments
    of the aircraft's own (JSBSim's ``magnitude-lbsft``, which the hydrodynamics system writes)."""
    s23, j246 = load_aircraft("jsbsim:Short_S23"), load_aircraft("jsbsim:J246")
    assert [kind for kind, _ in s23.jsbsim.propulsion.kinds] == ["piston"] * 4
    assert [kind for kind, _ in j246.jsbsim.propulsion.kinds] == ["rocket"] * 12
    moments = {name for name in s23.jsbsim.external.magnitudes if name.endswith("magnitude-lbsft")}
    assert moments == {f"external_reactions/hydro-{axis}/magnitude-lbsft" for axis in ("pitch", "roll", "yaw")}
    assert moments <= set(s23.jsbsim.fcs.outputs)
    assert j246.mass * 32.174049 == pytest.approx(4861783.0)

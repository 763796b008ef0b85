"""A crosswind landing from the approach start, flown by a closed-loop pilot with rudder and aileron.

The pilot is docs/fly_crosswind.py's (crab on final, de-crab into a wing-low sideslip in the
flare); these flights are deterministic (seeded turbulence), so each is a regression check of the
wind, the loads in the air mass, the gear's side forces and the starts trimmed in the air.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from flightsim.physics.wind import KNOT, WindSpec
from flightsim.simulation.airfield import RUNWAY

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="module")
def crosswind():
    sys.path.insert(0, str(DOCS))
    try:
        spec = importlib.util.spec_from_file_location("fly_crosswind", DOCS / "fly_crosswind.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(DOCS))
    return module


def check_landing(sim, pilot, max_offset):
    assert sim.status is None, sim.status
    assert pilot.leg == "stopped", pilot.leg
    td = pilot.touchdown
    distance, offset = RUNWAY.local(td["x"], td["off"] + pilot.centre_y)
    assert 0.0 < distance < RUNWAY.length, f"touched down {distance:.0f} ft past the threshold"
    assert abs(offset) < max_offset, f"touched down {offset:+.1f} ft off the centre line"
    assert td["sink"] < sim.aircraft.crash_sink_rate
    x, y = sim.vector[:2]
    assert RUNWAY.contains(x, y), f"stopped off the runway at ({x:.0f}, {y:.0f})"
    return td


def test_a_15_kt_direct_crosswind_landing_is_flown_crabbed_then_decrabbed(crosswind):
    sim, pilot, rows = crosswind.fly(WindSpec(from_deg=90.0, speed=15.0 * KNOT))
    td = check_landing(sim, pilot, max_offset=15.0)
    # On final the nose pointed into the wind (crab ~13°: asin(25.3/111)); at touchdown it had been
    # swung towards the runway's heading with rudder, the upwind (right) wing low.
    assert abs(td["heading"]) < 10.0
    controls = np.array([r[1:] for r in rows])
    t = np.array([r[0] for r in rows])
    flare = t >= t[-1] - (sim.t - td["t"]) - 3.0
    assert controls[flare, 3].min() < -0.2, "no left rudder to de-crab"       # rudder + is nose right
    assert controls[:, 2].max() > 0.1, "no right aileron into the wind"


@pytest.mark.parametrize("from_deg", [90.0, 270.0])
def test_a_crosswind_landing_in_moderate_turbulence(crosswind, from_deg):
    wind = WindSpec(from_deg=from_deg, speed=15.0 * KNOT, turbulence="moderate", seed=1)
    sim, pilot, _ = crosswind.fly(wind)
    check_landing(sim, pilot, max_offset=30.0)

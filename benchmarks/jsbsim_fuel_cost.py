"""What a JSBSim aircraft's fuel burn costs a step: a flight burning against the same flight with its fuel frozen.

Each aircraft flies an air start on the flat planet (RK4 at 1/120 s) in one process; blocks of steps alternate
between burning (``FGMassBalance::Run`` and ``FGPropulsion::ConsumeFuel`` every step:
:mod:`flightsim.physics.jsbsim.fuel`) and ``propulsion/fuel_freeze`` set (the balance finds nothing moved), the least
of three blocks each, and their ratio (measured in the same run: the machine's load cancels).

Usage::

    python benchmarks/jsbsim_fuel_cost.py                  # 737 and c172x
    python benchmarks/jsbsim_fuel_cost.py A320 f16 --steps 2000
"""

from __future__ import annotations

import argparse
import time

from flightsim.physics.jsbsim.fuel import FUEL_FREEZE
from flightsim.physics.jsbsim.model import load_jsbsim_aircraft
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start


def cost(name, steps, rounds=3):
    """``(burning, frozen)``: the least time of a step, s, of each over ``rounds`` blocks of ``steps``."""
    aircraft = load_jsbsim_aircraft(f"jsbsim:{name}")
    sim = Simulation(aircraft, "rk4", start=make_start(aircraft, "air", planet="flat"), planet="flat")
    for _ in range(100):
        sim.step()
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for k, frozen in enumerate((0.0, 1.0)):
            sim.set_jsbsim_property(FUEL_FREEZE, frozen)
            start = time.perf_counter()
            for _ in range(steps):
                sim.step()
            best[k] = min(best[k], (time.perf_counter() - start) / steps)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", default=["737", "c172x"], help="JSBSim aircraft (default: 737 c172x)")
    parser.add_argument("--steps", type=int, default=3000, help="steps per block (default 3000)")
    args = parser.parse_args(argv)
    print("| aircraft | step burning µs | step frozen µs | ratio |")
    print("|---|---:|---:|---:|")
    for name in args.names:
        burning, frozen = cost(name, args.steps)
        print(f"| {name} | {1e6 * burning:.1f} | {1e6 * frozen:.1f} | {burning / frozen:.2f} |")


if __name__ == "__main__":
    main()

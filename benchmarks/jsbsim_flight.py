"""Every JSBSim aircraft flightsim flies, against JSBSim itself: loads, trim and a 30 s doublet.

For each aircraft of the ``jsbsim`` package that flightsim loads
(``flightsim aircraft``):

* **loads**: the largest relative difference of the aerodynamic force and
  moment over a replay of JSBSim's flight (:func:`flightsim.verify.oracle.replay_aero`,
  600 frames, every third compared), and of the thrusters' loads
  (:func:`~flightsim.verify.oracle.replay_propulsion`);
* **trim**: flightsim's level trim against JSBSim's full trim at the same true
  airspeed and height (the aircraft's cruise speed, :func:`flightsim.physics.jsbsim.model.cruise_speed`,
  at 3000 ft unless :data:`flightsim.verify.flight_table.CONDITIONS` names another): α and throttle
  differences;
* **trajectory**: from each one's trim, the same aileron-then-elevator
  doublet, 30 s, flightsim (RK4, 1/120 s, its round planet) against JSBSim as it
  ships (its rotating WGS-84 Earth), both from 0°N 0°E; ``--planet flat``: both on a
  flat, still planet (:func:`flightsim.verify.flight_check.compare_flight`): the largest
  differences of airspeed, height change, roll, pitch and heading change, and
  whether they are within the issue's tolerances (3 ft of height for light
  aircraft, 15 ft for jets).

Gliders have no level trim: flightsim's trim solves their glide angle, and
JSBSim (whose trim cannot trim an aircraft without an engine: its gamma
fallback is not reachable from the Python API) is set at that glide
(:func:`flightsim.verify.flight_oracle.jsbsim_glide`); the trim
columns are then equal by construction and the trajectory shows whether
JSBSim holds the glide.

What is measured and how a row reads is :mod:`flightsim.verify.flight_table`'s, which
``flightsim verify --aircraft jsbsim:NAME|PATH`` prints for one aircraft.

How to run
----------
::

    python benchmarks/jsbsim_flight.py                     # every aircraft that loads
    python benchmarks/jsbsim_flight.py 737 c172p           # some
    python benchmarks/jsbsim_flight.py --markdown table.md # also write the README's table
    python benchmarks/jsbsim_flight.py --planet flat c172p # both on a flat, still planet
"""

import argparse
import sys
import time

from flightsim.commands.aircraft import jsbsim_fleet
from flightsim.verify.flight_table import markdown, within
from flightsim.verify.flight_table import measure as measure_row
from flightsim.verify.oracle import silenced


def measure(name, planet="round"):
    """One aircraft's row (a dict: :func:`flightsim.verify.flight_table.measure`, JSBSim's output silenced)."""
    return measure_row(name, quiet=silenced, planet=planet)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="aircraft (default: every one that loads)")
    parser.add_argument("--markdown", metavar="FILE", help="write the table here too")
    parser.add_argument("--planet", choices=("round", "flat"), default="round",
                        help="JSBSim's rotating WGS-84 Earth and flightsim's round planet (default), or a flat one")
    args = parser.parse_args(argv)
    names = args.names or [row[0].split(":", 1)[1] for row in jsbsim_fleet()[0]]
    rows = []
    t0 = time.perf_counter()
    for name in names:
        rows.append(measure(name, args.planet))
        print(f"{name}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    table = markdown(rows)
    print(table)
    trimmed = sum(1 for r in rows if r["trims"])
    inside = sum(1 for r in rows if within(r))
    print(f"{len(rows)} flown: {trimmed} trim in flightsim at their condition, {inside} within every bound of JSBSim")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
    python benchmarks/jsbsim_flight.py --sweep             # trims across the envelope (issue 40, part 5)
    python benchmarks/jsbsim_flight.py --sweep --aircraft c310 --points 2 --json sweep.json

``--sweep``: instead of the table, both simulators' level trims (gear up where it retracts) at ``--points``
speeds from just above the slowest JSBSim trims to the fastest it trims, at the table's height and 10,000 ft
above it (:mod:`flightsim.verify.flight_envelope`); the Markdown table has each aircraft's worst point,
``--json`` writes every point.
"""

import argparse
import json
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
    parser.add_argument("--sweep", action="store_true", help="trim across the envelope instead (issue 40, part 5)")
    parser.add_argument("--aircraft", action="append", default=[], metavar="NAME",
                        help="an aircraft (repeatable; the same as naming it)")
    parser.add_argument("--points", type=int, default=5, help="--sweep: speeds per height (default 5, at least 2)")
    parser.add_argument("--json", metavar="FILE", help="--sweep: write every point here (JSON)")
    args = parser.parse_args(argv)
    if args.sweep and args.points < 2:
        print(f"--points: must be at least 2, got {args.points}", file=sys.stderr)
        return 2
    names = [*args.names, *args.aircraft] or [row[0].split(":", 1)[1] for row in jsbsim_fleet()[0]]
    if args.sweep:
        return sweep(names, args)
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


def sweep(names, args):
    """``--sweep``: :func:`flightsim.verify.flight_envelope.sweep` per aircraft, the table (worst point each) on
    stdout and in ``--markdown``, every point in ``--json`` (both rewritten after each aircraft)."""
    from flightsim.verify import flight_envelope as envelope

    rows = []
    t0 = time.perf_counter()
    for name in names:
        rows.append(envelope.sweep(name, args.points, quiet=silenced, log=lambda line: print(line, file=sys.stderr)))
        print(f"{name}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        for path, text in ((args.markdown, envelope.markdown(rows) + "\n"), (args.json, json.dumps(rows, indent=1))):
            if path:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    print(envelope.markdown(rows))
    print(envelope.summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every JSBSim aircraft flightsim flies: its flight controls against JSBSim's, frame by frame.

For each aircraft of the ``jsbsim`` package that flightsim loads (``flightsim aircraft``),
:func:`flightsim.verify.oracle.replay_fcs` flies it in JSBSim for 5 s with the stick
on all three axes, the throttle at 0.7 and the flaps coming down, and runs flightsim's flight
controls beside it on the inputs JSBSim's FCS had — its systems, autopilot and flight control
channels with their own state (filters, integrals, actuators, delays) — comparing every
property they write with JSBSim's, every frame.

How to run
----------
::

    python benchmarks/jsbsim_fcs.py                      # every aircraft that loads
    python benchmarks/jsbsim_fcs.py f16 c310             # some
    python benchmarks/jsbsim_fcs.py --markdown table.md  # also write the table
"""

import argparse
import sys

from flightsim.commands.aircraft import jsbsim_fleet
from flightsim.physics.aircraft import load_aircraft
from flightsim.verify.oracle import replay_fcs, silenced

#: The replay's condition: true-ish airspeed (kt) for the light and the heavy, and altitude (ft).
LIGHT_KTS, HEAVY_KTS, ALTITUDE = 150.0, 250.0, 8000.0


def measure(name):
    """``(name, error, worst property, moved, compared)`` for one aircraft."""
    aircraft = load_aircraft(f"jsbsim:{name}")
    kts = LIGHT_KTS if aircraft.mass * aircraft.gravity < 20000.0 else HEAVY_KTS
    with silenced(1, 2):
        r = replay_fcs(name, frames=600, airspeed_kts=kts, altitude_ft=ALTITUDE)
    return name, r.error, r.worst, r.moved, len(r.checked)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="aircraft (default: every one that loads)")
    parser.add_argument("--markdown", metavar="FILE", help="write the table here too")
    args = parser.parse_args(argv)
    names = args.names or [row[0].split(":", 1)[1] for row in jsbsim_fleet()[0]]
    lines = ["| aircraft | largest difference (rel.) | in | properties that moved / compared |", "|---|---|---|---|"]
    exact = 0
    for name in names:
        try:
            name, error, worst, moved, compared = measure(name)
        except Exception as exc:             # JSBSim itself failing on it: reported, not hidden
            lines.append(f"| jsbsim:{name} | {type(exc).__name__}: {str(exc).splitlines()[0][:80]} | | |")
            continue
        exact += error == 0.0
        lines.append(f"| jsbsim:{name} | {error:.1e} | {worst or '—'} | {moved} / {compared} |")
        print(f"{name}: {error:.1e}", file=sys.stderr)
    table = "\n".join(lines)
    print(table)
    print(f"{exact} of {len(names)} equal to JSBSim's to the bit")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every JSBSim aircraft flightsim flies, against JSBSim itself: loads, trim and a 30 s doublet.

For each aircraft of the ``jsbsim`` package that flightsim loads
(``flightsim aircraft``):

* **loads**: the largest relative difference of the aerodynamic force and
  moment over a replay of JSBSim's flight (:func:`flightsim.verify.oracle.replay_aero`,
  600 frames, every third compared), and of the thrusters' loads
  (:func:`~flightsim.verify.oracle.replay_propulsion`);
* **trim**: flightsim's level trim against JSBSim's full trim at the same true
  airspeed and height (the aircraft's cruise speed, :func:`flightsim.physics.jsbsim.model.cruise_speed`,
  at 3000 ft unless the table below names another): α and throttle differences;
* **trajectory**: from each one's trim, the same aileron-then-elevator
  doublet, 30 s, flightsim (RK4, 1/120 s) against JSBSim on its flat planet
  (:func:`flightsim.verify.flight_check.compare_flight`): the largest
  differences of airspeed, height change, roll, pitch and heading change, and
  whether they are within the issue's tolerances (3 ft of height for light
  aircraft, 15 ft for jets).

Gliders have no level trim: flightsim's trim solves their glide angle, and
JSBSim (whose trim cannot trim an aircraft without an engine: its gamma
fallback is not reachable from the Python API) is set at that glide
(:func:`flightsim.verify.flight_oracle.jsbsim_glide`); the trim
columns are then equal by construction and the trajectory shows whether
JSBSim holds the glide.

How to run
----------
::

    python benchmarks/jsbsim_flight.py                     # every aircraft that loads
    python benchmarks/jsbsim_flight.py 737 c172p           # some
    python benchmarks/jsbsim_flight.py --markdown table.md # also write the README's table
"""

import argparse
import math
import sys
import time

from bench_step import quiet_fds  # (this folder: JSBSim's C++ output silenced)

from flightsim.commands.aircraft import jsbsim_fleet
from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.jsbsim.model import START_ALTITUDE
from flightsim.physics.trim import trim
from flightsim.verify.flight_check import compare_flight
from flightsim.verify.oracle import replay_aero, replay_propulsion

#: Conditions other than the cruise speed at 3000 ft: name → (true airspeed ft/s, altitude ft).
CONDITIONS = {"737": (420.0, 10000.0), "t6texan2": (300.0, 8000.0), "c172p": (168.78, 4000.0),
              "c172r": (168.78, 4000.0), "OV10": (250.0, 5000.0), "wrightFlyer1903": (45.0, 100.0),
              "paraglider": (35.0, 1000.0), "f16": (675.1, 15000.0), "f15": (700.0, 20000.0),
              "T38": (600.0, 15000.0), "XB-70": (550.0, 30000.0), "B747": (780.0, 30000.0),
              "global5000": (500.0, 20000.0), "Camel": (120.0, 2000.0), "pa28": (185.0, 4000.0),
              "c182": (215.0, 6000.0), "c310": (200.0, 5000.0), "f22": (675.1, 15000.0), "x24b": (1400.0, 5000.0),
              "B17": (200.0, 8000.0), "p51d": (350.0, 5000.0), "Boeing314": (250.0, 5000.0),
              "Shuttle": (800.0, 30000.0), "Concorde": (700.0, 30000.0), "L410": (200.0, 5000.0),
              "DHC6": (200.0, 5000.0), "pc7": (200.0, 8000.0), "pogo-jsbsim": (250.0, 5000.0),
              "C130": (400.0, 10000.0)}


def measure(name):
    """One aircraft's row (a dict)."""
    aircraft = load_aircraft(f"jsbsim:{name}")
    row = {"name": name, "title": aircraft.name}
    with quiet_fds():
        r = replay_aero(name, frames=600, every=3)
    row["loads"] = max(r.force_error, r.moment_error)
    row["copied"] = len(r.copied)
    if aircraft.jsbsim.engine_count:
        piston = any(kind == "piston" for kind, _ in aircraft.jsbsim.propulsion.kinds)
        with quiet_fds():
            p = replay_propulsion(name, frames=600, every=3, airspeed_kts=100.0 if piston else 200.0)
        row["thrust"] = max(p.force_error, p.moment_error)
    speed, altitude = CONDITIONS.get(name, (round(aircraft.cruise_speed, 1), START_ALTITUDE))
    row["condition"] = (speed, altitude)
    try:                                     # flightsim's own trim there, whatever JSBSim's does
        trim(aircraft, speed, altitude, heading=0.0, atmosphere="isa", report_range=False)
        row["trims"] = True
    except Exception:                        # (TrimError, or a glider's: reported by compare_flight below)
        row["trims"] = False
    try:
        with quiet_fds():
            c = compare_flight(f"jsbsim:{name}", speed, altitude)
    except Exception as exc:                 # JSBSim's or flightsim's trim failing there: reported, not hidden
        row["note"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
        return row
    if not aircraft.jsbsim.engine_count:
        glide = trim(aircraft, speed, altitude, heading=0.0).climb_angle
        row["glide"] = f", glide {glide:.2f}° (L/D {1.0 / math.tan(math.radians(-glide)):.1f})"
    row.update(alpha=c.alpha[0] - c.alpha[1], throttle=c.throttle[0] - c.throttle[1], trajectory=c.trajectory,
               trim_ok=c.trim_ok, trajectory_ok=c.trajectory_ok, height_tolerance=c.tolerance.height)
    return row


def markdown(rows):
    lines = ["| aircraft | loads (rel.) | thrust (rel.) | flightsim trims | condition | Δα ° | Δthrottle | ΔV ft/s | "
             "Δh ft | Δφ ° | Δθ ° | Δψ ° | within |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        thrust = f"{r['thrust']:.1e}" if "thrust" in r else "—"
        trims = "yes" if r.get("trims") or "trajectory" in r else "no"
        head = f"| jsbsim:{r['name']} | {r['loads']:.1e} | {thrust} | {trims} |"
        if "trajectory" not in r:
            lines.append(f"{head} {r.get('note', '')} | | | | | | | | |")
            continue
        t = r["trajectory"]
        ok = "yes" if r["trim_ok"] and r["trajectory_ok"] else "NO"
        lines.append(f"{head} {r['condition'][0]:.0f} ft/s, {r['condition'][1]:.0f} ft{r.get('glide', '')} | "
                     f"{r['alpha']:+.4f} | "
                     f"{r['throttle']:+.4f} | {t.airspeed:.3f} | {t.height:.2f} (≤ {r['height_tolerance']:g}) | "
                     f"{t.roll:.3f} | {t.pitch:.3f} | {t.heading:.3f} | {ok} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="aircraft (default: every one that loads)")
    parser.add_argument("--markdown", metavar="FILE", help="write the table here too")
    args = parser.parse_args(argv)
    names = args.names or [row[0].split(":", 1)[1] for row in jsbsim_fleet()[0]]
    rows = []
    t0 = time.perf_counter()
    for name in names:
        rows.append(measure(name))
        print(f"{name}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    table = markdown(rows)
    print(table)
    trimmed = sum(1 for r in rows if r.get("trims") or "trajectory" in r)
    within = sum(1 for r in rows if r.get("trim_ok") and r.get("trajectory_ok"))
    print(f"{len(rows)} flown: {trimmed} trim in flightsim at their condition, {within} within every bound of JSBSim")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

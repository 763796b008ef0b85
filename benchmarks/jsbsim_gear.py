"""The gear lever against JSBSim: trim gear up and down, then the gear raised from the same trim, in both.

For each JSBSim aircraft named (default: the A320, the issue's, at 420 ft/s true and 15,000 ft), on JSBSim's round
planet at 0°N 0°E: the throttle and α of JSBSim's full trim and flightsim's with the gear down and up; then, from the
gear-down trim, the lever up at t = 0 in both (1/120 s frames) and ``gear/gear-pos-norm`` compared frame by frame
for 8 s (largest difference, and when the gear is up in each), and the gear's drag where the aircraft has
``aero/coefficient/CDgear`` (after the first frame and half-way up).

    python benchmarks/jsbsim_gear.py                      # A320 420 15000
    python benchmarks/jsbsim_gear.py 737:420:15000 c310:250:8000
"""

import sys

import numpy as np

from flightsim.physics.aircraft import load_aircraft
from flightsim.physics.trim import trim
from flightsim.simulation.flight import Simulation
from flightsim.simulation.starts import make_start, start_gravity
from flightsim.verify.flight_oracle import JSBSimTrimError, jsbsim_trim

DT = 1.0 / 120.0
#: The gear's drag (a force, lbf) where the aircraft names it so (the A320, the 737).
CD_GEAR = "aero/coefficient/CDgear"


def measure(name, speed, height):
    """One aircraft's rows: ``(what, JSBSim, flightsim)``."""
    from flightsim.physics.trim import AirplaneModel

    aircraft = load_aircraft(f"jsbsim:{name}")
    model = AirplaneModel(aircraft, gravity=start_gravity(aircraft, height))
    rows = []
    for gear, word in ((1.0, "down"), (0.0, "up")):
        theirs = jsbsim_trim(name, speed, height, gear=gear)
        ours = trim(aircraft, speed, height, model=model, gear=gear)
        rows.append((f"trim throttle, gear {word}", theirs.throttle, ours.throttle))
        rows.append((f"trim alpha (deg), gear {word}", theirs.alpha, ours.alpha))
    sim = Simulation(aircraft, integrator="rk4", dt=DT, start=make_start(aircraft, "trim", airspeed=speed,
                                                                          altitude=height))
    fdm = jsbsim_trim(name, speed, height).fdm
    sim.controls.gear = 0.0
    fdm["gear/gear-cmd-norm"] = 0.0
    drag = CD_GEAR if CD_GEAR in aircraft.jsbsim.properties else None
    ours, theirs, drags = [], [], []
    for k in range(int(8.0 / DT)):
        sim.step()
        fdm.run()
        ours.append(sim.jsbsim_property("gear/gear-pos-norm"))
        theirs.append(fdm["gear/gear-pos-norm"])
        if drag is not None and k in (0, int(2.5 / DT) - 1):
            drags.append((k + 1, fdm[drag], sim.jsbsim_property(drag)))
    ours, theirs = np.array(ours), np.array(theirs)
    for k, a, b in drags:
        rows.append((f"{drag.split('/')[-1]} (lbf) at t = {k * DT:.2f} s", a, b))

    def up(x):
        k = np.flatnonzero(x <= 0.0)
        return (k[0] + 1) * DT if k.size else float("nan")

    rows.append(("gear up after (s)", up(theirs), up(ours)))
    rows.append(("largest |gear-pos-norm| difference", 0.0, float(np.max(np.abs(ours - theirs)))))
    return rows


def main(argv):
    points = [a.split(":") for a in argv] or [["A320", "420", "15000"]]
    for name, speed, height in points:
        print(f"{name} at {float(speed):g} ft/s, {float(height):g} ft")
        print(f"  {'':<40} {'JSBSim':>10} {'flightsim':>10}")
        try:
            rows = measure(name, float(speed), float(height))
        except JSBSimTrimError as exc:
            print(f"  not measured: {exc}")
            continue
        for what, theirs, ours in rows:
            print(f"  {what:<40} {theirs:10.4f} {ours:10.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

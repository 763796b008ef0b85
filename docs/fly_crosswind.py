"""Land the book's airplane from the ``approach`` start in a crosswind, with a small closed-loop pilot.

Not part of the package: a script (and the pilot the crosswind-landing test flies) that
steps :class:`flightsim.simulation.Simulation` from the approach start in a steady
crosswind with Dryden turbulence.  The pilot flies as one is taught to:

* on final, **crab**: the wings level, the nose turned into the wind by as much as
  keeps the ground track on the centre line (a heading law on the lateral offset and
  the ground velocity across the runway, with an integral that finds the crab angle);
* in the flare, **de-crab into a wing-low sideslip**: rudder swings the nose onto the
  runway's heading and aileron banks into the wind just enough to stop the drift, so the
  upwind main wheel touches first, the airplane aligned with the runway;
* on the roll-out, rudder and nose-wheel steering keep the centre line, aileron into
  the wind, brakes once the nose wheel is down.

    python docs/fly_crosswind.py --wind 090@15 --turbulence moderate --seed 1 [--trace /tmp/xw.csv]

It prints the touchdown (distance past the threshold, offset from the centre line, sink
rate, heading and bank) and writes the controls it used (``--out``), so ``flightsim
simulate --start approach --wind 090@15 --turbulence moderate --seed 1 --controls FILE``
flies the same flight again.
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from fly_circuit import Pilot, clip, wrap, write_csvs  # noqa: E402  (the circuit's inner loops)

from flightsim.physics.wind import KNOT, WindSpec  # noqa: E402
from flightsim.simulation.flight import Simulation, instruments, resolve_aircraft, sideslip  # noqa: E402
from flightsim.simulation.starts import make_start  # noqa: E402

REST_HEIGHT = 2.43         # CG height at rest on the gear, ft
GLIDE = math.radians(3.0)
AIM = 700.0                # ft past the threshold
FLARE_HEIGHT = 25.0        # ft (CG): start the flare and the de-crab here


class CrosswindPilot(Pilot):
    """Final approach, de-crab, flare, touchdown and roll-out on runway 36 in a crosswind."""

    def aileron_for_roll(self, roll_cmd, roll, p):
        # firmer than the circuit's: the rolling gusts near the ground are strong
        return clip(3.0 * math.radians(roll_cmd - roll) - 0.5 * p, -1.0, 1.0)

    def __init__(self, sim, approach_speed=None):
        super().__init__(sim)
        self.leg = "final"
        self.approach_speed = approach_speed or float(np.linalg.norm(sim.vector[3:6] - sim.wind[:3]))
        self.crab = 0.0            # the heading law's integral: the crab angle it found, deg
        self.slip = 0.0            # the wing-low bank's integral, deg
        self.rudder_int = 0.0      # the de-crab rudder's integral
        self.max_bank_flare = 0.0

    def fly(self):
        sim = self.sim
        y, dt = sim.vector, sim.dt
        wind = sim.wind
        roll, pitch, heading, airspeed, alpha = instruments(y, wind)
        beta = sideslip(y, wind)
        x, yy, h = y[0], y[1], y[2]
        vx, vy, vz = y[3], y[4], y[5]
        p, q, r = y[10], y[11], y[12]
        c = sim.controls
        c.parking_brake, c.elevator_trim = 0.0, 0.0
        off = yy - self.centre_y                    # + left (West) of the centre line, ft
        vy_cmd = -clip(0.12 * off, -8.0, 8.0)       # ground velocity across the runway to close the offset, ft/s

        if self.leg == "final":
            # crab: turn right (heading +) when drifting West (vy > vy_cmd)
            # the reported wind's crab angle, and an integral for the rest
            spec = sim.wind_spec
            cross = 0.0 if spec is None else spec.steady_xyz(h)[1]      # wind toward the West, ft/s
            crab0 = math.degrees(math.asin(clip(cross / max(airspeed, 1.0), -0.5, 0.5)))   # into the wind: East is +
            err = vy - vy_cmd
            self.crab = clip(self.crab + 0.1 * err * dt, -15.0, 15.0)
            hdg_cmd = clip(crab0 + self.crab + 1.0 * err, -35.0, 35.0)
            roll_cmd = clip(1.2 * wrap(hdg_cmd - heading), -15.0, 15.0)
            c.aileron = self.aileron_for_roll(roll_cmd, roll, p)
            c.rudder = clip(0.02 * beta + 0.8 * r, -0.6, 0.6)   # a yaw damper; the gusts are not chased
            dist = (self.aim_x - x)
            h_cmd = REST_HEIGHT + math.tan(GLIDE) * dist
            pitch_cmd = self.pitch_for_height(h_cmd, h, vz, alpha, gmax=3.0)
            c.elevator = self.elevator_for_pitch(clip(pitch_cmd, -10, 12), pitch, q, dt)
            c.throttle = self.throttle_for_speed(self.approach_speed, airspeed, dt)
            c.flaps = 1.0
            if h < FLARE_HEIGHT:
                self.leg = "flare"
                self.slip, self.rudder_int = 0.0, 0.0
        elif self.leg == "flare":
            c.throttle = self.throttle_for_speed(self.approach_speed - 5.0, airspeed, dt)
            # de-crab: rudder puts the nose on the runway heading (body r > 0 is nose left)
            herr = wrap(0.0 - heading)
            self.rudder_int = clip(self.rudder_int + 0.1 * herr * dt, -0.8, 0.8)
            c.rudder = clip(self.rudder_int + 0.06 * herr + 0.8 * r, -1, 1)
            # wing low: bank into the wind to stop the drift (roll + is right wing down: moves East, vy -)
            err = vy - vy_cmd
            self.slip = clip(self.slip + 0.8 * err * dt, -6.0, 6.0)
            roll_cmd = clip(self.slip + 1.0 * err, -6.0, 6.0)
            self.max_bank_flare = max(self.max_bank_flare, abs(roll))
            c.aileron = self.aileron_for_roll(roll_cmd, roll, p)
            vz_cmd = -clip(0.2 * (h - REST_HEIGHT) + 1.0, 1.0, 5.0)
            pitch_cmd = clip(pitch + 3.0 * (vz_cmd - vz), -2.0, 8.0)
            c.elevator = self.elevator_for_pitch(pitch_cmd, pitch, q, dt)
            if sim.on_ground:
                self.leg = "rollout"
                self.touchdown = dict(t=sim.t, x=x, off=off, sink=-vz, heading=wrap(heading), roll=roll,
                                      beta=beta, airspeed=airspeed)
        elif self.leg == "rollout":
            c.throttle = 0.0
            c.aileron = self.aileron_for_roll(0.0, roll, p)      # wings level: the stick goes into the wind
            if sim.t < self.touchdown["t"] + 2.0:                 # hold the flare attitude: no bounce
                c.elevator = self.elevator_for_pitch(clip(pitch + 3.0 * (-1.0 - vz), -2.0, 8.0), pitch, q, dt)
            else:
                c.elevator = clip(c.elevator - 0.5 * dt, 0.0, 1.0)
            self.steer_and_brake(heading, off, vx, vy, r, brake_from=self.touchdown["t"] + 1.0)
        else:
            c.throttle, c.brake = 0.0, 1.0
        c.throttle = clip(c.throttle, 0.0, 1.0)


def fly(wind, aircraft=None, limit=180.0, on_step=None):
    """Fly the landing in ``wind`` (a :class:`WindSpec`); return (simulation, pilot, controls rows)."""
    aircraft = resolve_aircraft(aircraft)
    sim = Simulation(aircraft, start=make_start(aircraft, "approach", wind=wind), wind=wind)
    pilot = CrosswindPilot(sim)
    rows, stop_at = [], None
    while sim.t < limit:
        pilot.fly()
        rows.append((sim.t, *sim.controls.clamped().as_array()))
        if not sim.step():
            break
        if on_step is not None:
            on_step(sim, pilot)
        if pilot.leg == "stopped" and stop_at is None:
            stop_at = sim.t
        if stop_at is not None and sim.t > stop_at + 1.0:
            break
    return sim, pilot, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wind", default="090@15", help="DEG@KNOTS (default 090@15: a direct crosswind from the right)")
    ap.add_argument("--turbulence", default="moderate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).with_name("crosswind-controls.csv")))
    ap.add_argument("--trace", default=None, help="also write a simple trace (CSV)")
    args = ap.parse_args()
    deg, _, kt = args.wind.partition("@")
    wind = WindSpec(from_deg=float(deg), speed=float(kt) * KNOT, turbulence=args.turbulence, seed=args.seed)
    trace = []

    def record(sim, pilot):
        y = sim.vector
        trace.append((sim.t, *y[:6], *instruments(y, sim.wind)[:4], sideslip(y, sim.wind),
                      float(sim.on_ground), pilot.leg))

    sim, pilot, rows = fly(wind, on_step=record if args.trace else None)
    write_csvs(args, rows, "t,x,y,z,vx,vy,vz,roll,pitch,heading,airspeed,beta,on_ground,leg", trace)
    print(f"wind {wind.describe()}; status: {sim.status or 'running'}; t = {sim.t:.2f} s; final crab "
          f"{pilot.crab:.1f}°; leg {pilot.leg}")
    if pilot.touchdown:
        td = pilot.touchdown
        print(f"touchdown t = {td['t']:.2f} s, {td['x'] - pilot.threshold[0]:.0f} ft past the threshold, "
              f"{td['off']:+.1f} ft off the centre line, sink {td['sink']:.2f} ft/s, heading {td['heading']:+.1f}°, "
              f"bank {td['roll']:+.1f}°, sideslip {td['beta']:+.1f}°, airspeed {td['airspeed']:.1f} ft/s")
        y = sim.vector
        print(f"stopped {y[0] - pilot.threshold[0]:.0f} ft past the threshold, {y[1] - pilot.centre_y:+.1f} ft "
              f"off the centre line")
    return 0 if sim.status is None and pilot.leg == "stopped" else 1


if __name__ == "__main__":
    sys.exit(main())

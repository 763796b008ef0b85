"""Fly the book's airplane around one left-hand traffic circuit of runway 36 with a small closed-loop pilot.

Not part of the package: a script that steps :class:`flightsim.simulation.Simulation`
from the ``runway`` start, with simple PID-like laws (heading → bank → aileron,
altitude → flight-path angle → pitch → elevator, airspeed → throttle, sideslip →
rudder), through the legs of a circuit: take-off roll and climb to 700 ft,
crosswind (heading 270, West), downwind (180), base (090), final (000) on the
centre line down a 3° glide path, flare, touch down, brake to a stop.

It writes the controls it used at every physics step to ``docs/circuit-controls.csv``
(one row per step, so ``flightsim simulate --start runway --controls
docs/circuit-controls.csv`` flies the same flight, bit for bit) and prints a summary.

    python docs/fly_circuit.py [--aircraft bourg|c172] [--out docs/circuit-controls.csv]
                               [--trace /tmp/circuit-trace.csv] [--airfield KMTN --runway 17]

With ``--airfield`` (and ``--runway``) it flies only the take-off, from that runway end on the world's
terrain in the aircraft's own air, and prints its ground roll.

``--aircraft c172`` flies the Cessna 172R the way its handbook does: a short-field
take-off (flaps 10°, full power against the brakes, rotate at 47 kt to 12° of pitch),
the circuit at 90 kt, a 65 kt final with flaps 30°, the throttle closed in the flare and
full braking after touchdown; it prints the take-off and landing ground rolls.

The pilot reads the airspeed indicator (indicated airspeed, :func:`flightsim.simulation.flight.indicated`: the
handbook's speeds are KIAS) to rotate; the same as the true airspeed at the home field.  Its take-off leg rolls
down any runway end (``Pilot(sim, profile, runway=flightsim.simulation.starts.start_end("KMTN", "17"))``): the
centre line, heading and distance along the runway are that end's, the height its elevation's; the circuit's
legs after it are the home runway 36's.
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

from flightsim.physics.constants import RHO_SL
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.controls import CONTROL_NAMES
from flightsim.simulation.flight import Simulation, indicated, instruments, resolve_aircraft, sideslip
from flightsim.simulation.starts import make_start, start_end

PATTERN_ALT = 700.0        # ft above the ground (CG)
DOWNWIND_OFFSET = 4000.0   # ft West of the centre line
CROSSWIND_AT = 3000.0      # ft North: turn crosswind past here (and above 500 ft)
BASE_AT = -9500.0          # ft North: turn base past here on downwind
AIM = 400.0                # ft past the threshold: the glide path's aim point
GLIDE = math.radians(3.0)
CLIMB_SPEED, CRUISE_SPEED, APPROACH_SPEED = 130.0, 130.0, 114.0
REST_HEIGHT = 2.43         # CG height at rest on the gear, ft
KT = 1.68781               # ft/s per knot

#: How each airplane is flown (the book's: the values above).  takeoff_flaps, landing_flaps: 0..1;
#: rotate: airspeed (ft/s) from which the pilot pitches up to rotate_pitch (deg); run_up: seconds at
#: full power against the brakes before releasing them; idle_flare: close the throttle in the flare;
#: brake_delay: seconds from touchdown to full braking.
PROFILES = {
    "bourg": dict(climb=CLIMB_SPEED, cruise=CRUISE_SPEED, approach=APPROACH_SPEED, rest=REST_HEIGHT,
                  takeoff_flaps=0.0, landing_flaps=1.0, rotate=95.0, rotate_pitch=7.0, run_up=0.0,
                  idle_flare=False, brake_delay=1.0, max_elevator=0.8),
    "c172": dict(climb=79.0 * KT, cruise=90.0 * KT, approach=65.0 * KT, rest=4.65,
                 takeoff_flaps=1.0 / 3.0, landing_flaps=1.0, rotate=47.0 * KT, rotate_pitch=12.0, run_up=3.0,
                 idle_flare=True, brake_delay=0.5, max_elevator=1.0),
}


def clip(v, lo, hi):
    return min(max(v, lo), hi)


def wrap(a):
    """Angle to (-180, 180] deg."""
    return (a + 180.0) % 360.0 - 180.0


class Pilot:
    """The circuit's pilot; ``runway``: the :class:`~flightsim.simulation.world.RunwayEnd` the take-off leg rolls
    down (None: the home runway 36, :data:`RUNWAY`)."""

    def __init__(self, sim, profile=None, runway=None):
        self.sim = sim
        #: the take-off's runway (its first threshold the end rolled from) and its elevation, ft
        self.runway = RUNWAY if runway is None else runway.runway
        self.elevation = 0.0 if runway is None else float(runway.elevation_ft)
        self.prof = profile or PROFILES["bourg"]
        self.leg = "takeoff"
        self.e_int = 0.0          # elevator integrator (the trim it finds)
        self.t_int = 0.3          # throttle integrator
        self.threshold = RUNWAY.threshold()
        self.aim_x = self.threshold[0] + AIM
        self.centre_y = self.threshold[1]
        self.touchdown = None
        self.flare_pitch = None
        self.log = []
        self.released = None      # (t, s) where the brakes were released, s ft down the take-off's runway
        self.liftoff = None       # (t, s, airspeed) where the wheels left the ground (airspeed true, ft/s)

    # --- inner loops -------------------------------------------------------------------------
    def elevator_for_pitch(self, pitch_cmd, pitch, q, dt, ki=0.6):
        err = pitch_cmd - pitch                                   # deg
        self.e_int = clip(self.e_int + ki * math.radians(err) * dt, -0.6, self.prof["max_elevator"])
        return clip(self.e_int + 2.0 * math.radians(err) + 0.6 * q, -1.0, 1.0)   # body q > 0: nose down

    def aileron_for_roll(self, roll_cmd, roll, p):
        return clip(1.5 * math.radians(roll_cmd - roll) - 0.4 * p, -1.0, 1.0)

    def throttle_for_speed(self, v_cmd, v, dt):
        err = v_cmd - v
        self.t_int = clip(self.t_int + 0.004 * err * dt, 0.0, 1.0)
        return clip(self.t_int + 0.03 * err, 0.0, 1.0)

    def pitch_for_height(self, h_cmd, h, vz, alpha, gmin=-6.0, gmax=8.0):
        vz_cmd = clip(0.15 * (h_cmd - h), -12.0, 20.0)
        v = max(np.linalg.norm(self.sim.vector[3:6]), 1.0)
        gamma_cmd = clip(math.degrees(math.asin(clip(vz_cmd / v, -0.5, 0.5))), gmin, gmax)
        gamma = math.degrees(math.asin(clip(vz / v, -1.0, 1.0)))
        return gamma_cmd + alpha + 0.5 * (gamma_cmd - gamma)

    def steer_and_brake(self, heading, off, vx, vy, r, brake_from):
        """The roll-out: rudder and nose wheel keep the centre line, full brakes from ``brake_from`` (s);
        the leg is ``stopped`` once the airplane is."""
        c = self.sim.controls
        c.rudder = clip(0.05 * wrap(0.0 - heading) + 0.01 * off + 0.05 * vy + 0.5 * r, -1, 1)
        if self.sim.t > brake_from:
            c.brake = 1.0
        if math.hypot(vx, vy) < 0.05:
            self.leg = "stopped"

    # --- the legs -----------------------------------------------------------------------------
    def fly(self):
        sim = self.sim
        y, dt = sim.vector, sim.dt
        roll, pitch, heading, airspeed, alpha = instruments(y)
        beta = sideslip(y)
        x, yy, h = y[0], y[1], y[2]
        vx, vy, vz = y[3], y[4], y[5]
        p, q, r = y[10], y[11], y[12]
        c = sim.controls
        prof = self.prof
        c.parking_brake = 1.0 if sim.t < prof["run_up"] else 0.0
        c.elevator_trim = 0.0
        off = yy - self.centre_y            # + left (West) of the centre line

        if self.leg == "takeoff":
            # down the take-off's runway: s ft past its threshold, ``aside`` ft left of its centre line, ``v_left``
            # ft/s across it to the left (home 36: s = x less the threshold's, aside = off, v_left = vy)
            s, aside = self.runway.local(x, yy)
            left = self.runway.axes()[1]
            v_left = vx * left[0] + vy * left[1]
            if self.released is None and c.parking_brake == 0.0:
                self.released = (sim.t, s)
            c.throttle, c.flaps, c.brake = 1.0, prof["takeoff_flaps"], 0.0
            # body r > 0: nose left
            c.rudder = clip(0.05 * wrap(self.runway.heading_deg - heading) + 0.01 * aside + 0.05 * v_left + 0.5 * r,
                            -1, 1)
            c.aileron = self.aileron_for_roll(0.0, roll, p)
            if indicated(airspeed, sim.air_density) < prof["rotate"]:       # the airspeed indicator's
                c.elevator = self.elevator_for_pitch(0.0, pitch, q, dt, ki=0.0)
            else:
                c.elevator = self.elevator_for_pitch(prof["rotate_pitch"], pitch, q, dt)
            if self.liftoff is None and self.released is not None and not sim.on_ground:
                self.liftoff = (sim.t, s, airspeed)
            if not sim.on_ground and h - self.elevation > 15.0:
                self.leg = "climb"
        elif self.leg in ("climb", "crosswind", "downwind", "base", "final"):
            if self.leg == "climb" and h > 500.0 and x > CROSSWIND_AT:
                self.leg = "crosswind"
            elif self.leg == "crosswind" and yy > DOWNWIND_OFFSET - 600.0:
                self.leg = "downwind"
            elif self.leg == "downwind" and x < BASE_AT:
                self.leg = "base"
            elif self.leg == "base" and off < 1000.0:
                self.leg = "final"
            # lateral
            if self.leg == "climb":
                hdg_cmd = clip(0.05 * off + 0.5 * vy, -20, 20)
            elif self.leg == "crosswind":
                hdg_cmd = 270.0
            elif self.leg == "downwind":
                hdg_cmd = 180.0 - clip(0.03 * (yy - DOWNWIND_OFFSET) + 0.3 * vy, -30, 30)   # West of it: turn East
            elif self.leg == "base":
                hdg_cmd = 90.0
            else:
                hdg_cmd = clip(0.06 * off + 0.6 * vy, -30, 30)
            max_bank = 25.0 if h > 150.0 else 10.0
            roll_cmd = clip(1.2 * wrap(hdg_cmd - heading), -max_bank, max_bank)
            c.aileron = self.aileron_for_roll(roll_cmd, roll, p)
            c.rudder = clip(0.05 * beta, -1, 1)
            # vertical and speed
            if self.leg in ("climb", "crosswind", "downwind"):
                h_cmd, v_cmd, c.flaps = PATTERN_ALT, prof["climb"] if self.leg == "climb" else prof["cruise"], 0.0
                gmax = 8.0
            else:
                dist = (self.aim_x - x) + max(off, 0.0)
                h_cmd = min(PATTERN_ALT, prof["rest"] + math.tan(GLIDE) * dist)
                v_cmd, gmax = prof["approach"], 3.0
                c.flaps = min(prof["landing_flaps"], c.flaps + 0.25 * dt)
            pitch_cmd = self.pitch_for_height(h_cmd, h, vz, alpha, gmax=gmax)
            c.elevator = self.elevator_for_pitch(clip(pitch_cmd, -10, 12), pitch, q, dt)
            c.throttle = self.throttle_for_speed(v_cmd, airspeed, dt)
            if self.leg == "final" and h < 35.0:
                self.leg = "flare"
                self.flare_pitch = pitch
        elif self.leg == "flare":
            c.throttle = (0.0 if prof["idle_flare"]
                          else self.throttle_for_speed(prof["approach"] - 10.0, airspeed, dt))   # a power-on flare
            hdg_cmd = clip(0.06 * off + 0.6 * vy, -10, 10)
            roll_cmd = clip(1.2 * wrap(hdg_cmd - heading), -5, 5)
            c.aileron = self.aileron_for_roll(roll_cmd, roll, p)
            c.rudder = clip(0.05 * beta, -1, 1)
            vz_cmd = -clip(0.15 * (h - prof["rest"]) + 1.0, 1.0, 6.0)
            pitch_cmd = clip(pitch + 3.0 * (vz_cmd - vz), -2.0, 8.0)
            c.elevator = self.elevator_for_pitch(pitch_cmd, pitch, q, dt)
            if sim.on_ground:
                self.leg = "rollout"
                self.touchdown = (sim.t, x, yy, vz)
        elif self.leg == "rollout":
            c.throttle = 0.0
            c.aileron = self.aileron_for_roll(0.0, roll, p)
            c.elevator = clip(c.elevator - 0.5 * dt, 0.0, 1.0)  # ease the nose down
            self.steer_and_brake(heading, off, vx, vy, r, brake_from=self.touchdown[0] + prof["brake_delay"])
        else:
            c.throttle, c.brake = 0.0, 1.0
        c.throttle = clip(c.throttle, 0.0, 1.0)


def plot(trace, title, path):
    """The circuit's ground track, height above the ground and airspeed (kt) against time, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t, x, y, z = (np.array([row[k] for row in trace]) for k in range(4))
    airspeed = np.array([row[10] for row in trace])
    fig, (track, height, speed) = plt.subplots(1, 3, figsize=(13, 4.2))
    track.plot(-y, x, lw=1.2)
    x0, y0 = RUNWAY.threshold()[:2]
    track.plot([-y0, -y0], [x0, x0 + RUNWAY.length], color="k", lw=3, label="runway 36")
    track.set_aspect("equal")
    track.set(xlabel="East (ft)", ylabel="North (ft)", title="ground track")
    track.legend(loc="center left", fontsize=8)
    height.plot(t, z - z[0])
    height.set(xlabel="t (s)", ylabel="height of the CG above its rest height (ft)", title="height")
    speed.plot(t, airspeed / KT)
    speed.set(xlabel="t (s)", ylabel="airspeed (kt)", title="airspeed")
    fig.suptitle(f"{title}: one left-hand circuit of runway 36 (docs/fly_circuit.py)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def write_csvs(args, rows, trace_header, trace):
    """The controls flown (``args.out``: ``flightsim simulate --controls`` reads it) and, if asked, a trace."""
    with open(args.out, "w") as f:
        f.write("t," + ",".join(CONTROL_NAMES) + "\n")
        for row in rows:
            f.write(repr(row[0]) + "," + ",".join(f"{v:.17g}" for v in row[1:]) + "\n")
    if args.trace:
        with open(args.trace, "w") as f:
            f.write(trace_header + "\n")
            for row in trace:
                f.write(",".join(f"{v:.6f}" if not isinstance(v, str) else v for v in row) + "\n")


def take_off_only(aircraft, args):
    """The take-off leg alone from ``args.airfield``'s ``args.runway``: print its ground roll; 0 once airborne."""
    end = start_end(args.airfield, args.runway)
    sim = Simulation(aircraft, "rk4", start=make_start(aircraft, "runway", airfield=args.airfield, runway=args.runway))
    pilot = Pilot(sim, PROFILES[args.aircraft], runway=end)
    while pilot.leg == "takeoff" and sim.t < args.limit:
        pilot.fly()
        if not sim.step():
            break
    if pilot.liftoff is None:
        print(f"status: {sim.status or 'not airborne'}; t = {sim.t:.2f} s")
        return 1
    (t0, s0), (t1, s1, v1) = pilot.released, pilot.liftoff
    sigma = sim.air_density / RHO_SL
    print(f"{end.airfield} {end.end} ({end.elevation_ft:.0f} ft, {sim.atmosphere} air, sigma {sigma:.3f}): take-off "
          f"ground roll {s1 - s0:.0f} ft in {t1 - t0:.1f} s from brake release, lift-off at "
          f"{v1 * math.sqrt(sigma) / KT:.1f} KIAS ({v1 / KT:.1f} KTAS)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--aircraft", default="bourg", choices=tuple(PROFILES), help="which airplane flies it")
    ap.add_argument("--out", default=None, help="the controls CSV (default docs/circuit-controls.csv, "
                                                "docs/c172-circuit-controls.csv for the 172)")
    ap.add_argument("--trace", default=None, help="also write a simple trace of the flight here (CSV)")
    ap.add_argument("--limit", type=float, default=600.0, help="give up after this many seconds")
    ap.add_argument("--plot", default=None, help="also draw the ground track, height and airspeed here (PNG)")
    ap.add_argument("--airfield", default=None, help="fly only the take-off, from this airfield (e.g. KMTN)")
    ap.add_argument("--runway", default=None, help="... and this runway end (e.g. 17; default its first)")
    args = ap.parse_args()

    if args.out is None:
        name = "circuit-controls.csv" if args.aircraft == "bourg" else f"{args.aircraft}-circuit-controls.csv"
        args.out = str(Path(__file__).with_name(name))
    aircraft = resolve_aircraft(None if args.aircraft == "bourg" else args.aircraft)
    if args.airfield is not None or args.runway is not None:
        return take_off_only(aircraft, args)
    sim = Simulation(aircraft, start=make_start(aircraft, "runway"))
    pilot = Pilot(sim, PROFILES[args.aircraft])
    rows, trace = [], []
    legs = []
    stop_at = None
    while sim.t < args.limit:
        pilot.fly()
        if not legs or legs[-1][1] != pilot.leg:
            legs.append((sim.t, pilot.leg))
        u = sim.controls.clamped().as_array()
        rows.append((sim.t, *u))
        if not sim.step():
            break
        y = sim.vector
        trace.append((sim.t, *y[:6], *instruments(y)[:4], float(sim.on_ground), pilot.leg))
        if pilot.leg == "stopped" and stop_at is None:
            stop_at = sim.t
        if stop_at is not None and sim.t > stop_at + 2.0:
            break

    write_csvs(args, rows, "t,x,y,z,vx,vy,vz,roll,pitch,heading,airspeed,on_ground,leg", trace)

    if args.plot:
        plot(trace, aircraft.name, args.plot)
    for t, leg in legs:
        print(f"t = {t:7.2f} s  {leg}")
    print(f"status: {sim.status or 'running'}; t = {sim.t:.2f} s; steps: {len(rows)}")
    if pilot.liftoff and pilot.released:
        t1, x1, v1 = pilot.liftoff
        print(f"take-off ground roll {x1 - pilot.released[1]:.0f} ft in {t1 - pilot.released[0]:.1f} s from brake "
              f"release, lift-off at {v1 / KT:.1f} kt")
    if pilot.touchdown:
        t0, x0, y0, vz0 = pilot.touchdown
        d0 = x0 - pilot.threshold[0]
        y = sim.vector
        print(f"touchdown t = {t0:.2f} s, {d0:.0f} ft past the threshold, {y0 - pilot.centre_y:+.1f} ft off the "
              f"centre line, sink {-vz0:.2f} ft/s")
        print(f"stopped at x = {y[0]:.0f} ft ({y[0] - pilot.threshold[0]:.0f} ft past the threshold, "
              f"roll-out {y[0] - x0:.0f} ft), y = {y[1]:+.1f} ft, speed {np.linalg.norm(y[3:6]):.2f} ft/s")
        print(f"landing ground roll {y[0] - x0:.0f} ft")
    print(f"controls: {args.out} ({len(rows)} rows)")
    return 0 if sim.status is None and pilot.leg == "stopped" else 1


if __name__ == "__main__":
    sys.exit(main())

"""An hour in the air: the app's frame loop on autopilot, its memory and frame time sampled as it flies.

What is measured
----------------
The app as ``flightsim fly --headless`` runs it (EGL, the default quality, the
strip charts open, the ghost on unless ``--no-ghost``), the aircraft trimmed in
the air and the autopilot engaged (``--autopilot``, default ``hdg=90,alt=3000``
and the speed it was trimmed at), every frame 1/60 s of simulated time but run
as fast as the machine draws (so an hour of flight takes what the frames take).
Every ``--every`` seconds of flight: the process's resident memory (from
``/proc/self/statm``; ``resource``'s peak elsewhere), the median frame time of
the last window, |q| − 1, the altitude and heading.  Printed at the end: the
memory slope after the first minute (least squares, MB per hour) and the growth
over the run, the frame time at the end against the start, the largest
|q| − 1, and the altitude and heading held — with the issue's targets (less than
5 MB after the first minute, the frame time within 10 %).

How to run
----------
::

    python benchmarks/soak.py                       # an hour of flight (about 25 minutes here)
    python benchmarks/soak.py --minutes 5 --every 15
"""

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np


def rss_mb():
    """Resident memory now, MB (Linux); elsewhere the peak so far."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="minutes of flight (default 60)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds of flight between samples (default 30)")
    parser.add_argument("--aircraft", default="c172")
    parser.add_argument("--integrator", default="rk4")
    parser.add_argument("--autopilot", default="hdg=90,alt=3000", metavar="SPEC")
    parser.add_argument("--no-ghost", action="store_true", help="fly without the ghost")
    args = parser.parse_args(argv)

    from flightsim.app.window import configure_pyglet

    configure_pyglet(headless=True)
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.app.window import open_window
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.autopilot import parse_spec
    from flightsim.simulation.flight import TIME_SCALES, Simulation, resolve_aircraft
    from flightsim.simulation.starts import make_start

    aircraft = resolve_aircraft(args.aircraft)
    selection = parse_spec(args.autopilot)
    altitude = selection.altitude or 3000.0
    sim = Simulation(aircraft, integrator=args.integrator, start=make_start(aircraft, "air", altitude=altitude))
    sim.autopilot.engage(sim, selection)
    window = open_window(960, 540, visible=False)
    app = FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    if not args.no_ghost:
        app.cockpit.set_ghost(True)
    dt = 1.0 / 60.0
    frames_per_sample = max(int(round(args.every / dt)), 1)
    total = int(round(args.minutes * 60.0 / dt))
    print(f"# {args.minutes:g} min of flight: {aircraft.name}, {args.integrator}, autopilot {sim.autopilot.describe()}"
          f", ghost {'off' if args.no_ghost else 'on'}; {os.cpu_count()} CPUs")
    print(f"{'flight s':>8} {'wall s':>7} {'RSS MB':>8} {'frame ms':>9} {'|q|-1':>10} {'alt ft':>8} {'hdg':>6}"
          "  autopilot")
    samples = []
    times = []
    start = time.perf_counter()
    worst_q = 0.0
    for k in range(1, total + 1):
        t0 = time.perf_counter()
        window.switch_to()
        app.gui.activate()
        window.dispatch_events()
        app.frame(dt)
        window.flip()
        times.append(time.perf_counter() - t0)
        worst_q = max(worst_q, abs(float(np.linalg.norm(sim.vector[6:10])) - 1.0))
        if k % frames_per_sample == 0 or k == total:
            tm = app.telemetry
            row = (sim.t, time.perf_counter() - start, rss_mb(), 1e3 * statistics.median(times), worst_q,
                   float(sim.vector[2]), tm.heading)
            samples.append(row)
            times.clear()
            print(f"{row[0]:8.0f} {row[1]:7.0f} {row[2]:8.1f} {row[3]:9.2f} {row[4]:10.1e} {row[5]:8.1f} "
                  f"{row[6]:6.1f}  {sim.autopilot.modes or sim.autopilot.message}", flush=True)
    app.close()

    data = np.array(samples)
    after = data[data[:, 0] >= 60.0]
    print()
    if len(after) >= 2:
        slope = np.polyfit(after[:, 0] / 3600.0, after[:, 2], 1)[0]
        growth = after[-1, 2] - after[0, 2]
        print(f"memory after the first minute: {after[0, 2]:.1f} → {after[-1, 2]:.1f} MB, growth {growth:+.1f} MB "
              f"(slope {slope:+.2f} MB/h; target < 5 MB: {'met' if growth < 5.0 else 'MISSED'})")
        # a sample's median frame time moves ±15 % with the machine; compare the first and last sixth of the run
        k = max(len(after) // 6, 1)
        early, late = float(np.median(after[:k, 3])), float(np.median(after[-k:, 3]))
        ratio = late / early
        print(f"frame time: median {early:.2f} ms over the first sixth after the first minute, {late:.2f} ms over "
              f"the last sixth ({ratio:.2f}×; target within 10 %: {'met' if abs(ratio - 1.0) <= 0.10 else 'MISSED'}; "
              f"samples {after[:, 3].min():.2f}..{after[:, 3].max():.2f} ms)")
    hdg = (data[:, 6] - (selection.heading if selection.heading is not None else data[-1, 6]) + 180.0) % 360.0 - 180.0
    print(f"largest |q| − 1: {worst_q:.1e}; over the last half: altitude {data[len(data) // 2:, 5].min():.1f} .. "
          f"{data[len(data) // 2:, 5].max():.1f} ft, heading within {np.max(np.abs(hdg[len(hdg) // 2:])):.2f}° "
          f"of the selected; autopilot {'engaged' if sim.autopilot.engaged else sim.autopilot.message}")
    return 0 if math.isfinite(worst_q) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Frame-time benchmark of the desktop app (not a test).

Runs the real app (window, scene, HUD, simulation) at 1280x720 for a few
seconds of scripted flight - a climbing turn, then a roll the other way, so
the picture and the charts keep changing - and reports:

* start to first frame (process start to the first frame on screen);
* frame time (loop iteration, including the buffer swap): median and 99th
  percentile;
* its split: physics (controls, fixed-step simulation, telemetry), HUD (imgui
  build and draw calls, Python side) and drawing (scene draw calls and the
  swap, where Mesa's llvmpipe finishes rasterising);
* physics + HUD Python time per frame.

Targets (issue 4): median <= 12 ms, p99 <= 20 ms, physics + HUD <= 3 ms,
start to first frame <= 2 s, under Xvfb with Mesa's software renderer.

Usage::

    xvfb-run -a -s "-screen 0 1280x720x24" python benchmarks/bench_frame.py
    python benchmarks/bench_frame.py --headless      # EGL instead of Xvfb
    python benchmarks/bench_frame.py --ghost         # with the ghost airplane (rk4, 8 sub-steps)

With no display and no ``--headless`` it re-runs itself under ``xvfb-run``.
"""

import time

T_START = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402

TARGETS = {"median_ms": 12.0, "p99_ms": 20.0, "physics_hud_ms": 3.0, "first_frame_s": 2.0}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)          # measure this checkout's flightsim


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--headless", action="store_true", help="EGL off-screen instead of an X window")
    p.add_argument("--seconds", type=float, default=8.0, help="measured flight time (default 8 s)")
    from flightsim.commands.options import window_size

    p.add_argument("--size", type=window_size, default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument("--integrator", default="euler")
    p.add_argument("--camera", default="chase")
    p.add_argument("--ghost", action="store_true", help="fly the ghost airplane along (its physics, drawing, chart)")
    p.add_argument("--ghost-integrator", default="rk4")
    p.add_argument("--ghost-substeps", type=int, default=8)
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    return p.parse_args()


def reexec_under_xvfb():
    xvfb = shutil.which("xvfb-run")
    if not xvfb:
        sys.exit("no DISPLAY and no xvfb-run: install xvfb or pass --headless")
    cmd = [xvfb, "-a", "-s", "-screen 0 1280x720x24", sys.executable, *sys.argv]
    os.execv(xvfb, cmd)


def manoeuvre(sim, t):
    """Scripted stick: a climbing right turn, then a roll to the left, then level."""
    c = sim.controls
    c.throttle = 0.6
    if t < 3.0:
        c.aileron, c.elevator = 0.35, 0.3
    elif t < 5.0:
        c.aileron, c.elevator = -0.6, 0.1
    else:
        c.aileron, c.elevator = 0.0, 0.15


def percentile(values, q):
    import numpy as np

    return float(np.percentile(np.asarray(values), q))


def main():
    args = parse_args()
    if not args.headless and not os.environ.get("DISPLAY"):
        reexec_under_xvfb()
    from flightsim.app.window import configure_pyglet, open_window

    configure_pyglet(headless=args.headless)
    import pyglet

    from flightsim.app.app import FlightApp
    from flightsim.app.keymap import load_keymap
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES, Simulation

    window = open_window(*args.size, visible=True)
    sim = Simulation(integrator=args.integrator)
    app = FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False, ghost=args.ghost,
                    ghost_integrator=args.ghost_integrator, ghost_substeps=args.ghost_substeps)
    app.cameras.set_mode(args.camera)
    app.frame(1.0 / 60.0)
    window.flip()
    first_frame = time.perf_counter() - T_START
    renderer = window.context.get_info().get_renderer()

    app.stats.log.clear()
    frames, loop = [], []
    last = time.perf_counter()
    while sim.t < args.seconds and not app.closed:
        manoeuvre(sim, sim.t)
        window.dispatch_events()
        pyglet.clock.tick()
        now = time.perf_counter()
        dt, last = now - last, now
        app.frame(dt)
        t_flip = time.perf_counter()
        window.flip()
        swap = time.perf_counter() - t_flip
        frames.append(app.stats.log[-1] + (swap,))
        loop.append(dt)
    app.close()

    import numpy as np

    log = np.array(frames)[5:]            # (frame in app, physics, draw, hud, swap) ms / s
    loop_ms = np.array(loop)[6:] * 1e3
    physics, draw, hud, swap = log[:, 1], log[:, 2], log[:, 3], log[:, 4] * 1e3
    drawing = draw + swap
    results = {
        "renderer": renderer,
        "mode": "EGL headless" if args.headless else "X (" + os.environ.get("DISPLAY", "") + ")",
        "ghost": f"{args.ghost_integrator} x{args.ghost_substeps}" if args.ghost else "off",
        "size": args.size,
        "frames": int(len(loop_ms)),
        "first_frame_s": first_frame,
        "median_ms": float(np.median(loop_ms)),
        "p99_ms": percentile(loop_ms, 99),
        "physics_median_ms": float(np.median(physics)), "physics_p99_ms": percentile(physics, 99),
        "hud_median_ms": float(np.median(hud)), "hud_p99_ms": percentile(hud, 99),
        "drawing_median_ms": float(np.median(drawing)), "drawing_p99_ms": percentile(drawing, 99),
        "physics_hud_ms": float(np.median(physics + hud)),
        "physics_hud_p99_ms": percentile(physics + hud, 99),
        "steps_per_frame": float(sim.steps) / max(len(loop), 1),
    }
    print(f"flightsim frame benchmark: {results['size']}, {results['mode']}, {renderer}, ghost {results['ghost']}")
    print(f"  frames measured        {results['frames']}")
    print(f"  start to first frame   {first_frame:6.2f} s     (target <= {TARGETS['first_frame_s']:g} s)")
    print(f"  frame time  median     {results['median_ms']:6.2f} ms    (target <= {TARGETS['median_ms']:g} ms)")
    print(f"              p99        {results['p99_ms']:6.2f} ms    (target <= {TARGETS['p99_ms']:g} ms)")
    print("  split (median / p99)")
    for name in ("physics", "hud", "drawing"):
        print(f"    {name:<10}           {results[name + '_median_ms']:6.2f} / {results[name + '_p99_ms']:6.2f} ms")
    print(f"  physics + HUD (Python) {results['physics_hud_ms']:6.2f} ms    (target <= {TARGETS['physics_hud_ms']:g} ms)"
          f", p99 {results['physics_hud_p99_ms']:.2f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

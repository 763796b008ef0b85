"""Frame-time benchmark of the desktop app against a floor measured in the same run (not a test).

Runs the real app (window, scene, HUD, simulation) at 1280x720 through a few
seconds of scripted flight - a climbing turn, then a roll the other way, so
the picture and the charts keep changing - for each camera (chase, cockpit,
orbit), without and with the ghost airplane.  In the same process a second
window draws the **floor** (``floor_scene.py``: clear, one lit cube, one
imgui window with a dozen text lines and a 600-point implot line, flip), and
the two are drawn **frame about frame**, so a change in the load of the
machine hits both alike.  Each figure is printed as a ratio to the floor's:

* frame time (one loop iteration: events, the frame, the buffer swap):
  median and 99th percentile;
* start to first frame, from spawning a fresh ``python`` process to its
  first frame on screen (median of ``--starts`` starts each, alternated;
  both byte-compiled first, as an installed package is);
* the app's split: physics (controls, fixed-step simulation, telemetry), HUD
  (imgui build and draw calls, Python side) and drawing (scene draw calls and
  the swap, where Mesa's llvmpipe finishes rasterising).

The app's frame ``dt`` is its own last frame time (not the period of the
pair), so it steps the physics as often as it would alone.

Targets (issue 13, default ``--quality auto``): median <= 1.5x the floor and
p99 <= 2x (chase, cockpit); with the ghost, median <= 1.7x; start to first
frame <= 1.5 s; physics + HUD Python <= 3 ms a frame.  The **sound-on** column
flies the first camera (ghost off) again with the sound synthesised (to the
speakers where there are any, and always to a WAV on the null device, so the
synthesis runs on a machine with no sound card): its median against the same
configuration's without sound, target <= 1.05 (issue 25).

Usage::

    xvfb-run -a -s "-screen 0 1280x720x24" python benchmarks/bench_frame.py
    python benchmarks/bench_frame.py --camera cockpit --quality high --json out.json
    python benchmarks/bench_frame.py --headless      # EGL instead of Xvfb

With no display and no ``--headless`` it re-runs itself under ``xvfb-run``.
``FLIGHTSIM_CHECKOUT=/path/to/other/checkout`` measures that checkout's app
instead (an older one without ``--quality`` too), for a before / after.
``--json`` keeps the app's figures of the first configuration (``--camera``,
default chase; ghost off unless ``--ghost``) under the top-level keys
(``median_ms``, ``p99_ms``, ``first_frame_s``, ...), the floor's under
``floor``, the ratios under ``ratios`` and every configuration under
``configs``.
"""

import argparse
import inspect
import json
import os
import shutil
import subprocess
import sys
import time

TARGETS = {"median_ratio": 1.5, "p99_ratio": 2.0, "ghost_median_ratio": 1.7, "first_frame_s": 1.5,
           "physics_hud_ms": 3.0, "sound_ratio": 1.05}
CAMERAS = ("chase", "cockpit", "orbit")
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.environ.get("FLIGHTSIM_CHECKOUT") or os.path.dirname(HERE)
sys.path.insert(0, REPO)          # measure this checkout's flightsim (or FLIGHTSIM_CHECKOUT's, to compare)
sys.path.insert(0, HERE)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--headless", action="store_true", help="EGL off-screen instead of an X window")
    p.add_argument("--seconds", type=float, default=5.0,
                   help="flight time measured per configuration (default 5 s)")
    from flightsim.commands.options import window_size

    p.add_argument("--size", type=window_size, default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument("--integrator", default="euler")
    p.add_argument("--camera", choices=CAMERAS, help="measure this camera only (default: chase, cockpit, orbit)")
    p.add_argument("--ghost", action="store_true",
                   help="with the ghost airplane only (rk4, 8 sub-steps); default: without and with")
    p.add_argument("--no-ghost", action="store_true", help="without the ghost only")
    p.add_argument("--ghost-integrator", default="rk4")
    p.add_argument("--ghost-substeps", type=int, default=8)
    p.add_argument("--quality", default="auto", help="the app's graphics quality (default auto)")
    p.add_argument("--starts", type=int, default=3, help="fresh processes timed to their first frame, each")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--first-frame", choices=("app", "floor"), help=argparse.SUPPRESS)
    return p.parse_args(argv)


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
    if t < 2.0:
        c.aileron, c.elevator = 0.35, 0.3
    elif t < 3.5:
        c.aileron, c.elevator = -0.6, 0.1
    else:
        c.aileron, c.elevator = 0.0, 0.15


def percentile(values, q):
    import numpy as np

    return float(np.percentile(np.asarray(values), q))


def make_app(args, window):
    """The app as the benchmark flies it (the book's start on the world's terrain, a scripted stick)."""
    from flightsim.app.app import FlightApp
    from flightsim.app.input.keymap import load_keymap
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.simulation.flight import TIME_SCALES, Simulation

    # on the world's terrain, as `flightsim fly` flies (an older checkout has none)
    terrain = {"terrain": "world"} if "terrain" in inspect.signature(Simulation).parameters else {}
    sim = Simulation(integrator=args.integrator, **terrain)
    options = dict(ghost_integrator=args.ghost_integrator, ghost_substeps=args.ghost_substeps)
    if "quality" in inspect.signature(FlightApp).parameters:       # an older checkout has no quality setting
        options["quality"] = args.quality
    return FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False, **options)


def quality_name(app):
    """The quality the app draws with (``-`` for a checkout without the setting)."""
    quality = getattr(app, "quality", None)
    return quality.name if quality is not None else "-"


def first_frame_child(args):
    """In a fresh process: open the window, draw one frame, show it; print ``time.time()`` then."""
    if args.first_frame == "floor":
        from floor_scene import first_frame

        print(json.dumps({"shown": first_frame(*args.size, args.headless)}))
        return 0
    from flightsim.app.window import configure_pyglet, open_window

    configure_pyglet(headless=args.headless)
    window = open_window(*args.size, visible=True)
    app = make_app(args, window)
    app.frame(1.0 / 60.0)
    window.flip()
    if args.headless:                 # off-screen the flip does not wait for the drawing
        from pyglet import gl

        gl.glFinish()
    shown = time.time()
    print(json.dumps({"shown": shown, "quality": quality_name(app)}))
    app.close()
    return 0


def compile_bytecode():
    """Byte-compile the measured flightsim and the floor's module, as ``pip install`` does for a package.

    Started with ``PYTHONDONTWRITEBYTECODE`` set (as on some CI machines), Python would otherwise compile
    flightsim's modules from source at every start (~0.1 s), a cost no installed copy pays.
    """
    import compileall

    for folder in (os.path.join(REPO, "flightsim"), HERE):
        compileall.compile_dir(folder, quiet=2)


def time_starts(args):
    """Median seconds from spawning a process to its first frame, app and floor alternated."""
    import numpy as np

    compile_bytecode()

    base = [sys.executable, os.path.abspath(__file__), "--size", f"{args.size[0]}x{args.size[1]}",
            "--quality", args.quality, "--integrator", args.integrator]
    if args.headless:
        base.append("--headless")
    times = {"app": [], "floor": []}
    for _ in range(max(args.starts, 1)):
        for kind in ("floor", "app"):
            spawned = time.time()
            # (-X faulthandler: a crash says where)
            r = subprocess.run([base[0], "-X", "faulthandler", *base[1:], "--first-frame", kind], capture_output=True,
                               text=True, timeout=300)
            if r.returncode != 0:
                sys.exit(f"the {kind} start failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
            shown = json.loads(r.stdout.strip().splitlines()[-1])["shown"]
            times[kind].append(shown - spawned)
    return {k: float(np.median(v)) for k, v in times.items()}, times


def run_pair(app, window, floor, floor_window, camera, ghost, seconds, finish=False):
    """Alternate floor and app frames for ``seconds`` of flight; return their frame times and the app's split.

    ``finish``: wait for the drawing after each flip (``glFinish``): off-screen (EGL) the flip does not.
    """
    import pyglet
    from pyglet import gl

    wait = gl.glFinish if finish else (lambda: None)

    sim = app.sim
    app.reset()
    app.cockpit.set_ghost(ghost)
    app.cameras.set_mode(camera)
    app.stats.log.clear()
    floor_ms, app_ms, split = [], [], []
    fdt = adt = 1.0 / 60.0
    while sim.t < seconds and not app.closed:
        t0 = time.perf_counter()
        floor_window.switch_to()
        floor_window.dispatch_events()
        floor.frame(fdt)
        floor_window.flip()
        wait()
        t1 = time.perf_counter()
        window.switch_to()
        app.gui.activate()
        window.dispatch_events()
        pyglet.clock.tick()
        manoeuvre(sim, sim.t)
        app.frame(adt)
        t_flip = time.perf_counter()
        window.flip()
        wait()
        t2 = time.perf_counter()
        fdt, adt = t1 - t0, t2 - t1
        floor_ms.append(fdt * 1e3)
        app_ms.append(adt * 1e3)
        split.append(app.stats.log[-1] + ((t2 - t_flip) * 1e3,))
    skip = 10
    return floor_ms[skip:], app_ms[skip:], split[skip:]


def summarise(camera, ghost, floor_ms, app_ms, split, quality):
    import numpy as np

    log = np.array(split)            # (frame in app, physics, draw, hud, swap) ms
    physics, draw, hud, swap = log[:, 1], log[:, 2], log[:, 3], log[:, 4]
    drawing = draw + swap
    r = {
        "camera": camera, "ghost": ghost, "quality": quality, "frames": len(app_ms),
        "median_ms": float(np.median(app_ms)), "p99_ms": percentile(app_ms, 99),
        "physics_median_ms": float(np.median(physics)), "physics_p99_ms": percentile(physics, 99),
        "hud_median_ms": float(np.median(hud)), "hud_p99_ms": percentile(hud, 99),
        "drawing_median_ms": float(np.median(drawing)), "drawing_p99_ms": percentile(drawing, 99),
        "physics_hud_ms": float(np.median(physics + hud)), "physics_hud_p99_ms": percentile(physics + hud, 99),
        "floor_median_ms": float(np.median(floor_ms)), "floor_p99_ms": percentile(floor_ms, 99),
        # the mean too: a HUD redrawn every few frames (low quality) leaves most frames below its cost
        "mean_ms": float(np.mean(app_ms)), "floor_mean_ms": float(np.mean(floor_ms)),
        "physics_hud_mean_ms": float(np.mean(physics + hud)),
    }
    r["median_ratio"] = r["median_ms"] / r["floor_median_ms"]
    r["p99_ratio"] = r["p99_ms"] / r["floor_p99_ms"]
    r["mean_ratio"] = r["mean_ms"] / r["floor_mean_ms"]
    return r


def measure_sound(args, app, window, floor, floor_window, camera, without):
    """The first configuration again with the sound on: its median frame time against ``without``'s.

    The two runs are a few seconds apart, not frame about frame; each is a ratio to its own floor, and the
    sound's figure is the ratio of those ratios (the machine's load cancels as it does for the others).
    """
    from flightsim.app.audio import Sound

    app.sound = Sound(speakers=True, audio_out=os.devnull, say=lambda text: None)
    outputs = "speakers and a WAV" if app.sound.speakers is not None else "a WAV (no audio device)"
    try:
        floor_ms, app_ms, split = run_pair(app, window, floor, floor_window, camera, False, args.seconds,
                                           finish=args.headless)
    finally:
        app.sound.close()
        app.sound = None
    on = summarise(camera, False, floor_ms, app_ms, split, quality_name(app))
    return {"camera": camera, "outputs": outputs, "median_ms": on["median_ms"], "without_ms": without["median_ms"],
            "ratio": on["median_ratio"] / without["median_ratio"]}


def verdict(value, target):
    return f"(target <= {target:g}: {'met' if value <= target else 'MISSED'})"


def main(argv=None):
    args = parse_args(argv)
    if not args.headless and not os.environ.get("DISPLAY"):
        reexec_under_xvfb()
    if args.first_frame:
        return first_frame_child(args)
    load = os.getloadavg()[0]
    starts, all_starts = time_starts(args)

    from flightsim.app.window import configure_pyglet, open_window

    configure_pyglet(headless=args.headless)
    from floor_scene import FloorScene, open_plain_window

    floor_window = open_plain_window(*args.size, args.headless, configure=False)
    floor = FloorScene(floor_window)
    window = open_window(*args.size, visible=True)
    app = make_app(args, window)
    renderer = window.context.get_info().get_renderer()

    cameras = [args.camera] if args.camera else list(CAMERAS)
    ghosts = [True] if args.ghost else [False] if args.no_ghost else [False, True]
    configs = []
    for camera in cameras:
        for ghost in ghosts:
            floor_ms, app_ms, split = run_pair(app, window, floor, floor_window, camera, ghost, args.seconds,
                                               finish=args.headless)
            configs.append(summarise(camera, ghost, floor_ms, app_ms, split, quality_name(app)))
    sound = measure_sound(args, app, window, floor, floor_window, cameras[0], configs[0])
    quality = quality_name(app)
    app.close()
    floor.close()
    floor_window.close()


    first = configs[0]
    results = {
        "renderer": renderer,
        "mode": "EGL headless" if args.headless else "X (" + os.environ.get("DISPLAY", "") + ")",
        "quality": f"{args.quality} -> {quality}" if args.quality == "auto" else quality,
        "camera": first["camera"],
        "ghost": f"{args.ghost_integrator} x{args.ghost_substeps}" if first["ghost"] else "off",
        "size": list(args.size),
        "load_average": [load, os.getloadavg()[0]],
        "first_frame_s": starts["app"],
        "first_frame_runs_s": all_starts["app"],
        **{k: v for k, v in first.items() if k not in ("camera", "ghost", "quality") and not k.startswith("floor")},
        "steps_per_frame": None,
        "floor": {"first_frame_s": starts["floor"], "first_frame_runs_s": all_starts["floor"],
                  "median_ms": first["floor_median_ms"], "p99_ms": first["floor_p99_ms"],
                  "mean_ms": first["floor_mean_ms"],
                  "scene": "pyglet GL 3.3: clear, one lit cube, one imgui window (12 text lines, "
                           "600-point implot line), flip"},
        "ratios": {"median": first["median_ratio"], "p99": first["p99_ratio"], "mean": first["mean_ratio"],
                   "first_frame": starts["app"] / starts["floor"]},
        "configs": configs,
        "sound": sound,
    }
    del results["steps_per_frame"]
    print(f"flightsim frame benchmark: {args.size[0]}x{args.size[1]}, {results['mode']}, {renderer}, "
          f"quality {results['quality']}, load average {load:.2f} -> {os.getloadavg()[0]:.2f}")
    print("floor: pyglet GL 3.3 window, clear, one lit cube, one imgui window (12 text lines, 600-point implot "
          "line), flip; drawn frame about frame with the app")
    print()
    print(f"{'camera':<8} {'ghost':<5} {'frames':>6}   {'app median':>10} {'p99':>7}   {'floor median':>12} "
          f"{'p99':>7}   {'median ratio':>12} {'p99 ratio':>9} {'mean ratio':>10}   {'physics+HUD':>11}")
    for c in configs:
        print(f"{c['camera']:<8} {'on' if c['ghost'] else 'off':<5} {c['frames']:>6}   {c['median_ms']:8.2f}ms "
              f"{c['p99_ms']:5.1f}ms   {c['floor_median_ms']:10.2f}ms {c['floor_p99_ms']:5.1f}ms   "
              f"{c['median_ratio']:11.2f}x {c['p99_ratio']:8.2f}x {c['mean_ratio']:9.2f}x   "
              f"{c['physics_hud_ms']:9.2f}ms")
    print()
    print(f"start to first frame: app {starts['app']:.2f} s, floor {starts['floor']:.2f} s, "
          f"ratio {starts['app'] / starts['floor']:.2f}x  (median of {len(all_starts['app'])} starts each; "
          f"app runs {', '.join(f'{t:.2f}' for t in all_starts['app'])} s)")
    print()
    print("split of the app's frame, median / p99 ms (physics, HUD, drawing = scene + swap), and the mean of "
          "physics + HUD:")
    for c in configs:
        print(f"  {c['camera']:<8} ghost {'on ' if c['ghost'] else 'off'}  physics {c['physics_median_ms']:5.2f} / "
              f"{c['physics_p99_ms']:5.2f}   HUD {c['hud_median_ms']:5.2f} / {c['hud_p99_ms']:5.2f}   "
              f"drawing {c['drawing_median_ms']:5.2f} / {c['drawing_p99_ms']:5.2f}   "
              f"physics+HUD mean {c['physics_hud_mean_ms']:5.2f}")
    print()
    print("targets:")
    for c in configs:
        name = f"{c['camera']}{' + ghost' if c['ghost'] else ''}"
        if c["ghost"]:
            print(f"  {name}: median / floor = {c['median_ratio']:.2f} "
                  f"{verdict(c['median_ratio'], TARGETS['ghost_median_ratio'])}")
        elif c["camera"] in ("chase", "cockpit"):
            print(f"  {name}: median / floor = {c['median_ratio']:.2f} "
                  f"{verdict(c['median_ratio'], TARGETS['median_ratio'])}; p99 / floor = {c['p99_ratio']:.2f} "
                  f"{verdict(c['p99_ratio'], TARGETS['p99_ratio'])}")
    print(f"  start to first frame = {starts['app']:.2f} s {verdict(starts['app'], TARGETS['first_frame_s'])}")
    plain = [c["physics_hud_ms"] for c in configs if not c["ghost"]] or [c["physics_hud_ms"] for c in configs]
    print(f"  physics + HUD (Python), median, worst camera without the ghost = {max(plain):.2f} ms "
          f"{verdict(max(plain), TARGETS['physics_hud_ms'])}")
    print(f"  sound on ({sound['camera']}, {sound['outputs']}): median {sound['median_ms']:.2f} ms against "
          f"{sound['without_ms']:.2f} ms without = {sound['ratio']:.3f} "
          f"{verdict(sound['ratio'], TARGETS['sound_ratio'])}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The world's screenshots in README's *A world to fly in*: the map panel, and a flight into a hillside.

Not part of the package: it opens the app on a hidden window (run it under ``xvfb-run``) and writes
``docs/world-map.png`` (the map panel, key L, open over the home field with the airplane's track) and
``docs/world-crash.png`` (the 172R flown level into the range's slope East of the valley: the flight stops with
``crashed into terrain at …``).  The two other pictures of that section come from the command line::

    xvfb-run -a -s "-screen 0 1280x720x24" flightsim fly --airfield KMTN --runway 17 --start runway \\
        --screenshot docs/world-kmtn.png --frames 60
    xvfb-run -a -s "-screen 0 1280x720x24" flightsim fly --airfield KVAL --runway 27 --start approach \\
        --camera cockpit --autopilot app=KVAL/27 --screenshot docs/world-ils.png --frames 900

    xvfb-run -a -s "-screen 0 1280x720x24" python docs/world_screenshots.py
"""

import sys
from pathlib import Path

import numpy as np

from flightsim.app.window import configure_pyglet

configure_pyglet(headless=False)

import pyglet  # noqa: E402 (after the window's configuration)

from flightsim.app.app import FlightApp  # noqa: E402
from flightsim.app.input.keymap import load_keymap  # noqa: E402
from flightsim.app.window import open_window  # noqa: E402
from flightsim.math import quat  # noqa: E402
from flightsim.physics.integrators import INTEGRATORS  # noqa: E402
from flightsim.physics.terrain import load_terrain  # noqa: E402
from flightsim.simulation.flight import TIME_SCALES, FlightState, Simulation, resolve_aircraft  # noqa: E402
from flightsim.simulation.starts import make_start  # noqa: E402

DOCS = Path(__file__).resolve().parent


def app_of(sim):
    window = open_window(1280, 720, visible=False)
    return FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)


def frames(app, n):
    for _ in range(n):
        app.window.switch_to()
        app.window.dispatch_events()
        pyglet.clock.tick()
        app.frame(1.0 / 60.0)
        app.window.flip()


def save(app, name):
    from PIL import Image

    Image.fromarray(app.capture()).save(DOCS / name)
    print(f"wrote docs/{name}")


def the_map():
    c172 = resolve_aircraft("c172")
    sim = Simulation(c172, "rk4", start=make_start(c172, "air"), terrain="world")
    app = app_of(sim)
    frames(app, 600)                                     # ten seconds of track
    app.map.toggle(True)
    frames(app, 30)
    save(app, "world-map.png")


def into_a_hillside():
    terrain = load_terrain()
    # the steepest rise eastwards across the valley's side: fly level at the height of its middle
    x, y0 = -50000.0, -120000.0
    ys = y0 - np.arange(0.0, 60000.0, 200.0)
    h = terrain.height(np.full_like(ys, x), ys)
    k = int(np.argmax(np.gradient(h)))
    c172 = resolve_aircraft("c172")
    start = make_start(c172, "air")
    heading = 90.0                                       # East: toward the range
    q = quat.from_aviation_angles(0.0, float(quat.aviation_angles(start.state[6:10])[1]), heading)
    speed = float(np.linalg.norm(start.state[3:6]))
    distance = 1500.0
    state = FlightState(0.0, np.array([x, ys[k] + distance, h[k]]), np.array([0.0, -speed, 0.0]), q, np.zeros(3))
    sim = Simulation(c172, "rk4", start=start, terrain="world")
    sim.reset(state)
    app = app_of(sim)
    for _ in range(1800):
        frames(app, 1)
        if not sim.running:
            break
    frames(app, 20)
    print(sim.status)
    save(app, "world-crash.png")


if __name__ == "__main__":
    the_map()
    into_a_hillside()
    sys.exit(0)

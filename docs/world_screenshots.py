"""The world's screenshots in README's *A world to fly in*: the map panel, the mountain strip from its circuit, and a
flight into a hillside.

Not part of the package: it opens the app on a hidden window (run it under ``xvfb-run``) and writes
``docs/world-map.png`` (the map panel, key L, open over the home field with the airplane's track),
``docs/world-kmtn.png`` (the 172R on the left downwind of KMTN's runway 35, 1,000 ft above the strip, 3,000 ft
West of it: the orbit camera looks East across the airplane at the strip and the range behind it) and
``docs/world-crash.png`` (the 172R flown level East into the range's side, below the snow: the flight stops with
``crashed into terrain at …``, and the orbit camera shows the airplane against the slope from the South).  The
ILS picture of that section comes from the command line::

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
from flightsim.simulation.world import runway_end  # noqa: E402

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


def point_camera(app, camera):
    """Set the app's camera: ``(mode, yaw, pitch, zoom)``, the orbit camera's angles (deg, as the mouse turns
    them: yaw the compass bearing it looks along, pitch down) and its distance times ``zoom``; the cockpit's
    head turned ``yaw`` deg left."""
    mode, yaw, pitch, zoom = camera
    cameras = app.cameras
    cameras.set_mode(mode)
    cameras.orbit_yaw, cameras.orbit_pitch = yaw, pitch
    cameras.orbit_distance = 2.2 * cameras.size * zoom
    cameras.head_yaw = yaw if mode == "cockpit" else 0.0


def downwind_state(end, ahead, abeam, height, heading, start):
    """A :class:`FlightState` flying ``start``'s trimmed airspeed level on ``heading`` (deg) at ``height`` ft
    above sea level, ``ahead`` ft along the runway ``end``'s landing direction from its threshold and ``abeam``
    ft to its right (home frame: x North, y West)."""
    along = np.radians(end.heading_deg)
    forward = np.array([np.cos(along), -np.sin(along)])            # the landing direction, earth (x, y)
    right = np.array([forward[1], -forward[0]])                     # 90 deg clockwise of it
    x, y = np.asarray(end.threshold) + ahead * forward + abeam * right
    pitch = float(quat.aviation_angles(start.state[6:10])[1])
    speed = float(np.linalg.norm(start.state[3:6]))
    track = np.radians(heading)
    velocity = speed * np.array([np.cos(track), -np.sin(track), 0.0])
    return FlightState(0.0, np.array([x, y, height]), velocity, quat.from_aviation_angles(0.0, pitch, heading),
                       np.zeros(3))


def the_mountain_strip():
    """The 172R on the left downwind of KMTN's runway 35, 1,000 ft above the strip, seen across it.

    The valley's West side: 3,000 ft West of the runway's centre line, flying 170 (the reciprocal of 350) at
    6,800 ft, trimmed at 150 ft/s (89 KTAS, 80 KIAS) in the standard atmosphere; four seconds after the start
    it is abeam the strip's middle.  The range East of the strip rises to 9,700 ft, the West side to under
    6,500 ft along the leg (the lowest clearance is printed).  The orbit camera looks East across the airplane
    at the strip (yaw 92 deg, 15 deg down, 2.2 times its distance: the mouse turns it so), the side panels
    hidden (key H) so the strip and the mountains show whole.
    """
    terrain = load_terrain()
    end = runway_end("KMTN", "35")
    c172 = resolve_aircraft("c172")
    height = end.elevation_ft + 1000.0
    abeam = -3000.0                                      # West of the centre line: left traffic for 35
    start = make_start(c172, "trim", airspeed=150.0, altitude=height, atmosphere="isa")
    state = downwind_state(end, ahead=2200.0, abeam=abeam, height=height,
                           heading=(end.heading_deg + 180.0) % 360.0, start=start)
    # the leg: from abeam the far end (3,200 ft) to 2,000 ft past the threshold, where the base turn begins
    along = np.radians(end.heading_deg)
    forward = np.array([np.cos(along), -np.sin(along)])
    right = np.array([forward[1], -forward[0]])
    leg = np.asarray(end.threshold)[:, None] + np.outer(forward, np.arange(-2000.0, 3201.0, 100.0)) \
        + abeam * right[:, None]
    ground = terrain.height(leg[0], leg[1])
    sim = Simulation(c172, "rk4", atmosphere="isa", start=start, terrain="world")
    sim.reset(state)
    app = app_of(sim)
    point_camera(app, ("orbit", 92.0, 15.0, 2.2))
    app.hud.show = False
    frames(app, 240)
    tm = app.telemetry
    print(f"KMTN 35 left downwind: {sim.status or 'flying'} at {tm.altitude:.0f} ft, heading {tm.heading:.0f}, "
          f"{tm.airspeed / 1.68781:.0f} KTAS; the terrain under the leg up to {ground.max():.0f} ft "
          f"({height - ground.max():.0f} ft below it)")
    save(app, "world-kmtn.png")


def into_a_hillside():
    """The 172R flown level East into the range's side: the flight stops with the crash's message.

    Along the line x = 325 ft (due East of home), the steepest rise below 7,000 ft (rock; the snow above
    7,500 ft is one white wall from a camera 40 ft away): fly level at its height from 1,500 ft short of it.
    After the crash the orbit camera looks North at the airplane from the South (yaw 0, 6 deg down, three
    times its distance), the slope rising to the right of its nose.
    """
    terrain = load_terrain()
    x, y0 = 325.0, -120000.0
    ys = y0 - np.arange(0.0, 60000.0, 200.0)
    h = terrain.height(np.full_like(ys, x), ys)
    rise = np.where(h < 7000.0, np.gradient(h), -np.inf)
    k = int(np.argmax(rise))
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
    pos, rot = app.pose
    eye = app.cameras.view(pos, rot, 0.0).eye
    print(f"{sim.status}\n  (slope {rise[k] / (ys[0] - ys[1]):.2f} at {h[k]:.0f} ft; the chase camera's eye "
          f"{eye[2] - terrain.height(eye[0], eye[1]):.0f} ft above the terrain under it)")
    point_camera(app, ("orbit", 0.0, 6.0, 3.0))
    frames(app, 30)                                      # the cached panels show the camera
    save(app, "world-crash.png")


if __name__ == "__main__":
    the_map()
    the_mountain_strip()
    into_a_hillside()
    sys.exit(0)

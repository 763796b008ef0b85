"""Make docs/runway.png, docs/liftoff.png and docs/touchdown.png (EGL headless, no X server).

    python docs/gear-screenshots.py [OUTPUT_FOLDER]

Frames run at a fixed 1/60 s (not paced in real time), so the moments caught
are the same every run: at rest on runway 36 with the parking brake set; half
a second after lift-off (brakes off, full throttle, elevator +0.3); the first
frames of the touchdown from the approach start with no input.  The orbit
camera is set by hand (the command line offers only the camera's mode).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flightsim.app.window import configure_pyglet  # noqa: E402

configure_pyglet(headless=True)

from flightsim.app.app import FlightApp  # noqa: E402
from flightsim.app.input.keymap import load_keymap  # noqa: E402
from flightsim.app.window import open_window  # noqa: E402
from flightsim.physics.aircraft import load_aircraft  # noqa: E402
from flightsim.physics.integrators import INTEGRATORS  # noqa: E402
from flightsim.simulation.flight import TIME_SCALES, Simulation  # noqa: E402
from flightsim.simulation.starts import make_start  # noqa: E402

DT = 1.0 / 60.0


def app_for(aircraft, start, yaw, pitch, distance):
    window = open_window(1280, 720, visible=False)
    sim = Simulation(aircraft, start=make_start(aircraft, start))
    app = FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    app.cameras.set_mode("orbit")
    app.cameras.orbit_yaw, app.cameras.orbit_pitch, app.cameras.orbit_distance = yaw, pitch, distance
    return app


def frames(app, n, before=None):
    for _ in range(n):
        app.window.switch_to()
        app.gui.activate()
        app.window.dispatch_events()
        if before is not None:
            before(app.sim.controls)
        app.frame(DT)
        app.window.flip()


def take_off(c):
    """The pilot's hands: brakes off, full throttle, some back-pressure (the pilot re-centres the stick)."""
    c.parking_brake, c.throttle, c.elevator = 0.0, 1.0, 0.3


def main(folder):
    folder = Path(folder)
    aircraft = load_aircraft()

    app = app_for(aircraft, "runway", 215.0, 10.0, 34.0)
    frames(app, 30)
    app.save_screenshot(folder / "runway.png")
    app.close()

    app = app_for(aircraft, "runway", 100.0, 3.0, 40.0)
    frames(app, 20)
    while app.sim.on_ground:
        frames(app, 1, take_off)
    print(f"lift-off at t = {app.sim.t:.2f} s")
    frames(app, 30, take_off)
    app.save_screenshot(folder / "liftoff.png")
    app.close()

    app = app_for(aircraft, "approach", 100.0, 3.0, 40.0)
    sim = app.sim
    while not sim.on_ground:                     # find the touchdown, then fly the last two seconds in frames
        sim.step()
    touchdown = sim.t
    sim.reset()
    while sim.t < touchdown - 2.0:
        sim.step()
    while not sim.on_ground:
        frames(app, 1)
    frames(app, 6)
    print(f"touchdown at t = {touchdown:.2f} s")
    app.save_screenshot(folder / "touchdown.png")
    app.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent)

"""Make docs/instructor.png and docs/lesson-debrief.png (EGL headless).

    python docs/failures_screenshots.py [OUTPUT_FOLDER]

instructor.png: the 172R in cruise with the Instructor panel open (key I), the vacuum pump failed two minutes ago
(the attitude indicator drifted, LOW VACUUM in red) and the pitot tube blocked before a climb (the airspeed reading
high).  lesson-debrief.png: the landing lesson flown in the app by a pilot written here (the glide path as
trimmed, a flare from 25 ft), its debrief at the end.  The lessons' files go to a temporary data folder.
"""

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flightsim.app.window import configure_pyglet  # noqa: E402

configure_pyglet(headless=True)

from flightsim.app.app import FlightApp  # noqa: E402
from flightsim.app.input.keymap import load_keymap  # noqa: E402
from flightsim.app.scene.renderer import save_png  # noqa: E402
from flightsim.app.window import open_window  # noqa: E402
from flightsim.physics.integrators import INTEGRATORS  # noqa: E402
from flightsim.simulation.flight import TIME_SCALES, Simulation  # noqa: E402
from flightsim.simulation.starts import make_start  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZE = (1280, 720)


def frames(app, n, dt=1.0 / 60.0):
    for _ in range(n):
        app.window.dispatch_events()
        app.frame(dt)


def flare(sim):
    """Throttle closed and the sink rate eased off below 25 ft (the lessons' tests' pilot)."""
    height = sim.vector[2] - 4.65
    if height < 25.0 and not sim.on_ground:
        c = sim.controls
        c.throttle = 0.0
        c.elevator = float(np.clip(0.1 * (-(0.8 + height / 5.0) - sim.vector[5])
                                   - 0.02 * max(sim.telemetry().pitch - 8.0, 0.0), -0.3, 0.4))


def main(out=HERE):
    out = Path(out)
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()
    window = open_window(*SIZE, visible=False)
    sim = Simulation("c172", "rk4", start=make_start(Simulation("c172").aircraft, "air"))
    app = FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    app.hud.show = True
    frames(app, 2)
    sim.failures.fail("vacuum", sim.t)
    sim.time_scale = 8.0
    frames(app, 60 * 15)                       # two minutes: the gyros spin down and drift
    sim.time_scale = 1.0
    sim.failures.fail("pitot", sim.t)
    sim.controls.throttle, sim.controls.elevator = 1.0, 0.12
    frames(app, 60 * 8)
    app.hud.show_instructor = True
    frames(app, 30)
    save_png(app.capture(), out / "instructor.png")

    app.hud.show_instructor = False
    app.hud_bridge.commands.load_lesson("landing")
    frames(app, 2)
    app.sim.followers.append(lambda: flare(app.sim))
    app.hud_bridge.commands.start_lesson()
    app.sim.time_scale = 8.0
    for _ in range(60 * 60):
        frames(app, 1)
        if app.lessons.state == "debrief":
            break
    frames(app, 30)
    save_png(app.capture(), out / "lesson-debrief.png")
    print(app.lessons.result)
    app.close()


if __name__ == "__main__":
    main(*sys.argv[1:])

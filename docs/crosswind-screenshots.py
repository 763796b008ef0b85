"""Make docs/crosswind-final.png, docs/crosswind-cockpit.png and docs/crosswind-touchdown.png (EGL headless).

    python docs/crosswind-screenshots.py [OUTPUT_FOLDER]

The flight is docs/fly_crosswind.py's: the approach start in the shipped ``crosswind``
scenario (15 kt from 090 across runway 36, moderate turbulence, seed 1), flown step by
step by its closed-loop pilot.  At each moment caught the flight is paused and the
window draws a few frames so the camera settles: short final, crabbed (chase and
cockpit), and the touchdown, de-crabbed with the upwind wing low (orbit camera set by hand).
"""

import dataclasses
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from flightsim.app.window import configure_pyglet  # noqa: E402

configure_pyglet(headless=True)

from fly_crosswind import CrosswindPilot  # noqa: E402

from flightsim.app.app import FlightApp  # noqa: E402
from flightsim.app.input.keymap import load_keymap  # noqa: E402
from flightsim.app.window import open_window  # noqa: E402
from flightsim.physics.aircraft import load_aircraft  # noqa: E402
from flightsim.physics.integrators import INTEGRATORS  # noqa: E402
from flightsim.simulation.flight import TIME_SCALES, Simulation, instruments  # noqa: E402
from flightsim.simulation.scenario import load_scenario  # noqa: E402
from flightsim.simulation.starts import make_start  # noqa: E402


class Hold:
    """A control schedule that holds the pilot's last controls, so the paused frames show them."""

    def __init__(self, controls):
        self.controls = dataclasses.replace(controls)

    def at(self, t):
        return self.controls


def settle(app, n=40):
    app.schedule = Hold(app.sim.controls)
    for _ in range(n):
        app.window.switch_to()
        app.gui.activate()
        app.window.dispatch_events()
        app.frame(1.0 / 60.0)
        app.window.flip()


def main(folder):
    folder = Path(folder)
    aircraft = load_aircraft()
    wind = load_scenario("crosswind").wind
    window = open_window(1280, 720, visible=False)
    sim = Simulation(aircraft, start=make_start(aircraft, "approach", wind=wind), wind=wind)
    app = FlightApp(window, sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    app.hud.show_help = False
    pilot = CrosswindPilot(sim)

    def fly_until(done):
        sim.paused = False
        while not done():
            pilot.fly()
            sim.step()
        sim.paused = True

    heading = lambda: instruments(sim.vector, sim.wind)[2]   # noqa: E731
    # short final, about 1000 ft before the threshold, at a moment the crab is plain to see
    fly_until(lambda: sim.vector[0] > -2600.0 and 8.0 < heading() < 90.0)
    app.cameras.set_mode("chase")
    settle(app)
    app.save_screenshot(folder / "crosswind-final.png")
    app.cameras.set_mode("cockpit")
    settle(app, 10)
    app.save_screenshot(folder / "crosswind-cockpit.png")
    fly_until(lambda: sim.on_ground)
    pilot.fly()                                          # the pilot notes the touchdown
    app.cameras.set_mode("orbit")
    app.cameras.orbit_yaw, app.cameras.orbit_pitch, app.cameras.orbit_distance = 180.0, 4.0, 45.0
    settle(app)
    app.save_screenshot(folder / "crosswind-touchdown.png")
    td = pilot.touchdown
    print(f"touchdown at t = {td['t']:.2f} s: {td['off']:+.1f} ft off the centre line, heading {td['heading']:+.1f}°, "
          f"bank {td['roll']:+.1f}°, sink {td['sink']:.1f} ft/s")
    app.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)

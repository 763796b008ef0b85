"""Make docs/input-panel.png: the Input panel (key J) with a stick and rudder pedals plugged in (EGL headless).

    python docs/input-screenshot.py [OUTPUT_FOLDER]

The devices are pyglet input devices made here (this machine has none), read by pyglet's own ``Joystick`` class
as a real stick and real pedals would be: a stick rolled right and pulled back a little, the throttle lever
three quarters forward, the pedals' right toe brake half pressed.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flightsim.app.window import configure_pyglet  # noqa: E402

configure_pyglet(headless=True)

from pyglet.input.base import AbsoluteAxis, Button, Device, Joystick  # noqa: E402

from flightsim.app.app import FlightApp  # noqa: E402
from flightsim.app.input.keymap import load_keymap  # noqa: E402
from flightsim.app.scene.renderer import save_png  # noqa: E402
from flightsim.app.window import open_window  # noqa: E402
from flightsim.physics.integrators import INTEGRATORS  # noqa: E402
from flightsim.simulation.flight import TIME_SCALES, Simulation  # noqa: E402


class Made(Device):
    def __init__(self, name, axes, buttons):
        super().__init__(None, name)
        self.axes = {n: AbsoluteAxis(n, -32768, 32767) for n in axes}
        self.button_list = [Button(f"b{k}") for k in range(buttons)]

    def get_controls(self):
        return [*self.axes.values(), *self.button_list]

    def move(self, axis, value):
        control = self.axes[axis]
        control.value = round((value + 1.0) / 2.0 * (control.max - control.min) + control.min)


HERE = Path(__file__).resolve().parent


def main(out=HERE):
    stick = Made("Thrustmaster T.16000M", ("x", "y", "z", "rz"), 16)
    pedals = Made("Saitek Pro Flight Rudder Pedals", ("x", "y", "rz"), 0)
    for device, axis, value in ((stick, "x", 0.35), (stick, "y", 0.2), (stick, "z", -0.5), (stick, "rz", 0.0),
                                (pedals, "x", -1.0), (pedals, "y", 0.0), (pedals, "rz", 0.25)):
        device.move(axis, value)
    joysticks = [Joystick(stick), Joystick(pedals)]
    window = open_window(1280, 720, visible=False)
    app = FlightApp(window, Simulation(), load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False)
    app.joysticks.find = lambda: joysticks
    app.joysticks.scan()
    app.press("devices")
    for _ in range(40):
        window.switch_to()
        app.gui.activate()
        window.dispatch_events()
        app.frame(1.0 / 60.0)
        window.flip()
    app.gui.invalidate()
    app.frame(1.0 / 60.0)
    save_png(app.capture(), Path(out) / "input-panel.png")
    app.close()
    print(Path(out) / "input-panel.png")


if __name__ == "__main__":
    main(*sys.argv[1:])

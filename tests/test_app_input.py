"""Keyboard, mouse and gamepad through real pyglet events into a real app (EGL)."""

import numpy as np
import pytest
from conftest import hud_latency
from pyglet.input.base import AbsoluteAxis, Button, Controller, Device
from pyglet.input.controller import Relation
from pyglet.window import key, mouse

from flightsim.app.input.pilot import Gamepads


def press(app, symbol):
    app.window.dispatch_event("on_key_press", symbol, 0)


def release(app, symbol):
    app.window.dispatch_event("on_key_release", symbol, 0)


def fresh(app, run_frames):
    app.reset()
    app.hud.show = True
    app.hud.show_help = False
    app.sim.paused = False
    app.cameras.set_mode("chase")
    run_frames(app, 1)


@pytest.mark.parametrize("symbol, control, sign", [
    (key.DOWN, "elevator", +1), (key.S, "elevator", +1),        # stick back: nose up
    (key.UP, "elevator", -1), (key.W, "elevator", -1),
    (key.RIGHT, "aileron", +1), (key.D, "aileron", +1),         # right wing down
    (key.LEFT, "aileron", -1), (key.A, "aileron", -1),
    (key.E, "rudder", +1), (key.Q, "rudder", -1),               # nose right / left
])
def test_keys_deflect_with_the_pilots_signs_and_return_to_centre(flight_app, run_frames, symbol, control, sign):
    fresh(flight_app, run_frames)
    press(flight_app, symbol)
    run_frames(flight_app, 4)
    partway = getattr(flight_app.sim.controls, control)
    run_frames(flight_app, 30)
    full = getattr(flight_app.sim.controls, control)
    assert 0.0 < sign * partway < sign * full, "the surface moves gradually"
    assert sign * full == pytest.approx(1.0)
    release(flight_app, symbol)
    run_frames(flight_app, 3)
    assert 0.0 < sign * getattr(flight_app.sim.controls, control) < 1.0, "it returns smoothly, not at once"
    run_frames(flight_app, 40)
    assert getattr(flight_app.sim.controls, control) == 0.0


def test_the_deflection_reaches_the_simulated_surfaces(flight_app, run_frames):
    fresh(flight_app, run_frames)
    press(flight_app, key.DOWN)
    run_frames(flight_app, 40)
    defl = flight_app.sim.surface_deflections()
    elevators = [i for i, e in enumerate(flight_app.sim.aircraft.elements) if e.part == "tailplane"]
    assert np.all(defl[elevators, 0] > 0.9)            # nose up: elevator trailing edges up (+1)
    release(flight_app, key.DOWN)


def test_throttle_and_flaps_keys(flight_app, run_frames):
    fresh(flight_app, run_frames)
    start = flight_app.sim.controls.throttle
    press(flight_app, key.EQUAL)
    run_frames(flight_app, 60)
    release(flight_app, key.EQUAL)
    assert flight_app.sim.controls.throttle > start + 0.2
    up = flight_app.sim.controls.throttle
    run_frames(flight_app, 30)
    assert flight_app.sim.controls.throttle == pytest.approx(up), "throttle stays where it was left"
    press(flight_app, key.F)
    release(flight_app, key.F)
    run_frames(flight_app, 90)
    assert flight_app.sim.controls.flaps == pytest.approx(0.5)
    press(flight_app, key.V)
    release(flight_app, key.V)
    run_frames(flight_app, 90)
    assert flight_app.sim.controls.flaps == 0.0


def test_pause_reset_camera_and_help_keys(flight_app, run_frames):
    fresh(flight_app, run_frames)
    press(flight_app, key.P)
    run_frames(flight_app, 5)
    t = flight_app.sim.t
    run_frames(flight_app, 5)
    assert flight_app.sim.paused and flight_app.sim.t == t
    press(flight_app, key.P)
    run_frames(flight_app, 5)
    assert flight_app.sim.t > t
    press(flight_app, key.R)
    run_frames(flight_app, 1)
    assert flight_app.sim.t < 0.05
    press(flight_app, key.C)
    run_frames(flight_app, 1)
    assert flight_app.cameras.mode == "cockpit"
    press(flight_app, key.F1)
    run_frames(flight_app, 2)
    assert flight_app.hud.show_help
    press(flight_app, key.F1)
    run_frames(flight_app, 1)
    assert not flight_app.hud.show_help


def imgui_click(app, run_frames, x, y):
    """A left click at imgui coordinates (x, y from the top left), as pyglet events, then the frames a
    cached HUD takes to show what it did (a popup it opened is sized in one redraw, drawn in the next)."""
    h = app.window.get_size()[1]
    app.window.dispatch_event("on_mouse_motion", x, h - y, 0, 0)
    run_frames(app, 1)
    app.window.dispatch_event("on_mouse_press", x, h - y, mouse.LEFT, 0)
    run_frames(app, 1)
    app.window.dispatch_event("on_mouse_release", x, h - y, mouse.LEFT, 0)
    run_frames(app, hud_latency(app))


def centre(box):
    x0, y0, x1, y1 = box
    return 0.5 * (x0 + x1), 0.5 * (y0 + y1)


def test_an_integrator_flown_for_the_first_time_says_it_compiles_before_the_stall(flight_app, run_frames,
                                                                                 monkeypatch):
    from flightsim.app.cockpit import Cockpit
    from flightsim.physics import step_entries

    fresh(flight_app, run_frames)
    monkeypatch.setattr(step_entries, "entry_compiled", lambda entry: False)    # as on a machine's first use
    flight_app.hud_bridge.commands.set_integrator("rk4")
    assert flight_app.sim.integrator == "euler"
    assert flight_app.hud.message == "compiling rk4 for this machine (its first use only)..."
    run_frames(flight_app, Cockpit.COMPILE_NOTICE_FRAMES - 1)                  # the HUD shows it first
    assert flight_app.sim.integrator == "euler" and flight_app.cockpit.pending is not None
    run_frames(flight_app, 1)
    assert flight_app.sim.integrator == "rk4" and flight_app.cockpit.pending is None
    with pytest.raises(ValueError, match="valid: euler"):
        flight_app.hud_bridge.commands.set_integrator("nope")


def test_clicking_the_integrator_combo_switches_the_running_simulation(flight_app, run_frames):
    fresh(flight_app, run_frames)
    run_frames(flight_app, 30)
    assert flight_app.sim.integrator == "euler"
    boxes = flight_app.hud.hit_boxes
    imgui_click(flight_app, run_frames, *centre(boxes["integrator"]))
    target = "rk4"
    assert f"integrator:{target}" in flight_app.hud.hit_boxes, "the combo did not open"
    before = flight_app.sim.state
    imgui_click(flight_app, run_frames, *centre(flight_app.hud.hit_boxes[f"integrator:{target}"]))
    assert flight_app.sim.integrator == target
    after = flight_app.sim.state
    # Live, mid-flight and without a jump: the flight went on from where it was.
    assert after.t > before.t
    gap = np.linalg.norm(after.position - before.position)
    assert gap < 1.5 * np.linalg.norm(before.velocity) * (after.t - before.t) + 1.0
    assert "integrator:euler" not in flight_app.hud.hit_boxes, "the combo closed"
    # Every registered integrator is offered.
    imgui_click(flight_app, run_frames, *centre(flight_app.hud.hit_boxes["integrator"]))
    from flightsim.physics.integrators import INTEGRATORS

    assert all(f"integrator:{name}" in flight_app.hud.hit_boxes for name in INTEGRATORS)
    imgui_click(flight_app, run_frames, *centre(flight_app.hud.hit_boxes["integrator:euler"]))
    assert flight_app.sim.integrator == "euler"


def test_mouse_goes_to_imgui_first(flight_app, run_frames):
    fresh(flight_app, run_frames)
    flight_app.cameras.set_mode("orbit")
    w, h = flight_app.window.get_size()
    yaw = flight_app.cameras.orbit_yaw
    x, y = 120, 300                                              # over the Flight panel's text
    # (a motion alone does not redraw a cached HUD: imgui sees where the mouse is at its next redraw)
    flight_app.window.dispatch_event("on_mouse_motion", x, h - y, 0, 0)
    run_frames(flight_app, hud_latency(flight_app))
    flight_app.window.dispatch_event("on_mouse_drag", x + 20, h - y, 20, 0, mouse.LEFT, 0)
    run_frames(flight_app, 2)
    assert flight_app.cameras.orbit_yaw == yaw, "a drag over the HUD turned the camera"
    flight_app.window.dispatch_event("on_mouse_release", x + 20, h - y, mouse.LEFT, 0)
    flight_app.window.dispatch_event("on_mouse_motion", w // 2, h // 2, 0, 0)
    run_frames(flight_app, hud_latency(flight_app))
    flight_app.window.dispatch_event("on_mouse_drag", w // 2 + 40, h // 2, 40, 0, mouse.LEFT, 0)
    run_frames(flight_app, 1)
    assert flight_app.cameras.orbit_yaw != yaw, "a drag over the 3D view did not turn the camera"
    flight_app.window.dispatch_event("on_mouse_release", w // 2 + 40, h // 2, mouse.LEFT, 0)
    run_frames(flight_app, 1)


class FakePad(Device):
    """A gamepad-like device: pyglet's own Controller maps it as it would a real one."""

    AXES = ("x", "y", "rx", "ry", "z", "rz")
    BUTTONS = ("a", "b", "x", "y", "back", "start", "leftshoulder", "rightshoulder")

    def __init__(self):
        super().__init__(None, "Fake Pad")
        self.axes = [AbsoluteAxis(n, -32768, 32767) if n in ("x", "y", "rx", "ry") else AbsoluteAxis(n, 0, 255)
                     for n in self.AXES]
        self.buttons = [Button(n) for n in self.BUTTONS]
        self.connected = True

    def get_controls(self):
        return [*self.buttons, *self.axes]

    def get_guid(self):
        return "fake-pad"

    def controller(self):
        mapping = {"name": "Fake Pad", "guid": "fake-pad"}
        for i, name in enumerate(("leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger")):
            mapping[name] = Relation("axis", i)
        for i, name in enumerate(self.BUTTONS):
            mapping[name] = Relation("button", i)
        return Controller(self, mapping)

    def stick(self, axis, value):
        """Set an axis from -1..1 (sticks) or 0..1 (triggers)."""
        control = self.axes[self.AXES.index(axis)]
        control.value = (value + 1.0) / 2.0 * (control.max - control.min) + control.min if control.min < 0 \
            else value * control.max

    def tap(self, button):
        control = self.buttons[self.BUTTONS.index(button)]
        control.value = True
        control.value = False


def test_fake_gamepad_drives_the_controls_and_survives_unplugging(flight_app, run_frames):
    fresh(flight_app, run_frames)
    pad = FakePad()
    controller = pad.controller()
    flight_app.gamepads.connect(controller)
    assert flight_app.gamepads.controller is controller and "Fake Pad" in flight_app.gamepads.status
    pad.stick("y", 1.0)                    # left stick pulled back
    pad.stick("x", -1.0)                   # left stick left
    pad.stick("rx", 0.6)                   # right stick right
    pad.stick("rz", 1.0)                   # right trigger
    throttle = flight_app.sim.controls.throttle
    run_frames(flight_app, 30)
    c = flight_app.sim.controls
    assert c.elevator > 0.95 and c.aileron < -0.95 and 0.4 < c.rudder < 0.7
    assert c.throttle > throttle + 0.1
    pad.stick("y", 0.05)                   # inside the dead zone: centred
    run_frames(flight_app, 30)
    assert c.elevator == 0.0
    pad.tap("a")                           # flaps down a notch
    pad.tap("start")                       # pause
    run_frames(flight_app, 2)
    assert flight_app.pilot.flap_target == 0.5 and flight_app.sim.paused
    pad.tap("start")
    # Unplugged mid-flight: pyglet's manager reports it; the flight goes on, controls centre.
    flight_app.gamepads.disconnect(controller)
    run_frames(flight_app, 60)
    assert flight_app.gamepads.controller is None and c.aileron == 0.0 and c.rudder == 0.0
    assert flight_app.sim.status is None and not flight_app.sim.paused
    # Plugged in again, then the device just vanishes (no manager event): still no crash.
    pad2 = FakePad()
    controller2 = pad2.controller()
    flight_app.gamepads.connect(controller2)
    pad2.stick("x", 1.0)
    run_frames(flight_app, 10)
    assert c.aileron > 0.5
    pad2.connected = False
    run_frames(flight_app, 60)
    assert flight_app.gamepads.controller is None and c.aileron == 0.0


def test_no_input_devices_at_all_is_fine(monkeypatch):
    """No /dev/input (or no permission): pyglet's manager fails; the app flies on the keyboard."""
    import pyglet.input

    def no_devices():
        raise OSError(2, "No such file or directory", "/dev/input")

    monkeypatch.setattr(pyglet.input, "ControllerManager", no_devices)
    pads = Gamepads(lambda action: None, lambda action: None, use_manager=True)
    assert pads.controller is None
    assert pads.status == "no gamepad (no input devices)"
    assert pads.poll() is None

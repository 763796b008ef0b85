"""Joysticks, pedals and throttle quadrants on a real window, with fake devices read by pyglet's own Joystick class.

The fakes are pyglet input ``Device`` objects; ``pyglet.input.base.Joystick`` maps their axes and buttons as it
maps a real device's, so the app reads them through the same code as a Logitech stick or Saitek pedals.
"""

import math

import numpy as np
import pytest
from conftest import hud_latency
from pyglet.input.base import AbsoluteAxis, Button, Device, Joystick

from flightsim.app.input.joystick import AxisBinding, JoystickBinding, Joysticks
from flightsim.app.input.keymap import load_keymap
from flightsim.errors import InputError
from flightsim.physics.aircraft import load_aircraft
from flightsim.simulation.airfield import RUNWAY
from flightsim.simulation.starts import make_start


class FakeStick(Device):
    """A HID joystick: 16-bit axes, a throttle, a hat, buttons numbered from 0."""

    def __init__(self, name, axes=("x", "y", "z", "rz"), buttons=6):
        super().__init__(None, name)
        self.axes = {n: AbsoluteAxis(n, -32768, 32767) for n in axes}
        self.button_list = [Button(f"b{k}") for k in range(buttons)]
        self.connected = True
        self.filename = f"/dev/input/fake-{name}"
        self._filename = self.filename

    def get_controls(self):
        return [*self.axes.values(), *self.button_list]

    def move(self, axis, value):
        """Put ``axis`` at ``value`` (−1..1)."""
        control = self.axes[axis]
        control.value = round((value + 1.0) / 2.0 * (control.max - control.min) + control.min)

    def hold(self, button, down=True):
        self.button_list[button].value = down


def attach(app, *devices):
    """Let the app find ``devices`` (as if plugged in now) and look for them at once."""
    plugged, made = list(devices), {}
    # (one Joystick per device: a second would take the device's axis events from the first, as pyglet's handlers
    # go; pyglet itself makes a new device with each joystick)
    app.joysticks.find = lambda: [made[id(d)] if id(d) in made else made.setdefault(id(d), Joystick(d))
                                  for d in plugged if d.connected]
    app.joysticks.scan()
    return plugged


@pytest.fixture
def app(new_app, run_frames):
    app = new_app(size=(640, 360))
    app.hud.show = False
    run_frames(app, 2)
    return app


def test_a_stick_flies_the_airplane_and_its_buttons_are_keys(app, run_frames):
    stick = FakeStick("Logitech Extreme 3D pro")
    attach(app, stick)
    assert len(app.joysticks.open) == 1
    assert app.hud_view().input_status == "no gamepad | joystick: Logitech Extreme 3D pro"
    c = app.sim.controls
    stick.move("x", 0.8)                  # roll right
    stick.move("y", 0.6)                  # pulled back: nose up (pyglet's +y)
    stick.move("rz", -1.0)                # twisted left: nose left
    stick.move("z", -1.0)                 # the lever fully forward: full throttle
    run_frames(app, 30)
    expected = (0.8 - 0.04) / 0.96       # the shipped keymap's dead zone of 0.04
    assert c.aileron == pytest.approx(expected, abs=1e-3) and c.elevator == pytest.approx((0.6 - 0.04) / 0.96, abs=1e-3)
    assert c.rudder == pytest.approx(-1.0) and c.throttle == pytest.approx(1.0)
    stick.move("z", 0.0)                  # lever half way back
    run_frames(app, 2)
    assert c.throttle == pytest.approx(0.5, abs=1e-3)
    stick.hold(1)                         # button 1: flaps down a notch (a keyboard action)
    stick.hold(1, False)
    run_frames(app, 1)
    assert app.pilot.flap_target == 0.5
    stick.hold(0)                         # the trigger: the brakes while held
    run_frames(app, 1)
    assert "brake" in app.pilot.held
    stick.hold(0, False)
    run_frames(app, 1)
    assert "brake" not in app.pilot.held
    # centred inside the dead zone: the surfaces come back to 0
    for axis in ("x", "y", "rz"):
        stick.move(axis, 0.02)
    run_frames(app, 60)
    assert (c.aileron, c.elevator, c.rudder) == (0.0, 0.0, 0.0)


def test_a_stick_and_pedals_at_once_then_unplugged_and_plugged_in_mid_flight(app, run_frames):
    stick, pedals = FakeStick("Thrustmaster T.16000M"), FakeStick("Saitek Pro Flight Rudder Pedals", ("x", "y", "rz"))
    pedals.move("x", -1.0)                # the toe brakes at rest
    pedals.move("y", -1.0)
    plugged = attach(app, stick)
    assert [js.device.name for js, _ in app.joysticks.open] == ["Thrustmaster T.16000M"]
    plugged.append(pedals)                # plugged in while flying: found at the next look (every 2 s)
    run_frames(app, 150)
    names = sorted(js.device.name for js, _ in app.joysticks.open)
    assert names == ["Saitek Pro Flight Rudder Pedals", "Thrustmaster T.16000M"]
    bindings = {js.device.name: b.device for js, b in app.joysticks.open}
    assert bindings["Saitek Pro Flight Rudder Pedals"] == "pedal" and bindings["Thrustmaster T.16000M"] == "*"
    c = app.sim.controls
    stick.move("x", -1.0)
    pedals.move("rz", 1.0)                # right pedal pushed: nose right
    pedals.move("y", 1.0)                 # the right toe brake pressed
    run_frames(app, 30)
    assert c.aileron == pytest.approx(-1.0) and c.rudder == pytest.approx(1.0)
    assert (c.brake_left, c.brake_right) == (0.0, 1.0)
    # the pedals unplugged (pyglet closes a device it can no longer read): the stick goes on, the brake lets go
    pedals.connected = False
    plugged.remove(pedals)
    stick.hold(0)                         # the stick's trigger held meanwhile: a held key, kept
    run_frames(app, 30)
    assert [js.device.name for js, _ in app.joysticks.open] == ["Thrustmaster T.16000M"]
    assert c.aileron == pytest.approx(-1.0) and c.rudder == 0.0 and "brake" in app.pilot.held
    # the stick unplugged with its trigger held: the held action is released
    stick.device_closed = True
    stick.connected = False
    run_frames(app, 2)
    assert not app.joysticks.open and "brake" not in app.pilot.held
    assert app.sim.status is None
    pedals.connected = True               # and back again
    plugged.append(pedals)
    run_frames(app, 150)
    assert [js.device.name for js, _ in app.joysticks.open] == ["Saitek Pro Flight Rudder Pedals"]


def test_dead_zone_curve_and_invert():
    centred = AxisBinding("aileron", deadzone=0.1, curve=2.0)
    assert centred.value(0.05) == 0.0 and centred.value(-0.1) == 0.0
    assert centred.value(0.55) == pytest.approx(0.25) and centred.value(-0.55) == pytest.approx(-0.25)
    assert centred.value(1.0) == 1.0 and centred.value(math.nan) == 0.0 and centred.value(7.0) == 1.0
    assert AxisBinding("elevator", invert=True).value(0.3) == pytest.approx(-0.3)
    # one-sided: a throttle lever full forward at -1, idle back at +1; the brakes from -1 (released) to +1
    assert AxisBinding("throttle").value(-1.0) == 1.0 and AxisBinding("throttle").value(1.0) == 0.0
    assert AxisBinding("throttle", invert=True).value(-1.0) == 0.0
    brake = AxisBinding("brake_left", deadzone=0.2, curve=3.0)
    assert brake.value(-1.0) == 0.0 and brake.value(-0.7) == 0.0          # 0.15 of the travel: in the dead zone
    assert brake.value(0.2) == pytest.approx(((0.6 - 0.2) / 0.8) ** 3) and brake.value(1.0) == 1.0
    assert brake.value(math.nan) == 0.0


def test_two_axes_on_one_control_the_one_further_from_rest_wins():
    class Js:
        def __init__(self, name, **axes):
            self.device = type("D", (), {"name": name, "is_open": True})()
            self.__dict__.update(axes)

        def open(self):
            pass

        def push_handlers(self, **kw):
            pass

    sticks = [Js("yoke", x=0.3), Js("stick", x=-0.9)]
    j = Joysticks([JoystickBinding("*", {"x": AxisBinding("aileron")})], print, print, find=lambda: sticks)
    assert j.poll(0.0) == {"aileron": pytest.approx(-0.9)}


def test_toe_brakes_from_the_pedals_turn_the_airplane_on_the_ground(new_app, run_frames):
    aircraft = load_aircraft("c172")
    app = new_app(size=(320, 200), aircraft=aircraft, start=make_start(aircraft, "runway"))
    app.hud.show = False
    pedals = FakeStick("MFG Crosswind pedals", ("x", "y", "rz"))
    attach(app, pedals)
    app.sim.controls.parking_brake = 0.0
    app.sim.controls.throttle = 0.35
    for axis in ("x", "y", "rz"):
        pedals.move(axis, -1.0 if axis != "rz" else 0.0)
    run_frames(app, 120, dt=1 / 30)
    heading = app.telemetry.heading
    pedals.move("x", 1.0)                 # the left toe brake alone: the left main wheel holds
    run_frames(app, 150, dt=1 / 30)
    c = app.sim.controls
    assert (c.brake_left, c.brake_right, c.rudder) == (1.0, 0.0, 0.0)
    turned = (app.telemetry.heading - heading + 180.0) % 360.0 - 180.0
    assert turned < -10.0, f"turned {turned:+.1f} deg (want left, towards the braked wheel)"
    assert app.telemetry.on_ground and abs(app.sim.state.position[1] - RUNWAY.center[1]) < 200.0


@pytest.mark.parametrize("text,reason", [
    ('[[joystick]]\ndevice = "*"\naxes = { w = "aileron" }\n', "joystick[0].axes.w: unknown axis 'w'"),
    ('[[joystick]]\ndevice = "*"\naxes = { x = "ailerons" }\n',
     "joystick[0].axes.x.control: unknown control 'ailerons'; did you mean 'aileron'?"),
    ('[[joystick]]\ndevice = "*"\naxes = { x = { control = "rudder", deadzone = 2 } }\n',
     "joystick[0].axes.x.deadzone: must be <= 0.5, got 2 (accepted range 0..0.5)"),
    ('[[joystick]]\ndevice = "*"\nbuttons = { 3 = "fire" }\n', "joystick[0].buttons.3: unknown action 'fire'"),
    ('[[joystick]]\naxes = { x = "aileron" }\n', "joystick[0].device: required key is missing"),
    ('[[joystick]]\ndevice = "*"\naxes = { x = { control = "flaps", curve = 4 } }\n',
     "joystick[0].axes.x.curve: must be <= 3, got 4 (accepted range 1..3)"),
])
def test_a_bad_joystick_entry_is_refused_in_one_line(tmp_path, text, reason):
    path = tmp_path / "keymap.toml"
    path.write_text(text)
    with pytest.raises(InputError) as error:
        load_keymap(path)
    assert reason in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


def test_a_users_joystick_tables_come_before_the_shipped_ones(tmp_path):
    path = tmp_path / "keymap.toml"
    path.write_text('[[joystick]]\ndevice = "Extreme 3D"\n[joystick.axes]\nx = { control = "aileron", invert = true, '
                    'curve = 1.5 }\nslider = "throttle"\n'.replace('slider = "throttle"\n', ''))
    keymap = load_keymap(path)
    assert [b.device for b in keymap.joysticks] == ["Extreme 3D", "pedal", "*"]
    assert keymap.joysticks[0].axes == {"x": AxisBinding("aileron", invert=True, curve=1.5)}
    assert np.isclose(keymap.joysticks[0].axes["x"].value(0.5), -(0.5 ** 1.5))


def test_the_input_panel_shows_each_axis_live_and_calibrates_worn_pedals(app, run_frames, tmp_path, monkeypatch):
    from test_app_input import centre, imgui_click

    from flightsim.app.input.joystick import Calibration
    from flightsim.app.scene.renderer import save_png

    app.joysticks.calibration = Calibration(tmp_path / "joystick-calibration.toml")
    app.hud.show = True
    stick, pedals = FakeStick("Thrustmaster T.16000M"), FakeStick("Saitek Pro Flight Rudder Pedals", ("x", "y", "rz"))
    for device, axis, value in ((pedals, "x", -1.0), (pedals, "y", -1.0), (pedals, "rz", 0.0), (stick, "z", -1.0),
                                (stick, "x", 0.3), (stick, "y", -0.2), (stick, "rz", 0.0)):
        device.move(axis, value)
    attach(app, stick, pedals)
    app.press("devices")                              # J
    run_frames(app, hud_latency(app))
    boxes = app.hud.hit_boxes
    assert "input:window" in boxes and "input:Thrustmaster T.16000M:x" in boxes
    assert "input:Saitek Pro Flight Rudder Pedals:y" in boxes
    view = app.hud_view()
    stick_view = next(d for d in view.devices if d.name.startswith("Thrustmaster"))
    assert [(a.axis, a.control) for a in stick_view.axes] == [("x", "aileron"), ("y", "elevator"), ("z", "throttle"),
                                                               ("rz", "rudder")]
    assert stick_view.axes[0].value == pytest.approx((0.3 - 0.04) / 0.96, abs=1e-3)
    app.window.switch_to()
    save_png(app.capture(), tmp_path / "input.png")
    # worn pedals: the right toe brake reaches only 0.6 of its travel; calibrated, that is a full brake
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["input:calibrate:Saitek Pro Flight Rudder Pedals"]))
    assert app.hud_view().devices[1].calibrating and "calibrating Saitek" in app.hud.message
    for value in (-1.0, 0.0, 0.6, -1.0):
        pedals.move("y", value)
        run_frames(app, 2)
    for value in (-1.0, 1.0, 0.0):
        pedals.move("rz", value)
        run_frames(app, 2)
    imgui_click(app, run_frames, *centre(app.hud.hit_boxes["input:calibrate:Saitek Pro Flight Rudder Pedals"]))
    saved = (tmp_path / "joystick-calibration.toml").read_text()
    assert '["Saitek Pro Flight Rudder Pedals"]' in saved and "y = [-1.0000, 0.6000]" in saved
    assert "rz = [-1.0000, 1.0000]" in saved and "x =" not in saved          # x never moved: full range kept
    assert "y calibrated" in app.hud.message or "rz, y calibrated" in app.hud.message
    pedals.move("y", 0.6)
    run_frames(app, 2)
    assert app.sim.controls.brake_right == pytest.approx(1.0)
    # the file is read back by the next flight
    again = Calibration(tmp_path / "joystick-calibration.toml")
    assert again.ranges["Saitek Pro Flight Rudder Pedals"]["y"] == (-1.0, 0.6)
    assert again.apply("Saitek Pro Flight Rudder Pedals", "y", 0.6) == pytest.approx(1.0)


def test_a_bad_calibration_file_is_refused_in_one_line(tmp_path):
    from flightsim.app.input.joystick import Calibration

    path = tmp_path / "joystick-calibration.toml"
    path.write_text('["Pedals"]\ny = [0.5, 0.4]\n')
    with pytest.raises(InputError) as error:
        Calibration(path)
    assert str(error.value).startswith(f"{path}: Pedals.y: must be [low, high] within -1..1")


def test_devices_lists_each_device_with_its_axes_buttons_and_keymap_table():
    from flightsim.commands.devices import describe

    pedals = FakeStick("Saitek Pro Flight Rudder Pedals", ("x", "y", "rz"), buttons=2)
    for axis, value in (("x", -1.0), ("y", 1.0), ("rz", 0.0)):
        pedals.move(axis, value)
    js = Joystick(pedals)
    pedals.hold(1)
    assert describe(js, load_keymap().joysticks) == (
        "Saitek Pro Flight Rudder Pedals: axes x -1.00  y +1.00  rz +0.00; buttons 2 (pressed: 1); "
        "keymap joystick[0] (device = 'pedal')")


def test_flightsim_devices_runs_as_a_user_runs_it(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "flightsim", "devices", "--watch", "--seconds", "0.3"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == ""
    first = r.stdout.splitlines()[0]
    # this machine has no joystick (CI's may have a virtual one): either way a listing, not an error
    assert first.startswith("no joysticks or game controllers found") or first.startswith("joysticks (")
    bad = tmp_path / "keymap.toml"
    bad.write_text('[[joystick]]\ndevice = "*"\naxes = { x = "nope" }\n')
    r = subprocess.run([sys.executable, "-m", "flightsim", "devices", "--keymap", str(bad)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "joystick[0].axes.x.control: unknown control" in r.stderr

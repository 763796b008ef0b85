"""The pilot's hands: keyboard, gamepad and joysticks turned into smooth control positions.

:class:`Pilot` keeps the state of the held keys and of a gamepad and, once
per frame, moves the simulation's :class:`~flightsim.simulation.controls.Controls`
towards what they ask for at limited rates: a held key deflects a surface
gradually, a released one lets it return smoothly to centre, a gamepad
stick sets the deflection directly (outside its dead zone).  Signs are the
pilot's: elevator +1 nose up, aileron +1 roll right, rudder +1 nose right.
The trim keys (and the gamepad's d-pad) turn the elevator trim wheel: the
trim moves at a steady rate while held and stays where it is left, the
stick still returns to centre, and the airplane flies the stick plus the trim.

:class:`Gamepads` wraps pyglet's input module: it opens the first game
controller, follows plugging and unplugging while flying, and copes with a
machine that has no input devices at all.  A controller's sticks and
buttons are polled each frame, so a fake device works as well as a real one.
"""

from __future__ import annotations

import math
import warnings

__all__ = ["FLAP_NOTCHES", "GAMEPAD_BUTTONS", "GAMEPAD_DPAD", "GAMEPAD_DPAD_PRESS", "GAMEPAD_HELD", "Gamepads", "Pilot",
           "apply_dead_zone"]

FLAP_NOTCHES = (0.0, 0.5, 1.0)
"""Flap settings the flaps keys step through."""

GAMEPAD_BUTTONS = {
    "a": "flaps_down", "b": "flaps_up", "start": "pause", "back": "reset", "y": "camera",
    "x": "screenshot", "guide": "help", "rightstick": "trim_now",
}
"""Gamepad buttons (pyglet Controller names) and the actions they trigger."""

GAMEPAD_HELD = {"leftshoulder": "yaw_left", "rightshoulder": "yaw_right"}
"""Gamepad buttons that act while held."""
GAMEPAD_BUTTONS["leftstick"] = "parking_brake"   # click the left stick: set / release the parking brake
GAMEPAD_DPAD = {"dpup": "trim_nose_down", "dpdown": "trim_nose_up", "dpleft": "brake"}
"""The d-pad, held: the elevator trim (up is the trim wheel forward, nose down, as the stick), and the brakes."""
#: The d-pad pressed right: the gear lever up / down (an action once per press).
GAMEPAD_DPAD_PRESS = {"dpright": "gear"}

_STICK_RATE = 8.0          # /s: how fast a surface follows a stick (essentially direct)
_BRAKE_RATE = 4.0          # /s: how fast the brakes come on and off (a quarter second)
#: A lever (throttle, flaps, trim axis) counts as moved by the pilot beyond this much: until then the keys and the
#: autopilot may move its control, and a lever at rest does not fight them.
LEVER_MOVE = 0.01


def apply_dead_zone(value, dead_zone):
    """Map a stick axis in -1..1 to 0 inside the dead zone and rescale the rest to -1..1."""
    if not math.isfinite(value):
        return 0.0
    magnitude = abs(value)
    if magnitude <= dead_zone:
        return 0.0
    return math.copysign(min((magnitude - dead_zone) / (1.0 - dead_zone), 1.0), value)


def _approach(value, target, rate, dt):
    """Move ``value`` towards ``target`` by at most ``rate * dt``."""
    step = rate * dt
    if value < target:
        return min(value + step, target)
    return max(value - step, target)


class Pilot:
    """Smooth control positions from held keys and a gamepad.

    Parameters
    ----------
    keymap : flightsim.app.input.keymap.Keymap
        For the rates and the dead zone.

    Attributes
    ----------
    held : set of str
        Held actions (from keys and gamepad shoulder buttons).
    flap_target : float
        The selected flap notch.
    """

    def __init__(self, keymap):
        self.rates = dict(keymap.rates)
        self.dead_zone = keymap.dead_zone
        self.held = set()
        self.flap_target = 0.0
        self._toggle_parking_brake = False
        self._toggle_engine = False
        self._toggle_gear = False
        self._levers = {}          # a joystick lever's last value, by control
        self._keyed_brake = 0.0    # the brake key's (and the d-pad's) brake, beside a brake axis

    def press(self, action):
        """A key or button for ``action`` went down."""
        if action == "flaps_down":
            self.flap_target = next((n for n in FLAP_NOTCHES if n > self.flap_target + 1e-9), FLAP_NOTCHES[-1])
        elif action == "flaps_up":
            self.flap_target = next((n for n in reversed(FLAP_NOTCHES) if n < self.flap_target - 1e-9),
                                    FLAP_NOTCHES[0])
        elif action == "parking_brake":
            self._toggle_parking_brake = not self._toggle_parking_brake   # flipped at the next update
        elif action == "engine":
            self._toggle_engine = not self._toggle_engine
        elif action == "gear":
            self._toggle_gear = not self._toggle_gear
        else:
            self.held.add(action)

    def release(self, action):
        """A key or button for ``action`` came up."""
        self.held.discard(action)

    def release_all(self):
        """Forget every held key (the window lost focus, or imgui took the keyboard)."""
        self.held.clear()

    def reset(self, controls):
        """Start over from ``controls`` (after a simulation reset); their elevator trim is left as it is."""
        self.held.clear()
        self.flap_target = min(FLAP_NOTCHES, key=lambda n: abs(n - controls.flaps))
        self._toggle_parking_brake = False
        self._toggle_engine = False
        self._toggle_gear = False
        self._levers = {}
        self._keyed_brake = 0.0

    def _keys(self, minus, plus):
        return (1.0 if plus in self.held else 0.0) - (1.0 if minus in self.held else 0.0)

    def _lever(self, control, sticks):
        """A joystick lever's value if the pilot moved it since the last frame (or it is seen for the first time:
        then ``(value, False)``), else None; as ``(value, moved)``."""
        if control not in sticks:
            self._levers.pop(control, None)
            return None
        value, last = sticks[control], self._levers.get(control)
        if last is not None and abs(value - last) <= LEVER_MOVE:
            return None
        self._levers[control] = value
        return value, last is not None

    def update(self, dt, controls, pad=None, hold=False, sticks=None):
        """Move ``controls`` (a :class:`~flightsim.simulation.controls.Controls`, changed in place) for one frame.

        Parameters
        ----------
        dt : float
            Frame time, s.
        controls : flightsim.simulation.controls.Controls
        pad : dict or None
            Gamepad axes from :meth:`Gamepads.poll` (``elevator``,
            ``aileron``, ``rudder`` in -1..1 before the dead zone,
            ``throttle_rate`` in -1..1, ``trim`` (the d-pad up/down: +1 nose up,
            -1 nose down) and ``brake`` (1 with the d-pad held left)), or None.
            The brake key held brakes fully (coming on in a quarter second);
            the parking brake key flips the parking brake, the engine key the engine (running / off), the gear
            key the gear lever (down / up).
        hold : bool
            The autopilot flies (:class:`~flightsim.simulation.autopilot.Autopilot`): a surface no key or stick
            moves stays where it is (not centred), so only the pilot's own input moves it.
        sticks : dict or None
            Joystick axes from :meth:`flightsim.app.input.joystick.Joysticks.poll`, by control, their dead zone
            and curve applied: ``aileron``, ``elevator``, ``rudder`` set the surfaces as a gamepad stick does
            (the keys first, then a joystick, then a gamepad); the levers ``throttle``, ``flaps`` and
            ``elevator_trim`` set their control when moved (by more than :data:`LEVER_MOVE`), so the keys and
            the autopilot move it while the lever rests; ``brakes`` brakes at least that much, ``brake_left``
            and ``brake_right`` are the toe brakes on their own.

        Returns
        -------
        tuple of str
            The controls the pilot's keys or sticks moved in this frame (``elevator``, ``aileron``, ``rudder``,
            ``throttle``): while the autopilot flies, such an input disconnects it.
        """
        dt = min(max(float(dt), 0.0), 0.25) if math.isfinite(dt) else 0.0
        r = self.rates
        pad = pad or {}
        sticks = sticks or {}
        moved = []
        for name, minus, plus in (("elevator", "pitch_down", "pitch_up"), ("aileron", "roll_left", "roll_right"),
                                  ("rudder", "yaw_left", "yaw_right")):
            value = getattr(controls, name)
            value = value if math.isfinite(value) else 0.0
            keys = self._keys(minus, plus)
            stick = sticks.get(name, 0.0) or apply_dead_zone(pad.get(name, 0.0), self.dead_zone)
            if keys != 0.0:
                value = _approach(value, keys, r["deflect"], dt)
            elif stick != 0.0:
                value = _approach(value, stick, _STICK_RATE, dt)
            elif not hold:
                value = _approach(value, 0.0, r["center"], dt)
            setattr(controls, name, min(max(value, -1.0), 1.0))
            if keys != 0.0 or stick != 0.0:
                moved.append(name)
        throttle = controls.throttle if math.isfinite(controls.throttle) else 0.0
        push = self._keys("throttle_down", "throttle_up")
        push += apply_dead_zone(pad.get("throttle_rate", 0.0), self.dead_zone)
        controls.throttle = min(max(throttle + push * r["throttle"] * dt, 0.0), 1.0)
        lever = self._lever("throttle", sticks)
        if lever is not None:
            controls.throttle = min(max(lever[0], 0.0), 1.0)
        if push != 0.0 or (lever is not None and lever[1]):
            moved.append("throttle")
        lever = self._lever("flaps", sticks)
        if lever is not None:
            self.flap_target = min(max(lever[0], 0.0), 1.0)
        flaps = controls.flaps if math.isfinite(controls.flaps) else 0.0
        controls.flaps = min(max(_approach(flaps, self.flap_target, r["flaps"], dt), 0.0), 1.0)
        wheel = self._keys("trim_nose_down", "trim_nose_up") + pad.get("trim", 0.0)
        if wheel != 0.0:
            trim = controls.elevator_trim if math.isfinite(controls.elevator_trim) else 0.0
            wheel = min(max(wheel, -1.0), 1.0)
            controls.elevator_trim = min(max(trim + wheel * r["trim"] * dt, -1.0), 1.0)
        lever = self._lever("elevator_trim", sticks)
        if lever is not None:
            controls.elevator_trim = min(max(lever[0], -1.0), 1.0)
        pressed = 1.0 if "brake" in self.held or pad.get("brake", 0.0) > 0.5 else 0.0
        if "brakes" in sticks:
            self._keyed_brake = _approach(self._keyed_brake, pressed, _BRAKE_RATE, dt)
            controls.brake = min(max(self._keyed_brake, sticks["brakes"], 0.0), 1.0)
        else:
            brake = controls.brake if math.isfinite(controls.brake) else 0.0
            controls.brake = min(max(_approach(brake, pressed, _BRAKE_RATE, dt), 0.0), 1.0)
        for side in ("brake_left", "brake_right"):
            if side in sticks:
                setattr(controls, side, min(max(sticks[side], 0.0), 1.0))
        if self._toggle_parking_brake:
            self._toggle_parking_brake = False
            controls.parking_brake = 0.0 if controls.parking_brake >= 0.5 else 1.0
        if self._toggle_engine:
            self._toggle_engine = False
            controls.engine = 0.0 if controls.engine >= 0.5 else 1.0
        if self._toggle_gear:
            self._toggle_gear = False
            controls.gear = 0.0 if controls.gear >= 0.5 else 1.0
        return tuple(moved)


class Gamepads:
    """Game controllers through pyglet's input module, hot-pluggable.

    Parameters
    ----------
    on_press : callable
        Called with an action name when a mapped button is pressed.
    on_release : callable
        Called with an action name when a held button is released.
    use_manager : bool
        Watch for controllers with pyglet's ``ControllerManager`` (off in
        tests that add a fake controller themselves).

    Attributes
    ----------
    controller : pyglet.input.Controller or None
        The controller in use.
    status : str
        One line for the HUD (``"no gamepad"``, ``"gamepad: NAME"``, ...).
    """

    def __init__(self, on_press, on_release, use_manager=True):
        self.on_press = on_press
        self.on_release = on_release
        self.controller = None
        self.status = "no gamepad"
        self._manager = None
        self._dpad_right = False       # the d-pad held right at the last poll (the gear: once per press)
        if use_manager:
            self._start_manager()

    def _start_manager(self):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import pyglet.input

                manager = pyglet.input.ControllerManager()
                found = manager.get_controllers()
        except Exception:  # no /dev/input, no permissions, no backend: fly on the keyboard
            self.status = "no gamepad (no input devices)"
            return
        self._manager = manager
        manager.push_handlers(on_connect=self.connect, on_disconnect=self.disconnect)
        if found:
            self.connect(found[0])

    def device(self):
        """The pyglet device of the controller in use (None): a joystick on it is not read a second time."""
        return getattr(self.controller, "device", None)

    def connect(self, controller):
        """Start using ``controller`` (if none is in use)."""
        if self.controller is not None:
            return
        try:
            controller.open()
        except Exception as exc:  # already open, or the device vanished again
            if not getattr(controller.device, "is_open", False):
                self.status = f"gamepad unavailable ({exc})"
                return
        controller.push_handlers(on_button_press=self._button_press, on_button_release=self._button_release)
        self.controller = controller
        self.status = f"gamepad: {controller.name or 'connected'}"

    def disconnect(self, controller):
        """Stop using ``controller`` (it was unplugged); controls return to centre."""
        if controller is not self.controller:
            return
        try:
            controller.remove_handlers(on_button_press=self._button_press,
                                       on_button_release=self._button_release)
            controller.close()
        except Exception:
            pass
        self.controller = None
        for action in GAMEPAD_HELD.values():
            self.on_release(action)
        self.status = "gamepad disconnected"

    def _button_press(self, controller, button):
        if button in GAMEPAD_BUTTONS:
            self.on_press(GAMEPAD_BUTTONS[button])
        elif button in GAMEPAD_HELD:
            self.on_press(GAMEPAD_HELD[button])

    def _button_release(self, controller, button):
        if button in GAMEPAD_HELD:
            self.on_release(GAMEPAD_HELD[button])

    def poll(self):
        """Current axes of the controller in use, or None.

        Returns
        -------
        dict or None
            ``elevator`` (left stick pulled back = +, nose up), ``aileron``
            (left stick right = +), ``rudder`` (right stick right = +) and
            ``throttle_rate`` (right trigger minus left trigger, plus the
            right stick pushed forward), ``trim`` (d-pad down = +1, nose up;
            up = -1, nose down) and ``brake`` (1 with the d-pad held left).  The d-pad pressed right calls
            ``on_press("gear")`` once (:data:`GAMEPAD_DPAD_PRESS`).
        """
        c = self.controller
        if c is None:
            return None
        try:
            if getattr(c.device, "connected", True) is False:
                self.disconnect(c)
                return None
            right = float(c.dpad.x) > 0.5
            if right and not self._dpad_right:
                self.on_press(GAMEPAD_DPAD_PRESS["dpright"])
            self._dpad_right = right
            return {
                "elevator": float(c.lefty),            # pyglet: stick down/back is +y
                "aileron": float(c.leftx),
                "rudder": float(c.rightx),
                "throttle_rate": float(c.righttrigger) - float(c.lefttrigger) - float(c.righty),
                "trim": -float(c.dpad.y),             # d-pad up (+y): trim wheel forward, nose down
                "brake": 1.0 if float(c.dpad.x) < -0.5 else 0.0,   # d-pad left
            }
        except Exception:
            self.disconnect(c)
            return None

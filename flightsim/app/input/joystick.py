"""Joysticks, yokes, rudder pedals and throttle quadrants: any axis and any button of any device, as the keymap says.

A flight stick, a yoke or pedals are HID joysticks, not game controllers:
pyglet finds them with ``pyglet.input.get_joysticks()``.  The keymap's
``[[joystick]]`` tables (:class:`JoystickBinding`, read by
:func:`flightsim.app.input.keymap.load_keymap`) say, for the devices whose
name contains ``device`` (or every device, ``"*"``), which axis moves which
control (:class:`AxisBinding`: inverted or not, a dead zone, a response
curve) and which button does which keyboard action.  :class:`Joysticks`
opens every device that has a binding — several at once, a stick beside
pedals beside a throttle quadrant — finds the ones plugged in while flying
(it looks again every :data:`RESCAN_SECONDS`), drops the ones unplugged, and
each frame reads their axes into control values for
:meth:`flightsim.app.input.pilot.Pilot.update`.

Axis values are pyglet's, −1..1.  The centred controls (aileron, elevator,
rudder, elevator trim) take them as they are: +1 is the pilot's sign (roll
right, nose up: the stick pulled back reads +y, as pyglet reports it; nose
right).  The one-sided ones read from −1 (none) to +1 (full): the toe brakes
and a flap lever; a throttle lever the other way, full at −1, as sticks report
a lever pushed forward.  ``invert`` turns an axis round first.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

__all__ = ["AXES", "AXIS_CONTROLS", "CENTRED", "RESCAN_SECONDS", "AxisBinding", "JoystickBinding", "Joysticks",
           "find_joysticks"]

#: pyglet's joystick axes.
AXES = ("x", "y", "z", "rx", "ry", "rz", "hat_x", "hat_y")
#: What an axis can move.
AXIS_CONTROLS = ("aileron", "elevator", "rudder", "throttle", "brake_left", "brake_right", "brakes", "flaps",
                 "elevator_trim")
#: The controls centred at 0 (−1..1); the others are one-sided (0..1).
CENTRED = ("aileron", "elevator", "rudder", "elevator_trim")
#: How often (s) the devices are looked for again, for the ones plugged in while flying.
RESCAN_SECONDS = 2.0


@dataclass(frozen=True)
class AxisBinding:
    """One axis moving one control.

    Attributes
    ----------
    control : str
        One of :data:`AXIS_CONTROLS`.
    invert : bool
        Turn the axis round.
    deadzone : float
        0..0.5: the travel ignored around the centre (a centred control) or at rest (a one-sided one).
    curve : float
        1 (linear) .. 3: the response ``|v|^curve`` (finer control near the centre or at rest).
    """

    control: str
    invert: bool = False
    deadzone: float = 0.0
    curve: float = 1.0

    def value(self, raw):
        """The control's value for the axis reading ``raw`` (−1..1; a non-finite reading is the axis at rest)."""
        v = min(max(raw, -1.0), 1.0) if math.isfinite(raw) else (0.0 if self.control in CENTRED else -1.0)
        if self.invert:
            v = -v
        if self.control in CENTRED:
            magnitude = abs(v)
            if magnitude <= self.deadzone:
                return 0.0
            return math.copysign(((magnitude - self.deadzone) / (1.0 - self.deadzone)) ** self.curve, v)
        u = (1.0 - v) / 2.0 if self.control == "throttle" else (v + 1.0) / 2.0
        if u <= self.deadzone:
            return 0.0
        return ((u - self.deadzone) / (1.0 - self.deadzone)) ** self.curve


@dataclass(frozen=True)
class JoystickBinding:
    """A ``[[joystick]]`` table: the devices it is for, their axes and their buttons.

    Attributes
    ----------
    device : str
        A case-insensitive part of the device's name, or ``"*"`` (any device).
    axes : dict of str to AxisBinding
        By pyglet axis name (:data:`AXES`).
    buttons : dict of int to str
        Button index → a keyboard action (:data:`flightsim.app.input.keymap.ACTIONS`).
    where : str
        ``joystick[k]``: for messages.
    """

    device: str
    axes: dict = field(default_factory=dict)
    buttons: dict = field(default_factory=dict)
    where: str = ""

    def matches(self, name):
        """Whether a device called ``name`` takes this binding."""
        return self.device == "*" or self.device.lower() in (name or "").lower()


_CANNOT_LOOK = []


def find_joysticks():
    """The joysticks pyglet finds (``pyglet.input.get_joysticks()``); none where it cannot look (no input devices,
    no permission, or no X display: on Linux pyglet's input module needs one), and then it does not try again."""
    if _CANNOT_LOOK:
        return []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pyglet.input

            return list(pyglet.input.get_joysticks())
    except Exception as exc:
        _CANNOT_LOOK.append(exc)
        return []


def _reading(joystick, axis):
    """An axis's reading, −1..1, from its control's value: pyglet's ``Joystick`` attribute changes only with the
    device's next event, but the control holds the device's state from the start (pedals at rest read released,
    not half braked), normalised as pyglet normalises it."""
    control = getattr(joystick, f"{axis}_control", None)
    if control is None or control.value is None or control.max == control.min:
        return float(getattr(joystick, axis))
    value = (control.value - control.min) * 2.0 / (control.max - control.min) - 1.0
    return -value if getattr(control, "inverted", False) else value


def _name(joystick):
    return getattr(joystick.device, "name", None) or "joystick"


def _device_key(device):
    """What tells a device from another across two looks (pyglet makes new objects each time)."""
    return (getattr(device, "name", None) or "joystick",
            getattr(device, "_filename", None) or getattr(device, "path", None) or id(device))


def _key(joystick):
    return _device_key(joystick.device)


class Joysticks:
    """Every bound joystick, several at once, hot-plugged.

    Parameters
    ----------
    bindings : sequence of JoystickBinding
        The keymap's; a device takes the first that matches its name (none: it is left alone).
    on_press, on_release : callable
        Called with an action when a bound button goes down / up.
    find : callable, optional
        ``find()`` → the joysticks plugged in now (default :func:`find_joysticks`; the tests give fakes).
    skip : callable, optional
        ``skip()`` → the pyglet device of the game controller in use, which is not read twice.

    Attributes
    ----------
    open : list of (joystick, JoystickBinding)
        The devices read now.
    """

    def __init__(self, bindings, on_press, on_release, find=find_joysticks, skip=None):
        self.bindings = tuple(bindings)
        self.on_press = on_press
        self.on_release = on_release
        self.find = find
        self.skip = skip
        self.open = []
        self._held = {}           # joystick key → set of held actions
        self._since_scan = math.inf

    @property
    def status(self):
        """One line for the HUD: the devices read, or None."""
        if not self.open:
            return None
        return "; ".join(f"{_name(js)} ({', '.join(f'{a} {b.control}' for a, b in binding.axes.items()) or 'buttons'})"
                         for js, binding in self.open)

    def scan(self):
        """Open the bound devices plugged in since the last look."""
        self._since_scan = 0.0
        if not self.bindings:
            return
        known = {_key(js) for js, _ in self.open}
        skipped = self.skip() if self.skip is not None else None
        if skipped is not None:
            known.add(_device_key(skipped))
        for js in self.find():
            if _key(js) in known:
                continue
            binding = next((b for b in self.bindings if b.matches(_name(js))), None)
            if binding is None:
                continue
            try:
                js.open()
            except Exception:           # gone again, or no permission: looked for again at the next scan
                if not getattr(js.device, "is_open", False):
                    continue
            self._attach(js, binding)

    def _attach(self, js, binding):
        def press(joystick, button):
            action = binding.buttons.get(button)
            if action is not None:
                self._held.setdefault(_key(joystick), set()).add(action)
                self.on_press(action)

        def release(joystick, button):
            action = binding.buttons.get(button)
            if action is not None:
                self._held.get(_key(joystick), set()).discard(action)
                self.on_release(action)

        js.push_handlers(on_joybutton_press=press, on_joybutton_release=release)
        self.open.append((js, binding))

    def unplugged(self, js):
        """Stop reading ``js`` (it was unplugged): its held buttons are released."""
        self.open = [(j, b) for j, b in self.open if j is not js]
        for action in self._held.pop(_key(js), ()):
            self.on_release(action)
        try:
            js.close()
        except Exception:
            pass

    def close(self):
        """Stop reading every device."""
        for js, _ in list(self.open):
            self.unplugged(js)

    def poll(self, dt):
        """The controls the devices' axes ask for now: ``{control: value}`` (centred −1..1, one-sided 0..1; of two
        axes on one control, the one further from rest)."""
        self._since_scan += dt if math.isfinite(dt) else 0.0
        if self._since_scan >= RESCAN_SECONDS:
            self.scan()
        out = {}
        for js, binding in list(self.open):
            try:
                if getattr(js.device, "is_open", True) is False or getattr(js.device, "connected", True) is False:
                    raise OSError("unplugged")      # (pyglet closes a device it can no longer read)
                readings = {axis: _reading(js, axis) for axis in binding.axes}
            except Exception:
                self.unplugged(js)
                continue
            for axis, axis_binding in binding.axes.items():
                value = axis_binding.value(readings[axis])
                if abs(value) > abs(out.get(axis_binding.control, 0.0)):
                    out[axis_binding.control] = value
                else:
                    out.setdefault(axis_binding.control, value)
        return out

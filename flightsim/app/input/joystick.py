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
import os
import tomllib
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from flightsim.errors import InputError

__all__ = ["AXES", "AXIS_CONTROLS", "CENTRED", "CALIBRATION_FILE", "RESCAN_SECONDS", "AxisBinding", "AxisReadout",
           "Calibration", "DeviceReadout", "JoystickBinding", "Joysticks", "axis_readings", "calibration_path",
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
#: The calibration file's name, beside the keymap (:func:`calibration_path`).
CALIBRATION_FILE = "joystick-calibration.toml"
#: An axis moved through less than this (of −1..1) while calibrating keeps its full range.
MIN_TRAVEL = 0.2


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


def calibration_path(keymap_source, shipped):
    """Where the calibration is kept: beside the user's keymap file; with the shipped keymap (inside the installed
    package, maybe read-only) in the user's configuration folder (``$XDG_CONFIG_HOME/flightsim``, else
    ``~/.config/flightsim``)."""
    if keymap_source and Path(keymap_source) != Path(shipped):
        return Path(keymap_source).with_name(CALIBRATION_FILE)
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "flightsim" / CALIBRATION_FILE


class Calibration:
    """Each device's axis ranges, measured by moving the axes through their travel, kept in a TOML file.

    The file has a table per device name, an axis's range as ``[low, high]`` in pyglet's −1..1::

        ["Saitek Pro Flight Rudder Pedals"]
        x = [-1.0, 0.62]

    A calibrated axis reads −1 at ``low`` and +1 at ``high`` (clipped beyond): worn pedals that never reach
    their end still brake fully.

    Parameters
    ----------
    path : Path
        The file (read if it exists: a bad one raises :class:`~flightsim.errors.InputError`, one line).
    """

    def __init__(self, path):
        self.path = Path(path)
        self.ranges = {}
        self.recording = {}          # device name → {axis: [low, high]} while its axes are measured
        if self.path.is_file():
            self.ranges = self._read()

    def _read(self):
        try:
            data = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InputError(self.path, "", f"cannot read: {exc}") from None
        ranges = {}
        for name, axes in data.items():
            if not isinstance(axes, dict):
                raise InputError(self.path, name, "must be a table of axis = [low, high]")
            for axis, pair in axes.items():
                if axis not in AXES:
                    raise InputError(self.path, f"{name}.{axis}", f"unknown axis (axes: {', '.join(AXES)})")
                ok = (isinstance(pair, list) and len(pair) == 2
                      and all(isinstance(v, (int, float)) and not isinstance(v, bool) and -1.0 <= v <= 1.0
                              for v in pair)
                      and pair[1] - pair[0] >= MIN_TRAVEL)
                if not ok:
                    raise InputError(self.path, f"{name}.{axis}", f"must be [low, high] within -1..1, high at least "
                                                                  f"{MIN_TRAVEL} above low, got {pair!r}")
                ranges.setdefault(name, {})[axis] = (float(pair[0]), float(pair[1]))
        return ranges

    def apply(self, name, axis, reading):
        """``reading`` through the device's calibrated range of ``axis`` (as it is where there is none); while the
        device is being calibrated, its range so far grows to take the reading in."""
        measured = self.recording.get(name)
        if measured is not None and math.isfinite(reading):
            low, high = measured.setdefault(axis, [reading, reading])
            measured[axis] = [min(low, reading), max(high, reading)]
        low, high = self.ranges.get(name, {}).get(axis, (-1.0, 1.0))
        if (low, high) == (-1.0, 1.0) or not math.isfinite(reading):
            return reading
        return min(max((reading - low) * 2.0 / (high - low) - 1.0, -1.0), 1.0)

    def start(self, name):
        """Measure the axes of the device ``name`` from now."""
        self.recording[name] = {}

    def finish(self, name):
        """Stop measuring ``name``; keep the axes that travelled at least :data:`MIN_TRAVEL` and write the file.

        Returns
        -------
        tuple of str
            The axes calibrated.

        Raises
        ------
        OSError
            The file cannot be written (nothing is left behind; the ranges stay for this flight).
        """
        from flightsim.files import atomic_write

        measured = self.recording.pop(name, {})
        kept = {a: (lo, hi) for a, (lo, hi) in measured.items() if hi - lo >= MIN_TRAVEL}
        if kept:
            self.ranges.setdefault(name, {}).update(kept)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lines = ["# flightsim joystick calibration: each axis's range, [low, high] of pyglet's -1..1, by device",
                     "# (written by the Input panel's Calibrate button; delete a line to use the axis's full range)"]
            for device, axes in sorted(self.ranges.items()):
                lines.append(f"\n[{_toml_key(device)}]")
                lines += [f"{axis} = [{lo:.4f}, {hi:.4f}]" for axis, (lo, hi) in sorted(axes.items())]
            with atomic_write(self.path, "w") as f:
                f.write("\n".join(lines) + "\n")
        return tuple(sorted(kept))


def _toml_key(name):
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class AxisReadout:
    """One bound axis as the Input panel shows it: pyglet's name, the control, the reading and the control's value."""

    axis: str
    control: str
    reading: float
    value: float


@dataclass(frozen=True)
class DeviceReadout:
    """A device as the Input panel shows it."""

    name: str
    binding: str
    axes: tuple
    calibrating: bool


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


def axis_readings(joystick):
    """Every axis the device has, by pyglet name, with its reading −1..1."""
    return {axis: _reading(joystick, axis) for axis in AXES if getattr(joystick, f"{axis}_control", None) is not None}


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

    def __init__(self, bindings, on_press, on_release, find=find_joysticks, skip=None, calibration=None):
        self.bindings = tuple(bindings)
        #: each device's measured axis ranges (:class:`Calibration`), or None
        self.calibration = calibration
        self.on_press = on_press
        self.on_release = on_release
        self.find = find
        self.skip = skip
        self.open = []
        self._held = {}           # joystick key → set of held actions
        self._since_scan = math.inf

    @property
    def status(self):
        """A short line for the HUD: the device read, or how many (the Input panel lists them), or None."""
        if not self.open:
            return None
        if len(self.open) == 1:
            name = _name(self.open[0][0])
            return f"joystick: {name if len(name) <= 32 else name[:31] + '…'}"
        return f"{len(self.open)} joysticks"

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

    def readout(self):
        """The Input panel's :class:`DeviceReadout` of each device read now."""
        out = []
        calibrating = self.calibration.recording if self.calibration is not None else {}
        for js, binding in self.open:
            name, axes = _name(js), []
            for axis, reading in axis_readings(js).items():
                if self.calibration is not None:
                    reading = self.calibration.apply(name, axis, reading)
                bound = binding.axes.get(axis)
                axes.append(AxisReadout(axis, bound.control if bound else "", reading,
                                        bound.value(reading) if bound else 0.0))
            out.append(DeviceReadout(name, f"{binding.where} (device = {binding.device!r})", tuple(axes),
                                     name in calibrating))
        return tuple(out)

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
                reading = readings[axis]
                if self.calibration is not None:
                    reading = self.calibration.apply(_name(js), axis, reading)
                value = axis_binding.value(reading)
                if abs(value) > abs(out.get(axis_binding.control, 0.0)):
                    out[axis_binding.control] = value
                else:
                    out.setdefault(axis_binding.control, value)
        return out

"""The keyboard map: which keys fly the airplane (and which joystick axes and buttons), read from TOML and validated.

The defaults live in ``configs/keymap.toml`` (:data:`DEFAULT_KEYMAP`), which
also documents the format.  A user file given with ``--keymap`` is merged
over them: the actions it lists replace the default bindings, and a key it
binds is taken away from any other default action; its ``[[joystick]]`` tables
come before the shipped ones (a device takes the first that matches, see
:mod:`flightsim.app.input.joystick`).  Problems raise
:class:`flightsim.errors.InputError` naming the file, the field and the
reason, e.g. ``keymap.toml: keys.pitch_up: unknown key name 'FOO'``.

Key names are pyglet's (``pyglet.window.key``), so this module imports
pyglet's window package: configure pyglet (:func:`flightsim.app.window.configure_pyglet`)
before calling :func:`load_keymap`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from flightsim.app.input.joystick import (
    AXES,
    AXIS_CONTROLS,
    AxisBinding,
    Calibration,
    JoystickBinding,
    calibration_path,
)
from flightsim.errors import InputError
from flightsim.resources import data_file
from flightsim.schema import Checker, Number, did_you_mean, join, read_toml, type_name

__all__ = ["ACTIONS", "DEFAULT_KEYMAP", "HELD_ACTIONS", "Keymap", "key_codes", "load_keymap"]

DEFAULT_KEYMAP = data_file("configs", "keymap.toml")
"""The default keyboard map."""

HELD_ACTIONS = ("pitch_down", "pitch_up", "roll_left", "roll_right", "yaw_left", "yaw_right",
                "throttle_up", "throttle_down", "trim_nose_down", "trim_nose_up")
"""Actions that act while their key is held."""
HELD_ACTIONS += ("brake",)           # the wheel brakes, while held

PRESS_ACTIONS = ("flaps_down", "flaps_up", "pause", "reset", "camera", "screenshot", "help", "hud", "quit",
                 "ghost", "ghost_resync", "record", "trim_now", "dynamics")
"""Actions that act once per key press."""
PRESS_ACTIONS += ("parking_brake",)  # set / release the parking brake
PRESS_ACTIONS += ("autopilot",)      # the autopilot on (heading and altitude held where they are) / off
PRESS_ACTIONS += ("engine",)         # the engine off (mixture cut, magnetos off) / running again
PRESS_ACTIONS += ("mute",)           # the sound off / on
PRESS_ACTIONS += ("devices",)        # the Input panel (joysticks, their axes, calibration) on / off
PRESS_ACTIONS += ("map",)            # the map panel on / off
PRESS_ACTIONS += ("gear",)           # the gear lever up / down (an aircraft whose gear retracts)
PRESS_ACTIONS += ("instructor",)     # the Instructor panel (failures) on / off

ACTIONS = HELD_ACTIONS + PRESS_ACTIONS
"""Every action a key can be bound to."""

_RATES = {"deflect": Number(ge=0.05, le=100.0, unit="per s"), "center": Number(ge=0.05, le=100.0, unit="per s"),
          "throttle": Number(ge=0.01, le=10.0, unit="per s"), "flaps": Number(ge=0.01, le=10.0, unit="per s"),
          "trim": Number(ge=0.01, le=10.0, unit="per s")}
_GAMEPAD = {"dead_zone": Number(ge=0.0, le=0.9)}
_SECTIONS = ("keys", "rates", "gamepad", "joystick")
_AXIS = {"control": None, "invert": None, "deadzone": Number(ge=0.0, le=0.5), "curve": Number(ge=1.0, le=3.0)}

_codes_cache = None


def key_codes() -> dict:
    """pyglet key symbols by upper-case name (``"UP"``, ``"A"``, ``"1"``, ``"F12"``, ...)."""
    global _codes_cache
    if _codes_cache is None:
        from pyglet.window import key

        codes = {}
        for name in dir(key):
            value = getattr(key, name)
            if not isinstance(value, int) or name.startswith(("MOD_", "MOTION_")):
                continue
            if name.isupper():
                codes[name] = value
            elif name.startswith("_") and name[1:].isdigit():
                codes[name[1:]] = value
        _codes_cache = codes
    return _codes_cache


@dataclass
class Keymap:
    """A validated keyboard map.

    Attributes
    ----------
    keys : dict of str to tuple of str
        Key names bound to each action (every action present, maybe empty).
    rates : dict of str to float
        ``deflect``, ``center``, ``throttle``, ``flaps``, ``trim`` (per second).
    dead_zone : float
        Gamepad stick dead zone, 0..0.9.
    joysticks : tuple of flightsim.app.input.joystick.JoystickBinding
        The ``[[joystick]]`` tables: which device's axes and buttons do what.
    source : str
        Where it came from (for messages).
    """

    keys: dict
    rates: dict
    dead_zone: float
    joysticks: tuple = ()
    source: str = ""
    _by_code: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        codes = key_codes()
        self._by_code = {codes[name]: action for action, names in self.keys.items() for name in names}

    def calibration(self):
        """The joysticks' :class:`~flightsim.app.input.joystick.Calibration`, kept beside this keymap (the shipped
        one's in the user's configuration folder); raises InputError for a bad calibration file."""
        return Calibration(calibration_path(self.source, DEFAULT_KEYMAP))

    def action(self, symbol):
        """The action bound to pyglet key ``symbol``, or None."""
        return self._by_code.get(symbol)

    def describe(self, action) -> str:
        """Human-readable keys of ``action`` (``"UP / W"``), or ``"-"``."""
        names = self.keys.get(action, ())
        return " / ".join(_pretty(n) for n in names) if names else "-"


_PRETTY = {"EQUAL": "=", "MINUS": "-", "NUM_ADD": "Num +", "NUM_SUBTRACT": "Num -", "PAGEUP": "PgUp",
           "PAGEDOWN": "PgDn", "ESCAPE": "Esc", "UP": "Up", "DOWN": "Down", "LEFT": "Left", "RIGHT": "Right",
           "PAUSE": "Pause", "SPACE": "Space", "RETURN": "Enter", "HOME": "Home", "END": "End",
           "BRACKETLEFT": "[", "BRACKETRIGHT": "]", "PERIOD": ".", "COMMA": ","}


def _pretty(name):
    return _PRETTY.get(name, name)


def _parse_keys(check, table):
    """Validate a ``[keys]`` table; return {action: tuple of upper-case names}."""
    if not isinstance(table, dict):
        check.fail("keys", f"must be a table of action = key(s), got {type_name(table)}")
    codes = key_codes()
    out, owner = {}, {}
    for action, value in table.items():
        where = join("keys", action)
        check.choice(action, where, ACTIONS, noun="action", label="actions")
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            check.fail(where, "must be a key name or a list of key names")
        cleaned = []
        for name in names:
            upper = name.strip().upper()
            if upper not in codes:
                check.fail(where, f"unknown key name {name!r}{did_you_mean(upper, codes)}")
            if upper in owner and owner[upper] != action:
                check.fail(where, f"key {upper!r} is already bound to {owner[upper]!r}")
            owner[upper] = action
            if upper not in cleaned:
                cleaned.append(upper)
        out[action] = tuple(cleaned)
    return out


def _parse_numbers(check, section, table, rules):
    """A table of numeric settings, each optional; return {name: float}."""
    if not isinstance(table, dict):
        check.fail(section, f"must be a table, got {type_name(table)}")
    for name in table:
        check.choice(name, join(section, name), rules, noun="setting", label="settings")
    return check.fields(table, section, {}, optional=rules)


def _parse_axis(check, value, where):
    """An axis: a control's name, or a table ``{control = ..., invert = ..., deadzone = ..., curve = ...}``."""
    if isinstance(value, str):
        value = {"control": value}
    if not isinstance(value, dict):
        check.fail(where, f"must be a control name or a table with control, invert, deadzone, curve, got "
                          f"{type_name(value)}")
    check.table(value, where, ("control",), ("invert", "deadzone", "curve"))
    control = check.choice(value["control"], join(where, "control"), AXIS_CONTROLS, noun="control",
                           label="controls")
    invert = check.boolean(value.get("invert", False), join(where, "invert"))
    numbers = check.fields({k: v for k, v in value.items() if k in ("deadzone", "curve")}, where, {},
                           optional={k: _AXIS[k] for k in ("deadzone", "curve")})
    return AxisBinding(control, invert, numbers.get("deadzone", 0.0), numbers.get("curve", 1.0))


def _table_of(check, table, where, key, entries):
    """``table[key]`` (empty if absent), which must be a table of ``entries``."""
    value = table.get(key, {})
    if not isinstance(value, dict):
        check.fail(join(where, key), f"must be a table of {entries}, got {type_name(value)}")
    return value


def _parse_joysticks(check, tables):
    """Validate the ``[[joystick]]`` array of tables; return a tuple of :class:`JoystickBinding`."""
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        check.fail("joystick", "must be an array of tables ([[joystick]])")
    out = []
    for k, table in enumerate(tables):
        where = f"joystick[{k}]"
        check.table(table, where, ("device",), ("axes", "buttons"))
        device = check.string(table["device"], join(where, "device")).strip()
        axes = {}
        for axis, value in _table_of(check, table, where, "axes", "axis = control").items():
            here = join(join(where, "axes"), axis)
            check.choice(axis, here, AXES, noun="axis", label="axes")
            axes[axis] = _parse_axis(check, value, here)
        buttons = {}
        for index, action in _table_of(check, table, where, "buttons", "button = action").items():
            here = join(join(where, "buttons"), index)
            if not index.isdigit() or int(index) > 127:
                check.fail(here, "a button is its number, 0..127")
            buttons[int(index)] = check.choice(action, here, ACTIONS, noun="action", label="actions")
        out.append(JoystickBinding(device, axes, buttons, where))
    return tuple(out)


def _parse(path):
    check = Checker(path)
    data = read_toml(path, empty_ok=True)
    for section in data:
        check.choice(section, section, _SECTIONS, noun="section", label="sections")
    return (_parse_keys(check, data.get("keys", {})),
            _parse_numbers(check, "rates", data.get("rates", {}), _RATES),
            _parse_numbers(check, "gamepad", data.get("gamepad", {}), _GAMEPAD),
            _parse_joysticks(check, data.get("joystick", [])))


def load_keymap(path=None) -> Keymap:
    """Load the default keymap, merged with the user file ``path`` if given.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A user keymap TOML.

    Returns
    -------
    Keymap

    Raises
    ------
    flightsim.errors.InputError
        Unreadable file, bad TOML, unknown section, action, key name or
        setting, a key bound to two actions in one file, a value of the
        wrong type or out of range.
    """
    keys, rates, pad, joysticks = _parse(DEFAULT_KEYMAP)
    missing = [a for a in ACTIONS if a not in keys] + [r for r in _RATES if r not in rates]
    if missing or "dead_zone" not in pad:
        raise InputError(DEFAULT_KEYMAP, "", f"default keymap incomplete: {', '.join(missing) or 'dead_zone'}")
    source = str(DEFAULT_KEYMAP)
    if path is not None:
        user_keys, user_rates, user_pad, user_joysticks = _parse(Path(path))
        taken = {name for names in user_keys.values() for name in names}
        keys = {a: tuple(n for n in names if n not in taken) for a, names in keys.items()}
        keys.update(user_keys)
        rates.update(user_rates)
        pad.update(user_pad)
        joysticks = user_joysticks + joysticks         # the user's first: a device takes the first that matches
        source = str(path)
    return Keymap(keys, rates, pad["dead_zone"], joysticks, source)

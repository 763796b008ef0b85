"""The keyboard map: which keys fly the airplane, read from TOML and validated.

The defaults live in ``configs/keymap.toml`` (:data:`DEFAULT_KEYMAP`), which
also documents the format.  A user file given with ``--keymap`` is merged
over them: the actions it lists replace the default bindings, and a key it
binds is taken away from any other default action.  Problems raise
:class:`flightsim.errors.InputError` naming the file, the field and the
reason, e.g. ``keymap.toml: keys.pitch_up: unknown key name 'FOO'``.

Key names are pyglet's (``pyglet.window.key``), so this module imports
pyglet's window package: configure pyglet (:func:`flightsim.app.window.configure_pyglet`)
before calling :func:`load_keymap`.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from flightsim.errors import InputError
from flightsim.resources import data_file

__all__ = ["ACTIONS", "DEFAULT_KEYMAP", "HELD_ACTIONS", "Keymap", "key_codes", "load_keymap"]

DEFAULT_KEYMAP = data_file("configs", "keymap.toml")
"""The default keyboard map."""

HELD_ACTIONS = ("pitch_down", "pitch_up", "roll_left", "roll_right", "yaw_left", "yaw_right",
                "throttle_up", "throttle_down")
"""Actions that act while their key is held."""

PRESS_ACTIONS = ("flaps_down", "flaps_up", "pause", "reset", "camera", "screenshot", "help", "hud", "quit",
                 "ghost", "ghost_resync", "record")
"""Actions that act once per key press."""

ACTIONS = HELD_ACTIONS + PRESS_ACTIONS
"""Every action a key can be bound to."""

_RATES = {"deflect": (0.05, 100.0), "center": (0.05, 100.0), "throttle": (0.01, 10.0), "flaps": (0.01, 10.0)}
_GAMEPAD = {"dead_zone": (0.0, 0.9)}
_SECTIONS = ("keys", "rates", "gamepad")

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
        ``deflect``, ``center``, ``throttle``, ``flaps`` (per second).
    dead_zone : float
        Gamepad stick dead zone, 0..0.9.
    source : str
        Where it came from (for messages).
    """

    keys: dict
    rates: dict
    dead_zone: float
    source: str = ""
    _by_code: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        codes = key_codes()
        self._by_code = {codes[name]: action for action, names in self.keys.items() for name in names}

    def action(self, symbol):
        """The action bound to pyglet key ``symbol``, or None."""
        return self._by_code.get(symbol)

    def describe(self, action) -> str:
        """Human-readable keys of ``action`` (``"UP / W"``), or ``"-"``."""
        names = self.keys.get(action, ())
        return " / ".join(_pretty(n) for n in names) if names else "-"


_PRETTY = {"EQUAL": "=", "MINUS": "-", "NUM_ADD": "Num +", "NUM_SUBTRACT": "Num -", "PAGEUP": "PgUp",
           "PAGEDOWN": "PgDn", "ESCAPE": "Esc", "UP": "Up", "DOWN": "Down", "LEFT": "Left", "RIGHT": "Right",
           "PAUSE": "Pause", "SPACE": "Space", "RETURN": "Enter"}


def _pretty(name):
    return _PRETTY.get(name, name)


def _read(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise InputError(path, "", "file not found") from None
    except IsADirectoryError:
        raise InputError(path, "", "is a directory, not a keymap file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(path, "", f"not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(path, "", "not UTF-8 text (is it a TOML file?)") from None
    except OSError as exc:
        raise InputError(path, "", f"cannot read file: {exc.strerror or exc}") from None


def _hint(word, choices):
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _parse_keys(path, table):
    """Validate a ``[keys]`` table; return {action: tuple of upper-case names}."""
    if not isinstance(table, dict):
        raise InputError(path, "keys", "must be a table of action = key(s)")
    codes = key_codes()
    out, owner = {}, {}
    for action, value in table.items():
        where = f"keys.{action}"
        if action not in ACTIONS:
            raise InputError(path, where, f"unknown action {action!r}{_hint(action, ACTIONS)} "
                             f"(actions: {', '.join(ACTIONS)})")
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise InputError(path, where, "must be a key name or a list of key names")
        cleaned = []
        for name in names:
            upper = name.strip().upper()
            if upper not in codes:
                raise InputError(path, where, f"unknown key name {name!r}{_hint(upper, codes)}")
            if upper in owner and owner[upper] != action:
                raise InputError(path, where, f"key {upper!r} is already bound to {owner[upper]!r}")
            owner[upper] = action
            if upper not in cleaned:
                cleaned.append(upper)
        out[action] = tuple(cleaned)
    return out


def _parse_numbers(path, section, table, limits):
    if not isinstance(table, dict):
        raise InputError(path, section, "must be a table")
    out = {}
    for name, value in table.items():
        where = f"{section}.{name}"
        if name not in limits:
            raise InputError(path, where, f"unknown setting {name!r}{_hint(name, limits)} "
                             f"(settings: {', '.join(limits)})")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(path, where, f"must be a number, got {type(value).__name__}")
        lo, hi = limits[name]
        if not lo <= value <= hi:
            raise InputError(path, where, f"must be between {lo:g} and {hi:g}, got {value!r}")
        out[name] = float(value)
    return out


def _parse(path):
    data = _read(path)
    for section in data:
        if section not in _SECTIONS:
            raise InputError(path, section, f"unknown section {section!r}{_hint(section, _SECTIONS)} "
                             f"(sections: {', '.join(_SECTIONS)})")
    return (_parse_keys(path, data.get("keys", {})),
            _parse_numbers(path, "rates", data.get("rates", {}), _RATES),
            _parse_numbers(path, "gamepad", data.get("gamepad", {}), _GAMEPAD))


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
    keys, rates, pad = _parse(DEFAULT_KEYMAP)
    missing = [a for a in ACTIONS if a not in keys] + [r for r in _RATES if r not in rates]
    if missing or "dead_zone" not in pad:
        raise InputError(DEFAULT_KEYMAP, "", f"default keymap incomplete: {', '.join(missing) or 'dead_zone'}")
    source = str(DEFAULT_KEYMAP)
    if path is not None:
        user_keys, user_rates, user_pad = _parse(Path(path))
        taken = {name for names in user_keys.values() for name in names}
        keys = {a: tuple(n for n in names if n not in taken) for a, names in keys.items()}
        keys.update(user_keys)
        rates.update(user_rates)
        pad.update(user_pad)
        source = str(path)
    return Keymap(keys, rates, pad["dead_zone"], source)

"""One way to read and check the TOML files a user writes: aircraft, keymap, airplane model.

:func:`read_toml` turns a file into a dict, and a :class:`Checker` checks the
parsed values field by field.  Every problem is one
:class:`~flightsim.errors.InputError` naming the file, the field as a dotted
path with indices and the reason, the same way for every file::

    bourg.toml: propulsion.max_thrust: must be <= 1e+06, got 1e+300 (accepted range 0..1e+06 lbf)
    bourg.toml: elements[0].flap.gian: unknown key; did you mean 'gain'? (valid keys: input, gain)
    keys.toml: line 1, column 6: not valid TOML: Expected ']' at the end of a table declaration

A loader calls the checker's methods on the parsed values (:meth:`Checker.table`,
:meth:`Checker.number`, :meth:`Checker.numbers`, :meth:`Checker.string`,
:meth:`Checker.choice`, ...) or, for a table of plain fields, gives
:meth:`Checker.fields` a rule per key (:class:`Number`, :class:`Numbers`,
:class:`Text`, or any callable ``rule(checker, value, where)``).

Pure Python: no numpy, so every layer can use it.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from flightsim.errors import InputError

__all__ = ["Checker", "Number", "Numbers", "Text", "did_you_mean", "join", "read_toml", "show", "type_name"]

_TOML_POSITION = re.compile(r"\s*\((?:at )?(line \d+, column \d+|end of document)\)\s*$")


def read_toml(path, *, empty_ok=False):
    """Parse a TOML file into a dict; every failure is an :class:`InputError` naming the file.

    Syntax errors name the line and column (``where`` is ``"line 3, column 7"``).
    ``empty_ok`` accepts a file with no settings (an empty dict), for files
    that only change defaults.

    Raises
    ------
    flightsim.errors.InputError
        The file is missing, a folder or unreadable, not UTF-8, not valid
        TOML, or (unless ``empty_ok``) empty or only comments.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "", "file not found") from None
    except IsADirectoryError:
        raise InputError(path, "", "cannot read file: it is a folder") from None
    except OSError as exc:
        raise InputError(path, "", f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"byte {exc.start}", "not UTF-8 text (is it a TOML file?)") from None
    if not text.strip() and not empty_ok:
        raise InputError(path, "", "file is empty")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        where = match.group(1) if match else ""
        reason = message[:match.start()] if match else message
        raise InputError(path, where, f"not valid TOML: {reason}") from None
    except RecursionError:
        raise InputError(path, "", "not valid TOML: nested too deeply") from None
    except ValueError as exc:   # e.g. an integer literal with too many digits
        raise InputError(path, "", f"not valid TOML: {exc}") from None
    if not data and not empty_ok:
        raise InputError(path, "", "file has no settings (only comments?)")
    return data


def join(where, key):
    """Dotted path of ``key`` inside ``where`` (``join("elements[3]", "mass")``)."""
    return f"{where}.{key}" if where else str(key)


def type_name(value):
    """The TOML name of a parsed value's type."""
    if isinstance(value, bool):
        return "boolean"
    names = {int: "integer", float: "float", str: "string", list: "array", dict: "table"}
    return names.get(type(value), "date/time")


def show(value):
    """A parsed value as a short phrase for a message (``"string 'x'"``, ``"1.5"``)."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return f"array of {len(value)} values"
    return type_name(value)


def did_you_mean(word, choices):
    """A ``"; did you mean 'x'?"`` hint for a misspelt ``word``, or an empty string."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


# ---------------------------------------------------------------------------
# Rules for Checker.fields
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Number:
    """A finite number within bounds (see :meth:`Checker.number`); ``integer`` asks for a whole number."""

    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    unit: str = ""
    integer: bool = False

    def __call__(self, check, value, where):
        bounds = dict(gt=self.gt, ge=self.ge, lt=self.lt, le=self.le, unit=self.unit)
        if self.integer:
            return check.integer(value, where, **bounds)
        return check.number(value, where, **bounds)


@dataclass(frozen=True)
class Numbers:
    """An array of numbers, each checked by ``item`` (see :meth:`Checker.numbers`)."""

    item: Number = Number()
    length: int | None = None
    min_length: int = 1
    increasing: bool | str = False

    def __call__(self, check, value, where):
        return check.numbers(value, where, length=self.length, min_length=self.min_length,
                             increasing=self.increasing, item=self.item)


@dataclass(frozen=True)
class Text:
    """A non-empty string, one of ``choices`` if given (see :meth:`Checker.string`)."""

    choices: tuple | None = None

    def __call__(self, check, value, where):
        return check.string(value, where, self.choices)


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------

def _bound(x):
    return f"{x:g}"


class Checker:
    """Checks one file's parsed values; every failure is an :class:`InputError` naming ``source``.

    Parameters
    ----------
    source : str or os.PathLike
        The file, named in every error.
    """

    def __init__(self, source):
        self.source = str(source)

    def fail(self, where, reason):
        """Raise :class:`InputError` for field ``where``."""
        raise InputError(self.source, where, reason)

    # ------------------------------------------------------------------ tables and keys

    def table(self, value, where, required=(), optional=()):
        """A TOML table whose keys are ``required`` plus maybe ``optional``; return it.

        Unknown keys are reported first (with the closest valid key), then
        missing ones, each at its own path.
        """
        if not isinstance(value, dict):
            self.fail(where, f"must be a table, got {type_name(value)}")
        allowed = (*required, *optional)
        for key in value:
            if key not in allowed:
                self.fail(join(where, key), "unknown key" + did_you_mean(key, allowed)
                          + f" (valid keys: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.fail(join(where, key), "required key is missing")
        return value

    def fields(self, value, where, rules, optional=None):
        """Check a table of plain fields, one rule per key; return ``{key: checked value}``.

        Parameters
        ----------
        rules, optional : dict of str to callable
            ``rule(checker, value, where)`` returns the checked value (see
            :class:`Number`, :class:`Numbers`, :class:`Text`).  Keys of
            ``rules`` are required; keys of ``optional`` may be left out (and
            are then absent from the result).
        """
        optional = optional or {}
        self.table(value, where, tuple(rules), tuple(optional))
        out = {}
        for key, rule in (*rules.items(), *optional.items()):
            if key in value:
                out[key] = rule(self, value[key], join(where, key))
        return out

    def choice(self, value, where, choices, noun="value", label="valid"):
        """``value`` must be one of ``choices``: ``unknown {noun} 'x'; did you mean 'y'? ({label}: ...)``.

        ``label=None`` leaves the list of choices out (when it is long).
        """
        if value not in choices:
            listing = f" ({label}: {', '.join(map(str, choices))})" if label else ""
            self.fail(where, f"unknown {noun} {value!r}" + did_you_mean(value, choices) + listing)
        return value

    # ------------------------------------------------------------------ values

    def string(self, value, where, choices=None):
        """A non-empty string, optionally one of ``choices``."""
        if not isinstance(value, str):
            self.fail(where, f"must be a string, got {show(value)}")
        if not value.strip():
            self.fail(where, "must not be empty")
        if choices is not None:
            self.choice(value, where, choices)
        return value

    def boolean(self, value, where):
        """``true`` or ``false``."""
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, got {show(value)}")
        return value

    def number(self, value, where, *, gt=None, ge=None, lt=None, le=None, unit=""):
        """A finite int or float (not a boolean) within bounds, as float.

        A value out of bounds reads ``must be > 0, got -1.0``; when the field
        has a lower and an upper bound the accepted range follows, with its
        ``unit``: ``must be <= 1e+06, got 1e+300 (accepted range 0..1e+06 lbf)``.
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number, got {show(value)}")
        try:
            x = float(value)
        except OverflowError:
            self.fail(where, "must be finite, got an integer too large for a float")
        if not math.isfinite(x):
            self.fail(where, f"must be finite, got {value!r}")
        self._bounds(x, value, where, gt, ge, lt, le, unit)
        return x

    def integer(self, value, where, *, gt=None, ge=None, lt=None, le=None, unit=""):
        """A whole number (a TOML integer) within bounds, as int."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"must be a whole number, got {show(value)}")
        self._bounds(value, value, where, gt, ge, lt, le, unit)
        return value

    def _bounds(self, x, value, where, gt, ge, lt, le, unit):
        lower = gt if gt is not None else ge
        upper = lt if lt is not None else le
        accepted = ""
        if lower is not None and upper is not None:
            accepted = f" (accepted range {_bound(lower)}..{_bound(upper)}{' ' + unit if unit else ''})"
        for bound, op, ok in ((gt, ">", lambda b: x > b), (ge, ">=", lambda b: x >= b),
                              (lt, "<", lambda b: x < b), (le, "<=", lambda b: x <= b)):
            if bound is not None and not ok(bound):
                self.fail(where, f"must be {op} {_bound(bound)}, got {value!r}{accepted}")

    def numbers(self, value, where, *, length=None, min_length=1, increasing=False, item=None, **bounds):
        """A TOML array of numbers, each checked by ``item`` (a :class:`Number`) or by ``bounds``; a list of floats.

        ``increasing`` asks for strictly increasing values (a string names them in the
        message: ``"breakpoints must be strictly increasing, got 0.0 after 0.0"``).
        """
        if not isinstance(value, list):
            self.fail(where, f"must be an array of numbers, got {type_name(value)}")
        if length is not None and len(value) != length:
            self.fail(where, f"must have {length} values, got {len(value)}")
        if len(value) < min_length:
            self.fail(where, f"must have at least {min_length} values, got {len(value)}")
        rule = item if item is not None else Number(**bounds)
        out = [rule(self, x, f"{where}[{i}]") for i, x in enumerate(value)]
        if increasing:
            for i in range(1, len(out)):
                if not out[i] > out[i - 1]:
                    what = increasing if isinstance(increasing, str) else "values"
                    self.fail(f"{where}[{i}]", f"{what} must be strictly increasing, "
                              f"got {out[i]!r} after {out[i - 1]!r}")
        return out

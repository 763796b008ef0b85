"""Pilot controls and a piecewise-constant control schedule read from CSV.

Pilot sign conventions (see ``configs/bourg.toml`` for how the airplane's
elements follow them):

=========  ========  ==============================================
name       range     meaning
=========  ========  ==============================================
throttle   0 .. 1    thrust = throttle * max_thrust (body +x), or a propeller's at that throttle
elevator   -1 .. 1   +1 pulls the nose up
aileron    -1 .. 1   +1 rolls right (right wing down)
rudder     -1 .. 1   +1 yaws the nose right
flaps      0 .. 1    1 = flaps fully down
brake      0 .. 1    wheel brakes (1 = full); with the rudder
                     deflected the brake on the other side eases off
parking_   0 or 1    1 = the parking brake is set (every braked
brake                wheel fully braked)
engine     0 or 1    1 = running (the default), 0 = off: mixture cut,
                     magnetos off (a propeller windmills or stops)
brake_     0 .. 1    the left / right toe brake alone (rudder
left,                pedals): each side brakes at least this much
brake_
right
gear       0 or 1    the gear lever: 1 down (the default), 0 up; a
                     JSBSim aircraft whose gear retracts moves it
                     (``gear/gear-cmd-norm``), the others ignore it
=========  ========  ==============================================

A schedule file is CSV whose header is ``t`` followed by any subset of the
control names, in any order, e.g.::

    t,throttle,elevator
    0,0.5,
    10,,0.2
    12.5,1,0

Each row holds from its time ``t`` (s, >= 0, strictly increasing) until the
next row's.  Columns left out and empty cells keep the previous row's value
(the first row starts from the initial controls).  Blank lines and lines whose
first cell starts with ``#`` are skipped.
"""

from __future__ import annotations

import bisect
import csv
import difflib
import math
from dataclasses import dataclass

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.inputs import INPUTS

__all__ = ["CONTROL_NAMES", "CONTROL_RANGES", "ControlSchedule", "Controls", "complete", "flown", "flown_row",
           "refuse_nonfinite"]

CONTROL_NAMES = INPUTS
"""Control names, in the order of :meth:`Controls.as_array` and of the loads' controls array
(:data:`flightsim.physics.inputs.INPUTS`: one definition)."""
#: Entries of each control in a controls row (:data:`CONTROL_NAMES` order).
THROTTLE, ELEVATOR, AILERON, RUDDER, FLAPS, BRAKE, PARKING_BRAKE, ENGINE, BRAKE_LEFT, BRAKE_RIGHT, GEAR = (
    CONTROL_NAMES.index(n) for n in ("throttle", "elevator", "aileron", "rudder", "flaps", "brake", "parking_brake",
                                     "engine", "brake_left", "brake_right", "gear"))
#: The parking brake reads as set, the engine as running and the gear lever as down, from this value up.
PARKING_BRAKE_SET = 0.5

CONTROL_RANGES = {
    "throttle": (0.0, 1.0),
    "elevator": (-1.0, 1.0),
    "aileron": (-1.0, 1.0),
    "rudder": (-1.0, 1.0),
    "flaps": (0.0, 1.0),
    "brake": (0.0, 1.0),
    "parking_brake": (0.0, 1.0),
    "engine": (0.0, 1.0),
    "brake_left": (0.0, 1.0),
    "brake_right": (0.0, 1.0),
    "gear": (0.0, 1.0),
}
"""Inclusive (low, high) range of each control."""

_LOWS = np.array([CONTROL_RANGES[n][0] for n in CONTROL_NAMES])
_HIGHS = np.array([CONTROL_RANGES[n][1] for n in CONTROL_NAMES])


def refuse_nonfinite(values, what, names=CONTROL_NAMES):
    """Raise ``ValueError`` naming the first entry of ``values`` (rows of ``len(names)``) that is NaN or infinite.

    The message names the entry by its index and name: ``"action[1] (aileron): nan is not a finite number"``
    (one row), ``"controls[3][1] (aileron): …"`` (row 3 of several).

    Returns
    -------
    numpy.ndarray
        ``values`` as float64 rows ``(N, len(names))``.
    """
    rows = np.asarray(values, dtype=np.float64).reshape(-1, len(names))
    bad = ~np.isfinite(rows)
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        where = f"{what}[{j}]" if rows.shape[0] == 1 else f"{what}[{i}][{j}]"
        raise ValueError(f"{where} ({names[j]}): {float(rows[i, j])!r} is not a finite number")
    return rows


#: Row widths of the controls before the later ones came (throttle .. flaps, .. parking_brake, .. engine,
#: .. brake_right): such rows still fly, the controls they lack at their defaults (:func:`complete`).
EARLIER_WIDTHS = (5, 7, 8, 10)


def complete(values):
    """Rows of controls (the last axis) as wide as :data:`CONTROL_NAMES`: rows of an earlier width
    (:data:`EARLIER_WIDTHS`) get the later controls' defaults (the brakes released, the engine running, the gear
    down)."""
    values = np.asarray(values, dtype=np.float64)
    width = values.shape[-1] if values.ndim else 0
    if width in EARLIER_WIDTHS:
        rows = values.reshape(-1, width)
        values = np.hstack([rows, np.tile(Controls().as_array()[width:], (rows.shape[0], 1))])
    return values


def flown(values, what="controls"):
    """The controls the airplane flies, from rows in :data:`CONTROL_NAMES` order: the one controls boundary.

    Every path into the loads goes through here — :class:`~flightsim.simulation.flight.Simulation` (by
    :func:`flown_row`), :class:`~flightsim.simulation.batch.BatchSimulation`, the Gymnasium tasks — and the
    traces record what it returns.  NaN or infinite values are refused (``ValueError`` naming the entry, see
    :func:`refuse_nonfinite`); the rest are clipped to :data:`CONTROL_RANGES`, and the parking brake reads as
    set (1) from :data:`PARKING_BRAKE_SET` up, else released (0); the engine likewise running (1) or off (0), and
    the gear lever down (1) or up (0).

    Parameters
    ----------
    values : array_like, shape (N, 11) or (11,)
        (or rows of an earlier width, :data:`EARLIER_WIDTHS`: the later controls at their defaults)
    what : str
        What the values are called in an error message.

    Returns
    -------
    numpy.ndarray
        A new float64 array ``(N, 11)``.
    """
    u = refuse_nonfinite(complete(values), what).copy()
    np.clip(u, _LOWS, _HIGHS, out=u)
    u[:, PARKING_BRAKE] = np.where(u[:, PARKING_BRAKE] >= PARKING_BRAKE_SET, 1.0, 0.0)
    u[:, ENGINE] = np.where(u[:, ENGINE] >= PARKING_BRAKE_SET, 1.0, 0.0)
    u[:, GEAR] = np.where(u[:, GEAR] >= PARKING_BRAKE_SET, 1.0, 0.0)
    return u


def flown_row(controls, what="controls"):
    """The controls row ``(11,)`` a :class:`Controls` flies: the elevator trim (clipped to −1..1) added to the
    elevator, then :func:`flown`.

    Raises
    ------
    ValueError
        A NaN or infinite control or trim, naming it.
    """
    trim = controls.elevator_trim
    if not math.isfinite(trim):
        raise ValueError(f"{what}: elevator_trim {trim!r} is not a finite number")
    values = refuse_nonfinite(controls.as_array(), what)
    values[0, ELEVATOR] += min(max(trim, -1.0), 1.0)
    return flown(values, what)[0]


@dataclass
class Controls:
    """The pilot's inputs; mutable, the app writes it every frame.

    Parameters
    ----------
    throttle : float
        0..1; thrust = throttle * max_thrust (or, with a propeller, its thrust at that throttle).
    elevator : float
        -1..1; +1 nose up.
    aileron : float
        -1..1; +1 roll right.
    rudder : float
        -1..1; +1 nose right.
    flaps : float
        0..1; 1 = flaps down.
    brake : float
        0..1; the wheel brakes (toe brakes pressed together).  With the
        rudder deflected the brake on the side away from it eases off
        (rudder +1: only the right brake), so the brakes help to steer.
    parking_brake : float
        0 or 1 (a schedule's values above 0.5 read as set): 1 = the parking
        brake is set, every braked wheel fully braked whatever ``brake`` says.
    engine : float
        1 running, 0 off (mixture cut, magnetos off: a propeller windmills, or stops; values from 0.5 up read
        as running).  A constant thrust (the book's airplane) and JSBSim's engines do not read it.
    brake_left, brake_right : float
        0..1; the left and the right toe brake on their own (rudder pedals): each side's wheels brake at
        least this much, whatever ``brake`` and the rudder say (steering on the ground with the brakes).
    gear : float
        1 down (the default), 0 up (values from 0.5 up read as down): the gear lever.  A JSBSim aircraft whose
        ``<contact>`` elements retract drives its ``gear/gear-cmd-norm`` with it (its own flight controls then move
        ``gear/gear-pos-norm``, as in JSBSim); flightsim's own aircraft and fixed gear ignore it.
    elevator_trim : float
        -1..1; the elevator's neutral, as set by a trim wheel: the elevator
        the airplane flies is ``elevator + elevator_trim`` clipped to -1..1
        (see :meth:`clamped`), so the stick returns to centre and the
        airplane keeps its trim.
    """

    throttle: float = 0.0
    elevator: float = 0.0
    aileron: float = 0.0
    rudder: float = 0.0
    flaps: float = 0.0
    brake: float = 0.0
    parking_brake: float = 0.0
    engine: float = 1.0
    brake_left: float = 0.0
    brake_right: float = 0.0
    gear: float = 1.0
    elevator_trim: float = 0.0

    def as_array(self) -> np.ndarray:
        """The values as float64 in :data:`CONTROL_NAMES` order (``throttle`` … ``brake_left, brake_right, gear``)."""
        return np.array([getattr(self, n) for n in CONTROL_NAMES], dtype=np.float64)

    @classmethod
    def from_array(cls, values) -> "Controls":
        """Controls from values in :data:`CONTROL_NAMES` order (not clamped).

        Parameters
        ----------
        values : array_like, shape (11,)

        Returns
        -------
        Controls
        """
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (len(CONTROL_NAMES),):
            raise ValueError(f"need {len(CONTROL_NAMES)} values, got shape {values.shape}")
        return cls(*(float(v) for v in values))

    def clamped(self) -> "Controls":
        """The inputs the airplane flies (:func:`flown_row`): the trim added to the elevator, every value clipped
        to its range, the parking brake set or released.

        Returns
        -------
        Controls
            A new object with ``elevator_trim = 0``; ``self`` is unchanged.

        Raises
        ------
        ValueError
            A NaN or infinite value, naming it.
        """
        return Controls.from_array(flown_row(self))


class ControlSchedule:
    """Piecewise-constant controls over time.

    Row ``i`` holds for ``times[i] <= t < times[i + 1]`` (the last row holds
    for ever); before the first row the initial controls hold.

    Parameters
    ----------
    times : array_like, shape (n,)
        Row start times, s, finite, >= 0, strictly increasing.
    rows : array_like, shape (n, 7)
        Control values per row in :data:`CONTROL_NAMES` order, within
        :data:`CONTROL_RANGES` (or shape (n, 5), throttle to flaps: the
        brakes off).
    initial : Controls
        The controls before the first row (copied, clamped).

    Attributes
    ----------
    times : numpy.ndarray, shape (n,)
        Read-only float64.
    rows : numpy.ndarray, shape (n, 11)
        Read-only float64, complete rows (left-out columns filled in; rows of the first 5 or 7 controls get the
        brakes released and the engine running).
    initial : Controls
        The clamped copy of ``initial``.
    """

    def __init__(self, times, rows, initial: Controls):
        times = np.array(times, dtype=np.float64)
        rows = np.array(rows, dtype=np.float64)
        if rows.ndim == 2:
            rows = complete(rows)
        rows = rows.reshape(-1, len(CONTROL_NAMES))
        if times.ndim != 1 or rows.shape[0] != times.shape[0]:
            raise ValueError(f"need times (n,) and rows (n, {len(CONTROL_NAMES)}); got {times.shape}, {rows.shape}")
        if not (np.all(np.isfinite(times)) and np.all(times >= 0) and np.all(np.diff(times) > 0)):
            raise ValueError("times must be finite, >= 0 and strictly increasing")
        if not np.all((rows >= _LOWS) & (rows <= _HIGHS)):
            raise ValueError("control values out of range (see CONTROL_RANGES)")
        times.flags.writeable = False
        rows.flags.writeable = False
        self.times = times
        self.rows = rows
        self.initial = initial.clamped()
        self._time_list = times.tolist()
        self._row_list = [tuple(row) for row in rows.tolist()]

    def __len__(self):
        return len(self._time_list)

    def at(self, t: float) -> Controls:
        """The controls in force at time ``t``.

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        Controls
            A new object (safe to modify).

        Raises
        ------
        ValueError
            If ``t`` is NaN.
        """
        if math.isnan(t):
            raise ValueError("t is NaN")
        i = bisect.bisect_right(self._time_list, t) - 1
        if i < 0:
            return Controls(*self.initial.as_array().tolist())
        return Controls(*self._row_list[i])

    @classmethod
    def from_csv(cls, path, initial: Controls) -> "ControlSchedule":
        """Read a schedule CSV (format in the module docstring).

        Parameters
        ----------
        path : str or os.PathLike
            The CSV file.
        initial : Controls
            Controls before the first row; also the starting values for the
            columns the file leaves out.

        Returns
        -------
        ControlSchedule

        Raises
        ------
        flightsim.errors.InputError
            For a missing or unreadable file, an empty file, a bad header
            (not starting with ``t``, unknown, duplicate or empty column), a
            row with the wrong number of cells, a cell that is not a finite
            number, a value out of range, a negative ``t`` or one that does
            not increase.  ``where`` is ``"line N"`` or
            ``"line N, column NAME"``.
        """
        return _CsvReader(path).read(initial.clamped())


class _CsvReader:
    """Parses one schedule CSV, raising InputError with line and column."""

    def __init__(self, path):
        self.path = path

    def fail(self, where, reason):
        """Raise :class:`InputError` at ``where`` ("line N[, column NAME]")."""
        raise InputError(self.path, where, reason)

    def read(self, initial):
        """Return the :class:`ControlSchedule` of the file."""
        records = self._records()
        if not records:
            self.fail("", "file is empty")
        header_line, header = records[0]
        columns = self._columns(header_line, header)
        if len(records) == 1:
            self.fail(f"line {header_line}", "no data rows after the header")
        current = initial.as_array()
        times, rows = [], []
        for line, cells in records[1:]:
            t, current = self._row(line, cells, columns, current)
            if times and not t > times[-1]:
                self.fail(f"line {line}, column t",
                          f"t must increase: {t!r} after {times[-1]!r}")
            times.append(t)
            rows.append(current)
        return ControlSchedule(times, rows, initial)

    def _records(self):
        """(line number, stripped cells) of every non-blank, non-comment row."""
        try:
            with open(self.path, newline="", encoding="utf-8-sig") as f:
                reader = csv.reader(f, skipinitialspace=True, strict=True)
                records = []
                for cells in reader:
                    cells = [c.strip() for c in cells]
                    if not any(cells) or cells[0].startswith("#"):
                        continue
                    records.append((reader.line_num, cells))
                return records
        except FileNotFoundError:
            self.fail("", "file not found")
        except UnicodeDecodeError:
            self.fail("", "not UTF-8 text (is it a CSV file?)")
        except csv.Error as exc:
            self.fail(f"line {reader.line_num}", f"not valid CSV: {exc}")
        except OSError as exc:
            self.fail("", f"cannot read file: {exc.strerror or exc}")

    def _columns(self, line, header):
        """Validate the header; return its control names (after ``t``)."""
        where = f"line {line}"
        if header[0] != "t":
            self.fail(where, f"header must start with 't', got {header[0]!r} "
                      f"(header: t followed by any of {', '.join(CONTROL_NAMES)})")
        names = header[1:]
        for i, name in enumerate(names):
            if not name:
                self.fail(where, f"header cell {i + 2} is empty")
            if name in names[:i] or name == "t":
                self.fail(where, f"duplicate column {name!r}")
            if name not in CONTROL_NAMES:
                close = difflib.get_close_matches(name, CONTROL_NAMES, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                self.fail(where, f"unknown column {name!r}{hint} "
                          f"(valid: t, {', '.join(CONTROL_NAMES)})")
        return names

    def _row(self, line, cells, columns, previous):
        """Parse one data row; return (t, complete control values)."""
        if len(cells) != len(columns) + 1:
            self.fail(f"line {line}",
                      f"expected {len(columns) + 1} cells (as the header), got {len(cells)}")
        t = self._number(line, "t", cells[0])
        if t < 0:
            self.fail(f"line {line}, column t", f"t must be >= 0, got {t!r}")
        values = previous.copy()
        for name, cell in zip(columns, cells[1:], strict=True):
            if not cell:
                continue
            x = self._number(line, name, cell)
            low, high = CONTROL_RANGES[name]
            if not low <= x <= high:
                self.fail(f"line {line}, column {name}",
                          f"{x!r} is out of range [{low:g}, {high:g}]")
            if name == "parking_brake" and x not in (0.0, 1.0):
                self.fail(f"line {line}, column {name}", f"must be 0 (released) or 1 (set), got {x!r}")
            if name == "engine" and x not in (0.0, 1.0):
                self.fail(f"line {line}, column {name}", f"must be 0 (off) or 1 (running), got {x!r}")
            if name == "gear" and x not in (0.0, 1.0):
                self.fail(f"line {line}, column {name}", f"must be 0 (up) or 1 (down), got {x!r}")
            values[CONTROL_NAMES.index(name)] = x
        return t, values

    def _number(self, line, column, cell):
        """A finite float from a cell."""
        where = f"line {line}, column {column}"
        if not cell:
            self.fail(where, "is empty (t is required in every row)")
        try:
            x = float(cell)
        except ValueError:
            self.fail(where, f"not a number: {cell!r}")
        if not math.isfinite(x):
            self.fail(where, f"must be finite, got {cell!r}")
        return x

"""Flight traces: a table of states over time, written as CSV.

Columns (book frames, lengths in the aircraft file's unit, angles in degrees
with aviation signs)::

    t, x, y, z, vx, vy, vz, qw, qx, qy, qz, p, q, r, roll, pitch, heading,
    airspeed, alpha, throttle, elevator, aileron, rudder, flaps, brake,
    parking_brake, on_ground, wind_x, wind_y, wind_z, groundspeed, rpm, ap_mode,
    engine, brake_left, brake_right, lat, lon, alt_msl, nav_dev_dots,
    gs_dev_dots, dme_nm, gear, failures, ias_indicated

``x, y, z`` earth position (x North, y West, z up); ``vx, vy, vz`` earth
velocity (over the ground); ``qw..qz`` orientation body → earth; ``p, q, r``
body angular velocity (rad/s, about body x forward, y left, z up); roll +
right wing down, pitch + nose up, heading 0–360 clockwise from North;
``airspeed`` and ``alpha`` (the angle of attack of the body x axis) are
relative to the air; the controls (see :mod:`flightsim.simulation.controls`:
brake 0..1, parking_brake 0 or 1); on_ground 1 while a wheel carries load,
else 0; ``wind_x, wind_y, wind_z`` the wind at the airplane (earth frame,
ft/s; steady wind, turbulence and gusts); ``groundspeed`` the horizontal
speed over the ground; ``rpm`` the engine's speed (rev/min; 0 for a
constant thrust); ``ap_mode`` the autopilot's modes
(:func:`flightsim.simulation.autopilot.mode_code`: units lateral ROL 1, HDG 2,
LOC 3; tens vertical ALT 1, VS 2, GS 3; hundreds speed by throttle 1, by
pitch 2; 0 disengaged); ``engine`` 1 running, 0 off, and ``brake_left``,
``brake_right`` the toe brakes on their own (controls, after the others
because they came later); ``lat``, ``lon`` the geodetic latitude and
longitude of the CG (deg, + North, + East, WGS-84 or the round planet flown)
and ``alt_msl`` its height above the ellipsoid (ft): on a flat planet the
earth frame laid on WGS-84 at its origin
(:func:`flightsim.physics.planet.flat_geodetic`), on a round one where the
airplane is on it (``x, y, z`` being then the flat view of the round
planet's state: :mod:`flightsim.physics.planet`); ``nav_dev_dots``,
``gs_dev_dots``, ``dme_nm`` what the flight's NAV radio shows
(:mod:`flightsim.simulation.navigation`: the course deviation of the tuned
VOR or localizer and the glide slope's, in dots, + fly right and fly up, and
the DME's slant range in nm), **nan where there is no signal** (beyond
range, behind terrain, no glide slope for a VOR: NaN in the table, ``nan``
in the CSV, as Python's ``float``, numpy and pandas read it); ``gear`` the
gear lever (a control, last because it came last: 1 down, 0 up; see
:class:`flightsim.simulation.controls.Controls`); ``failures`` the
failures in force as a bit field (bit i the i-th of
:data:`flightsim.simulation.failures.KINDS`: 1 the engine, 128 the pitot
tube, ...) and ``ias_indicated`` what the airspeed indicator shows (kt:
the calibrated airspeed of the pressures its pitot tube and static port
feel, :mod:`flightsim.simulation.gauges`; ``airspeed`` stays the true
airspeed).
Columns are only ever added at the end; a trace without the later ones
reads the brakes, on_ground, rpm and ap_mode as 0, the wind as still air,
the engine as running, its place as the flat earth frame laid at 0°, 0°,
no NAV signal, the gear lever down, no failure and the indicated airspeed
unknown (NaN).
"""

import csv
from pathlib import Path

import numpy as np

from flightsim.files import atomic_write
from flightsim.math import quat
from flightsim.simulation.controls import complete
from flightsim.simulation.failures import bits_of

#: The electrical failure's bit: the NAV radio shows nothing.
ELECTRICAL = bits_of(["electrical"])

STATE_COLUMNS = ("t", "x", "y", "z", "vx", "vy", "vz", "qw", "qx", "qy", "qz", "p", "q", "r")
DERIVED_COLUMNS = ("roll", "pitch", "heading", "airspeed", "alpha")
CONTROL_COLUMNS = ("throttle", "elevator", "aileron", "rudder", "flaps", "brake", "parking_brake")
GROUND_COLUMNS = ("on_ground",)
WIND_COLUMNS = ("wind_x", "wind_y", "wind_z")
ENGINE_COLUMNS = ("rpm", "ap_mode")
#: Controls added after the columns above (a trace's controls are CONTROL_COLUMNS and these).
LATER_CONTROL_COLUMNS = ("engine", "brake_left", "brake_right")
#: Where on the planet the airplane is (deg, deg, ft), added after the later controls.
GEODETIC_COLUMNS = ("lat", "lon", "alt_msl")
#: What the NAV radio shows (dots, dots, nm; NaN, written ``nan``, without a signal), after the geodetic columns.
NAV_COLUMNS = ("nav_dev_dots", "gs_dev_dots", "dme_nm")
#: The gear lever (1 down, 0 up), a control added after the NAV columns.
GEAR_COLUMNS = ("gear",)
#: The failures in force (a bit field) and what the airspeed indicator shows (kt), after the gear lever.
FAILURE_COLUMNS = ("failures", "ias_indicated")
COLUMNS = (STATE_COLUMNS + DERIVED_COLUMNS + CONTROL_COLUMNS + GROUND_COLUMNS + WIND_COLUMNS + ("groundspeed",)
           + ENGINE_COLUMNS + LATER_CONTROL_COLUMNS + GEODETIC_COLUMNS + NAV_COLUMNS + GEAR_COLUMNS
           + FAILURE_COLUMNS)
#: What a trace without a column reads in it: 0, but the engine runs and the gear is down.
_ABSENT = {"engine": 1.0, "brake_left": 0.0, "brake_right": 0.0, "gear": 1.0}
#: Where the controls (but the later ones: :func:`controls_of`) and the on_ground flag start in a trace table.
CONTROLS_AT = len(STATE_COLUMNS) + len(DERIVED_COLUMNS)
ON_GROUND_AT = CONTROLS_AT + len(CONTROL_COLUMNS)
WIND_AT = ON_GROUND_AT + len(GROUND_COLUMNS)
#: Where the later controls and the geodetic columns start in a trace table.
LATER_AT = COLUMNS.index(LATER_CONTROL_COLUMNS[0])
GEODETIC_AT = COLUMNS.index(GEODETIC_COLUMNS[0])
NAV_AT = COLUMNS.index(NAV_COLUMNS[0])
GEAR_AT = COLUMNS.index(GEAR_COLUMNS[0])
FAILURES_AT = COLUMNS.index(FAILURE_COLUMNS[0])


def flat_geodetic_rows(x, y, z, lat0=0.0, lon0=0.0):
    """``(N, 3)`` latitude, longitude (deg) and height (ft) of flat earth-frame positions laid on WGS-84 at
    ``(lat0, lon0)`` (deg) (:func:`flightsim.physics.planet.flat_geodetic`): a flat flight's place, and a trace's
    where it says none."""
    from flightsim.physics.planet import flat_geodetic

    x, y, z = (np.asarray(v, dtype=np.float64).reshape(-1) for v in (x, y, z))
    lat, lon = flat_geodetic(lat0, lon0, x, y)
    return np.column_stack([lat, lon, z])


def table(times, states, controls, on_ground=None, wind=None, rpm=None, ap_mode=None, geodetic=None, nav=None,
          failures=None, ias=None):
    """The trace as one float array, columns :data:`COLUMNS`.

    Parameters
    ----------
    times : array_like, shape (N,)
        s.
    states : array_like, shape (N, 13)
        ``[x, v, q, ω]`` rows (see :mod:`flightsim.integrators`).
    controls : array_like, shape (N, 11), (N, 10), (N, 8), (N, 7) or (N, 5)
        throttle, elevator, aileron, rudder, flaps, brake, parking_brake,
        engine, brake_left, brake_right, gear (the first ten, eight, seven or five alone: the brakes read 0, the
        engine 1, the gear 1).
    on_ground : array_like, shape (N,), optional
        1 while a wheel carries load, else 0 (default: all 0).
    wind : array_like, shape (N, 3), optional
        Earth-frame wind at each row (ft/s); default still air.  Airspeed and
        alpha are relative to the air.
    rpm, ap_mode : array_like, shape (N,), optional
        Engine speed (rev/min) and the autopilot's mode code at each row (default 0).
    geodetic : array_like, shape (N, 3), optional
        Latitude, longitude (deg) and height above the ellipsoid (ft) at each row
        (:attr:`Simulation.geodetic <flightsim.simulation.flight.Simulation.geodetic>`); default: the flat earth
        frame laid on WGS-84 at 0°, 0° (:func:`flat_geodetic_rows`).
    nav : array_like, shape (N, 3), optional
        :data:`NAV_COLUMNS` at each row (:meth:`NavRadio.rows <flightsim.simulation.navigation.NavRadio.rows>`;
        NaN without a signal); default no signal; none where ``failures`` has the electrical failure.
    failures, ias : array_like, shape (N,), optional
        The failures' bit field and the airspeed indicator's reading (kt) at each row; default no failure and
        NaN (not known).
    """
    times = np.asarray(times, dtype=np.float64).reshape(-1, 1)
    states = np.asarray(states, dtype=np.float64).reshape(-1, 13)
    n = states.shape[0]
    controls = complete(np.asarray(controls, dtype=np.float64).reshape(n, -1))
    at = len(CONTROL_COLUMNS)
    controls, later, lever = (controls[:, :at], controls[:, at:at + len(LATER_CONTROL_COLUMNS)],
                              controls[:, at + len(LATER_CONTROL_COLUMNS):])
    ground = np.zeros((n, 1)) if on_ground is None else np.asarray(on_ground, dtype=np.float64).reshape(n, 1)
    wind = np.zeros((n, 3)) if wind is None else np.asarray(wind, dtype=np.float64).reshape(n, 3)
    extra = [np.zeros((n, 1)) if v is None else np.asarray(v, dtype=np.float64).reshape(n, 1) for v in (rpm, ap_mode)]
    q = states[:, 6:10]
    with np.errstate(all="ignore"):   # the last states of a diverging flight may be huge: no warnings
        angles = quat.aviation_angles(q).reshape(-1, 3)
        air = states[:, 3:6] - wind
        vb = quat.rotate(quat.conj(q), air).reshape(-1, 3)
        airspeed = np.linalg.norm(air, axis=1, keepdims=True)
        alpha = np.degrees(np.arctan2(-vb[:, 2], vb[:, 0])).reshape(-1, 1)
        groundspeed = np.hypot(states[:, 3], states[:, 4]).reshape(-1, 1)
        place = (flat_geodetic_rows(states[:, 0], states[:, 1], states[:, 2]) if geodetic is None
                 else np.asarray(geodetic, dtype=np.float64).reshape(n, 3))
    nav = np.full((n, 3), np.nan) if nav is None else np.array(nav, dtype=np.float64).reshape(n, 3)
    failed = np.zeros((n, 1)) if failures is None else np.asarray(failures, dtype=np.float64).reshape(n, 1)
    nav[(failed[:, 0].astype(np.int64) & ELECTRICAL) != 0] = np.nan        # the radio off with the electrics
    shown = np.full((n, 1), np.nan) if ias is None else np.asarray(ias, dtype=np.float64).reshape(n, 1)
    return np.hstack([times, states, angles, airspeed, alpha, controls, ground, wind, groundspeed, *extra, later,
                      place, nav, lever, failed, shown])


def write_csv(path, rows):
    """Write a trace table atomically (:func:`flightsim.files.atomic_write`), with the usual permissions.

    Raises
    ------
    OSError
        The file cannot be written; nothing is left behind.
    """
    with atomic_write(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for row in rows:
            w.writerow([f"{v:.10g}" for v in row])          # (NaN, no NAV signal: nan, as float() reads it)


def read_csv(path):
    """Read a trace written by :func:`write_csv` (or ``flightsim simulate --out``).

    Returns
    -------
    numpy.ndarray
        Shape (N, len(COLUMNS)), columns :data:`COLUMNS`; at least one row.

    Raises
    ------
    flightsim.errors.InputError
        Naming the file, the line (and column) and the reason: missing or
        empty file, a header without the state columns, a wrong number of
        cells, a non-number or non-finite value, time not increasing, a zero
        quaternion.  Columns beyond the state (angles, controls, on_ground,
        wind) are optional: derived ones are recomputed from the state (and
        the wind), missing controls, on_ground and wind read 0 (an older
        trace: brakes off, still air), a missing engine 1 (running), and
        missing ``lat, lon, alt_msl`` the flat earth frame laid on WGS-84 at
        0°, 0° (all three are read, or none); the NAV columns' ``nan`` (or
        empty) cells, and missing columns, read NaN: no signal; a missing
        ``gear`` reads 1 (down).
    """
    from flightsim.errors import InputError

    path = Path(path)
    try:
        f = open(path, newline="", encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, "", "file not found") from None
    except OSError as exc:
        raise InputError(path, "", f"cannot read: {exc.strerror}") from None
    with f:
        try:
            lines = list(csv.reader(f))
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputError(path, "", f"not a CSV trace: {exc}") from None
    if not lines or not any(lines):
        raise InputError(path, "", "empty file")
    header = [c.strip() for c in lines[0]]
    missing = [c for c in STATE_COLUMNS if c not in header]
    if missing:
        raise InputError(path, "line 1",
                         f"missing column(s) {', '.join(missing)}; a trace needs {','.join(STATE_COLUMNS)}")
    index = {name: header.index(name) for name in header}
    placed = all(c in index for c in GEODETIC_COLUMNS)
    radio = [index.get(c) for c in NAV_COLUMNS]
    radio_like = NAV_COLUMNS + ("ias_indicated",)        # NaN where nothing is shown
    radio = radio + [index.get("ias_indicated")]
    rows, navs = [], []
    for number, cells in enumerate(lines[1:], start=2):
        if not cells:
            continue
        if len(cells) != len(header):
            raise InputError(path, f"line {number}", f"expected {len(header)} cells, got {len(cells)}")
        values = []
        for name in (STATE_COLUMNS + CONTROL_COLUMNS + GROUND_COLUMNS + WIND_COLUMNS + ENGINE_COLUMNS
                     + LATER_CONTROL_COLUMNS + GEAR_COLUMNS + ("failures",) + (GEODETIC_COLUMNS if placed else ())):
            if name not in index:
                values.append(_ABSENT.get(name, 0.0))
                continue
            text = cells[index[name]].strip()
            try:
                v = float(text)
            except ValueError:
                raise InputError(path, f"line {number}, column {name}", f"not a number: {text!r}") from None
            if not np.isfinite(v):
                raise InputError(path, f"line {number}, column {name}", f"not finite: {text!r}")
            values.append(v)
        nav = []
        for name, at in zip(radio_like, radio, strict=True):
            text = "" if at is None else cells[at].strip()
            try:
                v = float(text) if text else np.nan
            except ValueError:
                raise InputError(path, f"line {number}, column {name}", f"not a number: {text!r}") from None
            if np.isinf(v):
                raise InputError(path, f"line {number}, column {name}", f"not finite: {text!r}")
            nav.append(v)
        if rows and values[0] <= rows[-1][0]:
            raise InputError(path, f"line {number}, column t",
                             f"time must increase (got {values[0]:g} after {rows[-1][0]:g})")
        if not any(values[7:11]):
            raise InputError(path, f"line {number}", "zero quaternion qw,qx,qy,qz")
        rows.append(values)
        navs.append(nav)
    if not rows:
        raise InputError(path, "", "no data rows after the header")
    data = np.array(rows)
    states = data[:, 1:14].copy()
    states[:, 6:10] /= np.linalg.norm(states[:, 6:10], axis=1, keepdims=True)
    at = 14 + len(CONTROL_COLUMNS)
    extra = at + 1 + len(WIND_COLUMNS)
    later = extra + len(ENGINE_COLUMNS)
    failed = later + len(LATER_CONTROL_COLUMNS) + len(GEAR_COLUMNS)
    place = failed + 1
    controls = np.hstack([data[:, 14:at], data[:, later:failed]])
    navs = np.array(navs)
    return table(data[:, 0], states, controls, on_ground=data[:, at], wind=data[:, at + 1:at + 4],
                 rpm=data[:, extra], ap_mode=data[:, extra + 1], geodetic=data[:, place:] if placed else None,
                 nav=navs[:, :3], failures=data[:, failed], ias=navs[:, 3])


def controls_of(rows):
    """The controls of trace rows ``(N, len(COLUMNS))`` as rows in
    :data:`~flightsim.simulation.controls.CONTROL_NAMES` order ``(N, 11)``."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, len(COLUMNS))
    return np.hstack([rows[:, CONTROLS_AT:ON_GROUND_AT], rows[:, LATER_AT:LATER_AT + len(LATER_CONTROL_COLUMNS)],
                      rows[:, GEAR_AT:GEAR_AT + len(GEAR_COLUMNS)]])

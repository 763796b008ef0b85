"""The airplane as data: load, validate and derive mass properties.

An aircraft file (TOML, see ``configs/bourg.toml``) describes the airplane of
Bourg, *Physics for Game Developers* (chapters 7 and 15) as a set of
elements, each a small lifting surface or body with its own mass, design
position, local inertia, geometry and coefficient table.  :func:`load_aircraft`
reads such a file, checks every field and returns a frozen :class:`Aircraft`
with the mass properties computed the way the book does
(:func:`mass_properties`).

Units are English throughout: ft, slug, lbf, degrees for angles stored in the
file, s.  Frames: earth x North, y West, z up; body x forward, y left, z up;
design coordinates are body axes with their origin at a reference point at the
tail.

Every problem with a file raises :class:`flightsim.errors.InputError` naming
the file, the field as a dotted path with indices (``elements[3].mass``) and
the reason; no other exception type escapes :func:`load_aircraft`.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flightsim.errors import InputError
from flightsim.resources import data_file

__all__ = [
    "CONFIG_DIR",
    "DEFAULT_AIRCRAFT",
    "LINK_INPUTS",
    "PARTS",
    "TABLE_KINDS",
    "UNITS",
    "Aircraft",
    "ControlLink",
    "Element",
    "Table",
    "load_aircraft",
    "mass_properties",
]

CONFIG_DIR = data_file("configs")
"""Directory of the bundled aircraft files."""

DEFAULT_AIRCRAFT = CONFIG_DIR / "bourg.toml"
"""The book's airplane, loaded when :func:`load_aircraft` gets no path."""

UNITS = {"length": "ft", "mass": "slug", "force": "lbf", "angle": "deg"}
"""The only units an aircraft file may declare (for now)."""

PARTS = ("wing", "tailplane", "fin", "fuselage")
"""Allowed ``part`` values of an element (they tell the renderer what to draw)."""

LINK_INPUTS = ("elevator", "aileron", "rudder", "flaps")
"""Pilot inputs a control link may follow (see :mod:`flightsim.simulation.controls`)."""

TABLE_KINDS = ("lifting", "symmetric", "drag")
"""Kinds of coefficient table."""

_LIFTING_COLUMNS = ("cl", "cl_te_down", "cl_te_up", "cd", "cd_te_down", "cd_te_up")
_SYMMETRIC_COLUMNS = ("cl", "cd")
_ALL_TABLE_KEYS = ("alpha", *_LIFTING_COLUMNS, "outside_cl", "outside_cd")
_SECTION_KEYS = {
    "environment": ("air_density", "gravity"),
    "propulsion": ("max_thrust", "initial_throttle"),
    "initial": ("position", "velocity", "attitude", "omega"),
    "ground": ("contact_height", "crash_sink_rate", "crash_bank",
               "crash_pitch_down", "rolling_friction"),
}
_TOP_KEYS = ("name", "units", *_SECTION_KEYS, "tables", "elements")
_ELEMENT_KEYS = ("name", "part", "mass", "position", "inertia", "incidence",
                 "dihedral", "area", "table")
_ELEMENT_OPTIONAL = ("flap", "incidence_control")
_LINK_KEYS = ("input", "gain")
_SINGULAR_RTOL = 1e-10


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ControlLink:
    """How an element follows one pilot input.

    Parameters
    ----------
    input : str
        One of :data:`LINK_INPUTS`.
    gain : float
        For a flap link, the flap setting is ``gain * input`` (+1 selects the
        trailing-edge-up table, -1 the trailing-edge-down table).  For an
        incidence link, the incidence change in degrees is ``gain * input``.
    """

    input: str
    gain: float


@dataclass(frozen=True, eq=False)
class Table:
    """Aerodynamic coefficients of one element as a function of angle of attack.

    Arrays are float64 and read-only.

    Parameters
    ----------
    name : str
        Key of the table in the file (``[tables.NAME]``).
    kind : str
        ``"lifting"`` (wings, elevators), ``"symmetric"`` (the rudder: ``alpha``
        holds breakpoints of ``|alpha|``, CL is negated for alpha < 0) or
        ``"drag"`` (the fuselage: a constant drag coefficient only).
    alpha : numpy.ndarray
        Breakpoints in degrees, strictly increasing; empty for ``"drag"``.
    cl, cd : numpy.ndarray
        Coefficients with the flap neutral, one per breakpoint.  For
        ``"drag"``: ``cl`` is empty and ``cd`` has shape (1,).
    cl_te_down, cl_te_up, cd_te_down, cd_te_up : numpy.ndarray or None
        Lifting tables only: flap setting -1 (trailing edge down) and +1
        (trailing edge up).  ``None`` for the other kinds.
    outside_cl, outside_cd : float
        Coefficients outside the breakpoints (the book's stalled 0 and 0.75).
        For ``"drag"`` they are 0 and the constant drag coefficient.
    """

    name: str
    kind: str
    alpha: np.ndarray
    cl: np.ndarray
    cd: np.ndarray
    cl_te_down: np.ndarray | None
    cl_te_up: np.ndarray | None
    cd_te_down: np.ndarray | None
    cd_te_up: np.ndarray | None
    outside_cl: float
    outside_cd: float


@dataclass(frozen=True, eq=False)
class Element:
    """One lift/drag element of the airplane (Bourg ch. 7).

    Arrays are float64, shape (3,), read-only.

    Parameters
    ----------
    name : str
        Unique name, e.g. ``"left outboard wing"``.
    part : str
        One of :data:`PARTS`.
    mass : float
        Mass in slug, > 0.
    design_position : numpy.ndarray
        Position of the element's centre in design coordinates, ft (body axes
        x forward, y left, z up; origin at the reference point at the tail).
    local_inertia : numpy.ndarray
        Moments of inertia (Ixx, Iyy, Izz) about the element's own centre,
        body axes, slug*ft^2.
    incidence_deg, dihedral_deg : float
        Incidence and dihedral, degrees (they orient the surface normal).
    area : float
        Reference area, ft^2, > 0.
    table : str
        Name of the element's :class:`Table`.
    flap : ControlLink or None
        The input moving the element's flap, if any.
    incidence_control : ControlLink or None
        The input turning the whole element (the book's rudder), if any.
    position : numpy.ndarray
        Position relative to the centre of gravity, body frame, ft
        (``design_position - Aircraft.cg``).
    """

    name: str
    part: str
    mass: float
    design_position: np.ndarray
    local_inertia: np.ndarray
    incidence_deg: float
    dihedral_deg: float
    area: float
    table: str
    flap: ControlLink | None
    incidence_control: ControlLink | None
    position: np.ndarray


@dataclass(frozen=True, eq=False)
class Aircraft:
    """A validated airplane with its mass properties (Bourg ch. 7 and 15).

    Arrays are float64 and read-only; copy them (``np.array(a)``) to modify.

    Parameters
    ----------
    name : str
        Display name.
    source : pathlib.Path
        The file it was loaded from.
    elements : tuple of Element
        The elements in file order.
    tables : dict of str to Table
        Coefficient tables by name.
    air_density : float
        slug/ft^3.
    gravity : float
        Magnitude of the gravitational acceleration, ft/s^2 (> 0; it acts
        along earth -z).
    max_thrust : float
        lbf; thrust = throttle * max_thrust along body +x.
    initial_throttle : float
        0..1.
    initial_position : numpy.ndarray
        Earth frame, ft (x North, y West, z up).
    initial_velocity : numpy.ndarray
        Earth frame, ft/s.
    initial_attitude_deg : numpy.ndarray
        (roll, pitch, heading) in degrees with pilot signs: roll right wing
        down +, pitch nose up +, heading clockwise from North.
    initial_omega : numpy.ndarray
        Angular velocity, body frame, rad/s.
    contact_height : float
        Height of the CG above the ground when the wheels touch, ft.
    crash_sink_rate : float
        Touch-down sink rate above which the landing is a crash, ft/s.
    crash_bank_deg, crash_pitch_down_deg : float
        Bank and nose-down pitch at touch-down above which it is a crash, deg.
    rolling_friction : float
        Coefficient of rolling friction on the ground.
    mass : float
        Total mass, slug.
    cg : numpy.ndarray
        Centre of gravity in design coordinates, ft.
    inertia : numpy.ndarray
        Inertia tensor about the CG, body frame, slug*ft^2, shape (3, 3).
    inertia_inv : numpy.ndarray
        Its inverse, shape (3, 3).
    """

    name: str
    source: Path
    elements: tuple[Element, ...]
    tables: dict[str, Table]
    air_density: float
    gravity: float
    max_thrust: float
    initial_throttle: float
    initial_position: np.ndarray
    initial_velocity: np.ndarray
    initial_attitude_deg: np.ndarray
    initial_omega: np.ndarray
    contact_height: float
    crash_sink_rate: float
    crash_bank_deg: float
    crash_pitch_down_deg: float
    rolling_friction: float
    mass: float
    cg: np.ndarray
    inertia: np.ndarray
    inertia_inv: np.ndarray


# ---------------------------------------------------------------------------
# Mass properties
# ---------------------------------------------------------------------------

def _fsum(values):
    """Correctly rounded sum of an array; NaN when it cannot be formed.

    ``math.fsum`` makes mirror-image terms cancel exactly, so a left/right
    symmetric airplane gets a CG exactly on the centre line and products of
    inertia Ixy = Iyz = 0 exactly, whatever the element order.
    """
    try:
        return math.fsum(np.asarray(values, dtype=np.float64).ravel().tolist())
    except (OverflowError, ValueError):
        return math.nan


def mass_properties(masses, design_positions, local_inertias, *, source="mass properties"):
    """Total mass, centre of gravity and inertia tensor of point-like elements.

    Follows Bourg, *Physics for Game Developers*, ch. 7 (and the airplane of
    ch. 15) exactly: with r = d - CG for each element,

    - Ixx = sum(Il_xx + m (ry^2 + rz^2)), Iyy = sum(Il_yy + m (rz^2 + rx^2)),
      Izz = sum(Il_zz + m (rx^2 + ry^2)),
    - Ixy = sum(m rx ry), Ixz = sum(m rx rz), Iyz = sum(m ry rz),
    - tensor [[Ixx, -Ixy, -Ixz], [-Ixy, Iyy, -Iyz], [-Ixz, -Iyz, Izz]].

    Sums are correctly rounded (``math.fsum``), so mirror-symmetric element
    sets give Ixy = Iyz = 0 and CG y = 0 exactly.

    Parameters
    ----------
    masses : array_like, shape (n,)
        Element masses, slug.
    design_positions : array_like, shape (n, 3)
        Element positions in design coordinates (body axes), ft.
    local_inertias : array_like, shape (n, 3)
        Element moments of inertia (Ixx, Iyy, Izz) about their own centres,
        slug*ft^2.
    source : str, optional
        Named in the :class:`~flightsim.errors.InputError` raised for an
        unusable result.

    Returns
    -------
    mass : float
        Total mass, slug.
    cg : numpy.ndarray, shape (3,)
        Centre of gravity, design coordinates, ft.
    inertia : numpy.ndarray, shape (3, 3)
        Inertia tensor about the CG, body axes, slug*ft^2.

    Raises
    ------
    ValueError
        If the array shapes do not match.
    flightsim.errors.InputError
        If the total mass is not positive, a result is not finite, or the
        tensor is singular or not positive definite (``where`` is
        ``"elements"``).
    """
    m = np.asarray(masses, dtype=np.float64)
    d = np.asarray(design_positions, dtype=np.float64)
    il = np.asarray(local_inertias, dtype=np.float64)
    n = m.shape[0] if m.ndim == 1 else -1
    if m.ndim != 1 or d.shape != (n, 3) or il.shape != (n, 3):
        raise ValueError(
            f"need masses (n,), positions (n, 3), inertias (n, 3); got "
            f"{m.shape}, {d.shape}, {il.shape}")
    total = _fsum(m)
    if not math.isfinite(total):
        raise InputError(source, "elements", "total mass is not finite (values too large?)")
    if not total > 0.0:
        raise InputError(source, "elements", f"total mass must be > 0, got {total!r}")
    with np.errstate(over="ignore", invalid="ignore"):
        cg = np.array([_fsum(m * d[:, k]) for k in range(3)]) / total
        rx, ry, rz = (d - cg).T
        ixx = _fsum(il[:, 0] + m * (ry * ry + rz * rz))
        iyy = _fsum(il[:, 1] + m * (rz * rz + rx * rx))
        izz = _fsum(il[:, 2] + m * (rx * rx + ry * ry))
        ixy = _fsum(m * rx * ry)
        ixz = _fsum(m * rx * rz)
        iyz = _fsum(m * ry * rz)
    # 0.0 - x rather than -x: a zero product of inertia stays +0.0.
    inertia = np.array([[ixx, 0.0 - ixy, 0.0 - ixz],
                        [0.0 - ixy, iyy, 0.0 - iyz],
                        [0.0 - ixz, 0.0 - iyz, izz]])
    _check_inertia(source, cg, inertia)
    return total, cg, inertia


def _check_inertia(source, cg, inertia):
    """Raise InputError unless the CG is finite and the tensor positive definite."""
    if not (np.all(np.isfinite(cg)) and np.all(np.isfinite(inertia))):
        raise InputError(source, "elements",
                         "mass properties are not finite (values too large?)")
    moments = np.linalg.eigvalsh(inertia)
    if not moments[0] > _SINGULAR_RTOL * moments[-1]:
        raise InputError(
            source, "elements",
            "inertia tensor is singular or not positive definite (principal "
            f"moments {', '.join(f'{x:.6g}' for x in moments)} slug*ft^2); give the "
            "elements local inertia or spread them out")


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------

def _join(where, key):
    """Dotted path of ``key`` inside ``where``."""
    return f"{where}.{key}" if where else str(key)


def _type_name(value):
    """The TOML name of a parsed value's type."""
    if isinstance(value, bool):
        return "boolean"
    names = {int: "integer", float: "float", str: "string", list: "array", dict: "table"}
    return names.get(type(value), "date/time")


def _show(value):
    """A parsed value as a short phrase for an error message ("string 'x'")."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return f"array of {len(value)} values"
    return _type_name(value)


def _did_you_mean(word, choices):
    """A "; did you mean 'x'?" hint, or an empty string."""
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


class _Checker:
    """Validators for one file's parsed values; every failure is an InputError.

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

    def table(self, value, where, required, optional=()):
        """Check a TOML table and its key set; return it.

        Unknown keys are reported first (with the closest valid key), then
        missing ones.
        """
        if not isinstance(value, dict):
            self.fail(where, f"must be a table, got {_type_name(value)}")
        allowed = (*required, *optional)
        for key in value:
            if key not in allowed:
                self.fail(_join(where, key),
                          "unknown key" + _did_you_mean(key, allowed)
                          + f" (valid keys: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.fail(_join(where, key), "required key is missing")
        return value

    def number(self, value, where, *, gt=None, ge=None, le=None):
        """A finite int or float (not a boolean) within bounds, as float."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number, got {_show(value)}")
        try:
            x = float(value)
        except OverflowError:
            self.fail(where, "must be finite, got an integer too large for a float")
        if not math.isfinite(x):
            self.fail(where, f"must be finite, got {value!r}")
        if gt is not None and not x > gt:
            self.fail(where, f"must be > {gt:g}, got {value!r}")
        if ge is not None and not x >= ge:
            self.fail(where, f"must be >= {ge:g}, got {value!r}")
        if le is not None and not x <= le:
            self.fail(where, f"must be <= {le:g}, got {value!r}")
        return x

    def array(self, value, where, *, length=None, min_length=1, **bounds):
        """A TOML array of numbers (each checked by :meth:`number`) as float64."""
        if not isinstance(value, list):
            self.fail(where, f"must be an array of numbers, got {_type_name(value)}")
        if length is not None and len(value) != length:
            self.fail(where, f"must have {length} values, got {len(value)}")
        if len(value) < min_length:
            self.fail(where, f"must have at least {min_length} values, got {len(value)}")
        return np.array([self.number(x, f"{where}[{i}]", **bounds)
                         for i, x in enumerate(value)], dtype=np.float64)

    def vector3(self, value, where, **bounds):
        """A 3-vector of finite numbers as a read-only float64 array."""
        return _readonly(self.array(value, where, length=3, **bounds))

    def string(self, value, where, choices=None):
        """A non-empty string, optionally one of ``choices``."""
        if not isinstance(value, str):
            self.fail(where, f"must be a string, got {_show(value)}")
        if not value.strip():
            self.fail(where, "must not be empty")
        if choices is not None and value not in choices:
            self.fail(where, f"unknown value {value!r}" + _did_you_mean(value, choices)
                      + f" (valid: {', '.join(choices)})")
        return value


def _readonly(array):
    """A read-only float64 copy of ``array``."""
    out = np.array(array, dtype=np.float64)
    out.flags.writeable = False
    return out


# ---------------------------------------------------------------------------
# Reading the file
# ---------------------------------------------------------------------------

_TOML_POSITION = re.compile(r"\s*\((?:at )?(line \d+, column \d+|end of document)\)\s*$")


def _read_toml(path):
    """Parse a TOML file into a dict, turning every failure into InputError."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(path, "", "file not found") from None
    except OSError as exc:
        raise InputError(path, "", f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"byte {exc.start}", "not UTF-8 text (is it a TOML file?)") from None
    if not text.strip():
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
    if not data:
        raise InputError(path, "", "file has no settings (only comments?)")
    return data


def _check_units(check, data):
    """Require the ``[units]`` section to declare exactly ft/slug/lbf/deg."""
    units = check.table(data["units"], "units", tuple(UNITS))
    for key, expected in UNITS.items():
        value = check.string(units[key], _join("units", key))
        if value != expected:
            check.fail(_join("units", key),
                       f"{value!r} is not supported: only ft/slug/lbf/deg supported")


def _load_table(check, name, value):
    """Validate one ``[tables.NAME]`` section and build its :class:`Table`."""
    where = _join("tables", name)
    if not isinstance(value, dict):
        check.fail(where, f"must be a table, got {_type_name(value)}")
    if "kind" not in value:
        check.table(value, where, ("kind",), _ALL_TABLE_KEYS)
    kind = check.string(value["kind"], _join(where, "kind"), TABLE_KINDS)
    if kind == "drag":
        check.table(value, where, ("kind", "cd"))
        cd = check.number(value["cd"], _join(where, "cd"), ge=0.0)
        empty = np.empty(0)
        return Table(name, kind, _readonly(empty), _readonly(empty), _readonly([cd]),
                     None, None, None, None, 0.0, cd)
    columns = _LIFTING_COLUMNS if kind == "lifting" else _SYMMETRIC_COLUMNS
    check.table(value, where, ("kind", "alpha", *columns, "outside_cl", "outside_cd"))
    alpha = _breakpoints(check, value["alpha"], _join(where, "alpha"),
                         symmetric=kind == "symmetric")
    arrays = {}
    for column in columns:
        bounds = {"ge": 0.0} if column.startswith("cd") else {}
        arrays[column] = check.array(value[column], _join(where, column), **bounds)
        if len(arrays[column]) != len(alpha):
            check.fail(_join(where, column),
                       f"has {len(arrays[column])} values but alpha has {len(alpha)}")
    arrays = {k: _readonly(v) for k, v in arrays.items()}
    return Table(
        name, kind, _readonly(alpha), arrays["cl"], arrays["cd"],
        arrays.get("cl_te_down"), arrays.get("cl_te_up"),
        arrays.get("cd_te_down"), arrays.get("cd_te_up"),
        check.number(value["outside_cl"], _join(where, "outside_cl")),
        check.number(value["outside_cd"], _join(where, "outside_cd"), ge=0.0))


def _breakpoints(check, value, where, symmetric):
    """Angle-of-attack breakpoints: >= 2, strictly increasing, >= 0 if symmetric."""
    alpha = check.array(value, where, min_length=2, **({"ge": 0.0} if symmetric else {}))
    for i in range(1, len(alpha)):
        if not alpha[i] > alpha[i - 1]:
            check.fail(f"{where}[{i}]", f"breakpoints must be strictly increasing, "
                       f"got {float(alpha[i])!r} after {float(alpha[i - 1])!r}")
    return alpha


def _load_tables(check, value):
    """All ``[tables.*]`` sections, by name."""
    if not isinstance(value, dict):
        check.fail("tables", f"must be a table of tables, got {_type_name(value)}")
    if not value:
        check.fail("tables", "needs at least one table")
    return {name: _load_table(check, name, table) for name, table in value.items()}


def _load_link(check, value, where):
    """An optional ``{ input = ..., gain = ... }`` control link."""
    check.table(value, where, _LINK_KEYS)
    return ControlLink(check.string(value["input"], _join(where, "input"), LINK_INPUTS),
                       check.number(value["gain"], _join(where, "gain")))


def _load_element(check, value, where, tables):
    """Validate one ``[[elements]]`` entry; return its fields (without ``position``)."""
    check.table(value, where, _ELEMENT_KEYS, _ELEMENT_OPTIONAL)
    table = check.string(value["table"], _join(where, "table"))
    if table not in tables:
        check.fail(_join(where, "table"), f"unknown table {table!r}"
                   + _did_you_mean(table, tables) + f" (tables: {', '.join(tables)})")
    links = {key: _load_link(check, value[key], _join(where, key)) if key in value else None
             for key in _ELEMENT_OPTIONAL}
    if links["flap"] is not None and tables[table].kind != "lifting":
        check.fail(_join(where, "flap"), f"needs a 'lifting' table; table {table!r} "
                   f"is {tables[table].kind!r}")
    return dict(
        name=check.string(value["name"], _join(where, "name")),
        part=check.string(value["part"], _join(where, "part"), PARTS),
        mass=check.number(value["mass"], _join(where, "mass"), gt=0.0),
        design_position=check.vector3(value["position"], _join(where, "position")),
        local_inertia=check.vector3(value["inertia"], _join(where, "inertia"), ge=0.0),
        incidence_deg=check.number(value["incidence"], _join(where, "incidence")),
        dihedral_deg=check.number(value["dihedral"], _join(where, "dihedral")),
        area=check.number(value["area"], _join(where, "area"), gt=0.0),
        table=table,
        **links,
    )


def _load_elements(check, value, tables):
    """All ``[[elements]]`` entries as field dicts, names unique."""
    if not isinstance(value, list):
        check.fail("elements", "must be an array of tables ([[elements]]), "
                   f"got {_type_name(value)}")
    if not value:
        check.fail("elements", "needs at least one element")
    fields, seen = [], {}
    for i, item in enumerate(value):
        where = f"elements[{i}]"
        if not isinstance(item, dict):
            check.fail(where, f"must be a table, got {_type_name(item)}")
        spec = _load_element(check, item, where, tables)
        if spec["name"] in seen:
            check.fail(_join(where, "name"), f"duplicate name {spec['name']!r} "
                       f"(also elements[{seen[spec['name']]}])")
        seen[spec["name"]] = i
        fields.append(spec)
    return fields


def _load_sections(check, data):
    """The scalar sections: environment, propulsion, initial, ground."""
    sections = {name: check.table(data[name], name, keys)
                for name, keys in _SECTION_KEYS.items()}

    def num(section, key, **bounds):
        return check.number(sections[section][key], _join(section, key), **bounds)

    def vec(key):
        return check.vector3(sections["initial"][key], _join("initial", key))

    return dict(
        air_density=num("environment", "air_density", gt=0.0),
        gravity=num("environment", "gravity", gt=0.0),
        max_thrust=num("propulsion", "max_thrust", ge=0.0),
        initial_throttle=num("propulsion", "initial_throttle", ge=0.0, le=1.0),
        initial_position=vec("position"),
        initial_velocity=vec("velocity"),
        initial_attitude_deg=vec("attitude"),
        initial_omega=vec("omega"),
        contact_height=num("ground", "contact_height", ge=0.0),
        crash_sink_rate=num("ground", "crash_sink_rate", gt=0.0),
        crash_bank_deg=num("ground", "crash_bank", gt=0.0, le=180.0),
        crash_pitch_down_deg=num("ground", "crash_pitch_down", gt=0.0, le=90.0),
        rolling_friction=num("ground", "rolling_friction", ge=0.0),
    )


def load_aircraft(path=None):
    """Load, validate and complete an aircraft file.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A TOML aircraft file; ``None`` loads :data:`DEFAULT_AIRCRAFT` (the
        airplane of Bourg, *Physics for Game Developers*, ch. 15).

    Returns
    -------
    Aircraft
        The airplane with its mass properties computed by
        :func:`mass_properties` and every element's position relative to the
        centre of gravity.

    Raises
    ------
    flightsim.errors.InputError
        For any problem with the file: missing or unreadable, not TOML,
        empty, a missing, unknown or misspelt key, a value of the wrong type,
        length or range, inconsistent tables, an unknown table, part or
        control input, or unusable mass properties.  The message reads
        ``"<path>: <field path>: <reason>"``, e.g.
        ``"bourg.toml: elements[3].mass: must be > 0, got -1.0"``.
    """
    path = DEFAULT_AIRCRAFT if path is None else Path(path)
    data = _read_toml(path)
    check = _Checker(path)
    check.table(data, "", _TOP_KEYS)
    name = check.string(data["name"], "name")
    _check_units(check, data)
    sections = _load_sections(check, data)
    tables = _load_tables(check, data["tables"])
    specs = _load_elements(check, data["elements"], tables)
    mass, cg, inertia = mass_properties(
        [s["mass"] for s in specs], [s["design_position"] for s in specs],
        [s["local_inertia"] for s in specs], source=str(path))
    cg = _readonly(cg)
    elements = tuple(Element(**s, position=_readonly(s["design_position"] - cg)) for s in specs)
    return Aircraft(
        name=name, source=path, elements=elements, tables=tables, **sections,
        mass=mass, cg=cg, inertia=_readonly(inertia),
        inertia_inv=_readonly(np.linalg.inv(inertia)))

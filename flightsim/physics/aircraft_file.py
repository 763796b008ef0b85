"""Reading an aircraft file: the TOML checked field by field, and the quantities derived at load.

:func:`load_aircraft` reads an aircraft file (TOML, see ``configs/bourg.toml``),
checks every field against its accepted range and unit (the rules below,
through :class:`flightsim.schema.Checker`) and returns the frozen
:class:`~flightsim.physics.aircraft.Aircraft` of :mod:`flightsim.physics.aircraft`
(the data model), with what follows from the file computed here: the mass
properties the way Bourg, *Physics for Game Developers* (ch. 7 and 15), does
(:func:`mass_properties`), every element's and contact point's position
relative to the centre of gravity, the height of the CG on its wheels, and a
propeller's static thrust and speed.

Units are English throughout: ft, slug, lbf, degrees for angles stored in the
file, s (a propeller's power is given in hp, stored in ft·lbf/s).  Frames:
earth x North, y West, z up; body x forward, y left, z up; design coordinates
are body axes with their origin at a reference point at the tail.

Every problem with a file raises :class:`flightsim.errors.InputError` naming
the file, the field as a dotted path with indices (``elements[3].mass``) and
the reason; no other exception type escapes :func:`load_aircraft`.  The names
here are importable from :mod:`flightsim.physics.aircraft` as well.
"""

import math
from dataclasses import replace

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.aircraft import (
    AIRSPEED_UNITS,
    ATMOSPHERES,
    GEAR_KINDS,
    LINK_INPUTS,
    PARTS,
    PROPULSION_KINDS,
    TABLE_KINDS,
    UNITS,
    Aircraft,
    Contact,
    ControlLink,
    Element,
    GroundEffect,
    Mass,
    Propeller,
    Table,
)
from flightsim.physics.constants import HP
from flightsim.physics.wind import load_wind_section
from flightsim.resources import aircraft_path, data_file, shipped_aircraft  # noqa: F401 (shipped_aircraft: API)
from flightsim.schema import Checker, Number, Numbers, Text, join, read_toml, type_name

__all__ = ["CONFIG_DIR", "DEFAULT_AIRCRAFT", "aircraft_path", "load_aircraft", "mass_properties", "shipped_aircraft"]

CONFIG_DIR = data_file("configs")
"""Directory of the bundled aircraft files."""

DEFAULT_AIRCRAFT = CONFIG_DIR / "bourg.toml"
"""The book's airplane, loaded when :func:`load_aircraft` gets no path."""

_LIFTING_COLUMNS = ("cl", "cl_te_down", "cl_te_up", "cd", "cd_te_down", "cd_te_up")
_SYMMETRIC_COLUMNS = ("cl", "cd")
_ALL_TABLE_KEYS = ("alpha", *_LIFTING_COLUMNS, "outside_cl", "outside_cd")
_TOP_KEYS = ("name", "units", "environment", "propulsion", "initial", "ground", "gear", "tables", "elements")
_TOP_OPTIONAL = ("masses", "model", "instruments", "wind", "ground_effect", "atmosphere")
_ELEMENT_OPTIONAL = ("flap", "incidence_control")
_SINGULAR_RTOL = 1e-10


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
# Accepted ranges: generous, but finite and physical
# ---------------------------------------------------------------------------

_COEFFICIENT = Number(ge=-10.0, le=10.0)
_DRAG = Number(ge=0.0, le=10.0)
_ANGLE = Number(ge=-180.0, le=180.0, unit="deg")

_SECTIONS = {
    "environment": {
        "air_density": Number(gt=0.0, le=1.0, unit="slug/ft^3"),
        "gravity": Number(gt=0.0, le=1000.0, unit="ft/s^2"),
    },
    "initial": {
        "position": Numbers(Number(ge=-1e6, le=1e6, unit="ft"), length=3),
        "velocity": Numbers(Number(ge=-1e4, le=1e4, unit="ft/s"), length=3),
        "attitude": Numbers(Number(ge=-360.0, le=360.0, unit="deg"), length=3),
        "omega": Numbers(Number(ge=-100.0, le=100.0, unit="rad/s"), length=3),
    },
    "ground": {
        "crash_sink_rate": Number(gt=0.0, le=1000.0, unit="ft/s"),
    },
}
"""The scalar sections: each key's rule, with the accepted range and unit."""

_THRUST = {
    "max_thrust": Number(ge=0.0, le=1e6, unit="lbf"),
    "initial_throttle": Number(ge=0.0, le=1.0),
}
"""``[propulsion]`` of a constant thrust (``kind = "thrust"``, the default)."""

_PROPELLER = {
    "initial_throttle": Number(ge=0.0, le=1.0),
    "max_power": Number(gt=0.0, le=1e5, unit="hp"),
    "rated_rpm": Number(gt=0.0, le=1e5, unit="rev/min"),
    "idle_power": Number(gt=0.0, lt=1.0),
    "diameter": Number(gt=0.0, le=100.0, unit="ft"),
    "advance_ratio": Numbers(Number(ge=0.0, le=10.0), min_length=2, increasing="advance ratios"),
    "thrust_coefficient": Numbers(Number(ge=-1.0, le=1.0)),
    "power_coefficient": Numbers(Number(ge=-1.0, le=1.0)),
}
"""``[propulsion]`` of an engine and a propeller (``kind = "propeller"``)."""
_ENGINE_GEOMETRY = {
    "displacement": Number(gt=0.0, le=1e5, unit="in^3"),
}
"""Optional in a propeller's ``[propulsion]``: the engine's swept volume (its friction and pumping losses)."""

_MASS = {
    "name": Text(),
    "mass": Number(gt=0.0, le=1e6, unit="slug"),
    "position": Numbers(Number(ge=-1e4, le=1e4, unit="ft"), length=3),
    "inertia": Numbers(Number(ge=0.0, le=1e10, unit="slug*ft^2"), length=3),
}
"""A ``[[masses]]`` entry."""

_OPTIONAL = {
    "initial": {"cruise_speed": Number(gt=0.0, le=3000.0, unit="ft/s"),
                "approach_speed": Number(gt=0.0, le=3000.0, unit="ft/s")},
}
"""Keys a section may leave out."""

_SECTION_FIELDS = {  # Aircraft field: (section, key)
    "air_density": ("environment", "air_density"),
    "gravity": ("environment", "gravity"),
    "initial_position": ("initial", "position"),
    "initial_velocity": ("initial", "velocity"),
    "initial_attitude_deg": ("initial", "attitude"),
    "initial_omega": ("initial", "omega"),
    "crash_sink_rate": ("ground", "crash_sink_rate"),
}

_ELEMENT = {
    "name": Text(),
    "part": Text(PARTS),
    "mass": Number(gt=0.0, le=1e6, unit="slug"),
    "position": Numbers(Number(ge=-1e4, le=1e4, unit="ft"), length=3),
    "inertia": Numbers(Number(ge=0.0, le=1e10, unit="slug*ft^2"), length=3),
    "incidence": _ANGLE,
    "dihedral": _ANGLE,
    "area": Number(gt=0.0, le=1e5, unit="ft^2"),
}
"""An element's plain fields (``table`` and the control links are checked against the tables)."""

_LINK = {"input": Text(LINK_INPUTS), "gain": Number(ge=-180.0, le=180.0)}

_FRICTION = Number(ge=0.0, le=10.0)
_CONTACT = {
    "name": Text(),
    "kind": Text(GEAR_KINDS),
    "position": Numbers(Number(ge=-1e4, le=1e4, unit="ft"), length=3),
    "stiffness": Number(gt=0.0, le=1e8, unit="lbf/ft"),
    "damping": Number(ge=0.0, le=1e7, unit="lbf*s/ft"),
    "static_friction": _FRICTION,
}
"""Every contact point's fields."""

_WHEEL = {
    "max_compression": Number(gt=0.0, le=100.0, unit="ft"),
    "rolling_friction": _FRICTION,
    "brake_friction": _FRICTION,
    "steering": Number(ge=0.0, le=90.0, unit="deg"),
}
"""A wheel's fields besides :data:`_CONTACT` (a hard point has none of them)."""

_GEAR_REACH = 0.5
"""A contact point may lie at most this fraction of the elements' largest extent (and at least 5 ft) outside them."""


def _readonly(array):
    """A read-only float64 copy of ``array``."""
    out = np.array(array, dtype=np.float64)
    out.flags.writeable = False
    return out


# ---------------------------------------------------------------------------
# Reading the file
# ---------------------------------------------------------------------------

def _check_units(check, data):
    """Require the ``[units]`` section to declare exactly ft/slug/lbf/deg."""
    units = check.table(data["units"], "units", tuple(UNITS))
    for key, expected in UNITS.items():
        value = check.string(units[key], join("units", key))
        if value != expected:
            check.fail(join("units", key),
                       f"{value!r} is not supported: only ft/slug/lbf/deg supported")


def _load_table(check, name, value):
    """Validate one ``[tables.NAME]`` section and build its :class:`Table`."""
    where = join("tables", name)
    if not isinstance(value, dict):
        check.fail(where, f"must be a table, got {type_name(value)}")
    if "kind" not in value:
        check.table(value, where, ("kind",), _ALL_TABLE_KEYS)
    kind = check.string(value["kind"], join(where, "kind"), TABLE_KINDS)
    if kind == "drag":
        cd = check.fields(value, where, {"kind": Text(), "cd": _DRAG})["cd"]
        empty = np.empty(0)
        return Table(name, kind, _readonly(empty), _readonly(empty), _readonly([cd]),
                     None, None, None, None, 0.0, cd)
    columns = _LIFTING_COLUMNS if kind == "lifting" else _SYMMETRIC_COLUMNS
    alpha_range = Number(ge=0.0, le=180.0, unit="deg") if kind == "symmetric" else _ANGLE
    rules = {"kind": Text(),
             "alpha": Numbers(alpha_range, min_length=2, increasing="breakpoints"),
             **{c: Numbers(_DRAG if c.startswith("cd") else _COEFFICIENT) for c in columns},
             "outside_cl": _COEFFICIENT, "outside_cd": _DRAG}
    fields = check.fields(value, where, rules)
    alpha = fields["alpha"]
    for column in columns:
        if len(fields[column]) != len(alpha):
            check.fail(join(where, column),
                       f"has {len(fields[column])} values but alpha has {len(alpha)}")
    arrays = {c: _readonly(fields[c]) for c in columns}
    return Table(
        name, kind, _readonly(alpha), arrays["cl"], arrays["cd"],
        arrays.get("cl_te_down"), arrays.get("cl_te_up"),
        arrays.get("cd_te_down"), arrays.get("cd_te_up"),
        fields["outside_cl"], fields["outside_cd"])


def _load_tables(check, value):
    """All ``[tables.*]`` sections, by name."""
    if not isinstance(value, dict):
        check.fail("tables", f"must be a table of tables, got {type_name(value)}")
    if not value:
        check.fail("tables", "needs at least one table")
    return {name: _load_table(check, name, table) for name, table in value.items()}


def _load_link(check, value, where):
    """An optional ``{ input = ..., gain = ... }`` control link."""
    link = check.fields(value, where, _LINK)
    return ControlLink(link["input"], link["gain"])


def _load_element(check, value, where, tables):
    """Validate one ``[[elements]]`` entry; return its fields (without ``position``)."""
    check.table(value, where, (*_ELEMENT, "table"), _ELEMENT_OPTIONAL)
    table = check.string(value["table"], join(where, "table"))
    check.choice(table, join(where, "table"), tables, noun="table", label="tables")
    links = {key: _load_link(check, value[key], join(where, key)) if key in value else None
             for key in _ELEMENT_OPTIONAL}
    if links["flap"] is not None and tables[table].kind != "lifting":
        check.fail(join(where, "flap"), f"needs a 'lifting' table; table {table!r} "
                   f"is {tables[table].kind!r}")
    plain = check.fields({k: value[k] for k in _ELEMENT}, where, _ELEMENT)
    return dict(
        name=plain["name"],
        part=plain["part"],
        mass=plain["mass"],
        design_position=_readonly(plain["position"]),
        local_inertia=_readonly(plain["inertia"]),
        incidence_deg=plain["incidence"],
        dihedral_deg=plain["dihedral"],
        area=plain["area"],
        table=table,
        **links,
    )


def _load_elements(check, value, tables):
    """All ``[[elements]]`` entries as field dicts, names unique."""
    if not isinstance(value, list):
        check.fail("elements", "must be an array of tables ([[elements]]), "
                   f"got {type_name(value)}")
    if not value:
        check.fail("elements", "needs at least one element")
    fields, seen = [], {}
    for i, item in enumerate(value):
        where = f"elements[{i}]"
        if not isinstance(item, dict):
            check.fail(where, f"must be a table, got {type_name(item)}")
        spec = _load_element(check, item, where, tables)
        if spec["name"] in seen:
            check.fail(join(where, "name"), f"duplicate name {spec['name']!r} "
                       f"(also elements[{seen[spec['name']]}])")
        seen[spec["name"]] = i
        fields.append(spec)
    return fields


def _load_contact(check, value, where):
    """Validate one ``[[gear]]`` entry; return its fields (without ``position``)."""
    if not isinstance(value, dict):
        check.fail(where, f"must be a table, got {type_name(value)}")
    if "kind" not in value:
        check.table(value, where, ("kind",), (*_CONTACT, *_WHEEL))
    kind = check.string(value["kind"], join(where, "kind"), GEAR_KINDS)
    if kind == "hard_point":
        for key in _WHEEL:
            if key in value:
                check.fail(join(where, key), f"only a wheel has {key} (this is a hard point: touching the ground "
                           f"with it is a crash)")
        fields = check.fields(value, where, _CONTACT)
        fields.update(max_compression=0.0, rolling_friction=0.0, brake_friction=0.0, steering=0.0)
    else:
        fields = check.fields(value, where, {**_CONTACT, **_WHEEL})
    return dict(
        name=fields["name"], kind=kind, design_position=_readonly(fields["position"]),
        stiffness=fields["stiffness"], damping=fields["damping"], static_friction=fields["static_friction"],
        rolling_friction=fields["rolling_friction"], brake_friction=fields["brake_friction"],
        steering_deg=fields["steering"], max_compression=fields["max_compression"],
    )


def _load_gear(check, value):
    """All ``[[gear]]`` entries as field dicts, names unique."""
    if not isinstance(value, list):
        check.fail("gear", f"must be an array of tables ([[gear]]), got {type_name(value)}")
    if not value:
        check.fail("gear", "needs at least one contact point")
    specs, seen = [], {}
    for i, item in enumerate(value):
        where = f"gear[{i}]"
        spec = _load_contact(check, item, where)
        if spec["name"] in seen:
            check.fail(join(where, "name"), f"duplicate name {spec['name']!r} (also gear[{seen[spec['name']]}])")
        seen[spec["name"]] = i
        specs.append(spec)
    return specs


def _check_gear_reach(check, gear, elements):
    """Each contact point must lie near the airplane: within a margin of the elements' bounding box."""
    points = np.array([s["design_position"] for s in elements])
    low, high = points.min(axis=0), points.max(axis=0)
    margin = max(5.0, _GEAR_REACH * float(np.max(high - low)))
    for i, spec in enumerate(gear):
        p = spec["design_position"]
        outside = float(np.linalg.norm(np.maximum(np.maximum(low - p, p - high), 0.0)))
        if outside > margin:
            box = ", ".join(f"{axis} {lo:g}..{hi:g}" for axis, lo, hi in zip("xyz", low, high, strict=True))
            check.fail(join(f"gear[{i}]", "position"),
                       f"is {outside:.4g} ft outside the airplane: a contact point must lie within {margin:.3g} ft "
                       f"of the elements (design {box} ft)")


def _contact_height(gear):
    """CG height above the ground when the lowest wheel (or contact point) touches, level, legs extended (ft)."""
    wheels = [c for c in gear if c.is_wheel] or list(gear)
    return float(-min(c.position[2] for c in wheels))


def _load_sections(check, data):
    """The scalar sections: environment, propulsion, initial, ground."""
    sections = {name: check.fields(data[name], name, rules, _OPTIONAL.get(name)) for name, rules in _SECTIONS.items()}
    out = {field: sections[section][key] for field, (section, key) in _SECTION_FIELDS.items()}
    out["cruise_speed"] = sections["initial"].get("cruise_speed")
    out["approach_speed"] = sections["initial"].get("approach_speed")
    for field in ("initial_position", "initial_velocity", "initial_attitude_deg", "initial_omega"):
        out[field] = _readonly(out[field])
    return out


def _load_propulsion(check, value):
    """``[propulsion]``: ``max_thrust``, ``initial_throttle`` and the :class:`Propeller` (or None)."""
    if not isinstance(value, dict):
        check.fail("propulsion", f"must be a table, got {type_name(value)}")
    kind = check.string(value["kind"], join("propulsion", "kind"), PROPULSION_KINDS) if "kind" in value else "thrust"
    rules = _THRUST if kind == "thrust" else _PROPELLER
    optional = {"kind": Text(PROPULSION_KINDS), **({} if kind == "thrust" else _ENGINE_GEOMETRY)}
    fields = check.fields(value, "propulsion", rules, optional=optional)
    if kind == "thrust":
        return dict(max_thrust=fields["max_thrust"], initial_throttle=fields["initial_throttle"], propeller=None)
    j = np.array(fields["advance_ratio"])
    if j[0] != 0.0:
        check.fail(join("propulsion", "advance_ratio"), f"must start at 0 (the propeller at rest), got {j[0]!r}")
    columns = {}
    for key in ("thrust_coefficient", "power_coefficient"):
        if len(fields[key]) != len(j):
            check.fail(join("propulsion", key), f"has {len(fields[key])} values but advance_ratio has {len(j)}")
        columns[key] = np.array(fields[key])
    cp, ct = columns["power_coefficient"], columns["thrust_coefficient"]
    if not cp[0] > 0.0 or not ct[0] > 0.0:
        check.fail(join("propulsion", "power_coefficient" if not cp[0] > 0.0 else "thrust_coefficient"),
                   "must be > 0 at advance ratio 0 (a propeller at rest absorbs power and pulls)")
    if np.any(np.diff(cp) > 0.0):
        check.fail(join("propulsion", "power_coefficient"),
                   "must not rise with the advance ratio (the engine's speed would not be unique)")
    windmill = np.flatnonzero(cp < 0.0)
    if len(windmill) > 1 and np.any(np.diff(cp[windmill] / j[windmill] ** 2) > 0.0):
        check.fail(join("propulsion", "power_coefficient"),
                   "where negative (windmilling), C_P / J^2 must not rise with the advance ratio (the "
                   "windmilling speed would not be unique)")
    prop = Propeller(
        max_power=fields["max_power"] * HP, rated_rpm=fields["rated_rpm"], idle_power=fields["idle_power"],
        diameter=fields["diameter"], advance_ratio=_readonly(j), thrust_coefficient=_readonly(ct),
        power_coefficient=_readonly(cp), displacement=fields.get("displacement", 0.0) / 1728.0,
        static_thrust=0.0, static_rpm=0.0)
    from flightsim.physics import aero  # (the loads import the aircraft's types: imported here, not above)

    static_thrust, static_rpm = aero.static_propeller(prop)
    prop = replace(prop, static_thrust=static_thrust, static_rpm=static_rpm)
    return dict(max_thrust=prop.static_thrust, initial_throttle=fields["initial_throttle"], propeller=prop)


_GROUND_EFFECT = {
    "span": Number(gt=0.0, le=1000.0, unit="ft"),
    "aspect_ratio": Number(gt=0.5, le=50.0),
    "span_efficiency": Number(gt=0.3, le=1.0),
    "lift_slope": Number(gt=0.0, le=0.2, unit="/deg"),
    "tau": Number(ge=0.0, le=0.5),
}
"""``[ground_effect]``'s numbers (beside ``elements``, the names of the wing's elements)."""


def _load_ground_effect(check, value, specs):
    """The optional ``[ground_effect]``: a :class:`GroundEffect` naming its elements by their indices."""
    if not isinstance(value, dict):
        check.fail("ground_effect", f"must be a table, got {type_name(value)}")
    check.table(value, "ground_effect", (*_GROUND_EFFECT, "elements"))
    fields = check.fields({k: value[k] for k in _GROUND_EFFECT}, "ground_effect", _GROUND_EFFECT)
    names = value["elements"]
    if not isinstance(names, list) or not names:
        check.fail(join("ground_effect", "elements"), f"must be a non-empty array of element names, got "
                   f"{type_name(names)}")
    index = {spec["name"]: k for k, spec in enumerate(specs)}
    chosen = []
    for i, name in enumerate(names):
        where = f"ground_effect.elements[{i}]"
        check.choice(check.string(name, where), where, index, noun="element", label="elements")
        if index[name] in chosen:
            check.fail(where, f"{name!r} named twice")
        chosen.append(index[name])
    return GroundEffect(elements=tuple(chosen), **fields)


def _load_masses(check, value):
    """The optional ``[[masses]]`` entries."""
    if not isinstance(value, list):
        check.fail("masses", f"must be an array of tables ([[masses]]), got {type_name(value)}")
    out, seen = [], {}
    for i, item in enumerate(value):
        where = f"masses[{i}]"
        fields = check.fields(item, where, _MASS)
        if fields["name"] in seen:
            check.fail(join(where, "name"), f"duplicate name {fields['name']!r} (also masses[{seen[fields['name']]}])")
        seen[fields["name"]] = i
        out.append(Mass(fields["name"], fields["mass"], _readonly(fields["position"]), _readonly(fields["inertia"])))
    return tuple(out)


def _model_path(check, value, path):
    """The ``model`` key: a shipped model's file name, or a path relative to the aircraft file."""
    name = check.string(value, "model")
    local = path.parent / name
    if local.is_file():
        return local
    shipped = data_file("assets", "models", name)
    if shipped.is_file():
        return shipped
    check.fail("model", f"no model file {name!r} beside the aircraft file or in the shipped assets/models")


def load_aircraft(path=None):
    """Load, validate and complete an aircraft file.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A TOML aircraft file, or a shipped aircraft's name (``"c172"``, see
        :func:`shipped_aircraft`); ``None`` loads :data:`DEFAULT_AIRCRAFT` (the
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
        control input, a gear contact point far outside the airplane, a
        physically absurd magnitude (every quantity has an
        accepted range, given in the message), or unusable mass properties.
        The message reads ``"<path>: <field path>: <reason>"``, e.g.
        ``"bourg.toml: propulsion.max_thrust: must be <= 1e+06, got 1e+300
        (accepted range 0..1e+06 lbf)"``.
    """
    path = DEFAULT_AIRCRAFT if path is None else aircraft_path(path)
    if path.suffix.lower() == ".xml":
        from flightsim.physics.jsbsim.model import load_jsbsim_aircraft

        return load_jsbsim_aircraft(path)
    data = read_toml(path)
    check = Checker(path)
    check.table(data, "", _TOP_KEYS, _TOP_OPTIONAL)
    name = check.string(data["name"], "name")
    _check_units(check, data)
    sections = _load_sections(check, data)
    sections.update(_load_propulsion(check, data["propulsion"]))
    tables = _load_tables(check, data["tables"])
    specs = _load_elements(check, data["elements"], tables)
    gear_specs = _load_gear(check, data["gear"])
    masses = _load_masses(check, data["masses"]) if "masses" in data else ()
    if "model" in data:
        sections["model"] = _model_path(check, data["model"], path)
    if "instruments" in data:
        instruments = check.fields(data["instruments"], "instruments", {"airspeed": Text(tuple(AIRSPEED_UNITS))})
        sections["airspeed_unit"] = instruments["airspeed"]
    if "atmosphere" in data:         # the air the file's figures assume (default: its constant air_density)
        sections["atmosphere"] = check.string(data["atmosphere"], "atmosphere", ATMOSPHERES)
    if "ground_effect" in data:
        sections["ground_effect"] = _load_ground_effect(check, data["ground_effect"], specs)
    mass, cg, inertia = mass_properties(
        [s["mass"] for s in specs] + [m.mass for m in masses],
        [s["design_position"] for s in specs] + [m.design_position for m in masses],
        [s["local_inertia"] for s in specs] + [m.local_inertia for m in masses], source=str(path))
    _check_gear_reach(check, gear_specs, specs)
    cg = _readonly(cg)
    elements = tuple(Element(**s, position=_readonly(s["design_position"] - cg)) for s in specs)
    gear = tuple(Contact(**s, position=_readonly(s["design_position"] - cg)) for s in gear_specs)
    return Aircraft(
        name=name, source=path, elements=elements, tables=tables, **sections,
        gear=gear, contact_height=_contact_height(gear), masses=masses,
        mass=mass, cg=cg, inertia=_readonly(inertia),
        inertia_inv=_readonly(np.linalg.inv(inertia)),
        wind=load_wind_section(check, data["wind"]) if "wind" in data else None)

"""Tests of flightsim.physics.aircraft: the bundled airplane, mass properties, validation."""

import copy
import datetime
import json
import math
import random
import tomllib

import numpy as np
import pytest
from conftest import non_physical

from flightsim.errors import InputError
from flightsim.physics.aircraft import (
    CONFIG_DIR,
    DEFAULT_AIRCRAFT,
    LINK_INPUTS,
    Aircraft,
    ControlLink,
    load_aircraft,
    mass_properties,
)
from flightsim.simulation.controls import CONTROL_NAMES

# The book's table (reference doc), typed in again so the tests do not read it
# back from the file under test: mass, design position, local inertia.
BOOK = [
    (6.56, (14.5, 12.0, 2.5), (13.92, 10.50, 24.00)),
    (7.31, (14.5, 5.5, 2.5), (21.95, 12.22, 33.67)),
    (7.31, (14.5, -5.5, 2.5), (21.95, 12.22, 33.67)),
    (6.56, (14.5, -12.0, 2.5), (13.92, 10.50, 24.00)),
    (2.62, (3.03, 2.5, 3.0), (0.837, 0.385, 1.206)),
    (2.62, (3.03, -2.5, 3.0), (0.837, 0.385, 1.206)),
    (2.93, (2.25, 0.0, 5.0), (1.262, 1.942, 0.718)),
    (31.8, (15.25, 0.0, 1.5), (66.30, 861.9, 861.9)),
]


# ---------------------------------------------------------------------------
# A small TOML writer, so broken files can be made by editing parsed data.
# ---------------------------------------------------------------------------

def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    raise TypeError(type(v))


def _is_array_of_tables(v):
    return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)


def _emit(lines, table, prefix):
    nested = []
    for key, value in table.items():
        if isinstance(value, dict) or _is_array_of_tables(value):
            nested.append((key, value))
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for key, value in nested:
        path = (*prefix, key)
        if isinstance(value, dict):
            lines.append(f"[{'.'.join(path)}]")
            _emit(lines, value, path)
        else:
            for item in value:
                lines.append(f"[[{'.'.join(path)}]]")
                _emit(lines, item, path)


def dump_toml(data):
    """Serialise parsed TOML data (the subset the aircraft files use)."""
    lines = []
    _emit(lines, data, ())
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def book_data():
    with open(DEFAULT_AIRCRAFT, "rb") as f:
        return tomllib.load(f)


@pytest.fixture
def data(book_data):
    return copy.deepcopy(book_data)


@pytest.fixture(scope="module")
def plane():
    return load_aircraft()


def write(tmp_path, data, name="plane.toml"):
    path = tmp_path / name
    path.write_text(dump_toml(data) if isinstance(data, dict) else data, encoding="utf-8")
    return path


def dotted(path):
    """("elements", 3, "mass") -> "elements[3].mass"."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def parent_of(data, path):
    node = data
    for key in path[:-1]:
        node = node[key]
    return node


def set_at(data, path, value):
    parent_of(data, path)[path[-1]] = value


def delete_at(data, path):
    del parent_of(data, path)[path[-1]]


def rename_at(data, path, new_key):
    parent = parent_of(data, path)
    parent[new_key] = parent.pop(path[-1])


def load_error(path):
    with pytest.raises(InputError) as info:
        load_aircraft(path)
    return info.value


def leaf_paths(node, prefix=()):
    """Paths of every scalar or numeric-array value, recursively."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaf_paths(value, (*prefix, key))
    elif _is_array_of_tables(node):
        for i, item in enumerate(node):
            yield from leaf_paths(item, (*prefix, i))
    else:
        yield prefix


def key_paths(node, prefix=()):
    """Paths of every key (tables and leaves) below the top level."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from key_paths(value, (*prefix, key))
    elif _is_array_of_tables(node):
        for i, item in enumerate(node):
            yield from key_paths(item, (*prefix, i))


# ---------------------------------------------------------------------------
# The bundled airplane
# ---------------------------------------------------------------------------

def test_default_paths():
    assert DEFAULT_AIRCRAFT == CONFIG_DIR / "bourg.toml"
    assert DEFAULT_AIRCRAFT.is_file()


def test_dump_toml_round_trips_the_book(book_data):
    assert tomllib.loads(dump_toml(book_data)) == book_data


def test_book_elements_in_order(plane):
    assert isinstance(plane, Aircraft)
    assert [e.name for e in plane.elements] == [
        "left outboard wing", "left inboard wing", "right inboard wing",
        "right outboard wing", "left elevator", "right elevator",
        "vertical tail", "fuselage"]
    assert [e.part for e in plane.elements] == [
        "wing", "wing", "wing", "wing", "tailplane", "tailplane", "fin", "fuselage"]
    assert [e.table for e in plane.elements] == ["wing"] * 6 + ["rudder", "fuselage"]
    for element, (mass, pos, inertia) in zip(plane.elements, BOOK, strict=True):
        assert element.mass == mass
        assert element.design_position.tolist() == list(pos)
        assert element.local_inertia.tolist() == list(inertia)
    assert [e.incidence_deg for e in plane.elements] == [-3.5] * 4 + [0.0] * 4
    assert [e.dihedral_deg for e in plane.elements] == [0.0] * 6 + [90.0, 0.0]
    assert [e.area for e in plane.elements] == [31.2, 36.4, 36.4, 31.2, 10.8, 10.8, 12.0, 84.0]


def test_book_control_links_follow_pilot_signs(plane):
    links = [(e.flap, e.incidence_control) for e in plane.elements]
    assert links == [
        (ControlLink("aileron", -1.0), None),   # roll right: left TE down
        (ControlLink("flaps", -1.0), None),     # flaps down: book's flap -1
        (ControlLink("flaps", -1.0), None),
        (ControlLink("aileron", 1.0), None),    # roll right: right TE up
        (ControlLink("elevator", 1.0), None),   # nose up: book's pitch-up flap +1
        (ControlLink("elevator", 1.0), None),
        (None, ControlLink("rudder", -16.0)),   # nose right: book's right rudder -16 deg
        (None, None),
    ]


def test_book_environment_and_initial_state(plane):
    assert plane.name == "Bourg's airplane"
    assert plane.source == DEFAULT_AIRCRAFT
    assert plane.air_density == 0.0023769
    assert plane.gravity == 32.174
    assert plane.max_thrust == 3000.0
    assert plane.initial_throttle * plane.max_thrust == pytest.approx(500.0, abs=1e-6)
    assert plane.initial_position.tolist() == [-5000.0, 0.0, 2000.0]
    assert plane.initial_velocity.tolist() == [60.0, 0.0, 0.0]
    assert plane.initial_attitude_deg.tolist() == [0.0, 0.0, 0.0]
    assert plane.initial_omega.tolist() == [0.0, 0.0, 0.0]
    assert plane.crash_sink_rate == 12.0
    assert plane.approach_speed == 114.0
    # the wheels' lowest points lie 0.4 ft below the baseline (design z = 0): the CG stands that much higher
    assert plane.contact_height == pytest.approx(plane.cg[2] + 0.4, abs=1e-12)
    assert plane.contact_height > plane.cg[2]


def test_book_gear_is_a_tricycle_with_hard_points_at_the_extremities(plane):
    """An addition to the book: three wheels (the nose one steers, the mains brake) and four hard points."""
    wheels = {c.name: c for c in plane.gear if c.is_wheel}
    hard = {c.name: c for c in plane.gear if not c.is_wheel}
    assert set(wheels) == {"nose wheel", "left main wheel", "right main wheel"}
    assert set(hard) == {"nose", "tail", "left wing tip", "right wing tip"}
    nose, left, right = wheels["nose wheel"], wheels["left main wheel"], wheels["right main wheel"]
    assert left.design_position.tolist() == [12.6, 3.8, -0.4] and right.design_position.tolist() == [12.6, -3.8, -0.4]
    assert nose.design_position.tolist() == [24.0, 0.0, -0.4]
    for c in plane.gear:
        np.testing.assert_array_equal(c.position, c.design_position - plane.cg)
        assert c.stiffness > 0 and c.damping > 0 and c.static_friction > 0
    # tricycle: the mains just behind the CG, the nose wheel far ahead; only the nose wheel steers,
    # only the mains brake; mirror-image mains
    assert left.position[0] < 0.0 < nose.position[0] and left.position[0] > -0.1 * nose.position[0]
    assert nose.steering_deg > 0 and left.steering_deg == right.steering_deg == 0
    assert nose.brake_friction == 0 and left.brake_friction == right.brake_friction > left.rolling_friction
    assert (left.stiffness, left.damping) == (right.stiffness, right.damping)
    # statics: the springs compress every leg alike (the airplane sits level), by a few inches
    weight = plane.mass * plane.gravity
    share = {n: weight * s for n, s in (("nose wheel", -left.position[0]), ("left main wheel", 0.5 * nose.position[0]),
                                         ("right main wheel", 0.5 * nose.position[0]))}
    share = {n: v / (nose.position[0] - left.position[0]) for n, v in share.items()}
    squash = [share[n] / wheels[n].stiffness for n in wheels]
    assert max(squash) - min(squash) < 0.005 and 0.1 < squash[0] < 0.25
    assert all(s < wheels[n].max_compression / 3 for s, n in zip(squash, wheels, strict=True))
    # the hard points are the airplane's extremities: wing tips outermost, nose ahead of the nose wheel, tail last
    assert hard["left wing tip"].position[1] == -hard["right wing tip"].position[1] == 15.0
    assert hard["nose"].position[0] > nose.position[0] and hard["tail"].position[0] < -13.0


def test_book_tables(plane):
    wing, rudder, fuselage = (plane.tables[k] for k in ("wing", "rudder", "fuselage"))
    assert set(plane.tables) == {"wing", "rudder", "fuselage"}
    assert wing.kind == "lifting"
    assert wing.alpha.tolist() == [-8, -4, 0, 4, 8, 12, 16, 20, 24]
    assert wing.cl.tolist() == [-0.54, -0.2, 0.2, 0.57, 0.92, 1.21, 1.43, 1.4, 1.0]
    assert wing.cl_te_down.tolist() == [0.0, 0.45, 0.85, 1.02, 1.39, 1.65, 1.75, 1.38, 1.17]
    assert wing.cl_te_up.tolist() == [-0.74, -0.4, 0.0, 0.27, 0.63, 0.92, 1.03, 1.1, 0.78]
    assert wing.cd.tolist() == [0.01, 0.0074, 0.004, 0.009, 0.013, 0.023, 0.05, 0.12, 0.21]
    assert wing.cd_te_down.tolist() == [0.0065, 0.0043, 0.0055, 0.0153, 0.0221, 0.0391,
                                        0.1, 0.195, 0.3]
    assert wing.cd_te_up.tolist() == [0.005, 0.0043, 0.0055, 0.02601, 0.03757, 0.06647,
                                      0.13, 0.18, 0.25]
    assert (wing.outside_cl, wing.outside_cd) == (0.0, 0.75)
    assert rudder.kind == "symmetric"
    assert rudder.alpha.tolist() == [0, 4, 8, 12, 16, 20, 24]
    # cl(0) = 0 instead of the book's 0.16: an odd, continuous fin lift (see the comment in the file).
    assert rudder.cl.tolist() == [0.0, 0.456, 0.736, 0.968, 1.144, 1.12, 0.8]
    assert rudder.cd.tolist() == [0.0032, 0.0072, 0.0104, 0.0184, 0.04, 0.096, 0.168]
    assert rudder.cl_te_down is None and rudder.cd_te_up is None
    assert (rudder.outside_cl, rudder.outside_cd) == (0.0, 0.75)
    assert fuselage.kind == "drag"
    assert fuselage.alpha.shape == (0,) and fuselage.cl.shape == (0,)
    assert fuselage.cd.tolist() == [0.5]
    assert (fuselage.outside_cl, fuselage.outside_cd) == (0.0, 0.5)
    for table in (wing, rudder, fuselage):
        assert table.alpha.dtype == np.float64 and table.cd.dtype == np.float64


def test_book_mass_and_cg(plane):
    assert plane.mass == pytest.approx(67.71, abs=1e-9)
    assert plane.cg == pytest.approx([13.4345, 0.0, 2.1772], abs=1e-4)
    assert plane.cg[1] == 0.0
    for element in plane.elements:
        np.testing.assert_array_equal(element.position, element.design_position - plane.cg)


def test_book_inertia_by_hand(plane):
    mass = sum(m for m, _, _ in BOOK)
    cg = [sum(m * d[k] for m, d, _ in BOOK) / mass for k in range(3)]
    ixx = iyy = izz = ixz = 0.0
    for m, d, il in BOOK:
        rx, ry, rz = (d[k] - cg[k] for k in range(3))
        ixx += il[0] + m * (ry * ry + rz * rz)
        iyy += il[1] + m * (rz * rz + rx * rx)
        izz += il[2] + m * (rx * rx + ry * ry)
        ixz += m * rx * rz
    # The numbers, for a reader: tail surfaces behind and above the CG make Ixz < 0.
    assert (ixx, iyy, izz, ixz) == pytest.approx((2549.6293, 2024.4989, 4414.7336, -166.9192),
                                                 abs=1e-3)
    np.testing.assert_allclose(plane.inertia, [[ixx, 0, -ixz], [0, iyy, 0], [-ixz, 0, izz]],
                               rtol=1e-12, atol=0)


def test_book_symmetric_products_are_exactly_zero(plane):
    for i, j in [(0, 1), (1, 0), (1, 2), (2, 1)]:
        assert plane.inertia[i, j] == 0.0
        assert math.copysign(1.0, plane.inertia[i, j]) == 1.0   # +0.0, not -0.0
    np.testing.assert_array_equal(plane.inertia, plane.inertia.T)


def test_book_inverse(plane):
    np.testing.assert_allclose(plane.inertia_inv @ plane.inertia, np.eye(3), atol=1e-12)


def test_arrays_are_read_only(plane):
    arrays = [plane.cg, plane.inertia, plane.inertia_inv, plane.initial_position,
              plane.elements[0].position, plane.elements[0].design_position,
              plane.tables["wing"].cl]
    for array in arrays:
        with pytest.raises(ValueError):
            array[0] = 1.0
    with pytest.raises(AttributeError):
        plane.mass = 1.0


def test_load_accepts_str_path():
    assert load_aircraft(str(DEFAULT_AIRCRAFT)).mass == load_aircraft().mass


def test_link_inputs_are_the_controls_except_throttle():
    assert set(LINK_INPUTS) == set(CONTROL_NAMES) - {"throttle", "brake", "parking_brake", "engine", "brake_left",
                                                     "brake_right", "gear"}


# ---------------------------------------------------------------------------
# mass_properties on toy airplanes
# ---------------------------------------------------------------------------

def test_two_masses_on_x_axis():
    mass, cg, inertia = mass_properties([1.0, 1.0], [[1, 0, 0], [-1, 0, 0]], [[1, 1, 1]] * 2)
    assert mass == 2.0
    np.testing.assert_array_equal(cg, [0, 0, 0])
    # Ixx = 1 + 1; Iyy = Izz = (1 + 1) + (1 + 1).
    np.testing.assert_array_equal(inertia, np.diag([2.0, 4.0, 4.0]))


def test_product_of_inertia_xy():
    _, cg, inertia = mass_properties([1.0, 1.0], [[1, 1, 0], [-1, -1, 0]], [[0.5] * 3] * 2)
    np.testing.assert_array_equal(cg, [0, 0, 0])
    # Ixx = 2 (0.5 + 1) = 3, Iyy = 3, Izz = 2 (0.5 + 2) = 5, Ixy = 1 + 1 = 2.
    np.testing.assert_array_equal(inertia, [[3, -2, 0], [-2, 3, 0], [0, 0, 5]])


def test_offset_cg_and_product_xz():
    mass, cg, inertia = mass_properties([3.0, 1.0], [[0, 0, 0], [4, 0, 4]], [[1, 1, 1]] * 2)
    assert mass == 4.0
    # CG = (3*0 + 1*4) / 4 = 1 in x and z; r = (-1, 0, -1) and (3, 0, 3).
    np.testing.assert_array_equal(cg, [1, 0, 1])
    # Ixx = 2 + 3*1 + 1*9 = 14; Iyy = 2 + 3*2 + 1*18 = 26; Izz = 14; Ixz = 3 + 9 = 12.
    np.testing.assert_allclose(inertia, [[14, 0, -12], [0, 26, 0], [-12, 0, 14]], atol=1e-12)


def test_matches_tensor_formula_and_mirror_symmetry_is_exact():
    rng = np.random.default_rng(7)
    m = rng.uniform(0.1, 10.0, 6)
    d = rng.uniform(-20.0, 20.0, (6, 3))
    il = rng.uniform(0.0, 5.0, (6, 3))
    mirror = d * [1, -1, 1]
    order = rng.permutation(12)
    masses = np.concatenate([m, m])[order]
    positions = np.concatenate([d, mirror])[order]
    locals_ = np.concatenate([il, il])[order]
    mass, cg, inertia = mass_properties(masses, positions, locals_)
    assert cg[1] == 0.0
    assert inertia[0, 1] == inertia[1, 0] == inertia[1, 2] == inertia[2, 1] == 0.0
    # Independent form: sum of diag(Il) + m (|r|^2 E - r r^T).
    r = positions - (masses @ positions) / masses.sum()
    expected = sum(np.diag(li) + mi * (ri @ ri * np.eye(3) - np.outer(ri, ri))
                   for mi, ri, li in zip(masses, r, locals_, strict=True))
    np.testing.assert_allclose(inertia, expected, rtol=1e-12, atol=1e-9)
    assert mass == pytest.approx(masses.sum(), rel=1e-15)


def test_singular_inertia_is_rejected():
    # Point masses on one line have no moment about it.
    with pytest.raises(InputError, match="singular or not positive definite"):
        mass_properties([3.0, 1.0], [[0, 0, 0], [4, 0, 4]], [[0, 0, 0]] * 2, source="toy")


def test_zero_total_mass_is_rejected():
    with pytest.raises(InputError, match="total mass must be > 0"):
        mass_properties([0.0], [[0, 0, 0]], [[1, 1, 1]])


def test_overflow_is_rejected():
    with pytest.raises(InputError, match="total mass is not finite"):
        mass_properties([1e308, 1e308], [[1, 0, 0], [-1, 0, 0]], [[1, 1, 1]] * 2)
    with pytest.raises(InputError, match="mass properties are not finite"):
        mass_properties([1.0, 1.0], [[1e308, 0, 0], [-1e308, 0, 0]], [[1, 1, 1]] * 2)


def test_shape_mismatch_is_value_error():
    with pytest.raises(ValueError, match="need masses"):
        mass_properties([1.0, 2.0], [[0, 0, 0]], [[1, 1, 1]])


def test_loader_uses_design_minus_cg(tmp_path, data):
    wing = copy.deepcopy(data["elements"][0])
    del wing["flap"]
    data["elements"] = [dict(wing, name="a", mass=3.0, position=[0.0, 0.0, 0.0]),
                        dict(wing, name="b", mass=1.0, position=[4.0, 0.0, 4.0])]
    data["gear"] = [dict(data["gear"][0], position=[2.0, 0.0, -1.0])]       # a gear near the toy airplane
    plane = load_aircraft(write(tmp_path, data))
    np.testing.assert_array_equal(plane.cg, [1, 0, 1])
    assert plane.elements[0].position.tolist() == [-1, 0, -1]
    assert plane.elements[1].position.tolist() == [3, 0, 3]
    assert plane.gear[0].position.tolist() == [1, 0, -2]
    assert plane.contact_height == 2.0
    assert plane.mass == 4.0


# ---------------------------------------------------------------------------
# Broken files: every error is an InputError naming the field and the reason
# ---------------------------------------------------------------------------

BROKEN = [
    # (path, new value, expected where, expected reason fragment)
    (("units", "length"), "m", "units.length", "only ft/slug/lbf/deg supported"),
    (("units", "angle"), "rad", "units.angle", "'rad' is not supported"),
    (("environment", "gravity"), True, "environment.gravity", "must be a number, got boolean true"),
    (("environment", "gravity"), "32", "environment.gravity", "must be a number, got string '32'"),
    (("environment", "gravity"), math.nan, "environment.gravity", "must be finite, got nan"),
    (("environment", "gravity"), math.inf, "environment.gravity", "must be finite, got inf"),
    (("environment", "gravity"), -32.174, "environment.gravity", "must be > 0, got -32.174"),
    (("environment", "gravity"), 10 ** 400, "environment.gravity",
     "must be finite, got an integer too large for a float"),
    (("environment", "gravity"), 1e400, "environment.gravity", "must be finite, got inf"),
    (("environment", "air_density"), 0, "environment.air_density", "must be > 0, got 0"),
    (("environment",), 3, "environment", "must be a table, got integer"),
    (("propulsion", "initial_throttle"), 1.5, "propulsion.initial_throttle", "must be <= 1"),
    (("propulsion", "max_thrust"), -1.0, "propulsion.max_thrust", "must be >= 0"),
    (("initial", "omega"), [0.0, 0.0, 0.0, 0.0], "initial.omega", "must have 3 values, got 4"),
    (("initial", "attitude"), [0.0, 0.0, math.nan], "initial.attitude[2]", "must be finite"),
    (("initial", "position"), "here", "initial.position", "must be an array of numbers, got string"),
    (("ground", "crash_sink_rate"), 0.0, "ground.crash_sink_rate", "must be > 0"),
    (("gear", 1, "rolling_friction"), -0.1, "gear[1].rolling_friction", "must be >= 0"),
    (("gear", 1, "stiffness"), -6730.0, "gear[1].stiffness", "must be > 0, got -6730.0"),
    (("gear", 1, "stiffness"), 0.0, "gear[1].stiffness", "must be > 0, got 0.0"),
    (("gear", 0, "damping"), -87.0, "gear[0].damping", "must be >= 0, got -87.0"),
    (("gear", 0, "static_friction"), -0.8, "gear[0].static_friction", "must be >= 0"),
    (("gear", 2, "brake_friction"), -0.6, "gear[2].brake_friction", "must be >= 0"),
    (("gear", 3, "static_friction"), -0.5, "gear[3].static_friction", "must be >= 0"),
    (("gear", 0, "max_compression"), 0.0, "gear[0].max_compression", "must be > 0"),
    (("gear", 0, "steering"), 120.0, "gear[0].steering", "must be <= 90"),
    (("gear", 0, "position"), [500.0, 0.0, -0.4], "gear[0].position", "ft outside the airplane"),
    (("gear", 4, "position"), [0.0, 0.0, -60.0], "gear[4].position", "ft outside the airplane"),
    (("gear", 0, "position"), [24.0, 0.0], "gear[0].position", "must have 3 values, got 2"),
    (("gear", 0, "kind"), "wheels", "gear[0].kind", "did you mean 'wheel'?"),
    (("gear", 3, "rolling_friction"), 0.1, "gear[3].rolling_friction", "only a wheel has rolling_friction"),
    (("gear", 2, "name"), "left main wheel", "gear[2].name", "duplicate name 'left main wheel' (also gear[1])"),
    (("gear", 2), 5, "gear[2]", "must be a table, got integer"),
    (("gear",), [], "gear", "needs at least one contact point"),
    (("gear",), {"name": "x"}, "gear", "must be an array of tables ([[gear]])"),
    (("name",), "", "name", "must not be empty"),
    (("name",), 5, "name", "must be a string, got 5"),
    (("elements", 3, "mass"), -1.0, "elements[3].mass", "must be > 0, got -1.0"),
    (("elements", 0, "mass"), 0, "elements[0].mass", "must be > 0, got 0"),
    (("elements", 2, "area"), 0.0, "elements[2].area", "must be > 0, got 0.0"),
    (("elements", 5, "inertia"), [1.0, -1.0, 1.0], "elements[5].inertia[1]", "must be >= 0, got -1.0"),
    (("elements", 1, "position"), [1.0, 2.0], "elements[1].position", "must have 3 values, got 2"),
    (("elements", 1, "position"), [1.0, "a", 2.0], "elements[1].position[1]",
     "must be a number, got string 'a'"),
    (("elements", 1, "incidence"), False, "elements[1].incidence", "got boolean false"),
    (("elements", 4, "table"), "wnig", "elements[4].table", "unknown table 'wnig'; did you mean 'wing'?"),
    (("elements", 4, "part"), "wings", "elements[4].part", "did you mean 'wing'?"),
    (("elements", 4, "part"), "rotor", "elements[4].part",
     "unknown value 'rotor' (valid: wing, tailplane, fin, fuselage)"),
    (("elements", 0, "flap", "input"), "ailerons", "elements[0].flap.input", "did you mean 'aileron'?"),
    (("elements", 0, "flap", "input"), "throttle", "elements[0].flap.input", "unknown value 'throttle'"),
    (("elements", 0, "flap"), 1.0, "elements[0].flap", "must be a table, got float"),
    (("elements", 0, "flap"), {"input": "aileron"}, "elements[0].flap.gain", "required key is missing"),
    (("elements", 0, "flap"), {"input": "aileron", "gain": 1.0, "gian": 2.0}, "elements[0].flap.gian",
     "unknown key; did you mean 'gain'?"),
    (("elements", 6, "flap"), {"input": "elevator", "gain": 1.0}, "elements[6].flap",
     "needs a 'lifting' table; table 'rudder' is 'symmetric'"),
    (("elements", 7, "incidence_control"), {"input": "yaw", "gain": 1.0},
     "elements[7].incidence_control.input", "unknown value 'yaw'"),
    (("elements", 7, "name"), "vertical tail", "elements[7].name",
     "duplicate name 'vertical tail' (also elements[6])"),
    (("elements", 7), 5, "elements[7]", "must be a table, got integer"),
    (("elements",), {"name": "x"}, "elements", "must be an array of tables ([[elements]])"),
    (("elements",), [], "elements", "needs at least one element"),
    (("tables",), {}, "tables", "needs at least one table"),
    (("tables",), 3, "tables", "must be a table of tables"),
    (("tables", "wing"), [1.0], "tables.wing", "must be a table, got array"),
    (("tables", "wing", "alpha"), [-8.0, -4.0, 0.0, 0.0, 8.0, 12.0, 16.0, 20.0, 24.0],
     "tables.wing.alpha[3]", "breakpoints must be strictly increasing, got 0.0 after 0.0"),
    (("tables", "wing", "alpha"), [0.0], "tables.wing.alpha", "must have at least 2 values, got 1"),
    (("tables", "wing", "cd_te_up"), [0.005] * 8, "tables.wing.cd_te_up",
     "has 8 values but alpha has 9"),
    (("tables", "wing", "cd", 2), -0.1, "tables.wing.cd[2]", "must be >= 0, got -0.1"),
    (("tables", "wing", "outside_cd"), -0.75, "tables.wing.outside_cd", "must be >= 0"),
    (("tables", "wing", "kind"), "lift", "tables.wing.kind", "did you mean 'lifting'?"),
    (("tables", "rudder", "cl_te_up"), [0.0] * 7, "tables.rudder.cl_te_up", "unknown key"),
    (("tables", "rudder", "alpha"), [-4.0, 0.0, 4.0, 8.0, 12.0, 16.0, 20.0],
     "tables.rudder.alpha[0]", "must be >= 0, got -4.0"),
    (("tables", "fuselage", "cd"), -0.5, "tables.fuselage.cd", "must be >= 0, got -0.5"),
    (("tables", "fuselage", "cd"), [0.5], "tables.fuselage.cd", "must be a number, got array of 1 values"),
    (("tables", "fuselage", "alpha"), [0.0, 1.0], "tables.fuselage.alpha", "unknown key"),
    (("wheels",), 3, "wheels", "unknown key (valid keys: name, units,"),
    (("units", "time"), "s", "units.time", "unknown key"),
    (("environment", "gravity"), datetime.date(1979, 5, 27), "environment.gravity",
     "must be a number, got date/time"),
]


@pytest.mark.parametrize("path, value, where, reason", BROKEN, ids=[dotted(c[0]) for c in BROKEN])
def test_broken_value(tmp_path, data, path, value, where, reason):
    set_at(data, path, value)
    error = load_error(write(tmp_path, data))
    assert error.where == where
    assert reason in error.reason
    assert str(error).startswith(f"{tmp_path / 'plane.toml'}: {where}: ")
    assert reason in str(error)


ABSURD = [
    # (path, value, where, the whole reason): physically absurd magnitudes name the accepted range
    (("propulsion", "max_thrust"), 1e300, "propulsion.max_thrust",
     "must be <= 1e+06, got 1e+300 (accepted range 0..1e+06 lbf)"),
    (("propulsion", "max_thrust"), -5.0, "propulsion.max_thrust",
     "must be >= 0, got -5.0 (accepted range 0..1e+06 lbf)"),
    (("environment", "air_density"), 2.0, "environment.air_density",
     "must be <= 1, got 2.0 (accepted range 0..1 slug/ft^3)"),
    (("environment", "gravity"), 1e4, "environment.gravity",
     "must be <= 1000, got 10000.0 (accepted range 0..1000 ft/s^2)"),
    (("initial", "velocity"), [1e5, 0.0, 0.0], "initial.velocity[0]",
     "must be <= 10000, got 100000.0 (accepted range -10000..10000 ft/s)"),
    (("initial", "position"), [0.0, 0.0, -1e300], "initial.position[2]",
     "must be >= -1e+06, got -1e+300 (accepted range -1e+06..1e+06 ft)"),
    (("initial", "omega"), [0.0, 1000, 0.0], "initial.omega[1]",
     "must be <= 100, got 1000 (accepted range -100..100 rad/s)"),
    (("elements", 7, "mass"), 1e9, "elements[7].mass",
     "must be <= 1e+06, got 1000000000.0 (accepted range 0..1e+06 slug)"),
    (("elements", 2, "area"), 1e6, "elements[2].area",
     "must be <= 100000, got 1000000.0 (accepted range 0..100000 ft^2)"),
    (("elements", 0, "inertia"), [1e12, 1.0, 1.0], "elements[0].inertia[0]",
     "must be <= 1e+10, got 1000000000000.0 (accepted range 0..1e+10 slug*ft^2)"),
    (("elements", 1, "position"), [1e5, 0.0, 0.0], "elements[1].position[0]",
     "must be <= 10000, got 100000.0 (accepted range -10000..10000 ft)"),
    (("elements", 6, "dihedral"), 270.0, "elements[6].dihedral",
     "must be <= 180, got 270.0 (accepted range -180..180 deg)"),
    (("elements", 6, "incidence_control", "gain"), -1e3, "elements[6].incidence_control.gain",
     "must be >= -180, got -1000.0 (accepted range -180..180)"),
    (("tables", "wing", "cl", 4), 1e3, "tables.wing.cl[4]", "must be <= 10, got 1000.0 (accepted range -10..10)"),
    (("tables", "wing", "alpha", 8), 400.0, "tables.wing.alpha[8]",
     "must be <= 180, got 400.0 (accepted range -180..180 deg)"),
    (("ground", "crash_sink_rate"), 1e5, "ground.crash_sink_rate",
     "must be <= 1000, got 100000.0 (accepted range 0..1000 ft/s)"),
]


@pytest.mark.parametrize("path, value, where, reason", ABSURD, ids=[dotted(c[0]) for c in ABSURD])
def test_absurd_magnitudes_are_rejected_with_the_accepted_range(tmp_path, data, path, value, where, reason):
    set_at(data, path, value)
    error = load_error(write(tmp_path, data))
    assert (error.where, error.reason) == (where, reason)


def test_every_number_in_the_file_has_a_finite_accepted_range(tmp_path, book_data):
    for path in leaf_paths(book_data):
        value = parent_of(book_data, path)[path[-1]]
        if isinstance(value, list):
            path, value = (*path, 0), value[0]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        for absurd in (1e300, -1e300):
            data = copy.deepcopy(book_data)
            set_at(data, path, absurd)
            error = load_error(write(tmp_path, data))
            assert error.where == dotted(path), (path, absurd)
            assert f"got {absurd!r} (accepted range " in error.reason, (path, error.reason)


MISSING_OR_MISSPELT = [
    # (path, misspelling, where of the misspelling, hint)
    (("environment", "air_density"), "air_densty", "environment.air_densty", "did you mean 'air_density'?"),
    (("elements",), "elemnts", "elemnts", "did you mean 'elements'?"),
    (("elements", 2, "name"), "nmae", "elements[2].nmae", "did you mean 'name'?"),
    (("tables", "wing", "kind"), "kidn", "tables.wing.kidn", "did you mean 'kind'?"),
    (("ground", "crash_sink_rate"), "crash_sink", "ground.crash_sink", "did you mean 'crash_sink_rate'?"),
    (("gear", 1, "stiffness"), "stifness", "gear[1].stifness", "did you mean 'stiffness'?"),
    (("gear", 0, "max_compression"), "compression", "gear[0].compression", "did you mean 'max_compression'?"),
]


@pytest.mark.parametrize("path, new_key, where, hint", MISSING_OR_MISSPELT,
                         ids=[c[1] for c in MISSING_OR_MISSPELT])
def test_misspelt_key_suggests_the_right_one(tmp_path, data, path, new_key, where, hint):
    rename_at(data, path, new_key)
    error = load_error(write(tmp_path, data))
    assert error.where == where
    assert hint in error.reason


def test_cruise_speed_is_optional_and_checked(tmp_path, book_data):
    data = copy.deepcopy(book_data)
    assert load_aircraft(write(tmp_path, data)).cruise_speed == 160.0
    del data["initial"]["cruise_speed"]
    assert load_aircraft(write(tmp_path, data)).cruise_speed is None
    data["initial"]["cruise_speed"] = -5.0
    error = load_error(write(tmp_path, data))
    assert error.where == "initial.cruise_speed" and "ft/s" in error.reason


def test_every_required_key_is_reported_missing(tmp_path, book_data):
    optional = {"flap", "incidence_control", "cruise_speed", "approach_speed"}
    for path in key_paths(book_data):
        if path[-1] in optional:
            continue
        data = copy.deepcopy(book_data)
        delete_at(data, path)
        error = load_error(write(tmp_path, data))
        if path[0] == "tables" and len(path) == 2:
            # A whole table gone: the elements that use it are reported.
            assert error.where.endswith(".table") and f"unknown table {path[1]!r}" in error.reason
        else:
            assert error.where == dotted(path), path
            assert error.reason == "required key is missing"


def test_every_value_of_the_wrong_type_is_reported(tmp_path, book_data):
    for path in leaf_paths(book_data):
        value = parent_of(book_data, path)[path[-1]]
        for wrong in (True, 1.5 if isinstance(value, str) else "oops"):
            data = copy.deepcopy(book_data)
            set_at(data, path, wrong)
            error = load_error(write(tmp_path, data))
            assert error.where == dotted(path), (path, wrong)
            assert "must be" in error.reason


def test_every_array_item_of_the_wrong_type_is_reported(tmp_path, book_data):
    for path in leaf_paths(book_data):
        value = parent_of(book_data, path)[path[-1]]
        if not isinstance(value, list):
            continue
        for i in range(len(value)):
            data = copy.deepcopy(book_data)
            set_at(data, (*path, i), "x")
            error = load_error(write(tmp_path, data))
            assert error.where == f"{dotted(path)}[{i}]"
            assert error.reason == "must be a number, got string 'x'"


def test_a_single_point_mass_is_singular(tmp_path, data):
    fuselage = dict(data["elements"][7], inertia=[0.0, 0.0, 0.0])
    data["elements"] = [fuselage]
    error = load_error(write(tmp_path, data))
    assert error.where == "elements"
    assert "singular or not positive definite" in error.reason


RAW = [
    # (file text or bytes, where (or its start), reason fragment)
    ("", "", "file is empty"),
    ("  \n\t\n", "", "file is empty"),
    ("# only a comment\n", "", "file has no settings"),
    ("name = \n", "line 1, column", "not valid TOML: Invalid value"),
    ('name = "a"\nname = "b"\n', "line 2", "not valid TOML"),
    ("[units\n", "line 1", "not valid TOML"),
    ('name = "unterminated\n', "line 1", "not valid TOML"),
    (b'name = "\xff\xfe"\n', "byte", "not UTF-8 text"),
    ("a = " + "[" * 5000 + "\n", "", "not valid TOML: nested too deeply"),
    ("a = " + "9" * 5000 + "\n", "", "not valid TOML: Exceeds the limit"),
    ("x = 1\n", "x", "unknown key"),
    ('name = "a"\n', "units", "required key is missing"),
]


@pytest.mark.parametrize("text, where, reason", RAW, ids=range(len(RAW)))
def test_raw_file_problems(tmp_path, text, where, reason):
    path = tmp_path / "plane.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    error = load_error(path)
    assert error.where.startswith(where) if where else error.where == ""
    assert reason in error.reason
    assert str(error).startswith(str(path))


def test_missing_file(tmp_path):
    error = load_error(tmp_path / "nope.toml")
    assert (error.where, error.reason) == ("", "file not found")
    assert str(error) == f"{tmp_path / 'nope.toml'}: file not found"


def test_directory(tmp_path):
    error = load_error(tmp_path)
    assert error.reason.startswith("cannot read file")


def test_random_damage_raises_only_input_error(tmp_path, book_data):
    rng = random.Random(12345)
    paths = list(leaf_paths(book_data)) + list(key_paths(book_data))
    junk = [-1, 0, 1e308, -1e308, "", "wing", [], {}, True, math.nan, math.inf,
            [1.0, 2.0], [0.0, 0.0, 0.0], {"input": "rudder", "gain": 1.0}, 1e-300]
    outcomes = set()
    for _ in range(400):
        data = copy.deepcopy(book_data)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(paths)
            try:
                parent = parent_of(data, path)
                if rng.random() < 0.2:
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = rng.choice(junk)
            except (KeyError, IndexError, TypeError):
                pass   # an earlier mutation removed or replaced the parent
        path = write(tmp_path, data)
        planted = non_physical(data)
        try:
            load_aircraft(path)
            assert not planted, f"loaded a file with non-physical values: {planted}"
            outcomes.add("ok")
        except InputError as exc:
            assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc), str(exc)
            outcomes.add("refused non-physical" if planted else "error")
    assert outcomes == {"ok", "error", "refused non-physical"}


NON_PHYSICAL = (math.nan, math.inf, -math.inf, 1e308, -1e308)
"""Numbers no field of a file may hold; each is refused with one line naming the file and the field."""


@pytest.mark.parametrize("name", ["bourg.toml", "c172.toml"])
def test_every_number_refuses_nan_infinities_and_absurd_magnitudes_naming_the_field(tmp_path, name):
    with open(CONFIG_DIR / name, "rb") as f:
        book = tomllib.load(f)
    checked = 0
    for path in leaf_paths(book):
        value = parent_of(book, path)[path[-1]]
        while isinstance(value, list) and value:          # an array: its first number stands for the others
            path, value = (*path, 0), value[0]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        for bad in NON_PHYSICAL:
            data = copy.deepcopy(book)
            set_at(data, path, bad)
            file = write(tmp_path, data)
            error = load_error(file)
            assert error.where == dotted(path), (path, bad, str(error))
            reason = "must be finite, got " if not math.isfinite(bad) else f"got {bad!r} (accepted range "
            assert reason in error.reason, (path, bad, error.reason)
            assert str(error) == f"{file}: {dotted(path)}: {error.reason}" and "\n" not in str(error)
            checked += 1
    assert checked > 100 * len(NON_PHYSICAL)

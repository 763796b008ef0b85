"""The airplane's 3D model, derived from the aircraft's element layout.

:func:`build_airplane` turns an :class:`~flightsim.physics.aircraft.Aircraft` and a
model description (``assets/models/bourg_airplane.toml``, which says how to
dress each kind of element: chord, airfoil, colours) into an
:class:`AirplaneModel`: a static mesh plus one movable part per control
surface, all in body coordinates (ft, x forward, y left, z up, origin at the
CG), so the model rotates about the CG.

Each lifting element becomes a panel whose span is ``area / chord``, centred
span-wise on the element's position with its reference chord point on it, and
turned by incidence and dihedral exactly as the element's surface normal is
in the physics, ``n = (sin i, cos i sin d, cos i cos d)``: the panel's frame is
``R_x(-d) R_y(i)``.  Elements with a flap link get a hinged trailing-edge
surface that turns by ``flap setting * control_deflection`` (+1 trailing
edge up); an element with an incidence link turns as a whole by its
incidence change.  :meth:`AirplaneModel.part_matrices` gives each part's
body-frame matrix for the simulation's ``surface_deflections()``.

Pure numpy; no OpenGL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from flightsim.app.scene import meshes
from flightsim.app.scene.meshes import Mesh, rgba, rotation_x, rotation_y, rotation_z, translation
from flightsim.resources import data_file
from flightsim.schema import Checker, Number, Numbers, did_you_mean, join, read_toml, show, type_name

__all__ = ["ASSETS_DIR", "DEFAULT_MODEL", "AirplaneModel", "ModelPart", "airfoil",
           "build_airplane", "load_model_spec", "model_spec_for"]

ASSETS_DIR = data_file("assets")
"""The shipped ``assets`` folder (see :mod:`flightsim.resources`)."""

DEFAULT_MODEL = ASSETS_DIR / "models" / "bourg_airplane.toml"
"""The model description used by default."""

_SPEC_SECTIONS = ("colors", "surfaces", "fuselage", "propeller", "gear")


@dataclass
class ModelPart:
    """One separately drawn piece of the airplane.

    Parameters
    ----------
    name : str
        For debugging and tests (e.g. ``"flap:left outboard wing"``).
    mesh : Mesh
        Vertices in the part's local frame.
    kind : str
        ``"static"`` (mesh already in body coordinates), ``"hinged"`` (turns
        about its local y axis), ``"propeller"`` (spins about body x) or
        ``"wheel"`` (a wheel with the lower part of its leg: rises with the
        leg's compression, turns with its steering).
    element : int or None
        Index of the aircraft element it belongs to.
    column : int
        Which column of ``surface_deflections()`` drives it: 0 the flap
        setting, 1 the incidence change in degrees.
    gain_deg : float
        Degrees of rotation per unit of that column.
    rest_deg : float
        Rotation at zero deflection (the element's incidence for a panel that
        turns as a whole).
    pre, post : numpy.ndarray, shape (4, 4)
        The part's body matrix is ``pre @ R_y(angle) @ post`` (``pre @
        R_x(angle)`` for the propeller; for a wheel ``T(compression) @ pre
        @ R_z(−steering) @ post``).
    contact : int or None
        A wheel: index of its contact point in ``Aircraft.gear``.
    """

    name: str
    mesh: Mesh
    kind: str = "static"
    element: int | None = None
    column: int = 0
    gain_deg: float = 0.0
    rest_deg: float = 0.0
    pre: np.ndarray = field(default_factory=lambda: np.eye(4))
    post: np.ndarray = field(default_factory=lambda: np.eye(4))
    contact: int | None = None

    def matrix(self, deflections, prop_angle=0.0, gear=None) -> np.ndarray:
        """Body-frame 4x4 matrix of the part for the given deflections.

        Parameters
        ----------
        deflections : numpy.ndarray, shape (n_elements, 2)
            The simulation's ``surface_deflections()``.
        prop_angle : float
            Propeller angle, radians.
        gear : numpy.ndarray, shape (n_contacts, 2), optional
            Per contact point of the aircraft: leg compression (ft) and
            steering angle (deg, + right); None: legs extended, straight.
        """
        if self.kind == "static":
            return self.pre
        if self.kind == "propeller":
            return self.pre @ rotation_x(prop_angle)
        if self.kind == "wheel":
            if gear is None:
                return self.pre
            squash, steer = (float(v) if math.isfinite(v) else 0.0 for v in gear[self.contact])
            # up by the compression; turned about the leg's vertical axis (pre, post: to and from the leg)
            return translation([0.0, 0.0, squash]) @ self.pre @ rotation_z(-math.radians(steer)) @ self.post
        value = float(deflections[self.element, self.column]) if self.element is not None else 0.0
        if not math.isfinite(value):
            value = 0.0
        angle = math.radians(self.rest_deg + self.gain_deg * value)
        return self.pre @ rotation_y(angle) @ self.post


@dataclass
class AirplaneModel:
    """The airplane as drawable parts in body coordinates.

    Attributes
    ----------
    parts : list of ModelPart
        The static body first (wings and tail surfaces), then the fuselage in
        two pieces and the landing gear's fixed struts (``"nose"``,
        ``"cabin"``, ``"gear"``, hidden in the cockpit view with the
        propeller and the wheels), the wheels (``"wheel:NAME"``, one per wheel of
        ``Aircraft.gear``), the control surfaces and the propeller.
    cockpit_eye : numpy.ndarray, shape (3,)
        Pilot's eye, body frame, ft.
    nose : numpy.ndarray, shape (3,)
        Propeller hub, body frame, ft.
    radius : float
        Radius of a sphere about the CG enclosing the airplane, ft.
    detail : float
        The fuselage's detail it was built with (:func:`build_airplane`).
    """

    parts: list
    cockpit_eye: np.ndarray
    nose: np.ndarray
    radius: float
    detail: float = 1.0

    def part_matrices(self, deflections, prop_angle=0.0, gear=None):
        """Body matrices of all parts, in :attr:`parts` order (``gear``: see :meth:`ModelPart.matrix`)."""
        return [p.matrix(deflections, prop_angle, gear) for p in self.parts]

    def part(self, name) -> ModelPart:
        """The part called ``name``."""
        for p in self.parts:
            if p.name == name:
                return p
        raise KeyError(name)


# ---------------------------------------------------------------------------
# Model description
# ---------------------------------------------------------------------------

def load_model_spec(path=None) -> dict:
    """Read and check a model description TOML.

    Checked as the aircraft and keymap files are (:mod:`flightsim.schema`):
    every key known, every number finite and in its accepted range, every
    colour a ``"#rrggbb"``, ``"#rrggbbaa"``, 3 or 4 numbers 0..1, or a name
    from ``[colors]``.

    Parameters
    ----------
    path : str or os.PathLike, optional
        Defaults to :data:`DEFAULT_MODEL`.

    Returns
    -------
    dict
        The description with colours resolved to RGBA arrays (``"palette"``:
        the ``[colors]`` by name).

    Raises
    ------
    flightsim.errors.InputError
        Naming the file, the field and the reason, e.g.
        ``bourg_airplane.toml: surfaces.wing.chord: must be a number, got string 'x'``.
    """
    path = Path(path) if path is not None else DEFAULT_MODEL
    check = Checker(path)
    data = read_toml(path)
    check.table(data, "", _SPEC_SECTIONS, ("name", "strut"))
    if "name" in data:
        check.string(data["name"], "name")
    colors = data["colors"]
    if not isinstance(colors, dict):
        check.fail("colors", f"must be a table of name = colour, got {type_name(colors)}")
    palette = {name: _colour(check, value, join("colors", name)) for name, value in colors.items()}

    def colour(value_check, value, where):
        if isinstance(value, str) and value in palette:
            return palette[value]
        if isinstance(value, str) and not value.startswith("#"):
            value_check.fail(where, f"unknown colour {value!r}" + did_you_mean(value, palette)
                             + f" (colours: #rrggbb, #rrggbbaa or a name from [colors]: {', '.join(palette)})")
        return _colour(value_check, value, where)

    surfaces = data["surfaces"]
    if not isinstance(surfaces, dict):
        check.fail("surfaces", f"must be a table of tables, got {type_name(surfaces)}")
    spec = {"surfaces": {}}
    for part, surface in surfaces.items():
        where = join("surfaces", part)
        check.choice(part, where, _SURFACE_PARTS, noun="part", label="parts")
        spec["surfaces"][part] = check.fields(surface, where, _surface_rules(colour),
                                              optional={"tip_color": colour})
    spec["fuselage"] = check.fields(data["fuselage"], "fuselage", _fuselage_rules(colour))
    spec["propeller"] = check.fields(data["propeller"], "propeller", _propeller_rules(colour))
    spec["gear"] = check.fields(data["gear"], "gear", _gear_rules(colour),
                                optional={"leg_top_y": Number(ge=0.0, le=100.0, unit="ft")})
    if "strut" in data:
        spec["strut"] = check.fields(data["strut"], "strut", _strut_rules(colour))
    spec["palette"] = palette
    return spec


def model_spec_for(aircraft, path=None):
    """The model description to draw ``aircraft`` with: ``path`` if given, else the one its file names
    (``model = ...``, :attr:`~flightsim.physics.aircraft.Aircraft.model`), else :data:`DEFAULT_MODEL`."""
    return load_model_spec(path if path is not None else getattr(aircraft, "model", None))


_SURFACE_PARTS = ("wing", "tailplane", "fin")
"""Element parts drawn as lifting panels (the fuselage is lofted)."""

_FRACTION = Number(ge=0.0, le=1.0)


def _surface_rules(colour):
    return {
        "chord": Number(gt=0.0, le=1000.0, unit="ft"),
        "reference_chord": _FRACTION,
        "thickness": Number(gt=0.0, le=0.5),
        "camber": Number(ge=0.0, le=0.2),
        "camber_position": _FRACTION,
        "control_chord": Number(ge=0.0, le=0.9),
        "control_deflection": Number(ge=-90.0, le=90.0, unit="deg"),
        "control_inset": Number(ge=0.0, le=100.0, unit="ft"),
        "tip_band": Number(ge=0.0, le=100.0, unit="ft"),
        "color": colour,
        "control_color": colour,
    }


def _fuselage_rules(colour):
    return {
        "segments": Number(ge=3, le=256, integer=True),
        "tail_clearance": Number(ge=0.0, le=100.0, unit="ft"),
        "color": colour,
        "stations": _stations,
        "cabin": Numbers(_FRACTION, length=2, increasing=True),
        "glass_above": _FRACTION,
        "roof_below": _FRACTION,
        "stripe": Numbers(_FRACTION, length=2, increasing=True),
        "eye": _eye,
    }


def _propeller_rules(colour):
    return {
        "diameter": Number(gt=0.0, le=100.0, unit="ft"),
        "blades": Number(ge=1, le=12, integer=True),
        "chord": Number(gt=0.0, le=10.0, unit="ft"),
        "spinner_length": Number(gt=0.0, le=20.0, unit="ft"),
        "spinner_radius": Number(gt=0.0, le=10.0, unit="ft"),
        "color": colour,
        "spinner_color": colour,
    }


def _gear_rules(colour):
    return {
        "wheel_radius": Number(gt=0.0, le=20.0, unit="ft"),
        "wheel_width": Number(gt=0.0, le=20.0, unit="ft"),
        "strut_color": colour,
        "tyre_color": colour,
    }


def _strut_rules(colour):
    """The optional ``[strut]``: a high wing's brace, one each side, from the wing down to the fuselage."""
    return {
        "wing_y": Number(gt=0.0, le=1000.0, unit="ft"),
        "fuselage_y": Number(ge=0.0, le=100.0, unit="ft"),
        "fuselage_z": Number(ge=-100.0, le=100.0, unit="ft"),
        "radius": Number(gt=0.0, le=10.0, unit="ft"),
        "color": colour,
    }


def _colour(check, value, where):
    """``"#rrggbb"``, ``"#rrggbbaa"`` or 3/4 numbers 0..1, as an RGBA array."""
    if isinstance(value, str):
        digits = value[1:] if value.startswith("#") else None
        if digits is None or len(digits) not in (6, 8) or any(c not in "0123456789abcdefABCDEF" for c in digits):
            check.fail(where, f"must be a colour \"#rrggbb\" or \"#rrggbbaa\", got {show(value)}")
        return rgba(value)
    if not isinstance(value, list) or len(value) not in (3, 4):
        check.fail(where, f"must be a colour: \"#rrggbb\", \"#rrggbbaa\" or 3 or 4 numbers 0..1, got {show(value)}")
    return rgba(check.numbers(value, where, ge=0.0, le=1.0))


def _stations(check, value, where):
    """The fuselage's side profile: rows [s, top, bottom, half_width], s from 0 to 1, enclosing an area."""
    if not isinstance(value, list) or len(value) < 2:
        check.fail(where, "must be an array of at least 2 rows [s, top, bottom, half_width], got "
                   + (f"{len(value)} rows" if isinstance(value, list) else type_name(value)))
    rows = []
    for i, row in enumerate(value):
        at = f"{where}[{i}]"
        s, top, bottom, half_width = check.numbers(row, at, length=4, ge=-10.0, le=10.0)
        check.number(s, f"{at}[0]", ge=0.0, le=1.0)
        check.number(half_width, f"{at}[3]", ge=0.0, le=10.0)
        if bottom > top:
            check.fail(at, f"bottom {bottom!r} is above top {top!r}")
        if rows and not s > rows[-1][0]:
            check.fail(f"{at}[0]", f"stations must be strictly increasing in s, got {s!r} after {rows[-1][0]!r}")
        rows.append((s, top, bottom, half_width))
    if rows[0][0] != 0.0 or rows[-1][0] != 1.0:
        check.fail(where, f"s must run from 0 (nose) to 1 (tail), got {rows[0][0]!r} to {rows[-1][0]!r}")
    s = np.array([r[0] for r in rows])
    height = np.array([r[1] - r[2] for r in rows])
    if not np.trapezoid(height, s) > 0.0:
        check.fail(where, "encloses no area (top equals bottom everywhere)")
    return rows


def _eye(check, value, where):
    """The cockpit camera: [station s 0..1, ft above the section top]."""
    s, above = check.numbers(value, where, length=2, ge=-100.0, le=100.0)
    check.number(s, f"{where}[0]", ge=0.0, le=1.0)
    return [s, above]


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------

def airfoil(thickness, camber, camber_position, u):
    """Upper and lower surface heights of a NACA 4-digit airfoil (closed trailing edge).

    Parameters
    ----------
    thickness, camber, camber_position : float
        Fractions of the chord.
    u : numpy.ndarray
        Chord stations, 0 (leading edge) .. 1 (trailing edge).

    Returns
    -------
    upper, lower : numpy.ndarray
        Heights as fractions of the chord.
    """
    u = np.asarray(u, dtype=np.float64)
    yt = 5.0 * thickness * (0.2969 * np.sqrt(u) - 0.1260 * u - 0.3516 * u**2
                            + 0.2843 * u**3 - 0.1036 * u**4)
    m, p = camber, camber_position
    if m > 0.0 and 0.0 < p < 1.0:
        yc = np.where(u < p, m / p**2 * (2 * p * u - u**2),
                      m / (1 - p) ** 2 * ((1 - 2 * p) + 2 * p * u - u**2))
    else:
        yc = np.zeros_like(u)
    return yc + yt, yc - yt


def _section(surface, u0, u1, n=12):
    """Closed (x, z) profile of the chord piece u0..u1, x forward, origin at the reference chord point."""
    t = np.linspace(0.0, 1.0, n)
    if u0 == 0.0:
        u = u1 * (1.0 - np.cos(0.5 * np.pi * t))          # dense near the leading edge
    else:
        u = u0 + (u1 - u0) * t
    upper, lower = airfoil(surface["thickness"], surface["camber"], surface["camber_position"], u)
    chord = surface["chord"]
    x = (surface["reference_chord"] - u) * chord
    top = np.stack([x, upper * chord], axis=-1)
    bottom = np.stack([x, lower * chord], axis=-1)[::-1]
    pts = np.vstack([top, bottom[1:-1] if u0 == 0.0 else bottom])
    if u0 == 0.0:                                           # the leading edge point is shared
        pts = np.vstack([top[::-1], np.stack([x, lower * chord], axis=-1)[1:]])
    if u1 >= 1.0:                                           # drop the duplicated closed trailing edge
        keep = np.ones(len(pts), bool)
        te = np.flatnonzero(np.isclose(pts[:, 0], x[-1]))
        keep[te[1:]] = False
        pts = pts[keep]
    return pts


def _element_frame(element):
    """Rotation local -> body of a lifting panel: R_x(-dihedral) @ R_y(incidence)."""
    return rotation_x(-math.radians(element.dihedral_deg))


def _tip_sign(element, frame, fuselage_z):
    """+1 if the panel's local +y end is its outer end (farther from the fuselage axis), else -1."""
    p = np.asarray(element.position, dtype=np.float64)
    axis = frame[:3, :3] @ np.array([0.0, 1.0, 0.0])
    plus, minus = p + axis, p - axis

    def dist(q):
        return math.hypot(q[1], q[2] - fuselage_z)

    return 1.0 if dist(plus) >= dist(minus) else -1.0


def _panel_parts(index, element, surface, outermost, fuselage_z):
    """The fixed panel and (if linked) the movable surface of one lifting element."""
    chord = surface["chord"]
    span = element.area / chord
    half = 0.5 * span
    frame = _element_frame(element)
    sign = _tip_sign(element, frame @ rotation_y(math.radians(element.incidence_deg)), fuselage_z)
    body_color, control_color = surface["color"], surface["control_color"]
    pos = translation(element.position)
    parts = []

    def fixed_panel(profile, color):
        pieces = []
        band = surface["tip_band"] if outermost else 0.0
        inner, outer = -half * sign, half * sign
        split = outer - band * sign
        pieces.append(meshes.extrude_profile(profile, min(inner, split), max(inner, split), color))
        if band > 0.0:
            pieces.append(meshes.extrude_profile(profile, min(split, outer), max(split, outer),
                                                 surface.get("tip_color", _TRIM)))
        return Mesh.merge(pieces)

    if element.incidence_control is not None:
        # The whole surface turns (the book's rudder): rest angle = incidence.
        mesh = fixed_panel(_section(surface, 0.0, 1.0), control_color)
        parts.append(ModelPart(f"turning:{element.name}", mesh, "hinged", index, 1,
                               1.0, element.incidence_deg,
                               pos @ frame, np.eye(4)))
        return parts, frame @ rotation_y(math.radians(element.incidence_deg)), span

    rest = frame @ rotation_y(math.radians(element.incidence_deg))
    hinge_u = 1.0 - surface["control_chord"] if element.flap is not None else 1.0
    if hinge_u >= 1.0:
        parts.append(ModelPart(f"panel:{element.name}",
                               fixed_panel(_section(surface, 0.0, 1.0), body_color).transformed(pos @ rest)))
        return parts, rest, span
    parts.append(ModelPart(f"panel:{element.name}",
                           fixed_panel(_section(surface, 0.0, hinge_u), body_color).transformed(pos @ rest)))
    hinge_x = (surface["reference_chord"] - hinge_u) * chord
    inset = surface["control_inset"]
    flap = meshes.extrude_profile(_section(surface, hinge_u, 1.0), -half + inset, half - inset, control_color)
    hinge = translation([hinge_x, 0.0, 0.0])
    parts.append(ModelPart(f"flap:{element.name}", flap.transformed(np.linalg.inv(hinge)), "hinged", index, 0,
                           surface["control_deflection"], 0.0, pos @ rest @ hinge, np.eye(4)))
    return parts, rest, span


_TRIM = rgba("#c8372d")


def _fuselage(element, spec, x_tail_design, cg, detail=1.0):
    """The lofted fuselage mesh (body coordinates) and its derived dimensions."""
    fus = spec["fuselage"]
    st = np.asarray(fus["stations"], dtype=np.float64)
    s, top, bottom, hw = st.T
    height = top - bottom
    a1 = np.trapezoid(height, s)
    s_c = np.trapezoid(s * height, s) / a1
    x_f, z_f = element.design_position[0], element.design_position[2]
    length = (x_f - x_tail_design) / (1.0 - s_c)
    big_h = element.area / (length * a1)
    x_nose = x_tail_design + length

    rings = max(8, round(64 * detail))
    ss = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, rings))     # denser at nose and tail
    t_i, b_i, w_i = (np.interp(ss, s, col) for col in (top, bottom, hw))
    seg = max(8, round(int(fus["segments"]) * detail))
    ang = np.linspace(0.0, 2 * np.pi, seg, endpoint=False)
    ca, sa = np.cos(ang), np.sin(ang)
    e = 2.0 / 2.6                                                # superellipse exponent: a rounded box
    cy = np.sign(ca) * np.abs(ca) ** e
    cz = np.sign(sa) * np.abs(sa) ** e
    zc = z_f + big_h * 0.5 * (t_i + b_i)
    za = big_h * 0.5 * (t_i - b_i)
    yb = big_h * w_i
    x = x_nose - ss * length
    pts = np.empty((rings, seg, 3))
    pts[..., 0] = x[:, None]
    pts[..., 1] = yb[:, None] * cy[None, :]
    pts[..., 2] = zc[:, None] + za[:, None] * cz[None, :]
    frac = np.broadcast_to(0.5 * (cz + 1.0), (rings, seg))
    sgrid = np.broadcast_to(ss[:, None], (rings, seg))
    colors = np.empty((rings, seg, 4), np.float32)
    colors[:] = fus["color"]
    stripe = (frac > fus["stripe"][0]) & (frac < fus["stripe"][1]) & (sgrid > 0.05)
    colors[stripe] = spec["palette"].get("stripe", _TRIM)
    cab0, cab1 = fus["cabin"]
    glass = (sgrid > cab0) & (sgrid < cab1) & (frac > fus["glass_above"]) & (frac < fus["roof_below"])
    colors[glass] = spec["palette"].get("glass", rgba("#1d2b3c"))
    body = meshes.grid_surface(pts - cg, colors, wrap=True)
    body = _outward(body, axis_points=np.stack([x, np.zeros(rings), zc], axis=-1) - cg)
    # Two pieces, both hidden in the cockpit view: the nose up to the windscreen, the cabin and tail.
    split = int(np.searchsorted(ss, cab0 - 0.01))
    front, rear = (_rings(body, rings, seg, r0, r1) for r0, r1 in ((0, split), (split, rings - 1)))
    caps = []
    for k, normal in ((0, [1.0, 0.0, 0.0]), (rings - 1, [-1.0, 0.0, 0.0])):
        center = np.array([x[k], 0.0, zc[k]]) - cg
        caps.append(meshes._fan(center, pts[k] - cg, normal, colors[k, 0]))
    dims = dict(x_nose=x_nose, length=length, height=big_h, z_nose=zc[0],
                profile=(x, zc - za, zc + za))
    return Mesh.merge([front, caps[0]]), Mesh.merge([rear, caps[1]]), dims


def _rings(tube, rings, seg, r0, r1):
    """Rings r0..r1 of a tube mesh made by :func:`meshes.grid_surface` (same normals and winding)."""
    sl = slice(r0 * seg, (r1 + 1) * seg)
    n = r1 - r0 + 1
    idx = meshes._quad_strip_indices(n, seg, True)
    first = tube.indices[:3]
    reference = meshes._quad_strip_indices(rings, seg, True)[:3]
    if not np.array_equal(first, reference):          # _outward reversed the winding
        idx = idx.reshape(-1, 3)[:, ::-1].ravel()
    return Mesh(tube.positions[sl], tube.normals[sl], tube.colors[sl], idx)


def _outward(mesh, axis_points):
    """Flip a tube's winding if its faces point towards its axis."""
    tri = mesh.indices.reshape(-1, 3)
    p = mesh.positions.astype(np.float64)
    face = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])
    mid = p[tri].mean(axis=1)
    nearest = axis_points[np.argmin(np.abs(axis_points[:, 0][None, :] - mid[:, 0][:, None]), axis=1)]
    out = mid - nearest
    out[:, 0] = 0.0
    if np.sum(np.einsum("ij,ij->i", face, out)) < 0:
        mesh.indices = np.ascontiguousarray(tri[:, ::-1].ravel())
        mesh.normals = -mesh.normals
    return mesh


def _propeller(spec):
    """Spinner and blades about the local x axis (the hub at the origin)."""
    prop = spec["propeller"]
    r_tip = 0.5 * prop["diameter"]
    spinner = meshes.cone(prop["spinner_radius"], prop["spinner_length"], prop["spinner_color"],
                          segments=16).transformed(rotation_y(0.5 * np.pi))
    blades = []
    n = int(prop["blades"])
    for k in range(n):
        blade = meshes.box([0.15, 0.0, 0.5 * r_tip], [0.1, prop["chord"], r_tip], prop["color"])
        tip = meshes.box([0.15, 0.0, r_tip - 0.2], [0.11, prop["chord"] * 1.02, 0.4], "#e8c52a")
        pitch = rotation_z(math.radians(12.0))
        blades.append(Mesh.merge([blade, tip]).transformed(rotation_x(2 * np.pi * k / n) @ pitch))
    return Mesh.merge([spinner, *blades])


def _gear(spec, aircraft, fus_dims, cg):
    """The landing gear drawn at the aircraft's wheels (``Aircraft.gear``), body coordinates.

    Each wheel sits with its lowest point on its contact point (leg
    extended); its pant and the lower part of its leg (the piston) move
    with it as a :class:`ModelPart` of kind ``"wheel"``; the upper part of
    the leg (the sleeve the piston slides into) is fixed, up to the wing
    above it or into the fuselage.

    Returns
    -------
    (Mesh, list of ModelPart)
        The fixed sleeves, and one moving part per wheel.
    """
    gear = spec["gear"]
    r, w = gear["wheel_radius"], gear["wheel_width"]
    x_profile, z_bottom, _ = fus_dims["profile"]
    order = np.argsort(x_profile)
    chord = spec["surfaces"].get("wing", {}).get("chord", 1.0)
    wings = [e for e in aircraft.elements if e.part == "wing"]

    def attach_z(x_body, y_body):
        """Where the leg meets the airplane: the wing above it, else into the fuselage."""
        for e in wings:
            half = 0.5 * e.area / chord
            if abs(y_body - e.position[1]) <= half and abs(y_body) > 1.0:
                return float(e.position[2]) - 0.08
        return float(np.interp(x_body + cg[0], x_profile[order], z_bottom[order])) - cg[2] + 0.3

    sleeves, wheels = [], []
    for k, contact in enumerate(aircraft.gear):
        if not contact.is_wheel:
            continue
        x, y, z = (float(v) for v in contact.position)
        axle = z + r
        piston_bottom = axle + 0.55 * r
        sleeve_bottom = axle + r + 0.12
        travel = max(contact.max_compression, 0.05)
        if "leg_top_y" in gear and abs(y) > gear["leg_top_y"]:
            # a spring-steel leg slanting out from the fuselage's bottom (a Cessna's main gear)
            y_top = math.copysign(gear["leg_top_y"], y)
            z_top = float(np.interp(x + cg[0], x_profile[order], z_bottom[order])) - cg[2] + 0.3
            sleeves.append(meshes.rod([x, y, sleeve_bottom], [x, y_top, z_top], 0.11, gear["strut_color"]))
        else:
            top = max(attach_z(x, y), sleeve_bottom + 0.2)
            sleeves.append(meshes.box([x, y, 0.5 * (sleeve_bottom + top)], [0.3, 0.2, top - sleeve_bottom],
                                      gear["strut_color"]))
        # In the leg's own frame (origin on the leg's axis at the axle), so it can steer about its axis.
        # 20 segments: a vertex right at the bottom, on the contact point
        tyre = meshes.cylinder(r, w, gear["tyre_color"], segments=20).transformed(
            translation([0.0, -0.5 * w, 0.0]) @ rotation_z(0.5 * np.pi))
        hub = meshes.cylinder(0.45 * r, w * 1.1, gear["strut_color"], segments=10).transformed(
            translation([0.0, -0.55 * w, 0.0]) @ rotation_z(0.5 * np.pi))
        pant = meshes.box([0.0, 0.0, 0.35 * r], [2.2 * r, w * 1.6, 1.1 * r],
                          spec["palette"].get("body", rgba("#eeeeee")))
        high = sleeve_bottom + travel - axle
        piston = meshes.box([0.0, 0.0, 0.5 * (piston_bottom - axle + high)],
                            [0.16, 0.12, high - (piston_bottom - axle)],
                            gear["strut_color"])
        mesh = Mesh.merge([tyre, hub, pant, piston])
        wheels.append(ModelPart(f"wheel:{contact.name}", mesh, "wheel", contact=k,
                                pre=translation([x, y, axle]), post=np.eye(4)))
    return (Mesh.merge(sleeves) if sleeves else None), wheels


def _struts(spec, aircraft, fus_dims, cg):
    """The wing struts of ``spec["strut"]`` (body coordinates): from under the wing at ``wing_y`` to the
    fuselage's bottom (plus ``fuselage_z``) at ``fuselage_y`` each side, in the wing's quarter-chord plane."""
    strut = spec["strut"]
    chord = spec["surfaces"].get("wing", {}).get("chord", 1.0)
    thickness = spec["surfaces"].get("wing", {}).get("thickness", 0.1)
    x_profile, z_bottom, _ = fus_dims["profile"]
    order = np.argsort(x_profile)
    rods = []
    for side in (1.0, -1.0):
        wings = [e for e in aircraft.elements if e.part == "wing" and side * e.position[1] > 0.0]
        if not wings:
            continue
        e = min(wings, key=lambda w: abs(abs(w.position[1]) - strut["wing_y"]))
        along = side * strut["wing_y"] - e.position[1]           # along the span from the element's centre
        # the panel rises outboard by its dihedral (this format's sign: a left wing's tip-up dihedral is negative)
        z_wing = e.position[2] - along * math.tan(math.radians(e.dihedral_deg)) - 0.5 * thickness * chord
        x = float(e.position[0])
        z_fus = float(np.interp(x + cg[0], x_profile[order], z_bottom[order])) - cg[2] + strut["fuselage_z"]
        rods.append(meshes.rod([x, side * strut["fuselage_y"], z_fus], [x, side * strut["wing_y"], z_wing],
                         strut["radius"], strut["color"]))
    return Mesh.merge(rods) if rods else None


def build_airplane(aircraft, spec=None, detail=1.0) -> AirplaneModel:
    """Build the airplane model from an aircraft's elements.

    Parameters
    ----------
    aircraft : flightsim.physics.aircraft.Aircraft
    spec : dict, optional
        A model description from :func:`load_model_spec` (default: the
        bundled one).
    detail : float
        Fraction of the fuselage's rings (64) and segments (the spec's) to
        build: less for a quality level that draws fewer triangles; the
        parts, their order and the model's dimensions are the same.

    Returns
    -------
    AirplaneModel
        For a JSBSim aircraft (no element layout to draw), the model of
        :func:`flightsim.app.scene.shape_model.build_from_shape` for the shape read from its file
        (:func:`flightsim.app.scene.jsbsim_shape.shape_of`).
    """
    if getattr(aircraft, "jsbsim", None) is not None:
        from flightsim.app.scene.jsbsim_shape import shape_of
        from flightsim.app.scene.shape_model import build_from_shape

        return build_from_shape(shape_of(aircraft), spec, detail)
    spec = spec if spec is not None else load_model_spec()
    cg = np.asarray(aircraft.cg, dtype=np.float64)
    elements = list(aircraft.elements)
    fuselage_el = next((e for e in elements if e.part == "fuselage"), None)
    fuselage_z = fuselage_el.design_position[2] - cg[2] if fuselage_el is not None else 0.0

    static, movable = [], []
    extents = []
    panels = {}
    for i, e in enumerate(elements):
        if e.part == "fuselage":
            continue
        surface = spec["surfaces"].get(e.part)
        if surface is None:
            continue
        same = [o for o in elements if o.part == e.part
                and np.sign(o.position[1]) == np.sign(e.position[1])]
        outermost = all(abs(o.position[1]) <= abs(e.position[1]) for o in same) if e.part != "fin" else True
        parts, rest, span = _panel_parts(i, e, surface, outermost, fuselage_z)
        for p in parts:
            (static if p.kind == "static" else movable).append(p)
        panels.setdefault(e.part, []).append((e, rest, span, surface))
        extents.append(np.linalg.norm(e.position) + 0.5 * span + surface["chord"])

    static.extend(_centre_sections(panels, cg))

    # Fuselage back to the tail surfaces.
    tails = [e for e in elements if e.part in ("tailplane", "fin")] or \
            [e for e in elements if e.part != "fuselage"]
    if fuselage_el is not None:
        te = [e.design_position[0] - (1.0 - spec["surfaces"][e.part]["reference_chord"])
              * spec["surfaces"][e.part]["chord"] for e in tails if e.part in spec["surfaces"]]
        x_tail = (min(te) if te else fuselage_el.design_position[0] - 10.0) - spec["fuselage"]["tail_clearance"]
        nose_mesh, cabin_mesh, dims = _fuselage(fuselage_el, spec, x_tail, cg, detail)
        if "strut" in spec:
            struts = _struts(spec, aircraft, dims, cg)
            if struts is not None:
                static.append(ModelPart("struts", struts))
        sleeves, wheels = _gear(spec, aircraft, dims, cg)
        gear = [ModelPart("gear", sleeves)] if sleeves is not None else []
        movable[0:0] = [ModelPart("nose", nose_mesh), ModelPart("cabin", cabin_mesh), *gear, *wheels]
        nose = np.array([dims["x_nose"], 0.0, dims["z_nose"]]) - cg
        s_eye, above = spec["fuselage"]["eye"]
        x_eye = dims["x_nose"] - s_eye * dims["length"]
        xs, _, tops = dims["profile"]
        order = np.argsort(xs)
        eye = np.array([x_eye, 0.0, float(np.interp(x_eye, xs[order], tops[order])) + above]) - cg
        extents.append(dims["length"])
    else:
        nose = np.array([max(e.position[0] for e in elements) + 2.0, 0.0, 0.0])
        eye = nose - [4.0, 0.0, -1.0]
    prop_part = ModelPart("propeller", _propeller(spec).transformed(translation([0.2, 0.0, 0.0])),
                          "propeller", pre=translation(nose))
    movable.append(prop_part)

    body = ModelPart("body", Mesh.merge([p.mesh for p in static]))
    return AirplaneModel([body, *movable], eye, nose, float(max(extents)), float(detail))


def _centre_sections(panels, cg):
    """Cosmetic panels joining left and right inner panel ends through the fuselage."""
    out = []
    for part, items in panels.items():
        left = [it for it in items if it[0].position[1] > 1e-6]
        right = [it for it in items if it[0].position[1] < -1e-6]
        if not left or not right:
            continue
        e_l, rest, span_l, surface = min(left, key=lambda it: it[0].position[1])
        e_r, _, span_r, _ = max(right, key=lambda it: it[0].position[1])
        y_in_l = e_l.position[1] - 0.5 * span_l
        y_in_r = e_r.position[1] + 0.5 * span_r
        if y_in_l - y_in_r <= 1e-6:
            continue
        profile = _section(surface, 0.0, 1.0)
        centre = np.array([e_l.position[0], 0.0, e_l.position[2]])
        mesh = meshes.extrude_profile(profile, y_in_r, y_in_l, surface["color"])
        out.append(ModelPart(f"centre:{part}", mesh.transformed(translation(centre) @ rest)))
    return out

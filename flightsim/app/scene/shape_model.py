"""A JSBSim aircraft drawn from its :class:`~flightsim.app.scene.jsbsim_shape.Shape`.

:func:`build_from_shape` makes the same kind of :class:`~flightsim.app.scene.airplane_model.AirplaneModel`
as :func:`~flightsim.app.scene.airplane_model.build_airplane` does for the book's aircraft, with the same
part conventions, from the numbers :class:`~flightsim.app.scene.jsbsim_shape.Shape` reads or guesses
from the XML: a trapezoidal wing (span, area and chord from ``<metrics>``), horizontal and vertical
tails at their arms, a lofted fuselage, the wheels on the contact points, propellers and nacelles
at the thrusters.

Parts, in order: ``"body"`` (static: wings, tails, nacelles, struts), ``"nose"`` and ``"cabin"``
(the fuselage ahead of and behind the windscreen, the canopy with the cabin), ``"gear"`` (the
fixed legs; none without wheels), ``"wheel:NAME"`` (kind ``"wheel"``, ``contact`` = the contact's
:attr:`~flightsim.app.scene.jsbsim_shape.Contact.gear_index`, its place among the file's BOGEY
contacts), the hinged control surfaces and the ``"propeller"`` parts (one per propeller engine).
At most :data:`~flightsim.app.scene.shaders.MAX_PARTS` parts are drawn: beyond that the last
propellers (all but one), then the flaps, are merged into the body at rest.

What is drawn where: the wing and tails are lofted NACA sections (6 % thick for fighters, 11 %
airliners, 13 % light aircraft, 14 % gliders; tails 9-10 %) on the planform of the shape;
ailerons from 62 to 95 % of the half-span, 25 % of the chord; flaps (when the flight controls
move any) from the fuselage's side to 60 %, 28 % of the chord; elevators (one per side) 35 %,
the rudder 32 %.  The fuselage is lofted through a profile by kind (a blunt cowling pointing at
a tractor propeller's hub, a glider's pod and boom, a fighter's pointed nose and open nozzle,
an airliner's rounded nose and upswept tail cone), cockpit and cabin windows painted on, a
bubble canopy for gliders, trainers and fighters.  Wing jets hang on pylons under the wing,
lowered (and if need be narrowed) to clear it and the ground; rear-mounted jets sit on stubs;
wing propellers get a nacelle.  Wheels: one tyre per contact (two side by side on an
airliner's main legs); fixed legs up into the fuselage, the low wing above, or slanting in to
the belly (a high wing's spring legs); a light high wing gets struts.

Control surfaces are driven by the simulation's ``surface_deflections()`` of a JSBSim aircraft, a
(5, 2) array whose column 0 holds JSBSim's surface positions in degrees, with JSBSim's signs
(rows: :data:`ELEVATOR` + trailing edge down; :data:`LEFT_AILERON`, :data:`RIGHT_AILERON` each
+ its trailing edge down, as JSBSim's ``left-``/``right-aileron-pos``; :data:`RUDDER` + trailing
edge left; :data:`FLAP` + down).  Each hinged part turns about its hinge line by ``R_y(angle)`` in
a frame whose y axis runs along the hinge towards body +y (left; the fin's: up) and whose x axis
points forward, so + turns a wing's or tail's trailing edge up and the rudder's right: every
surface has ``gain_deg = -1``.

Body frame, ft (x forward, y left, z up, origin at the CG).  Pure numpy; no OpenGL.
"""

from __future__ import annotations

import math

import numpy as np

from flightsim.app.scene import meshes
from flightsim.app.scene.airplane_model import AirplaneModel, ModelPart, airfoil
from flightsim.app.scene.meshes import Mesh, rgba, rotation_x, rotation_y, rotation_z, translation
from flightsim.app.scene.shaders import MAX_PARTS

__all__ = ["ELEVATOR", "FLAP", "LEFT_AILERON", "PALETTES", "RIGHT_AILERON", "RUDDER", "build_from_shape"]

ELEVATOR, LEFT_AILERON, RIGHT_AILERON, RUDDER, FLAP = range(5)
"""Rows of a JSBSim aircraft's ``surface_deflections()`` (column 0: degrees, JSBSim's signs)."""

PALETTES = {
    "glider": dict(body="#f6f6f2", wing="#f6f6f2", control="#e0e0da", trim="#d23a2e", stripe="#d23a2e",
                   belly="#f6f6f2", fin="#f6f6f2", tip="#d23a2e"),
    "light": dict(body="#f3f3ef", wing="#f3f3ef", control="#dcdad2", trim="#b8312a", stripe="#1f4e8c",
                  belly="#f3f3ef", fin="#f3f3ef", tip="#b8312a"),
    "trainer": dict(body="#f0b41c", wing="#f0b41c", control="#d89c10", trim="#1d3f7a", stripe="#1d3f7a",
                    belly="#f0b41c", fin="#f0b41c", tip="#1d3f7a"),
    "transport": dict(body="#a9b0a6", wing="#a9b0a6", control="#979e95", trim="#3c4a3a", stripe="#3c4a3a",
                      belly="#c4c9c2", fin="#a9b0a6", tip="#a9b0a6"),
    "fighter": dict(body="#9aa2aa", wing="#9aa2aa", control="#878f97", trim="#4f575f", stripe="#4f575f",
                    belly="#c9cdd1", fin="#9aa2aa", tip="#9aa2aa"),
    "airliner": dict(body="#f5f6f8", wing="#b7bcc2", control="#a2a8af", trim="#1d4f91", stripe="#1d4f91",
                     belly="#c6cad0", fin="#1d4f91", tip="#b7bcc2"),
}
"""Colours by :attr:`Shape.role <flightsim.app.scene.jsbsim_shape.Shape.role>`: white gliders and light
aircraft, a yellow trainer, grey fighters, a white and grey airliner with a blue tail."""

_COMMON = dict(glass="#1d2b3c", tyre="#18181a", metal="#4a4f57", prop="#26272b", engine="#c4c8cd",
               intake="#1e2023", window="#2b3440")

_AILERON = (0.62, 0.95, 0.75)        # span fractions and hinge chord fraction
_FLAP = (0.6, 0.72)                  # outer span fraction, hinge chord fraction (from the fuselage's side)
_ELEVATOR_HINGE = 0.65
_RUDDER_HINGE = 0.68


def build_from_shape(shape, spec=None, detail=1.0) -> AirplaneModel:
    """The airplane model of a JSBSim aircraft's :class:`~flightsim.app.scene.jsbsim_shape.Shape`.

    Parameters
    ----------
    shape : flightsim.app.scene.jsbsim_shape.Shape
    spec : dict, optional
        A model description (:func:`~flightsim.app.scene.airplane_model.load_model_spec`); only its
        ``glass``, ``tyre``, ``metal`` and ``prop`` colours are used, the rest comes from
        :data:`PALETTES` by the aircraft's role.
    detail : float
        Fraction of the fuselage's rings and sections to build (as :func:`build_airplane`'s).

    Returns
    -------
    AirplaneModel
    """
    colours = {k: rgba(v) for k, v in {**_COMMON, **PALETTES.get(shape.role, PALETTES["light"])}.items()}
    if spec is not None:
        for name in ("glass", "tyre", "metal", "prop"):
            if name in spec.get("palette", {}):
                colours[name] = np.asarray(spec["palette"][name], np.float32)
    return _Builder(shape, colours, max(float(detail), 0.05)).build()


class _Builder:
    """Builds the parts of one shape (``c``: the colours by name, RGBA)."""

    def __init__(self, shape, colours, detail):
        self.s = shape
        self.c = colours
        self.detail = detail
        self.n_foil = max(5, round(9 * min(detail, 1.5)))
        self.eye = shape.pilot_eye

    # ------------------------------------------------------------------ the whole

    def build(self):
        s = self.s
        static, hinged = [], []
        self.fus = _Fuselage(s, self.c, self.detail, self.eye)
        for surface_parts in (self._wing(), self._htail(), self._fin()):
            fixed, moving = surface_parts
            static.extend(fixed)
            hinged.extend(moving)
        engines_static, props = self._engines()
        static.extend(engines_static)
        static.extend(self._struts())
        legs, wheels = self._gear()
        nose, cabin = self.fus.meshes()
        canopy = self._canopy()
        if canopy is not None:
            cabin = Mesh.merge([cabin, canopy])
        parts = [ModelPart("nose", nose), ModelPart("cabin", cabin)]
        if legs is not None:
            parts.append(ModelPart("gear", legs))
        parts += wheels + hinged + props
        parts = _fit(parts, static)
        body = ModelPart("body", Mesh.merge(static))
        parts = [body, *parts]
        zero = np.zeros((5, 2))
        radius = 0.0
        for p in parts:
            m = p.matrix(zero)
            pts = p.mesh.positions.astype(np.float64) @ m[:3, :3].T + m[:3, 3]
            if len(pts):
                radius = max(radius, float(np.linalg.norm(pts, axis=1).max()))
        nose_point = next((p.pre[:3, 3].copy() for p in parts if p.kind == "propeller"),
                          np.array([s.fuselage.nose_x, 0.0, self.fus.z_nose]))
        return AirplaneModel(parts, self.eye.copy(), nose_point, radius, float(self.detail))

    # ------------------------------------------------------------------ lifting surfaces

    def _rings(self, surface, etas, side, vertical, u0, u1, thickness, camber=0.0):
        """Sections of ``surface`` at each of ``etas`` (chord piece u0..u1), body frame."""
        profile = _profile(u0, u1, thickness, camber, self.n_foil)
        up = np.array([0.0, 1.0, 0.0]) if vertical else np.array([0.0, 0.0, 1.0])
        out = []
        for eta in etas:
            le = surface.leading_edge(eta, side, vertical)
            c = surface.chord(eta)
            out.append(le + np.outer(-profile[:, 0] * c, [1.0, 0.0, 0.0]) + np.outer(profile[:, 1] * c, up))
        return out

    def _hinge_point(self, surface, eta, side, vertical, u):
        return surface.leading_edge(eta, side, vertical) - np.array([u * surface.chord(eta), 0.0, 0.0])

    def _lifting(self, surface, side, vertical, pieces, thickness, camber, colour, tip_colour=None):
        """One half of a surface (or the fin) cut span-wise into ``pieces``: ``(eta0, eta1, control)``
        with ``control`` None (the whole chord fixed) or ``(name, row, hinge fraction)``."""
        fixed, moving = [], []
        for k, (e0, e1, control) in enumerate(pieces):
            last = k == len(pieces) - 1
            col = tip_colour if (last and tip_colour is not None) else colour
            if control is None:
                fixed.append(_loft(self._rings(surface, (e0, e1), side, vertical, 0.0, 1.0, thickness, camber), col))
                continue
            name, row, u = control
            fixed.append(_loft(self._rings(surface, (e0, e1), side, vertical, 0.0, u, thickness, camber), colour))
            mesh = _loft(self._rings(surface, (e0, e1), side, vertical, u, 1.0, thickness, camber),
                         self.c["control"])
            p0 = self._hinge_point(surface, e0, side, vertical, u)
            p1 = self._hinge_point(surface, e1, side, vertical, u)
            frame = _hinge_frame(p0, p1, vertical)
            moving.append(ModelPart(name, mesh.transformed(np.linalg.inv(frame)), "hinged", row, 0, -1.0, 0.0,
                                    frame, np.eye(4)))
        return fixed, moving

    def _wing(self):
        s, w = self.s, self.s.wing
        half = 0.5 * w.span
        side_eta = min(0.5 * s.fuselage.width / half, 0.4)
        thickness = {"fighter": 0.06, "airliner": 0.11, "glider": 0.14}.get(s.role, 0.13)
        camber = 0.0 if s.role == "fighter" else 0.02
        a0, a1, ua = _AILERON
        fixed, moving = [], []
        for side, label, row in ((1.0, "left", LEFT_AILERON), (-1.0, "right", RIGHT_AILERON)):
            pieces = [(0.0, side_eta, None)]
            if s.has_flaps:
                pieces.append((side_eta, _FLAP[0], (f"flap:{label}", FLAP, _FLAP[1])))
            else:
                pieces.append((side_eta, _FLAP[0], None))
            pieces += [(_FLAP[0], a0, None), (a0, a1, (f"aileron:{label}", row, ua)), (a1, 1.0, None)]
            f, m = self._lifting(w, side, False, pieces, thickness, camber, self.c["wing"], self.c["tip"])
            fixed += f
            moving += m
        return fixed, moving

    def _htail(self):
        h = self.s.htail
        if h is None:
            return [], []
        inner = 0.0 if self.s.t_tail else min(0.25 * self.s.fuselage.width / (0.5 * h.span), 0.3)
        fixed, moving = [], []
        for side, label in ((1.0, "left"), (-1.0, "right")):
            pieces = [(0.0, inner, None)] if inner > 0.0 else []
            pieces += [(inner, 0.97, (f"elevator:{label}", ELEVATOR, _ELEVATOR_HINGE)), (0.97, 1.0, None)]
            f, m = self._lifting(h, side, False, pieces, 0.09, 0.0, self.c["wing"] if self.s.role == "airliner"
                                 else self.c["body"])
            fixed += f
            moving += m
        return fixed, moving

    def _fin(self):
        v = self.s.vtail
        top = 0.9 if self.s.t_tail else 0.96
        pieces = [(-0.15, 0.0, None), (0.0, top, ("rudder", RUDDER, _RUDDER_HINGE)), (top, 1.0, None)]
        return self._lifting(v, 1.0, True, pieces, 0.1, 0.0, self.c["fin"])

    # ------------------------------------------------------------------ fuselage extras

    def _canopy(self):
        """A bubble canopy (glider, fighter, trainer) over the eye; None for cabin aircraft (windows painted)."""
        s, f = self.s, self.s.fuselage
        length = {"glider": 0.2, "fighter": 0.13, "trainer": 0.2}.get(s.role)
        if length is None:
            return None
        length *= f.length
        x_c = self.eye[0] - 0.15 * length
        top = self.fus.top_at(x_c)
        return _ellipsoid([x_c, 0.0, top - 0.12 * f.height], [0.5 * length, 0.36 * f.width, 0.42 * f.height],
                          self.c["glass"], max(8, round(14 * min(self.detail, 1.5))))

    def _struts(self):
        """Wing struts of a light high-winged aircraft or glider: fuselage bottom to 55 % of the half-span."""
        s = self.s
        if s.wing_height != "high" or s.kind == "jet" or s.weight >= 15000.0:
            return []
        w = s.wing
        out = []
        for side in (1.0, -1.0):
            q = w.quarter_chord(0.55, side)
            x = float(q[0])
            z_low = self.fus.bottom_at(x) + 0.15 * s.fuselage.height
            a = [x, side * 0.42 * s.fuselage.width, z_low]
            b = [x, q[1], q[2] - 0.05 * w.chord(0.55)]
            out.append(meshes.rod(a, b, 0.05 + 0.01 * w.root_chord, self.c["body"]))
        return out

    # ------------------------------------------------------------------ engines

    def _engines(self):
        s = self.s
        static, props = [], []
        ground = min((c.position[2] for c in s.wheels), default=None)
        for e in s.engines:
            p = e.position
            if e.kind == "propeller":
                hub = p.copy()
                if e.mount == "nose":
                    hub[0] = max(hub[0], s.fuselage.nose_x)
                elif e.mount == "wing":
                    static.extend(self._prop_nacelle(hub, e.diameter))
                props.append(ModelPart("propeller", _propeller(e.diameter, max(e.blades, 2), self.c,
                                                               spinner=0.09 * e.diameter + 0.1),
                                       "propeller", pre=translation(hub)))
            elif e.kind in ("jet", "rocket"):
                if e.mount == "fuselage":
                    continue                       # its nozzle is the fuselage's tail (see _Fuselage)
                static.extend(self._jet_pod(p, e.mount, ground))
        return static, props

    def _wing_z(self, y):
        """The wing's lower surface height at span station ``y`` and its chord there."""
        w = self.s.wing
        eta = min(abs(y) / (0.5 * w.span), 1.0)
        q = w.quarter_chord(eta, 1.0 if y >= 0 else -1.0)
        c = w.chord(eta)
        return float(q[2]) - 0.06 * c, c, q

    def _prop_nacelle(self, hub, diameter):
        """A wing nacelle behind a propeller: from the hub to 60 % of the local chord behind the leading edge."""
        z_low, c, q = self._wing_z(hub[1])
        le = q[0] + 0.25 * c
        r = max(0.11 * diameter, 0.5)
        rear = le - 0.6 * c
        length = max(hub[0] - rear, 2.0 * r)
        mesh = [_nacelle(hub - [length, 0.0, 0.0], length, r, self.c["engine"], self.c["engine"], nose=0.35)]
        gap = z_low - (hub[2] + r)
        if gap > 0.0:                     # a pylon up to a high wing
            mesh.append(meshes.box([hub[0] - 0.5 * length, hub[1], hub[2] + r + 0.5 * gap + 0.05],
                                   [0.6 * length, 0.3 * r, gap + 0.2], self.c["engine"]))
        return mesh

    def _jet_pod(self, p, mount, ground):
        """A jet nacelle: under the wing on a pylon, or beside the rear fuselage on a stub."""
        s, f = self.s, self.s.fuselage
        r = (0.22 if s.role == "airliner" else 0.16) * f.height
        centre = np.array(p, dtype=np.float64)
        out = []
        if mount == "wing":
            z_low, c, q = self._wing_z(centre[1])
            top_limit = z_low - 0.15 * r
            if ground is not None:
                r = min(r, max((top_limit - ground - 0.3) / 2.05, 0.25 * r))
            centre[2] = min(centre[2], top_limit - r)
            length = 4.2 * r
            x0 = centre[0] - 0.5 * length
            out.append(_nacelle([x0, centre[1], centre[2]], length, r, self.c["engine"], self.c["intake"]))
            gap = z_low - (centre[2] + r)
            pylon_len = min(0.7 * length, 0.5 * c + 0.5 * length)
            out.append(meshes.box([centre[0] - 0.15 * length, centre[1], centre[2] + r + 0.5 * gap],
                                  [pylon_len, 0.22 * r, gap + 0.3 * r], self.c["wing"]))
        else:
            length = 4.2 * r
            side = 1.0 if centre[1] >= 0 else -1.0
            centre[1] = side * max(abs(centre[1]), 0.5 * f.width + 1.1 * r)
            out.append(_nacelle([centre[0] - 0.5 * length, centre[1], centre[2]], length, r, self.c["engine"],
                                self.c["intake"]))
            inner = side * 0.3 * f.width
            out.append(meshes.box([centre[0], 0.5 * (inner + centre[1]), centre[2]],
                                  [0.5 * length, abs(centre[1] - inner), 0.2 * r], self.c["body"]))
        return out

    # ------------------------------------------------------------------ gear

    def _gear(self):
        """Fixed legs (one mesh) and a moving part per wheel contact (see the module)."""
        s = self.s
        r = s.wheel_radius
        width = 0.55 * r
        twin = s.role == "airliner"
        legs, wheels = [], []
        for c in s.wheels:
            x, y, z = (float(v) for v in c.position)
            axle = z + r
            pair = twin and abs(y) > 0.25 * s.fuselage.width
            tyres = []
            for dy in ((-0.65 * width, 0.65 * width) if pair else (0.0,)):
                tyres.append(meshes.cylinder(r, width, self.c["tyre"], segments=max(10, round(16 * self.detail)))
                             .transformed(translation([0.0, dy - 0.5 * width, 0.0]) @ rotation_z(0.5 * np.pi)))
                tyres.append(meshes.cylinder(0.5 * r, width * 1.08, self.c["metal"], segments=8)
                             .transformed(translation([0.0, dy - 0.54 * width, 0.0]) @ rotation_z(0.5 * np.pi)))
            piston_top = r + 0.35 * r + 0.2
            tyres.append(meshes.box([0.0, 0.0, 0.5 * piston_top], [0.12 * r + 0.06, 0.1 * r + 0.05, piston_top],
                                    self.c["metal"]))
            wheels.append(ModelPart(f"wheel:{c.name}", Mesh.merge(tyres), "wheel", contact=c.gear_index,
                                    pre=translation([x, y, axle]), post=np.eye(4)))
            foot = [x, y, axle + 0.9 * r]
            legs.append(self._leg(foot, 0.07 * r + 0.05))
        return (Mesh.merge(legs) if legs else None), wheels

    def _leg(self, foot, radius):
        """The fixed leg from above a wheel up into the airframe."""
        s, f = self.s, self.s.fuselage
        x, y, z = foot
        if abs(y) < 0.35 * f.width:
            top = [x, y, self.fus.bottom_at(x) + 0.15 * f.height]
        elif s.wing_height == "low" and abs(y) < 0.5 * s.wing.span:
            z_low, _, _ = self._wing_z(y)
            top = [x, y, z_low + 0.05]
        else:                                            # a spring leg slanting in to the fuselage's bottom
            top = [x, math.copysign(0.3 * f.width, y), self.fus.bottom_at(x) + 0.15 * f.height]
        if top[2] <= z + 0.05:
            top[2] = z + 0.3
        return meshes.rod(foot, top, radius, self.c["metal"])


class _Fuselage:
    """The lofted fuselage: rings along x from the nose, a superellipse section each."""

    # (s, top, bottom, half-width): s 0 nose .. 1 tail; top/bottom in half-heights from the axis,
    # half-width in half-widths.
    PROFILES = {
        "prop": [(0.0, 0.5, -0.5, 0.5), (0.04, 0.7, -0.75, 0.8), (0.12, 0.85, -0.92, 0.95), (0.22, 1.0, -1.0, 1.0),
                 (0.42, 1.0, -0.9, 0.95), (0.68, 0.65, -0.1, 0.45), (1.0, 0.5, 0.2, 0.12)],
        "glider": [(0.0, -0.05, -0.35, 0.12), (0.04, 0.5, -0.8, 0.65), (0.12, 0.9, -1.0, 0.95), (0.25, 1.0, -0.95, 1.0),
                   (0.4, 0.8, -0.55, 0.7), (0.6, 0.5, 0.0, 0.32), (1.0, 0.45, 0.2, 0.14)],
        "fighter": [(0.0, -0.02, -0.1, 0.04), (0.1, 0.4, -0.5, 0.45), (0.25, 0.8, -0.85, 0.85), (0.4, 0.9, -1.0, 1.0),
                    (0.75, 0.85, -0.9, 0.95), (1.0, 0.55, -0.55, 0.6)],
        "airliner": [(0.0, 0.1, -0.35, 0.2), (0.015, 0.5, -0.75, 0.6), (0.05, 0.85, -0.95, 0.9),
                     (0.12, 1.0, -1.0, 1.0), (0.72, 1.0, -1.0, 1.0), (0.9, 0.8, -0.15, 0.5), (1.0, 0.65, 0.35, 0.1)],
    }

    def __init__(self, shape, colours, detail, eye):
        f = shape.fuselage
        role = shape.role
        key = {"glider": "glider", "fighter": "fighter", "airliner": "airliner", "transport": "airliner"}.get(role,
                                                                                                          "prop")
        tractor = [e for e in shape.engines if e.kind == "propeller" and e.mount == "nose"]
        if tractor and key != "prop":
            key = "prop"
        self.key = key
        table = np.array(self.PROFILES[key])
        rings = max(10, round(30 * detail))
        seg = max(8, round((16 if key in ("prop", "glider") else 20) * detail))
        ss = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, rings))
        top, bottom, hw = (np.interp(ss, table[:, 0], table[:, k]) for k in (1, 2, 3))
        x = f.nose_x - ss * f.length
        zc = f.axis_z + 0.25 * f.height * (top + bottom)
        za = 0.25 * f.height * (top - bottom)
        yb = 0.5 * f.width * hw
        if tractor:                                        # the cowling points at the propeller's hub
            hub_z = float(tractor[0].position[2])
            ramp = np.clip(1.0 - ss / 0.25, 0.0, 1.0)
            zc = zc + (hub_z - zc[0]) * ramp
        ang = np.linspace(0.0, 2.0 * np.pi, seg, endpoint=False)
        ca, sa = np.cos(ang), np.sin(ang)
        e = 2.0 / 2.6 if key == "prop" else 1.0              # a rounded box for light aircraft
        cy = np.sign(ca) * np.abs(ca) ** e
        cz = np.sign(sa) * np.abs(sa) ** e
        pts = np.empty((rings, seg, 3))
        pts[..., 0] = x[:, None]
        pts[..., 1] = yb[:, None] * cy[None, :]
        pts[..., 2] = zc[:, None] + za[:, None] * cz[None, :]
        self.x, self.top, self.bottom = x, zc + za, zc - za
        self.z_nose = float(zc[0])
        colors = self._paint(shape, colours, ss, cz, eye)
        tube = meshes.grid_surface(pts, colors, wrap=True)
        axis = np.stack([x, np.zeros(rings), zc], axis=-1)
        tube = _outward_tube(tube, axis)
        eye_x = float(eye[0])
        split = int(np.clip(np.searchsorted(-x, -(eye_x + 0.35 * f.height)), 1, rings - 2))
        front = _rings_of(tube, rings, seg, 0, split)
        rear = _rings_of(tube, rings, seg, split, rings - 1)
        jet_tail = key == "fighter" or any(e.kind in ("jet", "rocket") and e.mount == "fuselage"
                                           for e in shape.engines)
        tail_colour = colours["intake"] if jet_tail else colors[-1, 0]
        caps = [meshes._fan(axis[0], pts[0], [1.0, 0.0, 0.0], colors[0, 0]),
                meshes._fan(axis[-1], pts[-1], [-1.0, 0.0, 0.0], tail_colour)]
        self._nose = Mesh.merge([front, caps[0]])
        self._cabin = Mesh.merge([rear, caps[1]])

    def _paint(self, shape, colours, ss, cz, eye):
        f = shape.fuselage
        rings, seg = len(ss), len(cz)
        frac = np.broadcast_to(0.5 * (cz + 1.0), (rings, seg))          # 0 bottom .. 1 top
        s = np.broadcast_to(ss[:, None], (rings, seg))
        out = np.empty((rings, seg, 4), np.float32)
        out[:] = colours["body"]
        out[frac < 0.3] = colours["belly"]
        s_eye = (f.nose_x - eye[0]) / f.length
        role = shape.role
        if role in ("light", "transport", "airliner"):
            stripe = (frac > 0.4) & (frac < 0.5) & (s > 0.06) & (s < 0.93)
            out[stripe] = colours["stripe"]
        if role == "light":
            glass = (s > s_eye - 0.07) & (s < s_eye + 0.12) & (frac > 0.6) & (frac < 0.93)
            out[glass] = colours["glass"]
        elif role in ("airliner", "transport"):
            cockpit = (s > s_eye - 0.025) & (s < s_eye + 0.006) & (frac > 0.6) & (frac < 0.82)
            out[cockpit] = colours["glass"]
            windows = (s > s_eye + 0.05) & (s < 0.8) & (frac > 0.62) & (frac < 0.7)
            out[windows] = colours["window"]
        if role in ("trainer", "glider", "light"):
            out[(s < 0.04)] = colours["trim"]
        return out

    def meshes(self):
        return self._nose, self._cabin

    def top_at(self, x):
        order = np.argsort(self.x)
        return float(np.interp(x, self.x[order], self.top[order]))

    def bottom_at(self, x):
        order = np.argsort(self.x)
        return float(np.interp(x, self.x[order], self.bottom[order]))


# ---------------------------------------------------------------------------------------------------------------
# Geometry helpers


def _profile(u0, u1, thickness, camber, n):
    """Closed (x, z) section of the chord piece u0..u1 in chords (x aft from the leading edge), NACA 4-digit."""
    t = np.linspace(0.0, 1.0, n)
    u = u1 * (1.0 - np.cos(0.5 * np.pi * t)) if u0 == 0.0 else u0 + (u1 - u0) * t
    upper, lower = airfoil(thickness, camber, 0.4, u)
    top = np.stack([u, upper], axis=-1)
    bottom = np.stack([u, lower], axis=-1)[::-1]
    if u0 == 0.0:
        bottom = bottom[:-1]                      # the leading edge point is shared
    if u1 >= 1.0:
        bottom = bottom[1:]                       # the closed trailing edge is shared
    return np.vstack([top, bottom])


def _loft(rings, colour):
    """A closed solid through rings of equal length (sides and two end caps), facing outwards."""
    pts = np.stack(rings)
    side = meshes.grid_surface(pts, colour, wrap=True)
    centres = pts.mean(axis=1)
    side = _outward_tube(side, centres)
    c = colour if np.ndim(colour) == 1 else np.asarray(colour).reshape(-1, 4)[0]
    n0 = centres[0] - centres[1]
    n1 = centres[-1] - centres[-2]
    caps = [meshes._fan(centres[0], pts[0], n0 / np.linalg.norm(n0), c),
            meshes._fan(centres[-1], pts[-1], n1 / np.linalg.norm(n1), c)]
    return Mesh.merge([side, *caps])


def _outward_tube(mesh, axis_points):
    """Reverse a tube's winding (and normals) if its faces point at its axis (the polyline through
    ``axis_points``, nearest point by parameter along it)."""
    tri = mesh.indices.reshape(-1, 3)
    p = mesh.positions.astype(np.float64)
    face = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])
    mid = p[tri].mean(axis=1)
    a = np.asarray(axis_points, dtype=np.float64)
    d = a[-1] - a[0]
    t = np.clip(((mid - a[0]) @ d) / max(d @ d, 1e-12), 0.0, 1.0)
    k = np.clip(np.round(t * (len(a) - 1)).astype(int), 0, len(a) - 1)
    out = mid - a[k]
    out -= np.outer(out @ d, d) / max(d @ d, 1e-12)
    if np.sum(np.einsum("ij,ij->i", face, out)) < 0.0:
        mesh.indices = np.ascontiguousarray(tri[:, ::-1].ravel())
        mesh.normals = -mesh.normals
    return mesh


def _rings_of(tube, rings, seg, r0, r1):
    """Rings r0..r1 of a tube mesh from :func:`meshes.grid_surface` (its winding kept)."""
    sl = slice(r0 * seg, (r1 + 1) * seg)
    idx = meshes._quad_strip_indices(r1 - r0 + 1, seg, True)
    if not np.array_equal(tube.indices[:3], meshes._quad_strip_indices(rings, seg, True)[:3]):
        idx = idx.reshape(-1, 3)[:, ::-1].ravel()
    return Mesh(tube.positions[sl], tube.normals[sl], tube.colors[sl], idx)


def _hinge_frame(p0, p1, vertical):
    """4x4 frame at ``p0``: y along the hinge ``p0 → p1`` (towards +y, the fin's up), x forward, z = x × y."""
    y = np.asarray(p1, dtype=np.float64) - np.asarray(p0, dtype=np.float64)
    y /= np.linalg.norm(y)
    if y[2 if vertical else 1] < 0.0:
        y = -y
    x = np.array([1.0, 0.0, 0.0]) - y[0] * y
    x /= np.linalg.norm(x)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x, y, np.cross(x, y), p0
    return m


def _nacelle(rear, length, radius, colour, intake, nose=0.12):
    """A nacelle along +x from ``rear`` (its exhaust, a darker taper) with a dark intake face at the front."""
    body = meshes.cylinder(radius, length, colour, segments=16).transformed(translation(rear))
    lip = meshes.cylinder(0.82 * radius, 0.02 * length + 0.02, intake, segments=16).transformed(
        translation(np.asarray(rear, dtype=np.float64) + [length, 0.0, 0.0]))
    cone = meshes.cone(0.7 * radius, nose * length + 0.3 * radius, intake, segments=12).transformed(
        translation(rear) @ rotation_y(-0.5 * np.pi))
    return Mesh.merge([body, lip, cone])


def _ellipsoid(centre, axes, colour, n):
    """An ellipsoid about body x (rings of longitude around x, the ends capped flat), facing outwards."""
    lat = np.linspace(-0.5 * np.pi, 0.5 * np.pi, n // 2 + 1)[1:-1]
    lon = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    a, b, c = axes
    pts = np.empty((len(lat), n, 3))
    pts[..., 0] = centre[0] + a * np.sin(lat)[:, None]
    pts[..., 1] = centre[1] + b * np.cos(lat)[:, None] * np.cos(lon)[None, :]
    pts[..., 2] = centre[2] + c * np.cos(lat)[:, None] * np.sin(lon)[None, :]
    return _loft(list(pts), colour)


def _propeller(diameter, blades, colours, spinner):
    """Spinner and blades about the local x axis, the hub at the origin."""
    r_tip = 0.5 * diameter
    chord = max(0.07 * diameter, 0.25)
    cone = meshes.cone(spinner, 2.0 * spinner, colours["trim"], segments=12).transformed(rotation_y(0.5 * np.pi))
    pieces = [cone]
    for k in range(blades):
        blade = meshes.box([0.15, 0.0, 0.5 * r_tip], [0.08, chord, r_tip], colours["prop"])
        tip = meshes.box([0.15, 0.0, r_tip - 0.12 * r_tip], [0.09, chord * 1.02, 0.2 * r_tip], "#e8c52a")
        pieces.append(Mesh.merge([blade, tip]).transformed(rotation_x(2.0 * np.pi * k / blades)
                                                           @ rotation_z(math.radians(12.0))))
    return Mesh.merge(pieces)


def _fit(parts, static):
    """At most ``MAX_PARTS - 1`` parts besides the body: merge the last propellers (keeping one), then the
    flaps, then the last propeller, then any moving part, into ``static`` at rest (they no longer move)."""
    room = MAX_PARTS - 1
    zero = np.zeros((5, 2))

    def fold(pred):
        while len(parts) > room:
            k = next((i for i in range(len(parts) - 1, -1, -1) if pred(parts, i)), None)
            if k is None:
                return
            part = parts.pop(k)
            static.append(part.mesh.transformed(part.matrix(zero)))

    fold(lambda ps, i: ps[i].kind == "propeller" and sum(p.kind == "propeller" for p in ps) > 1)
    fold(lambda ps, i: ps[i].name.startswith("flap:"))
    fold(lambda ps, i: ps[i].kind == "propeller")
    fold(lambda ps, i: ps[i].kind in ("hinged", "wheel"))          # (no shipped aircraft needs this)
    return parts

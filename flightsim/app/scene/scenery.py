"""The world around the airplane: airfield, town, woods, lake and distant hills, and the world's other airfields.

Earth frame as in the book: x North, y West, z up, feet; the ground is z = 0.
The runway (18/36) is :data:`flightsim.simulation.airfield.RUNWAY` (the
simulation's starts put the airplane on it): along the x axis centred on the
origin, 5000 ft ahead of the book's start position (-5000, 0, 2000) flying
North, so a pilot can fly to it and land.

:func:`build_scenery` returns plain numpy geometry (no OpenGL): lit 3D
landmarks as one merged :class:`~flightsim.app.scene.meshes.Mesh`, flat ground
decals (taxiways, apron, roads, lake) as another, and the runway rectangle.

The other airfields of the world (:func:`flightsim.simulation.world.load_airfields`: the shipped files and the
user's) are drawn at their positions and elevations: an asphalt runway as a textured rectangle with its numbers,
threshold bars and centre line (:class:`FieldRunway`, each with its own texture), edge markers beside it and,
where its file says ``lights = true``, approach light bars; a grass strip as mown grass, a lighter green
rectangle on the field with white edge markers and orange corner markers (decals and landmarks).  Each lies
level at its field's elevation, z = ``elevation_ft`` (the world's terrain is flattened to it there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from flightsim.app.scene import meshes
from flightsim.app.scene.meshes import Mesh, rgba, rotation_z, translation
from flightsim.simulation.airfield import RUNWAY, Runway

__all__ = ["RUNWAY", "FieldRunway", "Runway", "Scenery", "build_scenery", "decal_quad"]


#: The hills on the horizon lie flat within this distance of another airfield's runway (ft), and rise over as
#: much again beyond.
HILL_CLEARANCE = 12000.0
#: Objects whose size (:func:`feature_size`) is below this (lights, markers, posts) form clusters of their own, so
#: that the renderer can leave them out where they are under a pixel (ft).
SMALL_FT = 10.0
#: A grass strip's mown colour, and its edge and corner markers'.
MOWN_GRASS = "#93b866"
EDGE_MARKER = "#f2f2ee"
CORNER_MARKER = "#e8762c"


@dataclass(frozen=True)
class FieldRunway:
    """An asphalt runway of another airfield, drawn textured as the home runway is.

    Attributes
    ----------
    airfield : str
        Its airfield's identifier.
    runway : Runway
        Where it lies (x, y, heading, size, numbers), earth frame, ft.
    elevation : float
        Its height, z, ft.
    quad : tuple of numpy.ndarray
        (positions (4, 3), uv (4, 2)) of its rectangle, as :attr:`Scenery.runway_quad`.
    """

    airfield: str
    runway: Runway
    elevation: float
    quad: tuple


@dataclass
class Scenery:
    """Static world geometry.

    Attributes
    ----------
    objects : list of Mesh
        Lit 3D landmarks in clusters (airfield, town, each wood, ...), earth
        coordinates; the renderer skips clusters outside the view.
    object_sizes : list of float
        Each cluster's :func:`feature_size`, ft (the largest of its objects'): the renderer leaves out a
        cluster whose objects would be under a pixel or two on the screen.
    object_far : list of Mesh or None
        Each cluster's cheaper stand-in where its objects are a few pixels (the woods' trees as three-sided
        cones), or None.
    decals : Mesh
        Flat coloured shapes lying on the ground (z = 0), drawn in order.
    runway : Runway
    runway_quad : tuple of numpy.ndarray
        (positions (4, 3), uv (4, 2)) of the runway rectangle.
    tower_eye : numpy.ndarray, shape (3,)
        On the control tower's roof, for the tower camera, ft.
    windsock_mount : numpy.ndarray, shape (3,)
        Where the windsock hangs, at the top of its pole, ft (the sock itself moves with the wind:
        :mod:`flightsim.app.scene.windsock`).
    field_runways : list of FieldRunway
        The other airfields' asphalt runways (their grass strips are decals and landmarks).
    """

    objects: list
    decals: Mesh
    runway: Runway
    runway_quad: tuple
    tower_eye: np.ndarray
    windsock_mount: np.ndarray
    field_runways: list = field(default_factory=list)
    object_sizes: list = field(default_factory=list)
    object_far: list = field(default_factory=list)


def feature_size(mesh) -> float:
    """The size of an object as the screen shows it, ft: the side of a square as large as its bounding box's
    largest face (``sqrt`` of the product of its two largest edges), so a long thin light bar is small and a
    tall thin mast is not."""
    if mesh.vertex_count == 0:
        return 0.0
    edges = np.sort(np.ptp(np.asarray(mesh.positions, dtype=np.float64), axis=0))
    return float(math.sqrt(edges[1] * edges[2]))


def _clusters(objects, far=None):
    """``objects`` (meshes) as landmark clusters: ``[(mesh, size, far_mesh or None), ...]``, the small ones
    (:data:`SMALL_FT`) apart from the others, each with the largest :func:`feature_size` of its objects (so
    none is left out while it would still show).

    ``far``: a cheaper stand-in for each object (or None), merged alongside.
    """
    sizes = np.array([feature_size(m) for m in objects])
    out = []
    for group in (sizes < SMALL_FT, sizes >= SMALL_FT):
        k = np.flatnonzero(group)
        if len(k) == 0:
            continue
        stand_in = None if far is None else Mesh.merge([far[i] for i in k])
        out.append((Mesh.merge([objects[i] for i in k]), float(sizes[k].max()), stand_in))
    return out


def decal_quad(center, along, length, width, color) -> Mesh:
    """A flat rectangle on the ground (normal +z).

    Parameters
    ----------
    center : array_like, shape (2,)
    along : array_like, shape (2,)
        Unit direction of the length.
    length, width : float
    color : colour
    """
    c = np.asarray(center, dtype=np.float64)
    a = np.asarray(along, dtype=np.float64)
    left = np.array([-a[1], a[0]])
    hl, hw = 0.5 * length, 0.5 * width
    corners = [c - a * hl - left * hw, c + a * hl - left * hw, c + a * hl + left * hw, c - a * hl + left * hw]
    pos = np.array([[p[0], p[1], 0.0] for p in corners])
    return Mesh(pos, np.tile([0.0, 0.0, 1.0], (4, 1)), rgba(color), [0, 1, 2, 0, 2, 3])


def _disc(center, rx, ry, color, segments=48, seed=0):
    """An irregular flat ellipse on the ground (a lake)."""
    rng = np.random.default_rng(seed)
    a = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    wobble = 1.0 + 0.12 * np.sin(3 * a + rng.uniform(0, 6)) + 0.07 * np.sin(7 * a + rng.uniform(0, 6))
    ring = np.stack([center[0] + rx * wobble * np.cos(a), center[1] + ry * wobble * np.sin(a),
                     np.zeros_like(a)], axis=-1)
    return meshes._fan(np.array([center[0], center[1], 0.0]), ring, [0.0, 0.0, 1.0], rgba(color))


def _building(x, y, w, d, h, wall, roof, yaw=0.0, pitched=True):
    """A box house with an optional gable roof, standing on the ground."""
    parts = [meshes.box([0.0, 0.0, 0.5 * h], [w, d, h], wall)]
    if pitched:
        rh = 0.35 * min(w, d)
        pts = np.array([[-w / 2, -d / 2, h], [w / 2, -d / 2, h], [w / 2, 0.0, h + rh], [-w / 2, 0.0, h + rh],
                        [-w / 2, d / 2, h], [w / 2, d / 2, h]])
        slope1 = Mesh(pts[[0, 1, 2, 3]], np.tile(_unit([0, -rh, d / 2]), (4, 1)), rgba(roof), [0, 1, 2, 0, 2, 3])
        slope2 = Mesh(pts[[5, 4, 3, 2]], np.tile(_unit([0, rh, d / 2]), (4, 1)), rgba(roof), [0, 1, 2, 0, 2, 3])
        gable1 = Mesh(pts[[0, 3, 4]], np.tile([-1.0, 0, 0], (3, 1)), rgba(wall), [0, 1, 2])
        gable2 = Mesh(pts[[1, 5, 2]], np.tile([1.0, 0, 0], (3, 1)), rgba(wall), [0, 1, 2])
        parts += [slope1, slope2, gable1, gable2]
    else:
        parts.append(meshes.box([0.0, 0.0, h + 0.5], [w + 1.0, d + 1.0, 1.0], roof))
    return Mesh.merge(parts).transformed(translation([x, y, 0.0]) @ rotation_z(yaw))


def _unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


_TREE_TEMPLATES = None


def _tree_templates():
    """A few unit-height trees (conifers and broadleaves) to copy around."""
    global _TREE_TEMPLATES
    if _TREE_TEMPLATES is None:
        rng = np.random.default_rng(99)
        out = []
        for k in range(6):
            trunk = meshes.box([0.0, 0.0, 0.12], [0.08, 0.08, 0.24], "#5a4030")
            green = np.clip(np.array([0.18, 0.34, 0.15]) * rng.uniform(0.8, 1.15), 0, 1)
            if k % 2 == 0:
                crown = meshes.cone(0.28, 0.85, np.r_[green, 1.0], segments=6, base=False).transformed(
                    translation([0.0, 0.0, 0.15]))
            else:
                lower = meshes.cone(0.38, 0.4, np.r_[green * 1.15, 1.0], segments=6, base=False)
                upper = meshes.cone(0.38, 0.35, np.r_[green * 1.15, 1.0], segments=6, base=False)
                flip = np.diag([1.0, 1.0, -1.0, 1.0])
                lower = lower.transformed(translation([0.0, 0.0, 0.35]) @ flip)   # a mirror:
                lower.indices = np.ascontiguousarray(lower.indices.reshape(-1, 3)[:, ::-1].ravel())
                crown = Mesh.merge([lower, upper.transformed(translation([0.0, 0.0, 0.35]))])
            out.append(Mesh.merge([trunk, crown]))
        _TREE_TEMPLATES = out
    return _TREE_TEMPLATES


_FAR_TEMPLATES = None


def _far_templates():
    """:func:`_far_tree` of each of :func:`_tree_templates`."""
    global _FAR_TEMPLATES
    if _FAR_TEMPLATES is None:
        _FAR_TEMPLATES = [_far_tree(t) for t in _tree_templates()]
    return _FAR_TEMPLATES


def _far_tree(template):
    """A template's stand-in seen from afar: a three-sided cone of its crown's colour and outline, from the
    ground to its top (3 triangles for its 18 or 24)."""
    crown = template.colors[-1]
    top = float(template.positions[:, 2].max())
    radius = float(np.hypot(template.positions[:, 0], template.positions[:, 1]).max())
    return meshes.cone(radius, top, crown, segments=3, base=False)


def _tree(x, y, h, rng):
    """A tree of height ``h`` at (x, y): a scaled, turned copy of a template, and its stand-in from afar."""
    templates = _tree_templates()
    k = rng.integers(len(templates))
    m = translation([x, y, 0.0]) @ rotation_z(rng.uniform(0, 2 * math.pi))
    out = []
    for t in (templates[k], _far_templates()[k]):
        positions = (t.positions * h) @ m[:3, :3].T + m[:3, 3]
        out.append(Mesh(positions, t.normals @ m[:3, :3].T, t.colors, t.indices))
    return tuple(out)


def _tower_position(rw):
    """(x, y) of the control tower."""
    along, left = rw.axes()
    return np.asarray(rw.center, dtype=np.float64) - left * (260.0 + 200.0 + 120.0) + along * 320.0


def _windsock_mount(rw):
    """Earth position of the windsock's mouth, at the top of its pole, ft."""
    along, left = rw.axes()
    w = np.asarray(rw.center, dtype=np.float64) - along * (0.5 * rw.length - 250.0) + left * 120.0
    return np.array([w[0], w[1], 20.0])


def _airfield(rw):
    """Taxiway, apron, hangars, tower, windsock and approach lights around the runway."""
    along, left = rw.axes()
    c = np.asarray(rw.center, dtype=np.float64)
    east = -left                                   # y is West: the buildings stand East of the runway
    decals, objects = [], []
    taxi_off = 260.0
    decals.append(decal_quad(c + east * taxi_off, along, rw.length - 200.0, 35.0, "#5d5d5a"))
    for s in (-0.45, 0.0, 0.45):
        decals.append(decal_quad(c + along * s * rw.length + east * taxi_off * 0.5, east, taxi_off, 35.0,
                                 "#5d5d5a"))
    apron_c = c + east * (taxi_off + 200.0)
    decals.append(decal_quad(apron_c, along, 700.0, 330.0, "#8a8a84"))
    # Hangars along the back of the apron.
    for s in (-230.0, -40.0, 150.0):
        p = apron_c + along * s + east * 250.0
        objects.append(_building(p[0], p[1], 120.0, 90.0, 34.0, "#b9bcc0", "#6f7780", pitched=True))
        objects.append(_oriented_box(p - east * 45.5, along, [90.0, 1.0, 28.0], "#44484e"))
    # Control tower.
    t = _tower_position(rw)
    objects.append(meshes.box([t[0], t[1], 30.0], [18.0, 18.0, 60.0], "#d9d6cc"))
    objects.append(meshes.box([t[0], t[1], 67.0], [26.0, 26.0, 14.0], "#2c4660"))
    objects.append(meshes.box([t[0], t[1], 75.0], [30.0, 30.0, 2.0], "#d9d6cc"))
    # Windsock pole near the first threshold, on the left (the sock swings: flightsim.app.scene.windsock).
    w = _windsock_mount(rw)
    objects.append(meshes.box([w[0], w[1], 0.5 * w[2] + 0.5], [0.8, 0.8, w[2] + 1.0], "#dddddd"))
    # Approach lights: bars before each threshold.
    for end in (-1, 1):
        for k in range(1, 9):
            p = c + along * end * (0.5 * rw.length + 100.0 * k)
            objects.append(meshes.box([p[0], p[1], 3.0], [3.0, 40.0 if k % 3 == 0 else 14.0, 2.0], "#f4f0d0"))
            objects.append(meshes.box([p[0], p[1], 1.0], [1.0, 1.0, 2.0], "#555555"))
    # Threshold-side lights (red/green markers) and runway edge markers.
    for s in np.linspace(-0.5, 0.5, 16):
        for side in (-1, 1):
            p = c + along * s * rw.length + left * side * (0.5 * rw.width + 8.0)
            objects.append(meshes.box([p[0], p[1], 1.0], [2.0, 2.0, 2.0], "#f6f2c8"))
    return decals, objects


def _oriented_box(center, along, size, color):
    """A box standing on the ground at ``center`` (x, y), its x size along ``along``."""
    yaw = math.atan2(along[1], along[0])
    return meshes.box([0.0, 0.0, 0.5 * size[2]], size, color).transformed(
        translation([center[0], center[1], 0.0]) @ rotation_z(yaw))


def _rot_y(a):
    return meshes.rotation_y(a)


def _town(center, rng, blocks=5, spacing=260.0):
    """A grid of streets with houses, a church and a water tower."""
    decals, objects = [], []
    c = np.asarray(center, dtype=np.float64)
    extent = blocks * spacing
    for k in range(blocks + 1):
        off = (k - blocks / 2) * spacing
        decals.append(decal_quad(c + [off, 0.0], [0.0, 1.0], extent + 40.0, 30.0, "#6b6b68"))
        decals.append(decal_quad(c + [0.0, off], [1.0, 0.0], extent + 40.0, 30.0, "#6b6b68"))
    walls = ["#e7dcc6", "#d8c3a5", "#f1efe9", "#c9b59a", "#e3d3c0", "#b8b8b0"]
    roofs = ["#9b3b2f", "#7a3a2c", "#5b5e66", "#8a4b32", "#6d3b30"]
    for i in range(blocks):
        for j in range(blocks):
            bx = c[0] + (i - blocks / 2 + 0.5) * spacing
            by = c[1] + (j - blocks / 2 + 0.5) * spacing
            if (i, j) == (blocks // 2, blocks // 2):
                objects.append(_building(bx, by, 90.0, 45.0, 30.0, "#e9e4d8", "#4a4f5a"))
                objects.append(meshes.box([bx + 40.0, by, 45.0], [16.0, 16.0, 90.0], "#e9e4d8"))
                objects.append(meshes.cone(11.0, 45.0, "#4a4f5a", segments=4).transformed(
                    translation([bx + 40.0, by, 90.0]) @ rotation_z(math.pi / 4)))
                continue
            for hx in (-0.25, 0.25):
                for hy in (-0.25, 0.25):
                    if rng.random() < 0.15:
                        continue
                    w, d = rng.uniform(35, 60), rng.uniform(30, 45)
                    objects.append(_building(bx + hx * spacing, by + hy * spacing, w, d, rng.uniform(16, 26),
                                             walls[rng.integers(len(walls))], roofs[rng.integers(len(roofs))],
                                             yaw=(math.pi / 2) * rng.integers(2)))
    # Water tower: a height cue visible from far away.
    wt = c + [extent * 0.5 + 150.0, -extent * 0.3]
    for dx, dy in ((-8, -8), (8, -8), (-8, 8), (8, 8)):
        objects.append(meshes.box([wt[0] + dx, wt[1] + dy, 45.0], [2.5, 2.5, 90.0], "#8d9299"))
    objects.append(meshes.cylinder(22.0, 30.0, "#c5ccd4", segments=16).transformed(
        translation([wt[0], wt[1], 90.0]) @ _rot_y(-math.pi / 2)))
    return decals, objects


def _woods(center, radius, count, rng):
    """Trees scattered in a disc: (the trees, their stand-ins from afar)."""
    near, far = [], []
    for _ in range(count):
        r = radius * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        tree, stand_in = _tree(center[0] + r * math.cos(a), center[1] + r * math.sin(a), rng.uniform(30, 60), rng)
        near.append(tree)
        far.append(stand_in)
    return near, far


def _hills(rng, inner=42000.0, outer=70000.0, n_angle=160, n_radial=8, max_height=4200.0, sectors=10, clear=()):
    """A ring of hills and mountains on the horizon (smooth shaded, coloured by height), in sectors.

    ``clear``: ``(x, y)`` points (other airfields' runways) the hills sink under the ground around (200 ft
    below it within :data:`HILL_CLEARANCE` ft, rising over as much again), so that no hill stands on a runway or
    its approach.
    """
    a = np.linspace(0.0, 2 * np.pi, n_angle, endpoint=False)
    r = np.linspace(inner, outer, n_radial)
    k = np.arange(1, 9)
    phases = rng.uniform(0, 2 * np.pi, len(k))
    amps = rng.uniform(0.4, 1.0, len(k)) / k**0.8
    ridge = sum(amp * (0.5 + 0.5 * np.sin(kk * a * 3 + ph)) for kk, amp, ph in zip(k, amps, phases, strict=True))
    ridge = ridge / ridge.max()
    profile = np.sin(np.linspace(0.0, np.pi, n_radial)) ** 1.5
    noise = rng.uniform(0.75, 1.0, (n_radial, n_angle))
    height = max_height * profile[:, None] * ridge[None, :] ** 1.6 * noise
    height[0] = 0.0
    height[-1] = 0.0
    px, py = r[:, None] * np.cos(a)[None, :], r[:, None] * np.sin(a)[None, :]
    for cx, cy in clear:
        u = np.clip((np.hypot(px - cx, py - cy) - HILL_CLEARANCE) / HILL_CLEARANCE, 0.0, 1.0)
        smooth = u * u * (3.0 - 2.0 * u)
        height = height * smooth - (1.0 - smooth) * 200.0     # sunk under the ground, which is drawn over it
    pts = np.stack([px, py, height], axis=-1)
    frac = height / max_height
    low, mid, high = np.array([0.28, 0.38, 0.22]), np.array([0.42, 0.40, 0.33]), np.array([0.93, 0.94, 0.96])
    col = np.where(frac[..., None] < 0.55, low + (mid - low) * (frac[..., None] / 0.55),
                   np.where(frac[..., None] < 0.8, mid, high))
    colors = np.concatenate([col, np.ones(col.shape[:2] + (1,))], axis=-1)
    # Sectors, so the renderer can skip those behind the camera.
    step = n_angle // sectors
    out = []
    for k in range(sectors):
        cols = np.arange(k * step, (k + 1) * step + 1) % n_angle
        out.append(meshes.grid_surface(pts[:, cols], colors[:, cols]))
    return out


def _roads(points, width, color="#6b6b68"):
    """A road through a polyline of (x, y) points, as decal quads."""
    out = []
    pts = np.asarray(points, dtype=np.float64)
    for p, q in zip(pts[:-1], pts[1:], strict=True):
        d = q - p
        length = float(np.linalg.norm(d))
        out.append(decal_quad(0.5 * (p + q), d / length, length + width, width, color))
    return out


def _runway_quad(runway, z=0.0):
    """(positions (4, 3), uv (4, 2)) of a runway's rectangle at height ``z``, uv (0, 0) at the first threshold's
    left corner."""
    along, left = runway.axes()
    c = np.asarray(runway.center, dtype=np.float64)
    hl, hw = 0.5 * runway.length, 0.5 * runway.width
    corners = [c - along * hl + left * hw, c - along * hl - left * hw, c + along * hl - left * hw,
               c + along * hl + left * hw]
    quad_pos = np.array([[p[0], p[1], z] for p in corners])
    quad_uv = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    return quad_pos, quad_uv


def _lifted(mesh, z):
    """``mesh`` raised by ``z`` ft."""
    if z == 0.0:
        return mesh
    positions = np.array(mesh.positions, dtype=np.float64)
    positions[:, 2] += z
    return Mesh(positions, mesh.normals, mesh.colors, mesh.indices)


def _marker(p, z, size, color):
    """A small box standing on the ground at (x, y) = ``p``, height z."""
    return meshes.box([p[0], p[1], z + 0.5 * size[2]], size, color)


def _field_runway(ident, data, elevation):
    """Decals, landmarks and (asphalt) the :class:`FieldRunway` of one runway of another airfield."""
    rw = data.runway()
    along, left = rw.axes()
    c = np.asarray(rw.center, dtype=np.float64)
    hl, hw = 0.5 * rw.length, 0.5 * rw.width
    decals, objects = [], []
    if data.surface == "grass":
        # mown grass: a lighter rectangle a little wider than the strip, white edge markers, orange corners
        decals.append(_lifted(decal_quad(c, along, rw.length + 60.0, rw.width + 20.0, MOWN_GRASS), elevation))
        for s in np.arange(-hl, hl + 1.0, 150.0):
            for side in (-1, 1):
                p = c + along * s + left * side * (hw + 4.0)
                objects.append(_marker(p, elevation, [4.0, 1.5, 1.2], EDGE_MARKER))
        for end in (-1, 1):
            for side in (-1, 1):
                p = c + along * end * hl + left * side * (hw + 4.0)
                objects.append(_marker(p, elevation, [3.0, 3.0, 3.0], CORNER_MARKER))
        return decals, objects, None
    # asphalt: the textured rectangle, a taxiway and apron beside it, edge markers, approach lights when lit
    east = -left
    decals.append(_lifted(decal_quad(c + east * (hw + 180.0), along, 0.6 * rw.length, 35.0, "#5d5d5a"), elevation))
    decals.append(_lifted(decal_quad(c + east * (hw + 90.0), east, 180.0, 35.0, "#5d5d5a"), elevation))
    decals.append(_lifted(decal_quad(c + east * (hw + 330.0), along, 400.0, 260.0, "#8a8a84"), elevation))
    for s in np.linspace(-hl, hl, max(int(rw.length // 200.0), 2) + 1):
        for side in (-1, 1):
            p = c + along * s + left * side * (hw + 8.0)
            objects.append(_marker(p, elevation, [2.0, 2.0, 2.0], "#f6f2c8"))
    if data.lights:
        for end in (-1, 1):
            for k in range(1, 9):
                p = c + along * end * (hl + 100.0 * k)
                objects.append(_marker(p, elevation + 2.0, [3.0, 40.0 if k % 3 == 0 else 14.0, 2.0], "#f4f0d0"))
    hangar = c + east * (hw + 330.0) + east * 200.0
    objects.append(_lifted(_building(hangar[0], hangar[1], 110.0, 80.0, 30.0, "#b9bcc0", "#6f7780"), elevation))
    return decals, objects, FieldRunway(ident, rw, elevation, _runway_quad(rw, elevation))


def _runway_centres(airfield, home):
    """The (x, y) centres of an airfield's runways but ``home``."""
    return [r.center for r in airfield.runways if r.runway() != home and r.runway(r.ends[1]) != home]


def _other_airfields(runway, airfields):
    """Decals, landmarks (a list of meshes for each airfield) and :class:`FieldRunway` list of every airfield's
    runways but ``runway`` (the home runway, drawn as before)."""
    decals, clusters, runways = [], [], []
    for f in airfields.values():
        objects = []
        for data in f.runways:
            if data.runway() == runway or data.runway(data.ends[1]) == runway:
                continue
            d, o, fr = _field_runway(f.id, data, float(f.elevation_ft))
            decals += d
            objects += o
            if fr is not None:
                runways.append(fr)
        if objects:
            clusters.append(objects)
    return decals, clusters, runways


def build_scenery(runway: Runway = RUNWAY, seed=2024, airfields=None, hills=True, terrain=False) -> Scenery:
    """Build the world geometry (deterministic for a given seed).

    Parameters
    ----------
    runway : Runway
        The home runway, drawn with its airfield's buildings, tower and windsock.
    seed : int
    airfields : dict, optional
        ``{id: Airfield}`` whose other runways are drawn (:func:`flightsim.simulation.world.load_airfields`'s,
        the default; ``{}``: none).
    hills : bool
        The painted ring of hills on the horizon (none where the world's terrain is drawn).
    terrain : bool
        The world's terrain is drawn: no hills, and of the flat ground's decals only those on home's flat
        farmland (its two lakes and the through road beyond the town would lie under the terrain's rise).

    Returns
    -------
    Scenery

    Raises
    ------
    flightsim.errors.InputError
        A bad airfield file (only with ``airfields`` None).
    """
    if airfields is None:
        from flightsim.simulation.world import load_airfields

        airfields = load_airfields()
    rng = np.random.default_rng(seed)
    decals, clusters = [], []
    d, o = _airfield(runway)
    decals += d
    clusters += _clusters(o)
    town_center = (9000.0, -7000.0)
    d, o = _town(town_center, rng)
    decals += d
    clusters += _clusters(o)
    if not terrain:                  # (the world's terrain has lakes of its own, and rises under these)
        decals.insert(0, _disc((-14000.0, 9000.0), 3200.0, 1900.0, "#3f6f8f", seed=5))
        decals.insert(0, _disc((22000.0, 14000.0), 1800.0, 2600.0, "#3f6f8f", seed=6))
    decals += _roads([(0.0, -880.0), (2500.0, -2600.0), (6000.0, -4600.0), (town_center[0] - 700.0,
                                                                         town_center[1] + 700.0)], 32.0)
    through = [(-30000.0, -12000.0), (-6000.0, -9000.0), (9000.0, -7000.0), (40000.0, -3000.0)]
    decals += _roads(through if not terrain else through[1:3], 40.0)
    for center, radius, count in (((-2200.0, 1500.0), 500.0, 40), ((1800.0, 1300.0), 350.0, 25),
                                  ((-6500.0, -1800.0), 700.0, 50), ((4200.0, -2300.0), 450.0, 30),
                                  ((12500.0, -4000.0), 600.0, 35)):
        clusters += _clusters(*_woods(center, radius, count, rng))
    # A radio mast with a red top: a height reference near the field.
    clusters += _clusters([Mesh.merge([meshes.box([-3000.0, -3500.0, 200.0], [6.0, 6.0, 400.0], "#c9ccd1"),
                                       meshes.box([-3000.0, -3500.0, 402.0], [8.0, 8.0, 8.0], "#d22b2b")])])
    d, o, field_runways = _other_airfields(runway, airfields)
    if hills and not terrain:
        clusters += [(m, math.inf, None) for m in _hills(rng, clear=[local for f in airfields.values()
                                                                      for local in _runway_centres(f, runway)])]
    decals += d
    for objects in o:
        clusters += _clusters(objects)
    tower = _tower_position(runway)                        # on the roof, above the cab
    mesh, size, far = zip(*clusters, strict=True)
    return Scenery(list(mesh), Mesh.merge(decals), runway, _runway_quad(runway),
                   np.array([tower[0], tower[1], 82.0]), _windsock_mount(runway), field_runways, list(size),
                   list(far))

"""Triangle meshes as numpy arrays, and the primitives the scene is built of.

Everything here is plain numpy (no OpenGL), so it can be tested and reused
without a window.  A :class:`Mesh` holds per-vertex positions, normals and
RGBA colours and a triangle index list; :meth:`Mesh.merge` concatenates
meshes so a whole static scene can be drawn with one call.

Conventions: right-handed coordinates, counter-clockwise front faces,
matrices are 4x4 column-vector matrices (``p' = M @ p``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "Mesh",
    "box",
    "cone",
    "cylinder",
    "extrude_profile",
    "grid_surface",
    "rotation_x",
    "rotation_y",
    "rotation_z",
    "rgba",
    "rod",
    "smooth_normals",
    "translation",
]


def rgba(color) -> np.ndarray:
    """An RGBA float32 colour from ``"#rrggbb"``, ``"#rrggbbaa"`` or 3/4 floats in 0..1."""
    if isinstance(color, str):
        text = color.lstrip("#")
        if len(text) not in (6, 8):
            raise ValueError(f"colour {color!r}: expected #rrggbb or #rrggbbaa")
        values = [int(text[i:i + 2], 16) / 255.0 for i in range(0, len(text), 2)]
    else:
        values = [float(v) for v in color]
    if len(values) == 3:
        values.append(1.0)
    if len(values) != 4:
        raise ValueError(f"colour {color!r}: expected 3 or 4 components")
    return np.array(values, dtype=np.float32)


def translation(offset) -> np.ndarray:
    """4x4 translation matrix."""
    m = np.eye(4)
    m[:3, 3] = offset
    return m


def _rotation(axis, angle_rad):
    c, s = np.cos(angle_rad), np.sin(angle_rad)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(4)
    m[i, i] = c
    m[i, j] = -s
    m[j, i] = s
    m[j, j] = c
    return m


def rotation_x(angle_rad) -> np.ndarray:
    """4x4 right-handed rotation about x (y turns towards z)."""
    return _rotation(0, angle_rad)


def rotation_y(angle_rad) -> np.ndarray:
    """4x4 right-handed rotation about y (z turns towards x)."""
    return _rotation(1, angle_rad)


def rotation_z(angle_rad) -> np.ndarray:
    """4x4 right-handed rotation about z (x turns towards y)."""
    return _rotation(2, angle_rad)


@dataclass
class Mesh:
    """An indexed triangle mesh.

    Parameters
    ----------
    positions : numpy.ndarray, shape (n, 3)
        Vertex positions.
    normals : numpy.ndarray, shape (n, 3)
        Unit vertex normals.
    colors : numpy.ndarray, shape (n, 4)
        Vertex RGBA colours in 0..1.
    indices : numpy.ndarray, shape (m,)
        Triangle vertex indices (``m`` a multiple of 3), counter-clockwise
        seen from the front.
    """

    positions: np.ndarray
    normals: np.ndarray
    colors: np.ndarray
    indices: np.ndarray

    def __post_init__(self):
        self.positions = np.ascontiguousarray(self.positions, dtype=np.float32).reshape(-1, 3)
        self.normals = np.ascontiguousarray(self.normals, dtype=np.float32).reshape(-1, 3)
        colors = np.asarray(self.colors, dtype=np.float32)
        if colors.ndim == 1:
            colors = np.broadcast_to(colors, (len(self.positions), 4))
        self.colors = np.ascontiguousarray(colors, dtype=np.float32)
        self.indices = np.ascontiguousarray(self.indices, dtype=np.uint32).ravel()
        n = len(self.positions)
        if self.normals.shape != (n, 3) or self.colors.shape != (n, 4):
            raise ValueError("positions, normals and colors must have one row per vertex")
        if self.indices.size % 3 or (self.indices.size and self.indices.max() >= n):
            raise ValueError("indices must be triangles referring to existing vertices")

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return len(self.positions)

    def transformed(self, matrix) -> "Mesh":
        """A copy moved by a rigid 4x4 matrix (normals rotated with it)."""
        m = np.asarray(matrix, dtype=np.float64)
        positions = self.positions @ m[:3, :3].T + m[:3, 3]
        normals = self.normals @ m[:3, :3].T
        return Mesh(positions, normals, self.colors.copy(), self.indices.copy())

    @staticmethod
    def merge(meshes) -> "Mesh":
        """Concatenate meshes into one (indices offset accordingly)."""
        meshes = list(meshes)
        if not meshes:
            return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 4)), np.zeros(0))
        offsets = np.cumsum([0] + [m.vertex_count for m in meshes[:-1]])
        return Mesh(
            np.concatenate([m.positions for m in meshes]),
            np.concatenate([m.normals for m in meshes]),
            np.concatenate([m.colors for m in meshes]),
            np.concatenate([m.indices + o for m, o in zip(meshes, offsets, strict=True)]),
        )


def smooth_normals(positions, indices) -> np.ndarray:
    """Area-weighted vertex normals of an indexed triangle mesh.

    Parameters
    ----------
    positions : array_like, shape (n, 3)
    indices : array_like, shape (3 k,)

    Returns
    -------
    numpy.ndarray, shape (n, 3)
        Unit normals (vertices on no triangle get +z).
    """
    p = np.asarray(positions, dtype=np.float64)
    tri = np.asarray(indices, dtype=np.int64).reshape(-1, 3)
    face = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])
    normals = np.zeros_like(p)
    for k in range(3):
        np.add.at(normals, tri[:, k], face)
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.where(length > 1e-12, normals / np.maximum(length, 1e-12), [0.0, 0.0, 1.0])
    return normals


def _quad_strip_indices(rows, cols, wrap):
    """Indices of a (rows x cols) vertex grid as triangles; ``wrap`` closes columns."""
    c_count = cols if wrap else cols - 1
    r = np.arange(rows - 1)[:, None]
    c = np.arange(c_count)[None, :]
    a = r * cols + c
    b = r * cols + (c + 1) % cols
    a2, b2 = a + cols, b + cols
    return np.stack([a, b, b2, a, b2, a2], axis=-1).ravel()


def grid_surface(points, color, wrap=False, flip=False) -> Mesh:
    """A smooth surface through a (rows, cols, 3) grid of points.

    Parameters
    ----------
    points : array_like, shape (rows, cols, 3)
    color : colour or array_like, shape (rows, cols, 4)
        One colour, or one per grid point.
    wrap : bool
        Close the surface between the last and first column (a tube).
    flip : bool
        Reverse the winding (the front face is the other side).
    """
    pts = np.asarray(points, dtype=np.float64)
    rows, cols = pts.shape[:2]
    idx = _quad_strip_indices(rows, cols, wrap)
    if flip:
        idx = idx.reshape(-1, 3)[:, ::-1].ravel()
    flat = pts.reshape(-1, 3)
    col = np.asarray(color, dtype=np.float32) if not isinstance(color, str) else rgba(color)
    col = col.reshape(-1, 4) if col.ndim > 1 else col
    return Mesh(flat, smooth_normals(flat, idx), col, idx)


def _fan(center, ring, normal, color):
    """A flat triangle fan closing a convex ring (counter-clockwise about ``normal``)."""
    ring = np.asarray(ring, dtype=np.float64)
    n = len(ring)
    positions = np.vstack([center, ring])
    i = np.arange(n)
    idx = np.stack([np.zeros(n, int), 1 + i, 1 + (i + 1) % n], axis=-1)
    tri_normal = np.cross(ring[1 % n] - center, ring[2 % n] - center) if n > 2 else normal
    if np.dot(tri_normal, normal) < 0:
        idx = idx[:, ::-1]
    normals = np.broadcast_to(np.asarray(normal, dtype=np.float64), positions.shape)
    return Mesh(positions, normals, rgba(color) if isinstance(color, str) else color, idx.ravel())


_BOX_FACES = None


def _box_template():
    """Corners (24, 3) in -1..1, normals (24, 3) and indices of a unit box's six faces."""
    global _BOX_FACES
    if _BOX_FACES is None:
        corners, normals, idx = [], [], []
        for axis in range(3):
            for sign in (-1.0, 1.0):
                n = np.zeros(3)
                n[axis] = sign
                u = np.zeros(3)
                u[(axis + 1) % 3] = 1.0
                v = np.cross(n, u)
                base = len(corners)
                corners += [n + a * u + b * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                normals += [n] * 4
                idx += [base, base + 1, base + 2, base, base + 2, base + 3]
        _BOX_FACES = (np.array(corners), np.array(normals), np.array(idx))
    return _BOX_FACES


def box(center, size, color) -> Mesh:
    """An axis-aligned, flat-shaded box.

    Parameters
    ----------
    center : array_like, shape (3,)
    size : array_like, shape (3,)
        Full edge lengths along x, y, z.
    color : colour
    """
    corners, normals, idx = _box_template()
    c = np.asarray(center, dtype=np.float64)
    h = 0.5 * np.asarray(size, dtype=np.float64)
    return Mesh(c + corners * h, normals, rgba(color), idx)


def cylinder(radius, length, color, segments=16, caps=True) -> Mesh:
    """A cylinder along +x from x=0 to x=length, smooth sides, flat caps."""
    a = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    ring = np.stack([np.zeros_like(a), radius * np.cos(a), radius * np.sin(a)], axis=-1)
    pts = np.stack([ring, ring + [length, 0.0, 0.0]])
    side = grid_surface(pts, color, wrap=True)
    side.normals[:] = np.vstack([ring, ring]) / radius
    parts = [side]
    if caps:
        parts.append(_fan(np.zeros(3), ring, [-1.0, 0.0, 0.0], rgba(color)))
        parts.append(_fan(np.array([length, 0.0, 0.0]), ring + [length, 0, 0], [1.0, 0.0, 0.0], rgba(color)))
    return Mesh.merge(parts)


def rod(a, b, radius, color, segments=8) -> Mesh:
    """A round rod (a :func:`cylinder`) from point ``a`` to point ``b``."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    d = b - a
    length = float(np.linalg.norm(d))
    x = d / length
    helper = np.array([0.0, 0.0, 1.0]) if abs(x[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    y = np.cross(helper, x)
    y /= np.linalg.norm(y)
    frame = np.eye(4)
    frame[:3, 0], frame[:3, 1], frame[:3, 2] = x, y, np.cross(x, y)
    return cylinder(radius, length, color, segments=segments).transformed(translation(a) @ frame)


def cone(radius, height, color, segments=12, base=True) -> Mesh:
    """A cone standing on z=0 with its apex at z=height (flat-shaded sides)."""
    a = np.linspace(0.0, 2 * np.pi, segments + 1)
    p0 = np.stack([radius * np.cos(a[:-1]), radius * np.sin(a[:-1]), np.zeros(segments)], axis=-1)
    p1 = np.roll(p0, -1, axis=0)
    apex = np.broadcast_to([0.0, 0.0, height], p0.shape)
    n = np.cross(p1 - p0, apex - p0)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    positions = np.stack([p0, p1, apex], axis=1).reshape(-1, 3)
    normals = np.repeat(n, 3, axis=0)
    col = rgba(color) if isinstance(color, str) else np.asarray(color, np.float32)
    sides = Mesh(positions, normals, col if col.shape[-1] == 4 else rgba(col), np.arange(3 * segments))
    if not base:
        return sides
    return Mesh.merge([sides, _fan(np.zeros(3), p0, [0.0, 0.0, -1.0], sides.colors[0])])


def extrude_profile(profile, y0, y1, color) -> Mesh:
    """A closed 2D profile in the (x, z) plane swept along y from ``y0`` to ``y1``.

    The sides get smooth normals from the profile (an airfoil looks round),
    the two ends flat caps.  The profile must be convex (or star-shaped
    about its centroid) and ordered counter-clockwise seen from +y.

    Parameters
    ----------
    profile : array_like, shape (k, 2)
        (x, z) points.
    y0, y1 : float
        Span-wise extent.
    color : colour or array_like, shape (2, k, 4)
        One colour, or one per vertex of the two rings.
    """
    prof = np.asarray(profile, dtype=np.float64)
    k = len(prof)
    ring0 = np.stack([prof[:, 0], np.full(k, y0), prof[:, 1]], axis=-1)
    ring1 = ring0 + [0.0, y1 - y0, 0.0]
    # Side: rows are the two span stations, columns the profile points.
    side = grid_surface(np.stack([ring0, ring1]), color if not isinstance(color, str) else rgba(color),
                        wrap=True)
    # Normals of the profile in (x, z): perpendicular to the neighbours' chord, pointing out.
    tangent = np.roll(prof, -1, axis=0) - np.roll(prof, 1, axis=0)
    n2 = np.stack([tangent[:, 1], -tangent[:, 0]], axis=-1)
    centroid = prof.mean(axis=0)
    flip = np.sum(n2 * (prof - centroid), axis=1) < 0
    n2[flip] *= -1
    n2 /= np.maximum(np.linalg.norm(n2, axis=1, keepdims=True), 1e-12)
    n3 = np.stack([n2[:, 0], np.zeros(k), n2[:, 1]], axis=-1)
    side.normals[:] = np.vstack([n3, n3])
    side_front = _orient_outward(side, centroid, y0, y1)
    cap_color = rgba(color) if isinstance(color, str) else np.asarray(color, np.float32).reshape(-1, 4)[0]
    c0 = np.array([centroid[0], y0, centroid[1]])
    caps = [_fan(c0, ring0, [0.0, -1.0, 0.0], cap_color),
            _fan(c0 + [0.0, y1 - y0, 0.0], ring1, [0.0, 1.0, 0.0], cap_color)]
    return Mesh.merge([side_front, *caps])


def _orient_outward(side, centroid, y0, y1):
    """Reverse the side's winding if its triangles face inwards."""
    tri = side.indices.reshape(-1, 3)
    p = side.positions.astype(np.float64)
    face = np.cross(p[tri[:, 1]] - p[tri[:, 0]], p[tri[:, 2]] - p[tri[:, 0]])
    mid = p[tri].mean(axis=1)
    out = mid - np.array([centroid[0], 0.5 * (y0 + y1), centroid[1]])
    out[:, 1] = 0.0
    if np.sum(np.einsum("ij,ij->i", face, out)) < 0:
        side.indices = np.ascontiguousarray(tri[:, ::-1].ravel())
    return side

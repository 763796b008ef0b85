"""The terrain: a height field in the home frame, the surface the physics stands on and the renderer draws.

:class:`Terrain` is a regular grid of heights (ft above sea level) and land use codes in the home frame
(x North, y West, z up, ft; the origin at the home runway's centre): vertex ``[i, j]`` lies at
``x = x0 + i·spacing`` (axis 0, North) and ``y = y0 + j·spacing`` (axis 1, West).  :func:`load_terrain`
reads the shipped region (``assets/terrain/region.npz``, made by ``tools/make_terrain.py``).

**The surface** (the physics' and the renderer's, the same): each grid cell ``[i, i+1] × [j, j+1]`` is two
triangles split along its ``(i, j)–(i+1, j+1)`` diagonal, the height linear on each.  With the fractions
``u = (x − x_i)/spacing`` and ``v = (y − y_j)/spacing`` in the cell:

- ``u ≥ v``: the triangle ``(i, j), (i+1, j), (i+1, j+1)``: ``h = h00 + u (h10 − h00) + v (h11 − h10)``;
- ``u < v``: the triangle ``(i, j), (i, j+1), (i+1, j+1)``: ``h = h00 + v (h01 − h00) + u (h11 − h01)``

(``hab`` the height at vertex ``[i+a, j+b]``).  A renderer draws exactly these two triangles per cell.
Outside the grid the surface is sea level, flat.  :func:`terrain_height` (compiled) gives the height and its
slopes ``∂h/∂x``, ``∂h/∂y`` there; the surface's upward normal is ``(−∂h/∂x, −∂h/∂y, 1)`` normalised.

:func:`pack_terrain` packs a terrain into the one float64 array the compiled code reads (the ``terrain``
field of :class:`flightsim.physics.aero.LoadParams`): a header (``T_*``) and the heights row by row.
On the round planet the terrain is looked up with the flight's view x, y (the tangent plane at the origin)
and compared with the view's z, the height above the ellipsoid.
"""

import functools
from dataclasses import dataclass

import numpy as np

from flightsim.math.compiler import borrowing_jit

#: Land use codes.
WATER, FARMLAND, GRASS, FOREST, ROCK, SNOW, TOWN = range(7)
LANDUSE_NAMES = ("water", "farmland", "grass", "forest", "rock", "snow", "town")
#: The packed terrain's header: vertices along x (axis 0) and y (axis 1), x0, y0, spacing (ft), the steepest
#: slope's tangent, the highest height (ft), sea level (ft); the heights follow, row by row, from :data:`T_HEIGHTS`.
T_NX, T_NY, T_X0, T_Y0, T_SPACING, T_MAX_SLOPE, T_MAX_HEIGHT, T_SEA, T_HEIGHTS = range(9)


@dataclass(frozen=True, eq=False)
class Terrain:
    """A height field in the home frame (the module docstring gives the grid and the surface).

    Attributes
    ----------
    heights : numpy.ndarray
        ``(ny, nx)`` float64, ft above sea level; axis 0 along x (North), axis 1 along y (West).
    landuse : numpy.ndarray
        ``(ny, nx)`` uint8 land use codes (``WATER`` … ``TOWN``).
    x0, y0 : float
        Home-frame position of vertex ``[0, 0]``, ft.
    spacing : float
        Between vertices, ft.
    sea_level : float
        The sea's (and the outside's) height, ft.
    """

    heights: np.ndarray
    landuse: np.ndarray
    x0: float
    y0: float
    spacing: float
    sea_level: float = 0.0

    def __post_init__(self):
        heights = np.asarray(self.heights, dtype=np.float64)
        landuse = np.asarray(self.landuse, dtype=np.uint8)
        if heights.ndim != 2 or heights.shape[0] < 2 or heights.shape[1] < 2:
            raise ValueError(f"terrain heights: must be a 2-D grid of at least 2 × 2, got shape {heights.shape}")
        if landuse.shape != heights.shape:
            raise ValueError(f"terrain landuse: shape {landuse.shape} differs from the heights' {heights.shape}")
        if not np.all(np.isfinite(heights)):
            raise ValueError("terrain heights: not all finite")
        if not self.spacing > 0.0:
            raise ValueError(f"terrain spacing: must be above 0 ft, got {self.spacing}")
        object.__setattr__(self, "heights", heights)
        object.__setattr__(self, "landuse", landuse)

    @property
    def extent(self):
        """``(x_min, x_max, y_min, y_max)`` of the grid, ft."""
        nx, ny = self.heights.shape
        return (self.x0, self.x0 + (nx - 1) * self.spacing, self.y0, self.y0 + (ny - 1) * self.spacing)

    def height(self, x, y):
        """The surface's height (ft) at home-frame ``x``, ``y`` (scalars or arrays; numpy, the same triangles
        as :func:`terrain_height`)."""
        return surface(self, x, y)[0]


def surface(terrain, x, y):
    """The surface's height and slopes at ``x``, ``y`` evaluated with numpy: ``(h, ∂h/∂x, ∂h/∂y)``
    (the module docstring's triangles; sea level, flat, outside the grid)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    hs = terrain.heights
    s = terrain.spacing
    fx = (x - terrain.x0) / s
    fy = (y - terrain.y0) / s
    inside = (fx >= 0) & (fy >= 0) & (fx <= hs.shape[0] - 1) & (fy <= hs.shape[1] - 1)
    i = np.clip(np.floor(fx).astype(np.int64), 0, hs.shape[0] - 2)
    j = np.clip(np.floor(fy).astype(np.int64), 0, hs.shape[1] - 2)
    u = np.clip(fx - i, 0.0, 1.0)
    v = np.clip(fy - j, 0.0, 1.0)
    h00, h10, h01, h11 = hs[i, j], hs[i + 1, j], hs[i, j + 1], hs[i + 1, j + 1]
    lower = u >= v
    h = np.where(lower, h00 + u * (h10 - h00) + v * (h11 - h10), h00 + v * (h01 - h00) + u * (h11 - h01))
    dx = np.where(lower, h10 - h00, h11 - h01) / s
    dy = np.where(lower, h11 - h10, h01 - h00) / s
    sea = terrain.sea_level
    return np.where(inside, h, sea), np.where(inside, dx, 0.0), np.where(inside, dy, 0.0)


def pack_terrain(terrain):
    """The float64 array :func:`terrain_height` reads (the ``terrain`` field of the loads' parameters):
    the ``T_*`` header, then the heights, row by row (axis 0 outer)."""
    hs = terrain.heights
    gx = np.abs(np.diff(hs, axis=0)).max(initial=0.0) / terrain.spacing
    gy = np.abs(np.diff(hs, axis=1)).max(initial=0.0) / terrain.spacing
    header = np.array([hs.shape[0], hs.shape[1], terrain.x0, terrain.y0, terrain.spacing,
                       gx + gy, max(float(hs.max()), terrain.sea_level), terrain.sea_level])
    return np.concatenate([header, hs.ravel()])


@borrowing_jit
def terrain_height(packed, x, y):
    """The height of the packed terrain's surface at home-frame ``x``, ``y`` (ft) and its slopes:
    ``(h ft, ∂h/∂x, ∂h/∂y)`` on the triangles of the module docstring; sea level, flat, outside the grid."""
    nx = int(packed[T_NX])
    ny = int(packed[T_NY])
    s = packed[T_SPACING]
    fx = (x - packed[T_X0]) / s
    fy = (y - packed[T_Y0]) / s
    if not (fx >= 0.0 and fy >= 0.0 and fx <= nx - 1 and fy <= ny - 1):
        return packed[T_SEA], 0.0, 0.0
    i = min(int(fx), nx - 2)
    j = min(int(fy), ny - 2)
    u = fx - i
    v = fy - j
    k = T_HEIGHTS + i * ny + j
    h00 = packed[k]
    h01 = packed[k + 1]
    h10 = packed[k + ny]
    h11 = packed[k + ny + 1]
    if u >= v:
        return h00 + u * (h10 - h00) + v * (h11 - h10), (h10 - h00) / s, (h11 - h10) / s
    return h00 + v * (h01 - h00) + u * (h11 - h01), (h11 - h01) / s, (h01 - h00) / s


@borrowing_jit
def terrain_clearance_bound(packed, x, y, z, reach):
    """Whether a body whose points lie within ``reach`` ft of (x, y, z) is surely clear of the surface:
    ``z − reach`` above the highest the surface can be within ``reach`` horizontally of (x, y) (the height
    under it plus the steepest slope's rise), or above the terrain's highest point."""
    if z - reach > packed[T_MAX_HEIGHT]:
        return True
    h, _, _ = terrain_height(packed, x, y)
    return z - reach > h + packed[T_MAX_SLOPE] * reach + 1e-9


@functools.cache
def load_terrain():
    """The shipped region's :class:`Terrain` (``assets/terrain/region.npz``; read once, then cached)."""
    from flightsim.resources import data_file

    with np.load(data_file("assets", "terrain", "region.npz")) as data:
        return Terrain(heights=data["heights"].astype(np.float64), landuse=data["landuse"],
                       x0=float(data["x0"]), y0=float(data["y0"]), spacing=float(data["spacing"]))


@functools.cache
def packed_world():
    """:func:`pack_terrain` of :func:`load_terrain` (cached: every flight on the world's terrain shares it;
    the compiled code only reads it)."""
    return pack_terrain(load_terrain())


def resolve_terrain(terrain):
    """The packed terrain for a flight's ``terrain`` argument: None or ``"off"`` (the plane z = 0), ``"world"``
    (:func:`load_terrain`) or a :class:`Terrain`; None, or the packed array."""
    if terrain is None or (isinstance(terrain, str) and terrain == "off"):
        return None
    if isinstance(terrain, str):
        if terrain == "world":
            return packed_world()
        raise ValueError(f"terrain: must be 'world', 'off', None or a Terrain, got {terrain!r}")
    if isinstance(terrain, Terrain):
        return pack_terrain(terrain)
    raise ValueError(f"terrain: must be 'world', 'off', None or a Terrain, got {type(terrain).__name__}")

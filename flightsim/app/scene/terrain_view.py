"""The world's terrain as a drawable mesh with levels of detail (no OpenGL).

The terrain is :mod:`flightsim.physics.terrain`'s height field (home frame: x
North, y West, z up, ft; grid index ``[i, j]`` at ``x0 + i * spacing``,
``y0 + j * spacing``).  Its vertices are the grid's own points at their own
heights, and each cell is drawn as the two triangles the physics interpolates
(:data:`DIAGONAL`), so near the camera the drawn surface *is* the physical
one: a wheel touches down where the picture says.

Level of detail: the grid is cut into square chunks, :data:`CHUNK` cells
near the eye (strides 1, 2, 4, 8: every ``stride``-th grid point in each
direction) and :data:`FAR_CHUNK` cells farther (stride 16 or 32: 10,400 or
20,800 ft, one for them all, by the quality); each near chunk's level
follows from its distance to the eye (:func:`chunk_levels`): full resolution
near the camera, coarser rings farther out.  The chunks lie in the index
buffer in Z order (a quadtree's order), so :func:`terrain_draw_ranges`
merges neighbours into a few tens of ranges (the renderer draws them as one).
Within each chunk the cells that lie under what the renderer draws over the
terrain at their height (home's fields) come last, so the ranges can leave
them out (:attr:`Tier.hidden`): Mesa would rasterise them only to reject them.
Mesa's software rasteriser pays for every triangle (set up on one thread,
and again in each 64-pixel tile it touches), so the ``low`` quality keeps
the full resolution to the nearest 1,500 ft and draws the distance at
20,800 ft: about 1,000-2,000 triangles in all.  Where two levels meet, the
finer chunk's edge has points the coarser one lacks: a vertical *skirt*
(:data:`SKIRT_FT` deep) hangs from the edges of a chunk whose neighbour is
drawn otherwise and hides the slit.  Beyond the grid a flat apron at sea
level reaches to the horizon (the physics is flat at sea level there too).

Colours are per vertex (a texture would cost the software rasteriser most of
a frame): the land-use code picks a colour (water blue, farmland from the
patchwork's crops, grass, forest, rock, snow on the peaks, town), and the sun
and the sky light it once at start-up (:meth:`flightsim.app.scene.renderer.Lighting.lit_colors`)
from the surface normal.  The arrays are built with numpy in about a tenth of
a second for a 700 x 700 grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flightsim.app.scene import ground

__all__ = ["CHUNK", "DETAIL_FT", "DIAGONAL", "FAR_CHUNK", "LEVELS", "NEAR_LEVELS", "SKIRT_FT", "TerrainMesh",
           "Tier", "build_terrain_mesh", "chunk_levels", "height_colors", "landuse_colors", "map_image",
           "terrain_draw_ranges"]

CHUNK = 16
"""Grid cells along each side of a near chunk (a power of two, so every near level's stride divides it)."""

FAR_CHUNK = 64
"""Grid cells along each side of a far chunk (a multiple of :data:`CHUNK`)."""

LEVELS = (1, 2, 4, 8, 16, 32)
"""Strides of the levels of detail, finest first."""

NEAR_LEVELS = 4
"""The first levels are drawn by near chunks, the others by far ones."""

CULL_FAR = True
"""Far chunks out of view are left out too."""


DETAIL_FT = 16000.0
"""A chunk nearer the eye than this (its nearest point, ft) is drawn at full resolution; each doubling of the
distance halves the resolution (:func:`chunk_levels`)."""

SKIRT_FT = 400.0
"""Depth of the skirts under the chunks' edges, ft."""

APRON_FT = 600000.0
"""Half size of the flat sea-level apron around the grid, ft (beyond the camera's far plane)."""

DIAGONAL = "main"
"""How a grid cell splits into two triangles: ``"main"`` along the diagonal from ``[i, j]`` to
``[i + 1, j + 1]`` (the split :func:`flightsim.physics.terrain.terrain_height` interpolates)."""

WATER, FARMLAND, GRASS, FOREST, ROCK, SNOW, TOWN = range(7)

_COLORS = np.array([
    [0.22, 0.40, 0.56],     # water
    [0.42, 0.50, 0.24],     # farmland (replaced by the patchwork's crops)
    [0.40, 0.52, 0.25],     # grass
    [0.17, 0.29, 0.14],     # forest
    [0.46, 0.43, 0.38],     # rock
    [0.93, 0.94, 0.96],     # snow
    [0.58, 0.54, 0.50],     # town
])
"""Base colour of each land-use code (rgb, 0..1)."""


def _patchwork_image(cells=64):
    """The ground's field pattern (:func:`flightsim.app.scene.ground.field_rects`) as a (cells, cells, 3)
    image of one tile, so farmland far from home wears today's crops."""
    fields, _ = ground.field_rects()
    img = np.zeros((cells, cells, 3))
    step = ground.TILE_FT / cells
    centres = (np.arange(cells) + 0.5) * step
    for x0, y0, x1, y1, rgb in fields:
        rows = (centres >= x0) & (centres < x1)
        cols = (centres >= y0) & (centres < y1)
        img[np.ix_(rows, cols)] = rgb
    return img


def landuse_colors(terrain) -> np.ndarray:
    """Per-grid-point colours (ny, nx, 3) float32 from the land use, before lighting.

    Farmland takes the crop of the patchwork field it lies in; every point gets a little noise (fixed seed) so
    large areas of one use do not read as flat paint; snow lies on the rock above 7,500 ft.
    """
    use = np.asarray(terrain.landuse)
    h = np.asarray(terrain.heights, dtype=np.float64)
    ny, nx = h.shape
    code = np.clip(use, 0, len(_COLORS) - 1)
    col = _COLORS[code].copy()
    xs = terrain.x0 + terrain.spacing * np.arange(ny)
    ys = terrain.y0 + terrain.spacing * np.arange(nx)
    img = _patchwork_image()
    cells = img.shape[0]
    ox, oy = ground.TILE_OFFSET
    ii = (np.floor((xs - ox) / ground.TILE_FT * cells).astype(int)) % cells
    jj = (np.floor((ys - oy) / ground.TILE_FT * cells).astype(int)) % cells
    crops = img[ii[:, None], jj[None, :]]
    farm = code == FARMLAND
    col[farm] = crops[farm]
    rng = np.random.default_rng(39)
    col *= rng.uniform(0.92, 1.06, (ny, nx, 1))
    col[code == WATER] = _COLORS[WATER]
    return np.clip(col, 0.0, 1.0).astype(np.float32)


def height_colors(heights, landuse) -> np.ndarray:
    """A map's colours (ny, nx, 3) float32: water blue, land by height (green low, brown, grey, white peaks)."""
    h = np.asarray(heights, dtype=np.float64)
    stops = np.array([0.0, 1000.0, 3000.0, 5500.0, 8000.0, 10000.0])
    ramp = np.array([[0.45, 0.62, 0.36], [0.62, 0.70, 0.42], [0.72, 0.62, 0.42], [0.56, 0.46, 0.36],
                     [0.62, 0.60, 0.58], [0.97, 0.97, 0.98]])
    col = np.stack([np.interp(h, stops, ramp[:, k]) for k in range(3)], axis=-1)
    col[np.asarray(landuse) == WATER] = (0.36, 0.56, 0.78)
    return col.astype(np.float32)


def _normals(terrain):
    """Unit surface normals (ny, nx, 3) of the height field by central differences."""
    h = np.asarray(terrain.heights, dtype=np.float64)
    dx = np.gradient(h, terrain.spacing, axis=0)
    dy = np.gradient(h, terrain.spacing, axis=1)
    n = np.stack([-dx, -dy, np.ones_like(h)], axis=-1)
    return n / np.linalg.norm(n, axis=-1, keepdims=True)


def _cell_triangles(rows, cols, nx):
    """Triangle indices of the cells with top-left grid points at ``rows x cols`` (steps between the given
    points), counter-clockwise seen from above (+z), split along :data:`DIAGONAL`."""
    r0, c0 = np.meshgrid(rows[:-1], cols[:-1], indexing="ij")
    r1, c1 = np.meshgrid(rows[1:], cols[1:], indexing="ij")
    a = r0 * nx + c0                 # [i, j]
    b = r1 * nx + c0                 # [i + 1, j]   (North)
    c = r1 * nx + c1                 # [i + 1, j + 1]
    d = r0 * nx + c1                 # [i, j + 1]   (West)
    # x North, y West, z up: North x West = up, so a -> b -> c turns counter-clockwise seen from above.
    return np.stack([a, b, c, a, c, d], axis=-1).ravel()


@dataclass
class Tier:
    """Square chunks of one size and their index ranges at some levels of detail.

    Attributes
    ----------
    chunk : int
        Grid cells along a chunk's side.
    strides : tuple of int
        The levels' strides.
    grid : (int, int)
        Chunks along axis 0 and axis 1; chunk ``ci * grid[1] + cj``.
    ranges : numpy.ndarray, shape (chunks, levels, 2)
        Each chunk's ``(first, count)`` indices at each level: its surface, then the skirts under its four
        edges (or its surface alone, where ``skirts`` are apart).  At each level the chunks follow one
        another in Z order (a quadtree's order), so a block of neighbours is one range.
    skirts : numpy.ndarray or None
        Where the skirts are apart, each chunk's skirts' ``(first, count)`` at each level (after all the
        level's surfaces, in Z order).
    centers, half : numpy.ndarray, shape (chunks, 3)
        The chunks' bounding boxes (centre, half size), ft.
    hidden : numpy.ndarray, shape (chunks, levels)
        How many of the last indices of each chunk's surface range at each level draw cells that lie wholly
        under something drawn over the terrain at their own height (home's fields: :func:`build_terrain_mesh`'s
        ``covered``), which :func:`terrain_draw_ranges` may leave out.
    """

    chunk: int
    strides: tuple
    grid: tuple
    ranges: np.ndarray
    skirts: np.ndarray | None
    centers: np.ndarray
    half: np.ndarray
    hidden: np.ndarray | None = None


@dataclass
class TerrainMesh:
    """The terrain's vertices and its chunks' index ranges.

    Two tiers of chunks: ``near`` (:data:`CHUNK` cells, the first :data:`NEAR_LEVELS` levels) and ``far``
    (:data:`FAR_CHUNK` cells, the other levels; :func:`terrain_draw_ranges` draws them all at one).  A far
    chunk whose level would be a near one is drawn as its
    near chunks (:func:`terrain_draw_ranges`).

    Attributes
    ----------
    positions : numpy.ndarray, shape (n, 3)
        Home frame, ft (float32): the grid's points first (``[i, j]`` at ``i * nx + j``), then the skirts' and
        the apron's.
    normals : numpy.ndarray, shape (n, 3)
    colors : numpy.ndarray, shape (n, 3)
        Unlit colours, 0..1.
    indices : numpy.ndarray
        uint32 triangle indices.
    near, far : Tier
    apron : tuple of int
        ``(first, count)`` of the flat apron beyond the grid.
    """

    positions: np.ndarray
    normals: np.ndarray
    colors: np.ndarray
    indices: np.ndarray
    near: Tier
    far: Tier
    apron: tuple


def _level(n, stride):
    """Grid lines of a level along one axis: every ``stride``-th index and the last."""
    return np.unique(np.r_[np.arange(0, n - 1, stride), n - 1])


def _z_order(ci, cj):
    """Morton codes of chunk coordinates (bits interleaved): neighbours in a quadtree block are consecutive."""
    ci, cj = np.asarray(ci, np.int64), np.asarray(cj, np.int64)
    code = np.zeros(np.broadcast(ci, cj).shape, np.int64)
    for b in range(16):
        code |= ((ci >> b) & 1) << (2 * b + 1)
        code |= ((cj >> b) & 1) << (2 * b)
    return code


def _tier(h, xs, ys, chunk, strides, low_row, low_col, at, separate_skirts=False, covered=None):
    """One tier: its indices (list of arrays, starting at index ``at``), the next free index, its :class:`Tier`.

    ``low_row(i, j)`` and ``low_col(j, i)`` give the skirt vertices under the grid points on the near tier's
    border rows / columns (every :data:`CHUNK`-th line, and the last).  ``separate_skirts``: the skirts in
    a section of their own (:attr:`Tier.skirts`), else each right after its chunk's surface.  ``covered``
    (with ``separate_skirts``): :func:`build_terrain_mesh`'s; the cells it covers at its height go last in
    their chunk's surface range (:attr:`Tier.hidden`).
    """
    ny, nx = h.shape
    border_rows, border_cols = _level(ny, chunk), _level(nx, chunk)
    n_ci, n_cj = len(border_rows) - 1, len(border_cols) - 1
    n_chunks = n_ci * n_cj
    ci_all, cj_all = np.divmod(np.arange(n_chunks), n_cj)
    z_rank = np.empty(n_chunks, np.int64)
    z_rank[np.argsort(_z_order(ci_all, cj_all), kind="stable")] = np.arange(n_chunks)
    by_z = np.argsort(z_rank)
    indices = []
    ranges = np.zeros((n_chunks, len(strides), 2), np.int64)
    skirts = np.zeros_like(ranges) if separate_skirts else None
    hidden = np.zeros((n_chunks, len(strides)), np.int64)
    for level, stride in enumerate(strides):
        rows, cols = _level(ny, stride), _level(nx, stride)
        parts = [_cell_triangles(rows, cols, nx).reshape(-1, 6)]
        owners = [((rows[:-1] // chunk)[:, None] * n_cj + (cols[:-1] // chunk)[None, :]).ravel()]
        under = np.zeros((len(rows) - 1, len(cols) - 1), bool)
        if covered is not None and separate_skirts:
            fn, level_z, (x_lo, x_hi, y_lo, y_hi) = covered
            # (only the cells within the covered box's bounds are looked at: a few hundred of 576,000)
            ri = np.flatnonzero((xs[rows[:-1]] >= x_lo) & (xs[rows[1:]] <= x_hi))
            ci = np.flatnonzero((ys[cols[:-1]] >= y_lo) & (ys[cols[1:]] <= y_hi))
            if len(ri) and len(ci):
                r0, r1 = rows[ri][:, None], rows[ri + 1][:, None]
                c0, c1 = cols[ci][None, :], cols[ci + 1][None, :]
                box = np.broadcast_arrays(xs[r0], xs[r1], ys[c0], ys[c1])
                corners = np.stack(np.broadcast_arrays(h[r0, c0], h[r1, c0], h[r1, c1], h[r0, c1]))
                under[np.ix_(ri, ci)] = (fn(*box) & np.all(corners == level_z, axis=0))
        under = under.ravel()
        # Skirts along the border rows (each serves the chunks on both its sides) ...
        top_a = border_rows[:, None] * nx + cols[None, :-1]
        top_b = border_rows[:, None] * nx + cols[None, 1:]
        low_a, low_b = low_row(border_rows[:, None], cols[None, :-1]), low_row(border_rows[:, None], cols[None, 1:])
        quads = np.stack(np.broadcast_arrays(top_a, low_a, low_b, top_a, low_b, top_b), axis=-1).reshape(-1, 6)
        cj = np.broadcast_to(cols[None, :-1] // chunk, top_a.shape).ravel()
        line = np.broadcast_to(border_rows[:, None], top_a.shape).ravel()
        for side in (line // chunk, (line - 1) // chunk):
            ok = (side >= 0) & (side < n_ci)
            parts.append(quads[ok])
            owners.append(side[ok] * n_cj + cj[ok])
        # ... and along the border columns.
        top_a = rows[:-1, None] * nx + border_cols[None, :]
        top_b = rows[1:, None] * nx + border_cols[None, :]
        low_a, low_b = low_col(border_cols[None, :], rows[:-1, None]), low_col(border_cols[None, :], rows[1:, None])
        quads = np.stack(np.broadcast_arrays(top_a, low_a, low_b, top_a, low_b, top_b), axis=-1).reshape(-1, 6)
        ci = np.broadcast_to(rows[:-1, None] // chunk, top_a.shape).ravel()
        line = np.broadcast_to(border_cols[None, :], top_a.shape).ravel()
        for side in (line // chunk, (line - 1) // chunk):
            ok = (side >= 0) & (side < n_cj)
            parts.append(quads[ok])
            owners.append(ci[ok] * n_cj + side[ok])
        if skirts is None:             # each chunk's surface, then its skirts
            owner = np.concatenate(owners)
            skirt = np.repeat(np.arange(len(parts)) > 0, [len(o) for o in owners])
            sections = [(ranges, np.concatenate(parts), owner, 2 * z_rank[owner] + skirt)]
        else:                          # the surfaces (the covered cells last in each chunk's), then the skirts
            owner = np.concatenate(owners[1:])
            sections = [(ranges, parts[0], owners[0], 2 * z_rank[owners[0]] + under),
                        (skirts, np.concatenate(parts[1:]), owner, z_rank[owner])]
            hidden[:, level] = 6 * np.bincount(owners[0][under], minlength=n_chunks)
        for out, tris, owner, key in sections:
            indices.append(tris[np.argsort(key, kind="stable")].ravel())
            counts = 6 * np.bincount(owner, minlength=n_chunks)
            out[by_z, level, 0] = at + np.r_[0, np.cumsum(counts[by_z])[:-1]]
            out[:, level, 1] = counts
            at += 6 * len(owner)
    lo_i, hi_i = border_rows[:-1], border_rows[1:]
    lo_j, hi_j = border_cols[:-1], border_cols[1:]
    hmax = np.maximum.reduceat(np.maximum.reduceat(h, lo_i, axis=0), lo_j, axis=1)
    hmin = np.minimum.reduceat(np.minimum.reduceat(h, lo_i, axis=0), lo_j, axis=1) - SKIRT_FT
    lo = np.stack(np.broadcast_arrays(xs[lo_i][:, None], ys[lo_j][None, :], hmin), axis=-1).reshape(-1, 3)
    hi = np.stack(np.broadcast_arrays(xs[hi_i][:, None], ys[hi_j][None, :], hmax), axis=-1).reshape(-1, 3)
    return indices, at, Tier(chunk, tuple(strides), (n_ci, n_cj), ranges, skirts, 0.5 * (lo + hi),
                             0.5 * (hi - lo), hidden)


def build_terrain_mesh(terrain, covered=None) -> TerrainMesh:
    """The drawable mesh of a :class:`flightsim.physics.terrain.Terrain` (any object with its fields).

    Parameters
    ----------
    terrain : flightsim.physics.terrain.Terrain
        ``heights`` (ny, nx) ft, ``landuse`` (ny, nx), ``x0``, ``y0``, ``spacing`` ft, ``sea_level`` ft.
    covered : (callable, float, tuple), optional
        ``(fn, z, (x_lo, x_hi, y_lo, y_hi))``: ``fn(x0, x1, y0, y1)`` (arrays, ft) says which boxes lie wholly
        under something the renderer draws over the terrain at height ``z`` (home's fields, at 0 ft), all within
        those bounds (ft).  The grid cells inside one
        whose corners all stand at ``z`` are :attr:`Tier.hidden`: the renderer, drawing that, need not
        rasterise the terrain under it (Mesa's software rasteriser pays for every pixel it rejects).
    """
    h = np.asarray(terrain.heights, dtype=np.float64)
    ny, nx = h.shape
    xs = terrain.x0 + terrain.spacing * np.arange(ny)
    ys = terrain.y0 + terrain.spacing * np.arange(nx)
    pos = np.empty((ny, nx, 3))
    pos[..., 0] = xs[:, None]
    pos[..., 1] = ys[None, :]
    pos[..., 2] = h
    grid_normals = _normals(terrain)
    grid_colors = landuse_colors(terrain)

    # The skirts' points: the grid's points on the near chunks' borders, SKIRT_FT lower (rows, then columns);
    # the far chunks' borders are among them.
    border_rows, border_cols = _level(ny, CHUNK), _level(nx, CHUNK)
    row_k = np.full(ny, -1)
    row_k[border_rows] = np.arange(len(border_rows))
    col_k = np.full(nx, -1)
    col_k[border_cols] = np.arange(len(border_cols))
    n_grid = ny * nx
    row_base = n_grid                                   # [k, j] of border row k at row_base + k * nx + j
    col_base = row_base + len(border_rows) * nx         # [i, k] of border column k at col_base + k * ny + i
    low_rows = pos[border_rows].reshape(-1, 3).copy()
    low_cols = pos[:, border_cols].transpose(1, 0, 2).reshape(-1, 3).copy()
    low_rows[:, 2] -= SKIRT_FT
    low_cols[:, 2] -= SKIRT_FT
    n_skirt = len(low_rows) + len(low_cols)

    def low_row(i, j):
        return row_base + row_k[i] * nx + j

    def low_col(j, i):
        return col_base + col_k[j] * ny + i

    near_idx, at, near = _tier(h, xs, ys, CHUNK, LEVELS[:NEAR_LEVELS], low_row, low_col, 0, True, covered)
    far_idx, at, far = _tier(h, xs, ys, FAR_CHUNK, LEVELS[NEAR_LEVELS:], low_row, low_col, at, True, covered)
    indices = near_idx + far_idx

    # The apron: from the grid's border (at sea level) out to APRON_FT, coloured like the border.
    border = np.r_[border_rows[:-1] * nx, (ny - 1) * nx + border_cols[:-1],
                   border_rows[::-1][:-1] * nx + (nx - 1), border_cols[::-1][:-1]]
    inner = pos.reshape(-1, 3)[border].copy()
    inner[:, 2] = getattr(terrain, "sea_level", 0.0)
    centre = np.array([0.5 * (xs[0] + xs[-1]), 0.5 * (ys[0] + ys[-1])])
    out_dir = inner[:, :2] - centre
    outer = inner.copy()
    outer[:, :2] = centre + out_dir * (APRON_FT / np.abs(out_dir).max(axis=1))[:, None]
    m = len(border)
    first = n_grid + n_skirt
    k = np.arange(m)
    a, b = first + k, first + (k + 1) % m
    apron_idx = np.stack([a, b + m, a + m, a, b, b + m], axis=-1).ravel()
    indices.append(apron_idx)
    use = np.asarray(terrain.landuse).reshape(-1)[border]
    edge_colors = np.where(use[:, None] == WATER, _COLORS[WATER], grid_colors.reshape(-1, 3)[border])

    flat_n = grid_normals.reshape(-1, 3)
    flat_c = grid_colors.reshape(-1, 3)
    skirt_src = np.r_[(border_rows[:, None] * nx + np.arange(nx)[None, :]).ravel(),
                      (np.arange(ny)[None, :] * nx + border_cols[:, None]).ravel()]
    positions = np.concatenate([pos.reshape(-1, 3), low_rows, low_cols, inner, outer]).astype(np.float32)
    normals = np.concatenate([flat_n, flat_n[skirt_src], np.tile([0.0, 0.0, 1.0], (2 * m, 1))]).astype(np.float32)
    colors = np.concatenate([flat_c, flat_c[skirt_src], edge_colors, edge_colors]).astype(np.float32)
    return TerrainMesh(positions, normals, colors, np.concatenate(indices).astype(np.uint32), near, far,
                       (at, len(apron_idx)))


def chunk_levels(centers, half, eye, detail_ft=DETAIL_FT) -> np.ndarray:
    """Each chunk's level of detail (index into :data:`LEVELS`) for an eye at ``eye`` (ft).

    Full resolution within ``detail_ft`` of the chunk's nearest point, one level coarser each time the
    distance doubles.
    """
    gap = np.maximum(np.abs(np.asarray(centers) - np.asarray(eye)) - half, 0.0)
    dist = np.sqrt((gap * gap).sum(axis=1))
    level = np.floor(np.log2(np.maximum(dist, 1.0) / detail_ft) + 1.0)
    return np.clip(level, 0, len(LEVELS) - 1).astype(np.int64)


def map_image(terrain, size=512) -> np.ndarray:
    """The map's picture of the terrain: (rows, cols, 4) uint8 RGBA, North up and East right (row 0 the
    grid's North edge, column 0 its West edge), at most ``size`` pixels a side (every k-th grid point).

    Colours by height (:func:`height_colors`), shaded by the slope under a light from the North-West, so the
    ridges stand out.
    """
    h = np.asarray(terrain.heights, dtype=np.float64)
    step = max(1, int(np.ceil(max(h.shape) / size)))
    hs, use = h[::step, ::step], np.asarray(terrain.landuse)[::step, ::step]
    col = height_colors(hs, use).astype(np.float64)
    spacing = terrain.spacing * step
    dx = np.gradient(hs, spacing, axis=0)
    dy = np.gradient(hs, spacing, axis=1)
    n = np.stack([-dx, -dy, np.ones_like(hs)], axis=-1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    light = np.array([1.0, 1.0, 1.4]) / np.linalg.norm([1.0, 1.0, 1.4])      # from the North-West, above
    shade = np.clip(0.35 + 0.75 * (n @ light), 0.5, 1.15)
    col = np.clip(col * shade[..., None], 0.0, 1.0)
    img = np.empty(col.shape[:2] + (4,), np.uint8)
    img[..., :3] = np.round(col * 255.0)
    img[..., 3] = 255
    return np.ascontiguousarray(img[::-1, ::-1])            # row 0 North (x largest), column 0 West (y largest)


def terrain_draw_ranges(mesh, eye, planes_visible, detail_ft=DETAIL_FT, far_stride=16, covered=False) -> np.ndarray:
    """The ``(first, count)`` index ranges to draw for an eye at ``eye`` (ft): each far chunk at its level,
    or, where that would be a near level, its near chunks in view at theirs; the skirts of a near chunk
    whose neighbour is drawn otherwise (another level, the far tier, beyond the grid), and of the far chunks
    beside the split ones.  Ranges in the index buffer's order (the
    near tier first), neighbouring ones merged: a few tens of draws.

    Parameters
    ----------
    mesh : TerrainMesh
    eye : array_like, shape (3,)
    planes_visible : callable
        ``planes_visible(centers, radii)`` -> bool array: which bounding spheres the view sees.
    detail_ft : float
        :func:`chunk_levels`' full-detail distance.
    far_stride : int
        The far chunks' stride, one of the far tier's (one stride for them all: far chunks of one level
        meet without a slit, and those drawn, all but a block around the eye, are a few ranges).
    covered : bool
        Leave out the cells under what the mesh's ``covered`` draws (:attr:`Tier.hidden`): the caller draws it.
    """
    near, far = mesh.near, mesh.far
    ratio = far.chunk // near.chunk
    split = chunk_levels(far.centers, far.half, eye, detail_ft) < NEAR_LEVELS
    far_level = np.full(len(far.centers), NEAR_LEVELS + far.strides.index(far_stride))
    # the near chunks of the split far chunks, at their levels (only those: a few tens)
    fi, fj = np.divmod(np.flatnonzero(split), far.grid[1])
    ci = (fi[:, None, None] * ratio + np.arange(ratio)[None, :, None]).repeat(ratio, axis=2).ravel()
    cj = (fj[:, None, None] * ratio + np.arange(ratio)[None, None, :]).repeat(ratio, axis=1).ravel()
    inside = (ci < near.grid[0]) & (cj < near.grid[1])
    children = ci[inside] * near.grid[1] + cj[inside]
    near_level = np.full(len(near.centers), -1)
    near_level[children] = np.minimum(chunk_levels(near.centers[children], near.half[children], eye, detail_ft),
                                      NEAR_LEVELS - 1)
    near_key = near_level                                                       # -1: drawn by the far tier
    shown = np.zeros(len(near.centers), bool)
    half = near.half[children]
    shown[children] = planes_visible(near.centers[children], np.sqrt((half * half).sum(axis=1)))
    grid = near_key.reshape(near.grid)
    pad = np.pad(grid, 1, constant_values=-2)
    differs = ((pad[:-2, 1:-1] != grid) | (pad[2:, 1:-1] != grid) | (pad[1:-1, :-2] != grid)
               | (pad[1:-1, 2:] != grid)).ravel() & shown
    far_radius = np.sqrt((far.half * far.half).sum(axis=1))
    drawn = ~split & planes_visible(far.centers, far_radius) if CULL_FAR else ~split
    # the far chunks' skirts only beside split ones (far chunks of one level meet without a slit)
    pad = np.pad(split.reshape(far.grid), 1)
    beside = (pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:]).ravel() & drawn
    near_r = near.ranges[np.flatnonzero(shown), near_level[shown]]
    far_r = far.ranges[np.flatnonzero(drawn), far_level[drawn] - NEAR_LEVELS]
    if covered and near.hidden is not None:
        near_r = near_r - np.stack([np.zeros_like(near_r[:, 0]),
                                    near.hidden[np.flatnonzero(shown), near_level[shown]]], axis=-1)
        far_r = far_r - np.stack([np.zeros_like(far_r[:, 0]),
                                  far.hidden[np.flatnonzero(drawn), far_level[drawn] - NEAR_LEVELS]], axis=-1)
    r = np.concatenate([near_r, near.skirts[np.flatnonzero(differs), near_level[differs]],
                        far_r, far.skirts[np.flatnonzero(beside), far_level[beside] - NEAR_LEVELS]])
    r = r[r[:, 1] > 0]
    if len(r) == 0:
        return r
    r = r[np.argsort(r[:, 0], kind="stable")]
    starts = np.flatnonzero(np.r_[True, r[1:, 0] != r[:-1, 0] + r[:-1, 1]])
    return np.stack([r[starts, 0], np.add.reduceat(r[:, 1], starts)], axis=-1)

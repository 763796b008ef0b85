"""The ground: a patchwork of fields and country roads as flat coloured polygons.

The fields are geometry with per-vertex colours rather than a texture:
Mesa's software renderer spends most of a frame sampling a full-screen
texture, while interpolating a colour is nearly free, and flat fields are
what farmland looks like from the air anyway.  One tile of
:data:`TILE_FT` feet repeats over the earth; the renderer draws a detailed
3 x 3 block of tiles around the camera, a coarser ring of tiles (one colour
per road block) around that, and a plain skirt to the horizon, all moving
with the camera in whole tiles so the pattern stays fixed to the earth.

Positions here are 2D (x North, y West) in feet relative to the origin of
the camera's tile.  No OpenGL.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BLOCKS", "TILE_FT", "GroundMeshes", "build_ground", "field_rects", "tile_origin"]

TILE_FT = 16384.0
"""Size of one repeat of the field pattern, ft."""

BLOCKS = 4
"""Road blocks along each side of a tile (roads every TILE_FT / BLOCKS ft)."""

ROAD_FT = 40.0
"""Width of the country roads, ft."""

TILE_OFFSET = np.array([1733.0, 2911.0])
"""Shift of the pattern against the earth origin, so no road runs under the runway."""

_CROPS = np.array([
    [0.33, 0.47, 0.20], [0.40, 0.55, 0.24], [0.29, 0.42, 0.19], [0.52, 0.56, 0.27],
    [0.62, 0.58, 0.33], [0.70, 0.64, 0.38], [0.48, 0.40, 0.27], [0.36, 0.50, 0.22],
    [0.44, 0.52, 0.21], [0.57, 0.50, 0.30], [0.31, 0.45, 0.24],
])
_FOREST = np.array([0.15, 0.26, 0.12])
_ROAD = np.array([0.50, 0.49, 0.47])


@dataclass
class GroundMeshes:
    """Flat 2D meshes of the ground, in feet relative to the camera tile's origin.

    Each of ``near``, ``far`` and ``skirt`` is a tuple ``(positions (n, 2),
    colors (n, 4), indices (m,))``.

    Attributes
    ----------
    near : list of tuple
        3 x 3 detailed tiles around the camera's tile, each ``(mesh, (i, j))``
        with ``(i, j)`` its position in tiles from the camera's tile.  A
        tile's quads come in this order: its fields, block by block
        (``block_fields[b]`` quads for block ``b``), then one quad per
        block in the block's mean colour (drawn instead of its fields far
        from the eye), then the roads (``roads`` quads), drawn last.
    far : tuple
        The surrounding ring of tiles, one colour per road block.
    skirt : tuple
        Plain ground from the far ring out to ``extent``.
    average : numpy.ndarray, shape (3,)
        Mean ground colour (the far distance fades to it).
    block_fields : numpy.ndarray, shape (BLOCKS * BLOCKS,)
        Fields in each road block of a tile (block ``i * BLOCKS + j`` spans
        ``[i, i + 1] x [j, j + 1]`` times ``TILE_FT / BLOCKS``).
    roads : int
        Road quads in a tile.
    """

    near: tuple
    far: tuple
    skirt: tuple
    average: np.ndarray
    block_fields: np.ndarray
    roads: int


def _split(rect, depth, rng, out):
    """Recursively split a rectangle (x0, y0, x1, y1) into fields."""
    x0, y0, x1, y1 = rect
    w, h = x1 - x0, y1 - y0
    if depth == 0 or max(w, h) < 600.0 or (depth < 3 and rng.random() < 0.25):
        out.append(rect)
        return
    split_x = (w > h) if rng.random() < 0.8 else (w <= h)
    if split_x:
        cut = x0 + w * rng.uniform(0.3, 0.7)
        _split((x0, y0, cut, y1), depth - 1, rng, out)
        _split((cut, y0, x1, y1), depth - 1, rng, out)
    else:
        cut = y0 + h * rng.uniform(0.3, 0.7)
        _split((x0, y0, x1, cut), depth - 1, rng, out)
        _split((x0, cut, x1, y1), depth - 1, rng, out)


def field_rects(seed=3):
    """The fields of one tile: list of ``(x0, y0, x1, y1, rgb)`` (ft, 0..TILE_FT), and the roads.

    Returns
    -------
    fields : list of tuple
    roads : list of tuple
        Road strips ``(x0, y0, x1, y1, rgb)`` along the block edges.
    """
    rng = np.random.default_rng(seed)
    step = TILE_FT / BLOCKS
    fields = []
    for i in range(BLOCKS):
        for j in range(BLOCKS):
            rects = []
            _split((i * step, j * step, (i + 1) * step, (j + 1) * step), 5, rng, rects)
            for rect in rects:
                if rng.random() < 0.14:
                    color = _FOREST * rng.uniform(0.85, 1.15)
                else:
                    color = _CROPS[rng.integers(len(_CROPS))] * rng.uniform(0.9, 1.08)
                fields.append((*rect, np.clip(color, 0.0, 1.0)))
    roads = []
    for k in range(BLOCKS):
        c = k * step
        roads.append((c - 0.5 * ROAD_FT, 0.0, c + 0.5 * ROAD_FT, TILE_FT, _ROAD))
        roads.append((0.0, c - 0.5 * ROAD_FT, TILE_FT, c + 0.5 * ROAD_FT, _ROAD))
    return fields, roads


def _quads(rects, offsets):
    """Rectangles ``(x0, y0, x1, y1, rgb)`` copied at each (dx, dy) offset, as a 2D mesh."""
    r = np.array([rc[:4] for rc in rects], dtype=np.float64)
    col = np.array([rc[4] for rc in rects], dtype=np.float32)
    n = len(r)
    corners = np.stack([r[:, [0, 1]], r[:, [2, 1]], r[:, [2, 3]], r[:, [0, 3]]], axis=1)   # (n, 4, 2)
    offs = np.asarray(offsets, dtype=np.float64)
    pos = (corners[None, :, :, :] + offs[:, None, None, :]).reshape(-1, 2)
    colors = np.concatenate([np.repeat(col, 4, axis=0), np.ones((n * 4, 1), np.float32)], axis=1)
    colors = np.tile(colors, (len(offs), 1))
    base = np.arange(len(offs) * n)[:, None] * 4
    idx = (base + np.array([0, 1, 2, 0, 2, 3])).ravel()
    return pos.astype(np.float32), colors, idx.astype(np.uint32)


def _merge(*meshes):
    """Concatenate 2D meshes ``(positions, colors, indices)``."""
    offset, pos, col, idx = 0, [], [], []
    for p, c, i in meshes:
        pos.append(p)
        col.append(c)
        idx.append(i + offset)
        offset += len(p)
    return np.concatenate(pos), np.concatenate(col), np.concatenate(idx)


def build_ground(extent=160000.0, seed=3) -> GroundMeshes:
    """Build the ground meshes.

    Parameters
    ----------
    extent : float
        Half size of the ground around the camera, ft.
    seed : int
        Field pattern.
    """
    fields, roads = field_rects(seed)
    area = np.array([(f[2] - f[0]) * (f[3] - f[1]) for f in fields])
    colors = np.array([f[4] for f in fields])
    average = (colors * area[:, None]).sum(axis=0) / area.sum()

    # One colour per road block: the far ring, and the near tiles' blocks far from the eye.
    step = TILE_FT / BLOCKS
    blocks, block_fields = [], []
    for i in range(BLOCKS):
        for j in range(BLOCKS):
            inside = [(f, a) for f, a in zip(fields, area, strict=True)
                      if i * step <= f[0] < (i + 1) * step and j * step <= f[1] < (j + 1) * step]
            c = sum(f[4] * a for f, a in inside) / sum(a for _, a in inside)
            blocks.append((i * step, j * step, (i + 1) * step, (j + 1) * step, c))
            block_fields.append(len(inside))
    if sum(block_fields) != len(fields) or [f[:2] for f in fields] != sorted(
            (f[:2] for f in fields), key=lambda xy: (int(xy[0] // step), int(xy[1] // step))):
        raise AssertionError("field_rects must list the fields block by block")

    near = []
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            offset = [(i * TILE_FT, j * TILE_FT)]
            near.append((_merge(_quads(fields, offset), _quads(blocks, offset), _quads(roads, offset)), (i, j)))
    ring = 2                      # beyond, the fields have faded into the haze: one colour
    far_offsets = [(i * TILE_FT, j * TILE_FT) for i in range(-ring, ring + 1) for j in range(-ring, ring + 1)
                   if max(abs(i), abs(j)) > 1]
    far = _quads(blocks, far_offsets)

    inner = ring * TILE_FT
    lo, hi = -inner, inner + TILE_FT
    e_lo, e_hi = -extent, extent + TILE_FT
    skirt_rects = [(e_lo, e_lo, e_hi, lo, average), (e_lo, hi, e_hi, e_hi, average),
                   (e_lo, lo, lo, hi, average), (hi, lo, e_hi, hi, average)]
    skirt = _quads(skirt_rects, [(0.0, 0.0)])
    return GroundMeshes(near, far, skirt, average.astype(np.float32), np.array(block_fields), len(roads))


def tile_origin(x, y):
    """Earth (x, y) of the origin of the tile containing (x, y), ft."""
    ox, oy = TILE_OFFSET
    return (np.floor((x - ox) / TILE_FT) * TILE_FT + ox, np.floor((y - oy) / TILE_FT) * TILE_FT + oy)

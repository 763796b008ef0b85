"""The drawn terrain (:mod:`flightsim.app.scene.terrain_view`) is the physics' surface: its triangles' corners
and midpoints lie on :func:`flightsim.physics.terrain.terrain_height`, at every level near the camera."""

import numpy as np
import pytest

from flightsim.app.scene import terrain_view
from flightsim.physics.terrain import Terrain, load_terrain, pack_terrain, terrain_height


def _synthetic(n=41, spacing=650.0, seed=1):
    """A small rough terrain (random heights: any other split of a cell would show)."""
    rng = np.random.default_rng(seed)
    h = rng.uniform(0.0, 3000.0, (n, n + 6))
    use = rng.integers(0, 7, h.shape).astype(np.uint8)
    return Terrain(heights=h, landuse=use, x0=-13000.0, y0=-20000.0, spacing=spacing)


def _full_resolution_triangles(mesh, terrain):
    """The corners (m, 3, 3) of every chunk's level-0 surface triangles (skirts left out: below the grid)."""
    n_grid = terrain.heights.size
    tris = []
    for first, count in mesh.ranges[:, 0]:
        t = mesh.indices[first:first + count].reshape(-1, 3)
        tris.append(t[(t < n_grid).all(axis=1)])
    return mesh.positions[np.concatenate(tris)].astype(np.float64)


@pytest.mark.parametrize("terrain", [_synthetic(), load_terrain()], ids=["random", "world"])
def test_vertices_and_midpoints_lie_on_the_physics_surface(terrain):
    mesh = terrain_view.build_terrain_mesh(terrain)
    packed = pack_terrain(terrain)
    tri = _full_resolution_triangles(mesh, terrain)
    ny, nx = terrain.heights.shape
    assert len(tri) == 2 * (ny - 1) * (nx - 1)                 # every cell, two triangles, once
    if len(tri) > 200000:
        tri = tri[np.random.default_rng(0).choice(len(tri), 200000, replace=False)]
    points = np.concatenate([tri.reshape(-1, 3), tri.mean(axis=1),           # corners and centroids,
                             0.5 * (tri[:, 0] + tri[:, 1]), 0.5 * (tri[:, 1] + tri[:, 2]),
                             0.5 * (tri[:, 2] + tri[:, 0])])                # and the edges' midpoints
    h = np.array([terrain_height(packed, p[0], p[1])[0] for p in points])
    # float32 positions: a height of 10,000 ft holds to 1e-3 ft, a position of 250,000 ft to 0.016 ft
    slope = np.abs(np.diff(terrain.heights, axis=0)).max() / terrain.spacing + np.abs(
        np.diff(terrain.heights, axis=1)).max() / terrain.spacing
    assert np.abs(points[:, 2] - h).max() <= 2e-3 + 0.02 * slope


def test_triangles_face_up_and_levels_cover_the_grid():
    terrain = _synthetic()
    mesh = terrain_view.build_terrain_mesh(terrain)
    tri = _full_resolution_triangles(mesh, terrain)
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    assert (normal[:, 2] > 0).all()
    x_min, x_max = terrain.x0, terrain.x0 + terrain.spacing * (terrain.heights.shape[0] - 1)
    y_min, y_max = terrain.y0, terrain.y0 + terrain.spacing * (terrain.heights.shape[1] - 1)
    area = (x_max - x_min) * (y_max - y_min)
    n_grid = terrain.heights.size
    for level in range(len(terrain_view.LEVELS)):
        cover = 0.0
        for first, count in mesh.ranges[:, level]:
            t = mesh.indices[first:first + count].reshape(-1, 3)
            p = mesh.positions[t[(t < n_grid).all(axis=1)]].astype(np.float64)
            a, b = p[:, 1, :2] - p[:, 0, :2], p[:, 2, :2] - p[:, 0, :2]
            cover += 0.5 * np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()
        assert cover == pytest.approx(area, rel=1e-9), level


def test_levels_coarsen_with_distance():
    terrain = load_terrain()
    mesh = terrain_view.build_terrain_mesh(terrain)
    levels = terrain_view.chunk_levels(mesh.centers, mesh.half, np.array([0.0, 0.0, 1000.0]), 12000.0)
    gap = np.maximum(np.abs(mesh.centers[:, :2]) - mesh.half[:, :2], 0.0)
    dist = np.hypot(gap[:, 0], gap[:, 1])
    assert (levels[dist < 11000.0] == 0).all() and (levels[dist > 200000.0] == len(terrain_view.LEVELS) - 1).all()
    assert np.all(np.diff(levels[np.argsort(dist)]) >= 0)
    drawn = mesh.ranges[np.arange(len(levels)), levels, 1].sum() // 3
    assert drawn < 80000                          # the whole region, 40 nm around, in a few tens of thousands


def test_water_is_blue_and_snow_white_on_the_peaks():
    terrain = load_terrain()
    col = terrain_view.landuse_colors(terrain)
    water = col[terrain.landuse == 0]
    assert (water[:, 2] > water[:, 0]).all() and (water[:, 2] > water[:, 1]).all()
    snow = col[terrain.landuse == 5]
    assert snow.size and snow.min() > 0.8

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


def _level_triangles(mesh, terrain, tier, level):
    """The corners (m, 3, 3) of a tier's chunks' surface triangles at ``level`` (skirts left out)."""
    n_grid = terrain.heights.size
    tris = []
    for first, count in tier.ranges[:, level]:
        t = mesh.indices[first:first + count].reshape(-1, 3)
        tris.append(t[(t < n_grid).all(axis=1)])
    return mesh.positions[np.concatenate(tris)].astype(np.float64)


def _full_resolution_triangles(mesh, terrain):
    return _level_triangles(mesh, terrain, mesh.near, 0)


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
    del n_grid
    for tier in (mesh.near, mesh.far):
        for level in range(len(tier.strides)):
            p = _level_triangles(mesh, terrain, tier, level)
            a, b = p[:, 1, :2] - p[:, 0, :2], p[:, 2, :2] - p[:, 0, :2]
            cover = 0.5 * np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()
            assert cover == pytest.approx(area, rel=1e-9), (tier.chunk, level)


def test_levels_coarsen_with_distance_and_the_draw_is_a_few_ranges():
    terrain = load_terrain()
    mesh = terrain_view.build_terrain_mesh(terrain)
    near = mesh.near
    levels = terrain_view.chunk_levels(near.centers, near.half, np.array([0.0, 0.0, 1000.0]), 12000.0)
    gap = np.maximum(np.abs(near.centers[:, :2]) - near.half[:, :2], 0.0)
    dist = np.hypot(gap[:, 0], gap[:, 1])
    assert (levels[dist < 11000.0] == 0).all() and (levels[dist > 200000.0] == len(terrain_view.LEVELS) - 1).all()
    assert np.all(np.diff(levels[np.argsort(dist)]) >= 0)
    everywhere = lambda centers, radii: np.ones(len(centers), bool)          # noqa: E731
    for eye in ([0.0, 0.0, 1000.0], [-100000.0, -185000.0, 6500.0]):
        for detail, far in ((1500.0, 32), (16000.0, 16)):
            ranges = terrain_view.terrain_draw_ranges(mesh, np.array(eye), everywhere, detail, far)
            tris = ranges[:, 1].sum() // 3
            # low quality: tens of ranges and a few thousand triangles for the whole region, even unculled
            most_ranges, most_tris = (80, 5000) if far == 32 else (400, 60000)
            assert len(ranges) < most_ranges and tris < most_tris, (eye, detail, len(ranges), tris)
            # the whole region is covered once: each grid cell's surface in exactly one drawn range
            drawn = np.zeros(mesh.indices.size, bool)
            for first, count in ranges:
                drawn[first:first + count] = True
            n_grid = terrain.heights.size
            t = mesh.indices[drawn].reshape(-1, 3)
            p = mesh.positions[t[(t < n_grid).all(axis=1)]].astype(np.float64)
            a, b = p[:, 1, :2] - p[:, 0, :2], p[:, 2, :2] - p[:, 0, :2]
            x_max = terrain.x0 + terrain.spacing * (terrain.heights.shape[0] - 1)
            y_max = terrain.y0 + terrain.spacing * (terrain.heights.shape[1] - 1)
            area = (x_max - terrain.x0) * (y_max - terrain.y0)
            assert 0.5 * np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum() == pytest.approx(area, rel=1e-9)
    # the full resolution under an airplane on the ground at the mountain strip
    ranges = terrain_view.terrain_draw_ranges(mesh, np.array([-100000.0, -185000.0, 5810.0]), everywhere, 1500.0, 32)
    under = int(np.argmin(np.hypot(*(near.centers[:, :2] - [-100000.0, -185000.0]).T)))
    first = near.ranges[under, 0, 0]
    assert any(f <= first < f + c for f, c in ranges)


def test_the_cells_under_homes_fields_are_left_out_only_when_asked_and_only_there():
    # a box of "fields" drawn over the terrain at 0 ft: the flat cells wholly inside it go last in their chunks
    terrain = load_terrain()
    box = (-9000.0, 7000.0, -6000.0, 8000.0)

    def covers(x0, x1, y0, y1):
        return (x0 >= box[0]) & (x1 <= box[1]) & (y0 >= box[2]) & (y1 <= box[3])

    mesh = terrain_view.build_terrain_mesh(terrain, covered=(covers, 0.0, box))
    plain = terrain_view.build_terrain_mesh(terrain)
    assert mesh.near.hidden[:, 0].sum() > 0 and np.array_equal(mesh.near.ranges, plain.near.ranges)
    n_grid = terrain.heights.size
    for level in range(len(mesh.near.strides)):
        for (first, count), hidden in zip(mesh.near.ranges[:, level], mesh.near.hidden[:, level], strict=True):
            if hidden:
                p = mesh.positions[mesh.indices[first + count - hidden:first + count]].astype(np.float64)
                assert np.all(p[:, 2] == 0.0)
                assert np.all((p[:, 0] >= box[0]) & (p[:, 0] <= box[1]) & (p[:, 1] >= box[2]) & (p[:, 1] <= box[3]))
            if level == 0:                               # (650 ft cells: one whose centre is 1,300 ft inside is in)
                kept = mesh.indices[first:first + count - hidden].reshape(-1, 3)
                q = mesh.positions[kept[(kept < n_grid).all(axis=1)]].astype(np.float64).mean(axis=1)
                inside = (q[:, 0] > box[0]) & (q[:, 0] < box[1]) & (q[:, 1] > box[2]) & (q[:, 1] < box[3])
                flat = np.all(mesh.positions[kept[(kept < n_grid).all(axis=1)]][..., 2] == 0.0, axis=1)
                assert not np.any(inside & flat & (q[:, 0] > box[0] + 1300) & (q[:, 0] < box[1] - 1300)
                                  & (q[:, 1] > box[2] + 1300) & (q[:, 1] < box[3] - 1300))
    everywhere = lambda centers, radii: np.ones(len(centers), bool)          # noqa: E731
    eye = np.array([0.0, 0.0, 800.0])
    both = [terrain_view.terrain_draw_ranges(mesh, eye, everywhere, 1500.0, 32, covered) for covered in (False, True)]
    assert np.array_equal(both[0], terrain_view.terrain_draw_ranges(plain, eye, everywhere, 1500.0, 32))
    assert 0 < both[0][:, 1].sum() - both[1][:, 1].sum() <= mesh.near.hidden.sum()
